# e2e_guide.sh -- the organiser's guide, arbiter-organising(7), is run: every
# command line of its examples ("$ arbiter ..." in its .EX/.EE blocks, with
# its continuation lines), in the guide's order, in an empty folder, against
# the guide's small event (issue 22, acceptance 5):
#   1. each command exits as the guide says: 0, or the status the guide
#      shows with "$ echo $?" right after it; and each line of what the guide
#      shows it printing (or each piece of a line the guide wraps; lines with
#      "..." left out) is in what it prints;
#   2. the pages it writes (--out) are there; the guide runs every organiser's command (new, add, late-entry, drop,
#      publish, wall, slips, status, result, report, intentional-draw, time-call,
#      close, undo) and the end of an
#      event (standings, alarms, html, stats), so a command it stops showing
#      is noticed;
#   3. what the guide leaves to the tables is done here as a venue would: the
#      decklists it names (decks/NAME.json, copies of fixtures/decks/advanced/,
#      decks/hal-draft.json an illegal one), and, after each `publish`, each
#      paired table plays its game with fixtures/advanced/generate.py (a random
#      game the engine judges legal) into records/rR-tT.jsonl -- except the
#      tables the guide enters with `result` (games played on paper) or
#      `intentional-draw` (not played).
# GUIDE_SHOW=1 prints what each command says (to write the guide's examples).
# GUIDE=FILE runs another copy of the guide (how the test is shown to fail on
# a guide with a misspelt option).
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || { fail "jq is needed"; finish; exit 1; }
GUIDE=${GUIDE:-$top_srcdir/man/arbiter-organising.7}
FX="$top_srcdir/fixtures"
W="$TMP/event"
mkdir -p "$W/decks" "$W/records" "$TMP/bin"
ln -s "$(cd "$(dirname "$ARBITER")" && pwd)/$(basename "$ARBITER")" "$TMP/bin/arbiter"

# ---- the commands of the guide's examples ------------------------------------------------
# one command per line (continuations joined, roff's \- \e \& undone); after
# each arbiter command the exit status the guide shows for it
awk '
    /^\.EX/ { ex = 1; out = 0; next }
    /^\.EE/ { ex = 0; next }
    !ex { next }
    /^\$ echo \$\?$/ { want_status = 1; out = 0; next }
    want_status && /^[0-9]+$/ { print "=" $0; want_status = 0; next }
    { want_status = 0 }
    cont { cmd = cmd " " $0; cont = 0 }
    !cont && /^\$ / { cmd = substr($0, 3) }
    cmd != "" {
        if (cmd ~ /\\e$/) { sub(/ *\\e$/, "", cmd); cont = 1; next }
        gsub(/\\-/, "-", cmd); gsub(/\\&/, "", cmd); gsub(/\\e/, "\\", cmd); gsub(/  +/, " ", cmd)
        print cmd; cmd = ""; out = 1; next
    }
    out {
        line = $0
        gsub(/\\-/, "-", line); gsub(/\\&/, "", line); gsub(/\\e/, "\\", line); gsub(/\\\(dq/, "\"", line)
        gsub(/  +/, " ", line); sub(/^ /, "", line); sub(/ $/, "", line)
        if (line != "" && line !~ /\.\.\./) print "#" line
    }
' "$GUIDE" >"$TMP/lines"
# "=N" after a command: the status the guide shows for it
: >"$TMP/cmds"
while IFS= read -r line; do
    case $line in
        =*) sed -i '$ s/\t0$/\t'"${line#=}"'/' "$TMP/cmds" ;;
        \#*) printf '%s\n' "${line#\#}" >>"$TMP/shown.$(wc -l <"$TMP/cmds")" ;;
        arbiter\ *) printf '%s\t0\n' "$line" >>"$TMP/cmds" ;;
        *) fail "the guide's example runs something other than arbiter: $line" ;;
    esac
done <"$TMP/lines"
n=$(wc -l <"$TMP/cmds")
if [ "$n" -ge 30 ]; then pass "the guide's examples hold $n arbiter commands"
else fail "the guide's examples hold $n arbiter commands (want 30 or more): $(cat "$TMP/cmds")"; fi
for c in new add late-entry drop publish wall slips status result report intentional-draw time-call close \
    undo standings alarms html stats; do
    if grep -qE "^arbiter tournament $c " "$TMP/cmds"; then pass "the guide runs tournament $c"
    else fail "the guide runs no 'arbiter tournament $c'"; fi
done

# ---- the venue: decklists, and tables that play --------------------------------------------
declare -A DECK=([ann]=legal-coreon-ember [ben]=legal-aetherion-dawn [cat]=legal-fluxion-tides
    [dan]=legal-obscura-night [eve]=legal-synaphera-growth [fay]=legal-coreon-fluxion
    [gus]=legal-obscura-aetherion [hal]=legal-spells-and-counters [ivy]=legal-max-copies)
for p in "${!DECK[@]}"; do cp "$FX/decks/advanced/${DECK[$p]}.json" "$W/decks/$p.json"; done
cp "$FX/decks/advanced/illegal-advanced_deck_copies-3-copies.json" "$W/decks/hal-draft.json"

# the tables the guide's `result` commands enter (played on paper) and its
# intentional draws: no game, no record
PAPER=" $(sed -n \
    's/^arbiter tournament \(result\|intentional-draw\) .*--round \([0-9]*\) --table \([0-9]*\).*/\2\/\3/p' \
    "$TMP/cmds" | tr '\n' ' ')"

# play_round FILE R: each paired table of round R plays, its record in records/
play_round() {
    local r=$2 t a b id
    id=$(jq -r .id "$W/$1")
    while read -r t a b; do
        [[ $PAPER == *" $r/$t "* ]] && continue
        /usr/bin/python3 "$FX/advanced/generate.py" --arbiter "$ARBITER" --seed $((r * 100 + t)) --seeds 40 \
            --names "$a" "$b" --deck1 "${DECK[$a]}" --deck2 "${DECK[$b]}" --match "$id-r$r-t$t" "$TMP/game.jsonl" \
            >/dev/null 2>"$TMP/gen.err" ||
            { fail "round $r table $t: the game generator: $(tail -3 "$TMP/gen.err")"; return; }
        jq -c --arg id "$id" --argjson r "$r" --arg t "$t" \
            'if .seq == 0 then .event = {tournament: $id, round: $r, table: $t} else . end' \
            "$TMP/game.jsonl" >"$W/records/r$r-t$t.jsonl"
    done < <(jq -r --argjson r "$r" '.rounds[] | select(.round == $r) | .pairings[] | select(.p1)
                                     | "\(.table) \(.p1) \(.p2)"' "$W/$1")
    pass "round $r is played at the tables ($(ls "$W/records" | grep -c "^r$r-") records)"
}

# ---- run the guide ------------------------------------------------------------------------------
k=0
while IFS=$'\t' read -r cmd want; do
    k=$((k + 1))
    rc=0
    (cd "$W" && PATH="$TMP/bin:$PATH" bash -c "$cmd") >"$TMP/out" 2>"$TMP/err" </dev/null || rc=$?
    [ -z "${GUIDE_SHOW:-}" ] || { echo "\$ $cmd"; cat "$TMP/out" "$TMP/err"; }
    if [ "$rc" -eq "$want" ]; then pass "guide $k: $cmd (exit $rc)"
    else fail "guide $k: $cmd: exit $rc, the guide says $want: $(head -c 600 "$TMP/err")"; fi
    # what the guide shows it saying (a line, or a piece of a line it wraps) is in what it says
    if [ -f "$TMP/shown.$k" ]; then
        said=$(cat "$TMP/out" "$TMP/err" | tr -s ' ')
        bad=
        while IFS= read -r line; do
            [[ $said == *"$line"* ]] || bad="$bad [$line]"
        done <"$TMP/shown.$k"
        if [ -z "$bad" ]; then pass "guide $k: says what the guide shows ($(wc -l <"$TMP/shown.$k") lines)"
        else fail "guide $k: $cmd: the guide shows$bad, not in what it says: $said"; fi
    fi
    if [ "$rc" -eq 0 ] && [[ $cmd =~ ^arbiter\ tournament\ publish\ .*--file\ ([^ ]+).*--round\ ([0-9]+) ]]; then
        play_round "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
    fi
done <"$TMP/cmds"

# each page the guide writes (--out FILE) is there, an HTML page
for f in $(cut -f1 "$TMP/cmds" | grep -oE -- '--out [^ ]+' | cut -d' ' -f2 | sort -u); do
    if [ -s "$W/$f" ] && grep -qi '<!doctype html' "$W/$f"; then pass "the guide's $f is written, a page"
    else fail "the guide's $f is missing or no page"; fi
done

# the event it ran is the one the guide tells: five rounds, all closed, a winner
if jq -e '(.rounds | length) == 5 and all(.rounds[]; .closed)' "$W/cup.json" >/dev/null 2>&1
then pass "the guide's event: five rounds published and closed"
else fail "the guide's event did not reach its end: $(jq -c '[.rounds[]? | {round, closed}]' "$W/cup.json" 2>&1)"; fi
finish
