// Argument checks shared by the design functions: each throws ripple::InvalidArgument with a
// message "<function>: <parameter> <requirement>, got <value>".
#pragma once

#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "ripple/error.hpp"

namespace ripple::iir::design {

/// The shortest text that reads back as the same double ("0.1", "1e-300", "nan", "inf").
inline std::string format_number(double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

[[noreturn]] inline void reject(std::string_view function, std::string_view requirement,
                                const std::string& got) {
  throw InvalidArgument(std::string(function) + ": " + std::string(requirement) + ", got " + got);
}

/// Requires value > 0 and finite; `name` names the parameter (e.g. "rp (dB)").
inline void require_positive(std::string_view function, std::string_view name, double value) {
  if (!(value > 0) || !std::isfinite(value)) {
    reject(function, std::string(name) + " must be positive and finite", format_number(value));
  }
}

/// Requires value finite.
inline void require_finite(std::string_view function, std::string_view name, double value) {
  if (!std::isfinite(value)) {
    reject(function, std::string(name) + " must be finite", format_number(value));
  }
}

/// Requires order >= 1.
inline void require_order(std::string_view function, std::string_view name, int order) {
  if (order < 1) reject(function, std::string(name) + " must be >= 1", std::to_string(order));
}

}  // namespace ripple::iir::design
