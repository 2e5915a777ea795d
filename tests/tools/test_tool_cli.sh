#!/usr/bin/env bash
# Every tool's command line, one row per behaviour: --help prints the usage on stdout and exits 0,
# --version prints "<tool> <version>", a bad command line exits 2 with the usage on stderr, and
# every error message starts with the tool's name. No row touches the GPU.
#   test_tool_cli.sh BIN_DIR VERSION SCRATCH_DIR
set -uo pipefail
bin=$1 version=$2 tmp=$3/tool_cli
mkdir -p "$tmp"
failures=0

# row TOOL STATUS STDOUT_FIRST_LINE STDERR_FIRST_LINE -- ARGS...: a pattern ('' for empty output)
# for the first line of each stream.
row() {
    local tool=$1 status=$2 out_want=$3 err_want=$4; shift 5
    "$bin/$tool" "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$? out_line err_line
    out_line=$(head -n 1 "$tmp/out") err_line=$(head -n 1 "$tmp/err")
    if [ "$got" -ne "$status" ] || [[ "$out_line" != $out_want ]] || [[ "$err_line" != $err_want ]]; then
        printf 'FAIL %s %s: want status %s, stdout "%s", stderr "%s"; got %s, "%s", "%s"\n' \
            "$tool" "$*" "$status" "$out_want" "$err_want" "$got" "$out_line" "$err_line"
        failures=$((failures + 1))
    fi
}

for tool in kiln-render kiln-run; do
    row $tool 0 "usage: $tool *" ''                          -- --help
    row $tool 0 "$tool $version" ''                          -- --version
    row $tool 2 '' "$tool: unknown option '--bogus' (see --help)" -- --bogus
    # The one line names the bad flag and points at --help.
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL $tool --bogus: more than one line on stderr"; failures=$((failures + 1)); }
    row $tool 2 '' "usage: $tool *"                          --
done
row kiln-render 2 '' 'kiln-render: --size: "0x0" is not WxH in \[1, 8192\]' -- --demo -o x.png --size 0x0
row kiln-render 2 '' 'kiln-render: --tonemap: "sepia" is not one of agx|aces|aces-hill|aces-hill-boost|pbr-neutral|none' -- --demo -o x.png --tonemap sepia
row kiln-render 2 '' 'kiln-render: --debug: "wireframe" is not one of none|normals|clusters|overdraw|albedo|cascades|ao|lod' -- --demo -o x.png --debug wireframe
row kiln-render 2 '' 'kiln-render: --exposure: -1 is not in (0, inf)' -- --demo -o x.png --exposure -1
row kiln-render 2 '' 'kiln-render: --bloom-strength: -0.5 is not in (0, inf)' -- --demo -o x.png --bloom-strength -0.5
row kiln-render 2 '' 'kiln-render: --bloom-threshold: "bright" is not a finite number' -- --demo -o x.png --bloom-threshold bright
row kiln-render 2 '' 'kiln-render: --shadow-distance: 0 is not in (0, inf)' -- --demo -o x.png --shadow-distance 0
row kiln-render 2 '' 'kiln-render: --env-rotation: "left" is not a finite number' -- --demo -o x.png --env-rotation left
row kiln-render 2 '' 'kiln-render: --env-intensity: -1 is not in (0, inf)' -- --demo -o x.png --env-intensity -1
row kiln-render 2 '' 'kiln-render: --msaa: 2 is not one of 1|4' -- --demo -o x.png --msaa 2
row kiln-render 2 '' 'kiln-render: --cascade-resolution: 8 is not in \[16, 8192\]' -- --demo -o x.png --cascade-resolution 8
row kiln-render 2 '' "kiln-render: unexpected argument 'b.glb' (see --help)" -- a.glb b.glb -o x.png
# #12 class 7: strict values. A size must not wrap around or carry junk, a missing value is named as
# missing, a float must be finite.
row kiln-render 2 '' 'kiln-render: --size: "4294967297x4294967298" is not WxH in \[1, 8192\]' -- --demo -o x.png --size 4294967297x4294967298
row kiln-render 2 '' 'kiln-render: --size: "64x48junk" is not WxH in \[1, 8192\]' -- --demo -o x.png --size 64x48junk
row kiln-render 2 '' 'kiln-render: --size: "+64x48" is not WxH in \[1, 8192\]' -- --demo -o x.png --size +64x48
row kiln-render 2 '' 'kiln-render: --size: "64x 48" is not WxH in \[1, 8192\]' -- --demo -o x.png --size '64x 48'
row kiln-render 2 '' 'kiln-render: --size: "8193x64" is not WxH in \[1, 8192\]' -- --demo -o x.png --size 8193x64
row kiln-render 2 '' "kiln-render: --size needs a value"                   -- --demo -o x.png --size
row kiln-render 2 '' "kiln-render: -o needs a value"                       -- --demo -o
row kiln-render 2 '' 'kiln-render: --exposure: "inf" is not a finite number' -- --demo -o x.png --exposure inf
row kiln-render 2 '' 'kiln-render: --exposure: "nan" is not a finite number' -- --demo -o x.png --exposure nan
row kiln-render 2 '' 'kiln-render: --ao-radius: "1e39" is not a finite number' -- --demo -o x.png --ao-radius 1e39
row kiln-render 2 '' 'kiln-render: --env-rotation: "inf" is not a finite number' -- --demo -o x.png --env-rotation inf
row kiln-render 2 '' 'kiln-render: --background: "clear" is not sky, transparent or R,G,B in \[0, 1\]' -- --demo -o x.png --background clear
row kiln-render 2 '' 'kiln-render: --background: "255,255,255" is not sky, transparent or R,G,B in \[0, 1\]' -- --demo -o x.png --background 255,255,255
row kiln-render 2 '' "kiln-render: --background needs a value"             -- --demo -o x.png --background
# The map is read before a device is made: a bad one fails without touching the GPU.
echo "not an image" >"$tmp/sky.txt"
row kiln-render 1 '' "kiln-render: $tmp/sky.txt: not a Radiance HDR image" -- --demo -o x.png --env "$tmp/sky.txt"
row kiln-render 1 '' "kiln-render: $tmp/missing.hdr: *"                   -- --demo -o x.png --env "$tmp/missing.hdr"
# The settings flags are in the usage, one line each, generated from the library's table.
# (Into a file: grep -q stops at its match, and pipefail would see the writer's SIGPIPE.)
"$bin/kiln-render" --help >"$tmp/help.txt"
for flag in --msaa --fxaa --no-bloom --no-shadows --wireframe --background --no-culling --atlas-size --contrast --lut; do
    grep -q -- "^  $flag" "$tmp/help.txt" || { echo "FAIL kiln-render --help: no $flag"; failures=$((failures + 1)); }
done
row kiln-run 2 '' "kiln-run: unexpected argument 'b.json' (see --help)"    -- a.json b.json
row kiln-run 1 '' "kiln-run: cannot read '$tmp/missing.json': *"           -- "$tmp/missing.json"
# Only a regular file is read: a directory or a FIFO is refused at once (a FIFO must not block).
rm -f "$tmp/pipe.json"; mkfifo "$tmp/pipe.json"
row kiln-run 1 '' "kiln-run: cannot read '$tmp': is a directory"             -- "$tmp"
row kiln-run 1 '' "kiln-run: cannot read '$tmp/pipe.json': is not a regular file (a FIFO)" -- "$tmp/pipe.json"
rm -f "$tmp/pipe.json"

[ "$failures" -eq 0 ] || { echo "test_tool_cli: $failures row(s) failed"; exit 1; }
echo "test_tool_cli: all rows pass"
