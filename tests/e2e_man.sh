# e2e_man.sh -- the manual pages: arbiter(1), arbiterd(8), arbiter-openlog(5).
# Each is linted (groff -ww: every warning; mandoc -Tlint too where it is
# installed), rendered by `man -l` with its NAME, and kept in step with
# --help: the options each command's --help lists are exactly those its
# section of the page lists, and arbiterd's page lists arbiterd --help's.
. "$(dirname "$0")/lib.sh"

M="$top_srcdir/man"
: "${ARBITERD:=$top_builddir/arbiterd}"

command -v groff >/dev/null || { fail "groff is needed (Debian: groff-base)"; finish; exit 1; }
for page in "$M"/arbiter.1 "$M"/arbiterd.8 "$M"/arbiter-openlog.5; do
    name=$(basename "$page")
    w=$(groff -ww -man -z -t "$page" 2>&1)
    if [ -z "$w" ]; then pass "$name: groff -ww is silent"; else fail "$name: groff -ww: $w"; fi
    if command -v mandoc >/dev/null; then
        w=$(mandoc -Tlint -Wwarning "$page" 2>&1)
        if [ -z "$w" ]; then pass "$name: mandoc -Tlint is silent"; else fail "$name: mandoc -Tlint: $w"; fi
    fi
    if command -v man >/dev/null; then
        out=$(MANWIDTH=80 man -l "$page" 2>&1 | col -b)
        if printf '%s\n' "$out" | grep -qE "^ +${name%.*}[[:space:]]+- "; then pass "$name: man -l shows it"
        else fail "$name: man -l does not show its NAME: $(printf '%s' "$out" | head -5)"; fi
    else
        fail "man is needed to show the pages (Debian: man-db)"
    fi
done

# the section of arbiter.1 for one command: from its .SS to the next command's
section() {
    awk -v c="$1" '/^\.SS "arbiter / { split($0, w, " "); inside = (w[3] == c) } /^\.SH / { inside = 0 } inside' \
        "$M/arbiter.1"
}

for cmd in $(arbiter_commands); do
    if [ "$cmd" = deck ]; then
        help=$( ("$ARBITER" deck check --help; "$ARBITER" deck rules --help) 2>&1 | option_names)
    else
        help=$("$ARBITER" "$cmd" --help 2>&1 | option_names)
    fi
    page=$(section "$cmd" | option_names)
    if [ -z "$(section "$cmd")" ]; then fail "arbiter.1 has no section for arbiter $cmd"
    elif [ "$help" = "$page" ]; then pass "arbiter $cmd: the page and --help list the same options ($(echo $help))"
    else fail "arbiter $cmd: --help lists [$(echo $help)], arbiter.1 [$(echo $page)]"; fi
done

help=$("$ARBITERD" --help 2>&1 | option_names)
page=$(awk '/^\.SH EXAMPLES/ { skip = 1; next } /^\.SH / { skip = 0 } !skip' "$M/arbiterd.8" | option_names)
if [ "$help" = "$page" ]; then pass "arbiterd: the page and --help list the same options"
else fail "arbiterd: --help lists [$(echo $help)], arbiterd.8 [$(echo $page)]"; fi

finish
