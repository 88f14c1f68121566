// Raw interleaved samples: the reader and writer behind raw files, SigMF datasets and pipes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "io/byte_stream.hpp"
#include "ripple/io/samples.hpp"

namespace ripple::io::detail {

/// Frames of `format` from a byte input. When the input's size is known it must hold whole
/// frames (checked at construction) and info().frames is set from it; `expected_frames`, when
/// given (metadata), must match what arrives.
class RawReader final : public SampleReader {
 public:
  RawReader(std::unique_ptr<ByteInput> in, SampleFormat format, std::size_t channels, bool big_endian,
            bool allow_nonfinite, std::string kind = "raw");
  std::size_t read(std::span<float> out) override;
  std::uint64_t bytes_read() const noexcept override { return in_->position(); }
  std::optional<std::uint64_t> bytes_total() const noexcept override { return in_->size(); }
  std::string describe() const override;
  StreamInfo& mutable_info() noexcept { return info_; }

 private:
  std::unique_ptr<ByteInput> in_;
  SampleFormat format_;
  bool big_endian_;
  bool allow_nonfinite_;
  std::string kind_;
  std::size_t frame_bytes_;
  std::uint64_t frames_done_ = 0;
  std::vector<std::byte> buffer_;
};

/// Frames encoded as `format` into an OutputFile.
class RawWriter final : public SampleWriter {
 public:
  RawWriter(std::unique_ptr<OutputFile> out, SampleFormat format, std::size_t values_per_frame);
  void write(std::span<const float> values) override;
  void close() override;
  std::uint64_t clipped() const noexcept override { return clipped_; }
  std::string describe() const override;
  std::uint64_t frames_written() const noexcept { return frames_; }
  OutputFile& file() noexcept { return *out_; }

 private:
  std::unique_ptr<OutputFile> out_;
  SampleFormat format_;
  std::size_t values_per_frame_;
  std::uint64_t clipped_ = 0;
  std::uint64_t frames_ = 0;
  std::vector<std::byte> buffer_;
};

/// Throws IoError "<where>: frame F holds a NaN|an infinite value ..." when values (frames of
/// `values_per_frame`, the first numbered `first_frame`) hold one.
void check_finite(std::span<const float> values, std::size_t values_per_frame, std::uint64_t first_frame,
                  const std::string& where);

}  // namespace ripple::io::detail
