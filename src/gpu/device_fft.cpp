// Launch logic of the one-kernel batched FFT: stage plan, program constants, twiddle table.
#include "gpu/device_fft.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <complex>
#include <mutex>
#include <utility>

#include "fft/unit_roots.hpp"
#include "gpu/device_fft_bluestein.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_fft_rader.hpp"
#include "gpu/device_fft_real.hpp"
#include "gpu/device_tables.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

std::vector<std::uint64_t> codelet_smooth_sizes(std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint64_t> sizes;
  if (lo > hi) return sizes;
  // The odd products p <= hi, one odd prime at a time; then p 2^k for each k with lo <= p 2^k <= hi.
  const auto odd_products = [&](const auto& self, std::size_t prime, std::uint64_t p) -> void {
    if (prime == kFftCodeletPrimes.size()) {
      std::uint64_t m = p;
      while (m < lo && m <= hi / 2) m *= 2;
      for (; m >= lo && m <= hi; m *= 2) {
        sizes.push_back(m);
        if (m > hi / 2) break;
      }
      return;
    }
    const std::uint64_t q = kFftCodeletPrimes[prime];
    for (std::uint64_t m = p;; m *= q) {
      self(self, prime + 1, m);
      if (m > hi / q) break;
    }
  };
  static_assert(kFftCodeletPrimes[0] == 2);
  odd_products(odd_products, 1, 1);
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::uint64_t bluestein_size(std::uint64_t n) {
  const std::uint64_t lo = 2 * n - 1;
  for (std::uint64_t m = lo; m < lo + 4096; ++m)  // 10 ns each
    if (codelet_smooth(m)) return m;
  return codelet_smooth_sizes(lo, std::bit_ceil(lo)).front();  // a power of two is one
}

namespace {

// Butterflies per work-item in the stage with the most of them: 2 keeps a 4096-point float
// transform at 256 work-items with 16 registers of values each.
constexpr std::uint64_t kButterfliesPerItem = 2;
// The most work-items a double transform may have; above, each takes more butterflies. A group of
// 683 (4095 = 3^2 5 7 13 points, 1365 radix-3 butterflies) capped ptxas at 80 registers a thread
// for 13 double complex values and the split exchange, and it spilled; at 455 Bluestein's
// 4095-point convolution still spilled (128 registers). At 384 none of the NVRTC test's variants
// spills (sm_90, 96-190 registers). The occupancy this costs is unmeasured.
constexpr std::uint64_t kMaxItemsDouble = 384;
// Rader's and Bluestein's whole DFTs hold two transforms' worth of values, tables and indices in
// one program: at the caps above, ptxas spilled Rader's 2052-point double convolution (342
// items, 168 registers) and his 8190-point float one (1024 items, 64 registers), and
// Bluestein's 2039 in float with a pass twiddle (680 items, 80 registers: 16 bytes). So a
// transform of Rader's takes at most these many items, and one of Bluestein's the general cap
// or the float one here, the lower (in double, 384). A group of several transforms takes at
// most these many too (one transform a group may have more: Bluestein's in double): column
// groups of Rader's spilled (f32 1021 to 4057 on 680 to 1000 items, 64-80 registers: 48-184
// bytes), and Bluestein's f64 667 with a pass twiddle (448 items: 4 bytes). Fewer items, each
// with more butterflies, may have more registers, and not every program fits them without a
// spill: a reviewer compiled all 178 Rader primes and 223 Bluestein sizes the planner picks, with
// the pass twiddle, as rows and columns, at these caps: 17 of Rader's spill 4-24 bytes (f32 61,
// 127, 251, 313, 433, 601, 1453, 1597, 3329; f64 89, 137, 193, 211, 953, 1123, 1217, 2129),
// Bluestein's f32 4-24 (473, 536, 644, 787, 1143, 1189, 1351, 1924) and f64 8-148 on 279-377
// items (1253, 1397, 1418, 1606, 1619, 1714, 1880, 1924, 1943, 1994, 2015; most of them without
// the twiddle too), and his one-kernel f32 376 8 bytes at 56 registers on 126 items. None of the
// NVRTC test's programs spills; what the spills cost is for a GPU to measure.
constexpr std::uint64_t kMaxItemsConvolutionDouble = 256, kMaxItemsConvolutionFloat = 512;
// Stages of radix kFftSmallestUnpairedRadix and larger take one butterfly per work-item: a
// codelet of R points holds about 2R complex values (the sums and differences of its pairs
// besides its inputs and outputs; radix 16's sixteen after its first four DFTs of 4). Radix 13,
// the largest below it, is paired.
static_assert(kFftSmallestUnpairedRadix > 13 && kFftSmallestUnpairedRadix <= 16);
// Groups of fewer work-items than this take several transforms.
constexpr unsigned kMinGroup = 64;
// Local memory one group may use: 32 KiB leaves room for two groups per SM on CUDA within the
// 48 KiB a static __shared__ array may have, and is the least OpenCL's full profile lets a
// device report (CL_DEVICE_LOCAL_MEM_SIZE; an embedded-profile device with less is told
// Unsupported by the DeviceFft constructor); a double transform of more than 2048 points
// exchanges real and imaginary parts in turn to stay in it.
constexpr std::uint64_t kLocalBudget = 32768;
// Bytes of local memory in one row of a GPU's banks (32 of 4 bytes): FftShape::lds_row's unit.
constexpr std::uint64_t kLdsRowBytes = 128;

std::vector<unsigned> radices_of(std::uint64_t n) {
  std::vector<unsigned> r;
  unsigned twos = 0;
  while (n % 2 == 0) {
    n /= 2;
    ++twos;
  }
  // Powers of two: radix 16 stages (the fewest exchanges through local memory), the rest as
  // one 8, or 8 x 8 x 8, 8 x 8 or 8 x 4 in place of two 16s and a 2, a 16 and a 4, or a 16 and a
  // 2: the smallest radix sets the work-items a transform has, which idle in the stages of
  // larger ones (8192 = 16 x 8 x 8 x 8 on 512 items where 16 x 16 x 16 x 2 would need 2048).
  const unsigned sixteens = twos / 4, rest = twos % 4;
  if (rest == 0 || rest == 3 || sixteens == 0) {
    r.insert(r.end(), sixteens, 16);
    if (rest != 0) r.push_back(1u << rest);
  } else if (rest == 1 && sixteens >= 2) {
    r.insert(r.end(), sixteens - 2, 16);
    r.insert(r.end(), 3, 8);
  } else {  // 2^5 = 8 x 4, 2^(4s+2) = 16^(s-1) x 8 x 8
    r.insert(r.end(), sixteens - 1, 16);
    r.push_back(8);
    r.push_back(1u << (rest + 1));
  }
  for (std::uint64_t p : kFftCodeletPrimes)
    while (p > 2 && n % p == 0) {
      n /= p;
      r.push_back(static_cast<unsigned>(p));
    }
  if (n != 1) r.clear();  // a prime without a codelet: the caller reports it
  return r;
}

std::mutex shape_tuning_mutex;
FftShapeTuning shape_tuning;

}  // namespace

FftShapeTuning fft_shape_tuning() {
  std::lock_guard lock(shape_tuning_mutex);
  return shape_tuning;
}
void set_fft_shape_tuning(const FftShapeTuning& tuning) {
  std::lock_guard lock(shape_tuning_mutex);
  shape_tuning = tuning;
}

FftShape DeviceFft::shape(std::uint64_t transform_size, bool double_precision, bool columns, std::uint64_t max_group,
                          const FftConvolution& conv, const FftReal& real) {
  if (transform_size == 0) throw InvalidArgument("DeviceFft: size n is 0");
  const bool smooth = codelet_smooth(transform_size);
  if (conv.n != 0 && (!smooth || conv.whole()))
    throw InvalidArgument("DeviceFft: Bluestein's steps for size " + std::to_string(conv.n) +
                          " go with a codelet-smooth FFT size and not all three (size n " +
                          std::to_string(transform_size) + ")");
  const std::uint64_t on_chip = fft_max_on_chip(double_precision);
  if (!fits_one_kernel(transform_size, double_precision)) {
    const std::string n_text = "DeviceFft: size n " + std::to_string(transform_size);
    if (smooth)
      throw Unsupported(n_text + " exceeds " + std::to_string(on_chip) + ", the largest " +
                        (double_precision ? "double" : "float") +
                        " transform the one-kernel GPU FFT takes (DeviceFftPlan takes larger sizes in passes)");
    throw Unsupported(n_text + " has a prime factor above " + std::to_string(kFftCodeletPrimes.back()) +
                      ", is not a prime of at most " + std::to_string(std::min(on_chip, kFftMaxRaderOnChip) + 1) +
                      " whose n - 1 is codelet-smooth (Rader's algorithm), and has a Bluestein convolution of " +
                      std::to_string(bluestein_size(transform_size)) + " points, above the one-kernel GPU FFT's " +
                      std::to_string(std::min(on_chip, kFftMaxBluesteinOnChip)) + " (DeviceFftPlan takes it in passes)");
  }
  FftShape s;
  // Sizes without a codelet: Rader's convolution of n - 1 where n is a prime that takes it, else
  // Bluestein's.
  const bool rader = !smooth && rader_fits(transform_size, double_precision);
  if (rader) s.rader = transform_size;
  else s.conv = smooth ? conv : FftConvolution::whole_dft(transform_size);
  const std::uint64_t n = smooth ? transform_size : rader ? transform_size - 1 : bluestein_size(transform_size);
  s.n = n;
  s.radices = radices_of(n);
  std::uint64_t most = 1;
  for (unsigned r : s.radices) most = std::max<std::uint64_t>(most, n / r);
  std::uint64_t per_item = kButterfliesPerItem;
  // A whole DFT by Rader's or Bluestein's convolution: two transforms in one program. The
  // device's groups may be smaller than the caps (256 work-items on AMD's OpenCL GPUs): each
  // item then takes more butterflies.
  const bool convolution = rader || s.conv.whole();
  const std::uint64_t convolution_items = double_precision ? kMaxItemsConvolutionDouble : kMaxItemsConvolutionFloat;
  const std::uint64_t general_items = double_precision ? kMaxItemsDouble : kFftMaxGroup;
  const std::uint64_t transform_items =
      rader ? convolution_items : s.conv.whole() ? std::min(general_items, kMaxItemsConvolutionFloat) : general_items;
  const std::uint64_t max_items = std::min(transform_items, std::max<std::uint64_t>(max_group, 1));
  while ((most + per_item - 1) / per_item > max_items) ++per_item;
  std::uint64_t items = (most + per_item - 1) / per_item;
  for (unsigned r : s.radices)
    if (r >= kFftSmallestUnpairedRadix) items = std::max<std::uint64_t>(items, n / r);
  if (items > max_group)
    throw Unsupported("DeviceFft: size n " + std::to_string(transform_size) + " needs " + std::to_string(items) +
                      " work-items a transform (its radix-16 or larger stages take a butterfly each); the device's "
                      "work-groups hold " + std::to_string(max_group) + " (fft_max_on_chip: " +
                      std::to_string(fft_max_on_chip(double_precision, max_group)) + " points at most)");
  s.threads_per_transform = static_cast<unsigned>(items);
  s.slots = 1;
  for (unsigned r : s.radices) {
    const std::uint64_t per_item = (n / r + s.threads_per_transform - 1) / s.threads_per_transform;
    s.slots = std::max<unsigned>(s.slots, static_cast<unsigned>(per_item * r));
  }
  const std::uint64_t complex_bytes = double_precision ? 16 : 8;
  s.columns = columns;
  std::uint64_t wanted = std::max(1u, kMinGroup / s.threads_per_transform);
  const FftShapeTuning tunables = fft_shape_tuning();
  if (columns) wanted = std::max(wanted, (tunables.column_bytes + complex_bytes - 1) / complex_bytes);
  const bool paired = real.split_pass();
  if (paired) wanted = std::max<std::uint64_t>(wanted, 2);
  // A convolution's cap holds for its whole group (see kMaxItemsConvolutionFloat).
  const std::uint64_t group_items = std::min({max_group, kFftMaxGroup, convolution ? convolution_items : kFftMaxGroup});
  wanted = std::min(wanted, std::max<std::uint64_t>(1, group_items / s.threads_per_transform));
  // The split exchange (half the local memory, two rounds of barriers) where one transform
  // does not fit the budget, for columns where the transforms a group wants do not, and for a
  // split pass where two do not.
  const std::uint64_t values = s.local_values();
  s.split_exchange = values * complex_bytes * (columns ? wanted : paired ? 2 : 1) > kLocalBudget;
  const std::uint64_t lds_bytes = values * (s.split_exchange ? complex_bytes / 2 : complex_bytes);
  std::uint64_t per_group = std::min(wanted, std::max<std::uint64_t>(1, kLocalBudget / lds_bytes));
  if (paired) {
    per_group -= per_group % 2;
    if (per_group < 2)
      throw Unsupported("DeviceFft: an r2c's split pass of size n " + std::to_string(n) +
                        " cannot hold two transforms in a group of at most " + std::to_string(max_group) +
                        " work-items and " + std::to_string(kLocalBudget) + " bytes of local memory");
  }
  s.transforms_per_group = static_cast<unsigned>(per_group);
  s.real = real;
  const bool can_stage = !s.split_exchange && !rader && !s.conv.whole() && real.n == 0 && !s.radices.empty();
  // Rows: one work-item a transform of at least a sector. Columns: none that interleave
  // (FftShape::interleaves: a warp's direct loads then take the group's adjacent transforms at
  // once, whole sectors where the group's row holds one, as a staged tile would, without its
  // round trip through local memory and its barriers); others (interleaving off, or rows of
  // more than a sector: f32 60-point columns, 6 a group) where a warp's
  // lanes, taking 32 / TPT adjacent transforms when they load directly, would read less than a
  // sector of each row while the group's tile row holds one (float columns of 256 points and
  // up; 128 and below read whole sectors directly). In the access model (tests/gpu/access_model,
  // 2026-11-30) direct column sides used 50% of each sector they touched for 256 points and 25%
  // for 1024, staged and interleaved 100%, with no bank conflicts; not timed on a GPU yet
  // (bench_gpu_fft's caps section times every pass staged and not).
  const std::uint64_t warp_transforms = std::max<std::uint64_t>(1, kWarpItems / s.threads_per_transform);
  s.interleave = tunables.interleave;
  const bool interleaves = s.interleaves(double_precision);  // unstaged, as it would be
  const bool by_rule =
      columns ? !interleaves &&
                    std::min<std::uint64_t>(warp_transforms, per_group) * complex_bytes < tuning::kFftStagedIoBytes &&
                    per_group * complex_bytes >= tuning::kFftStagedIoBytes
              : s.threads_per_transform == 1 && n * complex_bytes >= tuning::kFftStagedIoBytes;
  s.staged_io = can_stage && (tunables.staging < 0 ? by_rule : tunables.staging > 0);
  // Even sizes only: in the access model (tests/gpu/access_model, float, 2026-11-30) padding took
  // the passes of an exchange's stores through the banks from 3-20 to 1-3 times the least for
  // even sizes (6 to 8192; 2 x 3^5 and 2 x 5^4 lost 2-15%), but made odd sizes' worse (5^3 2.7
  // to 5.4, 3^5 2.0 to 2.6), whose odd strides spread over the banks by themselves. Not
  // Rader's or the real transforms' programs: padded, ptxas (sm_90) spilled in the NVRTC test's
  // (Rader's 4057 f64 84 bytes at 255 registers, 1021 f64 as columns 4; r2c 120 f32 4);
  // Bluestein's did not.
  const bool spills_padded = rader || real.n != 0;
  if (tunables.pad_local && !spills_padded && !s.radices.empty() && n % 2 == 0)
    s.lds_row = kLdsRowBytes / s.lds_value_bytes(double_precision);
  return s;
}

bool DeviceFft::pairs_fit(std::uint64_t n, bool double_precision, std::uint64_t max_group) {
  if (!codelet_smooth(n) || n > fft_max_on_chip(double_precision)) return false;
  try {
    shape(n, double_precision, false, max_group, {}, FftReal{2, true, 1, true});
    return true;
  } catch (const Unsupported&) {
    return false;
  }
}

ProgramSpec DeviceFft::program(const FftShape& s, bool double_precision, bool pass_twiddle, bool twiddle_double) {
  ProgramSpec spec;
  spec.files = {"dialect.h", "fft_codelets.h", "fft_chirp.h", "fft_c2c.cl"};
  spec.defines = {{"RIPPLE_DOUBLE", double_precision ? "1" : "0"},
                  {"FFT_TWIDDLE", pass_twiddle ? "1" : "0"},
                  {"FFT_TWIDDLE_DOUBLE", pass_twiddle && twiddle_double && !double_precision ? "1" : "0"},
                  {"FFT_N", std::to_string(s.n)},
                  {"FFT_STAGES", std::to_string(s.radices.size())},
                  {"FFT_TPT", std::to_string(s.threads_per_transform)},
                  {"FFT_TPG", std::to_string(s.transforms_per_group)},
                  {"FFT_SLOTS", std::to_string(s.slots)},
                  {"FFT_SPLIT", s.split_exchange ? "1" : "0"},
                  {"FFT_BATCH_FAST", s.batch_fast ? "1" : "0"}};
  if (s.stages()) spec.defines.push_back({"FFT_STAGED_IO", "1"});
  if (s.interleaves(double_precision)) spec.defines.push_back({"FFT_INTERLEAVED", "1"});
  if (s.lds_row != 0)
    spec.defines.insert(spec.defines.end(), {{"FFT_LDS_ROW", std::to_string(s.lds_row) + "u"},
                                             {"FFT_LDS_SLOT", std::to_string(s.lds_slot(double_precision)) + "u"}});
  if (s.conv.n != 0) {
    const FftConvolution& c = s.conv;
    spec.defines.insert(spec.defines.end(), {{"FFT_BLUESTEIN_N", std::to_string(c.n) + "u"},
                                             {"FFT_CONV_LOAD", c.load ? "1" : "0"},
                                             {"FFT_CONV_MIDDLE", c.middle ? "1" : "0"},
                                             {"FFT_CONV_STORE", c.store ? "1" : "0"},
                                             {"FFT_CONV_E_STEP", std::to_string(c.e_step) + "u"},
                                             {"FFT_CONV_I_STEP", std::to_string(c.i_step) + "u"}});
  }
  if (s.rader != 0) spec.defines.push_back({"FFT_RADER", std::to_string(s.rader) + "u"});
  if (s.real.n != 0)
    spec.defines.insert(spec.defines.end(), {{"FFT_REAL_N", std::to_string(s.real.n) + "u"},
                                             {"FFT_REAL_R2C", s.real.r2c ? "1" : "0"},
                                             {"FFT_REAL_PASS_STEP", std::to_string(s.real.pass_step) + "u"},
                                             {"FFT_REAL_PASS_LAST", s.real.last_pass ? "1" : "0"}});
  std::uint64_t ns = 1, tw = 0;
  for (std::size_t i = 0; i < s.radices.size(); ++i) {
    const std::string k = std::to_string(i);
    spec.defines.push_back({"FFT_R" + k, std::to_string(s.radices[i])});
    spec.defines.push_back({"FFT_NS" + k, std::to_string(ns) + "u"});
    spec.defines.push_back({"FFT_TW" + k, std::to_string(tw)});
    if (ns > 1) tw += ns * (s.radices[i] - 1);
    ns *= s.radices[i];
  }
  if (!s.radices.empty()) {
    spec.defines.push_back({"FFT_LAST_R", std::to_string(s.radices.back())});
    spec.defines.push_back({"FFT_LAST_NS", std::to_string(s.n / s.radices.back()) + "u"});
  }
  return spec;
}

void DeviceFft::check_real(std::uint64_t n, const FftShape& shape, bool pass_twiddle, const FftConvolution& conv,
                           const FftReal& real) {
  if (real.n == 0) return;
  if (real.pass_step == 0) {
    if (real.complex_size() != n || n < 2 || pass_twiddle || conv.n != 0)
      throw InvalidArgument("DeviceFft: a real transform of " + std::to_string(real.n) +
                            " points is not a one-kernel FFT of size n " + std::to_string(n));
    return;
  }
  // A first pass has the pass twiddle, a last one not. Bluestein's (DeviceFftBluestein) are
  // his loading and storing fused passes, whose element e of transform i is index i + e S.
  // Rader's program and Bluestein's whole DFT are a first or last pass but an even r2c's split
  // pass (their stores do not pair transforms).
  const bool whole_dft = shape.rader != 0 || shape.conv.whole();
  const bool fits =
      conv.n == 0 ? (codelet_smooth(n) || (whole_dft && !real.split_pass())) && real.complex_size() % n == 0 &&
                        real.complex_size() / n % real.pass_step == 0
                  : real.complex_size() == conv.n && !conv.middle && conv.load != real.last_pass &&
                        conv.store == real.last_pass && conv.e_step == real.pass_step && conv.i_step == 1;
  if (!fits || real.last_pass == pass_twiddle)
    throw InvalidArgument("DeviceFft: a pass of size n " + std::to_string(n) + " (pass step " +
                          std::to_string(real.pass_step) + ", " + (real.last_pass ? "last" : "first") + ", " +
                          (pass_twiddle ? "with" : "without") + " the pass twiddle" +
                          (conv.n != 0 ? ", Bluestein's of " + std::to_string(conv.n) : std::string()) +
                          ") cannot be a pass of the " + (real.r2c ? "r2c" : "c2r") + " of " + std::to_string(real.n) +
                          " points: a factor of its complex size in one kernel whose step divides the rest (Rader's "
                          "or Bluestein's whole DFT but as a pass that splits an r2c's spectrum), or "
                          "Bluestein's loading or storing pass of that size with the step as its element's, "
                          "first with the pass twiddle or last without it");
}

DeviceFft::DeviceFft(Context& context, std::uint64_t n, bool double_precision, bool pass_twiddle, bool columns,
                     const FftConvolution& conv, const FftReal& real, bool batch_fast)
    : shape_(shape(n, double_precision, columns, context.facts().max_work_group, conv, real)),
      double_(double_precision),
      pass_twiddle_(pass_twiddle),
      launch_transforms_(std::clamp<std::uint64_t>(fft_shape_tuning().launch_transforms, 1, 0x7fffffffULL)) {
  shape_.batch_fast = batch_fast;
  check_real(n, shape_, pass_twiddle, conv, real);
  const DeviceFacts& f = context.facts();
  twiddle_double_ = pass_twiddle && !double_precision && f.fp64;
  if (double_precision && !f.fp64) throw Unsupported("device " + f.name + " has no double precision");
  const std::uint64_t group = std::uint64_t(shape_.threads_per_transform) * shape_.transforms_per_group;
  if (group > f.max_work_group)
    throw Unsupported("DeviceFft: size n " + std::to_string(n) + " needs work-groups of " + std::to_string(group) +
                      " work-items; " + f.name + " allows " + std::to_string(f.max_work_group));
  // The padding costs a sixteenth (an eighth in double); a device whose local memory it would
  // not fit runs the program without it.
  if (shape_.lds_bytes(double_precision) > f.local_memory) shape_.lds_row = 0;
  const std::uint64_t lds = shape_.lds_bytes(double_precision);
  if (lds > f.local_memory)
    throw Unsupported("DeviceFft: size n " + std::to_string(n) + " needs " + std::to_string(lds) +
                      " bytes of local memory; " + f.name + " has " + std::to_string(f.local_memory));
  // Twiddles of every stage after the first, computed in long double and rounded once:
  // (cos, sin) of 2 pi r k / (NS R) for k < NS, 0 < r < R, at (r - 1) NS + k, so a warp's lanes
  // (consecutive k) read adjacent values: whole sectors in the access model (tests/gpu/
  // access_model), where k-major, k (R - 1) + r - 1, used 25-34% of each sector a load touched
  // (15-24 sectors a request for 131 to 2053 points, about ten times the data's sectors).
  const std::uint64_t m = shape_.n;  // the on-chip size (Bluestein's convolution for other sizes)
  std::string key = "fft stages n=" + std::to_string(m) + " radices";
  for (unsigned r : shape_.radices) {
    key += ' ';
    key += std::to_string(r);
  }
  twiddles_ = complex_table(context, key, double_precision, [&] {
    std::vector<std::complex<long double>> table;
    const fft::detail::UnitRoots roots(m);
    std::uint64_t ns = 1;
    for (unsigned r : shape_.radices) {
      if (ns > 1)
        for (unsigned q = 1; q < r; ++q)
          for (std::uint64_t k = 0; k < ns; ++k) {
            const std::complex<long double> w = roots(q * k * (m / (ns * r)));  // e^{-i theta}
            table.emplace_back(w.real(), -w.imag());
          }
      ns *= r;
    }
    if (table.empty()) table.emplace_back(1.0L, 0.0L);
    return table;
  });
  if (shape_.conv.n != 0) {
    const BluesteinTables t =
        BluesteinTables::make(context, shape_.conv.n, shape_.conv.length(), double_precision);
    chirp_ = t.chirp;
    chirp_spectrum_ = t.spectrum;
  }
  if (shape_.rader != 0) {
    const RaderTables t = RaderTables::make(context, shape_.rader, double_precision);
    chirp_ = t.index;
    chirp_spectrum_ = t.spectrum;
  }
  if (real.uses_twiddles()) real_twiddles_ = DeviceFftReal::twiddles(context, real.n, double_precision);
  module_ = get_module_async(context, program(shape_, double_precision, pass_twiddle_, twiddle_double_));
}

FftPassTwiddles FftPassTwiddles::make(Context& context, std::uint64_t n, bool as_double) {
  FftPassTwiddles t;
  t.n = n;
  std::uint64_t split = 1;
  while (split * split < n) ++split;
  t.split = static_cast<std::uint32_t>(split);
  const std::uint64_t coarse = (n + split - 1) / split;
  t.table = complex_table(context, "fft pass n=" + std::to_string(n), as_double, [&] {
    // (cos, sin) of 2 pi m / n: the conjugate of the forward root.
    std::vector<std::complex<long double>> roots;
    roots.reserve(split + coarse);
    for (std::uint64_t k = 0; k < split; ++k) roots.push_back(std::conj(fft::detail::unit_root(k, n)));
    for (std::uint64_t q = 0; q < coarse; ++q) roots.push_back(std::conj(fft::detail::unit_root(q * split, n)));
    return roots;
  });
  return t;
}

FftPass FftPass::over_batch(std::uint64_t batch, std::uint64_t outer, std::uint64_t inner, bool batch_fast,
                            const Side& in, const Side& out) {
  if (!batch_fast && batch > 1 && outer > 1)
    throw InvalidArgument("FftPass: a batch of " + std::to_string(batch) + " with " + std::to_string(outer) +
                          " outer indices needs the batch as the fastest level");
  FftPass p;
  p.count = batch * outer * inner;
  p.inner = inner;
  p.in_stride = in.stride;
  p.in_dist_inner = in.inner;
  p.out_stride = out.stride;
  p.out_dist_inner = out.inner;
  if (batch_fast) {
    p.fast = batch;
    p.in_dist_fast = in.batch;
    p.out_dist_fast = out.batch;
    p.in_dist_outer = in.outer;
    p.out_dist_outer = out.outer;
  } else {
    p.in_dist_outer = outer > 1 ? in.outer : in.batch;
    p.out_dist_outer = outer > 1 ? out.outer : out.batch;
  }
  return p;
}

namespace {

void check_side(const char* side, std::int64_t stride, std::int64_t dist, std::uint64_t n, std::uint64_t batch,
                std::size_t elements) {
  if (stride < 1)
    throw InvalidArgument(std::string("DeviceFft: ") + side + " stride " + std::to_string(stride) + " is below 1");
  if (dist < 0)
    throw InvalidArgument(std::string("DeviceFft: ") + side + " distance " + std::to_string(dist) + " is negative");
  const long double last = static_cast<long double>(n - 1) * stride + static_cast<long double>(batch - 1) * dist;
  if (last >= static_cast<long double>(elements))
    throw InvalidArgument(std::string("DeviceFft: the ") + side + " layout (stride " + std::to_string(stride) +
                          ", distance " + std::to_string(dist) + ", n " + std::to_string(n) + ", batch " +
                          std::to_string(batch) + ") reaches element " +
                          std::to_string(static_cast<unsigned long long>(last)) + " of a buffer of " +
                          std::to_string(elements));
}

}  // namespace

void DeviceFft::run(Stream& stream, const Memory& in, Memory& out, const FftLayout& l, fft::Direction direction,
                    fft::Norm norm) const {
  if (l.batch == 0) return;
  if (l.two_level()) throw InvalidArgument("DeviceFft::run: takes one level of batch (DeviceFftPlan takes two)");
  if (shape_.real.n != 0) throw InvalidArgument("DeviceFft::run: complex layouts only (DeviceFftReal runs real ones)");
  const std::uint64_t n = size();
  check_side("input", l.in_stride, l.in_dist, n, l.batch, in.bytes() / element_bytes());
  check_side("output", l.out_stride, l.out_dist, n, l.batch, out.bytes() / element_bytes());
  const bool forward = direction == fft::Direction::forward;
  double scale = 1.0;
  if (norm == fft::Norm::ortho)
    scale = 1.0 / std::sqrt(static_cast<double>(n));
  else if ((norm == fft::Norm::backward) != forward)
    scale = 1.0 / static_cast<double>(n);
  launch(stream, in, out, FftPass::of(l), direction, scale);
}

DeviceFft::Chunks DeviceFft::chunks(const FftPass& p) const {
  const std::uint64_t most = launch_transforms_;
  if (p.count <= most) return {most, true};
  // Transforms of one outer index: inner fast (each at most the count, so test before multiplying)
  if (p.fast <= most && p.inner <= most / p.fast) return {most / (p.inner * p.fast) * p.inner * p.fast, true};
  // Runs of inner indices need a program that reads the inner index for addresses only.
  const bool addresses_only = !pass_twiddle_ && shape_.conv.i_step == 0 && shape_.real.pass_step == 0;
  if (p.fast == 1 && addresses_only) return {most, false};
  throw Unsupported("GPU FFT: " + std::to_string(p.count) + " transforms of size n " + std::to_string(size()) +
                    " in outer indices of " + std::to_string(p.inner) + " x " + std::to_string(p.fast) +
                    " each: a launch takes at most " + std::to_string(most) +
                    ", and this pass cannot split an outer index (its program reads the transform's inner index, "
                    "or has a fastest level of batch)");
}

void DeviceFft::check_pass(const FftPass& pass) const { chunks(pass); }

void DeviceFft::launch(Stream& stream, const Memory& in, Memory& out, const FftPass& p, fft::Direction direction,
                       double scale, const FftPassTwiddles* twiddles) const {
  if (p.count == 0) return;
  if (shape_.real.split_pass() && (p.inner != FftReal::split_pass_inner(shape_.real.pass_step) || p.count % p.inner != 0))
    throw InvalidArgument("DeviceFft: a split pass of step " + std::to_string(shape_.real.pass_step) +
                          " was launched with inner " + std::to_string(p.inner) + " and count " + std::to_string(p.count) +
                          " (inner must be the step rounded up to even, and divide the count)");
  if (p.fast == 0 || p.inner == 0 || (p.fast > 1 && !shape_.batch_fast))
    throw InvalidArgument("DeviceFft: a launch with inner " + std::to_string(p.inner) + " and fast " +
                          std::to_string(p.fast) + " (both at least 1; fast 1 for a program without the fastest "
                          "level of batch)");
  if (pass_twiddle_ != (twiddles != nullptr))
    throw InvalidArgument(std::string("DeviceFft: a program ") + (pass_twiddle_ ? "with" : "without") +
                          " a pass twiddle was launched " + (twiddles != nullptr ? "with" : "without") + " its table");
  // The store reads W_T^(i e) at i e, unreduced: every inner index times every output must stay below T.
  if (twiddles != nullptr && static_cast<long double>(p.inner - 1) * static_cast<long double>(size() - 1) >=
                                 static_cast<long double>(twiddles->n))
    throw InvalidArgument("DeviceFft: a pass twiddle of " + std::to_string(twiddles->n) + " points with inner " +
                          std::to_string(p.inner) + " and " + std::to_string(size()) +
                          "-point transforms (inner index times output index must stay below it)");
  const double dir = direction == fft::Direction::forward ? -1.0 : 1.0;
  const Chunks c = chunks(p);
  if (c.by_outer) {
    const std::uint64_t level = p.inner * p.fast;  // transforms an outer index holds
    for (std::uint64_t first = 0; first < p.count; first += c.per_launch) {
      FftPass part = p;
      part.count = std::min(c.per_launch, p.count - first);
      const auto outer = static_cast<std::int64_t>(first / level);
      part.in_offset += outer * p.in_dist_outer;
      part.out_offset += outer * p.out_dist_outer;
      launch_one(stream, in, out, part, dir, scale, twiddles);
    }
    return;
  }
  for (std::uint64_t first = 0; first < p.count; first += p.inner)
    for (std::uint64_t i = 0; i < p.inner && first + i < p.count; i += c.per_launch) {
      FftPass part = p;
      part.count = part.inner = std::min({c.per_launch, p.inner - i, p.count - first - i});
      const auto outer = static_cast<std::int64_t>(first / p.inner), inner = static_cast<std::int64_t>(i);
      part.in_offset += outer * p.in_dist_outer + inner * p.in_dist_inner;
      part.out_offset += outer * p.out_dist_outer + inner * p.out_dist_inner;
      launch_one(stream, in, out, part, dir, scale, twiddles);
    }
}

void DeviceFft::launch_one(Stream& stream, const Memory& in, Memory& out, const FftPass& p, double dir, double scale,
                           const FftPassTwiddles* twiddles) const {
  const std::uint64_t groups = (p.count + shape_.transforms_per_group - 1) / shape_.transforms_per_group;
  Launch grid;
  grid.groups = {static_cast<std::uint32_t>(groups), 1, 1};
  grid.block = {shape_.threads_per_transform * shape_.transforms_per_group, 1, 1};
  const Memory& tw_table = twiddles != nullptr ? *twiddles->table : *twiddles_;
  const std::uint64_t tw_n = twiddles != nullptr ? twiddles->n : 1;
  const std::uint32_t tw_split = twiddles != nullptr ? twiddles->split : 1;
  const Memory& chirp = chirp_ ? *chirp_ : *twiddles_;  // read only by a Bluestein or Rader program
  const Memory& chirp_spectrum = chirp_spectrum_ ? *chirp_spectrum_ : *twiddles_;
  const Memory& real_twiddles = real_twiddles_ ? *real_twiddles_ : *twiddles_;  // read only by even real programs
  const std::array<Arg, 24> args = {
      Arg::memory(in),
      Arg::memory(out),
      Arg::memory(*twiddles_),
      Arg::value(static_cast<std::uint32_t>(p.count)),  // below 2^31 (chunks), as inner and fast
      Arg::value(static_cast<std::uint32_t>(p.inner)),
      Arg::value(static_cast<std::uint32_t>(p.fast)),
      Arg::value(p.in_offset),
      Arg::value(p.in_stride),
      Arg::value(p.in_dist_inner),
      Arg::value(p.in_dist_outer),
      Arg::value(p.in_dist_fast),
      Arg::value(p.out_offset),
      Arg::value(p.out_stride),
      Arg::value(p.out_dist_inner),
      Arg::value(p.out_dist_outer),
      Arg::value(p.out_dist_fast),
      Arg::memory(tw_table),
      Arg::value(tw_n),
      Arg::value(tw_split),
      Arg::memory(chirp),
      Arg::memory(chirp_spectrum),
      Arg::memory(real_twiddles),
      double_ ? Arg::value(dir) : Arg::value(static_cast<float>(dir)),
      double_ ? Arg::value(scale) : Arg::value(static_cast<float>(scale))};
  stream.launch(*module_, "fft_c2c", grid, args);
}

std::vector<KernelVariant> fft_kernel_variants() {
  std::vector<KernelVariant> out;
  for (bool dbl : {false, true}) {
    const std::string prec = dbl ? "_f64" : "_f32";
    for (std::uint64_t n : {1, 8, 60, 143, 243, 343, 625, 1024, 2197, 4004, 4095, 4096, 4080, 3971, 2432, 361, 3211})
      out.push_back({"fft_c2c_" + std::to_string(n) + prec, DeviceFft::program(DeviceFft::shape(n, dbl), dbl)});
    // Float up to 8192 points (the split exchange above 4096; 1024 work-items for 3^8), in the
    // column shape too.
    if (!dbl) {
      for (std::uint64_t n : {6561, 8190, 8192})
        out.push_back({"fft_c2c_" + std::to_string(n) + prec, DeviceFft::program(DeviceFft::shape(n, dbl), dbl)});
      out.push_back({"fft_c2c_8192" + prec + "_columns", DeviceFft::program(DeviceFft::shape(8192, dbl, true), dbl)});
    }
    for (std::uint64_t n : {64, 2048})
      for (bool tw_double : {false, true}) {
        if (dbl && !tw_double) continue;
        out.push_back({"fft_c2c_" + std::to_string(n) + prec + "_pass_twiddle" + (tw_double ? "64" : "32"),
                       DeviceFft::program(DeviceFft::shape(n, dbl), dbl, true, tw_double)});
      }
    // Column shapes: several transforms a group (64), with the split exchange (2048, 4096), with
    // the pass twiddle of the four-step's first pass (2048).
    for (std::uint64_t n : {64, 2048, 4096})
      out.push_back({"fft_c2c_" + std::to_string(n) + prec + "_columns", DeviceFft::program(DeviceFft::shape(n, dbl, true), dbl)});
    out.push_back({"fft_c2c_2048" + prec + "_columns_pass_twiddle",
                   DeviceFft::program(DeviceFft::shape(2048, dbl, true), dbl, true, true)});
    // A staged column tile with the pass twiddle (FftShapeTuning::staging 1, as the bench's caps
    // rows ask; by default columns interleave instead).
    {
      FftShape staged = DeviceFft::shape(256, dbl, true);
      staged.staged_io = true;
      out.push_back({"fft_c2c_256" + prec + "_columns_staged_pass_twiddle", DeviceFft::program(staged, dbl, true, true)});
    }
    // The passes of innermost-batched data, with the fastest level of batch (FftPass::fast): the
    // four-step's first (pass twiddle) and last of 2048, Bluestein's middle pass of 4099's.
    {
      FftShape first = DeviceFft::shape(2048, dbl, true), last = first;
      first.batch_fast = last.batch_fast = true;
      out.push_back({"fft_c2c_2048" + prec + "_columns_pass_twiddle_batch_fast", DeviceFft::program(first, dbl, true, true)});
      out.push_back({"fft_c2c_2048" + prec + "_columns_batch_fast", DeviceFft::program(last, dbl)});
    }
    // Bluestein in one kernel: 47 (convolution of 95), 1031 (2079: the split exchange in
    // double), 2039 (4080, the largest), and in the column shape (83).
    for (std::uint64_t n : {47, 1031, 2039})
      out.push_back({"fft_c2c_bluestein_" + std::to_string(n) + prec, DeviceFft::program(DeviceFft::shape(n, dbl), dbl)});
    out.push_back({"fft_c2c_bluestein_83" + prec + "_columns", DeviceFft::program(DeviceFft::shape(83, dbl, true), dbl)});
    // Rader in one kernel: 23 (several transforms a group), 97 (in the column shape too), 2053
    // (the split exchange in double), 4057 (the largest).
    for (std::uint64_t n : {23, 97, 2053, 4057})
      out.push_back({"fft_c2c_rader_" + std::to_string(n) + prec, DeviceFft::program(DeviceFft::shape(n, dbl), dbl)});
    out.push_back({"fft_c2c_rader_97" + prec + "_columns", DeviceFft::program(DeviceFft::shape(97, dbl, true), dbl)});
    // 1021 as columns: three of his transforms a group in float (510 items, the most registers).
    out.push_back({"fft_c2c_rader_1021" + prec + "_columns", DeviceFft::program(DeviceFft::shape(1021, dbl, true), dbl)});
    // Rader's and Bluestein's DFTs as passes of a plan (DeviceFftPlan::split_with_large_primes):
    // Rader's last pass of innermost-batched data; his and Bluestein's (47) earlier passes, with
    // the pass twiddle (float's in double, as on fp64 devices), as columns and with the batch
    // fastest; the largest of each (4057, 2039) as such columns.
    {
      FftShape last = DeviceFft::shape(97, dbl, true);
      last.batch_fast = true;
      out.push_back({"fft_c2c_rader_97" + prec + "_columns_batch_fast", DeviceFft::program(last, dbl)});
      for (const std::uint64_t n : {97, 47, 4057, 2039}) {
        const bool rader = n == 97 || n == 4057;
        const std::string name = std::string("fft_c2c_") + (rader ? "rader_" : "bluestein_") + std::to_string(n) + prec;
        FftShape first = DeviceFft::shape(n, dbl, true);
        out.push_back({name + "_columns_pass_twiddle", DeviceFft::program(first, dbl, true, true)});
        if (n > 97) continue;  // the largest of each: the most registers
        first.batch_fast = true;
        out.push_back({name + "_columns_pass_twiddle_batch_fast", DeviceFft::program(first, dbl, true, true)});
      }
    }
    // Bluestein's loading and storing passes staged by force (his chirp and his N in the tiles;
    // by default his columns interleave), where they do not take the split exchange.
    const auto add_staged_conv = [&](const std::string& name, std::uint64_t m1, const FftConvolution& load,
                                     const FftConvolution& store) {
      FftShape load_staged = DeviceFft::shape(m1, dbl, true, kFftMaxGroup, load),
               store_staged = DeviceFft::shape(m1, dbl, true, kFftMaxGroup, store);
      if (load_staged.split_exchange) return;
      load_staged.staged_io = store_staged.staged_io = true;
      out.push_back({name + "_load_staged", DeviceFft::program(load_staged, dbl, true, true)});
      out.push_back({name + "_store_staged", DeviceFft::program(store_staged, dbl)});
    };
    // Bluestein's three fused passes (4099: a convolution of M1 x M2 points), as
    // DeviceFftBluestein makes them: the load and store passes on columns.
    {
      const std::uint64_t n = 4099, m = bluestein_size(n);
      const std::vector<std::uint64_t> split = DeviceFftPlan::split(m, dbl);
      const std::uint64_t m1 = split.at(0), m2 = split.at(1);
      const std::string name = "fft_c2c_bluestein_" + std::to_string(n) + prec;
      const FftConvolution load{n, true, false, false, m2, 1}, middle{n, false, true, false, m1, 1},
          store{n, false, false, true, m2, 1};
      out.push_back({name + "_load", DeviceFft::program(DeviceFft::shape(m1, dbl, true, kFftMaxGroup, load), dbl, true, true)});
      out.push_back(
          {name + "_middle", DeviceFft::program(DeviceFft::shape(m2, dbl, false, kFftMaxGroup, middle), dbl, true, true)});
      // With the fastest level of batch (innermost batching): all three passes.
      FftShape load_fast = DeviceFft::shape(m1, dbl, true, kFftMaxGroup, load),
               middle_fast = DeviceFft::shape(m2, dbl, true, kFftMaxGroup, middle),
               store_fast = DeviceFft::shape(m1, dbl, true, kFftMaxGroup, store);
      load_fast.batch_fast = middle_fast.batch_fast = store_fast.batch_fast = true;
      out.push_back({name + "_load_batch_fast", DeviceFft::program(load_fast, dbl, true, true)});
      out.push_back({name + "_middle_batch_fast", DeviceFft::program(middle_fast, dbl, true, true)});
      out.push_back({name + "_store_batch_fast", DeviceFft::program(store_fast, dbl)});
      out.push_back({name + "_store", DeviceFft::program(DeviceFft::shape(m1, dbl, true, kFftMaxGroup, store), dbl)});
      add_staged_conv(name, m1, load, store);
      // The same passes of real transforms reading and writing the real side: odd 4099 each
      // way; even 8198 (a half of 4099) each way, the r2c's store splitting the spectrum.
      for (const std::uint64_t real_n : {n, 2 * n})
        for (bool r2c : {true, false}) {
          const std::string real_name = std::string("fft_real_bluestein_") + (r2c ? "r2c_" : "c2r_") +
                                        std::to_string(real_n) + prec;
          const FftReal first{real_n, r2c, m2, false}, last{real_n, r2c, m2, true};
          out.push_back({real_name + "_load",
                         DeviceFft::program(DeviceFft::shape(m1, dbl, true, kFftMaxGroup, load, first), dbl, true, true)});
          out.push_back({real_name + "_store",
                         DeviceFft::program(DeviceFft::shape(m1, dbl, true, kFftMaxGroup, store, last), dbl)});
        }
    }
    // Bluestein's five fused passes (the prime 8388617: a convolution of M1 x M2 x M3 points):
    // the load, the middle (M3-point rows stored as columns), the store (rows to the caller's
    // columns), and the forward and backward M2-point passes between them.
    {
      const std::uint64_t n = 8388617;
      const std::vector<std::uint64_t> split = DeviceFftBluestein::fused_split(n, dbl, kFftMaxOnChip);
      const std::uint64_t m1 = split.at(0), m2 = split.at(1), m3 = split.at(2), m = m1 * m2 * m3;
      const std::string name = "fft_c2c_bluestein_" + std::to_string(n) + prec;
      const FftConvolution load{n, true, false, false, m / m1, 1, m}, middle{n, false, true, false, m1 * m2, 1, m},
          store{n, false, false, true, m / m1, 1, m};
      out.push_back({name + "_load", DeviceFft::program(DeviceFft::shape(m1, dbl, true, kFftMaxGroup, load), dbl, true, true)});
      out.push_back({name + "_forward_backward",
                     DeviceFft::program(DeviceFft::shape(m2, dbl, true), dbl, true, true)});
      out.push_back(
          {name + "_middle", DeviceFft::program(DeviceFft::shape(m3, dbl, true, kFftMaxGroup, middle), dbl, true, true)});
      out.push_back({name + "_store", DeviceFft::program(DeviceFft::shape(m1, dbl, true, kFftMaxGroup, store), dbl)});
      add_staged_conv(name, m1, load, store);
    }
    // Real transforms in one kernel (FftReal): even n, the split in the store through local
    // memory and the merge in the load (120, in the column shape too; 8192, the split exchange
    // in double); odd n, widened reals and the Hermitian load (243); Rader's in-kernel sizes,
    // even (194, a half of 97; 4106, of 2053, the split exchange in double) and odd (97);
    // Bluestein's, even (166, a half of 83) and odd (83).
    const std::pair<std::uint64_t, bool> real_sizes[] = {{120, false}, {120, true},  {8192, false}, {243, false},
                                                         {194, false}, {97, false},  {4106, false}, {166, false},
                                                         {83, false}};
    for (const auto& [n, columns] : real_sizes)
      for (bool r2c : {true, false}) {
        const FftReal real{n, r2c};
        const FftShape s = DeviceFft::shape(real.complex_size(), dbl, columns, kFftMaxGroup, {}, real);
        out.push_back({std::string("fft_real_") + (r2c ? "r2c_" : "c2r_") + std::to_string(n) + prec +
                           (columns ? "_columns" : ""),
                       DeviceFft::program(s, dbl)});
      }
    // The first pass of an even real transform's complex plan, merging the spectrum (c2r) or
    // reading the reals in pairs (r2c) in its load, and the last pass of an even c2r, storing
    // the reals in pairs: 2^23 reals, 2^22 = 2048 x 2048 (column passes, the first with the
    // pass twiddle).
    {
      const std::uint64_t n = std::uint64_t(1) << 23;
      const std::vector<std::uint64_t> split = DeviceFftPlan::split(n / 2, dbl);
      for (bool r2c : {true, false}) {
        const FftShape s = DeviceFft::shape(split.at(0), dbl, true, kFftMaxGroup, {}, FftReal{n, r2c, split.at(1)});
        out.push_back({std::string("fft_real_") + (r2c ? "r2c_pairs" : "c2r_merge") + "_pass" + prec,
                       DeviceFft::program(s, dbl, true, true)});
      }
      FftShape last = DeviceFft::shape(split.at(1), dbl, true, kFftMaxGroup, {}, FftReal{n, false, split.at(0), true});
      out.push_back({"fft_real_c2r_pairs_pass" + prec, DeviceFft::program(last, dbl)});
      // Innermost-batched reals: the r2c's pairs read and the c2r's stored with the batch fastest.
      FftShape first = DeviceFft::shape(split.at(0), dbl, true, kFftMaxGroup, {}, FftReal{n, true, split.at(1)});
      first.batch_fast = last.batch_fast = true;
      out.push_back({"fft_real_r2c_pairs_pass" + prec + "_batch_fast", DeviceFft::program(first, dbl, true, true)});
      out.push_back({"fft_real_c2r_pairs_pass" + prec + "_batch_fast", DeviceFft::program(last, dbl)});
    }
    // The last pass of an even r2c's complex plan, splitting the spectrum in its store with
    // transforms i and S - i paired in a group: the largest (kFftMaxSplitPass; 2^21 reals,
    // 2^20 = 1024 x 1024), in the column shape.
    {
      const std::uint64_t h = std::uint64_t(1) << 20;
      const std::vector<std::uint64_t> split = DeviceFftPlan::split_for_real(h, dbl, kFftMaxOnChip, kFftMaxGroup);
      const std::uint64_t last = split.back();
      FftShape s = DeviceFft::shape(last, dbl, true, kFftMaxGroup, {}, FftReal{2 * h, true, h / last, true});
      out.push_back({"fft_real_r2c_split_pass" + prec, DeviceFft::program(s, dbl)});
      s.batch_fast = true;  // pairs of adjacent batch entries in a group
      out.push_back({"fft_real_r2c_split_pass" + prec + "_batch_fast", DeviceFft::program(s, dbl)});
      // Above the cap (a choice to measure on a GPU), a pass that takes the split exchange to
      // hold two transforms: 2048 points in double.
      if (dbl) {
        const FftShape x = DeviceFft::shape(2048, dbl, true, kFftMaxGroup, {}, FftReal{std::uint64_t(1) << 23, true, 2048, true});
        out.push_back({"fft_real_r2c_split_pass_2048" + prec + "_split_exchange", DeviceFft::program(x, dbl)});
      }
    }
    // The first and last passes of an odd real transform's complex plan, reading and writing
    // the real side: 3^10 = 243 x 243, both in the column shape (the first reads columns, the
    // last writes them), without and with the fastest level of batch.
    {
      const std::uint64_t n = 59049;
      const std::vector<std::uint64_t> split = DeviceFftPlan::split(n, dbl);
      for (bool r2c : {true, false}) {
        const std::string name = std::string("fft_real_") + (r2c ? "r2c" : "c2r") + "_odd_";
        FftShape first =
            DeviceFft::shape(split.at(0), dbl, true, kFftMaxGroup, {}, FftReal{n, r2c, split.at(1), false});
        out.push_back({name + "first_pass" + prec, DeviceFft::program(first, dbl, true, true)});
        FftShape last = DeviceFft::shape(split.at(1), dbl, true, kFftMaxGroup, {}, FftReal{n, r2c, split.at(0), true});
        out.push_back({name + "last_pass" + prec, DeviceFft::program(last, dbl)});
        // Both with the fastest level of batch (innermost-batched reals or half spectra).
        first.batch_fast = last.batch_fast = true;
        out.push_back({name + "first_pass" + prec + "_batch_fast", DeviceFft::program(first, dbl, true, true)});
        out.push_back({name + "last_pass" + prec + "_batch_fast", DeviceFft::program(last, dbl)});
      }
    }
    // Rader's and Bluestein's whole DFTs as a real plan's first pass, reading the real side
    // (with the pass twiddle), and last, writing it, both in the column shape: Rader's last of
    // odd r2c and c2r 5589 = 243 x 23 and even c2r 11776 (half 256 x 23, the reals in pairs);
    // his first and last of odd r2c 24929 = 97 x 257; Bluestein's first and last of odd r2c 3901
    // = 47 x 83 and even c2r 7802 (the spectrum merged in his load); as the first of an even
    // r2c, reading the reals in pairs before a smooth pass that splits the spectrum: Rader's of
    // 11776 (half 23 x 256), Bluestein's of 6016 (half 47 x 64).
    for (const auto& [n, r2c] : {std::pair<std::uint64_t, bool>{5589, true}, {5589, false}, {11776, false},
                                 {24929, true}, {3901, true}, {7802, false}, {11776, true}, {6016, true}}) {
      const FftReal real{n, r2c};
      const std::vector<std::uint64_t> passes =
          n % 2 == 0 && r2c ? DeviceFftPlan::split_for_real(real.complex_size(), dbl, kFftMaxOnChip, kFftMaxGroup)
                            : DeviceFftPlan::split_with_large_primes(real.complex_size(), dbl);
      const std::string name = std::string("fft_real_") + (r2c ? "r2c_" : "c2r_") + std::to_string(n);
      const auto kind = [dbl](std::uint64_t m) {
        return codelet_smooth(m) ? "_smooth" : rader_fits(m, dbl) ? "_rader" : "_bluestein";
      };
      const std::string first_kind = kind(passes.at(0)), last_kind = kind(passes.at(1));
      if (!codelet_smooth(passes.at(0))) {
        const FftShape first =
            DeviceFft::shape(passes.at(0), dbl, true, kFftMaxGroup, {}, FftReal{n, r2c, passes.at(1), false});
        out.push_back({name + first_kind + "_first_pass" + prec, DeviceFft::program(first, dbl, true, true)});
      }
      const FftShape last =
          DeviceFft::shape(passes.at(1), dbl, true, kFftMaxGroup, {}, FftReal{n, r2c, passes.at(0), true});
      out.push_back({name + last_kind + "_last_pass" + prec, DeviceFft::program(last, dbl)});
    }
    out.push_back({"fft_real" + prec, DeviceFftReal::program(dbl)});
  }
  return out;
}

}  // namespace ripple::gpu
