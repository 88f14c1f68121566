// SigMF metadata: parsing with nlohmann::json and checking every field ripple uses; and the
// SigMF reader/writer pair built on the raw sample streams.
#include "ripple/io/sigmf.hpp"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/byte_stream.hpp"
#include "io/npy_error.hpp"
#include "io/raw_stream.hpp"
#include "io/sample_codec.hpp"
#include "io/sigmf_stream.hpp"
#include "ripple/error.hpp"

namespace ripple::io {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) { throw IoError("sigmf: " + what); }

const json* field(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

std::uint64_t unsigned_field(const json& object, const char* key, const std::string& where) {
  const json* v = field(object, key);
  if (!v) return 0;
  if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0))
    fail(where + " " + key + " must be a non-negative integer, not " + detail::printable(v->dump()));
  return v->get<std::uint64_t>();
}

std::optional<double> number_field(const json& object, const char* key, const std::string& where) {
  const json* v = field(object, key);
  if (!v) return std::nullopt;
  if (!v->is_number()) fail(where + " " + key + " must be a number, not " + detail::printable(v->dump()));
  return v->get<double>();
}

std::optional<std::string> string_field(const json& object, const char* key, const std::string& where) {
  const json* v = field(object, key);
  if (!v) return std::nullopt;
  if (!v->is_string()) fail(where + " " + key + " must be a string, not " + detail::printable(v->dump()));
  return v->get<std::string>();
}

// "ci16_le" -> cs16, little-endian.
void parse_datatype(const std::string& text, SigmfMeta& meta) {
  std::string_view t = text;
  meta.big_endian = false;
  bool has_endianness = false;
  if (t.ends_with("_le") || t.ends_with("_be")) {
    meta.big_endian = t.ends_with("_be");
    has_endianness = true;
    t.remove_suffix(3);
  }
  if (t.size() < 3 || (t[0] != 'c' && t[0] != 'r')) fail("unknown core:datatype '" + detail::printable(text) + "'");
  const bool complex = t[0] == 'c';
  const std::string_view body = t.substr(1);
  if (body == "u16" || body == "u32")
    throw Unsupported("sigmf: core:datatype '" + text + "' (unsigned " + std::string(body.substr(1)) +
                      "-bit) is not supported");
  const auto real = parse_sample_format(std::string("r") + std::string(body));
  if (!real) fail("unknown core:datatype '" + detail::printable(text) + "'");
  const bool byte_sized = format_info(*real).value_bytes == 1;
  if (!byte_sized && !has_endianness)
    fail("core:datatype '" + detail::printable(text) + "' lacks its byte order (_le or _be)");
  if (byte_sized && has_endianness) fail("core:datatype '" + detail::printable(text) + "': 8-bit types take no _le/_be");
  meta.format = complex ? detail::complex_counterpart(*real) : *real;
}

}  // namespace

SigmfMeta parse_sigmf_meta(std::string_view text) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::exception& e) {
    fail(std::string("malformed JSON: ") + e.what());
  }
  if (!doc.is_object()) fail("the metadata is not a JSON object");
  const json* global = field(doc, "global");
  if (!global || !global->is_object()) fail("no \"global\" object");
  SigmfMeta meta;
  const auto datatype = string_field(*global, "core:datatype", "global");
  if (!datatype) fail("global has no core:datatype");
  parse_datatype(*datatype, meta);
  meta.sample_rate = number_field(*global, "core:sample_rate", "global");
  if (meta.sample_rate && !(std::isfinite(*meta.sample_rate) && *meta.sample_rate > 0))
    fail("core:sample_rate must be a positive number of Hz, not " + std::to_string(*meta.sample_rate));
  if (field(*global, "core:num_channels")) {
    const std::uint64_t channels = unsigned_field(*global, "core:num_channels", "global");
    if (channels == 0 || channels > 4096) fail("core:num_channels must be 1 to 4096, not " + std::to_string(channels));
    meta.channels = static_cast<std::size_t>(channels);
  }
  meta.dataset = string_field(*global, "core:dataset", "global");
  if (meta.dataset && (meta.dataset->empty() || meta.dataset->find('/') != std::string::npos))
    fail("core:dataset must be a file name beside the metadata, not '" + detail::printable(*meta.dataset) + "'");
  string_field(*global, "core:version", "global");

  if (const json* captures = field(doc, "captures")) {
    if (!captures->is_array()) fail("\"captures\" is not an array");
    std::uint64_t previous = 0;
    for (std::size_t i = 0; i < captures->size(); ++i) {
      const json& c = (*captures)[i];
      const std::string where = "captures[" + std::to_string(i) + "]";
      if (!c.is_object()) fail(where + " is not an object");
      const std::uint64_t start = unsigned_field(c, "core:sample_start", where);
      if (i > 0 && start < previous) fail(where + " core:sample_start goes backwards");
      previous = start;
      meta.samples_referenced = std::max(meta.samples_referenced, start);
      const auto frequency = number_field(c, "core:frequency", where);
      const auto datetime = string_field(c, "core:datetime", where);
      if (i == 0) {
        meta.frequency = frequency;
        meta.datetime = datetime;
        meta.header_bytes = unsigned_field(c, "core:header_bytes", where);
      } else if (field(c, "core:header_bytes")) {
        throw Unsupported("sigmf: " + where + " core:header_bytes (headers between captures) is not supported");
      }
    }
  }
  if (const json* annotations = field(doc, "annotations")) {
    if (!annotations->is_array()) fail("\"annotations\" is not an array");
    for (std::size_t i = 0; i < annotations->size(); ++i) {
      const json& a = (*annotations)[i];
      const std::string where = "annotations[" + std::to_string(i) + "]";
      if (!a.is_object()) fail(where + " is not an object");
      const std::uint64_t start = unsigned_field(a, "core:sample_start", where);
      const std::uint64_t count = unsigned_field(a, "core:sample_count", where);
      if (count > UINT64_MAX - start) fail(where + " core:sample_start + core:sample_count overflows");
      meta.samples_referenced = std::max(meta.samples_referenced, start + count);
    }
  }
  return meta;
}

std::string sigmf_datatype(SampleFormat format, bool big_endian) {
  const SampleFormatInfo f = format_info(format);
  const SampleFormat real = detail::real_counterpart(format);
  std::string body = format_info(real).name;  // "s16"
  if (body[0] == 's') body[0] = 'i';
  std::string name = (f.is_complex ? "c" : "r") + body;
  if (f.value_bytes > 1) name += big_endian ? "_be" : "_le";
  return name;
}

std::string format_sigmf_meta(const SigmfMeta& meta, std::string_view recorder) {
  json global = json::object();
  global["core:datatype"] = sigmf_datatype(meta.format, meta.big_endian);
  if (meta.sample_rate) global["core:sample_rate"] = *meta.sample_rate;
  global["core:version"] = "1.0.0";
  if (meta.channels != 1) global["core:num_channels"] = meta.channels;
  global["core:recorder"] = std::string(recorder);
  json capture = json::object();
  capture["core:sample_start"] = 0;
  if (meta.frequency) capture["core:frequency"] = *meta.frequency;
  if (meta.datetime) capture["core:datetime"] = *meta.datetime;
  json doc = json::object();
  doc["global"] = global;
  doc["captures"] = json::array({capture});
  doc["annotations"] = json::array();
  return doc.dump(4) + "\n";
}

namespace detail {

SigmfPaths sigmf_paths(const std::string& path) {
  for (const char* ext : {".sigmf-meta", ".sigmf-data"})
    if (path.ends_with(ext)) {
      const std::string base = path.substr(0, path.size() - std::strlen(ext));
      return {base + ".sigmf-meta", base + ".sigmf-data"};
    }
  if (path.ends_with(".sigmf"))
    throw Unsupported("'" + path + "': SigMF archives (.sigmf) are not supported; extract the .sigmf-meta and .sigmf-data");
  return {path + ".sigmf-meta", path + ".sigmf-data"};
}

std::unique_ptr<SampleReader> open_sigmf_reader(const std::string& path, const ReadOptions& options) {
  if (path == "-") throw InvalidArgument("SigMF recordings are two files and cannot come from standard input");
  SigmfPaths paths = sigmf_paths(path);
  SigmfMeta meta;
  {
    auto in = open_input(paths.meta);
    constexpr std::uint64_t kMaxMeta = std::uint64_t{64} << 20;
    std::string text;
    std::vector<char> chunk(1 << 16);
    while (const std::size_t got = in->read(chunk.data(), chunk.size())) {
      text.append(chunk.data(), got);
      if (text.size() > kMaxMeta) throw IoError(display_name(paths.meta) + ": metadata larger than 64 MiB");
    }
    try {
      meta = parse_sigmf_meta(text);
    } catch (const IoError& e) {
      throw IoError(display_name(paths.meta) + ": " + e.what());
    } catch (const Unsupported& e) {
      throw Unsupported(display_name(paths.meta) + ": " + e.what());
    }
  }
  if (meta.dataset) paths.data = (std::filesystem::path(paths.meta).parent_path() / *meta.dataset).string();
  auto data = open_input(paths.data);
  if (meta.header_bytes > 0 && data->skip(meta.header_bytes) != meta.header_bytes)
    throw IoError(data->name() + ": truncated: shorter than the " + std::to_string(meta.header_bytes) +
                  " header bytes the metadata declares");
  // The data after the header must be whole frames: wrap the rest as a sized input.
  auto reader = std::make_unique<RawReader>(std::move(data), meta.format, meta.channels, meta.big_endian,
                                            options.allow_nonfinite, "SigMF");
  StreamInfo& info = reader->mutable_info();
  if (options.sample_rate && meta.sample_rate && *options.sample_rate != *meta.sample_rate)
    throw InvalidArgument("--rate " + std::to_string(*options.sample_rate) + " contradicts the core:sample_rate " +
                          std::to_string(*meta.sample_rate) + " of " + display_name(paths.meta));
  info.sample_rate = meta.sample_rate ? meta.sample_rate : options.sample_rate;
  info.center_frequency = meta.frequency;
  info.datetime = meta.datetime;
  if (info.frames && meta.samples_referenced > *info.frames)
    throw IoError(display_name(paths.meta) + ": the metadata refers to sample " +
                  std::to_string(meta.samples_referenced) + " but " + display_name(paths.data) + " holds only " +
                  std::to_string(*info.frames) + " samples");
  return reader;
}

namespace {

class SigmfWriter final : public SampleWriter {
 public:
  SigmfWriter(const SigmfPaths& paths, const SigmfMeta& meta, bool force)
      : meta_path_(paths.meta), meta_(meta) {
    check_output_path(paths.meta, force);
    check_output_path(paths.data, force);
    const std::size_t vpf = meta.channels * (format_info(meta.format).is_complex ? 2 : 1);
    data_ = std::make_unique<RawWriter>(std::make_unique<OutputFile>(paths.data, force), meta.format, vpf);
    meta_file_ = std::make_unique<OutputFile>(paths.meta, force);
  }
  void write(std::span<const float> values) override { data_->write(values); }
  void close() override {
    const std::string text = format_sigmf_meta(meta_, "ripple");
    meta_file_->write(text.data(), text.size());
    data_->close();
    meta_file_->commit();
  }
  std::uint64_t clipped() const noexcept override { return data_->clipped(); }
  std::string describe() const override {
    return "SigMF " + sigmf_datatype(meta_.format) + " recording " + display_name(meta_path_);
  }

 private:
  std::string meta_path_;
  SigmfMeta meta_;
  std::unique_ptr<RawWriter> data_;
  std::unique_ptr<OutputFile> meta_file_;
};

}  // namespace

std::unique_ptr<SampleWriter> open_sigmf_writer(const std::string& path, const StreamInfo& info, SampleFormat format,
                                                const WriteOptions& options) {
  if (path == "-") throw InvalidArgument("SigMF recordings are two files and cannot go to standard output");
  if (!info.sample_rate) throw InvalidArgument("a SigMF recording needs a sample rate (give --rate)");
  SigmfMeta meta;
  meta.format = format;
  meta.channels = info.channels;
  meta.sample_rate = info.sample_rate;
  meta.frequency = info.center_frequency;
  meta.datetime = info.datetime;
  return std::make_unique<SigmfWriter>(sigmf_paths(path), meta, options.force);
}

}  // namespace detail
}  // namespace ripple::io
