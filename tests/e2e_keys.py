#!/usr/bin/python3
"""e2e_keys.py -- arbiterd's keys, roles and ownership, seen by an independent
client (pyzmq) written from the documentation only: logformat/SPEC.md
sections 2 and 8, arbiterd(8), arbiter-keyring(5), arbiter-records(5), the pages
of arbiter keygen, send, audit, list and query, and openlog.md.  No source of the daemon was read.

Keys are made with `arbiter keygen`; the key files are read as arbiter-keyring(5)
describes them (`name = value` lines, `curve-public`/`curve-secret` in Z85).
arbiterd runs with --key and --keyring on tcp://127.0.0.1 (CURVE on loopback,
as at a venue), a fresh store in a temporary directory.

Checks, each one PASS or FAIL line:
  1  an unlisted CURVE key is refused at the handshake (ZAP 400) on ingest,
     query and feed, gets no reply, is logged, and nothing of its match is
     stored
  2  a plain (non-CURVE) client is refused on ingest, query and feed; listed
     keys are served all the same
  3  ownership: table-b's event for table-a's match is refused (illegal,
     openlog:owner, naming the owner), not stored, not published, quarantined
     with table-b's name; table-a's game goes on and finishes; every stored
     event is table-a's; the summary names the owner; arbiter list and audit
     agree
  3b no other key gets into table-a's live match either: table-b in JSON, a
     seq ahead (no gap answer), a stored event's bytes (no duplicate answer),
     a judge key; viewer and organiser keys cannot write at all
  3c a table key opens only the matches assigned to it (arbiterd(8) OWNERSHIP AND REFUSALS): a
     header naming another table, or none, in its event.table is refused
     (illegal, openlog:table, a sentence), not stored, quarantined under the
     key's name; a judge key opens a match for any table
  3d a client key file needs only a CURVE pair as ZeroMQ makes it
     (arbiter-keyring(5)): zmq_curve_keypair's two keys alone, and curve_keygen's
     output, are accepted as they are by `arbiter send --key` and
     `arbiter query --key`; so is a key whose Z85 begins with '!' 
  3e a key past its share of connections (--peer-connections) reads why on
     the connection it used (illegal, openlog:limits, naming the key and the
     share) and is closed; another key is served
  4  no squatting: table-a's header for a match table-b opened is refused
     (openlog:owner), identical bytes or not; table-b's match goes on
  5  views by role: viewer and organiser get only the public view (no hidden
     card in it, nor in the feed) and no quarantine; a table gets p1/p2 of
     its own matches only; a judge gets the judge view, the raw bytes and the
     quarantine
  5b query replies are not dropped while at most 4 wait (arbiterd(8), FRAMES AND FAIR SHARES): no
     query of checks 1-5 went unanswered, and 1,000 requests back to back,
     one in flight, then four in flight, all get their reply
  6  SIGHUP revocation: a removed key's open connections are refused
     (openlog:key / ok:false), its new connection fails the handshake; a
     malformed or missing keyring at SIGHUP refuses every key until a good
     one is loaded
  6b a keyring name given to another key does not inherit the name's matches
  7  start-up fails closed: a missing or malformed keyring exits 2 naming the
     file or the line; a non-loopback endpoint without a keyring needs
     --insecure (exit 2 otherwise); with --insecure it starts, warns, and
     anonymous queries get the public view only
  7b ownership survives a restart; a match opened without a keyring takes no
     event from any key once there is one
  8  no sanitizer report in the daemons' logs; SIGTERM exits 0

Queries are reads: one that gets no reply in QUERY_T seconds is asked again
(and counted against check 5b), so that a lost reply fails 5b, not the check
that happened to ask.

Usage: e2e_keys.py --arbiterd PATH --arbiter PATH [--fixtures DIR] [--cards FILE]
Prints PASS/FAIL lines and "e2e_keys: N passed, N failed"; exit 0 only when
every check passed.
"""
import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

import msgpack
import zmq
from zmq.utils.monitor import recv_monitor_message

REPLY_T = 15.0      # seconds to wait for a reply that must come (sanitizer build)
NOREPLY_T = 1.5     # seconds of silence that count as "no reply"

HS_OK = zmq.EVENT_HANDSHAKE_SUCCEEDED
HS_AUTH = zmq.EVENT_HANDSHAKE_FAILED_AUTH
HS_MASK = (zmq.EVENT_HANDSHAKE_SUCCEEDED | zmq.EVENT_HANDSHAKE_FAILED_AUTH |
           zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL | zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL)

A = None  # parsed arguments
TMP = None
CTX = zmq.Context()
SOCKS = []
results = {"passed": 0, "failed": 0}
DAEMON_LOGS = []  # every daemon log file, for check 8


# ---------------------------------------------------------------- reporting

class Check:
    """One PASS/FAIL line; expect() collects what went wrong."""

    def __init__(self, name):
        self.name = name
        self.problems = []

    def expect(self, cond, what):
        if not cond:
            self.problems.append(what)
        return bool(cond)

    def __enter__(self):
        return self

    def __exit__(self, et, ev, tb):
        if et is not None:
            self.problems.append("exception: %s: %s (%s)" % (
                et.__name__, ev, traceback.format_tb(tb)[-1].strip().replace("\n", " ")))
        if self.problems:
            results["failed"] += 1
            print("FAIL %s" % self.name)
            for p in self.problems:
                print("    - %s" % p)
        else:
            results["passed"] += 1
            print("PASS %s" % self.name)
        sys.stdout.flush()
        return True  # go on with the next check


def short(x, n=300):
    s = x if isinstance(x, str) else json.dumps(x, default=repr)
    return s if len(s) <= n else s[:n] + "..."


# ---------------------------------------------------------------- keys

def read_keyfile(path):
    """arbiter-keyring(5): text, one `name = value` a line, '#' starts a comment line."""
    d = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            k, _, v = line.partition("=")
            d[k.strip()] = v.strip()
    return d


def keygen(name, role):
    prefix = os.path.join(TMP, "keys", name)
    r = subprocess.run([A.arbiter, "keygen", name, "--out", prefix, "--role", role],
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        raise RuntimeError("arbiter keygen %s: exit %d: %s" % (name, r.returncode, r.stderr))
    line = None
    for l in r.stdout.splitlines():
        if l.startswith("keyring line:"):
            line = l.split(":", 1)[1].strip()
    sec = read_keyfile(prefix + ".key")
    pub = read_keyfile(prefix + ".pub")
    return {"name": name, "role": role, "key": prefix + ".key", "pub": prefix + ".pub",
            "line": line, "public": sec["curve-public"], "secret": sec["curve-secret"],
            "pub_public": pub.get("curve-public"), "pub_has_secret": "curve-secret" in pub,
            "file_name": sec.get("name")}


# ---------------------------------------------------------------- daemon

def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Daemon:
    def __init__(self, tag, args, hosts=("127.0.0.1",) * 3, db=None):
        """arbiterd on three fresh ports; hosts: the addresses ingest, feed
        and query bind (clients connect over 127.0.0.1)."""
        self.tag = tag
        self.ports = []
        while len(self.ports) < 3:
            p = free_port()
            if p not in self.ports:
                self.ports.append(p)
        self.ep_in, self.ep_feed, self.ep_q = [
            "tcp://%s:%d" % (h, p) for h, p in zip(hosts, self.ports)]
        self.conn_in, self.conn_feed, self.conn_q = [
            "tcp://127.0.0.1:%d" % p for p in self.ports]
        self.db = db or os.path.join(TMP, tag + "-db")
        self.log = os.path.join(TMP, tag + ".log")
        DAEMON_LOGS.append(self.log)
        self.cmd = [A.arbiterd, "--db", self.db, "--ingest", self.ep_in, "--feed", self.ep_feed,
                    "--query", self.ep_q] + args
        self.logf = open(self.log, "ab")
        self.proc = subprocess.Popen(self.cmd, stdout=self.logf, stderr=subprocess.STDOUT)

    def wait_exit(self, t):
        try:
            return self.proc.wait(timeout=t)
        except subprocess.TimeoutExpired:
            return None

    def alive(self):
        return self.proc.poll() is None

    def text(self):
        with open(self.log, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def log_size(self):
        return os.path.getsize(self.log)

    def log_since(self, off):
        with open(self.log, "rb") as f:
            f.seek(off)
            return f.read().decode("utf-8", "replace")

    def stop(self, t=20):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        rc = self.wait_exit(t)
        if rc is None:
            self.proc.kill()
            self.proc.wait()
        self.logf.close()
        return rc

    def sighup_and_wait(self, t=10):
        """SIGHUP, then wait for the daemon's log to report the keyring read
        again (a line naming the keyring after the SIGHUP).  Synchronisation
        only: the checks that follow decide."""
        off = self.log_size()
        self.proc.send_signal(signal.SIGHUP)
        end = time.time() + t
        while time.time() < end:
            new = self.log_since(off)
            if "SIGHUP" in new and "keyring" in new.split("SIGHUP", 1)[1]:
                time.sleep(0.1)
                return True
            time.sleep(0.05)
        return False


# ---------------------------------------------------------------- sockets

def dealer(ep, key=None, server=None, monitor=False, pair=None, events=HS_MASK):
    """A DEALER; key is a keygen dict, pair a (public, secret) tuple of Z85 bytes;
    neither: plain (NULL mechanism).  monitor: with a socket reading its monitor's
    `events` (the handshake's by default)."""
    s = CTX.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.SNDTIMEO, 2000)  # a refused DEALER may have no pipe to queue on
    if key is not None:
        pair = (key["public"].encode(), key["secret"].encode())
    if pair is not None:
        s.curve_publickey = pair[0]
        s.curve_secretkey = pair[1]
        s.curve_serverkey = server.encode()
    mon = s.get_monitor_socket(events) if monitor else None
    s.connect(ep)
    SOCKS.append(s)
    if mon is not None:
        SOCKS.append(mon)
    return (s, mon) if monitor else s


def hs_events(mon, wait=0.0):
    """Handshake events seen on a monitor socket: list of (event, value)."""
    out = []
    end = time.time() + wait
    while True:
        left = max(0.0, end - time.time())
        if not mon.poll(int(left * 1000)):
            break
        m = recv_monitor_message(mon)
        out.append((int(m["event"]), int(m["value"])))
    return out


def wait_hs(mon, want, t=REPLY_T):
    """Wait until the monitor reports event `want`; returns every event seen."""
    seen = []
    end = time.time() + t
    while time.time() < end:
        if mon.poll(100):
            m = recv_monitor_message(mon)
            seen.append((int(m["event"]), int(m["value"])))
            if seen[-1][0] == want:
                break
    return seen


def send(s, obj):
    """Send one event or request, MessagePack unless given bytes; the bytes
    sent, or None when the socket could not queue it (a refused connection)."""
    data = obj if isinstance(obj, bytes) else msgpack.packb(obj)
    try:
        s.send(data)
    except zmq.Again:
        return None
    return data


def recv(s, t=REPLY_T):
    """The next reply, decoded from MessagePack or JSON (first byte '{'), or None."""
    if s.poll(int(t * 1000)):
        b = s.recv()
        if b[:1] == b"{":
            return json.loads(b.decode())
        return msgpack.unpackb(b, raw=False)
    return None


def sub(ep, key=None, server=None, topic=b"", pair=None):
    """A SUB on the feed with a monitor; key/pair as dealer()."""
    s = CTX.socket(zmq.SUB)
    s.setsockopt(zmq.LINGER, 0)
    if key is not None:
        pair = (key["public"].encode(), key["secret"].encode())
    if pair is not None:
        s.curve_publickey = pair[0]
        s.curve_secretkey = pair[1]
        s.curve_serverkey = server.encode()
    mon = s.get_monitor_socket(HS_MASK)
    s.setsockopt(zmq.SUBSCRIBE, topic)
    s.connect(ep)
    SOCKS.extend([s, mon])
    return s, mon


def rt(s, obj, t=REPLY_T):
    send(s, obj)
    return recv(s, t)


QUERY_T = 3.0       # seconds before a query is asked again
LOST = []           # query requests that got no reply in QUERY_T (check 5b)


def ask(s, req, t=QUERY_T, tries=3):
    """One query, one reply.  A query is a read: when no reply comes in t
    seconds it is asked again (up to `tries` times), and the silence is
    recorded in LOST.  A reply that comes late is taken if it comes in the
    0.5 s of draining before the request is sent again."""
    for _ in range(tries):
        if send(s, req) is None:
            return None
        r = recv(s, t)
        if r is not None:
            return r
        LOST.append(req.get("op"))
        r = recv(s, 0.5)
        if r is not None:
            return r
    return None


def load_fixture(name):
    with open(os.path.join(A.fixtures, name)) as f:
        return [json.loads(l) for l in f if l.strip()]


def hidden_cards(state):
    """Card ids a judge sees in the hidden zones of a board (replay --json)."""
    h = set()
    for p in state["players"].values():
        for zone in ("hand", "locked", "reserve"):
            h.update(c for c in p[zone]["cards"] if isinstance(c, str))
        for m in [p.get("active")] + list(p.get("bench") or []):
            if isinstance(m, dict) and not m.get("face_up") and isinstance(m.get("card"), str):
                h.add(m["card"])
        if isinstance(p.get("fifth"), dict) and isinstance(p["fifth"].get("card"), str):
            h.add(p["fifth"]["card"])
    return h


def mentions(obj, words):
    """The strings of `words` that appear anywhere in obj's JSON form."""
    text = json.dumps(obj)
    return sorted(w for w in words if '"%s"' % w in text)


def is_refusal(r):
    return isinstance(r, dict) and r.get("ok") is False and isinstance(r.get("error"), str) \
        and len(r["error"]) > 0


def cli(*args, t=60):
    return subprocess.run([A.arbiter] + list(args), capture_output=True, text=True, timeout=t)


# ---------------------------------------------------------------- the run

def main():
    global A, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiterd", required=True)
    ap.add_argument("--arbiter", required=True)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--fixtures", default=os.path.join(here, "..", "fixtures", "snap"))
    ap.add_argument("--cards", default=os.environ.get(
        "ARBITER_CARDS", os.path.join(here, "..", "fixtures", "cards", "core.json")))
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    A = ap.parse_args()
    os.environ["ARBITER_CARDS"] = A.cards
    TMP = tempfile.mkdtemp(prefix="e2e_keys.")
    os.makedirs(os.path.join(TMP, "keys"))
    daemons = []
    try:
        run(daemons)
    except Exception:
        results["failed"] += 1
        print("FAIL the run stopped early:")
        traceback.print_exc(file=sys.stdout)
    finally:
        for s in SOCKS:
            s.close(0)
        CTX.term()
        for d in daemons:
            if d.alive():
                d.proc.kill()
                d.proc.wait()
        if A.keep:
            print("# kept %s" % TMP)
        else:
            subprocess.run(["rm", "-rf", TMP])
    print("e2e_keys: %d passed, %d failed" % (results["passed"], results["failed"]))
    return 0 if results["failed"] == 0 and results["passed"] > 0 else 1


def write_keyring(path, keys, extra=""):
    with open(path + ".new", "w") as f:
        f.write("# e2e_keys keyring: role, name, public key\n")
        for k in keys:
            f.write("%s %s %s\n" % (k["role"], k["name"], k["public"]))
        f.write(extra)
    os.rename(path + ".new", path)


def run(daemons):
    t0 = time.time()
    # ------------------------------------------------------------ keys
    K = {}
    for name, role in (("daemon", "table"), ("table-a", "table"), ("table-b", "table"),
                       ("judge", "judge"), ("viewer", "viewer"), ("organiser", "organiser"),
                       ("intruder", "table")):
        K[name] = keygen(name, role)
    for k in K.values():  # what keygen promises; a wrong file would spoil every check
        assert k["line"] == "%s %s %s" % (k["role"], k["name"], k["public"]), k["line"]
        assert k["pub_public"] == k["public"] and not k["pub_has_secret"], k["pub"]
        assert len(k["public"]) == 40 and len(k["secret"]) == 40, k["key"]
        assert (os.stat(k["key"]).st_mode & 0o777) == 0o600, oct(os.stat(k["key"]).st_mode)
    SERVER = K["daemon"]["public"]
    ta_k, tb_k, j_k, v_k, o_k = K["table-a"], K["table-b"], K["judge"], K["viewer"], K["organiser"]
    # two clients whose keys ZeroMQ made (zmq_curve_keypair), not arbiter keygen (check 3d)
    Z = {}
    # and a table key whose Z85 begins with '!', one character of Z85's
    # alphabet like any other (one key in 85 does: seen refused once)
    for name, role, first in (("zmq-pair", "table", ""), ("keygen-out", "judge", ""), ("bang", "table", "!")):
        pub, sec = (x.decode() for x in zmq.curve_keypair())
        while not pub.startswith(first):
            pub, sec = (x.decode() for x in zmq.curve_keypair())
        Z[name] = {"name": name, "role": role, "public": pub, "secret": sec,
                   "line": "%s %s %s" % (role, name, pub)}
    good = [ta_k, tb_k, j_k, v_k, o_k, Z["zmq-pair"], Z["keygen-out"], Z["bang"]]
    keyring = os.path.join(TMP, "keyring")
    # the keyring lines exactly as keygen printed them
    with open(keyring, "w") as f:
        f.write("# venue keyring: role, name, public key\n\n")
        for k in good:
            if k is o_k:  # fields separated by tabs, as arbiter-keyring(5) allows
                f.write("%s\t%s\t\t%s\n" % (k["role"], k["name"], k["public"]))
            else:
                f.write(k["line"] + "\n")
        f.write("# end\n")

    # ------------------------------------------------------------ the daemon
    D = Daemon("main", ["--key", K["daemon"]["key"], "--keyring", keyring, "--log-level", "info",
                        "--cards", A.cards])
    daemons.append(D)
    qj = dealer(D.conn_q, j_k, SERVER)
    h = None
    end = time.time() + 30
    while time.time() < end and D.alive():
        h = rt(qj, {"op": "health"}, 0.5)
        if h is not None:
            break
    if h is None:
        raise RuntimeError("arbiterd did not answer a judge's health query: %s" % D.text()[-2000:])
    # stray replies of the retries above would shift later replies: drain
    while recv(qj, 0.3) is not None:
        pass
    print("# arbiterd up in %.1f s (curve: %s)" % (time.time() - t0, h.get("curve")))

    game_a = load_fixture("legal-open-concede.jsonl")          # table-a's match
    game_b = load_fixture("legal-open-game-loss.jsonl")        # table-b's match
    game_x = load_fixture("legal-commit-concede.jsonl")        # the intruder's
    game_p = load_fixture("legal-announced-concede.jsonl")     # the plain client's
    game_c = load_fixture("legal-open-concede-by-p1-mid-game.jsonl")  # table-a, after SIGHUP
    game_d = load_fixture("legal-open-swap-keyword.jsonl")     # table-a, the other roles butt in
    MA, MB, MX, MP, MC, MD = (g[0]["match"] for g in (game_a, game_b, game_x, game_p, game_c, game_d))
    assert len({MA, MB, MX, MP, MC, MD}) == 6
    # arbiterd(8) OWNERSHIP AND REFUSALS: a table key opens only a match whose header names it as its
    # table (event.table); the venue names each table's key so
    for g, table in ((game_a, "table-a"), (game_c, "table-a"), (game_d, "table-a"), (game_b, "table-b")):
        g[0] = dict(g[0], event=dict(g[0].get("event") or {}, table=table))

    def stored_ids():
        ids, after = [], None
        while True:
            req = {"op": "list"}
            if after is not None:
                req["after"] = after
            r = ask(qj, req)
            if not (isinstance(r, dict) and r.get("ok")):
                raise RuntimeError("judge list: %s" % short(r))
            ids += [s["match"] for s in r["matches"]]
            after = r.get("next")
            if after is None:
                return ids

    # ------------------------------------------------------------ 1
    with Check("1 an unlisted CURVE key is refused at the handshake, gets no reply, stores nothing") as c:
        pair = zmq.curve_keypair()
        xi, xi_mon = dealer(D.conn_in, server=SERVER, pair=pair, monitor=True)
        xq, xq_mon = dealer(D.conn_q, server=SERVER, pair=pair, monitor=True)
        xf, xf_mon = sub(D.conn_feed, server=SERVER, pair=pair)
        off = D.log_size()
        send(xi, game_x[0])
        send(xq, {"op": "match", "match": MX, "view": "judge"})
        r_i = recv(xi, NOREPLY_T)
        r_q = recv(xq, 0.2)
        c.expect(r_i is None, "ingest answered an unlisted key: %s" % short(r_i))
        c.expect(r_q is None, "query answered an unlisted key: %s" % short(r_q))
        ev_i, ev_q, ev_f = hs_events(xi_mon), hs_events(xq_mon), hs_events(xf_mon)
        for sock_name, ev in (("ingest", ev_i), ("query", ev_q), ("feed", ev_f)):
            c.expect((HS_AUTH, 400) in ev,
                     "%s: no handshake failure with ZAP status 400 (events %s)" % (sock_name, ev))
            c.expect(not any(e == HS_OK for e, _ in ev),
                     "%s: the handshake of an unlisted key succeeded" % sock_name)
        xi.close(0)
        xq.close(0)
        xf.close(0)
        # arbiterd(8): "Each refusal is logged with the address and, for an unknown key, the key."
        c.expect(pair[0].decode() in D.log_since(off),
                 "the daemon's log does not name the refused key %s" % pair[0].decode())
        r = ask(qj, {"op": "match", "match": MX})
        c.expect(is_refusal(r), "judge: match %s: expected {ok:false,error}, got %s" % (MX, short(r)))
        ids = stored_ids()
        c.expect(MX not in ids, "list shows the intruder's match %s" % MX)
        # second witness: the command line with a key file the keyring does not list
        w = cli("query", "--endpoint", D.conn_q, "--key", K["intruder"]["key"],
                "--server-key", K["daemon"]["pub"], '{"op":"health"}', t=30)
        c.expect(w.returncode == 2, "arbiter query with an unlisted key: exit %d (want 2, no answer): %s"
                 % (w.returncode, short(w.stdout + w.stderr)))
        w = cli("query", "--endpoint", D.conn_q, "--key", j_k["key"], "--server-key", SERVER,
                json.dumps({"op": "match", "match": MX}))
        c.expect(w.returncode == 1, "arbiter query (judge, --server-key Z85) match %s: exit %d (want 1, ok:false): %s"
                 % (MX, w.returncode, short(w.stdout + w.stderr)))

    # ------------------------------------------------------------ 2
    with Check("2 a plain (non-CURVE) client is refused on ingest and query; listed keys are served") as c:
        pi, pi_mon = dealer(D.conn_in, monitor=True)
        pq, pq_mon = dealer(D.conn_q, monitor=True)
        pf, pf_mon = sub(D.conn_feed)
        send(pi, game_p[0])
        send(pq, {"op": "health"})
        r_i = recv(pi, NOREPLY_T)
        r_q = recv(pq, 0.2)
        c.expect(r_i is None, "ingest answered a plain client: %s" % short(r_i))
        c.expect(r_q is None, "query answered a plain client: %s" % short(r_q))
        for sock_name, ev in (("ingest", hs_events(pi_mon)), ("query", hs_events(pq_mon)),
                              ("feed", hs_events(pf_mon))):
            c.expect(not any(e == HS_OK for e, _ in ev),
                     "%s: a plain handshake succeeded (events %s)" % (sock_name, ev))
            c.expect(len(ev) > 0, "%s: no handshake event for the plain client" % sock_name)
        pi.close(0)
        pq.close(0)
        pf.close(0)
        r = ask(qj, {"op": "health"})
        c.expect(isinstance(r, dict) and r.get("ok") is True and r.get("curve") is True,
                 "judge health after the plain clients: %s" % short(r))
        qv = dealer(D.conn_q, v_k, SERVER)
        r = ask(qv, {"op": "list"})
        c.expect(isinstance(r, dict) and r.get("ok") is True, "viewer list: %s" % short(r))
        r = ask(qj, {"op": "match", "match": MP})
        c.expect(is_refusal(r), "the plain client's match %s: %s" % (MP, short(r)))
        c.expect(MP not in stored_ids(), "list shows the plain client's match %s" % MP)

    # ------------------------------------------------------------ 3
    ta, ta_mon = dealer(D.conn_in, ta_k, SERVER, monitor=True)
    tb = dealer(D.conn_in, tb_k, SERVER)
    sent_a = {}
    feed_bodies = []
    with Check("3 ownership: table-b's event for table-a's match is refused (openlog:owner), "
               "not stored, not published, quarantined; table-a goes on") as c:
        # a feed subscriber (viewer key) on table-a's match: arbiterd(8) OWNERSHIP AND REFUSALS: "nothing of it is ... published"
        fs, fs_mon = sub(D.conn_feed, v_k, SERVER, MA.encode())
        c.expect(any(e == HS_OK for e, _ in wait_hs(fs_mon, HS_OK)), "the viewer's feed handshake failed")
        time.sleep(0.3)  # the subscription reaches the daemon
        q0 = ask(qj, {"op": "health"})
        n_split = 10  # table-a sends seq 0..9, table-b butts in at seq 10
        for e in game_a[:n_split]:
            sent_a[e["seq"]] = send(ta, e)
        got = [recv(ta) for _ in range(n_split)]
        c.expect(all(isinstance(v, dict) and v.get("status") == "ok" for v in got),
                 "table-a's first events: %s" % short([v and v.get("status") for v in got]))
        intr = {"match": MA, "seq": n_split, "type": "concede", "by": "p1"}
        intr_bytes = send(tb, intr)
        v = recv(tb)
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner"
                 and v.get("match") == MA and v.get("seq") == n_split,
                 "table-b's concede for %s: want illegal openlog:owner, got %s" % (MA, short(v)))
        msg = (v or {}).get("msg") or ""
        c.expect("table-a" in msg and msg.rstrip().endswith("."),
                 "the refusal's sentence does not name the owner table-a: %r" % msg)
        # table-a's event with the same seq: ok, not conflict, then the rest of the game
        for e in game_a[n_split:]:
            sent_a[e["seq"]] = send(ta, e)
        got = [recv(ta) for _ in game_a[n_split:]]
        c.expect(isinstance(got[0], dict) and got[0].get("status") == "ok",
                 "table-a's seq %d after the refusal: %s" % (n_split, short(got[0])))
        c.expect(all(isinstance(v, dict) and v.get("status") == "ok" for v in got),
                 "table-a's game after the refusal: %s" % short(
                     [(v or {}).get("seq") for v in got if (v or {}).get("status") != "ok"]))
        # the record (judge)
        r = ask(qj, {"op": "events", "match": MA, "from": 0, "to": 1000, "view": "judge"})
        evs = (r or {}).get("events") or []
        c.expect(r and r.get("ok") and [e["seq"] for e in evs] == list(range(len(game_a))),
                 "judge events of %s: seqs %s" % (MA, [e.get("seq") for e in evs]))
        c.expect(all(e.get("key") == "table-a" for e in evs),
                 "stored events not keyed table-a: %s" % short(
                     [(e.get("seq"), e.get("key")) for e in evs if e.get("key") != "table-a"]))
        c.expect(all(str(e.get("peer", "")).startswith("table-a@") for e in evs),
                 "stored senders not table-a@...: %s" % short(
                     [(e.get("seq"), e.get("peer")) for e in evs if not str(e.get("peer", "")).startswith("table-a@")]))
        c.expect(all(e.get("event") == game_a[e["seq"]] for e in evs if e.get("seq", -1) < len(game_a)),
                 "a stored event differs from table-a's (table-b's concede stored?)")
        c.expect(not any(e.get("event", {}).get("type") == "concede" and e.get("event", {}).get("by") == "p1"
                         for e in evs), "table-b's concede by p1 is in the record")
        r = ask(qj, {"op": "match", "match": MA})
        s = (r or {}).get("match") or {}
        c.expect(r and r.get("ok") and s.get("owner") == {"name": "table-a", "key": ta_k["public"]},
                 "summary owner: %s" % short(s.get("owner")))
        c.expect(s.get("events") == len(game_a) and s.get("finished") is True and s.get("status") == "legal"
                 and s.get("winner") == "p1" and (s.get("counts") or {}).get("illegal") == 0,
                 "summary: events %s finished %s status %s winner %s counts %s" % (
                     s.get("events"), s.get("finished"), s.get("status"), s.get("winner"), s.get("counts")))
        # quarantine: table-b's refused message with table-b's name
        r = ask(qj, {"op": "quarantine"})
        ents = (r or {}).get("entries") or []
        mine = [e for e in ents if e.get("bytes_hex") == intr_bytes.hex()]
        c.expect(r and r.get("ok") and len(mine) == 1,
                 "quarantine: table-b's message not held once (entries %s)" % short(ents))
        if mine:
            c.expect(mine[0].get("source") == "table-b" and str(mine[0].get("peer")).startswith("table-b@")
                     and mine[0].get("length") == len(intr_bytes),
                     "quarantine entry: %s" % short(mine[0]))
        q1 = ask(qj, {"op": "health"})
        c.expect((q1["refused"]["owner"] - q0["refused"]["owner"]) == 1,
                 "health refused.owner %s -> %s" % (q0.get("refused"), q1.get("refused")))
        # the feed: exactly table-a's events, table-b's never
        feed = []
        end = time.time() + 5
        while len(feed) < len(game_a) and time.time() < end:
            if fs.poll(200):
                feed.append(fs.recv_multipart())
        while fs.poll(300):
            feed.append(fs.recv_multipart())
        fseq = []
        for fr in feed:
            body = msgpack.unpackb(fr[-1], raw=False)
            feed_bodies.append(body)
            c.expect(len(fr) == 2 and fr[0] == MA.encode(), "a feed message is not [topic=match id, body]: %s"
                     % short(repr(fr[:1])))
            fseq.append((body.get("event", {}).get("seq"), body.get("event", {}).get("type"),
                         body.get("event", {}).get("by")))
        want = [(e["seq"], e["type"], e["by"]) for e in game_a]
        c.expect(fseq == want, "feed of %s: %s" % (MA, short(fseq)))
        fs.close(0)
        # second witnesses: arbiter list --json and arbiter audit over the query socket
        w = cli("list", "--query", D.conn_q, "--key", j_k["key"], "--server-key", K["daemon"]["pub"], "--json")
        rows = [json.loads(l) for l in w.stdout.splitlines() if l.strip().startswith("{")]
        own = [x.get("owner") for x in rows if x.get("match") == MA]
        c.expect(w.returncode == 0 and own == [{"name": "table-a", "key": ta_k["public"]}],
                 "arbiter list --json: exit %d, owner of %s %s" % (w.returncode, MA, own))
        w = cli("audit", MA, "--query", D.conn_q, "--key", j_k["key"], "--server-key", K["daemon"]["pub"])
        c.expect(w.returncode == 0, "arbiter audit %s over the query socket: exit %d: %s"
                 % (MA, w.returncode, short(w.stdout[-600:] + w.stderr)))

    # ------------------------------------------------------------ 3b
    with Check("3b every other key is kept out of table-a's live match: table-b in JSON, with a gap, "
               "with a stored event's bytes; a judge key; viewer and organiser cannot write at all") as c:
        nd = 5
        for e in game_d[:nd]:
            send(ta, e)
        got = [recv(ta) for _ in range(nd)]
        c.expect(all(isinstance(v, dict) and v.get("status") == "ok" for v in got),
                 "table-a's first events of %s: %s" % (MD, short(got)))
        stored_d = [msgpack.packb(e) for e in game_d[:nd]]
        tries = [("table-b, JSON", tb, json.dumps({"match": MD, "seq": nd, "type": "concede", "by": "p2"},
                                                  separators=(",", ":")).encode(), nd),
                 ("table-b, a seq ahead (no gap answer)", tb, {"match": MD, "seq": nd + 20, "type": "end",
                                                               "by": "p1"}, nd + 20),
                 ("table-b, the bytes of stored #2 (no duplicate answer)", tb, stored_d[2], 2),
                 ("table-b, table-a's own next event", tb, game_d[nd], nd)]
        tj = dealer(D.conn_in, j_k, SERVER)
        tries.append(("judge key, a judge ruling", tj, {"match": MD, "seq": nd, "type": "judge", "by": "judge",
                                                       "ruling": "warning", "player": "p2", "text": "Slow play."}, nd))
        for what, s_, ev, seq in tries:
            sent_ = send(s_, ev)
            if sent_ is not None and sent_[:1] == b"{":
                # arbiterd(8) SOCKETS: a verdict comes in the encoding of the event
                b = s_.recv() if s_.poll(int(REPLY_T * 1000)) else None
                c.expect(b is not None and b[:1] == b"{", "%s: the verdict is not JSON: %r" % (what, b))
                v = json.loads(b.decode()) if b and b[:1] == b"{" else None
            else:
                v = recv(s_)
            c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner"
                     and v.get("match") == MD and v.get("seq") == seq and "table-a" in (v.get("msg") or ""),
                     "%s: want illegal openlog:owner naming table-a, got %s" % (what, short(v)))
        # arbiterd(8) KEYS AND ROLES: organiser and viewer keys read the public view; "No ingest"
        for who, k in (("viewer", v_k), ("organiser", o_k)):
            s_, mon = dealer(D.conn_in, k, SERVER, monitor=True)
            send(s_, {"match": MD, "seq": nd, "type": "concede", "by": "p2"})
            send(s_, dict(game_b[0], match="%s-by-%s" % (MD, who)))
            v = recv(s_, NOREPLY_T)
            ev = hs_events(mon)
            c.expect(v is None or (isinstance(v, dict) and v.get("status") not in ("ok", "warning")),
                     "a %s key's event on ingest was accepted: %s" % (who, short(v)))
            print("# %s key on ingest: reply %s, handshake events %s" % (who, short(v, 120), ev))
            s_.close(0)
            r = ask(qj, {"op": "match", "match": "%s-by-%s" % (MD, who)})
            c.expect(is_refusal(r), "a %s key's header was stored: %s" % (who, short(r)))
        # the match goes on as if nothing had come
        v = rt(ta, game_d[nd])
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-a's #%d of %s: %s" % (nd, MD, short(v)))
        r = ask(qj, {"op": "events", "match": MD, "view": "judge"})
        evs = (r or {}).get("events") or []
        c.expect([(e.get("seq"), e.get("key"), e.get("event")) for e in evs]
                 == [(i, "table-a", game_d[i]) for i in range(nd + 1)],
                 "the record of %s: %s" % (MD, short([(e.get("seq"), e.get("key")) for e in evs])))

    # ------------------------------------------------------------ 3c
    with Check("3c a table key opens only the matches whose header names it (event.table): another "
               "table's or none is refused (openlog:table), quarantined under its name; a judge opens any") as c:
        q0 = ask(qj, {"op": "health"})
        hdr = load_fixture("legal-open-blocker-disruptor.jsonl")[0]
        tries = [("names table-a", dict(hdr, match="squat-a", event={"tournament": "cup", "table": "table-a"})),
                 ("names no table", dict(hdr, match="squat-none")),
                 ("names table 12", dict(hdr, match="squat-12", event={"table": "12"}))]
        sent = {}
        for what, h in tries:
            sent[h["match"]] = send(tb, h)
            v = recv(tb)
            msg = (v or {}).get("msg") or ""
            c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:table"
                     and v.get("match") == h["match"] and v.get("seq") == 0,
                     "table-b's header that %s: want illegal openlog:table, got %s" % (what, short(v)))
            c.expect("table-b" in msg and msg.rstrip().endswith(".") and len(msg) > 40,
                     "table-b's header that %s: the sentence does not name table-b: %r" % (what, msg))
            r = ask(qj, {"op": "match", "match": h["match"]})
            c.expect(is_refusal(r), "table-b's refused header for %s was stored: %s" % (h["match"], short(r)))
        r = ask(qj, {"op": "quarantine"})
        ents = (r or {}).get("entries") or []
        for m, b in sent.items():   # arbiterd(8) LIMITS: an entry keeps a message's first 1,024 bytes and its length
            mine = [e for e in ents if e.get("bytes_hex") == b[:1024].hex() and e.get("length") == len(b)]
            c.expect(len(mine) == 1 and mine[0].get("source") == "table-b",
                     "quarantine entry of table-b's header for %s: %s" % (m, short(mine)))
        # the header naming it is taken (then the match goes on as table-b's)
        v = rt(tb, dict(hdr, match="own-b", event={"table": "table-b"}))
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-b's header naming it: %s" % short(v))
        # judges may open any match
        tj2 = dealer(D.conn_in, j_k, SERVER)
        for h in (dict(hdr, match="judge-opens-a", event={"table": "table-a"}), dict(hdr, match="judge-opens")):
            v = rt(tj2, h)
            c.expect(isinstance(v, dict) and v.get("status") == "ok", "the judge key's header for %s: %s"
                     % (h["match"], short(v)))
        q1 = ask(qj, {"op": "health"})
        c.expect(q1["refused"].get("table", 0) - q0["refused"].get("table", 0) == len(tries),
                 "health refused.table %s -> %s" % (q0["refused"], q1["refused"]))

    # ------------------------------------------------------------ 3d
    with Check("3d a client key file holding a CURVE pair as ZeroMQ makes it is accepted by arbiter send "
               "--key and arbiter query --key") as c:
        zp, ko = Z["zmq-pair"], Z["keygen-out"]
        bare = os.path.join(TMP, "keys", "zmq-pair.keys")
        with open(bare, "w") as f:   # zmq_curve_keypair's two strings, nothing else
            f.write("%s\n%s\n" % (zp["public"], zp["secret"]))
        kg = os.path.join(TMP, "keys", "keygen-out.txt")
        with open(kg, "w") as f:     # what libzmq's tools/curve_keygen prints
            f.write("This tool generates a CurveZMQ keypair, as two printable strings you can\n"
                    "use in configuration files or source code. The encoding uses Z85, which\n"
                    "is a base-85 format that is described in 0MQ RFC 32, and which has an\n"
                    "implementation in the z85_codec.h source used by this tool. The keypair\n"
                    "always works with the secret key held by one party and the public key\n"
                    "distributed (securely!) to peers wishing to connect to it.\n"
                    "\n== CURVE PUBLIC KEY ==\n%s\n\n== CURVE SECRET KEY ==\n%s\n" % (ko["public"], ko["secret"]))
        log = os.path.join(TMP, "zmq-pair-game.jsonl")
        game_z = [dict(e, match="zmq-pair-game") for e in load_fixture("legal-open-prime-evolution.jsonl")]
        game_z[0] = dict(game_z[0], event={"table": "zmq-pair"})
        with open(log, "w") as f:
            for e in game_z:
                f.write(json.dumps(e) + "\n")
        w = cli("send", log, "--endpoint", D.conn_in, "--key", bare, "--server-key", SERVER, "--quiet")
        c.expect(w.returncode == 0, "arbiter send --key (zmq_curve_keypair's two keys): exit %d: %s"
                 % (w.returncode, short(w.stdout + w.stderr)))
        r = ask(qj, {"op": "match", "match": "zmq-pair-game"})
        c.expect(isinstance(r, dict) and r.get("ok") and r["match"]["events"] == len(game_z)
                 and r["match"]["owner"] == {"name": "zmq-pair", "key": zp["public"]},
                 "the match arbiter send streamed with that key: %s" % short(r))
        bang = os.path.join(TMP, "keys", "bang.keys")
        with open(bang, "w") as f:
            f.write("%s\n%s\n" % (Z["bang"]["public"], Z["bang"]["secret"]))
        game_bang = [dict(e, match="bang-game") for e in game_z]
        game_bang[0] = dict(game_bang[0], event={"table": "bang"})
        log_bang = os.path.join(TMP, "bang-game.jsonl")
        with open(log_bang, "w") as f:
            for e in game_bang:
                f.write(json.dumps(e) + "\n")
        w = cli("send", log_bang, "--endpoint", D.conn_in, "--key", bang, "--server-key", SERVER, "--json")
        c.expect(w.returncode == 0 and "openlog:limits" not in w.stdout,
                 "arbiter send --key (a key %s... beginning with '!'): exit %d: %s"
                 % (Z["bang"]["public"][:6], w.returncode, short(w.stdout + w.stderr)))
        r = ask(qj, {"op": "match", "match": "bang-game"})
        c.expect(isinstance(r, dict) and r.get("ok") and r["match"]["events"] == len(game_bang)
                 and r["match"]["owner"] == {"name": "bang", "key": Z["bang"]["public"]},
                 "the match streamed with the key beginning with '!': %s" % short(r))
        for keyfile, want in ((kg, 0), (bare, 0), (bang, 0)):
            w = cli("query", "--endpoint", D.conn_q, "--key", keyfile, "--server-key", K["daemon"]["pub"],
                    json.dumps({"op": "match", "match": "zmq-pair-game"}))
            c.expect(w.returncode == want and '"ok":true' in w.stdout.replace(" ", ""),
                     "arbiter query --key %s: exit %d: %s" % (os.path.basename(keyfile), w.returncode,
                                                             short(w.stdout + w.stderr)))

    # ------------------------------------------------------------ 3e
    with Check("3e a key past its share of ingest connections reads openlog:limits naming the key and is "
               "closed; another key is served (a daemon with --peer-connections 2)") as c:
        ds = Daemon("shares", ["--key", K["daemon"]["key"], "--keyring", keyring, "--log-level", "info",
                               "--cards", A.cards, "--peer-connections", "2"])
        daemons.append(ds)
        qs = dealer(ds.conn_q, j_k, SERVER)
        end = time.time() + 30
        while time.time() < end and ds.alive() and rt(qs, {"op": "health"}, 0.5) is None:
            pass
        while recv(qs, 0.3) is not None:
            pass
        hdr = dict(game_a[0], match="share-a")
        mine = []
        for i in range(2):
            s_ = dealer(ds.conn_in, ta_k, SERVER)
            v = rt(s_, dict(hdr, match="share-a-%d" % i))
            c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-a's connection %d: %s" % (i + 1, short(v)))
            mine.append(s_)
        s3, mon3 = dealer(ds.conn_in, ta_k, SERVER, monitor=True, events=HS_MASK | zmq.EVENT_DISCONNECTED)
        v = rt(s3, dict(hdr, match="share-a-2"))
        msg = (v or {}).get("msg") or ""
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:limits"
                 and v.get("match") == "share-a-2" and v.get("seq") == 0,
                 "table-a's third connection: want illegal openlog:limits, got %s" % short(v))
        c.expect("table-a" in msg and "--peer-connections" in msg and msg.rstrip().endswith("."),
                 "the refusal's sentence does not name the key and its share: %r" % msg)
        ev = wait_hs(mon3, zmq.EVENT_DISCONNECTED, 3.0)
        c.expect(any(e == zmq.EVENT_DISCONNECTED for e, _ in ev),
                 "the refused connection was not closed within 3 s (events %s)" % ev)
        r = ask(qs, {"op": "match", "match": "share-a-2"})
        c.expect(is_refusal(r), "the refused header was stored: %s" % short(r))
        sb = dealer(ds.conn_in, tb_k, SERVER)
        v = rt(sb, dict(game_b[0], match="share-b"))
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-b beside it: %s" % short(v))
        for x in mine + [s3, sb, qs]:
            x.close(0)
        rc = ds.stop()
        c.expect(rc == 0, "the --peer-connections 2 daemon: SIGTERM exit %s" % rc)

    # ------------------------------------------------------------ 4
    qb = dealer(D.conn_q, tb_k, SERVER)
    with Check("4 no squatting: table-a's header for table-b's match is refused (openlog:owner)") as c:
        nb = 6
        sent_b = {}
        for e in game_b[:nb]:
            sent_b[e["seq"]] = send(tb, e)
        got = [recv(tb) for _ in range(nb)]
        c.expect(all(isinstance(v, dict) and v.get("status") == "ok" for v in got),
                 "table-b's header and first events: %s" % short(got))
        # the very same header bytes from table-a
        v = rt(ta, sent_b[0])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner"
                 and v.get("seq") == 0 and "table-b" in (v.get("msg") or ""),
                 "table-a resends table-b's header (same bytes): want illegal openlog:owner naming "
                 "table-b, got %s" % short(v))
        # another header with the same match id
        other = json.loads(json.dumps(game_b[0]))
        other["players"]["p1"]["id"] = "mallory"
        v = rt(ta, other)
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner",
                 "table-a's own header for %s: want illegal openlog:owner, got %s" % (MB, short(v)))
        # and the next event
        v = rt(ta, game_b[nb])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner",
                 "table-a's seq %d for %s: want illegal openlog:owner, got %s" % (nb, MB, short(v)))
        # table-b's match goes on as if nothing came
        sent_b[nb] = send(tb, game_b[nb])
        v = recv(tb)
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-b's seq %d: %s" % (nb, short(v)))
        r = ask(qj, {"op": "match", "match": MB, "view": "judge"})
        s = (r or {}).get("match") or {}
        c.expect(s.get("owner") == {"name": "table-b", "key": tb_k["public"]} and s.get("events") == nb + 1,
                 "summary of %s: owner %s, events %s" % (MB, s.get("owner"), s.get("events")))
        hdr = (r or {}).get("header") or {}
        c.expect(hdr.get("players", {}).get("p1", {}).get("id") == game_b[0]["players"]["p1"]["id"],
                 "the stored header of %s is not table-b's: %s" % (MB, short(hdr)))
        r = ask(qj, {"op": "events", "match": MB, "view": "judge"})
        evs = (r or {}).get("events") or []
        c.expect([(e.get("seq"), e.get("key")) for e in evs] == [(i, "table-b") for i in range(nb + 1)],
                 "events of %s: %s" % (MB, short([(e.get("seq"), e.get("key")) for e in evs])))
        # table-b may read its own match
        r = ask(qb, {"op": "state", "match": MB, "view": "p1"})
        c.expect(isinstance(r, dict) and r.get("ok") is True, "table-b state p1 of %s: %s" % (MB, short(r)))

    # ------------------------------------------------------------ 5
    with Check("5 views by role: viewer/organiser public only, table its own matches' p1/p2, judge all") as c:
        AT = 8
        rj = ask(qj, {"op": "state", "match": MA, "at": AT, "view": "judge"})
        c.expect(isinstance(rj, dict) and rj.get("ok") is True, "judge state judge: %s" % short(rj))
        H = hidden_cards(rj["state"]) if rj and rj.get("ok") else set()
        p1_hand = rj["state"]["players"]["p1"]["hand"]["cards"] if H else []
        p2_hand = rj["state"]["players"]["p2"]["hand"]["cards"] if H else []
        c.expect(len(H) >= 10 and all(isinstance(x, str) for x in p1_hand + p2_hand),
                 "the judge view at #%d shows %d hidden cards, hands %s %s" % (AT, len(H), p1_hand, p2_hand))
        for who, k in (("viewer", v_k), ("organiser", o_k)):
            q = dealer(D.conn_q, k, SERVER)
            for req in ({"op": "state", "match": MA, "at": AT, "view": "judge"},
                        {"op": "state", "match": MA, "at": AT, "view": "p1"},
                        {"op": "state", "match": MA, "at": AT, "view": "p2"},
                        {"op": "events", "match": MA, "view": "judge"},
                        {"op": "events", "match": MA, "view": "p1"},
                        {"op": "match", "match": MA, "view": "judge"},
                        {"op": "quarantine"}):
                r = ask(q, req)
                c.expect(is_refusal(r), "%s %s: want {ok:false,error}, got %s" % (who, json.dumps(req), short(r)))
            for req in ({"op": "state", "match": MA, "at": AT, "view": "public"},
                        {"op": "state", "match": MA, "at": AT}):
                r = ask(q, req)
                ok = isinstance(r, dict) and r.get("ok") is True
                c.expect(ok, "%s %s: %s" % (who, json.dumps(req), short(r)))
                if ok:
                    c.expect(not mentions(r, H), "%s's public state names hidden cards %s"
                             % (who, mentions(r, H)))
                    pl = r["state"]["players"]
                    c.expect(pl["p1"]["hand"]["count"] == 5 and pl["p1"]["hand"]["cards"] == [None] * 5,
                             "%s's public p1 hand: %s" % (who, pl["p1"]["hand"]))
            r = ask(q, {"op": "events", "match": MA, "from": 0, "to": AT})
            ok = isinstance(r, dict) and r.get("ok") is True and len(r.get("events") or []) == AT + 1
            c.expect(ok, "%s events public: %s" % (who, short(r)))
            if ok:
                c.expect(not mentions(r, H), "%s's public events name hidden cards %s" % (who, mentions(r, H)))
                c.expect(not any("raw" in e for e in r["events"]), "%s's public events carry raw bytes" % who)
                # the chain and state hashes cover hidden cards: a card is found by trying each
                c.expect(not any(k in e for e in r["events"] for k in ("chain", "state", "link")),
                         "%s's public events carry the chain or state hashes" % who)
                c.expect(r["events"][0]["event"]["players"]["p1"].get("deck") is None,
                         "%s's public header shows a decklist" % who)
            r = ask(q, {"op": "match", "match": MA})
            c.expect(isinstance(r, dict) and r.get("ok") is True and not mentions(r.get("header"), H),
                     "%s match %s public: %s" % (who, MA, short(r)))
            # what else a reader may ask (arbiterd(8) KEYS AND ROLES: every op but quarantine)
            r = ask(q, {"op": "list"})
            c.expect(isinstance(r, dict) and r.get("ok") is True and MA in [m.get("match") for m in r.get("matches", [])],
                     "%s list: %s" % (who, short(r)))
            r = ask(q, {"op": "verify", "log": game_a[:3]})
            c.expect(isinstance(r, dict) and r.get("ok") is True, "%s verify: %s" % (who, short(r)))
            r = ask(q, {"op": "health"})
            c.expect(isinstance(r, dict) and r.get("ok") is True, "%s health: %s" % (who, short(r)))
        # the feed (arbiterd(8) SOCKETS: the public view) of table-a's match, as the viewer got it in check 3
        early = [b for b in feed_bodies if b.get("event", {}).get("seq", 1 << 30) <= AT]
        c.expect(len(early) == AT + 1, "feed bodies up to #%d: %d" % (AT, len(early)))
        c.expect(not mentions(early, H), "the feed names hidden cards %s" % mentions(early, H))
        c.expect(all(b.get("event", {}).get("players", {}).get("p1", {}).get("deck") is None
                     for b in early if b.get("event", {}).get("type") == "match"),
                 "the feed's header shows a decklist")
        qa = dealer(D.conn_q, ta_k, SERVER)
        r = ask(qa, {"op": "match", "match": MA, "view": "p1"})
        ok = isinstance(r, dict) and r.get("ok") is True
        c.expect(ok, "table-a match %s view p1: %s" % (MA, short(r)))
        if ok:
            pl = r["header"]["players"]
            c.expect(pl["p1"].get("deck") == game_a[0]["players"]["p1"]["deck"] and pl["p2"].get("deck") is None,
                     "table-a's p1 view of the header: p1 deck %s, p2 deck %s" % (
                         short(pl["p1"].get("deck"), 80), short(pl["p2"].get("deck"), 80)))
        hands = {"p1": p1_hand, "p2": p2_hand}
        for me, other in (("p1", "p2"), ("p2", "p1")):
            r = ask(qa, {"op": "state", "match": MA, "at": AT, "view": me})
            ok = isinstance(r, dict) and r.get("ok") is True
            c.expect(ok, "table-a state %s of its own %s: %s" % (me, MA, short(r)))
            if ok and H:
                pl = r["state"]["players"]
                c.expect(pl[me]["hand"]["cards"] == hands[me] and pl[other]["hand"]["cards"] == [None] * len(hands[other]),
                         "table-a's %s view: p1 hand %s, p2 hand %s" % (me, pl["p1"]["hand"]["cards"], pl["p2"]["hand"]["cards"]))
                c.expect(not mentions(pl[other], set(hands[other])), "table-a's %s view names %s's hand" % (me, other))
        r = ask(qa, {"op": "events", "match": MA, "from": 0, "to": 2, "view": "p1"})
        ok = isinstance(r, dict) and r.get("ok") is True
        c.expect(ok and not any("raw" in e for e in r["events"]),
                 "table-a events p1 of %s: %s" % (MA, short(r)))
        for req in ({"op": "state", "match": MB, "view": "p1"},
                    {"op": "state", "match": MB, "view": "p2"},
                    {"op": "events", "match": MB, "view": "p1"},
                    {"op": "state", "match": MA, "at": AT, "view": "judge"},
                    {"op": "events", "match": MA, "view": "judge"},
                    {"op": "match", "match": MA, "view": "judge"},
                    {"op": "match", "match": MB, "view": "p2"},
                    {"op": "quarantine"}):
            r = ask(qa, req)
            c.expect(is_refusal(r), "table-a %s: want {ok:false,error}, got %s" % (json.dumps(req), short(r)))
        r = ask(qa, {"op": "state", "match": MB})
        c.expect(isinstance(r, dict) and r.get("ok") is True, "table-a public state of %s: %s" % (MB, short(r)))
        # the judge: every view, the raw bytes as received, the quarantine
        r = ask(qj, {"op": "events", "match": MA, "view": "judge"})
        evs = (r or {}).get("events") or []
        bad = [e.get("seq") for e in evs
               if bytes.fromhex(((e.get("raw") or {}).get("event")) or "") != sent_a.get(e.get("seq"))]
        c.expect(len(evs) == len(game_a) and not bad,
                 "judge events: raw bytes differ from those table-a sent at %s" % short(bad))
        for view in ("p1", "p2", "public"):
            r = ask(qj, {"op": "state", "match": MB, "view": view})
            c.expect(isinstance(r, dict) and r.get("ok") is True, "judge state %s of %s: %s" % (view, MB, short(r)))
        r = ask(qj, {"op": "match", "match": MA, "view": "judge"})
        c.expect(isinstance(r, dict) and r.get("ok") and r["header"]["players"]["p1"]["deck"] == game_a[0]["players"]["p1"]["deck"],
                 "judge match %s: the header's decklist: %s" % (MA, short(r)))
        r = ask(qj, {"op": "quarantine"})
        c.expect(isinstance(r, dict) and r.get("ok") is True and len(r.get("entries") or []) >= 1,
                 "judge quarantine: %s" % short(r))

    # ------------------------------------------------------------ 5b
    with Check("5b query replies are not dropped while at most 4 wait (arbiterd(8), FRAMES AND FAIR SHARES): one request in "
               "flight, then a window of 4") as c:
        c.expect(not LOST, "queries asked again in checks 1-5 after %.0f s of silence: %s" % (QUERY_T, LOST))
        reqs = [msgpack.packb(r) for r in (
            {"op": "health"}, {"op": "match", "match": MA},
            {"op": "state", "match": MA, "at": 20, "view": "judge"},
            {"op": "events", "match": MA, "from": 0, "to": 5, "view": "judge"})]
        for window in (1, 4):
            qz = dealer(D.conn_q, j_k, SERVER)
            sent = got = 0
            n = 1000
            while got < n:  # a new request as each reply comes, back to back
                while sent < n and sent - got < window:
                    qz.send(reqs[sent % len(reqs)])
                    sent += 1
                if not qz.poll(3000):
                    break
                qz.recv()
                got += 1
            late = 0
            while qz.poll(500):
                qz.recv()
                late += 1
            c.expect(got == n, "%d request(s) in flight: after %d requests, %d replies never came (%d late)"
                     % (window, sent, sent - got - late, late))
            print("# 5b: window %d: %d requests, %d answered in time, %d late" % (window, sent, got, late))
            qz.close(0)
        h = ask(qj, {"op": "health"})
        c.expect(isinstance(h, dict) and h.get("replies_dropped") == 0,
                 "health: replies_dropped %s" % (h or {}).get("replies_dropped"))

    # ------------------------------------------------------------ 6
    with Check("6 SIGHUP revokes a removed key; a malformed keyring refuses every key until a good one") as c:
        nb = 7  # table-b's next seq in its match
        stored_b = ask(qj, {"op": "match", "match": MB})["match"]["events"]
        r = ask(qb, {"op": "health"})
        c.expect(isinstance(r, dict) and r.get("ok") is True, "table-b's query before SIGHUP: %s" % short(r))
        k0 = ask(qj, {"op": "health"})["refused"]["key"]
        write_keyring(keyring, [ta_k, j_k, v_k, o_k])
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP")
        v = rt(tb, game_b[nb])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:key"
                 and v.get("seq") == nb,
                 "table-b's open connection after its key was removed: want illegal openlog:key, got %s" % short(v))
        r = ask(qb, {"op": "state", "match": MB, "view": "p1"})
        c.expect(is_refusal(r), "table-b's open query connection after removal: %s" % short(r))
        nb2, nb2_mon = dealer(D.conn_in, tb_k, SERVER, monitor=True)
        send(nb2, game_b[nb])
        r = recv(nb2, NOREPLY_T)
        ev = hs_events(nb2_mon)
        c.expect(r is None, "a new connection with table-b's removed key was answered: %s" % short(r))
        c.expect((HS_AUTH, 400) in ev and not any(e == HS_OK for e, _ in ev),
                 "table-b's new connection: no ZAP 400 handshake failure (events %s)" % ev)
        nb2.close(0)
        r = ask(qj, {"op": "match", "match": MB})
        c.expect(r and r.get("ok") and r["match"]["events"] == stored_b,
                 "%s grew after table-b was removed: %s -> %s" % (MB, stored_b, short(r)))
        c.expect(ask(qj, {"op": "health"})["refused"]["key"] - k0 >= 1, "health refused.key did not grow")
        # table-a still works, on its open connection and on a new one
        v = rt(ta, game_c[0])
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-a's header for %s: %s" % (MC, short(v)))
        ta2 = dealer(D.conn_in, ta_k, SERVER)
        v = rt(ta2, game_c[1])
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-a's new connection: %s" % short(v))

        # a malformed keyring: fail closed
        write_keyring(keyring, [ta_k, j_k, v_k, o_k], "wizard merlin %s\n" % tb_k["public"])
        off = D.log_size()
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP (malformed)")
        said = D.log_since(off)
        c.expect("line 6" in said, "the daemon's log does not name the malformed keyring line 6: %s" % short(said, 600))
        na, na_mon = dealer(D.conn_in, ta_k, SERVER, monitor=True)
        nq, nq_mon = dealer(D.conn_q, j_k, SERVER, monitor=True)
        send(na, game_c[2])
        send(nq, {"op": "health"})
        r_a = recv(na, NOREPLY_T)
        r_q = recv(nq, 0.2)
        c.expect(r_a is None, "fail closed: table-a's new ingest connection answered: %s" % short(r_a))
        c.expect(r_q is None, "fail closed: the judge's new query connection answered: %s" % short(r_q))
        for n, m in (("table-a ingest", na_mon), ("judge query", nq_mon)):
            ev = hs_events(m)
            c.expect((HS_AUTH, 400) in ev and not any(e == HS_OK for e, _ in ev),
                     "fail closed: %s handshake events %s" % (n, ev))
        na.close(0)
        nq.close(0)
        v = rt(ta2, game_c[2])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:key",
                 "fail closed: table-a's open connection: want illegal openlog:key, got %s" % short(v))
        r = ask(qj, {"op": "health"})
        c.expect(is_refusal(r), "fail closed: the judge's open query connection: %s" % short(r))

        # a good keyring again
        write_keyring(keyring, [ta_k, j_k, v_k, o_k])
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP (good again)")
        na = dealer(D.conn_in, ta_k, SERVER)
        v = rt(na, game_c[2])
        c.expect(isinstance(v, dict) and v.get("status") == "ok",
                 "table-a's new connection after a good keyring: %s (the refused event is resent)" % short(v))
        nq = dealer(D.conn_q, j_k, SERVER)
        r = ask(nq, {"op": "match", "match": MC, "view": "judge"})
        c.expect(isinstance(r, dict) and r.get("ok") is True and r["match"]["events"] == 3
                 and r["match"]["owner"]["name"] == "table-a",
                 "judge's new connection after a good keyring: %s" % short(r))
        qj = nq

        # a keyring that is missing at SIGHUP: fail closed too, the judge's new
        # connection and the open ones (and table-b, still not listed, throughout)
        os.unlink(keyring)
        off = D.log_size()
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP (missing)")
        c.expect(keyring in D.log_since(off), "the log does not name the missing keyring: %s"
                 % short(D.log_since(off), 400))
        nq2, nq2_mon = dealer(D.conn_q, j_k, SERVER, monitor=True)
        nb3 = dealer(D.conn_in, tb_k, SERVER)
        send(nq2, {"op": "health"})
        send(nb3, game_b[nb])
        r = recv(nq2, NOREPLY_T)
        c.expect(r is None, "keyring missing: the judge's new query connection answered: %s" % short(r))
        r = recv(nb3, 0.2)
        c.expect(r is None, "table-b (not listed) was answered: %s" % short(r))
        ev = hs_events(nq2_mon)
        c.expect((HS_AUTH, 400) in ev, "keyring missing: judge's handshake events %s" % ev)
        nq2.close(0)
        nb3.close(0)
        r = ask(qj, {"op": "health"})
        c.expect(is_refusal(r), "keyring missing: the judge's open query connection: %s" % short(r))
        v = rt(na, game_c[3])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:key",
                 "keyring missing: table-a's open connection: want illegal openlog:key, got %s" % short(v))
        write_keyring(keyring, [ta_k, j_k, v_k, o_k])
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP (good, last)")
        nq = dealer(D.conn_q, j_k, SERVER)
        r = ask(nq, {"op": "health"})
        c.expect(isinstance(r, dict) and r.get("ok") is True, "judge after the last good keyring: %s" % short(r))
        qj = nq

    # ------------------------------------------------------------ 6b
    with Check("6b a keyring name given to another key does not inherit the name's matches") as c:
        # table-b's name, now with the intruder's key: a match belongs to a key (arbiterd(8), OWNERSHIP AND REFUSALS)
        ik = K["intruder"]
        write_keyring(keyring, [ta_k, j_k, v_k, o_k, dict(ik, name="table-b")])
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP")
        before = ask(qj, {"op": "match", "match": MB})
        ti = dealer(D.conn_in, ik, SERVER)
        v = rt(ti, game_b[7])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner",
                 "another key named table-b writes into table-b's %s: want illegal openlog:owner, got %s"
                 % (MB, short(v)))
        after = ask(qj, {"op": "match", "match": MB})
        c.expect(before and after and before.get("ok") and after["match"]["events"] == before["match"]["events"]
                 and after["match"]["owner"] == {"name": "table-b", "key": tb_k["public"]},
                 "%s after: %s" % (MB, short(after)))
        # the key itself is served: a match of its own
        v = rt(ti, dict(game_b[0], match=MB + "-new-key"))
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "the new table-b key's own header: %s" % short(v))

    # ------------------------------------------------------------ 6c
    with Check("6c a table key given the viewer role by SIGHUP is refused on the connection it already has") as c:
        ta = dealer(D.conn_in, ta_k, SERVER)
        game_e = [dict(e, match=e["match"] + "-demoted") for e in game_c]
        v = rt(ta, game_e[0])
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "table-a's header before: %s" % short(v))
        write_keyring(keyring, [dict(ta_k, role="viewer"), j_k, v_k, o_k])
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP")
        v = rt(ta, game_e[1])
        c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:key",
                 "table-a, now a viewer, on its open connection: want illegal openlog:key, got %s" % short(v))
        r = ask(qj, {"op": "match", "match": game_e[0]["match"]})
        c.expect(isinstance(r, dict) and r.get("ok") and r["match"]["events"] == 1,
                 "the demoted key's event was stored: %s" % short(r))
        write_keyring(keyring, [ta_k, j_k, v_k, o_k])
        c.expect(D.sighup_and_wait(), "no log line of the keyring read again after SIGHUP (restored)")
        ta.close(0)

    # ------------------------------------------------------------ 8 (main daemon)
    stops = [("main arbiterd", D.stop())]

    # ------------------------------------------------------------ 7
    with Check("7 start-up fails closed: missing/malformed keyring exit 2; non-loopback needs --insecure") as c:
        missing = os.path.join(TMP, "no-such-keyring")
        d = Daemon("missing", ["--key", K["daemon"]["key"], "--keyring", missing, "--log-level", "info"])
        daemons.append(d)
        rc7 = d.wait_exit(30)
        c.expect(rc7 == 2, "--keyring %s (missing): exit %s, want 2" % (missing, rc7))
        c.expect(missing in d.text() or "no-such-keyring" in d.text(),
                 "--keyring missing: the output does not name the file: %s" % short(d.text(), 500))
        lineno = 2 + len(good)  # write_keyring: a comment line, the keys, the extra line
        bad = [("an unknown role", "wizard merlin %s\n" % K["intruder"]["public"]),
               ("a short key", "table table-c %s\n" % K["intruder"]["public"][:39]),
               ("a name used twice", "table table-a %s\n" % K["intruder"]["public"]),
               ("a key listed twice", "judge judge-2 %s\n" % ta_k["public"]),
               ("a missing field", "table table-c\n"),
               ("a name of 65 characters", "table %s %s\n" % ("t" * 65, K["intruder"]["public"])),
               ("a name with a slash", "table table/c %s\n" % K["intruder"]["public"]),
               ("a key with a character outside Z85", "table table-c %s\n" % ("~" + K["intruder"]["public"][1:]))]
        for n, (what, line) in enumerate(bad):
            path = os.path.join(TMP, "keyring-bad-%d" % n)
            write_keyring(path, good, line)
            d = Daemon("bad-keyring-%d" % n, ["--key", K["daemon"]["key"], "--keyring", path])
            daemons.append(d)
            rc7 = d.wait_exit(30)
            out = d.text()
            c.expect(rc7 == 2, "a keyring with %s: exit %s, want 2 (%s)" % (what, rc7, short(out, 300)))
            c.expect("line %d" % lineno in out,
                     "a keyring with %s: the output does not name line %d: %s" % (what, lineno, short(out, 300)))
            if d.alive():
                d.stop()
        # arbiterd(8) LIMITS: at most 10,000 keys in a keyring, else malformed
        path = os.path.join(TMP, "keyring-big")
        with open(path, "w") as f:
            for i in range(10001):
                f.write("viewer v%d %s\n" % (i, zmq.curve_keypair()[0].decode()))
        d = Daemon("big-keyring", ["--key", K["daemon"]["key"], "--keyring", path])
        daemons.append(d)
        rc7 = d.wait_exit(30)
        c.expect(rc7 == 2, "a keyring of 10,001 keys: exit %s, want 2 (%s)" % (rc7, short(d.text(), 300)))
        if d.alive():
            d.stop()
        for i, which in enumerate(("ingest", "feed", "query")):
            hosts = ["127.0.0.1"] * 3
            hosts[i] = "0.0.0.0"
            d = Daemon("open-" + which, ["--log-level", "info"], hosts=hosts)
            daemons.append(d)
            rc7 = d.wait_exit(30)
            c.expect(rc7 == 2, "--%s on 0.0.0.0 without --keyring or --insecure: exit %s, want 2 (%s)"
                     % (which, rc7, short(d.text(), 300)))
            c.expect("--insecure" in d.text() and "--keyring" in d.text(),
                     "--%s on 0.0.0.0: the refusal does not say why (--keyring, --insecure): %s"
                     % (which, short(d.text(), 300)))
            if d.alive():
                d.stop()
        d = Daemon("insecure", ["--insecure", "--log-level", "info"], hosts=("0.0.0.0",) * 3)
        daemons.append(d)
        pq = dealer(d.conn_q)
        r = None
        end = time.time() + 30
        while time.time() < end and d.alive():
            r = rt(pq, {"op": "health"}, 0.5)
            if r is not None:
                break
        c.expect(isinstance(r, dict) and r.get("ok") is True,
                 "--insecure on 0.0.0.0: no health reply (alive %s): %s" % (d.alive(), short(d.text(), 400)))
        while recv(pq, 0.3) is not None:
            pass
        c.expect(any(w in d.text().lower() for w in ("insecure", "warn")),
                 "--insecure: no warning in the log: %s" % short(d.text(), 400))
        if r is not None:
            pi = dealer(d.conn_in)
            v = rt(pi, game_a[0])
            c.expect(isinstance(v, dict) and v.get("status") == "ok", "--insecure: anonymous header: %s" % short(v))
            v = rt(pi, game_a[1])
            r = ask(pq, {"op": "state", "match": MA, "view": "judge"})
            c.expect(is_refusal(r), "--insecure: an anonymous judge view was served: %s" % short(r))
            r = ask(pq, {"op": "state", "match": MA, "view": "p1"})
            c.expect(is_refusal(r), "--insecure: an anonymous p1 view was served: %s" % short(r))
            r = ask(pq, {"op": "state", "match": MA})
            c.expect(isinstance(r, dict) and r.get("ok") is True, "--insecure: the public view: %s" % short(r))
        stops.append(("the --insecure arbiterd", d.stop()))
        insecure = d

    # ------------------------------------------------------------ 7b
    def up(d, key):
        q = dealer(d.conn_q, key, SERVER)
        end = time.time() + 30
        while time.time() < end and d.alive():
            if rt(q, {"op": "health"}, 0.5) is not None:
                while recv(q, 0.3) is not None:
                    pass
                return q
        raise RuntimeError("%s did not answer: %s" % (d.tag, d.text()[-1500:]))

    with Check("7b ownership survives a restart; a match opened without a keyring stays closed to every key") as c:
        write_keyring(keyring, good)
        d = Daemon("main-again", ["--key", K["daemon"]["key"], "--keyring", keyring, "--log-level", "info",
                                  "--cards", A.cards], db=D.db)
        daemons.append(d)
        q = up(d, j_k)
        a2, b2 = dealer(d.conn_in, ta_k, SERVER), dealer(d.conn_in, tb_k, SERVER)
        v = rt(a2, game_b[7])
        c.expect(isinstance(v, dict) and v.get("rule") == "openlog:owner" and "table-b" in (v.get("msg") or ""),
                 "after a restart, table-a into table-b's %s: want illegal openlog:owner, got %s" % (MB, short(v)))
        v = rt(b2, game_d[6])
        c.expect(isinstance(v, dict) and v.get("rule") == "openlog:owner" and "table-a" in (v.get("msg") or ""),
                 "after a restart, table-b into table-a's %s: want illegal openlog:owner, got %s" % (MD, short(v)))
        v = rt(b2, game_b[7])
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "after a restart, table-b's %s #7: %s" % (MB, short(v)))
        v = rt(a2, game_d[6])
        c.expect(isinstance(v, dict) and v.get("status") == "ok", "after a restart, table-a's %s #6: %s" % (MD, short(v)))
        for m, owner in ((MA, ta_k), (MB, tb_k), (MD, ta_k)):
            r = ask(q, {"op": "match", "match": m})
            c.expect(isinstance(r, dict) and r.get("ok") and r["match"].get("owner") == {"name": owner["name"], "key": owner["public"]},
                     "after a restart, the owner of %s: %s" % (m, short((r or {}).get("match", {}).get("owner"))))
        stops.append(("the restarted arbiterd", d.stop()))
        # the --insecure daemon's store holds an anonymous match; with a keyring nobody may write into it
        d = Daemon("insecure-again", ["--key", os.path.join(os.path.dirname(insecure.db), "arbiterd.key"), "--keyring", keyring,
                                      "--log-level", "info"], db=insecure.db)
        daemons.append(d)
        srv2 = read_keyfile(os.path.join(os.path.dirname(insecure.db), "arbiterd.key"))["curve-public"]
        SERVER_SAVED, SERVER = SERVER, srv2
        try:
            q = up(d, j_k)
            a3 = dealer(d.conn_in, ta_k, SERVER)
            r = ask(q, {"op": "match", "match": MA})
            c.expect(isinstance(r, dict) and r.get("ok") and r["match"].get("owner") is None and r["match"]["events"] == 2,
                     "the anonymous %s: %s" % (MA, short(r)))
            for what, ev in (("its next event", game_a[2]), ("its header again", game_a[0])):
                v = rt(a3, ev)
                c.expect(isinstance(v, dict) and v.get("status") == "illegal" and v.get("rule") == "openlog:owner",
                         "table-a writes %s into the anonymous %s: want illegal openlog:owner, got %s" % (what, MA, short(v)))
            r = ask(q, {"op": "match", "match": MA})
            c.expect(isinstance(r, dict) and r.get("ok") and r["match"]["events"] == 2, "the anonymous %s grew: %s" % (MA, short(r)))
        finally:
            SERVER = SERVER_SAVED
        stops.append(("the --insecure store's arbiterd, restarted with a keyring", d.stop()))

    # ------------------------------------------------------------ 8
    with Check("8 no sanitizer report in the daemons' logs; SIGTERM exits 0 (%d daemons)" % len(stops)) as c:
        for who, rc in stops:
            c.expect(rc == 0, "%s: SIGTERM exit %s" % (who, rc))
        for path in DAEMON_LOGS:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8", "replace")
            for bad in ("AddressSanitizer", "LeakSanitizer", "runtime error"):
                c.expect(bad not in text, "%s: %s" % (os.path.basename(path), bad))
    print("# queries asked again after %.0f s of silence during the whole run: %d %s"
          % (QUERY_T, len(LOST), LOST[:10]))
    print("# run time %.1f s" % (time.time() - t0))


if __name__ == "__main__":
    sys.exit(main())
