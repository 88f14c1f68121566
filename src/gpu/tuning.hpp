// Tuning constants of the GPU algorithms, kept apart from the algorithms (as CUB's
// dispatch/tuning). Correctness never depends on them beyond the stated constraints.
#pragma once

#include <cstdint>

namespace ripple::gpu::tuning {

/// device_scan: work-items per group (a multiple of the warp size, 32) and values per
/// work-item. A tile is their product. Affine maps carry 6 words, so fewer per work-item.
inline constexpr unsigned kScanBlock = 128;
inline constexpr unsigned kScanItemsSum = 8;
inline constexpr unsigned kScanItemsAffine2 = 4;

/// copy_scale: work-items per group and the most groups along each grid dimension (the
/// kernel strides over the rest).
inline constexpr unsigned kCopyBlock = 256;
inline constexpr std::uint32_t kCopyMaxGroupsX = 4096;
inline constexpr std::uint32_t kCopyMaxGroupsY = 65535;

}  // namespace ripple::gpu::tuning
