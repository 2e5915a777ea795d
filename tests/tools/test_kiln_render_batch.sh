#!/usr/bin/env bash
# kiln-render --batch on the GPU (lavapipe), one row per behaviour of docs/guides/batch.md: one
# shard and three shards write the same bytes; the same lines in reverse order write the same
# bytes; an item renders as a cold kiln-render with the same settings does; bad lines are
# reported by line and the good ones still render; --resume after a kill, or over a leftover
# partial file and a cut-short PNG, completes the set with no corrupt file; a device lost mid-batch
# is replaced and the set comes out the same; bad command lines exit
# 2. Skips (77) without the sample assets.
#   test_kiln_render_batch.sh BIN_DIR SCRATCH_DIR   (KILN_ASSETS: the sample assets)
set -uo pipefail
render=$1/kiln-render tmp=$2/kiln_render_batch
gltf=${KILN_ASSETS:-}/gltf env=${KILN_ASSETS:-}/env
for f in "$gltf/Box/Box.glb" "$gltf/BoxTextured/BoxTextured.glb" "$gltf/Duck/Duck.glb" \
         "$gltf/AnimatedMorphCube/AnimatedMorphCube.gltf" "$env/studio_small_03_1k.hdr"; do
    [ -f "$f" ] || { echo "skipped: no $f (KILN_ASSETS is '${KILN_ASSETS:-}')"; exit 77; }
done
rm -rf "$tmp" && mkdir -p "$tmp"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# Twelve items: runs of lines sharing a model and an environment, an animated model at two times,
# a file camera, extra normals, depth and masks, and sizes that change between items.
cat >"$tmp/manifest.jsonl" <<EOF
{"model": "$gltf/Box/Box.glb", "out": "img/box-0.png", "size": [64, 64]}
{"model": "$gltf/Box/Box.glb", "out": "img/box-1.png", "size": [64, 64], "view": {"azimuth": 1.2}, "outputs": ["color", "normals", "depth", "mask"]}
{"model": "$gltf/Box/Box.glb", "out": "img/box-2.png", "size": [48, 64], "view": {"azimuth": 2.4, "elevation": -0.3, "distance_scale": 1.5}}
{"model": "$gltf/Duck/Duck.glb", "out": "img/duck-0.png", "size": [64, 64], "env": "$env/studio_small_03_1k.hdr"}
{"model": "$gltf/Duck/Duck.glb", "out": "img/duck-1.png", "size": [64, 64], "env": "$env/studio_small_03_1k.hdr", "env_rotation": 1.5}

{"model": "$gltf/Duck/Duck.glb", "out": "img/duck-2.png", "size": [64, 64], "env": "$env/studio_small_03_1k.hdr", "tonemap": "pbr-neutral", "exposure": 1.5}
{"model": "$gltf/BoxTextured/BoxTextured.glb", "out": "img/textured-0.png", "size": [64, 64], "settings": {"msaa": 4}, "outputs": ["mask"]}
{"model": "$gltf/BoxTextured/BoxTextured.glb", "out": "img/textured-1.png", "size": [64, 64], "camera": {"look_from": [2, 1.5, 2], "look_at": [0, 0, 0]}, "sun": [0, -1, -0.2], "sun_lux": 5}
{"model": "$gltf/AnimatedMorphCube/AnimatedMorphCube.gltf", "out": "img/morph-0.png", "size": [64, 64], "time": 0.5}
{"model": "$gltf/AnimatedMorphCube/AnimatedMorphCube.gltf", "out": "img/morph-1.png", "size": [64, 64], "time": 1.5, "outputs": ["normals", "depth"]}
{"model": "$gltf/Box/Box.glb", "out": "img/box-3.png", "size": [64, 64], "settings": {"no_bloom": true, "no_ao": true, "no_shadows": true}}
{"model": "$gltf/Duck/Duck.glb", "out": "img/duck-3.png", "size": [64, 64], "no_sun": true, "settings": {"fxaa": true, "background": "transparent"}}
EOF
outputs="box-0.png box-1.png box-1.normals.png box-1.depth.pfm box-1.mask.png box-2.png duck-0.png duck-1.png
         duck-2.png textured-0.mask.png textured-1.png morph-0.png morph-1.normals.png morph-1.depth.pfm box-3.png
         duck-3.png"

# same_set DIR_A DIR_B WHAT: every expected output in both, byte-identical, and nothing partial.
same_set() {
    for o in $outputs; do
        [ -s "$1/img/$o" ] || { fail "$3: $1/img/$o missing"; continue; }
        cmp -s "$1/img/$o" "$2/img/$o" || fail "$3: img/$o differs"
    done
    ls "$2/img" | grep -q partial && fail "$3: a partial file is left in $2/img"
}
in_dir() { mkdir -p "$tmp/$1" && cp "$tmp/manifest.jsonl" "$tmp/$1/"; }

# One shard: every item renders, exit 0, one "ok" line per item in the report.
in_dir one
"$render" --batch "$tmp/one/manifest.jsonl" 2>"$tmp/one.err" || fail "one shard exited $?: $(cat "$tmp/one.err")"
[ "$(grep -c '"status":"ok"' "$tmp/one/manifest.report-0-of-1.jsonl")" -eq 12 ] || fail "one shard: want 12 ok lines in the report"
grep -q "kiln-render: batch: 12/12 items (0 failed, 0 already done)" "$tmp/one.err" || fail "one shard: no final progress line"
# The warm renderer: each run of lines sharing a model reads it once, and imports it once (the
# animated one once per time).
grep -q "6 model reads, 7 model imports, 1 environment loads" "$tmp/one.err" ||
    fail "one shard: want 6 model reads, 7 imports and 1 environment load: $(tail -1 "$tmp/one.err")"

# The data outputs: a PFM of 64x64 floats after its header, and 16-bit greyscale PNG masks (the
# IHDR's bit depth 16, colour type 0). Their values are the renderer's (tests/render/test_data_outputs.c).
pfm=$tmp/one/img/box-1.depth.pfm
[ "$(head -c 14 "$pfm" | od -An -c | tr -s ' ' | tr -d '\n')" = " P f \n 6 4 6 4 \n - 1 . 0 \n" ] ||
    fail "depth: $pfm does not start with the PFM header for 64x64"
[ "$(stat -c %s "$pfm")" -eq $((14 + 64 * 64 * 4)) ] || fail "depth: $pfm is not 64x64 floats after its header"
for m in box-1.mask.png textured-0.mask.png; do
    [ "$(od -An -tx1 -j 24 -N 2 "$tmp/one/img/$m" | tr -d ' \n')" = "1000" ] || fail "mask: $m is not 16-bit greyscale"
done
[ -e "$tmp/one/img/textured-0.png" ] && fail "mask: an item wanting only its mask wrote its colour image"

# Three shards write the same bytes; their reports together hold each line once.
in_dir three
for s in 0 1 2; do
    "$render" --batch "$tmp/three/manifest.jsonl" --shard $s/3 2>"$tmp/three.$s.err" || fail "shard $s/3 exited $?"
done
same_set "$tmp/one" "$tmp/three" "3 shards"
cat "$tmp"/three/manifest.report-*-of-3.jsonl | sed -n 's/^{"line":\([0-9]*\),.*/\1/p' | sort -n | tr '\n' ' ' >"$tmp/lines"
[ "$(cat "$tmp/lines")" = "1 2 3 4 5 7 8 9 10 11 12 13 " ] || fail "3 shards: the reports list lines $(cat "$tmp/lines")"

# The same lines in reverse order: another history before each item, the same bytes.
in_dir reversed
tac "$tmp/manifest.jsonl" >"$tmp/reversed/manifest.jsonl"
"$render" --batch "$tmp/reversed/manifest.jsonl" 2>"$tmp/reversed.err" || fail "reversed exited $?"
same_set "$tmp/one" "$tmp/reversed" "reversed order"

# The device lost before line 4 (the first Duck, with its map): a new device, the renderer and
# what it holds carried over, the item rendered again; the set is the same bytes, nothing read twice.
in_dir lost
"$render" --batch "$tmp/lost/manifest.jsonl" --lose-device-at 4 2>"$tmp/lost.err" || fail "device loss: exited $?: $(cat "$tmp/lost.err")"
same_set "$tmp/one" "$tmp/lost" "device loss at line 4"
grep -q "kiln-render: line 4: the device was lost (.*); recovering on a new device" "$tmp/lost.err" || fail "device loss: no recovery line"
grep -q "6 model reads, 7 model imports, 1 environment loads, .* 1 device recoveries" "$tmp/lost.err" ||
    fail "device loss: want the same reads and imports and 1 recovery: $(tail -1 "$tmp/lost.err")"
[ "$(grep -c '"status":"ok"' "$tmp/lost/manifest.report-0-of-1.jsonl")" -eq 12 ] || fail "device loss: want 12 ok lines"

# An item renders as kiln-render does cold with the same settings.
"$render" "$gltf/Duck/Duck.glb" -o "$tmp/cold-duck-1.png" --size 64x64 --env "$env/studio_small_03_1k.hdr" --env-rotation 1.5 2>/dev/null
cmp -s "$tmp/cold-duck-1.png" "$tmp/one/img/duck-1.png" || fail "duck-1 differs from a cold kiln-render"
"$render" "$gltf/BoxTextured/BoxTextured.glb" -o "$tmp/cold-textured-1.png" --size 64x64 --msaa 1 \
    --look-from 2,1.5,2 --look-at 0,0,0 --sun 0,-1,-0.2 --sun-lux 5 2>/dev/null
cmp -s "$tmp/cold-textured-1.png" "$tmp/one/img/textured-1.png" || fail "textured-1 differs from a cold kiln-render"
"$render" "$gltf/Duck/Duck.glb" -o "$tmp/cold-duck-3.png" --size 64x64 --no-sun --fxaa --background transparent 2>/dev/null
cmp -s "$tmp/cold-duck-3.png" "$tmp/one/img/duck-3.png" || fail "duck-3 differs from a cold kiln-render"

# Bad lines: each reported by line on stderr and in the report; the good ones render; exit 1.
mkdir -p "$tmp/bad"
cat >"$tmp/bad/manifest.jsonl" <<EOF
{"model": "$gltf/Box/Box.glb", "out": "img/good-0.png", "size": [32, 32]}
{"model": "missing.glb", "out": "img/missing.png", "size": [32, 32]}
{"model": "$gltf/Box/Box.glb", "out": "img/x.png", "colour": "red"}
{ not json
{"model": "$gltf/Box/Box.glb", "out": "img/camera.png", "size": [32, 32], "camera": {"index": 4}}
{"model": "$gltf/Box/Box.glb", "out": "img/good-1.png", "size": [32, 32], "view": {"azimuth": 3}}
{"model": "$gltf/Box/Box.glb", "out": "img/env.png", "size": [32, 32], "env": "$gltf/Box/screenshot.png"}
{"model": "$gltf/Box/Box.glb", "out": "img/view.png", "size": [32, 32], "view": {}}
{"model": "$gltf/Duck/Duck.glb", "out": "img/good-0.png", "size": [32, 32]}
EOF
"$render" --batch "$tmp/bad/manifest.jsonl" 2>"$tmp/bad.err"
rc=$?
[ "$rc" -eq 1 ] || fail "bad lines: want exit 1, got $rc"
grep -v '^kiln-render: batch: ' "$tmp/bad.err" >"$tmp/bad.lines"
cat >"$tmp/bad.want" <<EOF
kiln-render: line 2: $tmp/bad/missing.glb: cannot open: No such file or directory
kiln-render: line 3: unknown field "colour"
kiln-render: line 4: JSON: column 5: string or '}' expected near 'not'
kiln-render: line 5: Box.glb: cameras[4]: out of range (0 cameras)
kiln-render: line 7: $gltf/Box/screenshot.png: not a Radiance HDR image
kiln-render: line 9: out: $tmp/bad/img/good-0.png is line 1's output too
EOF
diff "$tmp/bad.want" "$tmp/bad.lines" >/dev/null || fail "bad lines: stderr differs: $(diff "$tmp/bad.want" "$tmp/bad.lines")"
[ -s "$tmp/bad/img/good-0.png" ] && [ -s "$tmp/bad/img/good-1.png" ] || fail "bad lines: the good lines did not render"
# An empty view is the framing itself, bit for bit.
cmp -s "$tmp/bad/img/good-0.png" "$tmp/bad/img/view.png" || fail "\"view\": {} differs from the framed camera"
sed 's/"ms":[0-9.e+-]*/"ms":T/' "$tmp/bad/manifest.report-0-of-1.jsonl" >"$tmp/bad.report"
cat >"$tmp/bad.report.want" <<EOF
{"line":1,"status":"ok","ms":T}
{"line":2,"status":"error","ms":T,"error":"line 2: $tmp/bad/missing.glb: cannot open: No such file or directory"}
{"line":3,"status":"error","ms":T,"error":"line 3: unknown field \"colour\""}
{"line":4,"status":"error","ms":T,"error":"line 4: JSON: column 5: string or '}' expected near 'not'"}
{"line":5,"status":"error","ms":T,"error":"line 5: Box.glb: cameras[4]: out of range (0 cameras)"}
{"line":6,"status":"ok","ms":T}
{"line":7,"status":"error","ms":T,"error":"line 7: $gltf/Box/screenshot.png: not a Radiance HDR image"}
{"line":8,"status":"ok","ms":T}
{"line":9,"status":"error","ms":T,"error":"line 9: out: $tmp/bad/img/good-0.png is line 1's output too"}
EOF
diff "$tmp/bad.report.want" "$tmp/bad.report" >/dev/null || fail "bad lines: report differs: $(diff "$tmp/bad.report.want" "$tmp/bad.report")"

# Resume over a simulated killed job: some outputs whole, one cut short under its final name (as a
# copy by other means could leave it), a leftover partial file. The set comes out whole and equal.
in_dir resumed
mkdir -p "$tmp/resumed/img"
cp "$tmp/one/img/box-0.png" "$tmp/one/img/duck-0.png" "$tmp/resumed/img/"
head -c 300 "$tmp/one/img/duck-1.png" >"$tmp/resumed/img/duck-1.png"
# Line 2 has its colour, normals and mask whole and its depth cut short: it renders again.
cp "$tmp/one/img/box-1.png" "$tmp/one/img/box-1.normals.png" "$tmp/one/img/box-1.mask.png" "$tmp/resumed/img/"
head -c 5000 "$tmp/one/img/box-1.depth.pfm" >"$tmp/resumed/img/box-1.depth.pfm"
head -c 200 "$tmp/one/img/duck-2.png" >"$tmp/resumed/img/duck-2.png.partial"
"$render" --batch "$tmp/resumed/manifest.jsonl" --resume 2>"$tmp/resumed.err" || fail "resume exited $?: $(cat "$tmp/resumed.err")"
same_set "$tmp/one" "$tmp/resumed" "resume over a partial state"
[ "$(grep -c '"status":"skipped"' "$tmp/resumed/manifest.report-0-of-1.jsonl")" -eq 2 ] || fail "resume: want 2 skipped items"

# Resume after a real kill mid-batch: whatever the kill left, the set comes out whole and equal.
in_dir killed
"$render" --batch "$tmp/killed/manifest.jsonl" 2>/dev/null &
pid=$!
for _ in $(seq 200); do [ -s "$tmp/killed/img/duck-0.png" ] && break; sleep 0.02; done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
for f in "$tmp"/killed/img/*.png; do
    [ -e "$f" ] || continue
    head -c 8 "$f" | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$' || fail "kill: $f is not a PNG"
done
for f in "$tmp"/killed/img/*.pfm; do
    [ -e "$f" ] || continue
    [ "$(stat -c %s "$f")" -eq $((14 + 64 * 64 * 4)) ] || fail "kill: $f is not a whole PFM"
done
"$render" --batch "$tmp/killed/manifest.jsonl" --resume 2>"$tmp/killed.err" || fail "resume after kill exited $?"
same_set "$tmp/one" "$tmp/killed" "resume after kill"

# row STATUS STDERR -- ARGS...: a bad command line, its status and its one line.
row() {
    local status=$1 want=$2; shift 3
    "$render" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$status" ] && [ "$(head -1 "$tmp/err")" = "$want" ] ||
        fail "kiln-render $*: want status $status and '$want'; got $got: $(cat "$tmp/err")"
}
row 2 'kiln-render: --shard: "3/3" is not I/N with 0 <= I < N' -- --batch "$tmp/manifest.jsonl" --shard 3/3
row 2 'kiln-render: --shard: "1/0" is not I/N with 0 <= I < N' -- --batch "$tmp/manifest.jsonl" --shard 1/0
row 2 'kiln-render: --shard: "-1/3" is not I/N with 0 <= I < N' -- --batch "$tmp/manifest.jsonl" --shard -1/3
row 2 'kiln-render: --jobs: "4" is not 1 (one process renders on one device: run more shards for more devices)' \
    -- --batch "$tmp/manifest.jsonl" --jobs 4
row 2 "kiln-render: unknown option '--size' (see --help)" -- --batch "$tmp/manifest.jsonl" --size 64x64
row 2 "kiln-render: --batch needs a value" -- --batch
row 2 'kiln-render: --lose-device-at: 0 is not in [1, 4294967295]' -- --batch "$tmp/manifest.jsonl" --lose-device-at 0
row 0 "kiln-render: batch: shard 0/20 of $tmp/manifest.jsonl has no items; report $tmp/manifest.report-0-of-20.jsonl" \
    -- --batch "$tmp/manifest.jsonl" --shard 0/20
row 2 "kiln-render: $tmp/none.jsonl: cannot open: No such file or directory" -- --batch "$tmp/none.jsonl"

# Into a file first: grep -q stops reading at its match, and with pipefail the writer's SIGPIPE
# would fail the row once the usage is longer than one stdio buffer.
"$render" --help >"$tmp/help.txt"
grep -q -- "--batch MANIFEST.jsonl \[--shard I/N\] \[--resume\]" "$tmp/help.txt" || fail "--help does not name --batch"

[ "$failures" -eq 0 ] || { echo "test_kiln_render_batch: $failures row(s) failed"; exit 1; }
echo "test_kiln_render_batch: all rows pass"
