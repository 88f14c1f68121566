// Runs one benchmark case in a child process, so a library under development that crashes or
// hangs on one size costs that row only: the parent reports "crashed (SIGSEGV) in <stage>" or
// "timed out after T s in <stage>" and goes on with the next case.
#pragma once

#include <functional>
#include <string_view>

#include "fft_report.hpp"

namespace ripple_bench {

/// Called by the work as it enters each stage ("fftw plan", "ripple plan", "timing", ...), so a
/// crash or a hang can be located.
using StageFn = std::function<void(std::string_view stage)>;

/// Forks, runs `work` in the child and returns the Result it sends back through a pipe. If the
/// child dies or runs longer than `timeout_s` (then it is killed), returns a Result for `c`
/// whose error fields say what happened and in which stage. The caller must flush its stdio
/// buffers before calling, and must not have started threads the child would need.
Result run_in_child(const Case& c, double timeout_s, const std::function<Result(const StageFn&)>& work);

}  // namespace ripple_bench
