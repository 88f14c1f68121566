// Entry point of the `ripple` tool: parses the command line, runs the chosen subcommand and
// turns every failure into exactly one line on stderr, "ripple: error: <what>", with exit
// code 2 for usage errors and 1 for everything else.
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"

namespace {

constexpr int kFailure = 1;
constexpr int kUsage = 2;

int report(std::string message, int code) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  while (!message.empty() && message.back() == ' ') message.pop_back();
  std::cout.flush();
  std::fflush(stdout);
  std::cerr << "ripple: error: " << message << std::endl;
  return code;
}

int run(int argc, char** argv) {
  CLI::App app{"ripple: FFTs of .npy files, and a spectral analysis demo.", "ripple"};
  app.set_version_flag("--version", std::string("ripple ") + ripple::version());
  app.require_subcommand(1);
  const std::vector<ripple::cli::Command> commands = {ripple::cli::add_info_command(app),
                                                      ripple::cli::add_fft_command(app),
                                                      ripple::cli::add_demo_command(app)};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version arrive as "errors" with exit code 0; CLI11 prints those itself.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    // Without a subcommand CLI11 only says one is required; name what it did not understand.
    if (app.get_subcommands().empty() && !app.remaining().empty()) {
      const std::string word = app.remaining().front();
      return report(
          (word[0] == '-' ? "unknown option '" : "unknown subcommand '") + word + "' (use info, fft or demo)",
          kUsage);
    }
    return report(e.what(), kUsage);
  }
  for (const auto& command : commands)
    if (command.app->parsed()) return command.run();
  return report("no subcommand was run", kUsage);  // unreachable with require_subcommand(1)
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const ripple::cli::UsageError& e) {
    return report(e.what(), kUsage);
  } catch (const CLI::Error& e) {
    return report(e.what(), kUsage);
  } catch (const std::bad_alloc&) {
    return report("out of memory", kFailure);
  } catch (const std::exception& e) {
    return report(e.what(), kFailure);
  } catch (...) {
    return report("unknown failure", kFailure);
  }
}
