// Launch logic of the batched strided copy.
#include "gpu/device_copy.hpp"

#include <algorithm>

#include "gpu/tuning.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

namespace {

// Lowest and highest element index the layout touches from `offset`.
void check_side(const char* side, std::uint64_t offset, std::int64_t stride, std::int64_t dist,
                const CopyLayout& l, std::size_t elements) {
  const long double last_i = static_cast<long double>(l.count - 1),
                    last_b = static_cast<long double>(l.batch - 1);
  const long double a = static_cast<long double>(stride) * last_i,
                    b = static_cast<long double>(dist) * last_b;
  const long double lo = static_cast<long double>(offset) + std::min(a, 0.0L) + std::min(b, 0.0L);
  const long double hi = static_cast<long double>(offset) + std::max(a, 0.0L) + std::max(b, 0.0L);
  if (lo < 0 || hi >= static_cast<long double>(elements))
    throw InvalidArgument(std::string("DeviceCopy: the ") + side + " layout (offset " +
                          std::to_string(offset) + ", stride " + std::to_string(stride) + ", distance " +
                          std::to_string(dist) + ", count " + std::to_string(l.count) + ", batch " +
                          std::to_string(l.batch) + ") reaches index " +
                          std::to_string(static_cast<long long>(lo < 0 ? lo : hi)) + " of a buffer of " +
                          std::to_string(elements) + " elements");
}

}  // namespace

ProgramSpec DeviceCopy::program(bool double_precision, bool complex) {
  return {{"dialect.h", "copy_scale.cl"},
          {{"RIPPLE_DOUBLE", double_precision ? "1" : "0"}, {"RIPPLE_COMPLEX", complex ? "1" : "0"}},
          {}};
}

DeviceCopy::DeviceCopy(Context& context, bool double_precision, bool complex)
    : double_(double_precision),
      complex_(complex),
      element_bytes_(std::size_t{double_precision ? 8u : 4u} * (complex ? 2u : 1u)) {
  if (double_precision && !context.facts().fp64)
    throw Unsupported("device " + context.facts().name + " has no double precision");
  module_ = get_module(context, program(double_precision, complex));
}

void DeviceCopy::run(Stream& stream, const Memory& in, Memory& out, const CopyLayout& l,
                     std::complex<double> scale) const {
  if (!complex_ && scale.imag() != 0)
    throw InvalidArgument("DeviceCopy: a complex scale (imaginary part " + std::to_string(scale.imag()) +
                          ") for real elements");
  if (l.count == 0 || l.batch == 0) return;
  check_side("input", l.in_offset, l.in_stride, l.in_dist, l, in.bytes() / element_bytes_);
  check_side("output", l.out_offset, l.out_stride, l.out_dist, l, out.bytes() / element_bytes_);
  Launch grid;
  grid.block = {tuning::kCopyBlock, 1, 1};
  grid.groups[0] = static_cast<std::uint32_t>(std::min<std::uint64_t>(
      (l.count + tuning::kCopyBlock - 1) / tuning::kCopyBlock, tuning::kCopyMaxGroupsX));
  grid.groups[1] = static_cast<std::uint32_t>(std::min<std::uint64_t>(l.batch, tuning::kCopyMaxGroupsY));
  std::vector<Arg> args = {Arg::memory(in),       Arg::memory(out),         Arg::value(l.count),
                           Arg::value(l.batch),   Arg::value(l.in_offset),  Arg::value(l.in_stride),
                           Arg::value(l.in_dist), Arg::value(l.out_offset), Arg::value(l.out_stride),
                           Arg::value(l.out_dist)};
  if (double_) {
    args.push_back(Arg::value(scale.real()));
    args.push_back(Arg::value(scale.imag()));
  } else {
    args.push_back(Arg::value(static_cast<float>(scale.real())));
    args.push_back(Arg::value(static_cast<float>(scale.imag())));
  }
  stream.launch(*module_, "copy_scale", grid, args);
}

}  // namespace ripple::gpu
