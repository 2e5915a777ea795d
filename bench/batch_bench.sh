#!/usr/bin/env bash
# batch_bench: the turntable of every sample model (VIEWS views each, SIZExSIZE), rendered once
# as one cold kiln-render process per image and once as one kiln-render --batch over a manifest
# of the same images; prints images per second for both. Both draw the same cameras: each
# model's framing (printed by an untimed kiln-render run) turned about the vertical through its
# centre. Not a test: the figures go in docs/PERFORMANCE.md.
#   bench/batch_bench.sh [VIEWS] [SIZE]
#   defaults: 8 views at 256x256 of every .glb/.gltf under $KILN_ASSETS/gltf; KILN_RENDER names
#   the binary (default build/bin/kiln-render).
set -euo pipefail
assets=${KILN_ASSETS:-$(dirname "$0")/../../shared/assets}
views=${1:-8}
size=${2:-256}
render=${KILN_RENDER:-build/bin/kiln-render}
[ -x "$render" ] || { echo "batch_bench: no $render (set KILN_RENDER)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
models=$(find "$assets/gltf" -name '*.glb' -o -name '*.gltf' | sort)
[ -n "$models" ] || { echo "batch_bench: no models under $assets/gltf" >&2; exit 2; }

# The cameras: "MODEL LOOK_FROM LOOK_AT FOV_Y" per image, from each model's framing.
: >"$out/cameras"
for model in $models; do
    framing=$("$render" "$model" -o "$out/framing.png" --size "${size}x${size}" 2>&1 | sed -n 's/^kiln-render: framing: //p')
    [ -n "$framing" ] || { echo "batch_bench: skipping $model (no framing)" >&2; continue; }
    # shellcheck disable=SC2086
    set -- $framing
    awk -v model="$model" -v from="$2" -v at="$4" -v fov="$6" -v views="$views" 'BEGIN {
        split(from, e, ","); split(at, c, ",");
        dx = e[1] - c[1]; dz = e[3] - c[3];
        for (k = 0; k < views; k++) {
            a = 2 * 3.14159265358979 * k / views;
            x = c[1] + dx * cos(a) + dz * sin(a); z = c[3] - dx * sin(a) + dz * cos(a);
            printf "%s %.9g,%.9g,%.9g %s %s\n", model, x, e[2], z, at, fov;
        }
    }' >>"$out/cameras"
done
images=$(wc -l <"$out/cameras")

# Cold: one process per image.
mkdir -p "$out/cold"
start=$(date +%s.%N)
n=0
while read -r model from at fov; do
    "$render" "$model" -o "$out/cold/$n.png" --size "${size}x${size}" --look-from "$from" --look-at "$at" --fov-y "$fov" \
        2>"$out/cold.log" || { echo "batch_bench: cold render of $model failed:" >&2; cat "$out/cold.log" >&2; exit 1; }
    n=$((n + 1))
done <"$out/cameras"
cold_s=$(echo "$(date +%s.%N) - $start" | bc -l)

# Batch: one process for all of them.
n=0
while read -r model from at fov; do
    printf '{"model": "%s", "out": "batch/%d.png", "size": [%d, %d], "camera": {"look_from": [%s], "look_at": [%s], "fov_y": %s}}\n' \
        "$model" "$n" "$size" "$size" "$from" "$at" "$fov"
    n=$((n + 1))
done <"$out/cameras" >"$out/manifest.jsonl"
start=$(date +%s.%N)
"$render" --batch "$out/manifest.jsonl" 2>"$out/batch.log" || { echo "batch_bench: --batch failed:" >&2; cat "$out/batch.log" >&2; exit 1; }
batch_s=$(echo "$(date +%s.%N) - $start" | bc -l)

# The same images either way.
same=0
for f in "$out"/cold/*.png; do cmp -s "$f" "$out/batch/$(basename "$f")" && same=$((same + 1)); done

printf '{"bench": "batch", "models": %d, "views": %d, "size": "%dx%d", "images": %d, "cold_s": %.2f, "cold_images_per_s": %.2f, "batch_s": %.2f, "batch_images_per_s": %.2f, "speedup": %.1f, "identical_images": %d, "load_average": "%s"}\n' \
    "$(echo "$models" | wc -l)" "$views" "$size" "$size" "$images" "$cold_s" "$(echo "$images / $cold_s" | bc -l)" \
    "$batch_s" "$(echo "$images / $batch_s" | bc -l)" "$(echo "$cold_s / $batch_s" | bc -l)" "$same" "$(cut -d' ' -f1-3 /proc/loadavg)"
