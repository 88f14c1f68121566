// FFTW 3's precisions (fftwf_, fftw_, fftwl_) behind one typed interface, so the benchmark's
// runner is written once as a template over the real type. Plans are RAII objects bound to the
// buffers they were made for (FFTW's "new-array execute" is not used).
#pragma once

#include <fftw3.h>

#include <complex>
#include <string>
#include <utility>
#include <vector>

namespace ripple_bench {

/// Transform sizes of rank 1 to 3, row-major (FFTW's n[]).
using Dims = std::vector<int>;
inline int rank(const Dims& d) { return static_cast<int>(d.size()); }
inline int count(const Dims& d) {
  int n = 1;
  for (int x : d) n *= x;
  return n;
}
/// Elements of the half spectrum of a real transform: last axis n/2+1.
inline int half_count(const Dims& d) { return count(d) / d.back() * (d.back() / 2 + 1); }

/// FftwApi<T>: the FFTW entry points of real type T. "Many" plans, packed (c2c: or in an
/// embedding, the same on both sides).
template <class T>
struct FftwApi;

template <>
struct FftwApi<float> {
  using plan_t = fftwf_plan;
  using complex_t = fftwf_complex;
  static plan_t c2c(const Dims& dims, int batch, std::complex<float>* in, std::complex<float>* out, int sign,
                    unsigned flags, const Dims& embed = {}) {
    const int* e = embed.empty() ? nullptr : embed.data();
    const int n = count(embed.empty() ? dims : embed);
    return fftwf_plan_many_dft(rank(dims), dims.data(), batch, reinterpret_cast<complex_t*>(in), e, 1, n,
                           reinterpret_cast<complex_t*>(out), e, 1, n, sign, flags);
  }
  static plan_t r2c(const Dims& dims, int batch, float* in, std::complex<float>* out, unsigned flags) {
    return fftwf_plan_many_dft_r2c(rank(dims), dims.data(), batch, in, nullptr, 1, count(dims),
                               reinterpret_cast<complex_t*>(out), nullptr, 1, half_count(dims), flags);
  }
  static void execute(plan_t p) { fftwf_execute(p); }
  static void destroy(plan_t p) { fftwf_destroy_plan(p); }
  static bool import_wisdom(const std::string& file) {
    return fftwf_import_wisdom_from_filename(file.c_str()) != 0;
  }
  static bool export_wisdom(const std::string& file) {
    return fftwf_export_wisdom_to_filename(file.c_str()) != 0;
  }
};

template <>
struct FftwApi<double> {
  using plan_t = fftw_plan;
  using complex_t = fftw_complex;
  static plan_t c2c(const Dims& dims, int batch, std::complex<double>* in, std::complex<double>* out, int sign,
                    unsigned flags, const Dims& embed = {}) {
    const int* e = embed.empty() ? nullptr : embed.data();
    const int n = count(embed.empty() ? dims : embed);
    return fftw_plan_many_dft(rank(dims), dims.data(), batch, reinterpret_cast<complex_t*>(in), e, 1, n,
                           reinterpret_cast<complex_t*>(out), e, 1, n, sign, flags);
  }
  static plan_t r2c(const Dims& dims, int batch, double* in, std::complex<double>* out, unsigned flags) {
    return fftw_plan_many_dft_r2c(rank(dims), dims.data(), batch, in, nullptr, 1, count(dims),
                               reinterpret_cast<complex_t*>(out), nullptr, 1, half_count(dims), flags);
  }
  static void execute(plan_t p) { fftw_execute(p); }
  static void destroy(plan_t p) { fftw_destroy_plan(p); }
  static bool import_wisdom(const std::string& file) {
    return fftw_import_wisdom_from_filename(file.c_str()) != 0;
  }
  static bool export_wisdom(const std::string& file) {
    return fftw_export_wisdom_to_filename(file.c_str()) != 0;
  }
};

#if RIPPLE_BENCH_HAVE_FFTWL  // long double: the reference for the double-precision cases
template <>
struct FftwApi<long double> {
  using plan_t = fftwl_plan;
  using complex_t = fftwl_complex;
  static plan_t c2c(const Dims& dims, int batch, std::complex<long double>* in, std::complex<long double>* out, int sign,
                    unsigned flags, const Dims& embed = {}) {
    const int* e = embed.empty() ? nullptr : embed.data();
    const int n = count(embed.empty() ? dims : embed);
    return fftwl_plan_many_dft(rank(dims), dims.data(), batch, reinterpret_cast<complex_t*>(in), e, 1, n,
                           reinterpret_cast<complex_t*>(out), e, 1, n, sign, flags);
  }
  static plan_t r2c(const Dims& dims, int batch, long double* in, std::complex<long double>* out, unsigned flags) {
    return fftwl_plan_many_dft_r2c(rank(dims), dims.data(), batch, in, nullptr, 1, count(dims),
                               reinterpret_cast<complex_t*>(out), nullptr, 1, half_count(dims), flags);
  }
  static void execute(plan_t p) { fftwl_execute(p); }
  static void destroy(plan_t p) { fftwl_destroy_plan(p); }
  static bool import_wisdom(const std::string& file) {
    return fftwl_import_wisdom_from_filename(file.c_str()) != 0;
  }
  static bool export_wisdom(const std::string& file) {
    return fftwl_export_wisdom_to_filename(file.c_str()) != 0;
  }
};
#endif

/// Owns one FFTW plan of precision T; empty if FFTW could not plan.
template <class T>
class FftwPlan {
 public:
  using Api = FftwApi<T>;
  FftwPlan() = default;
  explicit FftwPlan(typename Api::plan_t p) : plan_(p) {}
  FftwPlan(FftwPlan&& o) noexcept : plan_(std::exchange(o.plan_, nullptr)) {}
  FftwPlan& operator=(FftwPlan&& o) noexcept {
    std::swap(plan_, o.plan_);
    return *this;
  }
  FftwPlan(const FftwPlan&) = delete;
  FftwPlan& operator=(const FftwPlan&) = delete;
  ~FftwPlan() {
    if (plan_ != nullptr) Api::destroy(plan_);
  }

  explicit operator bool() const { return plan_ != nullptr; }
  void execute() const { Api::execute(plan_); }

 private:
  typename Api::plan_t plan_ = nullptr;
};

/// Sets up FFTW's threading for float and double (call once, before any plan); plans made
/// afterwards use `threads` threads.
inline void fftw_setup_threads(int threads) {
  fftwf_init_threads();
  fftw_init_threads();
  fftwf_plan_with_nthreads(threads);
  fftw_plan_with_nthreads(threads);
}

}  // namespace ripple_bench
