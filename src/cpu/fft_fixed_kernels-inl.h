// Fixed-shape FFT kernels: the lane FFT's passes unrolled at compile time for the radix
// sequences of short sizes, so a whole transform lives in registers. Compiled once per Highway
// target in translation units of their own, one per precision and kind (wide, panel:
// cpu/fft_fixed_kernels_f32.cpp, _f32_panel.cpp, _f64.cpp, _f64_panel.cpp): they are most of
// the library's compile time, and apart they build in parallel.

// Per-target include guard (Highway's convention for -inl.h files).
#if defined(RIPPLE_CPU_FFT_FIXED_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef RIPPLE_CPU_FFT_FIXED_KERNELS_INL_H_
#undef RIPPLE_CPU_FFT_FIXED_KERNELS_INL_H_
#else
#define RIPPLE_CPU_FFT_FIXED_KERNELS_INL_H_
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <initializer_list>

#include "cpu/fft_lane_kernels-inl.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace ripple::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Short transforms held in registers: RunWide for a lane FFT whose radices R... are known at
// compile time. Every pass is unrolled over local arrays, so no scratch, no loop or dispatch
// overhead, and (for up to ~16 vectors) no memory traffic between the passes.

template <std::size_t Q, int... R>
constexpr std::size_t FixedL1() {
  constexpr int kRadix[] = {R...};
  std::size_t l1 = 1;
  for (std::size_t q = 0; q < Q; ++q) l1 *= std::size_t(kRadix[q]);
  return l1;
}

// Every pass of a lane FFT with radices R..., over the local arrays buf[2][M]: the first pass
// reads through `first`, the last writes through `last` (which may keep results in buf).
template <int... R, class D, class First, class Last>
HWY_INLINE void RunFixedPasses(D d, const LaneFft<hn::TFromD<D>>& plan, hn::Vec<D> (*buf)[(std::size_t(R) * ...)],
                               const First& first, const Last& last) {
  using V = hn::Vec<D>;
  constexpr std::size_t kM = (std::size_t(R) * ...);
  constexpr std::size_t kPasses = sizeof...(R);
  constexpr int kRadix[] = {R...};
  ForEachIndex<kPasses>([&](auto q) RIPPLE_FORCE_INLINE_LAMBDA {
    constexpr std::size_t kQ = decltype(q)::value;
    constexpr std::size_t kL1 = FixedL1<kQ, R...>();
    constexpr std::size_t kIdo = kM / (kL1 * std::size_t(kRadix[kQ]));
    V* const to = buf[kQ % 2];
    const V* const from = buf[(kQ + 1) % 2];
    const auto load_buf = [from](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA { return from[e]; };
    const auto store_buf = [to](std::size_t e, V v) RIPPLE_FORCE_INLINE_LAMBDA { to[e] = v; };
    const Pass& pass = plan.passes[kQ];
    if constexpr (kQ == 0 && kQ + 1 == kPasses) {
      RunPass<kRadix[kQ], kL1, kIdo>(d, plan, pass, first, last);
    } else if constexpr (kQ == 0) {
      RunPass<kRadix[kQ], kL1, kIdo>(d, plan, pass, first, store_buf);
    } else if constexpr (kQ + 1 == kPasses) {
      RunPass<kRadix[kQ], kL1, kIdo>(d, plan, pass, load_buf, last);
    } else {
      RunPass<kRadix[kQ], kL1, kIdo>(d, plan, pass, load_buf, store_buf);
    }
  });
}

// A transform of kM < W vectors finishes in one partial block: its vector k2 holds the outputs
// X[kM*k2 + l], l < kM, which stored as they are make W pieces of kM values. A reader's whole
// vectors then straddle two pieces, and the store buffer cannot forward those loads: r2c-f32
// N = 16 (a complex transform of 8 on AVX2's 4 lanes), whose real split reads its output right
// away, spent most of its ~27 ns there. Contiguous outputs are joined in registers into kM whole
// vectors instead; output j takes its values from vectors j*W/kM and the next.
template <std::size_t kM, std::size_t kW>
constexpr bool JoinsFromTwo() {
  for (std::size_t j = 0; j < kM; ++j) {
    if ((j * kW + kW - 1) / kM > j * kW / kM + 1) return false;
  }
  return true;
}

// TableLookupLanes indices of whole output kJ's values from its first source (kSecond false)
// or from the next one; lanes the other source fills are 0.
template <class TI, std::size_t kLanes, std::size_t kM, std::size_t kJ, bool kSecond>
constexpr std::array<TI, kLanes> JoinIndices() {
  constexpr std::size_t kW = kLanes / 2;
  std::array<TI, kLanes> idx{};
  for (std::size_t i = 0; i < kW; ++i) {
    const std::size_t k = kJ * kW + i;
    if ((k / kM != kJ * kW / kM) != kSecond) continue;
    idx[2 * i] = TI(2 * (k % kM));
    idx[2 * i + 1] = TI(2 * (k % kM) + 1);
  }
  return idx;
}

template <class TI, std::size_t kLanes, std::size_t kM, std::size_t kJ, bool kSecond>
alignas(64) inline constexpr std::array<TI, kLanes> kJoinIndices = JoinIndices<TI, kLanes, kM, kJ, kSecond>();

template <std::size_t kM, class D, class V = hn::Vec<D>>
HWY_INLINE void StoreJoined(D d, const V* v, V scale, hn::TFromD<D>* out) {
  using TI = hwy::MakeSigned<hn::TFromD<D>>;
  constexpr std::size_t kLanes = hn::MaxLanes(D()), kW = kLanes / 2;
  ForEachIndex<kM>([&](auto j) RIPPLE_FORCE_INLINE_LAMBDA {
    constexpr std::size_t kJ = decltype(j)::value;
    constexpr std::size_t kFirst = kJ * kW / kM;
    V joined;
    if constexpr (2 * kM == kW) {
      joined = hn::ConcatLowerLower(d, v[kFirst + 1], v[kFirst]);
    } else {
      constexpr std::size_t kFromFirst = (kFirst + 1) * kM - kJ * kW;  // complex values
      const V lo = hn::TableLookupLanes(v[kFirst], hn::SetTableIndices(d, kJoinIndices<TI, kLanes, kM, kJ, false>.data()));
      const V hi = hn::TableLookupLanes(v[kFirst + 1], hn::SetTableIndices(d, kJoinIndices<TI, kLanes, kM, kJ, true>.data()));
      joined = hn::IfThenElse(hn::FirstN(d, 2 * kFromFirst), lo, hi);
    }
    hn::StoreU(hn::Mul(joined, scale), d, out + kJ * kLanes);
  });
}

template <class D, int... R>
void RunWideFixed(const WideArgs<hn::TFromD<D>>& a) {
  using T = hn::TFromD<D>;
  const D d;
  using V = hn::Vec<D>;
  constexpr std::size_t kW = hn::MaxLanes(D()) / 2;
  constexpr std::size_t kM = (std::size_t(R) * ...);
  constexpr std::size_t kPasses = sizeof...(R);
  const std::size_t L = hn::Lanes(d);
  V buf[2][kM];
  const LaneAccess<D> src(d, a.src_stride, kW);
  const T* in = reinterpret_cast<const T*>(a.src);
  const std::ptrdiff_t src_step = 2 * std::ptrdiff_t(kW) * a.src_stride;
  const T* tw = reinterpret_cast<const T*>(a.twiddles);
  const V sign_even = hn::OddEven(hn::Zero(d), hn::Set(d, T(-0.0)));
  const auto load_src = [d, src, in, src_step](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA {
    return src.load(d, in + std::ptrdiff_t(e) * src_step);
  };
  // The last pass applies the wide twiddles w_N^{l*k1} on its way out, into buf. Their layout
  // is known at compile time: choosing it at run time here, GCC moved the AVX2 kernels' spilled
  // vectors in 16-byte pieces, whose reloads whole stalled (f32 N = 64 on 4 lanes took 2x).
  V* const y_out = buf[(kPasses - 1) % 2];
  const auto store_twiddled = [d, y_out, tw, L, sign_even](std::size_t e, V v) RIPPLE_FORCE_INLINE_LAMBDA {
    if constexpr (wide_twiddles_expanded<T>(kM * kW, kW)) {
      y_out[e] = MulTwiddle(d, v, hn::Load(d, tw + 2 * e * L), hn::Load(d, tw + (2 * e + 1) * L));
    } else {
      y_out[e] = MulLaneTwiddle(d, v, hn::Load(d, tw + e * L), sign_even);
    }
  };
  RunFixedPasses<R...>(d, *a.plan, buf, load_src, store_twiddled);
  const V* const y = buf[(kPasses - 1) % 2];

  const Rotator<D> rot(d, a.plan->forward);
  const V scale = hn::Set(d, a.scale);
  T* out = reinterpret_cast<T*>(a.dst);
  const LaneAccess<D> dst(d, a.dst_stride, kW);
  // As RunWide: transpose each W x W block of Y, size-W butterfly, store X[k1 + M*k2].
  const auto finish = [&](std::size_t g, std::size_t rows, const LaneAccess<D>& to) RIPPLE_FORCE_INLINE_LAMBDA {
    V v[kW];
    for (std::size_t r = 0; r < kW; ++r) v[r] = r < rows ? y[g + r] : hn::Zero(d);
    TransposeComplex(d, v);
    FinishWideBlock(d, rot, v, scale, g, kM, to, out, a.dst_stride);
  };
  if constexpr (kM < kW && JoinsFromTwo<kM, kW>()) {
    if (a.dst_stride == 1 && hn::Lanes(d) == 2 * kW) {
      V v[kW];
      for (std::size_t r = 0; r < kW; ++r) v[r] = r < kM ? y[r] : hn::Zero(d);
      TransposeComplex(d, v);
      WideBlockButterfly(d, rot, v);
      return StoreJoined<kM>(d, v, scale, out);
    }
  }
  ForEachIndex<kM / kW>([&](auto b) RIPPLE_FORCE_INLINE_LAMBDA { finish(decltype(b)::value * kW, kW, dst); });
  if constexpr (kM % kW != 0) finish(kM - kM % kW, kM % kW, LaneAccess<D>(d, a.dst_stride, kM % kW));
}

// A lane FFT of m = r * M points whose M = R... points have an unrolled kernel and m does not:
// its first pass (radix r, from the plan) splits it into r blocks of M contiguous vectors,
// each then a sub-transform (a.sub_plan) of its own, unrolled and held in a stack array
// while it runs; block j's output k lands in Y as element j + r*k. Unrolled whole, 128 and
// more vectors ran no faster than the generic kernel or slower, while the generic kernel
// took 1.2-1.6x the unrolled one's time at the same radices and 32-128 vectors. Split, against
// the generic kernel in one process (one thread, AVX-512 Zen 4, best of 60 rounds, two runs):
// f64 N = 512 (2 x 64 blocks) 0.97-1.01x the time, 1024 0.93x, 2048 0.88x; f32 N = 2048
// 0.98x, 4096 0.91x; AVX2 forced on the same machine, f64 N = 256 0.86x, 512 0.91x, 1024 0.91x.
template <class D, int... R>
void RunWideSplit(const WideArgs<hn::TFromD<D>>& a) {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  const D d;
  constexpr std::size_t kM = (std::size_t(R) * ...);
  const std::size_t L = hn::Lanes(d), w = L / 2, m = a.plan->n, r = m / kM;
  const auto buffers = core::place_apart<2>(reinterpret_cast<std::byte*>(a.scratch), m * L * sizeof(T),
                                            std::array<const void*, 3>{a.src, a.dst, a.twiddles});
  T* const blocks = reinterpret_cast<T*>(buffers[0]);
  T* const y = reinterpret_cast<T*>(buffers[1]);
  const LaneAccess<D> src(d, a.src_stride, w);
  const T* in = reinterpret_cast<const T*>(a.src);
  const std::ptrdiff_t src_step = 2 * std::ptrdiff_t(w) * a.src_stride;
  const auto load = [d, &src, in, src_step](std::size_t e) { return src.load(d, in + std::ptrdiff_t(e) * src_step); };
  const auto store = [d, blocks, L](std::size_t e, V v) { hn::Store(v, d, blocks + e * L); };
  const Pass& first = a.plan->passes[0];
  const T* tw = reinterpret_cast<const T*>(a.twiddles);
  const V sign_even = hn::OddEven(hn::Zero(d), hn::Set(d, T(-0.0)));
  // Block j's sub-transform, reading its input through load_block, writing into Y with the
  // wide twiddles w_N^{l*k1}, as in RunWideOn.
  const auto sub_transform = [&](std::size_t j, const auto& load_block) HWY_ATTR {
    V buf[2][kM];
    const auto store_y = [d, y, tw, L, sign_even, j, r](std::size_t e, V v) RIPPLE_FORCE_INLINE_LAMBDA {
      const std::size_t at = (j + r * e) * L;
      hn::Store(MulLaneTwiddle(d, v, hn::Load(d, tw + at), sign_even), d, y + at);
    };
    RunFixedPasses<R...>(d, *a.sub_plan, buf, load_block, store_y);
  };
  if (first.radix == 2) {
    // Each block's input is its half of the radix-2 butterfly, computed as it is loaded: no
    // pass of stores and reloads through the blocks (f64 N = 512 0.72-0.74 -> 0.69 us, FFTW
    // 0.59; one thread, AVX-512 Zen 4, alternated processes). A radix 4 so fused, each block
    // loading all four inputs, took 1.3x the time of its separate pass (f64 N = 1024, f32 2048).
    const T* tw_re = a.plan->twiddle_re.data() + first.twiddle_offset;
    const T* tw_im = a.plan->twiddle_im_alt.data() + first.twiddle_offset * LaneFft<T>::kImAltStride;
    // By value, as RunPass copies its accessors: through references, the compiler reloaded
    // the captured pointers after every store.
    const auto load_in = [d, src, in, src_step](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA {
      return src.load(d, in + std::ptrdiff_t(e) * src_step);
    };
    sub_transform(0, [load_in](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA { return hn::Add(load_in(e), load_in(e + kM)); });
    sub_transform(1, [d, load_in, tw_re, tw_im](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA {
      const V v = hn::Sub(load_in(e), load_in(e + kM));
      if (e == 0) return v;  // the pass's twiddle of output 1, element e, is entry e
      return MulTwiddle(d, v, hn::Set(d, tw_re[e]), hn::LoadDup128(d, tw_im + e * LaneFft<T>::kImAltStride));
    });
    return FinishWide(d, a, y, m);
  }
  switch (first.radix) {  // the first of three passes (see PassAt)
    case 4: RunPass<4, 0, 0, PassAt::first>(d, *a.plan, first, load, store); break;
    case 8: RunPass<8, 0, 0, PassAt::first>(d, *a.plan, first, load, store); break;
    default: return;  // the lookup only matches these
  }
  for (std::size_t j = 0; j < r; ++j) {
    const T* block = blocks + j * kM * L;
    sub_transform(j, [d, block, L](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA { return hn::Load(d, block + e * L); });
  }
  FinishWide(d, a, y, m);
}

// Longest leftover sequence whose vectors of one complex value are read and written inside the
// unrolled passes, as whole groups are (see RunFixedGroup).
inline constexpr std::size_t kDirectLeftoverMax = 8;

// A panel of short transforms, each whole in registers, every pass unrolled: W sequences at a
// time in full vectors, then the rest one at a time on vectors of one complex value (no idle
// lanes). Lane twiddles and scale are applied on the way out; no scratch. For sizes the wide
// kernel cannot take (N not a multiple of W, or below 2W), small batches, and the sweeps of
// the four-step.
template <class D, int... R>
HWY_INLINE void RunFixedGroup(D d, const PanelArgs<hn::TFromD<D>>& a, std::size_t first, std::size_t count) {
  using T = hn::TFromD<D>;
  using V = hn::Vec<D>;
  constexpr std::size_t kM = (std::size_t(R) * ...);
  const LaneAccess<D> src(d, a.src_lane_stride, count);
  const LaneAccess<D> dst(d, a.dst_lane_stride, count);
  const T* in = reinterpret_cast<const T*>(a.src + std::ptrdiff_t(first) * a.src_lane_stride);
  T* out = reinterpret_cast<T*>(a.dst + std::ptrdiff_t(first) * a.dst_lane_stride);
  const T* tw = a.lane_twiddles == nullptr ? nullptr : reinterpret_cast<const T*>(a.lane_twiddles + first);
  const std::ptrdiff_t src_step = 2 * a.src_elem_stride, dst_step = 2 * a.dst_elem_stride;
  const std::ptrdiff_t tw_step = 2 * a.twiddle_elem_stride;
  const V scale = hn::Set(d, a.scale);
  const bool scaled = a.scale != T(1);
  const V sign_even = hn::OddEven(hn::Zero(d), hn::Set(d, T(-0.0)));
  // Whole lane groups read and write their sequences inside the unrolled passes. Staged
  // through local arrays by loops that are not unrolled, each element took a store and a
  // stalled reload on the stack: a quarter to two fifths of the four-step's time (f64 N = 243
  // on AVX2 lanes, one thread, AVX-512 Zen 4: 0.77-1.04 -> 0.59-0.60 us, FFTW 0.62; 729-16807
  // 0.8-0.95x). Vectors of one complex value (the leftovers of a group) keep the
  // loops: unrolled as well, the access code, which branches on the layout, doubled this
  // file's compile time (114 s -> 233 s; groups alone 153 s). Except the shortest sequences
  // (kDirectLeftoverMax), whose few copies of it cost little to compile, and where the staging
  // loops were most of a single transform's time.
  V buf[2][kM];
  const auto read = [&](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA {
    return src.load(d, in + std::ptrdiff_t(e) * src_step);
  };
  const auto write = [&](std::size_t e, V y) RIPPLE_FORCE_INLINE_LAMBDA {
    if (tw != nullptr) y = MulLaneTwiddle(d, y, hn::LoadU(d, tw + std::ptrdiff_t(e) * tw_step), sign_even);
    if (scaled) y = hn::Mul(y, scale);
    dst.store(d, y, out + std::ptrdiff_t(e) * dst_step);
  };
  if constexpr (hn::MaxLanes(D()) > 2 || kM <= kDirectLeftoverMax) {
    RunFixedPasses<R...>(d, *a.plan, buf, read, write);
  } else {
    V in_vec[kM], out_vec[kM];
#pragma GCC unroll 1
    for (std::size_t e = 0; e < kM; ++e) in_vec[e] = read(e);
    const auto load = [&in_vec](std::size_t e) RIPPLE_FORCE_INLINE_LAMBDA { return in_vec[e]; };
    const auto store = [&out_vec](std::size_t e, V y) RIPPLE_FORCE_INLINE_LAMBDA { out_vec[e] = y; };
    RunFixedPasses<R...>(d, *a.plan, buf, load, store);
#pragma GCC unroll 1
    for (std::size_t e = 0; e < kM; ++e) write(e, out_vec[e]);
  }
}

// Complex value e of a sequence broadcast to every complex slot of a vector (64-bit words for
// float, 128-bit blocks for double).
template <class D>
HWY_INLINE hn::Vec<D> BroadcastComplex(D d, const hn::TFromD<D>* x) {
  using T = hn::TFromD<D>;
  if constexpr (sizeof(T) == 4) {
    const hn::Repartition<double, D> dd;
    double word;
    std::memcpy(&word, x, sizeof word);
    return hn::BitCast(d, hn::Set(dd, word));
  } else {
    return hn::LoadDup128(d, x);
  }
}

// One sequence of odd prime length P >= fft::detail::kOutputsAcrossLanesMinRadix, without lane
// twiddles. The butterfly's O(p^2) multiply-adds run with the outputs k across the lanes: each
// sum / difference of inputs m and P - m is broadcast and multiplied by row m of the DFT
// matrix (LaneFft::outputs_cos / outputs_sin), W outputs per vector, where one sequence per
// vector (DftOdd) computes one output per multiply-add.
template <int P, class D>
HWY_INLINE void RunPrimeOutputsAcrossLanes(const PanelArgs<hn::TFromD<D>>& a, std::size_t lane) {
  using T = hn::TFromD<D>;
  const D d;
  using V = hn::Vec<decltype(d)>;
  constexpr int kH = (P - 1) / 2;
  constexpr std::size_t kPad = fft::detail::kOutputsRowPad(P);
  constexpr std::size_t kMaxW = hn::MaxLanes(decltype(d)()) / 2;
  const std::size_t w = hn::Lanes(d) / 2;
  const T* in = reinterpret_cast<const T*>(a.src + std::ptrdiff_t(lane) * a.src_lane_stride);
  T* out = reinterpret_cast<T*>(a.dst + std::ptrdiff_t(lane) * a.dst_lane_stride);
  const std::ptrdiff_t src_step = 2 * a.src_elem_stride, dst_step = 2 * a.dst_elem_stride;
  const T* cos_rows = a.plan->outputs_cos.data();
  const T* sin_rows = a.plan->outputs_sin.data();
  const Rotator<decltype(d)> rot(d, a.plan->forward);
  const V scale = hn::Set(d, a.scale);

  const V x0 = BroadcastComplex(d, in);
  V y0 = x0;
  V sum[kH], dif[kH];
  for (int m = 1; m <= kH; ++m) {
    const V u = BroadcastComplex(d, in + m * src_step), v = BroadcastComplex(d, in + (P - m) * src_step);
    sum[m - 1] = hn::Add(u, v);
    dif[m - 1] = hn::Sub(u, v);
    y0 = hn::Add(y0, sum[m - 1]);
  }
  HWY_ALIGN T tile[2 * kMaxW];
  hn::Store(hn::Mul(y0, scale), d, tile);
  out[0] = tile[0];
  out[1] = tile[1];
  for (std::size_t k0 = 1; k0 <= std::size_t(kH); k0 += w) {
    const std::size_t count = std::min(w, std::size_t(kH) + 1 - k0);
    V re = x0, im = hn::Zero(d);
    for (int m = 0; m < kH; ++m) {
      const std::size_t at = (std::size_t(m) * kPad + k0 - 1) * 2;
      re = hn::MulAdd(hn::LoadU(d, cos_rows + at), sum[m], re);
      im = hn::MulAdd(hn::LoadU(d, sin_rows + at), dif[m], im);
    }
    const V plus = hn::Mul(rot.add(d, re, im), scale);   // X[k0 + q], q < count
    const V minus = hn::Mul(rot.sub(d, re, im), scale);  // X[P - k0 - q]
    if (dst_step == 2 && count == w) {
      hn::StoreU(plus, d, out + k0 * 2);
    } else {
      hn::Store(plus, d, tile);
      for (std::size_t q = 0; q < count; ++q) {
        out[std::ptrdiff_t(k0 + q) * dst_step] = tile[2 * q];
        out[std::ptrdiff_t(k0 + q) * dst_step + 1] = tile[2 * q + 1];
      }
    }
    hn::Store(minus, d, tile);
    for (std::size_t q = 0; q < count; ++q) {
      out[std::ptrdiff_t(P - k0 - q) * dst_step] = tile[2 * q];
      out[std::ptrdiff_t(P - k0 - q) * dst_step + 1] = tile[2 * q + 1];
    }
  }
}

// Radices up to kMaxFixedGroupRadix take whole lane groups; a larger prime's unrolled butterfly
// (O(p^2)) is compiled for one vector width only, one sequence per vector (compile time).
// Callers with full groups of such sizes use the generic kernel instead
// (fft::detail::find_fixed_panel_kernel).
template <class D, int... R>
void RunPanelFixed(const PanelArgs<hn::TFromD<D>>& a) {
  using T = hn::TFromD<D>;
  const D d;
  const std::size_t w = hn::Lanes(d) / 2;
  std::size_t first = 0;
  if constexpr (((R <= kMaxFixedGroupRadix) && ...))
    if (w > 1)
      for (; first + w <= a.lanes; first += w) RunFixedGroup<decltype(d), R...>(d, a, first, w);
  if constexpr (sizeof...(R) == 1 && ((R >= fft::detail::kOutputsAcrossLanesMinRadix && R % 2 == 1) && ...)) {
    if (a.lane_twiddles == nullptr && !a.plan->outputs_cos.empty()) {
      for (; first < a.lanes; ++first) RunPrimeOutputsAcrossLanes<R..., D>(a, first);
      return;
    }
  }
  const hn::CappedTag<T, 2> d1;
  for (; first < a.lanes; ++first) RunFixedGroup<decltype(d1), R...>(d1, a, first, 1);
}

// is({r...}): whether the radix sequence being looked up is exactly r...
struct RadixMatcher {
  const int* radices;
  std::size_t count;
  bool operator()(std::initializer_list<int> list) const {
    return list.size() == count && std::equal(list.begin(), list.end(), radices);
  }
};

// The unrolled panel kernel for a lane FFT with exactly these radices, or null.
template <class D, class T = hn::TFromD<D>>
PanelKernel<T> FindPanelFixed(const int* radices, std::size_t count) {
#if HWY_TARGET == HWY_SSE4
  (void)radices;
  (void)count;
  return nullptr;  // as FindWideFixed
#else
  const RadixMatcher is{radices, count};
  // factor_for_passes' sequences for N <= 32 that the wide kernel cannot take on some target
  // (odd N; N = 2, 6, 10, 14 ... for W = 2 and 4; any N < 16 for W = 8), primes up to 31
  // included: a direct odd-prime butterfly beats Rader's convolution at these sizes.
  if (is({2})) return &RunPanelFixed<D, 2>;
  if (is({3})) return &RunPanelFixed<D, 3>;
  if (is({4})) return &RunPanelFixed<D, 4>;
  if (is({5})) return &RunPanelFixed<D, 5>;
  if (is({2, 3})) return &RunPanelFixed<D, 2, 3>;
  if (is({7})) return &RunPanelFixed<D, 7>;
  if (is({8})) return &RunPanelFixed<D, 8>;
  if (is({3, 3})) return &RunPanelFixed<D, 3, 3>;
  if (is({2, 5})) return &RunPanelFixed<D, 2, 5>;
  if (is({11})) return &RunPanelFixed<D, 11>;
  if (is({4, 3})) return &RunPanelFixed<D, 4, 3>;
  if (is({13})) return &RunPanelFixed<D, 13>;
  if (is({2, 7})) return &RunPanelFixed<D, 2, 7>;
  if (is({5, 3})) return &RunPanelFixed<D, 5, 3>;
  if (is({17})) return &RunPanelFixed<D, 17>;
  if (is({2, 3, 3})) return &RunPanelFixed<D, 2, 3, 3>;
  if (is({19})) return &RunPanelFixed<D, 19>;
  if (is({4, 5})) return &RunPanelFixed<D, 4, 5>;
  if (is({7, 3})) return &RunPanelFixed<D, 7, 3>;
  if (is({2, 11})) return &RunPanelFixed<D, 2, 11>;
  if (is({23})) return &RunPanelFixed<D, 23>;
  if (is({5, 5})) return &RunPanelFixed<D, 5, 5>;
  if (is({2, 13})) return &RunPanelFixed<D, 2, 13>;
  if (is({3, 3, 3})) return &RunPanelFixed<D, 3, 3, 3>;
  if (is({4, 7})) return &RunPanelFixed<D, 4, 7>;
  if (is({29})) return &RunPanelFixed<D, 29>;
  if (is({2, 5, 3})) return &RunPanelFixed<D, 2, 5, 3>;
  if (is({31})) return &RunPanelFixed<D, 31>;
  // Odd sizes from 35 to 63, alone (no wide kernel takes them) and as four-step sweeps (one
  // thread, AVX-512 Zen 4, ripple/FFTW, A/B: f32 N = 35 2.84 -> 1.08, 45 2.3-2.8 -> 1.0-1.13,
  // 49 2.5-2.6 -> 1.05-1.13, 63 2.4-2.6 -> 1.16-1.21; f64 N = 35 2.4-3.0 -> 1.10-1.15, 49
  // 1.75 -> 1.33-1.43, 16807 0.90-1.05 -> 0.80-0.83). The same for the sizes 2 x 21 ... 2 x 45
  // took 2x the compile time, and f64 N = 70 and 90 lost to the narrower wide kernel.
  if (is({7, 5})) return &RunPanelFixed<D, 7, 5>;
  if (is({5, 9})) return &RunPanelFixed<D, 5, 9>;
  if (is({7, 7})) return &RunPanelFixed<D, 7, 7>;
  if (is({7, 9})) return &RunPanelFixed<D, 7, 9>;
  // Double only: 81 unrolled, alone or in the four-step's sweeps (one-thread A/B against the
  // generic 9 x 9 on the 2-core Zen 3): f64 N = 81 0.71-0.93x the time, 81 x 128 0.62x,
  // 2187 0.74x, 6561 0.83-0.85x; float gained in batches but lost as four-step rows (f32
  // N = 567 1.44x, 1539 1.22x, 810 1.18x) and alone on 64-bit vectors (N = 81 1.2-1.6x).
  if constexpr (sizeof(T) == 8) {
    if (is({9, 9})) return &RunPanelFixed<D, 9, 9>;
#if HWY_TARGET == HWY_AVX3
    // 125 = 5 x 5 x 5 on the narrow table's 256-bit AVX-512 vectors only, where the four-step
    // runs it (f64 N = 3125 as 25 x 125, one thread, AVX-512 Zen 4, A/B: 0.82-0.92x the time;
    // ripple/FFTW 1.02 -> 0.84). Alone on 512-bit vectors it saved 5% (N = 125), in batches
    // 2%, for about 40 s more compile time of this file.
    if constexpr (hn::MaxLanes(D()) == 4) {
      if (is({5, 5, 5})) return &RunPanelFixed<D, 5, 5, 5>;
    }
#endif
  }
  return nullptr;
#endif
}

// The unrolled wide kernels of odd lane FFT sizes, in every table; on vectors of two complex
// values (the 128-bit float table) they are the sizes N = 2 mod 4 that no wider vector divides.
template <class D>
WideKernel<hn::TFromD<D>> FindWideFixedOdd(const RadixMatcher& is) {
  if (is({3})) return &RunWideFixed<D, 3>;
  if (is({5})) return &RunWideFixed<D, 5>;
  if (is({7})) return &RunWideFixed<D, 7>;
  if (is({3, 3})) return &RunWideFixed<D, 3, 3>;
  if (is({5, 3})) return &RunWideFixed<D, 5, 3>;
  if (is({7, 3})) return &RunWideFixed<D, 7, 3>;
  if (is({5, 5})) return &RunWideFixed<D, 5, 5>;
  if (is({3, 3, 3})) return &RunWideFixed<D, 3, 3, 3>;
  // One pass of 11 or 13, which the generic kernel runs with its sums on the stack (one
  // thread, AVX-512 Zen 4, ripple/FFTW: f64 N = 52 1.9 -> 0.93, 44 1.5-1.8 -> 1.0-1.25, 26
  // 1.6 -> 1.2; f32 N = 44 1.3 -> 0.75, 104 1.23 -> 0.71, 26 1.69 -> 1.08).
  if (is({11})) return &RunWideFixed<D, 11>;
  if (is({13})) return &RunWideFixed<D, 13>;
  // 35 and 45 (the same: f64 N = 70 1.5 -> 1.1-1.2, 90 1.6 -> 1.1, 180 1.24 -> 1.0; f32
  // N = 90 1.5 -> 0.83-1.1, 180 1.1-1.2 -> 0.76, 360 0.82 -> 0.64-0.72; 45 s more compile
  // over both precisions).
  if (is({7, 5})) return &RunWideFixed<D, 7, 5>;
  if (is({5, 9})) return &RunWideFixed<D, 5, 9>;
  return nullptr;
}

// The fixed-size kernel for a lane FFT with exactly these radices on the target's full vectors,
// or null.
template <class T>
WideKernel<T> FindWideFixed(const int* radices, std::size_t count) {
#if HWY_TARGET == HWY_SSE4
  // Not compiled for the x86 baseline (pre-2013 CPUs, and the sanitizer build): they are the
  // most expensive part of this file to compile, and the generic kernel computes the same.
  (void)radices;
  (void)count;
  return nullptr;
#else
  using D = hn::ScalableTag<T>;
  constexpr std::size_t kW = hn::MaxLanes(D()) / 2;
  if (kW != hn::Lanes(D()) / 2 || kW < 2 || kW > 8) return nullptr;
  const RadixMatcher is{radices, count};
  // The sequences factor_for_passes gives for m <= 32 with no prime above 7 (fft/lane_fft.cpp);
  // the plan checks the match, so a sequence missing here only means the generic kernel. The
  // ones of 9, 14, 18, 21, 25, 27, 28 and (float) 30 took a half to two thirds of the generic
  // kernel's time (one thread, AVX-512 Zen 4, ripple/FFTW: f64 N = 36 2.15 -> 0.92, 50 1.63 ->
  // 0.98, 56 1.74 -> 0.93, 72 1.84 -> 0.95; f32 N = 36 1.74 -> 0.78, 144 1.79 -> 1.06, 240
  // 1.8 -> 1.2) and compile in about 30 s more per precision.
  if (const WideKernel<T> odd = FindWideFixedOdd<D>(is)) return odd;
  if (is({2})) return &RunWideFixed<D, 2>;
  if (is({4})) return &RunWideFixed<D, 4>;
  if (is({2, 3})) return &RunWideFixed<D, 2, 3>;
  if (is({8})) return &RunWideFixed<D, 8>;
  if (is({2, 5})) return &RunWideFixed<D, 2, 5>;
  if (is({4, 3})) return &RunWideFixed<D, 4, 3>;
  if (is({16})) return &RunWideFixed<D, 16>;
  if (is({4, 5})) return &RunWideFixed<D, 4, 5>;
  if (is({8, 3})) return &RunWideFixed<D, 8, 3>;
  if (is({8, 4})) return &RunWideFixed<D, 8, 4>;
  if (is({2, 7})) return &RunWideFixed<D, 2, 7>;
  if (is({2, 3, 3})) return &RunWideFixed<D, 2, 3, 3>;
  if (is({4, 7})) return &RunWideFixed<D, 4, 7>;
  if (is({2, 5, 3})) return &RunWideFixed<D, 2, 5, 3>;
  // Double only (if constexpr: the float versions are not even compiled). 64 vectors: faster
  // unrolled for double (f64 N = 128: 2.9x -> 1.7x FFTW's time), slower for float (f32
  // N = 256: 2.1x -> 3.0x), both on AVX2 (2-core Zen 3). 128 as 8 x 16 measured no faster
  // than the generic kernel (f64 N = 256). 40 and 56 (one thread, AVX-512 Zen 4,
  // ripple/FFTW: f64 N = 160 1.46-1.66 -> 1.03-1.13, 224 1.37 -> 1.03; 15 s more compile).
  if constexpr (sizeof(T) == 8) {
    if (is({8, 8})) return &RunWideFixed<D, 8, 8>;
    if (is({8, 5})) return &RunWideFixed<D, 8, 5>;
    if (is({8, 7})) return &RunWideFixed<D, 8, 7>;
  }
  // 36 to 100 vectors: the sequences of f64 N = 144-400 (and f32 N = 288-800) that
  // still ran the generic kernel, at 1.04-1.6x FFTW's time. Unrolled, one thread, AVX-512 Zen 4,
  // the two builds timed alternately in one process (best of 60 rounds): f64 N = 144 (4 x 9)
  // 0.2-0.32 -> 0.17 us, 168 (2 x 7 x 3) 0.28 -> 0.19-0.23, 192 (4 x 4 x 3) 0.28-0.36 -> 0.22-0.24,
  // 200 (2 x 5 x 5) 0.32-0.39 -> 0.22-0.26, 240 (4 x 5 x 3) 0.42-0.46 -> 0.26-0.27, 400
  // (4 x 5 x 5) 0.6-0.75 -> 0.57-0.68; f32 N = 288 0.42 -> 0.18-0.22, 384 0.44 -> 0.24-0.29,
  // 400 0.55 -> 0.27-0.36, 480 0.41-0.6 -> 0.38, 640 (4 x 4 x 5) 0.54-0.81 -> 0.43-0.50, 768
  // (8 x 4 x 3) 0.67-0.97 -> 0.52-0.68, 800 0.71-1.07 -> 0.62-0.83. About 30 s more compile
  // per precision. On AVX2 (forced on the same machine) f64 N = 72-120 gained as much, but
  // 4 x 5 x 5 lost (f64 N = 200 0.36-0.38 -> 0.42-0.50 us): it is kept to 32 registers.
  if constexpr (sizeof(T) == 8 || kW == 8) {
    if (is({4, 9})) return &RunWideFixed<D, 4, 9>;
    if (is({2, 7, 3})) return &RunWideFixed<D, 2, 7, 3>;
    if (is({4, 4, 3})) return &RunWideFixed<D, 4, 4, 3>;
    if (is({2, 5, 5})) return &RunWideFixed<D, 2, 5, 5>;
    if (is({4, 5, 3})) return &RunWideFixed<D, 4, 5, 3>;
  }
  if constexpr (hn::MaxLanes(D()) * sizeof(T) == 64) {
    if (is({4, 5, 5})) return &RunWideFixed<D, 4, 5, 5>;
    if (is({4, 4, 5})) return &RunWideFixed<D, 4, 4, 5>;
    if (is({8, 4, 3})) return &RunWideFixed<D, 8, 4, 3>;
  }
  // And in double on AVX-512 (same A/B, best of 60 rounds): f64 N = 288 (8 x 9) 0.43-0.59
  // -> 0.34-0.37 us, 320 (4 x 4 x 5) 0.44-0.46 -> 0.38-0.42, 384 (8 x 4 x 3) 0.54-0.61 ->
  // 0.48-0.49, 480 (8 x 5 x 3) 0.75-1.0 -> 0.68-0.74; 2 x 5 x 9 (N = 360, 0.95x) and 4 x 4 x 7
  // (448, 0.95-1.1x) were not worth their compile time.
  if constexpr (sizeof(T) == 8 && kW == 4) {
    if (is({8, 9})) return &RunWideFixed<D, 8, 9>;
    if (is({8, 5, 3})) return &RunWideFixed<D, 8, 5, 3>;
  }
  // Float on 512-bit vectors (32 registers; f32 N = 512 one thread on AVX-512 Zen 4,
  // ripple/FFTW: 1.27-1.43 -> 0.83-1.12, batches of 128 1.15-1.36 -> 0.94-1.01).
  // And 128 vectors, f32 N = 1024 (8 x 4 x 4). The passes still go through the stack, but
  // unrolled at constant offsets they took 0.86-0.88x the generic kernel's time (one thread,
  // AVX-512 Zen 4, the two builds timed alternately; ripple/FFTW 1.19-1.32 -> 1.11-1.15). For
  // double (N = 512) the same was within +-4%, and so were 8 x 16 and 4 x 8 x 4 unrolled;
  // 256 vectors unrolled (8 x 8 x 4, 16 x 16) took 1.15-1.6x the generic kernel's time.
  if constexpr (sizeof(T) == 4 && kW == 8) {
    if (is({8, 8})) return &RunWideFixed<D, 8, 8>;
    if (is({8, 4, 4})) return &RunWideFixed<D, 8, 4, 4>;
  }
  // Split kernels: a first pass of 2, 4 or 8, then unrolled sub-transforms of 8 x 8 (only
  // asked for by C2cWide, which builds the plan and the sub-plan to match).
  if constexpr (sizeof(T) == 8 || kW == 8) {
    if (is({2, 8, 8}) || is({4, 8, 8}) || is({8, 8, 8})) return &RunWideSplit<D, 8, 8>;
  }
  return nullptr;
#endif
}

}  // namespace ripple::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
