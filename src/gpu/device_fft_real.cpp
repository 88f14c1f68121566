// Launch logic of the real FFTs: the one-kernel program where the complex FFT fits one, else
// the complex plan, reading and writing the real side in its passes where its size is smooth
// or Bluestein's in fused passes (the even r2c's split in a last pass of at most
// kFftMaxSplitPass points, else a kernel), else with the split/merge or widen/narrow kernels,
// and pack/unpack kernels for layouts of even reals the complex FFT cannot address directly.
#include "gpu/device_fft_real.hpp"

#include <algorithm>
#include <array>
#include <complex>
#include <string>
#include <vector>

#include "fft/unit_roots.hpp"
#include "gpu/device_tables.hpp"
#include "gpu/scratch.hpp"
#include "gpu/tuning.hpp"
#include "ripple/error.hpp"

namespace ripple::gpu {

ProgramSpec DeviceFftReal::program(bool double_precision) {
  ProgramSpec spec;
  spec.files = {"dialect.h", "fft_real.cl"};
  spec.defines = {{"RIPPLE_DOUBLE", double_precision ? "1" : "0"}};
  return spec;
}

std::shared_ptr<const Memory> DeviceFftReal::twiddles(Context& context, std::uint64_t n, bool double_precision) {
  return complex_table(context, "real n=" + std::to_string(n), double_precision, [&] {
    const fft::detail::UnitRoots w(n);
    std::vector<std::complex<long double>> t;
    t.reserve(n / 2 + 1);
    for (std::uint64_t k = 0; k <= n / 2; ++k) t.push_back(w(k));
    return t;
  });
}

DeviceFftReal::DeviceFftReal(Context& context, std::uint64_t n, bool double_precision, bool r2c,
                             const FftLayout& layout, std::uint64_t max_pass, std::uint64_t max_split_pass)
    : n_(n), h_(n % 2 ? n : n / 2), double_(double_precision), r2c_(r2c), odd_(n % 2 != 0), layout_(layout) {
  if (n == 0) throw InvalidArgument("DeviceFftReal: size n is 0");
  max_pass = std::min(max_pass, fft_max_on_chip(double_precision, context.facts().max_work_group));
  const std::size_t elem = double_precision ? 16 : 8;
  if (h_ >= 2 && fits_one_kernel(h_, double_precision, max_pass)) {
    fused_pass_ = FftPass::of(layout);
    fused_ = std::make_unique<DeviceFft>(context, h_, double_precision, false, fused_pass_.columns(),
                                         FftConvolution{}, FftReal{n, r2c});
    fused_->check_pass(fused_pass_);
    return;
  }
  // A complex size beyond one kernel whose plan's first pass can read the real side and last
  // write it: a smooth one (two or three passes), Rader's primes after a smooth first pass, or
  // Bluestein's fused passes.
  const auto passes_take_real = [&](std::uint64_t size) {
    return DeviceFftPlan::passes_take_real(size, double_precision, max_pass);
  };
  if (odd_) {
    // The complex plan alone, its first pass reading the real side and its last writing it;
    // n = 1 widens into a work array.
    real_in_pass_ = passes_take_real(n);
    if (real_in_pass_) {
      half_ = std::make_unique<DeviceFftPlan>(context, n, double_precision, layout, max_pass, FftReal{n, r2c});
      return;
    }
    FftLayout full;
    full.batch = layout.batch;
    full.in_dist = full.out_dist = static_cast<std::int64_t>(n);
    half_ = std::make_unique<DeviceFftPlan>(context, n, double_precision, full, max_pass);
    work_ = allocate_scratch(context, static_cast<std::size_t>(layout.batch * n) * elem);
    module_ = get_module_async(context, program(double_precision));
    groups_ = tuning::elementwise_groups(layout.batch * n);
    return;
  }
  const auto H = static_cast<std::int64_t>(h_);
  FftLayout half;
  half.batch = layout.batch;
  half.in_dist = half.out_dist = H;  // the work array
  if (layout.two_level()) {
    half.inner = layout.inner;
    half.in_dist_outer = half.out_dist_outer = static_cast<std::int64_t>(layout.inner) * H;
  }
  const auto take_in = [&] {
    half.in_stride = layout.in_stride;
    half.in_dist = layout.in_dist;
    half.in_dist_outer = layout.in_dist_outer;
  };
  const auto take_out = [&] {
    half.out_stride = layout.out_stride;
    half.out_dist = layout.out_dist;
    half.out_dist_outer = layout.out_dist_outer;
  };
  // The passes of the half read and write the real side in any layout: r2c, the first reads
  // the reals in pairs and the last splits the spectrum where a pass of at most
  // max_split_pass points can pair its transforms (real_split_fits: a smooth pass of the
  // half's made the last, or Bluestein's storing pass; else the split kernel follows); c2r, the first
  // merges X[k] and X[H-k] and the last stores the reals in pairs.
  real_in_pass_ = passes_take_real(h_);
  if (real_in_pass_) {
    take_in();
    const bool writes_real = !r2c || DeviceFftPlan::real_split_fits(h_, double_precision, max_pass,
                                                                     context.facts().max_work_group, max_split_pass);
    if (writes_real) take_out();
    half_ = std::make_unique<DeviceFftPlan>(context, h_, double_precision, half, max_pass, FftReal{n, r2c},
                                            max_split_pass);
    // The plan decides the same way; its output layout depends on it.
    if (half_->writes_real() != writes_real)
      throw InvalidArgument("DeviceFftReal: the plan of " + std::to_string(h_) + " for the " + (r2c ? "r2c" : "c2r") +
                            " of " + std::to_string(n) + " points disagrees on whether its last pass writes the real side");
    if (writes_real) return;  // the complex plan alone, from one side to the other
  } else {
    // n = 2: a pack (r2c) or unpack (c2r) kernel between the reals and the work array, where
    // the complex FFT of 1 runs, and the split or merge kernel.
    half_ = std::make_unique<DeviceFftPlan>(context, h_, double_precision, half, max_pass);
  }
  twiddles_ = twiddles(context, n, double_precision);
  work_ = allocate_scratch(context, static_cast<std::size_t>(layout.batch * h_) * elem);
  module_ = get_module_async(context, program(double_precision));
  groups_ = tuning::elementwise_groups(layout.batch * (h_ + 1));
}

void DeviceFftReal::wait_ready() const {
  if (fused_) return fused_->wait_ready();
  if (work_) module_.wait();
  half_->wait_ready();
}

std::string DeviceFftReal::describe() const {
  const std::string h = std::to_string(h_);
  if (fused_) {
    const FftShape& s = fused_->plan_shape();
    const std::string fft = "a complex FFT of " + h +
                            (s.whole_convolution().empty() ? "" : " (" + s.whole_convolution() + ")");
    if (!odd_)
      return "one kernel (" + fft + (r2c_ ? " on the reals paired, the spectrum split in its store)"
                                          : " on the spectrum merged in its load, stored as pairs of reals)");
    return "one kernel (" + fft + (r2c_ ? " on the reals widened, storing k <= n/2)"
                                        : " on the Hermitian spectrum rebuilt in its load, storing the real parts)");
  }
  std::string plan = "[";  // appended: GCC 12 warns falsely on "[" + an rvalue string (byte_stream.cpp)
  plan += half_->describe();
  plan += "]";
  if (odd_)
    return plan + " (odd: a complex FFT of n" + (real_in_pass_ ? ")" : ", the reals widened into a work array)");
  if (real_in_pass_) return plan + (half_->writes_real() ? "" : " with a split kernel");
  return plan + (r2c_ ? " with a split kernel" : " after a merge kernel") + " and a pack/unpack of the reals";
}

void DeviceFftReal::run(Stream& stream, const Memory& in, Memory& out, double scale, std::int64_t in_base,
                        std::int64_t out_base) const {
  const fft::Direction d = r2c_ ? fft::Direction::forward : fft::Direction::backward;
  if (fused_) {
    FftPass pass = fused_pass_;
    pass.in_offset += in_base;
    pass.out_offset += out_base;
    return fused_->launch(stream, in, out, pass, d, scale);
  }
  Launch grid;
  grid.groups = {groups_, 1, 1};
  grid.block = {tuning::kElementwiseBlock, 1, 1};
  const Arg scale_arg = double_ ? Arg::value(scale) : Arg::value(static_cast<float>(scale));
  const Arg h = Arg::value(h_), batch = Arg::value(layout_.batch);
  const Arg inner = Arg::value(std::max<std::uint64_t>(1, layout_.inner_count()));
  const Arg in_outer = Arg::value(layout_.in_dist_outer), out_outer = Arg::value(layout_.out_dist_outer);
  const Arg in_at = Arg::value(in_base), out_at = Arg::value(out_base);
  if (real_in_pass_ && half_->writes_real()) return half_->run(stream, in, out, d, scale, in_base, out_base);
  if (odd_) {
    const Arg n = Arg::value(n_);
    const std::array<Arg, 9> first = {Arg::memory(in), Arg::memory(*work_), n, batch, Arg::value(layout_.in_stride),
                                      Arg::value(layout_.in_dist), inner, in_outer, in_at};
    stream.launch(*module_, r2c_ ? "fft_r2c_widen" : "fft_c2r_expand", grid, first);
    half_->run(stream, *work_, *work_, d, scale);
    const std::array<Arg, 9> last = {Arg::memory(*work_), Arg::memory(out), n, batch, Arg::value(layout_.out_stride),
                                     Arg::value(layout_.out_dist), inner, out_outer, out_at};
    stream.launch(*module_, r2c_ ? "fft_r2c_half" : "fft_c2r_narrow", grid, last);
    return;
  }
  if (r2c_) {
    // Z, the complex FFT of the reals in pairs, into the work array, then the split.
    if (real_in_pass_) {
      half_->run(stream, in, *work_, fft::Direction::forward, 1.0, in_base, 0);
    } else {
      const std::array<Arg, 9> pack = {Arg::memory(in),  Arg::memory(*work_), h, batch, Arg::value(layout_.in_stride),
                                       Arg::value(layout_.in_dist), inner, in_outer, in_at};
      stream.launch(*module_, "fft_r2c_pack", grid, pack);
      half_->run(stream, *work_, *work_, fft::Direction::forward, 1.0);
    }
    const std::array<Arg, 11> post = {Arg::memory(*work_), Arg::memory(out), Arg::memory(*twiddles_), h, batch,
                                      Arg::value(layout_.out_stride), Arg::value(layout_.out_dist), inner, out_outer,
                                      out_at, scale_arg};
    stream.launch(*module_, "fft_r2c_post", grid, post);
    return;
  }
  const std::array<Arg, 11> pre = {Arg::memory(in), Arg::memory(*work_), Arg::memory(*twiddles_), h, batch,
                                   Arg::value(layout_.in_stride), Arg::value(layout_.in_dist), inner, in_outer,
                                   in_at, scale_arg};
  stream.launch(*module_, "fft_c2r_pre", grid, pre);
  half_->run(stream, *work_, *work_, fft::Direction::backward, 1.0);
  const std::array<Arg, 9> unpack = {Arg::memory(*work_), Arg::memory(out), h, batch, Arg::value(layout_.out_stride),
                                     Arg::value(layout_.out_dist), inner, out_outer, out_at};
  stream.launch(*module_, "fft_c2r_unpack", grid, unpack);
}

}  // namespace ripple::gpu
