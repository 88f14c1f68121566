// One side of bench/ab/fft_ab.sh: built against one ripple build, loaded by fft_ab into its own
// dlmopen namespace, so two builds of libripple run side by side in one process.
#include <chrono>
#include <complex>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "ripple/fft.hpp"

namespace {
using ripple::fft::Kind;
using ripple::fft::Plan;
using ripple::fft::PlanDesc;
using ripple::fft::Precision;

struct Case {
  std::unique_ptr<Plan> plan;
  Kind kind;
  bool dbl;
  std::vector<std::complex<double>> in, out;  // room for any kind and precision
  std::string description;
};

template <class T>
void execute(Case& c) {
  using C = std::complex<T>;
  auto* in = reinterpret_cast<T*>(c.in.data());
  auto* out = reinterpret_cast<T*>(c.out.data());
  if (c.kind == Kind::r2c) {
    c.plan->execute(in, reinterpret_cast<C*>(out));
  } else if (c.kind == Kind::c2r) {
    c.plan->execute(reinterpret_cast<const C*>(in), out);
  } else {
    c.plan->execute(reinterpret_cast<const C*>(in), reinterpret_cast<C*>(out));
  }
}
}  // namespace

extern "C" {
// kind: "c2c", "r2c" or "c2r"; `batch` transforms one after another (the default layout);
// returns null with the message in `error` if the plan throws.
void* fft_ab_make(std::size_t n, std::size_t batch, int dbl, const char* kind, char* error, std::size_t error_len) {
  try {
    auto c = std::make_unique<Case>();
    PlanDesc d;
    d.shape = {n};
    d.batch = batch;
    d.precision = dbl ? Precision::f64 : Precision::f32;
    d.threads = 1;
    d.kind = std::strcmp(kind, "r2c") == 0 ? Kind::r2c : std::strcmp(kind, "c2r") == 0 ? Kind::c2r : Kind::c2c;
    if (d.kind == Kind::c2r) d.direction = ripple::fft::Direction::backward;
    c->plan = std::make_unique<Plan>(d);
    c->kind = d.kind;
    c->dbl = dbl != 0;
    c->in.resize((n + 1) * batch);
    c->out.resize((n + 1) * batch);
    // Values that are ordinary numbers read as float or as double.
    for (std::size_t i = 0; i < c->in.size(); ++i) {
      if (dbl) {
        c->in[i] = {double(i % 7) - 3.0, double(i % 5) - 2.0};
      } else {
        auto* f = reinterpret_cast<float*>(c->in.data());
        f[2 * i] = float(i % 7) - 3.0f;
        f[2 * i + 1] = float(i % 5) - 2.0f;
      }
    }
    c->description = c->plan->describe();
    return c.release();
  } catch (const std::exception& e) {
    std::strncpy(error, e.what(), error_len - 1);
    error[error_len - 1] = '\0';
    return nullptr;
  }
}

// Seconds per execute over `reps` back-to-back executes.
double fft_ab_time(void* handle, int reps) {
  Case& c = *static_cast<Case*>(handle);
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) c.dbl ? execute<double>(c) : execute<float>(c);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / reps;
}

const char* fft_ab_describe(void* handle) { return static_cast<Case*>(handle)->description.c_str(); }

void fft_ab_free(void* handle) { delete static_cast<Case*>(handle); }
}
