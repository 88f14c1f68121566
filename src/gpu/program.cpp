// Assembling program sources from the embedded kernel files and compiling them through the
// kernel caches.
#include "gpu/program.hpp"

#include <cstdio>
#include <thread>

#include "gpu/kernel_cache.hpp"
#include "gpu/kernels/embedded.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

namespace kernels {
std::string_view embedded_source(std::string_view name) {
  for (const EmbeddedFile& f : embedded_files())
    if (f.name == name) return f.text;
  throw InvalidArgument("no embedded GPU kernel file \"" + std::string(name) + "\"");
}
}  // namespace kernels

std::string ProgramSpec::describe() const {
  std::string s;
  // Appends only: GCC 12 warns falsely (-Wrestrict, PR 105329) on "literal" + std::string&&.
  for (const auto& f : files) s.append(s.empty() ? "" : "+").append(f);
  for (const auto& [name, value] : defines) s.append(" ").append(name).append("=").append(value);
  return s;
}

std::string program_source(const ProgramSpec& spec) {
  std::string text;
  for (const auto& name : spec.files) {
    text.append("#line 1 \"").append(name).append("\"\n");
    text += kernels::embedded_source(name);
    if (!text.empty() && text.back() != '\n') text += '\n';
  }
  if (!spec.extra.empty()) {
    text += "#line 1 \"extra\"\n";
    text += spec.extra;
    text += '\n';
  }
  return text;
}

std::vector<std::string> program_options(const ProgramSpec& spec) {
  std::vector<std::string> options;
  for (const auto& [name, value] : spec.defines) {
    if (name.empty() || name.find_first_of(" =\"'") != std::string::npos)
      throw InvalidArgument("GPU program define name \"" + name + "\" is not an identifier");
    if (value.find_first_of(" \"'") != std::string::npos)
      throw InvalidArgument("GPU program define " + name + "=\"" + value + "\" contains a space or quote");
    std::string option = "-D";
    options.push_back(option.append(name).append("=").append(value));
  }
  return options;
}

std::string program_key(const Context& context, const ProgramSpec& spec) {
  const std::string source = program_source(spec);
  char hash[24];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a64(source)));
  std::string key = "ripple-kernel-v1|source " + std::string(hash) + " (" + std::to_string(source.size()) +
                    " bytes)|options";
  for (const auto& o : program_options(spec)) key.append(" ").append(o);
  key.append("|").append(context.binary_identity());
  return key;
}

namespace {

using ModuleFuture = std::shared_future<std::shared_ptr<const Module>>;

// The context's entry for a program: one it has or is making (future set), or a promise the
// caller must keep, its future already in the context's cache so others wait for it.
struct Claim {
  std::string key;
  ModuleFuture future;
  std::shared_ptr<std::promise<std::shared_ptr<const Module>>> promise;
};

Claim claim(Context& context, const ProgramSpec& spec) {
  Claim c;
  c.key = program_key(context, spec);
  auto& modules = context.modules();
  std::lock_guard lock(modules.mutex);
  if (auto it = modules.by_key.find(c.key); it != modules.by_key.end()) {
    count_memory_hit();
    c.future = it->second;
    return c;
  }
  c.promise = std::make_shared<std::promise<std::shared_ptr<const Module>>>();
  c.future = c.promise->get_future().share();
  modules.by_key.emplace(c.key, c.future);
  return c;
}

std::shared_ptr<const Module> make(Context& context, const ProgramSpec& spec, const std::string& key) {
  std::shared_ptr<KernelCache> disk = kernel_cache();
  // Not where the driver keeps its programs itself, nor while the disk cache is off: there a
  // binary would only be fetched to be thrown away.
  const bool use_disk = !context.driver_caches_programs() && !disk->directory().empty();
  if (auto binary = use_disk ? disk->load(key) : std::nullopt) {
    try {
      std::shared_ptr<const Module> module = context.load(*binary);
      count_disk_hit();
      return module;
    } catch (const DeviceError&) {
      // A valid entry the runtime no longer accepts (e.g. a driver update the key missed):
      // compile again and overwrite it.
    }
  }
  std::unique_ptr<Module> compiled;
  std::vector<std::byte> binary;
  try {
    binary = context.compile(program_source(spec), program_options(spec), &compiled, use_disk);
  } catch (const DeviceError& e) {
    throw DeviceError(std::string(e.what()) + "\n(program: " + spec.describe() + ")");
  }
  count_compile();
  if (use_disk) disk->store(key, binary);
  return std::shared_ptr<const Module>(std::move(compiled));
}

// Makes the claimed program and keeps the promise. A failure leaves the cache (so a later
// request tries again) and reaches everyone waiting.
void keep(Context& context, const ProgramSpec& spec, const Claim& c) {
  try {
    c.promise->set_value(make(context, spec, c.key));
  } catch (...) {
    {
      auto& modules = context.modules();
      std::lock_guard lock(modules.mutex);
      modules.by_key.erase(c.key);
    }
    c.promise->set_exception(std::current_exception());
  }
}

}  // namespace

std::shared_ptr<const Module> get_module(Context& context, const ProgramSpec& spec) {
  const Claim c = claim(context, spec);
  if (c.promise) keep(context, spec, c);
  return c.future.get();
}

PendingModule get_module_async(Context& context, const ProgramSpec& spec) {
  const Claim c = claim(context, spec);
  if (c.promise) std::thread([&context, spec, c] { keep(context, spec, c); }).detach();
  return PendingModule(c.future);
}

}  // namespace ripple::gpu
