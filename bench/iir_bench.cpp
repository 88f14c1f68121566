// bench_iir: times ripple's IIR filtering (iir::sosfilt, iir::sosfiltfilt) on seeded random
// signals and prints one JSON line per (case, dtype, thread count) on stdout. See bench/README.md.
//
// The coefficients come from an .npy file (shape (n_sections, 6), scipy's layout) so that
// bench/iir_vs_scipy.py filters with exactly the coefficients it gives scipy. The signal is
// splitmix64 of the element index, a generator numpy reproduces bit for bit, so the driver
// times scipy on the same samples and compares ripple's output (dumped with --dump) to scipy's.
//
// Per case and dtype: the signal is generated once; each thread count gets its warm-up calls;
// then the timed calls alternate between the thread counts (1, 2, 1, 2 ... rotated each round),
// so drifts of the machine's load fall on all of them alike. One timed call is one library call
// as a user makes it: the result array is allocated by the call, freed outside the timed span.
// Beside each call, the same data is copied with std::memcpy over as many threads into a fresh
// array and into an existing one (copy_fresh_median_s, copy_into_median_s): the memory limit.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <span>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_args.hpp"
#include "ripple/array.hpp"
#include "ripple/error.hpp"
#include "ripple/iir/filtering.hpp"
#include "ripple/iir/sos.hpp"
#include "ripple/io/npy.hpp"
#include "ripple/runtime.hpp"

namespace {

enum class Op { sosfilt, sosfiltfilt };

/// The issue's cases: rows (channels) of n samples, filtered along the last axis.
struct CaseDef {
  const char* name;
  Op op;
  std::size_t channels;
  std::size_t n;
  std::size_t quick_n;  // samples per channel with --quick
};

constexpr std::size_t kPow2(int e) { return std::size_t{1} << e; }

// clang-format off
constexpr CaseDef kCases[] = {
    {"a",   Op::sosfilt,     1,  kPow2(24), kPow2(18)},
    {"b",   Op::sosfilt,     16, kPow2(20), kPow2(14)},
    {"c1",  Op::sosfiltfilt, 1,  kPow2(22), kPow2(16)},
    {"c16", Op::sosfiltfilt, 16, kPow2(18), kPow2(12)},
};
// clang-format on

struct Options {
  std::string sos_file;
  std::vector<const CaseDef*> cases;
  std::vector<std::string> dtypes;
  std::vector<unsigned> threads{1};
  std::size_t channels = 0;  // 0: the case's
  std::size_t n = 0;         // 0: the case's
  bool quick = false;
  int reps = 7;
  int warmup = 1;
  double min_time = 0;  // seconds of timed calls per thread count, at least
  std::uint64_t seed = 1;
  std::string dump;  // prefix of the head/tail .npy files, empty: none
  std::size_t dump_len = 4096;
};

const char* const kUsage = R"(usage: bench_iir --sos FILE.npy [options]
Times ripple's sosfilt / sosfiltfilt; prints one JSON line per (case, dtype, threads).
  --sos FILE.npy     the sections, shape (n_sections, 6), float64 or float32 (required); for
                     float32 signals they are rounded to float, as scipy's sos.astype(float32)
  --case C,...       a: sosfilt 1 x 2^24; b: sosfilt 16 x 2^20 (rows, axis -1);
                     c1: sosfiltfilt 1 x 2^22; c16: sosfiltfilt 16 x 2^18 (default: all)
  --dtype D,...      f32, f64 (default: both)
  --threads T,...    ripple::set_threads values, timed alternately (default 1)
  --channels C       override the case's number of rows
  --n N              override the case's samples per row
  --quick            small sizes (2^18, 16 x 2^14, 2^16, 16 x 2^12) and 3 reps, for development
  --reps R           timed calls per thread count; median and min are reported (default 7)
  --warmup W         untimed calls per thread count first (default 1)
  --min-time SEC     more reps if needed so that each thread count is timed >= SEC (default 0)
  --seed S           signal seed (default 1): x[i] = 2 * (splitmix64(S, i) >> 11) * 2^-53 - 1,
                     i the C-order index over (channels, n), computed in double then rounded
  --dump PREFIX      write the first and last --dump-len samples of every row of the last
                     output, PREFIX<case>-<dtype>-t<T>-head.npy / -tail.npy
  --dump-len M       (default 4096)
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "bench_iir: " << msg << "\n" << kUsage;
  std::exit(2);
}

using ripple_bench::split;

std::uint64_t parse_uint(const std::string& s, const char* what, bool zero_ok = false) {
  try {
    std::size_t pos = 0;
    const unsigned long long v = std::stoull(s, &pos);
    if (pos == s.size() && s[0] != '-' && (zero_ok || v > 0)) return v;
  } catch (const std::exception&) {
  }
  usage_error(std::string("bad ") + what + ": '" + s + "'");
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool reps_set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--sos") {
      o.sos_file = value();
    } else if (arg == "--case") {
      for (const std::string& name : split(value(), ',')) {
        const auto* const it = std::find_if(std::begin(kCases), std::end(kCases),
                                            [&](const CaseDef& c) { return name == c.name; });
        if (it == std::end(kCases)) usage_error("unknown case '" + name + "'");
        o.cases.push_back(&*it);
      }
    } else if (arg == "--dtype") {
      for (const std::string& d : split(value(), ',')) {
        if (d != "f32" && d != "f64") usage_error("unknown dtype '" + d + "' (f32 or f64)");
        o.dtypes.push_back(d);
      }
    } else if (arg == "--threads") {
      o.threads.clear();
      for (const std::string& t : split(value(), ','))
        o.threads.push_back(static_cast<unsigned>(parse_uint(t, "--threads")));
      if (o.threads.empty()) usage_error("--threads needs at least one value");
    } else if (arg == "--channels") {
      o.channels = parse_uint(value(), "--channels");
    } else if (arg == "--n") {
      o.n = parse_uint(value(), "--n");
    } else if (arg == "--quick") {
      o.quick = true;
    } else if (arg == "--reps") {
      o.reps = static_cast<int>(parse_uint(value(), "--reps"));
      reps_set = true;
    } else if (arg == "--warmup") {
      o.warmup = static_cast<int>(parse_uint(value(), "--warmup", true));
    } else if (arg == "--min-time") {
      const std::string s = value();
      try {
        std::size_t pos = 0;
        o.min_time = std::stod(s, &pos);
        if (pos != s.size() || !(o.min_time >= 0)) throw std::invalid_argument(s);
      } catch (const std::exception&) {
        usage_error("bad --min-time: '" + s + "'");
      }
    } else if (arg == "--seed") {
      o.seed = parse_uint(value(), "--seed", true);
    } else if (arg == "--dump") {
      o.dump = value();
    } else if (arg == "--dump-len") {
      o.dump_len = parse_uint(value(), "--dump-len");
    } else {
      usage_error("unknown option '" + arg + "'");
    }
  }
  if (o.sos_file.empty()) usage_error("--sos FILE.npy is required");
  if (o.cases.empty())
    for (const CaseDef& c : kCases) o.cases.push_back(&c);
  if (o.dtypes.empty()) o.dtypes = {"f32", "f64"};
  if (o.quick && !reps_set) o.reps = 3;
  return o;
}

/// The sections of an (n_sections, 6) .npy file, kept in double (a float32 file converts exactly).
ripple::iir::Sos read_sos(const std::string& file) {
  const ripple::io::NpyArray a = ripple::io::read_npy(file);
  if (a.shape.size() != 2 || a.shape[1] != 6 || a.shape[0] == 0)
    throw ripple::InvalidArgument(file + ": sos must have shape (n_sections, 6); got " +
                                  ripple::io::shape_string(a.shape));
  std::vector<double> flat;
  if (a.dtype() == ripple::io::Dtype::f64) {
    const auto v = a.values<double>();
    flat.assign(v.begin(), v.end());
  } else if (a.dtype() == ripple::io::Dtype::f32) {
    const auto v = a.values<float>();
    flat.assign(v.begin(), v.end());
  } else {
    throw ripple::InvalidArgument(file + ": sos must be float32 or float64; got " +
                                  ripple::io::dtype_name(a.dtype()));
  }
  return ripple::iir::Sos::from_flat(flat);
}

/// splitmix64 (Steele, Lea, Flood 2014) of seed and index: numpy reproduces it with uint64 arrays.
std::uint64_t splitmix64(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/// Uniform values in [-1, 1): exact in double, then rounded to T (what numpy's astype does).
template <class T>
void fill_signal(std::span<T> x, std::uint64_t seed) {
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double u = static_cast<double>(splitmix64(seed, i) >> 11) * 0x1p-53;
    x[i] = static_cast<T>(2.0 * u - 1.0);
  }
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// The per-call seconds in the order they were taken.
std::string json_array(const std::vector<double>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + json_number(v[i]);
  return out + "]";
}

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats summarize(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  const std::size_t n = t.size();
  return {n % 2 == 1 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]), t.front(), t.back()};
}

/// The first and last `len` samples of every row of a (rows, n) result, as (rows, len) .npy files.
template <class T>
void dump_ends(const ripple::Array<T>& y, std::size_t len, const std::string& head, const std::string& tail) {
  const std::size_t rows = y.shape[0], n = y.shape[1];
  len = std::min(len, n);
  std::vector<T> h, t;
  h.reserve(rows * len);
  t.reserve(rows * len);
  for (std::size_t r = 0; r < rows; ++r) {
    const T* row = y.values.data() + r * n;
    h.insert(h.end(), row, row + len);
    t.insert(t.end(), row + (n - len), row + n);
  }
  ripple::io::write_npy(head, ripple::io::NpyArray({rows, len}, std::move(h)));
  ripple::io::write_npy(tail, ripple::io::NpyArray({rows, len}, std::move(t)));
}

template <class T>
void run_case(const Options& o, const CaseDef& c, const std::string& dtype, const ripple::iir::Sos& sos) {
  const std::size_t rows = o.channels ? o.channels : c.channels;
  const std::size_t n = o.n ? o.n : (o.quick ? c.quick_n : c.n);
  ripple::Array<T> x({rows, n});
  fill_signal<T>(x.values, o.seed);
  const ripple::ArrayView<const T> xv = x.view();
  const ripple::iir::BasicSos<T> s(sos);  // rounded to T, as sos.astype(dtype)
  const auto call = [&]() -> ripple::Array<T> {
    return c.op == Op::sosfilt ? ripple::iir::sosfilt(s, xv, -1) : ripple::iir::sosfiltfilt(s, xv, -1);
  };
  using Clock = std::chrono::steady_clock;
  const auto timed = [&](ripple::Array<T>& keep) {
    const auto t0 = Clock::now();
    ripple::Array<T> y = call();
    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
    keep = std::move(y);  // the previous result is freed here, outside the timed span
    return sec;
  };

  const std::size_t nt = o.threads.size();
  std::vector<ripple::Array<T>> last(nt);
  double slowest_warm = 0;
  for (std::size_t k = 0; k < nt; ++k) {
    ripple::set_threads(o.threads[k]);
    for (int w = 0; w < o.warmup; ++w) slowest_warm = std::max(slowest_warm, timed(last[k]));
  }
  int reps = o.reps;
  if (o.min_time > 0 && slowest_warm > 0)
    reps = std::max(reps, static_cast<int>(std::ceil(o.min_time / slowest_warm)));
  // The memory limit beside each thread count: x copied by std::memcpy split over as many
  // threads, into a fresh array (allocated by the timed span, as the call's result is) and into
  // an existing one.
  ripple::Array<T> existing({rows, n});
  const auto copy = [&](T* dst, unsigned threads) {
    std::vector<std::thread> pool;
    const std::size_t total = x.values.size();
    for (unsigned i = 1; i < threads; ++i) {
      pool.emplace_back([&, i] {
        const std::size_t b = total * i / threads, e = total * (i + 1) / threads;
        std::memcpy(dst + b, x.values.data() + b, (e - b) * sizeof(T));
      });
    }
    std::memcpy(dst, x.values.data(), total / threads * sizeof(T));
    for (auto& th : pool) th.join();
  };
  const auto copy_fresh = [&](unsigned threads, ripple::Array<T>& keep) {
    const auto t0 = Clock::now();
    ripple::Array<T> y({rows, n});
    copy(y.values.data(), threads);
    const double sec = std::chrono::duration<double>(Clock::now() - t0).count();
    keep = std::move(y);
    return sec;
  };
  const auto copy_into = [&](unsigned threads) {
    const auto t0 = Clock::now();
    copy(existing.values.data(), threads);
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  for (std::size_t k = 0; k < nt; ++k) copy_into(o.threads[k]);
  ripple::Array<T> copied;
  std::vector<std::vector<double>> t(nt), fresh(nt), into(nt);
  for (int r = 0; r < reps; ++r) {
    for (std::size_t j = 0; j < nt; ++j) {
      const std::size_t k = (j + static_cast<std::size_t>(r)) % nt;
      ripple::set_threads(o.threads[k]);
      t[k].push_back(timed(last[k]));
      fresh[k].push_back(copy_fresh(o.threads[k], copied));
      into[k].push_back(copy_into(o.threads[k]));
    }
  }
  ripple::set_threads(0);

  const double samples = static_cast<double>(rows) * static_cast<double>(n);
  for (std::size_t k = 0; k < nt; ++k) {
    const Stats st = summarize(t[k]);
    std::string head, tail;
    if (!o.dump.empty()) {
      const std::string base = o.dump + c.name + "-" + dtype + "-t" + std::to_string(o.threads[k]);
      head = base + "-head.npy";
      tail = base + "-tail.npy";
      dump_ends(last[k], o.dump_len, head, tail);
    }
    std::ostringstream line;
    line << "{\"bench\": \"iir\", \"case\": " << json_string(c.name)
         << ", \"op\": " << json_string(c.op == Op::sosfilt ? "sosfilt" : "sosfiltfilt")
         << ", \"dtype\": " << json_string(dtype) << ", \"channels\": " << rows << ", \"n\": " << n
         << ", \"sections\": " << sos.size() << ", \"sos_file\": " << json_string(o.sos_file)
         << ", \"seed\": " << o.seed << ", \"threads\": " << o.threads[k] << ", \"warmup\": " << o.warmup
         << ", \"reps\": " << reps << ", \"median_s\": " << json_number(st.median)
         << ", \"min_s\": " << json_number(st.min) << ", \"max_s\": " << json_number(st.max)
         << ", \"times_s\": " << json_array(t[k])
         << ", \"samples_per_s\": " << json_number(samples / st.median)
         << ", \"samples_per_s_best\": " << json_number(samples / st.min)
         << ", \"copy_fresh_median_s\": " << json_number(summarize(fresh[k]).median)
         << ", \"copy_into_median_s\": " << json_number(summarize(into[k]).median)
         << ", \"simd_target\": " << json_string(ripple::simd_target())
         << ", \"ripple_version\": " << json_string(ripple::version());
    if (!o.dump.empty())
      line << ", \"dump_head\": " << json_string(head) << ", \"dump_tail\": " << json_string(tail);
    line << "}";
    std::cout << line.str() << std::endl;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  try {
    const ripple::iir::Sos sos = read_sos(o.sos_file);
    for (const CaseDef* c : o.cases) {
      for (const std::string& dtype : o.dtypes) {
        if (dtype == "f32") {
          run_case<float>(o, *c, dtype, sos);
        } else {
          run_case<double>(o, *c, dtype, sos);
        }
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "bench_iir: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
