#!/usr/bin/env bash
# Builds the Debian package with CPack, checks its control fields and contents, then extracts it
# and runs its kiln-render --demo from the extracted tree alone: a clean environment, a working
# directory outside the source and build trees, and rpaths that must be relative ($ORIGIN).
#   test_deb_package.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1 tmp=$2/deb
fail() { printf 'test_deb_package: %s\n' "$*" >&2; exit 1; }

rm -rf "$tmp" && mkdir -p "$tmp"
(cd "$build" && cpack -G DEB -B "$tmp" >"$tmp/cpack.log" 2>&1) || fail "cpack failed: $(tail -n 20 "$tmp/cpack.log")"
debs=("$tmp"/kiln_*_amd64.deb)
[ -f "${debs[0]}" ] || fail "cpack wrote no kiln_*_amd64.deb"
deb=${debs[0]}

depends=$(dpkg-deb -f "$deb" Depends)
for package in libc6 libjansson4 libstb0 libmeshoptimizer2d libvulkan1 libstdc++6; do
    [[ ", $depends," == *", $package,"* ]] || fail "Depends '$depends' lacks $package"
done
[ "$(dpkg-deb -f "$deb" Recommends)" = mesa-vulkan-drivers ] || fail "Recommends is not mesa-vulkan-drivers"

dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./||' >"$tmp/contents"
for path in usr/bin/kiln-render usr/bin/kiln-run usr/lib/libkiln.a usr/lib/libkiln.so usr/lib/libkiln.so.0.1 \
    usr/lib/kiln/libwebgpu_wrapper.so usr/lib/pkgconfig/kiln.pc usr/lib/cmake/kiln/kilnConfig.cmake \
    usr/lib/cmake/kiln/kilnConfigVersion.cmake usr/lib/cmake/kiln/kilnTargets.cmake usr/include/kiln/render.h \
    usr/include/kiln/webgpu.h usr/include/kiln/version.h usr/share/kiln/shaders/forward.wgsl; do
    grep -qx "$path" "$tmp/contents" || fail "the package lacks /$path"
done
! grep -q '^usr/include/kiln/.*\.c$' "$tmp/contents" || fail "the package ships C sources under include/"

# Extracted and run outside the source and build trees.
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root/tree"
for elf in usr/bin/kiln-render usr/bin/kiln-run usr/lib/libkiln.so.0.1; do
    runpath=$(readelf -d "$root/tree/$elf" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
    [[ "$runpath" == '$ORIGIN'* && "$runpath" != *:* ]] || fail "/$elf has RUNPATH '$runpath', not one \$ORIGIN-relative path"
done
cd "$root"
env -i PATH=/usr/bin:/bin HOME="$root" "$root/tree/usr/bin/kiln-render" --demo -o demo.png --size 64x64 2>render.log \
    || fail "extracted kiln-render --demo failed: $(cat render.log)"
[ -s demo.png ] || fail "extracted kiln-render wrote no PNG"
echo "test_deb_package: $(basename "$deb") ($depends) runs from an extracted tree"
