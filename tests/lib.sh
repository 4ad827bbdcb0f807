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
