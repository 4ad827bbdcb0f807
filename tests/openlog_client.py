#!/usr/bin/python3
"""openlog_client.py -- an independent client of the arbiterd wire protocol.

Written from openlog.md (the wire contract: sections 2, 3, 6, 7, 8, 9) alone,
without reading any source of the server or of its libraries, as the contract's
independent check: if this client passes, the page was enough to write a
table, a spectator and a query tool against the daemon; every place where it
fails is a deviation of the server from the page (or a gap in the page).

    /usr/bin/python3 openlog_client.py --ingest EP --feed EP --query EP
                                       [--arbiter PATH] LOG.jsonl

LOG.jsonl is one open log (section 2: one JSON object per line) as a table
sends it: the header first, seq 0, 1, 2, ... in order.  The client
  1. subscribes to the feed (section 9: PUB, two frames, topic = match id,
     body = {event, verdict} in the public view) for the log's match;
  2. streams the log to the ingest ROUTER from a DEALER, one MessagePack map
     per message (section 2), several events in flight, and reads one verdict
     per event, in the order sent (sections 8, 9), printing each verdict as
     "seq status rule msg";
  3. checks every feed message for what the public view must not show:
     no nonce, no unrevealed card identity (section 6: the hrefs of bench,
     select and lock; a header's decklist is left out -- the page does not
     say whether it is public -- and what the server does is reported);
  4. asks the query ROUTER health, match, events (public, judge, p1), state
     (public, judge), list (with and without filters), verify (the whole log,
     and a renamed copy that must not be stored) and an unknown op;
  5. resends events after the game to check duplicate/stored, a changed one
     for conflict, a far-ahead seq for gap/expect, a truncated MessagePack
     map and an unknown type for malformed (section 8).
Advanced logs (header `format: "advanced"`) are read from logformat/SPEC.md
as well (5, 6, 7.2, 7.3, 8, 9) and README.md (`arbiter replay --json`, the
daemon's ops), still without any source: the hidden zone is the hand, cards
enter it by `select` (hrefs) and leave it revealed by `summon`, `spell`,
`counter`, `evolve`, `prime` and `discard`.  For them the client also checks
  - the public view (feed, events): every `select` href is null (open and
    announced mode) or the commitment as sent (commit mode), never a card id,
    even of a card shown before (SPEC 9); no nonce; no decklist in the header;
  - the p1 and p2 views of `events` (SPEC 9): the player's own select hrefs and
    decklist as sent, the other's as the public view shows them, no nonce of
    the other player;
  - `state` in every view at several seqs (after the opening selections, at
    each illegal event, at each accepted `claim` with `lp`, in the middle, at
    the end), against the hand the client keeps from the log itself: public
    `players.pN.hand` = {count: n, cards: [null] * n}; judge: the card ids
    (open mode), "committed" (commit mode), null (announced); pN: its own hand
    as the judge sees it, the other's as the public does; `deck` = 40 - cards
    selected; an accepted `claim`'s `lp` is the board's LP; the last board's
    `over`/`winner` are the match summary's;
  - with --arbiter PATH, that each `state` board is `arbiter replay FILE --at
    SEQ --view V --json` (README: "as arbiter replay --json draws it").
For every format: an accepted `concede` by pX makes the other player the
match's winner (openlog 7: concede; the summary's winner); with --arbiter,
the live verdicts are `arbiter verify --json`'s (openlog 10: batch and live
identical), the summary's status, winner, finished, events, counts and
unverified are that report's, and so is the `verify` op's report (README).
Exit 0 when everything matched the contract, 1 with the list of every
deviation otherwise, 2 on bad usage or when the match is already stored.
Lines starting with "#" are the client's commentary; "NOTE" lines are readings of places where the page is
ambiguous (both readings accepted), "DEVIATION" lines make the run fail.
Only python3-zmq and python3-msgpack (Debian packages) are needed.
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time

import msgpack
import zmq

STATUSES = ("ok", "warning", "illegal", "mismatch", "duplicate", "conflict",
            "gap", "malformed")
# statuses that are a ruling on the game: section 8 says `rule` cites the
# section that decides it; for the bookkeeping statuses (duplicate,
# conflict, gap, malformed) the page marks `rule` optional without saying when.
RULED = ("warning", "illegal", "mismatch")
# section 6: "Revealing events (flip, unlock, spell, counter, promote ...)
# always carry the public card"; evolve and prime name a public card too (7).
# SPEC 7.2 adds the Advanced ones: summon and discard (a card leaves the hand
# revealed, with `card`).
REVEALING = ("flip", "unlock", "spell", "counter", "promote", "evolve", "prime",
             "summon", "discard")
# SPEC 7.2: the events that take a card out of an Advanced hand
ADV_FROM_HAND = ("summon", "spell", "counter", "evolve", "prime", "discard")
RULE_RE = re.compile(r"^(snap|advanced|master|openlog):[A-Za-z0-9._-]+$")
MATCH_RE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
TIMEOUT_MS = 5000


class Report:
    def __init__(self):
        self.deviations = []
        self.notes = []
        self.passed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            line = what + (": " + detail if detail else "")
            self.deviations.append(line)
            print("# DEVIATION " + line, flush=True)
        return cond

    def fail(self, what, detail=""):
        return self.check(False, what, detail)

    def note(self, text):
        self.notes.append(text)
        print("# NOTE " + text, flush=True)

    def info(self, text):
        print("# " + text, flush=True)


R = Report()


def short(obj, n=300):
    s = repr(obj)
    return s if len(s) <= n else s[:n] + "..."


# ---------------------------------------------------------------- hidden info

def hidden_hrefs(ev):
    """The hrefs of one event (section 7): [(path, value)]."""
    out = []
    t = ev.get("type")
    if t == "bench":
        if "slots" in ev and isinstance(ev["slots"], list):
            out += [("slots[%d]" % i, v) for i, v in enumerate(ev["slots"])]
        if "slot" in ev and "card" in ev:
            out.append(("card", ev["card"]))
    elif t in ("select", "lock"):
        if isinstance(ev.get("cards"), list):
            out += [("cards[%d]" % i, v) for i, v in enumerate(ev["cards"])]
    return out


def walk(obj, path="", skip_deck=True):
    """Yield (path, key, value) for every value in a nested map/list."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = "%s.%s" % (path, k) if path else str(k)
            if skip_deck and k == "deck":
                continue
            yield p, k, v
            yield from walk(v, p, skip_deck)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            p = "%s[%d]" % (path, i)
            yield p, None, v
            yield from walk(v, p, skip_deck)


def strings(obj):
    return [(p, v) for p, _k, v in walk(obj) if isinstance(v, str)]


class Secrets:
    """What the public view must not show, from the original log."""

    def __init__(self, events):
        self.mode = events[0].get("hidden") if events else None
        self.format = events[0].get("format") if events else None
        self.universe = set()        # every card id the log mentions
        self.nonces = set()
        self.revealed_at = {}        # card id -> first seq it was shown
        self.hidden_at = {}          # card id -> first seq it went in an href
        players = events[0].get("players") if events else None
        if isinstance(players, dict):
            for p in players.values():
                deck = p.get("deck") if isinstance(p, dict) else None
                if isinstance(deck, dict):
                    for lst in deck.values():
                        if isinstance(lst, list):
                            self.universe.update(x for x in lst if isinstance(x, str))
        for ev in events:
            seq = ev.get("seq")
            for _p, k, v in walk(ev, skip_deck=False):
                if k == "nonce" and isinstance(v, str):
                    self.nonces.add(v)
            for _p, v in hidden_hrefs(ev):
                if not isinstance(v, str):
                    continue
                self.universe.add(v)
                if self.mode == "open":
                    self.hidden_at.setdefault(v, seq)
                else:
                    # 6: in commit mode a hidden href is {"c": hex}, in
                    # announced mode null; a card id in that place is a card
                    # put there face up (e.g. the Snap 18 lever
                    # bench_facedown), public from this event on.
                    self.revealed_at.setdefault(v, seq)
            if ev.get("type") in REVEALING and isinstance(ev.get("card"), str):
                self.universe.add(ev["card"])
                self.revealed_at.setdefault(ev["card"], seq)

    def unrevealed(self, seq):
        """Card ids not shown publicly by event `seq` (inclusive)."""
        return {c for c in self.universe
                if c not in self.revealed_at or self.revealed_at[c] > seq}


def leaks(obj, secrets, seq, where):
    """Deviation strings for nonces and unrevealed card ids in obj."""
    bad = []
    hide = secrets.unrevealed(seq)
    for p, k, v in walk(obj):
        if k == "nonce" and v is not None:
            bad.append("%s: %s carries a nonce (%s)" % (where, p, short(v, 60)))
    for p, s in strings(obj):
        if s in secrets.nonces:
            bad.append("%s: %s is a nonce of the log" % (where, p))
        if s in hide:
            bad.append("%s: %s shows unrevealed card %r" % (where, p, s))
        elif " " in s:
            for c in hide:
                if c in s:
                    bad.append("%s: %s names unrevealed card %r in %r" % (where, p, c, s))
    return bad


def check_public_event(pub, orig, secrets, where):
    """One event as the public view shows it (feed, events view=public)."""
    if not R.check(isinstance(pub, dict), where + " is a map", short(pub)):
        return
    seq = orig.get("seq")
    for b in leaks(pub, secrets, seq, where):
        R.fail("public view leaks (9: no unrevealed identities, no nonces)", b)
    if secrets.format == "advanced":
        check_adv_hidden(pub, orig, None, where)
    # hrefs: null, or a commitment {"c": hex} and nothing else -- never a card id
    for path, v in hidden_hrefs(pub):
        ok = v is None or (isinstance(v, dict) and set(v) == {"c"})
        if isinstance(v, str) and v not in secrets.unrevealed(seq):
            ok = True            # a card already revealed publicly
        R.check(ok, "public href is null or a commitment (6, 9)",
                "%s %s = %s" % (where, path, short(v, 120)))
    # a revealing event keeps its public card (6)
    if orig.get("type") in REVEALING and "card" in orig:
        R.check(pub.get("card") == orig["card"],
                "public view keeps the card a revealing event shows (6)",
                "%s: card %r, the log says %r" % (where, pub.get("card"), orig["card"]))
    # everything else of the envelope is as sent
    for k in ("match", "seq", "type", "by"):
        R.check(pub.get(k) == orig.get(k), "public event keeps the envelope (3)",
                "%s: %s = %r, sent %r" % (where, k, pub.get(k), orig.get(k)))


# ---------------------------------------------------------------- Advanced

def commitment(card, nonce):
    """SPEC 7: BLAKE2b-256(card id || 0x00 || nonce bytes), hex."""
    try:
        nb = bytes.fromhex(nonce)
    except (TypeError, ValueError):
        return None
    return hashlib.blake2b(card.encode() + b"\x00" + nb, digest_size=32).hexdigest()


_own_nonce_noted = set()


def check_adv_hidden(got, orig, me, where):
    """An Advanced event as view `me` shows it (None: public; "p1"/"p2").

    SPEC 9: public -- no card id a hidden zone holds (hrefs null), no nonce, no
    decklist, commitments {"c": hex} stay; pN -- that player's own hidden cards
    and decklist too."""
    if not isinstance(got, dict):
        return
    view = me or "public"
    t = orig.get("type")
    if t == "match" and isinstance(orig.get("players"), dict):
        gp = got.get("players") if isinstance(got.get("players"), dict) else {}
        for p, x in orig["players"].items():
            g = gp.get(p) if isinstance(gp.get(p), dict) else {}
            R.check(g.get("id") == (x or {}).get("id"), "the header keeps the players' ids (4)",
                    "%s: players.%s.id = %r" % (where, p, g.get("id")))
            if p == me:
                R.check(g.get("deck") == x.get("deck"),
                        "the %s view shows %s's own decklist (SPEC 9)" % (view, p),
                        "%s: players.%s.deck = %s" % (where, p, short(g.get("deck"), 80)))
            else:
                R.check(g.get("deck") is None,
                        "the %s view shows no decklist of %s (SPEC 9)" % (view, p),
                        "%s: players.%s.deck = %s" % (where, p, short(g.get("deck"), 80)))
    if t == "select" and isinstance(orig.get("cards"), list):
        gc = got.get("cards")
        if orig.get("by") == me:
            R.check(gc == orig["cards"],
                    "the %s view shows %s's own select hrefs as sent (SPEC 9)" % (view, me),
                    "%s: cards = %s, sent %s" % (where, short(gc, 120), short(orig["cards"], 120)))
        elif R.check(isinstance(gc, list) and len(gc) == len(orig["cards"]),
                     "the %s view keeps one href per card selected (SPEC 9: counts)" % view,
                     "%s: cards = %s" % (where, short(gc, 120))):
            for i, (g, o) in enumerate(zip(gc, orig["cards"])):
                want = o if isinstance(o, dict) else None
                R.check(g == want, "the %s view hides %s's hand: a select href is null, or "
                        "the commitment as sent (SPEC 9, 7.2)" % (view, orig.get("by")),
                        "%s: cards[%d] = %s, sent %s" % (where, i, short(g, 90), short(o, 90)))
    if "nonce" in orig:
        if orig.get("by") != me:
            R.check(got.get("nonce") is None, "the %s view carries no nonce of another "
                    "player (SPEC 9: public view plus the player's own)" % view,
                    "%s: nonce %s" % (where, short(got.get("nonce"), 40)))
        elif view not in _own_nonce_noted:
            _own_nonce_noted.add(view)
            R.note("the %s view %s the player's own nonces (SPEC 9 says the player view adds "
                   "'their own hidden cards', not whether their nonces) -- accepted"
                   % (view, "keeps" if got.get("nonce") == orig["nonce"] else "leaves out"))
    if me is not None:
        if t in REVEALING and "card" in orig:
            R.check(got.get("card") == orig["card"],
                    "the %s view keeps the card a revealing event shows (6, 7.2)" % view,
                    "%s: card %r, sent %r" % (where, got.get("card"), orig["card"]))
        for k in ("match", "seq", "type", "by"):
            R.check(got.get(k) == orig.get(k), "the %s view keeps the envelope (3)" % view,
                    "%s: %s = %r, sent %r" % (where, k, got.get(k), orig.get(k)))


REPLAY_META = ("match", "seq", "view", "verdicts", "note")


class AdvHands:
    """The hands and decks as the log itself says they stand, after each seq.

    SPEC 7.2: `select` puts its hrefs in the hand, a revealing event from the
    hand (summon, spell, counter, evolve, prime, discard) takes the card out;
    only events the engine applied (ok, warning) count (8)."""

    def __init__(self, events, verdicts, mode):
        self.mode = mode
        self.after = {}
        self.problems = []
        hand = {"p1": [], "p2": []}
        deck = {}
        for p in ("p1", "p2"):
            try:
                deck[p] = len(events[0]["players"][p]["deck"]["main"])
            except (KeyError, TypeError):
                deck[p] = None
        for ev, v in zip(events, verdicts):
            seq, by, t = ev.get("seq"), ev.get("by"), ev.get("type")
            applied = isinstance(v, dict) and v.get("status") in ("ok", "warning")
            if applied and by in hand:
                if t == "select" and isinstance(ev.get("cards"), list):
                    hand[by] += ev["cards"]
                    if deck[by] is not None:
                        deck[by] -= len(ev["cards"])
                elif t in ADV_FROM_HAND and isinstance(ev.get("card"), str):
                    self._take(hand[by], ev, seq)
            self.after[seq] = ({p: list(h) for p, h in hand.items()}, dict(deck))

    def _take(self, h, ev, seq):
        card = ev["card"]
        if self.mode == "commit":
            c = commitment(card, ev.get("nonce", ""))
            want = {"c": c}
        elif self.mode == "open":
            want = card
        else:
            want = None
        if want in h:
            h.remove(want)
        else:
            self.problems.append("seq %s: %s's %s of %s opens no card of the hand the log "
                                 "gives, yet the engine accepted it" % (seq, ev.get("by"),
                                                                       ev.get("type"), card))

    def expect(self, seq, owner, view):
        """The `hand.cards` a view must show for owner's hand after seq."""
        hands, _deck = self.after[seq]
        h = hands[owner]
        if view == "public" or (view in ("p1", "p2") and view != owner):
            return [None] * len(h)
        if self.mode == "open":
            return list(h)
        if self.mode == "commit":
            return ["committed"] * len(h)
        return [None] * len(h)


def board_of(r):
    """The board in a state reply: r["state"], or r itself (README 'state')."""
    if isinstance(r, dict) and isinstance(r.get("state"), dict):
        return r["state"]
    if isinstance(r, dict) and isinstance(r.get("players"), dict):
        return {k: v for k, v in r.items() if k != "ok"}
    return None


def replay_board(arbiter, log, at, view):
    try:
        cp = subprocess.run([arbiter, "replay", log, "--at", str(at), "--view", view, "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if cp.returncode != 0:
        return None, "exit %d: %s" % (cp.returncode, cp.stderr.decode(errors="replace").strip()[:200])
    try:
        return json.loads(cp.stdout.decode()), None
    except ValueError as e:
        return None, "not JSON: %s" % e


def check_state_advanced(q, M, events, verdicts, secrets, summary, arbiter=None, log=None):
    N = len(events)
    hands = AdvHands(events, verdicts, secrets.mode)
    for pr in hands.problems:
        R.note("hand kept from the log: " + pr)
    opening = [ev["seq"] for ev in events if ev.get("type") == "select"][:2]
    points = set()
    if opening:
        points.add(max(opening))
    for ev, v in zip(events, verdicts):
        if isinstance(v, dict) and v.get("status") in ("illegal", "mismatch"):
            points.add(ev["seq"])
        if (ev.get("type") == "claim" and isinstance(ev.get("lp"), dict) and isinstance(v, dict)
                and v.get("status") in ("ok", "warning")):
            points.add(ev["seq"])
    points.update({N // 2, N - 1})
    points = sorted(p for p in points if 0 < p < N)
    R.info("state (advanced) checked at seqs %s in views public, p1, p2, judge" % points)
    last = None
    for at in points:
        expect_hands, expect_deck = hands.after[at]
        for view in ("public", "p1", "p2", "judge"):
            where = "state view=%s at %d" % (view, at)
            r = q.ask({"op": "state", "match": M, "at": at, "view": view}, where)
            if r is None or not R.check(r.get("ok") is True, "state answers ok:true", short(r)):
                continue
            b = board_of(r)
            if not R.check(isinstance(b, dict) and isinstance(b.get("players"), dict),
                           "the state reply holds a board with players (README: as "
                           "arbiter replay --json draws it)", "%s: %s" % (where, short(r, 300))):
                continue
            R.check(r.get("seq", b.get("seq")) == at and b.get("seq", at) == at,
                    "the state is the board after the event asked for (SPEC 9)",
                    "%s: seq %r (reply) / %r (board)" % (where, r.get("seq"), b.get("seq")))
            if view == "public":
                for x in leaks(b, secrets, at, where):
                    R.fail("the public state shows no hidden identity (9)", x)
            for p in ("p1", "p2"):
                pl = b["players"].get(p)
                hd = pl.get("hand") if isinstance(pl, dict) else None
                want = hands.expect(at, p, view)
                if not R.check(isinstance(hd, dict) and isinstance(hd.get("cards"), list),
                               "an Advanced board has players.pN.hand.{count,cards} (README)",
                               "%s: players.%s.hand = %s" % (where, p, short(hd, 120))):
                    continue
                R.check(hd.get("count") == len(want) == len(hd["cards"]),
                        "hand.count is the hand the log gives, one entry a card (README, 7.2)",
                        "%s: %s hand count %r, %d entries, the log gives %d" %
                        (where, p, hd.get("count"), len(hd["cards"]), len(want)))
                sortkey = lambda x: json.dumps(x, sort_keys=True)
                if view == "public" or (view != "judge" and view != p):
                    R.check(all(c is None for c in hd["cards"]),
                            "the %s view shows no card identity in %s's hand (README: "
                            "HIDDEN null when the view may not see it)" % (
                                "public" if view == "public" else "other player's", p),
                            "%s: players.%s.hand.cards = %s" % (where, p, short(hd["cards"], 200)))
                else:
                    R.check(sorted(hd["cards"], key=sortkey) == sorted(want, key=sortkey),
                            "the %s view shows %s's hand as the engine knows it (README: card "
                            "ids in open mode, \"committed\" in commit mode, null announced)"
                            % (view, p),
                            "%s: players.%s.hand.cards = %s, the log gives %s" %
                            (where, p, short(hd["cards"], 200), short(want, 200)))
                if expect_deck.get(p) is not None:
                    R.check(pl.get("deck") == expect_deck[p],
                            "deck is the cards not yet selected (README: deck count)",
                            "%s: players.%s.deck = %r, the log gives %d" %
                            (where, p, pl.get("deck"), expect_deck[p]))
            ev = events[at]
            if (ev.get("type") == "claim" and isinstance(ev.get("lp"), dict)
                    and isinstance(verdicts[at], dict)
                    and verdicts[at].get("status") in ("ok", "warning")):
                for p, lp in ev["lp"].items():
                    pl = b["players"].get(p)
                    R.check(isinstance(pl, dict) and pl.get("lp") == lp,
                            "an accepted claim's lp is the board's (SPEC 7.2: mismatch otherwise)",
                            "%s: players.%s.lp = %r, claim %r" % (
                                where, p, pl.get("lp") if isinstance(pl, dict) else None, lp))
            if arbiter and log:
                want_b, err = replay_board(arbiter, log, at, view)
                if want_b is None:
                    R.note("%s: arbiter replay failed (%s); board not compared" % (where, err))
                else:
                    # README: `state` is "the board ... as arbiter replay --json
                    # draws it"; the audit's `board` is "replay --json's board
                    # keys".  Whether the replay's own keys (match, seq, view,
                    # verdicts, note) are part of the board is not said.
                    meta = [k for k in REPLAY_META if k in want_b and k not in b]
                    if meta and "replay-meta" not in _own_nonce_noted:
                        _own_nonce_noted.add("replay-meta")
                        R.note("the state board leaves out arbiter replay --json's keys %s "
                               "(README does not say whether they belong to 'the board'; "
                               "seq is in the reply) -- accepted" % meta)
                    diff = sorted(k for k in set(want_b) | set(b)
                                  if k not in meta and want_b.get(k) != b.get(k))
                    R.check(not diff, "the state is the board arbiter replay --json draws "
                            "(README: state)", "%s: keys %s differ: daemon %s, replay %s" % (
                                where, diff, short({k: b.get(k) for k in diff}, 200),
                                short({k: want_b.get(k) for k in diff}, 200)))
            if at == N - 1 and view == "judge":
                last = b
    if last is not None and isinstance(summary, dict):
        R.check(summary.get("winner") == last.get("winner"),
                "the match winner is the last board's (9: summary)",
                "summary %r, board %r" % (summary.get("winner"), last.get("winner")))
        if "finished" in summary:
            R.check(summary.get("finished") == last.get("over"),
                    "the match is finished when the last board is over",
                    "summary finished %r, board over %r" % (summary.get("finished"), last.get("over")))


# ---------------------------------------------------------------- verdicts

def check_verdict(v, where, match=None, seq=None, undecodable=False):
    """A verdict map as section 8 describes it."""
    if not R.check(isinstance(v, dict), where + ": the verdict is a map", short(v)):
        return False
    st = v.get("status")
    R.check(st in STATUSES, where + ": status is one of section 8", repr(st))
    if undecodable and ("match" not in v or "seq" not in v):
        R.note("%s: a verdict for bytes that do not decode has no match/seq "
               "(%s); section 8 lists both as required and does not say what "
               "they are when the event cannot be read -- accepted" %
               (where, ", ".join(k for k in ("match", "seq") if k not in v)))
    else:
        R.check("match" in v and "seq" in v, where + ": verdict has match and seq (8)",
                short(v))
        if match is not None:
            R.check(v.get("match") == match, where + ": verdict match is the event's",
                    "%r != %r" % (v.get("match"), match))
        if seq is not None:
            R.check(v.get("seq") == seq, where + ": verdict seq is the event's",
                    "%r != %r" % (v.get("seq"), seq))
    if st != "ok" and st in STATUSES:
        R.check(isinstance(v.get("msg"), str) and v["msg"].strip() != "",
                where + ": a %s verdict has a msg sentence (8)" % st, short(v))
        if st in RULED:
            R.check(isinstance(v.get("rule"), str), where + ": a %s verdict cites a rule (8)" % st,
                    short(v))
        elif "rule" not in v:
            R.note("%s: %s verdict without `rule` (8 marks rule optional and "
                   "does not say for which statuses) -- accepted" % (where, st))
    if "rule" in v:
        R.check(isinstance(v["rule"], str) and RULE_RE.match(v["rule"]) is not None,
                where + ": rule is <format>:<section> (8)", repr(v.get("rule")))
    if st == "duplicate":
        R.check(isinstance(v.get("stored"), dict), where + ": duplicate carries stored (8)",
                short(v))
    if st == "gap":
        R.check(isinstance(v.get("expect"), int) and not isinstance(v.get("expect"), bool),
                where + ": gap carries expect (8)", short(v))
    return True


def vline(v):
    if not isinstance(v, dict):
        return repr(v)
    return "%s %s %s %s" % (v.get("seq", "-"), v.get("status", "-"),
                            v.get("rule") or "-", v.get("msg") or "")


def decode(frame):
    """MessagePack first (section 2), JSON second; (obj, encoding)."""
    try:
        return msgpack.unpackb(frame, raw=False), "msgpack"
    except Exception:
        pass
    try:
        return json.loads(frame.decode("utf-8")), "json"
    except Exception:
        return None, "undecodable"


# ---------------------------------------------------------------- ingest

class Feed:
    def __init__(self, ctx, ep, match):
        self.match = match
        self.sock = ctx.socket(zmq.SUB)
        self.sock.setsockopt(zmq.LINGER, 0)
        self.sock.connect(ep)
        self.sock.setsockopt(zmq.SUBSCRIBE, match.encode())
        self.got = []          # (frames, body) for this match exactly
        self.encodings = set()

    def pump(self, wait_ms=0):
        n = 0
        while self.sock.poll(wait_ms):
            fr = self.sock.recv_multipart()
            wait_ms = 0
            if fr and fr[0] != self.match.encode():
                continue        # a longer match id sharing the prefix
            body, enc = decode(fr[1]) if len(fr) > 1 else (None, "missing")
            self.encodings.add(enc)
            self.got.append((fr, body))
            n += 1
        return n

    def drain(self, quiet_ms=500, total_ms=3000):
        end = time.monotonic() + total_ms / 1000.0
        while time.monotonic() < end:
            if self.pump(quiet_ms) == 0:
                break


def stream(ctx, ep, frames, window, feed=None, label="event"):
    """Send frames from one DEALER, `window` in flight; return replies in order."""
    d = ctx.socket(zmq.DEALER)
    d.setsockopt(zmq.LINGER, 0)
    d.connect(ep)
    replies = []
    sent = 0
    maxflight = 0
    while len(replies) < len(frames):
        while sent < len(frames) and sent - len(replies) < window:
            d.send(frames[sent])
            sent += 1
        maxflight = max(maxflight, sent - len(replies))
        deadline = time.monotonic() + TIMEOUT_MS / 1000.0
        got = False
        while time.monotonic() < deadline:
            if feed is not None:
                feed.pump(0)
            if d.poll(50):
                got = True
                break
        if not got:
            R.fail("every %s gets a verdict (8, 9)" % label,
                   "no reply to %s #%d within %d ms" % (label, len(replies), TIMEOUT_MS))
            break
        replies.append(d.recv_multipart())
    d.close()
    return replies, maxflight


def reply_body(fr, where):
    if len(fr) != 1:
        R.note("%s: the reply has %d frames %s; section 9 says one event per "
               "message, one frame, but not how many frames a reply has -- the "
               "last frame is read" % (where, len(fr), short([f[:8] for f in fr])))
    body, enc = decode(fr[-1])
    R.check(enc == "msgpack", where + ": the verdict is a MessagePack map (2)",
            "decoded as %s: %r" % (enc, fr[-1][:60]))
    return body


# ---------------------------------------------------------------- query

class Query:
    def __init__(self, ctx, ep):
        self.ctx, self.ep = ctx, ep
        self.encoding = None

    def _ask(self, payload):
        s = self.ctx.socket(zmq.DEALER)
        s.setsockopt(zmq.LINGER, 0)
        s.connect(self.ep)
        s.send(payload)
        fr = s.recv_multipart() if s.poll(TIMEOUT_MS) else None
        s.close()
        return fr

    def probe(self):
        """Which request encodings are answered, and in what."""
        found = {}
        for enc, payload in (("msgpack", msgpack.packb({"op": "health"})),
                             ("json", json.dumps({"op": "health"}).encode())):
            fr = self._ask(payload)
            if fr is None:
                found[enc] = None
                continue
            body, renc = decode(fr[-1])
            found[enc] = (len(fr), renc, body)
        R.info("query encodings: " + ", ".join(
            "%s request -> %s" % (k, "no reply" if v is None else
                                  "%d frame(s), %s reply" % (v[0], v[1]))
            for k, v in found.items()))
        if found.get("msgpack"):
            self.encoding = "msgpack"
        elif found.get("json"):
            self.encoding = "json"
            R.note("the query socket answers JSON but not MessagePack requests")
        R.check(self.encoding is not None, "the query socket answers {op: health} (9)",
                "no reply in MessagePack nor JSON")
        if found.get("msgpack"):
            R.check(found["msgpack"][1] == "msgpack",
                    "a MessagePack request gets a MessagePack reply",
                    "got %s" % found["msgpack"][1])
        return found

    def ask(self, req, where):
        payload = (msgpack.packb(req) if self.encoding == "msgpack"
                   else json.dumps(req).encode())
        fr = self._ask(payload)
        if not R.check(fr is not None, where + ": the query is answered (9)",
                       "no reply to %s within %d ms" % (short(req, 120), TIMEOUT_MS)):
            return None
        if len(fr) != 1:
            R.note("%s: query reply has %d frames; the last is read" % (where, len(fr)))
        body, _enc = decode(fr[-1])
        if not R.check(isinstance(body, dict) and isinstance(body.get("ok"), bool),
                       where + ": reply is {ok: bool, ...} (9)", short(body)):
            return None
        if body["ok"] is False:
            R.check(isinstance(body.get("error"), str) and body["error"].strip() != "",
                    where + ": ok:false carries an error sentence (9)", short(body))
        return body


def find_list_of_maps(body, want_key):
    """The first list in body (depth <= 2) whose items are maps with want_key."""
    cands = []
    for p, _k, v in walk(body, skip_deck=False):
        if p.count(".") > 2 or not isinstance(v, list) or not v:
            continue
        if all(isinstance(x, dict) for x in v) and any(want_key(x) for x in v):
            cands.append((p, v))
    return cands[0] if cands else (None, None)


def find_key(body, key, depth=1):
    """body[key], or the value of key in a nested map up to `depth` levels."""
    if isinstance(body, dict):
        if key in body:
            return body[key], key
        if depth > 0:
            for k, v in body.items():
                if isinstance(v, dict):
                    r, p = find_key(v, key, depth - 1)
                    if p is not None:
                        return r, "%s.%s" % (k, p)
    return None, None


def event_of(item):
    if isinstance(item, dict) and isinstance(item.get("event"), dict):
        return item["event"], item.get("verdict")
    return item, None


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ingest", required=True)
    ap.add_argument("--feed", required=True)
    ap.add_argument("--query", required=True)
    ap.add_argument("--window", type=int, default=8, help="events in flight (default 8)")
    ap.add_argument("--arbiter", help="the arbiter command: compare the live verdicts, the "
                    "summary and the verify op with `arbiter verify --json`, and each Advanced "
                    "state board with `arbiter replay --json` (needs ARBITER_CARDS or its default)")
    ap.add_argument("log")
    a = ap.parse_args()

    try:
        with open(a.log, encoding="utf-8") as f:
            events = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        print("openlog_client: cannot read %s: %s" % (a.log, e), file=sys.stderr)
        return 2
    if not events or not isinstance(events[0], dict) or events[0].get("type") != "match":
        print("openlog_client: %s does not start with a header" % a.log, file=sys.stderr)
        return 2
    if [ev.get("seq") if isinstance(ev, dict) else None for ev in events] != list(range(len(events))):
        print("openlog_client: %s is not seq 0, 1, 2, ... in order; this client "
              "streams logs as a table sends them" % a.log, file=sys.stderr)
        return 2
    M = events[0].get("match")
    if not isinstance(M, str) or not MATCH_RE.match(M):
        print("openlog_client: bad match id %r" % M, file=sys.stderr)
        return 2
    N = len(events)
    secrets = Secrets(events)
    R.info("log %s: match %s, %d events, hidden mode %s" % (a.log, M, N, secrets.mode))

    ctx = zmq.Context()

    # -- 1. feed first (a PUB drops what is sent before the subscription)
    feed = Feed(ctx, a.feed, M)
    time.sleep(1.0)

    # -- 2. stream the log
    frames = [msgpack.packb(ev) for ev in events]
    big = [i for i, fr in enumerate(frames) if len(fr) > 65536]
    if big:
        R.note("events %s exceed 64 KiB (2)" % big)
    replies, maxflight = stream(ctx, a.ingest, frames, max(1, a.window), feed)
    R.info("ingest: %d events sent, up to %d in flight, %d replies" % (N, maxflight, len(replies)))
    verdicts = []
    for i, fr in enumerate(replies):
        v = reply_body(fr, "verdict #%d" % i)
        where = "verdict of seq %s" % events[i].get("seq")
        if check_verdict(v, where, M, events[i].get("seq")):
            R.check(v.get("seq") == events[i].get("seq"),
                    "replies come in the order sent (9)",
                    "reply #%d is for seq %r, sent seq %r" % (i, v.get("seq"), events[i].get("seq")))
        verdicts.append(v)
        print(vline(v), flush=True)
    if verdicts and isinstance(verdicts[0], dict) and verdicts[0].get("status") == "duplicate":
        print("openlog_client: match %s is already stored (seq 0 came back "
              "duplicate); run against a store without it" % M, file=sys.stderr)
        return 2
    live = {v.get("seq"): v for v in verdicts if isinstance(v, dict)}
    tally = {}
    for v in verdicts:
        if isinstance(v, dict):
            tally[v.get("status")] = tally.get(v.get("status"), 0) + 1
    R.info("verdicts: " + ", ".join("%s %d" % kv for kv in sorted(tally.items())))

    # -- 3. the feed
    feed.drain()
    R.info("feed: %d messages for %s (encodings %s)" %
           (len(feed.got), M, ",".join(sorted(feed.encodings)) or "-"))
    by_seq = {ev.get("seq"): ev for ev in events}
    seen = []
    for fr, body in feed.got:
        R.check(len(fr) == 2, "feed message has two frames (9)", "%d frames" % len(fr))
        if not R.check(isinstance(body, dict) and "event" in body and "verdict" in body,
                       "feed body is {event, verdict} (9)", short(body)):
            continue
        ev, vd = body["event"], body["verdict"]
        seq = ev.get("seq") if isinstance(ev, dict) else None
        seen.append(seq)
        if seq not in by_seq:
            R.info("feed: a message for seq %r, not an event of the log" % (seq,))
            continue
        where = "feed seq %s" % seq
        check_public_event(ev, by_seq[seq], secrets, where)
        for b in leaks(vd, secrets, seq, where + " verdict"):
            R.fail("public view leaks (9: no unrevealed identities, no nonces)", b)
        if isinstance(vd, dict) and seq in live:
            for k in ("match", "seq", "status"):
                R.check(vd.get(k) == live[seq].get(k), "feed verdict is the event's verdict",
                        "%s: %s %r, ingest said %r" % (where, k, vd.get(k), live[seq].get(k)))
            if vd != live[seq]:
                R.note("%s: the feed verdict differs from the ingest one: %s vs %s"
                       % (where, short(vd), short(live[seq])))
        hdr_players = ev.get("players") if seq == 0 and isinstance(ev, dict) else None
        if isinstance(hdr_players, dict):
            shown = [p for p, x in hdr_players.items()
                     if isinstance(x, dict) and x.get("deck") is not None]
            R.info("feed header: decklists %s in the public view" %
                   ("shown for " + ",".join(shown) if shown else "withheld"))
    stored_seqs = [ev.get("seq") for ev, v in zip(events, verdicts)
                   if isinstance(v, dict) and v.get("status") not in ("gap", "malformed", "duplicate")]
    R.check(sorted(s for s in seen if s in by_seq) == sorted(stored_seqs),
            "the feed carries each stored event once (9)",
            "feed seqs %s, stored %s" % (seen, stored_seqs))
    R.check(seen == sorted(seen), "the feed is in seq order", "feed seqs %s" % seen)
    R.info("feed checked: two frames, topic = match id, {event, verdict}, no key "
           "`nonce`, no nonce value, no card id of an href (bench slots/card, "
           "select and lock cards) nor any unrevealed card id anywhere (also in "
           "msg), hrefs null or {c} only, revealing events keep `card`")

    # -- 4. the query socket
    q = Query(ctx, a.query)
    q.probe()
    if q.encoding is None:
        return finish()

    h = q.ask({"op": "health"}, "health")
    if h is not None:
        R.check(h.get("ok") is True, "health answers ok:true", short(h))

    summary = check_match(q, M, events, verdicts, tally)
    check_events(q, M, events, verdicts, secrets)
    if secrets.format == "advanced":
        check_state_advanced(q, M, events, verdicts, secrets, summary,
                             a.arbiter, os.path.abspath(a.log))
    else:
        check_state(q, M, events, secrets)
    check_list(q, M, events, summary)
    check_verify(q, M, events, verdicts, tally)
    if a.arbiter:
        check_against_cli(q, M, events, verdicts, summary, a.arbiter, os.path.abspath(a.log))

    u = q.ask({"op": "no-such-op", "match": M}, "unknown op")
    if u is not None:
        R.check(u.get("ok") is False, "an unknown op is ok:false (9)", short(u))
        R.info("unknown op answered: %r" % u.get("error"))
        err = u.get("error")
        R.check(isinstance(err, str) and len(err.split()) >= 3,
                "the error of an unknown op is a sentence (9)", repr(err))
    u2 = q.ask({"op": "no-such-op"}, "unknown op without match")
    if u2 is not None:
        R.check(u2.get("ok") is False, "an unknown op (no match key) is ok:false (9)", short(u2))
        R.info("unknown op without match answered: %r" % u2.get("error"))

    # -- 5. after the game: duplicate, conflict, gap, malformed
    check_resend(ctx, a.ingest, q, M, events, frames, verdicts, tally, feed)

    return finish()


def check_match(q, M, events, verdicts, tally):
    r = q.ask({"op": "match", "match": M}, "match")
    if r is None or not R.check(r.get("ok") is True, "match answers ok:true for a stored match", short(r)):
        return None
    found = {}
    for k in ("status", "winner", "rounds", "counts"):
        v, p = find_key(r, k)
        found[k] = v
        R.check(p is not None, "match reply has %s (9: header and summary: status, "
                "winner, rounds, counts)" % k, "keys: %s" % short(sorted(
                    set(r) | set(x for v in r.values() if isinstance(v, dict) for x in v)), 400))
    # the header: the seq-0 map (players, hidden), in some view
    hdr = None
    for p, _k, v in walk(r, skip_deck=False):
        if isinstance(v, dict) and ("players" in v or "hidden" in v or v.get("type") == "match"):
            hdr = v
            break
    R.check(hdr is not None, "match reply has the header (9: header and summary)",
            "no map with players/hidden/type=match; keys %s" % short(
                {k: sorted(v) if isinstance(v, dict) else type(v).__name__
                 for k, v in r.items()}, 400))
    R.info("match: status %r, winner %r, rounds %r, counts %s" %
           (found["status"], found["winner"], found["rounds"], found["counts"]))
    counts = found["counts"]
    if isinstance(counts, dict):
        for st, n in tally.items():
            R.check(counts.get(st) == n, "match counts equal the verdicts received",
                    "%s: counts say %r, ingest gave %d" % (st, counts.get(st), n))
        for st, n in counts.items():
            R.check(st in STATUSES, "match counts are keyed by verdict status", repr(st))
            if st not in tally:
                R.check(n == 0, "match counts equal the verdicts received",
                        "%s: counts say %r, ingest gave 0" % (st, n))
    # the outcome, as the log's own accepted claim or concession implies it
    for ev, v in zip(events, verdicts):
        if not isinstance(v, dict) or v.get("status") not in ("ok", "warning"):
            continue
        if ev.get("type") == "claim" and ev.get("winner") in ("p1", "p2"):
            R.check(found["winner"] == ev["winner"],
                    "match winner agrees with the claim the engine accepted (7)",
                    "winner %r, seq %s claimed %r" % (found["winner"], ev["seq"], ev["winner"]))
        if ev.get("type") == "concede" and ev.get("by") in ("p1", "p2"):
            other = "p2" if ev["by"] == "p1" else "p1"
            R.check(found["winner"] == other,
                    "an accepted concession makes the other player the winner (7: concede)",
                    "winner %r, seq %s: %s conceded" % (found["winner"], ev["seq"], ev["by"]))
    if events[0].get("format") == "advanced":
        hdr_pub = hdr if isinstance(hdr, dict) else {}
        # SPEC 9: the header in the view (default public): no decklist
        for p, x in (hdr_pub.get("players") or {}).items():
            R.check(not isinstance(x, dict) or x.get("deck") is None,
                    "the match reply's header (public view) shows no decklist (SPEC 9)",
                    "players.%s.deck = %s" % (p, short(x.get("deck"), 80)))
    fin, _p = find_key(r, "finished")
    out = {"status": found["status"], "winner": found["winner"], "finished": fin}
    for k in ("events", "unverified"):
        v, p = find_key(r, k)
        if p is not None:
            out[k] = v
    out["counts"] = found["counts"]
    return out


def check_events(q, M, events, verdicts, secrets):
    N = len(events)
    by_seq = {ev["seq"]: ev for ev in events}
    adv = secrets.format == "advanced"
    for view in ("public", "judge", "p1", "p2") if adv else ("public", "judge", "p1"):
        r = q.ask({"op": "events", "match": M, "from": 0, "to": N - 1, "view": view},
                  "events view=%s" % view)
        if r is None or not R.check(r.get("ok") is True, "events answers ok:true",
                                    short(r)):
            continue
        _p, items = find_list_of_maps(r, lambda x: "event" in x or "seq" in x)
        if not R.check(items is not None, "events reply holds a list of events",
                       short(r, 400)):
            continue
        evs = [event_of(x) for x in items]
        seqs = [e.get("seq") for e, _v in evs]
        if view == "public":
            if len(evs) == N:
                R.info("events: from/to are inclusive (%d events for 0..%d)" % (N, N - 1))
            elif len(evs) == N - 1:
                R.note("events: `to` is exclusive (%d events for 0..%d); 9 does not say" % (N - 1, N - 1))
            R.info("events items: %s" % sorted(items[0].keys()))
        R.check(seqs == list(range(len(seqs))) and len(seqs) in (N, N - 1),
                "events view=%s returns seq 0.. in order" % view, "seqs %s" % seqs)
        for (e, v) in evs:
            seq = e.get("seq")
            if seq not in by_seq:
                continue
            orig = by_seq[seq]
            where = "events view=%s seq %s" % (view, seq)
            if view == "public":
                check_public_event(e, orig, secrets, where)
                if v is not None:
                    for b in leaks(v, secrets, seq, where + " verdict"):
                        R.fail("public view leaks (9)", b)
            elif view == "judge":
                diff = [k for k in orig if e.get(k) != orig[k]]
                R.check(not diff, "the judge view is the event as sent (6: shown in the judge view)",
                        "%s: %s differ: %s" % (where, diff, short({k: e.get(k) for k in diff})))
            elif adv:
                # SPEC 9 defines them: the public view plus the player's own
                # hidden cards and decklist
                check_adv_hidden(e, orig, view, where)
                if v is not None and orig.get("by") != view:
                    for b in leaks(v, secrets, seq, where + " verdict"):
                        R.fail("the %s view leaks in a verdict (SPEC 9)" % view, b)
            elif view == "p1":
                # 9 names the views but does not define them; the reading here:
                # p1 sees what the public sees plus p1's own hidden cards.
                if orig.get("by") == "p2":
                    for path, hv in hidden_hrefs(e):
                        if isinstance(hv, str) and hv in secrets.unrevealed(seq):
                            R.note("%s: p1's view shows p2's unrevealed %s = %r "
                                   "(9 does not define the p1 view)" % (where, path, hv))
            if v is not None and seq < len(verdicts) and isinstance(verdicts[seq], dict):
                R.check(v == verdicts[seq], "events carry the stored verdict",
                        "%s: %s vs ingest %s" % (where, short(v), short(verdicts[seq])))


def check_state(q, M, events, secrets):
    locks = [ev["seq"] for ev in events if ev.get("type") == "lock"]
    at = locks[0] if locks else len(events) // 2
    got = {}
    for view in ("public", "judge"):
        r = q.ask({"op": "state", "match": M, "at": at, "view": view}, "state view=%s" % view)
        if r is not None and R.check(r.get("ok") is True, "state answers ok:true", short(r)):
            got[view] = r
    if len(got) < 2:
        return
    pub, jud = got["public"], got["judge"]
    R.info("state at %d: reply keys %s" % (at, sorted(pub)))
    for b in leaks(pub, secrets, at, "state public at %d" % at):
        R.fail("the public state shows no hidden identity (9)", b)
    hide = secrets.unrevealed(at)
    jstr = {s for _p, s in strings(jud)}
    pstr = {s for _p, s in strings(pub)}
    jhidden = jstr & hide
    R.info("state at %d: judge view shows %d unrevealed card ids, public %d" %
           (at, len(jhidden), len(pstr & hide)))
    if secrets.mode == "open":
        placed = {c for c, s in secrets.hidden_at.items() if s <= at} & hide
        R.check(not placed or jhidden, "the judge state shows the open-mode hidden cards (6)",
                "none of %s in the judge view" % sorted(placed))
    # strings that travel with a hidden card in the judge view (its name...)
    # must not appear in the public one either
    near, elsewhere = set(), set()
    for _p, _k, v in walk(jud):
        if isinstance(v, dict):
            vals = {x for x in v.values() if isinstance(x, str)}
            (near if vals & hide else elsewhere).update(vals)
    companions = near - elsewhere - hide
    for p, s in strings(pub):
        if s in companions:
            R.fail("the public state shows no hidden identity (9)",
                   "state public at %d: %s = %r goes with a hidden card in the judge view" % (at, p, s))
    R.info("state checked at %d: no nonce, no unrevealed card id, no string the judge "
           "view shows only next to a hidden card (e.g. its name)" % at)


def check_list(q, M, events, summary):
    def has(r):
        return any(isinstance(v, str) and v == M for _p, v in strings(r)) if r else False
    r = q.ask({"op": "list"}, "list")
    if r is not None:
        R.check(r.get("ok") is True and has(r), "list names the match", short(r, 300))
    ev = events[0].get("event")
    tour = ev.get("tournament") if isinstance(ev, dict) else None
    if tour:
        r = q.ask({"op": "list", "tournament": tour}, "list tournament")
        if r is not None:
            R.check(r.get("ok") is True and has(r), "list filtered by its tournament names the match",
                    short(r, 300))
        r = q.ask({"op": "list", "tournament": tour + "-no-such"}, "list other tournament")
        if r is not None:
            R.check(r.get("ok") is True and not has(r),
                    "list filtered by another tournament leaves the match out", short(r, 300))
    st = summary.get("status") if summary else None
    if isinstance(st, str):
        r = q.ask({"op": "list", "status": st}, "list status")
        if r is not None:
            R.check(r.get("ok") is True and has(r),
                    "list filtered by the match's status (%r) names it" % st, short(r, 300))


def cli_verify(arbiter, log):
    """`arbiter verify --json LOG`: the batch report (README)."""
    try:
        cp = subprocess.run([arbiter, "verify", "--json", "-j", "1", log],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        return json.loads(cp.stdout.decode().splitlines()[0]), None
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as e:
        return None, str(e)


REPORT_KEYS = ("match", "format", "engine", "status", "winner", "finished", "events",
               "counts", "unverified", "verdicts")


def check_against_cli(q, M, events, verdicts, summary, arbiter, log):
    """openlog 10: batch (`arbiter verify`) and live verdicts are identical;
    README: the `verify` op reports as `arbiter verify --json`, and a summary
    has status, winner, finished, events, counts, unverified."""
    cli, err = cli_verify(arbiter, log)
    if cli is None:
        R.note("arbiter verify --json failed (%s); nothing compared" % err)
        return
    live_bad = [v for v in verdicts if isinstance(v, dict) and v.get("status") != "ok"]
    R.check(cli.get("verdicts") == live_bad,
            "live verdicts are the batch ones, byte for byte (10)",
            "arbiter verify: %s; live: %s" % (short(cli.get("verdicts")), short(live_bad)))
    if isinstance(summary, dict):
        for k in ("status", "winner", "finished", "events", "counts", "unverified"):
            if k in summary:
                R.check(summary[k] == cli.get(k),
                        "the match summary says what arbiter verify says (9, 10)",
                        "%s: summary %s, arbiter verify %s" % (k, short(summary[k]), short(cli.get(k))))
    r = q.ask({"op": "verify", "log": events}, "verify (against the command line)")
    if r is None or r.get("ok") is not True:
        return
    rep = r.get("report") if isinstance(r.get("report"), dict) else r
    diff = [k for k in REPORT_KEYS if rep.get(k) != cli.get(k)]
    R.check(not diff, "the verify op reports as arbiter verify --json (README: verify)",
            "keys %s differ: op %s, command %s" % (diff, short({k: rep.get(k) for k in diff}),
                                                  short({k: cli.get(k) for k in diff})))


def check_verify(q, M, events, verdicts, tally):
    r = q.ask({"op": "verify", "log": events}, "verify")
    if r is None or not R.check(r.get("ok") is True, "verify answers ok:true", short(r)):
        return
    _p, vs = find_list_of_maps(r, lambda x: "status" in x and "seq" in x)
    if vs is None:
        lst, path = find_key(r, "verdicts")
        vs = lst if isinstance(lst, list) else None
    live = {v.get("seq"): v for v in verdicts if isinstance(v, dict)}
    if vs is None:
        R.note("verify: no list of verdicts in the reply; 9 says only 'verified and "
               "reported': %s" % short(r, 300))
    elif len(vs) == len(events):
        R.info("verify reports every verdict")
        for v in vs:
            R.check(v == live.get(v.get("seq")), "verify and live verdicts are identical (10)",
                    "%s vs %s" % (short(v), short(live.get(v.get("seq")))))
    else:
        R.note("verify reports %d verdicts for %d events (the non-ok ones, it seems); "
               "9 does not say what the report holds" % (len(vs), len(events)))
        listed = {v.get("seq") for v in vs}
        for v in vs:
            R.check(v == live.get(v.get("seq")), "verify and live verdicts are identical (10)",
                    "%s vs %s" % (short(v), short(live.get(v.get("seq")))))
        for s, v in live.items():
            if v.get("status") != "ok":
                R.check(s in listed, "verify reports every non-ok verdict", "seq %s missing" % s)
    counts, _ = find_key(r, "counts")
    if isinstance(counts, dict):
        for st in STATUSES:
            R.check(counts.get(st, 0) == tally.get(st, 0), "verify counts equal the live ones (10)",
                    "%s: %r vs %d" % (st, counts.get(st), tally.get(st, 0)))
    # verified and reported, not stored: a renamed copy must stay unknown
    other = M[:58] + ".vprobe"
    copy = [dict(ev, match=other) for ev in events]
    r2 = q.ask({"op": "verify", "log": copy}, "verify renamed")
    if r2 is not None:
        R.check(r2.get("ok") is True, "verify of a renamed copy answers ok:true", short(r2))
    m2 = q.ask({"op": "match", "match": other}, "match of the verify-only copy")
    if m2 is not None:
        R.check(m2.get("ok") is False, "verify does not store (9: verified and reported, not stored)",
                short(m2))


def check_resend(ctx, ep, q, M, events, frames, verdicts, tally, feed):
    N = len(events)
    before = len(feed.got)
    k = min(3, N)
    changed = dict(events[min(1, N - 1)], x_probe=1)   # an unknown key: other bytes
    gap_seq = N + 100
    probes = [("duplicate seq %d" % i, frames[i], "duplicate", i) for i in range(k)]
    probes.append(("conflict seq %d" % changed["seq"], msgpack.packb(changed), "conflict",
                   changed["seq"]))
    probes.append(("gap seq %d" % gap_seq, msgpack.packb(
        {"match": M, "seq": gap_seq, "type": "judge", "by": "judge", "ruling": "note",
         "text": "gap probe"}), "gap", gap_seq))
    trunc = frames[min(1, N - 1)][:-5]
    probes.append(("truncated map", trunc, "malformed", None))
    probes.append(("unknown type", msgpack.packb(
        {"match": M, "seq": N, "type": "no-such-type", "by": "judge"}), "malformed", N))
    replies, _ = stream(ctx, ep, [p[1] for p in probes], len(probes), feed, "probe")
    for (name, _fr, want, seq), fr in zip(probes, replies):
        v = reply_body(fr, name)
        print("# probe %s: %s" % (name, vline(v)), flush=True)
        check_verdict(v, name, None if seq is None else M, seq, undecodable=seq is None)
        if not isinstance(v, dict):
            continue
        R.check(v.get("status") == want, "%s is %s (8)" % (name, want), vline(v))
        if want == "duplicate":
            R.check(v.get("stored") == verdicts[seq], "duplicate holds the first verdict in stored (8)",
                    "%s vs %s" % (short(v.get("stored")), short(verdicts[seq])))
        if want == "gap":
            R.check(v.get("expect") == N, "gap expects the next seq (8)",
                    "expect %r, next is %d" % (v.get("expect"), N))
    feed.drain(quiet_ms=500, total_ms=1500)
    extra = feed.got[before:]
    if extra:
        R.info("feed after the probes: %d messages, seqs %s" %
               (len(extra), [b.get("event", {}).get("seq") if isinstance(b, dict) else None
                             for _f, b in extra]))
    else:
        R.info("feed after the probes: nothing published (duplicate/conflict/gap/malformed)")
    for _f, b in extra:
        ev = b.get("event") if isinstance(b, dict) else None
        if isinstance(ev, dict) and ev.get("seq") == gap_seq:
            R.fail("a gap is not stored (8), so it is not on the feed of stored events",
                   short(b))
    # the store is unchanged by the probes
    r = q.ask({"op": "match", "match": M}, "match after probes")
    if r is not None:
        c, _ = find_key(r, "counts")
        if isinstance(c, dict):
            same = all(c.get(st, 0) == tally.get(st, 0) for st in STATUSES)
            if same:
                R.info("match counts after the probes: unchanged (probes not counted)")
            else:
                R.note("match counts after the probes changed: %s; 9 does not say whether "
                       "duplicate/conflict/gap/malformed replies are counted" % c)
    r = q.ask({"op": "events", "match": M, "from": 0, "to": N + 200, "view": "judge"},
              "events after probes")
    if r is not None and r.get("ok") is True:
        _p, items = find_list_of_maps(r, lambda x: "event" in x or "seq" in x)
        seqs = [event_of(x)[0].get("seq") for x in (items or [])]
        R.check(seqs == list(range(N)), "the probes stored nothing new (8: no, not stored)",
                "stored seqs now %s" % seqs)
        for x in items or []:
            e, _v = event_of(x)
            if e.get("seq") == changed["seq"]:
                R.check("x_probe" not in e, "a conflict does not replace the stored event (8)",
                        short(e))


def finish():
    print("# %d checks passed, %d deviations, %d notes" %
          (R.passed, len(R.deviations), len(R.notes)))
    if R.notes:
        print("# readings of ambiguous places of openlog.md (accepted):")
        for n in sorted(set(re.sub(r"^[^:]*?(seq )?\d+: ", "", x) for x in R.notes)):
            print("#   - " + n)
    if R.deviations:
        print("DEVIATIONS from openlog.md:")
        seen = {}
        for d in R.deviations:
            seen[d] = seen.get(d, 0) + 1
        for d, n in seen.items():
            print("  - " + d + (" (x%d)" % n if n > 1 else ""))
        return 1
    print("PASS: the server answered as openlog.md says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
