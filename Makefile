# The two commands that do everything on a fresh Debian 12 machine:
#   make demo   installs what is missing, builds (Release) and runs the main job
#   make test   installs, builds, runs every test (plus the unit tests once under ASan+UBSan)
# and `make bench` for the benchmarks.
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc)
CMAKE_GEN  := -G Ninja
RIPPLE     := $(BUILD)/tools/ripple/ripple

.PHONY: all deps build demo test test-release test-asan test-install bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(RIPPLE) demo

test: test-release test-install test-asan

test-release: build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

# The unit tests once more under AddressSanitizer + UndefinedBehaviorSanitizer (no CLI, no bench).
# -O1 -g1 (line tables only) is the usual sanitizer setting and compiles in about half the time
# of -O2 -g, which keeps the whole `make test` of a fresh clone within CI's budget.
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIPPLE_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DRIPPLE_BUILD_BENCH=OFF -DRIPPLE_BUILD_CLI=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) -j $(JOBS) --output-on-failure -L unit

# Installs into a scratch prefix and builds a tiny consumer with find_package(ripple).
test-install: build
	tests/install/run.sh $(BUILD)

# The benchmarks are not part of `all` (so `make test` does not compile them).
bench: build
	cmake --build $(BUILD) -j $(JOBS) --target bench_fft bench_iir
	bench/run.sh $(BUILD)
	bench/iir_run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
