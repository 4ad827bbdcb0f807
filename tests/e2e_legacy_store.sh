#!/usr/bin/env bash
# Records written by an earlier release must still audit clean (issue 11):
# the per-event state hash is the engines' canonical encoding of their state,
# and it may not drift under records already kept.  See
# fixtures/stores/release-0.1.0/README.md.
. "$(dirname "$0")/lib.sh"
src=$top_srcdir/fixtures/stores/release-0.1.0
mkdir -p "$TMP/db"
gzip -dc "$src/data.mdb.gz" > "$TMP/db/data.mdb" || { fail "cannot unpack the store"; finish; exit; }
# The store is opened read-only; keep the fixture's copy untouched.
n=0
while read -r match want head status; do
    n=$((n + 1))
    out=$TMP/$match.json
    "$ARBITER" audit "$match" --db "$TMP/db" --sealed-by "$src/arbiterd.pub" --head "$head" --json > "$out"
    rc=$?
    [ "$rc" -eq "$want" ] || { fail "$match: audit exit $rc, release 0.1.0 gave $want"; continue; }
    checks=$(jq -r '[.chain.intact, .record_links.intact, .seal.valid, .seal.head_matches,
                      .summary_check.as_judged, .cards.intact, .judged_again.as_stored,
                      .judged_again.verdicts_differ == 0, .judged_again.first_board == null,
                      .summary.status == "'"$status"'"] | map(tostring) | join(" ")' "$out")
    if [ "$checks" = "true true true true true true true true true true" ]; then
        pass "$match: audits as release 0.1.0 wrote it (exit $rc, head $head)"
    else
        fail "$match: chain links seal head summary cards judged verdicts boards status = $checks"
    fi
done < "$src/MATCHES"
[ "$n" -ge 10 ] || fail "only $n matches listed in MATCHES"
finish
