// Sound files (WAV, RF64, FLAC, AIFF, OGG, ... everything libsndfile knows) as sample streams.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>

#include "ripple/io/samples.hpp"

namespace ripple::io::detail {

/// True when libsndfile writes files with this extension (lower case, no dot), e.g. "wav".
bool is_sound_extension(const std::string& extension);
/// Opens a sound file ("-": standard input, read as a pipe).
std::unique_ptr<SampleReader> open_sound_reader(const std::string& path, const ReadOptions& options);
/// Reads a sound file held in memory (for the fuzzer and tests).
std::unique_ptr<SampleReader> open_sound_memory(std::span<const std::byte> bytes, const ReadOptions& options);
/// Creates a sound file whose major format is named by `type` ("wav", "flac", ...).
std::unique_ptr<SampleWriter> open_sound_writer(const std::string& path, const std::string& type,
                                                const StreamInfo& info, const WriteOptions& options);

}  // namespace ripple::io::detail
