#!/usr/bin/env bash
# suite.sh -- run one Criterion suite for `make check` (LOG_COMPILER).
#
# Criterion runs each test in a child process and reports what the test
# asserted; a sanitizer report printed by the child (a leak found at its
# exit, a UBSan "runtime error" that does not abort) does not change that
# report.  So the suite fails here when its output holds one: a leak or
# undefined behaviour in a test is a defect, not noise.
set -u
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
if grep -Eq 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:' "$out"; then
    echo "FAIL $(basename "$1"): a sanitizer report in the suite's output (above)"
    exit 1
fi
exit "$rc"
