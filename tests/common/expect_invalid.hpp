// The "throws ripple::InvalidArgument (or Unsupported) whose message names ..." assertions shared
// by the tests.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>

#include "ripple/error.hpp"

namespace ripple::test {

/// Asserts that f throws E whose message contains every word.
template <class E, class F>
void expect_error(F&& f, std::initializer_list<std::string_view> words) {
  try {
    f();
    ADD_FAILURE() << "no exception thrown";
  } catch (const E& e) {
    const std::string what = e.what();
    for (std::string_view w : words) {
      EXPECT_NE(what.find(w), std::string::npos) << "message \"" << what << "\" does not name \"" << w << "\"";
    }
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

/// Asserts that f throws InvalidArgument whose message contains every word.
template <class F>
void expect_invalid(F&& f, std::initializer_list<std::string_view> words) {
  expect_error<InvalidArgument>(std::forward<F>(f), words);
}

template <class F>
void expect_invalid(F&& f, std::string_view word) {
  expect_invalid(std::forward<F>(f), {word});
}

/// Asserts that f throws Unsupported whose message contains every word.
template <class F>
void expect_unsupported(F&& f, std::initializer_list<std::string_view> words) {
  expect_error<Unsupported>(std::forward<F>(f), words);
}

}  // namespace ripple::test
