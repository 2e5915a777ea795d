#!/usr/bin/env bash
# Installs everything kiln needs on Debian 12 (bookworm) x86-64, idempotently:
#   - apt packages (build tools, libraries, Xvfb, Doxygen for the API reference, and clang with
#     its compiler runtime, which holds libFuzzer, for the fuzz targets of tests/fuzz);
#   - Mesa's lavapipe >= 25 from bookworm-backports (Dawn refuses the Mesa 22 that bookworm ships);
#   - Dawn, as libwebgpu_wrapper.so from the npm package bun-webgpu-linux-x64@0.1.7, into .deps/,
#     after checking the tarball against the sha512 integrity pinned below;
#   - optionally, Slurm and munge for the Slurm test of kiln-render --batch, which skips without
#     them: a failure to install them is a warning, not an error.
# A second run finds everything in place and returns at once without touching apt or npm.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEPS="$ROOT/.deps"
DAWN_PACKAGE="bun-webgpu-linux-x64@0.1.7"
DAWN_TARBALL="bun-webgpu-linux-x64-0.1.7.tgz"
# From the npm registry's dist.integrity for that version; a different tarball is refused.
DAWN_INTEGRITY="sha512-UEP7UZdEhx9otvkZczjsszL8ZVlrODANQvgl+C88/bNVmxDoFi7w1fWzGi1sZyakiETjmtFDq2/xCLhbSZxjqw=="
MESA_MIN_MAJOR=25

APT_PACKAGES="cmake ninja-build gcc make pkg-config openssl libvulkan1 mesa-vulkan-drivers \
libstb-dev libmeshoptimizer-dev libjansson-dev libglfw3-dev libimgui-dev xvfb xauth doxygen clang libclang-rt-dev"
# tests/tools/test_kiln_render_batch_slurm.sh starts its own single-node cluster from these.
OPTIONAL_APT_PACKAGES="slurm-wlm munge"

say()  { printf 'bootstrap: %s\n' "$*"; }
fail() { printf 'bootstrap: error: %s\n' "$*" >&2; exit 1; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "not root and no sudo: run as root to install packages"
    SUDO="sudo"
fi

[ "$(uname -m)" = "x86_64" ] || fail "kiln needs x86-64 (Dawn ships for linux-x64 only); this is $(uname -m)"

installed_version() { dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null | awk '$3=="installed"{print $4}'; }
major_of() { printf '%s' "$1" | sed -E 's/^([0-9]+:)?([0-9]+).*/\2/'; }

missing_packages() {
    local p missing=""
    for p in ${1:-$APT_PACKAGES}; do
        [ -n "$(installed_version "$p")" ] || missing="$missing $p"
    done
    printf '%s' "$missing"
}

mesa_ok() {
    local v; v=$(installed_version mesa-vulkan-drivers)
    [ -n "$v" ] && [ "$(major_of "$v")" -ge "$MESA_MIN_MAJOR" ]
}

dawn_ok() { [ -f "$DEPS/libwebgpu_wrapper.so" ] && [ -f "$DEPS/.integrity" ] && [ "$(cat "$DEPS/.integrity")" = "$DAWN_INTEGRITY" ]; }

if [ -z "$(missing_packages)" ] && [ -z "$(missing_packages "$OPTIONAL_APT_PACKAGES")" ] && mesa_ok && dawn_ok; then
    say "everything is installed (nothing to do)"
    exit 0
fi

# --- apt ------------------------------------------------------------------------------------------
# The URI of the system's own bookworm entry, so backports comes from the same mirror.
bookworm_uri() {
    local uri=""
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        uri=$(awk '/^URIs:/{u=$2} /^Suites:/ && / bookworm( |$)/{print u; exit}' /etc/apt/sources.list.d/debian.sources)
    fi
    if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
        uri=$(awk '$1=="deb" && $3=="bookworm"{print $2; exit}' /etc/apt/sources.list)
    fi
    printf '%s' "${uri:-http://deb.debian.org/debian}"
}

has_backports() { grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; }

codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
apt_updated=0
apt_update() { [ "$apt_updated" -eq 1 ] || { say "apt-get update"; $SUDO apt-get update -qq || fail "apt-get update failed"; apt_updated=1; }; }

# Bookworm's own Mesa is 22; lavapipe >= 25 comes from bookworm-backports. Later releases ship it.
if ! mesa_ok && [ "$codename" = "bookworm" ] && ! has_backports; then
    uri=$(bookworm_uri)
    say "adding bookworm-backports from $uri"
    printf 'Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' "$uri" \
        | $SUDO tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
fi

missing=$(missing_packages)
if [ "$codename" = "bookworm" ]; then
    # Installed below from backports; taking bookworm's Mesa 22 first would only be replaced.
    missing=$(printf '%s' "$missing" | sed -E 's/ (mesa-vulkan-drivers|libvulkan1)//g')
fi
if [ -n "$missing" ]; then
    apt_update
    say "installing:$missing"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing \
        || fail "apt-get install failed for:$missing"
fi

if ! mesa_ok && [ "$codename" = "bookworm" ]; then
    apt_update
    say "installing mesa-vulkan-drivers from bookworm-backports (lavapipe >= $MESA_MIN_MAJOR)"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        -t bookworm-backports mesa-vulkan-drivers libvulkan1 \
        || fail "could not install mesa-vulkan-drivers from bookworm-backports"
fi
mesa_ok || fail "mesa-vulkan-drivers $(installed_version mesa-vulkan-drivers) is older than $MESA_MIN_MAJOR; Dawn refuses it"
say "mesa-vulkan-drivers $(installed_version mesa-vulkan-drivers)"

optional=$(missing_packages "$OPTIONAL_APT_PACKAGES")
if [ -n "$optional" ]; then
    say "installing (optional, for the Slurm test):$optional"
    # Not apt_update: an offline mirror must not fail the bootstrap for an optional package.
    { [ "$apt_updated" -eq 1 ] || $SUDO apt-get update -qq; } &&
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $optional ||
        say "warning: could not install$optional; test_kiln_render_batch_slurm will skip"
fi

# --- Dawn from npm --------------------------------------------------------------------------------
if ! dawn_ok; then
    if ! command -v npm >/dev/null 2>&1; then
        apt_update
        say "installing npm"
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends npm || fail "could not install npm"
    fi
    mkdir -p "$DEPS"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    say "fetching $DAWN_PACKAGE"
    (cd "$tmp" && npm pack --silent "$DAWN_PACKAGE" >/dev/null) || fail "npm pack $DAWN_PACKAGE failed"
    [ -f "$tmp/$DAWN_TARBALL" ] || fail "npm pack did not produce $DAWN_TARBALL"
    actual="sha512-$(openssl dgst -sha512 -binary "$tmp/$DAWN_TARBALL" | base64 -w0)"
    [ "$actual" = "$DAWN_INTEGRITY" ] || fail "integrity mismatch for $DAWN_TARBALL: expected $DAWN_INTEGRITY, got $actual"
    tar -xzf "$tmp/$DAWN_TARBALL" -C "$tmp"
    so=$(find "$tmp/package" -name libwebgpu_wrapper.so | head -n 1)
    [ -n "$so" ] || fail "libwebgpu_wrapper.so not found in $DAWN_TARBALL"
    cp "$so" "$DEPS/libwebgpu_wrapper.so"
    printf '%s' "$DAWN_INTEGRITY" > "$DEPS/.integrity"
    say "installed $DEPS/libwebgpu_wrapper.so ($DAWN_PACKAGE, integrity checked)"
fi
say "done"
