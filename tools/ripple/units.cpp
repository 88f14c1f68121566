// Parsing and printing frequencies and ratios (see units.hpp).
#include "units.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "commands.hpp"

namespace ripple::cli {

double parse_frequency(const std::string& text, const std::string& what) {
  const auto bad = [&] {
    return UsageError(what + ": '" + text + "' is not a frequency (a number with an optional k, M or G suffix)");
  };
  std::string_view t = text;
  if (t.ends_with("Hz") || t.ends_with("hz")) t.remove_suffix(2);
  double scale = 1;
  if (!t.empty()) {
    switch (t.back()) {
      case 'k': case 'K': scale = 1e3; break;
      case 'M': scale = 1e6; break;
      case 'G': case 'g': scale = 1e9; break;
      default: break;
    }
    if (scale != 1) t.remove_suffix(1);
  }
  if (!t.empty() && t.front() == '+') t.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || error != std::errc() || end != t.data() + t.size() || !std::isfinite(value * scale)) throw bad();
  return value * scale;
}

std::vector<double> parse_frequency_list(const std::string& text, const std::string& what) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    values.push_back(parse_frequency(item, what));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

std::size_t parse_ratio(const std::string& text, const std::string& what) {
  double value = 0;
  try {
    value = parse_frequency(text, what);
  } catch (const UsageError&) {
    throw UsageError(what + " must be a whole number >= 1, not '" + text + "'");
  }
  if (!(value >= 1) || value != std::floor(value) || value > 1e12)
    throw UsageError(what + " must be a whole number >= 1, not '" + text + "'");
  return static_cast<std::size_t>(value);
}

std::string format_si(double value) {
  const char* prefix = "";
  double v = value;
  for (const char* p : {"k", "M", "G", "T"}) {
    if (std::abs(v) < 1000) break;
    v /= 1000;
    prefix = p;
  }
  char text[48];
  std::snprintf(text, sizeof text, "%.4g %s", v, prefix);
  return text;
}

std::string format_frequency(double hz) { return format_si(hz) + "Hz"; }

}  // namespace ripple::cli
