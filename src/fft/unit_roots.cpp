#include "fft/unit_roots.hpp"

#include <cmath>

namespace ripple::fft::detail {

std::complex<long double> unit_root(std::size_t k, std::size_t m) {
  k %= m;
  // Reduce to an angle in [0, pi/4] using integer arithmetic on 8k/m, so no precision is lost
  // to a large argument: 2 pi k/m = (pi/4) * (8k/m).
  const unsigned __int128 scaled = static_cast<unsigned __int128>(k) * 8;
  const auto octant = static_cast<unsigned>(scaled / m);
  const unsigned __int128 rest = scaled % m;  // angle within the octant is (pi/4) * rest/m
  const long double quarter_pi = 0.785398163397448309615660845819875721L;
  long double a = quarter_pi * static_cast<long double>(rest) / static_cast<long double>(m);
  bool mirror = octant & 1;  // odd octants count down from the next multiple of pi/4
  if (mirror) a = quarter_pi - a;
  long double c = std::cos(a), s = std::sin(a);
  // Now (c, s) = e^{+i a'} for a' the angle measured within the octant; map back.
  long double x, y;  // cos and sin of the full angle 2 pi k/m
  switch (octant) {
    case 0: x = c; y = s; break;
    case 1: x = s; y = c; break;
    case 2: x = -s; y = c; break;
    case 3: x = -c; y = s; break;
    case 4: x = -c; y = -s; break;
    case 5: x = -s; y = -c; break;
    case 6: x = s; y = -c; break;
    default: x = c; y = -s; break;
  }
  return {x, -y};  // forward sign: e^{-i angle}
}

UnitRoots::UnitRoots(std::size_t m) : m_(m) {
  std::size_t b = 1;
  while (b * b < m) b <<= 1;
  fine_.resize(b);
  for (std::size_t k = 0; k < b; ++k) fine_[k] = unit_root(k, m);
  coarse_.resize((m + b - 1) / b);
  for (std::size_t k = 0; k < coarse_.size(); ++k) coarse_[k] = unit_root(k * b, m);
}

}  // namespace ripple::fft::detail
