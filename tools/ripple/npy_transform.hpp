// FFT of an .npy array along its last axis, every other axis being a batch, or over chosen
// axes, with numpy.fft's semantics: complex input -> fft/ifft (fftn/ifftn), real input -> rfft
// (rfftn), complex input with real output -> irfft (irfftn). The precision of the result follows
// the input.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "ripple/device.hpp"
#include "ripple/fft.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::cli {

struct AxisTransform {
  bool inverse = false;      ///< complex input: backward c2c (numpy.fft.ifft)
  bool real_output = false;  ///< complex input: c2r (numpy.fft.irfft); implies backward
  /// numpy's n: the transform length. The input's last axis is cut or zero-padded to n (to
  /// n/2+1 for real_output). Unset: the axis length (2*(m-1) for real_output).
  std::optional<std::size_t> n;
  fft::Norm norm = fft::Norm::backward;
  unsigned threads = 0;  ///< 0: ripple::default_threads()
  /// Axes to transform (numpy's fftn axes; negative count from the end). Empty: the last axis
  /// only, the others a batch. With axes, n applies to the last of them (numpy's s[-1]) and the
  /// real transforms run along it.
  std::vector<int> axes;
  /// Unset: fft::Plan on the host. Set: the data is uploaded to this device and transformed
  /// there, along the last axis by one fft::DevicePlan (the CPU runs fft::Plan behind it), over
  /// axes by the device's fftn/ifftn/rfftn/irfftn (ripple/fft/device.hpp).
  std::optional<Device> device;
};

struct TransformResult {
  io::NpyArray array;
  /// describe() of the plan used ("" when there was no data), or the function over axes
  /// ("rfftn").
  std::string plan;
};

/// Transforms `input` along its last axis. Throws UsageError for options that do not fit the
/// input (inverse or real_output on real input), InvalidArgument for inputs that cannot be
/// transformed (0-d arrays, a zero transform length), and what fft::Plan, or Queue and
/// fft::DevicePlan with a device, throw.
TransformResult transform_last_axis(const io::NpyArray& input, const AxisTransform& options);

/// Transforms `input` over options.axes (numpy's fftn/ifftn/rfftn/irfftn). Throws as
/// transform_last_axis, and InvalidArgument for bad or repeated axes.
TransformResult transform_axes(const io::NpyArray& input, const AxisTransform& options);

}  // namespace ripple::cli
