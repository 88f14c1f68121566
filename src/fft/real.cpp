#include "fft/real.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fft/kernels.hpp"
#include "fft/unit_roots.hpp"

namespace ripple::fft::detail {

namespace {
// Pairs of reals are read or written as complex values in place only where they are aligned as
// complex values (the kernels move them as 8- or 16-byte words).
template <class T>
bool complex_aligned(const T* p) {
  return reinterpret_cast<std::uintptr_t>(p) % alignof(std::complex<T>) == 0 &&
         reinterpret_cast<std::uintptr_t>(p) % (2 * sizeof(T)) == 0;
}
}  // namespace

template <class T>
bool RealFft<T>::direct(std::size_t n, const cpu::FftKernels<T>& kernels) {
  // Measured against the FFT path, A/B in one process (one thread, AVX-512 Zen 4): c2r of
  // every n <= 2W 0.37-0.78x the time (f32 N = 1-16, f64 1-8); r2c 0.45-0.89x, n = 2 about
  // even, and n = 2W, whose outputs are packed into one vector (see cpu::RealDirectArgs),
  // f32 N = 16 0.91-0.93x (22.3-22.9 against 24.6 ns), f64 N = 8 0.88-0.93x.
  return n <= 2 * kernels.lanes;
}

template <class T>
RealFft<T>::RealFft(std::size_t n, bool forward, std::size_t batch, unsigned threads)
    : n_(n), kernels_(&fft_kernels<T>()) {
  if (direct(n, *kernels_)) {
    // In long double until stored. r2c: per input i, a vector of the outputs k <= n/2 as
    // (re, im) pairs; c2r: per input k, a vector of real parts and one of imaginary parts over
    // the outputs j < n.
    const std::size_t width = 2 * kernels_->lanes;
    const UnitRoots roots(n);
    if (forward) {
      // n = 2W: Re X[n/2] in the place of Im X[0] (see cpu::RealDirectArgs).
      const bool packed = 2 * (n / 2 + 1) > width;
      direct_.assign(n * width, T(0));
      for (std::size_t i = 0; i < n; ++i) {
        T* row = direct_.data() + i * width;
        for (std::size_t k = 0; k <= n / 2; ++k) {
          const auto w = roots(i * k);
          if (packed && 2 * k == n) {
            row[1] = static_cast<T>(w.real());
            continue;
          }
          row[2 * k] = static_cast<T>(w.real());
          row[2 * k + 1] = static_cast<T>(w.imag());
        }
      }
      return;
    }
    const std::size_t rows = n / 2 + 1;
    direct_.assign(2 * rows * width, T(0));
    for (std::size_t k = 0; k < rows; ++k) {
      T* re = direct_.data() + 2 * k * width;
      T* im = re + width;
      const long double c = k == 0 || 2 * k == n ? 1 : 2;
      for (std::size_t j = 0; j < n; ++j) {
        const auto w = roots(k * j);
        re[j] = static_cast<T>(c * w.real());
        im[j] = static_cast<T>(c * w.imag());
      }
    }
    return;
  }
  const bool even = n % 2 == 0;
  c2c_ = plan_c2c<T>(even ? n / 2 : n, forward, batch, threads);
  if (even) {
    const UnitRoots roots(n);
    w_.resize(n / 2 + 1);
    for (std::size_t k = 0; k <= n / 2; ++k) {
      const auto w = roots(k);
      w_[k] = {static_cast<T>(w.real()), static_cast<T>(w.imag())};
    }
  }
}

template <class T>
void RealFft<T>::run_direct(bool forward, const void* in, void* out, const RealLayout& layout, T scale,
                            std::size_t first, std::size_t last) const {
  const std::size_t in_bytes = forward ? sizeof(T) : sizeof(std::complex<T>);
  const std::size_t out_bytes = forward ? sizeof(std::complex<T>) : sizeof(T);
  // Filled field by field, not copied from a shared one: a copy reads the fields, just stored
  // one by one, as wider words, which cannot be forwarded from those stores (a 16-point call
  // took 38 against 29 ns).
  cpu::RealDirectArgs<T> args;
  args.n = n_;
  args.batch = last - first;
  args.table = direct_.data();
  args.src = static_cast<const std::byte*>(in) + std::ptrdiff_t(first) * layout.in_dist * std::ptrdiff_t(in_bytes);
  args.src_stride = layout.in_stride;
  args.src_dist = layout.in_dist;
  args.dst = static_cast<std::byte*>(out) + std::ptrdiff_t(first) * layout.out_dist * std::ptrdiff_t(out_bytes);
  args.dst_stride = layout.out_stride;
  args.dst_dist = layout.out_dist;
  args.scale = scale;
  (forward ? kernels_->real_direct_r2c : kernels_->real_direct_c2r)(args);
}

template <class T>
void RealFft<T>::run_direct_threads(bool forward, const void* in, void* out, const RealLayout& layout, T scale,
                                    unsigned threads) const {
  // A contiguous range of the batch per task, as C2cWide shares one out.
  const std::size_t tasks = std::min<std::size_t>(layout.batch, 4 * std::size_t(threads));
  core::parallel_for(tasks, threads, [&](std::size_t task) {
    run_direct(forward, in, out, layout, scale, layout.batch * task / tasks, layout.batch * (task + 1) / tasks);
  });
}

template <class T>
void RealFft<T>::r2c(const T* in, std::complex<T>* out, const RealLayout& layout, T scale,
                     unsigned threads) const {
  if (direct_.empty()) return r2c_by_fft(in, out, layout, scale, threads);
  if (threads > 1 && layout.batch > 1) return run_direct_threads(true, in, out, layout, scale, threads);
  run_direct(true, in, out, layout, scale, 0, layout.batch);
}

template <class T>
void RealFft<T>::r2c_by_fft(const T* in, std::complex<T>* out, const RealLayout& layout, T scale,
                            unsigned threads) const {
  const std::size_t n = n_, h = n / 2;
  core::Scratch scratch;
  if (n % 2 == 1) {
    // Odd: promote to complex, transform, keep the non-negative half.
    std::complex<T>* z = scratch.get<std::complex<T>>(n * layout.batch);
    for (std::size_t b = 0; b < layout.batch; ++b)
      for (std::size_t k = 0; k < n; ++k) z[b * n + k] = in[b * layout.in_dist + k * layout.in_stride];
    c2c_->execute(z, z, Layout{1, std::ptrdiff_t(n), 1, std::ptrdiff_t(n), layout.batch}, scale, threads);
    for (std::size_t b = 0; b < layout.batch; ++b)
      for (std::size_t k = 0; k <= h; ++k) out[b * layout.out_dist + k * layout.out_stride] = z[b * n + k];
    return;
  }
  // Even: pairs of reals as complex values. Read in place when the reals are contiguous.
  const std::complex<T>* z;
  Layout c2c_layout{1, 0, layout.out_stride, layout.out_dist, layout.batch};
  if (layout.in_stride == 1 && layout.in_dist % 2 == 0 && complex_aligned(in)) {
    z = reinterpret_cast<const std::complex<T>*>(in);
    c2c_layout.in_dist = layout.in_dist / 2;
  } else {
    std::complex<T>* packed = scratch.get<std::complex<T>>(h * layout.batch);
    for (std::size_t b = 0; b < layout.batch; ++b)
      for (std::size_t k = 0; k < h; ++k)
        packed[b * h + k] = {in[b * layout.in_dist + 2 * k * layout.in_stride],
                             in[b * layout.in_dist + (2 * k + 1) * layout.in_stride]};
    z = packed;
    c2c_layout.in_dist = std::ptrdiff_t(h);
  }
  // Split Z into X[0..h] (pairs (k, h-k) together), on contiguous spectra: in `out` itself when
  // its elements are adjacent, else in scratch and copied out.
  const auto& kernels = *kernels_;
  if (layout.out_stride == 1) {
    c2c_->execute(z, out, c2c_layout, T(1), threads);
    for (std::size_t b = 0; b < layout.batch; ++b) kernels.real_split(out + b * layout.out_dist, h, w_.data(), scale);
    return;
  }
  std::complex<T>* spectra = scratch.get<std::complex<T>>((h + 1) * layout.batch);
  c2c_layout.out_stride = 1;
  c2c_layout.out_dist = std::ptrdiff_t(h + 1);
  c2c_->execute(z, spectra, c2c_layout, T(1), threads);
  for (std::size_t b = 0; b < layout.batch; ++b) {
    kernels.real_split(spectra + b * (h + 1), h, w_.data(), scale);
    for (std::size_t k = 0; k <= h; ++k) out[b * layout.out_dist + k * layout.out_stride] = spectra[b * (h + 1) + k];
  }
}

template <class T>
void RealFft<T>::c2r(const std::complex<T>* in, T* out, const RealLayout& layout, T scale,
                     unsigned threads) const {
  if (direct_.empty()) return c2r_by_fft(in, out, layout, scale, threads);
  if (threads > 1 && layout.batch > 1) return run_direct_threads(false, in, out, layout, scale, threads);
  run_direct(false, in, out, layout, scale, 0, layout.batch);
}

template <class T>
void RealFft<T>::c2r_by_fft(const std::complex<T>* in, T* out, const RealLayout& layout, T scale,
                            unsigned threads) const {
  const std::size_t n = n_, h = n / 2;
  core::Scratch scratch;
  if (n % 2 == 1) {
    // Odd: rebuild the Hermitian full spectrum, transform, keep the real parts.
    std::complex<T>* z = scratch.get<std::complex<T>>(n * layout.batch);
    for (std::size_t b = 0; b < layout.batch; ++b) {
      const std::complex<T>* x = in + b * layout.in_dist;
      z[b * n] = x[0].real();
      for (std::size_t k = 1; k <= h; ++k) {
        z[b * n + k] = x[k * layout.in_stride];
        z[b * n + n - k] = std::conj(x[k * layout.in_stride]);
      }
    }
    c2c_->execute(z, z, Layout{1, std::ptrdiff_t(n), 1, std::ptrdiff_t(n), layout.batch}, scale, threads);
    for (std::size_t b = 0; b < layout.batch; ++b)
      for (std::size_t k = 0; k < n; ++k) out[b * layout.out_dist + k * layout.out_stride] = z[b * n + k].real();
    return;
  }
  // Even: Z[k] = 2E[k] + i 2O[k] from the pairs (k, h-k), then a half-size backward c2c.
  const auto& kernels = *kernels_;
  std::complex<T>* z = scratch.get<std::complex<T>>(h * layout.batch);
  std::complex<T>* gathered = layout.in_stride == 1 ? nullptr : scratch.get<std::complex<T>>(h + 1);
  for (std::size_t b = 0; b < layout.batch; ++b) {
    const std::complex<T>* x = in + b * layout.in_dist;
    if (gathered != nullptr) {
      for (std::size_t k = 0; k <= h; ++k) gathered[k] = x[k * layout.in_stride];
      x = gathered;
    }
    kernels.real_merge(x, z + b * h, h, w_.data());
  }
  if (layout.out_stride == 1 && layout.out_dist % 2 == 0 && complex_aligned(out)) {
    c2c_->execute(z, reinterpret_cast<std::complex<T>*>(out),
                  Layout{1, std::ptrdiff_t(h), 1, layout.out_dist / 2, layout.batch}, scale, threads);
    return;
  }
  c2c_->execute(z, z, Layout{1, std::ptrdiff_t(h), 1, std::ptrdiff_t(h), layout.batch}, scale, threads);
  for (std::size_t b = 0; b < layout.batch; ++b)
    for (std::size_t k = 0; k < h; ++k) {
      out[b * layout.out_dist + 2 * k * layout.out_stride] = z[b * h + k].real();
      out[b * layout.out_dist + (2 * k + 1) * layout.out_stride] = z[b * h + k].imag();
    }
}

template <class T>
std::string RealFft<T>::describe() const {
  if (!direct_.empty()) return "real-direct(" + std::to_string(n_) + ")";
  return (n_ % 2 == 0 ? "real-even(" : "real-odd(") + c2c_->describe() + ")";
}

template class RealFft<float>;
template class RealFft<double>;

}  // namespace ripple::fft::detail
