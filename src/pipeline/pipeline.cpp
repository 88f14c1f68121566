// The cascade: a block of input goes through the stages over two halves of one buffer. Stages
// that keep the rate run in place on the current half; a stage that changes the rate reads the
// current half and writes the other, and the halves swap. Each half is a vector whose capacity
// is reserved at add() for the largest block any stage can see, so the steady state does not
// allocate.
#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "ripple/error.hpp"
#include "ripple/pipeline.hpp"

namespace ripple::pipeline {

template <Sample T>
void Stage<T>::process_in_place(std::span<T>) {
  throw Unsupported("pipeline stage '" + name() + "' does not work in place");
}

template <Sample T>
void Stage<T>::process(std::span<const T> x, std::vector<T>& out) {
  // A stage that keeps the rate, used where a copy is wanted.
  const std::size_t first = out.size();
  out.insert(out.end(), x.begin(), x.end());
  process_in_place(std::span<T>(out.data() + first, x.size()));
}

template <Sample T>
struct Pipeline<T>::Impl {
  std::size_t block;
  std::vector<std::unique_ptr<Stage<T>>> stages;
  std::vector<StageStats> stats;
  // The two halves; capacity_ is what each is reserved for.
  std::vector<T> halves[2];
  std::size_t capacity = 0;

  // Largest block entering stage `index`...: the outputs of the stages before it for a block.
  std::size_t largest_into(std::size_t index) const {
    std::size_t n = block;
    for (std::size_t i = 0; i < index; ++i) n = std::max(n, stages[i]->max_output(n));
    return n;
  }

  void reserve() {
    capacity = std::max(capacity, largest_into(stages.size()));
    for (auto& h : halves) h.reserve(capacity);
  }

  // Runs `count` samples starting in halves[cur] through stages from `first` on; returns the
  // half the result is in.
  int run(int cur, std::size_t first) {
    for (std::size_t i = first; i < stages.size(); ++i) {
      Stage<T>& stage = *stages[i];
      StageStats& st = stats[i];
      std::vector<T>& in = halves[cur];
      st.samples_in += in.size();
      const auto start = std::chrono::steady_clock::now();
      if (stage.in_place()) {
        if (!in.empty()) stage.process_in_place(std::span<T>(in));
      } else {
        std::vector<T>& out = halves[1 - cur];
        out.clear();
        if (!in.empty()) stage.process(std::span<const T>(in), out);
        cur = 1 - cur;
      }
      st.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      st.samples_out += halves[cur].size();
    }
    return cur;
  }
};

template <Sample T>
Pipeline<T>::Pipeline(std::size_t block) : impl_(std::make_unique<Impl>()) {
  if (block == 0) throw InvalidArgument("Pipeline: block must be a positive number of samples, got 0");
  impl_->block = block;
  impl_->reserve();
}

template <Sample T>
Pipeline<T>::Pipeline(Pipeline&&) noexcept = default;
template <Sample T>
Pipeline<T>& Pipeline<T>::operator=(Pipeline&&) noexcept = default;
template <Sample T>
Pipeline<T>::~Pipeline() = default;

template <Sample T>
Pipeline<T>& Pipeline<T>::add(std::unique_ptr<Stage<T>> stage) {
  if (!stage) throw InvalidArgument("Pipeline::add: the stage is null");
  impl_->stats.push_back({stage->name(), 0, 0, 0.0});
  impl_->stages.push_back(std::move(stage));
  impl_->reserve();
  return *this;
}

template <Sample T>
std::size_t Pipeline<T>::size() const noexcept {
  return impl_->stages.size();
}

template <Sample T>
std::size_t Pipeline<T>::block() const noexcept {
  return impl_->block;
}

template <Sample T>
Rate Pipeline<T>::rate() const {
  std::size_t up = 1, down = 1;
  for (const auto& s : impl_->stages) {
    const Rate r = s->rate();
    up *= r.up;
    down *= r.down;
    const std::size_t g = std::gcd(up, down);
    up /= g;
    down /= g;
  }
  return {up, down};
}

template <Sample T>
void Pipeline<T>::push(std::span<const T> x, const Sink& sink) {
  Impl& p = *impl_;
  for (std::size_t at = 0; at < x.size(); at += p.block) {
    const std::size_t n = std::min(p.block, x.size() - at);
    p.halves[0].assign(x.begin() + static_cast<std::ptrdiff_t>(at), x.begin() + static_cast<std::ptrdiff_t>(at + n));
    const int out = p.run(0, 0);
    if (!p.halves[out].empty()) sink(std::span<const T>(p.halves[out]));
  }
}

template <Sample T>
void Pipeline<T>::finish(const Sink& sink) {
  Impl& p = *impl_;
  for (std::size_t i = 0; i < p.stages.size(); ++i) {
    p.halves[0].clear();
    p.stages[i]->flush(p.halves[0]);
    p.stats[i].samples_out += p.halves[0].size();
    if (p.halves[0].empty()) continue;
    // A tail longer than a block goes on in blocks, so later stages see at most what they
    // were sized for.
    std::vector<T> tail(std::move(p.halves[0]));
    p.halves[0] = std::vector<T>();
    p.halves[0].reserve(p.capacity);
    for (std::size_t at = 0; at < tail.size(); at += p.block) {
      const std::size_t n = std::min(p.block, tail.size() - at);
      p.halves[0].assign(tail.begin() + static_cast<std::ptrdiff_t>(at), tail.begin() + static_cast<std::ptrdiff_t>(at + n));
      const int out = p.run(0, i + 1);
      if (!p.halves[out].empty()) sink(std::span<const T>(p.halves[out]));
    }
  }
  for (auto& s : p.stages) s->reset();
}

template <Sample T>
void Pipeline<T>::reset() {
  for (auto& s : impl_->stages) s->reset();
  for (auto& st : impl_->stats) st = {st.name, 0, 0, 0.0};
}

template <Sample T>
std::vector<StageStats> Pipeline<T>::stats() const {
  return impl_->stats;
}

template class Stage<float>;
template class Stage<double>;
template class Stage<std::complex<float>>;
template class Stage<std::complex<double>>;
template class Pipeline<float>;
template class Pipeline<double>;
template class Pipeline<std::complex<float>>;
template class Pipeline<std::complex<double>>;

}  // namespace ripple::pipeline
