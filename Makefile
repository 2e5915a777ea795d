# Front door: `make demo` and `make test` work on a fresh Debian 12 machine (they run bootstrap).
BUILD ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= build-fuzz
# make fuzz: seconds per fuzz target (two run at a time).
FUZZ_SECONDS ?= 600
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all bootstrap build build-asan build-fuzz demo test test-asan fuzz docs install clean

all: build

bootstrap:
	@bash scripts/bootstrap.sh

$(BUILD)/build.ninja: | bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: bootstrap $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

$(BUILD_ASAN)/build.ninja: | bootstrap
	cmake -S . -B $(BUILD_ASAN) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DKILN_SANITIZE=ON $(CMAKE_FLAGS)

build-asan: bootstrap $(BUILD_ASAN)/build.ninja
	cmake --build $(BUILD_ASAN) -j $(JOBS)

# The libFuzzer targets (tests/fuzz), built by clang with ASan and UBSan; nothing else is built there.
$(BUILD_FUZZ)/build.ninja: | bootstrap
	CC=clang cmake -S . -B $(BUILD_FUZZ) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKILN_FUZZ=ON $(CMAKE_FLAGS)

build-fuzz: bootstrap $(BUILD_FUZZ)/build.ninja
	cmake --build $(BUILD_FUZZ) -j $(JOBS)

demo: build
	@mkdir -p out
	$(BUILD)/bin/kiln-render --demo -o out/demo.png --size 1280x720
	@rm -f out/watercolour.png
	$(BUILD)/bin/kiln-run examples/programs/watercolour.json --out out
	@test -s out/watercolour.png || { echo "demo: kiln-run wrote no out/watercolour.png" >&2; exit 1; }

# Every test in the normal build, then the unit and gfx tests again under ASan + UBSan, then a
# short smoke of each fuzz target on its corpus and regressions (docs/RELIABILITY.md).
test: build build-asan build-fuzz
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -L 'unit|gfx|render|program' -j $(JOBS)
	cd $(BUILD_FUZZ) && ctest --output-on-failure -L fuzz -j $(JOBS)

# Each fuzz target for FUZZ_SECONDS, two at a time; what they find stays in
# $(BUILD_FUZZ)/fuzz-work/<target>/ (make fuzz FUZZ_SECONDS=3600).
fuzz: build-fuzz
	cmake -DKILN_FUZZ_SECONDS=$(FUZZ_SECONDS) $(BUILD_FUZZ) >/dev/null
	cmake --build $(BUILD_FUZZ) --target fuzz_long

# The API reference, from the public headers: $(BUILD)/docs/html/index.html.
docs: build
	cmake --build $(BUILD) --target docs

# make install PREFIX=/some/prefix: headers, libraries, tools, Dawn, CMake and pkg-config files.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) out
