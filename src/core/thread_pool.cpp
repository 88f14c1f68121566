// Worker threads are started on first demand and live until the process exits. Each
// parallel_for publishes one Loop (on the caller's stack); idle workers and the caller claim
// indices from it.
#include "core/thread_pool.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ripple::core {
namespace {

// A thread woken from a condition variable starts late: on the 2-core VM, 50-200 us after the
// notify (its idle vCPU has to be woken too), so a loop of two 200 us halves took 400 us, the
// caller running both before the worker came. Workers therefore poll for new loops for
// kWorkerSpin after each one before they sleep (as OpenMP runtimes spin before blocking: Intel's
// for 200 ms by default), and the caller polls for its loop's end for up to kCallerSpin before
// it sleeps. sosfilt of 2^20 float samples on two threads, called in a loop with two copies of
// the data between calls: 300 us of polling 2127, 1 ms 2412 Msamples/s (medians).
constexpr auto kWorkerSpin = std::chrono::microseconds(1000);
constexpr auto kCallerSpin = std::chrono::microseconds(300);

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Polls ready() until it holds (true) or `limit` has passed (false).
template <class Ready>
bool spin_until(const Ready& ready, std::chrono::microseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= end) return ready();
  }
}

struct Loop {
  std::size_t count = 0;
  const std::function<void(std::size_t)>* body = nullptr;
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> finished{0};
  std::mutex mutex;
  std::condition_variable all_done;
  std::exception_ptr error;
  std::atomic<unsigned> inside{0};  // workers running work() on this loop (changed under the pool's mutex)

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
    bool sleeping = false;
    {
      std::lock_guard lock(mutex_);
      while (workers_.size() < helpers) workers_.emplace_back([this] { serve(); });
      for (unsigned h = 0; h < helpers; ++h) queue_.push_back(&loop);
      queued_.store(queue_.size(), std::memory_order_release);
      sleeping = sleepers_ > 0;  // the others are polling and will see the entries
    }
    if (sleeping) wake_.notify_all();
    loop.work();
    const auto done = [&] { return loop.finished.load(std::memory_order_acquire) == loop.count; };
    if (!spin_until(done, kCallerSpin)) {
      std::unique_lock lock(loop.mutex);
      loop.all_done.wait(lock, done);
    }
    {
      std::lock_guard lock(mutex_);
      std::erase(queue_, &loop);
      queued_.store(queue_.size(), std::memory_order_release);
    }
    const auto left = [&] { return loop.inside.load(std::memory_order_acquire) == 0; };
    if (!spin_until(left, kCallerSpin)) {
      std::unique_lock lock(mutex_);
      left_.wait(lock, left);
    }
  }

 private:
  Pool() { queue_.reserve(64); }

  void serve() {
    for (;;) {
      spin_until([this] { return queued_.load(std::memory_order_acquire) > 0; }, kWorkerSpin);
      Loop* loop = nullptr;
      {
        std::unique_lock lock(mutex_);
        ++sleepers_;
        wake_.wait(lock, [this] { return !queue_.empty(); });
        --sleepers_;
        loop = queue_.front();
        queue_.erase(queue_.begin());
        queued_.store(queue_.size(), std::memory_order_release);
        loop->inside.fetch_add(1, std::memory_order_relaxed);
      }
      loop->work();
      std::lock_guard lock(mutex_);
      if (loop->inside.fetch_sub(1, std::memory_order_acq_rel) == 1) left_.notify_all();
    }
  }

  std::mutex mutex_;
  std::atomic<std::size_t> queued_{0};  // queue_.size(), for workers polling without the lock
  unsigned sleepers_ = 0;               // workers waiting on wake_ (guarded by mutex_)
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
