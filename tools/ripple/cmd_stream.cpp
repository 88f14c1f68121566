// The streaming subcommands (filter, decimate, resample, shift, convert, psd, spectrogram,
// tones), alone or in chains joined by '!': `ripple decimate 8 in.cs16 ! filter lowpass 20k !
// spectrogram out.png`. Each command's positional arguments are its parameters followed by
// file names: alone, a processing command takes [IN [OUT]] and psd/spectrogram [IN] OUT; in a
// chain only the first command names IN and only the last names OUT. Missing files are standard
// input/output, as csdr's and sox's pipes.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "ripple/error.hpp"
#include "sinks.hpp"
#include "steps.hpp"
#include "stream_commands.hpp"
#include "units.hpp"

namespace ripple::cli {
namespace {

constexpr const char* kFiles =
    "Files: a processing command alone takes [IN [OUT]] ('-' or nothing: standard input/output); in a chain "
    "(commands joined by '!') the first names IN, the last OUT.\n"
    "Formats by extension or --format/--out-format: raw cu8 cs8 cs16 cs32 cf32 cf64 u8 s8 s16 s32 f32 f64 (.cfile = "
    "cf32), wav flac aiff ogg ... (libsndfile), .sigmf-meta/.sigmf-data (SigMF: rate and datatype from the metadata), "
    ".npy. Frequencies take k/M/G suffixes (20k, 2.4M).";

void add_common_options(CLI::App* sub, StreamOptions& o) {
  sub->add_option("ARGS", o.args, "parameters, then files");
  sub->add_option("--format", o.format, "input format (raw encoding or container) when the extension does not say");
  sub->add_option("-r,--rate", o.rate, "input sample rate in Hz (raw files and pipes; e.g. 2.4M)");
  sub->add_option("--channels", o.channels, "interleaved channels of raw input (default 1)")->check(CLI::Range(1, 4096));
  sub->add_flag("--iq", o.iq, "read a sound file's channel pairs (or an npy's last axis of 2) as I/Q samples");
  sub->add_flag("--big-endian", o.big_endian, "raw input is big-endian");
  sub->add_flag("--allow-nonfinite", o.allow_nonfinite, "accept NaN and infinite input samples");
  sub->add_option("--out-format", o.out_format, "output format when the extension does not say (default for '-': cf32/f32)");
  sub->add_option("--encoding", o.encoding, "sample encoding inside WAV/FLAC/SigMF/npy output (s16, s24, f32, ...)");
  sub->add_flag("-f,--force", o.force, "overwrite output files that exist");
  sub->add_flag("-q,--quiet", o.quiet, "no progress bar, no warnings");
  sub->add_flag("-v,--verbose", o.verbose, "print each stage's throughput on standard error");
  sub->add_option("--block", o.block, "frames read and processed at once (default 65536)")
      ->check(CLI::Range(std::size_t{16}, std::size_t{1} << 24));
  sub->footer(kFiles);
}

std::vector<std::string> rest(const std::vector<std::string>& args, std::size_t from) {
  return {args.begin() + static_cast<std::ptrdiff_t>(std::min(from, args.size())), args.end()};
}

StreamCommand processor(CLI::App& app, const char* name, const char* help,
                        std::function<ParsedStage(StreamOptions&)> parse) {
  auto o = std::make_shared<StreamOptions>();
  CLI::App* sub = app.add_subcommand(name, help);
  add_common_options(sub, *o);
  return {sub, o, std::move(parse)};
}

}  // namespace

std::vector<StreamCommand> add_stream_commands(CLI::App& app) {
  std::vector<StreamCommand> commands;

  {
    auto p = std::make_shared<FilterParams>();
    auto c = processor(app, "filter", "IIR (butter/cheby1/cheby2) or FIR filter: filter lowpass 20k, filter bandpass 300 3k",
                       [p](StreamOptions& o) {
                         FilterParams params = *p;
                         std::size_t used = 0;
                         if (params.sos_file.empty()) {
                           if (o.args.empty())
                             throw UsageError("filter: give a type and cutoff (filter lowpass 20k) or --sos FILE");
                           params.type = o.args[0];
                           std::size_t n = 0;
                           if (params.type == "lowpass" || params.type == "highpass") n = 1;
                           if (params.type == "bandpass" || params.type == "bandstop") n = 2;
                           if (n == 0)
                             throw UsageError("filter: unknown type '" + params.type +
                                              "' (lowpass, highpass, bandpass, bandstop)");
                           if (o.args.size() < 1 + n)
                             throw UsageError("filter: " + params.type + " needs " + (n == 1 ? "a cutoff" : "two band edges"));
                           for (std::size_t i = 1; i <= n; ++i)
                             params.cutoffs.push_back(parse_frequency(o.args[i], "filter: cutoff"));
                           used = 1 + n;
                         }
                         return ParsedStage{"filter", make_filter(params), {}, rest(o.args, used)};
                       });
    c.app->add_option("--design", p->design, "butter (default), cheby1, cheby2, or fir (firwin)");
    c.app->add_option("--order", p->order, "IIR order (default 4)")->check(CLI::Range(1, 64));
    c.app->add_option("--rp", p->rp, "cheby1 passband ripple in dB (default 1)");
    c.app->add_option("--rs", p->rs, "cheby2 stopband attenuation in dB (default 60)");
    c.app->add_option("--taps", p->taps, "FIR length (default 101)")->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20));
    c.app->add_option("--window", p->window, "FIR window, scipy's names (default hamming; kaiser,8.6 ...)");
    c.app->add_option("--sos", p->sos_file, "second-order sections instead of a design: an (n, 6) .npy or a text file, "
                                            "one 'b0 b1 b2 a0 a1 a2' row per line");
    commands.push_back(std::move(c));
  }
  {
    auto p = std::make_shared<DecimateParams>();
    auto c = processor(app, "decimate", "decimate by R: CIC + compensation FIR for large R, polyphase FIR otherwise",
                       [p](StreamOptions& o) {
                         if (o.args.empty()) throw UsageError("decimate: the ratio R is required (e.g. decimate 8)");
                         DecimateParams params = *p;
                         params.ratio = parse_ratio(o.args[0], "decimate: R");
                         return ParsedStage{"decimate", make_decimate(params), {}, rest(o.args, 1)};
                       });
    c.app->add_option("--method", p->method,
                      "auto (default: CIC + FIR for R >= 16 with a small factor, else FIR), cic, or fir "
                      "(scipy resample_poly(x, 1, R))");
    c.app->add_option("--cic-stages", p->cic_stages, "CIC stages N (default 5)");
    commands.push_back(std::move(c));
  }
  {
    auto p = std::make_shared<ResampleParams>();
    auto to = std::make_shared<std::string>();
    auto c = processor(app, "resample", "rational resampling by UP/DOWN (scipy resample_poly), or --to RATE",
                       [p, to](StreamOptions& o) {
                         ResampleParams params = *p;
                         std::size_t used = 0;
                         if (!to->empty()) {
                           params.to_rate = parse_frequency(*to, "resample: --to");
                         } else {
                           if (o.args.size() < 2) throw UsageError("resample: give UP DOWN (resample 3 2) or --to RATE");
                           params.up = parse_ratio(o.args[0], "resample: UP");
                           params.down = parse_ratio(o.args[1], "resample: DOWN");
                           used = 2;
                         }
                         return ParsedStage{"resample", make_resample(params), {}, rest(o.args, used)};
                       });
    c.app->add_option("--to", *to, "output sample rate (e.g. 48k), instead of UP DOWN");
    commands.push_back(std::move(c));
  }
  commands.push_back(processor(app, "shift", "frequency shift by FREQ with an NCO (shift -100k moves the spectrum down)",
                               [](StreamOptions& o) {
                                 if (o.args.empty()) throw UsageError("shift: the frequency is required (e.g. shift 100k)");
                                 const double f = parse_frequency(o.args[0], "shift: frequency");
                                 return ParsedStage{"shift", make_shift(f), {}, rest(o.args, 1)};
                               }));
  {
    auto real = std::make_shared<bool>(false);
    auto c = processor(app, "convert", "copy samples from one format to another (raw, WAV/FLAC, SigMF, npy)",
                       [real](StreamOptions& o) {
                         return ParsedStage{"convert", *real ? make_real_part() : nullptr, {}, o.args};
                       });
    c.app->add_flag("--real", *real, "keep the real part of complex samples (e.g. USB demodulation of a shifted channel)");
    commands.push_back(std::move(c));
  }
  const auto spectrum_options = [](CLI::App* sub, SpectrumParams& s, bool image) {
    sub->add_option("--nperseg", s.nperseg, "segment length (default 1024)")->check(CLI::Range(std::size_t{2}, std::size_t{1} << 24));
    sub->add_option("--noverlap", s.noverlap, image ? "overlap (default nperseg/8, as scipy's spectrogram)"
                                                    : "overlap (default nperseg/2, as scipy's welch)");
    sub->add_option("--window", s.window, "window, scipy's names (default hann)");
    sub->add_option("--scaling", s.scaling, "density (V^2/Hz, default) or spectrum (V^2)");
  };
  {
    auto s = std::make_shared<SpectrumParams>();
    auto c = processor(app, "psd", "power spectral density (Welch) as CSV (frequency_hz,psd) or a PNG plot",
                       [s](StreamOptions& o) {
                         const SpectrumParams params = *s;
                         return ParsedStage{"psd", nullptr,
                                            [params](const std::string& out, const StreamOptions& so) {
                                              return make_psd_sink(out, params, so.force);
                                            },
                                            o.args, SinkFiles::output};
                       });
    spectrum_options(c.app, *s, false);
    commands.push_back(std::move(c));
  }
  {
    auto s = std::make_shared<SpectrumParams>();
    auto c = processor(app, "spectrogram", "spectrogram as a PNG image (axes, colour bar) or CSV like rtl_power",
                       [s](StreamOptions& o) {
                         const SpectrumParams params = *s;
                         return ParsedStage{"spectrogram", nullptr,
                                            [params](const std::string& out, const StreamOptions& so) {
                                              return make_spectrogram_sink(out, params, so.force);
                                            },
                                            o.args, SinkFiles::output};
                       });
    spectrum_options(c.app, *s, true);
    c.app->add_option("--range", s->range_db, "PNG colour range below the maximum, dB (default 90)")
        ->check(CLI::Range(1.0, 400.0));
    c.app->add_option("--columns", s->columns, "most time columns in the PNG (default 1000)")
        ->check(CLI::Range(std::size_t{2}, std::size_t{100000}));
    c.app->add_option("--integrate", s->integrate, "seconds averaged per row (rtl_power's -i)");
    commands.push_back(std::move(c));
  }
  {
    auto t = std::make_shared<TonesParams>();
    auto freq = std::make_shared<std::string>(), nulls = std::make_shared<std::string>();
    auto c = processor(app, "tones", "detect tones (Goertzel) block by block and print when each was present",
                       [t, freq, nulls](StreamOptions& o) {
                         TonesParams params = *t;
                         if (freq->empty()) throw UsageError("tones: give the frequencies with --freq (e.g. --freq 19k,21k)");
                         params.frequencies = parse_frequency_list(*freq, "tones: --freq");
                         if (!nulls->empty()) params.nulls = parse_frequency_list(*nulls, "tones: --null");
                         return ParsedStage{"tones", nullptr,
                                            [params](const std::string&, const StreamOptions&) { return make_tones_sink(params); },
                                            o.args, SinkFiles::none};
                       });
    c.app->add_option("--freq", *freq, "frequencies to detect, comma-separated (19k,21k)");
    c.app->add_option("--null", *nulls, "frequencies that must stay quiet for a detection");
    c.app->add_option("--threshold", t->threshold_db,
                      "detection threshold: tone power relative to the block's, dB (default -20)");
    c.app->add_option("--interval", t->block_seconds, "detection block length in seconds (default 0.02)");
    c.app->add_flag("--require-all", t->require_all, "exit with an error when a tone is never detected");
    commands.push_back(std::move(c));
  }
  return commands;
}

}  // namespace ripple::cli
