# Front door: `make demo` and `make test` work on a fresh Debian 12 machine (they run bootstrap).
BUILD ?= build
BUILD_ASAN ?= build-asan
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all bootstrap build build-asan demo test test-asan docs install clean

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

demo: build
	@mkdir -p out
	$(BUILD)/bin/kiln-render --demo -o out/demo.png --size 1280x720
	@rm -f out/watercolour.png
	$(BUILD)/bin/kiln-run examples/programs/watercolour.json --out out
	@test -s out/watercolour.png || { echo "demo: kiln-run wrote no out/watercolour.png" >&2; exit 1; }

# Every test in the normal build, then the unit and gfx tests again under ASan + UBSan.
test: build build-asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --output-on-failure -L 'unit|gfx|render|program' -j $(JOBS)

# The API reference, from the public headers: $(BUILD)/docs/html/index.html.
docs: build
	cmake --build $(BUILD) --target docs

# make install PREFIX=/some/prefix: headers, libraries, tools, Dawn, CMake and pkg-config files.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) out
