// Table rows, summary and CSV/JSON output of the FFT benchmark (see bench/README.md for how to
// read them). The summary is computed once (Summary) and then printed or serialized.
#include "fft_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace ripple_bench {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string format(const char* fmt, auto... args) {
  char buf[256];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

/// Microseconds with about four significant digits and no exponent.
std::string micros(double seconds) {
  const double us = seconds * 1e6;
  if (us < 1) return format("%.4f", us);
  if (us < 10) return format("%.3f", us);
  if (us < 100) return format("%.2f", us);
  if (us < 1000) return format("%.1f", us);
  return format("%.0f", us);
}

std::string sci(double v) { return std::isfinite(v) ? format("%.2e", v) : "-"; }

bool is_f32(Transform t) { return t == Transform::c2c_f32 || t == Transform::r2c_f32; }

std::string where(const Case& c) {
  return std::string(name(c.kind)) + " N=" + size_text(c) +
         (c.batch > 1 ? " batch=" + std::to_string(c.batch) : "");
}

/// A size on which ripple is meant to beat FFTW outright: primes and pure powers of 3 or 5.
bool must_beat_fftw(const Case& c) {
  return c.batch == 1 && c.dims.empty() && (is_prime(c.n) || is_power_of(c.n, 3) || is_power_of(c.n, 5));
}

bool error_over_target(const Result& r, const Targets& t) {
  return is_f32(r.c.kind) && std::isfinite(r.ripple_err) && std::isfinite(r.fftw_err) &&
         r.ripple_err > t.f32_error_ratio * r.fftw_err;
}

struct Geomean {
  double log_sum = 0;
  int count = 0;
  void add(double ratio) {
    log_sum += std::log(ratio);
    ++count;
  }
  double value() const { return count > 0 ? std::exp(log_sum / count) : kNaN; }
};

/// One target: its verdict, the number it is judged on, and the cases that miss it.
struct Check {
  explicit Check(std::string l) : label(std::move(l)) {}
  std::string label;
  bool pass = true;
  std::string value;
  std::vector<std::string> misses;
};

struct Summary {
  int cases = 0;
  int timed = 0;
  Geomean all;
  std::map<std::string, Geomean> by_category;  // in name order, printed in Category order below
  std::map<std::string, Geomean> by_kind;
  double worst = kNaN;
  std::string worst_where;
  double best = kNaN;
  std::string best_where;
  std::vector<double> spreads;        // (max - min) / median of each timing
  double worst_spread = 0;
  std::string worst_spread_where;
  std::vector<std::string> failures;  // ripple threw or was wrong
  std::vector<Check> checks;
  bool pass() const {
    for (const Check& c : checks)
      if (!c.pass) return false;
    return true;
  }
};

Summary summarize(const std::vector<Result>& results, const Targets& t) {
  Summary s;
  Check geo{format("geomean ripple/FFTW <= %.2f", t.geomean_ratio)};
  Check worst{format("every case ripple/FFTW <= %.2f", t.worst_ratio)};
  Check beat{"ripple faster than FFTW on every prime and 3^k/5^k size"};
  Check err{format("ripple f32 error <= %.1fx FFTW's at every size", t.f32_error_ratio)};
  Check ran{"ripple ran every case and every result was correct"};
  Check nd{format("every 2-D/3-D case ripple/FFTW <= %.2f", t.nd_ratio)};
  double nd_worst = kNaN;
  std::string nd_worst_where;
  double worst_err_ratio = 0;
  std::string worst_err_where = "-";
  int beat_count = 0;
  for (const Result& r : results) {
    ++s.cases;
    if (!r.ripple_error.empty()) ran.misses.push_back(where(r.c) + ": " + r.ripple_error);
    else if (r.ripple_wrong()) ran.misses.push_back(where(r.c) + ": wrong result, rel err " + sci(r.ripple_err));
    if (!r.fftw_error.empty()) ran.misses.push_back(where(r.c) + ": FFTW: " + r.fftw_error);
    if (is_f32(r.c.kind) && std::isfinite(r.ripple_err) && std::isfinite(r.fftw_err) && r.fftw_err > 0) {
      const double q = r.ripple_err / r.fftw_err;
      if (q > worst_err_ratio) {
        worst_err_ratio = q;
        worst_err_where = where(r.c);
      }
      if (error_over_target(r, t)) err.misses.push_back(where(r.c) + format(" (%.2fx)", q));
    }
    for (const Timing* t : {&r.ripple, &r.fftw}) {
      if (!t->valid()) continue;
      const double spread = (t->max - t->min) / t->median;
      s.spreads.push_back(spread);
      if (spread > s.worst_spread) {
        s.worst_spread = spread;
        s.worst_spread_where = where(r.c) + (t == &r.ripple ? " (ripple)" : " (FFTW)");
      }
    }
    if (!r.both_timed()) continue;
    ++s.timed;
    const double q = r.ratio();
    s.all.add(q);
    s.by_category[std::string(name(r.c.category))].add(q);
    s.by_kind[std::string(name(r.c.kind))].add(q);
    if (!(q <= s.worst)) {
      s.worst = q;
      s.worst_where = where(r.c);
    }
    if (!(q >= s.best)) {
      s.best = q;
      s.best_where = where(r.c);
    }
    if (q > t.worst_ratio) worst.misses.push_back(where(r.c) + format(" (%.2f)", q));
    if (r.c.category == Category::nd) {
      if (!(q <= nd_worst)) {
        nd_worst = q;
        nd_worst_where = where(r.c);
      }
      if (q > t.nd_ratio) nd.misses.push_back(where(r.c) + format(" (%.2f)", q));
    }
    if (must_beat_fftw(r.c)) {
      ++beat_count;
      if (q >= 1) beat.misses.push_back(where(r.c) + format(" (%.2f)", q));
    }
  }
  s.failures = ran.misses;
  geo.value = format("%.3f over %d cases", s.all.value(), s.all.count);
  geo.pass = s.all.count > 0 && s.all.value() <= t.geomean_ratio;
  worst.value = s.worst_where.empty() ? "-" : format("worst %.3f at ", s.worst) + s.worst_where;
  worst.pass = s.timed > 0 && worst.misses.empty();
  beat.value = format("%d of %d such cases not faster", static_cast<int>(beat.misses.size()), beat_count);
  beat.pass = beat.misses.empty();
  err.value = worst_err_ratio > 0 ? format("worst %.2fx at ", worst_err_ratio) + worst_err_where : "-";
  err.pass = err.misses.empty();
  ran.value = format("%d failures in %d cases", static_cast<int>(ran.misses.size()), s.cases);
  ran.pass = ran.misses.empty();
  nd.value = nd_worst_where.empty() ? "- (no 2-D/3-D case)" : format("worst %.3f at ", nd_worst) + nd_worst_where;
  nd.pass = nd.misses.empty();
  s.checks = {geo, worst, beat, err, ran, nd};
  return s;
}

std::string join_some(const std::vector<std::string>& items, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) out += (i ? "; " : "") + items[i];
  if (items.size() > limit) out += format("; ... (%d more)", static_cast<int>(items.size() - limit));
  return out;
}

std::string csv_quote(const std::string& s) {
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') out += std::string("\\") + static_cast<char>(ch);
    else if (ch == '\n') out += "\\n";
    else if (ch < 0x20) out += format("\\u%04x", ch);
    else out += static_cast<char>(ch);
  }
  return out + "\"";
}

std::string json_number(double v) { return std::isfinite(v) ? format("%.6g", v) : "null"; }

std::string number(double v) { return std::isfinite(v) ? format("%.6g", v) : ""; }

}  // namespace

double wrong_result_tolerance(Transform t) { return is_f32(t) ? 1e-4 : 1e-10; }

bool Result::ripple_wrong() const {
  // NaN means "not checked"; a non-finite output gives an infinite error.
  return ripple_error.empty() && !std::isnan(ripple_err) && !(ripple_err <= wrong_result_tolerance(c.kind));
}

void print_table_header(std::ostream& os) {
  os << format("%-8s %-6s %11s %7s %10s %10s %7s %7s %6s %9s %9s %9s %9s %-4s %s\n", "kind", "cat",
               "N", "batch", "ripple_us", "fftw_us", "r_GF/s", "f_GF/s", "ratio", "r_err",
               "f_err", "r_plan_ms", "f_plan_ms", "flag", "ripple plan");
}

void print_row(std::ostream& os, const Result& r) {
  const double flops = nominal_flops(r.c);
  const auto gflops = [&](const Timing& t) {
    return t.valid() ? format("%.2f", flops / t.median * 1e-9) : std::string("-");
  };
  std::string flags;
  if (r.both_timed() && r.ratio() > Targets{}.worst_ratio) flags += 'S';
  if (error_over_target(r, Targets{})) flags += 'E';
  if (r.ripple_wrong()) flags += 'W';
  if (flags.empty()) flags = ".";
  std::string tail = r.ripple_algo;
  if (!r.ripple_error.empty()) tail = std::string("ERROR: ").append(r.ripple_error);
  if (!r.fftw_error.empty()) tail.append(" | FFTW: ").append(r.fftw_error);
  os << format("%-8s %-6s %11s %7zu %10s %10s %7s %7s %6s %9s %9s %9s %9s %-4s ",
               std::string(name(r.c.kind)).c_str(), std::string(name(r.c.category)).c_str(), size_text(r.c).c_str(),
               r.c.batch, r.ripple.valid() ? micros(r.ripple.median).c_str() : "-",
               r.fftw.valid() ? micros(r.fftw.median).c_str() : "-", gflops(r.ripple).c_str(),
               gflops(r.fftw).c_str(), r.both_timed() ? format("%.3f", r.ratio()).c_str() : "-",
               sci(r.ripple_err).c_str(), sci(r.fftw_err).c_str(),
               std::isfinite(r.ripple_plan_s) ? format("%.3f", r.ripple_plan_s * 1e3).c_str() : "-",
               std::isfinite(r.fftw_plan_s) ? format("%.1f", r.fftw_plan_s * 1e3).c_str() : "-",
               flags.c_str())
     << tail << '\n';
}

void print_summary(std::ostream& os, const std::vector<Result>& results, const Targets& targets) {
  const Summary s = summarize(results, targets);
  os << format("\n== summary: %d cases, %d timed for both ==\n", s.cases, s.timed);
  if (s.all.count > 0)
    os << format("geomean ripple/FFTW: %.3f over %d cases (below 1: ripple faster)\n", s.all.value(),
                 s.all.count);
  else
    os << "geomean ripple/FFTW: - (no case timed for both)\n";
  if (s.timed > 0) {
    os << format("worst: %.3f at %s\n", s.worst, s.worst_where.c_str());
    os << format("best:  %.3f at %s\n", s.best, s.best_where.c_str());
  }
  os << "by category:";
  for (Category c : {Category::pow2, Category::smooth, Category::prime, Category::batch, Category::other,
                     Category::nd}) {
    auto it = s.by_category.find(std::string(name(c)));
    if (it != s.by_category.end())
      os << format("  %s %.3f (%d)", it->first.c_str(), it->second.value(), it->second.count);
  }
  os << "\nby kind:    ";
  for (const auto& [kind, g] : s.by_kind) os << format("  %s %.3f (%d)", kind.c_str(), g.value(), g.count);
  if (!s.spreads.empty()) {
    std::vector<double> sorted = s.spreads;
    std::sort(sorted.begin(), sorted.end());
    os << format("\ntiming spread (max-min)/median of the samples: median %.1f%%, worst %.1f%% at %s",
                 100 * sorted[sorted.size() / 2], 100 * s.worst_spread, s.worst_spread_where.c_str());
  }
  os << "\ntargets:\n";
  for (const Check& c : s.checks) {
    os << "  [" << (c.pass ? "PASS" : "FAIL") << "] " << c.label << ": " << c.value << '\n';
    if (!c.misses.empty()) os << "         " << join_some(c.misses, 8) << '\n';
  }
  os << "overall: " << (s.pass() ? "PASS" : "FAIL") << '\n';
}

void write_csv(const std::string& file, const std::vector<Result>& results) {
  std::ofstream os(file);
  if (!os) throw std::runtime_error("cannot write " + file);
  os << "kind,category,n,batch,ripple_s,fftw_s,ripple_gflops,fftw_gflops,ratio,ripple_err,"
        "fftw_err,ripple_plan_s,fftw_plan_s,ripple_min_s,ripple_max_s,fftw_min_s,fftw_max_s,"
        "ripple_reps,fftw_reps,ripple_algo,ripple_error,fftw_error,shape\n";
  for (const Result& r : results) {
    const double flops = nominal_flops(r.c);
    const auto t = [](const Timing& x, double v) { return x.valid() ? number(v) : std::string(); };
    os << name(r.c.kind) << ',' << name(r.c.category) << ',' << r.c.n << ',' << r.c.batch << ','
       << t(r.ripple, r.ripple.median) << ',' << t(r.fftw, r.fftw.median) << ','
       << t(r.ripple, flops / r.ripple.median * 1e-9) << ',' << t(r.fftw, flops / r.fftw.median * 1e-9)
       << ',' << (r.both_timed() ? number(r.ratio()) : "") << ',' << number(r.ripple_err) << ','
       << number(r.fftw_err) << ',' << number(r.ripple_plan_s) << ',' << number(r.fftw_plan_s) << ','
       << t(r.ripple, r.ripple.min) << ',' << t(r.ripple, r.ripple.max) << ','
       << t(r.fftw, r.fftw.min) << ',' << t(r.fftw, r.fftw.max) << ',' << r.ripple.reps << ','
       << r.fftw.reps << ',' << csv_quote(r.ripple_algo) << ',' << csv_quote(r.ripple_error) << ','
       << csv_quote(r.fftw_error) << ',' << size_text(r.c) << '\n';
  }
}

void write_json(const std::string& file, const Meta& meta, const std::vector<Result>& results,
                const Targets& targets) {
  std::ofstream os(file);
  if (!os) throw std::runtime_error("cannot write " + file);
  os << "{\n  \"meta\": {";
  for (std::size_t i = 0; i < meta.size(); ++i)
    os << (i ? ",\n    " : "\n    ") << json_string(meta[i].first) << ": " << json_string(meta[i].second);
  os << "\n  },\n  \"rows\": [";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const Result& r = results[i];
    const double flops = nominal_flops(r.c);
    const auto timing = [&](const Timing& t) {
      if (!t.valid()) return std::string("null");
      return "{\"median_s\": " + json_number(t.median) + ", \"min_s\": " + json_number(t.min) +
             ", \"max_s\": " + json_number(t.max) + ", \"reps\": " + std::to_string(t.reps) +
             ", \"gflops\": " + json_number(flops / t.median * 1e-9) + "}";
    };
    os << (i ? ",\n    " : "\n    ") << "{\"kind\": " << json_string(std::string(name(r.c.kind)))
       << ", \"category\": " << json_string(std::string(name(r.c.category))) << ", \"n\": " << r.c.n
       << ", \"batch\": " << r.c.batch << ", \"shape\": " << json_string(size_text(r.c))
       << ", \"ripple\": " << timing(r.ripple)
       << ", \"fftw\": " << timing(r.fftw)
       << ", \"ratio\": " << (r.both_timed() ? json_number(r.ratio()) : "null")
       << ", \"ripple_err\": " << json_number(r.ripple_err) << ", \"fftw_err\": " << json_number(r.fftw_err)
       << ", \"ripple_plan_s\": " << json_number(r.ripple_plan_s)
       << ", \"fftw_plan_s\": " << json_number(r.fftw_plan_s)
       << ", \"ripple_algo\": " << json_string(r.ripple_algo)
       << ", \"ripple_error\": " << json_string(r.ripple_error)
       << ", \"fftw_error\": " << json_string(r.fftw_error) << "}";
  }
  const Summary s = summarize(results, targets);
  os << "\n  ],\n  \"summary\": {\n    \"cases\": " << s.cases << ", \"timed\": " << s.timed
     << ",\n    \"geomean_ratio\": " << json_number(s.all.value())
     << ",\n    \"worst_ratio\": " << json_number(s.worst) << ", \"worst_case\": " << json_string(s.worst_where)
     << ",\n    \"by_category\": {";
  bool first = true;
  for (const auto& [cat, g] : s.by_category) {
    os << (first ? "" : ", ") << json_string(cat) << ": " << json_number(g.value());
    first = false;
  }
  os << "},\n    \"by_kind\": {";
  first = true;
  for (const auto& [kind, g] : s.by_kind) {
    os << (first ? "" : ", ") << json_string(kind) << ": " << json_number(g.value());
    first = false;
  }
  os << "},\n    \"targets\": [";
  for (std::size_t i = 0; i < s.checks.size(); ++i) {
    const Check& c = s.checks[i];
    os << (i ? ",\n      " : "\n      ") << "{\"target\": " << json_string(c.label)
       << ", \"pass\": " << (c.pass ? "true" : "false") << ", \"value\": " << json_string(c.value)
       << ", \"misses\": [";
    for (std::size_t j = 0; j < c.misses.size(); ++j) os << (j ? ", " : "") << json_string(c.misses[j]);
    os << "]}";
  }
  os << "\n    ],\n    \"pass\": " << (s.pass() ? "true" : "false") << "\n  }\n}\n";
}

}  // namespace ripple_bench
