// Tuning constants of the GPU algorithms, kept apart from the algorithms (as CUB's
// dispatch/tuning). Correctness never depends on them beyond the stated constraints.
#pragma once

#include <cstdint>

namespace ripple::gpu::tuning {

/// One-value-per-work-item kernels (the real FFTs' split/merge and pack/unpack, Bluestein's
/// chirp products): work-items per group, and the most groups launched; beyond that the
/// kernels stride over the grid.
inline constexpr std::uint32_t kElementwiseBlock = 256;
inline constexpr std::uint64_t kElementwiseMaxGroups = std::uint64_t{1} << 16;

/// Groups of an elementwise launch over `items` values.
inline std::uint32_t elementwise_groups(std::uint64_t items) {
  const std::uint64_t groups = (items + kElementwiseBlock - 1) / kElementwiseBlock;
  return static_cast<std::uint32_t>(groups < kElementwiseMaxGroups ? groups : kElementwiseMaxGroups);
}

/// The one-kernel FFT stages a packed batch's loads and stores through local memory
/// (FFT_STAGED_IO) where one work-item holds a whole transform of at least this many bytes (a
/// memory sector): lane t then reads element e of transform t at t N + e, N values apart across
/// a warp. Measured on an H200 (2026-11-30, batched c2c on 1 GiB, direct loads): those float
/// sizes (4, 5, 7, 8, 11, 13, 16, 17, 19) ran at 20-66% of memcpy; 2 and 3 (under a sector) at
/// 79% and 99%; sizes of two or three work-items a transform at 51-100% (6, 10, 15 at 80-100%,
/// 9, 12, 20, 25 at 51-66%: the rule leaves them all as they were). Staging is not measured yet
/// (bench_gpu_fft --sections staging times both choices).
inline constexpr std::uint64_t kFftStagedIoBytes = 32;

/// device_scan: work-items per group (a multiple of the warp size, 32) and values per
/// work-item. A tile is their product. Affine maps carry 6 words, so fewer per work-item.
inline constexpr unsigned kScanBlock = 128;
inline constexpr unsigned kScanItemsSum = 8;
inline constexpr unsigned kScanItemsAffine2 = 4;

/// sos_cascade (tile path of the GPU biquad cascade): work-items per group and samples per
/// work-item; a tile is their product. Each work-item holds its samples and one 2x2 affine map
/// per section in registers.
inline constexpr unsigned kSosBlock = 256;
inline constexpr unsigned kSosItems = 8;
/// sos_channels (channel path): channels per group and samples of each staged at a time.
inline constexpr unsigned kSosChannelBlock = 64;
inline constexpr unsigned kSosChunk = 32;
/// Sections whose states a channel work-item's array holds (a longer cascade gets the next power
/// of two: one more program).
inline constexpr unsigned kSosChannelSections = 16;
/// The cost rule between the two paths (DeviceSos::choose) counts time in dependent steps of
/// the recurrence on a GPU that runs `resident` work-items at once: compute units times
/// kSosResidentPerUnitGpu (resident threads per SM of sm_80 and sm_90).
///   channel path: ceil(channels / resident) * n
///   tile path:    ceil(channels * tiles * block / resident) * (2 * items + kSosScanSteps)
/// (two passes over each work-item's samples per section, plus the scans: ~5 warp steps of a
/// 2x2 affine composition, the block fold and the look-back). Sections cancel out.
/// CPU OpenCL devices always take the channel path: work-groups run as threads, and a look-back
/// spinning on its predecessor waits for scheduler time slices. Measured on PoCL (2 loaded
/// cores, 2^20 float samples in 1, 2 or 16 channels): channels 25-35 ms against tiles 80-96 ms
/// with 1 section, 49-58 ms against 430-530 ms with 4.
inline constexpr unsigned kSosResidentPerUnitGpu = 2048;
inline constexpr unsigned kSosScanSteps = 24;

/// Carries of a section are kept in its modal basis (biquad.h) unless that basis's condition
/// number exceeds this many times the DF2T basis's transient gain max_t |A^t|_1 (a nearly
/// double real pole). Measured on PoCL (tile 2048, 3000..4e5 samples): butter(8, 1e-3) has
/// cond(T) 650..3300 against gains 240..480, and the modal basis made double results 100x more
/// accurate than the DF2T basis (1.2e-14 against 1.0e-9; serial double: 7.6e-13), float
/// carries 3e4x (4e-6 against 0.1; serial float: 7e-4).
inline constexpr double kSosModalConditionPerGain = 64.0;

/// copy_scale: work-items per group and the most groups along each grid dimension (the
/// kernel strides over the rest).
inline constexpr unsigned kCopyBlock = 256;
inline constexpr std::uint32_t kCopyMaxGroupsX = 4096;
inline constexpr std::uint32_t kCopyMaxGroupsY = 65535;

}  // namespace ripple::gpu::tuning
