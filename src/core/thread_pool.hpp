// A process-wide pool of worker threads for data-parallel loops. Calls from several threads at
// once are safe; a caller always works on its own loop too, so nested or concurrent loops
// cannot deadlock waiting for busy workers.
#pragma once

#include <cstddef>
#include <functional>

namespace ripple::core {

/// Runs body(i) for every i in [0, count), spread over at most `threads` threads (the caller is
/// one of them), and returns when all are done. Indices are handed out dynamically, so uneven
/// work balances. With threads <= 1 or count <= 1 it runs inline. The first exception thrown
/// by a body is rethrown in the caller after every index has finished.
void parallel_for_pooled(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

template <class Body>
void parallel_for(std::size_t count, unsigned threads, const Body& body) {
  if (threads <= 1 || count <= 1) {
    for (std::size_t i = 0; i < count; ++i) body(i);  // no std::function, no pool round trip
    return;
  }
  parallel_for_pooled(count, threads, std::function<void(std::size_t)>(std::cref(body)));
}

}  // namespace ripple::core
