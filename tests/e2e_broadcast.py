"""e2e_broadcast.py -- the broadcast (arbiterd(8), BROADCAST), seen from an
independent client (pyzmq) written from arbiterd(8), arbiter-keyring(5) and
SPEC.md 2 alone: every stored event in the judge's view, hidden cards and all,
once it is older than --broadcast-delay, on a socket of its own, for keys of
the role broadcast only.

The game is fixtures/snap/legal-open-concede.jsonl (open mode: its Bench and
selections name their cards; it ends by a concession), streamed by a table
key.  Checks, each one PASS or FAIL line:
  1  a broadcast key gets every event in the judge's view -- each hand
     (`select`) and face-down Bench with its card ids -- each exactly when
     the delay has passed: never before it (not a millisecond early, counted
     from the verdict's reply, which comes after the event is stored), and
     within a second after; the concession does not let the end out early
  2  a viewer key is refused at the broadcast socket and never gets a
     message there; on the public feed it never sees a hand's or a
     face-down Bench's card
  3  the query view "broadcast": before the delay no event and no board; after
     it the events let out, in the judge's view; `arbiter audit --view
     broadcast` makes of them the JSON and the page a stream's overlay polls
     (the last board, the hands); a viewer asking for either is refused
  4  a restart in the middle keeps the delay: events stored before a SIGTERM
     come out after the restart no sooner than the delay after they were
     stored
  5  --broadcast-delay without --keyring, or with a bad duration, exits 2
  6  no sanitizer report in the daemon's log; SIGTERM exits 0

Usage: e2e_broadcast.py --arbiterd PATH --arbiter PATH --fixtures DIR --cards FILE
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import msgpack
import zmq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_keys import Check, results  # noqa: E402
import daemon_client  # noqa: E402
from daemon_client import query, sock  # noqa: E402

A = None
TMP = None
T = 20.0
DELAY = 3.0        # seconds: --broadcast-delay 3s
LOGS = []


def run(*args):
    return subprocess.run([A.arbiter] + list(args), capture_output=True, text=True, timeout=60)




def daemon(keys, keyring, db, extra=()):
    """arbiterd with its broadcast socket, a log of its own (LOGS)."""
    log = os.path.join(TMP, "arbiterd-%d.log" % len(LOGS))
    LOGS.append(log)
    return daemon_client.Daemon(A.arbiterd, log, ["--db", db, "--key", keys["daemon"]["key"], "--cards", A.cards,
                                                  "--log-level", "info"] + (["--keyring", keyring] if keyring else [])
                                + list(extra))


def hidden_cards(ev):
    """The card ids an event hides from the public (open mode): a selection's,
    the face-down Bench's (all four slots here: the default lever)."""
    if ev["type"] == "select":
        return [c for c in ev["cards"] if isinstance(c, str)]
    if ev["type"] == "bench" and "slots" in ev:
        return [c for c in ev["slots"] if isinstance(c, str)]
    return []


def stream(t, evs):
    """Send each event, wait for its verdict: {seq: (the time it was sent,
    the time its verdict came)}.  The daemon cannot have stored an event
    before it was sent, nor after it answered: the broadcast is due between
    the two, plus the delay."""
    at = {}
    for e in evs:
        sent = time.time()
        t.send(msgpack.packb(e))
        if not t.poll(int(T * 1000)):
            raise RuntimeError("no verdict for #%d" % e["seq"])
        v = msgpack.unpackb(t.recv(), raw=False)
        if v["status"] not in ("ok", "warning"):
            raise RuntimeError("#%d: %s" % (e["seq"], v))
        at[e["seq"]] = (sent, time.time())
    return at


def collect(sub, until):
    got = []
    while time.time() < until:
        if sub.poll(50):
            topic, body = sub.recv_multipart()
            got.append((time.time(), msgpack.unpackb(body, raw=False)))
    return got


def main():
    global A, TMP
    ap = argparse.ArgumentParser()
    for k in ("--arbiterd", "--arbiter", "--fixtures", "--cards"):
        ap.add_argument(k, required=True)
    A = ap.parse_args()
    TMP = tempfile.mkdtemp(prefix="e2e_broadcast.")
    roles = (("daemon", "table"), ("table", "table"), ("caster", "broadcast"), ("viewer", "viewer"), ("judge", "judge"))
    keys = {n: daemon_client.keygen(A.arbiter, TMP, n, r) for n, r in roles}
    keyring = os.path.join(TMP, "keyring")
    with open(keyring, "w") as f:
        f.write("".join(keys[n]["line"] + "\n" for n in ("table", "caster", "viewer", "judge")))
    server = keys["daemon"]["public"]
    with open(os.path.join(A.fixtures, "legal-open-concede.jsonl")) as f:
        game = [json.loads(l) for l in f if l.strip()]
    game[0]["event"] = {"table": "table"}   # a table key opens the matches naming it
    db = os.path.join(TMP, "db")
    d = daemon(keys, keyring, db, ["--broadcast-delay", "%ds" % DELAY])
    q = sock(zmq.DEALER, d.ep[2], keys["judge"], server)
    if not d.up(q):
        print("FAIL arbiterd did not start: " + open(d.log).read()[-2000:])
        print("e2e_broadcast: 0 passed, 1 failed")
        return 1
    caster = sock(zmq.SUB, d.ep[3], keys["caster"], server)
    caster.setsockopt(zmq.SUBSCRIBE, b"")
    viewer_bc = sock(zmq.SUB, d.ep[3], keys["viewer"], server)
    viewer_bc.setsockopt(zmq.SUBSCRIBE, b"")
    viewer_feed = sock(zmq.SUB, d.ep[1], keys["viewer"], server)
    viewer_feed.setsockopt(zmq.SUBSCRIBE, b"")
    vq = sock(zmq.DEALER, d.ep[2], keys["viewer"], server)
    cq = sock(zmq.DEALER, d.ep[2], keys["caster"], server)
    time.sleep(1.0)   # the subscriptions reach the daemon
    t = sock(zmq.DEALER, d.ep[0], keys["table"], server)
    match = game[0]["match"]

    # the whole game, the concession included, then the broadcast
    at = stream(t, game)
    early = query(cq, {"op": "events", "match": match, "view": "broadcast"})
    early_state = query(cq, {"op": "state", "match": match, "view": "broadcast"})
    got = collect(caster, time.time() + DELAY + 2.5)
    public = collect(viewer_feed, time.time() + 0.2)
    with Check("1 a broadcast key gets every event in the judge's view exactly when the delay has passed") as c:
        seqs = [m["event"]["seq"] for _, m in got]
        c.expect(seqs == [e["seq"] for e in game], "the broadcast's seqs: %s" % seqs)
        for when, m in got:
            s = m["event"]["seq"]
            age, late = when - at[s][0], when - at[s][1]
            c.expect(age >= DELAY, "#%d came out %.3f s after it was sent: before the %g s delay" % (s, age, DELAY))
            c.expect(late < DELAY + 1.0, "#%d came out %.3f s after its verdict: more than a second late" % (s, late))
            want = hidden_cards(game[s])
            c.expect(hidden_cards(m["event"]) == want, "#%d: the judge's view shows %s, the log %s"
                     % (s, hidden_cards(m["event"]), want))
            c.expect("verdict" in m and m["verdict"].get("status") == "ok", "#%d: verdict %s" % (s, m.get("verdict")))
        c.expect(any(hidden_cards(e) for e in game), "the game hides no card: the check proves nothing")
    with Check("2 a viewer key is refused at the broadcast socket; the public feed never shows a hidden card") as c:
        c.expect(not viewer_bc.poll(100), "the viewer got a broadcast message")
            # the feed carried the game live: look at every message it had
        fed = collect(viewer_feed, time.time() + 0.1)
        for _, m in public + fed:
            ev = m["event"]
            c.expect(not hidden_cards(ev), "the public feed shows #%d's hidden cards: %s" % (ev["seq"], ev))
        log = open(d.log).read()
        c.expect("viewer has the role viewer; only broadcast keys receive the broadcast" in log,
                 "the daemon's log does not name the refused viewer")
    with Check("3 the query view \"broadcast\": nothing before the delay, the judge's view after it; not for a viewer") as c:
        c.expect(early and early.get("ok") and early.get("events") == [], "events before the delay: %s" % str(early)[:300])
        c.expect(early_state and not early_state.get("ok"), "a board before the delay: %s" % str(early_state)[:300])
        late = query(cq, {"op": "events", "match": match, "view": "broadcast"})
        evs = late.get("events", []) if late else []
        c.expect(len(evs) == len(game), "events after the delay: %d of %d" % (len(evs), len(game)))
        c.expect(all(hidden_cards(x["event"]) == hidden_cards(game[x["seq"]]) for x in evs),
                 "the broadcast view hides a card")
        # the page a stream's overlay polls (arbiter-audit(1), --view broadcast)
        base = ["audit", match, "--query", d.ep[2], "--server-key", keys["daemon"]["pub"], "--view", "broadcast"]
        r = run(*(base + ["--key", keys["caster"]["key"], "--json"]))
        page = json.loads(r.stdout) if r.returncode == 0 else {}
        c.expect(page.get("events") == len(game) and len(page.get("timeline", [])) == len(game),
                 "audit --view broadcast --json: exit %d, %s %s" % (r.returncode, str(page)[:200], r.stderr[-200:]))
        hand = page.get("board", {}).get("players", {}).get("p1", {}).get("hand", {})
        c.expect(any(isinstance(x, str) for x in json.dumps(hand).split('"')[1::2] if x.startswith(("cor-", "flx-"))),
                 "the broadcast page's board shows no card of p1's hand: %s" % str(hand)[:200])
        html = os.path.join(TMP, "broadcast.html")
        r = run(*(base + ["--key", keys["caster"]["key"], "--html", html]))
        text = open(html).read() if r.returncode == 0 else ""
        c.expect("Broadcast of match" in text and "Board after #%d" % (len(game) - 1) in text,
                 "audit --view broadcast --html: exit %d %s" % (r.returncode, r.stderr[-200:]))
        r = run(*(base + ["--key", keys["viewer"]["key"], "--json"]))
        c.expect(r.returncode != 0 and "broadcast" in r.stderr, "a viewer's broadcast page: exit %d" % r.returncode)
        v = query(vq, {"op": "events", "match": match, "view": "broadcast"})
        c.expect(v and v.get("ok") is False, "a viewer got the broadcast view: %s" % str(v)[:200])
        h = query(q, {"op": "health"})
        b = h and h.get("broadcast")
        c.expect(b and b.get("delay_ms") == DELAY * 1000 and b.get("sent", 0) >= len(game),
                 "health's broadcast: %s" % b)

    # a restart in the middle of a second game
    game2 = [dict(e, match=match + "-2") for e in game[:12]]
    at2 = stream(t, game2[:8])
    for s in (t, caster, viewer_bc, viewer_feed, vq, cq, q):
        s.close()
    rc = d.stop()
    d = daemon(keys, keyring, db, ["--broadcast-delay", "%ds" % DELAY])
    q = sock(zmq.DEALER, d.ep[2], keys["judge"], server)
    started = d.up(q)
    caster = sock(zmq.SUB, d.ep[3], keys["caster"], server)
    caster.setsockopt(zmq.SUBSCRIBE, b"")
    time.sleep(0.5)
    listening = time.time()
    t = sock(zmq.DEALER, d.ep[0], keys["table"], server)
    at2.update(stream(t, game2[8:]))
    got2 = collect(caster, time.time() + DELAY + 2.5)
    with Check("4 a restart in the middle keeps the delay") as c:
        c.expect(rc == 0 and started, "the restart: exit %s, up %s" % (rc, started))
        for when, m in got2:
            s = m["event"]["seq"]
            c.expect(when - at2[s][0] >= DELAY, "#%d of the restarted match came out %.3f s after it was sent"
                     % (s, when - at2[s][0]))
        seqs = set(m["event"]["seq"] for _, m in got2)
        # those stored before the stop that came due once the restarted
        # daemon had its subscriber (a slow start may let some come due
        # while it was down: the broadcast is live, they are not sent)
        due_after = set(s for s in range(8) if at2[s][1] + DELAY > listening + 0.2)
        c.expect(due_after and due_after <= seqs, "the events stored before the restart and due after it: %s, "
                 "broadcast: %s" % (sorted(due_after), sorted(seqs)))
        c.expect(set(range(8, 12)) <= seqs, "the events after the restart were not all broadcast: %s" % sorted(seqs))
    for s in (t, caster, q):
        s.close()
    rc = d.stop()

    with Check("5 --broadcast-delay without --keyring, or with a bad duration, exits 2") as c:
        for extra, keyring_arg in ((["--broadcast-delay", "3s"], None), (["--broadcast-delay", "soon"], keyring),
                                   (["--broadcast-delay", "25h"], keyring)):
            x = daemon(keys, keyring_arg, os.path.join(TMP, "db-x"), extra)
            try:
                code = x.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                code = None
            x.stop()
            c.expect(code == 2, "%s %s: exit %s, want 2" % (extra, "with a keyring" if keyring_arg else "", code))
        c.expect("needs --keyring" in open(LOGS[-3]).read(), "the refusal without a keyring says nothing of --keyring")
    with Check("6 arbiterd exits 0 on SIGTERM, and its logs have no sanitizer report") as c:
        c.expect(rc == 0, "exit %s" % rc)
        for p in LOGS:
            text = open(p, errors="replace").read()
            c.expect("Sanitizer" not in text and "runtime error" not in text, "%s: %s" % (p, text[-1000:]))
    subprocess.run(["rm", "-rf", TMP])
    print("e2e_broadcast: %d passed, %d failed" % (results["passed"], results["failed"]))
    return 0 if results["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
