// Chooses the c2c algorithm for a size by estimated cost: lane panels (batches, short sizes),
// four-step (long smooth sizes), Rader (primes with smooth n-1) or Bluestein (anything).
#include <algorithm>
#include <cmath>
#include <limits>

#include "fft/c2c_bluestein.hpp"
#include "fft/c2c_four_step.hpp"
#include "fft/c2c_wide.hpp"
#include "fft/c2c_node.hpp"
#include "fft/c2c_panels.hpp"
#include "fft/c2c_rader.hpp"
#include "fft/kernels.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::fft::detail {

namespace {
constexpr std::size_t kPanelCacheBytes = std::size_t(512) << 10;
constexpr std::size_t kWideBatchMax = 512;

enum class Method { panels, four_step, rader, bluestein };

struct Choice {
  Method method = Method::bluestein;
  std::size_t n1 = 1;
  double cost = std::numeric_limits<double>::infinity();
};

// Best method for ONE transform of size n when lanes hold independent sequences. Convolution
// methods (Rader, Bluestein) are considered only when `convolutions` is set; their own
// sub-transforms are smooth, so this bounds the recursion.
template <class T>
Choice choose_single(std::size_t n, std::size_t lanes, bool convolutions = true) {
  Choice best;
  auto consider = [&](Method m, double cost, std::size_t n1 = 1) {
    if (cost < best.cost) best = {m, n1, cost};
  };
  const double lane_cost = lane_fft_cost_per_point(n);
  // A single sequence in a panel uses one lane of W.
  if (std::isfinite(lane_cost)) consider(Method::panels, double(n) * lane_cost * double(lanes));
  double split_cost = 0;
  // (Its fixed kernels differ between float and double: see FindPanelFixed.)
  const std::size_t n1 = C2cFourStep<T>::choose_n1(n, lanes, &split_cost);
  if (n1 > 1) consider(Method::four_step, split_cost, n1);
  if (convolutions && n > 2 && is_prime(n)) consider(Method::rader, C2cRader<float>::cost(n, lanes));
  if (convolutions && n > 2) consider(Method::bluestein, C2cBluestein<float>::cost(n, lanes));
  return best;
}

template <class T>
bool has_fixed_wide_kernel(std::size_t n, const cpu::FftKernels<T>& kernels) {
  return C2cWide<T>::fixed_kernel(n, kernels) != nullptr;
}

// Whether a size both tables' wide kernels take runs faster on the narrower lanes. Measured
// one thread on AVX-512 Zen 4 (A/B in one process, narrower/best time):
// - whenever the best lanes leave part of a block empty (n < W^2): f32 N = 16-56 0.31-0.75,
//   f64 N = 8, 12 0.42-0.47;
// - up to 1024 points where the narrower lanes are still 4 (float on AVX2 against AVX-512)
//   and its kernel is unrolled: f32 N = 64-128 1.0-1.1 (within this VM's noise), and as the
//   half-size transforms of r2c N = 64, 96 0.88-0.93;
// - with generic kernels on both sides, only where the best lanes' passes need a radix 16,
//   which spills (f32 N = 384 0.87, 640 1.0, measured when those were 16 x 3 and 16 x 5;
//   factor_for_passes now makes them 4 x 4 x 3 and 4 x 4 x 5). Elsewhere the wider lanes won
//   once their transposes stayed in registers (f32 N = 480-1024 1.09-1.2: 480, 512, 768,
//   800, 1024).
//   Double on 2 lanes (its lane FFTs twice as long, its last stage a bare radix 2) lost from
//   N = 28 on (1.1-1.9x; 0.58-0.84 at 20, 24 and 40).
template <class T>
bool prefer_narrow_wide(std::size_t n, const cpu::FftKernels<T>& best, const cpu::FftKernels<T>& narrow) {
  constexpr std::size_t kNarrowMidMax = 1024;
  constexpr std::size_t kNarrowMidMinLanes = 4;
  if (n < best.lanes * best.lanes) return true;
  if (n > kNarrowMidMax || narrow.lanes < kNarrowMidMinLanes) return false;
  if (has_fixed_wide_kernel(n, narrow)) return true;
  if (has_fixed_wide_kernel(n, best)) return false;
  const auto has_radix_16 = [n](std::size_t lanes) {
    std::vector<int> radices;
    factor_for_passes(n / lanes, radices);  // it factors: C2cWide::applicable checked
    return std::find(radices.begin(), radices.end(), 16) != radices.end();
  };
  return has_radix_16(best.lanes) && !has_radix_16(narrow.lanes);
}

// Whether the four-step runs its panels on the narrower table: in double up to 15625 points,
// where its panels stay in cache (one thread, AVX-512 Zen 4, A/B in one process, narrower/best
// time: f64 N = 243 0.94, 729 0.88, 2187 0.89, 3125 0.87, 6561 0.91, 15625 0.91; 16807 1.02,
// 59049 1.09). Float lost at every size (f32 N = 243-16807 1.04-1.2).
template <class T>
bool narrow_four_step(std::size_t n) {
  constexpr std::size_t kNarrowFourStepMax = 15625;
  return sizeof(T) == sizeof(double) && n <= kNarrowFourStepMax;
}
}  // namespace

double c2c_cost(std::size_t n, std::size_t lanes) {
  if (n <= 2) return double(n);
  return choose_single<float>(n, lanes).cost;
}

double smooth_c2c_cost(std::size_t n, std::size_t lanes) {
  if (n <= 2) return double(n);
  return choose_single<float>(n, lanes, false).cost;
}

template <class T>
C2cNodePtr<T> plan_c2c(std::size_t n, bool forward, std::size_t batch, unsigned threads) {
  const std::size_t lanes = fft_kernels<T>().lanes;
  const double lane_cost = lane_fft_cost_per_point(n);
  if (n <= 2) return std::make_unique<C2cPanels<T>>(n, forward);
  // Transforms that split as m x W: lane passes, then the last stage in registers. For
  // batches that fill the lanes it beat panels up to n = 256 and lost at 1024 (2-core Zen 3,
  // float, 64 MB of data), hence the bound.
  const bool batch_fills_lanes = batch >= lanes;
  const bool wide_allowed = !batch_fills_lanes || n <= kWideBatchMax;
  const cpu::FftKernels<T>* narrow = narrow_fft_kernels<T>();
  const bool narrow_applies = narrow != nullptr && wide_allowed && C2cWide<T>::applicable(n, narrow->lanes, batch, threads);
  if (wide_allowed && C2cWide<T>::applicable(n, lanes, batch, threads)) {
    if (narrow_applies && prefer_narrow_wide(n, fft_kernels<T>(), *narrow))
      return std::make_unique<C2cWide<T>>(n, forward, *narrow);
    return std::make_unique<C2cWide<T>>(n, forward);
  }
  // Single transforms (and batches too small for panels) that split by narrower lanes only
  // (f32 N = 4 mod 8, f64 N = 2 mod 4 on AVX-512; f32 N = 2 mod 4 on the 128-bit table): the
  // narrower wide kernel, unless a generic one would stand against an unrolled panel (f64
  // N = 18, 22, 26: 1.3-1.6x the panel's time). Against the four-step and the panels it took
  // 0.2-0.9x the time (f32 N = 12 to 4500, f64 N = 6 to 131250; one thread, AVX-512 Zen 4).
  // Batches that fill the lanes keep their panels (not measured against it).
  for (const cpu::FftKernels<T>* table : {narrow, narrowest_fft_kernels<T>()}) {
    if (table != nullptr && wide_allowed && !batch_fills_lanes &&
        C2cWide<T>::applicable(n, table->lanes, batch, threads) &&
        (has_fixed_wide_kernel(n, *table) || !has_fixed_panel_kernel<T>(n, PanelUse::few)))
      return std::make_unique<C2cWide<T>>(n, forward, *table);
  }
  // Short sizes the wide kernel cannot take, alone or in small batches: one sequence per
  // vector, whole in registers (far cheaper at these sizes than any split or convolution).
  if (!batch_fills_lanes && has_fixed_panel_kernel<T>(n, PanelUse::few)) return std::make_unique<C2cPanels<T>>(n, forward);
  // Other batches that fill the lanes go through panels whenever n factors into passes and a
  // panel (n vectors, two buffers) stays in the L2 cache; longer transforms go one by one.
  const bool panel_fits_cache = 2 * n * lanes * sizeof(std::complex<T>) <= kPanelCacheBytes;
  if (batch_fills_lanes && std::isfinite(lane_cost) && panel_fits_cache)
    return std::make_unique<C2cPanels<T>>(n, forward);
  const Choice choice = choose_single<T>(n, lanes);
  switch (choice.method) {
    case Method::panels: return std::make_unique<C2cPanels<T>>(n, forward);
    case Method::four_step:
      if (narrow != nullptr && narrow_four_step<T>(n))
        return std::make_unique<C2cFourStep<T>>(choice.n1, n / choice.n1, forward, *narrow);
      return std::make_unique<C2cFourStep<T>>(choice.n1, n / choice.n1, forward);
    case Method::rader: return std::make_unique<C2cRader<T>>(n, forward, threads);
    case Method::bluestein: break;
  }
  return std::make_unique<C2cBluestein<T>>(n, forward, threads);
}

template C2cNodePtr<float> plan_c2c<float>(std::size_t, bool, std::size_t, unsigned);
template C2cNodePtr<double> plan_c2c<double>(std::size_t, bool, std::size_t, unsigned);

}  // namespace ripple::fft::detail
