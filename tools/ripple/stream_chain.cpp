// Running a chain: reader -> per-channel pipelines (real/complex segments) -> sink.
#include "stream_chain.hpp"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <variant>

#include "progress.hpp"
#include "ripple/error.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

using Clock = std::chrono::steady_clock;
using Segment = std::variant<pipeline::Pipeline<float>, pipeline::Pipeline<Complex>>;

template <class P>
struct ElementOf;
template <class T>
struct ElementOf<pipeline::Pipeline<T>> {
  using type = T;
};
template <class P>
using element_of = typename ElementOf<std::decay_t<P>>::type;

// One channel's pipelines: segment s is real or complex; its outputs are converted for
// segment s + 1 (real part, or real made complex) and the last one's collected in `out`.
struct ChannelChain {
  std::vector<Segment> segments;
  std::vector<std::vector<float>> converted;  // per segment boundary, reused
  std::vector<float> out;
};

template <class T>
std::span<const float> as_floats(std::span<const T> y) {
  return {reinterpret_cast<const float*>(y.data()), y.size() * sizeof(T) / sizeof(float)};
}

void push_segment(ChannelChain& ch, std::size_t s, std::span<const float> values);

template <class T>
void forward(ChannelChain& ch, std::size_t s, std::span<const T> y) {
  if (s + 1 == ch.segments.size()) {
    const auto f = as_floats(y);
    ch.out.insert(ch.out.end(), f.begin(), f.end());
    return;
  }
  std::vector<float>& tmp = ch.converted[s];
  tmp.clear();
  if constexpr (std::is_same_v<T, Complex>) {  // next segment is real: the real part
    for (const Complex& v : y) tmp.push_back(v.real());
  } else {  // next segment is complex
    for (float v : y) {
      tmp.push_back(v);
      tmp.push_back(0.0f);
    }
  }
  push_segment(ch, s + 1, tmp);
}

void push_segment(ChannelChain& ch, std::size_t s, std::span<const float> values) {
  std::visit(
      [&](auto& p) {
        using U = element_of<decltype(p)>;
        const std::span<const U> x(reinterpret_cast<const U*>(values.data()), values.size() * sizeof(float) / sizeof(U));
        p.push(x, [&](std::span<const U> y) { forward<U>(ch, s, y); });
      },
      ch.segments[s]);
}

void finish_segments(ChannelChain& ch) {
  for (std::size_t s = 0; s < ch.segments.size(); ++s)
    std::visit(
        [&](auto& p) {
          using U = element_of<decltype(p)>;
          p.finish([&](std::span<const U> y) { forward<U>(ch, s, y); });
        },
        ch.segments[s]);
}

}  // namespace

RunReport run_chain(io::SampleReader& reader, std::vector<std::unique_ptr<Step>>& steps, Sink& sink,
                    const RunOptions& options) {
  RunReport report;
  report.input = reader.info();
  const std::size_t channels = reader.info().channels;

  // Plan: which segments (real/complex) and which steps go into each.
  io::StreamInfo info = reader.info();
  std::vector<bool> segment_complex{info.is_complex};
  std::vector<std::size_t> segment_of(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (steps[i]->needs_complex() && !info.is_complex) {
      info.is_complex = true;
      segment_complex.push_back(true);
    }
    info = steps[i]->plan(info);
    segment_of[i] = segment_complex.size() - 1;
    if (steps[i]->makes_real() && segment_complex.back()) segment_complex.push_back(false);
  }
  report.output = info;

  std::vector<ChannelChain> chains(channels);
  for (ChannelChain& ch : chains) {
    for (bool c : segment_complex) {
      if (c)
        ch.segments.emplace_back(std::in_place_type<pipeline::Pipeline<Complex>>, options.block);
      else
        ch.segments.emplace_back(std::in_place_type<pipeline::Pipeline<float>>, options.block);
    }
    ch.converted.resize(ch.segments.size());
    for (std::size_t i = 0; i < steps.size(); ++i)
      std::visit([&](auto& p) { steps[i]->add_to(p); }, ch.segments[segment_of[i]]);
  }
  sink.start(info);

  const std::size_t in_vpf = reader.info().values_per_frame();
  const std::size_t in_parts = reader.info().is_complex ? 2 : 1;
  const std::size_t out_parts = info.is_complex ? 2 : 1;
  std::vector<float> block(options.block * in_vpf);
  std::vector<float> channel_in, interleaved;
  Progress progress(options.progress);
  const auto start = Clock::now();
  double read_s = 0, sink_s = 0;

  const auto deliver = [&] {
    const auto t0 = Clock::now();
    if (channels == 1) {
      sink.consume(chains[0].out);
    } else {
      const std::size_t frames = chains[0].out.size() / out_parts;
      interleaved.resize(frames * channels * out_parts);
      for (std::size_t c = 0; c < channels; ++c)
        for (std::size_t t = 0; t < frames; ++t)
          for (std::size_t k = 0; k < out_parts; ++k)
            interleaved[(t * channels + c) * out_parts + k] = chains[c].out[t * out_parts + k];
      sink.consume(interleaved);
    }
    for (ChannelChain& ch : chains) ch.out.clear();
    sink_s += std::chrono::duration<double>(Clock::now() - t0).count();
  };

  for (;;) {
    const auto t0 = Clock::now();
    const std::size_t frames = reader.read(block);
    read_s += std::chrono::duration<double>(Clock::now() - t0).count();
    if (frames == 0) break;
    report.frames_in += frames;
    const std::span<const float> values(block.data(), frames * in_vpf);
    if (channels == 1) {
      push_segment(chains[0], 0, values);
    } else {
      for (std::size_t c = 0; c < channels; ++c) {
        channel_in.resize(frames * in_parts);
        for (std::size_t t = 0; t < frames; ++t)
          for (std::size_t k = 0; k < in_parts; ++k)
            channel_in[t * in_parts + k] = values[(t * channels + c) * in_parts + k];
        push_segment(chains[c], 0, channel_in);
      }
    }
    deliver();
    progress.update(reader.bytes_read(), reader.bytes_total(), report.frames_in);
  }
  for (ChannelChain& ch : chains) finish_segments(ch);
  deliver();
  const auto t0 = Clock::now();
  sink.finish();
  sink_s += std::chrono::duration<double>(Clock::now() - t0).count();
  progress.done();

  report.read_seconds = read_s;
  report.sink_seconds = sink_s;
  report.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (const ChannelChain& ch : chains) {
    std::size_t k = 0;
    for (const Segment& seg : ch.segments)
      std::visit(
          [&](const auto& p) {
            for (const pipeline::StageStats& st : p.stats()) {
              if (k == report.stages.size()) report.stages.push_back({st.name, 0, 0, 0});
              StageReport& r = report.stages[k++];
              r.samples_in += st.samples_in;
              r.samples_out += st.samples_out;
              r.seconds += st.seconds;
            }
          },
          seg);
  }
  return report;
}

std::string format_report(const RunReport& r) {
  std::string text;
  char line[256];
  const auto rate = [](double samples, double seconds) { return seconds > 0 ? samples / seconds : 0.0; };
  std::snprintf(line, sizeof line, "  %-44s %10s %12s %10s\n", "stage", "samples in", "throughput", "time");
  text += line;
  std::snprintf(line, sizeof line, "  %-44s %10s %12s %9.1fms\n", "read + decode", format_si(double(r.frames_in)).c_str(),
                (format_si(rate(double(r.frames_in), r.read_seconds)) + "S/s").c_str(), r.read_seconds * 1e3);
  text += line;
  for (const StageReport& s : r.stages) {
    std::snprintf(line, sizeof line, "  %-44s %10s %12s %9.1fms\n", s.name.substr(0, 44).c_str(),
                  format_si(double(s.samples_in)).c_str(),
                  (format_si(rate(double(s.samples_in), s.seconds)) + "S/s").c_str(), s.seconds * 1e3);
    text += line;
  }
  std::snprintf(line, sizeof line, "  %-44s %10s %12s %9.1fms\n", "output", "", "", r.sink_seconds * 1e3);
  text += line;
  std::snprintf(line, sizeof line, "  %-44s %10s %12s %9.1fms\n", "total", format_si(double(r.frames_in)).c_str(),
                (format_si(rate(double(r.frames_in), r.total_seconds)) + "S/s").c_str(), r.total_seconds * 1e3);
  text += line;
  return text;
}

}  // namespace ripple::cli
