#!/usr/bin/env bash
# logformat/SPEC.md shows each example event as JSON and as its exact
# MessagePack bytes: the two must agree, as `arbiter convert` encodes the
# JSON (tests/spec_examples.py; --fix there rewrites the bytes).
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
out=$("$PY" "$top_srcdir/tests/spec_examples.py" "$ARBITER" "$top_srcdir/logformat/SPEC.md" 2>&1)
rc=$?
printf '%s\n' "$out" | grep '^FAIL' || true
if [ $rc -eq 0 ]; then pass "$(printf '%s\n' "$out" | tail -n 1)"
else fail "$(printf '%s\n' "$out" | tail -n 1) (tests/spec_examples.py --fix rewrites them)"; fi
finish
