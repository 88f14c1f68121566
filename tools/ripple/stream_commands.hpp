// Registration of the streaming subcommands and the runner of a chain of them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "stream_chain.hpp"

namespace ripple::cli {

/// Options every streaming command takes (input format and rate, output format, --force ...).
struct StreamOptions {
  std::vector<std::string> args;  ///< positionals: parameters, then files
  std::string format, rate, out_format, encoding;
  std::size_t channels = 1;
  bool iq = false, big_endian = false, allow_nonfinite = false;
  bool force = false, quiet = false, verbose = false;
  std::size_t block = 65536;
};

/// Which file names a sink takes.
enum class SinkFiles { output, none };

/// A command of a chain after its positionals were read: a processing step (step may be null:
/// convert), or a sink factory; and the file names left after its parameters.
struct ParsedStage {
  std::string name;
  std::unique_ptr<Step> step;
  std::function<std::unique_ptr<Sink>(const std::string& out, const StreamOptions&)> make_sink;
  std::vector<std::string> files;
  SinkFiles sink_files = SinkFiles::output;
};

struct StreamCommand {
  CLI::App* app = nullptr;
  std::shared_ptr<StreamOptions> options;
  std::function<ParsedStage(StreamOptions&)> parse;
};

/// Registers filter, decimate, resample, shift, convert, psd, spectrogram and tones on `app`.
std::vector<StreamCommand> add_stream_commands(CLI::App& app);

/// Runs a chain: one (command, its options) pair per '!'-separated segment, in order.
int run_stream_chain(std::vector<std::pair<ParsedStage, StreamOptions>> segments);

}  // namespace ripple::cli
