// Turning parsed chain segments into a reader, steps and a sink, and running them.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "sinks.hpp"
#include "stream_commands.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

// An option given in several segments must agree.
template <class T>
void merge(T& into, const T& value, const T& unset, const char* name) {
  if (value == unset) return;
  if (into != unset && into != value) throw UsageError(std::string(name) + " is given twice with different values");
  into = value;
}

}  // namespace

int run_stream_chain(std::vector<std::pair<ParsedStage, StreamOptions>> segments) {
  StreamOptions all;
  for (auto& [stage, o] : segments) {
    merge(all.format, o.format, std::string(), "--format");
    merge(all.rate, o.rate, std::string(), "--rate");
    merge(all.out_format, o.out_format, std::string(), "--out-format");
    merge(all.encoding, o.encoding, std::string(), "--encoding");
    merge(all.channels, o.channels, std::size_t{1}, "--channels");
    merge(all.block, o.block, std::size_t{65536}, "--block");
    all.iq |= o.iq;
    all.big_endian |= o.big_endian;
    all.allow_nonfinite |= o.allow_nonfinite;
    all.force |= o.force;
    all.quiet |= o.quiet;
    all.verbose |= o.verbose;
  }
  // Files: the first segment names the input, the last the output.
  const bool chain = segments.size() > 1;
  std::string input = "-", output = "-";
  for (std::size_t i = 0; i < segments.size(); ++i) {
    ParsedStage& s = segments[i].first;
    const bool first = i == 0, last = i + 1 == segments.size();
    if (s.make_sink && !last)
      throw UsageError(s.name + " ends a chain: it cannot be followed by '!'");
    std::vector<std::string>& files = s.files;
    const bool takes_output = last && !(s.make_sink && s.sink_files == SinkFiles::none);
    std::size_t max_files = (first ? 1 : 0) + (takes_output ? 1 : 0);
    if (files.size() > max_files) {
      const std::string extra = files[max_files];
      throw UsageError(s.name + ": unexpected argument '" + extra + "'" +
                       (chain ? " (in a chain only the first command names the input and the last the output)" : ""));
    }
    if (s.make_sink && s.sink_files == SinkFiles::output && last && files.size() < (first ? 1u : 1u))
      throw UsageError(s.name + ": the output file is required (.png, .csv, or - for CSV)");
    if (first && !last) {
      if (!files.empty()) input = files[0];
    } else if (first && last) {
      if (s.make_sink && s.sink_files == SinkFiles::output) {
        if (files.size() == 1) output = files[0];
        if (files.size() == 2) input = files[0], output = files[1];
      } else {
        if (!files.empty()) input = files[0];
        if (files.size() > 1) output = files[1];
      }
    } else if (last && !files.empty()) {
      output = files[0];
    }
  }

  io::ReadOptions ro;
  if (!all.format.empty()) ro.format = all.format;
  if (!all.rate.empty()) ro.sample_rate = parse_frequency(all.rate, "--rate");
  ro.channels = all.channels;
  ro.iq = all.iq;
  ro.big_endian = all.big_endian;
  ro.allow_nonfinite = all.allow_nonfinite;
  io::WriteOptions wo;
  if (!all.out_format.empty()) wo.format = all.out_format;
  if (!all.encoding.empty()) wo.encoding = all.encoding;
  wo.force = all.force;

  // The sink first: it checks its output (exists without --force, bad extension) before any work.
  ParsedStage& tail = segments.back().first;
  std::unique_ptr<Sink> sink = tail.make_sink ? tail.make_sink(output, all) : make_writer_sink(output, wo, all.quiet);
  std::unique_ptr<io::SampleReader> reader = io::open_reader(input, ro);
  std::vector<std::unique_ptr<Step>> steps;
  for (auto& [stage, o] : segments)
    if (stage.step) steps.push_back(std::move(stage.step));

  RunOptions run;
  run.block = all.block;
  run.progress = !all.quiet;
  const RunReport report = run_chain(*reader, steps, *sink, run);
  if (all.verbose) {
    std::fprintf(stderr, "ripple: %s, %s\n", reader->describe().c_str(),
                 report.output.sample_rate ? ("output at " + format_frequency(*report.output.sample_rate)).c_str() : "");
    std::fputs(format_report(report).c_str(), stderr);
  }
  return 0;
}

}  // namespace ripple::cli
