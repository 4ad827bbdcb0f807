#!/usr/bin/python3
"""table_client.py -- a table program that streams one open log to arbiterd.

    table_client.py [--window N] [--timeout MS] [--pace MS] [--retries N] ENDPOINT LOG.jsonl

The same client as table_client.c, in Python (pyzmq; Debian's python3-zmq),
written from arbiterd(8) (WRITING A TABLE, SOCKETS, FRAMES AND FAIR SHARES)
alone.  What a careful table does:

  - one event per message and per frame, on a DEALER socket (a REQ socket
    adds a delimiter frame, and a two-frame message is `malformed`);
  - up to --window events in flight; replies come one per event, in the
    order sent, so a reply answers the oldest unanswered event (its seq is
    still checked);
  - no reply for --timeout ms, or a `gap` whose `expect` is one of our
    unanswered events: close the socket, connect a new one, resend
    everything unanswered in order (a stored event comes back `duplicate`,
    its first verdict in `stored`);
  - ZeroMQ's silent reconnection off (RECONNECT_IVL -1): a message queued
    for a dead daemon would reach the next one after a hole;
  - an event answered `illegal` citing `openlog:limits` was not taken (a
    header past the daemon's room for matches, or this connection past its
    room for connections: it is closed): wait, connect anew, send it again.

Each verdict is printed as it arrives, "seq status [(stored: status)]" and,
for a verdict with a rule or sentence, an indented "rule: sentence" line.
Exit 0 every event answered, 2 bad usage or an unreadable log, 3 no daemon
answered.
"""
import argparse
import json
import sys
import time

import zmq


def connect(ctx, endpoint):
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.RECONNECT_IVL, -1)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(endpoint)
    return s


def on_reply(raw, want, last_sent):
    """Print the verdict for seq `want`; say what the loop must do."""
    try:
        v = json.loads(raw)
    except ValueError:
        v = {}
    status = v.get("status")
    if status is None:
        print("table_client: a reply that is no verdict: %r" % raw[:200], file=sys.stderr)
        return "ignored"
    if status == "gap":
        expect = v.get("expect", -1)
        resend = want <= expect <= last_sent
        print("table_client: gap, the daemon expects seq %d%s" % (expect, ": resending what is unanswered"
                                                                    if resend else ""), file=sys.stderr)
        return "resend" if resend else "ignored"
    if v.get("seq") != want:
        print("table_client: a verdict for seq %s while waiting for %d: resending" % (v.get("seq"), want),
              file=sys.stderr)
        return "resend"
    stored = v.get("stored")
    said = stored if stored else v        # a duplicate: what the stored verdict said
    rule, msg = said.get("rule"), said.get("msg")
    if status == "illegal" and rule == "openlog:limits":
        print("table_client: the daemon cannot take the event now (%s): trying again" % msg, file=sys.stderr)
        return "later"
    print("%d %s%s" % (want, status, " (stored: %s)" % stored["status"] if stored and "status" in stored else ""))
    if rule or msg:
        print("    %s%s%s" % (rule or "", ": " if rule and msg else "", msg or ""))
    sys.stdout.flush()
    return "answered"


def stream(o, lines, seqs):
    ctx = zmq.Context()
    s = connect(ctx, o.endpoint)
    first = nxt = attempts = 0        # oldest unanswered; next to send
    try:
        while first < len(lines):
            while nxt < len(lines) and nxt - first < o.window:
                try:
                    s.send(lines[nxt], zmq.DONTWAIT)
                except zmq.Again:
                    break             # not connected yet: the timeout reconnects
                nxt += 1
                if o.pace:
                    time.sleep(o.pace / 1000)
            r = "resend"
            if s.poll(o.timeout, zmq.POLLIN):
                r = on_reply(s.recv(), seqs[first], seqs[max(first, nxt - 1)])
            else:
                attempts += 1
                if attempts > o.retries:
                    print("table_client: no daemon answered at %s" % o.endpoint, file=sys.stderr)
                    return 3
                print("table_client: no reply in %d ms: reconnecting, resending %d events" % (o.timeout, nxt - first),
                      file=sys.stderr)
            if r == "answered":
                first += 1
                attempts = 0
            elif r in ("resend", "later"):
                # a new socket: replies queued on the old one go with it
                s.close()
                if r == "later":
                    time.sleep(1)
                s = connect(ctx, o.endpoint)
                nxt = first
        return 0
    finally:
        s.close()
        ctx.term()


def main():
    ap = argparse.ArgumentParser(description="stream one open log to arbiterd, as a table does")
    ap.add_argument("--window", type=int, default=16)
    ap.add_argument("--timeout", type=int, default=2000, help="ms")
    ap.add_argument("--pace", type=int, default=0, help="ms between events")
    ap.add_argument("--retries", type=int, default=30)
    ap.add_argument("endpoint")
    ap.add_argument("log")
    o = ap.parse_args()
    if o.window < 1 or o.timeout < 1 or o.pace < 0 or o.retries < 0:
        ap.error("--window and --timeout must be 1 or more, --pace and --retries 0 or more")
    lines, seqs = [], []
    try:
        with open(o.log, "rb") as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                ev = json.loads(line)
                if not isinstance(ev.get("seq"), int):
                    raise ValueError("line %d is no event with a seq" % n)
                lines.append(line)
                seqs.append(ev["seq"])
    except (OSError, ValueError) as e:
        print("table_client: %s: %s" % (o.log, e), file=sys.stderr)
        return 2
    return stream(o, lines, seqs)


if __name__ == "__main__":
    sys.exit(main())
