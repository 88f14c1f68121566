// .npy arrays as sample streams: 1-D (frames) or 2-D (frames, channels) arrays read and written
// block by block, so arrays larger than memory stream through.
#pragma once

#include <memory>
#include <string>

#include "io/byte_stream.hpp"
#include "ripple/io/samples.hpp"

namespace ripple::io::detail {

/// Reads the header from `in` and returns a reader of the data after it. Throws IoError for a
/// malformed header, data of the wrong size; Unsupported for more than two dimensions or a
/// Fortran-ordered 2-D array.
std::unique_ptr<SampleReader> open_npy_reader(std::unique_ptr<ByteInput> in, const ReadOptions& options);
/// A float32 (complex64) or float64 (complex128) array, per `encoding` ("f32"/"f64" or their
/// complex names). Needs a seekable file: the header, written last, holds the length.
std::unique_ptr<SampleWriter> open_npy_writer(const std::string& path, const StreamInfo& info,
                                              const WriteOptions& options);

}  // namespace ripple::io::detail
