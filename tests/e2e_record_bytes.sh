#!/usr/bin/env bash
# e2e_record_bytes.sh -- every byte stored is defined (issue 20).
#
# tests/record_bytes writes records as the daemon's write path does
# (record_judge, record_append, record_summary_text, record_seal: the record
# module), with receive times and senders made from the seq alone.  Then:
#   - two processes writing the same logs leave stores whose every database
#     dumps the same, byte for byte (a stored byte nobody wrote -- stack
#     contents, a struct's padding -- would differ from run to run);
#   - every seal stored is 201 bytes, the fields of arbiter-records(5);
#   - under valgrind (memcheck) the whole write path runs without one
#     uninitialised byte reaching a system call or a decision.  valgrind
#     cannot run a program built with AddressSanitizer, so the sanitizer
#     build runs tests/record_bytes_plain, the same program built without it.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1
command -v mdb_dump >/dev/null || { fail "mdb_dump is needed (Debian's lmdb-utils)"; finish; exit 1; }
TOOL="$top_builddir/tests/record_bytes"
PLAIN=$TOOL
[ "$SANITIZERS" = yes ] && PLAIN="$top_builddir/tests/record_bytes_plain"
LOGS=(fixtures/snap/legal-open-concede.jsonl fixtures/snap/illegal-snap_9_4-lock-in-freeze.jsonl
      fixtures/snap/legal-commit-dawn-vs-fluxion.jsonl fixtures/advanced/legal-announced-lp-8000-p2-wins.jsonl
      fixtures/master/legal-announced-attack-conditions-p2-wins.jsonl)
for f in "${LOGS[@]}"; do
    [ -f "$f" ] || { fail "no fixture $f"; finish; exit 1; }
done
(cd "$TMP" && "$ARBITER" keygen sealer >/dev/null) || { fail "keygen"; finish; exit 1; }

"$TOOL" "$TMP/a" "$TMP/sealer.key" "$ARBITER_CARDS" "${LOGS[@]}" &&
    "$TOOL" "$TMP/b" "$TMP/sealer.key" "$ARBITER_CARDS" "${LOGS[@]}" &&
    pass "two processes wrote and sealed ${#LOGS[@]} matches, each reads back clean (record_check)" ||
    { fail "record_bytes failed"; finish; exit 1; }
mdb_dump -a "$TMP/a" >"$TMP/a.dump" && mdb_dump -a "$TMP/b" >"$TMP/b.dump" &&
    [ "$(grep -c '^ ' "$TMP/a.dump")" -gt 100 ] && cmp -s "$TMP/a.dump" "$TMP/b.dump" &&
    pass "the two stores dump the same, every database byte for byte ($(grep -c '^ ' "$TMP/a.dump") keys and values)" ||
    { fail "the two stores differ"; diff "$TMP/a.dump" "$TMP/b.dump" | head -n 6; }
sizes=$(mdb_dump -s seals "$TMP/a" | awk '/^ / { n++; if (n % 2 == 0) print (length($1) / 2) }' | sort -u)
[ "$sizes" = 201 ] && pass "every seal stored is 201 bytes" || fail "seal sizes: $sizes"

# The check must be able to fail: a byte of a stored seal the writer did not
# set would make the dumps differ.  Plant one difference and see it caught.
cp -r "$TMP/b" "$TMP/c"
"$top_builddir/tests/store_tamper" "$TMP/c" received "$(head -n 1 "${LOGS[0]}" | jq -r .match)" 3 >/dev/null &&
    mdb_dump -a "$TMP/c" >"$TMP/c.dump" && ! cmp -s "$TMP/a.dump" "$TMP/c.dump" &&
    pass "a store one byte apart does not dump the same (the comparison can fail)" ||
    fail "a store one byte apart dumps the same"

if ! command -v valgrind >/dev/null; then
    fail "valgrind is not installed (Debian's valgrind; ./quickstart installs it)"
elif [ ! -x "$PLAIN" ]; then
    fail "no $PLAIN to run under valgrind"
else
    valgrind --error-exitcode=9 --track-origins=yes --leak-check=no --quiet \
        "$PLAIN" "$TMP/v" "$TMP/sealer.key" "$ARBITER_CARDS" "${LOGS[@]}" >"$TMP/vg.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && ! grep -q "uninitialised\|Invalid" "$TMP/vg.log"; then
        pass "valgrind: the write path stores no uninitialised byte and reads none ($(basename "$PLAIN"))"
    else
        fail "valgrind exit $rc"
        head -n 30 "$TMP/vg.log"
    fi
    mdb_dump -a "$TMP/v" >"$TMP/v.dump" && cmp -s "$TMP/a.dump" "$TMP/v.dump" &&
        pass "the store written under valgrind dumps the same as the others" ||
        fail "the store written under valgrind differs"
fi
finish
