// Launch logic of Bluestein's algorithm on the GPU beyond one kernel: tables, the scratch, three
// or five fused passes.
#include "gpu/device_fft_bluestein.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <vector>

#include "fft/unit_roots.hpp"
#include "gpu/device_fft_plan.hpp"
#include "gpu/device_tables.hpp"
#include "gpu/scratch.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"

namespace ripple::gpu {

BluesteinTables BluesteinTables::make(Context& context, std::uint64_t n, std::uint64_t m, bool double_precision) {
  // The forward chirp's conjugate e^{+pi i j^2 / n} = w_{2n}^{-(j^2 mod 2n)}, j < n.
  // Computed at most once, and only where a table is not cached yet (both tables derive from it).
  std::vector<std::complex<long double>> c;
  const auto chirp = [&c, n] {
    if (c.empty()) {
      c.resize(n);
      const fft::detail::UnitRoots w(2 * n);
      for (std::uint64_t j = 0; j < n; ++j) {
        const unsigned __int128 sq = static_cast<unsigned __int128>(j) * j % (2 * n);
        c[j] = std::conj(w(static_cast<std::size_t>(sq)));
      }
    }
    return c;
  };
  const std::string key = "bluestein n=" + std::to_string(n) + " m=" + std::to_string(m);
  BluesteinTables t;
  t.chirp = complex_table(context, key + " chirp", double_precision, chirp);
  t.spectrum = spectrum_table(context, key + " spectrum", double_precision, [&] {
    // The chirp's extension to the cyclic kernel of length m (symmetric: b[m - j] = b[j]).
    chirp();
    std::vector<std::complex<double>> b(m, std::complex<double>(0, 0));
    for (std::uint64_t j = 0; j < n; ++j) {
      b[j] = std::complex<double>(c[j]);
      if (j > 0) b[m - j] = b[j];
    }
    return b;
  });
  return t;
}

namespace {

// The factors of a convolution of m points that the fused passes take (each within Bluestein's
// on-chip cap: the middle pass holds his spectrum step; split's most balanced), or nothing where
// it needs more than three.
std::vector<std::uint64_t> split_of(std::uint64_t m, bool double_precision, std::uint64_t max_pass) {
  const std::uint64_t fused_cap = std::min(max_pass, kFftMaxBluesteinOnChip);
  std::vector<std::uint64_t> split;
  try {
    split = DeviceFftPlan::split(m, double_precision, fused_cap);
  } catch (const Unsupported&) {
    return {};  // more than three passes, or a prime above the cap (the tests' caps below 19)
  }
  if (split.size() < 2) return {};  // one kernel would take it
  return split;
}

// Unsupported naming n, its convolution of m points, and why the fused passes cannot take it.
[[noreturn]] void throw_no_split(std::uint64_t n, std::uint64_t m, bool double_precision, std::uint64_t max_pass) {
  std::string why = "it fits one kernel";
  try {
    DeviceFftPlan::split(m, double_precision, std::min(max_pass, kFftMaxBluesteinOnChip));
  } catch (const Unsupported& e) {
    why = e.what();
  }
  throw Unsupported("GPU FFT: size n " + std::to_string(n) + " has a prime factor above " +
                    std::to_string(kFftCodeletPrimes.back()) + ", so it is a convolution of " + std::to_string(m) +
                    " points (Bluestein), which the GPU cannot do: " + why);
}

}  // namespace

std::uint64_t DeviceFftBluestein::convolution_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  // A few sizes past the smallest: sampled, the first that splits in two was at most 0.09 %
  // longer (so the search stays cheap at plan time where none does). Three fused passes move
  // about 2N + 4M elements and five 2N + 8M, so two factors go before the shortest M in three
  // (on PoCL, which is no memory-bound GPU, 709817 took the same 57-68 ms either way).
  const std::uint64_t smallest = bluestein_size(n);
  const std::uint64_t fused_cap = std::min(max_pass, kFftMaxBluesteinOnChip);
  if (smallest > fused_cap * fused_cap * fused_cap) return smallest;  // none splits in three
  const std::vector<std::uint64_t> sizes = codelet_smooth_sizes(smallest, smallest + smallest / 256);
  for (const std::uint64_t m : sizes)
    if (m <= fused_cap * fused_cap && split_of(m, double_precision, max_pass).size() == 2) return m;
  for (const std::uint64_t m : sizes)
    if (!split_of(m, double_precision, max_pass).empty()) return m;
  return smallest;
}

std::vector<std::uint64_t> DeviceFftBluestein::fused_split(std::uint64_t n, bool double_precision,
                                                           std::uint64_t max_pass) {
  return split_of(convolution_size(n, double_precision, max_pass), double_precision, max_pass);
}

void DeviceFftBluestein::check_size(std::uint64_t n, bool double_precision, std::uint64_t max_pass) {
  const std::uint64_t m = convolution_size(n, double_precision, max_pass);
  if (split_of(m, double_precision, max_pass).empty()) throw_no_split(n, m, double_precision, max_pass);
}

bool DeviceFftBluestein::split_in_store(std::uint64_t n, bool double_precision, std::uint64_t max_pass,
                                        std::uint64_t max_group, std::uint64_t max_split_pass) {
  const std::vector<std::uint64_t> split = fused_split(n, double_precision, max_pass);
  return !split.empty() && split[0] <= max_split_pass && DeviceFft::pairs_fit(split[0], double_precision, max_group);
}

DeviceFftBluestein::DeviceFftBluestein(Context& context, std::uint64_t n, bool double_precision,
                                       const FftLayout& layout, std::uint64_t max_pass, const FftReal& real,
                                       std::uint64_t max_split_pass)
    : n_(n), m_(convolution_size(n, double_precision, max_pass)), double_(double_precision), layout_(layout) {
  split_ = split_of(m_, double_precision, max_pass);
  if (split_.empty()) throw_no_split(n, m_, double_precision, max_pass);
  if (real.n != 0 && real.complex_size() != n)
    throw InvalidArgument("DeviceFftBluestein: the real side of a transform of " + std::to_string(real.n) +
                          " points needs passes of its complex size, not n " + std::to_string(n));
  const std::size_t elem = double_ ? 16 : 8;
  const auto B = static_cast<std::size_t>(layout.batch);
  work_ = allocate_scratch(context, B * m_ * elem);
  // Five passes take the batch as their fastest level through a second scratch of batch x M;
  // where that much more memory cannot be had, one entry at a time through one of M.
  batch_fast_ = FftPass::batch_fast(layout);
  if (five() && batch_fast_) {
    try {
      work2_ = allocate_scratch(context, B * m_ * elem);
    } catch (const DeviceError&) {
      batch_fast_ = false;
    }
  }
  if (five() && !work2_) work2_ = allocate_scratch(context, m_ * elem);
  // Every real transform's last pass writes the real side but an even r2c's that cannot split there.
  const bool even_r2c = real.n % 2 == 0 && real.r2c;
  writes_real_ = real.n != 0 && (!even_r2c || split_in_store(n, double_precision, max_pass,
                                                             context.facts().max_work_group, max_split_pass));
  split_last_ = writes_real_ && even_r2c;
  const std::uint64_t m1 = split_[0], r = m_ / m1;
  // The chirps' element e of transform i is sequence index i + e R (R = M / M1, A's and the last
  // pass's step): a real pass's step too. The spectrum's element e of row i is i + e M / Mmid.
  const std::uint64_t middle_size = split_.back(), middle_step = m_ / middle_size;
  const FftConvolution load{n, true, false, false, r, 1, m_}, middle{n, false, true, false, middle_step, 1, m_},
      store{n, false, false, true, r, 1, m_};
  const FftReal real_in = real.n != 0 ? FftReal{real.n, real.r2c, r, false} : FftReal{};
  const FftReal real_out = writes_real_ ? FftReal{real.n, real.r2c, r, true} : FftReal{};
  struct Program {
    std::uint64_t size;
    FftConvolution conv;
    FftReal real;
    std::uint64_t twiddle_n;  // 0: none (the last pass stores the result)
  };
  std::vector<Program> programs;
  programs.push_back({m1, load, real_in, m_});
  if (five()) programs.push_back({split_[1], {}, {}, r});
  programs.push_back({middle_size, middle, {}, m_});
  if (five()) programs.push_back({split_[1], {}, {}, m_ / middle_size});
  programs.push_back({m1, store, real_out, 0});
  launches_ = passes();
  const bool tw_double = double_ || context.facts().fp64;
  for (std::size_t i = 0; i < programs.size(); ++i) {
    const Program& p = programs[i];
    fused_.push_back(std::make_unique<DeviceFft>(context, p.size, double_, p.twiddle_n != 0, launches_[i].columns(),
                                                 p.conv, p.real, launches_[i].fast > 1));
    fused_.back()->check_pass(launches_[i]);
    if (p.twiddle_n != 0) twiddles_.push_back(FftPassTwiddles::make(context, p.twiddle_n, tw_double));
  }
}

std::vector<FftPass> DeviceFftBluestein::passes() const {
  const auto M = static_cast<std::int64_t>(m_), M1 = static_cast<std::int64_t>(split_[0]);
  const std::int64_t R = M / M1;
  const auto B = static_cast<std::uint64_t>(layout_.batch);
  // A scratch holds sequence index q of entry b at b M + q, or q B + b where the batch is the
  // passes' fastest level (innermost batching: FftPass::batch_fast); five passes' second holds
  // one entry (q) otherwise.
  const bool fast = batch_fast_;
  const std::int64_t q1 = fast ? static_cast<std::int64_t>(B) : 1, b1 = fast ? 1 : M;
  using Side = FftPass::Side;
  const Side in{layout_.in_dist, 0, layout_.in_stride, R * layout_.in_stride};
  const Side out{layout_.out_dist, 0, layout_.out_stride, R * layout_.out_stride};
  const Side columns{b1, 0, q1, R * q1};  // element k1 of (b, n'): k1 R + n'
  // The last pass, splitting an r2c's spectrum, pairs partners in a group: R slots rounded up to even.
  const std::uint64_t last_inner =
      split_last_ ? FftReal::split_pass_inner(static_cast<std::uint64_t>(R)) : static_cast<std::uint64_t>(R);
  std::vector<FftPass> p;
  // A: columns n1 of (b, n') from the caller's layout to scratch 1's k1 R + n'.
  p.push_back(FftPass::over_batch(B, 1, static_cast<std::uint64_t>(R), fast, in, columns));
  if (!five()) {
    // B: rows k1 of scratch 1, in place. C: columns k1 of (b, n2) to the caller's layout.
    const Side rows{b1, 0, R * q1, q1};  // element n2 of (b, k1)
    p.push_back(FftPass::over_batch(B, 1, static_cast<std::uint64_t>(M1), fast, rows, rows));
    p.push_back(FftPass::over_batch(B, 1, last_inner, fast, columns, out));
    return p;
  }
  const std::int64_t M2 = static_cast<std::int64_t>(split_[1]), M3 = R / M2, M12 = M1 * M2;
  const std::uint64_t entries = fast ? B : 1;  // of B to E in one launch
  const std::int64_t q2 = q1, b2 = fast ? 1 : 0;
  // B: columns n2 -> k2 of (k1, n3) to scratch 2 at (k1 + M1 k2) M3 + n3.
  p.push_back(FftPass::over_batch(entries, static_cast<std::uint64_t>(M1), static_cast<std::uint64_t>(M3), fast,
                                  Side{b1, R * q1, q1, M3 * q1}, Side{b2, M3 * q2, q2, M1 * M3 * q2}));
  // C: rows j = k1 + M1 k2 of scratch 2 (n3 -> n3) to scratch 1 at n3 M1 M2 + j.
  p.push_back(FftPass::over_batch(entries, 1, static_cast<std::uint64_t>(M12), fast, Side{b2, 0, M3 * q2, q2},
                                  Side{b1, 0, q1, M12 * q1}));
  // D: columns k2 -> n2 of (n3, k1) to scratch 2 at (n2 M3 + n3) M1 + k1.
  p.push_back(FftPass::over_batch(entries, static_cast<std::uint64_t>(M3), static_cast<std::uint64_t>(M1), fast,
                                  Side{b1, M12 * q1, q1, M1 * q1}, Side{b2, M1 * q2, q2, M3 * M1 * q2}));
  // E: rows n' (k1 -> n1) of scratch 2 to the caller's layout, element j = n1 R + n'.
  p.push_back(FftPass::over_batch(entries, 1, last_inner, fast, Side{b2, 0, M1 * q2, q2}, out));
  return p;
}

std::string DeviceFftBluestein::describe() const {
  std::string s = "Bluestein, convolution of " + std::to_string(m_) + " =";
  for (std::size_t i = 0; i < split_.size(); ++i) s += (i ? " x " : " ") + std::to_string(split_[i]);
  return s + (five() ? " in five fused passes" : " in three fused passes") +
         (batch_fast_ ? ", adjacent batch entries in each group" : "");
}

DeviceFftBluestein::~DeviceFftBluestein() = default;

void DeviceFftBluestein::wait_ready() const {
  for (const auto& pass : fused_) pass->wait_ready();
}

void DeviceFftBluestein::run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
                             std::int64_t in_base, std::int64_t out_base) const {
  // The launches_ with the caller's bases (copies on the stack: no allocation here).
  FftPass first = launches_.front(), last = launches_.back();
  first.in_offset = in_base;
  last.out_offset = out_base;
  // The loading, middle and storing passes take the transform's direction for the chirps and
  // the spectrum (their FFTs' are fixed); five passes' B is forward and D backward.
  fused_[0]->launch(stream, in, *work_, first, direction, 1.0, &twiddles_[0]);
  if (!five()) {
    fused_[1]->launch(stream, *work_, *work_, launches_[1], direction, 1.0, &twiddles_[1]);
    fused_[2]->launch(stream, *work_, out, last, direction, scale);
    return;
  }
  const auto M = static_cast<std::int64_t>(m_);
  const std::int64_t entries = batch_fast_ ? 1 : layout_.batch;  // launches of B to E
  for (std::int64_t b = 0; b < entries; ++b) {
    std::array<FftPass, 4> q = {launches_[1], launches_[2], launches_[3], last};
    q[0].in_offset = q[1].out_offset = q[2].in_offset = b * M;
    q[3].out_offset += b * layout_.out_dist;
    fused_[1]->launch(stream, *work_, *work2_, q[0], fft::Direction::forward, 1.0, &twiddles_[1]);
    fused_[2]->launch(stream, *work2_, *work_, q[1], direction, 1.0, &twiddles_[2]);
    fused_[3]->launch(stream, *work_, *work2_, q[2], fft::Direction::backward, 1.0, &twiddles_[3]);
    fused_[4]->launch(stream, *work2_, out, q[3], direction, scale);
  }
}

}  // namespace ripple::gpu
