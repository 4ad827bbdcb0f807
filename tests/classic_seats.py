#!/usr/bin/python3
"""classic_seats.py N DIR -- a legal classic Snap game of N players (2..8)
and the card database it is dealt from, written as DIR/seats<N>.json and
DIR/seats<N>.jsonl, for tests/e2e_classic_seats.sh.

Written from logformat/SPEC.md 7.6 and classic-snap.md, not from the
engine: the common-pile variant, p<N> deals so p1 starts and gets the
extra card; p1 flips a-1, p2 a-2 (a match); pN calls Snap (p1 if N is 2),
and with three or more players p1 calls too, 250 ms later (too late to
tie: it costs nothing, RULINGS A3); the table gives the pile to the first
caller; play goes on clockwise, each player flipping the top of their
stack, until every player but one has run out of cards to flip (the
simplest version: out), the table announcing each elimination but the
last, and claiming the winner.  The database holds exactly the deck:
a-1 a-2 (value "a"), z-1, and b3-1 .. bN-1, each of a value of its own."""
import json
import os
import sys


def game(n):
    ids = ["ann", "ben", "mia", "dan", "eve", "fay", "gus", "hal"]
    match = "classic-%dp" % n
    ev = []

    def e(**k):
        d = {"match": match, "seq": len(ev)}
        d.update(k)
        ev.append(d)

    e(type="match", by="table", format="classic", cards="seats%d@1" % n, hidden="open",
      players={"p%d" % (i + 1): {"id": ids[i]} for i in range(n)},
      rules={"dealer": n, "common_pile": True}, event={"table": "t%d" % n})
    stacks = {1: ["a-1", "z-1"], 2: ["a-2"]}
    for k in range(3, n + 1):
        stacks[k] = ["b%d-1" % k]
    for k in range(1, n + 1):
        e(type="deal", by="table", player="p%d" % k, cards=list(stacks[k]))
    e(type="flip", by="p1", at=1000, card=stacks[1].pop(0))
    e(type="flip", by="p2", at=2000, card=stacks[2].pop(0))
    taker = n if n > 2 else 1
    e(type="snap", by="p%d" % taker, at=2100)
    if n > 2:
        e(type="snap", by="p1", at=2350)
    e(type="take", by="table", player="p%d" % taker, cards=["a-2", "a-1"])
    stacks[taker] += ["a-2", "a-1"]
    value = lambda c: c.split("-")[0]
    alive, cur, at, top = list(range(1, n + 1)), 2, 3000, None
    while len(alive) > 1:
        nxt = alive[(alive.index(cur) + 1) % len(alive)]
        if not stacks[nxt]:
            if len(alive) > 2:   # the last elimination ends the game: the claim says it
                e(type="out", by="table", player="p%d" % nxt)
            alive.remove(nxt)
            continue
        c = stacks[nxt].pop(0)
        at += 1000
        assert top is None or value(top) != value(c), "the game was meant to have one match"
        top = c
        e(type="flip", by="p%d" % nxt, at=at, card=c)
        cur = nxt
    e(type="claim", by="table", winner="p%d" % alive[0])
    return ev


def database(n):
    cards = [{"id": c, "name": c, "classic": {"value": c.split("-")[0]}}
             for c in ["a-1", "a-2", "z-1"] + ["b%d-1" % k for k in range(3, n + 1)]]
    return {"set": "seats%d" % n, "version": "1", "cards": cards}


def main(n, out):
    with open(os.path.join(out, "seats%d.json" % n), "w") as f:
        json.dump(database(n), f)
    with open(os.path.join(out, "seats%d.jsonl" % n), "w") as f:
        for x in game(n):
            f.write(json.dumps(x, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
