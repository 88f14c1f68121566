// One batched 1-D pass per transformed axis (device_axis_passes.hpp): the lines' layouts, the
// order of the passes and which memory each reads and writes.
#include "fft/device_axis_passes.hpp"

#include <algorithm>

#include "fft/nd_axes.hpp"
#include "gpu/queue_impl.hpp"
#include "gpu/scratch.hpp"
#include "ripple/error.hpp"

namespace ripple::fft::detail {

gpu::Context& gpu_context(const Queue& queue, bool double_precision) {
  gpu::Context& context = gpu::context_of(queue);
  if (double_precision && !context.facts().fp64)
    throw Unsupported("precision f64: device " + context.facts().name + " has no double precision");
  return context;
}

AxisLayout axis_layout(const std::vector<std::size_t>& shape, std::size_t axis, std::uint64_t batch,
                       const std::vector<std::size_t>& in_pitch, std::int64_t in_stride, std::int64_t in_dist,
                       const std::vector<std::size_t>& out_pitch, std::int64_t out_stride, std::int64_t out_dist) {
  struct Level {
    std::uint64_t count;
    std::int64_t in, out;
  };
  // The axes after this one, innermost first, then those before it, then the batch; a level
  // evenly spaced after the one inside it on both sides joins it. Rank 3 leaves at most three.
  std::vector<Level> order;
  const auto axis_level = [&](std::size_t a) {
    return Level{shape[a], static_cast<std::int64_t>(in_pitch[a]) * in_stride,
                 static_cast<std::int64_t>(out_pitch[a]) * out_stride};
  };
  for (std::size_t a = shape.size(); a-- > axis + 1;) order.push_back(axis_level(a));
  for (std::size_t a = axis; a-- > 0;) order.push_back(axis_level(a));
  order.push_back(Level{batch, in_dist, out_dist});
  std::vector<Level> levels;
  for (const Level& l : order) {
    if (l.count == 1) continue;
    if (!levels.empty() && l.in == static_cast<std::int64_t>(levels.back().count) * levels.back().in &&
        l.out == static_cast<std::int64_t>(levels.back().count) * levels.back().out)
      levels.back().count *= l.count;
    else
      levels.push_back(l);
  }
  if (levels.size() > 3)
    throw InvalidArgument("axis_layout: the lines of axis " + std::to_string(axis) + " lie in " +
                          std::to_string(levels.size()) + " levels");
  AxisLayout lines;
  gpu::FftLayout& g = lines.layout;
  g.in_stride = static_cast<std::int64_t>(in_pitch[axis]) * in_stride;
  g.out_stride = static_cast<std::int64_t>(out_pitch[axis]) * out_stride;
  g.batch = 1;
  if (!levels.empty()) {
    g.batch = levels[0].count;
    g.in_dist = levels[0].in;
    g.out_dist = levels[0].out;
  }
  if (levels.size() > 1) {
    g.inner = levels[0].count;
    g.batch *= levels[1].count;
    g.in_dist_outer = levels[1].in;
    g.out_dist_outer = levels[1].out;
  }
  if (levels.size() > 2) {
    lines.groups = levels[2].count;
    lines.in_step = levels[2].in;
    lines.out_step = levels[2].out;
  }
  return lines;
}

DeviceAxisPasses::DeviceAxisPasses(gpu::Context& context, const std::vector<std::size_t>& shape,
                                   const std::vector<std::size_t>& axes, Kind kind, bool dbl, const CheckedDesc& c,
                                   const std::string& where, std::uint64_t max_pass) {
  const std::size_t real_axis = axes.back();
  // Every axis's size first, so a plan the device cannot do fails before compiling or allocating.
  for (std::size_t a : axes) {
    const std::size_t n = shape[a];
    try {
      gpu::DeviceFftPlan::check_size(a == real_axis && kind != Kind::c2c && n % 2 == 0 ? n / 2 : n, dbl, max_pass);
    } catch (const Unsupported& e) {
      throw unsupported_axis(shape, a, where, e);
    }
  }
  const auto build = [&] { build_passes(context, shape, axes, kind, dbl, c, where, max_pass); };
  // The passes run one after another on one stream, so each pass's scratch can lie over the
  // others' (ScratchStep): a plan deferring its scratch to the caller's area lays them out there;
  // else they are collected as placeholders and bound to one region of the passes' own.
  if (gpu::scratch_deferred()) {
    build();
    return;
  }
  gpu::ScratchPieces pieces;
  pieces.deferred = true;
  {
    const gpu::CollectScratch collect(pieces);
    build();
  }
  if (pieces.pieces.empty()) return;
  try {
    region_ = context.allocate(pieces.bytes());
    pieces.bind(*region_);
    gpu::list_scratch(*region_);  // only once bound: a failure leaves nothing listed
    return;
  } catch (const DeviceError&) {  // no memory for it, or no sub-buffer of it
  } catch (const InvalidArgument&) {  // a device whose sub-buffers may not start on 4096 bytes
  }
  // Each pass allocates its own, falling back as it can to less (one batch entry at a time
  // through a smaller second scratch). Those pieces are all held at once: listed as the whole
  // run's, none laid over another.
  region_.reset();
  gpu::ScratchPieces apart;
  {
    const gpu::CollectScratch collect(apart);
    build();
  }
  for (const gpu::ScratchPieces::Piece& p : apart.pieces) gpu::list_scratch(*p.memory);
}

Unsupported DeviceAxisPasses::unsupported_axis(const std::vector<std::size_t>& shape, std::size_t axis,
                                               const std::string& where, const Unsupported& e) {
  return Unsupported("shape: axis " + std::to_string(axis) + " of size " + std::to_string(shape[axis]) + " on " +
                     where + ": " + e.what());
}

void DeviceAxisPasses::build_passes(gpu::Context& context, const std::vector<std::size_t>& shape,
                                    const std::vector<std::size_t>& axes, Kind kind, bool dbl, const CheckedDesc& c,
                                    const std::string& where, std::uint64_t max_pass) {
  passes_.clear();
  work_.reset();
  in_copy_.reset();
  const std::size_t real_axis = axes.back();
  std::vector<std::size_t> half = shape;  // the complex side
  if (kind != Kind::c2c) half[real_axis] = half[real_axis] / 2 + 1;
  const std::vector<std::size_t>& in_side = kind == Kind::r2c ? shape : half;
  const std::vector<std::size_t>& out_side = kind == Kind::c2r ? shape : half;
  // Element distances of each side's axes in its embedding, and of the packed work array.
  const std::vector<std::size_t> in_pitch = c.in_pitch.empty() ? pitches_of(in_side) : c.in_pitch;
  const std::vector<std::size_t> out_pitch = c.out_pitch.empty() ? pitches_of(out_side) : c.out_pitch;
  const std::vector<std::size_t> work_pitch = pitches_of(half);
  const auto add = [&](std::size_t a, Slot from, Slot to, bool scaled, const AxisLayout& lines) {
    try {
      const gpu::ScratchStep step;  // this pass's scratch is in use only while it runs
      AxisPass p{a, nullptr, nullptr, lines, from, to, scaled};
      if (a == real_axis && kind != Kind::c2c) {
        p.rows = std::make_unique<gpu::DeviceFftReal>(context, shape[a], dbl, kind == Kind::r2c, lines.layout, max_pass);
      } else {
        p.plan = std::make_unique<gpu::DeviceFftPlan>(context, shape[a], dbl, lines.layout, max_pass);
      }
      passes_.push_back(std::move(p));
    } catch (const Unsupported& e) {
      throw unsupported_axis(shape, a, where, e);
    }
  };
  // The lines of axis a, from one side's layout to another's (along a the sides' own sizes).
  const auto lines_of = [&](std::size_t a, const std::vector<std::size_t>& from_pitch, std::int64_t from_stride,
                            std::int64_t from_dist, const std::vector<std::size_t>& to_pitch, std::int64_t to_stride,
                            std::int64_t to_dist) {
    return axis_layout(half, a, c.batch, from_pitch, from_stride, from_dist, to_pitch, to_stride, to_dist);
  };
  const std::vector<std::size_t> others(axes.begin(), axes.end() - 1);
  if (kind != Kind::c2r) {
    add(real_axis, Slot::in, Slot::out, true,
        lines_of(real_axis, in_pitch, c.in_stride, c.in_dist, out_pitch, c.out_stride, c.out_dist));
    const bool same_sides = in_pitch == out_pitch && c.in_stride == c.out_stride && c.in_dist == c.out_dist;
    if (kind == Kind::c2c && passes_.front().lines.groups > 1 && !same_sides) {
      in_bytes_ = c.in_span * (dbl ? 16 : 8);
      in_copy_ = gpu::allocate_scratch(context, in_bytes_);
    }
    for (auto a = others.rbegin(); a != others.rend(); ++a)
      if (shape[*a] > 1)
        add(*a, Slot::out, Slot::out, false,
            lines_of(*a, out_pitch, c.out_stride, c.out_dist, out_pitch, c.out_stride, c.out_dist));
    return;
  }
  if (others.empty()) {
    add(real_axis, Slot::in, Slot::out, true,
        lines_of(real_axis, in_pitch, c.in_stride, c.in_dist, out_pitch, c.out_stride, c.out_dist));
    return;
  }
  // c2r: the other axes into the work array, the first from the input (a copy when of size 1).
  const auto packed = static_cast<std::int64_t>(c.batch > 1 ? product_of(half) : 0);
  work_ = gpu::allocate_scratch(context, c.batch * product_of(half) * (dbl ? 16 : 8));
  for (std::size_t a : others) {
    const bool first = a == others.front();
    if (!first && shape[a] == 1) continue;
    add(a, first ? Slot::in : Slot::work, Slot::work, false,
        first ? lines_of(a, in_pitch, c.in_stride, c.in_dist, work_pitch, 1, packed)
              : lines_of(a, work_pitch, 1, packed, work_pitch, 1, packed));
  }
  add(real_axis, Slot::work, Slot::out, true,
      lines_of(real_axis, work_pitch, 1, packed, out_pitch, c.out_stride, c.out_dist));
}

DeviceAxisPasses::~DeviceAxisPasses() = default;

void DeviceAxisPasses::wait_ready() const {
  for (const AxisPass& p : passes_) {
    if (p.plan) p.plan->wait_ready();
    if (p.rows) p.rows->wait_ready();
  }
}

std::string DeviceAxisPasses::describe() const {
  std::string s;
  for (const AxisPass& p : passes_) {
    const std::string what = p.plan ? p.plan->describe() : "real rows: " + p.rows->describe();
    s += (s.empty() ? "axis " : ", axis ") + std::to_string(p.axis) + " [" + what + "]";
  }
  return s;
}

void DeviceAxisPasses::run(gpu::Stream& stream, const gpu::Memory& in, gpu::Memory& out, Direction direction,
                           double scale) const {
  const gpu::Memory* input = &in;
  if (in_copy_ && &in == &out) {
    stream.copy(in, 0, *in_copy_, 0, in_bytes_);
    input = in_copy_.get();
  }
  const auto source = [&](Slot s) -> const gpu::Memory& {
    return s == Slot::in ? *input : s == Slot::out ? out : *work_;
  };
  const auto target = [&](Slot s) -> gpu::Memory& { return s == Slot::out ? out : *work_; };
  for (const AxisPass& p : passes_) {
    const double s = p.scaled ? scale : 1.0;
    for (std::uint64_t g = 0; g < p.lines.groups; ++g) {
      const auto at = static_cast<std::int64_t>(g);
      if (p.rows)
        p.rows->run(stream, source(p.from), target(p.to), s, at * p.lines.in_step, at * p.lines.out_step);
      else
        p.plan->run(stream, source(p.from), target(p.to), direction, s, at * p.lines.in_step, at * p.lines.out_step);
    }
  }
}

}  // namespace ripple::fft::detail
