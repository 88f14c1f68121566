// iir::Filter: a prepared cascade plus every channel's state, run through the same executor as
// sosfilt (sos_apply.hpp).
#include "ripple/iir/stream.hpp"

#include <string>

#include "core/interleaved.hpp"
#include "cpu/iir_sos_executor.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

namespace ripple::iir {

template <Sample T>
struct Filter<T>::Impl {
  detail::SosPlan<Real> plan;
  detail::LineStates<Real> states;
  cpu::SosLines<Real> lines;  // process_interleaved's line table, kept between calls
};

namespace {
template <class T>
std::size_t lines_along(const ArrayView<T>& x, std::size_t axis) {
  std::size_t lines = 1;
  for (std::size_t d = 0; d < x.ndim(); ++d) {
    if (d != axis) lines *= x.extent(d);
  }
  return lines;
}
}  // namespace

template <Sample T>
Filter<T>::Filter(const BasicSos<double>& sos, std::size_t channels) : impl_(std::make_unique<Impl>()) {
  detail::validate_sos(sos);
  if (channels == 0) throw InvalidArgument("Filter: channels must be at least 1, got 0");
  impl_->plan = detail::make_sos_plan<Real>(sos);
  const std::size_t shape[2] = {channels, 1};
  impl_->states = detail::zero_states<T>(shape, 1, sos.size());
}

template <Sample T>
Filter<T>::Filter(const BasicSos<float>& sos, std::size_t channels) : Filter(BasicSos<double>(sos), channels) {}

template <Sample T>
Filter<T>::Filter(const Filter& other) : impl_(std::make_unique<Impl>(*other.impl_)) {}
template <Sample T>
Filter<T>::Filter(Filter&&) noexcept = default;
template <Sample T>
Filter<T>& Filter<T>::operator=(const Filter& other) {
  if (this != &other) impl_ = std::make_unique<Impl>(*other.impl_);
  return *this;
}
template <Sample T>
Filter<T>& Filter<T>::operator=(Filter&&) noexcept = default;
template <Sample T>
Filter<T>::~Filter() = default;

template <Sample T>
std::size_t Filter<T>::channels() const noexcept {
  return impl_->states.lines;
}
template <Sample T>
std::size_t Filter<T>::sections() const noexcept {
  return impl_->plan.sections;
}

template <Sample T>
void Filter<T>::process(ArrayView<const T> x, ArrayView<T> y, int axis_arg) {
  if (x.ndim() == 0) throw InvalidArgument("Filter::process: x must be at least 1-D; got a 0-d array");
  const std::size_t axis = normalize_axis(axis_arg, x.ndim());
  if (y.shape() != x.shape()) {
    throw InvalidArgument("Filter::process: y has shape " + shape_text(y.shape()) + " but x has shape " +
                          shape_text(x.shape()));
  }
  if (lines_along(x, axis) != channels()) {
    throw InvalidArgument("Filter::process: x of shape " + shape_text(x.shape()) + " has " +
                          std::to_string(lines_along(x, axis)) + " lines along axis " + std::to_string(axis_arg) +
                          " but the filter has " + std::to_string(channels()) + " channels");
  }
  detail::apply_sos<T>(impl_->plan, x, y, axis, impl_->states);
}

template <Sample T>
void Filter<T>::process_interleaved(std::span<const T> x, std::span<T> y) {
  core::check_interleaved("Filter::process_interleaved", x.size(), y.size(), channels());
  // Lines straight from the frames into tables the filter keeps (no views, no allocation once
  // they have grown).
  Impl& im = *impl_;
  constexpr std::size_t parts = ripple::detail::is_complex_v<T> ? 2 : 1;
  const std::size_t real_lines = channels() * parts;
  auto& lines = im.lines;
  lines.length = x.size() / channels();
  lines.in_stride = lines.out_stride = static_cast<std::ptrdiff_t>(real_lines);
  lines.in.resize(real_lines);
  lines.out.resize(real_lines);
  const Real* in = reinterpret_cast<const Real*>(x.data());
  Real* out = reinterpret_cast<Real*>(y.data());
  for (std::size_t l = 0; l < real_lines; ++l) {
    lines.in[l] = in + l;
    lines.out[l] = out + l;
  }
  cpu::run_sos_cascade(im.plan, lines, im.states.values.data(), default_threads());
}

template <Sample T>
Array<T> Filter<T>::operator()(ArrayView<const T> x, int axis) {
  Array<T> y(x.shape());
  process(x, y.view(), axis);
  return y;
}

template <Sample T>
Array<T> Filter<T>::state() const {
  const std::size_t shape[2] = {channels(), 2};
  return detail::zi_from_states<T>(impl_->states, shape, 1);
}

template <Sample T>
void Filter<T>::set_state(ArrayView<const T> zi) {
  const std::vector<std::size_t> expected{sections(), channels(), 2};
  if (zi.shape() != expected) {
    throw InvalidArgument("Filter::set_state: zi must have shape " + shape_text(expected) + " (sections, channels, 2); got " +
                          shape_text(zi.shape()));
  }
  impl_->states = detail::states_from_zi<T>(zi, 1);
}

template <Sample T>
void Filter<T>::reset() {
  std::fill(impl_->states.values.begin(), impl_->states.values.end(), Real(0));
}

template class Filter<float>;
template class Filter<double>;
template class Filter<std::complex<float>>;
template class Filter<std::complex<double>>;

}  // namespace ripple::iir
