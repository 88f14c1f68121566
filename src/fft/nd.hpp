// Rank 2 and 3 transforms as batched strided 1-D passes, one per axis: the last (contiguous)
// axis as a batch of rows through the 1-D plan tree (c2c nodes, or RealFft for r2c/c2r, so the
// last axis is the halved one as in numpy's rfftn), every other axis through AxisLines (blocks
// of adjacent lines staged and transformed W at a time in the SIMD lanes).
//   c2c, r2c: rows in -> out (scaled), then the other axes in place on out;
//   c2r:      the other axes in -> a packed complex work array, then c2r rows work -> out.
// Layout (as FFTW's "many" with no embedding, but for the reals' row pitch, real_row): element i
// (row-major index of the side's shape) of transform b at b * dist + i * stride. Other
// embeddings are the plan's to gather (plan.cpp).
#pragma once

#include <memory>
#include <vector>

#include "fft/axis_lines.hpp"
#include "fft/c2c_node.hpp"
#include "fft/real.hpp"

namespace ripple::fft::detail {

template <class T>
class NdFft {
 public:
  enum class Mode { c2c, r2c, c2r };
  NdFft(std::vector<std::size_t> shape, Mode mode, bool forward, std::size_t batch, unsigned threads);

  void c2c(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale, unsigned threads) const;
  /// real_row: the reals' row pitch in elements (FFTW's padded rows for in-place transforms,
  /// in_embed / out_embed past the row length); 0 is the row length.
  void r2c(const T* in, std::complex<T>* out, const Layout& layout, T scale, unsigned threads,
           std::size_t real_row = 0) const;
  void c2r(const std::complex<T>* in, T* out, const Layout& layout, T scale, unsigned threads,
           std::size_t real_row = 0) const;
  std::string describe() const;

 private:
  std::size_t rank() const { return shape_.size(); }
  std::size_t rows_per_transform() const;  // product of every axis but the last
  /// Axis a (< rank-1) of the complex side: src and dst element stride s, transform dist.
  AxisGeometry axis_geometry(std::size_t a, std::ptrdiff_t src_stride, std::ptrdiff_t src_dist,
                             std::ptrdiff_t dst_stride, std::ptrdiff_t dst_dist, std::size_t batch) const;
  /// Runs the row transform `rows(in, out, layout)` over every row of every transform: in one call
  /// when rows are evenly spaced across the batch, else transform by transform.
  template <class In, class Out, class Rows>
  void for_rows(const In* in, Out* out, const Layout& layout, std::size_t in_len, std::size_t out_len,
                const Rows& rows) const;
  /// c2c and r2c: the rows (`rows(in, out, row_layout, threads)`, in -> out), then every other
  /// axis in place on out.
  template <class In, class Rows>
  void rows_then_axes(const In* in, std::complex<T>* out, const Layout& layout, const Rows& rows, unsigned threads,
                      std::size_t in_row) const;

  std::vector<std::size_t> shape_;    // logical sizes
  std::vector<std::size_t> complex_;  // the complex side's sizes (last axis n/2+1 for real modes)
  Mode mode_;
  C2cNodePtr<T> rows_;                    // c2c: the last axis
  std::unique_ptr<RealFft<T>> real_rows_;  // r2c / c2r: the last axis
  std::vector<std::unique_ptr<const AxisLines<T>>> axes_;  // axes 0 .. rank-2
  // Rank 3 with planes that fit in cache: each plane's rows and axis-1 lines are done while it is
  // there (one memory round trip instead of two), planes shared among the threads.
  bool fuse_planes_ = false;
};

}  // namespace ripple::fft::detail
