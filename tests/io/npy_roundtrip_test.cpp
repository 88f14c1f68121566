// npy round trips: every dtype and a range of shapes through memory, files and streams, in
// format versions 1.0 and 2.0.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "io/npy_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::io {
namespace {

using test::pattern;

template <class T>
class NpyRoundTrip : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(NpyRoundTrip, ElementTypes);

const std::vector<std::vector<std::size_t>> kShapes = {
    {}, {0}, {1}, {7}, {3, 4}, {2, 3, 5}, {0, 3}, {4, 0, 2}, {2, 1, 1, 4}, {1, 1, 1, 1, 1, 1, 1, 3}};

template <class T>
void expect_same(const NpyArray& got, const std::vector<std::size_t>& shape, const std::vector<T>& values) {
  EXPECT_EQ(got.shape, shape);
  ASSERT_EQ(got.dtype(), dtype_of<T>);
  const auto held = got.values<T>();
  EXPECT_EQ(std::vector<T>(held.begin(), held.end()), values);
}

TYPED_TEST(NpyRoundTrip, ThroughMemoryInBothVersions) {
  using T = TypeParam;
  for (const auto& shape : kShapes) {
    SCOPED_TRACE("shape " + shape_string(shape));
    const auto values = pattern<T>(element_count(shape));
    const NpyArray array(shape, values);
    for (const NpyVersion version : {NpyVersion::v1, NpyVersion::v2}) {
      const auto bytes = encode_npy(array, version);
      ASSERT_GT(bytes.size(), 8u);
      EXPECT_EQ(std::to_integer<int>(bytes[6]), static_cast<int>(version));
      const std::size_t preamble = bytes.size() - values.size() * sizeof(T);
      EXPECT_EQ(preamble % 64, 0u) << "data must start 64-byte aligned, as numpy writes it";
      expect_same(parse_npy(bytes), shape, values);
    }
  }
}

TYPED_TEST(NpyRoundTrip, ThroughFilesAndStreams) {
  using T = TypeParam;
  const auto path = std::filesystem::path(::testing::TempDir()) /
                    ("ripple_npy_roundtrip_" + std::string(dtype_name(dtype_of<T>)) + ".npy");
  for (const auto& shape : kShapes) {
    SCOPED_TRACE("shape " + shape_string(shape));
    const auto values = pattern<T>(element_count(shape));
    write_npy(path, NpyArray(shape, values));
    expect_same(read_npy(path), shape, values);

    std::stringstream stream;
    write_npy(stream, NpyArray(shape, values), NpyVersion::v2);
    expect_same(read_npy(stream), shape, values);
  }
  std::filesystem::remove(path);
}

TEST(NpyWrite, HeaderIsByteForByteWhatNumpyWrites) {
  // numpy.save("x.npy", numpy.arange(3.0)) starts with exactly these 128 bytes.
  std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                         "{'descr': '<f8', 'fortran_order': False, 'shape': (3,), }";
  expected.append(128 - 1 - expected.size(), ' ');
  expected += '\n';
  const auto bytes = encode_npy(NpyArray({3}, std::vector<double>{0, 1, 2}));
  ASSERT_EQ(bytes.size(), 128u + 24u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(bytes.data()), 128), expected);
}

TEST(NpyWrite, VersionTwoHasAFourByteLength) {
  const auto bytes = encode_npy(NpyArray({2, 2}, pattern<std::complex<float>>(4)), NpyVersion::v2);
  const std::string head(reinterpret_cast<const char*>(bytes.data()), 13);
  EXPECT_EQ(head.substr(0, 8), std::string("\x93NUMPY\x02\x00", 8));
  const std::size_t length = std::to_integer<std::size_t>(bytes[8]) | std::to_integer<std::size_t>(bytes[9])
                                                                          << 8;
  EXPECT_EQ(12 + length + 4 * 8, bytes.size());
  EXPECT_EQ(bytes[10], std::byte{0});
  EXPECT_EQ(bytes[11], std::byte{0});
  EXPECT_EQ(head[12], '{');
}

TEST(NpyArrayType, AccessorsCheckTheElementType) {
  NpyArray array({2}, std::vector<float>{1.5f, -2.f});
  EXPECT_EQ(array.dtype(), Dtype::f32);
  EXPECT_EQ(array.size(), 2u);
  array.values<float>()[1] = 4.f;
  EXPECT_EQ(array.values<float>()[1], 4.f);
  EXPECT_THROW((void)array.values<double>(), InvalidArgument);
  EXPECT_THROW((void)std::as_const(array).values<std::complex<float>>(), InvalidArgument);
}

TEST(NpyArrayType, ConstructorAndWritersCheckTheElementCount) {
  EXPECT_THROW(NpyArray({2, 3}, std::vector<double>(5)), InvalidArgument);
  NpyArray array({2, 3}, std::vector<double>(6));
  array.shape = {7};  // broken by hand: the writers must refuse it
  EXPECT_THROW((void)encode_npy(array), InvalidArgument);
  std::stringstream stream;
  EXPECT_THROW(write_npy(stream, array), InvalidArgument);
}

TEST(NpyShapes, CountAndText) {
  EXPECT_EQ(element_count(std::vector<std::size_t>{}), 1u);
  EXPECT_EQ(element_count(std::vector<std::size_t>{3, 0, 5}), 0u);
  EXPECT_EQ(element_count(std::vector<std::size_t>{3, 4, 5}), 60u);
  EXPECT_THROW((void)element_count(std::vector<std::size_t>{std::size_t{1} << 32, std::size_t{1} << 32}),
               InvalidArgument);
  EXPECT_EQ(shape_string(std::vector<std::size_t>{}), "()");
  EXPECT_EQ(shape_string(std::vector<std::size_t>{5}), "(5,)");
  EXPECT_EQ(shape_string(std::vector<std::size_t>{2, 3}), "(2, 3)");
  EXPECT_EQ(dtype_size(Dtype::c128), 16u);
  EXPECT_STREQ(dtype_name(Dtype::c64), "complex64");
}

TEST(NpyFiles, MissingFileAndDirectoryAreIoErrors) {
  const auto missing = std::filesystem::path(::testing::TempDir()) / "ripple_no_such_file.npy";
  try {
    (void)read_npy(missing);
    FAIL() << "no exception";
  } catch (const IoError& e) {
    EXPECT_NE(std::string(e.what()).find("ripple_no_such_file.npy"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_npy(std::filesystem::path(::testing::TempDir())), IoError);
  EXPECT_THROW(write_npy(missing / "sub" / "x.npy", NpyArray({1}, std::vector<float>{1})), IoError);
}

}  // namespace
}  // namespace ripple::io
