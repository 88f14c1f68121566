// IIR filter design with scipy.signal's semantics: Butterworth and Chebyshev I/II designs
// (scipy's iirfilter: analog prototype, pre-warp, band transform, bilinear transform, zpk2sos),
// the conversions between zeros/poles/gain, transfer functions and second-order sections, the
// frequency response of a filter, and the RBJ Audio EQ Cookbook biquads.
//
// Conventions (scipy's):
//   - Digital filters only. Critical frequencies Wn are normalized to the Nyquist frequency
//     (0 < Wn < 1, 1 == fs/2) unless a sample rate fs is given, in which case they are in the
//     units of fs (0 < Wn < fs/2).
//   - Sos rows are [b0 b1 b2 a0 a1 a2] with a0 == 1; designs come out with the same sections in
//     the same order as scipy's output='sos' (the overall gain lives in the first row). Every
//     step repeats numpy's floating-point operations in numpy's order, so the coefficients are
//     scipy's to within 1e-12 relative per section (tests/iir/design; on x86-64 they are
//     bit-identical for every design tested).
//   - Zpk holds the digital zeros and poles in z (H(z) = k prod(z - z_i) / prod(z - p_i)),
//     in scipy's order; Tf holds polynomials in descending powers, b and a.
//   - Every invalid argument raises ripple::InvalidArgument whose message names the function,
//     the parameter and the rejected value (e.g. "butter: Wn must be in (0, 1), got 1.5").
//
// Example (compiled and checked in tests/iir/design/example_test.cpp):
//   #include "ripple/iir/design.hpp"
//   using namespace ripple::iir;
//   Sos lp = butter(4, 0.2);                                   // 4th-order lowpass, 0.2*Nyquist
//   Sos bp = cheby1(3, 0.5, {300.0, 3400.0}, BandType::bandpass, 8000.0);  // fs = 8 kHz
//   Zpk z = cheby2_zpk(6, 40.0, 0.3, BandType::highpass);
//   Sos eq = rbj_peaking(1000.0, 48000.0, 0.7, 6.0);           // +6 dB bell at 1 kHz
//   FrequencyResponse r = sosfreqz(lp, 1024);                  // r.w in rad/sample, r.h complex
#pragma once

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <numbers>
#include <optional>
#include <span>
#include <vector>

#include "ripple/iir/sos.hpp"

namespace ripple::iir {

/// The kind of band a design passes (scipy's btype).
enum class BandType { lowpass, highpass, bandpass, bandstop };

/// How zpk2sos pairs poles with zeros (scipy's pairing). See zpk2sos.
enum class Pairing { nearest, keep_odd, minimal };

/// The critical frequency of a design, scipy's Wn: one value for lowpass and highpass, two band
/// edges {low, high} (low < high) for bandpass and bandstop. Converts implicitly from a number
/// or a braced list, so calls read `butter(4, 0.2)` and `butter(4, {0.1, 0.3}, BandType::bandpass)`.
/// The count and the values are checked by the design functions.
class Cutoff {
 public:
  Cutoff(double wn) : values_{wn} {}  // NOLINT(google-explicit-constructor): reads as scipy's Wn
  Cutoff(std::initializer_list<double> wn) : values_(wn) {}  // NOLINT(google-explicit-constructor)
  explicit Cutoff(std::span<const double> wn) : values_(wn.begin(), wn.end()) {}

  std::span<const double> values() const noexcept { return values_; }

 private:
  std::vector<double> values_;
};

// ---------------------------------------------------------------------------------------------
// Butterworth and Chebyshev designs (scipy.signal.butter / cheby1 / cheby2, digital, output='sos'
// or 'zpk').
//
// Parameters common to all of them:
//   order  filter order N >= 1 (bandpass and bandstop designs have 2N poles, N sections);
//   wn     critical frequency or band edges: normalized to Nyquist (0 < wn < 1), or in the
//          units of fs when fs is given (0 < wn < fs/2). For Butterworth it is the -3 dB point;
//          for Chebyshev I the edge where the gain first drops below -rp dB; for Chebyshev II
//          the edge where the attenuation first reaches rs dB;
//   btype  lowpass (default), highpass, bandpass or bandstop;
//   fs     sample rate (any unit; wn then uses the same unit), > 0 and finite; omitted means
//          wn is normalized to Nyquist.
// Throws InvalidArgument for: order < 1; a non-finite or out-of-range wn (<= 0, or >= 1, or
// >= fs/2 with fs); one wn for a band design or two for a lowpass/highpass (any count other
// than the one btype needs); wn[0] >= wn[1]; fs <= 0 or not finite; rp or rs <= 0 or not
// finite. (scipy accepts order 0 and rp/rs == 0, which give no filter or divide by zero.)
// ---------------------------------------------------------------------------------------------

/// Butterworth filter as second-order sections, equal to
/// `scipy.signal.butter(order, wn, btype, output='sos', fs=fs)`.
Sos butter(int order, const Cutoff& wn, BandType btype = BandType::lowpass,
           std::optional<double> fs = std::nullopt);
/// Chebyshev type I filter with rp dB of passband ripple, as second-order sections, equal to
/// `scipy.signal.cheby1(order, rp, wn, btype, output='sos', fs=fs)`.
Sos cheby1(int order, double rp, const Cutoff& wn, BandType btype = BandType::lowpass,
           std::optional<double> fs = std::nullopt);
/// Chebyshev type II filter with at least rs dB of stopband attenuation, as second-order
/// sections, equal to `scipy.signal.cheby2(order, rs, wn, btype, output='sos', fs=fs)`.
Sos cheby2(int order, double rs, const Cutoff& wn, BandType btype = BandType::lowpass,
           std::optional<double> fs = std::nullopt);

/// The zeros, poles and gain of butter(...) (scipy's output='zpk'), in scipy's order.
Zpk butter_zpk(int order, const Cutoff& wn, BandType btype = BandType::lowpass,
               std::optional<double> fs = std::nullopt);
/// The zeros, poles and gain of cheby1(...) (scipy's output='zpk'), in scipy's order.
Zpk cheby1_zpk(int order, double rp, const Cutoff& wn, BandType btype = BandType::lowpass,
               std::optional<double> fs = std::nullopt);
/// The zeros, poles and gain of cheby2(...) (scipy's output='zpk'), in scipy's order.
Zpk cheby2_zpk(int order, double rs, const Cutoff& wn, BandType btype = BandType::lowpass,
               std::optional<double> fs = std::nullopt);
// Transfer-function output (scipy's output='ba') is zpk2tf(butter_zpk(...)) and so on; prefer
// sections: the polynomials of high-order or narrow-band designs lose most of their accuracy.

// ---------------------------------------------------------------------------------------------
// The steps of a design, public so that other designs can be composed from them. All work on
// analog (s-plane) zeros/poles/gain except bilinear_zpk, which produces a digital one.
// ---------------------------------------------------------------------------------------------

/// Analog Butterworth lowpass prototype of order n >= 1, cutoff 1 rad/s (scipy.signal.buttap).
/// Throws InvalidArgument when n < 1.
Zpk buttap(int n);
/// Analog Chebyshev I lowpass prototype of order n >= 1 with rp dB of passband ripple, edge
/// 1 rad/s (scipy.signal.cheb1ap). Throws InvalidArgument when n < 1 or rp is not > 0 and finite.
Zpk cheb1ap(int n, double rp);
/// Analog Chebyshev II lowpass prototype of order n >= 1 with rs dB of stopband attenuation,
/// stopband edge 1 rad/s (scipy.signal.cheb2ap). Throws InvalidArgument when n < 1 or rs is not
/// > 0 and finite.
Zpk cheb2ap(int n, double rs);
/// Analog lowpass with cutoff wo rad/s from a unit-cutoff lowpass prototype (s -> s/wo)
/// (scipy.signal.lp2lp_zpk). Throws InvalidArgument when there are more zeros than poles.
Zpk lp2lp_zpk(const Zpk& prototype, double wo = 1.0);
/// Analog highpass with cutoff wo rad/s from a unit-cutoff lowpass prototype (s -> wo/s)
/// (scipy.signal.lp2hp_zpk). Throws InvalidArgument when there are more zeros than poles.
Zpk lp2hp_zpk(const Zpk& prototype, double wo = 1.0);
/// Analog bandpass centred on wo with bandwidth bw (rad/s) from a unit-cutoff lowpass prototype
/// (s -> (s^2 + wo^2) / (s bw)) (scipy.signal.lp2bp_zpk). Throws InvalidArgument when there are
/// more zeros than poles.
Zpk lp2bp_zpk(const Zpk& prototype, double wo = 1.0, double bw = 1.0);
/// Analog bandstop centred on wo with stopband width bw (rad/s) from a unit-cutoff lowpass
/// prototype (s -> s bw / (s^2 + wo^2)) (scipy.signal.lp2bs_zpk). Throws InvalidArgument when
/// there are more zeros than poles.
Zpk lp2bs_zpk(const Zpk& prototype, double wo = 1.0, double bw = 1.0);
/// Digital filter from an analog one by the bilinear transform s = 2 fs (z - 1)/(z + 1),
/// without pre-warping; zeros at infinity go to z = -1 (scipy.signal.bilinear_zpk). Throws
/// InvalidArgument when there are more zeros than poles or fs is not > 0 and finite.
Zpk bilinear_zpk(const Zpk& analog, double fs);

// ---------------------------------------------------------------------------------------------
// Conversions between representations (digital filters).
// ---------------------------------------------------------------------------------------------

/// Second-order sections from zeros, poles and gain, exactly scipy.signal.zpk2sos (digital):
/// complex zeros and poles must come in conjugate pairs (within scipy's relative tolerance
/// 100 eps); sections are built from the pole closest to the unit circle outwards and stored
/// with that one last; the gain goes into the first section.
///   nearest  (default) pads with poles/zeros at the origin to an even count, each pole paired
///            with the nearest zero;
///   keep_odd as nearest, but an odd-order system keeps one first-order section;
///   minimal  no padding: a first-order section is [0 1 -z 0 1 -p], a0 == 0 as in scipy (so
///            not accepted by sosfreqz or filtering); needs #poles >= #zeros.
/// With no zeros and no poles the result is the single row [k 0 0 1 0 0]. When two different
/// candidate zeros are at exactly the same distance from a pole, the earlier one in scipy's
/// sorted order is taken (numpy's unstable argsort may take the other; the sections then
/// differ, the filter does not). Throws InvalidArgument for non-finite values, a complex value
/// without its conjugate, or (minimal) more zeros than poles.
Sos zpk2sos(const Zpk& zpk, Pairing pairing = Pairing::nearest);
/// Polynomials b = k poly(z), a = poly(p) from zeros, poles and gain (scipy.signal.zpk2tf).
/// Conjugate-paired complex roots give real coefficients; the imaginary parts are dropped (a
/// real-coefficient Tf is all this type holds). Throws InvalidArgument when z or p has a
/// complex value without its conjugate.
Tf zpk2tf(const Zpk& zpk);
/// Zeros, poles and gain of a transfer function (scipy.signal.tf2zpk): a is normalized so that
/// a[0] == 1 (leading zeros of a removed), leading numerator coefficients with |b_i/a_0| <=
/// 1e-14 are dropped, k = b[0], and the roots are the eigenvalues of the balanced companion
/// matrices found by a Francis double-shift QR iteration (numpy.roots uses LAPACK's; the roots
/// agree to rounding times the polynomial's root condition numbers, not to the last bit, and
/// may come in a different order). A root of multiplicity m is found only to about eps^(1/m)
/// (by any method): tf2sos of a Butterworth polynomial of order 8 puts its zeros at -1 only to
/// ~1e-2, differently from scipy, though the filters agree (see tests/iir/design). Throws
/// InvalidArgument when b or a is empty, a is all zeros, a value is not finite, or the QR
/// iteration does not converge.
Zpk tf2zpk(const Tf& tf);
/// tf2zpk followed by zpk2sos (scipy.signal.tf2sos). Throws as those two.
Sos tf2sos(const Tf& tf, Pairing pairing = Pairing::nearest);
/// The product of the sections as one transfer function (scipy.signal.sos2tf): polynomials of
/// degree 2 n_sections. Throws InvalidArgument when sos has no sections or a value is not
/// finite.
Tf sos2tf(const Sos& sos);
/// Zeros, poles and gain of a cascade (scipy.signal.sos2zpk): two zeros and two poles per
/// section (sections with fewer roots contribute zeros at the origin), k the product of the
/// sections' gains. Throws as tf2zpk, or InvalidArgument when sos has no sections.
Zpk sos2zpk(const Sos& sos);

// ---------------------------------------------------------------------------------------------
// Frequency response.
// ---------------------------------------------------------------------------------------------

/// Frequencies and the complex response at each.
struct FrequencyResponse {
  std::vector<double> w;                ///< in the units of fs (rad/sample by default)
  std::vector<std::complex<double>> h;  ///< H(e^{j 2 pi w / fs})
};

/// Response of a cascade of sections at n equally spaced frequencies, exactly
/// scipy.signal.sosfreqz(sos, worN=n, whole=whole, fs=fs): w_i = i fs/(2n) for i in [0, n)
/// (0 up to, not including, Nyquist), or i fs/n with whole (0 up to, not including, fs). The
/// default fs = 2 pi gives w in rad/sample. Each section is evaluated by Horner's rule in z^-1
/// and the sections' responses multiplied. Throws InvalidArgument when n < 0, fs is not > 0
/// and finite, sos has no sections, or a row's a0 is not 1.
FrequencyResponse sosfreqz(const Sos& sos, std::int64_t n = 512, bool whole = false,
                           double fs = 2 * std::numbers::pi);
/// Response of a cascade at the given frequencies (units of fs), scipy's sosfreqz with an
/// array worN. The returned w is scipy's: the frequencies converted to rad/sample and back,
/// equal to the input to rounding. Throws as above (n aside) and for non-finite frequencies.
FrequencyResponse sosfreqz(const Sos& sos, std::span<const double> frequencies,
                           double fs = 2 * std::numbers::pi);
/// Response of a transfer function b/a at n equally spaced frequencies, scipy.signal.freqz(b,
/// a, worN=n, whole=whole, fs=fs). Always Horner's rule (scipy takes an FFT of b when a has one
/// coefficient; the two agree to rounding). Throws InvalidArgument when n < 0, fs is not > 0
/// and finite, b or a is empty, or a is all zeros.
FrequencyResponse freqz(const Tf& tf, std::int64_t n = 512, bool whole = false,
                        double fs = 2 * std::numbers::pi);
/// Response of a transfer function at the given frequencies (units of fs). Throws as above.
FrequencyResponse freqz(const Tf& tf, std::span<const double> frequencies, double fs = 2 * std::numbers::pi);

// ---------------------------------------------------------------------------------------------
// RBJ Audio EQ Cookbook biquads (Robert Bristow-Johnson), each one normalized section
// [b0 b1 b2 1 a1 a2] with
//   w0 = 2 pi f0 / fs,  alpha = sin(w0) / (2 Q),  A = 10^(gain_db / 40).
// f0 and fs are in the same unit (e.g. Hz); Q > 0 is the quality factor. For the shelves Q is
// the cookbook's shelf Q (alpha uses Q as above): Q = 1/sqrt(2) is the steepest shelf without
// overshoot (the cookbook's slope S = 1); rbj_shelf_q converts a slope S to this Q.
// Gains: lowpass 1 at DC and highpass 1 at Nyquist, both |H(f0)| = Q (Q = 1/sqrt(2) is the
// Butterworth -3 dB point); bandpass 1 (0 dB) at f0; notch 0 at f0; allpass |H| == 1; peaking
// gain_db at f0 and 0 dB at DC and Nyquist; low shelf gain_db at DC, gain_db/2 at f0, 0 dB at
// Nyquist; high shelf 0 dB at DC, gain_db/2 at f0, gain_db at Nyquist.
// All throw InvalidArgument unless fs > 0, 0 < f0 < fs/2, Q > 0 (all finite) and gain_db is
// finite.
// ---------------------------------------------------------------------------------------------

/// Second-order lowpass: H(s) = 1 / (s^2 + s/Q + 1).
Sos rbj_lowpass(double f0, double fs, double q);
/// Second-order highpass: H(s) = s^2 / (s^2 + s/Q + 1).
Sos rbj_highpass(double f0, double fs, double q);
/// Bandpass with constant 0 dB peak gain: H(s) = (s/Q) / (s^2 + s/Q + 1).
Sos rbj_bandpass(double f0, double fs, double q);
/// Notch: H(s) = (s^2 + 1) / (s^2 + s/Q + 1).
Sos rbj_notch(double f0, double fs, double q);
/// Allpass: H(s) = (s^2 - s/Q + 1) / (s^2 + s/Q + 1).
Sos rbj_allpass(double f0, double fs, double q);
/// Peaking EQ of gain_db dB at f0: H(s) = (s^2 + s A/Q + 1) / (s^2 + s/(A Q) + 1).
Sos rbj_peaking(double f0, double fs, double q, double gain_db);
/// Low shelf of gain_db dB below f0: H(s) = A (s^2 + sqrt(A) s/Q + A) / (A s^2 + sqrt(A) s/Q + 1).
Sos rbj_low_shelf(double f0, double fs, double q, double gain_db);
/// High shelf of gain_db dB above f0: H(s) = A (A s^2 + sqrt(A) s/Q + 1) / (s^2 + sqrt(A) s/Q + A).
Sos rbj_high_shelf(double f0, double fs, double q, double gain_db);
/// The shelf Q of the cookbook's shelf slope S (0 < S; S = 1 is the steepest monotonic shelf):
/// 1/Q = sqrt((A + 1/A)(1/S - 1) + 2). Throws InvalidArgument when S is not > 0 and finite,
/// gain_db is not finite, or the slope is too steep for this gain (the root is not real).
double rbj_shelf_q(double gain_db, double slope);

}  // namespace ripple::iir
