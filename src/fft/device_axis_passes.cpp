// One batched 1-D pass per transformed axis (device_axis_passes.hpp): the lines' layouts, the
// order of the passes and which memory each reads and writes.
#include "fft/device_axis_passes.hpp"

#include <algorithm>

#include "fft/nd_axes.hpp"
#include "ripple/error.hpp"

namespace ripple::fft::detail {

AxisLayout axis_layout(const std::vector<std::size_t>& in_shape, const std::vector<std::size_t>& out_shape,
                       std::size_t axis, std::uint64_t batch, std::int64_t in_stride, std::int64_t in_dist,
                       std::int64_t out_stride, std::int64_t out_dist) {
  std::uint64_t before = 1, after_in = 1, after_out = 1;
  for (std::size_t a = 0; a < axis; ++a) before *= in_shape[a];
  for (std::size_t a = axis + 1; a < in_shape.size(); ++a) {
    after_in *= in_shape[a];
    after_out *= out_shape[a];
  }
  const auto q_in = static_cast<std::int64_t>(after_in), q_out = static_cast<std::int64_t>(after_out);
  const auto line_in = static_cast<std::int64_t>(in_shape[axis]) * q_in * in_stride;
  const auto line_out = static_cast<std::int64_t>(out_shape[axis]) * q_out * out_stride;
  struct Level {
    std::uint64_t count;
    std::int64_t in, out;
  };
  std::vector<Level> levels;
  // The elements after the axis are as many on both sides (the sides differ along the axis only).
  for (const Level& l : {Level{after_in, in_stride, out_stride}, Level{before, line_in, line_out},
                         Level{batch, in_dist, out_dist}}) {
    if (l.count == 1) continue;
    if (!levels.empty() && l.in == static_cast<std::int64_t>(levels.back().count) * levels.back().in &&
        l.out == static_cast<std::int64_t>(levels.back().count) * levels.back().out)
      levels.back().count *= l.count;  // evenly spaced after the level inside it: one level
    else
      levels.push_back(l);
  }
  AxisLayout lines;
  gpu::FftLayout& g = lines.layout;
  g.in_stride = q_in * in_stride;
  g.out_stride = q_out * out_stride;
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
                                   const std::string& where) {
  const std::size_t real_axis = axes.back();
  std::vector<std::size_t> half = shape;  // the complex side
  if (kind != Kind::c2c) half[real_axis] = half[real_axis] / 2 + 1;
  const auto unsupported_axis = [&](std::size_t a, const Unsupported& e) {
    return Unsupported("shape: axis " + std::to_string(a) + " of size " + std::to_string(shape[a]) + " on " + where +
                       ": " + e.what());
  };
  // Every axis's size first, so a plan the device cannot do fails before compiling or allocating.
  for (std::size_t a : axes) {
    const std::size_t n = shape[a];
    try {
      gpu::DeviceFftPlan::check_size(a == real_axis && kind != Kind::c2c && n % 2 == 0 ? n / 2 : n, dbl);
    } catch (const Unsupported& e) {
      throw unsupported_axis(a, e);
    }
  }
  const auto add = [&](std::size_t a, Slot from, Slot to, bool scaled, const AxisLayout& lines) {
    try {
      AxisPass p{a, nullptr, nullptr, lines, from, to, scaled};
      if (a == real_axis && kind != Kind::c2c) {
        // Real lines take two levels (the arrays of a batch follow the last axis, and one
        // array's lines have no third).
        if (lines.groups != 1)
          throw InvalidArgument("DeviceAxisPasses: the real axis " + std::to_string(a) + " has three levels of lines");
        p.rows = std::make_unique<gpu::DeviceFftReal>(context, shape[a], dbl, kind == Kind::r2c, lines.layout);
      } else {
        p.plan = std::make_unique<gpu::DeviceFftPlan>(context, shape[a], dbl, lines.layout);
      }
      passes_.push_back(std::move(p));
    } catch (const Unsupported& e) {
      throw unsupported_axis(a, e);
    }
  };
  const std::vector<std::size_t> others(axes.begin(), axes.end() - 1);
  const auto batch = static_cast<std::uint64_t>(c.batch);
  if (kind != Kind::c2r) {
    const std::vector<std::size_t>& first_side = kind == Kind::r2c ? shape : half;
    add(real_axis, Slot::in, Slot::out, true,
        axis_layout(first_side, half, real_axis, batch, c.in_stride, c.in_dist, c.out_stride, c.out_dist));
    for (auto a = others.rbegin(); a != others.rend(); ++a)
      if (shape[*a] > 1)
        add(*a, Slot::out, Slot::out, false,
            axis_layout(half, half, *a, batch, c.out_stride, c.out_dist, c.out_stride, c.out_dist));
    return;
  }
  if (others.empty()) {
    add(real_axis, Slot::in, Slot::out, true,
        axis_layout(half, shape, real_axis, batch, c.in_stride, c.in_dist, c.out_stride, c.out_dist));
    return;
  }
  // c2r: the other axes into the work array, the first from the input (a copy when of size 1).
  const auto packed = static_cast<std::int64_t>(c.batch > 1 ? product_of(half) : 0);
  work_ = context.allocate(c.batch * product_of(half) * (dbl ? 16 : 8));
  for (std::size_t a : others) {
    const bool first = a == others.front();
    if (!first && shape[a] == 1) continue;
    add(a, first ? Slot::in : Slot::work, Slot::work, false,
        axis_layout(half, half, a, batch, first ? c.in_stride : 1, first ? c.in_dist : packed, 1, packed));
  }
  add(real_axis, Slot::work, Slot::out, true, axis_layout(half, shape, real_axis, batch, 1, packed, c.out_stride, c.out_dist));
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
  const auto source = [&](Slot s) -> const gpu::Memory& { return s == Slot::in ? in : s == Slot::out ? out : *work_; };
  const auto target = [&](Slot s) -> gpu::Memory& { return s == Slot::out ? out : *work_; };
  for (const AxisPass& p : passes_) {
    const double s = p.scaled ? scale : 1.0;
    if (p.rows) {
      p.rows->run(stream, source(p.from), target(p.to), s);
      continue;
    }
    for (std::uint64_t g = 0; g < p.lines.groups; ++g) {
      const auto at = static_cast<std::int64_t>(g);
      p.plan->run(stream, source(p.from), target(p.to), direction, s, at * p.lines.in_step, at * p.lines.out_step);
    }
  }
}

}  // namespace ripple::fft::detail
