// The list of kernel variants (see variants.hpp).
#include "gpu/variants.hpp"

#include "gpu/device_copy.hpp"
#include "gpu/device_scan.hpp"

namespace ripple::gpu {

std::vector<KernelVariant> kernel_variants() {
  std::vector<KernelVariant> out;
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
  return out;
}

}  // namespace ripple::gpu
