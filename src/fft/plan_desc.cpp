// Validation of a PlanDesc (see plan_desc.hpp).
#include "fft/plan_desc.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ripple/error.hpp"

namespace ripple::fft::detail {

namespace {

std::size_t checked_mul(std::size_t a, std::size_t b, const char* what) {
  std::size_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) +
                          " elements overflow the address space");
  return r;
}

// Elements a layout spans: (batch-1)*dist + (count-1)*stride + 1, checked so that its size in
// bytes fits the address space. `side` is "in" or "out".
std::size_t span_of(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist,
                    std::size_t element_bytes, const std::string& side) {
  const std::string what = side + "_stride = " + std::to_string(stride) + ", " + side + "_dist = " +
                           std::to_string(dist) + ", shape/batch";
  const std::size_t last = checked_mul(count - 1, std::size_t(stride), what.c_str());
  const std::size_t last_batch = checked_mul(batch - 1, std::size_t(dist), what.c_str());
  std::size_t total;
  if (__builtin_add_overflow(last, last_batch, &total) || total >= std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(what + ": the layout overflows the address space");
  checked_mul(total + 1, element_bytes, what.c_str());
  return total + 1;
}

// Output addresses b*dist + e*stride must be distinct for e < count, b < batch (count: the
// positions one transform spans, gaps of an embedding included).
void check_no_alias(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist) {
  if (batch == 1 || count == 1) {
    if (batch > 1 && dist == 0)
      throw InvalidArgument("out_dist = 0: every batch entry would write the same output");
    return;
  }
  if (dist == 0)
    throw InvalidArgument("out_dist = 0: every batch entry would write the same output");
  const auto s = std::size_t(stride), d = std::size_t(dist);
  const bool dist_outer = d >= s && d >= s * count;   // batches one after another
  const bool stride_outer = s >= d && s >= d * batch;  // batches interleaved
  if (!dist_outer && !stride_outer)
    throw InvalidArgument("out_stride = " + std::to_string(stride) + ", out_dist = " + std::to_string(dist) +
                          ": output elements of different batch entries overlap");
}

}  // namespace

std::string kind_name(Kind k) { return k == Kind::c2c ? "c2c" : k == Kind::r2c ? "r2c" : "c2r"; }
std::string precision_name(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

CheckedDesc check_plan_desc(const PlanDesc& desc) {
  CheckedDesc c;
  if (desc.shape.empty()) throw InvalidArgument("shape: rank 0 (empty shape); give the transform size");
  if (desc.shape.size() > 3)
    throw InvalidArgument("shape: rank " + std::to_string(desc.shape.size()) + " is above the maximum of 3");
  for (std::size_t a = 0; a < desc.shape.size(); ++a)
    if (desc.shape[a] == 0) throw InvalidArgument("shape[" + std::to_string(a) + "] = 0: transform sizes must be >= 1");
  if (desc.batch == 0) throw InvalidArgument("batch = 0: at least one transform is needed");
  // Sizes in bytes of the complex data must fit the address space before anything is sized.
  const std::size_t complex_bytes = desc.precision == Precision::f32 ? 8 : 16;
  for (std::size_t a = 0; a < desc.shape.size(); ++a) {
    const std::string what = "shape[" + std::to_string(a) + "] = " + std::to_string(desc.shape[a]);
    c.n = checked_mul(c.n, desc.shape[a], what.c_str());
    checked_mul(c.n, complex_bytes, what.c_str());
  }
  checked_mul(checked_mul(c.n, desc.batch, "shape x batch"), complex_bytes, "shape x batch");
  if (desc.kind == Kind::r2c && desc.direction != Direction::forward)
    throw InvalidArgument("direction: r2c transforms are forward only");
  if (desc.kind == Kind::c2r && desc.direction != Direction::backward)
    throw InvalidArgument("direction: c2r transforms are backward only (set Direction::backward)");
  // Elements per transform on each side: the half-spectrum side has its last axis n/2+1.
  const std::size_t last = desc.shape.back();
  const std::size_t half = c.n / last * (last / 2 + 1);
  const std::size_t n_in = desc.kind == Kind::c2r ? half : c.n;
  const std::size_t n_out = desc.kind == Kind::r2c ? half : c.n;
  if (desc.in_stride < 1) throw InvalidArgument("in_stride = " + std::to_string(desc.in_stride) + ": must be >= 1");
  if (desc.out_stride < 1) throw InvalidArgument("out_stride = " + std::to_string(desc.out_stride) + ": must be >= 1");
  if (desc.in_dist < 0) throw InvalidArgument("in_dist = " + std::to_string(desc.in_dist) + ": must be >= 0");
  if (desc.out_dist < 0) throw InvalidArgument("out_dist = " + std::to_string(desc.out_dist) + ": must be >= 0");
  c.batch = desc.batch;
  c.in_stride = desc.in_stride;
  c.out_stride = desc.out_stride;
  std::vector<std::size_t> in_side = desc.shape, out_side = desc.shape;
  if (desc.kind == Kind::c2r) in_side.back() = last / 2 + 1;
  if (desc.kind == Kind::r2c) out_side.back() = last / 2 + 1;
  // Elements an embedding holds (the packed distance) and positions one transform spans.
  std::size_t in_holds = n_in, out_holds = n_out, in_extent = n_in, out_extent = n_out;
  const auto embedding = [&](const std::vector<std::size_t>& given, const std::vector<std::size_t>& side,
                             const std::string& name, std::size_t& holds, std::size_t& extent) {
    if (given.empty()) return side;
    if (given.size() != side.size())
      throw InvalidArgument(name + ": " + std::to_string(given.size()) + " sizes for a transform of rank " +
                            std::to_string(side.size()) + "; give one per axis, or none");
    holds = 1;
    for (std::size_t a = 0; a < side.size(); ++a) {
      if (given[a] < side[a])
        throw InvalidArgument(name + "[" + std::to_string(a) + "] = " + std::to_string(given[a]) + ": below the " +
                              std::to_string(side[a]) + " elements on that axis");
      holds = checked_mul(holds, given[a], (name + "[" + std::to_string(a) + "]").c_str());
    }
    const std::vector<std::size_t> pitch = pitches_of(given);
    extent = 1;
    for (std::size_t a = 0; a < side.size(); ++a) extent += (side[a] - 1) * pitch[a];
    c.embedded = c.embedded || !std::equal(given.begin() + 1, given.end(), side.begin() + 1);
    return given;
  };
  c.in_embed = embedding(desc.in_embed, in_side, "in_embed", in_holds, in_extent);
  c.out_embed = embedding(desc.out_embed, out_side, "out_embed", out_holds, out_extent);
  c.in_dist =
      desc.in_dist != 0 ? desc.in_dist : std::ptrdiff_t(checked_mul(in_holds, std::size_t(desc.in_stride), "in_stride"));
  c.out_dist = desc.out_dist != 0 ? desc.out_dist
                                  : std::ptrdiff_t(checked_mul(out_holds, std::size_t(desc.out_stride), "out_stride"));
  if (desc.batch == 1) c.in_dist = c.out_dist = 0;
  const std::size_t real_bytes = complex_bytes / 2;
  c.in_span =
      span_of(in_extent, desc.batch, c.in_stride, c.in_dist, desc.kind == Kind::r2c ? real_bytes : complex_bytes, "in");
  c.out_span =
      span_of(out_extent, desc.batch, c.out_stride, c.out_dist, desc.kind == Kind::c2r ? real_bytes : complex_bytes, "out");
  check_no_alias(out_extent, desc.batch, c.out_stride, desc.batch == 1 ? 1 : c.out_dist);
  if (desc.threads > 1024) throw InvalidArgument("threads = " + std::to_string(desc.threads) + ": above 1024");
  c.scale = norm_scale(desc.norm, desc.direction, c.n);
  return c;
}

std::vector<std::size_t> pitches_of(const std::vector<std::size_t>& embed) {
  std::vector<std::size_t> pitch(embed.size(), 1);
  for (std::size_t a = embed.size() - 1; a-- > 0;) pitch[a] = pitch[a + 1] * embed[a + 1];
  return pitch;
}

double norm_scale(Norm norm, Direction direction, std::size_t n) {
  const bool forward = direction == Direction::forward;
  const double nn = double(n);
  switch (norm) {
    case Norm::backward: return forward ? 1.0 : 1.0 / nn;
    case Norm::ortho: return 1.0 / std::sqrt(nn);
    case Norm::forward: return forward ? 1.0 / nn : 1.0;
  }
  return 1.0;
}

}  // namespace ripple::fft::detail
