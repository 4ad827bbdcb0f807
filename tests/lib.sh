# lib.sh -- shared by the end-to-end scripts (sourced, not run).
# make check exports top_srcdir, top_builddir, ARBITER and SANITIZERS.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${ARBITER:=$top_srcdir/build/arbiter}"
: "${SANITIZERS:=no}"
: "${ARBITER_CARDS:=$top_srcdir/fixtures/cards/core.json}"
export ARBITER_CARDS
passed=0
failed=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { passed=$((passed + 1)); printf 'PASS %s\n' "$*"; }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$*"; }

# Closing line in the plain form CI reads: "N passed, N failed".
finish() {
    printf '%s: %d passed, %d failed\n' "$(basename "$0" .sh)" "$passed" "$failed"
    [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
}

# CARD_DBS: the card database files a script judges logs with (an array; arbiterd
# takes several --cards and picks, for each match, the one its header names).
# card_db_of LOG: the file of CARD_DBS whose "<set>@<version>" is the `cards` of
# LOG's header (its first line, JSON), else $ARBITER_CARDS.
CARD_DBS=()
declare -A CARD_DB_NAME=()
card_db_of() {
    local want db
    want=$(head -n 1 "$1" | jq -r '.cards // empty' 2>/dev/null)
    for db in "${CARD_DBS[@]}"; do
        [ -n "${CARD_DB_NAME[$db]:-}" ] || CARD_DB_NAME[$db]=$(jq -r '"\(.set)@\(.version)"' "$db")
        [ "${CARD_DB_NAME[$db]}" = "$want" ] && { printf '%s\n' "$db"; return; }
    done
    printf '%s\n' "$ARBITER_CARDS"
}

# py_checks NAME SCRIPT ARGS...: a check written as a Python client of the
# daemon (/usr/bin/python3 with Debian's python3-zmq and python3-msgpack, and
# a libzmq with CURVE): skipped (77) without them; else SCRIPT's own PASS/FAIL
# lines and its closing line "NAME: N passed, N failed", which it must print;
# returns its exit status.
py_checks() {
    local name=$1 script=$2 out rc
    shift 2
    if ! /usr/bin/python3 -c 'import zmq, msgpack, sys; sys.exit(0 if zmq.has("curve") else 1)' 2>/dev/null; then
        echo "SKIP $name: /usr/bin/python3 cannot import zmq and msgpack, or libzmq has no CURVE (install python3-zmq python3-msgpack)"
        return 77
    fi
    out="$TMP/$name.out"
    /usr/bin/python3 "$script" "$@" 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    if ! grep -Eq "^$name: [0-9]+ passed, [0-9]+ failed\$" "$out"; then
        echo "FAIL $script exited $rc without its closing line"
        echo "$name: 0 passed, 1 failed"
        return 1
    fi
    return "$rc"
}

# option_names: the option names in stdin ("--json", "-j"; man pages' "\-\-json"
# too), one per line, sorted; --help and --version, every command's, left out
# (e2e_man.sh and e2e_completion.sh hold their lists to --help with it).
option_names() {
    sed 's/\\-/-/g' | grep -oE '(^|[^a-z-])--?[a-z][a-z-]*' | sed 's/^[^-]*//' | grep -E '^--[a-z]|^-j$' |
        grep -vxE -- '--help|--version' | sort -u
}

# arbiter_commands: the commands `arbiter --help` lists, one per line.
arbiter_commands() {
    "$ARBITER" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'
}

# ---- a real browser (Debian's chromium, headless), for the pages --------------------
# browser_init: sets B, the chromium command line; fails the test and exits
# when chromium is not installed (CI installs it; it is not skipped).
browser_init() {
    local chromium
    chromium=$(command -v chromium || true)
    if [ -z "$chromium" ]; then
        fail "chromium is not installed: install Debian's package 'chromium' (apt-get install chromium; ./quickstart does)"
        finish
        exit 1
    fi
    B=("$chromium" --headless=new --no-sandbox --disable-gpu --no-first-run --no-default-browser-check
       --disable-extensions --user-data-dir="$TMP/chromium" --enable-logging=stderr --v=0)
}

# browser_shot PNG URL WxH: a screenshot of URL into PNG, which must be a PNG
# of more than 40000 bytes; chromium's log in $TMP/shot.log.
browser_shot() {
    local png=$1 url=$2 size rc=0 sig
    timeout 120 "${B[@]}" --hide-scrollbars --screenshot="$png" --window-size="$3" "$url" \
        >"$TMP/shot.out" 2>"$TMP/shot.log" || rc=$?
    size=$(stat -c %s "$png" 2>/dev/null || echo 0)
    sig=$(head -c 8 "$png" 2>/dev/null | od -An -tx1 | tr -d ' \n')
    if [ "$rc" -eq 0 ] && [ "$sig" = "89504e470d0a1a0a" ] && [ "$size" -gt 40000 ]; then
        pass "chromium: a screenshot, a PNG of $size bytes: $png"
    else
        fail "chromium --screenshot: exit $rc, signature '$sig', $size bytes: $(tail -n 5 "$TMP/shot.log")"
    fi
}

# browser_console_clean LOG...: no console error, nothing refused or failed
# to load, in chromium's logs.
browser_console_clean() {
    if grep -E 'Uncaught|ERROR:CONSOLE|CONSOLE\(|Refused to|net::ERR_' "$@" >"$TMP/console"; then
        fail "chromium: the console has errors: $(head -n 5 "$TMP/console")"
    else
        pass "chromium: no console error, nothing refused or failed to load"
    fi
}
