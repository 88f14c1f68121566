// Command-line helpers shared by the benchmark programs.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace ripple_bench {

/// The non-empty items of a `sep`-separated list ("1,2,,4" -> {"1", "2", "4"}).
inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace ripple_bench
