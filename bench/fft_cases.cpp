// The FFT benchmark's case list. The default list is the one the project's speed targets are
// stated on; keep bench/fft_peers.py's copy (DEFAULT_* there) in step when changing it.
#include "fft_cases.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

namespace ripple_bench {
namespace {

struct SizeLists {
  std::vector<std::size_t> pow2;
  std::vector<std::size_t> smooth;
  std::vector<std::size_t> prime;
  std::vector<std::size_t> batch;  // sizes of the small transforms repeated to fill batch_bytes
  std::vector<std::vector<std::size_t>> nd;  // 2-D and 3-D shapes
};

SizeLists full_lists() {
  SizeLists l;
  for (int k = 4; k <= 22; ++k) l.pow2.push_back(std::size_t{1} << k);
  l.smooth = {60, 243, 1000, 3125, 4800, 6561, 15625, 16807, 100000, 1000000};
  l.prime = {17, 1009, 65537, 999983};
  l.batch = {64, 100, 125, 256, 1024};  // 100, 125: not multiples of an AVX-512 vector (8 complex floats)
  l.nd = {{4096, 4096}, {256, 256, 256}};  // the CPU targets of the multi-dimensional issue
  return l;
}

SizeLists quick_lists() {
  SizeLists l;
  for (int k = 6; k <= 20; k += 2) l.pow2.push_back(std::size_t{1} << k);
  l.smooth = {60, 243, 1000, 3125, 6561, 100000};
  l.prime = {17, 1009, 65537};
  l.batch = {64, 100, 125, 256, 1024};  // 100, 125: not multiples of an AVX-512 vector (8 complex floats)
  l.nd = {{1024, 1024}, {128, 128, 128}};
  return l;
}

template <class T>
bool contains(const std::vector<T>& v, T x) {
  return v.empty() || std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

std::string_view name(Transform t) {
  switch (t) {
    case Transform::c2c_f32: return "c2c-f32";
    case Transform::c2c_f64: return "c2c-f64";
    case Transform::r2c_f32: return "r2c-f32";
  }
  return "?";
}

std::string_view name(Category c) {
  switch (c) {
    case Category::pow2: return "pow2";
    case Category::smooth: return "smooth";
    case Category::prime: return "prime";
    case Category::batch: return "batch";
    case Category::other: return "other";
    case Category::nd: return "nd";
  }
  return "?";
}

std::optional<Transform> parse_transform(std::string_view s) {
  for (Transform t : {Transform::c2c_f32, Transform::c2c_f64, Transform::r2c_f32})
    if (s == name(t)) return t;
  return std::nullopt;
}

std::optional<Category> parse_category(std::string_view s) {
  for (Category c : {Category::pow2, Category::smooth, Category::prime, Category::batch, Category::other,
                     Category::nd})
    if (s == name(c)) return c;
  return std::nullopt;
}

std::vector<std::size_t> shape_of(const Case& c) {
  return c.dims.empty() ? std::vector<std::size_t>{c.n} : c.dims;
}

std::string size_text(const Case& c) {
  const auto append = [](std::string& s, const std::vector<std::size_t>& sizes) {
    for (std::size_t a = 0; a < sizes.size(); ++a) {
      if (a > 0) s += 'x';
      s += std::to_string(sizes[a]);
    }
  };
  std::string s;
  append(s, shape_of(c));
  if (!c.embed.empty()) {
    s += '@';
    append(s, c.embed);
  }
  return s;
}

double nominal_flops(const Case& c) {
  const double n = static_cast<double>(c.n);
  const double per = (c.kind == Transform::r2c_f32 ? 2.5 : 5.0) * n * std::log2(n);
  return per * static_cast<double>(c.batch);
}

std::size_t input_bytes(Transform t, std::size_t n) {
  switch (t) {
    case Transform::c2c_f32: return n * sizeof(std::complex<float>);
    case Transform::c2c_f64: return n * sizeof(std::complex<double>);
    case Transform::r2c_f32: return n * sizeof(float);
  }
  return n;
}

bool is_prime(std::size_t n) {
  if (n < 2) return false;
  for (std::size_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

bool is_power_of(std::size_t n, std::size_t base) {
  if (n < base) return false;
  while (n % base == 0) n /= base;
  return n == 1;
}

Category classify(std::size_t n) {
  if (is_power_of(n, 2)) return Category::pow2;
  if (is_prime(n)) return Category::prime;
  std::size_t m = n;
  for (std::size_t p : {2, 3, 5, 7})
    while (m % p == 0) m /= p;
  return m == 1 ? Category::smooth : Category::other;
}

std::vector<Case> make_cases(const CaseSelection& sel) {
  const std::vector<Transform> kinds =
      sel.kinds.empty() ? std::vector{Transform::c2c_f32, Transform::c2c_f64, Transform::r2c_f32}
                        : sel.kinds;
  const SizeLists lists = sel.quick ? quick_lists() : full_lists();
  const std::size_t batch_bytes = sel.quick ? std::min<std::size_t>(sel.batch_bytes, 8u << 20)
                                            : sel.batch_bytes;
  std::vector<Case> cases;
  const auto add = [&](Transform k, Category cat, std::size_t n, std::size_t batch) {
    if (!contains(sel.categories, cat)) return;
    if (sel.max_n != 0 && n > sel.max_n) return;
    cases.push_back(Case{k, cat, n, batch, {}, {}});
  };
  const auto add_nd = [&](Transform k, const std::vector<std::size_t>& dims,
                          const std::vector<std::size_t>& embed = {}) {
    if (!contains(sel.categories, Category::nd)) return;
    if (!embed.empty() && k == Transform::r2c_f32) return;  // embedded shapes: c2c only
    std::size_t n = 1;
    for (std::size_t d : dims) n *= d;
    if (sel.max_n != 0 && n > sel.max_n) return;
    cases.push_back(Case{k, Category::nd, n, 1, dims, embed});
  };
  for (Transform k : kinds) {
    if (!sel.sizes.empty() || !sel.shapes.empty()) {
      for (auto [n, batch] : sel.sizes) add(k, batch > 1 ? Category::batch : classify(n), n, batch);
      for (const NdShape& shape : sel.shapes) add_nd(k, shape.dims, shape.embed);
      continue;
    }
    for (std::size_t n : lists.pow2) add(k, Category::pow2, n, 1);
    for (std::size_t n : lists.smooth) add(k, Category::smooth, n, 1);
    for (std::size_t n : lists.prime) add(k, Category::prime, n, 1);
    for (std::size_t n : lists.batch)
      add(k, Category::batch, n, std::max<std::size_t>(1, batch_bytes / input_bytes(k, n)));
    for (const auto& dims : lists.nd) add_nd(k, dims);
  }
  return cases;
}

}  // namespace ripple_bench
