// Raw interleaved samples in and out (see raw_stream.hpp).
#include "io/raw_stream.hpp"

#include <algorithm>
#include <cmath>

#include "io/sample_codec.hpp"
#include "ripple/error.hpp"

namespace ripple::io::detail {

void check_finite(std::span<const float> values, std::size_t values_per_frame, std::uint64_t first_frame,
                  const std::string& where) {
  const std::size_t bad = first_nonfinite(values);
  if (bad == values.size()) return;
  throw IoError(where + ": frame " + std::to_string(first_frame + bad / values_per_frame) + " holds " +
                (std::isnan(values[bad]) ? "a NaN" : "an infinite value") +
                " (not a valid sample; --allow-nonfinite accepts it)");
}

RawReader::RawReader(std::unique_ptr<ByteInput> in, SampleFormat format, std::size_t channels, bool big_endian,
                     bool allow_nonfinite, std::string kind)
    : in_(std::move(in)), format_(format), big_endian_(big_endian), allow_nonfinite_(allow_nonfinite),
      kind_(std::move(kind)) {
  if (channels == 0) throw InvalidArgument("channels must be at least 1, got 0");
  const SampleFormatInfo f = format_info(format);
  info_.is_complex = f.is_complex;
  info_.channels = channels;
  info_.source_format = format;
  frame_bytes_ = f.value_bytes * info_.values_per_frame();
  if (auto size = in_->size()) {
    *size -= std::min(*size, in_->position());  // after any header already consumed
    if (*size % frame_bytes_ != 0)
      throw IoError(in_->name() + ": truncated: " + std::to_string(*size) + " bytes is not a whole number of " +
                    std::to_string(frame_bytes_) + "-byte " + f.name + " frames");
    info_.frames = *size / frame_bytes_;
  }
}

std::size_t RawReader::read(std::span<float> out) {
  const std::size_t vpf = info_.values_per_frame();
  const std::size_t want = out.size() / vpf;
  if (want == 0) return 0;
  buffer_.resize(want * frame_bytes_);
  const std::size_t got = in_->read(buffer_.data(), buffer_.size());
  if (got % frame_bytes_ != 0)
    throw IoError(in_->name() + ": truncated: the data ends inside a frame (" + std::to_string(got % frame_bytes_) +
                  " of " + std::to_string(frame_bytes_) + " bytes of " + format_info(format_).name + " frame " +
                  std::to_string(frames_done_ + got / frame_bytes_) + ")");
  const std::size_t frames = got / frame_bytes_;
  decode_values(format_, big_endian_, buffer_.data(), frames * vpf, out.data());
  if (format_info(format_).is_float && !allow_nonfinite_)
    check_finite(out.first(frames * vpf), vpf, frames_done_, in_->name());
  frames_done_ += frames;
  if (frames < want && info_.frames && frames_done_ != *info_.frames)
    throw IoError(in_->name() + ": truncated: " + std::to_string(*info_.frames) + " frames expected, " +
                  std::to_string(frames_done_) + " found");
  return frames;
}

std::string RawReader::describe() const {
  return std::string(format_info(format_).name) + " " + kind_ + " samples from " + in_->name();
}

RawWriter::RawWriter(std::unique_ptr<OutputFile> out, SampleFormat format, std::size_t values_per_frame)
    : out_(std::move(out)), format_(format), values_per_frame_(values_per_frame) {}

void RawWriter::write(std::span<const float> values) {
  const std::size_t bytes = format_info(format_).value_bytes;
  buffer_.resize(values.size() * bytes);
  const std::string where = display_name(out_->path(), true);
  clipped_ += encode_values(format_, values.data(), values.size(), buffer_.data(), where.c_str());
  out_->write(buffer_.data(), buffer_.size());
  frames_ += values.size() / values_per_frame_;
}

void RawWriter::close() { out_->commit(); }

std::string RawWriter::describe() const {
  return std::string(format_info(format_).name) + " samples to " + display_name(out_->path(), true);
}

}  // namespace ripple::io::detail
