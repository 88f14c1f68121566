// fft_ab SHIM_A SHIM_B [--kind c2c|r2c|c2r] [--prec f32,f64] [--rounds R] N[xB]...
// Times two builds of ripple's CPU FFT in one process (see fft_ab.sh, which builds the shims):
// each shim and its libripple are loaded into their own dlmopen namespace, and the two are timed
// alternately, round after round, so load and clock drifts on a shared machine fall on both
// alike. Prints each side's best time and the median of the per-round ratios B/A.
#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Side {
  void* (*make)(std::size_t, std::size_t, int, const char*, char*, std::size_t) = nullptr;
  double (*time)(void*, int) = nullptr;
  const char* (*describe)(void*) = nullptr;
  void (*free)(void*) = nullptr;
};

Side load(const char* path) {
  void* h = dlmopen(LM_ID_NEWLM, path, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    std::fprintf(stderr, "fft_ab: cannot load %s: %s\n", path, dlerror());
    std::exit(1);
  }
  Side s;
  s.make = reinterpret_cast<decltype(s.make)>(dlsym(h, "fft_ab_make"));
  s.time = reinterpret_cast<decltype(s.time)>(dlsym(h, "fft_ab_time"));
  s.describe = reinterpret_cast<decltype(s.describe)>(dlsym(h, "fft_ab_describe"));
  s.free = reinterpret_cast<decltype(s.free)>(dlsym(h, "fft_ab_free"));
  if (!s.make || !s.time || !s.describe || !s.free) {
    std::fprintf(stderr, "fft_ab: %s is not a shim built from fft_ab_shim.cpp\n", path);
    std::exit(1);
  }
  return s;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: fft_ab SHIM_A SHIM_B [--kind c2c|r2c|c2r] [--prec f32,f64] [--rounds R] N[xB]...\n");
    return 2;
  }
  const Side a = load(argv[1]), b = load(argv[2]);
  std::string kind = "c2c", precs = "f32,f64";
  int rounds = 41;
  struct Size {
    std::size_t n, batch;
  };
  std::vector<Size> sizes;
  for (int i = 3; i < argc; ++i) {
    const std::string arg = argv[i];
    if ((arg == "--kind" || arg == "--prec" || arg == "--rounds") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--kind") kind = value;
      if (arg == "--prec") precs = value;
      if (arg == "--rounds") rounds = std::max(1, std::atoi(value.c_str()));
      continue;
    }
    char* end = nullptr;
    const unsigned long long n = std::strtoull(arg.c_str(), &end, 10);
    unsigned long long batch = 1;
    if (end != arg.c_str() && *end == 'x') {
      const char* from = end + 1;
      batch = std::strtoull(from, &end, 10);
      if (end == from) batch = 0;
    }
    if (end == arg.c_str() || *end != '\0' || n == 0 || batch == 0) {
      std::fprintf(stderr, "fft_ab: '%s' is not a size (N or NxB, positive integers) or an option\n", arg.c_str());
      return 2;
    }
    sizes.push_back({std::size_t(n), std::size_t(batch)});
  }
  std::printf("%-4s %-4s %14s %12s %12s %8s  %s  |  %s\n", "kind", "prec", "N", "A best us", "B best us", "B/A", "A plan",
              "B plan");
  for (const auto [n, batch] : sizes) {
    for (const char* prec : {"f32", "f64"}) {
      if (precs.find(prec) == std::string::npos) continue;
      const int dbl = std::strcmp(prec, "f64") == 0;
      char error[512];
      void* ca = a.make(n, batch, dbl, kind.c_str(), error, sizeof error);
      if (ca == nullptr) {
        std::fprintf(stderr, "fft_ab: A: %s\n", error);
        return 1;
      }
      void* cb = b.make(n, batch, dbl, kind.c_str(), error, sizeof error);
      if (cb == nullptr) {
        std::fprintf(stderr, "fft_ab: B: %s\n", error);
        return 1;
      }
      // About 1.5 ms per timing: long enough for the clock, short enough to alternate often.
      const double once = std::max(a.time(ca, 1), 1e-8);
      const int reps = std::max(1, int(1.5e-3 / once));
      std::vector<double> ta, tb, ratio;
      for (int r = 0; r < rounds; ++r) {
        const double x = a.time(ca, reps), y = b.time(cb, reps);
        ta.push_back(x);
        tb.push_back(y);
        ratio.push_back(y / x);
      }
      const std::string size = batch == 1 ? std::to_string(n) : std::to_string(n) + "x" + std::to_string(batch);
      std::printf("%-4s %-4s %14s %12.4f %12.4f %8.3f  %s  |  %s\n", kind.c_str(), prec, size.c_str(),
                  *std::min_element(ta.begin(), ta.end()) * 1e6, *std::min_element(tb.begin(), tb.end()) * 1e6,
                  median(ratio), a.describe(ca), b.describe(cb));
      a.free(ca);
      b.free(cb);
    }
  }
  return 0;
}
