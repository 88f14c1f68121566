// `ripple fft IN OUT`: FFT of a .npy file along its last axis (or over --axes), written to
// another .npy file.
// '-' for IN or OUT means standard input or output.
#include <charconv>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "commands.hpp"
#include "npy_transform.hpp"
#include "ripple/device.hpp"
#include "ripple/error.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::cli {
namespace {

struct FftOptions {
  std::string in;
  std::string out;
  AxisTransform transform;
  std::size_t n = 0;
  std::string norm = "backward";
  std::string device;  ///< "": the host's fft::Plan
  bool force = false;
  bool verbose = false;
};

// CLI11 validator: "" when `text` is a positive decimal integer that fits size_t, else the
// complaint.
std::string positive_integer(const std::string& text) {
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error == std::errc::result_out_of_range) return "'" + text + "' is too large";
  if (error != std::errc() || end != text.data() + text.size() || value == 0)
    return "must be a positive integer, not '" + text + "'";
  return {};
}

fft::Norm parse_norm(const std::string& name) {
  if (name == "ortho") return fft::Norm::ortho;
  if (name == "forward") return fft::Norm::forward;
  return fft::Norm::backward;  // the option's IsMember check let nothing else through
}

std::string summary(const io::NpyArray& a) {
  return io::shape_string(a.shape) + " " + io::dtype_name(a.dtype());
}

int run_fft(const FftOptions& o, const CLI::Option& n_option) {
  AxisTransform transform = o.transform;
  if (n_option.count() > 0) transform.n = o.n;
  transform.norm = parse_norm(o.norm);
  if (!o.device.empty()) {  // before the input is read: a mistyped or absent device fails at once
    transform.device = o.device == "best" ? Device::best() : Device::parse(o.device);
    if (!transform.device->available())
      throw Unsupported("device " + o.device + " is not present on this machine (`ripple info` lists those that are)");
  }
  const bool to_stdout = o.out == "-";
  if (!to_stdout && !o.force && std::filesystem::exists(o.out))
    throw IoError("output file '" + o.out + "' exists; use --force to overwrite it");

  const io::NpyArray input = o.in == "-" ? io::read_npy(std::cin) : io::read_npy(o.in);
  const auto start = std::chrono::steady_clock::now();
  const TransformResult result =
      transform.axes.empty() ? transform_last_axis(input, transform) : transform_axes(input, transform);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  if (to_stdout)
    io::write_npy(std::cout, result.array);
  else
    io::write_npy(o.out, result.array);
  if (o.verbose)
    std::cerr << "ripple fft: " << summary(input) << " -> " << summary(result.array)
              << (transform.device ? " on " + transform.device->to_string() : std::string()) << ", plan "
              << (result.plan.empty() ? "(none: no data)" : result.plan) << ", " << elapsed.count()
              << " ms\n";
  return 0;
}

}  // namespace

Command add_fft_command(CLI::App& app) {
  auto o = std::make_shared<FftOptions>();
  CLI::App* sub = app.add_subcommand("fft", "FFT of a .npy file along its last axis or over --axes");
  sub->footer(
      "The last axis is transformed; every other axis is a batch. complex64/complex128 input: c2c\n"
      "(numpy.fft.fft; ifft with --inverse; irfft with --real-output). float32/float64 input: r2c\n"
      "(numpy.fft.rfft, last axis n/2+1). The output has the precision of the input.\n"
      "With --axes, the transform runs over those axes, as numpy.fft.fftn/ifftn/rfftn/irfftn: the\n"
      "real transform and --n belong to the last axis listed.\n"
      "With --device, the data is uploaded to that device (a GPU through CUDA or OpenCL) and\n"
      "transformed there: along the last axis by one fft::DevicePlan, over --axes (any of them) by\n"
      "the device's fftn/ifftn/rfftn/irfftn.");
  sub->add_option("IN", o->in, "input .npy file ('-' for standard input)")->required();
  sub->add_option("OUT", o->out, "output .npy file ('-' for standard output)")->required();
  sub->add_flag("-i,--inverse", o->transform.inverse, "backward c2c transform (numpy.fft.ifft)");
  sub->add_flag("-r,--real-output", o->transform.real_output,
                "c2r transform of complex input to real output (numpy.fft.irfft)");
  CLI::Option* n_option =
      sub->add_option("-n,--n", o->n,
                      "transform length (numpy's n): the input's last axis is cut or zero-padded to "
                      "n (n/2+1 with --real-output); default: its length (2*(m-1) with --real-output)")
          ->check(CLI::Validator(positive_integer, "N>0", "positive integer"));
  sub->add_option("--norm", o->norm, "normalization, as numpy: backward (default), ortho, forward")
      ->check(CLI::IsMember({"backward", "ortho", "forward"}));
  sub->add_option("-t,--threads", o->transform.threads, "worker threads (default: ripple's default)")
      ->check(CLI::Range(1u, 1024u));
  sub->add_option("-a,--axes", o->transform.axes,
                  "axes to transform, comma-separated (negative count from the end), as numpy's fftn; "
                  "default: the last axis, the others a batch")
      ->delimiter(',')
      ->expected(1, 16);
  sub->add_option("-d,--device", o->device,
                  "run on this device: cpu, cuda[:N], opencl[:P.D] as `ripple info` lists them, or best "
                  "(default: the host's FFT, no device)");
  sub->add_flag("-f,--force", o->force, "overwrite OUT if it exists");
  sub->add_flag("-v,--verbose", o->verbose, "print shapes, the plan and the time on standard error");
  return {sub, [o, n_option] { return run_fft(*o, *n_option); }};
}

}  // namespace ripple::cli
