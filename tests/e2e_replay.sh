#!/usr/bin/env bash
# e2e_replay.sh -- `arbiter replay` end to end: who sees which hidden card,
# the verdicts so far, the --json shape and the exit codes.
#
# The logs are built here from the scripted game of tests/test_snap.c (its
# BASE[] events and P1_DECK/P2_DECK decks, open mode): a legal one, one with
# a spell and a counter on the chain, one with an attack in progress, and
# one with an illegal event at seq 9.  When fixtures/snap/legal-*.jsonl
# exist, each is also replayed at its end in every view.  No jq or python:
# the JSON is picked apart with grep and sed, as in e2e_verify.sh.
. "$(dirname "$0")/lib.sh"

CARDS="$top_srcdir/fixtures/cards/core.json"
R=("$ARBITER" replay --cards "$CARDS")

# run ARGS... : sets $out (stdout), $err (stderr) and $rc.
run() {
    rc=0
    out=$("${R[@]}" "$@" 2>"$TMP/stderr") || rc=$?
    err=$(cat "$TMP/stderr")
}

expect_rc() {
    if [ "$rc" -eq "$1" ]; then pass "$2 (exit $rc)"; else fail "$2: want exit $1, got $rc: $err"; fi
}

# check COND NAME: COND is a command list run with eval.
check() {
    if eval "$1"; then pass "$2"; else fail "$2: $1 -- $out"; fi
}

# ---- the logs ---------------------------------------------------------------
P1_DECK='{"monsters":["cor-forge-golem","cor-magma-tortoise","cor-ash-sprite","flx-current-eel","flx-frost-skimmer"],"supports":["cor-kindle-fury","cor-searing-brand","cor-stoke-the-forge","cor-heat-haze","cor-crucible-rite","cor-eruption","cor-meltdown","cor-flashpoint-denial","cor-resonant-flare","cor-backdraft","cor-firewall","cor-smolder-trap","flx-undertow","flx-riptide-shift","flx-ebb-and-flow","flx-frozen-moment","flx-deep-current","flx-wave-break","flx-echoing-surge","flx-misdirecting-fog"],"reserve":["cor-forge-colossus"]}'
P2_DECK='{"monsters":["obs-crypt-rat","obs-grave-bat","obs-wraith-sentry","aet-cloud-monk","aet-aether-kite"],"supports":["obs-night-terror","obs-soul-siphon","obs-shadow-step","obs-curse-of-silence","obs-grave-whisper","obs-eclipse-ritual","obs-soul-reap","obs-void-denial","obs-dissonant-whisper","obs-umbral-decoy","obs-dark-mirror","obs-death-grip","aet-radiant-blessing","aet-judgement-ray","aet-skyward-shift","aet-clarity","aet-sanctuary-seal","aet-ward-of-silence","aet-resonant-choir","aet-gale-diversion"],"reserve":["obs-grave-vampire"]}'
HEADER='{"match":"t","seq":0,"type":"match","by":"table","format":"snap","cards":"core@1.1.0","hidden":"open","players":{"p1":{"id":"alice","deck":'"$P1_DECK"'},"p2":{"id":"bob","deck":'"$P2_DECK"'}}}'

# BASE[] of tests/test_snap.c, one event body a line (seq 1..30).
cat >"$TMP/base.txt" <<'EOF'
"type":"bench","by":"p1","slots":["cor-forge-golem","cor-magma-tortoise","cor-ash-sprite","flx-current-eel"]
"type":"bench","by":"p2","slots":["obs-crypt-rat","obs-grave-bat","obs-wraith-sentry","aet-cloud-monk"]
"type":"select","by":"p1","cards":["cor-kindle-fury","cor-searing-brand","cor-stoke-the-forge","flx-riptide-shift","cor-flashpoint-denial"]
"type":"select","by":"p2","cards":["obs-night-terror","obs-soul-siphon","obs-shadow-step","obs-void-denial","obs-dark-mirror","obs-death-grip"]
"type":"promote","by":"p1","slot":0,"card":"cor-forge-golem"
"type":"promote","by":"p2","slot":0,"card":"obs-crypt-rat"
"type":"bench","by":"p1","slot":0,"card":"flx-frost-skimmer"
"type":"flip","by":"p1","slot":1,"card":"cor-magma-tortoise"
"type":"lock","by":"p1","cards":["cor-heat-haze","cor-crucible-rite","cor-eruption"]
"type":"end","by":"p1"
"type":"bench","by":"p2","slot":0,"card":"aet-aether-kite"
"type":"flip","by":"p2","slot":1,"card":"obs-grave-bat"
"type":"lock","by":"p2","cards":["obs-curse-of-silence","obs-grave-whisper","obs-eclipse-ritual"]
"type":"end","by":"p2"
"type":"flip","by":"p1","slot":2,"card":"cor-ash-sprite"
"type":"end","by":"p1"
"type":"flip","by":"p2","slot":2,"card":"obs-wraith-sentry"
"type":"end","by":"p2"
"type":"flip","by":"p1","slot":3,"card":"flx-current-eel"
"type":"end","by":"p1"
"type":"flip","by":"p2","slot":3,"card":"aet-cloud-monk"
"type":"end","by":"p2"
"type":"unlock","by":"p1","lock":0,"card":"cor-heat-haze"
"type":"flip","by":"p1","slot":0,"card":"flx-frost-skimmer"
"type":"lock","by":"p1","cards":["cor-meltdown"]
"type":"end","by":"p1"
"type":"unlock","by":"p2","lock":0,"card":"obs-curse-of-silence"
"type":"flip","by":"p2","slot":0,"card":"aet-aether-kite"
"type":"lock","by":"p2","cards":["obs-soul-reap"]
"type":"end","by":"p2"
EOF

# mklog OUT BODY... : the header, then one event per body, seq 1, 2, ...
mklog() {
    local out=$1 seq=1
    shift
    printf '%s\n' "$HEADER" >"$out"
    for body in "$@"; do
        printf '{"match":"t","seq":%d,%s}\n' "$seq" "$body" >>"$out"
        seq=$((seq + 1))
    done
}

mapfile -t BASE <"$TMP/base.txt"
SPELL='"type":"spell","by":"p1","card":"cor-kindle-fury","targets":[{"p":"p1","s":"a"}]'
COUNTER='"type":"counter","by":"p2","card":"obs-void-denial","targets":[{"seq":16}]'
ATTACK='"type":"attack","by":"p1","target":{"p":"p2","s":"a"}'
EVOLVE='"type":"evolve","by":"p1","slot":"a","card":"cor-forge-colossus"'
TRIGGER='"type":"trigger","by":"p1","source":{"p":"p1","s":"a"},"ability":0,"targets":[]'
NOT_IN_HAND='"type":"spell","by":"p1","card":"cor-meltdown","targets":[{"p":"p2","s":"a"}]'

GAME=$TMP/game.jsonl
mklog "$GAME" "${BASE[@]}"
CHAIN=$TMP/chain.jsonl
mklog "$CHAIN" "${BASE[@]:0:15}" "$SPELL" "$COUNTER"
FIGHT=$TMP/attack.jsonl
mklog "$FIGHT" "${BASE[@]:0:15}" "$SPELL" "$ATTACK"
GROW=$TMP/evolve.jsonl
mklog "$GROW" "${BASE[@]:0:15}" "$EVOLVE" "$TRIGGER"
BAD=$TMP/illegal.jsonl
mklog "$BAD" "${BASE[@]:0:8}" "$NOT_IN_HAND" "${BASE[@]:8}"

for f in "$GAME" "$CHAIN" "$FIGHT" "$GROW"; do
    rc=0
    "$ARBITER" verify --cards "$CARDS" --quiet "$f" >"$TMP/v.out" 2>&1 || rc=$?
    if [ "$rc" -eq 0 ]; then pass "$(basename "$f") is legal"; else fail "$(basename "$f"): $(cat "$TMP/v.out")"; fi
done

# ---- usage and exit codes ---------------------------------------------------
run --help
expect_rc 0 "--help"
run "$GAME"
expect_rc 2 "no --at"
run "$TMP/missing.jsonl" --at 3
expect_rc 2 "missing file"
check '[[ $err == *missing.jsonl* ]]' "missing file named on stderr"
run "$GAME" --at x
expect_rc 2 "--at x"
run "$GAME" --at -1
expect_rc 2 "--at -1"
run "$GAME" --at 3 --view god
expect_rc 2 "unknown view"
run "$GAME" --at 3 --bogus
expect_rc 2 "unknown option"
run "$GAME" "$GAME" --at 3
expect_rc 2 "two files"
run "$top_srcdir/fixtures/logs/master-header-concede.jsonl" --at 1
expect_rc 0 "a Master log"

# ---- who sees what ----------------------------------------------------------
# Seq 10: p1's Round 1 turn is over.  Face-down: p1 slots 0, 2, 3; p2 slots
# 1-3 and p2's fifth waiting; hands, p1's three Locked Supports, reserves.
for v in judge public p1 p2; do
    run "$GAME" --at 10 --view "$v"
    expect_rc 0 "view $v at seq 10"
    printf '%s\n' "$out" >"$TMP/$v.txt"
done
out=$(cat "$TMP/judge.txt")
check 'grep -q "face-down: Ash Sprite" "$TMP/judge.txt"' "judge sees p1's face-down Ash Sprite"
check 'grep -q "face-down: Wraith Sentry" "$TMP/judge.txt"' "judge sees p2's face-down Wraith Sentry"
check 'grep -q "fifth .*Aether Kite" "$TMP/judge.txt"' "judge sees p2's waiting fifth monster"
check 'grep -q "\[0\] Heat Haze; \[1\] Crucible Rite; \[2\] Eruption" "$TMP/judge.txt"' \
    "judge sees p1's Locked Supports in lock order"

# Every identity the judge reads in a hidden zone, the public never reads.
grep -E '^  (active|bench [0-3]|fifth|hand|locked|reserve) ' "$TMP/judge.txt" \
    | sed -n 's/.*face-down: //p; s/^  \(fifth\|hand\|locked\|reserve\) .*: //p' \
    | sed 's/\[[0-9]\] //g; s/; /\n/g; s/, /\n/g' | grep -v '^$' | sort -u >"$TMP/hidden-names.txt"
n=$(wc -l <"$TMP/hidden-names.txt")
check '[ "$n" -ge 15 ]' "the judge view names hidden cards ($n)"
leaks=$(grep -F -f "$TMP/hidden-names.txt" "$TMP/public.txt" || true)
out=$(cat "$TMP/public.txt")
check '[ -z "$leaks" ]' "the public view names no hidden card" "$leaks"
check 'grep -q "^  hand       5 cards$" "$TMP/public.txt"' "the public view counts the hand"
check 'grep -q "^  bench 2    face-down$" "$TMP/public.txt"' "the public view shows face-down only"

# p1 sees their own hand, face-down monsters and Locked Supports, none of p2's.
out=$(cat "$TMP/p1.txt")
check 'grep -q "Kindle Fury" "$TMP/p1.txt"' "p1 sees their own hand"
check 'grep -q "face-down: Ash Sprite" "$TMP/p1.txt"' "p1 sees their own face-down monster"
check 'grep -q "Heat Haze" "$TMP/p1.txt"' "p1 sees their own Locked Support"
check '! grep -q "Night Terror" "$TMP/p1.txt"' "p1 does not see p2's hand"
check '! grep -q "Wraith Sentry\|Aether Kite\|Grave Vampire" "$TMP/p1.txt"' "p1 does not see p2's hidden monsters"
out=$(cat "$TMP/p2.txt")
check 'grep -q "Night Terror" "$TMP/p2.txt" && ! grep -q "Kindle Fury" "$TMP/p2.txt"' "p2 sees their hand, not p1's"

# ---- the board ----------------------------------------------------------------
run "$GAME" --at 10
check 'grep -q "^round 1, p2 (bob) to play, unlock step$" <<<"$out"' "header: round, turn, step"
check 'grep -q "^  bench 1    Magma Tortoise  IMP 1500" <<<"$out"' "a face-up bench monster with its IMP"
run "$CHAIN" --at 17 --view public
check 'grep -q "^window: counter$" <<<"$out"' "the open window"
# Seq 16: a spell and a counter wait on the chain.
# (the engine marks a link negated while the chain resolves, LIFO; before
# that the counter only waits on the chain)
check 'grep -q "^chain: 1\. p1 Kindle Fury (spell, seq 16), 2\. p2 Void Denial (counter, seq 17)$" <<<"$out"' \
    "the chain, oldest link first, with card names"
run "$FIGHT" --at 17
check 'grep -q "^attack: p1 Forge Golem (active) -> p2 Crypt Rat (active)$" <<<"$out"' "the attack in progress"
check 'grep -q "^  active     Forge Golem  IMP 3000 (+1500) = 4500  \[blocker\]$" <<<"$out"' \
    "the IMP with its modifier (Kindle Fury resolved)"
check 'grep -q "^  graveyard  1: Kindle Fury$" <<<"$out"' "the graveyard is public"
check 'grep -q "^window: blocker$" <<<"$out"' "the Blocker window"
run "$GROW" --at 16
check 'grep -q "^  active     Forge Colossus  IMP .*stack: Forge Golem > Forge Colossus$" <<<"$out"' \
    "an evolution stack"
check 'grep -q "^  pending    trigger to announce: Forge Colossus (on_entry)$" <<<"$out"' "a trigger to announce (R11)"
check 'grep -q "^  reserve    0 unused$" <<<"$out"' "the Reserve card is used"
run "$GROW" --at 17
check 'grep -q "^window: resonance$" <<<"$out" && grep -q "^trigger: p1 Forge Colossus, ability 0 (seq 17)$" <<<"$out"' \
    "the announced trigger in its Resonance window"

# ---- past the end, the verdicts so far ------------------------------------------
run "$GAME" --at 999
expect_rc 0 "--at past the end"
check 'grep -q "^note: the log ends at seq 30" <<<"$out"' "past the end: a note"
run "$BAD" --at 8
check 'grep -q "0 verdicts not ok" <<<"$out"' "before the illegal event: no verdict"
run "$BAD" --at 9
expect_rc 0 "at the illegal event"
check 'grep -qE "^  seq 9  illegal  snap:7\.6  .*Meltdown" <<<"$out"' "at the illegal event: its verdict"
check 'grep -q "1 verdict not ok" <<<"$out"' "the count line"
run "$BAD" --at 31
check 'grep -q "seq 9  illegal" <<<"$out" && ! grep -q "seq 1[0-9]  " <<<"$out"' "later events stay ok (R12)"

# ---- --json -----------------------------------------------------------------------
KEYS='^\{"match":"t","seq":[0-9]+,"view":"[a-z0-9]+","round":[0-9]+,"turn":[^,]*,"step":"[a-z]+","window":[^,]*,"chain":\[.*\],"attack":.*,"trigger":.*,"players":\{"p1":\{"name":"alice",.*\},"p2":\{"name":"bob",.*\}\},"over":(true|false),"winner":[^,]*,"verdicts":\[.*\],"note":.*\}$'
for v in public judge p1 p2; do
    run "$BAD" --at 9 --view "$v" --json
    lines=$(printf '%s\n' "$out" | wc -l)
    check '[ "$rc" -eq 0 ] && [ "$lines" -eq 1 ] && grep -qE "$KEYS" <<<"$out"' "--json --view $v: one object, keys in order"
done
check 'grep -q "\"verdicts\":\[{\"match\":\"t\",\"seq\":9,\"status\":\"illegal\",\"rule\":\"snap:7.6\"" <<<"$out"' \
    "--json: the verdict in its wire form"
run "$GAME" --at 10 --view public --json
check '! grep -q "cor-ash-sprite\|obs-wraith-sentry\|cor-kindle-fury\|cor-heat-haze\|cor-forge-colossus" <<<"$out"' \
    "--json public: no hidden id"
check 'grep -q "\"hand\":{\"count\":5,\"cards\":\[null,null,null,null,null\]}" <<<"$out"' "--json public: hidden cards are null"
run "$GAME" --at 10 --view judge --json
check 'grep -q "{\"face_up\":false,\"card\":\"cor-ash-sprite\",\"name\":\"Ash Sprite\"}" <<<"$out"' \
    "--json judge: a face-down monster's id"
run "$GAME" --at 999 --json
check 'grep -q "\"seq\":30," <<<"$out" && grep -q "\"note\":\"the log ends" <<<"$out"' "--json past the end: last seq and a note"

# Both encodings give the same board.
if "$ARBITER" convert "$BAD" "$TMP/illegal.mlog" 2>/dev/null; then
    a=$("${R[@]}" "$BAD" --at 20 --view judge --json)
    b=$("${R[@]}" "$TMP/illegal.mlog" --at 20 --view judge --json)
    check '[ -n "$a" ] && [ "$a" = "$b" ]' ".mlog and .jsonl give the same board"
else
    fail "convert to .mlog"
fi

# ---- Advanced: the hand is the hidden zone (SPEC.md 7.2) ------------------------
# fixtures/logs/advanced-open-every-event.jsonl at seq 14: p1 holds Cinder Hound
# and Ember Drake, p2 Grave Bat, Umbral Decoy, Soul Siphon and Veil Assassin;
# none of them is on the field or in a Graveyard.
ADV=$top_srcdir/fixtures/logs/advanced-open-every-event.jsonl
p1_hand='Cinder Hound|Ember Drake|cor-cinder-hound|cor-ember-drake'
p2_hand='Grave Bat|Umbral Decoy|Soul Siphon|Veil Assassin|obs-grave-bat|obs-umbral-decoy|obs-soul-siphon|obs-veil-assassin'
for v in judge public p1 p2; do
    for j in "" --json; do
        run "$ADV" --at 14 --view "$v" $j
        [ "$rc" -eq 0 ] || { fail "advanced at 14, view $v ${j:-text}: exit $rc: $err"; continue; }
        sees1=no; sees2=no
        printf '%s' "$out" | grep -qE "$p1_hand" && sees1=yes
        printf '%s' "$out" | grep -qE "$p2_hand" && sees2=yes
        case $v in judge) want="yes yes" ;; p1) want="yes no" ;; p2) want="no yes" ;; public) want="no no" ;; esac
        if [ "$sees1 $sees2" = "$want" ]; then
            pass "advanced at 14, view $v ${j:-text}: hands seen (p1 p2) = $want"
        else
            fail "advanced at 14, view $v ${j:-text}: hands seen (p1 p2) = $sees1 $sees2, want $want"
        fi
    done
done
run "$ADV" --at 14 --view public --json
check '[ "$(printf "%s" "$out" | jq -c "[.players[].hand.count, .players[].lp]")" = "[2,4,5000,6000]" ]' \
    "advanced public board: hand counts 2 and 4, LP 5000 and 6000"

# ---- the Snap fixtures, when present --------------------------------------------
for f in "$top_srcdir"/fixtures/snap/legal-*.jsonl; do
    [ -e "$f" ] || continue
    b=$(basename "$f" .jsonl)
    last=$(($(grep -c . "$f") - 1))
    for v in judge p1 p2 public; do
        for j in "" --json; do
            run "$f" --at "$last" --view "$v" $j
            if [ "$rc" -eq 0 ] && [ -n "$out" ] && [ -z "$err" ]; then
                pass "$b at seq $last, view $v ${j:-text}"
            else
                fail "$b at seq $last, view $v ${j:-text}: exit $rc: $err"
            fi
        done
    done
done
finish
