// Parsing and formatting of the .npy header dict. The parser accepts the subset of Python
// literal syntax numpy writes (and numpy's ast.literal_eval would accept for these keys):
// quoted strings without escapes, True/False, tuples of non-negative integers.
#include "io/npy_header.hpp"

#include <array>
#include <bit>
#include <limits>
#include <optional>

#include "io/npy_error.hpp"

namespace ripple::io::detail {
namespace {

// Type codes after the byte-order character, and what they mean.
struct TypeCode {
  std::string_view code;
  Dtype dtype;
};
constexpr std::array<TypeCode, 4> kTypeCodes{
    {{"f4", Dtype::f32}, {"f8", Dtype::f64}, {"c8", Dtype::c64}, {"c16", Dtype::c128}}};

constexpr char kNativeOrder = std::endian::native == std::endian::little ? '<' : '>';

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_word(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// Maps a descr string to its dtype and whether its bytes need swapping.
void decode_descr(std::string_view descr, NpyHeader& header) {
  std::string_view code = descr;
  char order = '=';
  if (!code.empty() && (code[0] == '<' || code[0] == '>' || code[0] == '|' || code[0] == '=')) {
    order = code[0];
    code.remove_prefix(1);
  }
  for (const auto& t : kTypeCodes) {
    if (code == t.code) {
      header.dtype = t.dtype;
      header.swap_bytes = (order == '<' || order == '>') && order != kNativeOrder;
      return;
    }
  }
  fail("unsupported dtype '" + printable(descr) +
       "' (supported: '<f4' float32, '<f8' float64, '<c8' complex64, '<c16' complex128, "
       "in any byte order)");
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  NpyHeader parse() {
    expect('{', "'{' opening the header dict");
    std::optional<std::string_view> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<std::size_t>> shape;
    for (;;) {
      if (consume('}')) break;
      const std::string_view key = string_literal("a quoted key or '}'");
      expect(':', "':' after the key");
      if (key == "descr") {
        if (descr) error("has a duplicate key 'descr'");
        skip_space();
        if (peek() == '[') error("has a structured dtype (a list 'descr'), which is not supported");
        descr = string_literal("a quoted dtype string for 'descr'");
      } else if (key == "fortran_order") {
        if (fortran_order) error("has a duplicate key 'fortran_order'");
        fortran_order = boolean();
      } else if (key == "shape") {
        if (shape) error("has a duplicate key 'shape'");
        shape = shape_tuple();
      } else {
        error("has an unexpected key '" + printable(key) + "'");
      }
      if (consume(',')) continue;
      expect('}', "',' or '}' after a value");
      break;
    }
    skip_space();
    if (pos_ < text_.size()) error("has trailing characters after the dict");
    if (!descr) fail("header has no 'descr' key");
    if (!fortran_order) fail("header has no 'fortran_order' key");
    if (!shape) fail("header has no 'shape' key");
    NpyHeader header;
    decode_descr(*descr, header);
    header.fortran_order = *fortran_order;
    header.shape = std::move(*shape);
    return header;
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    fail("header " + what + " (at byte " + std::to_string(pos_) + ": '" + printable(text_.substr(pos_), 24) +
         "')");
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  bool consume(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c, const char* what) {
    if (!consume(c)) error(std::string("is not a valid dict: expected ") + what);
  }

  std::string_view string_literal(const char* what) {
    skip_space();
    const char quote = peek();
    if (quote != '\'' && quote != '"') error(std::string("is not a valid dict: expected ") + what);
    const std::size_t begin = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') error("has an escape sequence in a string (not supported)");
      if (text_[pos_] == '\n') error("has a line break inside a string");
      ++pos_;
    }
    if (pos_ == text_.size()) error("has an unterminated string");
    return text_.substr(begin, pos_++ - begin);
  }

  bool boolean() {
    skip_space();
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && is_word(text_[pos_])) ++pos_;
    const std::string_view word = text_.substr(begin, pos_ - begin);
    if (word == "True") return true;
    if (word == "False") return false;
    pos_ = begin;
    error("has a 'fortran_order' that is not True or False");
  }

  std::size_t dimension() {
    skip_space();
    if (peek() == '-') error("has a negative dimension in 'shape'");
    if (!is_digit(peek())) error("has a 'shape' element that is not a non-negative integer");
    std::size_t value = 0;
    constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
    while (is_digit(peek())) {
      const auto digit = static_cast<std::size_t>(peek() - '0');
      if (value > (kMax - digit) / 10) error("has a dimension in 'shape' too large for size_t");
      value = value * 10 + digit;
      ++pos_;
    }
    if (peek() == 'L' || peek() == 'l') ++pos_;  // Python 2 long literal, as old numpy wrote
    if (is_word(peek()) || peek() == '.') error("has a 'shape' element that is not a non-negative integer");
    return value;
  }

  std::vector<std::size_t> shape_tuple() {
    expect('(', "'(' opening the 'shape' tuple");
    std::vector<std::size_t> shape;
    bool trailing_comma = false;
    for (;;) {
      if (consume(')')) break;
      if (shape.size() == kMaxDims)
        error("has more than " + std::to_string(kMaxDims) + " dimensions in 'shape'");
      shape.push_back(dimension());
      trailing_comma = consume(',');
      if (!trailing_comma) {
        expect(')', "',' or ')' in the 'shape' tuple");
        break;
      }
    }
    if (shape.size() == 1 && !trailing_comma)
      error("has a 'shape' that is a parenthesized integer, not a tuple (write (n,))");
    return shape;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

std::string_view type_code(Dtype dtype) {
  for (const auto& t : kTypeCodes)
    if (t.dtype == dtype) return t.code;
  return "?";
}

}  // namespace

NpyHeader parse_header(std::string_view text) { return Parser(text).parse(); }

std::string format_header(Dtype dtype, std::span<const std::size_t> shape, std::size_t prelude_size) {
  std::string text = "{'descr': '";
  text += kNativeOrder;
  text += type_code(dtype);
  text += "', 'fortran_order': False, 'shape': " + shape_string(shape) + ", }";
  constexpr std::size_t kAlign = 64;
  const std::size_t unpadded = prelude_size + text.size() + 1;  // + '\n'
  text.append((kAlign - unpadded % kAlign) % kAlign, ' ');
  text += '\n';
  return text;
}

}  // namespace ripple::io::detail
