#!/usr/bin/env bash
# e2e_tamper.sh -- no tampering goes unseen, and nobody who can write the
# store can forge a record the daemon or `arbiter audit` accepts (issues 10
# and 20; arbiter-records(5)).
#
# A real arbiterd stores two matches (one legal, one illegal) on its
# defaults: its key is made beside the store folder, never inside it.  Then
# each kind of tampering is done to a copy of the store with LMDB directly
# (tests/store_tamper, as an LMDB editor would), and `arbiter audit` with
# no options must report it, naming what changed, and exit 1:
#   - a summary rewritten from illegal to legal; the last events deleted;
#   - an event's receive time changed; an event's sender changed;
#   - the stored card database altered; the stored card databases deleted;
#   - an event rewritten and every chain and record link computed again;
#   - the same with a new seal signed by the forger's own key; the seal
#     deleted; an event's bytes flipped;
#   - laundering: a receive time moved, the links computed again, the seal
#     and the store's "format" deleted (the record looks unsealed);
#   - the forgeries of issue 20: the forger's key added to the store's own
#     list of its daemon's keys, with a match rewritten (its sender, or its
#     summary illegal -> legal), its links computed again and sealed with
#     that key.  The store's list is never a reason to trust.
# The daemon started on each forged store names the match in its log and in
# health, takes no event for it (openlog:record), and never seals it again:
# after it ran, the forger's seal is still the one stored.  A key planted
# inside the store folder is not used.  A key arbiter 0.1 left inside the
# store is moved out, its seals still trusted.  After a key change the old
# key's seals count only when --trusted-seals lists it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
TAMPER="$top_builddir/tests/store_tamper"

(cd "$TMP" && "$ARBITER" keygen other >/dev/null) || { fail "keygen"; finish; exit 1; }
daemon_start || { fail "arbiterd starts"; finish; exit 1; }
LEGAL=fixtures/snap/legal-open-concede.jsonl
ILLEGAL=fixtures/snap/illegal-snap_9_4-lock-in-freeze.jsonl
M=$(head -n 1 "$LEGAL" | jq -r .match)
MI=$(head -n 1 "$ILLEGAL" | jq -r .match)
"$ARBITER" send --endpoint "$EP_IN" --quiet "$LEGAL" "$ILLEGAL" >/dev/null 2>&1
daemon_stop || fail "arbiterd stops"

# ---- the key: beside the store, never in it ----------------------------------------
[ -f "$TMP/arbiterd.key" ] && [ -f "$TMP/arbiterd.pub" ] && [ -z "$(ls "$STORE"/*.key 2>/dev/null)" ] &&
    pass "the daemon made its key beside the store ($TMP/arbiterd.key), none inside it" ||
    fail "the daemon's key: $(ls "$TMP" "$STORE")"
[ "$(stat -c %a "$TMP/arbiterd.key")" = 600 ] && pass "its key file is mode 0600" || fail "key mode $(stat -c %a "$TMP/arbiterd.key")"

# audit_case NAME MATCH JQ-TEST TEXT: audit the copy $TMP/NAME with no
# option; exit 1, the JSON passes JQ-TEST, the words contain TEXT.
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

# tamper NAME MODE [MATCH [N [KEY]]]: a copy of the store, altered.
tamper() {
    local name=$1
    shift
    cp -r "$STORE" "$TMP/$name"
    "$TAMPER" "$TMP/$name" "$@" || fail "store_tamper $*"
}

# ---- the untouched record ------------------------------------------------------
"$ARBITER" audit "$M" --db "$STORE" --json >"$TMP/clean.json" 2>/dev/null &&
    jq -e '.intact and .seal.valid and .record_links.intact and .cards.intact and .summary_check.as_judged and
           .seal.signer_checked_against == "home"' "$TMP/clean.json" >/dev/null &&
    pass "the untouched record audits clean with no option: its seal checked against the daemon's key beside the store" ||
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
"$ARBITER" audit "$M" --db "$STORE" --sealed-by "$TMP/arbiterd.pub" >/dev/null 2>&1 &&
    pass "--sealed-by the daemon's .pub: the seal is its" || fail "--sealed-by the daemon's key refused"
"$ARBITER" audit "$M" --db "$STORE" --sealed-by "$TMP/other.pub" >"$TMP/sb.txt" 2>&1
[ $? -eq 1 ] && grep -q "not the key given with --sealed-by" "$TMP/sb.txt" &&
    pass "--sealed-by another key: exit 1, said" || fail "--sealed-by another key was accepted"
# the same store copied where no key of its daemon lies beside it: nothing is trusted
mkdir -p "$TMP/away/x" && cp -r "$STORE" "$TMP/away/x/store"
"$ARBITER" audit "$M" --db "$TMP/away/x/store" >"$TMP/away.txt" 2>&1
[ $? -eq 1 ] && grep -q "no trusted key was found" "$TMP/away.txt" &&
    pass "a store with no daemon key beside it: the audit trusts no seal, exit 1, says to give --sealed-by" ||
    fail "a store away from its key: $(grep seal: "$TMP/away.txt")"
"$ARBITER" audit "$M" --db "$TMP/away/x/store" --trusted-seals "$TMP/arbiterd.pub" >/dev/null 2>&1 &&
    pass "--trusted-seals with the daemon's .pub: accepted" || fail "--trusted-seals with the daemon's .pub refused"
stored=$(mdb_dump -s seals "$STORE" | awk '/^ / { n++ } n == 2 { print; exit }' | tr -d ' ')
[ "${#stored}" -eq 402 ] && pass "a stored seal is 201 bytes, the fields of arbiter-records(5) and nothing else" ||
    fail "a stored seal is $(( ${#stored} / 2 )) bytes"

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
    "which is not the daemon's key beside the store"

tamper unseal unseal "$M"
audit_case unseal "$M" '.seal.findings | index("missing")' "seal: MISSING"

tamper event event "$M" 17
audit_case event "$M" '.chain.broken_at == 17' "hash chain: BROKEN at #17"

tamper launder launder "$M" 5
audit_case launder "$M" '.chain.intact and .record_links.intact and (.seal.findings | index("missing"))' \
    "seal: MISSING"

# The forgeries of issue 20: a match rewritten, its links computed again, a
# seal signed with the forger's key, and that key added to the store's own
# list of its daemon's keys.
tamper relist relist "$M"
audit_case relist "$M" '.chain.intact and (.seal.findings | index("signer"))' \
    "the store lists it among its daemons' keys, but whoever edits a store can add to that list"
tamper forge-peer forge-peer "$M" 7
audit_case forge-peer "$M" '.chain.intact and .record_links.intact and (.seal.findings | index("signer"))' \
    "which is not the daemon's key beside the store"
tamper forge-summary forge-summary "$MI"
audit_case forge-summary "$MI" '(.seal.findings | index("signer")) and (.summary_check.differs | index("status"))' \
    "summary: it does not say what the record says: status"

# ---- the daemon on a forged store -------------------------------------------------
# on_store NAME MATCH SENTENCE [forged]: the daemon started on the copy NAME
# names MATCH (its log has SENTENCE), health lists it damaged, an event for
# it is refused openlog:record, and after the daemon ran the stored seals
# are the ones it found (it sealed nothing it had not verified); with
# `forged`, the seal is still the forger's: --sealed-by its key exits 1.
on_store() {
    local name=$1 m=$2 said=$3 forged=${4:-} seal_before seal_after
    rm -rf "$STORE"
    cp -r "$TMP/$name" "$STORE"
    seal_before=$(mdb_dump -s seals -p "$STORE" | md5sum)
    : >"$TMP/arbiterd.log"
    daemon_start || { fail "$name: arbiterd starts on the forged store"; return; }
    grep -q "match $m: .*$said.*takes no more events" "$TMP/arbiterd.log" &&
        pass "$name: at start the daemon names the match and what it found" ||
        { fail "$name: the daemon started without naming $m"; tail -n 5 "$TMP/arbiterd.log"; }
    "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' >"$TMP/h.json"
    jq -e --arg m "$m" '.damaged_matches >= 1 and (.damaged | map(.match) | index($m))' "$TMP/h.json" >/dev/null &&
        pass "$name: health names the damaged match ($(jq -r --arg m "$m" '.damaged[] | select(.match == $m) | .why' "$TMP/h.json" | cut -c1-90)...)" ||
        fail "$name: health does not name it: $(jq -c '{damaged_matches, damaged}' "$TMP/h.json")"
    grep -h "\"match\":\"$m\"" "$LEGAL" "$ILLEGAL" | tail -n 1 | jq -c '.seq = 999' >"$TMP/next.jsonl"
    "$ARBITER" send --endpoint "$EP_IN" --json "$TMP/next.jsonl" 2>/dev/null |
        jq -e '.status == "illegal" and .rule == "openlog:record"' >/dev/null &&
        pass "$name: one more event for it is refused (openlog:record)" || fail "$name: the forged match took an event"
    daemon_stop || fail "$name: SIGTERM: exit code not 0"
    seal_after=$(mdb_dump -s seals -p "$STORE" | md5sum)
    if [ "$seal_before" = "$seal_after" ] && { [ -z "$forged" ] ||
        ! "$ARBITER" audit "$m" --db "$STORE" --sealed-by "$TMP/arbiterd.pub" >/dev/null 2>&1; }; then
        pass "$name: the daemon sealed nothing it had not verified: the seals are as found${forged:+, --sealed-by its key exits 1}"
    else
        fail "$name: the daemon re-sealed the record"
    fi
}
on_store relist "$M" "not trusted" forged
on_store forge-peer "$M" "not trusted" forged
on_store forge-summary "$MI" "its summary does not say what its events say" forged
on_store rechain "$M" "rewritten"
on_store uncards "$M" "the card database it pins is not in the store"

# A key planted inside the store folder, and a record sealed with it: the
# daemon uses its own key beside the store, says so, and the record is damaged.
(cd "$TMP" && mkdir -p plant && cd plant && "$ARBITER" keygen arbiterd >/dev/null)
cp -r "$TMP/away/x/store" "$TMP/planted"
"$TAMPER" "$TMP/planted" forge-peer "$M" 3 "$TMP/plant/arbiterd.key" || fail "store_tamper forge-peer with a planted key"
cp "$TMP/plant/arbiterd.key" "$TMP/plant/arbiterd.pub" "$TMP/planted/"
on_store planted "$M" "not trusted" forged
grep -q "a key inside the store folder, is not used" "$TMP/arbiterd.log" &&
    pass "planted: the key planted in the store folder is not used, and the log says so" ||
    fail "planted: nothing said of the key inside the store"

# ---- a key left inside the store by arbiter 0.1 is moved out ----------------------
mkdir -p "$TMP/old" && cp -r "$TMP/away/x/store" "$TMP/old/store"
cp "$TMP/arbiterd.key" "$TMP/arbiterd.pub" "$TMP/old/store/"
"$ARBITERD" --db "$TMP/old/store" --ingest "ipc://$TMP/old-in" --feed "ipc://$TMP/old-feed" --query "ipc://$TMP/old-q" \
    --log-level info >"$TMP/old.log" 2>&1 &
opid=$!
for i in $(seq 1 100); do "$ARBITER" query --endpoint "ipc://$TMP/old-q" '{"op":"health"}' >"$TMP/old-h.json" 2>/dev/null && break; sleep 0.1; done
kill -TERM $opid; wait $opid
[ -f "$TMP/old/arbiterd.key" ] && [ ! -e "$TMP/old/store/arbiterd.key" ] && grep -q "moved the daemon's key out of the store folder" "$TMP/old.log" &&
    jq -e '.damaged_matches == 0' "$TMP/old-h.json" >/dev/null &&
    "$ARBITER" audit "$M" --db "$TMP/old/store" >/dev/null 2>&1 &&
    pass "a key arbiter 0.1 left inside the store is moved beside it; its seals stay trusted (no damaged match, audit clean)" ||
    fail "the old key inside the store: $(ls "$TMP/old" "$TMP/old/store"); $(grep -i key "$TMP/old.log" | head -n 3)"

# ---- a key change: the old key's seals count when --trusted-seals lists it -----
rm -rf "$STORE" && cp -r "$TMP/away/x/store" "$STORE"
(cd "$TMP" && "$ARBITER" keygen newkey >/dev/null)
: >"$TMP/arbiterd.log"
daemon_start --key "$TMP/newkey.key" || fail "arbiterd starts with a new key"
"$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' | jq -e '.damaged_matches == 2' >/dev/null &&
    pass "a new key alone: the records sealed by the old one are not trusted (2 damaged)" ||
    fail "a new key alone accepted the old key's seals"
daemon_stop
printf '# the key before the change\n' >"$TMP/trusted"
grep sign-public "$TMP/arbiterd.pub" | sed 's/.*= *//; s/$/ old-daemon/' >>"$TMP/trusted"
: >"$TMP/arbiterd.log"
daemon_start --key "$TMP/newkey.key" --trusted-seals "$TMP/trusted" || fail "arbiterd starts with --trusted-seals"
"$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' >"$TMP/h.json"
jq -e '.damaged_matches == 0 and (.trusted_seals | map(.name) | index("old-daemon"))' "$TMP/h.json" >/dev/null &&
    pass "--trusted-seals with the old key: its seals are trusted, health lists it" ||
    fail "--trusted-seals: $(jq -c '{damaged_matches, trusted_seals}' "$TMP/h.json")"
"$ARBITER" audit "$M" --query "$EP_Q" >/dev/null 2>&1 &&
    pass "an audit over --query trusts what the daemon trusts" || fail "an audit over --query refused the old key's seal"
daemon_stop || fail "SIGTERM: exit code not 0"
"$ARBITER" audit "$M" --db "$STORE" --trusted-seals /nonexistent >"$TMP/ts.txt" 2>&1
[ $? -eq 2 ] && grep -q "trusted-seals" "$TMP/ts.txt" && pass "--trusted-seals with a missing file: exit 2, said" ||
    fail "--trusted-seals with a missing file: $(cat "$TMP/ts.txt")"

# ---- the laundered store: no daemon seals it unless told ------------------------
rm -rf "$STORE"
cp -r "$TMP/launder" "$STORE"
: >"$TMP/arbiterd.log"
daemon_start || { fail "arbiterd starts on the laundered store"; finish; exit 1; }
grep -q "not sealed: a daemon from before seals wrote them, or their seals were removed" "$TMP/arbiterd.log" &&
    "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' | jq -e '.damaged_matches >= 1' >/dev/null &&
    pass "launder: the daemon does not seal an unsealed record on its own; it names it and takes no events for it" ||
    fail "launder: the daemon sealed or ignored an unsealed record: $(grep -m2 -i seal "$TMP/arbiterd.log")"
daemon_stop || fail "SIGTERM: exit code not 0"
"$ARBITER" audit "$M" --db "$STORE" >/dev/null 2>&1
[ $? -eq 1 ] && pass "launder: after that start the record still audits as unsealed" ||
    fail "launder: the record was sealed by a daemon without --seal-legacy"
daemon_start --seal-legacy || { fail "arbiterd --seal-legacy"; finish; exit 1; }
grep -q -- "--seal-legacy: sealed 1 match as they stand" "$TMP/arbiterd.log" &&
    pass "--seal-legacy seals it as it stands, and says what that seal means" || fail "--seal-legacy did not seal"
daemon_stop || fail "SIGTERM: exit code not 0"

grep -E 'AddressSanitizer|LeakSanitizer|runtime error' "$TMP/arbiterd.log" "$TMP/old.log" && fail "sanitizer report in arbiterd's log" ||
    pass "arbiterd's log: no sanitizer report"
finish
