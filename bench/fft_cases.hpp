// What the FFT benchmark measures: the transform kinds, the size categories, and the list of
// cases (kind, N, batch) built from the command line's selection.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ripple_bench {

/// The transforms compared with FFTW (all forward, unnormalized, out-of-place, packed).
enum class Transform { c2c_f32, c2c_f64, r2c_f32 };
/// pow2: 2^k; smooth: only factors 2,3,5,7; prime; batch: many small transforms in one call;
/// other: anything else given with --sizes (e.g. a large prime factor in a composite);
/// nd: a 2-D or 3-D transform (`dims`).
enum class Category { pow2, smooth, prime, batch, other, nd };

std::string_view name(Transform t);
std::string_view name(Category c);
std::optional<Transform> parse_transform(std::string_view s);
std::optional<Category> parse_category(std::string_view s);

struct Case {
  Transform kind = Transform::c2c_f32;
  Category category = Category::pow2;
  std::size_t n = 0;  // elements per transform (the product of dims for nd cases)
  std::size_t batch = 1;
  std::vector<std::size_t> dims;  // nd cases: the shape, row-major; empty for 1-D
  /// nd c2c cases: the array both sides lie in (FFTW's inembed/onembed, ripple's
  /// in_embed/out_embed: rows and planes apart); empty for packed.
  std::vector<std::size_t> embed;
};

/// A 2-D/3-D shape to run, with the array it lies in (empty: packed).
struct NdShape {
  std::vector<std::size_t> dims, embed;
};

/// The transform's shape: dims, or {n} for a 1-D case.
std::vector<std::size_t> shape_of(const Case& c);
/// "4096", "256x256x256", or "128x128x128@128x160x160" (embedded in the array after '@').
std::string size_text(const Case& c);

/// Nominal flop count of one execute, FFTW's convention: 5 N log2 N per complex transform,
/// 2.5 N log2 N per real one, times the batch (whatever the algorithm really does).
double nominal_flops(const Case& c);
/// Bytes of input one transform reads.
std::size_t input_bytes(Transform t, std::size_t n);

bool is_prime(std::size_t n);
bool is_power_of(std::size_t n, std::size_t base);
/// Category of a single transform of size n (never `batch`).
Category classify(std::size_t n);

/// Which cases to run. Empty vectors mean "all".
struct CaseSelection {
  bool quick = false;                       // a short list: a few sizes of each category
  std::vector<Transform> kinds;             // --kind
  std::vector<Category> categories;         // --category
  std::vector<std::pair<std::size_t, std::size_t>> sizes;  // --sizes: (N, batch) replaces the list
  std::vector<NdShape> shapes;              // --shapes: 2-D/3-D cases replace the nd list (embedded: c2c only)
  std::size_t batch_bytes = 64u << 20;      // batch cases: input of about this many bytes
  std::size_t max_n = 0;                    // skip sizes above this (0: no limit)
};

/// The default list (or --sizes) for every selected kind, in the order they are run:
/// by kind, then pow2, smooth, prime, batch, nd.
std::vector<Case> make_cases(const CaseSelection& sel);

}  // namespace ripple_bench
