// The list of kernel variants (see variants.hpp).
#include "gpu/variants.hpp"

#include <tuple>

#include "gpu/device_copy.hpp"
#include "gpu/device_fft.hpp"
#include "gpu/device_scan.hpp"
#include "gpu/device_sos.hpp"

namespace ripple::gpu {

std::vector<KernelVariant> kernel_variants() {
  // The FFT's programs first (the NVRTC test takes the last variant for a scan).
  std::vector<KernelVariant> out = fft_kernel_variants();
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
  // The largest tile of the benchmark's sweep (bench/gpu/sosfilt_gpu_bench.cpp): groups of 512
  // work-items, whose registers the kernel's group bound keeps within the SM's (1024 would need
  // more than CUDA's 48 KiB of static shared memory with double carries; DeviceSos refuses it).
  SosConfig wide_tile;
  wide_tile.wide_carries = true;
  wide_tile.block = 512;
  out.push_back({"sos_tiles_f32_carry64_512x8", DeviceSos::tiles_program(wide_tile)});
  return out;
}

}  // namespace ripple::gpu
