#!/usr/bin/env bash
# e2e_store_damage.sh -- a damaged store never kills the daemon or a
# command by a signal (issue 20), and `arbiter store check|salvage|backup`
# do what arbiter-store(1) says.
#
#   STORE_DAMAGE_TRIALS=600 tests/e2e_store_damage.sh    a long run
#   (make check runs STORE_DAMAGE_TRIALS, default 40; the seed is fixed,
#   STORE_DAMAGE_SEED changes it)
#
# A store of several dozen matches of every format is written through the
# record module (tests/record_bytes, sealed with the key beside the store,
# as arbiterd keeps it).  Then, trial after trial, a copy of it has bytes
# flipped at random -- most in data pages, some anywhere, the meta pages
# included -- and on each copy:
#   - arbiterd starts and serves (the damage missed what it reads, or only
#     some records: they are named damaged) or refuses to start, saying in
#     one line what is damaged and what to do; it never dies of a signal;
#   - `arbiter audit` of two matches and `arbiter list` end with an exit
#     code, never a signal;
#   - `arbiter store check` says clean (0), findings (1) or damaged (4);
#   - every few trials `arbiter store salvage` copies what still verifies
#     into a new store, which then checks clean and serves.
# Also: `store check` of the intact store is clean, and of a tampered one
# names the match; `store backup` beside a running daemon gives a copy that
# checks clean and has every match.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
TRIALS=${STORE_DAMAGE_TRIALS:-40}
SEED=${STORE_DAMAGE_SEED:-2026}
RANDOM=$SEED
PY=/usr/bin/python3
[ -x $PY ] || PY=python3

# ---- the store ------------------------------------------------------------------
logs=()
for f in fixtures/snap/legal-*.jsonl fixtures/snap/illegal-snap_1*.jsonl fixtures/advanced/legal-*.jsonl \
         fixtures/master/legal-*.jsonl; do
    [ "$(head -n 1 "$f" | jq -r .type)" = match ] && logs+=("$f")
done
(cd "$TMP" && "$ARBITER" keygen arbiterd >/dev/null) || { fail "keygen"; finish; exit 1; }
"$top_builddir/tests/record_bytes" "$STORE" "$TMP/arbiterd.key" "$ARBITER_CARDS" "${logs[@]}" ||
    { fail "record_bytes wrote no store"; finish; exit 1; }
matches=($(for f in "${logs[@]}"; do head -n 1 "$f" | jq -r .match; done | sort -u))
size=$(stat -c %s "$STORE/data.mdb")
pass "a store of ${#matches[@]} matches, $((size / 1024)) KiB, sealed with the key beside it"
cp -r "$STORE" "$TMP/intact"

"$ARBITER" store check "$STORE" >"$TMP/check.txt" 2>&1 &&
    grep -q "reads whole; ${#matches[@]} matches" "$TMP/check.txt" &&
    pass "store check of the intact store: exit 0, $(tail -n 1 "$TMP/check.txt")" ||
    fail "store check of the intact store: $(cat "$TMP/check.txt")"
cp -r "$STORE" "$TMP/tampered"
"$top_builddir/tests/store_tamper" "$TMP/tampered" peer "${matches[3]}" 2 >/dev/null
# (stderr apart: a slow check writes its progress there, which is no JSON)
"$ARBITER" store check "$TMP/tampered" --json >"$TMP/tcheck.json" 2>"$TMP/tcheck.err"
[ $? -eq 1 ] && jq -e --arg m "${matches[3]}" '.findings | length == 1 and .[0].match == $m' "$TMP/tcheck.json" >/dev/null &&
    pass "store check of a tampered store: exit 1, names ${matches[3]} ($(jq -r '.findings[0].why' "$TMP/tcheck.json" | cut -c1-70)...)" ||
    fail "store check of a tampered store: $(cat "$TMP/tcheck.json" "$TMP/tcheck.err")"

# ---- flip bytes --------------------------------------------------------------------
# flip FILE SEED: 1-16 random bytes, at random offsets (3 in 4 in data pages,
# past the two meta pages; else anywhere), each XORed with a random non-zero
# value.
flip() {
    "$PY" - "$1" "$2" <<'PY'
import random, sys
path, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
data = bytearray(open(path, 'rb').read())
pages = len(data) // 4096
for _ in range(rng.randint(1, 16)):
    if rng.random() < 0.25 or pages < 3:
        off = rng.randrange(len(data))
    else:
        off = rng.randrange(2, pages) * 4096 + rng.randrange(4096)
    data[off] ^= rng.randint(1, 255)
open(path, 'r+b').write(data)
PY
}

# signal_death RC: 1 when an exit code says the process died of a signal.
signal_death() { [ "$1" -ge 128 ]; }

deaths=0 refused=0 served=0 damaged_found=0 salvaged=0 salvage_bad=0 said=0
for ((t = 1; t <= TRIALS; t++)); do
    rm -rf "$STORE" "$TMP/new"
    cp -r "$TMP/intact" "$STORE"
    flip "$STORE/data.mdb" $((SEED * 100000 + t))
    # the daemon
    : >"$TMP/arbiterd.log"
    "$ARBITERD" --db "$STORE" --ingest "$EP_IN" --feed "$EP_FEED" --query "$EP_Q" --log-level warn \
        >>"$TMP/arbiterd.log" 2>&1 &
    DPID=$!
    up=0
    for i in $(seq 1 150); do
        "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' >/dev/null 2>&1 && { up=1; break; }
        kill -0 "$DPID" 2>/dev/null || break
        sleep 0.1
    done
    if [ $up -eq 1 ]; then
        kill -TERM "$DPID"; wait "$DPID"; rc=$?; served=$((served + 1))
    else
        wait "$DPID"; rc=$?; refused=$((refused + 1))
        grep -q "is damaged: .*arbiter store salvage" "$TMP/arbiterd.log" && said=$((said + 1))
    fi
    DPID=
    if signal_death $rc || grep -qE 'AddressSanitizer|runtime error' "$TMP/arbiterd.log"; then
        deaths=$((deaths + 1))
        fail "trial $t: arbiterd died (exit $rc): $(tail -n 3 "$TMP/arbiterd.log")"
    fi
    # the commands
    for m in "${matches[$((RANDOM % ${#matches[@]}))]}" "${matches[$((RANDOM % ${#matches[@]}))]}"; do
        "$ARBITER" audit "$m" --db "$STORE" >/dev/null 2>"$TMP/audit.err"; rc=$?
        signal_death $rc && { deaths=$((deaths + 1)); fail "trial $t: audit $m died (exit $rc)"; }
        grep -qE 'AddressSanitizer|runtime error' "$TMP/audit.err" && fail "trial $t: sanitizer report from audit"
    done
    "$ARBITER" list --db "$STORE" >/dev/null 2>&1; rc=$?
    signal_death $rc && { deaths=$((deaths + 1)); fail "trial $t: list died (exit $rc)"; }
    "$ARBITER" store check "$STORE" >"$TMP/c.txt" 2>&1; rc=$?
    case $rc in
        0) ;;
        1 | 4) damaged_found=$((damaged_found + 1)) ;;
        *) fail "trial $t: store check exit $rc: $(tail -n 2 "$TMP/c.txt")" ;;
    esac
    if [ $((t % 8)) -eq 0 ] && [ $rc -ne 0 ]; then
        "$ARBITER" store salvage "$STORE" "$TMP/new" >"$TMP/s.txt" 2>&1; src=$?
        if [ $src -le 1 ] && "$ARBITER" store check "$TMP/new" --sealed-by "$TMP/arbiterd.pub" >/dev/null 2>&1; then
            salvaged=$((salvaged + 1))
        else
            salvage_bad=$((salvage_bad + 1))
            fail "trial $t: salvage exit $src, or the salvaged store does not check clean: $(tail -n 2 "$TMP/s.txt")"
        fi
    fi
done
[ $deaths -eq 0 ] &&
    pass "$TRIALS byte-flipped stores: arbiterd, audit, list and store check never died of a signal (daemon served $served, refused $refused)" ||
    fail "$deaths deaths by signal in $TRIALS trials"
[ $refused -eq $said ] && pass "each of the $refused refusals to start said in one line what is damaged and what to do" ||
    fail "$((refused - said)) refusals to start said nothing useful"
[ $damaged_found -gt 0 ] && pass "store check found damage in $damaged_found of $TRIALS (the flips bite)" ||
    fail "no trial damaged anything: the flips do not bite"
[ $salvage_bad -eq 0 ] && [ $salvaged -gt 0 ] &&
    pass "salvage: $salvaged damaged stores salvaged, each new store checks clean" ||
    fail "salvage: $salvaged good, $salvage_bad bad"

# ---- salvage of one known loss, and a backup beside a running daemon ---------------
rm -rf "$STORE" "$TMP/new"
cp -r "$TMP/tampered" "$STORE"
"$ARBITER" store salvage "$STORE" "$TMP/new" --json >"$TMP/salv.json" 2>"$TMP/salv.err"
[ $? -eq 1 ] && jq -e --arg m "${matches[3]}" --argjson n "${#matches[@]}" \
    '.saved == $n - 1 and (.lost | length == 1) and .lost[0].match == $m' "$TMP/salv.json" >/dev/null &&
    pass "salvage of the tampered store: every other match saved, ${matches[3]} listed lost with why" ||
    fail "salvage of the tampered store: $(cat "$TMP/salv.json")"
"$ARBITER" audit "${matches[0]}" --db "$TMP/new" --sealed-by "$TMP/arbiterd.pub" >/dev/null 2>&1 &&
    pass "a salvaged record audits clean in the new store, its seal intact" || fail "a salvaged record does not audit clean"
"$ARBITER" store salvage "$STORE" "$TMP/new" >/dev/null 2>&1
[ $? -eq 2 ] && pass "salvage into a store that exists: refused (exit 2)" || fail "salvage overwrote a store"

rm -rf "$STORE"
cp -r "$TMP/intact" "$STORE"
: >"$TMP/arbiterd.log"
daemon_start || { fail "arbiterd starts on the intact store"; finish; exit 1; }
"$ARBITER" store backup "$STORE" "$TMP/backup" >"$TMP/b.txt" 2>&1 &&
    grep -q "${#matches[@]} matches" "$TMP/b.txt" &&
    pass "store backup beside the running daemon: $(cat "$TMP/b.txt")" || fail "store backup: $(cat "$TMP/b.txt")"
"$ARBITER" store check "$TMP/backup" --sealed-by "$TMP/arbiterd.pub" >/dev/null 2>&1 &&
    pass "the backup checks clean" || fail "the backup does not check clean"
daemon_stop || fail "arbiterd: SIGTERM exit not 0"
"$ARBITER" store backup "$STORE" "$TMP/backup" >/dev/null 2>&1
[ $? -eq 2 ] && pass "backup into a store that exists: refused (exit 2)" || fail "backup overwrote a store"
finish
