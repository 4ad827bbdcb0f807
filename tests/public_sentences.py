#!/usr/bin/python3
"""public_sentences.py -- no public sentence names a card its event hides.

    public_sentences.py FEED_EP QUERY_EP ARBITER CARDS.json LOG...

A verdict's sentence is the engine's words: "p2 (bob) places Night Terror
on the Bench" names the very card the public view of that `bench` event
hides.  The daemon must put such a card as "a hidden card" wherever it shows
a sentence to somebody who may not see the card: its feed (the public
view) and its query socket's `events` op in a non-judge view.  This script
subscribes to the feed, streams the logs with `arbiter send`, and for every
verdict with a sentence checks, against the log itself (the judge's view of
each event):

  - in the feed and in `events` with view public, the sentence names no
    card (by id or name) that the event names and its public view does not;
  - in `events` with view judge the sentence is the one `arbiter verify`
    gives (nothing is taken from the judge);
  - at least one sentence was redacted (the check has something to bite).

Prints PASS/FAIL lines and a closing count; exit 1 on a failure.
"""
import json
import subprocess
import sys
import threading
import time

import msgpack
import zmq

feed_ep, query_ep, arbiter, cards_path = sys.argv[1:5]
logs = sys.argv[5:]
passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(("PASS " if ok else "FAIL ") + what)


db = json.load(open(cards_path))
NAMES = {c["id"]: c["name"] for c in db["cards"]}


def strings(x):
    if isinstance(x, str):
        return {x}
    if isinstance(x, list):
        return set().union(*map(strings, x)) if x else set()
    if isinstance(x, dict):
        return set().union(*map(strings, x.values())) if x else set()
    return set()


def hidden_cards(raw, public):
    """Cards the raw event names and its public view does not."""
    gone = strings(raw) - strings(public)
    return {c for c in gone if c in NAMES}


def leaks(msg, cards):
    return [c for c in cards if c in msg or NAMES[c] in msg]


def query(req):
    r = subprocess.run([arbiter, "query", "--endpoint", query_ep, json.dumps(req)], capture_output=True, text=True,
                       timeout=30)
    return json.loads(r.stdout.splitlines()[0])


ctx = zmq.Context()
sub = ctx.socket(zmq.SUB)
sub.setsockopt(zmq.RCVHWM, 0)
sub.setsockopt(zmq.SUBSCRIBE, b"")
sub.connect(feed_ep)
time.sleep(0.5)
feed = []


sent = threading.Event()


def drain():
    """Read the feed while the tables stream, so that no queue fills; after
    `arbiter send` has ended, until 3 s of silence.  (Not "until the first 3 s
    of silence": on a loaded machine the first event may take longer.)"""
    while True:
        if sub.poll(3000 if sent.is_set() else 250):
            topic, body = sub.recv_multipart()
            feed.append(msgpack.unpackb(body, raw=False))
        elif sent.is_set():
            break


reader = threading.Thread(target=drain, daemon=True)
reader.start()

raw = {}
for path in logs:
    for line in open(path):
        if line.strip():
            e = json.loads(line)
            raw[(e["match"], e["seq"])] = e
try:
    subprocess.run([arbiter, "send", "--endpoint", feed_ep.replace("feed", "ingest"), "--quiet", "--rate", "2000"]
                   + logs, capture_output=True, timeout=300)
finally:
    sent.set()
reader.join()
sub.close()

redacted = 0
bad = []
for m in feed:
    v, pub = m.get("verdict", {}), m.get("event")
    msg = v.get("msg") or ""
    key = (v.get("match"), v.get("seq"))
    if not msg or key not in raw or pub is None:
        continue
    hid = hidden_cards(raw[key], pub)
    if hid and "a hidden card" in msg:
        redacted += 1
    if leaks(msg, hid):
        bad.append("%s #%s: %s" % (key[0], key[1], msg))
# the feed drops past a subscriber's queue (arbiterd(8): an XPUB never blocks), so
# not every event need come; what comes is checked
check(len(feed) > len(raw) // 2, "the feed carried %d of %d events" % (len(feed), len(raw)))
check(not bad, "feed: no sentence names a card its event hides%s" % ("" if not bad else ": " + "; ".join(bad[:3])))
check(redacted > 0, "feed: %d sentences with a hidden card put as 'a hidden card'" % redacted)


bad_q, judged, n = [], [], 0
for match in sorted({k[0] for k in raw}):
    want = {v["seq"]: v.get("msg") for v in json.loads(subprocess.run(
        [arbiter, "verify", "--json", next(p for p in logs if json.loads(open(p).readline())["match"] == match)],
        capture_output=True, text=True).stdout.splitlines()[0])["verdicts"]}
    pub = query({"op": "events", "match": match, "view": "public"})
    jud = query({"op": "events", "match": match, "view": "judge"})
    for item in pub.get("events", []):
        msg = (item.get("verdict") or {}).get("msg") or ""
        n += bool(msg)
        if leaks(msg, hidden_cards(raw[(match, item["seq"])], item.get("event"))):
            bad_q.append("%s #%s: %s" % (match, item["seq"], msg))
    for item in jud.get("events", []):
        msg = (item.get("verdict") or {}).get("msg")
        if msg and want.get(item["seq"]) != msg:
            judged.append("%s #%s" % (match, item["seq"]))
check(n > 0 and not bad_q, "events, view public: %d sentences, none names a card its event hides%s"
      % (n, "" if not bad_q else ": " + "; ".join(bad_q[:3])))
check(not judged, "events, view judge: every sentence as arbiter verify gives it%s"
      % ("" if not judged else ": " + ", ".join(judged[:3])))

print("public_sentences: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed or not passed else 0)
