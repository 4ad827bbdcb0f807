#!/usr/bin/python3
"""replica_watch.py -- samples arbiterd's replication health for bench/run_replicate.

    bench/replica_watch.py --query EP [--every MS] [--expect N] [--done FILE]
                           [--timeout S]

What: one ZeroMQ DEALER on the daemon's query endpoint that asks for
{"op":"health"} every MS milliseconds (default 100) and prints, for each
answer, one JSON line: {"t_ms": the wall clock in ms when the answer came
(the clock of the daemon's *_ms fields and of `date +%s%3N`), then every
field of the answer's .replication}.  It stops after the first sample that
shows the replica drained: connected, shipped_events >= N (--expect, 0),
backlog_events == 0, confirmations_waiting == 0 -- and, with --done, only
once FILE exists (the load that feeds the daemon has ended; before that a
quiet moment is not the end), shipped_events then at least the number FILE
holds, if it holds one (what the load stored, known only at its end).

Why a process of its own and not `arbiter query` in a loop: one connection
and a Python loop cost the two cores of the bench machine far less than a
process and a jq a sample, and sampling every 10 ms is then possible.

Exit 0 drained; 1 the daemon does not replicate (no .replication); 2 bad
usage; 3 --timeout seconds (default 600) passed, or no answer for 5 s.
/usr/bin/python3 with python3-zmq (./quickstart installs it).
"""
import argparse
import json
import os
import sys
import time

import zmq


def main():
    ap = argparse.ArgumentParser(description="sample arbiterd's health .replication")
    ap.add_argument("--query", required=True)
    ap.add_argument("--every", type=float, default=100.0, help="ms between samples")
    ap.add_argument("--expect", type=int, default=0, help="shipped_events at least, to be drained")
    ap.add_argument("--done", help="drained only once this file exists")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds")
    a = ap.parse_args()
    if a.every <= 0 or a.timeout <= 0:
        ap.error("--every and --timeout must be above 0")

    ctx = zmq.Context()
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.setsockopt(zmq.RCVTIMEO, 5000)
    s.connect(a.query)
    t_end = time.monotonic() + a.timeout
    out = sys.stdout
    while True:
        t_next = time.monotonic() + a.every / 1000.0
        s.send(b'{"op":"health"}')
        try:
            h = json.loads(s.recv())
        except zmq.Again:
            print("replica_watch: no answer from %s in 5 s" % a.query, file=sys.stderr)
            return 3
        r = h.get("replication")
        if not isinstance(r, dict):
            print("replica_watch: the daemon at %s does not replicate (no .replication in its health)" % a.query,
                  file=sys.stderr)
            return 1
        line = {"t_ms": int(time.time() * 1000)}
        line.update(r)
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
        out.flush()
        if (r.get("connected") and (r.get("shipped_events") or 0) >= a.expect and r.get("backlog_events") == 0
                and r.get("confirmations_waiting") == 0 and (not a.done or os.path.exists(a.done))):
            if not a.done:
                return 0
            with open(a.done) as f:
                words = f.read().split()
            if not words or not words[0].isdigit():
                return 0
            a.expect = max(a.expect, int(words[0]))
            if (r.get("shipped_events") or 0) >= a.expect:
                return 0
        now = time.monotonic()
        if now > t_end:
            print("replica_watch: not drained after %g s" % a.timeout, file=sys.stderr)
            return 3
        if t_next > now:
            time.sleep(t_next - now)


if __name__ == "__main__":
    sys.exit(main())
