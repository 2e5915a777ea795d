#!/usr/bin/env bash
# Installs kiln into a fresh prefix, builds examples/consumer against it with find_package (shared
# and static) and with its pkg-config Makefile, and checks each one's PNG is byte-identical to
# the installed `kiln-render --demo` at the same size (kiln's PNG encoder is deterministic, so equal
# pixels give equal files).
#   test_install_consumer.sh SOURCE_DIR BUILD_DIR SCRATCH_DIR
set -euo pipefail
src=$1 build=$2 tmp=$3/install
fail() { printf 'test_install_consumer: %s\n' "$*" >&2; exit 1; }

rm -rf "$tmp" && mkdir -p "$tmp"
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" || fail "cmake --install failed (see $tmp/install.log)"

cmake -S "$src/examples/consumer" -B "$tmp/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$tmp/cmake.log" 2>&1 || fail "consumer configure failed: $(tail -n 20 "$tmp/cmake.log")"
cmake --build "$tmp/cmake" >>"$tmp/cmake.log" 2>&1 || fail "consumer build (find_package) failed: $(tail -n 20 "$tmp/cmake.log")"
mkdir -p "$tmp/make"
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" make -s -C "$src/examples/consumer" BUILD="$tmp/make" \
    CFLAGS="-O2 -Wall -Wextra -Werror" >"$tmp/make.log" 2>&1 || fail "consumer build (pkg-config) failed: $(tail -n 20 "$tmp/make.log")"

cd "$tmp"
"$prefix/bin/kiln-render" --demo -o reference.png --size 160x90 2>/dev/null || fail "installed kiln-render --demo failed"
for program in cmake/consumer cmake/consumer_static make/consumer; do
    out=$(echo "$program" | tr / _).png
    "./$program" "$out" 160 90 >/dev/null || fail "$program exited $?"
    cmp -s reference.png "$out" || fail "$program: $out differs from kiln-render --demo --size 160x90"
done
# The shared builds run on the installed libkiln.so, not on anything in the build tree.
for program in cmake/consumer make/consumer; do
    lib=$(ldd "$program" | awk '$1 ~ /^libkiln\.so/ {print $3}')
    case "$lib" in "$prefix"/*) ;; *) fail "$program loads libkiln from '$lib', not from $prefix" ;; esac
done
echo "test_install_consumer: 3 consumers match kiln-render --demo"
