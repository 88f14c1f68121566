# Third-party packages ripple builds against. Every one comes from Debian packages installed by
# scripts/install-deps.sh, so a fresh machine needs nothing else.
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
# Highway (Debian libhwy-dev) ships a CMake package; fall back to pkg-config.
find_package(hwy CONFIG QUIET)
if(NOT TARGET hwy::hwy)
  pkg_check_modules(HWY REQUIRED IMPORTED_TARGET libhwy)
  add_library(hwy::hwy ALIAS PkgConfig::HWY)
endif()
