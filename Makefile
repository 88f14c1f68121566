# The two commands that do everything on a fresh Debian 12 machine:
#   make demo   installs what is missing, builds (Release) and runs the main job
#   make test   installs, builds, runs every test (plus the unit tests once under ASan+UBSan)
# and `make bench` for the benchmarks.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
# Seconds each file-reader fuzzer runs: briefly in `make test`, longer in `make fuzz`.
FUZZ_SECONDS ?= 5
JOBS       ?= $(shell nproc)
CMAKE_GEN  := -G Ninja
# Unity builds (batches of 8 sources per compile; the Highway kernel files, which have their own
# flags, stay apart): the Release build of a fresh clone takes about 550 s of CPU instead of 770.
# Names local to a source file must therefore not clash with those of its neighbours.
UNITY      := -DCMAKE_UNITY_BUILD=ON
RIPPLE     := $(BUILD)/tools/ripple/ripple

.PHONY: all deps build demo test test-release test-asan test-install test-fuzz fuzz bench clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD) $(CMAKE_GEN) $(UNITY) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(RIPPLE) demo radio --out demo-out --force
	$(RIPPLE) demo

test: test-release test-install test-asan test-fuzz

test-release: build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure

# The unit tests once more under AddressSanitizer + UndefinedBehaviorSanitizer (no CLI, no bench).
# intercept_tls_get_addr=0: GCC 12's sanitizer runtime can take a dlopen'd library's dynamic TLS
# block (libnvrtc's) for a pre-2.25 glibc one and read a bogus range from it, and the leak
# checker then dies at exit ("Tracer caught signal 11", google/sanitizers#1322); it struck
# the NVRTC tests in some builds and not others, by the blocks' addresses.
# -O1 -g1 (line tables only) is the usual sanitizer setting and compiles in about half the time
# of -O2 -g, which keeps the whole `make test` of a fresh clone within CI's budget. The scipy
# goldens come from the Release build's cache (generated once, ~20 s of CPU).
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) $(CMAKE_GEN) $(UNITY) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIPPLE_SANITIZE=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DRIPPLE_BUILD_BENCH=OFF -DRIPPLE_BUILD_CLI=OFF \
	  -DRIPPLE_GOLDEN_CACHE=$(CURDIR)/$(BUILD)/golden-cache
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	ASAN_OPTIONS=detect_leaks=1:intercept_tls_get_addr=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --test-dir $(ASAN_BUILD) -j $(JOBS) --output-on-failure -L unit

# libFuzzer on the file readers (npy; SigMF JSON, sound files via libsndfile, raw, streaming npy):
# built with clang (only the fuzzers and the io sources), each run FUZZ_SECONDS on a corpus kept
# in the build directory, side by side (each libFuzzer run is one thread). Crash-free is the
# pass condition.
FUZZERS := fuzz_npy fuzz_samples
test-fuzz: deps
	mkdir -p $(FUZZ_BUILD)
	cmake -S . -B $(FUZZ_BUILD) $(CMAKE_GEN) -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DRIPPLE_FUZZ=ON -DRIPPLE_BUILD_BENCH=OFF -DRIPPLE_BUILD_CLI=OFF > $(FUZZ_BUILD)/configure.log
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target $(FUZZERS)
	@set --; for f in $(FUZZERS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$f; \
	  $(FUZZ_BUILD)/tests/io/$$f -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=1024 -dict=tests/io/$$f.dict \
	    $(FUZZ_BUILD)/corpus/$$f > $(FUZZ_BUILD)/$$f.log 2>&1 & set -- "$$@" "$$f:$$!"; \
	done; failed=0; for run in "$$@"; do \
	  f=$${run%%:*}; \
	  if wait $${run##*:}; then \
	    echo "$$f: $$(grep -o 'Done [0-9]* runs in [0-9]* second' $(FUZZ_BUILD)/$$f.log), no crash"; \
	  else \
	    tail -n 40 $(FUZZ_BUILD)/$$f.log; echo "$$f: failed (log: $(FUZZ_BUILD)/$$f.log)"; failed=1; \
	  fi; \
	done; exit $$failed

fuzz: FUZZ_SECONDS = 300
fuzz: test-fuzz

# Installs into a scratch prefix and builds a tiny consumer with find_package(ripple).
test-install: build
	tests/install/run.sh $(BUILD)

# The benchmarks are not part of `all` (so `make test` does not compile them).
bench: build
	cmake --build $(BUILD) -j $(JOBS) --target bench_fft bench_iir bench_multirate
	bench/run.sh $(BUILD)
	bench/iir_run.sh $(BUILD)
	bench/multirate_run.sh $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
