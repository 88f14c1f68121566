// Streams of signal samples in the files radio and audio tools write: raw interleaved samples
// (csdr/rtl_sdr/GNU Radio style: cu8, cs8, cs16, cs32, cf32, cf64 and the real u8, s8, s16, s32,
// f32, f64), WAV/FLAC/AIFF/... through libsndfile, SigMF recordings (.sigmf-meta + .sigmf-data)
// and .npy arrays. Readers and writers work block by block with memory bounded by the block,
// so files far larger than memory stream through.
//
// In memory every stream is float32, frames interleaved: a frame holds `channels` samples, and
// a complex sample is two floats (re, im), so a frame is values_per_frame() floats. Integer
// formats map to [-1, 1) as csdr and libsndfile do: s16 v -> v / 32768, s8 v -> v / 128,
// s32 v -> v / 2^31, u8 v -> v / 127.5 - 1 (rtl_sdr's offset binary); writing rounds to
// nearest and clips to the format's range (counted in SampleWriter::clipped()).
//
//   auto in = ripple::io::open_reader("capture.sigmf-meta");        // rate from the metadata
//   auto out = ripple::io::open_writer("copy.cf32", in->info(), {});
//   std::vector<float> block(65536 * in->info().values_per_frame());
//   while (std::size_t frames = in->read(block))
//     out->write(std::span(block).first(frames * in->info().values_per_frame()));
//   out->close();
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ripple::io {

/// Raw sample encodings: c = complex (I/Q pairs), u/s = unsigned/signed integer, f = IEEE float;
/// the number is the bits of one component. Little-endian unless a reader is told otherwise.
enum class SampleFormat { cu8, cs8, cs16, cs32, cf32, cf64, u8, s8, s16, s32, f32, f64 };

struct SampleFormatInfo {
  const char* name;         ///< "cs16"
  std::size_t value_bytes;  ///< bytes of one component (re or im, or a real value)
  bool is_complex;
  bool is_float;
};
SampleFormatInfo format_info(SampleFormat format) noexcept;
/// The format named `name` ("cs16", also GNU Radio's "cfile" = cf32 and SigMF's type names
/// without the endianness suffix, e.g. "ci16" = cs16, "rf32" = f32), or nullopt.
std::optional<SampleFormat> parse_sample_format(std::string_view name);
/// "cu8, cs8, cs16, ..." for messages.
std::string sample_format_names();

/// The kinds of files: raw samples, anything libsndfile reads (WAV, FLAC, AIFF, OGG, ...), a
/// SigMF recording, a .npy array.
enum class Container { raw, sound, sigmf, npy };

/// What a stream holds.
struct StreamInfo {
  bool is_complex = false;
  std::size_t channels = 1;
  std::optional<double> sample_rate;       ///< Hz; unknown for raw files unless given
  std::optional<std::uint64_t> frames;     ///< total frames when the source says so
  std::optional<double> center_frequency;  ///< Hz, SigMF's core:frequency of the first capture
  std::optional<std::string> datetime;     ///< SigMF's core:datetime of the first capture
  /// The encoding the samples had in the source (the default encoding of outputs).
  std::optional<SampleFormat> source_format;
  std::size_t values_per_frame() const noexcept { return channels * (is_complex ? 2 : 1); }
};

/// A source of frames. Reads never return a partial frame.
class SampleReader {
 public:
  virtual ~SampleReader() = default;
  const StreamInfo& info() const noexcept { return info_; }
  /// Reads up to out.size() / values_per_frame() frames into `out`; returns the number of
  /// frames read, 0 at the end. Throws IoError for a read failure, a truncated file (a partial
  /// frame at the end, fewer frames than the header or metadata promised), and, unless allowed,
  /// a NaN or infinite sample (naming its frame).
  virtual std::size_t read(std::span<float> out) = 0;
  /// Bytes of the source read so far and its total size when known (for progress bars).
  virtual std::uint64_t bytes_read() const noexcept = 0;
  virtual std::optional<std::uint64_t> bytes_total() const noexcept = 0;
  /// "cs16 samples from 'x.cs16'" and the like.
  virtual std::string describe() const = 0;

 protected:
  StreamInfo info_;
};

/// A sink of frames. close() finishes the file (headers, metadata) and moves it into place:
/// outputs are written to a temporary file beside the target and renamed by close(), so a run
/// that fails leaves no half-written file and never replaces an existing one.
class SampleWriter {
 public:
  virtual ~SampleWriter() = default;
  /// Writes whole frames (values.size() a multiple of values_per_frame()). Throws IoError when
  /// the write fails, InvalidArgument for a NaN or infinity bound for an integer encoding.
  virtual void write(std::span<const float> values) = 0;
  virtual void close() = 0;
  /// Values that were outside the encoding's range and clipped.
  virtual std::uint64_t clipped() const noexcept = 0;
  virtual std::string describe() const = 0;
};

struct ReadOptions {
  /// The raw encoding (required for raw files whose extension does not name one, and for
  /// standard input) or the container ("wav", "flac", "npy", "sigmf", any libsndfile major
  /// format name); default: from the file name.
  std::optional<std::string> format;
  /// Sample rate of raw input (Hz). For containers that carry a rate it must agree with it.
  std::optional<double> sample_rate;
  /// Interleaved channels of raw input.
  std::size_t channels = 1;
  /// Big-endian raw input.
  bool big_endian = false;
  /// Read a sound file's channel pairs (or a .npy array's last axis of 2) as I/Q samples.
  bool iq = false;
  /// Accept NaN and infinite samples instead of rejecting the file.
  bool allow_nonfinite = false;
};

struct WriteOptions {
  /// As ReadOptions::format for the output; default from the file name ("-": the input's raw
  /// encoding as cf32/f32 unless given).
  std::optional<std::string> format;
  /// Sample encoding inside WAV/FLAC/SigMF/npy: a SampleFormat's real or complex name ("s16",
  /// "f32", ...; the complex-ness follows the stream). Default: the source's encoding where
  /// the container can hold it, else s16 for sound files and f32 otherwise.
  std::optional<std::string> encoding;
  /// Replace an existing file.
  bool force = false;
};

/// Which container a path names by its extension (.wav .flac .aiff .ogg ... -> sound,
/// .sigmf-meta/.sigmf-data/.sigmf -> sigmf, .npy -> npy, a SampleFormat name or .cfile ->
/// raw), or nullopt.
std::optional<Container> container_of(std::string_view path);

/// Opens `path` ("-": standard input) for reading. Throws IoError for a file that cannot be
/// opened or is malformed, naming it; InvalidArgument for options that do not fit (an unknown
/// format, a raw file without a known encoding, a rate that contradicts the file's).
std::unique_ptr<SampleReader> open_reader(const std::string& path, const ReadOptions& options = {});

/// Creates `path` ("-": standard output) for a stream described by `info`. Throws IoError
/// when it exists and options.force is not set, or cannot be created; InvalidArgument for an
/// unknown format or encoding, or a stream the container cannot hold (e.g. SigMF without a
/// sample rate, a sound file without one, npy to a pipe).
std::unique_ptr<SampleWriter> open_writer(const std::string& path, const StreamInfo& info,
                                          const WriteOptions& options = {});

}  // namespace ripple::io
