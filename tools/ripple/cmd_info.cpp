// `ripple info`: what this build of the library is and what it will use on this machine.
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "commands.hpp"
#include "ripple/device.hpp"
#include "ripple/runtime.hpp"

namespace ripple::cli {

namespace {

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

// One line per device found, then one per GPU backend saying how many devices it found or why
// it found none. Never fails: an absent runtime is reported, not an error.
void print_devices() {
  std::cout << "devices:\n";
  for (const Device& d : Device::list()) {
    const DeviceInfo info = d.info();
    std::cout << "  " << d.to_string() << ": " << info.name;
    if (d.kind() == DeviceKind::cpu) {
      std::cout << " (" << info.compute_units << " hardware threads, SIMD " << info.arch << ")\n";
      continue;
    }
    std::cout << " (" << info.platform << "; " << (info.is_gpu ? "GPU" : "CPU device") << ", "
              << gib(info.global_memory) << ", " << info.compute_units << " compute units, " << info.arch
              << ", driver " << info.driver_version << ", " << info.runtime_version
              << (info.fp64 ? "" : ", no fp64") << ")\n";
  }
  std::cout << "best device: " << Device::best().to_string() << "\n";
  std::cout << "gpu backends:\n";
  for (const BackendStatus& b : Device::backends()) {
    std::cout << "  " << b.name << ": ";
    if (b.devices > 0)
      std::cout << b.devices << (b.devices == 1 ? " device" : " devices") << "\n";
    else
      std::cout << (b.built ? "built, no devices: " : "") << b.reason << "\n";
  }
}

}  // namespace

Command add_info_command(CLI::App& app) {
  CLI::App* sub =
      app.add_subcommand("info", "Print version, build options, SIMD target, threads and devices");
  return {sub, [] {
            std::cout << "ripple " << ripple::version() << "\n";
            std::cout << "build options:\n";
            std::istringstream lines(ripple::build_info());
            for (std::string line; std::getline(lines, line);)
              if (!line.empty()) std::cout << "  " << line << "\n";
            std::cout << "simd target: " << ripple::simd_target()
                      << " (complex lanes per vector: " << ripple::simd_complex_lanes_f32() << " complex64, "
                      << ripple::simd_complex_lanes_f64() << " complex128)\n";
            std::cout << "threads: " << ripple::default_threads()
                      << " by default (set RIPPLE_THREADS to change)\n";
            std::cout << "hardware threads: " << std::thread::hardware_concurrency() << "\n";
            print_devices();
            return 0;
          }};
}

}  // namespace ripple::cli
