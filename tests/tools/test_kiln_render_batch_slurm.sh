#!/usr/bin/env bash
# examples/batch/slurm/render.sbatch on a real Slurm: a single-node cluster started here
# (munged, slurmctld and slurmd on localhost, their configuration, state and logs in a scratch
# directory, ports of their own, so a system Slurm is neither used nor disturbed), the script
# submitted unchanged as a 3-task array over a 30-item manifest of sample models, waited for;
# then every output must be a whole PNG identical to a one-process batch's, and the three
# reports together must list each line once, ok. Skips (77) without Slurm (scripts/bootstrap.sh
# installs slurm-wlm and munge), without root (the daemons run as root here), or without the
# sample assets.
#   test_kiln_render_batch_slurm.sh BIN_DIR SCRATCH_DIR SOURCE_DIR   (KILN_ASSETS: the assets)
set -uo pipefail
bin=$1 tmp=$2/kiln_render_batch_slurm src=$3
gltf=${KILN_ASSETS:-}/gltf
for tool in munged munge slurmctld slurmd sbatch sinfo; do
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "skipped: no $tool: Slurm is not installed (scripts/bootstrap.sh installs slurm-wlm and munge)"; exit 77; }
done
[ "$(id -u)" -eq 0 ] || { echo "skipped: the single-node Slurm runs its daemons as root, and this is uid $(id -u)"; exit 77; }
models="Box/Box.glb BoxVertexColors/BoxVertexColors.glb SimpleMorph/SimpleMorph.gltf
        AnimatedMorphCube/AnimatedMorphCube.gltf MorphPrimitivesTest/MorphPrimitivesTest.gltf BoxTextured/BoxTextured.glb
        TextureCoordinateTest/TextureCoordinateTest.gltf OrientationTest/OrientationTest.gltf
        RiggedFigure/RiggedFigure.gltf Duck/Duck.glb"
for m in $models; do
    [ -f "$gltf/$m" ] || { echo "skipped: no $gltf/$m (KILN_ASSETS is '${KILN_ASSETS:-}')"; exit 77; }
done
rm -rf "$tmp" && mkdir -p "$tmp"/{munge,state,spool,log,job,reference}
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# The daemons, stopped by their own ids whatever happens.
pids=()
stop() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
}
trap stop EXIT

# munge: a key of our own and a socket in the scratch directory.
chmod 700 "$tmp/munge"
head -c 128 /dev/urandom >"$tmp/munge/munge.key" && chmod 600 "$tmp/munge/munge.key"
munged --foreground --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
    --pid-file="$tmp/munge/pid" --seed-file="$tmp/munge/seed" --log-file="$tmp/log/munged.log" >"$tmp/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/socket" ] && break; sleep 0.1; done
munge -S "$tmp/munge/socket" -n >/dev/null 2>&1 || { echo "FAIL munged did not start: $(cat "$tmp/log/munged.out")"; exit 1; }

# slurm.conf: one node of this host with one GPU (a GRES on /dev/null: nothing here reads it,
# but the script asks for --gres=gpu:1, so the tasks run one at a time as on one real GPU), and
# the CPUs and memory the script asks for (config_overrides: the node is taken as configured).
host=$(hostname -s)
port=$((20000 + $$ % 20000))
cat >"$tmp/slurm.conf" <<EOF
ClusterName=kilntest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
GresTypes=gpu
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 RealMemory=16384 Gres=gpu:1 State=UNKNOWN
PartitionName=kilntest Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
echo "NodeName=$host Name=gpu File=/dev/null" >"$tmp/gres.conf"
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N "$host" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && break; sleep 0.2; done
[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] ||
    { echo "FAIL the node did not come up: $(sinfo 2>&1; tail -5 "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log")"; exit 1; }

# 30 items: three views of each of ten sample models, consecutive per model.
for m in $models; do
    name=$(basename "$m" | sed 's/\.gl[bt]f\{0,1\}$//')
    for v in 0 1 2; do
        printf '{"model": "%s", "out": "img/%s-%d.png", "size": [64, 64], "view": {"azimuth": %d}}\n' "$gltf/$m" "$name" "$v" "$((v * 2))"
    done
done >"$tmp/job/manifest.jsonl"
cp "$tmp/job/manifest.jsonl" "$tmp/reference/"
[ "$(wc -l <"$tmp/job/manifest.jsonl")" -eq 30 ] || fail "the manifest has $(wc -l <"$tmp/job/manifest.jsonl") lines, not 30"

# The array job, as the README submits it; sbatch --wait exits with the highest task status.
(cd "$tmp/job" && KILN_RENDER=$bin/kiln-render timeout 240 sbatch --wait --array=0-2 --chdir="$tmp/job" \
    "$src/examples/batch/slurm/render.sbatch" "$tmp/job/manifest.jsonl" >"$tmp/log/sbatch.out" 2>&1)
rc=$?
[ "$rc" -eq 0 ] || fail "sbatch --wait exited $rc: $(cat "$tmp/log/sbatch.out"; cat "$tmp"/job/kiln-batch-*.log 2>/dev/null)"
[ "$(ls "$tmp"/job/kiln-batch-*_*.log 2>/dev/null | wc -l)" -eq 3 ] || fail "want 3 task logs, got: $(ls "$tmp/job")"

# Every output whole and identical to one process's; nothing partial.
"$bin/kiln-render" --batch "$tmp/reference/manifest.jsonl" 2>"$tmp/log/reference.err" || fail "the reference batch exited $?"
count=0
for f in "$tmp"/reference/img/*.png; do
    count=$((count + 1))
    cmp -s "$f" "$tmp/job/img/$(basename "$f")" || fail "img/$(basename "$f") from the array job is missing or differs"
done
[ "$count" -eq 30 ] || fail "the reference wrote $count images, not 30"
ls "$tmp/job/img" | grep -q partial && fail "a partial file is left in img/"

# The merged report: each of the 30 lines once, every one ok.
cat "$tmp"/job/manifest.report-*-of-3.jsonl >"$tmp/merged.jsonl"
[ "$(sed -n 's/^{"line":\([0-9]*\),.*/\1/p' "$tmp/merged.jsonl" | sort -n | tr '\n' ' ')" = "$(seq -s ' ' 30) " ] ||
    fail "the merged report does not list lines 1..30 once: $(cat "$tmp/merged.jsonl")"
[ "$(grep -c '"status":"ok"' "$tmp/merged.jsonl")" -eq 30 ] || fail "the merged report has not 30 ok lines: $(cat "$tmp/merged.jsonl")"

[ "$failures" -eq 0 ] || { echo "test_kiln_render_batch_slurm: $failures row(s) failed"; exit 1; }
echo "test_kiln_render_batch_slurm: all rows pass"
