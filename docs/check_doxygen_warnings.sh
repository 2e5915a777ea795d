#!/usr/bin/env bash
# Runs Doxygen and compares its warning count with the count recorded in ALLOWED_FILE: more fails
# (and prints the warnings), fewer fails too, so the record only ever goes down, to zero.
#   check_doxygen_warnings.sh DOXYGEN DOCS_DIR ALLOWED_FILE
set -euo pipefail
doxygen=$1 docs=$2 allowed_file=$3
"$doxygen" "$docs/Doxyfile"
count=$(grep -c 'warning:' "$docs/warnings.log" || true)
allowed=$(tr -dc 0-9 <"$allowed_file")
if [ "$count" -gt "$allowed" ]; then
    cat "$docs/warnings.log"
    echo "test_docs_warnings: $count Doxygen warnings, $allowed allowed ($allowed_file): document what is new"
    exit 1
elif [ "$count" -lt "$allowed" ]; then
    echo "test_docs_warnings: $count Doxygen warnings, fewer than $allowed: lower $allowed_file to $count"
    exit 1
fi
echo "test_docs_warnings: $count Doxygen warnings, as recorded"
