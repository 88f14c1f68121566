// A progress bar on standard error for long runs: shown only when stderr is a terminal (never
// in pipes, logs or tests) and not --quiet; redrawn at most 10 times a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace ripple::cli {

class Progress {
 public:
  /// `enabled`: the caller's wish (false with --quiet); the bar also needs stderr to be a tty.
  explicit Progress(bool enabled);
  ~Progress();
  /// Bytes done of the total (unknown for pipes) and frames done so far.
  void update(std::uint64_t bytes, std::optional<std::uint64_t> total, std::uint64_t frames);
  /// Erases the bar.
  void done();

 private:
  bool active_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace ripple::cli
