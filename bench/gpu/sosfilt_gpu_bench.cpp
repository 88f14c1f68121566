// bench_gpu_sosfilt: ripple's GPU biquad cascade against the device's own copy bandwidth.
// For each case it uploads a float32 signal (channels x n, row-major), times DeviceFilter::process
// (the whole cascade in one pass) and a device-to-device memcpy of the same bytes, and checks the
// result against ripple's CPU sosfilt (relative L2 over everything) and the serial long-double
// recurrence (the first --check-len samples of the first and last channel: error at most 2x the
// serial float recurrence's). Prints a table and writes JSON for bench/gpu/sosfilt_gpu.py.
//
//   bench_gpu_sosfilt [--device cuda:0] [--reps 10] [--quick] [--json out.json]
//                     [--tiles 256x8,128x16,... | --tiles none]
//
// After each tile-path case, its tile sweep: the case once more with each tile shape BLOCKxITEMS
// (work-items per group x samples per work-item; tuning.hpp's kSosBlock x kSosItems is the
// default), through gpu::DeviceSos directly, checked against the CPU the same way (the case's
// signal and CPU result are made once for all of them), so one run on a GPU shows which shape
// the constants should take. A shape the device cannot run (too many registers or too much
// local memory for its group) is reported, not fatal.
//
// GB/s counts the bytes read and written once (2 x channels x n x 4), as a memcpy of the signal
// does; "of memcpy" is the ratio to the memcpy's GB/s measured in the same run.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/device_sos.hpp"
#include "gpu/queue_impl.hpp"
#include "gpu/registry.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"
#include "iir/sos_plan.hpp"
#include "ripple/iir.hpp"

namespace {

using namespace ripple;
using Clock = std::chrono::steady_clock;

struct Case {
  std::string name;
  int order;          // butter(order, 0.1): order / 2 sections
  std::size_t channels;
  std::size_t n;
  iir::DevicePath path;
};

struct TileShape {
  unsigned block = 0, items = 0;
};

struct SweepResult {
  std::string name;  // the case
  TileShape shape;
  double seconds = 0;
  double gbs = 0;
  double cpu_rel_l2 = 0;
  bool ok = false;
  std::string error;  // the device's refusal, if any
};

struct Result {
  Case c;
  std::string path;
  double seconds = 0;  // median per process()
  double gbs = 0;
  double memcpy_gbs = 0;
  double cpu_rel_l2 = 0;
  double serial_ratio = 0;  // error / serial float error on the checked samples
  bool ok = false;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class F>
double time_median(const Queue& q, int reps, F&& f) {
  f();  // warm-up: compiles, allocates workspaces
  q.synchronize();
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    q.synchronize();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return median(t);
}

double rel_l2(const float* a, const float* b, std::size_t n) {
  long double num = 0, den = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double d = (long double)a[i] - b[i];
    num += d * d;
    den += (long double)b[i] * b[i];
  }
  return den == 0 ? 0 : std::sqrt(double(num / den));
}

// Serial recurrence over x[0..len) in W, coefficients rounded to float first.
template <class W>
std::vector<W> serial(const iir::Sos& sos, const float* x, std::size_t len) {
  std::vector<W> z(2 * sos.size(), 0), y(len);
  for (std::size_t t = 0; t < len; ++t) {
    W u = x[t];
    for (std::size_t s = 0; s < sos.size(); ++s) {
      const auto& r = sos[s];
      const W b0 = float(r[0]), b1 = float(r[1]), b2 = float(r[2]), a1 = float(r[4]), a2 = float(r[5]);
      const W v = b0 * u + z[2 * s];
      z[2 * s] = b1 * u - a1 * v + z[2 * s + 1];
      z[2 * s + 1] = b2 * u - a2 * v;
      u = v;
    }
    y[t] = u;
  }
  return y;
}

double serial_ratio(const iir::Sos& sos, const float* x, const float* y, std::size_t len) {
  const auto ref = serial<long double>(sos, x, len);
  const auto ser = serial<float>(sos, x, len);
  long double e = 0, es = 0;
  for (std::size_t i = 0; i < len; ++i) {
    e += (y[i] - ref[i]) * (y[i] - ref[i]);
    es += (ser[i] - ref[i]) * (ser[i] - ref[i]);
  }
  return es == 0 ? (e == 0 ? 0 : INFINITY) : std::sqrt(double(e / es));
}

// A case's input, channels x n standard normal samples (the same for every run), and the CPU
// sosfilt of it: made once per case for its run and every tile shape of the sweep (at 2^28
// samples, some seconds each).
struct CaseData {
  std::vector<float> x, cpu;
};

CaseData case_data(const Case& c) {
  CaseData d;
  d.x.resize(c.channels * c.n);
  std::mt19937_64 rng(42);
  std::normal_distribution<float> normal;
  for (auto& v : d.x) v = normal(rng);
  const iir::Sos sos = iir::butter(c.order, 0.1);
  const auto cpu = iir::sosfilt(iir::SosF(sos), ArrayView<const float>(d.x.data(), {c.channels, c.n}));
  d.cpu.assign(cpu.values.begin(), cpu.values.end());
  return d;
}

Result run_case(const Queue& q, const Case& c, const CaseData& data, int reps, std::size_t check_len) {
  Result r;
  r.c = c;
  const std::size_t total = c.channels * c.n;
  const iir::Sos sos = iir::butter(c.order, 0.1);
  const std::vector<float>& x = data.x;
  Buffer<float> dx(q, std::span<const float>(x)), dy(q, total);
  iir::DeviceFilter<float> filter(q, sos, c.channels);
  filter.set_path(c.path);
  r.path = filter.path_for(c.n) == iir::DevicePath::tiles ? "tiles" : "channels";
  r.seconds = time_median(q, reps, [&] {
    filter.reset();
    filter.process(dx, dy);
  });
  gpu::Stream& stream = gpu::stream_of(q);
  const gpu::Memory& mx = gpu::memory_of(dx.raw());
  gpu::Memory& my = gpu::memory_of(dy.raw());
  const double copy_seconds = time_median(q, reps, [&] { stream.copy(mx, 0, my, 0, total * sizeof(float)); });
  const double bytes = 2.0 * double(total) * sizeof(float);
  r.gbs = bytes / r.seconds / 1e9;
  r.memcpy_gbs = bytes / copy_seconds / 1e9;
  // Check: the last process() output against the CPU and the serial recurrence.
  filter.reset();
  filter.process(dx, dy);
  const auto y = dy.to_vector();
  r.cpu_rel_l2 = rel_l2(y.data(), data.cpu.data(), total);
  const std::size_t len = std::min(check_len, c.n);
  const std::size_t last = (c.channels - 1) * c.n;
  r.serial_ratio = std::max(serial_ratio(sos, x.data(), y.data(), len),
                            serial_ratio(sos, x.data() + last, y.data() + last, len));
  r.ok = r.cpu_rel_l2 <= 1e-4 && r.serial_ratio <= 2.0;
  return r;
}

std::vector<TileShape> parse_tiles(const std::string& text) {
  std::vector<TileShape> out;
  if (text == "none") return out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    const std::size_t x = item.find('x');
    TileShape t;
    try {
      if (x == std::string::npos) throw std::invalid_argument(item);
      t.block = static_cast<unsigned>(std::stoul(item.substr(0, x)));
      t.items = static_cast<unsigned>(std::stoul(item.substr(x + 1)));
    } catch (const std::exception&) {
      std::fprintf(stderr, "bench_gpu_sosfilt: --tiles takes BLOCKxITEMS,... (e.g. 256x8,128x16), not \"%s\"\n",
                   item.c_str());
      std::exit(2);
    }
    out.push_back(t);
    at = comma + 1;
  }
  return out;
}

// One tile-path case with one tile shape, through DeviceSos (what DeviceFilter runs, with the
// shape set).
SweepResult sweep_case(const Queue& q, const Case& c, const CaseData& data, TileShape shape, int reps) {
  SweepResult r;
  r.name = c.name;
  r.shape = shape;
  const std::size_t total = c.channels * c.n;
  const iir::Sos sos = iir::butter(c.order, 0.1);
  Buffer<float> dx(q, std::span<const float>(data.x)), dy(q, total);
  try {
    gpu::SosConfig config;
    config.block = shape.block;
    config.items = shape.items;
    gpu::Context& context = gpu::context_of(q);
    const gpu::DeviceSos cascade(context, iir::detail::make_sos_plan<float>(sos, c.n), config);
    gpu::DeviceSos::Workspace workspace = cascade.workspace(context, c.channels, c.n, gpu::SosPath::tiles);
    gpu::Stream& stream = gpu::stream_of(q);
    auto run = [&] {
      cascade.run(stream, gpu::memory_of(dx.raw()), gpu::memory_of(dy.raw()), c.channels, c.n, gpu::SosState{},
                  workspace, gpu::SosPath::tiles);
    };
    r.seconds = time_median(q, reps, run);
    r.gbs = 2.0 * double(total) * sizeof(float) / r.seconds / 1e9;
    run();
    q.synchronize();
  } catch (const ripple::Error& e) {
    r.error = e.what();
    return r;
  }
  const auto y = dy.to_vector();
  r.cpu_rel_l2 = rel_l2(y.data(), data.cpu.data(), total);
  r.ok = r.cpu_rel_l2 <= 1e-4;
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::string device_id, json_path;
  int reps = 10;
  bool quick = false;
  std::size_t check_len = 1 << 20;
  std::vector<TileShape> tiles = {{256, 8}, {128, 8}, {512, 8}, {128, 16}, {256, 16}, {256, 4}, {64, 32}};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "bench_gpu_sosfilt: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--device") device_id = next();
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--json") json_path = next();
    else if (a == "--quick") quick = true;
    else if (a == "--check-len") check_len = std::stoul(next());
    else if (a == "--tiles") tiles = parse_tiles(next());
    else {
      std::fprintf(stderr,
                   "usage: bench_gpu_sosfilt [--device ID] [--reps N] [--quick] [--json PATH] [--check-len N] "
                   "[--tiles BLOCKxITEMS,... | none]\n");
      return 2;
    }
  }
  try {
    const Device device = device_id.empty() ? Device::best(true) : Device::parse(device_id);
    if (device.kind() == DeviceKind::cpu) {
      std::fprintf(stderr, "bench_gpu_sosfilt: no GPU device (ripple info lists the devices)\n");
      return 1;
    }
    const DeviceInfo info = device.info();
    Queue q(device);
    // The cases: 2^28 samples in one channel, 1024 channels x 2^18; 1 and 4 sections.
    const std::size_t one = quick ? std::size_t{1} << 20 : std::size_t{1} << 28;
    const std::size_t rows = quick ? 16 : 1024, row_n = quick ? std::size_t{1} << 16 : std::size_t{1} << 18;
    const std::vector<Case> cases = {
        {"1ch-1sec", 2, 1, one, iir::DevicePath::automatic},
        {"1ch-4sec", 8, 1, one, iir::DevicePath::automatic},
        {"1024ch-1sec", 2, rows, row_n, iir::DevicePath::automatic},
        {"1024ch-4sec", 8, rows, row_n, iir::DevicePath::automatic},
        {"1024ch-4sec-tiles", 8, rows, row_n, iir::DevicePath::tiles},
        {"1024ch-4sec-channels", 8, rows, row_n, iir::DevicePath::channels},
    };
    std::printf("device %s: %s (driver %s, %s)\n", device.to_string().c_str(), info.name.c_str(),
                info.driver_version.c_str(), info.runtime_version.c_str());
    std::printf("%-22s %6s %10s %9s %10s %9s %9s %11s %5s\n", "case", "chan", "samples", "path", "ms", "GB/s",
                "memcpy", "of memcpy", "check");
    // Each case's run, then (tile path) its tile sweep on the same data: a row each.
    std::vector<Result> results;
    std::vector<SweepResult> sweep;
    for (const Case& c : cases) {
      const CaseData data = case_data(c);
      const Result r = run_case(q, c, data, reps, check_len);
      std::printf("%-22s %6zu %10zu %9s %10.3f %9.1f %9.1f %10.1f%% %5s\n", c.name.c_str(), c.channels, c.n,
                  r.path.c_str(), r.seconds * 1e3, r.gbs, r.memcpy_gbs, 100 * r.gbs / r.memcpy_gbs,
                  r.ok ? "ok" : "FAIL");
      std::fflush(stdout);
      results.push_back(r);
      if (r.path != "tiles" || c.path == iir::DevicePath::channels) continue;
      for (const TileShape shape : tiles) {
        const SweepResult t = sweep_case(q, c, data, shape, reps);
        const std::string tile = "  tile " + std::to_string(shape.block) + "x" + std::to_string(shape.items);
        if (!t.error.empty())
          std::printf("%-22s   not run: %s\n", tile.c_str(), t.error.c_str());
        else
          std::printf("%-22s %6s %10s %9s %10.3f %9.1f %9s %10.1f%% %5s\n", tile.c_str(), "", "", "", t.seconds * 1e3,
                      t.gbs, "", 100 * t.gbs / r.memcpy_gbs, t.ok ? "ok" : "FAIL");
        sweep.push_back(t);
      }
    }
    if (!json_path.empty()) {
      std::ofstream out(json_path);
      auto esc = [](std::string s) {
        std::string o;
        for (char ch : s) {
          if (ch == '"' || ch == '\\') o += '\\';
          if (static_cast<unsigned char>(ch) >= 0x20) o += ch;
        }
        return o;
      };
      out << "{\"device\": \"" << esc(device.to_string()) << "\", \"name\": \"" << esc(info.name)
          << "\", \"driver\": \"" << esc(info.driver_version) << "\", \"runtime\": \"" << esc(info.runtime_version)
          << "\", \"is_gpu\": " << (info.is_gpu ? "true" : "false") << ", \"reps\": " << reps << ", \"cases\": [";
      for (std::size_t i = 0; i < results.size(); ++i) {
        const Result& r = results[i];
        out << (i ? ", " : "") << "{\"name\": \"" << r.c.name << "\", \"sections\": " << r.c.order / 2
            << ", \"channels\": " << r.c.channels << ", \"n\": " << r.c.n << ", \"path\": \"" << r.path
            << "\", \"seconds\": " << r.seconds << ", \"gbs\": " << r.gbs << ", \"memcpy_gbs\": " << r.memcpy_gbs
            << ", \"cpu_rel_l2\": " << r.cpu_rel_l2 << ", \"serial_ratio\": " << r.serial_ratio
            << ", \"ok\": " << (r.ok ? "true" : "false") << "}";
      }
      out << "], \"tile_sweep\": [";
      for (std::size_t i = 0; i < sweep.size(); ++i) {
        const SweepResult& s = sweep[i];
        out << (i ? ", " : "") << "{\"name\": \"" << s.name << "\", \"block\": " << s.shape.block
            << ", \"items\": " << s.shape.items << ", \"seconds\": " << s.seconds << ", \"gbs\": " << s.gbs
            << ", \"cpu_rel_l2\": " << s.cpu_rel_l2 << ", \"ok\": " << (s.ok ? "true" : "false")
            << ", \"error\": \"" << esc(s.error) << "\"}";
      }
      out << "]}\n";
    }
    bool all_ok = true;
    for (const Result& r : results) all_ok = all_ok && r.ok;
    for (const SweepResult& s : sweep) all_ok = all_ok && (s.ok || !s.error.empty());
    return all_ok ? 0 : 3;
  } catch (const ripple::Error& e) {
    std::fprintf(stderr, "bench_gpu_sosfilt: %s\n", e.what());
    return 1;
  }
}
