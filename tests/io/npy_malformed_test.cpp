// Hostile and malformed .npy inputs: each must raise IoError with a message that says what is
// wrong, without reading past the buffer or allocating what the header claims.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/npy_test_util.hpp"
#include "ripple/error.hpp"
#include "ripple/io/npy.hpp"

namespace ripple::io {
namespace {

using test::bytes_of;
using test::raw_npy;
using test::zero_bytes;

std::string header_with(std::string_view descr, std::string_view fortran, std::string_view shape) {
  return "{'descr': " + std::string(descr) + ", 'fortran_order': " + std::string(fortran) +
         ", 'shape': " + std::string(shape) + ", }";
}
std::string shape_header(std::string_view shape) { return header_with("'<f8'", "False", shape); }

struct Case {
  const char* name;
  std::vector<std::byte> bytes;
  const char* message;  // a substring the error message must contain
};

std::vector<Case> cases() {
  const std::string ok = shape_header("(2,)");
  std::string dims65 = "(";
  for (int i = 0; i < 65; ++i) dims65 += "1,";
  dims65 += ")";
  std::vector<Case> c = {
      {"empty", {}, "magic"},
      {"bad magic", bytes_of("\x93NUMPX\x01\x00\x10\x00"), "magic"},
      {"text file", bytes_of("hello world, not an array"), "magic"},
      {"ends in version", bytes_of("\x93NUMPY\x01"), "version"},
      {"version 4.0", raw_npy(ok, zero_bytes(16), 4), "version 4.0"},
      {"version 1.1", raw_npy(ok, zero_bytes(16), 1, 1), "version 1.1"},
      {"version 0.0", raw_npy(ok, zero_bytes(16), 0), "version 0.0"},
      {"ends in header length", bytes_of(std::string("\x93NUMPY\x01\x00\x10", 9)), "header length"},
      {"v2 ends in header length", bytes_of(std::string("\x93NUMPY\x02\x00\x10\x00\x00", 11)),
       "header length"},
      {"header longer than file", bytes_of(std::string("\x93NUMPY\x01\x00\xff\xff{}", 12)),
       "header length 65535 exceeds"},
      {"absurd v2 header length", bytes_of(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff{}", 14)), "absurd"},
      {"empty header", raw_npy(""), "expected '{'"},
      {"header not a dict", raw_npy("['descr', '<f8']"), "not a valid dict"},
      {"unclosed dict", raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), "),
       "not a valid dict"},
      {"missing colon", raw_npy("{'descr' '<f8'}"), "':' after the key"},
      {"unquoted key", raw_npy("{descr: '<f8'}"), "quoted key"},
      {"missing descr", raw_npy("{'fortran_order': False, 'shape': (2,), }", zero_bytes(16)),
       "no 'descr' key"},
      {"missing fortran_order", raw_npy("{'descr': '<f8', 'shape': (2,), }", zero_bytes(16)),
       "no 'fortran_order' key"},
      {"missing shape", raw_npy("{'descr': '<f8', 'fortran_order': False}", zero_bytes(16)),
       "no 'shape' key"},
      {"duplicate key", raw_npy("{'descr': '<f8', 'descr': '<f8', 'fortran_order': False, 'shape': (2,)}"),
       "duplicate key 'descr'"},
      {"unexpected key", raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), 'foo': 1}"),
       "unexpected key 'foo'"},
      {"integer dtype", raw_npy(header_with("'<i4'", "False", "(2,)"), zero_bytes(8)),
       "unsupported dtype '<i4'"},
      {"float16 dtype", raw_npy(header_with("'<f2'", "False", "(2,)"), zero_bytes(4)),
       "unsupported dtype '<f2'"},
      {"garbage dtype", raw_npy(header_with("'\\x01zz'", "False", "(2,)")), "escape"},
      {"binary dtype", raw_npy(header_with("'\x01\xfe'", "False", "(2,)")), "unsupported dtype '\\x01\\xfe'"},
      {"structured dtype", raw_npy(header_with("[('a', '<f8')]", "False", "(2,)")), "structured dtype"},
      {"dtype not a string", raw_npy(header_with("8", "False", "(2,)")), "quoted dtype string"},
      {"unterminated string", raw_npy("{'descr': '<f8"), "unterminated string"},
      {"fortran_order not a bool", raw_npy(header_with("'<f8'", "'yes'", "(2,)")), "not True or False"},
      {"fortran_order lowercase", raw_npy(header_with("'<f8'", "false", "(2,)")), "not True or False"},
      {"negative dimension", raw_npy(shape_header("(-1,)")), "negative dimension"},
      {"negative dimension 2-d", raw_npy(shape_header("(3, -4)")), "negative dimension"},
      {"shape not a tuple", raw_npy(shape_header("(3)")), "not a tuple"},
      {"shape a list", raw_npy(shape_header("[3]")), "'(' opening the 'shape' tuple"},
      {"shape an int", raw_npy(shape_header("3")), "'(' opening the 'shape' tuple"},
      {"float dimension", raw_npy(shape_header("(3.5,)")), "not a non-negative integer"},
      {"string dimension", raw_npy(shape_header("('a',)")), "not a non-negative integer"},
      {"hex dimension", raw_npy(shape_header("(0x10,)")), "not a non-negative integer"},
      {"empty dimension", raw_npy(shape_header("(3,,)")), "not a non-negative integer"},
      {"unclosed shape", raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4"),
       "in the 'shape' tuple"},
      {"dimension overflows size_t", raw_npy(shape_header("(99999999999999999999999,)")),
       "too large for size_t"},
      {"element count overflows", raw_npy(shape_header("(4294967296, 4294967296)")), "too many elements"},
      {"byte count overflows", raw_npy(shape_header("(1152921504606846976,)")), "too many elements"},
      {"65 dimensions", raw_npy(shape_header(dims65)), "more than 64 dimensions"},
      {"data truncated", raw_npy(shape_header("(10,)"), zero_bytes(79)),
       "needs 80 bytes of data but only 79"},
      {"no data", raw_npy(shape_header("(10,)")), "truncated"},
      {"claims terabytes", raw_npy(shape_header("(1000000000000,)"), zero_bytes(8)),
       "needs 8000000000000 bytes"},
      {"claims terabytes, 0-d zero", raw_npy(shape_header("(0, 1000000000000)"), zero_bytes(8)),
       "trailing data"},
      {"trailing data", raw_npy(ok, zero_bytes(17)), "1 bytes of trailing data"},
      {"trailing after dict", raw_npy(ok + " xyz", zero_bytes(16)), "trailing characters"},
      {"NUL after dict", raw_npy(ok + std::string(1, '\0'), zero_bytes(16)), "trailing characters"},
      {"second dict", raw_npy(ok + ok, zero_bytes(16)), "trailing characters"},
      {"non-ASCII in header", raw_npy("{'descr': '<f8', 'fortran_order': False, 'shape': (2,), \xc3\xa9}"),
       "quoted key"},
  };
  return c;
}

TEST(NpyMalformed, EveryCaseThrowsIoErrorWithARelevantMessage) {
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    try {
      (void)parse_npy(c.bytes);
      ADD_FAILURE() << "parsed without an error";
    } catch (const IoError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind("npy: ", 0), 0u) << message;
      EXPECT_NE(message.find(c.message), std::string::npos) << "message: " << message;
      for (const char ch : message)
        EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << "unprintable byte in message: " << message;
    }
  }
}

TEST(NpyMalformed, EveryTruncationOfAValidFileIsAnIoError) {
  const auto good = encode_npy(NpyArray({3, 2}, std::vector<std::complex<float>>(6, {1.f, 2.f})));
  for (std::size_t size = 0; size < good.size(); ++size) {
    SCOPED_TRACE(size);
    EXPECT_THROW((void)parse_npy(std::span(good).first(size)), IoError);
  }
}

TEST(NpyMalformed, FilesAndStreamsReportTheSameProblemsWithContext) {
  const auto path = std::filesystem::path(::testing::TempDir()) / "ripple_truncated.npy";
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.name);
    {
      std::ofstream out(path, std::ios::binary | std::ios::trunc);
      out.write(reinterpret_cast<const char*>(c.bytes.data()), static_cast<std::streamsize>(c.bytes.size()));
    }
    try {
      (void)read_npy(path);
      ADD_FAILURE() << "read without an error";
    } catch (const IoError& e) {
      EXPECT_NE(std::string(e.what()).find("ripple_truncated.npy"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
    }
    std::stringstream stream(std::string(reinterpret_cast<const char*>(c.bytes.data()), c.bytes.size()));
    EXPECT_THROW((void)read_npy(stream), IoError);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ripple::io
