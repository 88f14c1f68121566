// A GPU program: which embedded kernel files, in which order, and which -D constants. The
// source is the files concatenated (each after a #line marking its name, so compiler messages
// point into the right file); the constants are compiler options, never pasted into the text.
// get_module() returns it compiled and loaded on a context, through the in-memory and the
// disk caches.
#pragma once

#include <future>
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
/// the disk cache, else compiled (and stored). Throws DeviceError with the compiler log. Two
/// threads asking for the same program get one compile.
std::shared_ptr<const Module> get_module(Context& context, const ProgramSpec& spec);

/// A module that get_module_async is making on a thread of its own. Destroying one waits for
/// that thread, so no compile outlives the plan that asked for it.
class PendingModule {
 public:
  PendingModule() = default;
  explicit PendingModule(std::shared_future<std::shared_ptr<const Module>> future) : future_(std::move(future)) {}
  PendingModule(const PendingModule&) = default;
  PendingModule(PendingModule&&) noexcept = default;
  PendingModule& operator=(const PendingModule&) = default;
  PendingModule& operator=(PendingModule&&) noexcept = default;
  ~PendingModule() {
    if (future_.valid()) future_.wait();
  }
  /// Waits until it is made; throws what making it threw (DeviceError with the compiler log).
  const Module& operator*() const { return *future_.get(); }
  void wait() const { future_.get(); }

 private:
  std::shared_future<std::shared_ptr<const Module>> future_;
};

/// As get_module, but returns at once: a program the context neither has nor is making is made
/// on a new thread, so a plan that needs several programs compiles them side by side (NVRTC and
/// OpenCL compilers run concurrently: two NVRTC compiles of 1024-point FFT programs took 130 ms
/// on two cores against 215 ms one after the other).
PendingModule get_module_async(Context& context, const ProgramSpec& spec);

}  // namespace ripple::gpu
