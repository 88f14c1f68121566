#include "fft/c2c_rader.hpp"

#include <limits>

#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

namespace {
std::size_t mul_mod(std::size_t a, std::size_t b, std::size_t m) {
  return static_cast<std::size_t>((static_cast<unsigned __int128>(a) * b) % m);
}
std::size_t pow_mod(std::size_t base, std::size_t e, std::size_t m) {
  std::size_t r = 1;
  for (; e != 0; e >>= 1, base = mul_mod(base, base, m))
    if (e & 1) r = mul_mod(r, base, m);
  return r;
}
}  // namespace

std::size_t primitive_root(std::size_t n) {
  std::vector<std::size_t> factors;  // distinct prime factors of n-1
  std::size_t r = n - 1;
  for (std::size_t p = 2; p * p <= r; ++p)
    if (r % p == 0) {
      factors.push_back(p);
      while (r % p == 0) r /= p;
    }
  if (r > 1) factors.push_back(r);
  for (std::size_t g = 2;; ++g) {
    bool ok = true;
    for (std::size_t f : factors) ok = ok && pow_mod(g, (n - 1) / f, n) != 1;
    if (ok) return g;
  }
}

bool is_prime(std::size_t n) {
  if (n < 2) return false;
  for (std::size_t p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37})
    if (n % p == 0) return n == p;
  std::size_t d = n - 1;
  int s = 0;
  while (d % 2 == 0) {
    d /= 2;
    ++s;
  }
  for (std::size_t a : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37}) {
    std::size_t x = pow_mod(a, d, n);
    if (x == 1 || x == n - 1) continue;
    bool composite = true;
    for (int i = 1; i < s && composite; ++i) {
      x = mul_mod(x, x, n);
      if (x == n - 1) composite = false;
    }
    if (composite) return false;
  }
  return true;
}

template <class T>
double C2cRader<T>::cost(std::size_t n, std::size_t lanes) {
  if (n - 1 > std::numeric_limits<std::uint32_t>::max()) return std::numeric_limits<double>::infinity();
  return 2.0 * c2c_cost(n - 1, lanes) + 12.0 * double(n);
}

template <class T>
C2cRader<T>::C2cRader(std::size_t n, bool forward, unsigned threads) : C2cNode<T>(n) {
  const std::size_t m = n - 1;
  const std::size_t g = primitive_root(n);
  const std::size_t g_inv = pow_mod(g, n - 2, n);
  gather_.resize(m);
  scatter_.resize(m);
  // h[q] = w_n^{g^-q}, transformed in double for an accurate spectrum.
  core::AlignedVector<std::complex<double>> h(m);
  const UnitRoots roots(n);
  for (std::size_t q = 0, gq = 1, gi = 1; q < m; ++q) {
    gather_[q] = static_cast<std::uint32_t>(gq);
    scatter_[q] = static_cast<std::uint32_t>(gi);
    const auto w = roots(gi, forward);
    h[q] = {static_cast<double>(w.real()), static_cast<double>(w.imag())};
    gq = mul_mod(gq, g, n);
    gi = mul_mod(gi, g_inv, n);
  }
  convolution_ = std::make_unique<const CyclicConvolution<T>>(std::move(h), threads);
}

namespace {
// The convolution's input x[g^q] and result X[g^-p] = (x[0] + a[p]) * scale of one transform.
template <class T>
struct PermutedIo final : TransformIo<T> {
  using TransformIo<T>::x, TransformIo<T>::y, TransformIo<T>::in_stride, TransformIo<T>::out_stride,
      TransformIo<T>::scale;
  const std::uint32_t* gather = nullptr;
  const std::uint32_t* scatter = nullptr;
  std::complex<T> x0;

  void load(std::size_t first, std::size_t count, std::complex<T>* to) const override {
    for (std::size_t q = first; q < first + count; ++q) to[q - first] = x[std::ptrdiff_t(gather[q]) * in_stride];
  }
  void store(std::size_t first, std::size_t count, const std::complex<T>* from) const override {
    for (std::size_t p = first; p < first + count; ++p)
      y[std::ptrdiff_t(scatter[p]) * out_stride] = (x0 + from[p - first]) * scale;
  }
};
}  // namespace

template <class T>
void C2cRader<T>::execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                          T scale, unsigned threads) const {
  PermutedIo<T> io;
  io.inputs = io.outputs = this->n() - 1;
  io.gather = gather_.data();
  io.scatter = scatter_.data();
  io.scale = scale;
  for (std::size_t b = 0; b < layout.batch; ++b) {
    io.select(in, out, layout, b);
    io.x0 = io.x[0];
    // X[0]: x[0] plus bin 0 of the convolution's forward transform (the sum of x[1..n)).
    const std::complex<T> sum = io.x0 + convolution_->apply(io, threads);
    io.y[0] = sum * scale;
  }
}

template <class T>
std::string C2cRader<T>::describe() const {
  return "rader(" + convolution_->describe() + ")";
}

template class C2cRader<float>;
template class C2cRader<double>;

}  // namespace ripple::fft::detail
