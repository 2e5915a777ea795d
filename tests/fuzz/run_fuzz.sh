#!/usr/bin/env bash
# Runs one libFuzzer target on its corpora for a bounded time.
#
#   run_fuzz.sh smoke|long BINARY NAME SECONDS WORK_DIR SEED_DIR [libFuzzer flags...]
#
# The corpora, in libFuzzer's order (new inputs go to the first):
#   WORK_DIR/NAME/corpus          what this run finds; emptied first by a smoke run, so the smoke
#                                 of `make test` starts from the same inputs every time
#   tests/fuzz/corpus/NAME        the committed seeds (messages, WGSL, command lines, glTF JSON)
#   SEED_DIR/NAME                 the seeds make_seeds writes at build time (images, GLB)
#   tests/fuzz/regressions/NAME   every input that ever crashed, replayed on every run
# A crash, leak or timeout exits non-zero, leaving the input in WORK_DIR/NAME/ (crash-..., leak-...,
# timeout-...): copy it into tests/fuzz/regressions/NAME/ once it is fixed.
set -euo pipefail
mode=$1 binary=$2 name=$3 seconds=$4 work=$5 seeds=$6
shift 6
here=$(cd "$(dirname "$0")" && pwd)

case $mode in
    smoke) rm -rf "$work/$name/corpus" ;;
    long) ;;
    *) echo "run_fuzz.sh: mode must be smoke or long, got '$mode'" >&2; exit 2 ;;
esac
mkdir -p "$work/$name/corpus"

dirs=("$work/$name/corpus")
for d in "$here/corpus/$name" "$seeds/$name" "$here/regressions/$name"; do
    # libFuzzer refuses a corpus directory that does not exist; an empty one adds nothing.
    [ -d "$d" ] && dirs+=("$d")
done
flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
       -artifact_prefix="$work/$name/")
[ -f "$here/$name.dict" ] && flags+=(-dict="$here/$name.dict")

# Symbolised reports, and UBSan findings that stop the run like ASan's do.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$binary" "${flags[@]}" "$@" "${dirs[@]}"
