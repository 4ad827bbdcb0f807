# e2e_notify.sh -- arbiterd's readiness, watchdog, reload and stop under the
# sd_notify protocol (tests/e2e_notify.py holds the checks: a test socket in
# place of systemd, as a Type=notify unit runs it).
. "$(dirname "$0")/lib.sh"
: "${top_builddir:=$top_srcdir/build}"
: "${ARBITERD:=$top_builddir/arbiterd}"
/usr/bin/python3 "$top_srcdir/tests/e2e_notify.py" "$ARBITERD" "$ARBITER" "$TMP"
rc=$?
grep -E 'AddressSanitizer|LeakSanitizer|runtime error' "$TMP/arbiterd.log" && exit 1
exit $rc
