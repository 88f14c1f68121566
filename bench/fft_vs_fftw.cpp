// bench_fft: times ripple's CPU FFTs against FFTW 3 in one process, on the same inputs, with the
// same thread count, and checks both against a higher-precision reference. See bench/README.md.
//
// Per case: FFTW is planned first (FFTW_MEASURE overwrites the arrays), then ripple; the input is
// filled with seeded random data and copied for each; each library executes once (warm-up, and
// the output whose accuracy is checked); then both are timed with alternating samples
// (timing.hpp) and ripple's output is checked again after the timing loop.
#include <fftw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

#include "cli_args.hpp"
#include "case_process.hpp"
#include "fft_cases.hpp"
#include "fft_report.hpp"
#include "fftw_api.hpp"
#include "ripple/fft.hpp"
#include "ripple/runtime.hpp"
#include "timing.hpp"

namespace ripple_bench {
namespace {

struct Options {
  CaseSelection selection;
  SamplerSettings sampler;
  unsigned threads = 1;
  unsigned fftw_flags = FFTW_MEASURE;
  std::string fftw_flags_name = "FFTW_MEASURE";
  std::string wisdom;  // prefix of the wisdom files, empty: none
  std::string csv, json;
  bool list_only = false;
  bool check_errors = true;
  bool isolate = true;          // each case in its own process (crashes and hangs cost one row)
  double case_timeout = 300;    // seconds, with isolate
};

const char* const kUsage = R"(usage: bench_fft [options]
Times ripple against FFTW 3 (forward, out-of-place, unnormalized) and checks the accuracy of both.
  --quick             short list (fewer sizes, 8 MB batches, 3 samples of >= 0.05 s)
  --kind K,...        c2c-f32, c2c-f64, r2c-f32 (default: all three)
  --category C,...    pow2, smooth, prime, batch, other, nd (default: all)
  --sizes N[xB],...   run these sizes instead of the default list (B: batch, default 1)
  --shapes AxB[xC][@DxE[xF]],..
                      run these 2-D/3-D shapes instead of the default list (with --sizes: both);
                      after '@', the array the c2c transforms lie in on both sides (FFTW's
                      inembed/onembed: rows and planes apart), e.g. 128x128x128@128x160x160
  --max-n N           skip sizes above N
  --batch-mb M        input size of the batch cases in MiB (default 64)
  --threads T         threads for ripple and FFTW alike (default 1)
  --samples S         samples per case, the median is reported (default 5)
  --min-time SEC      each sample repeats the execute for at least SEC seconds (default 0.15)
  --fftw-planner P    estimate, measure (default) or patient
  --wisdom PREFIX     load/save FFTW wisdom in PREFIX-f32.wisdom and PREFIX-f64.wisdom
  --no-error          skip the accuracy check (saves the reference transforms)
  --case-timeout SEC  a case still running after SEC seconds is killed (default 300)
  --no-isolate        run the cases in this process (for profilers and debuggers; a crash
                      or hang in ripple then ends the run)
  --csv FILE          write the rows as CSV
  --json FILE         write meta, rows and summary as JSON
  --list              print the cases and exit
)";

[[noreturn]] void usage_error(const std::string& msg) {
  std::cerr << "bench_fft: " << msg << "\n" << kUsage;
  std::exit(2);
}


std::size_t parse_size(const std::string& s, const char* what) {
  try {
    std::size_t pos = 0;
    const unsigned long long v = std::stoull(s, &pos);
    if (pos == s.size() && v > 0) return static_cast<std::size_t>(v);
  } catch (const std::exception&) {
  }
  usage_error(std::string("bad ") + what + ": '" + s + "'");
}

double parse_seconds(const std::string& s) {  // for --min-time and --case-timeout
  try {
    std::size_t pos = 0;
    const double v = std::stod(s, &pos);
    if (pos == s.size() && v >= 0) return v;
  } catch (const std::exception&) {
  }
  usage_error("bad number of seconds: '" + s + "'");
}

Options parse_options(int argc, char** argv) {
  Options o;
  bool samples_set = false, min_time_set = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage_error(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "-h" || arg == "--help") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--quick") {
      o.selection.quick = true;
    } else if (arg == "--kind") {
      for (const std::string& k : split(value(), ',')) {
        const auto t = parse_transform(k);
        if (!t) usage_error("unknown kind '" + k + "'");
        o.selection.kinds.push_back(*t);
      }
    } else if (arg == "--category") {
      for (const std::string& c : split(value(), ',')) {
        const auto cat = parse_category(c);
        if (!cat) usage_error("unknown category '" + c + "'");
        o.selection.categories.push_back(*cat);
      }
    } else if (arg == "--sizes") {
      for (const std::string& item : split(value(), ',')) {
        const auto x = item.find('x');
        const std::size_t n = parse_size(item.substr(0, x), "size");
        const std::size_t b = x == std::string::npos ? 1 : parse_size(item.substr(x + 1), "batch");
        o.selection.sizes.emplace_back(n, b);
      }
    } else if (arg == "--shapes") {
      for (const std::string& item : split(value(), ',')) {
        const auto sizes = [&](const std::string& text) {
          std::vector<std::size_t> dims;
          for (const std::string& d : split(text, 'x')) dims.push_back(parse_size(d, "shape"));
          if (dims.size() < 2 || dims.size() > 3) usage_error("a shape has 2 or 3 sizes: '" + item + "'");
          return dims;
        };
        const std::size_t at = item.find('@');
        NdShape shape{sizes(item.substr(0, at)), {}};
        if (at != std::string::npos) {
          shape.embed = sizes(item.substr(at + 1));
          if (shape.embed.size() != shape.dims.size())
            usage_error("an embedding has as many sizes as its shape: '" + item + "'");
          for (std::size_t a = 0; a < shape.dims.size(); ++a)
            if (shape.embed[a] < shape.dims[a]) usage_error("an embedding holds its shape: '" + item + "'");
        }
        o.selection.shapes.push_back(shape);
      }
    } else if (arg == "--max-n") {
      o.selection.max_n = parse_size(value(), "--max-n");
    } else if (arg == "--batch-mb") {
      o.selection.batch_bytes = parse_size(value(), "--batch-mb") << 20;
    } else if (arg == "--threads") {
      o.threads = static_cast<unsigned>(parse_size(value(), "--threads"));
    } else if (arg == "--samples") {
      o.sampler.samples = static_cast<int>(parse_size(value(), "--samples"));
      samples_set = true;
    } else if (arg == "--min-time") {
      o.sampler.min_sample_seconds = parse_seconds(value());
      min_time_set = true;
    } else if (arg == "--fftw-planner") {
      const std::string p = value();
      if (p == "estimate") o.fftw_flags = FFTW_ESTIMATE;
      else if (p == "measure") o.fftw_flags = FFTW_MEASURE;
      else if (p == "patient") o.fftw_flags = FFTW_PATIENT;
      else usage_error("unknown --fftw-planner '" + p + "'");
      o.fftw_flags_name = "FFTW_" + std::string(p == "estimate" ? "ESTIMATE" : p == "measure" ? "MEASURE" : "PATIENT");
    } else if (arg == "--wisdom") {
      o.wisdom = value();
    } else if (arg == "--case-timeout") {
      o.case_timeout = parse_seconds(value());
    } else if (arg == "--no-isolate") {
      o.isolate = false;
    } else if (arg == "--no-error") {
      o.check_errors = false;
    } else if (arg == "--csv") {
      o.csv = value();
    } else if (arg == "--json") {
      o.json = value();
    } else if (arg == "--list") {
      o.list_only = true;
    } else {
      usage_error("unknown option '" + arg + "'");
    }
  }
  if (o.selection.quick) {
    if (!samples_set) o.sampler.samples = 3;
    if (!min_time_set) o.sampler.min_sample_seconds = 0.05;
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---- inputs and accuracy ---------------------------------------------------------------------

/// Uniform values in [-1, 1), the same for a given case and trial on every run.
template <class In>
void fill_random(AlignedBuffer<In>& buf, const Case& c, unsigned trial = 0) {
  std::mt19937_64 rng(0x5eed ^ (c.n * 1000003u) ^ (c.batch << 20) ^ static_cast<unsigned>(c.kind) ^
                      (std::uint64_t{trial} << 40));
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (std::size_t i = 0; i < buf.size(); ++i) {
    if constexpr (std::is_floating_point_v<In>) {
      buf[i] = static_cast<In>(dist(rng));
    } else {
      using T = typename In::value_type;
      const T re = static_cast<T>(dist(rng));
      const T im = static_cast<T>(dist(rng));
      buf[i] = In(re, im);
    }
  }
}

template <class In>
bool same_bits(const AlignedBuffer<In>& a, const AlignedBuffer<In>& b) {
  return std::memcmp(a.data(), b.data(), a.size() * sizeof(In)) == 0;
}

/// Real type of the reference for a benchmarked real type T: double for float, and long double
/// (if FFTW was built for it) for double.
template <class T>
using RefReal = std::conditional_t<std::is_same_v<T, float>, double,
#if RIPPLE_BENCH_HAVE_FFTWL
                                   long double
#else
                                   double
#endif
                                   >;

/// Sizes as FFTW takes them.
Dims fftw_dims(const std::vector<std::size_t>& sizes) {
  Dims d;
  for (std::size_t x : sizes) d.push_back(static_cast<int>(x));
  return d;
}

/// The exact input transformed in reference precision (FFTW_ESTIMATE: planning is cheap and the
/// accuracy of FFTW's algorithms does not depend on the planner's choice beyond rounding).
template <class T, bool Real, class In>
AlignedBuffer<std::complex<RefReal<T>>> reference_output(const Case& c, const AlignedBuffer<In>& input,
                                                         std::size_t out_count) {
  using R = RefReal<T>;
  using Api = FftwApi<R>;
  AlignedBuffer<std::complex<R>> out(out_count);
  std::fill_n(out.data(), out_count, std::complex<R>());  // an embedding's gaps: 0, as the outputs'
  const Dims dims = fftw_dims(shape_of(c));
  const int batch = static_cast<int>(c.batch);
  if constexpr (Real) {
    AlignedBuffer<R> in(input.size());
    FftwPlan<R> plan(Api::r2c(dims, batch, in.data(), out.data(), FFTW_ESTIMATE));
    for (std::size_t i = 0; i < input.size(); ++i) in[i] = static_cast<R>(input[i]);
    plan.execute();
  } else {
    AlignedBuffer<std::complex<R>> in(input.size());
    FftwPlan<R> plan(Api::c2c(dims, batch, in.data(), out.data(), FFTW_FORWARD, FFTW_ESTIMATE, fftw_dims(c.embed)));
    for (std::size_t i = 0; i < input.size(); ++i)
      in[i] = std::complex<R>(static_cast<R>(input[i].real()), static_cast<R>(input[i].imag()));
    plan.execute();
  }
  return out;
}

/// ||out - ref||_2 / ||ref||_2 over the whole batch, accumulated in long double.
template <class T, class R>
double relative_l2(const AlignedBuffer<std::complex<T>>& out, const AlignedBuffer<std::complex<R>>& ref) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const long double dr = static_cast<long double>(out[i].real()) - ref[i].real();
    const long double di = static_cast<long double>(out[i].imag()) - ref[i].imag();
    diff += dr * dr + di * di;
    norm += static_cast<long double>(ref[i].real()) * ref[i].real() +
            static_cast<long double>(ref[i].imag()) * ref[i].imag();
  }
  if (!std::isfinite(static_cast<double>(diff))) return std::numeric_limits<double>::infinity();
  return norm > 0 ? static_cast<double>(std::sqrt(diff / norm)) : static_cast<double>(std::sqrt(diff));
}

// ---- one case --------------------------------------------------------------------------------

template <class T>
constexpr ripple::fft::Precision precision_of() {
  return std::is_same_v<T, float> ? ripple::fft::Precision::f32 : ripple::fft::Precision::f64;
}

/// Runs one case with real type T; Real selects r2c (else c2c).
template <class T, bool Real>
Result run_case(const Case& c, const Options& o, const StageFn& stage) {
  using In = std::conditional_t<Real, T, std::complex<T>>;
  using Out = std::complex<T>;
  using Api = FftwApi<T>;
  const std::vector<std::size_t> shape = shape_of(c);
  // Elements each side spans (an embedded c2c case: the embedding's, gaps included).
  std::size_t embedded = 1;
  for (std::size_t e : c.embed) embedded *= e;
  const std::size_t in_count = (c.embed.empty() ? c.n : embedded) * c.batch;
  const std::size_t out_count =
      (Real ? c.n / shape.back() * (shape.back() / 2 + 1) : c.embed.empty() ? c.n : embedded) * c.batch;
  Result r;
  r.c = c;

  AlignedBuffer<In> input(in_count), in_fftw(in_count), in_ripple(in_count);
  AlignedBuffer<Out> out_fftw(out_count), out_ripple(out_count);

  // FFTW first: FFTW_MEASURE overwrites its arrays while planning.
  stage("fftw plan");
  const Dims dims = fftw_dims(shape);
  const int batch = static_cast<int>(c.batch);
  auto t0 = std::chrono::steady_clock::now();
  FftwPlan<T> fftw_plan;
  if constexpr (Real) fftw_plan = FftwPlan<T>(Api::r2c(dims, batch, in_fftw.data(), out_fftw.data(), o.fftw_flags));
  else
    fftw_plan = FftwPlan<T>(
        Api::c2c(dims, batch, in_fftw.data(), out_fftw.data(), FFTW_FORWARD, o.fftw_flags, fftw_dims(c.embed)));
  r.fftw_plan_s = seconds_since(t0);
  if (!fftw_plan) r.fftw_error = "FFTW returned no plan";
  // An embedding's gaps are never written: 0 in both outputs and the reference, so the error
  // sums count only the transforms' elements.
  std::fill_n(out_fftw.data(), out_count, Out());
  std::fill_n(out_ripple.data(), out_count, Out());

  stage("ripple plan");
  std::optional<ripple::fft::Plan> plan;
  try {
    ripple::fft::PlanDesc desc;
    desc.shape = shape;
    desc.batch = c.batch;
    desc.kind = Real ? ripple::fft::Kind::r2c : ripple::fft::Kind::c2c;
    desc.precision = precision_of<T>();
    desc.direction = ripple::fft::Direction::forward;
    desc.norm = ripple::fft::Norm::backward;  // forward unscaled, as FFTW
    desc.in_embed = desc.out_embed = c.embed;
    desc.threads = o.threads;
    t0 = std::chrono::steady_clock::now();
    plan.emplace(desc);
    r.ripple_plan_s = seconds_since(t0);
    r.ripple_algo = plan->describe();
  } catch (const std::exception& e) {
    r.ripple_error = std::string("plan: ") + e.what();
  }

  const auto run_ripple = [&] { plan->execute(in_ripple.data(), out_ripple.data()); };
  const auto run_fftw = [&] { fftw_plan.execute(); };

  // The errors of one short transform are a handful of roundings, so one input decides little:
  // small cases report the mean over several inputs (at least 64 Ki values in all, at most 32
  // inputs). The last input (trial 0) is the one timed and rechecked below.
  using Ref = AlignedBuffer<std::complex<RefReal<T>>>;
  std::optional<Ref> ref;
  const unsigned trials = o.check_errors ? unsigned(std::clamp<std::size_t>(65536 / in_count, 1, 32)) : 1;
  double ripple_err_sum = 0, fftw_err_sum = 0, ripple_err_max = 0, ripple_err_timed = 0;
  for (unsigned trial = trials; trial-- > 0;) {
    fill_random(input, c, trial);
    std::copy_n(input.data(), in_count, in_fftw.data());
    std::copy_n(input.data(), in_count, in_ripple.data());

    // First executes: warm-up, and the outputs whose accuracy is checked.
    stage("fftw first execute");
    if (fftw_plan) run_fftw();
    stage("ripple first execute");
    if (plan) {
      try {
        run_ripple();
        if (!same_bits(input, in_ripple)) throw std::runtime_error("execute modified its input");
      } catch (const std::exception& e) {
        r.ripple_error = std::string("execute: ") + e.what();
        plan.reset();
      }
    }

    if (o.check_errors) {
      stage("reference transform");
      ref = reference_output<T, Real>(c, input, out_count);
      if (fftw_plan) fftw_err_sum += relative_l2(out_fftw, *ref);
      if (plan) {
        const double e = relative_l2(out_ripple, *ref);
        ripple_err_sum += e;
        ripple_err_timed = e;
        ripple_err_max = std::max(ripple_err_max, e);
      }
    }
  }
  if (o.check_errors) {
    if (fftw_plan) r.fftw_err = fftw_err_sum / trials;
    // A wrong result on any input shows as its error, not diluted by the mean.
    if (plan) r.ripple_err = ripple_err_max > wrong_result_tolerance(c.kind) ? ripple_err_max : ripple_err_sum / trials;
  }

  stage("timing");
  const auto [tr, tf] = time_pair(run_ripple, plan.has_value(), run_fftw, bool(fftw_plan), o.sampler);
  r.ripple = tr;
  r.fftw = tf;

  // Repeated executes must give the same answer (catches races in threaded plans, and state
  // left behind by one execute that corrupts the next).
  stage("ripple recheck");
  if (plan && ref) {
    const double e = relative_l2(out_ripple, *ref);
    if (!(std::abs(e - ripple_err_timed) <= 1e-3 * ripple_err_timed))
      r.ripple_error = "repeated executes gave different results (relative error " + std::to_string(ripple_err_timed) +
                       " first, " + std::to_string(e) + " after timing)";
  }
  return r;
}

Result run_case(const Case& c, const Options& o, const StageFn& stage) {
  switch (c.kind) {
    case Transform::c2c_f32: return run_case<float, false>(c, o, stage);
    case Transform::c2c_f64: return run_case<double, false>(c, o, stage);
    case Transform::r2c_f32: return run_case<float, true>(c, o, stage);
  }
  throw std::logic_error("unknown transform");
}

std::string wisdom_file(const Options& o, const char* precision) {
  return o.wisdom + "-" + precision + ".wisdom";
}

/// FFTW's per-process setup: threads, and the wisdom saved by earlier cases or runs. Done in
/// the process that plans (with isolation: each case's child), once.
void prepare_fftw(const Options& o) {
  static bool done = false;
  if (done) return;
  done = true;
  fftw_setup_threads(static_cast<int>(o.threads));
  if (!o.wisdom.empty()) {
    FftwApi<float>::import_wisdom(wisdom_file(o, "f32"));
    FftwApi<double>::import_wisdom(wisdom_file(o, "f64"));
  }
}

/// After each case, so an interrupted run keeps what it planned.
void save_wisdom(const Options& o) {
  if (o.wisdom.empty()) return;
  FftwApi<float>::export_wisdom(wisdom_file(o, "f32"));
  FftwApi<double>::export_wisdom(wisdom_file(o, "f64"));
}

// ---- run facts -------------------------------------------------------------------------------

std::string one_line(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  std::replace(s.begin(), s.end(), '\n', ';');
  return s;
}

Meta run_meta(const Options& o, int argc, char** argv) {
  std::string command;
  for (int i = 0; i < argc; ++i) command.append(i ? " " : "").append(argv[i]);
  char host[256] = "unknown";
  gethostname(host, sizeof host - 1);
  Meta m;
  m.emplace_back("command", command);
  m.emplace_back("host", host);
  m.emplace_back("ripple_version", ripple::version());
  m.emplace_back("simd_target", ripple::simd_target());
  std::string lanes = "f32=";
  lanes.append(std::to_string(ripple::simd_complex_lanes_f32()));
  lanes.append(" f64=").append(std::to_string(ripple::simd_complex_lanes_f64()));
  m.emplace_back("simd_complex_lanes", lanes);
  m.emplace_back("ripple_build", one_line(ripple::build_info()));
  m.emplace_back("fftw_version", fftw_version);
  m.emplace_back("fftw_planner", o.fftw_flags_name);
  m.emplace_back("threads", std::to_string(o.threads));
  std::ostringstream timing;
  timing << o.sampler.samples << " samples of >= " << o.sampler.min_sample_seconds
         << " s each, median per execute, ripple/FFTW samples alternated";
  m.emplace_back("timing", timing.str());
  m.emplace_back("isolation", o.isolate ? "one process per case, timeout " +
                                           std::to_string(static_cast<int>(o.case_timeout)) + " s"
                                     : "none");
  m.emplace_back("reference", !o.check_errors ? "none (--no-error)"
#if RIPPLE_BENCH_HAVE_FFTWL
                              : "f32 cases: FFTW double; f64 cases: FFTW long double"
#else
                              : "f32 cases: FFTW double; f64 cases: FFTW double (no fftw3l)"
#endif
  );
  return m;
}

int run(int argc, char** argv) {
  const Options o = parse_options(argc, argv);
  const std::vector<Case> cases = make_cases(o.selection);
  const bool embedded = std::any_of(o.selection.shapes.begin(), o.selection.shapes.end(),
                                    [](const NdShape& s) { return !s.embed.empty(); });
  const bool r2c = o.selection.kinds.empty() || std::find(o.selection.kinds.begin(), o.selection.kinds.end(),
                                                          Transform::r2c_f32) != o.selection.kinds.end();
  if (embedded && r2c) std::cerr << "bench_fft: note: embedded shapes run as c2c cases only (r2c-f32 skips them)\n";
  if (o.list_only) {
    for (const Case& c : cases)
      std::cout << name(c.kind) << ' ' << name(c.category) << ' ' << size_text(c) << ' ' << c.batch << '\n';
    return 0;
  }
  const Meta meta = run_meta(o, argc, argv);
  for (const auto& [key, value] : meta) std::cout << "# " << key << ": " << value << '\n';
  std::cout << "# cases: " << cases.size() << "\n\n";
  print_table_header(std::cout);
  std::cout.flush();

  const auto work = [&](const Case& c, const StageFn& stage) {
    prepare_fftw(o);
    Result r = run_case(c, o, stage);
    save_wisdom(o);
    return r;
  };
  std::vector<Result> results;
  for (const Case& c : cases) {
    Result r;
    if (o.isolate) {
      r = run_in_child(c, o.case_timeout, [&](const StageFn& stage) { return work(c, stage); });
    } else {
      try {
        r = work(c, [](std::string_view) {});
      } catch (const std::exception& e) {  // e.g. out of memory: report the row, go on
        r.c = c;
        r.ripple_error = std::string("harness: ") + e.what();
      }
    }
    print_row(std::cout, r);
    std::cout.flush();
    results.push_back(std::move(r));
  }
  print_summary(std::cout, results, Targets{});
  if (!o.csv.empty()) write_csv(o.csv, results);
  if (!o.json.empty()) write_json(o.json, meta, results, Targets{});
  return 0;
}

}  // namespace
}  // namespace ripple_bench

int main(int argc, char** argv) {
  try {
    return ripple_bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bench_fft: " << e.what() << '\n';
    return 1;
  }
}
