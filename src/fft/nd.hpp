// Rank 2 and 3 transforms as batched strided 1-D passes, one per axis: the last (contiguous)
// axis as a batch of rows through the 1-D plan tree (c2c nodes, or RealFft for r2c/c2r, so the
// last axis is the halved one as in numpy's rfftn), every other axis through AxisLines (blocks
// of adjacent lines staged and transformed W at a time in the SIMD lanes).
//   c2c, r2c: rows in -> out (scaled), then the other axes in place on out;
//   c2r:      the other axes in -> a packed complex work array, then c2r rows work -> out.
// Layout (FFTW's "many" with inembed/onembed): element (i0, .., i_{r-1}) of transform b at
// b * dist + stride * (i0 pitch[0] + .. + i_{r-1} pitch[r-1]), each side with its own pitches
// (those of its embedding), so rows and planes may lie apart (padded rows, a window of a larger
// array) and no pass gathers them first.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "fft/axis_lines.hpp"
#include "fft/c2c_node.hpp"
#include "fft/real.hpp"

namespace ripple::fft::detail {

/// The element pitch of each axis of one side (row-major pitches of its embedding, the last 1;
/// its stride multiplies them); entries past the rank unused.
using NdPitch = std::array<std::size_t, 3>;

/// `pitch` (rank 2 or 3) as an NdPitch.
NdPitch nd_pitch(const std::vector<std::size_t>& pitch);

template <class T>
class NdFft {
 public:
  enum class Mode { c2c, r2c, c2r };
  NdFft(std::vector<std::size_t> shape, Mode mode, bool forward, std::size_t batch, unsigned threads);

  /// `layout` gives each side's stride and distance and the batch, the pitches where its
  /// elements lie.
  void c2c(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, const NdPitch& in_pitch,
           const NdPitch& out_pitch, T scale, unsigned threads) const;
  void r2c(const T* in, std::complex<T>* out, const Layout& layout, const NdPitch& in_pitch,
           const NdPitch& out_pitch, T scale, unsigned threads) const;
  void c2r(const std::complex<T>* in, T* out, const Layout& layout, const NdPitch& in_pitch,
           const NdPitch& out_pitch, T scale, unsigned threads) const;
  std::string describe() const;

 private:
  /// One side of a pass: pitches, stride and distance.
  struct Side {
    NdPitch pitch;
    std::ptrdiff_t stride = 1, dist = 0;
    std::ptrdiff_t step(std::size_t axis) const { return std::ptrdiff_t(pitch[axis]) * stride; }
  };
  std::size_t rank() const { return shape_.size(); }
  std::size_t rows_per_transform() const;  // product of every axis but the last
  /// The lines of axis a (< rank-1) of the complex side from src to dst: the axes after it the
  /// adjacent lines (merged into one level where packed in one another on both sides), the one
  /// before it or between (rank 3) the outer level.
  AxisGeometry axis_geometry(std::size_t a, const Side& src, const Side& dst, std::size_t batch) const;
  /// Runs the row transform `rows(in, out, layout, threads)` over every row of every transform:
  /// in one call where rows are evenly spaced across the batch, else transform by transform,
  /// or (rank 3, planes apart from their rows' spacing) plane by plane, threads over the planes.
  template <class In, class Out, class Rows>
  void for_rows(const In* in, Out* out, const Side& is, const Side& os, std::size_t batch, const Rows& rows,
                unsigned threads) const;
  /// c2c and r2c: the rows (`rows(in, out, row_layout, threads)`, in -> out), then every other
  /// axis in place on out.
  template <class In, class Rows>
  void rows_then_axes(const In* in, std::complex<T>* out, const Side& is, const Side& os, std::size_t batch,
                      const Rows& rows, unsigned threads) const;

  std::vector<std::size_t> shape_;    // logical sizes
  std::vector<std::size_t> complex_;  // the complex side's sizes (last axis n/2+1 for real modes)
  Mode mode_;
  C2cNodePtr<T> rows_;                    // c2c: the last axis
  std::unique_ptr<RealFft<T>> real_rows_;  // r2c / c2r: the last axis
  NdPitch work_pitch_{};                   // c2r: the packed work array's
  std::vector<std::unique_ptr<const AxisLines<T>>> axes_;  // axes 0 .. rank-2
  // Rank 3 with planes that fit in cache: each plane's rows and axis-1 lines are done while it is
  // there (one memory round trip instead of two), planes shared among the threads.
  bool fuse_planes_ = false;
};

}  // namespace ripple::fft::detail
