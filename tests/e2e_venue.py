#!/usr/bin/python3
"""e2e_venue.py -- arbiterd as a venue runs it, checked from outside.

Written as an independent client from the documentation only (logformat/SPEC.md
sections 2, 3, 6 and 8, arbiterd(8) with its WRITING A TABLE,
../shared/design/openlog.md); no daemon source was read.  Every case
starts its own arbiterd (fresh store in a temporary directory, ipc:// endpoints
there, or tcp on 127.0.0.1 with free ports) and stops it with SIGTERM, which
must exit 0.  The cases:

  1. a message of more than one frame gets one `malformed` verdict citing
     openlog:2 (arbiterd(8), FRAMES AND FAIR SHARES), and the daemon goes on; a query client that reads
     each reply before asking again gets every reply;
  2. a table that never reads its verdicts does not stall the daemon; its
     dropped verdicts are counted (replies_dropped) and stored, a resend gets
     `duplicate`; unread query replies do not grow the daemon (arbiterd(8) LIMITS: 32 a
     query connection);
  3. a garbage flood beside a legal table: the table keeps at least 0.8 of its
     speed alone, the quarantine and the store stay bounded (arbiterd(8): FRAMES AND FAIR SHARES, LIMITS);
  4. the limits: --max-connections (a table past it reads an openlog:limits
     verdict and is closed, also when more tables than that connect at once),
     the descriptor limit raised
     to the hard limit, a low hard limit (512) survived with hundreds of idle
     ZeroMQ peers and of connections that never handshake (over tcp more than
     the descriptors; over ipc as many as fit, arbiterd(8) LIMITS),
     --max-matches (openlog:limits); feed subscriptions of 1 MB close the
     subscriber's connection and do not grow the daemon;
  5. a full disk (a tmpfs in a private mount namespace; needs root, fails
     rather than skips without it): the daemon waits, says so, answers health
     "disk full", resumes by itself, loses nothing acknowledged;
  6. the door (arbiterd(8) LIMITS, over tcp, clients from loopback addresses of their
     own): 1,000 connections that finish the handshake and send half a frame,
     and 1,000 idle ZeroMQ peers, fill --max-connections, and a new table still
     has its verdicts within 2 s (the half frames are gone within the
     heartbeat's time); a client past its peer's share of connections reads
     why (ingest: openlog:limits; query: ok:false) and is closed; one client
     cannot open more matches than --peer-matches while another still opens
     one, and frees them when it leaves; an empty message gets a one-frame
     reply.

Prints PASS/FAIL lines and "e2e_venue: N passed, N failed"; exit 0 only when
every check passed; the temporary directory (with every daemon's log) is kept
when a check failed.  About 2.5 min (plain build, 2 cores).
Usage: e2e_venue.py [--arbiterd PATH] [--only 1,2,3,4a,4b,4c,4d,5,6a,6b,6c,6d,6e] [--keep]
(ARBITERD, top_builddir, top_srcdir and ARBITER_CARDS are read from the
environment too).
"""

import argparse
import glob
import json
import os
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import traceback

import msgpack
import zmq
from zmq.utils.monitor import recv_monitor_message

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.environ.get("top_srcdir") or os.path.dirname(HERE)
SANITIZER_WORDS = ("AddressSanitizer", "LeakSanitizer", "runtime error")

# Garbage for the floods: single frames, each malformed in another way (SPEC 6).
GARBAGE = [
    b"\xc1",                                        # a byte MessagePack never uses
    b'{"match":',                                   # JSON cut short
    msgpack.packb({"match": None}),                 # a map with a mistyped key
    b"not an event at all",
    b"\xdc\xff\xff",                                # an array declaring 65,535 items
    b'{"match":"g","seq":1,"type":"nope","by":"p1"}',   # JSON, unknown type
    msgpack.packb({"match": "g", "seq": 1, "type": "nope", "by": "p1"}),
    b'{"match":"g","seq":"x","type":"end","by":"p1"}',  # JSON, seq not a uint
    b'{"a":1}',
    b"\x92" + b"\xff" * 4000,                       # 4 KB that is not a map
    b"\x81\xa5match" + b"\xda\x4e\x20" + b"x" * 20000,  # 20 KB: a string past 256 bytes
]


# --------------------------------------------------------------------------
# reporting

class Report:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, name, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        line = ("PASS " if ok else "FAIL ") + name
        if detail:
            line += ": " + detail
        print(line, flush=True)
        return ok


R = Report()


def note(msg):
    print("# " + msg, flush=True)


# --------------------------------------------------------------------------
# encoding, fixtures

def pack(ev):
    return msgpack.packb(ev, use_bin_type=True)


def decode(frame):
    """A reply comes in the encoding of the message that caused it (arbiterd(8), SOCKETS)."""
    if frame[:1] == b"{":
        return json.loads(frame.decode("utf-8"))
    return msgpack.unpackb(frame, raw=False, strict_map_key=False)


def load_games():
    games = []
    for path in sorted(glob.glob(os.path.join(TOP, "fixtures", "snap", "legal-*.jsonl"))):
        with open(path, encoding="utf-8") as f:
            evs = [json.loads(line) for line in f if line.strip()]
        games.append((os.path.basename(path)[:-6], evs))
    if not games:
        raise SystemExit("no fixtures under %s/fixtures/snap" % TOP)
    return games


GAMES = []


def renamed(evs, match):
    out = []
    for e in evs:
        e = dict(e)
        e["match"] = match
        out.append(e)
    return out


def copies(prefix, k):
    """k copies of every legal fixture game, each under its own match id."""
    evs = []
    for j in range(k):
        for i, (_, g) in enumerate(GAMES):
            evs += renamed(g, "%s-%d-%d" % (prefix, j, i))
    return evs


def longest_game():
    return max(GAMES, key=lambda g: len(g[1]))[1]


# --------------------------------------------------------------------------
# sockets

CTX = zmq.Context.instance()


def dealer(ep, ctx=None, **opts):
    s = (ctx or CTX).socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    for k, v in opts.items():
        s.setsockopt(getattr(zmq, k), v)
    s.connect(ep)
    return s


_MON = [0]


def dealer_mon(ep, ctx=None):
    """A DEALER and a PAIR socket reading its monitor events (handshakes)."""
    ctx = ctx or CTX
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    _MON[0] += 1
    addr = "inproc://e2e-venue-monitor-%d" % _MON[0]  # unique: fds are reused
    s.monitor(addr, zmq.EVENT_ALL)
    mon = ctx.socket(zmq.PAIR)
    mon.setsockopt(zmq.LINGER, 0)
    mon.connect(addr)
    s.connect(ep)
    return s, mon


def close_mon(pairs):
    """Close monitored sockets (the monitor off first: else the connection stays open)."""
    for s, mon in pairs:
        s.disable_monitor()
        s.close()
        mon.close()


def mon_events(mon, wait=0.0):
    """Monitor events so far: a list of (event, value)."""
    out = []
    deadline = time.time() + wait
    while True:
        left = max(0, deadline - time.time())
        if not mon.poll(int(left * 1000)):
            break
        e = recv_monitor_message(mon)
        out.append((int(e["event"]), int(e["value"])))
        deadline = time.time()  # drain what is there, no more waiting
    return out


def wait_handshake(mon, timeout):
    """First handshake outcome on a monitored socket: ("ok", 0), ("auth", status) or None."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if mon.poll(int(max(0, deadline - time.time()) * 1000)):
            e = recv_monitor_message(mon)
            ev = int(e["event"])
            if ev == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                return ("ok", 0)
            if ev == zmq.EVENT_HANDSHAKE_FAILED_AUTH:
                return ("auth", int(e["value"]))
    return None


def send(sock, frame, timeout=10.0):
    """Send without blocking forever: a DEALER with no peer (refused, or the daemon
    gone) would wait for one."""
    if not sock.poll(int(timeout * 1000), zmq.POLLOUT):
        raise TimeoutError("cannot send: no peer within %.0f s" % timeout)
    sock.send(frame, zmq.NOBLOCK)


def recv_all(sock, wait=5.0, quiet=0.5):
    """Every message that arrives: the first within `wait`, then until `quiet` s pass silent."""
    msgs = []
    t = wait
    while sock.poll(int(t * 1000)):
        msgs.append(sock.recv_multipart())
        t = quiet
    return msgs


def daemon_sanitized():
    """True when ARBITERD links AddressSanitizer's runtime (seen from outside, with ldd)."""
    try:
        out = subprocess.run(["ldd", ARBITERD], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "libasan" in out or "libubsan" in out


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# --------------------------------------------------------------------------
# the daemon

class DaemonDied(Exception):
    pass


class Daemon:
    """An arbiterd of its own: store and ipc endpoints under tmp/name."""
    started = []

    def __init__(self, tmp, name, opts=(), preexec=None, env_extra=None, tcp=False,
                 tmpfs=None, log_level="info", db=None):
        self.name = name
        self.dir = os.path.join(tmp, name)
        os.makedirs(self.dir)
        if tcp:
            self.ing, self.feed, self.q = ["tcp://127.0.0.1:%d" % free_port() for _ in range(3)]
        else:
            self.ing, self.feed, self.q = ["ipc://%s/%s" % (self.dir, n) for n in ("in", "feed", "q")]
        self.logpath = os.path.join(self.dir, "arbiterd.log")
        env = dict(os.environ)
        env.update(env_extra or {})
        if tmpfs:
            self.disk = os.path.join(self.dir, "disk")
            os.makedirs(self.disk)
            self.db = os.path.join(self.disk, "store")
        else:
            self.db = db or os.path.join(self.dir, "db")
        argv = [ARBITERD, "--db", self.db, "--ingest", self.ing, "--feed", self.feed,
                "--query", self.q, "--log-level", log_level] + list(opts)
        if tmpfs:
            # unshare execs sh, sh execs arbiterd: the pid is the daemon's; the tmpfs
            # lives in the daemon's private mount namespace and goes with it.
            argv = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                    'mount -t tmpfs -o size="$1" tmpfs "$2" || exit 97; shift 2; exec "$@"',
                    "sh", tmpfs, self.disk] + argv
        self.log = open(self.logpath, "ab")
        self.p = subprocess.Popen(argv, stdout=self.log, stderr=self.log, env=env,
                                  preexec_fn=preexec, stdin=subprocess.DEVNULL)
        Daemon.started.append(self)
        self.pid = self.p.pid
        self.qs = None
        self.lost_replies = 0
        self.wait_ready()

    def wait_ready(self, timeout=30.0):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.p.poll() is not None:
                raise DaemonDied("%s exited %s at start: %s" % (self.name, self.p.returncode, self.log_tail()))
            try:
                self.query({"op": "health"}, 0.5)
                return
            except TimeoutError:
                pass
        raise DaemonDied("%s did not answer health within %d s: %s" % (self.name, timeout, self.log_tail()))

    def alive(self):
        return self.p.poll() is None

    def query(self, req, timeout=5.0):
        if self.qs is None:
            self.qs = dealer(self.q)
        try:
            send(self.qs, pack(req), timeout)
        except (TimeoutError, zmq.Again):
            self.qs.close()
            self.qs = None
            raise TimeoutError("cannot send %s within %.1f s" % (req.get("op"), timeout))
        if not self.qs.poll(int(timeout * 1000)):
            self.qs.close()
            self.qs = None
            raise TimeoutError("no answer to %s within %.1f s" % (req.get("op"), timeout))
        return decode(self.qs.recv())

    def query_retry(self, req, timeout=0.5, tries=10):
        """A read-only query asked again (on a new connection) when its reply does not
        come: check 1i shows replies that get lost; the checks that only read the
        store through the query socket go on all the same."""
        for attempt in range(tries):
            try:
                return self.query(req, timeout)
            except TimeoutError:
                self.lost_replies += 1
        raise TimeoutError("no answer to %s in %d tries" % (req.get("op"), tries))

    def timed_query(self, req, timeout=5.0):
        t0 = time.time()
        r = self.query(req, timeout)
        return r, time.time() - t0

    def health(self, timeout=2.0):
        return self.query_retry({"op": "health"}, timeout, tries=3)

    def stop(self):
        """SIGTERM; the exit code (None when it did not exit within 60 s)."""
        if self.qs is not None:
            self.qs.close()
            self.qs = None
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
        try:
            return self.p.wait(60)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            return None

    def kill(self):
        if self.qs is not None:
            self.qs.close()
            self.qs = None
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()

    def log_text(self):
        self.log.flush()
        with open(self.logpath, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def log_tail(self, n=6):
        return " | ".join(self.log_text().strip().splitlines()[-n:])

    def status(self):
        out = {}
        with open("/proc/%d/status" % self.pid) as f:
            for line in f:
                k, _, v = line.partition(":")
                if k in ("VmRSS", "RssAnon", "RssFile", "VmHWM"):
                    out[k] = int(v.split()[0]) * 1024
        return out

    def nofile(self):
        with open("/proc/%d/limits" % self.pid) as f:
            for line in f:
                if line.startswith("Max open files"):
                    parts = line.split()
                    return int(parts[3]), int(parts[4])
        return None

    def cpu(self):
        """CPU seconds the daemon used so far (all its threads)."""
        with open("/proc/%d/stat" % self.pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.pid))


def stop_check(d, name):
    t0 = time.time()
    rc = d.stop()
    dt = time.time() - t0
    R.check(rc == 0, name + ": SIGTERM stops arbiterd with exit 0",
            ("in %.1f s" % dt) if rc == 0 else "exit %s after %.1f s; log: %s" % (rc, dt, d.log_tail()))


def store_bytes(path):
    """Allocated bytes of a file: LMDB's data.mdb is sparse."""
    try:
        return os.stat(path).st_blocks * 512
    except FileNotFoundError:
        return 0


# --------------------------------------------------------------------------
# a table (arbiterd(8), WRITING A TABLE): a DEALER, one event a message and a
# frame, a window of events in flight, replies matched by order.

def stream(ep, events, window=64, timeout=10.0, sock=None):
    """Send events with `window` in flight; return (verdicts, seconds).  Stops
    early when no reply comes within `timeout`."""
    own = sock is None
    s = dealer(ep) if own else sock
    frames = [pack(e) for e in events]
    out = []
    sent = 0
    t0 = time.time()
    while len(out) < len(frames):
        try:
            while sent < len(frames) and sent - len(out) < window:
                send(s, frames[sent], timeout)
                sent += 1
        except (TimeoutError, zmq.Again):
            break
        if not s.poll(int(timeout * 1000)):
            break
        out.append(decode(s.recv()))
    dt = time.time() - t0
    if own:
        s.close()
    return out, dt


def verdict_problem(events, verdicts, statuses=("ok", "warning")):
    """None when every event got its verdict, in order, with one of `statuses`."""
    if len(verdicts) != len(events):
        return "%d verdicts for %d events" % (len(verdicts), len(events))
    for e, v in zip(events, verdicts):
        if v.get("match") != e["match"] or v.get("seq") != e["seq"]:
            return "verdict %s for event %s #%s (out of order)" % (v, e["match"], e["seq"])
        if v.get("status") not in statuses:
            return "%s #%s: %s" % (e["match"], e["seq"], v)
    return None


# --------------------------------------------------------------------------
# the flood: this script run with --flood EP K (a process of its own, so that
# the GIL of the measuring client is not shared).

def flood_main(ep, k):
    ctx = zmq.Context()
    socks = []
    for _ in range(k):
        s = ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.connect(ep)
        socks.append(s)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    poller = zmq.Poller()
    for s in socks:
        poller.register(s, zmq.POLLOUT)
    n = 0
    nb = len(GARBAGE)
    print("ready", flush=True)
    parent = os.getppid()
    while not stop and os.getppid() == parent:
        for s, _ in poller.poll(50):
            try:
                while not stop:
                    s.send(GARBAGE[n % nb], zmq.NOBLOCK)
                    n += 1
            except zmq.Again:
                pass
    # Stop sending, say how many were sent, and stay connected until told to go
    # (stdin closed): what is queued still reaches the daemon and is counted.
    print(n, flush=True)
    sys.stdin.read()
    for s in socks:
        s.close()
    ctx.term()
    return 0


class Flood:
    running = []
    nice = 0       # case 3: 19, see there

    def __init__(self, ep, k):
        Flood.running.append(self)
        nice = Flood.nice
        self.p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--flood", ep, str(k)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  preexec_fn=(lambda: os.nice(nice)) if nice else None)
        line = self.p.stdout.readline()
        if line.strip() != b"ready":
            raise RuntimeError("the flood process did not start: %r" % line)

    def stop(self):
        """Stop sending; the number of messages sent (the connections stay open)."""
        self.p.send_signal(signal.SIGTERM)
        return int(self.p.stdout.readline())

    def close(self):
        if self in Flood.running:
            Flood.running.remove(self)
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def wait_counted(d, total, timeout=20.0):
    """Wait until health counts `total` quarantined + quarantine_dropped; the last health."""
    deadline = time.time() + timeout
    h = d.health()
    while h["quarantined"] + h["quarantine_dropped"] < total and time.time() < deadline:
        time.sleep(0.1)
        h = d.health()
    return h


# ==========================================================================
# 1. more than one frame

def case1(tmp):
    d = Daemon(tmp, "frames")
    h0 = d.health()
    g = GAMES[0][1]

    def one_malformed(replies, frames_expected=1):
        if len(replies) != 1:
            return "%d replies (want exactly one)" % len(replies)
        fr = replies[0]
        if len(fr) != frames_expected:
            return "reply of %d frames (want %d): %r" % (len(fr), frames_expected, fr)
        if frames_expected == 2 and fr[0] != b"":
            return "first reply frame not the empty delimiter: %r" % fr
        v = decode(fr[-1])
        if v.get("status") != "malformed" or v.get("rule") != "openlog:2" or not v.get("msg"):
            return "reply %s (want malformed, openlog:2, a sentence)" % v
        return None

    # a DEALER sending 2 frames: a header and its next event as one multipart message
    s = dealer(d.ing)
    s.send_multipart([pack(dict(g[0], match="mf-two")), pack(dict(g[1], match="mf-two"))])
    p = one_malformed(recv_all(s))
    R.check(p is None, "1a two-frame message: one malformed verdict citing openlog:2", p or "")

    # 3 frames, the first a JSON header
    s.send_multipart([json.dumps(dict(g[0], match="mf-three")).encode(), b"x", b"y"])
    p = one_malformed(recv_all(s))
    R.check(p is None, "1b three-frame message: one malformed verdict citing openlog:2", p or "")
    s.close()

    # a REQ socket (its empty delimiter makes 2 frames): the REQ receives the reply
    req = CTX.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    req.connect(d.ing)
    send(req, json.dumps(dict(g[0], match="mf-req")).encode())
    if req.poll(5000):
        v = decode(req.recv())
        p = None if (v.get("status") == "malformed" and v.get("rule") == "openlog:2") else "reply %s" % v
    else:
        p = "no reply within 5 s"
    req.close()
    R.check(p is None, "1c REQ socket: its reply arrives, malformed citing openlog:2", p or "")

    # a DEALER imitating REQ's envelope: the reply carries the empty frame too (arbiterd(8), FRAMES AND FAIR SHARES)
    s = dealer(d.ing)
    s.send_multipart([b"", pack(dict(g[0], match="mf-env"))])
    p = one_malformed(recv_all(s), frames_expected=2)
    s.close()
    R.check(p is None, "1d empty first frame: reply is [empty, malformed openlog:2], once", p or "")

    # quarantined, nothing judged
    h = d.health()
    dq = h["quarantined"] - h0["quarantined"]
    stored = [m for m in ("mf-two", "mf-three", "mf-req", "mf-env")
              if d.query({"op": "match", "match": m}).get("ok")]
    R.check(dq == 4 and h["events_stored"] == h0["events_stored"] and not stored,
            "1e the 4 messages are quarantined and nothing of them is judged",
            "quarantined +%d, events_stored %d -> %d, stored matches %s"
            % (dq, h0["events_stored"], h["events_stored"], stored))

    # the daemon goes on: a whole legal game on another table
    evs = renamed(longest_game(), "mf-after")
    vs, dt = stream(d.ing, evs)
    p = verdict_problem(evs, vs)
    R.check(p is None, "1f then a table streams a whole legal game (%d events), every verdict" % len(evs),
            p or "")

    h, lat = d.timed_query({"op": "health"})
    R.check(h.get("ok") and h.get("status") == "serving" and lat < 1.0,
            "1g health answers", "status %s in %.3f s" % (h.get("status"), lat))

    # arbiterd(8) LIMITS bounds the replies *waiting* for a query connection (4); a client that
    # reads each reply before it asks again never has one waiting
    h0 = d.health()
    q = dealer(d.q)
    lost = []
    reqs = [{"op": "match", "match": "mf-after"}] * 40 + [
        {"op": "events", "match": "mf-after", "from": 0, "to": 5},
        {"op": "state", "match": "mf-after", "at": 10}] * 10
    for i, r in enumerate(reqs):
        send(q, pack(r))
        if q.poll(500):
            rep = decode(q.recv())
            if not rep.get("ok"):
                lost.append("#%d %s: %s" % (i + 1, r["op"], rep))
        else:
            lost.append("#%d %s: no reply" % (i + 1, r["op"]))
            q.close()
            q = dealer(d.q)
    q.close()
    h = d.health()
    R.check(not lost, "1i a query client that reads each reply before asking again gets every reply "
            "(%d queries, one connection)" % len(reqs),
            "%d lost: %s; replies_dropped +%d" % (len(lost), ", ".join(lost[:6]),
                                                  h["replies_dropped"] - h0["replies_dropped"]))
    # A whole game sent at once on one connection, and nothing else on the daemon: arbiterd(8), FRAMES AND FAIR SHARES
    # takes 64 of a connection into a batch; the rest must not wait for other traffic.
    g = renamed(longest_game(), "burst")
    s = dealer(d.ing)
    for e in g:
        send(s, pack(e))
    t0 = time.time()
    got = recv_all(s, wait=3.0, quiet=1.0)
    R.check(len(got) == len(g) and time.time() - t0 < 2.5,
            "1j %d events sent at once on one connection, nothing else going on: every verdict comes" % len(g),
            "%d of %d verdicts in %.2f s" % (len(got), len(g), time.time() - t0))
    s.close()
    stop_check(d, "1h")


# ==========================================================================
# 2. a client that never reads

def case2(tmp):
    d = Daemon(tmp, "slow")
    g_other = renamed(longest_game(), "other-table")
    N = 30000
    evs = []
    j = 0
    while len(evs) < N:
        for i, (_, g) in enumerate(GAMES):
            evs += renamed(g, "slow-%04d-%02d" % (j, i))
        j += 1
    frames = [pack(e) for e in evs]
    h0 = d.health()

    # the slow table: sends everything, never reads (small receive queue of its own,
    # so that its verdicts back up into the daemon at once)
    slow = dealer(d.ing, RCVHWM=1, RCVBUF=4096)
    sender_done = []

    def sender():
        t0 = time.time()
        for f in frames:
            send(slow, f)
        sender_done.append(time.time() - t0)

    # health, asked every 20 ms from its own socket all the while
    samples = []  # (sent while the slow table was sending, seconds or None)
    stop_sampler = []

    def sampler():
        q = dealer(d.q)
        while not stop_sampler:
            during = th.is_alive()
            t0 = time.time()
            send(q, pack({"op": "health"}))
            if q.poll(5000):
                q.recv()
                samples.append((during, time.time() - t0))
            else:
                samples.append((during, None))
                q.close()
                q = dealer(d.q)
            time.sleep(0.02)
        q.close()

    th = threading.Thread(target=sender)
    ts = threading.Thread(target=sampler)
    th.start()
    ts.start()

    # wait until the daemon drops its verdicts: its queue for the slow table is full
    deadline = time.time() + 30
    dropped = 0
    while time.time() < deadline and dropped == 0:
        dropped = d.health()["replies_dropped"] - h0["replies_dropped"]
        time.sleep(0.02)
    R.check(dropped > 0, "2a a table that never reads: its verdicts are dropped and counted (replies_dropped)",
            "replies_dropped +%d; the slow table %s sending" % (dropped, "still" if th.is_alive() else "done"))

    # meanwhile: another table streams a legal game, health keeps answering
    vs, dt = stream(d.ing, g_other)
    p = verdict_problem(g_other, vs)
    R.check(p is None, "2b beside it another table streams a legal game to its end, every verdict",
            p or "%d events in %.2f s (slow table %s sending then)"
            % (len(vs), dt, "still" if th.is_alive() else "done"))
    th.join()
    time.sleep(0.2)
    stop_sampler.append(1)
    ts.join()
    during = [t for w, t in samples if w]
    slowest = max((t if t is not None else 99.0) for _, t in samples)
    R.check(len(during) >= 3 and all(t is not None and t < 1.0 for _, t in samples),
            "2c health answers within 1 s all the while the slow table sends",
            "%d answers (%d while it sent %d events in %.2f s), slowest %.3f s, %d unanswered"
            % (len(samples), len(during), N, sender_done[0] if sender_done else -1, slowest,
               sum(1 for _, t in samples if t is None)))

    # every event is stored, though its verdict was dropped
    want = h0["events_stored"] + len(evs) + len(g_other)
    deadline = time.time() + 30
    h = d.health()
    while h["events_stored"] < want and time.time() < deadline:
        time.sleep(0.1)
        h = d.health()
    dropped = h["replies_dropped"] - h0["replies_dropped"]

    # the slow table starts reading: what the queues held, in order; the rest was dropped
    got = [decode(m[0]) for m in recv_all(slow, wait=2.0, quiet=0.5)]
    keys = [(e["match"], e["seq"]) for e in evs]
    pos = 0
    inorder = True
    for v in got:
        k = (v.get("match"), v.get("seq"))
        while pos < len(keys) and keys[pos] != k:
            pos += 1
        if pos == len(keys) or v.get("status") not in ("ok", "warning"):
            inorder = False
            break
        pos += 1
    R.check(h["events_stored"] == want and inorder and dropped == len(evs) - len(got),
            "2d every event of the slow table is stored; it reads its queued verdicts, "
            "the others were dropped and counted",
            "events_stored %d (want %d), %d verdicts read in order: %s, replies_dropped +%d "
            "(want %d - %d = %d)" % (h["events_stored"], want, len(got), inorder, dropped,
                                     len(evs), len(got), len(evs) - len(got)))

    # resends of events whose verdicts were dropped get duplicate with the stored verdict
    got_keys = set((v.get("match"), v.get("seq")) for v in got)
    lost = [e for e in evs if (e["match"], e["seq"]) not in got_keys]
    last_match = evs[-1]["match"]
    resend = lost[:1] + [e for e in evs if e["match"] == last_match]
    rv, _ = stream(None, resend, sock=slow)
    stored = {}
    for m in (resend[0]["match"], last_match):
        for item in d.query_retry({"op": "events", "match": m, "from": 0, "limit": 1000})["events"]:
            stored[(m, item["seq"])] = item["verdict"]
    bad = []
    if len(rv) != len(resend):
        bad.append("%d replies to %d resends" % (len(rv), len(resend)))
    for e, v in zip(resend, rv):
        k = (e["match"], e["seq"])
        if (v.get("status") != "duplicate" or v.get("match") != e["match"] or v.get("seq") != e["seq"]
                or v.get("stored") != stored.get(k) or v.get("stored", {}).get("status") not in ("ok", "warning")):
            bad.append("%s #%s: %s (stored %s)" % (k[0], k[1], v, stored.get(k)))
    R.check(not bad and lost, "2e the slow table resends %d events whose verdicts were dropped: "
            "each gets duplicate with the stored verdict" % len(resend), "; ".join(bad[:3]))
    slow.close()
    stop_check(d, "2f")

    # unread query replies: hundreds of {"op":"list"} never read.  The same store,
    # restarted (ASan's quarantine of freed memory off, so that RSS measures what is
    # held rather than what ASan keeps after free).
    asan = os.environ.get("ASAN_OPTIONS", "")
    d = Daemon(tmp, "slow-q", db=d.db,
               env_extra={"ASAN_OPTIONS": (asan + ":" if asan else "") + "quarantine_size_mb=0"})
    lq = dealer(d.q, RCVHWM=1, RCVBUF=4096)
    send(lq, pack({"op": "list"}))
    if not lq.poll(10000):
        R.check(False, "2g list replies", "no reply to one list query")
        lq.close()
        stop_check(d, "2h")
        return
    first = lq.recv()
    page = len(first)
    nmatches = len(decode(first).get("matches", []))
    time.sleep(0.3)
    h0 = d.health()
    rss0 = d.status()
    NL = 1000
    for _ in range(NL):
        send(lq, pack({"op": "list"}))
    lat = []
    last = -1
    deadline = time.time() + 30
    while time.time() < deadline:
        h, t = d.timed_query({"op": "health"}, 5.0)
        lat.append(t)
        dropped = h["replies_dropped"] - h0["replies_dropped"]
        # the daemon answers a few lists a turn: wait until it has begun to
        # drop and then stopped (every request answered or dropped)
        if dropped == last and dropped > 0:
            break
        last = dropped
        time.sleep(0.5)
    rss1 = d.status()
    grow = rss1["VmRSS"] - rss0["VmRSS"]
    # arbiterd(8) LIMITS: at most 32 replies wait for one query connection, each about a
    # page ("Memory, at worst: ... 32 replies of about a page (128 KiB) per query
    # connection").  Allowed: twice that (what ZeroMQ's I/O thread and the
    # daemon's current turn hold besides the queue) plus 8 MiB for the allocator
    # and ZeroMQ's buffers.  Unbounded, NL replies would hold NL pages.
    bound = 2 * 32 * page + 8 * 1024 * 1024
    R.check(grow <= bound and NL * page > 4 * bound,
            "2g %d unread list replies (a page of %d summaries, %d bytes each) do not grow the daemon"
            % (NL, nmatches, page),
            "VmRSS %.1f -> %.1f MiB (+%.2f MiB; RssAnon +%.2f MiB), bound %.1f MiB; unbounded would be "
            "%.1f MiB" % (rss0["VmRSS"] / 2**20, rss1["VmRSS"] / 2**20, grow / 2**20,
                          (rss1["RssAnon"] - rss0["RssAnon"]) / 2**20, bound / 2**20, NL * page / 2**20))
    # now read what reached the client: every request was answered or counted as
    # dropped.  A daemon slowed down (sanitizers, a busy machine) may still be
    # answering the last requests: read and count again until the two add up,
    # for at most 20 s -- what must never happen is a reply neither sent nor counted.
    delivered = len(recv_all(lq, wait=1.0, quiet=0.5))
    deadline = time.time() + 20
    while dropped + delivered < NL and time.time() < deadline:
        delivered += len(recv_all(lq, wait=0.5, quiet=0.3))
        dropped = d.health()["replies_dropped"] - h0["replies_dropped"]
    R.check(dropped + delivered == NL and dropped >= NL // 2 and max(lat) < 1.0,
            "2h the unread replies are dropped and counted; health answers meanwhile",
            "replies_dropped +%d, %d delivered once read, of %d; slowest health %.3f s"
            % (dropped, delivered, NL, max(lat)))
    lq.close()
    stop_check(d, "2i")


# ==========================================================================
# 3. a garbage flood beside a legal table

def case3(tmp):
    QMAX = 500
    # The flood stands for a client on another machine: it sends as fast as it
    # can, but on a test machine of two cores its own work must not be taken
    # from the daemon and the table, or the measure is of the machine.  So it
    # runs at the lowest priority: every CPU cycle nobody else wants.
    Flood.nice = 19
    try:
        case3_measure(tmp, QMAX, None)
    finally:
        Flood.nice = 0


def case3_measure(tmp, QMAX, cpus):
    d = Daemon(tmp, "flood", opts=["--quarantine-max", str(QMAX)],
               preexec=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
    data = os.path.join(d.db, "data.mdb")
    K = 10  # 10 copies of the fixtures: 11,280 events a run
    ROUNDS = 7
    stream(d.ing, copies("warm", 1))  # warm up (not measured)
    rates = {"alone": [], "beside": []}
    growth = {"alone": [], "beside": []}
    problems = []
    sent = 0
    flood_sent = []
    h0 = d.health()
    cpus = {"alone": [], "beside": []}
    for rnd in range(ROUNDS):
        for mode in ("alone", "beside"):
            evs = copies("%s%d" % (mode, rnd), K)
            fl = None
            if mode == "beside":
                fl = Flood(d.ing, 1)
                time.sleep(0.3)  # the flood at full speed first
            b0 = store_bytes(data)
            c0 = d.cpu()
            vs, dt = stream(d.ing, evs)
            cpu = d.cpu() - c0
            if fl:
                t1 = time.time()
                n = fl.stop()
                sent += n
                flood_sent.append(n)
                h = wait_counted(d, h0["quarantined"] + h0["quarantine_dropped"] + sent)
                t2 = time.time()
                fl.close()
                note("run %d: the flood stopped, counted in %.1f s, closed in %.1f s"
                     % (rnd, t2 - t1, time.time() - t2))
            growth[mode].append(store_bytes(data) - b0)
            p = verdict_problem(evs, vs)
            if p:
                problems.append("%s run %d: %s" % (mode, rnd, p))
            rates[mode].append(len(evs) / dt)
            cpus[mode].append(cpu / len(evs))
            note("run %d %-6s %5d events in %.3f s: %7.0f events/s; the daemon used %.2f s CPU"
                 % (rnd, mode, len(evs), dt, len(evs) / dt, cpu))
    R.check(not problems, "3a the legal table gets every verdict, ok, alone and beside the flood",
            "; ".join(problems[:3]))
    # The medians of the interleaved runs: a best-of ratio turns on one lucky run alone, and
    # make check runs other tests beside this one on a machine of two cores.
    alone, beside = statistics.median(rates["alone"]), statistics.median(rates["beside"])
    ratio = beside / alone
    # A daemon built with AddressSanitizer is another program as far as speed
    # goes: every allocation is filled and poisoned, so a garbage message (a
    # few small allocations and little work) costs a third of a legal event
    # there, against a fifth in the daemon a venue runs.  The bound the issue
    # sets is checked on a plain build (make distcheck runs this script on
    # one); a sanitizer build is held to a lower one, which still fails a
    # daemon that lets the flood take the table's turns.
    sanitized = daemon_sanitized()
    want = 0.6 if sanitized else 0.8
    R.check(ratio >= want, "3b beside one connection flooding malformed messages the table keeps >= %.1f "
            "of its speed alone%s" % (want, " (a sanitizer build: 0.8 is checked on a plain one)" if sanitized else ""),
            "medians of %d interleaved runs: alone %.0f, beside %.0f events/s, ratio %.2f (best: %.0f, %.0f: "
            "%.2f; daemon CPU per legal event, median: alone %.1f us, beside %.1f us)"
            % (ROUNDS, alone, beside, ratio, max(rates["alone"]), max(rates["beside"]),
               max(rates["beside"]) / max(rates["alone"]),
               1e6 * statistics.median(cpus["alone"]), 1e6 * statistics.median(cpus["beside"])))

    h = d.health()
    q = h["quarantined"] - h0["quarantined"]
    qd = h["quarantine_dropped"] - h0["quarantine_dropped"]
    # arbiterd(8) LIMITS: a source keeps its first 100 entries whole, then one in every
    # 1,000.  Each run's flood was one connection of its own process, all of one
    # user: over ipc one source (arbiterd(8) LIMITS); either count is accepted here: one
    # source for all, or one for each run.
    def kept(n):
        return min(n, 100) + max(0, n - 100) // 1000
    lo = min(QMAX, kept(sent) - 1)
    hi = min(QMAX, sum(kept(n) for n in flood_sent) + len(flood_sent))
    R.check(q + qd == sent and lo <= q <= hi,
            "3c every malformed message is quarantined or counted (quarantine_dropped); a source keeps "
            "100, then one in 1,000",
            "%d sent (%s a run): quarantined %d (allowed %d..%d), quarantine_dropped %d"
            % (sent, "/".join(str(n) for n in flood_sent), q, lo, hi, qd))
    note("store growth per run: alone %s, beside %s bytes"
         % ([int(x) for x in growth["alone"]], [int(x) for x in growth["beside"]]))

    # more garbage and nothing else, from 3 processes of 2 connections each (3 more
    # sources at least): the quarantine fills to --quarantine-max and stops there;
    # the store grows by what the quarantine keeps (entries of at most 1,024 bytes
    # and a reason: 4 KiB a page each at worst), not by what was sent
    avg = sum(len(x) for x in GARBAGE) / len(GARBAGE)
    for stage, nproc, secs in (("3d", 3, 2.0), ("3e", 2, 1.0)):
        b0 = store_bytes(data)
        q0 = d.health()
        fls = [Flood(d.ing, 2) for _ in range(nproc)]
        time.sleep(secs)
        # one source (one user over ipc) keeps one in 1,000 past its first 100:
        # go on until the quarantine is full, 10 s at most
        for _ in range(10 if stage == "3d" else 0):
            if d.health()["quarantined"] >= QMAX:
                break
            time.sleep(1.0)
        t1 = time.time()
        n2 = sum(fl.stop() for fl in fls)
        h = wait_counted(d, q0["quarantined"] + q0["quarantine_dropped"] + n2)
        t2 = time.time()
        for fl in fls:
            fl.close()
        note("%s: the floods stopped, counted in %.1f s, closed in %.1f s" % (stage, t2 - t1, time.time() - t2))
        grow = store_bytes(data) - b0
        dq = h["quarantined"] - q0["quarantined"]
        counted = h["quarantined"] + h["quarantine_dropped"] - q0["quarantined"] - q0["quarantine_dropped"]
        bound = dq * 4096 + (1024 * 1024 if stage == "3d" else 256 * 1024)
        what = ("the quarantine fills to --quarantine-max %d" % QMAX if stage == "3d"
                else "the quarantine full, the store does not grow")
        R.check(counted == n2 and h["quarantined"] == QMAX and grow <= bound,
                "%s %d more malformed messages from %d connections: %s" % (stage, n2, 2 * nproc, what),
                "quarantined %d (+%d), quarantine_dropped +%d, counted %d of %d; data.mdb allocated %+d KiB "
                "(bound %d KiB; the messages were %.0f MiB)"
                % (h["quarantined"], dq, h["quarantine_dropped"] - q0["quarantine_dropped"], counted, n2,
                   grow // 1024, bound // 1024, n2 * avg / 2**20))
    warn = [l for l in d.log_text().splitlines() if "quarantine" in l and "warn" in l]
    R.check(bool(warn), "3f the full quarantine is a warning in the log", (warn or ["-"])[0][:160])
    hq, lat = d.timed_query({"op": "health"})
    R.check(lat < 1.0 and hq["status"] == "serving", "3g health answers after the floods",
            "%.3f s, replies_dropped %d" % (lat, hq["replies_dropped"]))
    stop_check(d, "3h")


# ==========================================================================
# 4. the limits

def refusal_problem(v, limit_words):
    """None when v is an `illegal` verdict citing openlog:limits with a sentence naming
    one of limit_words (arbiterd(8) LIMITS: a refusal at a limit is a message the client reads)."""
    msg = (v or {}).get("msg") or ""
    if not isinstance(v, dict) or v.get("status") != "illegal" or v.get("rule") != "openlog:limits":
        return "want illegal openlog:limits, got %s" % v
    if len(msg) < 20 or not msg.rstrip().endswith(".") or not any(w in msg for w in limit_words):
        return "the sentence does not say which limit (%s): %r" % ("/".join(limit_words), msg)
    return None


def wait_closed(mon, timeout):
    """True when the monitored socket reports DISCONNECTED within timeout s."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        for e, _ in mon_events(mon, max(0.0, min(0.2, deadline - time.time()))):
            if e == zmq.EVENT_DISCONNECTED:
                return True
    return False


def case4a(tmp):
    MAXC = 8
    d = Daemon(tmp, "conns", opts=["--max-connections", str(MAXC)])
    ctx = zmq.Context()
    try:
        first = []
        outcomes = []
        g = GAMES[0][1]
        # eight tables, each playing (a table that has sent an event recently is not
        # closed to make room: arbiterd(8) LIMITS)
        for i in range(MAXC):
            s, mon = dealer_mon(d.ing, ctx)
            outcomes.append(wait_handshake(mon, 5))
            send(s, pack(dict(g[0], match="conn-%d" % i)))
            first.append((s, mon))
        served = 0
        for i, (s, _) in enumerate(first):
            if s.poll(5000) and decode(s.recv()).get("status") == "ok":
                served += 1
        R.check(all(o == ("ok", 0) for o in outcomes) and served == MAXC,
                "4a with --max-connections %d, %d tables admitted one by one, each served" % (MAXC, MAXC),
                "handshakes %s, served %d" % (outcomes, served))
        # four more: let in to be told why, then closed (arbiterd(8) LIMITS)
        extra = [dealer_mon(d.ing, ctx) for _ in range(4)]
        problems = []
        sent = []
        for i, (s, mon) in enumerate(extra):
            # a DEALER refused at the handshake has no peer to send to: do not wait for one
            sent.append(bool(s.poll(5000, zmq.POLLOUT)) and s.send(pack(dict(g[0], match="extra-%d" % i)),
                                                                    zmq.NOBLOCK) is None)
        for i, (s, mon) in enumerate(extra):
            v = decode(s.recv()) if sent[i] and s.poll(5000) else None
            p = refusal_problem(v, ("--max-connections", "limit"))
            if not p and (v.get("match"), v.get("seq")) != ("extra-%d" % i, 0):
                p = "the refusal names %s #%s, not the header sent" % (v.get("match"), v.get("seq"))
            if not p and not wait_closed(mon, 3.0):
                p = "the refused connection was not closed within 3 s"
            if p:
                problems.append("extra %d: %s" % (i, p))
        stored = [m for m in ("extra-%d" % i for i in range(4)) if d.query({"op": "match", "match": m}).get("ok")]
        R.check(not problems and not stored,
                "4a 4 more tables: each reads an illegal verdict citing openlog:limits that names the limit, "
                "then is closed; nothing of theirs is stored", "; ".join(problems[:3]) + (" stored %s" % stored
                                                                                     if stored else ""))
        h, lat = d.timed_query({"op": "health"})
        R.check(h["limits"]["ingest"] == MAXC and h["connections"]["ingest"] == MAXC
                and "query" in h["limits"] and "feed" in h["limits"] and lat < 1.0
                and h["connections_refused"]["ingest"] >= 4,
                "4a health reports the limits, the open connections and the refusals; the query socket answers",
                "limits %s, connections %s, connections_refused %s, health in %.3f s"
                % (h["limits"], h["connections"], h.get("connections_refused"), lat))
        R.check("too many connections" in d.log_text(), "4a the refusal is logged as 'too many connections'")
        close_mon(first + extra)
        # a burst: more tables than the limit connect at once, each sending its header;
        # as many as the limit are served, the rest read why they are refused.  Three tries.
        trials = []
        for trial in range(3):
            deadline = time.time() + 10
            while d.health()["connections"]["ingest"] and time.time() < deadline:
                time.sleep(0.1)
            burst = [dealer_mon(d.ing, ctx) for _ in range(MAXC + 12)]
            for i, (s, _) in enumerate(burst):
                s.send(pack(dict(g[0], match="burst-%d-%d" % (trial, i))))
            ok = refused = 0
            for s, _ in burst:
                v = decode(s.recv()) if s.poll(5000) else None
                ok += (v or {}).get("status") == "ok"
                refused += refusal_problem(v, ("--max-connections",)) is None
            trials.append((ok, refused, d.health()["connections"]["ingest"]))
            close_mon(burst)
        R.check(all(t == (MAXC, 12, MAXC) for t in trials),
                "4a %d tables connecting at once, each sending its header (3 tries): %d served each time, the "
                "rest read why they are refused" % (MAXC + 12, MAXC),
                "(served, refused with openlog:limits, health connections.ingest) per try: %s" % trials)
    finally:
        ctx.destroy(linger=0)
    stop_check(d, "4a")


def case4b(tmp):
    soft0, hard0 = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = 256
    if hard0 <= low:
        R.check(False, "4b the descriptor limit is raised at start", "the hard limit here is %d" % hard0)
        return
    d = Daemon(tmp, "nofile", preexec=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard0)))
    lim = d.nofile()
    R.check(lim == (hard0, hard0), "4b started with soft RLIMIT_NOFILE %d, hard %d: the daemon raises the soft "
            "limit to the hard one" % (low, hard0), "/proc/PID/limits Max open files: %s" % (lim,))
    stop_check(d, "4b")

    for tcp in (False, True):
        tag = "tcp" if tcp else "ipc"
        name = "4b(%s)" % tag
        d = Daemon(tmp, "fd512-" + tag, tcp=tcp,
                   preexec=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (512, 512)))
        h = d.health()
        lim = h["limits"]
        total = lim["ingest"] + lim["query"] + lim["feed"]
        R.check(d.nofile() == (512, 512) and total <= 512 - 128 and lim["ingest"] < 1024
                and any("warn" in l and "512" in l for l in d.log_text().splitlines()),
                name + " soft=hard=512: the daemon starts, lowers its connection limit with a warning",
                "limits %s (sum %d, at most %d)" % (lim, total, 512 - 128))
        ctx = zmq.Context()
        ctx.setsockopt(zmq.LINGER, 0)
        ctx.set(zmq.MAX_SOCKETS, 2000)
        raw = []
        try:
            table = dealer(d.ing, ctx)
            g = renamed(longest_game(), "fd-" + tag)
            parts = [g[:10], g[10:40], g[40:]]
            got = stream(None, parts[0], sock=table)[0]

            def idle_check(what, extra=""):
                """The daemon alive, health within 1 s, under its descriptor and connection limits;
                the table connected before goes on."""
                if not d.alive():
                    R.check(False, "%s %s: the daemon still runs and answers health" % (name, what),
                            "arbiterd exited %s: %s" % (d.p.returncode, d.log_tail(3)))
                    return False
                c0 = d.cpu()
                time.sleep(1.0)
                cpu = d.cpu() - c0
                try:
                    h, lat = d.timed_query({"op": "health"}, 5.0)
                except TimeoutError as e:
                    R.check(False, "%s %s: the daemon still runs and answers health" % (name, what), str(e))
                    return False
                fds = d.fds()
                c = h["connections"]
                ok = (lat < 1.0 and fds < 512 and c["ingest"] <= lim["ingest"] and c["feed"] <= lim["feed"]
                      and c["query"] <= lim["query"])
                R.check(ok, "%s %s: the daemon answers health, stays under its descriptor and connection "
                        "limits" % (name, what),
                        "health in %.3f s, connections %s (limits %d/%d/%d), %d of 512 descriptors open, "
                        "%.2f s CPU in the last idle second%s" % (lat, c, lim["ingest"], lim["query"], lim["feed"],
                                                                  fds, cpu, extra))
                return True

            # hundreds of ZeroMQ peers at once, more than the limits: tables, watchers, queries.
            # Refused peers reconnect at once, each holding a descriptor until it is refused
            # again: over ipc no more than fit in the descriptors (see the raw connections below).
            idle = []
            n_tables, n_watchers, n_queries = (300, 300, 60) if tcp else (150, 150, 30)
            for _ in range(n_tables):
                idle.append(dealer(d.ing, ctx))
            for _ in range(n_watchers):
                s = ctx.socket(zmq.SUB)
                s.setsockopt(zmq.SUBSCRIBE, b"")
                s.connect(d.feed)
                idle.append(s)
            for _ in range(n_queries):
                idle.append(dealer(d.q, ctx))
            time.sleep(2.0)
            t0 = time.time()
            if idle_check("%d ZeroMQ peers connecting at once" % len(idle)):
                got += stream(None, parts[1], sock=table, timeout=5.0)[0]
            for s in idle:
                s.close()
            time.sleep(1.0)

            note("%s: ZeroMQ peers checked in %.1f s" % (name, time.time() - t0))
            if not d.alive():
                R.check(False, name + " hundreds of idle connections that never handshake: not tried",
                        "the daemon had exited %s" % d.p.returncode)
            else:
                # hundreds of connections that never start a handshake (arbiterd(8) LIMITS: closed after 3 s).
                # Over tcp more than the descriptors allow: libzmq's tcp listener waits when accept()
                # fails with EMFILE.  Over ipc as many as fit: libzmq 4.3.4's ipc listener aborts the
                # process on EMFILE (arbiterd(8) LIMITS says so; an ipc socket only admits its owner).
                t0 = time.time()
                raw_max = 600 if tcp else 300
                if tcp:
                    host, port = d.ing[len("tcp://"):].rsplit(":", 1)
                    fam, addr = socket.AF_INET, (host, int(port))
                else:
                    fam, addr = socket.AF_UNIX, d.ing[len("ipc://"):]
                failures = 0
                while len(raw) < raw_max and failures < 10:
                    c = socket.socket(fam, socket.SOCK_STREAM)
                    c.settimeout(0.2)
                    try:
                        c.connect(addr)
                        raw.append(c)
                        failures = 0
                    except OSError:  # the listen backlog is full: let the daemon accept
                        c.close()
                        failures += 1
                        time.sleep(0.02)
                note("%s: %d raw connections made in %.1f s" % (name, len(raw), time.time() - t0))
                if idle_check("%d idle connections that never handshake" % len(raw)):
                    got += stream(None, parts[2], sock=table, timeout=5.0)[0]
            p = verdict_problem(g, got)
            R.check(p is None, name + " the table connected before streams its legal game to its end meanwhile",
                    p or "")
            for c in raw:
                c.close()
            raw = []
            if d.alive():
                time.sleep(0.5)
                g2 = renamed(GAMES[0][1], "fd-after-" + tag)
                p = verdict_problem(g2, stream(d.ing, g2, timeout=5.0)[0])
                R.check(p is None, name + " once they are gone a new table is served", p or "")
        finally:
            for c in raw:
                c.close()
            t0 = time.time()
            ctx.destroy(linger=0)
            note("%s: sockets closed in %.1f s" % (name, time.time() - t0))
        if d.alive():
            stop_check(d, name)
        else:
            R.check(False, name + ": SIGTERM stops arbiterd with exit 0", "it had exited %s" % d.p.returncode)


def case4c(tmp):
    d = Daemon(tmp, "matches", opts=["--max-matches", "3"])
    G = [renamed(GAMES[i][1], "mm-%d" % i) for i in range(4)]
    s = dealer(d.ing)

    def send(evs):
        vs, _ = stream(None, evs, sock=s)
        return vs

    problems = []
    for i in range(3):
        p = verdict_problem(G[i][:10], send(G[i][:10]))
        if p:
            problems.append(p)
    R.check(not problems, "4c with --max-matches 3, three matches open", "; ".join(problems))
    h0 = d.health()
    v = send(G[3][:1])
    v = v[0] if v else {}
    msg = v.get("msg") or ""
    R.check(v.get("status") == "illegal" and v.get("rule") == "openlog:limits" and len(msg) > 10
            and msg.rstrip().endswith(".") and v.get("match") == "mm-3" and v.get("seq") == 0,
            "4c a 4th header is refused: illegal citing openlog:limits, with a sentence", "%s" % v)
    h = d.health()
    stored = d.query({"op": "match", "match": "mm-3"}).get("ok")
    R.check(h["refused"]["limits"] == h0["refused"]["limits"] + 1 and not stored and h["live_matches"] == 3,
            "4c the refusal is counted (refused.limits), not stored",
            "refused %s, mm-3 stored: %s, live_matches %d" % (h["refused"], stored, h["live_matches"]))
    # the first match plays to its end: a slot frees, the header is accepted
    p = verdict_problem(G[0][10:], send(G[0][10:]))
    summ = d.query({"op": "match", "match": "mm-0"}).get("match") or {}
    v = send(G[3][:1])
    R.check(p is None and summ.get("finished") is True and v and v[0].get("status") == "ok",
            "4c once one of them is over, the header is sent again and accepted",
            "%s; mm-0 finished %s; header: %s" % (p, summ.get("finished"), v))
    problems = []
    for i in (1, 2):
        p = verdict_problem(G[i][10:], send(G[i][10:]))
        if p:
            problems.append(p)
    p = verdict_problem(G[3][1:], send(G[3][1:]))
    if p:
        problems.append(p)
    R.check(not problems, "4c the other matches and the new one play on to their ends normally",
            "; ".join(problems))
    s.close()
    stop_check(d, "4c")


def case4d(tmp):
    """Feed subscriptions of 1 MB each: libzmq keeps every byte of a subscription, so
    the daemon closes such a subscriber (arbiterd(8) LIMITS, a subscriber's message); it does not
    grow, serves the other subscribers, and answers health."""
    d = Daemon(tmp, "feedsubs")
    ctx = zmq.Context()
    ctx.setsockopt(zmq.LINGER, 0)
    good = ctx.socket(zmq.SUB)
    good.setsockopt(zmq.SUBSCRIBE, b"fs-")
    good.connect(d.feed)
    time.sleep(0.5)
    rss0 = d.status()["VmRSS"]
    # the subscriber in a process of its own: libzmq in the client may not take
    # kindly to a connection closed under 20 MB of subscriptions (seen: a crash
    # at exit), and that is none of this test's business
    bad = subprocess.Popen([sys.executable, "-c", (
        "import sys, time, zmq\n"
        "c = zmq.Context(); s = c.socket(zmq.SUB); s.connect(sys.argv[1])\n"
        "for i in range(20): s.setsockopt(zmq.SUBSCRIBE, bytes([65 + i]) * 1000000)\n"
        "time.sleep(60)\n"), d.feed], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(2.0)
    grow = d.status()["VmRSS"] - rss0
    g = renamed(GAMES[0][1], "fs-game")
    stream(d.ing, g)
    got = 0
    while good.poll(1000):
        good.recv_multipart()
        got += 1
        if got == len(g):
            break
    h, lat = d.timed_query({"op": "health"}, 5.0)
    R.check(grow < 16 * 2**20 and got == len(g) and lat < 1.0,
            "4d 20 feed subscriptions of 1 MB do not grow the daemon; the other subscriber gets every event",
            "VmRSS +%.1f MiB (20 MB sent), %d of %d feed messages, health in %.3f s"
            % (grow / 2**20, got, len(g), lat))
    bad.kill()
    bad.wait()
    good.close()
    ctx.term()
    stop_check(d, "4d")


# ==========================================================================
# 6. the door: what one client may hold (arbiterd(8) LIMITS)

# ZMTP 3.0 as a DEALER with the NULL mechanism (rfc.zeromq.org/spec/23): the greeting,
# then a READY command; what a stranger's own client sends before its first frame.
ZMTP_GREETING = b"\xff" + b"\0" * 8 + b"\x7f" + b"\x03\x00" + b"NULL" + b"\0" * 16 + b"\0" + b"\0" * 31
_READY_BODY = b"\x05READY" + bytes([11]) + b"Socket-Type" + (6).to_bytes(4, "big") + b"DEALER"
ZMTP_READY = b"\x04" + bytes([len(_READY_BODY)]) + _READY_BODY
HALF_FRAME = b"\x00\x64" + b"x" * 10   # a frame of 100 bytes: its first 10


def source_addr(i, per=100):
    """The loopback address of client i when clients come `per` from each address."""
    k = i // per
    return "127.0.%d.%d" % (1 + k // 250, 2 + k % 250)


def raw_half_frame(host, port, src):
    """A TCP connection from src that does the ZMTP handshake and then sends half a frame;
    it never reads (not even the daemon's heartbeats)."""
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.bind((src, 0))
    c.settimeout(5.0)
    c.connect((host, port))
    c.sendall(ZMTP_GREETING + ZMTP_READY + HALF_FRAME)
    return c


def wait_health(d, pred, timeout, step=0.2):
    """Poll health until pred(h) holds; the last health and whether it held."""
    deadline = time.time() + timeout
    h = d.health()
    while not pred(h) and time.time() < deadline:
        time.sleep(step)
        h = d.health()
    return h, pred(h)


def newcomer(d, name, ctx, n_events=12):
    """A new table (DEALER from 127.0.0.1) streams the first events of a game: its verdicts
    and the seconds from its connect to its last verdict."""
    evs = renamed(GAMES[0][1], name)[:n_events]
    t0 = time.time()
    s = dealer(d.ing, ctx)
    vs, _ = stream(None, evs, sock=s, timeout=5.0)
    dt = time.time() - t0
    s.close()
    return evs, vs, dt


def door_filled(d, N, what, make, ctx):
    """Fill d's ingest door (--max-connections N) with N clients made by make(i, host, port)
    from 10 addresses (under each one's share), then check that a new table gets in and has its
    verdicts within 2 s.  The clients, to close."""
    host, port = d.ing[len("tcp://"):].rsplit(":", 1)
    clients = []
    t0 = time.time()
    for i in range(N):
        clients.append(make(i, host, int(port)))
    h, full = wait_health(d, lambda h: h["connections"]["ingest"] >= N, 30)
    note("%s: %d connected in %.1f s; health connections %s" % (d.name, len(clients), time.time() - t0,
                                                                h["connections"]))
    time.sleep(1.2)   # older than a connection closed for a newcomer must be (quiet_new_ms)
    evs, vs, dt = newcomer(d, "door-" + d.name, ctx)
    p = verdict_problem(evs, vs)
    R.check(full and p is None and dt <= 2.0,
            "6%s %d %s fill --max-connections %d: a new table gets in and has its %d verdicts within 2 s"
            % (d.name[-1], N, what, N, len(evs)),
            "%s; door full: %s (connections %s); %d verdicts in %.2f s"
            % (p, full, h["connections"]["ingest"], len(vs), dt))
    return clients


def case6a(tmp):
    """1,000 connections that finish the handshake and send half a frame, from 10 addresses:
    the door is full of them.  A new table gets in and gets its verdicts within 2 s; the half
    frames are closed by the heartbeat's timeout."""
    N = 1000
    d = Daemon(tmp, "door-a", tcp=True, opts=["--max-connections", str(N)])
    ctx = zmq.Context()
    ctx.setsockopt(zmq.LINGER, 0)
    raw = []
    try:
        raw = door_filled(d, N, "connections that finished the handshake and sent half a frame",
                          lambda i, host, port: raw_half_frame(host, port, source_addr(i)), ctx)
        h = d.health()
        R.check(h["connections_closed_for_room"]["ingest"] >= 1 and h["limits"]["quiet_new_ms"] <= 1000,
                "6a the newcomer's room was made by closing a connection that never sent a message (health)",
                "connections_closed_for_room %s" % h.get("connections_closed_for_room"))
        # arbiterd(8) LIMITS: a frame not finished (no whole message, no heartbeat answer) within
        # heartbeat_ms + heartbeat_timeout_ms closes the connection
        lim = h["limits"]
        t1 = time.time()
        h, gone = wait_health(d, lambda h: h["connections"]["ingest"] <= 5,
                              (lim["heartbeat_ms"] + lim["heartbeat_timeout_ms"]) / 1000 + 5, step=0.5)
        R.check(gone, "6a the half frames are closed within heartbeat_ms + heartbeat_timeout_ms (%d ms)"
                % (lim["heartbeat_ms"] + lim["heartbeat_timeout_ms"]),
                "connections.ingest %s after %.1f s" % (h["connections"]["ingest"], time.time() - t1))
    finally:
        for c in raw:
            c.close()
        ctx.destroy(linger=0)
    stop_check(d, "6a")


def idle_dealer(ctx, i, host, port):
    """A DEALER from client i's address that connects and never sends (its libzmq answers the
    daemon's heartbeats)."""
    s = ctx.socket(zmq.DEALER)
    s.connect("tcp://%s:0;%s:%s" % (source_addr(i), host, port))
    return s


def case6b(tmp):
    """1,000 idle ZeroMQ peers from 10 addresses fill the door: a new table still gets in within
    2 s, and plays on while the idlers closed for it come back."""
    N = 1000
    d = Daemon(tmp, "door-b", tcp=True, opts=["--max-connections", str(N)])
    ctx = zmq.Context()
    ctx.setsockopt(zmq.LINGER, 0)
    ctx.set(zmq.MAX_SOCKETS, N + 100)
    idle = []
    try:
        idle = door_filled(d, N, "idle ZeroMQ peers", lambda i, host, port: idle_dealer(ctx, i, host, port), ctx)
        # the table that played is not the one closed for the idle ones coming back
        g = renamed(GAMES[0][1], "door-b2")
        s = dealer(d.ing, ctx)
        vs, _ = stream(None, g[:12], sock=s, timeout=5.0)
        time.sleep(3.0)   # the idlers closed for it reconnect and push out others meanwhile
        vs += stream(None, g[12:18], sock=s, timeout=5.0)[0]
        s.close()
        p = verdict_problem(g[:18], vs)
        R.check(p is None, "6b a table goes on playing beside the idlers reconnecting", p or "")
    finally:
        for s in idle:
            s.close()
        ctx.destroy(linger=0)
    stop_check(d, "6b")


def case6c(tmp):
    """A client refused at a connection share reads why: on ingest an illegal verdict citing
    openlog:limits, on the query socket {"ok":false,"error"}; then it is closed."""
    d = Daemon(tmp, "shares", tcp=True, opts=["--peer-connections", "3"])
    ctx = zmq.Context()
    ctx.setsockopt(zmq.LINGER, 0)
    host, port = d.ing[len("tcp://"):].rsplit(":", 1)
    src = "127.0.9.9"
    ep = "tcp://%s:0;%s:%s" % (src, host, port)
    try:
        g = GAMES[0][1]
        mine = []
        for i in range(3):
            s, mon = dealer_mon(ep, ctx)
            send(s, pack(dict(g[0], match="share-%d" % i)))
            mine.append((s, mon))
        served = sum(1 for s, _ in mine if s.poll(5000) and decode(s.recv()).get("status") == "ok")
        s4, mon4 = dealer_mon(ep, ctx)
        send(s4, pack(dict(g[0], match="share-3")))
        v = decode(s4.recv()) if s4.poll(5000) else None
        p = refusal_problem(v, ("--peer-connections", "share"))
        closed = wait_closed(mon4, 3.0)
        other_evs, other_vs, _ = newcomer(d, "share-other", ctx)
        R.check(served == 3 and p is None and closed and verdict_problem(other_evs, other_vs) is None,
                "6c with --peer-connections 3, an address's 4th connection reads illegal openlog:limits naming "
                "its share, and is closed; a table from another address is served",
                "served %d; %s; closed %s; other table: %s" % (served, p, closed,
                                                            verdict_problem(other_evs, other_vs)))
        close_mon(mine + [(s4, mon4)])
        # the query socket: its share of connections an address (arbiterd(8) LIMITS), one more is told
        QS = d.health()["limits"]["peer_connections"]["query"]
        qhost, qport = d.q[len("tcp://"):].rsplit(":", 1)
        qep = "tcp://%s:0;%s:%s" % (src, qhost, qport)
        qs = []
        answered = 0
        for i in range(QS):
            q = dealer(qep, ctx)
            send(q, pack({"op": "health"}))
            answered += bool(q.poll(5000) and decode(q.recv()).get("ok"))
            qs.append(q)
        q, qmon = dealer_mon(qep, ctx)
        send(q, pack({"op": "health"}))
        r = decode(q.recv()) if q.poll(5000) else None
        err = (r or {}).get("error") or ""
        closed = wait_closed(qmon, 3.0)
        R.check(answered == QS and r is not None and r.get("ok") is False and "share" in err and closed,
                "6c the query connection of an address past its share (%d) reads {\"ok\":false} saying so, and "
                "is closed" % QS, "%d of %d answered; reply %s; closed %s" % (answered, QS, r, closed))
        for x in qs:
            x.close()
        close_mon([(q, qmon)])
    finally:
        ctx.destroy(linger=0)
    stop_check(d, "6c")


def case6d(tmp):
    """One client cannot hold more than its share of open matches (--peer-matches): past it
    its header is refused (openlog:limits) while another client still opens one; a client that
    leaves frees its share within peer_left_ms."""
    SHARE = 5
    d = Daemon(tmp, "matchshare", tcp=True, opts=["--peer-matches", str(SHARE), "--max-matches", "100"])
    ctx = zmq.Context()
    ctx.setsockopt(zmq.LINGER, 0)
    host, port = d.ing[len("tcp://"):].rsplit(":", 1)
    ep_a = "tcp://127.0.8.2:0;%s:%s" % (host, port)
    ep_b = "tcp://127.0.8.3:0;%s:%s" % (host, port)
    g = GAMES[0][1]
    try:
        a = dealer(ep_a, ctx)
        got = []
        for i in range(SHARE + 1):
            send(a, pack(dict(g[0], match="hog-%d" % i)))
            got.append(decode(a.recv()) if a.poll(5000) else None)
        ok = sum(1 for v in got[:SHARE] if (v or {}).get("status") == "ok")
        p = refusal_problem(got[SHARE], ("--peer-matches", "share"))
        b = dealer(ep_b, ctx)
        send(b, pack(dict(g[0], match="other-0")))
        vb = decode(b.recv()) if b.poll(5000) else None
        h = d.health()
        R.check(ok == SHARE and p is None and (vb or {}).get("status") == "ok" and h["live_matches"] == SHARE + 1,
                "6d with --peer-matches %d, a client's %dth header is refused (openlog:limits, naming its share); "
                "another client opens a match" % (SHARE, SHARE + 1),
                "%d ok; refusal: %s; the other client: %s; live_matches %d" % (ok, p, vb, h["live_matches"]))
        a.close()
        t0 = time.time()
        left = h["limits"]["peer_left_ms"] / 1000
        h, freed = wait_health(d, lambda h: h["live_matches"] == 1, left + 5)
        a2 = dealer(ep_a, ctx)
        send(a2, pack(dict(g[0], match="hog-again")))
        v = decode(a2.recv()) if a2.poll(5000) else None
        R.check(freed and (v or {}).get("status") == "ok",
                "6d the client leaves: within peer_left_ms (%.0f s) its matches leave memory and its address "
                "opens a match again" % left,
                "live_matches %d after %.1f s; new header: %s" % (h["live_matches"], time.time() - t0, v))
        # its stored matches are not lost: a continuing event makes one again from the store
        send(a2, pack(dict(g[1], match="hog-0")))
        v = decode(a2.recv()) if a2.poll(5000) else None
        R.check((v or {}).get("status") in ("ok", "warning") and v.get("seq") == 1,
                "6d a released match goes on from the store", "%s" % v)
        a2.close()
        b.close()
    finally:
        ctx.destroy(linger=0)
    stop_check(d, "6d")


def case6e(tmp):
    """Every reply to a DEALER is one frame: an empty message is answered with one frame,
    read with plain recv(), and the next verdict is the next event's (arbiterd(8) FRAMES AND FAIR SHARES)."""
    d = Daemon(tmp, "emptyframe")
    s = dealer(d.ing)
    g = renamed(GAMES[0][1], "empty-frame")
    problems = []
    send(s, b"")
    fr = s.recv_multipart() if s.poll(5000) else None
    if fr is None or len(fr) != 1:
        problems.append("the empty message's reply: %r (want one frame)" % fr)
    else:
        v = decode(fr[0])
        if v.get("status") != "malformed":
            problems.append("the empty message's verdict: %s" % v)
    for e in g[:3]:
        send(s, pack(e))
        v = decode(s.recv()) if s.poll(5000) else None
        if not v or (v.get("match"), v.get("seq"), v.get("status")) != (e["match"], e["seq"], "ok"):
            problems.append("after it, #%d got %s (out of step?)" % (e["seq"], v))
    extra = s.poll(500)
    if extra:
        problems.append("a reply more: %r" % s.recv_multipart())
    s.close()
    R.check(not problems, "6e an empty message gets one one-frame reply read with recv(); the next verdicts "
            "are in step", "; ".join(problems))
    # the query socket alike: an empty message, one frame back; a REQ socket's envelope, its
    # reply in the envelope (arbiterd(8) FRAMES AND FAIR SHARES)
    problems = []
    q = dealer(d.q)
    send(q, b"")
    fr = q.recv_multipart() if q.poll(5000) else None
    if fr is None or len(fr) != 1 or decode(fr[0]).get("ok") is not False:
        problems.append("an empty query: %r (want one frame, ok:false)" % fr)
    send(q, pack({"op": "health"}))
    fr = q.recv_multipart() if q.poll(5000) else None
    if fr is None or len(fr) != 1 or decode(fr[0]).get("ok") is not True:
        problems.append("the next query, health: %r (out of step?)" % fr)
    q.close()
    req = CTX.socket(zmq.REQ)
    req.setsockopt(zmq.LINGER, 0)
    req.connect(d.q)
    send(req, pack({"op": "health"}))
    r = decode(req.recv()) if req.poll(5000) else None
    req.close()
    if not r or r.get("ok") is not True:
        problems.append("a REQ socket's health query: %s" % r)
    R.check(not problems, "6e the query socket: an empty message gets one one-frame reply, a REQ socket its "
            "reply", "; ".join(problems))
    stop_check(d, "6e")


# ==========================================================================
# 5. a full disk

def case5(tmp):
    try:
        d = Daemon(tmp, "disk", opts=["--map-mb", "1"], tmpfs="16m")
    except DaemonDied as e:
        R.check(False, "5 a store on a 16 MiB tmpfs in a private mount namespace (unshare -m, mount -t tmpfs)",
                "cannot run it here (root and CAP_SYS_ADMIN needed): %s" % e)
        return
    root = "/proc/%d/root%s" % (d.pid, d.disk)
    filler = os.path.join(root, "filler")
    evs = copies("disk", 6)
    frames = [pack(e) for e in evs]
    s = dealer(d.ing)
    got = []
    sent = 0
    filled = None
    full_seen = None
    n_at_full = 0
    full_health = []
    window = 64
    t0 = time.time()
    fill_err = None
    # stream; after 300 verdicts fill the disk; wait for "disk full" and watch 3 s
    while time.time() - t0 < 60:
        while sent < len(frames) and sent - len(got) < window:
            send(s, frames[sent])
            sent += 1
        if filled is None and len(got) >= 300:
            try:
                with open(filler, "wb") as f:
                    block = b"\0" * 65536
                    while True:
                        f.write(block)
                        f.flush()
            except OSError as e:
                fill_err = e
            filled = time.time()
        if s.poll(250):
            got.append(decode(s.recv()))
            continue
        if filled is None:
            continue
        if not d.alive():
            break
        try:
            h, lat = d.timed_query({"op": "health"}, 2.0)
        except TimeoutError:
            h, lat = {}, None
        if full_seen is None and h.get("status") == "disk full":
            full_seen = time.time()
            n_at_full = len(got)
        if full_seen is not None:
            full_health.append((h.get("status"), lat))
            if time.time() - full_seen >= 3.0:
                break
    alive = d.alive()
    R.check(filled is not None and full_seen is not None and alive,
            "5a the store runs out of space while a table streams: the daemon does not exit, health "
            "says 'disk full'", "filled: %s (%s); disk full seen: %s; daemon %s"
            % (filled is not None, fill_err, full_seen is not None, "alive" if alive else
               "exited %s: %s" % (d.p.returncode, d.log_tail(3))))
    if full_seen is None or not alive:
        try:
            os.unlink(filler)
        except OSError:
            pass
        if alive:
            stop_check(d, "5")
        return
    acked_while_full = len(got) - n_at_full
    R.check(acked_while_full == 0 and all(st == "disk full" and lat is not None and lat < 1.0
                                          for st, lat in full_health),
            "5b while full: no acknowledgement, health answers 'disk full' within 1 s",
            "%d verdicts in %.1f s full; health: %d answers, statuses %s, slowest %.3f s"
            % (acked_while_full, time.time() - full_seen, len(full_health),
               sorted(set(st for st, _ in full_health)),
               max((lat or 99) for _, lat in full_health)))
    log = d.log_text()
    full_lines = [l for l in log.splitlines() if "disk" in l and "full" in l]
    R.check(bool(full_lines), "5c the log says the disk holding the store is full", (full_lines or ["-"])[0][:160])

    # space again: the daemon goes on by itself
    os.unlink(filler)
    t1 = time.time()
    while len(got) < len(frames) and time.time() - t1 < 60:
        while sent < len(frames) and sent - len(got) < window:
            send(s, frames[sent])
            sent += 1
        if not s.poll(10000):
            break
        got.append(decode(s.recv()))
    p = verdict_problem(evs, got)
    R.check(p is None, "5d the filler deleted: the daemon resumes by itself, every event gets its verdict",
            p or "%d verdicts, the last %.1f s after the space came back" % (len(got), time.time() - t1))
    h = d.health()
    # nothing acknowledged is lost: every verdict received is the stored one
    mine = {}
    for v in got:
        mine.setdefault(v.get("match"), {})[v.get("seq")] = v
    diff = []
    n_stored = 0
    for m, byseq in mine.items():
        items = d.query_retry({"op": "events", "match": m, "from": 0, "limit": 1000}).get("events", [])
        n_stored += len(items)
        st = {it["seq"]: it["verdict"] for it in items}
        for seq, v in byseq.items():
            if st.get(seq) != v:
                diff.append("%s #%s: received %s, stored %s" % (m, seq, v, st.get(seq)))
    R.check(not diff and n_stored == len(got) and h["status"] == "serving",
            "5e nothing acknowledged is lost: every verdict the table received is in the store",
            "; ".join(diff[:3]) or "%d verdicts = %d stored events in %d matches (query op events; %d "
            "replies lost and asked again); status %s" % (len(got), n_stored, len(mine), d.lost_replies,
                                                          h["status"]))
    # the same from the command line, reading the store itself beside the running
    # daemon (arbiter-list(1), arbiter-audit(1): --db, read-only): per match the events the
    # table got verdicts for, and the match that was waiting when the disk filled
    # audits intact (chain, record links, seal, judged again)
    db = "/proc/%d/root%s" % (d.pid, d.db)
    r = subprocess.run([ARBITER, "list", "--db", db, "--json"], capture_output=True, text=True, timeout=60)
    listed = {}
    for line in r.stdout.splitlines():
        if line.strip():
            m = json.loads(line)
            listed[m["match"]] = m.get("events")
    want = {m: len(byseq) for m, byseq in mine.items()}
    waiting = evs[n_at_full]["match"] if n_at_full < len(evs) else evs[-1]["match"]
    a = subprocess.run([ARBITER, "audit", waiting, "--db", db, "--json"], capture_output=True, text=True,
                       timeout=60)
    try:
        intact = json.loads(a.stdout).get("intact")
    except ValueError:
        intact = None
    R.check(r.returncode == 0 and listed == want and a.returncode == 0 and intact is True,
            "5f arbiter list --db and arbiter audit --db agree: every match holds the events acknowledged, "
            "the match waiting when the disk filled is intact",
            "list exit %d, %d matches (%s); audit %s exit %d, intact %s %s"
            % (r.returncode, len(listed), "as received" if listed == want else "DIFFERENT", waiting,
               a.returncode, intact, (r.stderr + a.stderr).strip()[:200]))
    s.close()
    stop_check(d, "5g")


# ==========================================================================

CASES = [("1", case1), ("2", case2), ("3", case3), ("4a", case4a), ("4b", case4b), ("4c", case4c),
         ("4d", case4d), ("5", case5), ("6a", case6a), ("6b", case6b), ("6c", case6c), ("6d", case6d),
         ("6e", case6e)]


def main():
    global ARBITERD, ARBITER
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--arbiterd", default=os.environ.get("ARBITERD") or os.path.join(
        os.environ.get("top_builddir") or os.path.join(TOP, "build"), "arbiterd"))
    ap.add_argument("--only", default="", help="comma-separated cases (1,2,3,4a,4b,4c,4d,5,6a,6b,6c,6d,6e)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument("--flood", nargs=2, metavar=("EP", "K"), help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.flood:
        return flood_main(a.flood[0], int(a.flood[1]))
    ARBITERD = os.path.abspath(a.arbiterd)
    ARBITER = os.environ.get("ARBITER") or os.path.join(os.path.dirname(ARBITERD), "arbiter")
    os.environ.setdefault("ARBITER_CARDS", os.path.join(TOP, "fixtures", "cards", "core.json"))
    if not os.access(ARBITERD, os.X_OK):
        print("FAIL e2e_venue: no daemon at %s" % ARBITERD)
        print("e2e_venue: 0 passed, 1 failed")
        return 1
    GAMES.extend(load_games())

    def watchdog(*_):
        print("FAIL e2e_venue: still running after %d s: stopped" % WATCHDOG, flush=True)
        for d in Daemon.started:
            d.kill()
        print("e2e_venue: %d passed, %d failed" % (R.passed, R.failed + 1), flush=True)
        os._exit(1)
    signal.signal(signal.SIGALRM, watchdog)
    signal.alarm(WATCHDOG)
    only = set(x for x in a.only.split(",") if x)
    tmp = tempfile.mkdtemp(prefix="e2e_venue.")
    note("arbiterd %s, work in %s" % (ARBITERD, tmp))
    t_all = time.time()
    try:
        for name, fn in CASES:
            if only and name not in only:
                continue
            t0 = time.time()
            try:
                fn(tmp)
            except Exception as e:  # a case that breaks is a failure, and the next runs
                R.check(False, "case %s ran to its end" % name,
                        "%s: %s" % (type(e).__name__, e))
                traceback.print_exc(file=sys.stdout)
            finally:
                for fl in list(Flood.running):
                    fl.p.kill()
                    fl.close()
                for d in Daemon.started:
                    if d.alive():
                        d.kill()
            note("case %s: %.1f s" % (name, time.time() - t0))
        dirty = []
        for d in Daemon.started:
            for line in d.log_text().splitlines():
                if any(w in line for w in SANITIZER_WORDS):
                    dirty.append("%s: %s" % (d.name, line.strip()[:200]))
        R.check(not dirty, "the daemons' logs hold no AddressSanitizer, LeakSanitizer or runtime error report",
                "; ".join(dirty[:3]) or "%d daemons" % len(Daemon.started))
    finally:
        for d in Daemon.started:
            d.kill()
        if a.keep or R.failed:
            note("kept %s (the daemons' logs are there)" % tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    note("total %.1f s" % (time.time() - t_all))
    print("e2e_venue: %d passed, %d failed" % (R.passed, R.failed), flush=True)
    return 0 if R.failed == 0 and R.passed > 0 else 1


ARBITERD = None
ARBITER = None  # the command line, for arbiter list/audit --db (default: beside ARBITERD)
WATCHDOG = 600  # seconds: a hang is a failure, not a stuck make check

if __name__ == "__main__":
    sys.exit(main())
