#!/usr/bin/env bash
# e2e_powerloss.sh -- power cuts, simulated, while tables stream (issue 20):
# "nothing acknowledged is ever lost" when the machine stops, not only the
# daemon (tests/powerloss/README.md).
#
#   POWERLOSS_CRASHES=1000 tests/e2e_powerloss.sh    the long run (make torture)
#   (make check runs POWERLOSS_CRASHES, default 24)
#   POWERLOSS_SEED=N     the run's seed (default: the clock; printed)
#   POWERLOSS_KEEP=1     keep a copy of the store before each cut, so that a
#                        failing cut can be replayed (a copy per crash)
#
# arbiterd runs with libpowerloss.so preloaded: every write to its data
# file is journaled with the bytes it overwrites until an fsync, fdatasync
# or O_DSYNC write makes it durable.  Tables stream Snap fixtures (a slice
# of them per "epoch", match ids suffixed so that no epoch meets another's
# records) through `arbiter send`, which resends what got no verdict.  The
# daemon dies, again and again: two lives in three at a crash point inside
# the store's I/O (POWERLOSS_CRASH_AT: its n-th write or sync, where a
# commit is under way), else killed with SIGKILL at a random moment.  Then
# powercut keeps, drops or tears each write that was not durable, from a
# seed, and after every cut:
#   - storecheck: every verdict a table has received is in the store, as
#     received; every stored match's chain, record links and seal compute
#     again;
#   - the daemon starts on the store, and its start check (every chain
#     again) finds no damaged match (health: damaged_matches 0).
# At the end, the last epoch streams to its end, and every match is
# audited with `arbiter audit` (store_check_all, as e2e_torture.sh does).
#
# First, the simulation is shown to bite: selftest (a program writing a
# file of known bytes) keeps every synced byte through a dozen cuts, and
# loses some once it skips its syncs; arbiterd with LMDB opened
# MDB_NOMETASYNC or MDB_NOSYNC (POWERLOSS_LMDB_UNSAFE, a switch of the test
# library, not of the daemon) loses acknowledged verdicts or its store.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
command -v jq >/dev/null || { echo "jq is needed"; exit 77; }
CRASHES=${POWERLOSS_CRASHES:-24}
SEED=${POWERLOSS_SEED:-$(date +%s)}
KEEP=${POWERLOSS_KEEP:-0}
PL=$top_builddir/tests/powerloss
LIB=$PL/libpowerloss.so
RANDOM=$SEED                       # crash points and moments follow the seed
SLICE=40                           # fixtures per epoch
RATE=25                            # events per second per table (8 tables)
IO_SPAN=60                         # crash points: the 1st..60th write or sync of a life
t0=$SECONDS
echo "  seed $SEED (POWERLOSS_SEED=$SEED reruns the same cuts and crash points)"
# A sanitizer build's runtime must come first among the libraries; an
# LD_PRELOAD'ed library comes before it.  libpowerloss.so is not
# instrumented and allocates nothing the runtime must see, so the check
# is switched off for the processes it is preloaded into.
asan=()
[ "$SANITIZERS" = yes ] && asan=("ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")

# ---- the layer on a file whose every byte is known ----------------------------------------
# selftest_cuts [--skip-sync]: selftest writes $TMP/st/file under the
# library and is killed; the file is cut with seeds 1..12 from the same
# state, each cut checked.  Cut lines in $TMP/st/cuts, checks in
# $TMP/st/checks.
selftest_cuts() {
    local p i seed
    rm -rf "$TMP/st"
    mkdir -p "$TMP/st"
    env "${asan[@]}" LD_PRELOAD="$LIB" POWERLOSS_JOURNAL="$TMP/st/journal" POWERLOSS_FILES="$TMP/st/file" \
        "$PL/selftest" write "$TMP/st/file" "$@" >"$TMP/st/out" 2>&1 &
    p=$!
    for i in $(seq 1 100); do
        grep -qs written "$TMP/st/out" && break
        sleep 0.05
    done
    kill -KILL $p
    wait $p 2>/dev/null
    cp "$TMP/st/file" "$TMP/st/precut"
    for seed in $(seq 1 12); do
        cp "$TMP/st/precut" "$TMP/st/file"
        "$PL/powercut" "$TMP/st/journal" "$seed" >>"$TMP/st/cuts" 2>&1 || echo "powercut failed" >>"$TMP/st/cuts"
        "$PL/selftest" check "$TMP/st/file" >>"$TMP/st/checks" 2>&1
    done
}
sum_field() { sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" "$2" | awk '{ n += $1 } END { print n + 0 }'; }

selftest_cuts
ok=$(grep -c '^OK:' "$TMP/st/checks")
three=$(grep -c ' 3 not durable' "$TMP/st/cuts")
kept=$(sum_field 'sectors kept' "$TMP/st/checks")
back=$(sum_field 'put back,' "$TMP/st/checks")
torn=$(sum_field 'blocks torn' "$TMP/st/checks")
[ "$ok" -eq 12 ] && pass "selftest: every synced byte survives 12 power cuts (fdatasync and an O_DSYNC write hold)" ||
    fail "selftest: synced bytes lost in $((12 - ok)) of 12 cuts: $(grep -v '^OK' "$TMP/st/checks" | head -n 5)"
[ "$three" -eq 12 ] && pass "selftest: the library saw the three writes after the last sync as the only ones not durable" ||
    fail "selftest: not durable, per cut: $(sed -n 's/.*; \([0-9]*\) not durable.*/\1/p' "$TMP/st/cuts" | tr '\n' ' ') (3 expected): $(head -n 3 "$TMP/st/cuts")"
[ "$kept" -gt 0 ] && [ "$back" -gt 0 ] && [ "$torn" -gt 0 ] &&
    pass "selftest: the cuts kept $kept sectors written after the sync, put $back back, and tore $torn blocks" ||
    fail "selftest: the cuts did not cut: $kept sectors kept, $back put back, $torn blocks torn"
selftest_cuts --skip-sync
lost=$(grep -c '^LOST' "$TMP/st/checks")
[ "$lost" -gt 0 ] && pass "selftest --skip-sync (acknowledges without syncing): the cut loses acknowledged bytes ($lost findings in 12 cuts)" ||
    fail "selftest --skip-sync: 12 cuts lost nothing: the simulation does not bite"

# ---- arbiterd's lives ---------------------------------------------------------------------
# life_start [UNSAFE]: arbiterd on $STORE with the library and a fresh
# journal; two lives in three with a crash point (none with UNSAFE, which
# opens LMDB unsafely: POWERLOSS_LMDB_UNSAFE).  0 serving (LIFE_AT: its
# crash point, or empty), 1 it died at its crash point before it served
# (during its start), 2 it did not start (printed).
life_start() {
    local at=
    rm -f "$TMP/journal"
    [ $((RANDOM % 3)) -ne 0 ] && [ -z "${1:-}" ] && at=$((RANDOM % IO_SPAN + 1))
    LIFE_AT=$at
    DAEMON_ENV=("${asan[@]}" LD_PRELOAD="$LIB" POWERLOSS_JOURNAL="$TMP/journal" POWERLOSS_FILES="$STORE/data.mdb")
    [ -n "$at" ] && DAEMON_ENV+=("POWERLOSS_CRASH_AT=$at")
    [ -n "${1:-}" ] && DAEMON_ENV+=("POWERLOSS_LMDB_UNSAFE=$1")
    daemon_start 2>"$TMP/start.err" && return 0
    [ "$DSTATUS" = 137 ] && [ -n "$at" ] && return 1
    cat "$TMP/start.err"
    return 2
}

# life_end: the daemon dies, by its crash point or by SIGKILL now
# (LIFE_SELF 1: it had died by itself, which its journal must show was its
# crash point).  1 when it had died of something else (printed).
life_end() {
    LIFE_SELF=0
    kill -0 "$DPID" 2>/dev/null || LIFE_SELF=1
    daemon_kill
    if [ $LIFE_SELF -eq 1 ] && { [ "$DSTATUS" != 137 ] || [ -z "$LIFE_AT" ]; }; then
        echo "  arbiterd died by itself (exit status $DSTATUS, crash point ${LIFE_AT:-none}):"
        tail -n 20 "$TMP/arbiterd.log"
        return 1
    fi
    return 0
}

# life_clean LOGSIZE: the daemon just started found no damaged match: its
# health says none (unless it has died at its crash point since: life_end
# holds it to that), and its log since byte LOGSIZE has no error (its start
# check logs each damaged match as one).
life_clean() {
    if tail -c +$(($1 + 1)) "$TMP/arbiterd.log" | grep -E 'AddressSanitizer|runtime error|arbiterd: error' >"$TMP/errors"; then
        head -n 5 "$TMP/errors"
        return 1
    fi
    local i
    for i in $(seq 1 20); do   # a loaded machine (make check -j) may be slow to answer
        if timeout 1 "$ARBITER" query --endpoint "$EP_Q" '{"op":"health"}' >"$TMP/health" 2>&1; then
            [ "$(jq .damaged_matches "$TMP/health")" = 0 ] && return 0
            cat "$TMP/health"
            return 1
        fi
        kill -0 "$DPID" 2>/dev/null || return 0
    done
    echo "  no answer to health in 20 s"
    return 1
}

# keep_artefacts WHY: what a failing cut leaves for a person to look at.
keep_artefacts() {
    local dir=$top_builddir/tests/artefacts/powerloss
    rm -rf "$dir"
    mkdir -p "$dir"
    cp -r "$STORE" "$dir/store-after-cut"
    [ -f "$TMP/precut.mdb" ] && cp "$TMP/precut.mdb" "$dir/data.mdb-before-cut"
    cp "$TMP/journal" "$TMP/arbiterd.log" "$dir/" 2>/dev/null
    cp "$TMP"/acked.*.jsonl "$dir/" 2>/dev/null
    printf '%s\nseed %s, cut %s: powercut journal %s\n' "$1" "$SEED" "$crash" "$cut_seed" >"$dir/WHY"
    echo "  kept in $dir"
}

# ---- the simulation bites: arbiterd acknowledging what is not durable ----------------------
# bite MODE CUTS [powercut options]: CUTS times, a fresh store made durably
# (no library), then one life of arbiterd with LMDB opened unsafely
# (POWERLOSS_LMDB_UNSAFE=MODE) while tables stream, killed after a second,
# cut.  BITTEN: the cuts after which the store did not hold what was
# acknowledged, or could not be read, or arbiterd would not start on it.
bite() {
    local mode=$1 cuts=$2 k sp
    shift 2
    BITTEN=0
    snap_corpus "$TMP/bite-corpus" -plbite "$SLICE" 0
    for ((k = 1; k <= cuts; k++)); do
        STORE=$TMP/bite-$mode-$k
        DAEMON_ENV=()
        daemon_start || return 1
        daemon_stop
        "$ARBITER" send --endpoint "$EP_IN" --tables 8 --rate "$RATE" --timeout 400 --json "$TMP/bite-corpus"/*.jsonl \
            >"$TMP/bite.jsonl" 2>/dev/null &
        sp=$!
        life_start "$mode" >/dev/null || return 1
        sleep 1
        life_end || return 1
        sleep 0.5   # the tables read the verdicts sent before the kill
        kill $sp 2>/dev/null
        wait $sp 2>/dev/null
        "$PL/powercut" "$TMP/journal" "$k" "$@" | sed "s/^/  $mode: /"
        if ! "$PL/storecheck" "$STORE" "$TMP/bite.jsonl" >"$TMP/sc" 2>&1; then
            BITTEN=$((BITTEN + 1))
            grep -E 'storecheck|LOST' "$TMP/sc" | sed -n '1p;$p' | sed "s/^/  $mode: /"
        fi
    done
    mv "$TMP/arbiterd.log" "$TMP/arbiterd-$mode.log"   # its findings are the point; the run's log must be clean
}
# From here on, the shell's stderr goes to shell.err: bash tells there of
# each daemon that killed itself at its crash point.  The rest of it is
# printed at the end.
exec 3>&2 2>>"$TMP/shell.err"
bite nometasync 2 --weights 0:1:0
[ "$BITTEN" -eq 2 ] &&
    pass "the simulation bites: arbiterd on LMDB with MDB_NOMETASYNC (its last commit acknowledged before it is durable) loses acknowledged verdicts in every cut that drops what was not durable (2 of 2)" ||
    fail "arbiterd with MDB_NOMETASYNC lost acknowledged verdicts in $BITTEN of 2 cuts that drop what is not durable (2 expected)"
bite nosync 2
[ "$BITTEN" -eq 2 ] &&
    pass "the simulation bites: arbiterd on LMDB with MDB_NOSYNC (nothing durable) loses acknowledged verdicts or its store in every random cut (2 of 2)" ||
    fail "arbiterd with MDB_NOSYNC lost nothing in $((2 - BITTEN)) of 2 random cuts: the simulation does not bite"

# ---- a new store cut while it is made --------------------------------------------------------
# A power cut during arbiterd's first start on an empty folder, at each of
# the new store's first writes and syncs, everything not yet durable
# dropped: nothing was acknowledged, and the store must still open and
# arbiterd start on it (LMDB writes a new file's meta pages unsynced: a
# data.mdb made in place would be no LMDB file after such a cut).
newbad=
for at in 1 2 3 4 5 6; do
    STORE=$TMP/new-$at
    mkdir -p "$STORE"
    rm -f "$TMP/journal"
    DAEMON_ENV=("${asan[@]}" LD_PRELOAD="$LIB" POWERLOSS_JOURNAL="$TMP/journal" POWERLOSS_FILES="$STORE/data.mdb"
                "POWERLOSS_CRASH_AT=$at")
    daemon_start 2>/dev/null && daemon_kill
    "$PL/powercut" "$TMP/journal" "$at" --weights 0:1:0 >"$TMP/cut" 2>&1 || { newbad="powercut at $at: $(cat "$TMP/cut")"; break; }
    if ! "$PL/storecheck" "$STORE" /dev/null >"$TMP/sc" 2>&1; then
        newbad="cut at write or sync #$at: $(cat "$TMP/cut"): $(head -n 3 "$TMP/sc")"
        break
    fi
    DAEMON_ENV=()
    daemon_start 2>"$TMP/start.err" || { newbad="cut at #$at: arbiterd does not start: $(cat "$TMP/start.err")"; break; }
    daemon_stop
done
[ -z "$newbad" ] && pass "a new store cut at each of its first 6 writes and syncs opens, and arbiterd starts on it" ||
    fail "a new store cut while it is made: $newbad"
mv "$TMP/arbiterd.log" "$TMP/arbiterd-new.log"

# ---- the run ---------------------------------------------------------------------------------
STORE=$TMP/store
epoch=0
sp=
events=0
declare -a all_files=()
# start_epoch: the next slice of fixtures streams through `arbiter send`.
start_epoch() {
    epoch=$((epoch + 1))
    snap_corpus "$TMP/e$epoch" "-pl$epoch" "$SLICE" $(( (epoch - 1) * SLICE ))
    local f=("$TMP/e$epoch"/*.jsonl)
    all_files+=("${f[@]}")
    epoch_events=$(cat "${f[@]}" | wc -l)
    events=$((events + epoch_events))
    "$ARBITER" send --endpoint "$EP_IN" --tables 8 --rate "$RATE" --timeout 400 --json "${f[@]}" \
        >"$TMP/acked.$epoch.jsonl" 2>"$TMP/send.$epoch.err" &
    sp=$!
}
# end_epoch: the stream ended: every event got a verdict.  1 if not.
end_epoch() {
    local rc=0 n
    wait $sp || rc=$?
    n=$(wc -l <"$TMP/acked.$epoch.jsonl")
    [ $rc -le 1 ] && [ "$n" -ge "$epoch_events" ] && return 0
    echo "  epoch $epoch: arbiter send exit $rc, $n verdicts for $epoch_events events: $(tail -n 2 "$TMP/send.$epoch.err")"
    return 1
}

crash=0 at_write=0 at_sync=0 in_start=0 at_random=0 pending=0 kept=0 dropped=0 torn=0 sec_back=0 sec_all=0
cuts_with_pending=0 bad=
mkdir -p "$STORE"
life_start
rc=$?
[ $rc -eq 2 ] && { fail "arbiterd starts with libpowerloss.so"; finish; exit 1; }
start_epoch
while [ $crash -lt "$CRASHES" ] && [ -z "$bad" ]; do
    if ! kill -0 "$sp" 2>/dev/null; then
        end_epoch || { bad="epoch $epoch did not end with a verdict for every event"; break; }
        start_epoch
    fi
    LIFE_SELF=0
    if [ $rc -eq 0 ]; then
        sleep "0.$((RANDOM % 60 + 10))"
        life_end || { bad="arbiterd died of something other than its crash point or the kill"; break; }
    fi
    crash=$((crash + 1))
    cut_seed=$((SEED * 1000 + crash))
    [ "$KEEP" = 1 ] && cp "$STORE/data.mdb" "$TMP/precut.mdb"
    if ! "$PL/powercut" "$TMP/journal" "$cut_seed" >"$TMP/cut" 2>&1; then
        cat "$TMP/cut"
        bad="powercut refused or failed at cut $crash"
        break
    fi
    line=$(cat "$TMP/cut")
    if { [ $rc -eq 1 ] || [ $LIFE_SELF -eq 1 ]; } && [[ $line != *"killed at"* ]]; then
        echo "  cut $crash: $line"
        bad="arbiterd died with SIGKILL before its crash point (exit status $DSTATUS): not the test's kill"
        break
    fi
    case $line in
        *"after a write"*) at_write=$((at_write + 1)) ;;
        *"before a sync"*) at_sync=$((at_sync + 1)) ;;
        *) at_random=$((at_random + 1)) ;;
    esac
    [ $rc -eq 1 ] && in_start=$((in_start + 1))
    read -r p k d t b a < <(echo "$line" | sed -n 's/.*; \([0-9]*\) not durable: \([0-9]*\) kept, \([0-9]*\) dropped, \([0-9]*\) torn (\([0-9]*\) of \([0-9]*\) sectors.*/\1 \2 \3 \4 \5 \6/p')
    pending=$((pending + p)) kept=$((kept + k)) dropped=$((dropped + d)) torn=$((torn + t))
    sec_back=$((sec_back + b)) sec_all=$((sec_all + a))
    [ "$p" -gt 0 ] && cuts_with_pending=$((cuts_with_pending + 1))
    if ! "$PL/storecheck" "$STORE" "$TMP"/acked.*.jsonl >"$TMP/sc" 2>&1; then
        echo "  cut $crash: $line"
        head -n 25 "$TMP/sc"
        bad="after cut $crash, the store does not hold what was acknowledged"
        break
    fi
    [ $((crash % 100)) -eq 0 ] &&
        echo "  $crash cuts in $((SECONDS - t0)) s, $(cat "$TMP"/acked.*.jsonl | wc -l) acknowledged verdicts, nothing lost so far"
    logsize=$(stat -c %s "$TMP/arbiterd.log")
    life_start
    rc=$?
    if [ $rc -eq 2 ]; then
        echo "  cut $crash: $line"
        bad="arbiterd does not start after cut $crash"
    elif ! life_clean "$logsize"; then
        echo "  cut $crash: $line"
        bad="after cut $crash, arbiterd reports damaged matches or errors"
    fi
done
[ -n "$bad" ] && keep_artefacts "$bad"
acked_now=$(cat "$TMP"/acked.*.jsonl | wc -l)
secs=$((SECONDS - t0))
echo "  $crash power cuts in $secs s: $((at_write + at_sync)) at a crash point in the store's I/O ($at_write just after a write, $at_sync just before a sync; $in_start before the daemon had answered a health request), $at_random at a random moment"
echo "  writes not durable at the cuts: $pending in $cuts_with_pending cuts: $kept kept, $dropped dropped, $torn torn ($sec_back of $sec_all sectors put back)"
echo "  $epoch epochs of $SLICE fixtures, $events events streamed; $acked_now verdicts acknowledged by then, checked against the store after every cut"
[ -z "$bad" ] && pass "$crash power cuts while tables streamed: after each, every acknowledged verdict stored as acknowledged, every chain recomputes, arbiterd starts with no damaged match" ||
    fail "$bad"
[ -z "$bad" ] && [ "$crash" -eq "$CRASHES" ] && [ $cuts_with_pending -gt 0 ] && [ $dropped -gt 0 ] && [ $torn -gt 0 ] &&
    pass "the cuts had something to take: $cuts_with_pending of $crash found writes not durable; $dropped dropped, $torn torn" ||
    fail "the cuts did not cut: $cuts_with_pending of $crash cuts found writes not durable ($dropped dropped, $torn torn)"

# ---- the end: the last epoch sent again in full, every match audited ----------------------------
# The last life is killed (no cut: a kill loses nothing); a daemon without
# the library serves the last epoch, sent again by a new table program at
# full speed: each event stored already is answered `duplicate` with its
# stored verdict, the others are judged and stored.
[ $rc -eq 0 ] && daemon_kill
kill "$sp" 2>/dev/null
wait "$sp" 2>/dev/null
for f in "$TMP"/acked.*.jsonl; do   # a killed table's last line may be cut short
    [ -z "$(tail -c 1 "$f")" ] || sed -i '$d' "$f"
done
DAEMON_ENV=()
if [ -z "$bad" ] && daemon_start; then
    src=0
    "$ARBITER" send --endpoint "$EP_IN" --tables 8 --json "$TMP/e$epoch"/*.jsonl >"$TMP/acked.end.jsonl" 2>"$TMP/send.end.err" || src=$?
    [ $src -le 1 ] && [ "$(wc -l <"$TMP/acked.end.jsonl")" -eq "$epoch_events" ] &&
        pass "the last epoch sent again: every one of its $epoch_events events answered ($(grep -c '"status":"duplicate"' "$TMP/acked.end.jsonl") duplicate)" ||
        fail "the last epoch sent again: arbiter send exit $src, $(wc -l <"$TMP/acked.end.jsonl") verdicts for $epoch_events events"
    daemon_stop && pass "SIGTERM: exit 0" || fail "SIGTERM: exit code not 0"
    cat "$TMP"/acked.*.jsonl >"$TMP/acked.jsonl"
    store_check_all "$TMP/acked.jsonl" "${all_files[@]}"
    mdb_dump -a "$STORE" >/dev/null && pass "mdb_dump reads the store after $crash power cuts" || fail "mdb_dump cannot read the store"
else
    fail "no final run (above)"
fi
exec 2>&3 3>&-
grep -v ' Killed ' "$TMP/shell.err" >&2
daemon_log_clean && pass "arbiterd's log: no sanitizer report, no error" || fail "arbiterd's log has errors (above)"
echo "  $((SECONDS - t0)) s in all"
finish
