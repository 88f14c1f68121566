// Run-time budget of the tests: under AddressSanitizer, or with RIPPLE_TEST_QUICK=1, the
// slowest sizes are skipped or shortened.
#pragma once

#include <cstdlib>
#include <string_view>

namespace ripple::test {

inline bool quick_mode() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#endif
#endif
  const char* env = std::getenv("RIPPLE_TEST_QUICK");
  return env != nullptr && std::string_view(env) == "1";
}

}  // namespace ripple::test
