// Factorization and twiddle tables of the lane FFT.
#include "fft/lane_fft.hpp"

#include <cmath>
#include <limits>

#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

bool factor_for_passes(std::size_t n, std::vector<int>& radices) {
  // Sizes up to this keep their threes apart: their unrolled kernels are compiled for them.
  constexpr std::size_t kNineFrom = 32;
  constexpr std::size_t kFourFirstFrom = 8192;
  const std::size_t whole = n;
  radices.clear();
  int twos = 0;
  while (n % 2 == 0) {
    n /= 2;
    ++twos;
  }
  // Powers of two: radix 8 (its butterfly fits 16 vector registers), topped up with 4 or 2;
  // 16 alone (a pure 16) has an unrolled kernel. Everywhere else the spare 2 makes 4 x 4: the
  // generic radix-16 pass spills registers (16 x 3 -> 4 x 4 x 3 and the like, one thread on
  // AVX-512 Zen 4, ripple/FFTW: f64 N = 192 1.94-2.02 -> 1.38-1.54, 320 1.55-1.67 ->
  // 1.06-1.41, 4800 1.05-1.11 -> 0.94-1.08; f32 N = 384 1.47-1.74 -> 1.25-1.35, 896 0.92-0.98
  // -> 0.61-0.68), and 8 x 4 x 4 measured 0.85-0.9x the time of 8 x 16 (f64 N = 256, f32
  // N = 512, f64 N = 2048 on AVX2, 2-core Zen 3). From 8192 points one of the two 4s opens
  // the sequence (4 x 8 ... 8 x 4): a pure power of two then runs in 0.68-0.94x the time (one
  // thread, three A/B runs: f64 N = 16384 0.68-0.81x, 131072 0.80-0.91x, 2^20 0.90-0.94x; f32
  // N = 32768 0.69-0.83x, 262144 0.85-0.89x, 2^21 0.88-0.89x; batches of 8192 0.90-0.92x). A
  // single 4 moved first measured no faster (0.97-1.02x at f64 N = 32768 to 2^21) and lost at
  // 2048 points (f32 N = 8192 1.5x), so it stays last.
  while (twos >= 3) {
    radices.push_back(8);
    twos -= 3;
  }
  // A pure power of two that would be all 8s from three of them on runs two of them as three
  // 4s, 8 x 4 x 4 x 8 ... x 4: one pass more, yet faster (one thread, AVX-512 Zen 4, the wide
  // kernel's lane FFTs, sequences timed in one process, min of 60 rounds, 2 runs: f64
  // N = 2048 (512 x 4) 0.87-0.90x, 16384 0.82-0.88x, 131072 0.87-0.93x; f32 N = 4096
  // 0.90-0.92x). The all-8 sequences were the slowest of every order of 8s and 4s measured
  // (4, 5 and 6 passes) at those sizes, while 8 x 8 x 4 x 4 and 8 x 8 x 8 x 4 are as fast as
  // any; with a 3 or a 5 beside them (1536, 2560 points) the change was within the noise.
  // Timed again once the kernels' buffers stood apart in the page offset (core::place_apart),
  // which had cost the all-8 sequences most: at 512 lane points all 8s now took 0.94-0.99x the
  // time in the wide kernel (f64 N = 2048, f32 4096) but 1.03-1.05x in panels (batches of 512),
  // at 4096 0.96-1.06x; the rule stays until a finer one pays.
  if (twos == 0 && n == 1 && radices.size() >= 3) {
    radices.insert(radices.begin() + 1, {4, 4});
    radices.erase(radices.begin() + 3, radices.begin() + 5);
    radices.push_back(4);
  }
  if (twos == 2) radices.push_back(4);
  if (twos == 1) {
    if (radices.size() == 1 && n == 1) {
      radices.back() = 16;
    } else if (!radices.empty()) {
      radices.back() = 4;
      if (n == 1 && whole >= kFourFirstFrom) {  // a pure power of two
        radices.insert(radices.begin(), 4);
      } else {
        radices.push_back(4);
      }
    } else {
      radices.push_back(2);
    }
  }
  for (int p : {7, 5}) {
    while (n % p == 0) {
      radices.push_back(p);
      n /= p;
    }
  }
  // Threes in pairs as radix 9 (3 x 3 in registers: half the passes over memory), except in
  // the short sizes that have unrolled kernels for their threes.
  int threes = 0;
  while (n % 3 == 0) {
    n /= 3;
    ++threes;
  }
  if (whole > kNineFrom) {
    for (; threes >= 2; threes -= 2) radices.push_back(9);
  }
  for (; threes > 0; --threes) radices.push_back(3);
  for (std::size_t p = 11; n > 1 && p <= std::size_t(kMaxGenericRadix); p += 2) {
    while (n % p == 0) {
      radices.push_back(int(p));
      n /= p;
    }
  }
  return n == 1;
}

namespace {
// Rough cost per point of one pass: butterfly arithmetic plus twiddle multiply plus load/store.
double pass_cost_per_point(int radix) {
  double butterfly;
  switch (radix) {
    case 2: butterfly = 2; break;
    case 4: butterfly = 4; break;
    case 8: butterfly = 6.5; break;
    case 16: butterfly = 9; break;
    case 3: butterfly = 6; break;
    case 5: butterfly = 9; break;
    case 7: butterfly = 12; break;
    case 9: butterfly = 11; break;
    default: butterfly = 2.0 * radix; break;
  }
  return butterfly + 4.0 * (radix - 1) / radix + 4.0;
}
}  // namespace

double lane_fft_cost_per_point(std::size_t n) {
  std::vector<int> radices;
  if (!factor_for_passes(n, radices)) return std::numeric_limits<double>::infinity();
  double cost = 1.0;
  for (int r : radices) cost += pass_cost_per_point(r);
  return cost;
}

std::string describe_radices(const std::vector<Pass>& passes) {
  std::string s;
  for (const Pass& p : passes) {
    if (!s.empty()) s += "x";
    s += std::to_string(p.radix);
  }
  return s.empty() ? "1" : s;
}

template <class T>
LaneFft<T> make_lane_fft(std::size_t n, bool forward) {
  std::vector<int> radices;
  factor_for_passes(n, radices);
  return make_lane_fft<T>(n, forward, radices);
}

template <class T>
LaneFft<T> make_lane_fft(std::size_t n, bool forward, const std::vector<int>& radices) {
  LaneFft<T> plan;
  plan.n = n;
  plan.forward = forward;
  const UnitRoots roots(n);
  std::size_t l1 = 1;
  std::size_t twiddles = 0;
  for (int r : radices) {
    Pass pass;
    pass.radix = r;
    pass.l1 = l1;
    pass.ido = n / (l1 * r);
    pass.twiddle_offset = twiddles;
    twiddles += (r - 1) * pass.ido;
    plan.passes.push_back(pass);
    l1 *= r;
  }
  plan.twiddle_re.resize(twiddles);
  plan.twiddle_im_alt.resize(twiddles * LaneFft<T>::kImAltStride);
  for (const Pass& pass : plan.passes) {
    for (int j = 1; j < pass.radix; ++j) {
      for (std::size_t i = 0; i < pass.ido; ++i) {
        // w_{radix*ido}^{i*j} = w_n^{i*j*l1}
        const auto w = roots(i * j * pass.l1, forward);
        const std::size_t t = pass.twiddle_offset + (j - 1) * pass.ido + i;
        plan.twiddle_re[t] = static_cast<T>(w.real());
        for (std::size_t q = 0; q < LaneFft<T>::kImAltStride; ++q)
          plan.twiddle_im_alt[t * LaneFft<T>::kImAltStride + q] =
              static_cast<T>(q % 2 == 0 ? -w.imag() : w.imag());
      }
    }
  }
  // Odd radices: cos/sin(2 pi t/p), t < p (direction-free: Rot applies the sign).
  std::size_t generic = 0;
  for (Pass& pass : plan.passes) {
    if (pass.radix % 2 == 0) continue;
    pass.generic_offset = generic;
    for (int t = 0; t < pass.radix; ++t) {
      const auto w = unit_root(std::size_t(t), std::size_t(pass.radix));  // e^{-2 pi i t/p}
      plan.generic_cos.push_back(static_cast<T>(w.real()));
      plan.generic_sin.push_back(static_cast<T>(-w.imag()));
    }
    generic += std::size_t(pass.radix);
  }
  if (plan.passes.size() == 1 && plan.passes[0].radix % 2 == 1 && plan.passes[0].radix >= kOutputsAcrossLanesMinRadix) {
    const int p = plan.passes[0].radix, h = (p - 1) / 2;
    const std::size_t pad = kOutputsRowPad(p);
    plan.outputs_cos.assign(std::size_t(h) * pad * 2, T(0));
    plan.outputs_sin.assign(std::size_t(h) * pad * 2, T(0));
    for (int m = 1; m <= h; ++m)
      for (int k = 1; k <= h; ++k) {
        const auto w = unit_root(std::size_t(k * m % p), std::size_t(p));  // e^{-2 pi i km/p}
        for (std::size_t slot = 0; slot < 2; ++slot) {
          const std::size_t at = (std::size_t(m - 1) * pad + std::size_t(k - 1)) * 2 + slot;
          plan.outputs_cos[at] = static_cast<T>(w.real());
          plan.outputs_sin[at] = static_cast<T>(-w.imag());
        }
      }
  }
  return plan;
}

template LaneFft<float> make_lane_fft<float>(std::size_t, bool);
template LaneFft<double> make_lane_fft<double>(std::size_t, bool);
template LaneFft<float> make_lane_fft<float>(std::size_t, bool, const std::vector<int>&);
template LaneFft<double> make_lane_fft<double>(std::size_t, bool, const std::vector<int>&);

}  // namespace ripple::fft::detail
