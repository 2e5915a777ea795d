#!/usr/bin/env bash
# One tool or benchmark's flag handling, as every one of them must answer (tools/tool_options.h):
# --help prints the usage and the flag list on stdout and exits 0, and an unknown flag exits 2
# with the one line naming it on stderr. No GPU, no window: both answers come before either.
#   test_tool_flags.sh BIN_DIR TOOL [SUBCOMMAND]
set -uo pipefail
bin=$1 tool=$2 sub=${3:-}
name=$tool${sub:+ $sub}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL $name $*"; failures=$((failures + 1)); }

"$bin/$tool" $sub --help >"$tmp/out" 2>"$tmp/err"
status=$?
[ "$status" -eq 0 ] || fail "--help: exit $status, want 0"
[[ "$(head -n 1 "$tmp/out")" == "usage: $name"* ]] || fail "--help: first line '$(head -n 1 "$tmp/out")', want 'usage: $name ...'"
grep -q '^flags:$' "$tmp/out" || fail "--help: no 'flags:' list"
grep -q '^  --help ' "$tmp/out" && grep -q '^  --version ' "$tmp/out" || fail "--help: --help and --version not listed"
[ -s "$tmp/err" ] && fail "--help wrote to stderr: $(cat "$tmp/err")"

"$bin/$tool" $sub --no-such-flag >"$tmp/out" 2>"$tmp/err"
status=$?
want="$name: unknown option '--no-such-flag' (see --help)"
[ "$status" -eq 2 ] || fail "--no-such-flag: exit $status, want 2"
[ "$(cat "$tmp/err")" = "$want" ] || fail "--no-such-flag: stderr '$(cat "$tmp/err")', want '$want'"
[ -s "$tmp/out" ] && fail "--no-such-flag wrote to stdout: $(cat "$tmp/out")"

[ "$failures" -eq 0 ] || exit 1
echo "$name: --help and --no-such-flag answer as every tool must"
