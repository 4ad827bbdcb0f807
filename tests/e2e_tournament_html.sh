#!/usr/bin/env bash
# e2e_tournament_html.sh -- `arbiter tournament html`: the tournament's page
# for people, written and then looked at in a real headless browser.
#
# The tournament is tests/tournament_fixture.sh's, made to reach its cut:
# two Swiss rounds and a top 4 cut (T33: cat, eve, dan, ben), the
# semifinals played (round 3: cat beats ben, eve beats dan), the final
# published and not played (round 4: cat against eve, pending); ann and
# fay, out of the cut, played a Snap game in round 3 (unpaired_game).  Ann's name
# holds `<b>&"`, which the page must show as text.
#
# Checked: the command's exit code and usage errors; the page is
# self-contained (nothing loaded over http(s), no <script src>, a <meta
# charset>, a viewport); every section is there (standings, bracket,
# pairings, alarms, statistics with an inline SVG chart); match ids link
# to audit/<match>.html; Ann's name is escaped.  Then Debian's chromium
# (package `chromium`, which ./quickstart installs) opens the page headless:
# --dump-dom must hold the standings' rows, the console must have no error,
# and --screenshot must give a PNG of some size.  Without chromium the test
# FAILS (it does not skip): CI installs it.
#
# Then the page's fixes of issue 22, each a check that failed before it: the
# bracket shows the seeds of the cut before the semifinals are published, and
# the standings mark who made the cut; alarm sentences name players by name;
# no ruling number (T27, ...) in the text people read; a head judge's
# sentence once (also when the judge's result replaces a record's); a
# pairing with two records named alike in the pending list, the pairings,
# the live progress and the alarm; the class chart's bars each labelled with
# their own count; --projector's text measured in chromium on a 1920 px
# screen (a probe script on a copy of the page).  Then `wall` and `slips`
# for round 2: the pairings by table and by player, the standings; one slip
# per table with what a slip holds; refusals; the slips printed to PDF by
# chromium, three to an A4 sheet.
#
# The screenshots are kept as test artefacts for people to look at, in
# $top_builddir/tests/artefacts/: tournament.png (1280 px), tournament-390.png
# and tournament-1920.png (a phone, a 1920x1080 screen), tournament-swiss-*.png
# (after the Swiss rounds), tournament-projector-1920.png, wall-390.png,
# wall-1920.png, slips.png and slips.pdf, each page beside them.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || { echo "SKIP e2e_tournament_html: jq is needed"; exit 77; }

. "$(dirname "$0")/tournament_fixture.sh"
: "${top_builddir:=$top_srcdir/build}"
ART="$top_builddir/tests/artefacts"
mkdir -p "$ART"

# the cut: round 3's semifinals played, round 4's final published
mk advanced/legal-commit-prime-evolution-p1-wins.jsonl r3-g1 3 1 cat ben
mk advanced/legal-open-concede-by-p1.jsonl r3-g2 3 2 dan eve
# the Snap game before round 3 (unpaired_game) is of two players out of the cut here
mk snap/legal-open-concede.jsonl r3-x 3 9 ann fay
HTF="$TMP/cup-html.json"
jq '.structure = {"swiss_rounds": 2, "cut": 4}
    | .players[0].name = "Ann <b>&\"Lee"
    | .rounds += [{"round": 3, "closed": true, "pairings": [{"game": 1, "table": "1", "p1": "cat", "p2": "ben"},
                                                            {"game": 2, "table": "2", "p1": "eve", "p2": "dan"}]},
                  {"round": 4, "pairings": [{"game": 1, "table": "1", "p1": "cat", "p2": "eve"}]}]' "$TF" >"$HTF"
LOGS+=("$D"/r3-g1.jsonl "$D"/r3-g2.jsonl)

PAGE="$ART/tournament.html"
PNG="$ART/tournament.png"
rm -f "$PAGE" "$PNG"

# ---- the command ----------------------------------------------------------------------
rc=0
"$ARBITER" tournament html --file "$HTF" --out "$PAGE" "${LOGS[@]}" 2>"$TMP/stderr" || rc=$?
if [ "$rc" -eq 0 ] && [ -s "$PAGE" ]; then pass "html: the page is written (exit 0)"
else fail "html: want exit 0 and a page, got exit $rc: $(cat "$TMP/stderr")"; fi
[ -e "$PAGE.tmp" ] && fail "html: the temporary file is left behind" || pass "html: no temporary file left"

rc=0
"$ARBITER" tournament html --file "$HTF" "${LOGS[@]}" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && pass "html without --out: exit 2" || fail "html without --out: want exit 2, got $rc"
rc=0
"$ARBITER" tournament html --file "$HTF" --out "$TMP/x.html" --json "${LOGS[@]}" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && pass "html --json: exit 2" || fail "html --json: want exit 2, got $rc"
rc=0
"$ARBITER" tournament standings --file "$HTF" --out "$TMP/x.html" "${LOGS[@]}" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && pass "--out is for html only: exit 2" || fail "standings --out: want exit 2, got $rc"
rc=0
"$ARBITER" tournament html --file "$HTF" --out "$TMP/no-such-dir/x.html" "${LOGS[@]}" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && pass "html: an --out that cannot be written: exit 2" || fail "html: unwritable --out: want exit 2, got $rc"
rc=0
out=$("$ARBITER" tournament html --file "$HTF" --out - "${LOGS[@]}" 2>/dev/null) || rc=$?
case "$out" in "<!DOCTYPE html>"*"</html>") pass "html --out -: the page on stdout" ;;
    *) fail "html --out -: want the page on stdout (exit $rc)" ;; esac

# ---- the page, as text ----------------------------------------------------------------
html=$(cat "$PAGE" 2>/dev/null || true)
# contains NAME TEXT: the page holds TEXT (a fixed string).
contains() {
    if printf '%s' "$html" | grep -qF -- "$2"; then pass "$1"; else fail "$1: no '$2' in the page"; fi
}
lacks() {
    if printf '%s' "$html" | grep -qiE -- "$2"; then fail "$1: the page holds /$2/"; else pass "$1"; fi
}
contains "a charset" '<meta charset="utf-8">'
contains "a viewport (phones)" '<meta name="viewport" content="width=device-width, initial-scale=1">'
lacks "self-contained: nothing loaded over the network" '(src|href)[[:space:]]*=[[:space:]]*["'"'"']?(https?:)?//'
lacks "self-contained: no url() in the style" 'url\('
lacks "self-contained: no @import" '@import'
lacks "no script at all" '<script'
lacks "no external style sheet" '<link'
contains "the name" '<h1>E2E Cup</h1>'
contains "the round status" 'Round 4 (elimination, final) of 4: 1 of 1 results pending'
contains "the final standings, provisional" 'Final standings <span class="tag">provisional</span>'
contains "the Swiss standings" 'Standings after round 2'
contains "a standings row: place, name, points, W-D-L, MOV, SoS" '<tr class="st"><td class="n">1</td><td><span class="pl">Cat Roy</span><span class="id">cat</span></td><td class="n">6</td><td class="n">2-0-0</td><td class="n">22000</td><td class="n hide-s">1.500</td>'
contains "the bracket" '<div class="bracket"'
contains "the bracket: the final to play" '<h3>Final <span class="small">round 4</span></h3>'
contains "a match linked to its audit page" '<a href="audit/r2-t1.html">r2-t1</a>'
contains "the alarms" '<section id="alarms">'
contains "a resolved alarm dimmed" '<tr class="resolved"><td>illegal_record'
contains "an open alarm" '<tr class="open"><td>unpaired_game'
contains "a chart: inline SVG" '<svg viewBox='
contains "the judge's result" 'head judge Hana Judge: Fay attacked herself; Eve wins.'
# the statistics of T46 (public view by default): progress of round 4, the
# classes chart, the cards shown, the rule broken; no decklist, and no card
# that stayed hidden (the Snap game's cor-kindle-fury: selected, never
# revealed)
contains "statistics: the card statistics" '<div id="card-statistics">'
contains "statistics: live progress of round 4" '<h3>Live progress of round 4</h3>'
contains "statistics: the final in progress" '<td>no_record</td>'
contains "statistics: the classes chart" 'Classes shown: appearances and games'
contains "statistics: a card shown" '<tr><td>obs-wraith-sentry</td><td>obscura</td>'
contains "statistics: the rule broken" 'illegal <code>advanced:attack.direct</code> 1'
lacks "statistics: no card that stayed hidden" 'cor-kindle-fury'
lacks "statistics: no decklist in the public view" 'Decklists by class'
rc=0
"$ARBITER" tournament html --file "$HTF" --view judge --out "$TMP/judge.html" "${LOGS[@]}" 2>/dev/null || rc=$?
if [ "$rc" -eq 0 ] && grep -qF 'Decklists by class' "$TMP/judge.html"; then pass "html --view judge: the decklists"
else fail "html --view judge: want the decklists (exit $rc)"; fi
contains "Ann's name escaped" 'Ann &lt;b&gt;&amp;&quot;Lee'
lacks "Ann's name never raw" '<b>&'

# ---- the page in a real browser ---------------------------------------------------------
browser_init
URL="file://$PAGE"
rc=0
timeout 120 "${B[@]}" --dump-dom "$URL" >"$TMP/dom.html" 2>"$TMP/dom.log" || rc=$?
if [ "$rc" -eq 0 ] && [ -s "$TMP/dom.html" ]; then pass "chromium: the DOM is dumped"
else fail "chromium --dump-dom: exit $rc: $(tail -n 5 "$TMP/dom.log")"; fi
dom=$(cat "$TMP/dom.html")
rows=$(printf '%s' "$dom" | grep -o '<tr class="st[^"]*"><td class="n">[0-9]*</td><td><span class="pl">' | wc -l)
# the final standings and the Swiss standings: six rows each
if [ "$rows" -eq 12 ]; then pass "chromium: the DOM holds the 12 standings rows"
else fail "chromium: want 12 standings rows in the DOM, got $rows"; fi
case "$dom" in *'<span class="pl">Ann &lt;b&gt;&amp;"Lee</span>'*) pass "chromium: Ann's name is text in the DOM" ;;
    *) fail "chromium: Ann's name should be one text node" ;; esac
case "$dom" in *"<b>&amp;"*) fail "chromium: Ann's name made a <b> element" ;; *) pass "chromium: no element from a name" ;; esac

browser_shot "$PNG" "$URL" 1280,2000
browser_console_clean "$TMP/dom.log" "$TMP/shot.log"
# the page at a phone's width and on a 1920x1080 screen, kept to be looked at
browser_shot "$ART/tournament-390.png" "$URL" 390,3000
browser_shot "$ART/tournament-1920.png" "$URL" 1920,1080

# ---- the page's fixes (issue 22), each seen failing before it --------------------------
# SWF: the same event after its two Swiss rounds, before the semifinals are
# published: the cut is known (cat, eve, dan, ben), the bracket not paired
SWF="$TMP/cup-swiss.json"
jq '.structure = {"swiss_rounds": 2, "cut": 4}' "$TF" >"$SWF"
SWISS_LOGS=("$D"/r1-t1.jsonl "$D"/r1-t2.jsonl "$D"/r1-t3.jsonl "$D"/r2-t1.jsonl "$D"/r2-t2.jsonl "$D"/r2-t3.jsonl)
SPAGE="$ART/tournament-swiss.html"
"$ARBITER" tournament html --file "$SWF" --out "$SPAGE" "${SWISS_LOGS[@]}" 2>/dev/null || true
swiss=$(cat "$SPAGE" 2>/dev/null || true)
# text NAME HTML: HTML's text as people read it (no style, no tags)
text_of() { printf '%s' "$1" | tr '\n' ' ' | sed -e 's/<style>.*<\/style>//' -e 's/<[^>]*>/ /g'; }

# the bracket shows the seeds as soon as the cut is known: Game 1 is seed 1
# (Cat) against seed 4 (Ben), Game 2 seed 2 (Eve) against seed 3 (Dan)
bracket=$(printf '%s' "$swiss" | sed -n '/<section id="bracket">/,/<\/section>/p' | tr -d '\n' |
          sed -e 's/<span class="id">[^<]*<\/span>//g' -e 's/<[^>]*>/|/g' -e 's/||*/|/g')
case "$bracket" in *'|1|Cat Roy|4|Ben Ode|Game 1 &#183; to be published|2|Eve Ash|3|Dan Wu|Game 2 &#183; to be published|'*)
    pass "the bracket after the Swiss rounds: the seeds of the cut, paired" ;;
    *) fail "the bracket after the Swiss rounds: want seeds 1-4 and 2-3, got: $bracket" ;; esac
# the standings the cut is made from mark who made it, with their seed
incut=$(printf '%s' "$swiss" | grep -o '<tr class="st in-cut">.*top 4, seed [0-9]' |
        sed -e 's/.*<span class="pl">\([^<]*\)<.*seed \([0-9]\)$/\2 \1/' | tr '\n' ',')
[ "$incut" = "1 Cat Roy,2 Eve Ash,3 Dan Wu,4 Ben Ode," ] && pass "the standings mark the top 4 cut" \
    || fail "the standings: want the top 4 marked, got '$incut'"
case "$html" in *'<tr class="st in-cut">'*) pass "the Swiss standings under the bracket mark the cut too" ;;
    *) fail "the Swiss standings of the page with the bracket: the cut not marked" ;; esac
# alarm sentences name players by name
contains "an alarm names players by name" \
    'Record r3-x is of Ann &lt;b&gt;&amp;&quot;Lee and Fay Orr, who were not paired with each other in round 3.'
contains "an alarm names a player by name before 's" 'Ben Ode&#39;s decklist in round 2 differs'
lacks "no alarm names players by id" 'is of ann and fay|>(ann|ben|cat|dan|eve|fay)&#39;s decklist'
# no ruling numbers in what people read
for pg in html swiss; do
    rul=$(text_of "${!pg}" | grep -oE '\bT[0-9]+\b' | sort -u | tr '\n' ' ')
    [ -z "$rul" ] && pass "the $pg page cites no ruling number" || fail "the $pg page cites rulings: $rul"
done
lacks "no ruling column in the alarms" '<th>Ruling</th>'
# the head judge's sentence once
n=$(printf '%s' "$html" | grep -o 'Fay attacked herself; Eve wins.' | wc -l)
[ "$n" -eq 1 ] && pass "the judge's sentence is shown once" || fail "the judge's sentence is shown $n times"
# a judge's result replacing a record's (judge_overrides_record): the
# alarm does not repeat the judge's sentence, which the pairing shows
jq '.judge_results += [{"round": 2, "table": "2", "result": "win", "winner": "fay", "judge": "Hana Judge",
                        "text": "Dan played a card twice; Fay wins."}]' "$SWF" >"$TMP/over.json"
"$ARBITER" tournament html --file "$TMP/over.json" --out "$TMP/over.html" "${SWISS_LOGS[@]}" 2>/dev/null || true
n=$(grep -o 'Dan played a card twice; Fay wins.' "$TMP/over.html" | wc -l)
if [ "$n" -eq 1 ] && grep -qF '<td>judge_overrides_record</td><td>Hana Judge&#39;s result replaces the result the record gives' \
       "$TMP/over.html"; then pass "a judge's result over a record's: the alarm, and the judge's sentence once"
else fail "a judge's result over a record's: the judge's sentence $n times, or no alarm"; fi
# a pairing with two records: the pending result under the standings, the
# pairing, the live progress and the alarm all say so and name both
mk advanced/legal-announced-prime-singular.jsonl r2-t1b 2 1 cat ben
"$ARBITER" tournament html --file "$SWF" --out "$TMP/two.html" "${SWISS_LOGS[@]}" "$D/r2-t1b.jsonl" 2>/dev/null || true
two='2 records:</span> <a href="audit/r2-t1.html">r2-t1</a>, <a href="audit/r2-t1b.html">r2-t1b</a>'
n=$(grep -oF "$two" "$TMP/two.html" | wc -l)
[ "$n" -eq 4 ] && pass "two records: the pending result, the pairing, the progress and the alarm name both" \
    || fail "two records: want both named 4 times (pending, pairing, progress, alarm), got $n"
# the class chart: each bar is labelled with its own count (appearances and
# games side by side; they measure different things and are not added)
fig=$(printf '%s' "$html" | sed -n '/<figcaption>Classes shown/,/<\/figure>/p')
titles=$(printf '%s' "$fig" | grep -o '<title>[0-9]* ' | tr -dc '0-9\n' | tr '\n' ' ')
labels=$(printf '%s' "$fig" | grep -o 'font-weight="600">[0-9]*<' | sed 's/.*>\([0-9]*\)</\1/' | tr '\n' ' ')
if [ -n "$titles" ] && [ "$titles" = "$labels" ] && [ $(($(printf '%s' "$titles" | wc -w) % 10)) -eq 0 ]; then
    pass "the class chart: ten bars a format, each labelled with its own count"
else
    fail "the class chart: bars '$titles', labels '$labels'"
fi
# the projector: text to read across a hall
PROJ="$ART/tournament-projector.html"
rc=0
"$ARBITER" tournament html --projector --file "$HTF" --out "$PROJ" "${LOGS[@]}" 2>/dev/null || rc=$?
if [ "$rc" -eq 0 ] && grep -qF '<html lang="en" class="projector">' "$PROJ"; then pass "html --projector: the projector page"
else fail "html --projector: exit $rc, want <html class=\"projector\">"; fi
case "$html" in *'class="projector"'*) fail "the page without --projector is a projector page" ;;
    *) pass "the page without --projector is not" ;; esac
# font_px PAGE: the size in px of a standings cell's text, PAGE shown on a
# 1920x1080 screen; measured on a copy with a probe script (the page has none)
font_px() {
    sed 's|</body>|<script>document.body.setAttribute("data-fs", getComputedStyle(document.querySelector("tr.st td")).fontSize)</script></body>|' \
        "$1" >"$TMP/probe.html"
    timeout 120 "${B[@]}" --window-size=1920,1080 --dump-dom "file://$TMP/probe.html" 2>/dev/null |
        grep -o 'data-fs="[0-9.]*px"' | grep -o '[0-9]*' | head -n 1
}
fs_page=$(font_px "$PAGE"); fs_proj=$(font_px "$PROJ")
# across a hall: at least 32 px on a 1920 px wide screen (the page for a
# desk or a phone has about 21)
if [ -n "$fs_proj" ] && [ -n "$fs_page" ] && [ "$fs_proj" -ge 32 ] && [ "$fs_page" -lt "$fs_proj" ]; then
    pass "html --projector: text of ${fs_proj} px on a 1920 px screen (the page: ${fs_page} px)"
else
    fail "html --projector: want text of 32 px or more on a 1920 px screen, got '${fs_proj}' (the page: '${fs_page}')"
fi
browser_shot "$ART/tournament-projector-1920.png" "file://$PROJ" 1920,1080
browser_shot "$ART/tournament-swiss-390.png" "file://$SPAGE" 390,3000
browser_shot "$ART/tournament-swiss-1920.png" "file://$SPAGE" 1920,1080
browser_console_clean "$TMP/shot.log"

# ---- the wall list and the match slips (round 2) ----------------------------------------
WALL="$ART/wall.html"
SLIPS="$ART/slips.html"
rm -f "$WALL" "$SLIPS"
rc=0
"$ARBITER" tournament wall --file "$HTF" --round 2 --out "$WALL" "${LOGS[@]}" 2>"$TMP/stderr" || rc=$?
[ "$rc" -eq 0 ] && [ -s "$WALL" ] && pass "wall: written (exit 0)" || fail "wall: exit $rc: $(cat "$TMP/stderr")"
rc=0
"$ARBITER" tournament slips --file "$HTF" --round 2 --out "$SLIPS" 2>"$TMP/stderr" || rc=$?
[ "$rc" -eq 0 ] && [ -s "$SLIPS" ] && pass "slips: written without records (exit 0)" \
    || fail "slips: exit $rc: $(cat "$TMP/stderr")"
for bad in "--round 5" "--round 0" "" "--round 2 --json" "--round 2 --projector"; do
    rc=0
    # shellcheck disable=SC2086
    "$ARBITER" tournament slips --file "$HTF" $bad --out "$TMP/bad.html" >/dev/null 2>"$TMP/stderr" || rc=$?
    if [ "$rc" -eq 2 ] && [ ! -e "$TMP/bad.html" ] && [ -s "$TMP/stderr" ]; then pass "slips $bad: refused, exit 2, no page"
    else fail "slips $bad: want exit 2, a sentence and no page, got $rc"; fi
done
rc=0
"$ARBITER" tournament wall --file "$HTF" --round 5 --out "$TMP/bad.html" 2>"$TMP/stderr" || rc=$?
if [ "$rc" -eq 2 ] && grep -qF 'round 5 is not published (the last one published is round 4)' "$TMP/stderr"
then pass "wall --round 5: refused with a sentence"; else fail "wall --round 5: exit $rc: $(cat "$TMP/stderr")"; fi
rc=0
"$ARBITER" tournament wall --file "$HTF" --out "$TMP/bad.html" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] && pass "wall without --round: exit 2" || fail "wall without --round: want exit 2, got $rc"

# the wall list: round 2 by table (cat-ben, dan-fay, eve-ann), then by player
# in alphabetical order of name, each with table, seat and opponent; then the
# standings after round 1
wall=$(cat "$WALL" 2>/dev/null || true)
nm() { sed -e 's/<span class="id">[^<]*<\/span>//g' -e 's/<[^>]*>/|/g' -e 's/||*/|/g'; }
bytable=$(printf '%s' "$wall" | sed -n '/<section id="by-table">/,/<\/section>/p' | grep '^<tr><td' | nm)
want_table='|1|Cat Roy|vs|Ben Ode|
|2|Dan Wu|vs|Fay Orr|
|3|Eve Ash|vs|Ann &lt;b&gt;&amp;&quot;Lee|'
[ "$bytable" = "$want_table" ] && pass "wall: the pairings by table" || fail "wall: by table, got: $bytable"
byplayer=$(printf '%s' "$wall" | sed -n '/<section id="by-player">/,/<\/section>/p' | grep '^<tr><td' | nm)
want_player='|Ann &lt;b&gt;&amp;&quot;Lee|3|Player 2|Eve Ash|
|Ben Ode|1|Player 2|Cat Roy|
|Cat Roy|1|Player 1|Ben Ode|
|Dan Wu|2|Player 1|Fay Orr|
|Eve Ash|3|Player 1|Ann &lt;b&gt;&amp;&quot;Lee|
|Fay Orr|2|Player 2|Dan Wu|'
[ "$byplayer" = "$want_player" ] && pass "wall: every player alphabetically, with table, seat and opponent" \
    || fail "wall: by player, got: $byplayer"
case "$wall" in *'<h2>Standings after round 1</h2>'*) pass "wall: the standings after round 1" ;;
    *) fail "wall: no standings after round 1" ;; esac
case "$wall" in *'@media print'*'break-before:page'*) pass "wall: a print style, a sheet per section" ;;
    *) fail "wall: no print style" ;; esac

# the slips: one per table of round 2, each with the event, the round, the
# table, both players (names and ids) and the places to fill in
slips=$(cat "$SLIPS" 2>/dev/null || true)
n=$(printf '%s' "$slips" | grep -c '<div class="slip">' || true)
[ "$n" -eq 3 ] && pass "slips: three slips, one per table" || fail "slips: want 3 slips, got $n"
slip1=$(printf '%s' "$slips" | awk '/<div class="slip">/{n++} n==1' | tr -d '\n')
for want in 'E2E Cup' 'Round 2 (Swiss)' 'Table 1' '<span class="pl">Cat Roy</span><span class="id">cat</span>' \
            '<span class="pl">Ben Ode</span><span class="id">ben</span>' 'wins' 'draw' 'Scores:' \
            "Player 1's signature" "Player 2's signature"; do
    case "$slip1" in *"$want"*) pass "slip of table 1: $want" ;; *) fail "slip of table 1: no '$want'" ;; esac
done

# both in chromium: the wall list at a phone's width and 1920x1080; the
# slips printed to PDF, three to one A4 sheet
browser_shot "$ART/wall-390.png" "file://$WALL" 390,2400
browser_shot "$ART/wall-1920.png" "file://$WALL" 1920,1080
browser_shot "$ART/slips.png" "file://$SLIPS" 1280,1400
rm -f "$ART/slips.pdf"
rc=0
timeout 120 "${B[@]}" --no-pdf-header-footer --print-to-pdf="$ART/slips.pdf" "file://$SLIPS" \
    >/dev/null 2>"$TMP/pdf.log" || rc=$?
# the page tree's root /Count, the largest (chromium writes it uncompressed)
pages=$(grep -ao '/Count [0-9]*' "$ART/slips.pdf" 2>/dev/null | cut -d' ' -f2 | sort -n | tail -n 1)
pages=${pages:-0}
if [ "$rc" -eq 0 ] && [ "$(head -c 5 "$ART/slips.pdf" 2>/dev/null)" = "%PDF-" ] && [ "$pages" -eq 1 ]; then
    pass "chromium: the three slips print on one A4 sheet ($ART/slips.pdf)"
else
    fail "chromium --print-to-pdf: exit $rc, $pages pages: $(tail -n 3 "$TMP/pdf.log")"
fi
browser_console_clean "$TMP/shot.log" "$TMP/pdf.log"

finish
