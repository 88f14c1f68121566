// Window functions, written as scipy.signal.windows computes them (same formulas, same order
// of operations where it matters: numpy's linspace and the accumulation of cosine terms).
#include "ripple/windows.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <numbers>
#include <string>

#include "ripple/error.hpp"

namespace ripple::windows {
namespace {

constexpr double kPi = std::numbers::pi;

// scipy's _extend/_truncate: a periodic window is the symmetric one of m + 1 points without
// its last point.
std::size_t extended(std::size_t m, bool sym) { return sym ? m : m + 1; }
std::vector<double> truncated(std::vector<double> w, bool sym) {
  if (!sym) w.pop_back();
  return w;
}

// numpy.linspace(start, stop, n) with endpoint: i * step + start, the last point exactly stop.
std::vector<double> linspace(double start, double stop, std::size_t n) {
  std::vector<double> y(n);
  const double step = n > 1 ? (stop - start) / double(n - 1) : 0.0;
  for (std::size_t i = 0; i < n; ++i) y[i] = double(i) * step + start;
  if (n > 1) y[n - 1] = stop;
  return y;
}

struct Alias {
  const char* name;
  Kind kind;
};
constexpr std::array<Alias, 38> kAliases{{
    {"boxcar", Kind::boxcar},       {"box", Kind::boxcar},
    {"ones", Kind::boxcar},         {"rect", Kind::boxcar},
    {"rectangular", Kind::boxcar},  {"triang", Kind::triang},
    {"triangle", Kind::triang},     {"tri", Kind::triang},
    {"bartlett", Kind::bartlett},   {"bart", Kind::bartlett},
    {"brt", Kind::bartlett},        {"hann", Kind::hann},
    {"han", Kind::hann},            {"hamming", Kind::hamming},
    {"hamm", Kind::hamming},        {"ham", Kind::hamming},
    {"blackman", Kind::blackman},   {"black", Kind::blackman},
    {"blk", Kind::blackman},        {"blackmanharris", Kind::blackmanharris},
    {"blackharr", Kind::blackmanharris}, {"bkh", Kind::blackmanharris},
    {"nuttall", Kind::nuttall},     {"nutl", Kind::nuttall},
    {"nut", Kind::nuttall},         {"flattop", Kind::flattop},
    {"flat", Kind::flattop},        {"flt", Kind::flattop},
    {"cosine", Kind::cosine},       {"halfcosine", Kind::cosine},
    {"tukey", Kind::tukey},         {"tuk", Kind::tukey},
    {"kaiser", Kind::kaiser},       {"ksr", Kind::kaiser},
    {"gaussian", Kind::gaussian},   {"gauss", Kind::gaussian},
    {"gss", Kind::gaussian},        {"general_hamming", Kind::general_hamming},
}};

// Whether a kind takes a parameter: 0 none, 1 optional (tukey), 2 required.
int parameter_need(Kind kind) {
  switch (kind) {
    case Kind::tukey: return 1;
    case Kind::kaiser:
    case Kind::gaussian:
    case Kind::general_hamming: return 2;
    default: return 0;
  }
}

const char* canonical_name(Kind kind) {
  for (const Alias& a : kAliases) {
    if (a.kind == kind) return a.name;
  }
  return "?";
}

// Lower case, without leading and trailing blanks.
std::string trimmed_lower(std::string_view text) {
  std::string s;
  for (char c : text) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

void check_finite(double value, const char* what) {
  if (!std::isfinite(value)) throw InvalidArgument(std::string("window: ") + what + " must be finite, got " + std::to_string(value));
}

}  // namespace

Window Window::parse(std::string_view spec) {
  const std::string text = trimmed_lower(spec);
  const std::size_t comma = text.find(',');
  std::string name = trimmed_lower(std::string_view(text).substr(0, comma));
  for (char& c : name) {
    if (c == ' ') c = '_';  // scipy accepts "general hamming" as well as "general_hamming"
  }
  const Alias* found = nullptr;
  for (const Alias& a : kAliases) {
    if (name == a.name) found = &a;
  }
  if (found == nullptr) throw InvalidArgument("window: unknown window name '" + std::string(spec) + "'");
  Window w{found->kind, found->kind == Kind::tukey ? 0.5 : 0.0};
  const int need = parameter_need(w.kind);
  if (comma == std::string::npos) {
    if (need == 2) throw InvalidArgument("window: '" + name + "' needs a parameter, as in '" + name + ",8.6'; got '" + std::string(spec) + "'");
    return w;
  }
  if (need == 0) throw InvalidArgument("window: '" + name + "' takes no parameter; got '" + std::string(spec) + "'");
  const std::string value = trimmed_lower(std::string_view(text).substr(comma + 1));
  const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), w.parameter);
  if (error != std::errc() || end != value.data() + value.size() || value.empty()) {
    throw InvalidArgument("window: parameter '" + value + "' of '" + std::string(spec) + "' is not a number");
  }
  return w;
}

std::string Window::name() const {
  std::string text = canonical_name(kind);
  if (parameter_need(kind) > 0) {
    char buffer[32];
    const auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), parameter);
    text += ',';
    text.append(buffer, error == std::errc() ? end : buffer);
  }
  return text;
}

std::vector<double> general_cosine(std::size_t m, const std::vector<double>& a, bool sym) {
  if (m <= 1) return std::vector<double>(m, 1.0);
  const std::size_t n = extended(m, sym);
  const std::vector<double> fac = linspace(-kPi, kPi, n);
  std::vector<double> w(n, 0.0);
  for (std::size_t k = 0; k < a.size(); ++k) {
    for (std::size_t i = 0; i < n; ++i) w[i] += a[k] * std::cos(double(k) * fac[i]);
  }
  return truncated(std::move(w), sym);
}

std::vector<double> general_hamming(std::size_t m, double alpha, bool sym) {
  check_finite(alpha, "general_hamming alpha");
  return general_cosine(m, {alpha, 1.0 - alpha}, sym);
}
std::vector<double> hann(std::size_t m, bool sym) { return general_hamming(m, 0.5, sym); }
std::vector<double> hamming(std::size_t m, bool sym) { return general_hamming(m, 0.54, sym); }
std::vector<double> blackman(std::size_t m, bool sym) { return general_cosine(m, {0.42, 0.50, 0.08}, sym); }
std::vector<double> blackmanharris(std::size_t m, bool sym) {
  return general_cosine(m, {0.35875, 0.48829, 0.14128, 0.01168}, sym);
}
std::vector<double> nuttall(std::size_t m, bool sym) {
  return general_cosine(m, {0.3635819, 0.4891775, 0.1365995, 0.0106411}, sym);
}
std::vector<double> flattop(std::size_t m, bool sym) {
  return general_cosine(m, {0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368}, sym);
}

std::vector<double> boxcar(std::size_t m, bool) { return std::vector<double>(m, 1.0); }

std::vector<double> triang(std::size_t m, bool sym) {
  if (m <= 1) return std::vector<double>(m, 1.0);
  const std::size_t n = extended(m, sym);
  std::vector<double> half;
  for (std::size_t k = 1; k <= (n + 1) / 2; ++k) {
    half.push_back(n % 2 == 0 ? (2.0 * double(k) - 1.0) / double(n) : 2.0 * double(k) / (double(n) + 1.0));
  }
  std::vector<double> w(half);
  const std::size_t mirrored = n % 2 == 0 ? half.size() : half.size() - 1;
  for (std::size_t k = mirrored; k-- > 0;) w.push_back(half[k]);
  return truncated(std::move(w), sym);
}

std::vector<double> bartlett(std::size_t m, bool sym) {
  if (m <= 1) return std::vector<double>(m, 1.0);
  const std::size_t n = extended(m, sym);
  std::vector<double> w(n);
  const double last = double(n - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = double(i);
    w[i] = x <= last / 2.0 ? 2.0 * x / last : 2.0 - 2.0 * x / last;
  }
  return truncated(std::move(w), sym);
}

std::vector<double> cosine(std::size_t m, bool sym) {
  if (m <= 1) return std::vector<double>(m, 1.0);
  const std::size_t n = extended(m, sym);
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i) w[i] = std::sin(kPi / double(n) * (double(i) + 0.5));
  return truncated(std::move(w), sym);
}

std::vector<double> tukey(std::size_t m, double alpha, bool sym) {
  check_finite(alpha, "tukey alpha");
  if (m <= 1) return std::vector<double>(m, 1.0);
  if (alpha <= 0) return std::vector<double>(m, 1.0);
  if (alpha >= 1.0) return hann(m, sym);
  const std::size_t n = extended(m, sym);
  const double last = double(n - 1);
  const auto width = static_cast<std::size_t>(std::floor(alpha * last / 2.0));
  std::vector<double> w(n, 1.0);
  for (std::size_t i = 0; i <= width; ++i) w[i] = 0.5 * (1 + std::cos(kPi * (-1 + 2.0 * double(i) / alpha / last)));
  for (std::size_t i = n - width - 1; i < n; ++i) {
    w[i] = 0.5 * (1 + std::cos(kPi * (-2.0 / alpha + 1 + 2.0 * double(i) / alpha / last)));
  }
  return truncated(std::move(w), sym);
}

std::vector<double> kaiser(std::size_t m, double beta, bool sym) {
  check_finite(beta, "kaiser beta");
  if (m <= 1) return std::vector<double>(m, 1.0);
  const std::size_t n = extended(m, sym);
  const double alpha = double(n - 1) / 2.0;
  const double denominator = std::cyl_bessel_i(0.0, std::abs(beta));
  std::vector<double> w(n);
  // The window is symmetric, and exactly so: point n - 1 - i has r = -(i - alpha) / alpha, so
  // the second half is a copy of the first (the Bessel function is the window's whole cost).
  for (std::size_t i = 0; i < (n + 1) / 2; ++i) {
    const double r = (double(i) - alpha) / alpha;
    w[i] = std::cyl_bessel_i(0.0, std::abs(beta * std::sqrt(std::max(0.0, 1 - r * r)))) / denominator;
    w[n - 1 - i] = w[i];
  }
  return truncated(std::move(w), sym);
}

std::vector<double> gaussian(std::size_t m, double std, bool sym) {
  check_finite(std, "gaussian std");
  if (std <= 0) throw InvalidArgument("window: gaussian std must be > 0, got " + std::to_string(std));
  if (m <= 1) return std::vector<double>(m, 1.0);
  const std::size_t n = extended(m, sym);
  const double sig2 = 2 * std * std;
  std::vector<double> w(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double x = double(i) - (double(n) - 1.0) / 2.0;
    w[i] = std::exp(-(x * x) / sig2);
  }
  return truncated(std::move(w), sym);
}

std::vector<double> get_window(const Window& window, std::size_t n, bool fftbins) {
  if (n == 0) throw InvalidArgument("get_window: the window length must be a positive integer, got 0");
  const bool sym = !fftbins;
  switch (window.kind) {
    case Kind::boxcar: return boxcar(n, sym);
    case Kind::triang: return triang(n, sym);
    case Kind::bartlett: return bartlett(n, sym);
    case Kind::hann: return hann(n, sym);
    case Kind::hamming: return hamming(n, sym);
    case Kind::blackman: return blackman(n, sym);
    case Kind::blackmanharris: return blackmanharris(n, sym);
    case Kind::nuttall: return nuttall(n, sym);
    case Kind::flattop: return flattop(n, sym);
    case Kind::cosine: return cosine(n, sym);
    case Kind::tukey: return tukey(n, window.parameter, sym);
    case Kind::kaiser: return kaiser(n, window.parameter, sym);
    case Kind::gaussian: return gaussian(n, window.parameter, sym);
    case Kind::general_hamming: return general_hamming(n, window.parameter, sym);
  }
  throw InvalidArgument("get_window: unknown window kind");
}

}  // namespace ripple::windows
