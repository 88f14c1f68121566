// Worker threads are started on first demand and live until the process exits. Each
// parallel_for publishes one Loop (on the caller's stack); idle workers and the caller claim
// indices from it.
#include "core/thread_pool.hpp"

#include <atomic>
#include <condition_variable>
#include <algorithm>
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
  unsigned inside = 0;  // workers running work() on this loop (guarded by the pool's mutex)

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

  // Runs `loop` on the caller and up to `helpers` workers. The loop lives on the caller's
  // stack, so nothing is allocated once the workers exist: before returning, the caller drops
  // the queue entries no worker took and waits for the workers that took one to leave it.
  void run(Loop& loop, unsigned helpers) {
    {
      std::lock_guard lock(mutex_);
      while (workers_.size() < helpers) workers_.emplace_back([this] { serve(); });
      for (unsigned h = 0; h < helpers; ++h) queue_.push_back(&loop);
    }
    wake_.notify_all();
    loop.work();
    {
      std::unique_lock lock(loop.mutex);
      loop.all_done.wait(lock, [&] { return loop.finished.load(std::memory_order_acquire) == loop.count; });
    }
    std::unique_lock lock(mutex_);
    std::erase(queue_, &loop);
    left_.wait(lock, [&] { return loop.inside == 0; });
  }

 private:
  Pool() { queue_.reserve(64); }

  void serve() {
    for (;;) {
      Loop* loop = nullptr;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [this] { return !queue_.empty(); });
        loop = queue_.front();
        queue_.erase(queue_.begin());
        ++loop->inside;
      }
      loop->work();
      std::lock_guard lock(mutex_);
      if (--loop->inside == 0) left_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;  // work was queued
  std::condition_variable left_;  // a worker left a loop
  std::vector<Loop*> queue_;      // one entry per helper wanted; few, so a vector
  std::vector<std::jthread> workers_;
};

}  // namespace

void parallel_for_pooled(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body) {
  Loop loop;
  loop.count = count;
  loop.body = &body;
  const auto helpers = static_cast<unsigned>(std::min<std::size_t>(threads, count) - 1);
  Pool::shared().run(loop, helpers);
  if (loop.error) std::rethrow_exception(loop.error);
}

}  // namespace ripple::core
