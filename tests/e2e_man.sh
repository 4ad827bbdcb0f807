# e2e_man.sh -- the manual pages (man/): arbiter(1), one page per command
# `arbiter --help` lists (arbiter-CMD.1, git's way), arbiterd(8) and the
# file formats of section 5.
#   1. every page lints clean (groff -ww: every warning; mandoc -Tlint too
#      where it is installed), and `man -l` shows it at 80 columns with its
#      NAME and without a warning;
#   2. every command of arbiter --help has its page (a missing page fails),
#      and arbiter(1) lists it;
#   3. each command's page is held to its --help: the options of its
#      SYNOPSIS, and those of its OPTIONS section, are each exactly the ones
#      its --help lists (deck: deck check's and deck rules'); arbiterd(8)
#      likewise to arbiterd --help;
#   4. no page names an option (--x) that no --help lists;
#   5. every arbiter page a page refers to, name(N), is in man/;
#   6. Makefile.am's dist_man_MANS is every page of man/ (each is installed,
#      and in the tarball), and README.md names each (where the manuals are);
#   7. the example of arbiter-tournament(5) is a tournament file arbiter
#      reads.
. "$(dirname "$0")/lib.sh"

M="$top_srcdir/man"
: "${ARBITERD:=$top_builddir/arbiterd}"

command -v groff >/dev/null || { fail "groff is needed (Debian: groff-base)"; finish; exit 1; }
command -v man >/dev/null || { fail "man is needed to show the pages (Debian: man-db)"; finish; exit 1; }

# ---- 1. lint and show every page ----------------------------------------------
pages=$(cd "$M" && ls -- *.[0-9] 2>/dev/null | sort)
[ -n "$pages" ] || { fail "no manual page in $M"; finish; exit 1; }
for name in $pages; do
    page="$M/$name"
    w=$(groff -ww -man -z -t "$page" 2>&1)
    if [ -z "$w" ]; then pass "$name: groff -ww is silent"; else fail "$name: groff -ww: $w"; fi
    if command -v mandoc >/dev/null; then
        w=$(mandoc -Tlint -Wwarning "$page" 2>&1)
        if [ -z "$w" ]; then pass "$name: mandoc -Tlint is silent"; else fail "$name: mandoc -Tlint: $w"; fi
    fi
    out=$(MANWIDTH=80 man -l "$page" 2>"$TMP/man.err" | col -b)
    if printf '%s\n' "$out" | grep -qE "^ +${name%.*}[[:space:]]+- "; then pass "$name: man -l shows it"
    else fail "$name: man -l does not show its NAME: $(printf '%s' "$out" | head -5)"; fi
    if [ -s "$TMP/man.err" ]; then fail "$name: man -l warns: $(head -3 "$TMP/man.err")"
    else pass "$name: man -l shows it without a warning"; fi
done

# section PAGE SECTION: the lines of one .SH section of a page
section() {
    awk -v s="$2" '/^\.SH / { inside = ($0 == ".SH " s || $0 == ".SH \"" s "\"") ; next } inside' "$1"
}

# help_of CMD: the options CMD's --help lists ("arbiterd" for the daemon)
help_of() {
    case $1 in
        "") "$ARBITER" --help 2>&1 ;;
        arbiterd) "$ARBITERD" --help 2>&1 ;;
        deck) "$ARBITER" deck check --help 2>&1; "$ARBITER" deck rules --help 2>&1 ;;
        *) "$ARBITER" "$1" --help 2>&1 ;;
    esac | option_names
}

# held NAME PAGE CMD: PAGE's SYNOPSIS and OPTIONS each list CMD's --help
held() {
    local name=$1 page=$2 help syn opt
    help=$(help_of "$3")
    syn=$(section "$page" SYNOPSIS | option_names)
    opt=$(section "$page" OPTIONS | option_names)
    if [ -z "$(section "$page" OPTIONS)" ] && [ -n "$help" ]; then fail "$name has no OPTIONS section"
    elif [ "$help" = "$opt" ]; then pass "$name: OPTIONS and --help list the same options ($(echo $help))"
    else fail "$name: --help lists [$(echo $help)], its OPTIONS [$(echo $opt)]"; fi
    if [ "$help" = "$syn" ]; then pass "$name: SYNOPSIS and --help list the same options"
    else fail "$name: --help lists [$(echo $help)], its SYNOPSIS [$(echo $syn)]"; fi
}

# ---- 2, 3. a page per command, held to its --help -----------------------------
cmds=$(arbiter_commands)
[ -n "$cmds" ] || fail "arbiter --help lists no command"
all_opts=$(help_of arbiterd)
for cmd in $cmds; do
    all_opts=$(printf '%s\n%s\n' "$all_opts" "$(help_of "$cmd")")
    page="$M/arbiter-$cmd.1"
    if [ ! -f "$page" ]; then fail "arbiter $cmd has no page: man/arbiter-$cmd.1 is missing"; continue; fi
    pass "arbiter $cmd: man/arbiter-$cmd.1"
    if section "$M/arbiter.1" COMMANDS | grep -qxF ".BR arbiter\\-$cmd (1)"; then pass "arbiter(1) lists arbiter-$cmd(1)"
    else fail "arbiter(1) does not list arbiter-$cmd(1) in COMMANDS"; fi
    held "arbiter-$cmd(1)" "$page" "$cmd"
done
if [ -f "$M/arbiterd.8" ]; then held "arbiterd(8)" "$M/arbiterd.8" arbiterd; else fail "man/arbiterd.8 is missing"; fi
held "arbiter(1)" "$M/arbiter.1" ""   # arbiter --help: --help and --version only
# arbiter(1) lists no command that does not exist
listed=$(section "$M/arbiter.1" COMMANDS | sed -n 's/^\.BR arbiter\\-\([a-z]*\) (1)$/\1/p' | sort)
if [ "$listed" = "$(printf '%s\n' $cmds | sort)" ]; then pass "arbiter(1) lists exactly the commands of arbiter --help"
else fail "arbiter(1) lists [$(echo $listed)], arbiter --help [$(echo $cmds)]"; fi

# ---- 4. no page names an option that does not exist ------------------------------
# and other programs' options the pages show, each named here with where:
#   --now   systemctl enable --now arbiterd (arbiterd(8), THE SERVICE)
foreign='--now'
all_opts=$(printf '%s\n%s\n' "$all_opts" "$foreign" | grep . | sort -u)
for name in $pages; do
    stray=$(option_names <"$M/$name" | grep -vxF -- "$all_opts" || true)
    if [ -z "$stray" ]; then pass "$name: every option it names is in some --help"
    else fail "$name names options no --help lists: $(echo $stray)"; fi
done

# ---- 5. every page referred to exists ------------------------------------------------
for name in $pages; do
    missing=
    for ref in $(sed 's/\\-/-/g' "$M/$name" | grep -oE 'arbiter[a-z-]* \([0-9]\)' | tr -d ' ()' | sort -u); do
        # arbiter-records5 -> arbiter-records.5
        [ -f "$M/${ref%?}.${ref: -1}" ] || missing="$missing ${ref%?}(${ref: -1})"
    done
    if [ -z "$missing" ]; then pass "$name: every arbiter page it refers to is in man/"
    else fail "$name refers to pages that are not in man/:$missing"; fi
done

# ---- 6. installed, and named in README.md -------------------------------------------
installed=$(sed -n '/^dist_man_MANS *=/,/[^\\]$/p' "$top_srcdir/Makefile.am" | grep -oE 'man/[^ \\]+' | sed 's|^man/||' | sort)
if [ "$installed" = "$pages" ]; then pass "Makefile.am's dist_man_MANS is every page of man/"
else fail "dist_man_MANS [$(echo $installed)] is not man/ [$(echo $pages)]"; fi
for name in $pages; do
    ref="${name%.*}(${name##*.})"
    if grep -qF "$ref" "$top_srcdir/README.md"; then pass "README.md names $ref"
    else fail "README.md does not name $ref (where the manuals are)"; fi
done

# ---- 7. the tournament file of arbiter-tournament(5) -------------------------------
if [ -f "$M/arbiter-tournament.5" ]; then
    section "$M/arbiter-tournament.5" EXAMPLE | sed -n '/^\.EX/,/^\.EE/p' | sed '1d;$d' |
        sed -e 's/\\-/-/g' -e 's/\\e/\\/g' >"$TMP/cup.json"
    "$ARBITER" tournament alarms --file "$TMP/cup.json" </dev/null >"$TMP/out" 2>&1
    rc=$?
    if [ -s "$TMP/cup.json" ] && [ "$rc" -ne 2 ] && grep -q 'core-cup-2026' "$TMP/out"; then
        pass "arbiter-tournament(5): its example is a tournament file arbiter reads (alarms: exit $rc)"
    else fail "arbiter-tournament(5): its example is refused (exit $rc): $(head -3 "$TMP/out")"; fi
fi

finish
