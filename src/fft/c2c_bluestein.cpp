#include "fft/c2c_bluestein.hpp"

#include <cmath>
#include <limits>

#include "fft/lane_fft.hpp"
#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

template <class T>
std::size_t C2cBluestein<T>::convolution_size(std::size_t n) {
  // Cheapest 2^a 3^b 5^c 7^d at or above 2n-1 (searched up to the next power of two).
  const std::size_t lo = 2 * n - 1;
  std::size_t pow2 = 1;
  while (pow2 < lo) pow2 <<= 1;
  std::size_t best = pow2;
  double best_cost = double(pow2) * lane_fft_cost_per_point(pow2);
  for (std::size_t a = 1; a <= pow2; a *= 2)
    for (std::size_t b = a; b <= pow2; b *= 3)
      for (std::size_t c = b; c <= pow2; c *= 5)
        for (std::size_t d = c; d <= pow2; d *= 7) {
          if (d < lo) continue;
          const double cost = double(d) * lane_fft_cost_per_point(d);
          if (cost < best_cost) {
            best_cost = cost;
            best = d;
          }
        }
  return best;
}

template <class T>
double C2cBluestein<T>::cost(std::size_t n, std::size_t lanes) {
  const std::size_t m = convolution_size(n);
  return 2.0 * smooth_c2c_cost(m, lanes) + 12.0 * double(m);
}

template <class T>
C2cBluestein<T>::C2cBluestein(std::size_t n, bool forward, unsigned threads)
    : C2cNode<T>(n), m_(convolution_size(n)) {
  // b[k] = e^{+pi i k^2/n} for the forward transform (conjugate for backward); k^2 mod 2n
  // exactly, so the phase is accurate for every k.
  // (From the shared table: one sin/cos per k took most of a long plan's arithmetic.)
  const UnitRoots roots(2 * n);
  std::vector<std::complex<long double>> b(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto k2 = static_cast<std::size_t>((static_cast<unsigned __int128>(k) * k) % (2 * n));
    b[k] = roots(k2);  // e^{-pi i k^2/n}
    if (forward) b[k] = std::conj(b[k]);
  }
  chirp_.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    chirp_[k] = {static_cast<T>(b[k].real()), static_cast<T>(-b[k].imag())};
  // Transform b (wrapped: b[m - k] = b[k]) in double precision for an accurate spectrum.
  core::AlignedVector<std::complex<double>> wrapped(m_, 0.0);
  for (std::size_t k = 0; k < n; ++k) {
    const std::complex<double> v(static_cast<double>(b[k].real()), static_cast<double>(b[k].imag()));
    wrapped[k] = v;
    if (k > 0) wrapped[m_ - k] = v;
  }
  convolution_ = std::make_unique<const CyclicConvolution<T>>(std::move(wrapped), threads);
}

namespace {
// The convolution's input x[k] * chirp[k] and result a[k] * chirp[k] * scale of one transform.
template <class T>
struct ChirpIo final : TransformIo<T> {
  using TransformIo<T>::x, TransformIo<T>::y, TransformIo<T>::in_stride, TransformIo<T>::out_stride,
      TransformIo<T>::scale;
  const std::complex<T>* chirp = nullptr;

  void load(std::size_t first, std::size_t count, std::complex<T>* to) const override {
    for (std::size_t k = first; k < first + count; ++k) to[k - first] = x[std::ptrdiff_t(k) * in_stride] * chirp[k];
  }
  void store(std::size_t first, std::size_t count, const std::complex<T>* from) const override {
    for (std::size_t k = first; k < first + count; ++k)
      y[std::ptrdiff_t(k) * out_stride] = from[k - first] * chirp[k] * scale;
  }
  void prefetch(std::size_t first, std::size_t count) const override {
    const auto lines = [count](const void* from) {
      for (std::size_t off = 0; off < count * sizeof(std::complex<T>); off += 64)
        __builtin_prefetch(static_cast<const char*>(from) + off);
    };
    if (in_stride == 1) lines(x + first);
    lines(chirp + first);
  }
};
}  // namespace

template <class T>
void C2cBluestein<T>::execute(const std::complex<T>* in, std::complex<T>* out, const Layout& layout,
                              T scale, unsigned threads) const {
  ChirpIo<T> io;
  io.inputs = io.outputs = this->n();
  io.chirp = chirp_.data();
  io.scale = scale;
  for (std::size_t b = 0; b < layout.batch; ++b) {
    io.select(in, out, layout, b);
    convolution_->apply(io, threads);
  }
}

template <class T>
std::string C2cBluestein<T>::describe() const {
  return "bluestein(m=" + std::to_string(m_) + ": " + convolution_->describe() + ")";
}

template class C2cBluestein<float>;
template class C2cBluestein<double>;

}  // namespace ripple::fft::detail
