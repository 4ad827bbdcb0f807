#!/usr/bin/env bash
# Acceptance: every fixture log round-trips .jsonl -> .mlog -> .jsonl to the
# same bytes, and .mlog -> .jsonl -> .mlog to the same bytes.
. "$(dirname "$0")/lib.sh"

for f in "$top_srcdir"/fixtures/logs/*.jsonl; do
    b=$(basename "$f" .jsonl)
    if ! "$ARBITER" convert "$f" "$TMP/$b.mlog" 2>"$TMP/err"; then
        fail "$b: jsonl -> mlog: $(cat "$TMP/err")"; continue
    fi
    "$ARBITER" convert "$TMP/$b.mlog" "$TMP/$b.jsonl" 2>"$TMP/err" \
        && cmp -s "$f" "$TMP/$b.jsonl" \
        || { fail "$b: jsonl -> mlog -> jsonl differs $(cat "$TMP/err")"; continue; }
    "$ARBITER" convert "$TMP/$b.jsonl" "$TMP/$b.2.mlog" && cmp -s "$TMP/$b.mlog" "$TMP/$b.2.mlog" \
        || { fail "$b: mlog -> jsonl -> mlog differs"; continue; }
    pass "$b ($(wc -l <"$f") events)"
done

# stdin/stdout with explicit encodings
f=$top_srcdir/fixtures/logs/snap-open-every-event.jsonl
if "$ARBITER" convert --to mlog "$f" - | "$ARBITER" convert --from mlog - - --to jsonl | cmp -s "$f" -; then
    pass "stdin/stdout pipeline"
else
    fail "stdin/stdout pipeline"
fi
# A failed conversion leaves nothing under the output name.
rm -f "$TMP/out.mlog"
"$ARBITER" convert "$top_srcdir/fixtures/malformed/wrong-type.jsonl" "$TMP/out.mlog" 2>/dev/null
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$TMP/out.mlog" ] && [ -z "$(ls "$TMP" | grep tmp)" ]; then
    pass "malformed input: exit 2, no partial output"
else
    fail "malformed input: exit $rc, output left: $(ls "$TMP")"
fi
finish
