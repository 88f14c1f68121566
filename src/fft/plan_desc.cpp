// Validation of a PlanDesc (see plan_desc.hpp).
#include "fft/plan_desc.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "fft/output_alias.hpp"
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

// Elements a layout spans: (batch-1)*dist + (count-1)*stride + 1 (count: the positions a
// transform spans), checked so that its size in bytes fits the address space. `side` is "in" or
// "out"; `embedding` names its embedding where one was given.
std::size_t span_of(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist,
                    std::size_t element_bytes, const std::string& side, const std::string& embedding) {
  const std::string what = side + "_stride = " + std::to_string(stride) + ", " + side + "_dist = " +
                           std::to_string(dist) + (embedding.empty() ? "" : ", " + embedding) + ", shape/batch";
  const std::size_t last = checked_mul(count - 1, std::size_t(stride), what.c_str());
  const std::size_t last_batch = checked_mul(batch - 1, std::size_t(dist), what.c_str());
  std::size_t total;
  if (__builtin_add_overflow(last, last_batch, &total) || total >= std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(what + ": the layout overflows the address space");
  checked_mul(total + 1, element_bytes, what.c_str());
  return total + 1;
}

// Output addresses must be distinct (output_alias.hpp decides it). `levels` are the axes in
// order; the batch is added last. A collision is named by its two elements.
void check_no_alias(std::vector<AliasLevel> levels, std::size_t batch, std::ptrdiff_t dist, const std::string& what) {
  const std::size_t rank = levels.size();
  levels.push_back({batch, std::size_t(dist)});
  const AliasCheck check = find_collision(levels);
  if (!check.decided)
    throw InvalidArgument(what + ": output elements may overlap (too many ways to check; layouts whose batch and "
                                 "axes nest, each farther apart than all below them reach, are always accepted)");
  if (!check.collision) return;
  const auto element = [&](const std::vector<std::size_t>& at) {
    std::string s = "transform " + std::to_string(at[rank]) + ", element (";
    for (std::size_t a = 0; a < rank; ++a) {
      if (a > 0) s += ", ";
      s += std::to_string(at[a]);
    }
    return s + ")";
  };
  throw InvalidArgument(what + ": output elements overlap: " + element(check.collision->first) + " and " +
                        element(check.collision->second) + " are both at element " +
                        std::to_string(check.collision->address));
}

std::string embed_text(const std::string& name, const std::vector<std::size_t>& embed) {
  std::string s = name + " = {";
  for (std::size_t a = 0; a < embed.size(); ++a) s += (a ? ", " : "") + std::to_string(embed[a]);
  return s + "}";
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
  // The half-spectrum side has its last axis n/2+1.
  const std::size_t last = desc.shape.back();
  if (desc.in_stride < 1) throw InvalidArgument("in_stride = " + std::to_string(desc.in_stride) + ": must be >= 1");
  if (desc.out_stride < 1) throw InvalidArgument("out_stride = " + std::to_string(desc.out_stride) + ": must be >= 1");
  if (desc.in_dist < 0) throw InvalidArgument("in_dist = " + std::to_string(desc.in_dist) + ": must be >= 0");
  if (desc.out_dist < 0) throw InvalidArgument("out_dist = " + std::to_string(desc.out_dist) + ": must be >= 0");
  c.batch = desc.batch;
  c.in_stride = desc.in_stride;
  c.out_stride = desc.out_stride;
  std::vector<std::size_t>& in_side = c.in_side = desc.shape;
  std::vector<std::size_t>& out_side = c.out_side = desc.shape;
  if (desc.kind == Kind::c2r) in_side.back() = last / 2 + 1;
  if (desc.kind == Kind::r2c) out_side.back() = last / 2 + 1;
  // Each side's embedding, the element distances of its axes and the positions a transform spans.
  const auto embedding = [&](const std::vector<std::size_t>& given, const std::vector<std::size_t>& side,
                             const std::string& name, std::vector<std::size_t>& pitch, std::size_t& extent) {
    if (!given.empty() && given.size() != side.size())
      throw InvalidArgument(name + ": " + std::to_string(given.size()) + " sizes for a transform of rank " +
                            std::to_string(side.size()) + "; give one per axis, or none");
    const std::vector<std::size_t>& embed = given.empty() ? side : given;
    for (std::size_t a = 0; a < side.size(); ++a)
      if (embed[a] < side[a])
        throw InvalidArgument(name + "[" + std::to_string(a) + "] = " + std::to_string(embed[a]) + ": below the " +
                              std::to_string(side[a]) + " elements on that axis");
    const std::string what = embed_text(name, embed) + ": its rows and planes";
    pitch.assign(side.size(), 1);
    for (std::size_t a = side.size() - 1; a-- > 0;) pitch[a] = checked_mul(pitch[a + 1], embed[a + 1], what.c_str());
    // Each term is checked; past axis 0 they sum to below pitch[0], so the sum fits too.
    extent = 1;
    for (std::size_t a = 0; a < side.size(); ++a) extent += checked_mul(side[a] - 1, pitch[a], what.c_str());
    return embed;
  };
  std::size_t in_extent = 0, out_extent = 0;
  c.in_embed = embedding(desc.in_embed, in_side, "in_embed", c.in_pitch, in_extent);
  c.out_embed = embedding(desc.out_embed, out_side, "out_embed", c.out_pitch, out_extent);
  // The packed distance: stride times the embedding's size (axis 0's only counts here).
  const auto packed = [&](const std::string& name, const std::vector<std::size_t>& embed,
                          const std::vector<std::size_t>& pitch, std::ptrdiff_t stride, bool embedded) {
    const std::string what = name + "_stride = " + std::to_string(stride) +
                             (embedded ? ", " + embed_text(name + "_embed", embed) : ", shape");
    const std::size_t holds = checked_mul(pitch[0], embed[0], what.c_str());
    return std::ptrdiff_t(checked_mul(holds, std::size_t(stride), what.c_str()));
  };
  c.in_dist = desc.in_dist != 0 || desc.batch == 1
                  ? desc.in_dist
                  : packed("in", c.in_embed, c.in_pitch, desc.in_stride, !desc.in_embed.empty());
  c.out_dist = desc.out_dist != 0 || desc.batch == 1
                   ? desc.out_dist
                   : packed("out", c.out_embed, c.out_pitch, desc.out_stride, !desc.out_embed.empty());
  if (desc.batch == 1) c.in_dist = c.out_dist = 0;
  const std::size_t real_bytes = complex_bytes / 2;
  const auto given = [](const std::string& name, const std::vector<std::size_t>& embed) {
    return embed.empty() ? std::string() : embed_text(name, embed);
  };
  c.in_span = span_of(in_extent, desc.batch, c.in_stride, c.in_dist,
                      desc.kind == Kind::r2c ? real_bytes : complex_bytes, "in", given("in_embed", desc.in_embed));
  c.out_span = span_of(out_extent, desc.batch, c.out_stride, c.out_dist,
                       desc.kind == Kind::c2r ? real_bytes : complex_bytes, "out", given("out_embed", desc.out_embed));
  std::vector<AliasLevel> out_levels;
  for (std::size_t a = 0; a < out_side.size(); ++a)
    out_levels.push_back({out_side[a], c.out_pitch[a] * std::size_t(c.out_stride)});
  const std::string out_embedding = given("out_embed", desc.out_embed);
  check_no_alias(out_levels, desc.batch, c.out_dist,
                 "out_stride = " + std::to_string(c.out_stride) + ", out_dist = " + std::to_string(desc.out_dist) +
                     (out_embedding.empty() ? "" : ", " + out_embedding));
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
