// Rader's tables and which sizes take his algorithm (device_fft_rader.hpp).
#include "gpu/device_fft_rader.hpp"

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "fft/c2c_rader.hpp"
#include "fft/unit_roots.hpp"
#include "gpu/device_fft.hpp"
#include "gpu/device_tables.hpp"

namespace ripple::gpu {

bool rader_fits(std::uint64_t n, bool double_precision, std::uint64_t max_on_chip) {
  return n > kFftCodeletPrimes.back() &&
         n - 1 <= std::min({max_on_chip, fft_max_on_chip(double_precision), kFftMaxRaderOnChip}) &&
         codelet_smooth(n - 1) && fft::detail::is_prime(n);
}

RaderTables RaderTables::make(Context& context, std::uint64_t p, bool double_precision) {
  const std::uint64_t l = p - 1;
  std::vector<std::uint32_t> powers;  // g^q mod p, q < L; made at most once, where a table is not cached
  const auto permutation = [&powers, p, l] {
    if (powers.empty()) {
      const std::uint64_t g = fft::detail::primitive_root(p);
      powers.resize(l);
      for (std::uint64_t q = 0, gq = 1; q < l; ++q, gq = gq * g % p) powers[q] = static_cast<std::uint32_t>(gq);
    }
    return powers;
  };
  const std::string key = "rader p=" + std::to_string(p);
  RaderTables t;
  t.index = index_table(context, key + " permutation", permutation);
  t.spectrum = spectrum_table(context, key + " spectrum", double_precision, [&] {
    // b[m] = w^(g^-m), g^-m = g^(L - m).
    permutation();
    const fft::detail::UnitRoots w(p);
    std::vector<std::complex<double>> b(l);
    for (std::uint64_t m = 0; m < l; ++m) b[m] = std::complex<double>(w(powers[(l - m) % l]));
    return b;
  });
  return t;
}

}  // namespace ripple::gpu
