#!/bin/bash
# e2e_remedy.sh -- a judge's remedy for an illegal action, batch and live
# (tests/e2e_remedy.py says what it checks; SPEC.md 8.1, fixtures/remedy/).
. "$(dirname "$0")/lib.sh"
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
py_checks e2e_remedy "$top_srcdir/tests/e2e_remedy.py" --arbiterd "$ARBITERD" --arbiter "$ARBITER" \
    --fixtures "$top_srcdir/fixtures/remedy" --cards "$ARBITER_CARDS"
