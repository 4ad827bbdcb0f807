#!/usr/bin/env bash
# e2e_keys.sh -- arbiterd's keys, roles and ownership (arbiterd(8): KEYS AND
# ROLES, OWNERSHIP AND REFUSALS) against tests/e2e_keys.py, an independent
# pyzmq client written from the documentation alone (SPEC.md 2, 8;
# arbiterd(8), arbiter-keyring(5), arbiter-records(5); the pages of arbiter
# keygen, send, audit, list and query; openlog.md): keys made with `arbiter
# keygen`, a keyring of two tables, a judge, a viewer and an organiser, arbiterd with
# CURVE on tcp://127.0.0.1 and a fresh store.  The script checks that unlisted
# and plain clients are refused, that a match belongs to the key that sent
# its header, what each role may see, revocation and fail-closed reloads by
# SIGHUP, the start-up refusals, a clean log and exit 0 on SIGTERM; it prints
# PASS/FAIL lines and "e2e_keys: N passed, N failed".
#
# Skips (77) when /usr/bin/python3 cannot import zmq and msgpack or libzmq has
# no CURVE (Debian: python3-zmq python3-msgpack).
. "$(dirname "$0")/lib.sh"
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
for b in "$ARBITERD" "$ARBITER"; do
    if [ ! -x "$b" ]; then
        echo "FAIL e2e_keys: no program at $b"
        echo "e2e_keys: 0 passed, 1 failed"
        exit 1
    fi
done
py_checks e2e_keys "$top_srcdir/tests/e2e_keys.py" --arbiterd "$ARBITERD" --arbiter "$ARBITER" \
    --fixtures "$top_srcdir/fixtures/snap" --cards "$ARBITER_CARDS"
