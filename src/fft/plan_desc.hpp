// Validation of a PlanDesc, shared by the CPU fft::Plan and the device fft::DevicePlan so both
// reject the same descriptions with the same messages.
#pragma once

#include <cstddef>
#include <string>

#include "ripple/fft.hpp"

namespace ripple::fft::detail {

/// The Precision whose samples are T (float or double).
template <class T>
constexpr Precision precision_of() {
  return sizeof(T) == sizeof(float) ? Precision::f32 : Precision::f64;
}

/// A PlanDesc that passed every check, with what follows from it.
struct CheckedDesc {
  std::size_t n = 1;  // elements of one transform's (logical, real-side) shape
  std::size_t batch = 1;
  // Strides as given; distances resolved ("packed" for 0; 0 when batch == 1).
  std::ptrdiff_t in_stride = 1, out_stride = 1, in_dist = 0, out_dist = 0;
  std::size_t in_span = 0, out_span = 0;  // elements each side's layout spans
  // Each side's sizes (the half-spectrum side's last axis n/2+1) and its embedding resolved (its
  // own sizes where none is given).
  std::vector<std::size_t> in_side, out_side, in_embed, out_embed;
  // The element distances of each side's axes in its embedding (pitches_of, overflow checked).
  std::vector<std::size_t> in_pitch, out_pitch;
  double scale = 1.0;                     // the norm's factor for this direction
};

/// Throws InvalidArgument naming the bad field (rank 0 or above 3, zero or overflowing sizes,
/// zero batch, a direction r2c/c2r cannot have, bad strides, distances or embeddings, an
/// aliasing output layout, more than 1024 threads).
CheckedDesc check_plan_desc(const PlanDesc& desc);

/// The resolved strides and distances as a backend's layout struct (fields batch, in_stride,
/// out_stride, in_dist, out_dist).
template <class Layout>
Layout layout_of(const CheckedDesc& c) {
  Layout l;
  l.batch = c.batch;
  l.in_stride = c.in_stride;
  l.out_stride = c.out_stride;
  l.in_dist = c.in_dist;
  l.out_dist = c.out_dist;
  return l;
}

/// The factor numpy's norm applies to a transform of n points in `direction`.
double norm_scale(Norm norm, Direction direction, std::size_t n);

/// The element distances of the axes of an array of `embed` (row-major: the last is 1).
std::vector<std::size_t> pitches_of(const std::vector<std::size_t>& embed);

std::string kind_name(Kind k);
std::string precision_name(Precision p);

}  // namespace ripple::fft::detail
