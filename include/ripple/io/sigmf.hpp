// SigMF recordings (https://sigmf.org, core namespace v1.x): a JSON metadata file
// (name.sigmf-meta) describing a binary dataset (name.sigmf-data). ripple reads the sample
// encoding (core:datatype, e.g. "ci16_le", "cf32_le", "ri16_le", "cu8"), the sample rate, the
// channel count, the first capture's centre frequency and time, and checks that captures and
// annotations only refer to samples the dataset holds; it writes the same fields back.
// Streams use open_reader/open_writer (samples.hpp); these functions are the metadata half.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ripple/io/samples.hpp"

namespace ripple::io {

struct SigmfMeta {
  SampleFormat format = SampleFormat::cf32;
  bool big_endian = false;
  std::size_t channels = 1;                ///< core:num_channels
  std::optional<double> sample_rate;       ///< core:sample_rate (Hz)
  std::optional<double> frequency;         ///< first capture's core:frequency (Hz)
  std::optional<std::string> datetime;     ///< first capture's core:datetime
  std::optional<std::string> dataset;      ///< core:dataset: the data file's name, when not name.sigmf-data
  std::uint64_t header_bytes = 0;          ///< first capture's core:header_bytes (bytes before the samples)
  /// One past the last sample that any capture or annotation refers to (sample_start, plus
  /// sample_count for annotations): the dataset must hold at least this many samples.
  std::uint64_t samples_referenced = 0;
};

/// Parses a .sigmf-meta document. Throws IoError ("sigmf: <what>") for malformed JSON, a
/// missing or unknown core:datatype, a sample rate that is not a positive finite number, a
/// channel count that is not a positive integer, captures out of order, or fields of the wrong
/// type; Unsupported for datatypes ripple does not read (unsigned 16/32-bit).
SigmfMeta parse_sigmf_meta(std::string_view json);

/// SigMF's name of an encoding: "ci16_le", "rf32_le", "cu8", ...
std::string sigmf_datatype(SampleFormat format, bool big_endian = false);

/// The metadata document for a recording (pretty-printed JSON, ending in a newline).
std::string format_sigmf_meta(const SigmfMeta& meta, std::string_view recorder);

}  // namespace ripple::io
