#!/usr/bin/python3
"""e2e_notify.py -- arbiterd under the sd_notify protocol, as systemd runs a
Type=notify service, with a test socket in place of systemd.

    e2e_notify.py ARBITERD ARBITER TMPDIR

$NOTIFY_SOCKET names a datagram socket this script reads; $WATCHDOG_USEC
asks for a watchdog.  Checked:
  - READY=1 comes, and when it comes the query socket already answers
    (the store is open and the sockets are bound: `systemctl start` may
    return and tables connect);
  - WATCHDOG=1 comes at about half the interval asked for, from the event
    loop: none while the process is stopped (SIGSTOP), again after SIGCONT;
  - SIGHUP gives RELOADING=1 (with MONOTONIC_USEC) and then READY=1;
  - SIGTERM gives STOPPING=1, and arbiterd exits 0.
Prints PASS/FAIL lines and "e2e_notify: N passed, N failed"; exit 1 on a
failure.
"""
import os
import signal
import socket
import subprocess
import sys
import time

arbiterd, arbiter, tmp = sys.argv[1:4]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print("PASS " + what)
    else:
        failed += 1
        print("FAIL " + what)


sock_path = os.path.join(tmp, "notify.sock")
sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sock.bind(sock_path)
sock.settimeout(0.1)


def messages(seconds):
    """Every datagram received within `seconds`, each split into its lines."""
    got, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            got.append(sock.recv(4096).decode().split("\n"))
        except socket.timeout:
            pass
    return got


def wait_for(line, seconds):
    """The datagrams received until one holds `line` (or the time is up)."""
    got, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            m = sock.recv(4096).decode().split("\n")
        except socket.timeout:
            continue
        got.append(m)
        if line in m:
            return got, True
    return got, False


def health():
    r = subprocess.run([arbiter, "query", "--endpoint", "ipc://%s/query" % tmp, '{"op":"health"}'],
                       capture_output=True, text=True, timeout=10)
    return r.returncode == 0


env = dict(os.environ, NOTIFY_SOCKET=sock_path, WATCHDOG_USEC="400000")
env.pop("WATCHDOG_PID", None)
log = open(os.path.join(tmp, "arbiterd.log"), "w")
d = subprocess.Popen([arbiterd, "--db", os.path.join(tmp, "store"), "--ingest", "ipc://%s/ingest" % tmp,
                      "--feed", "ipc://%s/feed" % tmp, "--query", "ipc://%s/query" % tmp, "--log-level", "info"],
                     env=env, stdout=log, stderr=log)
try:
    got, ready = wait_for("READY=1", 20)
    check(ready, "READY=1 is sent")
    check(ready and health(), "when READY=1 comes, the query socket answers")
    status = [l for m in got for l in m if l.startswith("STATUS=")]
    check(bool(status), "READY=1 comes with a STATUS line: %s" % (status[:1] or ["none"])[0])
    check(not any("WATCHDOG=1" in m for m in got[:-1]), "no WATCHDOG=1 before READY=1")

    w = [m for m in messages(1.2) if "WATCHDOG=1" in m]
    check(3 <= len(w) <= 8, "WATCHDOG=1 about every 200 ms for WATCHDOG_USEC 400000 (%d in 1.2 s)" % len(w))

    d.send_signal(signal.SIGSTOP)
    time.sleep(0.05)
    messages(0.1)   # what was in flight
    w = [m for m in messages(1.0) if "WATCHDOG=1" in m]
    check(not w, "no WATCHDOG=1 while the loop is stopped (SIGSTOP)")
    d.send_signal(signal.SIGCONT)
    w = [m for m in messages(0.8) if "WATCHDOG=1" in m]
    check(len(w) >= 1, "WATCHDOG=1 again after SIGCONT")

    d.send_signal(signal.SIGHUP)
    got, ready = wait_for("READY=1", 10)
    rel = [m for m in got if "RELOADING=1" in m]
    check(bool(rel), "SIGHUP: RELOADING=1")
    check(bool(rel) and any(l.startswith("MONOTONIC_USEC=") for l in rel[0]), "RELOADING=1 carries MONOTONIC_USEC")
    check(ready and bool(rel) and got.index(rel[0]) < len(got) - 1, "SIGHUP: READY=1 after RELOADING=1")

    d.send_signal(signal.SIGTERM)
    got, stopping = wait_for("STOPPING=1", 10)
    check(stopping, "SIGTERM: STOPPING=1")
    check(d.wait(timeout=20) == 0, "arbiterd exits 0")
finally:
    if d.poll() is None:
        d.kill()
        d.wait()
    log.close()

print("e2e_notify: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
