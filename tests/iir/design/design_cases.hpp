// The Butterworth / Chebyshev design cases of make_golden.py (design_cases.npy), and running
// the same design in ripple.
#pragma once

#include <optional>
#include <string>

#include "iir/design/design_test_util.hpp"

namespace ripple::iir::test {

enum class Kind { butter, cheby1, cheby2 };

/// One row of design_cases.npy: [kind, order, btype, wn0, wn1 (0 if none), fs (0 if none), sos
/// offset, sos rows, z offset, z count, p offset, p count, k].
struct DesignCase {
  Kind kind;
  int order;
  BandType btype;
  Cutoff wn;
  std::optional<double> fs;
  std::size_t sos_offset, sos_rows, z_offset, z_count, p_offset, p_count;
  double k;

  static DesignCase from(const Table& t, std::size_t r) {
    const BandType btype = BandType(int(t(r, 2)));
    const bool band = btype == BandType::bandpass || btype == BandType::bandstop;
    return {Kind(int(t(r, 0))),
            int(t(r, 1)),
            btype,
            band ? Cutoff{t(r, 3), t(r, 4)} : Cutoff(t(r, 3)),
            t(r, 5) > 0 ? std::optional<double>(t(r, 5)) : std::nullopt,
            t.index(r, 6),
            t.index(r, 7),
            t.index(r, 8),
            t.index(r, 9),
            t.index(r, 10),
            t.index(r, 11),
            t(r, 12)};
  }

  std::string describe() const {
    static const char* kinds[] = {"butter", "cheby1", "cheby2"};
    static const char* btypes[] = {"lowpass", "highpass", "bandpass", "bandstop"};
    std::string s = std::string(kinds[int(kind)]) + "(" + std::to_string(order) + ", Wn=";
    for (double w : wn.values()) s += std::to_string(w) + " ";
    s += btypes[int(btype)];
    if (fs) s += ", fs=" + std::to_string(*fs);
    return s + ")";
  }

  Sos sos() const {
    switch (kind) {
      case Kind::butter: return butter(order, wn, btype, fs);
      case Kind::cheby1: return cheby1(order, 0.5, wn, btype, fs);
      case Kind::cheby2: return cheby2(order, 40.0, wn, btype, fs);
    }
    return {};
  }

  Zpk zpk() const {
    switch (kind) {
      case Kind::butter: return butter_zpk(order, wn, btype, fs);
      case Kind::cheby1: return cheby1_zpk(order, 0.5, wn, btype, fs);
      case Kind::cheby2: return cheby2_zpk(order, 40.0, wn, btype, fs);
    }
    return {};
  }
};

}  // namespace ripple::iir::test
