// Launch logic of Bluestein's algorithm on the GPU: tables, the work array, five launches.
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
    fft::PlanDesc desc;
    desc.shape = {static_cast<std::size_t>(m)};
    desc.precision = fft::Precision::f64;
    desc.norm = fft::Norm::forward;
    std::vector<std::complex<double>> spectrum(m);
    fft::Plan(desc).execute(b.data(), spectrum.data());
    return std::vector<std::complex<long double>>(spectrum.begin(), spectrum.end());
  });
  return t;
}

DeviceFftBluestein::DeviceFftBluestein(Context& context, std::uint64_t n, bool double_precision,
                                       const FftLayout& layout, std::uint64_t max_pass)
    : n_(n), m_(bluestein_size(n)), double_(double_precision), layout_(layout) {
  FftLayout inner;
  inner.batch = layout.batch;
  inner.in_dist = inner.out_dist = static_cast<std::int64_t>(m_);
  inner_ = std::make_unique<DeviceFftPlan>(context, m_, double_precision, inner, max_pass);
  tables_ = BluesteinTables::make(context, n, m_, double_);
  work_ = context.allocate(static_cast<std::size_t>(layout.batch * m_) * (double_ ? 16 : 8));
  module_ = get_module_async(context, program(double_precision));
  groups_ = tuning::elementwise_groups(layout.batch * m_);
}

DeviceFftBluestein::~DeviceFftBluestein() = default;

void DeviceFftBluestein::wait_ready() const {
  module_.wait();
  inner_->wait_ready();
}

void DeviceFftBluestein::run(Stream& stream, const Memory& in, Memory& out, fft::Direction direction, double scale,
                             std::int64_t in_base, std::int64_t out_base) const {
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
