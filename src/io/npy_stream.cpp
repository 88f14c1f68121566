// Streaming .npy reader and writer on the npy header code shared with read_npy/write_npy.
#include "io/npy_stream.hpp"

#include <array>
#include <bit>

#include "io/npy_header.hpp"
#include "io/npy_prelude.hpp"
#include "io/raw_stream.hpp"
#include "io/sample_codec.hpp"
#include "ripple/error.hpp"

namespace ripple::io::detail {
namespace {

SampleFormat format_of(Dtype dtype) {
  switch (dtype) {
    case Dtype::f32: return SampleFormat::f32;
    case Dtype::f64: return SampleFormat::f64;
    case Dtype::c64: return SampleFormat::cf32;
    case Dtype::c128: return SampleFormat::cf64;
  }
  return SampleFormat::f32;
}

// The preamble is written twice (a placeholder first, the true shape at close), so it has a
// fixed size: 128 bytes hold any 1-D or 2-D shape of 64-bit extents.
constexpr std::size_t kPreambleSize = 128;

class NpyWriter final : public SampleWriter {
 public:
  NpyWriter(std::unique_ptr<OutputFile> out, Dtype dtype, const StreamInfo& info)
      : dtype_(dtype), channels_(info.channels), path_(out->path()) {
    if (out->is_stdout())
      throw InvalidArgument("npy output needs a file (its header, written last, holds the length); "
                            "use a raw format such as cf32 on pipes");
    const std::string placeholder = preamble(0);
    out->write(placeholder.data(), placeholder.size());
    data_ = std::make_unique<RawWriter>(std::move(out), format_of(dtype), info.values_per_frame());
  }
  void write(std::span<const float> values) override { data_->write(values); }
  void close() override {
    const std::string header = preamble(data_->frames_written());
    data_->file().write_at(0, header.data(), header.size());
    data_->close();
  }
  std::uint64_t clipped() const noexcept override { return 0; }
  std::string describe() const override { return std::string("npy ") + dtype_name(dtype_) + " array to " + display_name(path_); }

 private:
  std::string preamble(std::uint64_t frames) const {
    std::vector<std::size_t> shape{static_cast<std::size_t>(frames)};
    if (channels_ > 1) shape.push_back(channels_);
    std::string text = encode_preamble(dtype_, shape, NpyVersion::v1);
    if (text.size() > kPreambleSize) throw IoError("npy header too long");
    // Pad inside the header (before its final newline), keeping the 64-byte alignment numpy likes.
    text.insert(text.size() - 1, kPreambleSize - text.size(), ' ');
    const auto length = static_cast<std::uint16_t>(kPreambleSize - 10);
    text[8] = static_cast<char>(length & 0xff);
    text[9] = static_cast<char>(length >> 8);
    return text;
  }

  Dtype dtype_;
  std::size_t channels_;
  std::string path_;
  std::unique_ptr<RawWriter> data_;
};

}  // namespace

std::unique_ptr<SampleReader> open_npy_reader(std::unique_ptr<ByteInput> in, const ReadOptions& options) {
  const std::string name = in->name();
  try {
    std::array<std::byte, kMaxPreludeSize> head{};
    const std::size_t head_size = in->read(head.data(), 10);
    // The prelude parser wants the total size only to bound the header length.
    const std::uint64_t total = in->size().value_or(UINT64_MAX / 2);
    if (head_size == 10 && head[6] != std::byte{1}) read_exact(*in, head.data() + 10, 2, "npy prelude");
    const std::size_t have = head_size == 10 && head[6] != std::byte{1} ? 12 : head_size;
    const Prelude prelude = parse_prelude(std::span(head.data(), have), total);
    std::string text(prelude.header_length, '\0');
    read_exact(*in, text.data(), text.size(), "npy header");
    const NpyHeader header = parse_header(text);
    if (header.shape.empty() || header.shape.size() > 2)
      throw Unsupported("npy: a sample stream is a 1-D (frames) or 2-D (frames, channels) array, not shape " +
                        shape_string(header.shape));
    std::size_t channels = header.shape.size() == 2 ? header.shape[1] : 1;
    if (header.fortran_order && channels > 1 && header.shape[0] > 1)
      throw Unsupported("npy: Fortran-ordered 2-D arrays are not read as streams (save it in C order)");
    if (channels == 0) throw IoError("npy: shape " + shape_string(header.shape) + " has no channels");
    SampleFormat format = format_of(header.dtype);
    if (options.iq && !format_info(format).is_complex) {
      if (channels % 2 != 0)
        throw InvalidArgument("--iq needs a last axis of I/Q pairs, not shape " + shape_string(header.shape));
      format = complex_counterpart(format);
      channels /= 2;
    }
    const bool big = header.swap_bytes != (std::endian::native == std::endian::big);
    auto reader = std::make_unique<RawReader>(std::move(in), format, channels, big, options.allow_nonfinite, "npy");
    StreamInfo& info = reader->mutable_info();
    const std::uint64_t declared = header.shape[0];
    if (info.frames && *info.frames != declared)
      throw IoError("npy: truncated or padded: the header declares " + std::to_string(declared) +
                    " frames, the data holds " + std::to_string(*info.frames));
    info.frames = declared;
    info.sample_rate = options.sample_rate;
    return reader;
  } catch (const IoError& e) {
    const std::string what = e.what();
    if (what.starts_with(name)) throw;
    throw IoError(name + ": " + what);
  }
}

std::unique_ptr<SampleWriter> open_npy_writer(const std::string& path, const StreamInfo& info,
                                              const WriteOptions& options) {
  Dtype dtype = info.is_complex ? Dtype::c64 : Dtype::f32;
  std::optional<SampleFormat> encoding;
  if (options.encoding) {
    encoding = parse_sample_format(*options.encoding);
    if (!encoding || !format_info(*encoding).is_float)
      throw InvalidArgument("npy arrays are written as f32 or f64, not '" + *options.encoding + "'");
  } else if (info.source_format && format_info(*info.source_format).value_bytes == 8 &&
             format_info(*info.source_format).is_float) {
    encoding = SampleFormat::f64;
  }
  if (encoding && format_info(*encoding).value_bytes == 8) dtype = info.is_complex ? Dtype::c128 : Dtype::f64;
  return std::make_unique<NpyWriter>(std::make_unique<OutputFile>(path, options.force), dtype, info);
}

}  // namespace ripple::io::detail
