// What the sweeps of a long four-step transform (C2cFourStep, FourStepConvolution) share: the
// contiguous stage a panel works on, and tables laid out block by block in the order a panel
// reads them.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>

#include "core/aligned.hpp"

namespace ripple::fft::detail {

/// Beyond this size a sweep's panels work on a stage of whole cache lines copied in and out:
/// read and written in place, the power-of-two strides of a long matrix map every row to the
/// same cache sets.
inline constexpr std::size_t kStagedFromBytes = std::size_t(256) << 10;

/// Rows copied into a stage are prefetched this many rows ahead: each row's piece lies on
/// another page, where the hardware prefetchers stop (f64 N = 2^20: 0.98x the time).
inline constexpr std::size_t kPrefetchRows = 16;

/// Sequences (columns or rows) of one stage: as many as keep it within kStageBytes, between two
/// cache lines and kMaxStageWidth values wide, a multiple of the lanes.
template <class T>
std::size_t stage_width(std::size_t length, std::size_t lanes) {
  constexpr std::size_t kStageBytes = std::size_t(256) << 10, kMaxStageWidth = 32;
  const std::size_t fits = kStageBytes / (length * sizeof(std::complex<T>));
  const std::size_t least = std::max<std::size_t>(lanes, 128 / sizeof(std::complex<T>));
  return std::max(least, std::min(kMaxStageWidth, fits) / lanes * lanes);
}

/// A table of value(e, l) for elements e < elems of lanes l < lanes, read by panels of `block`
/// lanes at a time: block l0.. (width min(block, lanes - l0)) at [l0 * elems + e * width + l - l0],
/// so a panel reads its part as one stream (with block >= lanes, plainly [e * lanes + l]).
/// Padded so that the last partial vector of lanes can be loaded whole.
template <class T, class Value>
core::AlignedVector<std::complex<T>> lane_block_table(std::size_t elems, std::size_t lanes, std::size_t block,
                                                      const Value& value) {
  constexpr std::size_t kPadding = 16;
  core::AlignedVector<std::complex<T>> table(elems * lanes + kPadding);
  for (std::size_t l0 = 0; l0 < lanes; l0 += block) {
    const std::size_t width = std::min(block, lanes - l0);
    for (std::size_t e = 0; e < elems; ++e)
      for (std::size_t l = l0; l < l0 + width; ++l) {
        const auto v = value(e, l);
        table[l0 * elems + e * width + (l - l0)] = {static_cast<T>(v.real()), static_cast<T>(v.imag())};
      }
  }
  return table;
}

/// Copies `count` values of `rows` rows (row r at from + r * row_stride, values `stride` apart)
/// into a stage of rows `line` values apart, prefetching contiguous rows ahead.
template <class T>
void copy_rows_to_stage(const std::complex<T>* from, std::ptrdiff_t row_stride, std::ptrdiff_t stride,
                        std::size_t rows, std::size_t count, std::complex<T>* stage, std::size_t line) {
  for (std::size_t r = 0; r < rows; ++r) {
    const std::complex<T>* row = from + std::ptrdiff_t(r) * row_stride;
    if (stride == 1) {
      if (r + kPrefetchRows < rows) {
        const char* ahead = reinterpret_cast<const char*>(row + std::ptrdiff_t(kPrefetchRows) * row_stride);
        for (std::size_t off = 0; off < count * sizeof(std::complex<T>); off += 64) __builtin_prefetch(ahead + off);
      }
      std::copy_n(row, count, stage + r * line);
    } else {
      for (std::size_t j = 0; j < count; ++j) stage[r * line + j] = row[std::ptrdiff_t(j) * stride];
    }
  }
}

}  // namespace ripple::fft::detail
