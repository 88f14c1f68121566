// `ripple info`: what this build of the library is and what it will use on this machine.
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "commands.hpp"
#include "ripple/runtime.hpp"

namespace ripple::cli {

Command add_info_command(CLI::App& app) {
  CLI::App* sub = app.add_subcommand("info", "Print version, build options, SIMD target and threads");
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
            return 0;
          }};
}

}  // namespace ripple::cli
