#!/usr/bin/python3
"""standings_client.py -- arbiterd's `standings` op beside a streaming table,
seen by an independent client (pyzmq), for tests/e2e_tournament.sh.

The daemon runs with ARBITERD_TEST_STANDINGS_DELAY_MS (a pause before each
record its standings worker judges), so that one computation lasts seconds.

usage: standings_client.py CHECK QUERY_EP INGEST_EP TOURNAMENT [LOG] [PID]
  stall   a standings request, then every event of LOG sent one at a time,
          each after the verdict of the one before: every verdict must come
          while the standings are still being computed (ingest is not
          stalled), then the standings
  busy    17 requests at once (STANDINGS_WAITING is 16): one is refused at
          once with a sentence saying busy and to retry, the 16 others
          answered later, the same standings for all, one computation
  cache   two requests in a row with nothing written between: the second
          comes at once with "cached": true; `health` counts one computation
  reload  a standings request, a SIGHUP to PID while it is computed (the
          tournament is loaded again): the answer still comes, not cached
Prints PASS/FAIL lines; exit 0 only when every check passed.
"""
import json
import os
import signal
import sys
import time

import zmq

failed = False


def check(ok, what):
    global failed
    print(("PASS: " if ok else "FAIL: ") + what)
    failed |= not ok


def dealer(ctx, ep):
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(ep)
    return s


def ask(sock, req):
    sock.send(json.dumps(req).encode())


def reply(sock, timeout_ms):
    if not sock.poll(timeout_ms):
        return None
    return json.loads(sock.recv())


def health(ctx, ep):
    s = dealer(ctx, ep)
    ask(s, {"op": "health"})
    r = reply(s, 5000)
    s.close()
    return r or {}


def stall(ctx, q_ep, in_ep, tour, log):
    q, table = dealer(ctx, q_ep), dealer(ctx, in_ep)
    t0 = time.monotonic()
    ask(q, {"op": "standings", "tournament": tour})
    with open(log, "rb") as f:
        events = [l.strip() for l in f if l.strip()]
    verdicts, last = 0, 0.0
    for ev in events:
        table.send(ev)
        v = reply(table, 20000)
        if v is None:
            break
        verdicts += 1
        last = time.monotonic() - t0
        if q.poll(0):
            break   # the standings came before this verdict
    early = q.poll(0)
    got = reply(q, 60000)
    took = time.monotonic() - t0
    check(verdicts == len(events), "all %d events of the table got their verdict (%d)" % (len(events), verdicts))
    check(not early, "every verdict came while the standings were computed (last at %.2f s)" % last)
    check(got is not None and got.get("ok") is True and got.get("cached") is False,
          "then the standings came (%.2f s): %s" % (took, str(got)[:200]))


def busy(ctx, q_ep, tour):
    socks = [dealer(ctx, q_ep) for _ in range(17)]
    time.sleep(0.3)   # all connected before the first request
    for s in socks:
        ask(s, {"op": "standings", "tournament": tour, "after": 1})
    t0 = time.monotonic()
    poller = zmq.Poller()
    for s in socks:
        poller.register(s, zmq.POLLIN)
    replies, refusals, first = [], [], None
    while len(replies) + len(refusals) < 17 and time.monotonic() - t0 < 60:
        for s, _ in poller.poll(1000):
            r = json.loads(s.recv())
            if first is None:
                first = (time.monotonic() - t0, r)
            (replies if r.get("ok") else refusals).append(r)
    check(len(refusals) == 1 and "Busy" in refusals[0].get("error", "") and "again" in refusals[0]["error"],
          "one request past the 16 that may wait is refused, busy, asked to retry: %s" % refusals)
    check(first is not None and first[1].get("ok") is False and first[0] < 1.0,
          "the refusal came at once (%.2f s), before any standings" % (first[0] if first else -1))
    check(len(replies) == 16 and all(r["standings"] == replies[0]["standings"] for r in replies),
          "the 16 that waited got the same standings (%d)" % len(replies))
    for s in socks:
        s.close()


def cache(ctx, q_ep, tour):
    q = dealer(ctx, q_ep)
    ask(q, {"op": "standings", "tournament": tour})
    first = reply(q, 60000)
    before = health(ctx, q_ep).get("standings", {})
    t0 = time.monotonic()
    ask(q, {"op": "standings", "tournament": tour})
    second = reply(q, 60000)
    took = time.monotonic() - t0
    after = health(ctx, q_ep).get("standings", {})
    check(first is not None and second is not None and second.get("cached") is True and took < 1.0,
          "a second request with nothing written between comes at once from the cache (%.2f s, cached %s)"
          % (took, second and second.get("cached")))
    check(first is not None and second is not None and first["standings"] == second["standings"],
          "the cached answer is the computed one")
    check(after.get("computed") == before.get("computed") and after.get("cached") == before.get("cached", 0) + 1,
          "health: no computation more, one cached answer more (%s -> %s)" % (before, after))
    q.close()


def reload(ctx, q_ep, tour, pid):
    q = dealer(ctx, q_ep)
    ask(q, {"op": "standings", "tournament": tour, "final": True})
    time.sleep(0.5)
    os.kill(pid, signal.SIGHUP)
    got = reply(q, 60000)
    check(got is not None and got.get("ok") is True and got.get("cached") is False,
          "a SIGHUP while the standings are computed: the answer comes all the same: %s" % str(got)[:200])
    q.close()


def main():
    check_name, q_ep, in_ep, tour = sys.argv[1:5]
    ctx = zmq.Context()
    if check_name == "stall":
        stall(ctx, q_ep, in_ep, tour, sys.argv[5])
    elif check_name == "busy":
        busy(ctx, q_ep, tour)
    elif check_name == "cache":
        cache(ctx, q_ep, tour)
    elif check_name == "reload":
        reload(ctx, q_ep, tour, int(sys.argv[6]))
    else:
        sys.exit("unknown check %s" % check_name)
    ctx.destroy(linger=0)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
