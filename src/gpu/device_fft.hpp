// Device level: batched 1-D complex-to-complex FFTs whose size fits on chip, in one kernel
// (kernels/fft_c2c.cl on fft_codelets.h): one read and one write of global memory per
// transform, every stage in registers with exchanges through local memory. Sizes whose prime
// factors all have codelets (kFftCodeletPrimes) up to fft_max_on_chip (radix 2, 3, 4, 5, 7, 8,
// 11, 13, 16, 17, 19 stages), primes whose n - 1 is such a size by Rader's algorithm
// (rader_fits), and other sizes whose Bluestein convolution fits on chip
// (bluestein_size(n) <= kFftMaxBluesteinOnChip: every n <= 2048), the whole algorithm in the
// kernel; float or double; both directions and numpy's three normalizations from one compiled
// program (direction and scale are arguments).
// Element i of transform b is at b * dist + i * stride on each side (contiguous batches,
// innermost batching, padded distances); the passes of the multi-pass FFT (device_fft_plan)
// launch it with two levels of batch and a twiddle fused into the store. An immutable plan: the program is compiled and the
// twiddle table uploaded when it is made; run() only launches.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/program.hpp"
#include "gpu/runtime.hpp"
#include "gpu/tuning.hpp"
#include "gpu/variants.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {

/// The primes with a codelet (kernels/fft_codelets.h). Sizes made of them run as passes of
/// on-chip transforms; sizes with any other prime factor by Bluestein's algorithm. 17 and 19 are
/// the largest that stay in registers: with 23, a double 2944-point program (2^7 23) spilled on
/// sm_90, and the codelets of 29 and 31 kept their sine and cosine tables on the stack.
inline constexpr std::array<std::uint64_t, 8> kFftCodeletPrimes = {2, 3, 5, 7, 11, 13, 17, 19};

/// Whether n has no prime factor without a codelet (the sizes the device passes take directly).
inline bool codelet_smooth(std::uint64_t n) {
  for (std::uint64_t p : kFftCodeletPrimes)
    while (n % p == 0) n /= p;
  return n == 1;
}

/// The largest transform the one-kernel path takes: of either precision (a cap on passes above
/// which nothing changes), and per precision, 8192 float points, 4096 double (32 KiB of local
/// memory each with the split exchange).
inline constexpr std::uint64_t kFftMaxOnChip = 8192;
inline constexpr std::uint64_t fft_max_on_chip(bool double_precision) { return double_precision ? 4096 : 8192; }
/// The largest Bluestein convolution one program takes (the whole DFT, or the middle pass of
/// DeviceFftBluestein), in either precision: its spectrum step and second FFT hold more values,
/// and a float program of 8190 points spilled on sm_90 at 512, 683 and 1024 work-items.
inline constexpr std::uint64_t kFftMaxBluesteinOnChip = 4096;

/// The codelet-smooth sizes in [lo, hi], ascending: each odd product of the codelet primes up to
/// hi with the powers of two that bring it into the range, so the cost follows how many there
/// are (about 10 000 odd ones up to 2^36), not the width of the range.
std::vector<std::uint64_t> codelet_smooth_sizes(std::uint64_t lo, std::uint64_t hi);

/// The length of Bluestein's convolution for size n: the smallest codelet-smooth size >= 2n - 1
/// (up to 4096 integers scanned; past them, where such sizes are sparse, the first of
/// codelet_smooth_sizes up to the next power of two: a scan of the gap took 36 ms at n = 3e10,
/// this 0.65 ms).
std::uint64_t bluestein_size(std::uint64_t n);

/// The largest convolution of Rader's one-kernel program (n - 1), in either precision: ptxas
/// spilled float programs above it (24 of the 64 primes between 4097 and 8191: up to 264 bytes
/// at 8101, 128 registers on 512 work-items), as Bluestein's convolutions above 4096 did.
inline constexpr std::uint64_t kFftMaxRaderOnChip = 4096;

/// Whether the one-kernel path computes the DFT of n by Rader's algorithm: n a prime without a
/// codelet whose n - 1 is codelet-smooth and within the caps (a cyclic convolution of n - 1
/// points, under half of Bluestein's, and so to 4057 where Bluestein's in one kernel ends at
/// 2048; device_fft_rader.hpp).
bool rader_fits(std::uint64_t n, bool double_precision, std::uint64_t max_on_chip = kFftMaxOnChip);

/// Whether the one-kernel path takes size n (itself, by Rader or by Bluestein in the kernel) in
/// that precision, with transforms, or convolutions, of at most max_on_chip points.
inline bool fits_one_kernel(std::uint64_t n, bool double_precision, std::uint64_t max_on_chip = kFftMaxOnChip) {
  const std::uint64_t cap = std::min(max_on_chip, fft_max_on_chip(double_precision));
  if (n >= 1 && codelet_smooth(n)) return n <= cap;
  return n >= 1 && (rader_fits(n, double_precision, max_on_chip) ||
                    bluestein_size(n) <= std::min(cap, kFftMaxBluesteinOnChip));
}
/// Bytes of adjacent column transforms a work-group of the column shape takes: a memory sector
/// of NVIDIA GPUs (L2 and DRAM move 32-byte sectors), so no sector is fetched by several groups.
inline constexpr std::uint64_t kFftColumnBytes = 32;
/// The tunables DeviceFft::shape reads, process-wide: the defaults unless tests or benchmarks
/// set others (set_fft_shape_tuning; shapes computed after take them).
struct FftShapeTuning {
  /// Bytes of adjacent transforms a column-shaped group takes (kFftColumnBytes).
  std::uint64_t column_bytes = kFftColumnBytes;
  /// FftShape::staged_io: -1 by the rule (rows shapes of one work-item a transform of at least
  /// tuning::kFftStagedIoBytes; without interleaving, column shapes whose warps would read less
  /// than that of a row directly), 0 never, 1 every shape that can.
  int staging = -1;
  /// FftShape::lds_row: whether local memory is padded against bank conflicts.
  bool pad_local = true;
  /// FftShape::interleave: whether column shapes that load directly interleave their transforms
  /// across the work-items (and so are not staged by the rule; off, the rule stages those whose
  /// warps would read less than a sector of a row, as before interleaving).
  bool interleave = true;
  /// Transforms one launch takes at most (DeviceFft::launch splits a pass of more): 2^31 - 1,
  /// for the kernel's 32-bit transform index and a launch's work-groups; tests lower it.
  std::uint64_t launch_transforms = 0x7fffffffULL;
};
FftShapeTuning fft_shape_tuning();
void set_fft_shape_tuning(const FftShapeTuning& tuning);
/// While alive, `tuning` for the shapes made meanwhile; the tuning as it was after.
class ScopedFftShapeTuning {
 public:
  explicit ScopedFftShapeTuning(const FftShapeTuning& tuning) : saved_(fft_shape_tuning()) {
    set_fft_shape_tuning(tuning);
  }
  ~ScopedFftShapeTuning() { set_fft_shape_tuning(saved_); }
  ScopedFftShapeTuning(const ScopedFftShapeTuning&) = delete;
  ScopedFftShapeTuning& operator=(const ScopedFftShapeTuning&) = delete;

 private:
  FftShapeTuning saved_;
};
/// Work-items that run in lockstep on NVIDIA's GPUs (a warp; AMD's wavefronts of 64 hold two),
/// whose loads and stores the memory serves together.
inline constexpr std::uint64_t kWarpItems = 32;
/// The most work-items a group of the FFT kernel may have (CUDA's limit).
inline constexpr std::uint64_t kFftMaxGroup = 1024;
/// The smallest radix whose stages take one butterfly per work-item (16, 17 and 19: their
/// codelets hold about 2R complex values; smaller radices take several butterflies per item
/// where the group would be too large): a transform of n points has n / 16 work-items at least.
inline constexpr std::uint64_t kFftSmallestUnpairedRadix = 16;
/// The largest one-kernel transform, or pass, on a device whose work-groups hold at most
/// max_group work-items (DeviceFacts::max_work_group): 16 max_group points, so 4096 on the
/// 256-item groups of AMD's and some Intel OpenCL GPUs, where larger passes would need more.
inline std::uint64_t fft_max_on_chip(bool double_precision, std::uint64_t max_group) {
  return std::min(fft_max_on_chip(double_precision), kFftSmallestUnpairedRadix * max_group);
}
/// The largest last pass that splits an r2c's spectrum in its store (DeviceFftPlan::split_for_real;
/// Bluestein's storing pass likewise: DeviceFftBluestein::split_in_store); above it the split is a
/// kernel of its own. Measured on PoCL (f32, median of 7): a fused last
/// pass of 1024 points as fast as the split kernel or faster (2^16 reals, 128 x 256: 17.6-18.4
/// ms against 20.1-20.8), of 2048 and 4096 points 40 % slower (2^22: 86-93 against 59-62; 2^24:
/// 441-466 against 351-357); its transforms i and S - i, far apart in the output, touch twice
/// the cache lines a group of adjacent ones does. Unmeasured on a GPU, whose L2 holds every line
/// the resident groups write.
inline constexpr std::uint64_t kFftMaxSplitPass = 1024;

/// Steps of Bluestein's algorithm for a DFT of n points fused into a one-kernel program
/// (kernels/fft_c2c.cl, FFT_CONV_*): the chirp on load, the spectrum between a forward and a
/// backward FFT, the chirp on store; the tables' index of element e of the transform with inner
/// index i is e * e_step + i * i_step. All three (steps 1, 0): the whole DFT in one kernel; one
/// each: the passes of a convolution of M1 x M2 points (DeviceFftBluestein).
struct FftConvolution {
  std::uint64_t n = 0;  ///< Bluestein's size; 0: an ordinary FFT
  bool load = false, middle = false, store = false;
  std::uint64_t e_step = 1, i_step = 0;
  std::uint64_t m = 0;  ///< the convolution's length (its spectrum table's); 0: bluestein_size(n)

  bool whole() const { return n != 0 && load && middle && store; }
  std::uint64_t length() const { return m != 0 ? m : bluestein_size(n); }
  /// The whole DFT of n in one kernel.
  static FftConvolution whole_dft(std::uint64_t n) { return {n, true, true, true, 1, 0}; }
};

/// A real transform of n points fused into a one-kernel program (kernels/fft_c2c.cl,
/// FFT_REAL_*): r2c reads n reals and stores the n/2 + 1 values of the half spectrum; c2r the
/// reverse. Its complex FFT is of n/2 for even n (the reals paired as complex values, the
/// spectrum split in the store or merged in the load), of n for odd n (the reals widened, the
/// Hermitian spectrum rebuilt in the load).
struct FftReal {
  std::uint64_t n = 0;  ///< 0: complex data
  bool r2c = true;
  /// 0: the whole real transform in the program. S > 0: the program is a pass of a multi-pass
  /// complex FFT of complex_size() points, or Bluestein's loading (first) or storing (last)
  /// fused pass of that size (DeviceFftBluestein; the last may split an even r2c's spectrum), whose element e of the
  /// transform with inner index i is sequence index i + e S, launched with the caller's layout
  /// on the real side: the first
  /// pass (last_pass false) reads it in its load (odd r2c: the reals widened; odd c2r: the
  /// Hermitian spectrum rebuilt; even r2c: the reals in pairs; even c2r: X[k] and X[n/2 - k]
  /// merged), the last writes it in its store (odd r2c: k <= n/2; odd c2r: the real parts;
  /// even c2r: the pairs of reals; even r2c: Z[k] and Z[n/2 - k] split into X[k], with
  /// partner transforms paired in a group (i and S - i in a plan's last pass; (h - i) mod S in
  /// Bluestein's storing pass, n/2 = Q S + h), launched with inner = split_pass_inner(S)).
  /// The reals of an even pass's line are at its origin plus 2j times the line's real stride
  /// (the pass's inner distance) and one stride on.
  std::uint64_t pass_step = 0;
  bool last_pass = false;

  std::uint64_t complex_size() const { return n % 2 == 0 ? n / 2 : n; }
  /// Whether the program reads the half-spectrum twiddles W^k (DeviceFftReal::twiddles): an
  /// even size's whole transform, split pass or merging first pass.
  bool uses_twiddles() const { return n != 0 && n % 2 == 0 && (pass_step == 0 || r2c == last_pass); }
  /// Whether the program is an even r2c's last pass, pairing transforms.
  bool split_pass() const { return r2c && pass_step != 0 && last_pass && n % 2 == 0; }
  /// The launch's transforms per outer index of a split pass of step S: S rounded up to even
  /// (the slot of an odd S's missing partner of transform 0 idles).
  static std::uint64_t split_pass_inner(std::uint64_t step) { return step + step % 2; }
};

/// How a size is cut into stages and work-items (all compile-time constants of the program).
struct FftShape {
  std::uint64_t n = 1;  ///< the on-chip transform's size (Bluestein's M for a Bluestein program)
  std::vector<unsigned> radices;  ///< stage radices, first stage first (empty for n = 1)
  unsigned threads_per_transform = 1;
  unsigned transforms_per_group = 1;
  unsigned slots = 1;  ///< complex registers per work-item
  bool split_exchange = false;
  bool columns = false;  ///< shaped for launches whose transforms are columns (FftPass::columns)
  bool batch_fast = false;  ///< takes launches with a fastest level of batch (FftPass::fast > 1)
  /// Whether sides whose group of transforms is one tile of memory may go through local memory
  /// (FFT_STAGED_IO): by FftShapeTuning::staging's rule, rows shapes of one work-item a
  /// transform of at least a memory sector (packed batches), and column shapes (adjacent
  /// transforms) that do not interleave (interleaves()) and whose warps would read less than a
  /// sector of a row directly; forced, any c2c shape without Rader's steps, Bluestein's whole
  /// DFT (his passes' programs may), real steps or the split exchange. stages() says whether
  /// the program does.
  bool staged_io = false;
  bool interleave = true;  ///< FftShapeTuning::interleave when made (see interleaves())
  FftConvolution conv;  ///< Bluestein's steps in the program (conv.whole(): a DFT of conv.n by a
                        ///< convolution over n points)
  std::uint64_t rader = 0;  ///< p > 0: the program is the DFT of the prime p = n + 1 by Rader's algorithm
  FftReal real;  ///< a real transform of real.n points whose complex FFT is this one
  /// Values of local memory in 128 bytes (a GPU's 32 banks of 4 bytes; FFT_LDS_ROW), after each
  /// of which the program leaves one out, its transforms' slots spanning lds_slot() values, so
  /// that a warp's stores of a stage's outputs R apart, and a tile's adjacent transforms, do not
  /// meet in one bank; 0 for none (odd n, whose strides spread over the banks
  /// by themselves; Rader's and real steps' programs, which ptxas spilled padded;
  /// FftShapeTuning::pad_local; a device whose local memory the padding would not fit).
  std::uint64_t lds_row = 0;

  /// Whether the program stages (FFT_STAGED_IO): staged_io, but not with the fastest level of
  /// batch, whose launches never form one tile.
  bool stages() const { return staged_io && !batch_fast; }
  /// Whether the program interleaves its group's transforms across its work-items
  /// (FFT_INTERLEAVED: item slot + TPG t instead of t + TPT slot): column shapes that load and
  /// store directly (not stages()) with 2 to 4 float or 2 double transforms a group (a row of
  /// them at most a 32-byte sector). A warp then takes TPG adjacent transforms' values of 32 /
  /// TPG rows at once, where the items of one transform took one value of each of 32 rows, and
  /// a rows side still 32 / TPG >= 8 adjacent values a transform: float columns of 2048 points
  /// (the split exchange, which cannot stage: four a group) go from 25% to 100% of each sector,
  /// of 4096 (two) to 50%, in the access model.
  bool interleaves(bool double_precision) const {
    const std::uint64_t bytes = double_precision ? 16 : 8;
    return interleave && columns && !stages() && threads_per_transform > 1 && transforms_per_group > 1 &&
           transforms_per_group * bytes <= 32;
  }
  /// The size of the transforms the program computes.
  std::uint64_t transform_size() const { return rader != 0 ? rader : conv.whole() ? conv.n : n; }
  /// Values of local memory a transform takes: its n, or Rader's p outputs in natural order.
  std::uint64_t local_values() const { return rader != 0 ? rader : n; }
  /// Values a transform's slot of local memory spans (FFT_LDS_SLOT): local_values(), padded
  /// where lds_row > 0, to an odd number of values (a warp's work-items then take consecutive
  /// slots' value e in different banks), or for staged column tiles and interleaved programs
  /// to w modulo lds_row, w = 32 / transforms_per_group: the rows of a tile a warp copies at
  /// once (consecutive work-items take a row's transforms, slot q's value e at q w + e modulo
  /// lds_row, every bank twice for complex float), or the items of one transform in a warp
  /// (their values' banks spread as in one slot, the next slot's w banks on).
  std::uint64_t lds_slot(bool double_precision) const {
    const std::uint64_t last = local_values() - 1;
    if (lds_row == 0) return last + 1;
    const std::uint64_t padded = last + last / lds_row + 1;
    if (!((stages() && columns) || interleaves(double_precision)) || transforms_per_group > kWarpItems)
      return padded | 1;
    const std::uint64_t want = kWarpItems / transforms_per_group % lds_row;
    return padded + (want + lds_row - padded % lds_row) % lds_row;
  }
  /// Bytes of a value in local memory: a complex value, or one part of it under the split exchange.
  std::uint64_t lds_value_bytes(bool double_precision) const {
    return (double_precision ? 16 : 8) / (split_exchange ? 2 : 1);
  }
  /// Bytes of local memory a group takes.
  std::uint64_t lds_bytes(bool double_precision) const {
    return transforms_per_group * lds_slot(double_precision) * lds_value_bytes(double_precision);
  }
  /// "Rader, convolution of n" or "Bluestein, convolution of n" for a whole DFT by either; else empty.
  std::string whole_convolution() const {
    if (rader == 0 && !conv.whole()) return {};
    return std::string(rader != 0 ? "Rader" : "Bluestein") + ", convolution of " + std::to_string(n);
  }
};

/// Where the elements are (in elements): element i of transform b at b * dist + i * stride, or
/// with two levels of batch (inner > 0; the lines of one axis of a multi-dimensional array),
/// transform b = (o, j) = (b / inner, b % inner) at o * dist_outer + j * dist + i * stride.
struct FftLayout {
  std::uint64_t batch = 1;
  std::int64_t in_stride = 1, in_dist = 0;
  std::int64_t out_stride = 1, out_dist = 0;
  std::uint64_t inner = 0;  ///< transforms per outer index (0: one level, as batch)
  std::int64_t in_dist_outer = 0, out_dist_outer = 0;

  /// Whether the batch has two levels.
  bool two_level() const { return inner != 0 && inner != batch; }
  std::uint64_t inner_count() const { return two_level() ? inner : batch; }
  std::uint64_t outer_count() const { return two_level() ? batch / inner : 1; }
  /// The layout of one outer index's transforms (one level).
  FftLayout one_outer() const {
    FftLayout l = *this;
    l.batch = inner_count();
    l.inner = 0;
    l.in_dist_outer = l.out_dist_outer = 0;
    return l;
  }
};

/// One launch's transforms with up to three levels of batch (the passes of a multi-pass FFT):
/// transform t < count is (o, i, f) = (t / (inner fast), t / fast % inner, t % fast), its
/// element e at offset + o * dist_outer + i * dist_inner + f * dist_fast + e * stride on each
/// side. i is the transform's inner index, the one a pass twiddle, Bluestein's tables and a real
/// transform's pass step read; f, the fastest, holds a batch whose entries lie closer in memory
/// than the elements (innermost batching), so that a group's adjacent transforms are adjacent
/// entries (fast = 1: none). Not checked: the caller sizes it.
struct FftPass {
  std::uint64_t count = 1, inner = 1, fast = 1;
  std::int64_t in_offset = 0, in_stride = 1, in_dist_inner = 0, in_dist_outer = 0, in_dist_fast = 0;
  std::int64_t out_offset = 0, out_stride = 1, out_dist_inner = 0, out_dist_outer = 0, out_dist_fast = 0;

  /// The one launch that takes every transform of a layout (both levels of batch).
  static FftPass of(const FftLayout& l) {
    FftPass p;
    p.count = l.batch;
    p.inner = l.inner_count();
    p.in_stride = l.in_stride;
    p.in_dist_inner = l.in_dist;
    p.in_dist_outer = l.in_dist_outer;
    p.out_stride = l.out_stride;
    p.out_dist_inner = l.out_dist;
    p.out_dist_outer = l.out_dist_outer;
    return p;
  }

  /// Where element e of transform (b, o, i) of a pass over a batch lies on one side:
  /// b * batch + o * outer + i * inner + e * stride.
  struct Side {
    std::int64_t batch = 0, outer = 0, inner = 0, stride = 1;
  };
  /// The launch of transforms (b, o, i), b < batch, o < outer, i < inner: with batch_fast, b is
  /// the fastest level (f); else the outer one, so with several outer indices the batch must have
  /// one entry (run one launch per entry; InvalidArgument otherwise).
  static FftPass over_batch(std::uint64_t batch, std::uint64_t outer, std::uint64_t inner, bool batch_fast,
                            const Side& in, const Side& out);
  /// Whether a layout's batch entries lie closer in memory than a transform's elements on a
  /// side (innermost batching, interleaved channels): its passes then take the batch as their
  /// fastest level. One level of batch.
  static bool batch_fast(const FftLayout& l) {
    return l.batch > 1 && (closer(l.in_dist, l.in_stride) || closer(l.out_dist, l.out_stride));
  }
  /// Whether neighbours `dist` apart lie closer in memory than elements `stride` apart.
  static bool closer(std::int64_t dist, std::int64_t stride) {
    return (dist < 0 ? -dist : dist) < (stride < 0 ? -stride : stride);
  }

  /// Whether a side holds the transforms as columns: adjacent transforms closer in memory than
  /// a transform's adjacent elements (the strided sides of the four-step's passes, the outer
  /// axes of N-D arrays, innermost batching). A work-group reading one such transform would use
  /// a few bytes of every memory sector it touches; DeviceFft's column shape gives each group
  /// enough adjacent transforms to use them whole.
  bool columns() const {
    const std::int64_t in_next = fast > 1 ? in_dist_fast : in_dist_inner;
    const std::int64_t out_next = fast > 1 ? out_dist_fast : out_dist_inner;
    return count > 1 && (closer(in_next, in_stride) || closer(out_next, out_stride));
  }
};

/// The twiddle W_T^(i e) between two passes (i the inner transform index, e the output element):
/// two tables of about sqrt(T) roots each, computed in long double, rounded once, on the device.
struct FftPassTwiddles {
  std::uint64_t n = 1;      ///< T
  std::uint32_t split = 1;  ///< W_T^m = A[m % split] * B[m / split]
  std::shared_ptr<const Memory> table;  // shared through the context's table cache

  /// Tables in double when `as_double` (double data, or float data on a device with fp64).
  static FftPassTwiddles make(Context& context, std::uint64_t n, bool as_double);
};

class DeviceFft {
 public:
  /// Transforms of size n. Throws Unsupported for sizes the one kernel does not take
  /// (fits_one_kernel; naming n) and for double on a device without it; InvalidArgument for n = 0.
  /// With pass_twiddle, the program multiplies its outputs by an FftPassTwiddles table given
  /// to launch() (the first passes of a multi-pass FFT; Rader's and Bluestein's whole DFTs too). With columns, the program is shaped for
  /// launches whose FftPass::columns() holds (any launch is correct with either shape). conv
  /// (n codelet-smooth) fuses steps of Bluestein's algorithm for size conv.n into the FFT of n
  /// (a pass of DeviceFftBluestein); its tables are made here. real (real.complex_size() == n
  /// >= 2, no pass twiddle or conv) makes it the one-kernel program of that real transform
  /// (DeviceFftReal); its launches count reals on the real side. With real.pass_step, the
  /// program is instead a first pass (with the pass twiddle) or last pass (without) of a plan
  /// of the real transform's complex size (DeviceFftPlan; n a codelet-smooth factor of it), or
  /// Bluestein's loading (first) or storing (last) fused pass of that size, conv's element step
  /// the pass step;
  /// InvalidArgument naming the sizes otherwise. batch_fast makes a
  /// program that takes launches with a fastest level of batch (FftPass::fast; the others take
  /// fast = 1 and spend no division or register on it).
  DeviceFft(Context& context, std::uint64_t n, bool double_precision, bool pass_twiddle = false,
            bool columns = false, const FftConvolution& conv = {}, const FftReal& real = {},
            bool batch_fast = false);

  /// The stage and work-item plan of size n (throws as the constructor); for a size that is
  /// not codelet_smooth, that of its Rader or Bluestein convolution. The column shape puts
  /// at least FftShapeTuning::column_bytes of adjacent transforms in a group (exchanging real and imaginary
  /// parts in turn where that makes them fit the local memory budget), in groups of at most
  /// max_group work-items (the device's limit; fewer transforms where it is lower). For an
  /// r2c's split pass (real.split_pass()) a group holds an even number of transforms, the split
  /// exchange taken where two would not fit; Unsupported naming n where even that does not
  /// (pairs_fit). `real` is the shape's.
  static FftShape shape(std::uint64_t n, bool double_precision, bool columns = false,
                        std::uint64_t max_group = kFftMaxGroup, const FftConvolution& conv = {},
                        const FftReal& real = {});
  /// Throws InvalidArgument naming the sizes unless `real` (real.n != 0) fits a program of
  /// size n and `shape` (shape(n, ...)) with or without the pass twiddle and Bluestein's steps
  /// `conv`: a whole real transform in one kernel (no twiddle or steps), or a real plan's first
  /// pass (with the twiddle) or last (without) whose step divides the complex size's rest, or
  /// Bluestein's loading or storing pass of that size. No device needed.
  static void check_real(std::uint64_t n, const FftShape& shape, bool pass_twiddle, const FftConvolution& conv,
                         const FftReal& real);
  /// Whether an r2c's split pass of n points fits a group (two transforms in the local memory
  /// budget and max_group work-items).
  static bool pairs_fit(std::uint64_t n, bool double_precision, std::uint64_t max_group = kFftMaxGroup);
  /// twiddle_double: the pass twiddle of a float program computed in double (fp64 devices).
  static ProgramSpec program(const FftShape& shape, bool double_precision, bool pass_twiddle = false,
                             bool twiddle_double = false);
  /// Waits until the program is compiled and loaded; throws DeviceError if that failed. (The
  /// constructor starts it on a thread of its own; launch() waits too.)
  void wait_ready() const { module_.wait(); }
  /// Whether pass twiddle tables for this program are double.
  bool pass_twiddles_double() const { return double_ || twiddle_double_; }

  std::uint64_t size() const { return shape_.transform_size(); }
  const FftShape& plan_shape() const { return shape_; }
  std::size_t element_bytes() const { return double_ ? 16 : 8; }

  /// out = norm-scaled DFT of in for every transform of the layout, enqueued on `stream`. in and
  /// out may be the same memory when both sides have the same layout. Throws InvalidArgument if
  /// a stride is below 1, a distance is negative, or an element falls outside a buffer.
  void run(Stream& stream, const Memory& in, Memory& out, const FftLayout& layout, fft::Direction direction,
           fft::Norm norm = fft::Norm::backward) const;

  /// Throws Unsupported naming the counts if launch() cannot take `pass`'s transforms in
  /// launches of fewer than 2^31 each (the kernel's 32-bit transform index): only where one
  /// outer index holds that many and the program reads the inner index for more than addresses
  /// (a pass twiddle, Bluestein's or a real pass's tables), or with a fastest level of batch.
  void check_pass(const FftPass& pass) const;

  /// Enqueues the transforms of `pass` (unchecked but as check_pass), outputs scaled by `scale`
  /// and, for a pass_twiddle program, turned by `twiddles`: one launch, or several of fewer than
  /// 2^31 transforms each (whole outer indices, else runs of one's inner indices). No allocation.
  void launch(Stream& stream, const Memory& in, Memory& out, const FftPass& pass, fft::Direction direction,
              double scale, const FftPassTwiddles* twiddles = nullptr) const;

 private:
  // How launch() takes a pass: launches of at most `per_launch` transforms, whole outer indices
  // (by_outer) or runs of one outer index's inner indices.
  struct Chunks {
    std::uint64_t per_launch;
    bool by_outer;
  };
  Chunks chunks(const FftPass& pass) const;  // throws as check_pass
  void launch_one(Stream& stream, const Memory& in, Memory& out, const FftPass& pass, double dir, double scale,
                  const FftPassTwiddles* twiddles) const;

  FftShape shape_;
  bool double_;
  bool pass_twiddle_ = false;
  std::uint64_t launch_transforms_;  // FftShapeTuning's, at most 2^31 - 1
  bool twiddle_double_ = false;
  PendingModule module_;  // compiled on its own thread (program.hpp)
  std::shared_ptr<const Memory> twiddles_;  // shared through the context's table cache
  // Bluestein's tables (idem), if conv; Rader's index table and spectrum in their place
  std::shared_ptr<const Memory> chirp_, chirp_spectrum_;
  std::shared_ptr<const Memory> real_twiddles_;           // W_n^k, k <= n/2 (idem), if real.n even
};

/// The FFT programs the NVRTC test compiles: every radix, the split exchange, one and several
/// transforms per group, N = 1, and the pass-twiddle programs of multi-pass plans (float with
/// float or double twiddles, double).
std::vector<KernelVariant> fft_kernel_variants();

}  // namespace ripple::gpu
