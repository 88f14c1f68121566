// ripple's filtering against scipy.signal on the cases tests/iir/make_golden.py writes:
// sosfilt over designs (orders 1..12, cutoffs 1e-3..0.45, butter/cheby1/cheby2), n-D shapes on
// every axis with and without zi, complex data; sosfiltfilt over padtypes and padlens; lfilter
// (zi broadcast too); sosfilt_zi and lfilter_zi.
//
// Bounds: ripple and scipy are two roundings of the same recurrence, so their difference is
// held to a multiple of scipy's own distance from a long-double reference (ill-conditioned
// filters such as butter(12, 1e-3) amplify every rounding) plus a floor of a few ulps.
#include <fstream>
#include <map>
#include <sstream>

#include "common/golden.hpp"
#include "iir/iir_test_util.hpp"

namespace ripple::iir::test {
namespace {

using ripple::test::golden_dir;
using ripple::test::read_golden;

struct Case {
  std::string function, name;
  std::map<std::string, std::string> keys;
  int axis() const { return std::stoi(keys.at("axis")); }
};

std::vector<Case> cases(const std::string& function) {
  std::vector<Case> found;
  for (const auto& line : ripple::test::golden_lines("cases.txt")) {
    if (line.words.at(0) == function) found.push_back({line.words.at(0), line.words.at(1), line.keys});
  }
  EXPECT_FALSE(found.empty()) << "no " << function << " cases in " << golden_dir();
  return found;
}

io::NpyArray part(const Case& c, const std::string& what) { return read_golden(c.name + "." + what); }

template <class T>
BasicSos<T> sos_of(const io::NpyArray& a) {
  return BasicSos<T>::from_flat(a.values<T>());
}

template <class T>
constexpr double ulp_floor() {
  return std::is_same_v<typename detail::real_of<T>::type, float> ? 2e-6 : 1e-14;
}

// Checks one sosfilt case of element type X with coefficients S.
template <class S, class X>
void check_sosfilt(const Case& c) {
  SCOPED_TRACE(c.name);
  const auto sos = sos_of<S>(part(c, "sos"));
  const auto x = part(c, "x");
  const auto expected = part(c, "y");
  if (c.keys.at("zi") == "1") {
    const auto zi = part(c, "zi");
    const auto [y, zf] = sosfilt(sos, view_of<X>(x), c.axis(), view_of<X>(zi));
    EXPECT_EQ(y.shape, expected.shape);
    EXPECT_LE(rel_l2(y.values, expected.values<X>()), 1000 * ulp_floor<X>());
    const auto expected_zf = part(c, "zf");
    EXPECT_EQ(zf.shape, expected_zf.shape);
    EXPECT_LE(rel_l2(zf.values, expected_zf.values<X>()), 1000 * ulp_floor<X>());
  } else {
    const auto y = sosfilt(sos, view_of<X>(x), c.axis());
    EXPECT_EQ(y.shape, expected.shape);
    const bool design_case = c.name.rfind("nd_", 0) != 0;
    if constexpr (std::is_floating_point_v<X>) {
      if (!design_case) {
        EXPECT_LE(rel_l2(y.values, expected.values<X>()), 1000 * ulp_floor<X>());
        return;
      }
      // Designs: compare against scipy relative to scipy's own error.
      const std::vector<X> xs(x.values<X>().begin(), x.values<X>().end());
      const auto ref = serial_sosfilt<long double, S>(Sos(sos), xs);
      const double scipy_err = rel_l2(expected.values<X>(), ref);
      const double ripple_err = rel_l2(y.values, ref);
      EXPECT_LE(ripple_err, 4 * scipy_err + ulp_floor<X>()) << "scipy's error " << scipy_err;
    } else {
      EXPECT_FALSE(design_case);
      EXPECT_LE(rel_l2(y.values, expected.values<X>()), 1000 * ulp_floor<X>());
    }
  }
}

TEST(IirScipy, Sosfilt) {
  for (const Case& c : cases("sosfilt")) {
    switch (part(c, "x").dtype()) {
      case io::Dtype::f32: check_sosfilt<float, float>(c); break;
      case io::Dtype::f64: check_sosfilt<double, double>(c); break;
      case io::Dtype::c128: check_sosfilt<double, std::complex<double>>(c); break;
      default: ADD_FAILURE() << c.name << ": unexpected dtype";
    }
  }
}

// sosfilt_zi in long double: per section the steady state of the unit-step response, solved
// exactly for the 2x2 system, times the DC gain of the sections before it.
std::vector<long double> exact_sosfilt_zi(const Sos& sos) {
  std::vector<long double> zi;
  long double scale = 1;
  for (const auto& r : sos.rows()) {
    const long double b0 = r[0] / (long double)r[3], b1 = r[1] / (long double)r[3], b2 = r[2] / (long double)r[3];
    const long double a1 = r[4] / (long double)r[3], a2 = r[5] / (long double)r[3];
    // (1 + a1) z0 - z1 = b1 - a1 b0;  a2 z0 + z1 = b2 - a2 b0.
    const long double r0 = b1 - a1 * b0, r1 = b2 - a2 * b0;
    const long double z0 = (r0 + r1) / (1 + a1 + a2);
    const long double z1 = r1 - a2 * z0;
    zi.push_back(scale * z0);
    zi.push_back(scale * z1);
    scale *= (b0 + b1 + b2) / (1 + a1 + a2);
  }
  return zi;
}

// The steady-state system is ill-conditioned for poles near z = 1 (1 + a1 + a2 -> 0), so ripple
// is held to a multiple of scipy's own distance from the exact solution.
TEST(IirScipy, SosfiltZi) {
  for (const Case& c : cases("sosfilt_zi")) {
    SCOPED_TRACE(c.name);
    const auto sos = sos_of<double>(part(c, "sos"));
    const auto zi = sosfilt_zi(sos);
    const auto expected = part(c, "zi");
    EXPECT_EQ(zi.shape, expected.shape);
    const auto exact = exact_sosfilt_zi(sos);
    const double scipy_err = rel_l2(expected.values<double>(), exact);
    EXPECT_LE(rel_l2(zi.values, exact), 4 * scipy_err + 1e-14) << "scipy's error " << scipy_err;
  }
}

TEST(IirScipy, Sosfiltfilt) {
  const std::map<std::string, PadType> padtypes{
      {"odd", PadType::odd}, {"even", PadType::even}, {"constant", PadType::constant}, {"none", PadType::none}};
  for (const Case& c : cases("sosfiltfilt")) {
    SCOPED_TRACE(c.name);
    const int padlen = std::stoi(c.keys.at("padlen"));
    const auto y = sosfiltfilt(sos_of<double>(part(c, "sos")), view_of<double>(part(c, "x")), c.axis(),
                               padtypes.at(c.keys.at("padtype")),
                               padlen < 0 ? std::nullopt : std::optional<std::size_t>(padlen));
    const auto expected = part(c, "y");
    EXPECT_EQ(y.shape, expected.shape);
    EXPECT_LE(rel_l2(y.values, expected.values<double>()), 1e-11);
  }
}

TEST(IirScipy, Lfilter) {
  for (const Case& c : cases("lfilter")) {
    SCOPED_TRACE(c.name);
    const auto b = part(c, "b"), a = part(c, "a"), x = part(c, "x");
    const auto expected = part(c, "y");
    if (c.keys.at("zi") == "1") {
      const auto zi = part(c, "zi");
      const auto [y, zf] =
          lfilter(b.values<double>(), a.values<double>(), view_of<double>(x), c.axis(), view_of<double>(zi));
      EXPECT_EQ(y.shape, expected.shape);
      EXPECT_LE(rel_l2(y.values, expected.values<double>()), 1e-12);
      const auto expected_zf = part(c, "zf");
      EXPECT_EQ(zf.shape, expected_zf.shape);
      EXPECT_LE(rel_l2(zf.values, expected_zf.values<double>()), 1e-12);
    } else {
      const auto y = lfilter(b.values<double>(), a.values<double>(), view_of<double>(x), c.axis());
      EXPECT_EQ(y.shape, expected.shape);
      EXPECT_LE(rel_l2(y.values, expected.values<double>()), 1e-12);
    }
  }
}

TEST(IirScipy, LfilterZi) {
  for (const Case& c : cases("lfilter_zi")) {
    SCOPED_TRACE(c.name);
    const auto zi = lfilter_zi(part(c, "b").values<double>(), part(c, "a").values<double>());
    const auto expected = part(c, "zi");
    ASSERT_EQ(zi.size(), expected.size());
    EXPECT_LE(rel_l2(zi, expected.values<double>()), 1e-12);
  }
}

}  // namespace
}  // namespace ripple::iir::test
