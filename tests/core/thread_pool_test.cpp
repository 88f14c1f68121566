// Checks that parallel_for runs every index exactly once, nests, and propagates exceptions.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/thread_pool.hpp"

using ripple::core::parallel_for;

TEST(ThreadPool, RunsEveryIndexOnce) {
  for (unsigned threads : {1u, 2u, 4u, 8u}) {
    std::vector<std::atomic<int>> hits(1000);
    parallel_for(hits.size(), threads, [&](std::size_t i) { hits[i].fetch_add(1); });
    for (std::size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i].load(), 1) << "index " << i;
  }
}

TEST(ThreadPool, NestedAndConcurrentLoopsComplete) {
  std::atomic<long> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; ++c)
    callers.emplace_back([&] {
      parallel_for(16, 4, [&](std::size_t) { parallel_for(16, 4, [&](std::size_t j) { total += long(j); }); });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 3L * 16 * (15 * 16 / 2));
}

TEST(ThreadPool, RethrowsTheFirstError) {
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(64, 4,
                            [&](std::size_t i) {
                              ran++;
                              if (i == 7) throw std::runtime_error("seven");
                            }),
               std::runtime_error);
  EXPECT_EQ(ran.load(), 64);  // the other indices still ran
}
