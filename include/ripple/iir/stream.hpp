// Streaming IIR filtering: iir::Filter keeps every channel's state between calls, so a signal
// fed in blocks of any sizes (one sample, odd sizes, huge) gives the one-shot sosfilt result to
// within rounding.
//
//   ripple::iir::Filter<float> filter(ripple::iir::butter(4, 0.2), 2);
//   // stereo WAV frames, interleaved L R L R ...: 2 channels, filtered in place
//   filter.process_interleaved(frames, frames);
//
//   // or any n-dimensional view: the lines along `axis` are the channels
//   ripple::ArrayView<const float> rows(data, {2, n});
//   filter.process(rows, out_view, -1);
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "ripple/array.hpp"
#include "ripple/iir/filtering.hpp"
#include "ripple/iir/sos.hpp"

namespace ripple::iir {

/// A section cascade applied to `channels` independent channels, block after block. T is the
/// sample type (float, double, or their complex forms, filtered as real and imaginary parts);
/// coefficients are rounded to T's precision once. Plans and tables are made once at
/// construction: process() does not re-plan. One Filter must not be used from two threads at
/// once; different Filters may.
template <Sample T>
class Filter {
 public:
  using Real = typename detail::real_of<T>::type;

  /// Throws InvalidArgument for an empty sos, a section with a0 != 1, or channels == 0.
  explicit Filter(const BasicSos<double>& sos, std::size_t channels = 1);
  explicit Filter(const BasicSos<float>& sos, std::size_t channels = 1);
  Filter(const Filter& other);
  Filter(Filter&&) noexcept;
  Filter& operator=(const Filter& other);
  Filter& operator=(Filter&&) noexcept;
  ~Filter();

  std::size_t channels() const noexcept;
  std::size_t sections() const noexcept;

  /// Filters the lines of x along `axis` into y (same shape; y may be x itself for in-place).
  /// The lines, taken in C order of the other dimensions, are the channels, so x must have
  /// channels() of them. Throws InvalidArgument on a shape mismatch, leaving the state as it was.
  void process(ArrayView<const T> x, ArrayView<T> y, int axis = -1);
  /// Interleaved frames (sample t of channel c at x[t * channels() + c], as in WAV files).
  /// x.size() must be a multiple of channels(); y the same size (or x itself).
  void process_interleaved(std::span<const T> x, std::span<T> y);
  /// Filters x along `axis` into a new array.
  Array<T> operator()(ArrayView<const T> x, int axis = -1);

  /// The state in scipy's zi layout for a (channels, n) signal filtered along its last axis:
  /// shape (sections, channels, 2).
  Array<T> state() const;
  /// Sets the state from that layout (e.g. sosfilt_zi scaled per channel). Throws
  /// InvalidArgument on a shape mismatch.
  void set_state(ArrayView<const T> zi);
  /// Back to the zero state.
  void reset();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ripple::iir
