// Choosing the reader or writer for a path: by --format, else by the file's extension.
#include <algorithm>
#include <cctype>
#include <cmath>

#include "io/byte_stream.hpp"
#include "io/npy_stream.hpp"
#include "io/raw_stream.hpp"
#include "io/sample_codec.hpp"
#include "io/sigmf_stream.hpp"
#include "io/sound_file.hpp"
#include "ripple/error.hpp"
#include "ripple/io/samples.hpp"

namespace ripple::io {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string extension_of(std::string_view path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash)) return {};
  return lower(std::string(path.substr(dot + 1)));
}

std::optional<Container> container_named(const std::string& name) {
  if (name == "sigmf" || name == "sigmf-meta" || name == "sigmf-data") return Container::sigmf;
  if (name == "npy") return Container::npy;
  if (parse_sample_format(name)) return Container::raw;
  if (detail::is_sound_extension(name)) return Container::sound;
  return std::nullopt;
}

std::string known_formats() {
  return sample_format_names() + ", or wav, flac, aiff, ogg (any libsndfile type), sigmf, npy";
}

// The container and, for raw data, the encoding that `format` (or else the path) names.
struct Choice {
  Container container;
  std::string name;  // the format or extension that chose it
};

Choice choose(const std::string& path, const std::optional<std::string>& format, bool output) {
  if (format) {
    const std::string name = lower(*format);
    if (const auto c = container_named(name)) return {*c, name};
    throw InvalidArgument("unknown format '" + *format + "' (known: " + known_formats() + ")");
  }
  if (path == "-")
    throw InvalidArgument(std::string(output ? "standard output" : "standard input") +
                          " needs --format (" + known_formats() + ")");
  const std::string ext = extension_of(path);
  if (!ext.empty())
    if (const auto c = container_named(ext)) return {*c, ext};
  throw InvalidArgument("unknown format of " + detail::display_name(path) + ": name it with --format (" + known_formats() +
                        ")");
}

// The encoding the user asked for, made complex or real to match the stream.
std::optional<SampleFormat> requested_encoding(const WriteOptions& options, bool is_complex) {
  if (!options.encoding) return std::nullopt;
  const auto f = parse_sample_format(lower(*options.encoding));
  if (!f) throw InvalidArgument("unknown encoding '" + *options.encoding + "' (known: " + sample_format_names() + ")");
  return is_complex ? detail::complex_counterpart(*f) : detail::real_counterpart(*f);
}

}  // namespace

std::optional<Container> container_of(std::string_view path) {
  const std::string ext = extension_of(path);
  if (ext.empty()) return std::nullopt;
  return container_named(ext);
}

std::unique_ptr<SampleReader> open_reader(const std::string& path, const ReadOptions& options) {
  if (options.sample_rate && !(std::isfinite(*options.sample_rate) && *options.sample_rate > 0))
    throw InvalidArgument("--rate must be a positive number of Hz, not " + std::to_string(*options.sample_rate));
  if (options.channels == 0 || options.channels > 4096)
    throw InvalidArgument("--channels must be 1 to 4096, not " + std::to_string(options.channels));
  const Choice choice = choose(path, options.format, false);
  switch (choice.container) {
    case Container::raw: {
      auto in = detail::open_input(path);
      auto reader = std::make_unique<detail::RawReader>(std::move(in), *parse_sample_format(choice.name),
                                                        options.channels, options.big_endian,
                                                        options.allow_nonfinite);
      reader->mutable_info().sample_rate = options.sample_rate;
      return reader;
    }
    case Container::sound:
      return detail::open_sound_reader(path, options);
    case Container::sigmf:
      return detail::open_sigmf_reader(path, options);
    case Container::npy:
      return detail::open_npy_reader(detail::open_input(path), options);
  }
  throw InvalidArgument("unreachable container");
}

std::unique_ptr<SampleWriter> open_writer(const std::string& path, const StreamInfo& info,
                                          const WriteOptions& options) {
  if (info.channels == 0) throw InvalidArgument("a stream needs at least one channel");
  std::optional<std::string> format = options.format;
  if (!format && path == "-") format = info.is_complex ? "cf32" : "f32";  // csdr's float streams
  const Choice choice = choose(path, format, true);
  const std::optional<SampleFormat> encoding = requested_encoding(options, info.is_complex);
  switch (choice.container) {
    case Container::raw: {
      const SampleFormat f = *parse_sample_format(choice.name);
      if (format_info(f).is_complex != info.is_complex)
        throw InvalidArgument("cannot write " + std::string(info.is_complex ? "complex" : "real") + " samples as " +
                              format_info(f).name + " to " + detail::display_name(path, true) + " (use " +
                              format_info(info.is_complex ? detail::complex_counterpart(f)
                                                          : detail::real_counterpart(f)).name +
                              ")");
      if (encoding && *encoding != f)
        throw InvalidArgument("--encoding " + *options.encoding + " contradicts the raw format " + format_info(f).name);
      return std::make_unique<detail::RawWriter>(std::make_unique<detail::OutputFile>(path, options.force), f,
                                                 info.values_per_frame());
    }
    case Container::sound:
      return detail::open_sound_writer(path, choice.name, info, options);
    case Container::sigmf: {
      SampleFormat f = encoding ? *encoding
                                : info.source_format ? *info.source_format
                                                     : (info.is_complex ? SampleFormat::cf32 : SampleFormat::f32);
      f = info.is_complex ? detail::complex_counterpart(f) : detail::real_counterpart(f);
      return detail::open_sigmf_writer(path, info, f, options);
    }
    case Container::npy:
      return detail::open_npy_writer(path, info, options);
  }
  throw InvalidArgument("unreachable container");
}

}  // namespace ripple::io
