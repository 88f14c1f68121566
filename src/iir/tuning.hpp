// Tuning constants of the CPU section-cascade executor, kept apart from the algorithm. Figures
// measured on a 2-core AMD EPYC (Zen 3, AVX2) unless they name the AVX-512 Zen 4; see
// bench/results/iir-*.md.
#pragma once

#include <cstddef>

namespace ripple::iir::tuning {

/// Rows of one scan block: each of the scan's lanes filters this many consecutive samples
/// from a zero state before the carries correct it. Longer blocks mean fewer carries but a
/// larger staging block (lanes x rows values should stay in L1/L2). 1024 + 64: the W lanes
/// that a stage-in tile reads together are then 256 bytes apart modulo 4 KiB for 16 floats
/// and 512 for 8 doubles, evenly over the L1's sets, where 1024 put them all in one set (one
/// line of 2^18 or 500,000 samples, which takes this scan, one thread on the AVX-512 Zen 4,
/// medians of alternated runs in Msamples/s: float 1125 -> 1716 and 953 -> 1342, double 830
/// -> 841 and 551 -> 652; 2^14 and 2^16 samples within the noise).
inline constexpr std::size_t kScanBlockRows = 1088;
/// A block's free-response correction stops where |C A^t|_1 falls below this fraction of the
/// working precision's epsilon (well-damped sections decay long before the block ends, so
/// long blocks mostly skip it).
inline constexpr double kFreeResponseNegligible = 1.0 / 64;
/// Vectors of lanes a scan block spans (independent recurrences in flight per section).
inline constexpr std::size_t kScanVectors = 4;
/// A partial final scan block is worth it from this many rows; shorter tails run serially.
inline constexpr std::size_t kScanMinRows = 16;
/// Float sections whose zero-state blocks can swing further than this from the true output
/// (max over t < L of |C A^t|_1: 1 for well-damped sections, hundreds to thousands for lightly
/// damped poles near z = 1) are scanned in double, so the scan stays more accurate than the
/// serial float recurrence: the contract is 1.5x its error (tests/iir/reference_test.cpp).
/// Measured ratios over that test's filters (butter 8 at 1e-3 and 1e-2, cheby2 2 and 12 at 1e-3,
/// cheby1 12 at 1e-2; 3000 to 400000 samples): limit 8 <= 0.016 (everything near z = 1 wide),
/// 128 <= 0.45, 512 <= 0.42, no limit 1.16 (cheby2 2 at 1e-3). 128 keeps a 3x margin and runs
/// butter(8, 0.01) in float: 2^24 samples at 520 instead of 260-300 Msamples/s (one thread).
inline constexpr double kFloatScanTransientGainLimit = 128.0;
/// Samples per lane of a block of the fused time scan (each SIMD lane runs the
/// whole cascade over its run of the signal straight from the input to the output, then the
/// output of lanes whose true start state is nonzero gets the cascade's free response).
/// Not a power of two: the W runs of a block, read and written together, would then share one
/// set of the 8-way L1 cache (2048: 1.5x slower on the 2-core Zen 3). 2^16 + 64 puts the runs
/// 256 bytes apart modulo 4 KiB for 16 floats and 512 for 8 doubles: evenly over the L1's sets,
/// as RunsAllLanes would skew them (SkewRows), and each run starts on a cache line when the
/// block does. Longer blocks mean fewer corrections per sample, which matters most where the
/// free response is long (butter(8, 0.01): 7100 to 11100 rows, all of an 8208-row block).
/// 2^24 samples on one thread of the AVX-512 Zen 4, 8208 -> 32784 -> 65552 rows:
/// butter(8, 0.01) 21.4 -> 16.6 -> 15.1 ms (double), 13.1 -> 9.3 -> 8.4 ms (float);
/// butter(8, 0.1) in float 8.0 -> 7.4 -> 7.3 ms. 65552 -> 65600 (runs 64 and 128 bytes apart
/// before), medians of alternated runs in Msamples/s: butter(8, 0.1) float 2461 -> 2540 on one
/// thread and 4095 -> 4319 on two, double 2348 -> 2519 on two; butter(8, 0.01) float 2117 ->
/// 2295 on one thread.
/// Only the corrected rows of a block are held in cache (the head), not the whole block.
inline constexpr std::size_t kFusedScanRows = (std::size_t{1} << 16) + 64;
/// Plans build the per-section scan tables for lines from this length on, the fused scan's
/// from the second; shorter lines run serially / with the per-section scan. The tables cost
/// time in proportion to their block length, which the faster scan repays only over long
/// lines (one-shot sosfilt of butter(8, 0.1) in double on the 2-core Zen 3 VM: 2^13 samples
/// 49-55 us with the per-section tables, 56 us serially; 2^19 samples about 1 ms with the
/// fused tables or without; 2^20 samples 1.9 ms with them, 2.3 ms without).
inline constexpr std::size_t kScanTablesFrom = 8192;
inline constexpr std::size_t kFusedScanTablesFrom = std::size_t{1} << 19;
/// Rows of one staging block when channels are filtered side by side in lanes.
inline constexpr std::size_t kChannelBlockRows = 256;
/// Splitting one long signal over threads pays from this many samples per thread.
inline constexpr std::size_t kMinSamplesPerThread = std::size_t{1} << 16;
/// One line of the fused scan is cut into ranges of whole fused blocks, handed out to the
/// threads as they come free, when it has at least this many blocks per thread; shorter lines
/// get one range per thread.
inline constexpr std::size_t kMinFusedBlocksPerThread = 4;
/// Ranges per thread those lines are cut into (of whole blocks, so fewer where the blocks are
/// few): each range's correction reads and writes its first rows again.
inline constexpr std::size_t kFusedRangesPerThread = 8;
/// The cascade's free response added at a thread's range start is followed until its state
/// has shrunk by this factor (2^-64: far below the last bit of any double result).
inline constexpr double kFreeResponseDecay = 0x1p-64;

}  // namespace ripple::iir::tuning
