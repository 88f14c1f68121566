// Frequency transforms of analog zeros/poles/gain and the bilinear transform, as scipy.signal's
// lp2lp_zpk, lp2hp_zpk, lp2bp_zpk, lp2bs_zpk and bilinear_zpk (same operations, same order).
#include <cmath>
#include <string>

#include "iir/design/checks.hpp"
#include "iir/design/numpy_complex.hpp"
#include "ripple/iir/design.hpp"

namespace ripple::iir {

using design::cplx;

namespace {

/// Number of zeros at infinity (#poles - #zeros); rejects improper systems as scipy does.
std::size_t relative_degree(const char* function, const Zpk& zpk) {
  if (zpk.z.size() > zpk.p.size()) {
    design::reject(function, "the system must have at least as many poles as zeros",
                   std::to_string(zpk.z.size()) + " zeros and " + std::to_string(zpk.p.size()) + " poles");
  }
  return zpk.p.size() - zpk.z.size();
}

/// real(prod(-z) / prod(-p)): cancels the gain change of inverting every root (lp2hp, lp2bs).
double inversion_gain(const Zpk& zpk) {
  const cplx num = design::product_of_negated(zpk.z);
  const cplx den = design::product_of_negated(zpk.p);
  return design::divide(num, den).real();
}

/// For each x: x + sqrt(x^2 - wo^2), then for each x: x - sqrt(x^2 - wo^2) (scipy's shift of
/// baseband roots to +wo and -wo).
std::vector<cplx> split_about(const std::vector<cplx>& roots, double wo) {
  const double wo2 = wo * wo;
  std::vector<cplx> out(2 * roots.size());
  for (std::size_t i = 0; i < roots.size(); ++i) {
    const cplx x = roots[i];
    const cplx sq = design::square(x);
    const cplx r = std::sqrt(sq - cplx(wo2));
    out[i] = x + r;
    out[roots.size() + i] = x - r;
  }
  return out;
}

}  // namespace

Zpk lp2lp_zpk(const Zpk& prototype, double wo) {
  const std::size_t degree = relative_degree("lp2lp_zpk", prototype);
  Zpk out;
  for (const cplx& z : prototype.z) out.z.push_back(design::multiply(z, wo));
  for (const cplx& p : prototype.p) out.p.push_back(design::multiply(p, wo));
  out.k = prototype.k * std::pow(wo, double(degree));
  return out;
}

Zpk lp2hp_zpk(const Zpk& prototype, double wo) {
  const std::size_t degree = relative_degree("lp2hp_zpk", prototype);
  Zpk out;
  for (const cplx& z : prototype.z) out.z.push_back(design::divide(wo, z));
  for (const cplx& p : prototype.p) out.p.push_back(design::divide(wo, p));
  out.z.insert(out.z.end(), degree, cplx(0.0, 0.0));  // zeros at infinity go to the origin
  out.k = prototype.k * inversion_gain(prototype);
  return out;
}

Zpk lp2bp_zpk(const Zpk& prototype, double wo, double bw) {
  const std::size_t degree = relative_degree("lp2bp_zpk", prototype);
  std::vector<cplx> z_lp, p_lp;
  for (const cplx& z : prototype.z) z_lp.push_back(design::divide(design::multiply(z, bw), 2.0));
  for (const cplx& p : prototype.p) p_lp.push_back(design::divide(design::multiply(p, bw), 2.0));
  Zpk out;
  out.z = split_about(z_lp, wo);
  out.p = split_about(p_lp, wo);
  out.z.insert(out.z.end(), degree, cplx(0.0, 0.0));  // half the zeros at infinity to the origin
  out.k = prototype.k * std::pow(bw, double(degree));
  return out;
}

Zpk lp2bs_zpk(const Zpk& prototype, double wo, double bw) {
  const std::size_t degree = relative_degree("lp2bs_zpk", prototype);
  std::vector<cplx> z_hp, p_hp;
  for (const cplx& z : prototype.z) z_hp.push_back(design::divide(bw / 2, z));
  for (const cplx& p : prototype.p) p_hp.push_back(design::divide(bw / 2, p));
  Zpk out;
  out.z = split_about(z_hp, wo);
  out.p = split_about(p_hp, wo);
  // Zeros at infinity move to the centre of the stopband, +j wo then -j wo.
  out.z.insert(out.z.end(), degree, cplx(0.0, wo));
  out.z.insert(out.z.end(), degree, cplx(0.0, -wo));
  out.k = prototype.k * inversion_gain(prototype);
  return out;
}

Zpk bilinear_zpk(const Zpk& analog, double fs) {
  design::require_positive("bilinear_zpk", "fs", fs);
  const std::size_t degree = relative_degree("bilinear_zpk", analog);
  const double fs2 = 2.0 * fs;
  Zpk out;
  for (const cplx& z : analog.z) out.z.push_back(design::divide(cplx(fs2) + z, cplx(fs2) - z));
  for (const cplx& p : analog.p) out.p.push_back(design::divide(cplx(fs2) + p, cplx(fs2) - p));
  out.z.insert(out.z.end(), degree, cplx(-1.0, 0.0));  // zeros at infinity go to Nyquist
  out.k = analog.k * design::divide(design::product_of_differences(fs2, analog.z),
                                    design::product_of_differences(fs2, analog.p))
                         .real();
  return out;
}

}  // namespace ripple::iir
