// Transforms along an outer axis of multi-dimensional data: lines whose elements lie far apart
// (the row stride of the axis) while neighbouring lines are adjacent in memory. A block of
// adjacent lines is copied into a contiguous stage (each cache line of the data read once,
// whatever the stride; power-of-two strides cannot thrash cache sets), transformed there W lines
// at a time through the SIMD lanes (element e of W lines is one vector), and copied back.
#pragma once

#include <complex>
#include <cstddef>
#include <string>

#include "fft/c2c_node.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

/// Where the lines of one axis live, for one side (in complex units): `slabs` = batch x outer
/// matrices of n rows (the axis) x `columns` adjacent lines; slab (b, o) starts at
/// b * dist + o * outer_step, element e of line c at + e * elem + c * col.
struct AxisSide {
  std::ptrdiff_t dist = 0, outer_step = 0, elem = 0, col = 1;
};

struct AxisGeometry {
  std::size_t batch = 1, outer = 1, columns = 1;
  AxisSide src, dst;
};

template <class T>
class AxisLines {
 public:
  AxisLines(std::size_t n, bool forward);
  std::size_t n() const { return n_; }

  /// Transforms every line of the geometry from src to dst (src == dst with equal sides is
  /// in place), threads over blocks of lines.
  void run(const std::complex<T>* src, std::complex<T>* dst, const AxisGeometry& g, unsigned threads) const;

  /// Transforms `count` (<= block_columns()) adjacent lines: line c, element e at
  /// src[e * src_elem + c * src_col] -> dst[e * dst_elem + c * dst_col].
  void run_block(const std::complex<T>* src, std::ptrdiff_t src_elem, std::ptrdiff_t src_col, std::complex<T>* dst,
                 std::ptrdiff_t dst_elem, std::ptrdiff_t dst_col, std::size_t count,
                 const std::complex<T>* next_src = nullptr) const;

  /// Lines per stage: four cache lines of complex values. Stages of two lines per row, without
  /// the prefetch of run(), ran slower (one thread, AVX-512 Zen 4, ripple/FFTW, two lines ->
  /// four lines and prefetch: f64 256^3 1.25-1.37 -> 0.94-1.11, 4096^2 0.84-0.96 -> 0.83-0.86,
  /// 64^3 1.13-1.25 -> 0.76-1.03; f32 1024^2 0.96-1.09 -> 0.73-0.89).
  static constexpr std::size_t block_columns() { return 256 / sizeof(std::complex<T>); }
  std::string describe() const;

 private:
  std::size_t n_;
  bool lanes_ok_;
  LaneFft<T> lanes_;     // sizes that factor into lane passes
  C2cNodePtr<T> node_;  // other sizes (Rader, Bluestein), run on the stage as a batch
};

}  // namespace ripple::fft::detail
