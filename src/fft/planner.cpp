// Chooses the c2c algorithm for a size by estimated cost: lane panels (batches, short sizes),
// four-step (long smooth sizes), Rader (primes with smooth n-1) or Bluestein (anything).
#include <cmath>
#include <limits>

#include "fft/c2c_bluestein.hpp"
#include "fft/c2c_four_step.hpp"
#include "fft/c2c_wide.hpp"
#include "fft/c2c_node.hpp"
#include "fft/c2c_panels.hpp"
#include "fft/c2c_rader.hpp"
#include "fft/kernels.hpp"

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
  if ((!batch_fills_lanes || n <= kWideBatchMax) && C2cWide<T>::applicable(n, lanes, batch, threads))
    return std::make_unique<C2cWide<T>>(n, forward);
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
    case Method::four_step: return std::make_unique<C2cFourStep<T>>(choice.n1, n / choice.n1, forward);
    case Method::rader: return std::make_unique<C2cRader<T>>(n, forward, threads);
    case Method::bluestein: break;
  }
  return std::make_unique<C2cBluestein<T>>(n, forward, threads);
}

template C2cNodePtr<float> plan_c2c<float>(std::size_t, bool, std::size_t, unsigned);
template C2cNodePtr<double> plan_c2c<double>(std::size_t, bool, std::size_t, unsigned);

}  // namespace ripple::fft::detail
