// The access model's figures for one FFT plan: `fft_access_survey [--double] [--staging S]
// [--column-bytes B] [--pad-local 0|1] [--interleave 0|1] BATCH N [N2 [N3]]` runs the plan of that shape (c2c, forward, packed,
// BATCH transforms) once on Oclgrind with the model loaded and prints, for each kernel launch,
// each global buffer's loads and stores: requests (warp instructions), 32-byte sectors a
// request, sector and 128-byte line efficiency. --staging and --column-bytes set
// gpu::FftShapeTuning (-1 the rule, 0 never, 1 wherever a shape can; column groups' bytes);
// --pad-local 0 leaves local memory unpadded (FftShape::lds_row); --interleave 0 keeps a column
// shape's transforms apart across the work-items (FftShape::interleaves).
// Run through survey.sh, which loads Oclgrind and the model. Oclgrind simulates about 10^4
// points a second: 2^20 points take about five minutes.
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "access_log.hpp"
#include "gpu/device_fft.hpp"
#include "gpu/kernel_cache.hpp"
#include "ripple/device.hpp"
#include "ripple/fft.hpp"
#include "ripple/fft/device.hpp"

namespace {

int usage() {
  std::fprintf(stderr,
               "usage: fft_access_survey [--double] [--staging S] [--column-bytes B] [--pad-local 0|1] [--interleave 0|1]"
               " BATCH N [N2 [N3]]\n");
  return 2;
}

void print_side(const char* what, const ripple::gpu::access_model::Traffic& t) {
  if (t.requests == 0) return;
  std::printf("    %-5s %8llu requests %5.1f sectors each, sector efficiency %5.1f%%, line efficiency %5.1f%%\n", what,
              static_cast<unsigned long long>(t.requests), t.sectors_per_request(), 100 * t.sector_efficiency(),
              100 * t.line_efficiency());
}

template <class T>
void run(const ripple::Queue& queue, const ripple::fft::PlanDesc& desc, std::uint64_t values) {
  const ripple::fft::DevicePlan plan(queue, desc);
  std::printf("%s\n", plan.describe().c_str());
  std::vector<std::complex<T>> host(values, {1, 0});
  ripple::Buffer<std::complex<T>> in(queue, host), out(queue, host);
  ripple::gpu::access_model::take_launches();
  plan.execute(in, out);
  out.download(std::span<std::complex<T>>(host));
  for (const auto& l : ripple::gpu::access_model::take_launches()) {
    std::printf("%s: %llu work-items, groups of %llu\n", l.kernel.c_str(), static_cast<unsigned long long>(l.global),
                static_cast<unsigned long long>(l.local));
    for (const auto* side : {&l.local_load, &l.local_store})
      if (side->requests != 0)
        std::printf("  local %-5s %8llu requests, %.2f bank passes each, %.2fx the least (bank conflicts)\n",
                    side == &l.local_load ? "load" : "store", static_cast<unsigned long long>(side->requests),
                    static_cast<double>(side->wavefronts) / static_cast<double>(side->requests),
                    side->conflict_factor());
    for (const auto& b : l.buffers) {
      std::printf("  buffer %llu (%llu bytes%s)\n", static_cast<unsigned long long>(b.id),
                  static_cast<unsigned long long>(b.size), b.size >= values * sizeof(std::complex<T>) ? ", data" : "");
      print_side("load", b.load);
      print_side("store", b.store);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool dbl = false;
  ripple::gpu::FftShapeTuning tuning;
  std::vector<std::uint64_t> numbers;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--double") dbl = true;
    else if (a == "--staging" && i + 1 < argc) tuning.staging = std::atoi(argv[++i]);
    else if (a == "--column-bytes" && i + 1 < argc) tuning.column_bytes = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--pad-local" && i + 1 < argc) tuning.pad_local = std::atoi(argv[++i]) != 0;
    else if (a == "--interleave" && i + 1 < argc) tuning.interleave = std::atoi(argv[++i]) != 0;
    else if (!a.empty() && a[0] != '-') numbers.push_back(std::strtoull(a.c_str(), nullptr, 10));
    else return usage();
  }
  if (numbers.size() < 2 || numbers.size() > 4) return usage();
  if (ripple::gpu::access_model::log_path().empty()) {
    std::fprintf(stderr, "fft_access_survey: RIPPLE_ACCESS_MODEL_LOG is unset (run it through survey.sh)\n");
    return 2;
  }
  try {
    ripple::gpu::set_fft_shape_tuning(tuning);
    ripple::fft::PlanDesc desc;
    desc.batch = numbers[0];
    desc.shape.assign(numbers.begin() + 1, numbers.end());
    desc.precision = dbl ? ripple::fft::Precision::f64 : ripple::fft::Precision::f32;
    std::uint64_t values = desc.batch;
    for (std::uint64_t n : desc.shape) values *= n;
    std::optional<ripple::Device> oclgrind;
    for (const auto& d : ripple::Device::list())
      if (d.kind() == ripple::DeviceKind::opencl && d.info().platform == "Oclgrind") oclgrind = d;
    if (!oclgrind) {
      std::fprintf(stderr, "fft_access_survey: no Oclgrind device (run it through survey.sh)\n");
      return 2;
    }
    // Oclgrind's builds take options of their own (OCLGRIND_BUILD_OPTIONS) that no cache key
    // holds, and how a program was optimized changes the accesses it makes: build each here.
    ripple::gpu::set_kernel_cache_directory({});
    const ripple::Queue queue(*oclgrind);
    if (dbl) run<double>(queue, desc, values);
    else run<float>(queue, desc, values);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fft_access_survey: %s\n", e.what());
    return 1;
  }
}
