// The per-context cache of constant device tables (device_tables.hpp).
#include "gpu/device_tables.hpp"

#include <algorithm>
#include <mutex>

#include "ripple/fft.hpp"

namespace ripple::gpu {

namespace {

template <class T>
std::shared_ptr<const Memory> upload(Context& context, const std::vector<T>& v) {
  std::shared_ptr<Memory> m = context.allocate(v.size() * sizeof(v[0]));
  auto stream = context.create_stream();
  stream->upload(*m, 0, v.data(), v.size() * sizeof(v[0]));
  stream->synchronize();  // v is freed on return
  return m;
}

template <class T>
std::shared_ptr<const Memory> upload_rounded(Context& context, const std::vector<std::complex<long double>>& values) {
  std::vector<std::complex<T>> v;
  v.reserve(values.size());
  for (const auto& w : values) v.emplace_back(static_cast<T>(w.real()), static_cast<T>(w.imag()));
  return upload(context, v);
}

// The table under full_key: the cache's, else one a plan still holds, else made by `make`
// (which uploads); kept within the budget, the least recently asked for dropped first.
std::shared_ptr<const Memory> cached(Context& context, const std::string& full_key,
                                     const std::function<std::shared_ptr<const Memory>()>& make) {
  Context::Tables& tables = context.tables();
  std::lock_guard lock(tables.mutex);  // one thread computes a missing table; the others wait for it
  ++tables.uses;
  if (auto it = tables.by_key.find(full_key); it != tables.by_key.end()) {
    it->second.last_use = tables.uses;
    return it->second.table;
  }
  std::shared_ptr<const Memory> table;
  if (auto it = tables.live.find(full_key); it != tables.live.end()) table = it->second.lock();
  if (!table) {
    table = make();
    std::erase_if(tables.live, [](const auto& entry) { return entry.second.expired(); });
    tables.live[full_key] = table;
  }
  const std::size_t budget = tables.budget != 0 ? tables.budget : table_cache_budget(context.facts());
  if (table->bytes() > budget) return table;
  while (tables.bytes + table->bytes() > budget) {
    auto oldest = tables.by_key.begin();
    for (auto it = tables.by_key.begin(); it != tables.by_key.end(); ++it)
      if (it->second.last_use < oldest->second.last_use) oldest = it;
    tables.bytes -= oldest->second.table->bytes();
    tables.by_key.erase(oldest);
  }
  tables.by_key.emplace(full_key, Context::Tables::Entry{table, tables.uses});
  tables.bytes += table->bytes();
  return table;
}

}  // namespace

std::size_t release_cached_tables(Context& context) {
  Context::Tables& tables = context.tables();
  std::lock_guard lock(tables.mutex);
  std::size_t unused = 0;
  for (const auto& [key, entry] : tables.by_key)
    if (entry.table.use_count() == 1) unused += entry.table->bytes();
  tables.by_key.clear();
  tables.bytes = 0;
  return unused;
}

std::size_t table_cache_budget(const DeviceFacts& facts) {
  const std::size_t most = std::size_t{256} << 20;
  return facts.global_memory == 0 ? most : std::min<std::size_t>(most, facts.global_memory / 32);
}

std::shared_ptr<const Memory> complex_table(Context& context, const std::string& key, bool as_double,
                                            const std::function<std::vector<std::complex<long double>>()>& make) {
  return cached(context, key + (as_double ? " f64" : " f32"), [&] {
    const std::vector<std::complex<long double>> values = make();
    return as_double ? upload_rounded<double>(context, values) : upload_rounded<float>(context, values);
  });
}

std::shared_ptr<const Memory> spectrum_table(Context& context, const std::string& key, bool as_double,
                                             const std::function<std::vector<std::complex<double>>()>& kernel) {
  return cached(context, key + (as_double ? " f64" : " f32"), [&] {
    const std::vector<std::complex<double>> b = kernel();
    fft::PlanDesc desc;
    desc.shape = {b.size()};
    desc.precision = fft::Precision::f64;
    desc.norm = fft::Norm::forward;
    std::vector<std::complex<double>> spectrum(b.size());
    fft::Plan(desc).execute(b.data(), spectrum.data());
    if (as_double) return upload(context, spectrum);
    return upload(context, std::vector<std::complex<float>>(spectrum.begin(), spectrum.end()));
  });
}

std::shared_ptr<const Memory> index_table(Context& context, const std::string& key,
                                          const std::function<std::vector<std::uint32_t>()>& make) {
  return cached(context, key + " u32", [&] { return upload(context, make()); });
}

}  // namespace ripple::gpu
