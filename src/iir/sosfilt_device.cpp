// sosfilt and DeviceFilter on Buffers (include/ripple/iir/device.hpp): buffers on a GPU run the
// GPU biquad cascade (src/gpu/device_sos), buffers on the CPU run the CPU executor on their
// host bytes. Checks of sizes and devices happen here, before anything is enqueued.
#include "ripple/iir/device.hpp"

#include <optional>
#include <string>

#include "gpu/device_sos.hpp"
#include "gpu/queue_impl.hpp"
#include "iir/sos_apply.hpp"
#include "ripple/error.hpp"
#include "ripple/iir/stream.hpp"

namespace ripple::iir {
namespace detail {

// A cascade prepared on a GPU, with the tile path's workspace grown on demand. (Outside the
// anonymous namespace: DeviceFilter::Impl holds one.)
template <class T>
class GpuCascade {
 public:
  GpuCascade(const Queue& queue, const detail::SosPlan<T>& plan) : sos_(gpu::context_of(queue), plan) {}
  const gpu::DeviceSos& sos() const { return sos_; }

  void run(const Queue& queue, const Buffer<T>& x, Buffer<T>& y, std::size_t channels, std::size_t n,
           const gpu::SosState& state, gpu::SosPath path) {
    if (path == gpu::SosPath::automatic) path = sos_.choose(channels, n);
    if (path == gpu::SosPath::tiles) {
      const std::uint64_t tiles = (n + sos_.tile() - 1) / sos_.tile();
      if (workspace_.slots < channels * sos_.sections() * tiles) {
        queue.synchronize();  // a kernel may still use the old one
        workspace_ = sos_.workspace(gpu::context_of(queue), channels, n, path);
      }
    }
    sos_.run(gpu::stream_of(queue), gpu::memory_of(x.raw()), gpu::memory_of(y.raw()), channels, n, state,
             workspace_, path);
  }

 private:
  gpu::DeviceSos sos_;
  gpu::DeviceSos::Workspace workspace_;
};

}  // namespace detail

namespace {

using detail::GpuCascade;
using gpu::host_data;

bool on_cpu(const Queue& q) { return q.device().kind() == DeviceKind::cpu; }

template <class T>
void check_state_apart(const std::string& fn, const Buffer<T>& state, const Buffer<T>& x, const Buffer<T>& y) {
  for (const auto& [name, buffer] : {std::pair{"x", &x}, std::pair{"y", &y}})
    if (gpu::sharing(state.raw(), state.size() * sizeof(T), buffer->raw(), buffer->size() * sizeof(T)) !=
        gpu::Sharing::apart)
      throw InvalidArgument(fn + ": the state and " + name + " share memory");
}

// x and y may be one buffer (in place), or two wrapping the same memory: the buffer to read
// the input from is returned (y then, so the kernels get one memory object); the state shares
// no memory with them.
template <class T>
const Buffer<T>& input_of(const std::string& fn, const Buffer<T>& x, const Buffer<T>& y, const Buffer<T>* state) {
  const std::size_t bytes = x.size() * sizeof(T);
  const bool in_place = gpu::check_sharing(fn, "x", x.raw(), bytes, "y", y.raw(), bytes) == gpu::Sharing::same_start;
  if (state) check_state_apart(fn, *state, x, y);
  return in_place ? y : x;
}

std::size_t samples_per_channel(const std::string& fn, std::size_t size, std::size_t channels) {
  if (channels == 0) throw InvalidArgument(fn + ": channels must be at least 1, got 0");
  if (size % channels != 0)
    throw InvalidArgument(fn + ": x holds " + std::to_string(size) + " samples, not a whole number of rows for " +
                          std::to_string(channels) + " channels");
  return size / channels;
}

void check_sizes(const std::string& fn, std::size_t x, std::size_t y) {
  if (x != y)
    throw InvalidArgument(fn + ": y holds " + std::to_string(y) + " samples but x holds " + std::to_string(x));
}

void check_state_size(const std::string& fn, std::size_t size, std::size_t sections, std::size_t channels) {
  if (size != sections * channels * 2)
    throw InvalidArgument(fn + ": the state must hold sections x channels x 2 = " + std::to_string(sections) + " x " +
                          std::to_string(channels) + " x 2 values, got " + std::to_string(size));
}

// Work on `other` is not ordered with work on `q` unless they are the same queue.
void order_after(const Queue& q, const Queue& other) {
  if (other.impl() != q.impl()) other.synchronize();
}

gpu::SosPath to_gpu(DevicePath p) {
  switch (p) {
    case DevicePath::tiles:
      return gpu::SosPath::tiles;
    case DevicePath::channels:
      return gpu::SosPath::channels;
    default:
      return gpu::SosPath::automatic;
  }
}

template <std::floating_point S, DeviceReal T>
void sosfilt_buffers(const BasicSos<S>& sos, const Buffer<T>& x, Buffer<T>& y, std::size_t channels,
                     Buffer<T>* state) {
  const std::string fn = "sosfilt";
  detail::validate_sos(sos);
  const std::size_t n = samples_per_channel(fn, x.size(), channels);
  check_sizes(fn, x.size(), y.size());
  const Queue& queue = y.queue();
  gpu::check_same_memory(fn, "x", x.queue(), "y", queue);
  if (state != nullptr) {
    gpu::check_same_memory(fn, "the state", state->queue(), "y", queue);
    check_state_size(fn, state->size(), sos.size(), channels);
  }
  const Buffer<T>& input = input_of(fn, x, y, state);
  if (n == 0) return;
  if (on_cpu(queue)) {
    const std::vector<std::size_t> shape{channels, n}, zi_shape{sos.size(), channels, 2};
    std::optional<ArrayView<const T>> zi;
    if (state != nullptr) zi.emplace(host_data(*state), zi_shape);
    auto result = detail::sosfilt<T>(BasicSos<T>(sos), ArrayView<const T>(host_data(input), shape), -1,
                                     zi ? &*zi : nullptr);
    std::copy(result.y.values.begin(), result.y.values.end(), host_data(y));
    if (state != nullptr) std::copy(result.zf.values.begin(), result.zf.values.end(), host_data(*state));
    return;
  }
  order_after(queue, x.queue());
  if (state != nullptr) order_after(queue, state->queue());
  GpuCascade<T> cascade(queue, detail::make_sos_plan<T>(sos, detail::kAnyLength, detail::ScanTables::per_section));
  gpu::SosState st;
  if (state != nullptr) st.memory = &gpu::memory_of(state->raw());
  cascade.run(queue, input, y, channels, n, st, gpu::SosPath::automatic);
  queue.synchronize();  // the workspace is freed on return
}

}  // namespace

template <std::floating_point S, DeviceReal T>
void sosfilt(const BasicSos<S>& sos, const Buffer<T>& x, Buffer<T>& y, std::size_t channels) {
  sosfilt_buffers<S, T>(sos, x, y, channels, nullptr);
}

template <std::floating_point S, DeviceReal T>
void sosfilt(const BasicSos<S>& sos, const Buffer<T>& x, Buffer<T>& y, std::size_t channels, Buffer<T>& state) {
  sosfilt_buffers(sos, x, y, channels, &state);
}

template <std::floating_point S, DeviceReal T>
std::vector<T> sosfilt(const Queue& queue, const BasicSos<S>& sos, std::span<const T> x, std::size_t channels) {
  samples_per_channel("sosfilt", x.size(), channels);
  Buffer<T> buffer(queue, x);
  sosfilt(sos, buffer, buffer, channels);
  return buffer.to_vector();
}

template <DeviceReal T>
struct DeviceFilter<T>::Impl {
  Queue queue;
  std::size_t channels = 0;
  std::size_t sections = 0;
  DevicePath path = DevicePath::automatic;
  std::optional<Filter<T>> cpu;           // CPU queues
  std::optional<GpuCascade<T>> gpu;       // GPU queues
  std::optional<Buffer<T>> state;         // GPU queues: (sections, channels, 2)

  Impl(const Queue& q, const BasicSos<double>& sos, std::size_t ch) : queue(q), channels(ch), sections(sos.size()) {
    detail::validate_sos(sos);
    if (ch == 0) throw InvalidArgument("DeviceFilter: channels must be at least 1, got 0");
    if (on_cpu(q)) {
      cpu.emplace(sos, ch);
      return;
    }
    gpu.emplace(q, detail::make_sos_plan<T>(sos, detail::kAnyLength, detail::ScanTables::per_section));
    state.emplace(q, sections * channels * 2);
    gpu::stream_of(q).zero(gpu::memory_of(state->raw()), 0, state->size() * sizeof(T));
  }
};

template <DeviceReal T>
DeviceFilter<T>::DeviceFilter(const Queue& queue, const BasicSos<double>& sos, std::size_t channels)
    : impl_(std::make_unique<Impl>(queue, sos, channels)) {}
template <DeviceReal T>
DeviceFilter<T>::DeviceFilter(const Queue& queue, const BasicSos<float>& sos, std::size_t channels)
    : DeviceFilter(queue, BasicSos<double>(sos), channels) {}
template <DeviceReal T>
DeviceFilter<T>::DeviceFilter(DeviceFilter&&) noexcept = default;
template <DeviceReal T>
DeviceFilter<T>& DeviceFilter<T>::operator=(DeviceFilter&&) noexcept = default;
template <DeviceReal T>
DeviceFilter<T>::~DeviceFilter() = default;

template <DeviceReal T>
const Queue& DeviceFilter<T>::queue() const {
  return impl_->queue;
}
template <DeviceReal T>
std::size_t DeviceFilter<T>::channels() const {
  return impl_->channels;
}
template <DeviceReal T>
std::size_t DeviceFilter<T>::sections() const {
  return impl_->sections;
}

template <DeviceReal T>
void DeviceFilter<T>::process(const Buffer<T>& x, Buffer<T>& y) {
  const std::string fn = "DeviceFilter::process";
  Impl& f = *impl_;
  const std::size_t n = samples_per_channel(fn, x.size(), f.channels);
  check_sizes(fn, x.size(), y.size());
  gpu::check_same_memory(fn, "x", x.queue(), "the filter", f.queue);
  gpu::check_same_memory(fn, "y", y.queue(), "the filter", f.queue);
  const Buffer<T>& input = input_of<T>(fn, x, y, nullptr);
  if (n == 0) return;
  if (f.cpu) {
    const std::vector<std::size_t> shape{f.channels, n};
    f.cpu->process(ArrayView<const T>(host_data(input), shape), ArrayView<T>(host_data(y), shape), -1);
    return;
  }
  order_after(f.queue, x.queue());
  order_after(f.queue, y.queue());
  gpu::SosState st;
  st.memory = &gpu::memory_of(f.state->raw());
  f.gpu->run(f.queue, input, y, f.channels, n, st, to_gpu(f.path));
  if (y.queue().impl() != f.queue.impl()) f.queue.synchronize();  // y is read through its own queue
}

template <DeviceReal T>
Array<T> DeviceFilter<T>::state() const {
  if (impl_->cpu) return impl_->cpu->state();
  Array<T> zi({impl_->sections, impl_->channels, 2});
  impl_->state->download(std::span<T>(zi.values.data(), zi.values.size()));
  return zi;
}

template <DeviceReal T>
void DeviceFilter<T>::set_state(ArrayView<const T> zi) {
  if (impl_->cpu) {
    impl_->cpu->set_state(zi);
    return;
  }
  const std::vector<std::size_t> expected{impl_->sections, impl_->channels, 2};
  if (zi.shape() != expected)
    throw InvalidArgument("DeviceFilter::set_state: zi must have shape " + shape_text(expected) +
                          " (sections, channels, 2); got " + shape_text(zi.shape()));
  const Array<T> packed = detail::zi_from_states<T>(detail::states_from_zi<T>(zi, 1),
                                                    std::vector<std::size_t>{impl_->channels, 2}, 1);
  impl_->state->upload(std::span<const T>(packed.values.data(), packed.values.size()));
}

template <DeviceReal T>
void DeviceFilter<T>::reset() {
  if (impl_->cpu) {
    impl_->cpu->reset();
    return;
  }
  gpu::stream_of(impl_->queue).zero(gpu::memory_of(impl_->state->raw()), 0, impl_->state->size() * sizeof(T));
}

template <DeviceReal T>
void DeviceFilter<T>::set_path(DevicePath path) {
  impl_->path = path;
}

template <DeviceReal T>
DevicePath DeviceFilter<T>::path_for(std::size_t n) const {
  if (!impl_->gpu) return DevicePath::automatic;
  gpu::SosPath p = to_gpu(impl_->path);
  if (!impl_->gpu->sos().stable()) p = gpu::SosPath::channels;
  if (p == gpu::SosPath::automatic) p = impl_->gpu->sos().choose(impl_->channels, n);
  return p == gpu::SosPath::tiles ? DevicePath::tiles : DevicePath::channels;
}

template class DeviceFilter<float>;
template class DeviceFilter<double>;
template void sosfilt(const BasicSos<double>&, const Buffer<float>&, Buffer<float>&, std::size_t);
template void sosfilt(const BasicSos<double>&, const Buffer<double>&, Buffer<double>&, std::size_t);
template void sosfilt(const BasicSos<float>&, const Buffer<float>&, Buffer<float>&, std::size_t);
template void sosfilt(const BasicSos<float>&, const Buffer<double>&, Buffer<double>&, std::size_t);
template void sosfilt(const BasicSos<double>&, const Buffer<float>&, Buffer<float>&, std::size_t, Buffer<float>&);
template void sosfilt(const BasicSos<double>&, const Buffer<double>&, Buffer<double>&, std::size_t, Buffer<double>&);
template void sosfilt(const BasicSos<float>&, const Buffer<float>&, Buffer<float>&, std::size_t, Buffer<float>&);
template void sosfilt(const BasicSos<float>&, const Buffer<double>&, Buffer<double>&, std::size_t, Buffer<double>&);
template std::vector<float> sosfilt(const Queue&, const BasicSos<double>&, std::span<const float>, std::size_t);
template std::vector<double> sosfilt(const Queue&, const BasicSos<double>&, std::span<const double>, std::size_t);
template std::vector<float> sosfilt(const Queue&, const BasicSos<float>&, std::span<const float>, std::size_t);
template std::vector<double> sosfilt(const Queue&, const BasicSos<float>&, std::span<const double>, std::size_t);

}  // namespace ripple::iir
