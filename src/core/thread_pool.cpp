// Worker threads are started on first demand and live until the process exits. Each
// parallel_for publishes one shared Loop; idle workers and the caller claim indices from it.
#include "core/thread_pool.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ripple::core {
namespace {

struct Loop {
  std::size_t count = 0;
  const std::function<void(std::size_t)>* body = nullptr;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> finished{0};
  std::mutex mutex;
  std::condition_variable all_done;
  std::exception_ptr error;

  // Claims and runs indices until none are left.
  void work() {
    for (;;) {
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) return;
      try {
        (*body)(i);
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
      }
      if (finished.fetch_add(1, std::memory_order_acq_rel) + 1 == count) {
        std::lock_guard lock(mutex);
        all_done.notify_all();
      }
    }
  }
};

class Pool {
 public:
  static Pool& shared() {
    static Pool* pool = new Pool;  // never destroyed: workers may outlive static destructors
    return *pool;
  }

  void submit(const std::shared_ptr<Loop>& loop, unsigned helpers) {
    std::lock_guard lock(mutex_);
    while (workers_.size() < helpers) workers_.emplace_back([this] { serve(); });
    for (unsigned h = 0; h < helpers; ++h) queue_.push_back(loop);
    wake_.notify_all();
  }

 private:
  void serve() {
    for (;;) {
      std::shared_ptr<Loop> loop;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return !queue_.empty(); });
        loop = std::move(queue_.front());
        queue_.pop_front();
      }
      loop->work();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Loop>> queue_;
  std::vector<std::jthread> workers_;
};

}  // namespace

void parallel_for_pooled(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body) {
  auto loop = std::make_shared<Loop>();
  loop->count = count;
  loop->body = &body;
  const auto helpers = static_cast<unsigned>(std::min<std::size_t>(threads, count) - 1);
  Pool::shared().submit(loop, helpers);
  loop->work();
  {
    std::unique_lock lock(loop->mutex);
    loop->all_done.wait(lock, [&] { return loop->finished.load(std::memory_order_acquire) == count; });
  }
  if (loop->error) std::rethrow_exception(loop->error);
}

}  // namespace ripple::core
