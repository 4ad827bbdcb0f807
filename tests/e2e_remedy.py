"""e2e_remedy.py -- a judge's remedy for an illegal action (SPEC.md 8.1), in
batch and live, seen from outside: `arbiter verify`, and arbiterd through an
independent client (pyzmq) written from SPEC.md 8.1, arbiterd(8) and
arbiter-keyring(5).

The logs are fixtures/remedy/ (README.md there): for Snap, Advanced and
Master, a table that played on after an illegal action, with the lever
on_illegal "judge" and the remedy "stands" (the cascade judged ok) or
"backup" (the held events void, the game replayed to its end), the same play
without the lever (the cascade of illegal verdicts), and a remedy that
cannot stand.

Checks, each one PASS or FAIL line:
  1  batch: every log's verdicts that are not ok and its later verdicts are
     its .expect, as .jsonl and converted to .mlog; a backup log finishes
     with a winner; no log ends paused
  2  live: arbiterd with a keyring of a table and a judge.  The table streams
     a log up to its remedy: replies as batch's (the illegal action, then
     held); the remedy sent from the table's key is refused (illegal,
     openlog:remedy, not stored); sent from the judge's key it is ok, and the
     feed carries a later verdict for each held event, each naming the
     remedy's seq, equal to batch's; the rest of the log (a backup's replay)
     is judged as in batch.  A restart while paused keeps the pause.
  3  the stored records pass `arbiter audit`: chain, links and seal intact,
     and the held events and remedies judged again give the stored verdicts
     and boards
  4  no sanitizer report in the daemon's log; SIGTERM exits 0

Usage: e2e_remedy.py --arbiterd PATH --arbiter PATH --fixtures DIR --cards FILE
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

import msgpack
import zmq

A = None
TMP = None
T = 20.0           # seconds for a reply that must come (sanitizer build)
# One PASS/FAIL line per check, counted: e2e_keys.py's
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_keys import Check, results  # noqa: E402
import daemon_client  # noqa: E402
from daemon_client import query, sock  # noqa: E402


def run(*args, t=120):
    return subprocess.run([A.arbiter] + list(args), capture_output=True, text=True, timeout=t)


def verify(path):
    r = run("verify", "--cards", A.cards, "--json", path)
    return json.loads(r.stdout)


def expect_lines(report):
    """The .expect form of a report: not-ok verdicts, then later ones."""
    out = ["%d %s %s" % (v["seq"], v["status"], v.get("rule", "-")) for v in report["verdicts"]]
    out += ["later %d %s %d" % (v["seq"], v["status"], v["remedy"]) for v in report.get("later", [])]
    return out


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


# ---------------------------------------------------------------- batch

def check_batch(logs):
    with Check("1 batch: every remedy log's verdicts and later verdicts are its .expect, in both encodings") as c:
        c.expect(len(logs) >= 10, "only %d logs in %s" % (len(logs), A.fixtures))
        for path in logs:
            b = os.path.basename(path)[:-6]
            with open(path[:-6] + ".expect") as f:
                want = f.read().split("\n")[:-1]
            mlog = os.path.join(TMP, b + ".mlog")
            r = run("convert", path, mlog)
            c.expect(r.returncode == 0, "%s: convert: %s" % (b, r.stderr))
            for p in (path, mlog):
                rep = verify(p)
                got = expect_lines(rep)
                c.expect(got == want, "%s: want %s, got %s" % (os.path.basename(p), want, got))
                c.expect("paused" not in rep, "%s ends paused at %s" % (b, rep.get("paused")))
                if b.endswith("-backup"):
                    c.expect(rep["finished"] and rep["winner"] in ("p1", "p2"),
                             "%s: the replayed game does not finish with a winner: %s" % (b, rep))


# ---------------------------------------------------------------- live



def ask(s, obj):
    s.send(msgpack.packb(obj))
    if not s.poll(int(T * 1000)):
        return None
    return msgpack.unpackb(s.recv(), raw=False)




def feed_drain(sub, until, want):
    """Feed messages ({event, verdict}) until `want` of them have a verdict
    with `remedy`, or `until` passes."""
    got = []
    while time.time() < until and sum(1 for m in got if "remedy" in m["verdict"]) < want:
        if sub.poll(100):
            topic, body = sub.recv_multipart()
            got.append(msgpack.unpackb(body, raw=False))
    return got


def check_live(logs, keys, server, keyring):
    d = daemon_client.Daemon(A.arbiterd, os.path.join(TMP, "arbiterd.log"),
                             ["--db", os.path.join(TMP, "db"), "--key", keys["daemon"]["key"], "--keyring", keyring,
                              "--cards", A.cards, "--log-level", "info"])
    table = keys["table"]
    q = sock(zmq.DEALER, d.ep[2], keys["judge"], server)
    if not d.up(q):
        raise RuntimeError("arbiterd did not start: " + open(d.log).read()[-2000:])
    stored = []
    with Check("2 live: held, a table's remedy refused, a judge's remedy released on the feed, as batch; "
               "a restart keeps the pause") as c:
        for n, path in enumerate(logs):
            evs = load(path)
            b = os.path.basename(path)[:-6]
            rep = verify(path)
            batch = {v["seq"]: v for v in rep["verdicts"]}
            remedies = [e["seq"] for e in evs if e["type"] == "judge" and "remedy" in e]
            if not remedies or evs[0].get("rules", {}).get("on_illegal") != "judge":
                continue
            stored.append(evs[0]["match"])
            sub = sock(zmq.SUB, d.ep[1], keys["viewer"], server)
            sub.setsockopt(zmq.SUBSCRIBE, evs[0]["match"].encode())
            time.sleep(0.5)   # the subscription reaches the publisher
            t = sock(zmq.DEALER, d.ep[0], table, server)
            j = sock(zmq.DEALER, d.ep[0], keys["judge"], server)
            # a table key opens only the matches whose header names it (arbiterd(8))
            evs[0] = dict(evs[0], event={"table": table["name"]})
            live = {}
            for e in evs:
                if e["type"] == "judge" and "remedy" in e:
                    # from the table's key: refused, not stored
                    v = ask(t, e)
                    c.expect(v and v["status"] == "illegal" and v.get("rule") == "openlog:remedy",
                             "%s #%d from the table's key: %s" % (b, e["seq"], v))
                    m = query(q, {"op": "match", "match": e["match"]})
                    c.expect(m and m["match"]["events"] == e["seq"],
                             "%s: the refused remedy was stored: %s" % (b, m))
                    if n == 0 and e["seq"] == remedies[0]:
                        # a restart while paused: the pause is rebuilt from the record
                        c.expect(d.stop() == 0, "SIGTERM while paused: not exit 0")
                        d.start()
                        c.expect(d.up(q), "arbiterd did not come back")
                        t = sock(zmq.DEALER, d.ep[0], table, server)
                        j = sock(zmq.DEALER, d.ep[0], keys["judge"], server)
                        sub = sock(zmq.SUB, d.ep[1], keys["viewer"], server)
                        sub.setsockopt(zmq.SUBSCRIBE, evs[0]["match"].encode())
                        time.sleep(0.5)
                    v = ask(j, e)
                    want_later = [x for x in rep.get("later", []) if x["remedy"] == e["seq"]]
                    fed = feed_drain(sub, time.time() + T, len(want_later))
                    later = [m["verdict"] for m in fed if "remedy" in m["verdict"]]
                    c.expect(later == want_later, "%s #%d: the feed's later verdicts %s, batch %s"
                             % (b, e["seq"], later, want_later))
                    c.expect(all(m["event"]["seq"] == m["verdict"]["seq"] for m in fed if "remedy" in m["verdict"]),
                             "%s: a later verdict is published with another event" % b)
                else:
                    v = ask(t, e)
                live[e["seq"]] = v
                if v is None:
                    c.expect(False, "%s #%d: no reply" % (b, e["seq"]))
                    break
            got = {s: v for s, v in live.items() if v and v["status"] != "ok"}
            c.expect(got == batch, "%s: live verdicts that are not ok differ from batch's: %s"
                     % (b, [(s, got.get(s), batch.get(s)) for s in sorted(set(got) | set(batch))
                            if got.get(s) != batch.get(s)][:3]))
            m = query(q, {"op": "match", "match": evs[0]["match"]})
            c.expect(m and m["match"]["counts"].get("held") == sum(1 for v in rep["verdicts"] if v["status"] == "held"),
                     "%s: the summary's counts %s" % (b, m and m["match"]["counts"]))
            for s in (t, j, sub):
                s.close()
    q.close()
    rc = d.stop()
    with Check("3 the stored records of the remedied matches pass arbiter audit") as c:
        for m in stored:
            r = run("audit", m, "--db", os.path.join(TMP, "db"), "--cards", A.cards, "--sealed-by", keys["daemon"]["pub"])
            # exit 1: the record holds an illegal action (arbiter-audit(1)); what
            # counts here is that it holds together and judges again as stored
            ok = r.returncode in (0, 1) and all(w in r.stdout for w in (
                "hash chain: intact", "record links: intact", "seal: valid",
                "judged again with the given card database: every verdict and every board as stored"))
            c.expect(ok, "audit %s: exit %d: %s%s" % (m, r.returncode, r.stdout[-600:], r.stderr[-300:]))
    with Check("4 arbiterd exits 0 on SIGTERM, and its log has no sanitizer report") as c:
        c.expect(rc == 0, "exit %s" % rc)
        text = open(d.log, errors="replace").read()
        c.expect("Sanitizer" not in text and "runtime error" not in text, "sanitizer: %s" % text[-1500:])


def main():
    global A, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--arbiterd", required=True)
    ap.add_argument("--arbiter", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--cards", required=True)
    A = ap.parse_args()
    TMP = tempfile.mkdtemp(prefix="e2e_remedy.")
    logs = sorted(glob.glob(os.path.join(A.fixtures, "*.jsonl")))
    check_batch(logs)
    keys = {n: daemon_client.keygen(A.arbiter, TMP, n, r)
            for n, r in (("daemon", "table"), ("table", "table"), ("judge", "judge"), ("viewer", "viewer"))}
    keyring = os.path.join(TMP, "keyring")
    with open(keyring, "w") as f:
        f.write("".join(keys[n]["line"] + "\n" for n in ("table", "judge", "viewer")))
    try:
        check_live(logs, keys, keys["daemon"]["public"], keyring)
    except Exception as e:
        results["failed"] += 1
        print("FAIL live: %s: %s" % (type(e).__name__, e))
    subprocess.run(["rm", "-rf", TMP])
    print("e2e_remedy: %d passed, %d failed" % (results["passed"], results["failed"]))
    return 0 if results["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
