// A program outside the ripple tree: proves an installed prefix is usable on its own.
#include <ripple/fft.hpp>
#include <ripple/runtime.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

int main() {
  // The DFT of a unit impulse at n = 1 is e^{-2 pi i k / N}.
  const std::size_t n = 12;
  std::vector<std::complex<double>> x(n, 0.0);
  x[1] = 1.0;
  const auto spectrum = ripple::fft::fft(std::span<const std::complex<double>>(x));
  double worst = 0;
  for (std::size_t k = 0; k < n; ++k)
    worst = std::max(worst, std::abs(spectrum[k] - std::polar(1.0, -2 * M_PI * double(k) / n)));
  std::printf("installed ripple %s (%s): impulse error %.2e\n", ripple::version(),
              ripple::simd_target().c_str(), worst);
  return worst < 1e-12 ? 0 : 1;
}
