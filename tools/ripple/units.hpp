// Numbers as radio and audio users type them: frequencies and rates with k/M/G suffixes
// ("20k", "2.4M", "-100kHz"), and positive integer ratios.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ripple::cli {

/// "20k" -> 20000, "2.4M" -> 2.4e6, "-100kHz" -> -1e5, "1e3" -> 1000. Throws UsageError naming
/// `what` and the text when it is not a finite number with an optional k/M/G suffix and "Hz".
double parse_frequency(const std::string& text, const std::string& what);
/// Comma-separated frequencies: "19k,21k".
std::vector<double> parse_frequency_list(const std::string& text, const std::string& what);
/// A whole number >= 1 (suffixes allowed: "1k" = 1000). Throws UsageError naming `what`.
std::size_t parse_ratio(const std::string& text, const std::string& what);
/// 2400000 -> "2.4 MHz", 48000 -> "48 kHz", 440 -> "440 Hz".
std::string format_frequency(double hz);
/// 1.5e9 -> "1.5 G", for samples/s and bytes.
std::string format_si(double value);

}  // namespace ripple::cli
