// Files the writer never produces but numpy (old or new) does, or might: other spellings of
// the header, big-endian data, Fortran order, format versions 2.0 and 3.0.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "io/npy_test_util.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::io {
namespace {

using test::bytes_of_values;
using test::raw_npy;

template <class T>
std::vector<T> values_of(const NpyArray& array) {
  const auto v = array.values<T>();
  return {v.begin(), v.end()};
}

// The bytes of `values` with every `scalar`-byte word reversed (the other byte order).
template <class T>
std::vector<std::byte> swapped_bytes(const std::vector<T>& values, std::size_t scalar) {
  auto bytes = bytes_of_values(values);
  for (std::size_t i = 0; i < bytes.size(); i += scalar) std::reverse(&bytes[i], &bytes[i] + scalar);
  return bytes;
}

constexpr bool kLittle = std::endian::native == std::endian::little;

TEST(NpyReadVariants, HeaderSpellings) {
  const std::vector<double> values{1.0, -2.5};
  const auto data = bytes_of_values(values);
  const char* const headers[] = {
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }\n",
      "{\"descr\": \"<f8\", \"fortran_order\": False, \"shape\": (2,)}",
      "{'shape':(2,),'fortran_order':False,'descr':'<f8'}",
      "  {\t'descr' : '<f8' ,\n 'fortran_order' : False , 'shape' : ( 2 , ) , }   \n",
      "{'descr': '<f8', 'fortran_order': False, 'shape': (2L,), }",  // Python 2 numpy
      "{'descr': 'f8', 'fortran_order': False, 'shape': (2,), }",
  };
  for (const char* header : headers) {
    SCOPED_TRACE(header);
    if (!kLittle && std::string_view(header).find("<f8") != std::string_view::npos) continue;
    const auto array = parse_npy(raw_npy(header, data));
    EXPECT_EQ(array.shape, std::vector<std::size_t>{2});
    EXPECT_EQ(values_of<double>(array), values);
  }
}

TEST(NpyReadVariants, NativeOrderAliases) {
  const std::vector<float> values{3.f, 4.f, 5.f};
  for (const char* descr : {"=f4", "|f4"}) {
    const std::string header =
        std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (3,), }";
    EXPECT_EQ(values_of<float>(parse_npy(raw_npy(header, bytes_of_values(values)))), values) << descr;
  }
}

TEST(NpyReadVariants, OppositeByteOrderIsSwapped) {
  const char order = kLittle ? '>' : '<';
  const std::vector<double> reals{1.0, -0.125, 3e100};
  const std::vector<std::complex<float>> complexes{{1.f, -2.f}, {0.5f, 7.f}};
  const std::string f8 = std::string("{'descr': '") + order + "f8', 'fortran_order': False, 'shape': (3,), }";
  EXPECT_EQ(values_of<double>(parse_npy(raw_npy(f8, swapped_bytes(reals, 8)))), reals);
  const std::string c8 = std::string("{'descr': '") + order + "c8', 'fortran_order': False, 'shape': (2,), }";
  EXPECT_EQ(values_of<std::complex<float>>(parse_npy(raw_npy(c8, swapped_bytes(complexes, 4)))), complexes);
}

TEST(NpyReadVariants, FortranOrderIsTransposedToCOrder) {
  // a[i][j] = 10 i + j for shape (2, 3), stored column by column.
  const std::vector<float> fortran{0, 10, 1, 11, 2, 12};
  const auto array = parse_npy(
      raw_npy("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", bytes_of_values(fortran)));
  EXPECT_EQ(array.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(values_of<float>(array), (std::vector<float>{0, 1, 2, 10, 11, 12}));

  // Rank 3: a[i][j][k] = 100 i + 10 j + k, shape (2, 3, 4); Fortran order runs i fastest.
  std::vector<std::complex<double>> fortran3, c3;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) fortran3.emplace_back(100 * i + 10 * j + k, -k);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) c3.emplace_back(100 * i + 10 * j + k, -k);
  const auto array3 = parse_npy(
      raw_npy("{'descr': '<c16', 'fortran_order': True, 'shape': (2, 3, 4), }", bytes_of_values(fortran3)));
  EXPECT_EQ(values_of<std::complex<double>>(array3), c3);
}

TEST(NpyReadVariants, VersionsTwoAndThree) {
  const std::vector<double> values{42.0};
  for (int major : {2, 3}) {
    const auto array = parse_npy(
        raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", bytes_of_values(values), major));
    EXPECT_TRUE(array.shape.empty()) << "0-d array, version " << major;
    EXPECT_EQ(values_of<double>(array), values);
  }
}

}  // namespace
}  // namespace ripple::io
