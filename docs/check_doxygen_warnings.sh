#!/usr/bin/env bash
# Runs Doxygen over the public headers and fails, printing them, on any warning: every public
# function, type, field, value and macro is documented, and every doc comment parses.
#   check_doxygen_warnings.sh DOXYGEN DOCS_DIR
set -euo pipefail
doxygen=$1 docs=$2
"$doxygen" "$docs/Doxyfile"
count=$(grep -c 'warning:' "$docs/warnings.log" || true)
if [ "$count" -ne 0 ]; then
    cat "$docs/warnings.log"
    echo "test_docs_warnings: $count Doxygen warnings in the public headers; document what they name"
    exit 1
fi
echo "test_docs_warnings: no Doxygen warnings"
