# deb_check.sh -- `make deb`: build the Debian package from a clean copy of
# the tree and check what it installs, without installing it.
#
#   tests/deb_check.sh [OUTDIR]     (make deb: OUTDIR is the build directory)
#
# The copy is `git archive HEAD` (what a clean clone holds: uncommitted
# changes are not in it, and a line says so), or, outside a git checkout, the
# source tree as it is but for quickstart's build/, build-san/ and var/ (an
# unpacked release tarball).  dpkg-buildpackage -us -uc -b runs in a scratch
# directory (DEB_BUILD_OPTIONS defaults to parallel=1), the package is
# unpacked with dpkg -x into a scratch root, and from there: arbiter
# --version (the package's version) and arbiterd --help run with the
# system's libraries only; every manual page of man/ is installed and shows
# with man -l;
# the unit is in /lib/systemd/system (or /usr/lib/systemd/system), starts
# /usr/bin/arbiterd with /usr/share/arbiter/core.json, and passes
# systemd-analyze verify pointed at the scratch root; the bash completion
# loads; the card database is /usr/share/arbiter/core.json, arbiter cards
# reads it, and arbiter looks for it there; /etc/default/arbiterd is a
# conffile; the service is enabled by the maintainer scripts.  lintian runs
# last: an error (E:) fails, warnings are printed.  The .deb is copied to
# OUTDIR (default: the current directory).
. "$(dirname "$0")/lib.sh"

out=$(cd "${1:-.}" && pwd)
src=$top_srcdir
: "${DEB_BUILD_OPTIONS:=parallel=1}"
export DEB_BUILD_OPTIONS

for tool in dpkg-buildpackage dh lintian man; do
    command -v "$tool" >/dev/null ||
        { fail "$tool is needed (Debian: dpkg-dev debhelper lintian man-db; ./quickstart installs them)"; finish; exit 1; }
done

# 1. a clean copy
mkdir -p "$TMP/src/arbiter"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$src" archive --format=tar HEAD | tar -xf - -C "$TMP/src/arbiter"
    [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ] &&
        echo "note: the package is built from HEAD ($(git -C "$src" rev-parse --short HEAD)); uncommitted changes are not in it"
    pass "a clean copy: git archive HEAD ($(git -C "$src" rev-parse --short HEAD))"
else
    # quickstart's build directories and store stay out
    tar -C "$src" -cf - --exclude=./build --exclude=./build-san --exclude=./var --exclude=./autom4te.cache . |
        tar -xf - -C "$TMP/src/arbiter"
    pass "a copy of $src (not a git checkout)"
fi
[ -f "$TMP/src/arbiter/debian/control" ] || { fail "the copy has no debian/control"; finish; exit 1; }

# 2. the package
echo "dpkg-buildpackage -us -uc -b (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS) in $TMP/src ..."
if (cd "$TMP/src/arbiter" && dpkg-buildpackage -us -uc -b) >"$TMP/build.log" 2>&1; then
    pass "dpkg-buildpackage -us -uc -b"
else
    tail -n 60 "$TMP/build.log"
    fail "dpkg-buildpackage failed (the end of its log is above)"; finish; exit 1
fi
grep -E '^# (TOTAL|PASS|FAIL|ERROR):' "$TMP/build.log" | sed 's/^/  build-time tests /'
debs=("$TMP"/src/arbiter_*.deb)
if [ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ]; then deb=${debs[0]}; pass "built $(basename "$deb")"
else fail "want one arbiter_*.deb, got: ${debs[*]}"; finish; exit 1; fi
version=$(dpkg-deb -f "$deb" Version)

# 3. unpacked into a scratch root, not installed
root="$TMP/root"
dpkg -x "$deb" "$root"
dpkg-deb -e "$deb" "$TMP/control"

# run PROGRAM ARGS...: the packaged program with the system's libraries only
run() { env -u LD_LIBRARY_PATH -u LD_PRELOAD -u ARBITER_CARDS "$@"; }

v=$(run "$root/usr/bin/arbiter" --version 2>&1)
if [ "$v" = "arbiter ${version%%-*}" ]; then pass "usr/bin/arbiter --version: $v"
else fail "usr/bin/arbiter --version: want 'arbiter ${version%%-*}', got '$v'"; fi
if h=$(run "$root/usr/bin/arbiterd" --help 2>&1) && printf '%s\n' "$h" | grep -q '^usage: arbiterd '; then
    pass "usr/bin/arbiterd --help"
else fail "usr/bin/arbiterd --help: $h"; fi
for prog in arbiter arbiterd; do
    missing=$(run ldd "$root/usr/bin/$prog" | grep 'not found')
    if [ -z "$missing" ]; then pass "$prog: every library is the system's"; else fail "$prog: $missing"; fi
done
# every page of the tree's man/ (one per command, arbiterd(8), the formats)
pages=$(cd "$TMP/src/arbiter/man" && ls -- *.[0-9])
for cmd in $(run "$root/usr/bin/arbiter" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
    printf '%s\n' $pages | grep -qxF "arbiter-$cmd.1" || fail "arbiter $cmd has no page in man/"
done
for f in $pages; do
    page="man${f##*.}/$f.gz" name=${f%.*}
    if MANWIDTH=80 man -l "$root/usr/share/man/$page" 2>/dev/null | col -b | grep -qE "^ +$name[[:space:]]+- "; then
        pass "man -l usr/share/man/$page shows $name"
    else fail "man -l usr/share/man/$page does not show $name"; fi
done

unit=
for d in lib/systemd/system usr/lib/systemd/system; do
    [ -f "$root/$d/arbiterd.service" ] && unit="$root/$d/arbiterd.service"
done
if [ -n "$unit" ]; then pass "the unit: ${unit#"$root"}"; else fail "no arbiterd.service in (usr/)lib/systemd/system"; fi
if [ -n "$unit" ]; then
    want='ExecStart=/usr/bin/arbiterd --db /var/lib/arbiterd/store --cards /usr/share/arbiter/core.json --cards /usr/share/arbiter/standard.json $ARBITERD_OPTS'
    if grep -qxF "$want" "$unit"; then pass "$want"; else fail "the unit's ExecStart: $(grep '^ExecStart' "$unit")"; fi
    if command -v systemd-analyze >/dev/null; then
        mkdir -p "$TMP/verify"
        sed -e "s|=/usr/bin/|=$root/usr/bin/|" -e "s| /usr/share/arbiter/| $root/usr/share/arbiter/|" "$unit" >"$TMP/verify/arbiterd.service"
        v=$(MANPATH="$root/usr/share/man" systemd-analyze verify "$TMP/verify/arbiterd.service" 2>&1)
        if [ -z "$v" ]; then pass "systemd-analyze verify (the packaged unit, pointed at the scratch root): no message"
        else fail "systemd-analyze verify: $v"; fi
    else
        echo "note: no systemd-analyze; tests/e2e_service.sh verifies the unit where it is installed"
    fi
fi
if grep -q "deb-systemd-helper enable 'arbiterd.service'" "$TMP/control/postinst" 2>/dev/null; then
    pass "postinst enables arbiterd.service (dh_installsystemd)"
else fail "postinst does not enable arbiterd.service"; fi
if [ -f "$root/etc/default/arbiterd" ] && grep -qx /etc/default/arbiterd "$TMP/control/conffiles" 2>/dev/null; then
    pass "/etc/default/arbiterd, a conffile"
else fail "/etc/default/arbiterd missing or not a conffile"; fi

for c in arbiter arbiterd; do
    f="$root/usr/share/bash-completion/completions/$c"
    if [ -f "$f" ] && bash -c '. "$1" && complete -p "$2"' _ "$f" "$c" >/dev/null 2>&1; then
        pass "usr/share/bash-completion/completions/$c completes $c"
    else fail "no completion for $c in usr/share/bash-completion/completions"; fi
done

db="$root/usr/share/arbiter/core.json"
if [ -f "$db" ] && cmp -s "$db" "$src/fixtures/cards/core.json"; then pass "usr/share/arbiter/core.json is fixtures/cards/core.json"
else fail "usr/share/arbiter/core.json missing or not fixtures/cards/core.json"; fi
std="$root/usr/share/arbiter/standard.json"
if [ -f "$std" ] && cmp -s "$std" "$src/fixtures/cards/standard.json"; then pass "usr/share/arbiter/standard.json is fixtures/cards/standard.json (classic Snap's 52)"
else fail "usr/share/arbiter/standard.json missing or not fixtures/cards/standard.json"; fi
if c=$(run "$root/usr/bin/arbiter" cards "$db" 2>&1) && [ -n "$c" ]; then pass "arbiter cards usr/share/arbiter/core.json: $(printf '%s\n' "$c" | head -1)"
else fail "arbiter cards usr/share/arbiter/core.json: $c"; fi
if grep -qaF /usr/share/arbiter/core.json "$root/usr/bin/arbiter"; then pass "arbiter's default card database is /usr/share/arbiter/core.json"
else fail "arbiter does not look for /usr/share/arbiter/core.json (configured with another prefix?)"; fi
dep=$(dpkg-deb -f "$deb" Depends)
if printf '%s' "$dep" | grep -q libzmq5 && printf '%s' "$dep" | grep -q liblmdb; then pass "Depends: $dep"
else fail "Depends lacks the shared libraries: $dep"; fi

# 4. lintian: errors fail, the rest is printed
lintian --display-info "$TMP"/src/arbiter_*.changes >"$TMP/lintian.log" 2>&1
grep -v 'running with root privileges is not recommended' "$TMP/lintian.log" | sed 's/^/  lintian: /'
errors=$(grep -c '^E: ' "$TMP/lintian.log")
warnings=$(grep -c '^W: ' "$TMP/lintian.log")
if [ "$errors" -eq 0 ]; then pass "lintian: no error ($warnings warnings)"; else fail "lintian: $errors errors"; fi

cp "$deb" "$out/" && echo "the package: $out/$(basename "$deb")"
finish
