#!/usr/bin/env bash
# kiln-render --demo --stats on the GPU (lavapipe): one JSON object on stdout holding the frame's
# counts and its GPU time per pass: a list of every executed pass where the device has timestamp
# queries (lavapipe through this Dawn has them), "unavailable" and null where it has none. Says
# which branch the device took.
#   test_kiln_render_stats.sh BIN_DIR SCRATCH_DIR
set -uo pipefail
render=$1/kiln-render tmp=$2/kiln_render_stats
mkdir -p "$tmp"
"$render" --demo -o "$tmp/demo.png" --size 48x32 --stats >"$tmp/out" 2>"$tmp/err" || {
    echo "FAIL kiln-render --stats exited $?: $(cat "$tmp/err")"; exit 1; }
[ "$(wc -l <"$tmp/out")" -eq 1 ] || { echo "FAIL --stats printed $(wc -l <"$tmp/out") lines"; exit 1; }
stats=$(cat "$tmp/out")
passes=$(sed -n 's/.*"passes": \([0-9]*\),.*/\1/p' <<<"$stats")
case "$stats" in
*'"gpu_timings": "ready", "gpu_passes": [{"pass": "'*'"gpu_total_ms": '*'}')
    listed=$(grep -o '{"pass": ' <<<"$stats" | wc -l)
    [ "$listed" -eq "$passes" ] || { echo "FAIL $listed passes timed, $passes executed: $stats"; exit 1; }
    echo "branch: timestamp queries: $listed passes timed" ;;
*'"gpu_timings": "unavailable", "gpu_passes": null}')
    echo "branch: no timestamp queries: unavailable" ;;
*)
    echo "FAIL no GPU timings in: $stats"; exit 1 ;;
esac
