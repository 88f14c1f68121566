// The GPU kernel sources of src/gpu/kernels, embedded into the library at build time by
// embed_sources.cmake (the generated embedded_kernels.cpp defines embedded_files()).
#pragma once

#include <span>
#include <string_view>

namespace ripple::gpu::kernels {

struct EmbeddedFile {
  std::string_view name;  ///< file name, e.g. "dialect.h"
  std::string_view text;  ///< the file's contents
};

/// Every embedded file, in the order CMake listed them.
std::span<const EmbeddedFile> embedded_files();

/// The text of the embedded file `name`; throws InvalidArgument naming it if there is none.
std::string_view embedded_source(std::string_view name);

}  // namespace ripple::gpu::kernels
