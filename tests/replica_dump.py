"""replica_dump.py -- every stored event of a running arbiterd, as its query
socket gives them (the `list` and `events` ops, judge view), one line each,
for tests/e2e_replicate.sh to compare byte for byte with PostgreSQL's rows.
An independent client (pyzmq), not arbiter's code.

usage: replica_dump.py QUERY_EP
Prints "match seq received peer event verdict chain state link" (the bytes
in lowercase hex) per event, in no particular order; exit 1 when the daemon
does not answer.
"""
import json
import sys

import zmq


def main():
    ctx = zmq.Context()
    s = ctx.socket(zmq.DEALER)
    s.setsockopt(zmq.LINGER, 0)
    s.connect(sys.argv[1])

    def ask(req):
        s.send(json.dumps(req).encode())
        if not s.poll(30000):
            sys.exit("the daemon did not answer " + json.dumps(req))
        frames = s.recv_multipart()
        return json.loads(frames[-1])

    matches, cursor = [], None
    while True:
        req = {"op": "list"}
        if cursor is not None:
            req["after"] = cursor
        rep = ask(req)
        matches += [m["match"] for m in rep.get("matches", [])]
        cursor = rep.get("next")
        if not cursor:
            break
    out = sys.stdout
    for m in matches:
        start = 0
        while start is not None:
            rep = ask({"op": "events", "match": m, "view": "judge", "from": start})
            for e in rep["events"]:
                out.write(" ".join(str(x) for x in (m, e["seq"], e["received"], e["peer"], e["raw"]["event"],
                                                      e["raw"]["verdict"], e["chain"], e["state"], e["link"])))
                out.write("\n")
            start = rep.get("next")


main()
