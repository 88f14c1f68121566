// The CPU executor's entry points for FFT plans, one table of functions per element type,
// chosen once for the best SIMD target of this machine (Highway dynamic dispatch).
#pragma once

#include <complex>
#include <cstddef>

#include "core/page_offsets.hpp"
#include "fft/lane_fft.hpp"

namespace ripple::cpu {

/// A panel: `lanes` complex sequences of length plan->n (any number; the kernel takes them W at
/// a time), sequence l element e at
///   src + l * src_lane_stride + e * src_elem_stride   (complex units),
/// are transformed together; output element e of lane l (times lane_twiddles[e*twiddle_elem_stride
/// + l] if given, times scale) goes to dst + l * dst_lane_stride + e * dst_elem_stride.
/// scratch: panel_scratch_values<T>(n, W) values (W = FftKernels::lanes), aligned to 64 bytes;
/// the kernel places its three buffers of n * W complex values in it apart from src, dst and
/// the twiddles (core::place_apart).
template <class T>
struct PanelArgs {
  const fft::detail::LaneFft<T>* plan = nullptr;
  std::size_t lanes = 0;
  const std::complex<T>* src = nullptr;
  std::ptrdiff_t src_lane_stride = 1, src_elem_stride = 1;
  std::complex<T>* dst = nullptr;
  std::ptrdiff_t dst_lane_stride = 1, dst_elem_stride = 1;
  const std::complex<T>* lane_twiddles = nullptr;
  std::ptrdiff_t twiddle_elem_stride = 0;
  T scale = 1;
  T* scratch = nullptr;
};

/// One transform of size N = M * W (W = FftKernels::lanes, M >= 2) in registers:
/// x[l + W*m] is read as M vectors (lane l), a lane FFT of size M (plan) runs down the lanes,
/// Y[k1][l] is multiplied by w_N^{l*k1}, then W x W blocks are transposed
/// and a DFT of size W across them gives X[k1 + M*k2]. Strides in complex units. scratch:
/// wide_scratch_values<T>(M * W) values, aligned to 64 bytes, where the kernel places its two
/// buffers of M * W complex values as the panel kernel does.
template <class T>
struct WideArgs {
  const fft::detail::LaneFft<T>* plan = nullptr;
  const std::complex<T>* src = nullptr;
  std::ptrdiff_t src_stride = 1;
  std::complex<T>* dst = nullptr;
  std::ptrdiff_t dst_stride = 1;
  /// w_N^{l*k1} at [k1*W + l]; or, for the unrolled kernels where wide_twiddles_expanded, as
  /// 2W values per k1: the W real parts, then the W imaginary parts, each twice over, stored
  /// interleaved like the data ((re, re), then (-im, im)).
  const std::complex<T>* twiddles = nullptr;
  /// The split kernels' sub-transform (see C2cWide): the lane FFT of each of the first pass's
  /// blocks. Null for the others.
  const fft::detail::LaneFft<T>* sub_plan = nullptr;
  T scale = 1;
  T* scratch = nullptr;
};

/// Whether the unrolled wide kernel of a transform of n points takes its twiddles expanded
/// (see WideArgs::twiddles): a multiplication then needs one shuffle where it needed four
/// shuffles and a sign flip, for a table twice the size. Measured (one thread, AVX-512 Zen 4,
/// A/B in one process): f64 N = 64-256 and f32 N = 256-512 0.90-0.94x the time; f32 N = 1024,
/// whose doubled table left L1, 1.13x.
/// Only on vectors of 64 bytes (x86's 32 registers): on AVX2's 16 the compiler then loaded a
/// whole unrolled transform's input at once, and a batch streamed from memory ran slower
/// (f32 N = 64 x 131072 1.07-1.15x the time). lanes: complex values per vector.
template <class T>
constexpr bool wide_twiddles_expanded(std::size_t n, std::size_t lanes) {
  return lanes * sizeof(std::complex<T>) >= 64 && n * sizeof(std::complex<T>) <= (std::size_t{4} << 10);
}

/// A batch of real transforms of n <= 2W points (W = FftKernels::lanes: the n values fill at
/// most one vector) by their DFT matrix. r2c: X[k] = sum_i x[i] w_n^{ik} for k <= n/2; c2r:
/// x[j] = sum_{k <= n/2} c_k Re(X[k] w_n^{-jk}), c_k = 1 at k = 0 and k = n/2, else 2, the
/// imaginary parts of X[0] and (even n) X[n/2] ignored, as numpy. table, vectors of 2W values,
/// zero past the last output: r2c, for each i < n, one of the (Re, Im) pairs of w_n^{ik} over
/// k <= n/2, but for n = 2W, whose n + 2 values would not fit, Re w_n^{i n/2} = (-1)^i in the
/// place of Im w_n^0 = 0; c2r, for each k <= n/2, one of c_k Re and one of c_k Im of w_n^{jk}
/// over j (w_n = e^{-2 pi i/n}). src and dst are real or complex as the direction has them;
/// strides and distances count their elements.
template <class T>
struct RealDirectArgs {
  std::size_t n = 0, batch = 1;
  const T* table = nullptr;
  const void* src = nullptr;
  std::ptrdiff_t src_stride = 1, src_dist = 0;
  void* dst = nullptr;
  std::ptrdiff_t dst_stride = 1, dst_dist = 0;
  T scale = 1;
};

/// Scratch, in values of T, of a panel kernel for lane FFTs of n points on W lanes.
template <class T>
constexpr std::size_t panel_scratch_values(std::size_t n, std::size_t w) {
  return core::apart_region_bytes(3, n * w * sizeof(std::complex<T>)) / sizeof(T);
}

/// Scratch, in values of T, of the wide kernel for a transform of n points.
template <class T>
constexpr std::size_t wide_scratch_values(std::size_t n) {
  return core::apart_region_bytes(2, n * sizeof(std::complex<T>)) / sizeof(T);
}

/// Fixed panel kernels of lane FFTs whose radices are all at most this take W sequences per
/// vector; a larger prime's (its butterfly O(p^2), unrolled) runs one sequence per vector.
inline constexpr int kMaxFixedGroupRadix = 17;

template <class T>
using WideKernel = void (*)(const WideArgs<T>&);
template <class T>
using PanelKernel = void (*)(const PanelArgs<T>&);

/// Real transforms of even size n = 2h through a complex one of size h (w[k] = w_n^k, k <= h/2,
/// forward sign). split: x[0..h) holds Z = FFT_h(x_even + i x_odd) on entry and X[0..h] (times
/// scale) on return. merge: from X[0..h] (contiguous) builds z[0..h) with 2E[k] + 2iO[k], whose
/// backward FFT_h is the real signal times n (imaginary parts of X[0], X[h] are ignored).
template <class T>
struct FftKernels {
  std::size_t lanes;  // complex values per vector
  PanelKernel<T> panel;
  /// A panel kernel compiled for one lane FFT shape (radices in pass order), every pass
  /// unrolled so each transform stays in registers: W sequences per full vector, the leftover
  /// ones one per vector. Same arguments as `panel` but scratch is not used; null where none
  /// is compiled.
  PanelKernel<T> (*panel_fixed)(const int* radices, std::size_t count);
  WideKernel<T> wide;
  /// A wide kernel compiled for one lane FFT shape (radices in pass order, as LaneFft::passes),
  /// with every pass unrolled in registers; null where none is compiled.
  WideKernel<T> (*wide_fixed)(const int* radices, std::size_t count);
  void (*real_split)(std::complex<T>* x, std::size_t h, const std::complex<T>* w, T scale);
  void (*real_merge)(const std::complex<T>* x, std::complex<T>* z, std::size_t h, const std::complex<T>* w);
  void (*real_direct_r2c)(const RealDirectArgs<T>& args);
  void (*real_direct_c2r)(const RealDirectArgs<T>& args);
};

/// The fixed-shape kernel lookups (cpu/fft_fixed_kernels_f32*.cpp, _f64*.cpp), for the best target this CPU
/// supports: the kernel for a lane FFT with exactly these radices, or null.
WideKernel<float> find_wide_fixed_f32(const int* radices, std::size_t count);
WideKernel<double> find_wide_fixed_f64(const int* radices, std::size_t count);
PanelKernel<float> find_panel_fixed_f32(const int* radices, std::size_t count);
PanelKernel<double> find_panel_fixed_f64(const int* radices, std::size_t count);

/// Kernels for the best target this CPU supports (looked up once, then cached).
const FftKernels<float>& fft_kernels_f32();
const FftKernels<double>& fft_kernels_f64();

/// The same lookups compiled for AVX2 (x86 builds that compile that target), behind the
/// narrower tables below.
WideKernel<float> find_wide_fixed_f32_avx2(const int* radices, std::size_t count);
WideKernel<double> find_wide_fixed_f64_avx2(const int* radices, std::size_t count);
PanelKernel<float> find_panel_fixed_f32_avx2(const int* radices, std::size_t count);
/// The narrower double table's unrolled panels: AVX-512 on 256-bit vectors (32 registers)
/// where the CPU has AVX-512 and that target is compiled, else AVX2's.
PanelKernel<double> find_panel_fixed_f64_narrow(const int* radices, std::size_t count);

/// Kernels on narrower vectors than the best target's, where this CPU has such a target and
/// it is compiled (AVX2 on an AVX-512 CPU); null elsewhere. Short sizes that are not a
/// multiple of the best target's lanes still fit these (f32 N = 60 on AVX-512).
const FftKernels<float>* narrow_fft_kernels_f32();
const FftKernels<double>* narrow_fft_kernels_f64();

/// Float kernels on 128-bit vectors (two complex values) where the best target's are wider,
/// else null: the wide kernel then takes N = 2 mod 4 too. Its fixed wide kernels are the odd
/// lane sizes' only (find_wide_fixed_f32_xmm), and it has no fixed panels.
const FftKernels<float>* narrowest_fft_kernels_f32();
WideKernel<float> find_wide_fixed_f32_xmm(const int* radices, std::size_t count);

}  // namespace ripple::cpu
