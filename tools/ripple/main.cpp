// Entry point of the `ripple` tool: parses the command line, runs the chosen subcommand and
// turns every failure into exactly one line on stderr, "ripple: error: <what>", with exit
// code 2 for usage errors and 1 for everything else.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "ripple/runtime.hpp"
#include "stream_commands.hpp"

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

constexpr const char* kCommands =
    "filter, decimate, resample, shift, convert, psd, spectrogram, tones, fft, info or demo";

// CLI11's answer to a parse error, as one line and an exit code.
int parse_failure(CLI::App& app, const CLI::ParseError& e) {
  // --help and --version arrive as "errors" with exit code 0; CLI11 prints those itself.
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
  // Without a subcommand CLI11 only says one is required; name what it did not understand.
  if (app.get_subcommands().empty() && !app.remaining().empty()) {
    const std::string word = app.remaining().front();
    return report((word[0] == '-' ? "unknown option '" : "unknown subcommand '") + word + "' (use " + kCommands + ")",
                  kUsage);
  }
  return report(e.what(), kUsage);
}

struct Tool {
  CLI::App app{"ripple: signal processing on files and pipes (decimate, filter, resample, shift, spectra, tones), "
               "FFTs of .npy files, and a demo. Chain commands with '!': ripple decimate 8 in.cs16 ! filter lowpass "
               "20k ! spectrogram out.png",
               "ripple"};
  std::vector<ripple::cli::Command> commands;
  std::vector<ripple::cli::StreamCommand> streams;
  Tool() {
    app.set_version_flag("--version", std::string("ripple ") + ripple::version());
    app.require_subcommand(1);
    commands = {ripple::cli::add_info_command(app), ripple::cli::add_fft_command(app),
                ripple::cli::add_demo_command(app)};
    streams = ripple::cli::add_stream_commands(app);
  }
};

// `ripple A ... ! B ... ! C ...`: each segment is parsed as a command line of its own.
int run_chain(const std::vector<std::string>& words) {
  std::vector<std::vector<std::string>> parts(1);
  for (const std::string& w : words) {
    if (w == "!")
      parts.emplace_back();
    else
      parts.back().push_back(w);
  }
  std::vector<std::pair<ripple::cli::ParsedStage, ripple::cli::StreamOptions>> segments;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) return report("empty command in the chain (two '!' in a row, or one at an end)", kUsage);
    Tool tool;
    std::vector<std::string> reversed(parts[i].rbegin(), parts[i].rend());
    try {
      tool.app.parse(reversed);
    } catch (const CLI::ParseError& e) {
      return parse_failure(tool.app, e);
    }
    bool found = false;
    for (auto& command : tool.streams)
      if (command.app->parsed()) {
        segments.emplace_back(command.parse(*command.options), *command.options);
        found = true;
      }
    if (!found) return report("'" + parts[i][0] + "' cannot be part of a chain", kUsage);
  }
  return ripple::cli::run_stream_chain(std::move(segments));
}

int run(int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (std::find(words.begin(), words.end(), "!") != words.end()) return run_chain(words);
  Tool tool;
  try {
    tool.app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return parse_failure(tool.app, e);
  }
  for (const auto& command : tool.commands)
    if (command.app->parsed()) return command.run();
  for (auto& command : tool.streams)
    if (command.app->parsed()) {
      std::vector<std::pair<ripple::cli::ParsedStage, ripple::cli::StreamOptions>> one;
      one.emplace_back(command.parse(*command.options), *command.options);
      return ripple::cli::run_stream_chain(std::move(one));
    }
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
