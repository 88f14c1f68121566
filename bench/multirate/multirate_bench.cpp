// bench_multirate: times ripple's multirate blocks beside plain scalar / csdr-style loops on one
// thread, and prints one JSON line per (case, implementation) on stdout:
//   {"case": "fir_dec10_79", "impl": "ripple upfirdn", "samples": N, "seconds": [...]}
// bench/multirate/multirate_vs_scipy.py runs it, times scipy on the same kinds of signals and
// prints the table with the targets. Samples are input samples (complex samples for
// IQ cases). Each implementation gets one warm-up call, then `--runs` timed calls whose
// outputs are reused (buffers are allocated before timing, as in a streaming application).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "csdr_style.hpp"
#include "ripple/fir.hpp"
#include "ripple/multirate.hpp"
#include "ripple/pipeline.hpp"
#include "ripple/runtime.hpp"
#include "ripple/spectral.hpp"

namespace {

using C = std::complex<float>;
int g_runs = 7;
double g_sink = 0;  // keeps results alive

void report(const std::string& name, const std::string& impl, std::size_t samples, const std::function<void()>& run) {
  run();  // warm-up: plans, buffers, caches
  std::vector<double> seconds;
  for (int i = 0; i < g_runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    run();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::cout << "{\"case\": \"" << name << "\", \"impl\": \"" << impl << "\", \"samples\": " << samples
            << ", \"seconds\": [";
  for (std::size_t i = 0; i < seconds.size(); ++i) std::cout << (i ? ", " : "") << seconds[i];
  std::cout << "]}" << std::endl;
}

std::vector<float> noise(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(0.f, 1.f);
  std::vector<float> x(n);
  for (auto& v : x) v = d(rng);
  return x;
}

// Pushes x through a streaming block in blocks of `block` samples.
template <class T, class Stream>
void stream_through(Stream& s, const std::vector<T>& x, std::vector<T>& out, std::size_t block) {
  for (std::size_t at = 0; at < x.size(); at += block) {
    out.clear();
    s.process(std::span<const T>(x.data() + at, std::min(block, x.size() - at)), out);
  }
  g_sink += double(std::abs(out.empty() ? T(0) : out.back()));
  out.clear();
  s.flush(out);
}

void cic_cases(std::size_t n) {
  // cs16 IQ: n complex samples of a tone plus noise, full 16-bit range.
  std::vector<std::int16_t> iq(2 * n);
  std::mt19937 rng(1);
  std::uniform_int_distribution<int> d(-32768, 32767);
  for (auto& v : iq) v = static_cast<std::int16_t>(d(rng));
  const ripple::multirate::CicSpec spec{.stages = 5, .ratio = 8, .delay = 1, .input_bits = 16};
  std::vector<std::int64_t> exact;
  exact.reserve(2 * n / 8 + 4);
  ripple::multirate::CicDecimator<std::int16_t> cic(spec, 2);
  report("cic5_r8_cs16", "ripple CicDecimator<int16> (exact int64 out)", n, [&] {
    exact.clear();
    cic.process(std::span<const std::int16_t>(iq), exact);
    g_sink += double(exact.back());
  });
  // The CLI's path: cs16 read as float in [-1, 1), the pipeline stage scales, checks and
  // converts, runs the exact CIC and scales back to float at unit gain.
  std::vector<C> iqf(n);
  for (std::size_t i = 0; i < n; ++i) iqf[i] = C(float(iq[2 * i]) / 32768.f, float(iq[2 * i + 1]) / 32768.f);
  auto stage = ripple::pipeline::cic_decimator<C>(spec, {.scale = 32768});
  std::vector<C> out;
  out.reserve(stage->max_output(65536));
  report("cic5_r8_cs16", "ripple pipeline::cic_decimator (cf32 from cs16, 64k blocks)", n, [&] {
    for (std::size_t at = 0; at < n; at += 65536) {
      out.clear();
      stage->process(std::span<const C>(iqf.data() + at, std::min<std::size_t>(65536, n - at)), out);
    }
    g_sink += double(out.back().real());
  });
  ripple_bench::ScalarCic scalar(5, 8);
  std::vector<std::int64_t> sout(2 * n / 8 + 4);
  report("cic5_r8_cs16", "scalar loop (textbook)", n, [&] {
    const std::size_t k = scalar.process(iq.data(), n, sout.data());
    g_sink += double(sout[k ? 2 * k - 1 : 0]);
  });
}

void fir_decimate_cases(std::size_t n) {
  const std::vector<float> x = noise(n, 2);
  const std::vector<double> h = ripple::fir::firwin(79, {0.1});
  const std::vector<float> hf(h.begin(), h.end());
  report("fir_dec10_79", "ripple upfirdn (one-shot)", n, [&] {
    const auto y = ripple::fir::upfirdn(std::span<const float>(hf), ripple::ArrayView<const float>(x.data(), {n}), 1, 10);
    g_sink += double(y.values[y.size() / 2]);
  });
  ripple::fir::UpFirDn<float> stream(h, 1, 10);
  std::vector<float> out;
  out.reserve(65536 / 10 + 16);
  report("fir_dec10_79", "ripple UpFirDn (streaming, 64k blocks)", n, [&] { stream_through(stream, x, out, 65536); });
  std::vector<float> csdr_out(n / 10 + 1);
  report("fir_dec10_79", "csdr-style loop (-O3 -ffast-math -march=native)", n, [&] {
    g_sink += double(csdr_out[ripple_bench::csdr_fir_decimate(x.data(), n, hf.data(), hf.size(), 10, csdr_out.data()) - 1]);
  });
  // cf32 IQ, the CLI's case: the compensation FIR after a CIC (decimate 50 = CIC 25, FIR 2).
  std::vector<C> z(n / 2);
  for (std::size_t i = 0; i < z.size(); ++i) z[i] = C(x[2 * i], x[2 * i + 1]);
  const ripple::multirate::CicSpec spec{.stages = 5, .ratio = 25, .delay = 1, .input_bits = 16};
  const auto comp = ripple::multirate::cic_compensator(spec, 101, 0.9 / 2);
  std::vector<float> comp_f(comp.begin(), comp.end());
  report("cic_comp_101_dec2_cf32", "ripple upfirdn (one-shot)", z.size(), [&] {
    const auto y = ripple::fir::upfirdn(std::span<const float>(comp_f), ripple::ArrayView<const C>(z.data(), {z.size()}), 1, 2);
    g_sink += double(y.values[y.size() / 2].real());
  });
  ripple::fir::UpFirDn<C> zstream(comp, 1, 2);
  std::vector<C> zout;
  zout.reserve(65536 / 2 + 16);
  report("cic_comp_101_dec2_cf32", "ripple UpFirDn (streaming, 64k blocks)", z.size(),
         [&] { stream_through(zstream, z, zout, 65536); });
  ripple::fir::UpFirDn<C> zdec(ripple::fir::firwin(79, {0.1}), 1, 10);
  report("fir_dec10_79_cf32", "ripple UpFirDn (streaming, 64k blocks)", z.size(),
         [&] { stream_through(zdec, z, zout, 65536); });
}

void bandpass_cases(std::size_t n) {
  const std::vector<float> x = noise(n, 3);
  const std::vector<double> h =
      ripple::fir::firwin(801, {0.1, 0.2}, {.pass_zero = ripple::fir::PassZero::bandpass});
  const std::vector<float> hf(h.begin(), h.end());
  ripple::fir::Filter<float> filter(h);
  std::vector<float> y(n);
  report("bandpass_801", "ripple fir::Filter (" + std::string(filter.method() == ripple::fir::Filter<float>::Method::fft
                                                                 ? "FFT overlap-save"
                                                                 : "direct") + ", 64k blocks)",
         n, [&] {
           for (std::size_t at = 0; at < n; at += 65536) {
             const std::size_t m = std::min<std::size_t>(65536, n - at);
             filter.process_interleaved(std::span<const float>(x.data() + at, m), std::span<float>(y.data() + at, m));
           }
           g_sink += double(y[n / 2]);
         });
  ripple::fir::Filter<float> direct(h, 1, ripple::fir::Filter<float>::Method::direct);
  report("bandpass_801", "ripple fir::Filter (direct SIMD, 64k blocks)", n, [&] {
    for (std::size_t at = 0; at < n; at += 65536) {
      const std::size_t m = std::min<std::size_t>(65536, n - at);
      direct.process_interleaved(std::span<const float>(x.data() + at, m), std::span<float>(y.data() + at, m));
    }
    g_sink += double(y[n / 2]);
  });
  report("bandpass_801", "csdr-style loop (-O3 -ffast-math -march=native)", n, [&] {
    g_sink += double(y[ripple_bench::csdr_fir_filter(x.data(), n, hf.data(), hf.size(), y.data()) / 2]);
  });
}

void resample_cases(std::size_t n) {
  const std::vector<float> x = noise(n, 4);
  report("resample_147_160", "ripple resample_poly (one-shot)", n, [&] {
    const auto y = ripple::fir::resample_poly(x, 147, 160);
    g_sink += double(y[y.size() / 2]);
  });
  ripple::fir::ResamplePoly<float> stream(147, 160);
  std::vector<float> out;
  out.reserve(65536 + 1024);
  report("resample_147_160", "ripple ResamplePoly (streaming, 64k blocks)", n,
         [&] { stream_through(stream, x, out, 65536); });
  report("resample_1_10", "ripple resample_poly (one-shot)", n, [&] {
    const auto y = ripple::fir::resample_poly(x, 1, 10);
    g_sink += double(y[y.size() / 2]);
  });
}

void welch_cases(std::size_t n) {
  const std::vector<float> x = noise(n, 5);
  ripple::spectral::WelchOptions options;
  options.nperseg = 1024;
  report("welch_1024", "ripple welch (nperseg 1024, hann, 50%)", n, [&] {
    const auto w = ripple::spectral::welch(ripple::ArrayView<const float>(x.data(), {n}), options);
    g_sink += double(w.pxx.values[10]);
  });
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t n = std::size_t{1} << 22;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") {
      n = std::size_t{1} << 18;
      g_runs = 3;
    } else if (a == "--runs" && i + 1 < argc) {
      g_runs = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--n" && i + 1 < argc) {
      n = std::strtoull(argv[++i], nullptr, 10);
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::cerr << "usage: bench_multirate [--quick] [--runs K] [--n SAMPLES] [--only cic|fir|bandpass|resample|welch]\n";
      return 2;
    }
  }
  if (n < (std::size_t{1} << 16)) {
    std::cerr << "bench_multirate: --n must be at least 65536\n";
    return 2;
  }
  ripple::set_threads(1);  // the targets are for one core
  if (only.empty() || only == "cic") cic_cases(n);
  if (only.empty() || only == "fir") fir_decimate_cases(n);
  if (only.empty() || only == "bandpass") bandpass_cases(n);
  if (only.empty() || only == "resample") resample_cases(n);
  if (only.empty() || only == "welch") welch_cases(n);
  std::cerr << "(checksum " << g_sink << ")\n";
  return 0;
}
