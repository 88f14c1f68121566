// Window functions with scipy.signal.windows' semantics (the ones FIR design and spectral
// estimation use): symmetric windows for filter design, periodic ("fftbins") ones for spectra.
//
//   auto w = ripple::windows::get_window(ripple::windows::Window::parse("kaiser,8.6"), 64);
//   auto h = ripple::windows::hann(512, /*sym=*/false);          // periodic, as get_window('hann')
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ripple::windows {

/// The windows ripple provides (scipy names; aliases are accepted by Window::parse).
enum class Kind {
  boxcar, triang, bartlett, hann, hamming, blackman, blackmanharris, nuttall, flattop, cosine,
  tukey,            ///< parameter alpha (taper fraction), default 0.5
  kaiser,           ///< parameter beta (required)
  gaussian,         ///< parameter std (required)
  general_hamming,  ///< parameter alpha (required)
};

/// A window and its parameter, scipy's `window` argument ('hann', ('kaiser', 8.6), ...).
struct Window {
  Kind kind = Kind::hann;
  double parameter = 0.0;  ///< alpha, beta or std where the kind takes one

  /// Parses scipy's spellings: a name ("hann", "hamming", aliases such as "boxcar"/"rect"/
  /// "ones", "triangle", "gauss"...), optionally followed by ",value" for its parameter
  /// ("kaiser,8.6", "tukey,0.25", "gaussian,7"). Throws InvalidArgument naming the text for an
  /// unknown name, a missing required parameter or a parameter the window does not take.
  static Window parse(std::string_view spec);
  /// scipy's name of the window, with its parameter when it has one ("kaiser,8.6").
  std::string name() const;
};

/// scipy.signal.get_window: the window of n points (n >= 1), periodic when fftbins (for
/// spectral analysis: the symmetric window of n + 1 points without its last one), symmetric
/// otherwise (for filter design). Throws InvalidArgument for n == 0 or a bad parameter
/// (tukey alpha or gaussian std not finite, gaussian std <= 0).
std::vector<double> get_window(const Window& window, std::size_t n, bool fftbins = true);

/// The named windows of scipy.signal.windows; sym = true gives the symmetric window.
std::vector<double> boxcar(std::size_t m, bool sym = true);
std::vector<double> triang(std::size_t m, bool sym = true);
std::vector<double> bartlett(std::size_t m, bool sym = true);
std::vector<double> hann(std::size_t m, bool sym = true);
std::vector<double> hamming(std::size_t m, bool sym = true);
std::vector<double> blackman(std::size_t m, bool sym = true);
std::vector<double> blackmanharris(std::size_t m, bool sym = true);
std::vector<double> nuttall(std::size_t m, bool sym = true);
std::vector<double> flattop(std::size_t m, bool sym = true);
std::vector<double> cosine(std::size_t m, bool sym = true);
std::vector<double> tukey(std::size_t m, double alpha = 0.5, bool sym = true);
std::vector<double> kaiser(std::size_t m, double beta, bool sym = true);
std::vector<double> gaussian(std::size_t m, double std, bool sym = true);
std::vector<double> general_hamming(std::size_t m, double alpha, bool sym = true);
/// sum_k (-1)^k a[k] cos(k x) over x in [-pi, pi] (scipy.signal.windows.general_cosine).
std::vector<double> general_cosine(std::size_t m, const std::vector<double>& a, bool sym = true);

}  // namespace ripple::windows
