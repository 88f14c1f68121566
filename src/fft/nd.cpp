#include "fft/nd.hpp"

#include <algorithm>

#include "core/scratch.hpp"
#include "core/thread_pool.hpp"
#include "fft/plan_desc.hpp"

namespace ripple::fft::detail {

NdPitch nd_pitch(const std::vector<std::size_t>& pitch) {
  NdPitch out{};
  std::copy(pitch.begin(), pitch.end(), out.begin());
  return out;
}

template <class T>
NdFft<T>::NdFft(std::vector<std::size_t> shape, Mode mode, bool forward, std::size_t batch, unsigned threads)
    : shape_(std::move(shape)), complex_(shape_), mode_(mode) {
  const std::size_t last = shape_.back();
  const std::size_t rows = rows_per_transform() * batch;
  if (mode == Mode::c2c) {
    rows_ = plan_c2c<T>(last, forward, rows, threads);
  } else {
    complex_.back() = last / 2 + 1;
    work_pitch_ = nd_pitch(pitches_of(complex_));
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
AxisGeometry NdFft<T>::axis_geometry(std::size_t a, const Side& src, const Side& dst, std::size_t batch) const {
  const std::size_t last = rank() - 1;
  AxisGeometry g;
  g.batch = batch;
  g.columns = complex_[last];
  std::size_t outer_axis = a;  // a: none
  if (a + 1 < last) {  // rank 3, axis 0: axis 1 lies between it and the rows
    if (src.pitch[1] == complex_[last] && dst.pitch[1] == complex_[last])
      g.columns *= complex_[1];
    else
      outer_axis = 1;
  } else if (a > 0) {  // rank 3, axis 1: the planes
    outer_axis = 0;
  }
  const auto side = [&](const Side& s) {
    AxisSide out;
    out.dist = s.dist;
    out.elem = s.step(a);
    out.col = s.stride;
    out.outer_step = outer_axis == a ? 0 : s.step(outer_axis);
    return out;
  };
  g.outer = outer_axis == a ? 1 : complex_[outer_axis];
  g.src = side(src);
  g.dst = side(dst);
  return g;
}

template <class T>
template <class In, class Out, class Rows>
void NdFft<T>::for_rows(const In* in, Out* out, const Side& is, const Side& os, std::size_t batch,
                        const Rows& rows, unsigned threads) const {
  const std::size_t row_axis = rank() - 2;
  const std::size_t r = rows_per_transform();
  // Rank 3: rows evenly spaced through a transform where its planes follow one another.
  const bool planes_packed = rank() == 2 || (is.pitch[0] == complex_[1] * is.pitch[1] &&
                                             os.pitch[0] == complex_[1] * os.pitch[1]);
  if (!planes_packed) {
    const std::size_t n0 = complex_[0], planes = n0 * batch;
    const Layout plane_rows{is.stride, is.step(1), os.stride, os.step(1), complex_[1]};
    const auto plane = [&](std::size_t p, unsigned t) {
      const std::size_t b = p / n0, i0 = p % n0;
      rows(in + std::ptrdiff_t(b) * is.dist + std::ptrdiff_t(i0) * is.step(0),
           out + std::ptrdiff_t(b) * os.dist + std::ptrdiff_t(i0) * os.step(0), plane_rows, t);
    };
    if (planes >= threads)  // threads over planes, else within each
      core::parallel_for(planes, threads, [&](std::size_t p) { plane(p, 1u); });
    else
      for (std::size_t p = 0; p < planes; ++p) plane(p, threads);
    return;
  }
  const std::ptrdiff_t in_row = is.step(row_axis), out_row = os.step(row_axis);
  Layout row_layout{is.stride, in_row, os.stride, out_row, r};
  if (batch == 1 || (is.dist == std::ptrdiff_t(r) * in_row && os.dist == std::ptrdiff_t(r) * out_row)) {
    row_layout.batch = r * batch;
    rows(in, out, row_layout, threads);
    return;
  }
  for (std::size_t b = 0; b < batch; ++b)
    rows(in + std::ptrdiff_t(b) * is.dist, out + std::ptrdiff_t(b) * os.dist, row_layout, threads);
}

template <class T>
template <class In, class Rows>
void NdFft<T>::rows_then_axes(const In* in, std::complex<T>* out, const Side& is, const Side& os,
                              std::size_t batch, const Rows& rows, unsigned threads) const {
  std::size_t first_axis = rank() - 1;  // axes below this one are left to the loop at the end
  if (fuse_planes_) {
    const std::size_t n0 = shape_[0], n1 = shape_[1];
    const Layout plane_rows{is.stride, is.step(1), os.stride, os.step(1), n1};
    AxisGeometry lines;  // axis 1 of one plane
    lines.columns = complex_.back();
    lines.src.elem = lines.dst.elem = os.step(1);
    lines.src.col = lines.dst.col = os.stride;
    core::parallel_for(n0 * batch, threads, [&](std::size_t p) {
      const std::size_t b = p / n0, i0 = p % n0;
      std::complex<T>* plane = out + std::ptrdiff_t(b) * os.dist + std::ptrdiff_t(i0) * os.step(0);
      rows(in + std::ptrdiff_t(b) * is.dist + std::ptrdiff_t(i0) * is.step(0), plane, plane_rows, 1u);
      axes_[1]->run(plane, plane, lines, 1);
    });
    first_axis = 1;
  } else {
    for_rows(in, out, is, os, batch, rows, threads);
  }
  for (std::size_t a = first_axis; a-- > 0;) axes_[a]->run(out, out, axis_geometry(a, os, os, batch), threads);
}

template <class T>
void NdFft<T>::c2c(const std::complex<T>* in, std::complex<T>* out, const Layout& layout, const NdPitch& in_pitch,
                   const NdPitch& out_pitch, T scale, unsigned threads) const {
  rows_then_axes(in, out, {in_pitch, layout.in_stride, layout.in_dist}, {out_pitch, layout.out_stride, layout.out_dist},
                 layout.batch,
                 [&](const std::complex<T>* i, std::complex<T>* o, const Layout& l, unsigned t) {
                   rows_->execute(i, o, l, scale, t);
                 },
                 threads);
}

template <class T>
void NdFft<T>::r2c(const T* in, std::complex<T>* out, const Layout& layout, const NdPitch& in_pitch,
                   const NdPitch& out_pitch, T scale, unsigned threads) const {
  rows_then_axes(in, out, {in_pitch, layout.in_stride, layout.in_dist}, {out_pitch, layout.out_stride, layout.out_dist},
                 layout.batch,
                 [&](const T* i, std::complex<T>* o, const Layout& l, unsigned t) { real_rows_->r2c(i, o, l, scale, t); },
                 threads);
}

template <class T>
void NdFft<T>::c2r(const std::complex<T>* in, T* out, const Layout& layout, const NdPitch& in_pitch,
                   const NdPitch& out_pitch, T scale, unsigned threads) const {
  // The input is const: the first axis pass writes a packed work array, the others update it.
  std::size_t packed = 1;
  for (std::size_t d : complex_) packed *= d;
  core::Scratch scratch;
  std::complex<T>* work = scratch.get<std::complex<T>>(packed * layout.batch);
  const Side from{in_pitch, layout.in_stride, layout.in_dist};
  const Side on_work{work_pitch_, 1, std::ptrdiff_t(packed)};
  for (std::size_t a = rank() - 1; a-- > 0;) {
    const bool first = a + 2 == rank();
    axes_[a]->run(first ? in : work, work, axis_geometry(a, first ? from : on_work, on_work, layout.batch), threads);
  }
  for_rows(static_cast<const std::complex<T>*>(work), out, on_work, {out_pitch, layout.out_stride, layout.out_dist},
           layout.batch,
           [&](const std::complex<T>* i, T* o, const Layout& l, unsigned t) { real_rows_->c2r(i, o, l, scale, t); },
           threads);
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
