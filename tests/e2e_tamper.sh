#!/usr/bin/env bash
# e2e_tamper.sh -- no tampering goes unseen (issue 10, arbiter-records(5)).
#
# A real arbiterd stores two matches (one legal, one illegal) with its key
# kept outside the store, and stops.  Then each kind of tampering is done to
# a copy of the store with LMDB directly (tests/store_tamper), and
# `arbiter audit` must report it, naming what changed, and exit 1:
#   - a summary rewritten from illegal to legal;
#   - the last events deleted and the summary adjusted;
#   - an event's receive time changed; an event's sender changed;
#   - the stored card database altered (the audit blames the database,
#     not the record); the stored card databases deleted (MISSING);
#   - an event rewritten and every chain and record link computed again;
#   - the same with a new seal signed by the forger's own key;
#   - the seal deleted; an event's bytes flipped (the chain breaks there);
#   - laundering: a receive time moved, the links computed again, the seal
#     and the store's "format" deleted, so that the record looks like one
#     from before seals -- reported unsealed, and no daemon seals it unless
#     started with --seal-legacy;
#   - the forger's key added to the store's list of its daemon's keys: a
#     --db audit says that list is the store's own word; --sealed-by and an
#     audit over --query (the daemon's own key) find the forger's seal.
# The untouched store audits clean, its record head is what --head checks,
# and --sealed-by accepts the daemon's key and refuses another.  Finally
# the daemon starts on a tampered store: it names the match in its log, and
# that match takes no more events (openlog:record).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
TAMPER="$top_builddir/tests/store_tamper"

(cd "$TMP" && "$ARBITER" keygen daemon >/dev/null && "$ARBITER" keygen other >/dev/null) || { fail "keygen"; finish; exit 1; }
daemon_start --key "$TMP/daemon.key" || { fail "arbiterd starts"; finish; exit 1; }
LEGAL=fixtures/snap/legal-open-concede.jsonl
ILLEGAL=fixtures/snap/illegal-snap_9_4-lock-in-freeze.jsonl
M=$(head -n 1 "$LEGAL" | jq -r .match)
MI=$(head -n 1 "$ILLEGAL" | jq -r .match)
"$ARBITER" send --endpoint "$EP_IN" --quiet "$LEGAL" "$ILLEGAL" >/dev/null 2>&1
daemon_stop || fail "arbiterd stops"

# audit_case NAME MATCH JQ-TEST TEXT: audit the copy $TMP/NAME; exit 1, the
# JSON passes JQ-TEST, the words contain TEXT.
audit_case() {
    local name=$1 m=$2 test=$3 text=$4 rc=0
    "$ARBITER" audit "$m" --db "$TMP/$name" --json >"$TMP/$name.json" 2>"$TMP/$name.err" || rc=$?
    "$ARBITER" audit "$m" --db "$TMP/$name" >"$TMP/$name.txt" 2>&1
    if [ $rc -eq 1 ] && jq -e "$test" "$TMP/$name.json" >/dev/null && grep -qF -- "$text" "$TMP/$name.txt"; then
        pass "$name: audit reports it ($(grep -F -- "$text" "$TMP/$name.txt" | head -n 1 | sed 's/^ *//'))"
    else
        fail "$name: audit exit $rc, $(jq -c '{chain, record_links, seal, summary_check, cards}' "$TMP/$name.json" 2>/dev/null) $(cat "$TMP/$name.err")"
        grep -v '^  #' "$TMP/$name.txt" | head -n 12
    fi
}

# tamper NAME MODE [MATCH [N]]: a copy of the store, altered.
tamper() {
    local name=$1
    shift
    cp -r "$STORE" "$TMP/$name"
    "$TAMPER" "$TMP/$name" "$@" || fail "store_tamper $*"
}

# ---- the untouched record ------------------------------------------------------
"$ARBITER" audit "$M" --db "$STORE" --json >"$TMP/clean.json" 2>/dev/null &&
    jq -e '.intact and .seal.valid and .record_links.intact and .cards.intact and .summary_check.as_judged' \
        "$TMP/clean.json" >/dev/null &&
    pass "the untouched record audits clean: chain, links, seal, summary, card database" ||
    fail "the untouched record: $(jq -c '{intact, seal, record_links, cards, summary_check}' "$TMP/clean.json")"
head=$(jq -r .seal.head "$TMP/clean.json")
"$ARBITER" audit "$M" --db "$STORE" >"$TMP/clean.txt"
grep -q "record head: $head (write it on the match slip)" "$TMP/clean.txt" &&
    pass "the audit prints the record head for the match slip ($head)" || fail "no record head printed"
"$ARBITER" audit "$M" --db "$STORE" --head "$head" >/dev/null 2>&1 &&
    pass "--head with the head written on the slip: exit 0" || fail "--head $head refused"
"$ARBITER" audit "$M" --db "$STORE" --head 0000-0000-0000 >"$TMP/h.txt" 2>&1
[ $? -eq 1 ] && grep -q "NOT 0000-0000-0000" "$TMP/h.txt" && pass "--head with another head: exit 1, said" ||
    fail "--head with a wrong head was accepted"
"$ARBITER" audit "$M" --db "$STORE" --sealed-by "$TMP/daemon.pub" >/dev/null 2>&1 &&
    pass "--sealed-by the daemon's .pub: the seal is its" || fail "--sealed-by the daemon's key refused"
"$ARBITER" audit "$M" --db "$STORE" --sealed-by "$TMP/other.pub" >"$TMP/sb.txt" 2>&1
[ $? -eq 1 ] && grep -q "not the key given with --sealed-by" "$TMP/sb.txt" &&
    pass "--sealed-by another key: exit 1, said" || fail "--sealed-by another key was accepted"

# ---- each tampering -----------------------------------------------------------
tamper summary summary "$MI"
"$ARBITER" list --db "$TMP/summary" --status illegal 2>/dev/null | grep -q "$MI" &&
    fail "the rewritten summary still lists as illegal (the tamper did nothing)" ||
    pass "the rewritten summary hides the match from list --status illegal"
audit_case summary "$MI" '(.seal.findings | index("summary")) and (.summary_check.differs | index("status"))' \
    "the summary is not the one sealed: it was rewritten"
grep -q "summary: it does not say what the record says: status" "$TMP/summary.txt" &&
    pass "summary: the audit says what the record says instead" || fail "summary: the status difference is not named"

tamper truncate truncate "$M" 3
audit_case truncate "$M" '.seal.findings | index("events")' "events were removed"

tamper received received "$M" 5
audit_case received "$M" '.record_links.broken_at == 5 and .chain.intact' \
    "record links: BROKEN at #5: the receive time or sender of #5 was changed"

tamper peer peer "$M" 7
audit_case peer "$M" '.record_links.broken_at == 7 and .chain.intact' \
    "record links: BROKEN at #7: the receive time or sender of #7 was changed"

tamper cards cards
audit_case cards "$M" '(.cards.intact | not) and .chain.intact and .record_links.intact and .seal.valid' \
    "card database: ALTERED"

tamper uncards uncards
audit_case uncards "$M" '(.cards.missing) and .chain.intact and .seal.valid' "card database: MISSING"

tamper rechain rechain "$M" 10
audit_case rechain "$M" '.chain.intact and .record_links.intact and (.seal.findings | index("heads"))' \
    "rewritten and their chain computed again"

tamper resign resign "$M"
audit_case resign "$M" '.chain.intact and (.seal.findings | index("signer"))' \
    "which is not a key this store's daemon sealed with"

tamper unseal unseal "$M"
audit_case unseal "$M" '.seal.findings | index("missing")' "seal: MISSING"

tamper event event "$M" 17
audit_case event "$M" '.chain.broken_at == 17' "hash chain: BROKEN at #17"

# A receive time moved, the record links computed again (they are not keyed),
# the seal and the store's "format" deleted: the record looks like one from
# before seals.  It must not pass for intact, nor be sealed by the next daemon.
tamper launder launder "$M" 5
audit_case launder "$M" '.chain.intact and .record_links.intact and (.seal.findings | index("missing"))' \
    "seal: MISSING"

# Re-signed by the forger, whose key is then added to the store's own list of
# its daemon's keys: a --db audit takes that list at its word (and says so),
# --sealed-by with the daemon's key does not, nor does an audit over --query.
tamper relist relist "$M"
"$ARBITER" audit "$M" --db "$TMP/relist" >"$TMP/relist.txt" 2>&1
grep -q "a store can be edited: --sealed-by with the daemon's .pub" "$TMP/relist.txt" &&
    pass "relist: a --db audit without --sealed-by says the store's list of keys is its own word" ||
    fail "relist: the --db audit does not say whose word the signer rests on"
"$ARBITER" audit "$M" --db "$TMP/relist" --sealed-by "$TMP/daemon.pub" >"$TMP/relist-sb.txt" 2>&1
[ $? -eq 1 ] && grep -q "not the key given with --sealed-by" "$TMP/relist-sb.txt" &&
    pass "relist: --sealed-by with the daemon's key finds the forger's seal" || fail "relist: --sealed-by accepted the forger's seal"

# ---- the daemon on a tampered store -----------------------------------------------
rm -rf "$STORE"
cp -r "$TMP/rechain" "$STORE"
daemon_start --key "$TMP/daemon.key" || { fail "arbiterd starts on a tampered store"; finish; exit 1; }
grep -q "match $M: .*rewritten.*takes no more events" "$TMP/arbiterd.log" &&
    pass "at start the daemon names the tampered match and what it found" ||
    { fail "the daemon started on a tampered store without a word"; tail -n 5 "$TMP/arbiterd.log"; }
"$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' | jq -e '.damaged_matches == 1' >/dev/null &&
    pass "health counts one damaged match" || fail "health does not count the damaged match"
tail -n 1 "$LEGAL" | jq -c '.seq = 999' >"$TMP/next.jsonl"
"$ARBITER" send --endpoint "$EP_IN" --json "$TMP/next.jsonl" 2>/dev/null | jq -e '.status == "illegal" and .rule == "openlog:record"' >/dev/null &&
    pass "an event for the damaged match is refused (openlog:record)" || fail "the damaged match took an event"
daemon_stop && pass "SIGTERM: exit 0" || fail "SIGTERM: exit code not 0"

# The relisted store under its daemon: an audit over --query checks the seal
# against the key the daemon seals with, not against the store's list.
rm -rf "$STORE"
cp -r "$TMP/relist" "$STORE"
daemon_start --key "$TMP/daemon.key" || { fail "arbiterd starts on the relisted store"; finish; exit 1; }
"$ARBITER" audit "$M" --query "$EP_Q" >"$TMP/relist-q.txt" 2>&1
[ $? -eq 1 ] && grep -q "not the key the daemon seals with" "$TMP/relist-q.txt" &&
    pass "relist: an audit over --query checks the seal against the daemon's own key" ||
    fail "relist: the audit over --query accepted the forger's seal: $(grep seal: "$TMP/relist-q.txt")"
daemon_stop || fail "SIGTERM: exit code not 0"

# The laundered store under a daemon: without --seal-legacy it is not sealed,
# it is named and takes no events; with it, the administrator's word seals it.
rm -rf "$STORE"
cp -r "$TMP/launder" "$STORE"
daemon_start --key "$TMP/daemon.key" || { fail "arbiterd starts on the laundered store"; finish; exit 1; }
grep -q "not sealed: a daemon from before seals wrote them, or their seals were removed" "$TMP/arbiterd.log" &&
    "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' | jq -e '.damaged_matches >= 1' >/dev/null &&
    pass "launder: the daemon does not seal an unsealed record on its own; it names it and takes no events for it" ||
    fail "launder: the daemon sealed or ignored an unsealed record: $(grep -m2 -i seal "$TMP/arbiterd.log")"
daemon_stop || fail "SIGTERM: exit code not 0"
"$ARBITER" audit "$M" --db "$STORE" >/dev/null 2>&1
[ $? -eq 1 ] && pass "launder: after that start the record still audits as unsealed" ||
    fail "launder: the record was sealed by a daemon without --seal-legacy"
daemon_start --key "$TMP/daemon.key" --seal-legacy || { fail "arbiterd --seal-legacy"; finish; exit 1; }
grep -q -- "--seal-legacy: sealed 1 match as they stand" "$TMP/arbiterd.log" &&
    pass "--seal-legacy seals it as it stands, and says what that seal means" || fail "--seal-legacy did not seal"
daemon_stop || fail "SIGTERM: exit code not 0"

grep -E 'AddressSanitizer|LeakSanitizer|runtime error' "$TMP/arbiterd.log" && fail "sanitizer report in arbiterd's log" ||
    pass "arbiterd's log: no sanitizer report"
finish
