#!/usr/bin/env bash
# kiln-view's command line, one row per behaviour: --help, and each refusal as its exit status
# and exactly one line on stderr (a command line with nothing to open gets the usage). No window is opened: flags and scripts are checked first, and without a display the
# window fails with one line.
#   test_view_cli.sh BIN_DIR SCRATCH_DIR MODELS_DIR
set -uo pipefail
view=$1/kiln-view tmp=$2/view_cli models=$3
mkdir -p "$tmp"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

"$view" --help >"$tmp/out" 2>"$tmp/err" || fail "--help exited $?"
grep -q '^usage: kiln-view MODEL.gltf|MODEL.glb' "$tmp/out" || fail "--help printed no usage on stdout"
[ -s "$tmp/err" ] && fail "--help wrote to stderr: $(cat "$tmp/err")"

# row STATUS FIRST_LINE [usage] -- ARGS...: the status and stderr's first line (a glob); with
# `usage` the usage follows it, else the line is all there is.
row() {
    local status=$1 want=$2 usage=$3; shift 4
    env -u DISPLAY "$view" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$? lines first
    lines=$(wc -l <"$tmp/err")
    first=$(head -n 1 "$tmp/err")
    if [ "$got" -ne "$status" ] || [[ "$first" != $want ]]; then
        fail "kiln-view $*: want status $status and '$want'; got $got: $(cat "$tmp/err")"
    elif [ "$usage" = usage ] && ! grep -q '^usage: kiln-view' "$tmp/err"; then
        fail "kiln-view $*: no usage after the line"
    elif [ "$usage" != usage ] && [ "$lines" -ne 1 ]; then
        fail "kiln-view $*: want one line, got $lines: $(cat "$tmp/err")"
    fi
}
printf 'at 1 jump\n' >"$tmp/bad.script"
# clips.gltf without its animations: a model with no clip to name.
sed 's/, "animations": \[.*\], "accessors"/, "accessors"/' "$models/clips.gltf" >"$tmp/clips_static.gltf"
printf 'at 2 key F\nat 1 key C\n' >"$tmp/backwards.script"
printf 'at 1 key X\n' >"$tmp/key.script"
printf 'at 1 hide two\n' >"$tmp/hide.script"
row 2 "usage: kiln-view MODEL.gltf|MODEL.glb *" usage --
row 2 "kiln-view: unknown option '--bogus' (see --help)" - -- --demo --bogus
row 2 "kiln-view: --demo and a model are exclusive" - -- --demo m.glb
row 2 'kiln-view: --size: "0x5" is not WxH in \[1, 8192\]' - -- --demo --size 0x5
row 2 'kiln-view: --size: "640x" is not WxH in \[1, 8192\]' - -- --demo --size 640x
row 2 'kiln-view: --vsync: "maybe" is not on or off' - -- --demo --vsync maybe
row 2 'kiln-view: --msaa: 2 is not one of 1|4' - -- --demo --msaa 2
row 2 'kiln-view: --frames: 0 is not in \[1, 1000000\]' - -- --demo --screenshot x.png --frames 0
row 2 'kiln-view: --frames: "-3" is not a whole number' - -- --demo --screenshot x.png --frames -3
row 2 "kiln-view: --screenshot needs --frames N" - -- --demo --screenshot x.png
row 2 "kiln-view: --frames goes with --screenshot" - -- --demo --frames 3
row 2 "kiln-view: --env needs a value" - -- --demo --env
row 2 'kiln-view: --time: -1 is not in \[0, inf)' - -- m.glb --time -1
row 2 'kiln-view: --time: "nan" is not a finite number' - -- m.glb --time nan
row 2 "kiln-view: --time and --play are for a model, not --demo" - -- --demo --play
row 2 "kiln-view: --clip needs a value" - -- m.glb --clip
row 2 "kiln-view: --clip is for a model, not --demo" - -- --demo --clip 0
row 2 "kiln-view: --clip 'jump' names no animation of clips.gltf; its clips: 0 'spin', 1 'stretch'" - -- "$models/clips.gltf" --clip jump
row 2 "kiln-view: --clip '2' names no animation of clips.gltf; its clips: 0 'spin', 1 'stretch'" - -- "$models/clips.gltf" --clip 2
row 2 "kiln-view: --clip 'spin' names no animation of clips_static.gltf; it has none" - -- "$tmp/clips_static.gltf" --clip spin
row 1 "kiln-view: cannot open a window: *" - -- "$models/clips.gltf" --clip stretch
row 1 "kiln-view: cannot open a window: *" - -- "$models/clips.gltf" --clip 0
row 1 "kiln-view: $tmp/none.gltf: cannot open: No such file or directory" - -- "$tmp/none.gltf" --clip 0
row 1 "kiln-view: $tmp/bad.script:1: unknown action 'jump'" - -- --demo --script "$tmp/bad.script"
row 1 "kiln-view: $tmp/backwards.script:2: ticks must not go back" - -- --demo --script "$tmp/backwards.script"
row 1 "kiln-view: $tmp/key.script:1: key wants F, C, H, P, V or SPACE, got 'X'" - -- --demo --script "$tmp/key.script"
row 1 "kiln-view: $tmp/hide.script:1: hide wants a node index, got 'two'" - -- --demo --script "$tmp/hide.script"
row 1 "kiln-view: $tmp/none.script: cannot open: No such file or directory" - -- --demo --script "$tmp/none.script"
printf '[{"kind": "frame"},' >"$tmp/malformed.json"
printf '{"kind": "frame"}' >"$tmp/object.json"
printf '[]' >"$tmp/empty.json"
row 2 "kiln-view: --program needs a value" - -- --program
row 2 "kiln-view: --program-texture goes with --program" - -- --demo --program-texture sheet
row 2 "kiln-view: --time and --play are for a model, not --demo" - -- --program "$tmp/empty.json" --play
row 1 "kiln-view: cannot read '$tmp/none.json': No such file or directory" - -- --program "$tmp/none.json"
row 1 "kiln-view: $tmp/malformed.json: malformed JSON: line 1, column 19: *" - -- --program "$tmp/malformed.json"
row 1 "kiln-view: $tmp/object.json: expected a JSON array of messages" - -- --program "$tmp/object.json"
row 1 "kiln-view: cannot open a window: *" - -- --demo
row 1 "kiln-view: cannot open a window: *" - -- --program "$tmp/empty.json"

[ "$failures" -eq 0 ] || { echo "test_view_cli: $failures row(s) failed"; exit 1; }
echo "test_view_cli: all rows pass"
