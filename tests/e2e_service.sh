# e2e_service.sh -- the systemd service, src/daemon/arbiterd.service.in as make
# makes and installs it: `make install` puts it in the unit directory with
# the configured bindir and pkgdatadir written in; a copy made by the same
# make rule but pointed at this build's arbiterd passes `systemd-analyze
# verify` with not one message (it exits 0 on unknown keys and bad values,
# so its output is what is judged; arbiterd(8) is found for Documentation=);
# the unit holds every hardening directive the service is meant to have.
# Without systemd-analyze the rest is still checked, then SKIP (77).
. "$(dirname "$0")/lib.sh"

: "${ARBITERD:=$top_builddir/arbiterd}"
IN="$top_srcdir/src/daemon/arbiterd.service.in"

# 1. make install (of the unit alone) into a scratch root
root="$TMP/root"
if make -s -C "$top_builddir" install-systemdsystemunitDATA DESTDIR="$root" >"$TMP/install.log" 2>&1; then
    pass "make install-systemdsystemunitDATA DESTDIR=..."
else
    fail "make install of the unit: $(cat "$TMP/install.log")"
fi
unit=$(find "$root" -name arbiterd.service -type f | head -1)
case "$unit" in
    */lib/systemd/system/arbiterd.service) pass "installed in a systemd unit directory: ${unit#"$root"}" ;;
    "") fail "no arbiterd.service installed"; finish; exit 1 ;;
    *) fail "installed outside lib/systemd/system: ${unit#"$root"}" ;;
esac

if grep -nE '@(bindir|pkgdatadir)@' "$unit"; then fail "placeholders left in the installed unit"
else pass "no @bindir@/@pkgdatadir@ left in the installed unit"; fi
exec_re='^ExecStart=/[^ ]*/arbiterd --db /var/lib/arbiterd/store --cards /[^ ]*/core\.json --cards /[^ ]*/standard\.json \$ARBITERD_OPTS$'
if grep -qE "$exec_re" "$unit"; then pass "ExecStart: $(grep '^ExecStart=' "$unit")"
else fail "ExecStart is not arbiterd --db /var/lib/arbiterd/store --cards PKGDATADIR/core.json --cards PKGDATADIR/standard.json \$ARBITERD_OPTS: $(grep '^ExecStart' "$unit")"; fi

# the options ExecStart and the comments give are arbiterd's
help=$("$ARBITERD" --help 2>&1)
for opt in --db --cards --keyring --ingest; do
    if printf '%s\n' "$help" | grep -q -- "^  $opt "; then pass "arbiterd --help lists $opt"
    else fail "the unit uses $opt, which arbiterd --help does not list"; fi
done
if grep -q '^#.*ARBITERD_OPTS=.*--keyring /etc/arbiter/' "$unit"; then pass "a comment shows the keyring in /etc/arbiter passed by ARBITERD_OPTS"
else fail "no comment shows --keyring /etc/arbiter/... in ARBITERD_OPTS"; fi

# 2. the directives, each as its own line
for want in \
    'Type=notify' 'NotifyAccess=main' 'WatchdogSec=30s' \
    'EnvironmentFile=-/etc/default/arbiterd' 'ExecReload=/bin/kill -HUP $MAINPID' \
    'Restart=on-failure' 'LimitNOFILE=65536' 'Documentation=man:arbiterd(8)' \
    'DynamicUser=yes' 'StateDirectory=arbiterd' \
    'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' 'PrivateDevices=yes' \
    'NoNewPrivileges=yes' 'ProtectKernelTunables=yes' 'ProtectKernelModules=yes' \
    'ProtectControlGroups=yes' 'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6' \
    'RestrictNamespaces=yes' 'LockPersonality=yes' 'MemoryDenyWriteExecute=yes' \
    'SystemCallArchitectures=native' 'SystemCallFilter=@system-service' \
    'SystemCallErrorNumber=EPERM' 'WantedBy=multi-user.target'; do
    if grep -qxF -- "$want" "$unit"; then pass "$want"; else fail "missing: $want"; fi
done
# arbiterd raises its descriptor limit (setrlimit, in @resources): not denied
if grep -E '^SystemCallFilter=' "$unit" | grep -qE '~|@resources'; then
    fail "SystemCallFilter= takes something away: $(grep '^SystemCallFilter=' "$unit")"
else pass "SystemCallFilter= leaves setrlimit (@resources) allowed"; fi
n=$(grep -cE '^[A-Za-z]+=' "$unit")
dups=$(grep -oE '^[A-Za-z]+=' "$unit" | sort | uniq -d | tr '\n' ' ')
if [ -z "$dups" ]; then pass "each of the $n directives is set once"; else fail "set twice: $dups"; fi

# 3. the same make rule, pointed at this build, for systemd-analyze verify
mkdir -p "$TMP/verify" "$TMP/man/man8"
cp "$IN" "$TMP/verify/arbiterd.service.in"
if make -s -C "$top_builddir" "$TMP/verify/arbiterd.service" \
        bindir="$(dirname "$ARBITERD")" pkgdatadir="$top_srcdir/fixtures/cards" >"$TMP/make.log" 2>&1; then
    pass "make's rule makes a copy pointed at the build's arbiterd"
else
    fail "make $TMP/verify/arbiterd.service: $(cat "$TMP/make.log")"; finish; exit 1
fi
test_unit="$TMP/verify/arbiterd.service"
if grep -qxF "ExecStart=$ARBITERD --db /var/lib/arbiterd/store --cards $top_srcdir/fixtures/cards/core.json --cards $top_srcdir/fixtures/cards/standard.json \$ARBITERD_OPTS" "$test_unit"
then pass "the copy starts $ARBITERD"; else fail "the copy's ExecStart: $(grep '^ExecStart' "$test_unit")"; fi
# the two differ in ExecStart only
if diff <(grep -v '^ExecStart=' "$unit") <(grep -v '^ExecStart=' "$test_unit") >"$TMP/diff"; then
    pass "the copy and the installed unit differ in ExecStart only"
else fail "the copy differs from the installed unit: $(cat "$TMP/diff")"; fi

if ! command -v systemd-analyze >/dev/null; then
    echo "SKIP systemd-analyze verify: systemd-analyze is not installed (Debian: systemd)"
    finish || exit 1
    exit 77
fi
cp "$top_srcdir/man/arbiterd.8" "$TMP/man/man8/"
out=$(MANPATH="$TMP/man" systemd-analyze verify "$test_unit" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then pass "systemd-analyze verify: no message"
else fail "systemd-analyze verify (exit $rc): $out"; fi

# it would say so: a unit with an unknown key and a bad value is not silent
sed -e 's/^ProtectSystem=strict$/ProtectSystem=strictly/' -e 's/^Type=notify$/Type=notify\nWatchdogSecs=1/' \
    "$test_unit" >"$TMP/bad.service"
mkdir -p "$TMP/bad" && mv "$TMP/bad.service" "$TMP/bad/arbiterd.service"
out=$(MANPATH="$TMP/man" systemd-analyze verify "$TMP/bad/arbiterd.service" 2>&1)
if printf '%s' "$out" | grep -q WatchdogSecs && printf '%s' "$out" | grep -q strictly; then
    pass "systemd-analyze verify names an unknown key and a bad value (the check above can fail)"
else fail "systemd-analyze verify is silent on a bad unit: $out"; fi

finish
