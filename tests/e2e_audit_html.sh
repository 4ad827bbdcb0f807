#!/usr/bin/env bash
# e2e_audit_html.sh -- `arbiter audit MATCH --html FILE`: a stored match's
# audit as a page for a judge, written and then looked at in a real
# headless browser.
#
# A real arbiterd stores two illegal fixture matches:
#   - Snap, fx-snap_9_4-lock-in-freeze (open mode): #16, p1 locks a Support
#     in the Lock Freeze (snap:9.4).  Its hands, face-down bench monsters,
#     Locked Supports and Reserve are hidden from the public.
#   - Master, mst-openlog_6-open-card-not-in-decklist (open mode): #7,
#     p2 selects Aegis Flash, which is not in their decklist (openlog:6) --
#     a verdict sentence that names a card the select hides from the public.
#   - classic Snap, cl-open-2p-piles-pot-win (open mode, a one-fault log):
#     #56, the table gives a tie's piles to one caller (classic:pot.tie).
#     Its face-down stacks are hidden from the public; its board is a list
#     of seats, drawn as a grid of discard piles and stacks.
#
# Checked: exit codes (1 for an illegal match, 2 for bad usage and an
# unwritable FILE), FILE.tmp renamed away, `--html -` on stdout; the page
# is self-contained (no http, no url(), no <script, no <link); it holds the
# checks in the text audit's words, the fault highlighted with its
# sentence, its rule id and the rulebook's quote (snap:9.4's catalogue row);
# a board drawn as a board (zones) for the fault and one per event (the
# match is under the bound) with a timeline link to each.
#
# Then the PUBLIC-view pages: the card ids (and their names) the judge's
# board shows at some event and the public board and public events never
# show (replayed at every event, `arbiter replay --view judge|public
# --json`) must appear nowhere in the public page -- boards, event texts
# and verdict sentences alike (the Master fault's sentence must say "a
# hidden card").
#
# Then Debian's chromium opens the page headless: --dump-dom must hold the
# highlighted fault, :target must be reachable, the console must be free of
# errors, and --screenshot gives $top_builddir/tests/artefacts/audit.png
# (the page beside it, audit.html), kept for people to look at until
# `make clean`.  Without chromium the test FAILS: CI installs it.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon.sh"
cd "$top_srcdir" || exit 1
command -v jq >/dev/null || { echo "SKIP e2e_audit_html: jq is needed"; exit 77; }

ART="$top_builddir/tests/artefacts"
mkdir -p "$ART"
PAGE="$ART/audit.html"
PNG="$ART/audit.png"
rm -f "$PAGE" "$PNG"

SNAP=fixtures/snap/illegal-snap_9_4-lock-in-freeze.jsonl
MST=fixtures/master/illegal-openlog_6-open-card-not-in-decklist.jsonl
CLS=fixtures/classic/illegal-classic_pot.tie-take-instead-of-pot.jsonl
MS=$(head -n 1 "$SNAP" | jq -r .match)
MM=$(head -n 1 "$MST" | jq -r .match)
MC=$(head -n 1 "$CLS" | jq -r .match)

daemon_start --cards fixtures/cards/core.json --cards fixtures/cards/standard.json ||
    { fail "arbiterd starts"; finish; exit 1; }
"$ARBITER" send --endpoint "$EP_IN" --quiet "$SNAP" "$MST" "$CLS" >/dev/null 2>&1
# the daemon keeps running: audits read its store read-only beside it, and
# its query socket gives the events in the public view (below)

# ---- the command ------------------------------------------------------------------------
rc=0
"$ARBITER" audit "$MS" --db "$STORE" --html "$PAGE" >"$TMP/out" 2>"$TMP/err" || rc=$?
if [ "$rc" -eq 1 ] && [ -s "$PAGE" ]; then pass "the page is written; exit 1 for an illegal match"
else fail "want exit 1 and a page, got exit $rc: $(cat "$TMP/err")"; fi
[ -s "$TMP/out" ] && fail "--html FILE printed on stdout: $(head -n 2 "$TMP/out")" || pass "--html FILE prints nothing else"
[ -e "$PAGE.tmp" ] && fail "the temporary file is left behind" || pass "no temporary file left"
rc=0
"$ARBITER" audit "$MS" --db "$STORE" --html "$TMP/x.html" --json >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && pass "--html with --json: exit 2" || fail "--html --json: want exit 2, got $rc"
rc=0
"$ARBITER" audit "$MS" --db "$STORE" --html "$TMP/no-such-dir/x.html" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] && pass "an --html FILE that cannot be written: exit 2" || fail "unwritable FILE: want exit 2, got $rc"
rc=0
out=$("$ARBITER" audit "$MS" --db "$STORE" --html - 2>/dev/null) || rc=$?
case "$out" in "<!DOCTYPE html>"*"</html>") pass "--html -: the page on stdout (exit $rc)" ;;
    *) fail "--html -: want the page on stdout (exit $rc)" ;; esac
"$ARBITER" audit --help | grep -q -- '--html FILE' && pass "--help names --html" || fail "--help does not name --html"

# ---- the page, as text -------------------------------------------------------------------
html=$(cat "$PAGE" 2>/dev/null || true)
contains() {
    if printf '%s' "$html" | grep -qF -- "$2"; then pass "$1"; else fail "$1: no '$2' in the page"; fi
}
lacks() {
    if printf '%s' "$html" | grep -qiE -- "$2"; then fail "$1: the page holds /$2/"; else pass "$1"; fi
}
lacks "self-contained: no http" 'http'
lacks "self-contained: no url() in the style" 'url\('
lacks "self-contained: no @import" '@import'
lacks "no script at all" '<script'
lacks "no external style sheet" '<link'
contains "a charset" '<meta charset="utf-8">'
contains "a viewport (tablets)" '<meta name="viewport" content="width=device-width, initial-scale=1">'
contains "the match" "<h1>Audit of match $MS</h1>"
contains "the players" '<p class="vs">p1 alice &#8212; p2 bob</p>'
contains "the format" 'snap &#183; judged by snap/'
contains "the hash chain, in the text audit's words" '<b>hash chain</b>intact, 34 links through #33'
contains "the record judged again, in the text audit's words" '<b>judged again</b>every verdict and every board as stored'
contains "the fault, highlighted" '<article class="fault" id="f16">'
contains "the fault's status and rule" '<span class="st bad">illegal</span> <span class="rule">snap:9.4</span>'
contains "the fault's sentence" 'p1 (alice) locked a Support in Round 2; no Support may be locked during the Lock Freeze (Rounds 2-3).'
contains "the rulebook's quote beside it" '&#8220;During Rounds 2 and 3, the following restrictions apply'
contains "the fault's board, drawn as zones" '<span class="zn">active</span>'
contains "the timeline: the fault's row highlighted" '<li id="e16" class="bad"><a href="#b16">'
contains "a board for every event (34 <= the bound): the last" '<div class="at" id="b33">'
contains "the judge view names a hidden card" 'Night Terror'
n=$(printf '%s' "$html" | grep -o '<div class="at" id="b[0-9]*">' | wc -l)
[ "$n" -eq 34 ] && pass "34 boards, one per event" || fail "want 34 boards, got $n"

# --against: the first divergence, as the text audit reports it
cp -r "$STORE" "$TMP/copy"
"$ARBITER" audit "$MS" --db "$STORE" --against "$TMP/copy" --html "$TMP/against.html" >/dev/null 2>&1
grep -qF '<b>against '"$TMP/copy"'</b>the two records agree, 34 events, link for link' "$TMP/against.html" &&
    pass "--against: the text audit's sentence" || fail "--against: no agreement sentence in the page"

# ---- the public view names no hidden card --------------------------------------------------
# card ids and names the judge sees at some event that the public never sees
ids_names() { jq -r '.cards[] | "\(.id)\t\(.name)"' fixtures/cards/core.json fixtures/cards/standard.json; }
ids_names >"$TMP/cards.tsv"
hidden_cards() {
    local f=$1 n s
    n=$(wc -l <"$f")
    : >"$TMP/judge.txt"
    : >"$TMP/public.txt"
    for s in $(seq 0 $((n - 1))); do
        "$ARBITER" replay "$f" --cards "$CARDS_OF" --at "$s" --view judge --json 2>/dev/null |
            jq -r 'del(.verdicts) | .. | strings' >>"$TMP/judge.txt"
        "$ARBITER" replay "$f" --cards "$CARDS_OF" --at "$s" --view public --json 2>/dev/null |
            jq -r 'del(.verdicts) | .. | strings' >>"$TMP/public.txt"
    done
    # the log's own card references are what the judge sees of its events,
    # the daemon's public view of them what the public sees
    jq -r 'select(.type != "match") | del(.match) | .. | strings' "$f" >>"$TMP/judge.txt"
    local from=0 m
    m=$(head -n 1 "$f" | jq -r .match)
    while [ "$from" != null ]; do
        "$ARBITER" query --endpoint "$EP_Q" '{"op":"events","match":"'"$m"'","view":"public","from":'"$from"'}' \
            >"$TMP/page.json" 2>/dev/null || break
        jq -r '.events[].event | del(.match) | .. | strings' "$TMP/page.json" >>"$TMP/public.txt"
        from=$(jq -r '.next // null' "$TMP/page.json")
    done
    sort -u "$TMP/judge.txt" >"$TMP/j"
    sort -u "$TMP/public.txt" >"$TMP/p"
    comm -23 "$TMP/j" "$TMP/p" >"$TMP/only-judge"
    # keep card ids; add their names, unless the name is public at some point
    awk -F'\t' 'NR == FNR { only[$1] = 1; next } ($1 in only) { print $1; print $2 }' "$TMP/only-judge" "$TMP/cards.tsv" |
        grep -vxF -f "$TMP/p" | sort -u
}
public_case() {
    local name=$1 m=$2 f=$3 rc=0 leaks
    "$ARBITER" audit "$m" --db "$STORE" --view public --html "$TMP/$name-public.html" >/dev/null 2>&1 || rc=$?
    [ "$rc" -le 1 ] && [ -s "$TMP/$name-public.html" ] || { fail "$name: public page, exit $rc"; return; }
    hidden_cards "$f" >"$TMP/$name-hidden"
    local nh
    nh=$(wc -l <"$TMP/$name-hidden")
    [ "$nh" -gt 4 ] || { fail "$name: want hidden cards in the fixture, found $nh"; return; }
    leaks=$(grep -oF -f "$TMP/$name-hidden" "$TMP/$name-public.html" | sort -u | head -n 5 | tr '\n' ' ')
    if [ -z "$leaks" ]; then pass "$name: the public page names none of the $nh hidden card ids and names"
    else fail "$name: the public page names hidden cards: $leaks"; fi
}
CARDS_OF=fixtures/cards/core.json
public_case snap "$MS" "$SNAP"
public_case master "$MM" "$MST"
CARDS_OF=fixtures/cards/standard.json
public_case classic "$MC" "$CLS"

# classic Snap (N seats, a list of players): the board as a grid of seats,
# each its discard pile and face-down stack, the snap pot in the middle;
# the judge sees each stack's cards, the public its count only
"$ARBITER" audit "$MC" --db "$STORE" --html "$TMP/classic-judge.html" >/dev/null 2>&1
cp "$TMP/classic-judge.html" "$ART/audit-classic.html" 2>/dev/null
ch=$(cat "$TMP/classic-judge.html" 2>/dev/null || true)
case "$ch" in *'<span class="st bad">illegal</span> <span class="rule">classic:pot.tie</span>'*)
    pass "classic: the fault with its rule" ;; *) fail "classic: no classic:pot.tie fault in the page" ;; esac
case "$ch" in *'<div class="seats"><div class="side p1">'*'<div class="side p2">'*'<span class="zn">snap pot (0)</span>'*)
    pass "classic: the board drawn as seats and the snap pot" ;; *) fail "classic: no seats in the board" ;; esac
# the fault's board (#56, the table's take refused: the board after #55):
# p1's stack, as the judge's replay lists it, is drawn card by card
want=$("$ARBITER" replay "$CLS" --cards fixtures/cards/standard.json --at 55 --view judge --json |
    jq -r '.players[0] | "face-down stack (\(.stack))"')
case "$ch" in *"<span class=\"zn\">$want</span><div class=\"c"*) pass "classic: the judge's board shows p1's $want card by card" ;;
    *) fail "classic: the judge's board does not show p1's $want" ;; esac
grep -qF 'p2 (dave) selected a hidden card, which is not in p2 (dave)&#39;s decklist.' "$TMP/master-public.html" &&
    pass "master: the public page's verdict sentence says 'a hidden card'" ||
    fail "master: the public page's sentence is not redacted"
grep -qF 'Aegis Flash' "$TMP/master-public.html" && fail "master: the public page names Aegis Flash" ||
    pass "master: the public page does not name Aegis Flash"
"$ARBITER" audit "$MM" --db "$STORE" --html "$TMP/master-judge.html" >/dev/null 2>&1
grep -qF 'p2 (dave) selected Aegis Flash' "$TMP/master-judge.html" &&
    pass "master: the judge page's sentence names the card" || fail "master: the judge page lost the card's name"

daemon_stop || fail "arbiterd stops"
daemon_log_clean && pass "arbiterd's log is clean" || fail "arbiterd's log has errors"

# ---- the page in a real browser --------------------------------------------------------------
browser_init
rc=0
timeout 120 "${B[@]}" --dump-dom "file://$PAGE#b16" >"$TMP/dom.html" 2>"$TMP/dom.log" || rc=$?
if [ "$rc" -eq 0 ] && [ -s "$TMP/dom.html" ]; then pass "chromium: the DOM is dumped"
else fail "chromium --dump-dom: exit $rc: $(tail -n 5 "$TMP/dom.log")"; fi
dom=$(cat "$TMP/dom.html")
case "$dom" in *'<article class="fault" id="f16">'*'<span class="st bad">illegal</span> <span class="rule">snap:9.4</span>'*)
    pass "chromium: the DOM holds the highlighted fault with its rule" ;;
    *) fail "chromium: no highlighted fault in the DOM" ;; esac
case "$dom" in *'<blockquote>'*'During Rounds 2 and 3'*) pass "chromium: the DOM holds the rule's quote" ;;
    *) fail "chromium: no quote in the DOM" ;; esac
browser_shot "$PNG" "file://$PAGE" 1280,1800
browser_shot "$ART/audit-classic.png" "file://$ART/audit-classic.html#f56" 1280,1400
browser_console_clean "$TMP/dom.log" "$TMP/shot.log"

finish
