// Launch logic of Bluestein's algorithm on the GPU beyond one kernel: tables, the scratch, three
// fused passes or five launches around a multi-pass FFT.
#include "gpu/device_fft_bluestein.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <vector>

#include "fft/unit_roots.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_tables.hpp"
#include "gpu/tuning.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {

ProgramSpec DeviceFftBluestein::program(bool double_precision) {
  ProgramSpec spec;
  spec.files = {"dialect.h", "fft_chirp.h", "fft_bluestein.cl"};
  spec.defines = {{"RIPPLE_DOUBLE", double_precision ? "1" : "0"}};
  return spec;
}

BluesteinTables BluesteinTables::make(Context& context, std::uint64_t n, std::uint64_t m, bool double_precision) {
  // The forward chirp's conjugate e^{+pi i j^2 / n} = w_{2n}^{-(j^2 mod 2n)}, j < n.
  // Computed at most once, and only where a table is not cached yet (both tables derive from it).
  std::vector<std::complex<long double>> c;
  const auto chirp = [&c, n] {
    if (c.empty()) {
      c.resize(n);
      for (std::uint64_t j = 0; j < n; ++j) {
        const unsigned __int128 sq = static_cast<unsigned __int128>(j) * j % (2 * n);
        c[j] = std::conj(fft::detail::unit_root(static_cast<std::size_t>(sq), 2 * n));
      }
    }
    return c;
  };
  const std::string key = "bluestein n=" + std::to_string(n) + " m=" + std::to_string(m);
  BluesteinTables t;
  t.chirp = complex_table(context, key + " chirp", double_precision, chirp);
  t.spectrum = complex_table(context, key + " spectrum", double_precision, [&] {
    // The chirp's extension to the cyclic kernel of length m (symmetric: b[m - j] = b[j]) and
    // the kernel's spectrum scaled by 1/m, by the CPU FFT in double.
    chirp();
    std::vector<std::complex<double>> b(m, std::complex<double>(0, 0));
    for (std::uint64_t j = 0; j < n; ++j) {
      b[j] = std::complex<double>(c[j]);
      if (j > 0) b[m - j] = b[j];
    }
    return convolution_spectrum(b);
  });
  return t;
}

namespace {

// The two passes of M's three fused passes (the middle pass holds the convolution's spectrum
// step; its factors within Bluestein's on-chip cap), or nothing.
std::vector<std::uint64_t> fused_split(std::uint64_t m, bool double_precision, std::uint64_t max_pass) {
  const std::uint64_t fused_cap = std::min(max_pass, kFftMaxBluesteinOnChip);
  if (m > fused_cap * fused_cap) return {};
  std::vector<std::uint64_t> split;
  try {
    split = DeviceFftPlan::split(m, double_precision, fused_cap);
  } catch (const Unsupported&) {
    return {};  // more than three passes under a cap below the primes (tests' caps): no
  }
  if (split.size() != 2) return {};
  return split;
}

}  // namespace

std::uint64_t DeviceFftBluestein::convolution_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  // A few sizes past the smallest: sampled, the first that splits was at most 0.09 % longer
  // (so the search stays cheap at plan time where none does).
  const std::uint64_t smallest = bluestein_size(n);
  const std::uint64_t fused_cap = std::min(max_pass, kFftMaxBluesteinOnChip);
  const std::uint64_t last = std::min(fused_cap * fused_cap, smallest + smallest / 256);
  for (std::uint64_t m = smallest; m <= last; ++m)
    if (codelet_smooth(m) && !fused_split(m, double_precision, max_pass).empty()) return m;
  return smallest;
}

bool DeviceFftBluestein::three_passes_fit(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  return !fused_split(convolution_size(n, double_precision, max_pass), double_precision, max_pass).empty();
}

bool DeviceFftBluestein::split_in_store(std::uint64_t n, bool double_precision, std::uint64_t max_pass,
                                        std::uint64_t max_group, std::uint64_t max_split_pass) {
  const std::vector<std::uint64_t> split = fused_split(convolution_size(n, double_precision, max_pass), double_precision, max_pass);
  return !split.empty() && split[0] <= max_split_pass && DeviceFft::pairs_fit(split[0], double_precision, max_group);
}

DeviceFftBluestein::DeviceFftBluestein(Context& context, std::uint64_t n, bool double_precision,
                                       const FftLayout& layout, std::uint64_t max_pass, const FftReal& real,
                                       std::uint64_t max_split_pass)
    : n_(n), m_(convolution_size(n, double_precision, max_pass)), double_(double_precision), layout_(layout) {
  split_ = fused_split(m_, double_precision, max_pass);
  if (real.n != 0 && (real.complex_size() != n || split_.empty()))
    throw InvalidArgument("DeviceFftBluestein: the real side of a transform of " + std::to_string(real.n) +
                          " points needs three fused passes of its complex size (n " + std::to_string(n) +
                          ", a convolution of " + std::to_string(m_) + ")");
  work_ = context.allocate(static_cast<std::size_t>(layout.batch * m_) * (double_ ? 16 : 8));
  // Every real transform's C writes the real side but an even r2c's that cannot split there.
  const bool even_r2c = real.n % 2 == 0 && real.r2c;
  writes_real_ = real.n != 0 && (!even_r2c || split_in_store(n, double_precision, max_pass,
                                                             context.facts().max_work_group, max_split_pass));
  split_c_ = writes_real_ && even_r2c;
  // Three fused passes where M splits in two; else the work array around a plan of M.
  if (!split_.empty()) {
    const std::uint64_t m1 = split_[0], m2 = split_[1];
    const auto passes = three_passes(0, 0);
    const std::array<FftConvolution, 3> steps = {FftConvolution{n, true, false, false, m2, 1, m_},
                                                 FftConvolution{n, false, true, false, m1, 1, m_},
                                                 FftConvolution{n, false, false, true, m2, 1, m_}};
    // A's element e of transform i, and C's, is sequence index i + e M2: a real pass's step.
    const std::array<FftReal, 3> sides = {real.n != 0 ? FftReal{real.n, real.r2c, m2, false} : FftReal{},
                                          FftReal{},
                                          writes_real_ ? FftReal{real.n, real.r2c, m2, true} : FftReal{}};
    for (std::size_t i = 0; i < 3; ++i) {
      // A and B turn their outputs by the pass twiddle; C stores the result.
      fused_[i] = std::make_unique<DeviceFft>(context, i == 1 ? m2 : m1, double_, i < 2, passes[i].columns(), steps[i],
                                              sides[i], passes[i].fast > 1);
      fused_[i]->check_count(passes[i].count);
    }
    pass_twiddles_ =
        std::make_unique<FftPassTwiddles>(FftPassTwiddles::make(context, m_, double_ || context.facts().fp64));
    return;
  }
  FftLayout inner;
  inner.batch = layout.batch;
  inner.in_dist = inner.out_dist = static_cast<std::int64_t>(m_);
  inner_ = std::make_unique<DeviceFftPlan>(context, m_, double_precision, inner, max_pass);
  tables_ = BluesteinTables::make(context, n, m_, double_);
  module_ = get_module_async(context, program(double_precision));
  groups_ = tuning::elementwise_groups(layout.batch * m_);
}

std::array<FftPass, 3> DeviceFftBluestein::three_passes(std::int64_t in_base, std::int64_t out_base) const {
  const auto M = static_cast<std::int64_t>(m_), M1 = static_cast<std::int64_t>(split_.empty() ? 1 : split_[0]);
  const std::int64_t M2 = M / M1;
  const auto B = static_cast<std::uint64_t>(layout_.batch);
  // The work array holds sequence index q of entry b at b M + q, or q B + b where the batch is
  // the passes' fastest level (innermost batching: FftPass::batch_fast).
  const bool fast = FftPass::batch_fast(layout_);
  const std::int64_t q_step = fast ? static_cast<std::int64_t>(B) : 1, b_step = fast ? 1 : M;
  using Side = FftPass::Side;
  const Side in{layout_.in_dist, 0, layout_.in_stride, M2 * layout_.in_stride};
  const Side out{layout_.out_dist, 0, layout_.out_stride, M2 * layout_.out_stride};
  const Side columns{b_step, 0, q_step, M2 * q_step};  // element k1 of (b, n2): k1 M2 + n2
  const Side rows{b_step, 0, M2 * q_step, q_step};     // element n2 of (b, k1): k1 M2 + n2
  std::array<FftPass, 3> p;
  // A: columns n1 of (b, n2) from the caller's layout to the work array's k1 M2 + n2.
  p[0] = FftPass::over_batch(B, 1, static_cast<std::uint64_t>(M2), fast, in, columns);
  p[0].in_offset = in_base;
  // B: rows k1 of the work array, in place.
  p[1] = FftPass::over_batch(B, 1, static_cast<std::uint64_t>(M1), fast, rows, rows);
  // C: columns k1 of (b, n2) from the work array to the caller's layout, element j = n1 M2 + n2;
  // splitting an r2c's spectrum, pairs of partners in a group: M2 slots rounded up to even.
  const std::uint64_t c_inner = split_c_ ? FftReal::split_pass_inner(static_cast<std::uint64_t>(M2))
                                         : static_cast<std::uint64_t>(M2);
  p[2] = FftPass::over_batch(B, 1, c_inner, fast, columns, out);
  p[2].out_offset = out_base;
  return p;
}

std::string DeviceFftBluestein::describe() const {
  const std::string s = "Bluestein, convolution of " + std::to_string(m_);
  if (!split_.empty())
    return s + " = " + std::to_string(split_[0]) + " x " + std::to_string(split_[1]) + " in three fused passes" +
           (FftPass::batch_fast(layout_) ? ", adjacent batch entries in each group" : "");
  return s + " by [" + inner_->describe() + "]";
}

DeviceFftBluestein::~DeviceFftBluestein() = default;

void DeviceFftBluestein::wait_ready() const {
  if (!split_.empty()) {
    for (const auto& pass : fused_) pass->wait_ready();
    return;
  }
  module_.wait();
  inner_->wait_ready();
}

void DeviceFftBluestein::run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
                             std::int64_t in_base, std::int64_t out_base) const {
  if (!split_.empty()) {
    const std::array<FftPass, 3> p = three_passes(in_base, out_base);
    fused_[0]->launch(stream, in, *work_, p[0], direction, 1.0, pass_twiddles_.get());
    fused_[1]->launch(stream, *work_, *work_, p[1], direction, 1.0, pass_twiddles_.get());
    fused_[2]->launch(stream, *work_, out, p[2], direction, scale);
    return;
  }
  Launch grid;
  grid.groups = {groups_, 1, 1};
  grid.block = {tuning::kElementwiseBlock, 1, 1};
  const double dir = direction == fft::Direction::forward ? -1.0 : 1.0;
  const Arg dir_arg = double_ ? Arg::value(dir) : Arg::value(static_cast<float>(dir));
  const Arg scale_arg = double_ ? Arg::value(scale) : Arg::value(static_cast<float>(scale));
  const std::array<Arg, 10> chirp_in = {Arg::memory(in),          Arg::memory(*work_),           Arg::memory(*tables_.chirp),
                                        Arg::value(n_),           Arg::value(m_),                Arg::value(layout_.batch),
                                        Arg::value(in_base),      Arg::value(layout_.in_stride), Arg::value(layout_.in_dist),
                                        dir_arg};
  stream.launch(*module_, "fft_chirp_in", grid, chirp_in);
  inner_->run(stream, *work_, *work_, fft::Direction::forward, 1.0);
  const std::array<Arg, 5> pointwise = {Arg::memory(*work_), Arg::memory(*tables_.spectrum), Arg::value(m_),
                                        Arg::value(layout_.batch), dir_arg};
  stream.launch(*module_, "fft_pointwise", grid, pointwise);
  inner_->run(stream, *work_, *work_, fft::Direction::backward, 1.0);
  const std::array<Arg, 11> chirp_out = {Arg::memory(*work_),          Arg::memory(out),
                                         Arg::memory(*tables_.chirp),         Arg::value(n_),
                                         Arg::value(m_),               Arg::value(layout_.batch),
                                         Arg::value(out_base),         Arg::value(layout_.out_stride),
                                         Arg::value(layout_.out_dist), dir_arg,
                                         scale_arg};
  stream.launch(*module_, "fft_chirp_out", grid, chirp_out);
}

}  // namespace ripple::gpu
