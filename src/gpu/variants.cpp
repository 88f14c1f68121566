// The list of kernel variants (see variants.hpp).
#include "gpu/variants.hpp"

#include <tuple>

#include "gpu/device_copy.hpp"
#include "gpu/device_fft.hpp"
#include "gpu/device_scan.hpp"
#include "gpu/device_sos.hpp"

namespace ripple::gpu {

std::vector<KernelVariant> kernel_variants() {
  std::vector<KernelVariant> out;
  // The one-kernel FFT: a program per size; these cover every radix, the split exchange, one and
  // several transforms per group, N = 1 (first: the NVRTC test takes the last variant for a scan).
  for (bool dbl : {false, true})
    for (std::uint64_t n : {1, 8, 60, 243, 343, 625, 1024, 4096})
      out.push_back({"fft_c2c_" + std::to_string(n) + (dbl ? "_f64" : "_f32"),
                     DeviceFft::program(DeviceFft::shape(n, dbl), dbl)});
  for (bool dbl : {false, true}) {
    const std::string prec = dbl ? "f64" : "f32";
    for (bool cplx : {false, true})
      out.push_back({std::string("copy_scale_") + (cplx ? "complex_" : "real_") + prec,
                     DeviceCopy::program(dbl, cplx)});
    for (ScanOp op : {ScanOp::sum, ScanOp::affine2})
      for (bool no_shuffle : {false, true}) {
        ScanConfig c;
        c.op = op;
        c.double_precision = dbl;
        c.no_shuffle = no_shuffle;
        out.push_back({std::string("scan_") + (op == ScanOp::sum ? "sum_" : "affine2_") + prec +
                           (no_shuffle ? "_noshuffle" : "_shuffle"),
                       DeviceScan::program(c)});
      }
  }
  // The biquad cascade: float data with float or double carries, double data; both kernels.
  for (const auto& [dbl, wide, prec] : {std::tuple{false, false, "f32"}, std::tuple{false, true, "f32_carry64"},
                                         std::tuple{true, true, "f64"}}) {
    SosConfig c;
    c.double_precision = dbl;
    c.wide_carries = wide;
    for (bool no_shuffle : {false, true}) {
      c.no_shuffle = no_shuffle;
      out.push_back({std::string("sos_tiles_") + prec + (no_shuffle ? "_noshuffle" : "_shuffle"),
                     DeviceSos::tiles_program(c)});
    }
    if (!dbl && wide) continue;  // the channel kernel has no carries
    out.push_back({std::string("sos_channels_") + (dbl ? "f64" : "f32"), DeviceSos::channels_program(c)});
  }
  return out;
}

}  // namespace ripple::gpu
