#!/usr/bin/env bash
# e2e_venue.sh -- arbiterd as a venue runs it, checked from outside by
# tests/e2e_venue.py, a client written from the documentation alone
# (logformat/SPEC.md 2, 3, 6, 8; arbiterd(8), with WRITING A TABLE;
# openlog.md), no daemon source read:
#
#   1. a message of more than one frame: one `malformed` verdict, openlog:2;
#   2. a table that never reads its verdicts, and unread query replies: the
#      daemon does not stall or grow; dropped verdicts are counted and stored;
#   3. a garbage flood beside a legal table: the table keeps >= 0.8 of its
#      speed (>= 0.6 when the daemon is built with sanitizers, whose costs
#      are not a venue's: make distcheck checks 0.8 on a plain build), the
#      quarantine and the store stay bounded;
#   4. --max-connections, the descriptor limit, --max-matches;
#   5. a full disk (a tmpfs in a private mount namespace: needs root; without
#      it that check fails, it is not skipped);
#   6. the door: 1,000 half frames or idle peers do not keep a new table out
#      for more than 2 s, a client past a share reads why, match shares, an
#      empty message's one-frame reply.
#
# Each case starts its own $ARBITERD (default $top_builddir/arbiterd) on ipc
# (and tcp) endpoints in a temporary directory with a fresh store and stops it
# with SIGTERM (exit 0).  Prints PASS/FAIL lines and the closing line; exit 0
# only when every check passed; 77 (skip) when /usr/bin/python3 lacks zmq or
# msgpack (Debian: python3-zmq python3-msgpack).  Extra arguments go to the
# script (--only 1,3 runs some cases; --keep keeps the temporary directory).
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
: "${ARBITER_CARDS:=$top_srcdir/fixtures/cards/core.json}"
export top_srcdir top_builddir ARBITERD ARBITER_CARDS
PY=/usr/bin/python3
SCRIPT="$top_srcdir/tests/e2e_venue.py"

if ! "$PY" -c 'import zmq, msgpack' 2>/dev/null; then
    echo "SKIP e2e_venue: $PY cannot import zmq and msgpack (install python3-zmq python3-msgpack)"
    exit 77
fi
if [ ! -x "$ARBITERD" ]; then
    echo "FAIL e2e_venue: no daemon at $ARBITERD"
    echo "e2e_venue: 0 passed, 1 failed"
    exit 1
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$PY" "$SCRIPT" --arbiterd "$ARBITERD" "$@" 2>&1 | tee "$out"
rc=${PIPESTATUS[0]}
# The script prints the closing line itself; if it died before, say so here.
if ! grep -Eq '^e2e_venue: [0-9]+ passed, [0-9]+ failed$' "$out"; then
    echo "FAIL e2e_venue: the script exited $rc without its closing line"
    printf 'e2e_venue: %d passed, %d failed\n' "$(grep -c '^PASS ' "$out")" "$(($(grep -c '^FAIL ' "$out") + 1))"
    exit 1
fi
[ "$rc" -eq 0 ]
