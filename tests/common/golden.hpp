// Reference arrays written by a test's scipy script (see ripple_add_golden in
// tests/CMakeLists.txt): the directory comes from $RIPPLE_GOLDEN_DIR, files are .npy.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "ripple/io/npy.hpp"

namespace ripple::test {

inline std::filesystem::path golden_dir() {
  const char* dir = std::getenv("RIPPLE_GOLDEN_DIR");
  if (dir == nullptr || *dir == '\0') {
    ADD_FAILURE() << "RIPPLE_GOLDEN_DIR is not set: run this test through ctest, which generates "
                     "the scipy reference files first";
    return {};
  }
  return dir;
}

/// Reads <golden dir>/<name>.npy.
inline io::NpyArray read_golden(const std::string& name) {
  return io::read_npy(golden_dir() / (name + ".npy"));
}

/// The float64 values of <golden dir>/<name>.npy.
inline std::vector<double> golden_values(const std::string& name) {
  const io::NpyArray a = read_golden(name);
  const auto v = a.values<double>();
  return {v.begin(), v.end()};
}

/// One line of a golden script's case list: its words in order, and the key=value ones by key.
struct GoldenLine {
  std::string text;
  std::vector<std::string> words;  ///< the words without '='
  std::map<std::string, std::string> keys;
};

/// The lines of <golden dir>/<file> (a case list the script wrote).
inline std::vector<GoldenLine> golden_lines(const std::string& file) {
  std::vector<GoldenLine> lines;
  std::ifstream in(golden_dir() / file);
  for (std::string text; std::getline(in, text);) {
    if (text.empty()) continue;
    GoldenLine line{text, {}, {}};
    std::istringstream words(text);
    for (std::string w; words >> w;) {
      const auto eq = w.find('=');
      if (eq == std::string::npos) {
        line.words.push_back(w);
      } else {
        line.keys[w.substr(0, eq)] = w.substr(eq + 1);
      }
    }
    lines.push_back(std::move(line));
  }
  if (lines.empty()) ADD_FAILURE() << "no cases in " << (golden_dir() / file);
  return lines;
}

/// A case list's size-or-None value ("none": scipy's default).
inline std::optional<std::size_t> optional_size(const std::string& v) {
  if (v == "none") return std::nullopt;
  return std::stoul(v);
}

}  // namespace ripple::test
