// Launch logic of the GPU biquad cascade (see device_sos.hpp).
#include "gpu/device_sos.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "gpu/device_scan.hpp"
#include "gpu/tuning.hpp"
#include "iir/state_space.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

namespace {

constexpr unsigned kScanWords = 6;  // scan_op_affine2.h

SosConfig with_defaults(SosConfig c) {
  if (c.block == 0) c.block = tuning::kSosBlock;
  if (c.items == 0) c.items = tuning::kSosItems;
  if (c.channel_block == 0) c.channel_block = tuning::kSosChannelBlock;
  if (c.chunk == 0) c.chunk = tuning::kSosChunk;
  if (c.max_sections == 0) c.max_sections = tuning::kSosChannelSections;
  if (c.double_precision) c.wide_carries = true;  // the carries are never narrower than the data
  if (c.block % 32 != 0 || c.block == 0 || c.block > 1024)
    throw InvalidArgument("DeviceSos: block " + std::to_string(c.block) +
                          " is not a multiple of the warp size 32 up to 1024");
  if (c.items > 32) throw InvalidArgument("DeviceSos: items " + std::to_string(c.items) + " exceeds 32");
  if (c.channel_block > 1024)
    throw InvalidArgument("DeviceSos: channel_block " + std::to_string(c.channel_block) + " exceeds 1024");
  if (c.chunk > 128) throw InvalidArgument("DeviceSos: chunk " + std::to_string(c.chunk) + " exceeds 128");
  return c;
}

std::vector<std::pair<std::string, std::string>> precision_defines(const SosConfig& c) {
  return {{"RIPPLE_DOUBLE", c.double_precision ? "1" : "0"},
          {"RIPPLE_SCAN_DOUBLE", c.wide_carries.value_or(false) ? "1" : "0"}};
}

void check_work_group(const Context& context, const char* what, unsigned size) {
  if (size > context.facts().max_work_group)
    throw InvalidArgument(std::string("DeviceSos: ") + what + " " + std::to_string(size) +
                          " exceeds the work-group limit " + std::to_string(context.facts().max_work_group) +
                          " of " + context.facts().name);
}

void check_local_memory(const Context& context, const std::string& what, std::uint64_t bytes) {
  if (bytes > context.facts().local_memory)
    throw InvalidArgument("DeviceSos: " + what + " needs " + std::to_string(bytes) +
                          " bytes of local memory, " + context.facts().name + " has " +
                          std::to_string(context.facts().local_memory));
}

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

using iir::detail::Mat2;
using iir::detail::Real;

Real norm1(const Mat2& m) {
  return std::max(std::abs(m[0]) + std::abs(m[2]), std::abs(m[1]) + std::abs(m[3]));
}

// How far the states of the DF2T basis swing: max over t of |A^t|_1 (1 for a normal A inside
// the unit circle; about 1/(1 - r) for poles of radius r near z = 1). Followed until A^t has
// decayed (or 2^16 steps: the rule only needs to know it is large).
Real transient_gain(const Mat2& a) {
  Mat2 p{1, 0, 0, 1};
  Real gain = 1;
  for (int t = 0; t < (1 << 16); ++t) {
    p = iir::detail::multiply(a, p);
    const Real norm = norm1(p);
    gain = std::max(gain, norm);
    if (norm < 1e-3L) break;
  }
  return gain;
}

// The basis the carries of a section live in (biquad.h): z = T w, with T from the eigenvectors
// (1, lambda + a1) of A, so that T^-1 A T is [[alpha, beta], [-beta, alpha]] for complex poles
// alpha +- i beta, or diag(p1, p2) for distinct real poles. Its powers never grow; the two
// conversions amplify rounding by cond(T) (about 1/beta, or 1/|p1 - p2|) once, where the DF2T
// basis pays its transient gain in every composition of maps (see tuning.hpp for the measured
// trade). A double real pole (no T) keeps the DF2T basis.
struct CarryBasis {
  Mat2 to_state{1, 0, 0, 1};  // T
  Mat2 to_modal{1, 0, 0, 1};  // T^-1
};

CarryBasis carry_basis(const iir::detail::Biquad& q) {
  const Real a1 = q.a1, a2 = q.a2;
  const Real disc = a1 * a1 - 4 * a2;
  Mat2 t;
  if (disc < 0) {
    t = {1, 0, a1 / 2, std::sqrt(-disc) / 2};
  } else if (disc > 0) {
    const Real root = std::sqrt(disc);
    t = {1, 1, (a1 + root) / 2, (a1 - root) / 2};
  } else {
    return {};  // a double real pole: A is not diagonalizable
  }
  const Real det = t[0] * t[3] - t[1] * t[2];
  const Mat2 inverse{t[3] / det, -t[1] / det, -t[2] / det, t[0] / det};
  const Real limit = tuning::kSosModalConditionPerGain * transient_gain(iir::detail::transition(q));
  if (norm1(t) * norm1(inverse) > limit) return {};
  return {t, inverse};
}

// T^-1 m T: a state map m written in the carry basis.
Mat2 in_basis(const CarryBasis& basis, const Mat2& m) {
  return iir::detail::multiply(basis.to_modal, iir::detail::multiply(m, basis.to_state));
}

}  // namespace

ProgramSpec DeviceSos::tiles_program(const SosConfig& config) {
  const SosConfig c = with_defaults(config);
  ProgramSpec spec;
  spec.files = {"dialect.h",          "scan_op_affine2.h", "warp_scan.h", "block_scan.h",
                "block_load_store.h", "look_back.h",       "biquad.h",    "sos_cascade.cl"};
  spec.defines = precision_defines(c);
  spec.defines.push_back({"BLOCK", std::to_string(c.block)});
  spec.defines.push_back({"ITEMS", std::to_string(c.items)});
  if (c.no_shuffle) spec.defines.push_back({"RIPPLE_NO_SHUFFLE", "1"});
  return spec;
}

ProgramSpec DeviceSos::channels_program(const SosConfig& config) {
  const SosConfig c = with_defaults(config);
  ProgramSpec spec;
  spec.files = {"dialect.h", "scan_op_affine2.h", "biquad.h", "sos_channels.cl"};
  // No carries here: the kernel reads coefficients in the data precision (coef_data_).
  spec.defines = {{"RIPPLE_DOUBLE", c.double_precision ? "1" : "0"}};
  spec.defines.push_back({"BLOCK", std::to_string(c.channel_block)});
  spec.defines.push_back({"CHUNK", std::to_string(c.chunk)});
  spec.defines.push_back({"MAX_SECTIONS", std::to_string(c.max_sections)});
  return spec;
}

template <class T>
DeviceSos::DeviceSos(Context& context, const iir::detail::SosPlan<T>& plan, SosConfig config) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
  const DeviceFacts& facts = context.facts();
  config.double_precision = sizeof(T) == 8;
  if (config.double_precision && !facts.fp64)
    throw Unsupported("device " + facts.name + " has no double precision (float64 data)");
  if (!config.wide_carries.has_value()) {
    const bool wants = std::any_of(plan.scan_wide.begin(), plan.scan_wide.end(), [](bool w) { return w; });
    config.wide_carries = wants && facts.fp64;
  } else if (*config.wide_carries && !facts.fp64) {
    throw Unsupported("device " + facts.name + " has no double precision (float64 carries)");
  }
  sections_ = plan.sections;
  stable_ = plan.stable;
  if (config.max_sections == 0) {
    unsigned m = tuning::kSosChannelSections;
    while (m < sections_) m *= 2;
    config.max_sections = m;
  }
  if (config.max_sections < sections_)
    throw InvalidArgument("DeviceSos: max_sections " + std::to_string(config.max_sections) + " is less than the " +
                          std::to_string(sections_) + " sections of the cascade");
  config_ = with_defaults(config);
  check_work_group(context, "block", config_.block);
  check_work_group(context, "channel_block", config_.channel_block);
  const std::uint64_t real = real_bytes(), carry = wide_carries() ? 8 : real;
  // Tile kernel: padded sample stage, block-scan scratch and warp totals, look-back window, tile
  // number.
  const std::uint64_t tile_words = tile() + tile() / 32 + 1;
  check_local_memory(context,
                     "a tile of block " + std::to_string(config_.block) + " x items " + std::to_string(config_.items),
                     tile_words * real + (config_.block + config_.block / 32) * kScanWords * carry +
                         look_back_local_bytes(kScanWords * carry) + 4);
  check_local_memory(context,
                     "a stage of channel_block " + std::to_string(config_.channel_block) + " x chunk " +
                         std::to_string(config_.chunk),
                     std::uint64_t(config_.channel_block) * (config_.chunk + 1) * real);
  resident_ = std::uint64_t(std::max(1u, facts.compute_units)) * tuning::kSosResidentPerUnitGpu;
  is_gpu_ = facts.is_gpu;

  // Per section (biquad.h): b0 b1 b2 a1 a2 (in T, as the recurrence uses them), then in the
  // carry basis A^items and A, and the basis changes, computed in long double from those values
  // and rounded once to the carries' precision.
  std::vector<Real> words;
  for (const iir::detail::Biquad& q : plan.biquads) {
    const CarryBasis basis = stable_ ? carry_basis(q) : CarryBasis{};
    const Mat2 a = iir::detail::transition(q);
    words.insert(words.end(), {q.b0, q.b1, q.b2, q.a1, q.a2});
    for (const Mat2& m : {in_basis(basis, iir::detail::power(a, config_.items)), in_basis(basis, a), basis.to_state,
                          basis.to_modal})
      words.insert(words.end(), m.begin(), m.end());
  }
  auto stream = context.create_stream();
  const auto upload = [&](std::size_t bytes) {
    std::unique_ptr<Memory> m = context.allocate(words.size() * bytes);
    if (bytes == 8) {
      const std::vector<double> host(words.begin(), words.end());
      stream->upload(*m, 0, host.data(), host.size() * 8);
    } else {
      const std::vector<float> host(words.begin(), words.end());
      stream->upload(*m, 0, host.data(), host.size() * 4);
    }
    return m;
  };
  coef_ = upload(carry);
  if (carry != real) coef_data_ = upload(real);
  context_ = &context;
  // Both paths' programs, side by side while the caller goes on: which one a run takes depends
  // on its length, and no run should wait for a compile the plan could have started.
  channels_ = get_module_async(context, channels_program(config_));
  if (stable_) tiles_ = get_module_async(context, tiles_program(config_));
}

const Module& DeviceSos::module(SosPath path) const { return path == SosPath::tiles ? *tiles_ : *channels_; }

template DeviceSos::DeviceSos(Context&, const iir::detail::SosPlan<float>&, SosConfig);
template DeviceSos::DeviceSos(Context&, const iir::detail::SosPlan<double>&, SosConfig);

SosPath DeviceSos::choose(std::uint64_t channels, std::uint64_t n) const {
  // A CPU OpenCL device runs work-groups as threads on cores, where a look-back that spins on
  // a predecessor costs scheduler time slices (see tuning.hpp): the channel path there.
  if (!stable_ || !is_gpu_) return SosPath::channels;
  const long double serial = static_cast<long double>(ceil_div(channels, resident_)) * n;
  const long double work_items = static_cast<long double>(channels) * ceil_div(n, tile()) * config_.block;
  const long double tiles = std::ceil(work_items / resident_) * (2.0L * config_.items + tuning::kSosScanSteps);
  return serial <= tiles ? SosPath::channels : SosPath::tiles;
}

DeviceSos::Workspace DeviceSos::workspace(Context& context, std::uint64_t channels, std::uint64_t n,
                                          SosPath path) const {
  Workspace w;
  if (path == SosPath::automatic) path = choose(channels, n);
  if (path != SosPath::tiles || n == 0 || channels == 0) return w;
  if (!stable_) throw InvalidArgument("DeviceSos: the tile path needs a stable cascade (poles inside the unit circle)");
  w.slots = channels * sections_ * ceil_div(n, tile());
  const std::uint64_t carry = wide_carries() ? 8 : real_bytes();
  w.flags = context.allocate((1 + w.slots) * sizeof(std::uint32_t));
  w.values = context.allocate(2 * w.slots * kScanWords * carry);
  return w;
}

void DeviceSos::run(Stream& stream, const Memory& x, Memory& y, std::uint64_t channels, std::uint64_t n,
                    const SosState& state, Workspace& w, SosPath path) const {
  if (channels == 0 || n == 0) return;
  if (channels > 0xffffffffULL)
    throw InvalidArgument("DeviceSos: channels " + std::to_string(channels) + " exceeds 2^32 - 1");
  const std::uint64_t bytes = channels * n * real_bytes();
  if (x.bytes() < bytes || y.bytes() < bytes)
    throw InvalidArgument("DeviceSos: " + std::to_string(channels) + " channels x " + std::to_string(n) +
                          " samples need " + std::to_string(bytes) + " bytes, buffers hold " +
                          std::to_string(x.bytes()) + " (x) and " + std::to_string(y.bytes()) + " (y)");
  const std::uint64_t state_bytes = sections_ * channels * 2 * real_bytes();
  if (state.memory != nullptr && state.memory->bytes() < state_bytes)
    throw InvalidArgument("DeviceSos: the state of " + std::to_string(sections_) + " sections x " +
                          std::to_string(channels) + " channels needs " + std::to_string(state_bytes) +
                          " bytes, the buffer holds " + std::to_string(state.memory->bytes()));
  const std::uint32_t mode =
      state.memory == nullptr ? 0u : (state.read ? 1u : 0u) | (state.write ? 2u : 0u);
  // Kernels take a state buffer even when they ignore it (mode 0): pass the coefficients.
  const Memory& state_memory = state.memory != nullptr ? *state.memory : *coef_;
  const auto ch32 = static_cast<std::uint32_t>(channels);
  const auto sections32 = static_cast<std::uint32_t>(sections_);
  if (path == SosPath::automatic) path = choose(channels, n);

  if (path == SosPath::channels) {
    Launch grid;
    grid.groups = {static_cast<std::uint32_t>(ceil_div(channels, config_.channel_block)), 1, 1};
    grid.block = {config_.channel_block, 1, 1};
    const Memory& coef = coef_data_ ? *coef_data_ : *coef_;
    const Arg args[] = {Arg::memory(x),    Arg::memory(y),          Arg::value(n),
                        Arg::value(ch32),  Arg::value(sections32),  Arg::memory(coef),
                        Arg::memory(state_memory), Arg::value(mode)};
    stream.launch(module(SosPath::channels), "sos_cascade_channels", grid, args);
    return;
  }
  if (!stable_) throw InvalidArgument("DeviceSos: the tile path needs a stable cascade (poles inside the unit circle)");
  const std::uint64_t tiles_per_channel = ceil_div(n, tile());
  const std::uint64_t groups = channels * tiles_per_channel;
  if (groups > 0x7fffffffULL)
    throw InvalidArgument("DeviceSos: " + std::to_string(channels) + " channels x " + std::to_string(n) +
                          " samples make " + std::to_string(groups) + " tiles, more than 2^31 - 1");
  const std::uint64_t slots = groups * sections_;
  if (w.slots < slots || !w.flags || !w.values)
    throw InvalidArgument("DeviceSos: the workspace holds " + std::to_string(w.slots) + " look-back slots, " +
                          std::to_string(channels) + " channels x " + std::to_string(n) + " samples need " +
                          std::to_string(slots));
  stream.zero(*w.flags, 0, (1 + slots) * sizeof(std::uint32_t));
  Launch grid;
  grid.groups = {static_cast<std::uint32_t>(groups), 1, 1};
  grid.block = {config_.block, 1, 1};
  const Arg args[] = {Arg::memory(x),
                      Arg::memory(y),
                      Arg::value(n),
                      Arg::value(ch32),
                      Arg::value(static_cast<std::uint32_t>(tiles_per_channel)),
                      Arg::value(sections32),
                      Arg::memory(*coef_),
                      Arg::memory(state_memory),
                      Arg::value(mode),
                      Arg::memory(*w.flags),
                      Arg::memory(*w.values),
                      Arg::value(static_cast<std::uint32_t>(config_.test_prefix_every))};
  stream.launch(module(SosPath::tiles), "sos_cascade_tiles", grid, args);
}

}  // namespace ripple::gpu
