#!/usr/bin/env bash
# e2e_verify.sh -- `arbiter verify` end to end: exit codes, the --json shape,
# identical output for any -j, and the seq bookkeeping of openlog.md 8 on
# logs built here from fixtures/logs/*.jsonl by editing lines with sed:
# a repeated line is a duplicate, a repeated line changed is a conflict, a
# deleted line leaves a gap, a line of another match is illegal.
#
# fixtures/logs/ are codec fixtures, not legal games: which of their events
# the engine finds illegal is the engine's business, so the checks compare
# an edited log with its original instead of hard-coding verdicts.  Legal
# games of the Snap engine (fixtures/snap/legal-*.jsonl), when present, must
# verify legal, and without --cards each log is judged with the database its
# header names.  The JSON is picked apart with grep, sed and jq.
. "$(dirname "$0")/lib.sh"

CARDS="$top_srcdir/fixtures/cards/core.json"
LOGS="$top_srcdir/fixtures/logs"
BASE="$LOGS/snap-open-every-event.jsonl"
V=("$ARBITER" verify --cards "$CARDS")

# run ARGS... : sets $out (stdout), $err (stderr) and $rc.
run() {
    rc=0
    out=$("${V[@]}" "$@" 2>"$TMP/stderr") || rc=$?
    err=$(cat "$TMP/stderr")
}

# expect_rc WANT NAME: pass or fail on $rc; a signal (>= 128) is a crash.
expect_rc() {
    if [ "$rc" -eq "$1" ]; then pass "$2 (exit $rc)"; else fail "$2: want exit $1, got $rc: $err $out"; fi
}

# check COND NAME [why]: COND is a command list run with eval.
check() {
    if eval "$1"; then pass "$2"; else fail "$2: ${3:-$1} -- $out"; fi
}

# count STATUS LINE: that status's count in one --json line.
count() {
    printf '%s\n' "$2" | sed -n "s/.*\"counts\":{[^}]*\"$1\":\([0-9]*\).*/\1/p"
}

# The counts object of a --json line, for comparing two runs.
counts_of() {
    printf '%s\n' "$1" | grep -o '"counts":{[^}]*}'
}

# The file's own status (not a verdict's) in one --json line.
file_status() {
    printf '%s\n' "$1" \
        | sed -n 's/^{"file":"[^"]*","match":[^,]*,"format":[^,]*,"engine":[^,]*,"status":"\([a-z]*\)".*/\1/p'
}

# The verdicts of a --json line, each on a line of its own.
verdicts_of() {
    printf '%s\n' "$1" | sed 's/.*"verdicts":\[//; s/\]\(,"error":.*\)\{0,1\}}$//' \
        | sed 's/},{"/}\n{"/g'
}

# ---- usage ------------------------------------------------------------------
run --help
expect_rc 0 "--help"
check '[[ $out == *"usage: arbiter verify"* ]]' "--help prints the usage"
run
expect_rc 2 "no operand"
run --bogus "$BASE"
expect_rc 2 "unknown option"
run -j 0 "$BASE"
expect_rc 2 "-j 0"
run --cards "$TMP/no-such-cards.json" "$BASE"
expect_rc 2 "missing card database"

# ---- --from LIST: the operands, then the list's paths, in that order -----------
# The same files given as operands and through a list (a file, and stdin)
# give byte-identical reports; a list of 200,000 names (too many for the
# command line under the default 8 MiB stack limit, which allows 2 MiB) is
# one batch with one summary.
legal_logs=("$top_srcdir"/fixtures/snap/legal-*.jsonl)
run "${legal_logs[@]:0:3}" "$BASE"
want_out=$out want_rc=$rc
printf '%s\n' "${legal_logs[@]:1:2}" "" "$BASE" >"$TMP/list"
run "${legal_logs[0]}" --from "$TMP/list"
check '[ "$rc" -eq "$want_rc" ] && [ "$out" = "$want_out" ]' \
    "--from FILE: operands then the list's paths (empty line skipped), the same report as operands"
rc=0
out=$(printf '%s\n' "${legal_logs[@]:1:2}" "$BASE" | "${V[@]}" "${legal_logs[0]}" --from - 2>"$TMP/stderr") || rc=$?
check '[ "$rc" -eq "$want_rc" ] && [ "$out" = "$want_out" ]' "--from -: the list read from stdin"
run --from "$TMP/no-such-list"
expect_rc 2 "--from a missing list"
check '[[ $err == *"cannot open the list"* ]]' "--from a missing list: said so"
run --from - - </dev/null
expect_rc 2 "--from - with the operand -"
: >"$TMP/empty-list"
run --from "$TMP/empty-list"
expect_rc 2 "--from an empty list, no operand: no log file"
seq 1 200000 | sed "s|.*|${legal_logs[0]}|" >"$TMP/big-list"
run --from "$TMP/big-list"
check '[ "$rc" -eq 0 ] && [ "$(tail -n 1 <<<"$out")" = "verified 200000 files: 200000 legal, 0 illegal, 0 unreadable" ]' \
    "--from a list of 200,000 paths: verified 200000 files, all legal" "exit $rc: $(tail -n 1 <<<"$out")"

# ---- --json shape, for every codec fixture -----------------------------------
shape='^\{"file":"[^"]*","match":("[^"]*"|null),"format":("[a-z]*"|null),"engine":("[^"]*"|null),'
shape+='"status":"(legal|illegal|unreadable)","winner":("p1"|"p2"|null),"finished":(true|false),'
shape+='"events":[0-9]+,"counts":\{"ok":[0-9]+,"warning":[0-9]+,"illegal":[0-9]+,"mismatch":[0-9]+,'
shape+='"duplicate":[0-9]+,"conflict":[0-9]+,"gap":[0-9]+,"malformed":[0-9]+\},"unverified":\{"p1":[0-9]+,"p2":[0-9]+\},"verdicts":\[.*\](,"error":"[^"]*")?\}$'
for f in "$LOGS"/*.jsonl; do
    b=$(basename "$f")
    run --json "$f"
    n=$(printf '%s\n' "$out" | grep -c '')
    st=$(file_status "$out")
    if [ "$n" -ne 1 ] || ! printf '%s\n' "$out" | grep -Eq "$shape"; then
        fail "$b: --json is not one object of the documented shape: $out"; continue
    fi
    # exit code follows the status: legal 0, illegal 1, unreadable 2
    case "$st:$rc" in
        legal:0|illegal:1|unreadable:2) ;;
        *) fail "$b: status $st with exit $rc"; continue ;;
    esac
    # every verdict counted, one per event; no ok verdict listed
    sum=0
    for s in ok warning illegal mismatch duplicate conflict gap malformed; do
        sum=$((sum + $(count "$s" "$out")))
    done
    events=$(printf '%s\n' "$out" | sed -n 's/.*"events":\([0-9]*\).*/\1/p')
    listed=$(verdicts_of "$out" | grep -c '"status"')
    if [ "$sum" -ne "$events" ]; then
        fail "$b: counts add up to $sum, not events $events"
    elif [ "$listed" -ne $((events - $(count ok "$out"))) ]; then
        fail "$b: $listed verdicts listed, want every one that is not ok"
    elif printf '%s\n' "$out" | grep -q '"status":"ok"'; then
        fail "$b: an ok verdict is listed"
    elif [ "$st" = unreadable ] && ! printf '%s\n' "$out" | grep -q '"error":"'; then
        fail "$b: unreadable without an error"
    else
        pass "$b: --json shape, status $st, exit $rc, $events events"
    fi
done

# ---- Advanced and Master have engines: their header-and-concession logs are finished games
for fmt in advanced master; do
    run --json "$LOGS/$fmt-header-concede.jsonl"
    if [ "$rc" -eq 0 ] && [[ $out == *'"engine":"'$fmt'/1"'* ]] && [[ $out == *'"status":"legal"'* ]] \
       && [[ $out == *'"finished":true'* ]] && [[ $out == *'"winner":"p1"'* ]]; then
        pass "$fmt log: judged by $fmt/1, legal, p2 conceded"
    else
        fail "$fmt log: want legal and finished by $fmt/1; got $rc: $out"
    fi
done

# ---- unreadable input ---------------------------------------------------------
run "$TMP/missing.jsonl"
expect_rc 2 "missing file"
check '[[ $out == *"missing.jsonl: unreadable: cannot open"* ]]' "missing file reported" 
run --json "$TMP/missing.jsonl"
check '[[ $out == *"\"status\":\"unreadable\""*"\"error\":\"cannot open"* ]]' "missing file: --json error"
: >"$TMP/empty.jsonl"
run "$TMP/empty.jsonl"
expect_rc 2 "empty log"
printf 'this is not json\n' >"$TMP/garbage.jsonl"
sed -n '2,$p' "$BASE" >>"$TMP/garbage.jsonl"
run --json "$TMP/garbage.jsonl"
expect_rc 2 "malformed header"
check '[[ $out == *"\"status\":\"malformed\""* && $out == *"\"status\":\"unreadable\""* ]]' \
    "malformed header: a malformed verdict, file unreadable"
printf '\xdd\xff\xff\xff\xff\x01' >"$TMP/broken.mlog"
run --json "$TMP/broken.mlog"
expect_rc 2 "broken .mlog"
run "$TMP/x.txt"
expect_rc 2 "unknown extension"

# ---- the original, for comparisons ------------------------------------------------
run --json "$BASE"
base_out=$out
base_rc=$rc
N=$(grep -c '' "$BASE")
check '[ "$base_rc" -le 1 ]' "base log verifies (exit $base_rc)"

# .mlog gives the same verdicts as .jsonl
if "$ARBITER" convert "$BASE" "$TMP/base.mlog" 2>"$TMP/stderr"; then
    run --json "$TMP/base.mlog"
    if [ "$rc" -eq "$base_rc" ] && [ "$(verdicts_of "$out")" = "$(verdicts_of "$base_out")" ] \
       && [ "$(counts_of "$out")" = "$(counts_of "$base_out")" ]; then
        pass ".mlog and .jsonl give the same verdicts"
    else
        fail ".mlog verdicts differ: $out vs $base_out"
    fi
else
    fail "convert to .mlog: $(cat "$TMP/stderr")"
fi

# stdin is read as JSON Lines
rc=0
out=$("${V[@]}" --json - <"$BASE" 2>"$TMP/stderr") || rc=$?
check '[ "$rc" -eq "$base_rc" ] && [ "$(verdicts_of "$out")" = "$(verdicts_of "$base_out")" ]' \
    "stdin gives the same verdicts"

# ---- duplicate: a line repeated ----------------------------------------------------
for k in 1 10; do            # line k is seq k-1: the header, then a mid-game event
    seq=$((k - 1))
    sed "${k}p" "$BASE" >"$TMP/dup$k.jsonl"
    run --json "$TMP/dup$k.jsonl"
    dupv=$(verdicts_of "$out" | grep '"status":"duplicate"')
    rest=$(verdicts_of "$out" | grep -v '"status":"duplicate"')
    if [ "$rc" -eq "$base_rc" ] && [ "$(count duplicate "$out")" = 1 ] \
       && [[ $dupv == '{"match":"demo-open-1","seq":'$seq',"status":"duplicate"'*'"stored":{"match":"demo-open-1","seq":'$seq',"status":'* ]] \
       && [ "$rest" = "$(verdicts_of "$base_out")" ] \
       && [ "$(count ok "$out")" = "$(count ok "$base_out")" ]; then
        pass "duplicate of seq $seq: one duplicate verdict with the stored one, nothing else changes"
    else
        fail "duplicate of seq $seq: exit $rc (base $base_rc): $out"
    fi
done

# ---- conflict: a line repeated with other bytes (an unknown key added) -------------
sed '10{p;s/}$/,"zz":1}/}' "$BASE" >"$TMP/conflict.jsonl"
run --json "$TMP/conflict.jsonl"
if [ "$rc" -eq 1 ] && [ "$(count conflict "$out")" = 1 ] \
   && verdicts_of "$out" | grep -q '^{"match":"demo-open-1","seq":9,"status":"conflict"' \
   && [ "$(verdicts_of "$out" | grep -v '"status":"conflict"')" = "$(verdicts_of "$base_out")" ]; then
    pass "conflict at seq 9, exit 1, nothing else changes"
else
    fail "conflict: exit $rc: $out"
fi

# ---- gap: a line deleted -------------------------------------------------------------
k=12                           # seq 11 missing: every later event is ahead of it
sed "${k}d" "$BASE" >"$TMP/gap.jsonl"
run --json "$TMP/gap.jsonl"
first_gap=$(verdicts_of "$out" | grep '"status":"gap"' | head -n 1)
if [ "$rc" -eq 1 ] && [ "$(count gap "$out")" = $((N - k)) ] \
   && [[ $first_gap == '{"match":"demo-open-1","seq":12,"status":"gap",'*'"expect":11}' ]] \
   && ! verdicts_of "$out" | grep '"status":"gap"' | grep -vq '"expect":11}'; then
    pass "gap: seq 12 on expects 11, $((N - k)) gap verdicts, exit 1"
else
    fail "gap: exit $rc, want $((N - k)) gaps expecting 11: $out"
fi

# ---- an event of another match ---------------------------------------------------------
sed '8s/"match":"[^"]*"/"match":"some-other-match"/' "$BASE" >"$TMP/match.jsonl"
run --json "$TMP/match.jsonl"
if [ "$rc" -eq 1 ] \
   && verdicts_of "$out" | grep -q '^{"match":"some-other-match","seq":7,"status":"illegal","rule":"openlog:match"'; then
    pass "an event of another match: illegal openlog:match, exit 1"
else
    fail "match mismatch: exit $rc: $out"
fi

# ---- no header --------------------------------------------------------------------------
sed '1d' "$BASE" >"$TMP/noheader.jsonl"
run --json "$TMP/noheader.jsonl"
if [ "$rc" -eq 1 ] && [[ $out == *'"status":"illegal","rule":"openlog:4"'* ]] \
   && [[ $out == *'"format":null'* ]]; then
    pass "no header: illegal openlog:4, exit 1"
else
    fail "no header: exit $rc: $out"
fi

# ---- another card database named -------------------------------------------------------
sed '1s/"cards":"[^"]*"/"cards":"core@9.9.9"/' "$BASE" >"$TMP/cards.jsonl"
run --json "$TMP/cards.jsonl"
if [ "$rc" -eq 1 ] \
   && verdicts_of "$out" | grep -q '^{"match":"demo-open-1","seq":0,"status":"illegal","rule":"openlog:cards","msg":"[^"]*core@9.9.9'; then
    pass "header naming another card database: illegal openlog:cards, exit 1"
else
    fail "cards mismatch: exit $rc: $out"
fi

# ---- malformed events inside a readable log: a verdict, not a crash --------------------
sed '6s/"type":"[a-z]*"/"type":"bogus"/' "$BASE" >"$TMP/badtype.jsonl"
run --json "$TMP/badtype.jsonl"
if [ "$rc" -eq 1 ] && [ "$(count malformed "$out")" = 1 ] \
   && verdicts_of "$out" | grep -q '^{"match":"demo-open-1","seq":5,"status":"malformed","rule":"openlog:type","msg":"line 6, column'; then
    pass "unknown event type: malformed verdict at seq 5, exit 1"
else
    fail "unknown type: exit $rc: $out"
fi
sed '6s/.\{20\}$//' "$BASE" >"$TMP/truncated.jsonl"
run "$TMP/truncated.jsonl"
expect_rc 1 "a truncated line inside a log"
check '[[ $out == *"  seq "*"  malformed  "*"line 6, column"* ]]' "truncated line: malformed verdict printed"

# ---- human output ---------------------------------------------------------------------
run "$TMP/conflict.jsonl"
check '[[ $out == "$TMP/conflict.jsonl: illegal (snap, $((N + 1)) events: "*"1 conflict"*")"* ]]' \
    "human report line"
check '[[ $out == *$'"'"'\n  seq 9  conflict  openlog:seq  '"'"'* ]]' "human verdict line"
check '[[ $out == *$'"'"'\nverified 1 file: 0 legal, 1 illegal, 0 unreadable'"'"' ]]' "human summary line"
check '[ -z "$err" ]' "no progress line when stderr is not a terminal"

# ---- exit codes over several files: the worst wins, 2 over 1 ---------------------------
run "$TMP/conflict.jsonl" "$TMP/missing.jsonl"
expect_rc 2 "illegal + missing: 2 wins"
run "$TMP/missing.jsonl" "$TMP/conflict.jsonl"
expect_rc 2 "missing + illegal: 2 wins"
check '[[ $out == *"verified 2 files: 0 legal, 1 illegal, 1 unreadable" ]]' "summary counts both"

# ---- -j: same output, in argument order --------------------------------------------------
files=("$LOGS"/*.jsonl "$TMP"/*.jsonl "$TMP/missing.jsonl" "$TMP/base.mlog" "$BASE" "$BASE")
for mode in "" --json; do
    rc1=0; rc4=0
    "${V[@]}" $mode -j 1 "${files[@]}" >"$TMP/j1.out" 2>/dev/null || rc1=$?
    "${V[@]}" $mode -j 4 "${files[@]}" >"$TMP/j4.out" 2>/dev/null || rc4=$?
    "${V[@]}" $mode -j4 "${files[@]}" >"$TMP/j4b.out" 2>/dev/null || true
    if [ "$rc1" -eq "$rc4" ] && cmp -s "$TMP/j1.out" "$TMP/j4.out" && cmp -s "$TMP/j1.out" "$TMP/j4b.out"; then
        pass "-j 1 and -j 4 give identical output ${mode:-(human)}, exit $rc1"
    else
        fail "-j 1 and -j 4 differ ${mode:-(human)}: exit $rc1 vs $rc4: $(diff "$TMP/j1.out" "$TMP/j4.out" | head -5)"
    fi
done
order=$(sed -n 's/^{"file":"\([^"]*\)".*/\1/p' "$TMP/j4.out")
check '[ "$order" = "$(printf "%s\n" "${files[@]}")" ]' "--json lines come in argument order"

# ---- --quiet: only what is not legal, no summary ------------------------------------------
run --quiet "$TMP/conflict.jsonl" "$TMP/missing.jsonl"
check '[[ $out != *"verified "* ]] && [[ $out == *"conflict.jsonl: illegal"* ]]' "--quiet: no summary"

# ---- the engine's own legal games, once they exist -------------------------------------------
for f in "$top_srcdir"/fixtures/snap/legal-*.jsonl; do
    [ -e "$f" ] || break
    run --json "$f"
    if [ "$rc" -eq 0 ] && [[ $out == *'"status":"legal"'* ]]; then
        pass "$(basename "$f"): legal, exit 0"
    else
        fail "$(basename "$f"): want legal, exit 0; got $rc: $out"
    fi
    # snap A31: cut after the decisive attack (no claim), the end of the log
    # closes the open window and the combat still decides the game.
    if [ "$(tail -n 1 "$f" | jq -r .type)" = claim ] && [ "$(tail -n 2 "$f" | head -n 1 | jq -r .type)" = attack ]; then
        head -n -1 "$f" >"$TMP/cut.jsonl"
        want=$(jq -r '.winner' <<<"$out")
        run --json "$TMP/cut.jsonl"
        got=$(jq -r '"\(.finished) \(.winner)"' <<<"$out")
        check '[ "$rc" -eq 0 ] && [ "$got" = "true $want" ]' \
            "$(basename "$f") without its claim: the last combat is fought at the end of the log (A31), winner $want"
    fi
done

# A log of the previous core set (core@1.0.0) verifies with its database,
# which fixtures/cards/ keeps; against core@1.1.0 its header is refused.
old=$top_srcdir/fixtures/snap/legal-open-blocker-disruptor.jsonl
sed 's/"cards":"core@1\.1\.0"/"cards":"core@1.0.0"/' "$old" >"$TMP/core-1.0.0.jsonl"
run --json --cards "$top_srcdir/fixtures/cards/core-1.0.0.json" "$TMP/core-1.0.0.jsonl"
check '[ "$rc" -eq 0 ] && [ "$(jq -r .status <<<"$out")" = legal ]' "a core@1.0.0 log verifies with fixtures/cards/core-1.0.0.json"
run --json "$TMP/core-1.0.0.jsonl"
check '[ "$rc" -eq 1 ] && grep -q openlog:cards <<<"$out"' "a core@1.0.0 log against core@1.1.0: its header is refused (openlog:cards)"

# ---- no --cards, no $ARBITER_CARDS: each log is judged with the database it names -------------
# As a judge runs it, from the top of the source tree: a classic Snap log
# (standard@1), a Snap log (core@1.1.0) and the core@1.0.0 log above, in one
# command, on threads sharing the shelf; a name no database has is still
# judged against core (openlog:cards); --cards or $ARBITER_CARDS still
# judge every log with their one file.
classic=$(ls "$top_srcdir"/fixtures/classic/legal-*.jsonl | head -n 1)
snap=$top_srcdir/fixtures/snap/legal-open-blocker-disruptor.jsonl
sed 's/"cards":"core@1\.1\.0"/"cards":"nothing@9"/' "$snap" >"$TMP/nothing.jsonl"
shelf() {   # shelf ARGS...: arbiter ARGS... from the top of the tree, without $ARBITER_CARDS
    rc=0
    out=$(cd "$top_srcdir" && env -u ARBITER_CARDS "$ARBITER" "$@" 2>"$TMP/stderr") || rc=$?
    err=$(cat "$TMP/stderr")
}
shelf verify --json -j 3 "$classic" "$snap" "$TMP/core-1.0.0.jsonl"
got=$(jq -r '"\(.format) \(.status)"' <<<"$out" | tr '\n' ' ')
check '[ "$rc" -eq 0 ] && [ "$got" = "classic legal snap legal snap legal " ]' \
    "no --cards: a standard@1, a core@1.1.0 and a core@1.0.0 log, each judged with its database, all legal" "exit $rc, got '$got' $err"
shelf verify --json "$TMP/nothing.jsonl"
check '[ "$rc" -eq 1 ] && [ "$(jq -r ".verdicts[0].rule" <<<"$out")" = openlog:cards ] && grep -q "the one at hand is core@1.1.0" <<<"$out"' \
    "no --cards: a log naming a database nobody has is judged against core, openlog:cards"
shelf replay "$classic" --at 10
check '[ "$rc" -eq 0 ] && [[ $out != *openlog:cards* ]] && [ -n "$out" ]' \
    "no --cards: arbiter replay draws a classic log's board at seq 10" "exit $rc: $err"
shelf verify --json --cards fixtures/cards/core.json "$classic"
check '[ "$rc" -eq 1 ] && [ "$(jq -r ".verdicts[0].rule" <<<"$out")" = openlog:cards ]' \
    "--cards fixtures/cards/core.json: the classic log is judged with core alone, openlog:cards"
rc=0
out=$(cd "$top_srcdir" && ARBITER_CARDS=fixtures/cards/core.json "$ARBITER" verify --json "$classic" 2>/dev/null) || rc=$?
check '[ "$rc" -eq 1 ] && [ "$(jq -r ".verdicts[0].rule" <<<"$out")" = openlog:cards ]' \
    "\$ARBITER_CARDS=fixtures/cards/core.json: the classic log is judged with core alone, openlog:cards"

# arbiterd without --cards holds the same databases (arbiterd(8)): its
# verify op judges the classic log legal too.
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
DAEMON_ENV=(-u ARBITER_CARDS)
if daemon_start; then
    jq -cs '{op: "verify", log: .}' "$classic" >"$TMP/classic.req"
    st=$("$ARBITER" query --endpoint "$EP_Q" "$(cat "$TMP/classic.req")" | jq -r .report.status)
    check '[ "$st" = legal ]' "arbiterd without --cards: its verify op judges the classic log legal" "got '$st'"
    daemon_stop >/dev/null
else
    fail "arbiterd starts without --cards"
fi
finish
