#!/bin/bash
# e2e_broadcast.sh -- the delayed broadcast of the judge's view (arbiterd(8),
# BROADCAST; tests/e2e_broadcast.py says what it checks).
. "$(dirname "$0")/lib.sh"
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
py_checks e2e_broadcast "$top_srcdir/tests/e2e_broadcast.py" --arbiterd "$ARBITERD" --arbiter "$ARBITER" \
    --fixtures "$top_srcdir/fixtures/snap" --cards "$ARBITER_CARDS"
