// IIR filtering of signals already in device memory (ripple::Buffer<T> on a CUDA or OpenCL
// device, or on the CPU): sosfilt and the streaming DeviceFilter, float or double. A signal of
// `channels` channels is one Buffer of channels x n samples, row-major (channel c's samples at
// [c * n, c * n + n)), filtered along its rows exactly as scipy.signal.sosfilt(sos, x, axis=-1)
// on a (channels, n) array; states use scipy's zi layout for that array: (sections, channels, 2).
//
//   ripple::Queue queue(ripple::Device::best());
//   ripple::Buffer<float> x(queue, host);                  // 16 channels x n, uploaded once
//   ripple::iir::DeviceFilter<float> filter(queue, ripple::iir::butter(8, 0.01), 16);
//   filter.process(x, x);                                   // in place; state stays on the device
//   filter.process(x, x);                                   // the next block continues it
//   x.download(std::span<float>(host));
//
// On a GPU the whole cascade runs in one pass over memory: a single-pass scan of the sections'
// state maps with decoupled look-back across tiles (long channels), or one work-item per channel
// (many short channels), chosen by a cost rule (docs/ARCHITECTURE.md, "GPU biquad cascade").
// Results equal the serial recurrence to within rounding; float results are at least as
// accurate as scipy's serial float recurrence. On the CPU the same calls run iir::sosfilt.
//
// Errors: InvalidArgument naming the value (an empty sos, a0 != 1, channels 0 or not dividing
// x's size, buffers of different sizes or on different devices, a state buffer of the wrong
// size); Unsupported for double precision on a device without it; DeviceError for a failure of
// the device runtime (out of memory, launch failure) with the runtime's message.
#pragma once

#include <concepts>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "ripple/array.hpp"
#include "ripple/device.hpp"
#include "ripple/iir/sos.hpp"

namespace ripple::iir {

/// Sample types filtered on devices.
template <class T>
concept DeviceReal = std::same_as<T, float> || std::same_as<T, double>;

/// Which GPU kernel filters the channels: chosen by cost, the single-pass tile scan, or one
/// work-item per channel. Only GPU devices look at it.
enum class DevicePath { automatic, tiles, channels };

/// y = the cascade applied to every row of x (channels x n = x.size() / channels samples). y has
/// x's size and device and may be x itself. Coefficients are rounded to T first (scipy's
/// sos.astype). Returns when the result is in y.
template <std::floating_point S, DeviceReal T>
void sosfilt(const BasicSos<S>& sos, const Buffer<T>& x, Buffer<T>& y, std::size_t channels = 1);

/// The same, starting from `state` (sections x channels x 2 values: scipy's zi for a (channels,
/// n) signal along its last axis), which is overwritten with the final state (scipy's zf).
template <std::floating_point S, DeviceReal T>
void sosfilt(const BasicSos<S>& sos, const Buffer<T>& x, Buffer<T>& y, std::size_t channels, Buffer<T>& state);

/// sosfilt of host data on `queue`'s device: x holds `channels` rows of x.size() / channels
/// samples; it is uploaded, filtered and the result downloaded (the CPU filters it in place of a
/// copy). Returns the filtered rows.
template <std::floating_point S, DeviceReal T>
std::vector<T> sosfilt(const Queue& queue, const BasicSos<S>& sos, std::span<const T> x, std::size_t channels = 1);

/// The streaming form of sosfilt on a device (iir::Filter's counterpart for Buffers): the plan,
/// the compiled kernels and every channel's state stay on the queue's device between calls, so
/// blocks of any sizes give the one-shot result. Work is enqueued on the filter's queue (other
/// queues involved are synchronized with it). One DeviceFilter must not be used from two
/// threads at once.
template <DeviceReal T>
class DeviceFilter {
 public:
  /// Throws InvalidArgument for an empty sos, a0 != 1, or channels == 0; Unsupported for double
  /// on a device without it.
  DeviceFilter(const Queue& queue, const BasicSos<double>& sos, std::size_t channels = 1);
  DeviceFilter(const Queue& queue, const BasicSos<float>& sos, std::size_t channels = 1);
  DeviceFilter(DeviceFilter&&) noexcept;
  DeviceFilter& operator=(DeviceFilter&&) noexcept;
  ~DeviceFilter();

  const Queue& queue() const;
  std::size_t channels() const;
  std::size_t sections() const;

  /// Filters the channels() rows of x (x.size() / channels() samples each) into y (same size
  /// and device as the filter; y may be x), continuing from the state. Throws InvalidArgument on
  /// a size or device mismatch, leaving the state as it was.
  void process(const Buffer<T>& x, Buffer<T>& y);

  /// The state, downloaded: shape (sections, channels, 2), scipy's zi layout.
  Array<T> state() const;
  /// Sets the state from that layout. Throws InvalidArgument on a shape mismatch.
  void set_state(ArrayView<const T> zi);
  /// Back to the zero state.
  void reset();

  /// Forces a kernel (tests, benchmarks); automatic by default.
  void set_path(DevicePath path);
  /// The kernel process() takes for blocks of n samples per channel (GPU devices; `channels`
  /// for an unstable cascade, which runs the exact serial recurrence).
  DevicePath path_for(std::size_t n) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ripple::iir
