// The public fft::Plan: validates the description, builds the plan tree, and routes execute()
// to the typed executor.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <new>
#include <variant>

#include "core/scratch.hpp"
#include "fft/c2c_node.hpp"
#include "fft/nd.hpp"
#include "fft/real.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fft {
namespace detail {
namespace {

std::string kind_name(Kind k) { return k == Kind::c2c ? "c2c" : k == Kind::r2c ? "r2c" : "c2r"; }
std::string precision_name(Precision p) { return p == Precision::f32 ? "f32" : "f64"; }

std::size_t checked_mul(std::size_t a, std::size_t b, const char* what) {
  std::size_t r;
  if (__builtin_mul_overflow(a, b, &r) || r > std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(std::string(what) + ": " + std::to_string(a) + " x " + std::to_string(b) +
                          " elements overflow the address space");
  return r;
}

// Elements a layout spans: (batch-1)*dist + (count-1)*stride + 1, checked so that its size in
// bytes fits the address space. `side` is "in" or "out".
std::size_t span_of(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist,
                    std::size_t element_bytes, const std::string& side) {
  const std::string what = side + "_stride = " + std::to_string(stride) + ", " + side + "_dist = " +
                           std::to_string(dist) + ", shape/batch";
  const std::size_t last = checked_mul(count - 1, std::size_t(stride), what.c_str());
  const std::size_t last_batch = checked_mul(batch - 1, std::size_t(dist), what.c_str());
  std::size_t total;
  if (__builtin_add_overflow(last, last_batch, &total) || total >= std::size_t(PTRDIFF_MAX))
    throw InvalidArgument(what + ": the layout overflows the address space");
  checked_mul(total + 1, element_bytes, what.c_str());
  return total + 1;
}

// Output addresses b*dist + e*stride must be distinct for e < count, b < batch.
void check_no_alias(std::size_t count, std::size_t batch, std::ptrdiff_t stride, std::ptrdiff_t dist) {
  if (batch == 1 || count == 1) {
    if (batch > 1 && dist == 0)
      throw InvalidArgument("out_dist = 0: every batch entry would write the same output");
    return;
  }
  if (dist == 0)
    throw InvalidArgument("out_dist = 0: every batch entry would write the same output");
  const auto s = std::size_t(stride), d = std::size_t(dist);
  const bool dist_outer = d >= s && d >= s * count;   // batches one after another
  const bool stride_outer = s >= d && s >= d * batch;  // batches interleaved
  if (!dist_outer && !stride_outer)
    throw InvalidArgument("out_stride = " + std::to_string(stride) + ", out_dist = " + std::to_string(dist) +
                          ": output elements of different batch entries overlap");
}

}  // namespace

class PlanImpl {
 public:
  explicit PlanImpl(const PlanDesc& d) : desc(d) {
    if (desc.shape.empty()) throw InvalidArgument("shape: rank 0 (empty shape); give the transform size");
    if (desc.shape.size() > 3)
      throw InvalidArgument("shape: rank " + std::to_string(desc.shape.size()) + " is above the maximum of 3");
    for (std::size_t a = 0; a < desc.shape.size(); ++a)
      if (desc.shape[a] == 0)
        throw InvalidArgument("shape[" + std::to_string(a) + "] = 0: transform sizes must be >= 1");
    if (desc.batch == 0) throw InvalidArgument("batch = 0: at least one transform is needed");
    // Sizes in bytes of the complex data must fit the address space before anything is sized.
    const std::size_t complex_bytes = desc.precision == Precision::f32 ? 8 : 16;
    n = 1;
    for (std::size_t a = 0; a < desc.shape.size(); ++a) {
      const std::string what = "shape[" + std::to_string(a) + "] = " + std::to_string(desc.shape[a]);
      n = checked_mul(n, desc.shape[a], what.c_str());
      checked_mul(n, complex_bytes, what.c_str());
    }
    checked_mul(checked_mul(n, desc.batch, "shape x batch"), complex_bytes, "shape x batch");
    if (desc.kind == Kind::r2c && desc.direction != Direction::forward)
      throw InvalidArgument("direction: r2c transforms are forward only");
    if (desc.kind == Kind::c2r && desc.direction != Direction::backward)
      throw InvalidArgument("direction: c2r transforms are backward only (set Direction::backward)");
    // Elements per transform on each side: the half-spectrum side has its last axis n/2+1.
    const std::size_t last = desc.shape.back();
    const std::size_t half = n / last * (last / 2 + 1);
    const std::size_t n_in = desc.kind == Kind::c2r ? half : n;
    const std::size_t n_out = desc.kind == Kind::r2c ? half : n;
    if (desc.in_stride < 1) throw InvalidArgument("in_stride = " + std::to_string(desc.in_stride) + ": must be >= 1");
    if (desc.out_stride < 1) throw InvalidArgument("out_stride = " + std::to_string(desc.out_stride) + ": must be >= 1");
    if (desc.in_dist < 0) throw InvalidArgument("in_dist = " + std::to_string(desc.in_dist) + ": must be >= 0");
    if (desc.out_dist < 0) throw InvalidArgument("out_dist = " + std::to_string(desc.out_dist) + ": must be >= 0");
    layout.in_stride = desc.in_stride;
    layout.out_stride = desc.out_stride;
    layout.in_dist = desc.in_dist != 0 ? desc.in_dist
                                       : std::ptrdiff_t(checked_mul(n_in, std::size_t(desc.in_stride), "in_stride"));
    layout.out_dist = desc.out_dist != 0 ? desc.out_dist
                                         : std::ptrdiff_t(checked_mul(n_out, std::size_t(desc.out_stride), "out_stride"));
    layout.batch = desc.batch;
    if (desc.batch == 1) layout.in_dist = layout.out_dist = 0;
    const std::size_t real_bytes = complex_bytes / 2;
    in_span = span_of(n_in, desc.batch, layout.in_stride, layout.in_dist,
                      desc.kind == Kind::r2c ? real_bytes : complex_bytes, "in");
    out_span = span_of(n_out, desc.batch, layout.out_stride, layout.out_dist,
                       desc.kind == Kind::c2r ? real_bytes : complex_bytes, "out");
    check_no_alias(n_out, desc.batch, layout.out_stride, desc.batch == 1 ? 1 : layout.out_dist);
    if (desc.threads > 1024) throw InvalidArgument("threads = " + std::to_string(desc.threads) + ": above 1024");
    threads = desc.threads != 0 ? desc.threads : default_threads();
    // Threads pay off only when there is enough work to split.
    if (n * desc.batch < (std::size_t(1) << 15)) threads = 1;

    const bool forward = desc.direction == Direction::forward;
    const double nn = double(n);
    switch (desc.norm) {
      case Norm::backward: scale = forward ? 1.0 : 1.0 / nn; break;
      case Norm::ortho: scale = 1.0 / std::sqrt(nn); break;
      case Norm::forward: scale = forward ? 1.0 / nn : 1.0; break;
    }
    if (desc.precision == Precision::f32) {
      build<float>(forward);
    } else {
      build<double>(forward);
    }
  }

  template <class T>
  struct Tree {
    C2cNodePtr<T> c2c;
    std::unique_ptr<RealFft<T>> real;
    std::unique_ptr<NdFft<T>> nd;  // ranks 2 and 3
  };

  template <class T>
  void build(bool forward) {
    Tree<T> tree;
    if (desc.shape.size() > 1) {
      using Mode = typename NdFft<T>::Mode;
      const Mode mode = desc.kind == Kind::c2c ? Mode::c2c : desc.kind == Kind::r2c ? Mode::r2c : Mode::c2r;
      tree.nd = std::make_unique<NdFft<T>>(desc.shape, mode, forward, desc.batch, threads);
    } else if (desc.kind == Kind::c2c) {
      tree.c2c = plan_c2c<T>(n, forward, desc.batch, threads);
    } else {
      tree.real = std::make_unique<RealFft<T>>(n, desc.kind == Kind::r2c, desc.batch, threads);
    }
    tree_ = std::move(tree);
  }

  void expect(Kind kind, Precision precision) const {
    if (precision != desc.precision)
      throw InvalidArgument("precision: the plan is " + precision_name(desc.precision) + " but execute() got " +
                            precision_name(precision) + " data");
    if (kind != desc.kind)
      throw InvalidArgument("kind: the plan is " + kind_name(desc.kind) + " but execute() got " + kind_name(kind) +
                            " arguments");
  }

  // In and out must be the same buffer or not overlap at all.
  template <class In, class Out>
  bool check_buffers(const In* in, const Out* out) const {
    if (in == nullptr) throw InvalidArgument("in: null pointer");
    if (out == nullptr) throw InvalidArgument("out: null pointer");
    const auto in_begin = reinterpret_cast<std::uintptr_t>(in);
    const auto out_begin = reinterpret_cast<std::uintptr_t>(out);
    const auto in_end = in_begin + in_span * sizeof(In), out_end = out_begin + out_span * sizeof(Out);
    if (in_begin == out_begin) return true;
    if (in_begin < out_end && out_begin < in_end)
      throw InvalidArgument("in and out overlap without being the same buffer");
    return false;
  }

  // In-place with a layout the tree cannot update in place: work from a copy of the input.
  template <class In>
  const In* copy_input(const In* in, core::Scratch& scratch) const {
    In* copy = scratch.get<In>(in_span);
    std::copy(in, in + in_span, copy);
    return copy;
  }

  template <class T>
  void run_c2c(const std::complex<T>* in, std::complex<T>* out) const {
    expect(Kind::c2c, sizeof(T) == 4 ? Precision::f32 : Precision::f64);
    core::Scratch scratch;
    if (check_buffers(in, out) && (layout.in_stride != layout.out_stride || layout.in_dist != layout.out_dist))
      in = copy_input(in, scratch);
    const Tree<T>& tree = std::get<Tree<T>>(tree_);
    if (tree.nd) return tree.nd->c2c(in, out, layout, T(scale), threads);
    tree.c2c->execute(in, out, layout, T(scale), threads);
  }

  template <class T>
  void run_r2c(const T* in, std::complex<T>* out) const {
    expect(Kind::r2c, sizeof(T) == 4 ? Precision::f32 : Precision::f64);
    core::Scratch scratch;
    if (check_buffers(in, out)) in = copy_input(in, scratch);
    const Tree<T>& tree = std::get<Tree<T>>(tree_);
    if (tree.nd) return tree.nd->r2c(in, out, layout, T(scale), threads);
    tree.real->r2c(in, out, layout, T(scale), threads);
  }

  template <class T>
  void run_c2r(const std::complex<T>* in, T* out) const {
    expect(Kind::c2r, sizeof(T) == 4 ? Precision::f32 : Precision::f64);
    core::Scratch scratch;
    if (check_buffers(in, out)) in = copy_input(in, scratch);
    const Tree<T>& tree = std::get<Tree<T>>(tree_);
    if (tree.nd) return tree.nd->c2r(in, out, layout, T(scale), threads);
    tree.real->c2r(in, out, layout, T(scale), threads);
  }

  std::string describe() const {
    std::string s = kind_name(desc.kind) + " " + precision_name(desc.precision) + " n=";
    for (std::size_t a = 0; a < desc.shape.size(); ++a) s += (a ? "x" : "") + std::to_string(desc.shape[a]);
    if (desc.batch > 1) s += " batch=" + std::to_string(desc.batch);
    s += ": ";
    std::visit(
        [&](const auto& tree) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(tree)>, std::monostate>)
            s += tree.nd ? tree.nd->describe() : tree.c2c ? tree.c2c->describe() : tree.real->describe();
        },
        tree_);
    return s;
  }

  PlanDesc desc;
  std::size_t n = 0;
  Layout layout;
  std::size_t in_span = 0, out_span = 0;
  unsigned threads = 1;
  double scale = 1.0;

 private:
  std::variant<std::monostate, Tree<float>, Tree<double>> tree_;
};

}  // namespace detail

Plan::Plan(const PlanDesc& desc) {
  try {
    impl_ = std::make_shared<const detail::PlanImpl>(desc);
  } catch (const std::bad_alloc&) {
    throw Error("shape[0] = " + std::to_string(desc.shape.empty() ? 0 : desc.shape[0]) +
                ": not enough memory for the plan's tables");
  }
}
const PlanDesc& Plan::desc() const { return impl_->desc; }
std::size_t Plan::input_span() const { return impl_->in_span; }
std::size_t Plan::output_span() const { return impl_->out_span; }
std::string Plan::describe() const { return impl_->describe(); }

void Plan::execute(const std::complex<float>* in, std::complex<float>* out) const { impl_->run_c2c(in, out); }
void Plan::execute(const std::complex<double>* in, std::complex<double>* out) const { impl_->run_c2c(in, out); }
void Plan::execute(const float* in, std::complex<float>* out) const { impl_->run_r2c(in, out); }
void Plan::execute(const double* in, std::complex<double>* out) const { impl_->run_r2c(in, out); }
void Plan::execute(const std::complex<float>* in, float* out) const { impl_->run_c2r(in, out); }
void Plan::execute(const std::complex<double>* in, double* out) const { impl_->run_c2r(in, out); }

}  // namespace ripple::fft
