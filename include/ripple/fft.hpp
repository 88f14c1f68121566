// Fast Fourier transforms: plans (made once, executed many times) and one-shot functions.
//
// Conventions (numpy's):
//   forward   X[k] = sum_n x[n] e^{-2 pi i k n / N}
//   backward  x[n] = sum_k X[k] e^{+2 pi i k n / N}
// Normalization scales the result: Norm::backward (default) scales the backward transform by
// 1/N, Norm::ortho scales both directions by 1/sqrt(N), Norm::forward scales the forward
// transform by 1/N. Complex data is interleaved (std::complex<T>).
//
// Real transforms: r2c takes N reals and returns N/2+1 complex values (the non-negative
// frequencies); c2r takes N/2+1 complex values and returns N reals, ignoring the imaginary
// parts of X[0] and (for even N) X[N/2], as numpy.fft.irfft does.
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ripple/array.hpp"

namespace ripple::fft {

enum class Kind { c2c, r2c, c2r };
enum class Precision { f32, f64 };
/// Sign of the exponent: forward is e^{-2 pi i kn/N}, backward e^{+2 pi i kn/N}.
enum class Direction { forward, backward };
enum class Norm { backward, ortho, forward };

/// What a plan transforms and where the data lives (FFTW's "many" / cuFFT's advanced layout).
///
/// `shape` holds the logical transform sizes, rank 1, 2 or 3, row-major (the last axis varies
/// fastest). For r2c/c2r the sizes are those of the real signal; the complex side has the last
/// axis halved to shape.back()/2+1 (numpy's rfftn: r2c along the last axis, c2c along the
/// others). `batch` transforms are done; transform b, element i lives at
///     base + b * dist + i * stride        (counted in elements of that side's type)
/// where i is the row-major index of the element in that side's embedding: `in_embed` /
/// `out_embed`, the sizes of the array the transforms lie in (FFTW's inembed/onembed, cuFFT's),
/// each at least the side's size on its axis; empty means the side's own shape (no embedding).
/// E.g. an in-place r2c of rank 2 or 3 pads its rows of reals: in_embed = {.., n/2+1 doubled}.
/// Strides must be >= 1. A dist of 0 means "packed": stride * (elements of the embedding). The
/// output layout must not map two output elements to the same address (decided exactly; the
/// error names two elements that meet; layouts so tangled that the check passes its budget are
/// refused saying so, while those whose batch and axes nest, as transforms one after another,
/// interleaved or in an embedding's gaps, are always decided at once).
struct PlanDesc {
  std::vector<std::size_t> shape;
  std::size_t batch = 1;
  Kind kind = Kind::c2c;
  Precision precision = Precision::f32;
  /// For c2c; r2c is always forward and c2r always backward (a contradicting value throws).
  Direction direction = Direction::forward;
  Norm norm = Norm::backward;
  std::ptrdiff_t in_stride = 1;
  std::ptrdiff_t in_dist = 0;
  std::ptrdiff_t out_stride = 1;
  std::ptrdiff_t out_dist = 0;
  /// Empty, or one size per axis of shape: see above. Axis 0's sets only the packed distance.
  std::vector<std::size_t> in_embed;
  std::vector<std::size_t> out_embed;
  /// Worker threads used by execute(); 0 means ripple::default_threads().
  unsigned threads = 0;
};

namespace detail {
class PlanImpl;
}

/// An immutable FFT plan: owns its twiddle tables and sub-plans. Executing one plan from several
/// threads at once (on different buffers) is safe, and so is creating plans concurrently.
/// execute() never allocates after its first call on a thread and never re-plans.
class Plan {
 public:
  /// Validates `desc` and builds the plan. Throws InvalidArgument naming the bad field
  /// (rank 0 or above 3, zero or overflowing sizes, zero batch, bad strides or embeddings,
  /// aliasing output layout).
  explicit Plan(const PlanDesc& desc);

  const PlanDesc& desc() const;
  /// Number of input / output elements the layout spans per call (what the buffers must hold,
  /// counted in elements of the input / output type).
  std::size_t input_span() const;
  std::size_t output_span() const;
  /// Short human-readable description of the chosen algorithm, e.g.
  /// "c2c f32 n=1024: wide(8x8x4 | 4)" (the radices of each stage and how they are combined).
  std::string describe() const;

  /// Executes the plan. The overload must match the plan's kind and precision, else
  /// InvalidArgument. `in` and `out` may be the same pointer (in-place) but must not
  /// otherwise overlap. Null pointers throw InvalidArgument.
  void execute(const std::complex<float>* in, std::complex<float>* out) const;
  void execute(const std::complex<double>* in, std::complex<double>* out) const;
  void execute(const float* in, std::complex<float>* out) const;
  void execute(const double* in, std::complex<double>* out) const;
  void execute(const std::complex<float>* in, float* out) const;
  void execute(const std::complex<double>* in, double* out) const;

 private:
  std::shared_ptr<const detail::PlanImpl> impl_;
};

/// One-shot transforms with numpy.fft semantics along a 1-D signal. Plans are cached and
/// reused across calls. `n` is numpy's n, the transform length: the input is cut or
/// zero-padded to n values first (0, which numpy refuses: its own length).
std::vector<std::complex<float>> fft(std::span<const std::complex<float>> x, Norm norm = Norm::backward);
std::vector<std::complex<double>> fft(std::span<const std::complex<double>> x, Norm norm = Norm::backward);
std::vector<std::complex<float>> fft(std::span<const std::complex<float>> x, std::size_t n, Norm norm = Norm::backward);
std::vector<std::complex<double>> fft(std::span<const std::complex<double>> x, std::size_t n,
                                      Norm norm = Norm::backward);
std::vector<std::complex<float>> ifft(std::span<const std::complex<float>> x, Norm norm = Norm::backward);
std::vector<std::complex<double>> ifft(std::span<const std::complex<double>> x, Norm norm = Norm::backward);
std::vector<std::complex<float>> ifft(std::span<const std::complex<float>> x, std::size_t n,
                                      Norm norm = Norm::backward);
std::vector<std::complex<double>> ifft(std::span<const std::complex<double>> x, std::size_t n,
                                       Norm norm = Norm::backward);
std::vector<std::complex<float>> rfft(std::span<const float> x, Norm norm = Norm::backward);
std::vector<std::complex<double>> rfft(std::span<const double> x, Norm norm = Norm::backward);
std::vector<std::complex<float>> rfft(std::span<const float> x, std::size_t n, Norm norm = Norm::backward);
std::vector<std::complex<double>> rfft(std::span<const double> x, std::size_t n, Norm norm = Norm::backward);
/// `n` is the length of the real output; 0 means 2 * (x.size() - 1) as numpy. The input is
/// truncated or zero-padded to n/2+1 values.
std::vector<float> irfft(std::span<const std::complex<float>> x, std::size_t n = 0, Norm norm = Norm::backward);
std::vector<double> irfft(std::span<const std::complex<double>> x, std::size_t n = 0, Norm norm = Norm::backward);

/// numpy.fft.fftn / ifftn / rfftn / irfftn: transforms over `axes` of an n-dimensional array
/// (a view with any strides; the result is C-ordered). Empty `axes` means every axis; negative
/// axes count from the end; axes must be distinct. `s` is numpy's s: one length per axis in
/// `axes` (where `axes` is empty, the last s.size() axes), the input cut or zero-padded to it
/// along that axis before the transform; empty means the input's lengths. The norm applies to
/// the product of the transformed sizes, as numpy. rfftn transforms the last axis in `axes`
/// real-to-complex (its length becomes m/2+1) and the others complex; irfftn does the inverse:
/// complex backward transforms over every axis but the last in `axes`, then complex-to-real
/// along it, with `n` real outputs there (numpy's s[-1], which s's last entry also gives; 0
/// means 2*(m-1); the input along that axis is cut or zero-padded to n/2+1). numpy's s entry
/// -1 (the axis's own length) has no equivalent: give that length. s without axes is numpy's
/// older meaning, which numpy 2 deprecates. Throws InvalidArgument for a 0-d input, a transform
/// length of 0 (after s), a bad or repeated axis, s not one length per axis, an s entry of 0,
/// n and s's last entry differing, a result too large for memory (a huge s entry).
Array<std::complex<float>> fftn(ArrayView<const std::complex<float>> x, const std::vector<int>& axes = {},
                                Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<std::complex<double>> fftn(ArrayView<const std::complex<double>> x, const std::vector<int>& axes = {},
                                 Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<std::complex<float>> ifftn(ArrayView<const std::complex<float>> x, const std::vector<int>& axes = {},
                                 Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<std::complex<double>> ifftn(ArrayView<const std::complex<double>> x, const std::vector<int>& axes = {},
                                  Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<std::complex<float>> rfftn(ArrayView<const float> x, const std::vector<int>& axes = {},
                                 Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<std::complex<double>> rfftn(ArrayView<const double> x, const std::vector<int>& axes = {},
                                  Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<float> irfftn(ArrayView<const std::complex<float>> x, const std::vector<int>& axes = {}, std::size_t n = 0,
                    Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});
Array<double> irfftn(ArrayView<const std::complex<double>> x, const std::vector<int>& axes = {}, std::size_t n = 0,
                     Norm norm = Norm::backward, const std::vector<std::size_t>& s = {});

}  // namespace ripple::fft
