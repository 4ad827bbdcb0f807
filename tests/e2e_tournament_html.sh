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
# The screenshot is kept as a test artefact for people to look at:
# $top_builddir/tests/artefacts/tournament.png (the page beside it,
# tournament.html).
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
rows=$(printf '%s' "$dom" | grep -o '<tr class="st"><td class="n">[0-9]*</td><td><span class="pl">' | wc -l)
# the final standings and the Swiss standings: six rows each
if [ "$rows" -eq 12 ]; then pass "chromium: the DOM holds the 12 standings rows"
else fail "chromium: want 12 standings rows in the DOM, got $rows"; fi
case "$dom" in *'<span class="pl">Ann &lt;b&gt;&amp;"Lee</span>'*) pass "chromium: Ann's name is text in the DOM" ;;
    *) fail "chromium: Ann's name should be one text node" ;; esac
case "$dom" in *"<b>&amp;"*) fail "chromium: Ann's name made a <b> element" ;; *) pass "chromium: no element from a name" ;; esac

browser_shot "$PNG" "$URL" 1280,2000
browser_console_clean "$TMP/dom.log" "$TMP/shot.log"

finish
