#include "fft/nd.hpp"

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"

namespace ripple::fft::detail {

template <class T>
NdFft<T>::NdFft(std::vector<std::size_t> shape, Mode mode, bool forward, std::size_t batch, unsigned threads)
    : shape_(std::move(shape)), complex_(shape_), mode_(mode) {
  const std::size_t last = shape_.back();
  const std::size_t rows = rows_per_transform() * batch;
  if (mode == Mode::c2c) {
    rows_ = plan_c2c<T>(last, forward, rows, threads);
  } else {
    complex_.back() = last / 2 + 1;
    real_rows_ = std::make_unique<RealFft<T>>(last, mode == Mode::r2c, rows, threads);
  }
  for (std::size_t a = 0; a + 1 < rank(); ++a) axes_.push_back(std::make_unique<const AxisLines<T>>(shape_[a], forward));
  // Planes of up to a few MiB stay in the (shared) last-level cache between the two passes.
  constexpr std::size_t kFusedPlaneBytes = std::size_t(4) << 20;
  fuse_planes_ = rank() == 3 && shape_[1] * complex_[2] * sizeof(std::complex<T>) <= kFusedPlaneBytes &&
                 shape_[0] * batch >= 4 * std::size_t(threads);
}

template <class T>
std::size_t NdFft<T>::rows_per_transform() const {
  std::size_t r = 1;
  for (std::size_t a = 0; a + 1 < rank(); ++a) r *= shape_[a];
  return r;
}

template <class T>
AxisGeometry NdFft<T>::axis_geometry(std::size_t a, std::ptrdiff_t src_stride, std::ptrdiff_t src_dist,
                                     std::ptrdiff_t dst_stride, std::ptrdiff_t dst_dist, std::size_t batch) const {
  std::size_t inner = 1, outer = 1;
  for (std::size_t i = a + 1; i < rank(); ++i) inner *= complex_[i];
  for (std::size_t i = 0; i < a; ++i) outer *= complex_[i];
  const auto side = [&](std::ptrdiff_t stride, std::ptrdiff_t dist) {
    AxisSide s;
    s.dist = dist;
    s.elem = std::ptrdiff_t(inner) * stride;
    s.outer_step = std::ptrdiff_t(complex_[a]) * s.elem;
    s.col = stride;
    return s;
  };
  AxisGeometry g;
  g.batch = batch;
  g.outer = outer;
  g.columns = inner;
  g.src = side(src_stride, src_dist);
  g.dst = side(dst_stride, dst_dist);
  return g;
}

template <class T>
template <class In, class Out, class Rows>
void NdFft<T>::for_rows(const In* in, Out* out, const Layout& layout, std::size_t in_len, std::size_t out_len,
                        const Rows& rows) const {
  const std::size_t r = rows_per_transform();
  const std::ptrdiff_t in_row = std::ptrdiff_t(in_len) * layout.in_stride;
  const std::ptrdiff_t out_row = std::ptrdiff_t(out_len) * layout.out_stride;
  Layout row_layout{layout.in_stride, in_row, layout.out_stride, out_row, r};
  const bool even = layout.batch == 1 || (layout.in_dist == std::ptrdiff_t(r) * in_row &&
                                          layout.out_dist == std::ptrdiff_t(r) * out_row);
  if (even) {
    row_layout.batch = r * layout.batch;
    rows(in, out, row_layout);
    return;
  }
  for (std::size_t b = 0; b < layout.batch; ++b)
    rows(in + std::ptrdiff_t(b) * layout.in_dist, out + std::ptrdiff_t(b) * layout.out_dist, row_layout);
}

template <class T>
template <class In, class Rows>
void NdFft<T>::rows_then_axes(const In* in, std::complex<T>* out, const Layout& layout, const Rows& rows,
                              unsigned threads, std::size_t in_row) const {
  const std::size_t in_len = in_row, out_len = complex_.back();  // in_len: the input's row pitch
  const std::ptrdiff_t os = layout.out_stride, od = layout.out_dist;
  std::size_t first_axis = rank() - 1;  // axes below this one are left to the loop at the end
  if (fuse_planes_) {
    const std::size_t n0 = shape_[0], n1 = shape_[1];
    const std::ptrdiff_t in_plane = std::ptrdiff_t(n1 * in_len) * layout.in_stride;
    const std::ptrdiff_t out_plane = std::ptrdiff_t(n1 * out_len) * os;
    const Layout plane_rows{layout.in_stride, std::ptrdiff_t(in_len) * layout.in_stride, os,
                            std::ptrdiff_t(out_len) * os, n1};
    AxisGeometry lines;  // axis 1 of one plane
    lines.columns = out_len;
    lines.src.elem = lines.dst.elem = std::ptrdiff_t(out_len) * os;
    lines.src.col = lines.dst.col = os;
    core::parallel_for(n0 * layout.batch, threads, [&](std::size_t p) {
      const std::size_t b = p / n0, i0 = p % n0;
      std::complex<T>* plane = out + std::ptrdiff_t(b) * od + std::ptrdiff_t(i0) * out_plane;
      rows(in + std::ptrdiff_t(b) * layout.in_dist + std::ptrdiff_t(i0) * in_plane, plane, plane_rows, 1u);
      axes_[1]->run(plane, plane, lines, 1);
    });
    first_axis = 1;
  } else {
    for_rows(in, out, layout, in_len, out_len,
             [&](const In* i, std::complex<T>* o, const Layout& l) { rows(i, o, l, threads); });
  }
  for (std::size_t a = first_axis; a-- > 0;)
    axes_[a]->run(out, out, axis_geometry(a, os, od, os, od, layout.batch), threads);
}

template <class T>
void NdFft<T>::c2c(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, T scale,
                   unsigned threads) const {
  rows_then_axes(in, out, layout,
                 [&](const std::complex<T>* i, std::complex<T>* o, const Layout& l, unsigned t) {
                   rows_->execute(i, o, l, scale, t);
                 },
                 threads, shape_.back());
}

template <class T>
void NdFft<T>::r2c(const T* in, std::complex<T>* out, const Layout& layout, T scale, unsigned threads,
                   std::size_t real_row) const {
  rows_then_axes(in, out, layout,
                 [&](const T* i, std::complex<T>* o, const Layout& l, unsigned t) { real_rows_->r2c(i, o, l, scale, t); },
                 threads, real_row != 0 ? real_row : shape_.back());
}

template <class T>
void NdFft<T>::c2r(const std::complex<T>* in, T* out, const Layout& layout, T scale, unsigned threads,
                   std::size_t real_row) const {
  // The input is const: the first axis pass writes a packed work array, the others update it.
  std::size_t packed = 1;
  for (std::size_t d : complex_) packed *= d;
  core::Scratch scratch;
  std::complex<T>* work = scratch.get<std::complex<T>>(packed * layout.batch);
  const auto p = std::ptrdiff_t(packed);
  for (std::size_t a = rank() - 1; a-- > 0;) {
    const bool first = a + 2 == rank();
    axes_[a]->run(first ? in : work, work,
                  axis_geometry(a, first ? layout.in_stride : 1, first ? layout.in_dist : p, 1, p, layout.batch),
                  threads);
  }
  const Layout from_work{1, p, layout.out_stride, layout.out_dist, layout.batch};
  for_rows(static_cast<const std::complex<T>*>(work), out, from_work, complex_.back(),
           real_row != 0 ? real_row : shape_.back(),
           [&](const std::complex<T>* i, T* o, const Layout& l) { real_rows_->c2r(i, o, l, scale, threads); });
}

template <class T>
std::string NdFft<T>::describe() const {
  std::string s = std::string(fuse_planes_ ? "nd-planes" : "nd") + "(axis" + std::to_string(rank() - 1) + ": " +
                  (rows_ ? rows_->describe() : real_rows_->describe());
  for (std::size_t a = rank() - 1; a-- > 0;) s += ", axis" + std::to_string(a) + ": " + axes_[a]->describe();
  return s + ")";
}

template class NdFft<float>;
template class NdFft<double>;

}  // namespace ripple::fft::detail
