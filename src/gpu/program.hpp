// A GPU program: which embedded kernel files, in which order, and which -D constants. The
// source is the files concatenated (each after a #line marking its name, so compiler messages
// point into the right file); the constants are compiler options, never pasted into the text.
// get_module() returns it compiled and loaded on a context, through the in-memory and the
// disk caches.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gpu/runtime.hpp"

namespace ripple::gpu {

struct ProgramSpec {
  std::vector<std::string> files;                            ///< embedded files, in order
  std::vector<std::pair<std::string, std::string>> defines;  ///< -DNAME=VALUE
  std::string extra;  ///< text appended after the files (tests; never built from data)

  /// "name=value ..." for messages.
  std::string describe() const;
};

/// The program's source text.
std::string program_source(const ProgramSpec& spec);
/// The program's compiler options ("-DNAME=VALUE", ...).
std::vector<std::string> program_options(const ProgramSpec& spec);
/// Key of the compiled program on a context: source hash, options, device and driver.
std::string program_key(const Context& context, const ProgramSpec& spec);

/// The program compiled and loaded on `context`: from the context's loaded modules, else from
/// the disk cache, else compiled (and stored). Throws DeviceError with the compiler log.
std::shared_ptr<const Module> get_module(Context& context, const ProgramSpec& spec);

}  // namespace ripple::gpu
