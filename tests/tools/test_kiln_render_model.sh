#!/usr/bin/env bash
# kiln-render MODEL on the GPU (lavapipe), one row per behaviour: a model renders to a PNG and
# prints its framing as flags; those flags reproduce the same bytes; a missing or malformed file
# fails with one line and status 1; a bad flag fails with status 2; an identity --lut keeps the
# bytes and a bad .cube fails naming its line. Skips (77) without the assets.
#   test_kiln_render_model.sh BIN_DIR SCRATCH_DIR   (KILN_ASSETS: the sample assets)
set -uo pipefail
render=$1/kiln-render tmp=$2/kiln_render_model
box=${KILN_ASSETS:-}/gltf/Box/Box.glb
[ -f "$box" ] || { echo "skipped: no $box (KILN_ASSETS is '${KILN_ASSETS:-}')"; exit 77; }
mkdir -p "$tmp"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# Framed: a PNG, and a framing line of flags.
"$render" "$box" -o "$tmp/framed.png" --size 64x64 2>"$tmp/err" || fail "framed render exited $?: $(cat "$tmp/err")"
[ "$(head -c 8 "$tmp/framed.png" | od -An -tx1 | tr -d ' ')" = 89504e470d0a1a0a ] || fail "framed render wrote no PNG"
flags=$(sed -n 's/^kiln-render: framing: //p' "$tmp/err")
[[ "$flags" == "--look-from "*,*,*" --look-at "*,*,*" --fov-y "* ]] || fail "no framing flags on stderr: $(cat "$tmp/err")"

# The printed flags reproduce the frame bit for bit, and print no framing of their own.
# shellcheck disable=SC2086
"$render" "$box" -o "$tmp/again.png" --size 64x64 $flags 2>"$tmp/err" || fail "rerun with '$flags' exited $?"
cmp -s "$tmp/framed.png" "$tmp/again.png" || fail "rerun with '$flags' wrote different bytes"
grep -q "framing:" "$tmp/err" && fail "rerun with a camera still printed a framing"

# row STATUS STDERR_PATTERN -- ARGS...: the status, and stderr exactly one line matching (a glob:
# brackets are escaped).
row() {
    local status=$1 want=$2; shift 3
    "$render" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$? lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -ne "$status" ] || [ "$lines" -ne 1 ] || [[ "$(cat "$tmp/err")" != $want ]]; then
        fail "kiln-render $*: want status $status and one line '$want'; got $got and $lines: $(cat "$tmp/err")"
    fi
}
printf '{ not json' >"$tmp/malformed.gltf"
row 1 "kiln-render: $tmp/missing.glb: cannot open: *"          -- "$tmp/missing.glb" -o "$tmp/x.png"
row 1 "kiln-render: malformed.gltf: JSON: 1:*"                  -- "$tmp/malformed.gltf" -o "$tmp/x.png"
row 1 "kiln-render: Box.glb: cameras\\[0\\]: out of range (0 cameras)" -- "$box" -o "$tmp/x.png" --camera 0
row 2 'kiln-render: --look-at: "1,2" is not X,Y,Z'              -- "$box" -o "$tmp/x.png" --look-from 0,0,5 --look-at 1,2
row 2 "kiln-render: --camera is exclusive with *"               -- "$box" -o "$tmp/x.png" --camera 0 --look-from 0,0,5 --look-at 0,0,0
row 2 "kiln-render: --demo and a model are exclusive"           -- "$box" --demo -o "$tmp/x.png"
row 2 "kiln-render: --sun and --no-sun are exclusive"           -- "$box" -o "$tmp/x.png" --sun 0,-1,0 --no-sun
row 2 'kiln-render: --time: -1 is not in [0, inf)' -- "$box" -o "$tmp/x.png" --time -1
row 2 'kiln-render: --time: "inf" is not a finite number' -- "$box" -o "$tmp/x.png" --time inf
row 2 'kiln-render: --time: "2s" is not a finite number' -- "$box" -o "$tmp/x.png" --time 2s
row 2 "kiln-render: --time needs a value"                         -- "$box" -o "$tmp/x.png" --time

# Colour grading: a table of the identity (17 entries per axis) leaves the bytes as they were; a
# malformed .cube fails naming its file and line before anything is drawn, and writes nothing.
{
    echo 'LUT_3D_SIZE 17'
    for b in $(seq 0 16); do for g in $(seq 0 16); do for r in $(seq 0 16); do
        echo "$(awk -v r="$r" -v g="$g" -v b="$b" 'BEGIN { printf "%.6f %.6f %.6f", r / 16, g / 16, b / 16 }')"
    done; done; done
} >"$tmp/identity.cube"
"$render" "$box" -o "$tmp/graded.png" --size 64x64 $flags --lut "$tmp/identity.cube" 2>"$tmp/err" ||
    fail "render with an identity --lut exited $?: $(cat "$tmp/err")"
cmp -s "$tmp/framed.png" "$tmp/graded.png" || fail "an identity --lut changed the image"
printf 'LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1\n' >"$tmp/bad.cube"
rm -f "$tmp/x.png"
row 1 "kiln-render: $tmp/bad.cube:4: expected 3 numbers, got 2" -- "$box" -o "$tmp/x.png" --lut "$tmp/bad.cube"
[ -e "$tmp/x.png" ] && fail "a bad --lut still wrote $tmp/x.png"
row 2 'kiln-render: --saturation: 2 is not in \[-1, 1\]'      -- "$box" -o "$tmp/x.png" --saturation 2
row 2 'kiln-render: --gain: "1,2" is not X,Y,Z or one number'    -- "$box" -o "$tmp/x.png" --gain 1,2

[ "$failures" -eq 0 ] || { echo "test_kiln_render_model: $failures row(s) failed"; exit 1; }
echo "test_kiln_render_model: all rows pass"
