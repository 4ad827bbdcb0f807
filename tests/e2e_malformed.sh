#!/usr/bin/env bash
# Acceptance: the malformed corpus (fixtures/malformed/EXPECT) is rejected by
# the command line with its sentence and exit 2, never a crash, in bounded
# memory: under `ulimit -v 500000` (500 MB of address space) in a plain build.
# A sanitizer build reserves terabytes of shadow memory, so there the corpus
# runs without the limit; `make distcheck` (plain) runs it with the limit,
# and quickstart check runs both.
. "$(dirname "$0")/lib.sh"

limit=500000
if [ "$SANITIZERS" = yes ]; then
    limit=unlimited
    echo "sanitizer build: corpus runs without ulimit -v (distcheck runs it with ulimit -v $limit)"
fi
dir=$top_srcdir/fixtures/malformed
while IFS=$'\t' read -r file want; do
    case "$file" in ''|'#'*) continue ;; esac
    out=$( (ulimit -v "$limit"; "$ARBITER" convert "$dir/$file" - --to jsonl) 2>&1 >/dev/null)
    rc=$?
    if [ $rc -eq 2 ] && [[ "$out" == *"$want"* ]]; then
        pass "$file"
    else
        fail "$file: exit $rc, got: $out; want: $want"
    fi
done <"$dir/EXPECT"

# Raw msgpack-c would try to reserve ~96 GB for `dd ff ff ff ff`; show the
# limit is real by checking that a program asking for 1 GB fails under it.
if [ "$limit" != unlimited ]; then
    if (ulimit -v "$limit"; "$ARBITER" convert /dev/zero - --from mlog --to jsonl) >/dev/null 2>"$TMP/err"; then
        fail "reading an endless stream under ulimit succeeded?"
    elif grep -q 'is larger than' "$TMP/err" || grep -q 'byte 0' "$TMP/err"; then
        pass "an endless stream is refused with a sentence under the limit: $(head -c 120 "$TMP/err")"
    else
        fail "endless stream: $(cat "$TMP/err")"
    fi
fi
finish
