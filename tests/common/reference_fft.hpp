// Reference DFTs for the tests, in long double and independent of the library: a naive O(N^2)
// DFT, and a fast one for sizes where O(N^2) is too slow (prime factors peeled off by
// recursive decimation in time, the power-of-two part by an iterative radix-2 FFT, primes
// above 64 by Bluestein). Both compute
//   X[k] = sum_n x[n] e^{s 2 pi i k n / N},  s = -1 (forward) or +1 (backward), unscaled.
// The fast one is itself checked against the naive one (tests/fft/reference_self_test.cpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <map>
#include <span>
#include <vector>

namespace ripple::test {

using cld = std::complex<long double>;

namespace detail {

// Complex multiply by hand: std::complex's operator* checks for NaN and is slower.
inline cld mul(cld a, cld b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// e^{-2 pi i k / m} from one long-double sin/cos call (absolute error ~5e-19).
inline cld exact_root(std::size_t k, std::size_t m) {
  const long double two_pi = 6.283185307179586476925286766559005768L;
  const long double a = two_pi * static_cast<long double>(k) / static_cast<long double>(m);
  return {std::cos(a), -std::sin(a)};
}

}  // namespace detail

/// e^{-2 pi i k / m} for any k, as the product of two entries of tables of ~sqrt(m) exact roots
/// each (so only O(sqrt m) sin/cos calls; error ~1e-18).
class UnitRootsLd {
 public:
  explicit UnitRootsLd(std::size_t m) : m_(m) {
    block_ = 1;
    while (block_ * block_ < m) ++block_;
    fine_.resize(block_);
    for (std::size_t j = 0; j < block_; ++j) fine_[j] = detail::exact_root(j, m);
    coarse_.resize(m / block_ + 1);
    for (std::size_t j = 0; j < coarse_.size(); ++j) coarse_[j] = detail::exact_root(j * block_, m);
  }
  std::size_t size() const { return m_; }
  cld operator()(std::size_t k) const {
    k %= m_;
    return detail::mul(coarse_[k / block_], fine_[k % block_]);
  }
  /// The root for the given direction: forward e^{-2 pi i k/m}, backward its conjugate.
  cld operator()(std::size_t k, bool forward) const {
    const cld w = (*this)(k);
    return forward ? w : std::conj(w);
  }

 private:
  std::size_t m_, block_;
  std::vector<cld> fine_, coarse_;
};

/// e^{-2 pi i j / n} for j = 0..n-1.
inline std::vector<cld> unit_roots_ld(std::size_t n) {
  const UnitRootsLd roots(n);
  std::vector<cld> w(n);
  for (std::size_t j = 0; j < n; ++j) w[j] = roots(j);
  return w;
}

namespace detail {

inline std::size_t smallest_odd_prime_factor(std::size_t n) {
  for (std::size_t p = 3; p * p <= n; p += 2)
    if (n % p == 0) return p;
  return n;
}

/// Iterative radix-2 FFT of a power-of-two size m, with the twiddles of every level stored
/// contiguously (level of butterfly span len at offset len/2 - 1).
class Pow2Fft {
 public:
  explicit Pow2Fft(std::size_t m) : m_(m) {
    if (m < 2) return;
    const UnitRootsLd roots(m);
    tw_.resize(m - 1);
    for (std::size_t len = 2; len <= m; len *= 2)
      for (std::size_t k = 0; k < len / 2; ++k) tw_[len / 2 - 1 + k] = roots(k * (m / len));
  }
  std::size_t size() const { return m_; }

  /// Transforms a[0..m) in place.
  void run(cld* a, bool forward) const {
    if (forward)
      run_dir<true>(a);
    else
      run_dir<false>(a);
  }

 private:
  template <bool Forward>
  void run_dir(cld* a) const {
    const std::size_t m = m_;
    for (std::size_t i = 1, j = 0; i < m; ++i) {  // bit reversal
      std::size_t bit = m >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(a[i], a[j]);
    }
    // Levels whose butterflies stay inside a cache-sized block are done block by block, two
    // levels at a time where possible (the 80-bit loads and stores are what costs).
    const std::size_t block = std::min<std::size_t>(m, 4096);
    for (std::size_t base = 0; base < m; base += block) levels<Forward>(a + base, block, 2, block);
    levels<Forward>(a, m, 2 * block, m);
  }

  // Levels of butterfly span first..last (powers of two) over a[0..count).
  template <bool Forward>
  void levels(cld* a, std::size_t count, std::size_t first, std::size_t last) const {
    std::size_t len = first;
    for (; 2 * len <= last; len *= 4) level_pair<Forward>(a, count, len);
    if (len <= last) level<Forward>(a, count, len);
  }

  template <bool Forward>
  cld twiddle(std::size_t len, std::size_t k) const {
    const cld w = tw_[len / 2 - 1 + k];
    return Forward ? w : std::conj(w);
  }

  template <bool Forward>
  void level(cld* a, std::size_t count, std::size_t len) const {
    const std::size_t half = len / 2;
    for (std::size_t i = 0; i < count; i += len) {
      for (std::size_t k = 0; k < half; ++k) {
        const cld u = a[i + k], v = mul(a[i + k + half], twiddle<Forward>(len, k));
        a[i + k] = u + v;
        a[i + k + half] = u - v;
      }
    }
  }

  // The levels of span len and 2 len in one sweep (a radix-4 step).
  template <bool Forward>
  void level_pair(cld* a, std::size_t count, std::size_t len) const {
    const std::size_t q = len / 2;
    for (std::size_t i = 0; i < count; i += 2 * len) {
      for (std::size_t k = 0; k < q; ++k) {
        const cld w1 = twiddle<Forward>(len, k), w2 = twiddle<Forward>(2 * len, k);
        // W_{4q}^{k+q} = w2 * W_4^1, W_4^1 = -i forward, +i backward
        const cld w3 = Forward ? cld(w2.imag(), -w2.real()) : cld(-w2.imag(), w2.real());
        cld* p = a + i + k;
        const cld t1 = mul(p[q], w1), t3 = mul(p[3 * q], w1);
        const cld b0 = p[0] + t1, b1 = p[0] - t1, b2 = p[2 * q] + t3, b3 = p[2 * q] - t3;
        const cld u2 = mul(b2, w2), u3 = mul(b3, w3);
        p[0] = b0 + u2;
        p[2 * q] = b0 - u2;
        p[q] = b1 + u3;
        p[3 * q] = b1 - u3;
      }
    }
  }

  std::size_t m_;
  std::vector<cld> tw_;
};

// Bluestein: a DFT of any size n as a cyclic convolution of power-of-two size m >= 2n-1, with
// the chirp e^{-+ i pi j^2 / n} = w_{2n}^{j^2 mod 2n} taken from the exact residue.
class Bluestein {
 public:
  Bluestein(std::size_t n, bool forward) : n_(n), fft_(pow2_at_least(2 * n - 1)) {
    const std::size_t m = fft_.size();
    const UnitRootsLd roots_2n(2 * n);
    chirp_.resize(n);
    for (std::size_t j = 0; j < n; ++j)
      chirp_[j] = roots_2n(static_cast<std::size_t>(static_cast<unsigned __int128>(j) * j % (2 * n)), forward);
    kernel_.assign(m, cld(0));
    kernel_[0] = std::conj(chirp_[0]);
    for (std::size_t j = 1; j < n; ++j) kernel_[j] = kernel_[m - j] = std::conj(chirp_[j]);
    fft_.run(kernel_.data(), true);
    const long double inv_m = 1.0L / static_cast<long double>(m);
    for (auto& v : kernel_) v *= inv_m;
  }

  void run(const cld* in, std::size_t in_stride, cld* out) const {
    std::vector<cld> a(fft_.size());
    for (std::size_t j = 0; j < n_; ++j) a[j] = mul(in[j * in_stride], chirp_[j]);
    fft_.run(a.data(), true);
    for (std::size_t j = 0; j < a.size(); ++j) a[j] = mul(a[j], kernel_[j]);
    fft_.run(a.data(), false);
    for (std::size_t k = 0; k < n_; ++k) out[k] = mul(a[k], chirp_[k]);
  }

 private:
  static std::size_t pow2_at_least(std::size_t v) {
    std::size_t m = 1;
    while (m < v) m *= 2;
    return m;
  }
  std::size_t n_;
  Pow2Fft fft_;
  std::vector<cld> chirp_, kernel_;
};

inline std::size_t smallest_prime_factor(std::size_t n) {
  if (n % 2 == 0) return 2;
  return smallest_odd_prime_factor(n);
}

/// Everything one reference transform of size N needs, built once: the roots of N, the FFT of
/// N's power-of-two part, and a Bluestein plan per large prime factor.
class FastDft {
 public:
  FastDft(std::size_t n, bool forward) : forward_(forward), roots_(n), pow2_(pow2_part(n)) {
    for (std::size_t rest = n / pow2_.size(); rest > 1;) {
      const std::size_t p = smallest_odd_prime_factor(rest);
      if (p > kNaiveMax && bluestein_.count(p) == 0) bluestein_.emplace(p, Bluestein(p, forward));
      rest /= p;
    }
  }

  /// out[0..n) = DFT of in[0], in[s], ..., in[(n-1)s] for a divisor n of N.
  void run(const cld* in, std::size_t in_stride, std::size_t n, cld* out) const {
    if (n == pow2_.size()) {  // the power-of-two part (n = 1 included)
      for (std::size_t j = 0; j < n; ++j) out[j] = in[j * in_stride];
      if (n > 1) pow2_.run(out, forward_);
      return;
    }
    if (smallest_prime_factor(n) == n) {
      small_dft(in, in_stride, n, out);
      return;
    }
    // n = p * m, p a combine radix: an odd prime <= 64 if n has one, else n's power-of-two part
    // (its FFT is ready), else n's smallest prime. Sub-transform r takes x[p j + r], and
    // X[k + m q] = sum_r W_p^{rq} (W_n^{rk} Y_r[k]).
    std::size_t p = smallest_odd_prime_factor(n);
    if (p > kNaiveMax && n % 2 == 0) p = pow2_.size();
    const std::size_t m = n / p;
    for (std::size_t r = 0; r < p; ++r) run(in + r * in_stride, in_stride * p, m, out + r * m);
    const std::size_t root_stride = roots_.size() / n;
    std::vector<cld> t(p), y(p);
    for (std::size_t k = 0; k < m; ++k) {
      for (std::size_t r = 0; r < p; ++r) t[r] = mul(out[r * m + k], roots_(r * k * root_stride, forward_));
      if (p == pow2_.size()) {
        pow2_.run(t.data(), forward_);
        y.swap(t);
      } else {
        small_dft(t.data(), 1, p, y.data());
      }
      for (std::size_t q = 0; q < p; ++q) out[q * m + k] = y[q];
    }
  }

 private:
  static constexpr std::size_t kNaiveMax = 64;
  static std::size_t pow2_part(std::size_t n) {
    std::size_t p = 1;
    while (n % (2 * p) == 0) p *= 2;
    return p;
  }
  // A DFT of a prime size p dividing N: naive up to 64, Bluestein above.
  void small_dft(const cld* in, std::size_t in_stride, std::size_t p, cld* out) const {
    if (p > kNaiveMax) {
      bluestein_.at(p).run(in, in_stride, out);
      return;
    }
    const std::size_t root_stride = roots_.size() / p;
    for (std::size_t k = 0; k < p; ++k) {
      cld sum = 0;
      for (std::size_t j = 0; j < p; ++j) sum += mul(in[j * in_stride], roots_((k * j % p) * root_stride, forward_));
      out[k] = sum;
    }
  }

  bool forward_;
  UnitRootsLd roots_;
  Pow2Fft pow2_;
  std::map<std::size_t, Bluestein> bluestein_;
};

}  // namespace detail

/// Naive O(N^2) DFT in long double (unscaled), twiddles from one table indexed by k*n mod N.
inline std::vector<cld> naive_dft(std::span<const cld> x, bool forward) {
  const std::size_t n = x.size();
  std::vector<cld> out(n);
  if (n == 0) return out;
  std::vector<cld> w = unit_roots_ld(n);
  if (!forward)
    for (auto& v : w) v = std::conj(v);
  for (std::size_t k = 0; k < n; ++k) {
    long double sr = 0, si = 0;
    std::size_t idx = 0;  // k * j mod n
    for (std::size_t j = 0; j < n; ++j) {
      sr += x[j].real() * w[idx].real() - x[j].imag() * w[idx].imag();
      si += x[j].real() * w[idx].imag() + x[j].imag() * w[idx].real();
      idx += k;
      if (idx >= n) idx -= n;
    }
    out[k] = cld(sr, si);
  }
  return out;
}

/// Fast long-double DFT (unscaled): O(N log N) for any N (Bluestein for large prime factors).
/// Relative error ~1e-18, far below what the library's double is held to.
inline std::vector<cld> reference_dft(std::span<const cld> x, bool forward) {
  const std::size_t n = x.size();
  std::vector<cld> out(n);
  if (n == 0) return out;
  const detail::FastDft dft(n, forward);
  dft.run(x.data(), 1, n, out.data());
  return out;
}

}  // namespace ripple::test
