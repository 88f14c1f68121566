// The subcommands of the ripple tool. Each add_*_command registers its options on the app and
// returns what to run when it is the one chosen; main() does the parsing and error reporting.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <stdexcept>

namespace ripple::cli {

/// A registered subcommand: its CLI11 node and its body. The body returns the exit code and
/// may throw; main() turns exceptions into one "ripple: error: ..." line.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// Arguments that parse but do not make sense together or for the input given, found after
/// parsing. Reported like a CLI11 parse error (exit code 2).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Command add_info_command(CLI::App& app);
Command add_fft_command(CLI::App& app);
Command add_demo_command(CLI::App& app);
/// Registers `demo radio` under the demo command; run_radio returns its exit code, or -1 when
/// it was not the one chosen.
void add_demo_radio(CLI::App* demo, std::function<int()>& run_radio);

}  // namespace ripple::cli
