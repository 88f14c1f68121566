// SigMF recordings as sample streams (the metadata half is ripple/io/sigmf.hpp).
#pragma once

#include <memory>
#include <string>

#include "ripple/io/samples.hpp"

namespace ripple::io::detail {

struct SigmfPaths {
  std::string meta;
  std::string data;
};
/// name.sigmf-meta / name.sigmf-data from either of them (or from the bare name). Throws
/// Unsupported for a .sigmf archive.
SigmfPaths sigmf_paths(const std::string& path);

std::unique_ptr<SampleReader> open_sigmf_reader(const std::string& path, const ReadOptions& options);
/// `format` is the encoding of the dataset (its complex-ness matches info).
std::unique_ptr<SampleWriter> open_sigmf_writer(const std::string& path, const StreamInfo& info, SampleFormat format,
                                                const WriteOptions& options);

}  // namespace ripple::io::detail
