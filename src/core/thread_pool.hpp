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
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace ripple::core
