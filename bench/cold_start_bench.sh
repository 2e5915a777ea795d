#!/usr/bin/env bash
# cold_start_bench: the whole kiln-render process for one model, start to written PNG, as a user
# runs it (device creation, pipeline builds, the model's load and upload, the environment bake,
# one frame, the readback, the PNG), repeated and summarised. Not a test: the figures go in
# docs/PERFORMANCE.md.
#   bench/cold_start_bench.sh [RUNS] [MODEL] [ENV]
#   defaults: 5 runs of $KILN_ASSETS/gltf/DamagedHelmet/DamagedHelmet.glb with
#   $KILN_ASSETS/env/chinese_garden_1k.hdr at 512x512; KILN_RENDER names the binary
#   (default build/bin/kiln-render).
set -euo pipefail
assets=${KILN_ASSETS:-$(dirname "$0")/../../shared/assets}
runs=${1:-5}
model=${2:-$assets/gltf/DamagedHelmet/DamagedHelmet.glb}
env=${3:-$assets/env/chinese_garden_1k.hdr}
render=${KILN_RENDER:-build/bin/kiln-render}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[ -f "$model" ] && [ -f "$env" ] || { echo "cold_start_bench: no $model or $env" >&2; exit 2; }
[ -x "$render" ] || { echo "cold_start_bench: no $render (set KILN_RENDER)" >&2; exit 2; }
times=()
for i in $(seq "$runs"); do
    start=$(date +%s.%N)
    "$render" "$model" -o "$out/frame.png" --size 512x512 --env "$env" 2>"$out/log" ||
        { echo "cold_start_bench: $render failed:" >&2; cat "$out/log" >&2; exit 1; }
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc -l)")
done
sorted=$(printf '%s\n' "${times[@]}" | sort -g)
median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
best=$(echo "$sorted" | head -n 1)
printf '{"bench": "cold_start", "model": "%s", "env": "%s", "size": "512x512", "runs": %d, "median_s": %.3f, "best_s": %.3f, "load_average": "%s"}\n' \
    "$(basename "$model")" "$(basename "$env")" "$runs" "$median" "$best" "$(cut -d' ' -f1-3 /proc/loadavg)"
