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
#include "fft/plan_desc.hpp"
#include "fft/real.hpp"
#include "ripple/error.hpp"
#include "ripple/fft.hpp"
#include "ripple/runtime.hpp"

namespace ripple::fft {
namespace detail {

class PlanImpl {
 public:
  explicit PlanImpl(const PlanDesc& d) : desc(d) {
    const CheckedDesc checked = check_plan_desc(desc);
    n = checked.n;
    layout = layout_of<Layout>(checked);
    if (desc.shape.size() > 1) {
      in_pitch = detail::nd_pitch(checked.in_pitch);
      out_pitch = detail::nd_pitch(checked.out_pitch);
    }
    layout.final_out = desc.kind == Kind::c2c && desc.shape.size() == 1;
    in_span = checked.in_span;
    out_span = checked.out_span;
    scale = checked.scale;
    threads = desc.threads != 0 ? desc.threads : default_threads();
    // Threads pay off only when there is enough work to split.
    if (n * desc.batch < (std::size_t(1) << 15)) threads = 1;

    const bool forward = desc.direction == Direction::forward;
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

  // The checks every execute() makes stay inline, as do the run_* functions below, into
  // Plan::execute; building the messages does not (tiny transforms take a few nanoseconds, so
  // the call path itself counts).
  void expect(Kind kind, Precision precision) const {
    if (precision != desc.precision || kind != desc.kind) [[unlikely]]
      throw_mismatch(kind, precision);
  }

  [[noreturn, gnu::cold, gnu::noinline]] void throw_mismatch(Kind kind, Precision precision) const {
    if (precision != desc.precision)
      throw InvalidArgument("precision: the plan is " + precision_name(desc.precision) + " but execute() got " +
                            precision_name(precision) + " data");
    throw InvalidArgument("kind: the plan is " + kind_name(desc.kind) + " but execute() got " + kind_name(kind) +
                          " arguments");
  }

  [[noreturn, gnu::cold, gnu::noinline]] static void throw_bad_buffers(const void* in, const void* out) {
    if (in == nullptr) throw InvalidArgument("in: null pointer");
    if (out == nullptr) throw InvalidArgument("out: null pointer");
    throw InvalidArgument("in and out overlap without being the same buffer");
  }

  // In and out must be the same buffer or not overlap at all.
  template <class In, class Out>
  bool check_buffers(const In* in, const Out* out) const {
    if (in == nullptr || out == nullptr) [[unlikely]]
      throw_bad_buffers(in, out);
    const auto in_begin = reinterpret_cast<std::uintptr_t>(in);
    const auto out_begin = reinterpret_cast<std::uintptr_t>(out);
    const auto in_end = in_begin + in_span * sizeof(In), out_end = out_begin + out_span * sizeof(Out);
    if (in_begin == out_begin) return true;
    if (in_begin < out_end && out_begin < in_end) [[unlikely]]
      throw_bad_buffers(in, out);
    return false;
  }

  // In-place with a layout the tree cannot update in place: work from a copy of the input.
  template <class In>
  const In* copy_input(const In* in, core::Scratch& scratch) const {
    In* copy = scratch.get<In>(in_span);
    std::copy(in, in + in_span, copy);
    return copy;
  }

  // Ranks 2 and 3: each side's axis pitches (its embedding's; the sizes' where packed).
  NdPitch in_pitch{}, out_pitch{};

  template <class T>
  [[gnu::always_inline]] void run_c2c(const std::complex<T>* in, std::complex<T>* out) const {
    expect(Kind::c2c, detail::precision_of<T>());
    core::Scratch scratch;
    const bool same = check_buffers(in, out);
    const Tree<T>& tree = std::get<Tree<T>>(tree_);
    if (same && (layout.in_stride != layout.out_stride || layout.in_dist != layout.out_dist || in_pitch != out_pitch))
      in = copy_input(in, scratch);
    if (tree.nd) return tree.nd->c2c(in, out, layout, in_pitch, out_pitch, T(scale), threads);
    tree.c2c->execute(in, out, layout, T(scale), threads);
  }

  template <class T>
  [[gnu::always_inline]] void run_r2c(const T* in, std::complex<T>* out) const {
    expect(Kind::r2c, detail::precision_of<T>());
    core::Scratch scratch;
    const bool same = check_buffers(in, out);
    const Tree<T>& tree = std::get<Tree<T>>(tree_);
    if (same) in = copy_input(in, scratch);
    if (tree.nd) return tree.nd->r2c(in, out, layout, in_pitch, out_pitch, T(scale), threads);
    tree.real->r2c(in, out, layout, T(scale), threads);
  }

  template <class T>
  [[gnu::always_inline]] void run_c2r(const std::complex<T>* in, T* out) const {
    expect(Kind::c2r, detail::precision_of<T>());
    core::Scratch scratch;
    const bool same = check_buffers(in, out);
    const Tree<T>& tree = std::get<Tree<T>>(tree_);
    if (same) in = copy_input(in, scratch);
    if (tree.nd) return tree.nd->c2r(in, out, layout, in_pitch, out_pitch, T(scale), threads);
    tree.real->c2r(in, out, layout, T(scale), threads);
  }

  std::string describe() const {
    std::string s = kind_name(desc.kind) + " " + precision_name(desc.precision) + " n=";
    for (std::size_t a = 0; a < desc.shape.size(); ++a) {
      if (a > 0) s += 'x';
      s += std::to_string(desc.shape[a]);
    }
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
