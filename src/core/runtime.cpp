// Version, build facts and the process-wide default thread count.
#include "ripple/runtime.hpp"

#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

#include "cpu/simd_info.hpp"
#include "ripple/error.hpp"

namespace ripple {
namespace {
std::atomic<unsigned> g_threads_override{0};
constexpr unsigned kMaxThreads = 1024;

unsigned threads_from_environment() {
  const char* text = std::getenv("RIPPLE_THREADS");
  if (text == nullptr || *text == '\0') return 0;
  char* end = nullptr;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (*end != '\0' || value == 0 || value > kMaxThreads) return 0;  // ignore nonsense, use cores
  return static_cast<unsigned>(value);
}
}  // namespace

const char* version() { return RIPPLE_VERSION; }

std::string build_info() {
  std::string info;
  info += "build_type=" RIPPLE_BUILD_TYPE "\n";
  info += "compiler=" RIPPLE_COMPILER "\n";
  info += "sanitizers=" + std::string(RIPPLE_SANITIZE_ON ? "address,undefined" : "none") + "\n";
  info += "simd_targets_compiled=" + cpu::compiled_targets() + "\n";
  return info;
}

std::string simd_target() { return cpu::chosen_target(); }
int simd_complex_lanes_f32() { return cpu::complex_lanes_f32(); }
int simd_complex_lanes_f64() { return cpu::complex_lanes_f64(); }

unsigned default_threads() {
  if (const unsigned n = g_threads_override.load()) return n;
  if (const unsigned n = threads_from_environment()) return n;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : hw;
}

void set_threads(unsigned n) {
  if (n > kMaxThreads)
    throw InvalidArgument("set_threads: n = " + std::to_string(n) + " exceeds the limit of " +
                          std::to_string(kMaxThreads));
  g_threads_override.store(n);
}

}  // namespace ripple
