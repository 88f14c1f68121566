// Reference arrays written by a test's scipy script (see ripple_add_golden in
// tests/CMakeLists.txt): the directory comes from $RIPPLE_GOLDEN_DIR, files are .npy.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
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

}  // namespace ripple::test
