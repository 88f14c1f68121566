// Copies that bypass the cache on the way out: for results written once in cache-line sized
// pieces far apart (a transpose scattering rows of a stage into a long array), so the stores do
// not first read every destination line (the read for ownership ordinary stores make) and do
// not evict what the next piece of work needs.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ripple::core {

/// Results from this size on are written with non-temporal stores: they would not stay in
/// cache anyway, and ordinary stores read every line first (FFT f64 N = 2^20: 0.90x the time).
inline constexpr std::size_t kStreamOutFromBytes = std::size_t(8) << 20;

/// Copies `count` values to `to` with non-temporal stores where the CPU has them. Call
/// stream_fence() before other threads read what was written.
template <class T>
void stream_copy(const std::complex<T>* from, std::size_t count, std::complex<T>* to) {
#if defined(__SSE2__)
  std::size_t i = 0;
  if constexpr (sizeof(std::complex<T>) == 16) {
    if (reinterpret_cast<std::uintptr_t>(to) % 16 == 0) {
      for (; i < count; ++i)
        _mm_stream_pd(reinterpret_cast<double*>(to + i), _mm_loadu_pd(reinterpret_cast<const double*>(from + i)));
      return;
    }
  } else if constexpr (sizeof(std::complex<T>) == 8) {
    if (reinterpret_cast<std::uintptr_t>(to) % 8 == 0) {
      if (reinterpret_cast<std::uintptr_t>(to) % 16 != 0 && count > 0) {
        to[0] = from[0];
        i = 1;
      }
      for (; i + 2 <= count; i += 2)
        _mm_stream_ps(reinterpret_cast<float*>(to + i), _mm_loadu_ps(reinterpret_cast<const float*>(from + i)));
      for (; i < count; ++i) to[i] = from[i];
      return;
    }
  }
#endif
  std::copy_n(from, count, to);
}

/// stream_copy when `stream`, else an ordinary copy.
template <class T>
void copy_out(const std::complex<T>* from, std::size_t count, std::complex<T>* to, bool stream) {
  if (stream) {
    stream_copy(from, count, to);
  } else {
    std::copy_n(from, count, to);
  }
}

/// Orders the non-temporal stores made so far before later stores (and so before a thread
/// hands its results on).
inline void stream_fence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

}  // namespace ripple::core
