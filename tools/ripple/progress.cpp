// The progress bar (see progress.hpp).
#include "progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "units.hpp"

namespace ripple::cli {

Progress::Progress(bool enabled)
    : active_(enabled && ::isatty(STDERR_FILENO) == 1), start_(std::chrono::steady_clock::now()), last_(start_) {}

Progress::~Progress() { done(); }

void Progress::update(std::uint64_t bytes, std::optional<std::uint64_t> total, std::uint64_t frames) {
  if (!active_) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(frames) / seconds : 0;
  std::string line;
  if (total && *total > 0) {
    const double fraction = std::min(1.0, static_cast<double>(bytes) / static_cast<double>(*total));
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(fraction * kWidth);
    line = "[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] ";
    char pct[16];
    std::snprintf(pct, sizeof pct, "%3.0f%% ", 100 * fraction);
    line += pct;
    if (fraction > 0.01) {
      char eta[32];
      std::snprintf(eta, sizeof eta, ", ETA %.0f s", seconds * (1 - fraction) / fraction);
      line += format_si(static_cast<double>(bytes)) + "B" + eta;
    }
  } else {
    line = format_si(static_cast<double>(bytes)) + "B read";
  }
  line += ", " + format_si(rate) + "S/s";
  std::fprintf(stderr, "\r%s\033[K", line.c_str());
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::done() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace ripple::cli
