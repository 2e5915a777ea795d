#!/usr/bin/env bash
# Runs several libFuzzer targets at once on a many-core machine, in libFuzzer's fork mode, until a
# deadline: the long runs of docs/RELIABILITY.md ("A long run on 16 cores").
#
#   run_fuzz_fork.sh BIN_DIR SEED_DIR WORK_DIR SECONDS CORES NAME:WORKERS:RUNS...
#
# Each NAME runs BIN_DIR/fuzz_NAME with -fork=WORKERS until it has made RUNS executions (0: until
# the deadline), with run_fuzz.sh's flags and corpora (WORK_DIR/NAME/corpus first, where new inputs
# go). The last NAME may say WORKERS=rest: it gets the CORES the others leave, and when another
# target has made its RUNS, that target's workers pass to it (one more fork-mode run of the last
# target, on the same corpus, until the deadline).
#
# A crash or leak stops a fork-mode run (libFuzzer's -ignore_crashes=0); its input stays in
# WORK_DIR/NAME/artifacts/, and the run starts again for the time left, so one finding does not
# idle the cores. Timeouts and OOMs are counted by libFuzzer's fork mode (oom/timeout/crash on
# every status line) and leave their input there too. A run's executions are the last "#N:" line
# of its log; WORK_DIR/summary.txt adds them up, with the coverage of the final corpus and the
# peak RSS of any one process.
set -uo pipefail
bin_dir=$1 seed_dir=$2 work=$3 seconds=$4 cores=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
tree=${KILN_TREE:-$(cd "$here/../.." && pwd)}
start=$(date +%s)
deadline=$((start + seconds))
mkdir -p "$work"
summary=$work/summary.txt
: >"$summary"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

corpora() { # the corpora of run_fuzz.sh, in its order
    local name=$1 d
    mkdir -p "$work/$name/corpus" "$work/$name/artifacts"
    printf '%s\n' "$work/$name/corpus"
    for d in "$tree/tests/fuzz/corpus/$name" "$seed_dir/$name" "$tree/tests/fuzz/regressions/$name"; do
        [ -d "$d" ] && printf '%s\n' "$d"
    done
}

# fuzz_loop NAME WORKERS RUNS TAG: fork-mode runs until RUNS executions or the deadline.
fuzz_loop() {
    local name=$1 workers=$2 runs=${3:-0} tag=$4 made=0 seg=0 quick=0
    local bin=$bin_dir/fuzz_$name dirs flags left n rc t0 log
    mapfile -t dirs < <(corpora "$name")
    while :; do
        left=$((deadline - $(date +%s)))
        [ "$left" -lt 20 ] && break
        flags=(-fork="$workers" -max_total_time=$((left - 5)) -timeout=10 -rss_limit_mb=4096
               -print_final_stats=1 -artifact_prefix="$work/$name/artifacts/")
        [ -f "$tree/tests/fuzz/$name.dict" ] && flags+=(-dict="$tree/tests/fuzz/$name.dict")
        if [ "$runs" -gt 0 ]; then
            [ "$made" -ge "$runs" ] && break
            flags+=(-runs=$((runs - made)))
        fi
        seg=$((seg + 1))
        log=$work/$name.$tag.$seg.log
        t0=$(date +%s)
        echo "$(date -u +%T) $name $tag.$seg: $bin ${flags[*]} ${dirs[*]}" >>"$summary"
        timeout -k 5 $((left + 30)) "$bin" "${flags[@]}" "${dirs[@]}" >"$log" 2>&1
        rc=$?
        n=$(grep -o '^#[0-9]*:' "$log" | tail -n 1 | tr -d '#:')
        made=$((made + ${n:-0}))
        echo "$(date -u +%T) $name $tag.$seg: rc $rc, $(( $(date +%s) - t0 )) s, ${n:-0} executions" \
             "(this loop $made); last: $(grep '^#[0-9]*:' "$log" | tail -n 1)" >>"$summary"
        if [ $(( $(date +%s) - t0 )) -lt 10 ]; then
            quick=$((quick + 1))
            [ "$quick" -ge 3 ] && { echo "$name $tag: three runs in under 10 s, giving up" >>"$summary"; break; }
        fi
    done
    echo "$made" >"$work/$name.$tag.made"
}

# The peak RSS of each fuzz process, sampled every second (VmHWM: the process's high-water mark).
( while :; do
      awk '/^Name:/ {n = $2} /^VmHWM:/ {print n, $2}' /proc/[0-9]*/status 2>/dev/null |
          grep '^fuzz_' >>"$work/rss.samples"
      sleep 1
  done ) &
sampler=$!

specs=("$@")
last=${specs[${#specs[@]} - 1]}
last_name=${last%%:*}
used=0
pids=()
for spec in "${specs[@]}"; do
    IFS=: read -r name workers runs <<<"$spec"
    [ "$spec" = "$last" ] && continue
    used=$((used + workers))
    ( fuzz_loop "$name" "$workers" "$runs" main; touch "$work/$name.done" ) &
    pids+=($!)
done
IFS=: read -r name workers runs <<<"$last"
[ "$workers" = rest ] && workers=$((cores - used))
fuzz_loop "$name" "$workers" "$runs" main &
pids+=($!)

# Hand the cores of a target that has made its executions to the last target.
handed=()
while [ $((deadline - $(date +%s))) -gt 40 ]; do
    for spec in "${specs[@]}"; do
        IFS=: read -r name workers runs <<<"$spec"
        [ "$spec" = "$last" ] && continue
        if [ -e "$work/$name.done" ] && [[ " ${handed[*]} " != *" $name "* ]]; then
            handed+=("$name")
            echo "$(date -u +%T) $name is done: its $workers workers pass to $last_name" >>"$summary"
            fuzz_loop "$last_name" "$workers" 0 "from-$name" &
            pids+=($!)
        fi
    done
    sleep 2
done
wait "${pids[@]}"
kill "$sampler" 2>/dev/null

# The figures: executions per target, the coverage of its final corpus (every input run once,
# -runs=0), the findings and the peak RSS.
echo "== after $(( $(date +%s) - start )) s" >>"$summary"
for spec in "${specs[@]}"; do
    name=${spec%%:*}
    mapfile -t dirs < <(corpora "$name")
    timeout 60 "$bin_dir/fuzz_$name" -runs=0 -rss_limit_mb=4096 "${dirs[@]}" >"$work/$name.final.log" 2>&1 &
done
wait
for spec in "${specs[@]}"; do
    name=${spec%%:*}
    total=$(cat "$work/$name".*.made 2>/dev/null | awk '{s += $1} END {print s + 0}')
    inited=$(grep -m1 'INITED' "$work/$name.final.log")
    rss=$(awk -v n="fuzz_$name" '$1 == n && $2 > m {m = $2} END {print int(m / 1024)}' "$work/rss.samples")
    stops=$(cat "$work/$name".*.[0-9]*.log | grep -c 'INFO: log from the inner process')
    arts=$(cd "$work/$name/artifacts" && for k in crash leak timeout oom slow-unit; do
               printf '%s %s, ' "$k" "$(ls | grep -c "^$k-")"; done)
    echo "$name: executions $total; final corpus $(ls "$work/$name/corpus" | wc -l) new inputs," \
         "$(du -sk "$work/$name/corpus" | cut -f1) KB; $inited; runs stopped by a finding: $stops;" \
         "artifacts: ${arts}peak RSS $rss MB" >>"$summary"
done
cat "$summary"
