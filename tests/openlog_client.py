#!/usr/bin/python3
"""openlog_client.py -- an independent client of the arbiterd wire protocol.

Written from openlog.md (the wire contract: sections 2, 3, 6, 7, 8, 9) alone,
without reading any source of the server or of its libraries, as the contract's
independent check: if this client passes, the page was enough to write a
table, a spectator and a query tool against the daemon; every place where it
fails is a deviation of the server from the page (or a gap in the page).

    /usr/bin/python3 openlog_client.py --ingest EP --feed EP --query EP
                                       [--arbiter PATH] [--cards FILE] LOG.jsonl

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
as well (5, 6, 7.2, 7.3, 8), arbiterd(8) (the daemon's ops) and
arbiter-replay(1) (`arbiter replay --json`), still without any source: the hidden zone is the hand, cards
enter it by `select` (hrefs) and leave it revealed by `summon`, `spell`,
`counter`, `evolve`, `prime` and `discard`.  For them the client also checks
  - the public view (feed, events): every `select` href is null (open and
    announced mode) or the commitment as sent (commit mode), never a card id,
    even of a card shown before (arbiterd(8)); no nonce; no decklist in the header;
  - the p1 and p2 views of `events` (arbiterd(8)): the player's own select hrefs and
    decklist as sent, the other's as the public view shows them, no nonce of
    the other player;
  - `state` in every view at several seqs (after the opening selections, at
    each illegal event, at each accepted `claim` with `lp`, in the middle, at
    the end), against the hand the client keeps from the log itself: public
    `players.pN.hand` = {count: n, cards: [null] * n}; judge: the card ids
    (open mode), "committed" (commit mode), null (announced); pN: its own hand
    as the judge sees it, the other's as the public does; `deck` = the
    decklist's length - cards selected; an accepted `claim`'s `lp` is the board's LP; the last board's
    `over`/`winner` are the match summary's;
  - with --arbiter PATH, that each `state` board is `arbiter replay FILE --at
    SEQ --view V --json` (arbiterd(8): "as arbiter replay --json draws it").
Master logs (header `format: "master"`) are read the same way from SPEC.md 7.4,
7.5, arbiterd(8) and arbiter-replay(1)'s Master board: Master is Advanced's family, so every
check above holds for them (one code path, `DUEL`), with a second hidden zone,
the Mana Zone: a `mana` event moves a hand card there face-down, naming it by
its href (the id in open mode, the hand card's commitment in commit mode, null
announced) and its class, which is public; `mana_remove` reveals one (`card`,
`nonce`) on its way to the Graveyard; `pay` names the mana a cost is paid with.
For them the client also checks
  - the public view (feed, events): every `mana` href hidden as a `select` one
    is, its `class` kept; the p1/p2 views show their own mana hrefs as sent;
    every other field (`pay`, `attack`, `kind`, `class`, ...) as sent in every
    view (arbiterd(8) takes out hidden identities, nonces and decklists only);
  - `state` (also after each `mana`, `mana_remove` and payment): `players.pN.
    mana.cards` holds one {class, card} per card the log put there, classes in
    every view, `card` null to the public and the other player, the id /
    "committed" / null (by mode) to the owner and the judge; `mana.ready` per
    class within what the log's payments allow (a card that paid is spent until
    its controller's next turn begins, SPEC 7.4).
Classic Snap logs (header `format: "classic"`, 2 to 8 players p1..pN) are read
from SPEC.md 7.6, 7.7, classic-snap.md and verifiers/classic/RULINGS.md (the
rulings, a document), arbiterd(8) and arbiter-replay(1)'s classic board (A
CLASSIC SNAP BOARD), still without any source: the hidden zone is each
player's face-down stack, whose cards (hrefs, top first) the table's `deal`,
`take` and `turn_over` name for the seat in `player`; a `flip` reveals its top
card.  For them the client also checks
  - the public view (feed, events): every stack href null (open, announced) or
    the commitment as sent (commit), never a card id -- not even of a card seen
    face up before, whose place in a reshuffled stack is hidden -- and no nonce;
    with the database (--cards) every card of the deck is hidden until flipped,
    by id and by name, in events, verdicts and boards;
  - the p1..pN views of `events` (arbiterd(8)): pN's own stack hrefs as sent,
    the others' as the public sees them; every other field as sent; a
    verdict's sentence as stored, or with "a hidden card" for a card its event
    hides from that view (arbiterd(8) VIEWS);
  - `state` in the judge, public and every player's view at several seqs (the
    end of the deal, each ruling, the first resolutions of each kind, four
    seqs where the table has settled every call, the middle, the end) against
    the table the client keeps from the log (stack, pile, common pile, pot,
    who is out, who flips next, over/winner/draw): the stack counts of every
    player; `stack_cards` only in the judge's and the owner's view, top first,
    the id / "committed" / null by mode; each discard pile's (or the common
    pile's) count and top; the pot's count, its top a matching card of the
    last disputed piles; out for whom the table announced or the rulebook
    eliminates at once (A7, no card left), and in for the others where the
    next flip shows every consequence announced (A4); a draw foreseen as A8
    says; the other views' boards the judge's but for the stacks' cards; the
    last board's winner, over and draw the summary's (arbiter-records(5));
  - events are read page by page (`next`), and a verify query of more than
    1,000 events must be refused (arbiterd(8) LIMITS).
For Advanced and Master, `state` in the public and player views is also the
judge's board with the hidden cards (hand, Mana Zone) masked -- arbiter-replay(1): "face-
up monsters, the chain, the attack, graveyards and counts are public in every
view" -- and a `claim` the engine found `mismatch` with `lp` alone disagrees
with the board's Life Points.  With --cards (default $ARBITER_CARDS) the card
names are known too, and no public text may name a card not yet revealed.
For every format: an accepted `concede` by pX makes the other player the
match's winner (openlog 7: concede; the summary's winner); with --arbiter,
the live verdicts are `arbiter verify --json`'s (openlog 10: batch and live
identical), the summary's status, winner, finished, events, counts and
unverified are that report's, and so is the `verify` op's report (arbiterd(8)).
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
# SPEC 7.4 adds Master's: mana_remove (a mana card revealed to the Graveyard).
REVEALING = ("flip", "unlock", "spell", "counter", "promote", "evolve", "prime",
             "summon", "discard", "mana_remove")
# SPEC 7.2: the events that take a card out of an Advanced hand; 7.4: the same
# in Master (and `mana`, which moves it to the Mana Zone)
FROM_HAND = ("summon", "spell", "counter", "evolve", "prime", "discard")
# SPEC 7.4: "Master is Advanced's family" -- one hand, Monster Zones, `lp`
DUEL = ("advanced", "master")
# SPEC 7.6: classic Snap's hidden zone is each player's face-down stack; the
# table's `deal`, `take` and `turn_over` name its cards (hrefs, top first) and
# the seat in `player` whose stack they go to
STACKED = ("deal", "take", "turn_over")
# the formats whose views arbiterd(8) defines seat by seat (p1..pN): each
# player's own hidden cards as sent, the others' as the public sees them
SEATED = DUEL + ("classic",)
CLASSES = ("coreon", "fluxion", "synaphera", "obscura", "aetherion")
# arbiter-replay(1) (AN ADVANCED BOARD, A MASTER BOARD): the board's step and window
STEPS = {"advanced": ("setup", "select", "main", "position", "evolve", "attack", "end", "over"),
         "master": ("setup", "select", "main", "position", "evolve", "attack", "end", "over",
                    "mana", "summon")}
WINDOWS = (None, "spell", "attack", "counter")
RULE_RE = re.compile(r"^(snap|advanced|master|classic|openlog):[A-Za-z0-9._-]+$")
MATCH_RE = re.compile(r"^[A-Za-z0-9._:-]{1,64}$")
TIMEOUT_MS = 5000
VERIFY_MAX = 1000      # arbiterd(8) LIMITS: events in one verify query


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
    elif t == "mana" and "card" in ev:
        out.append(("card", ev["card"]))          # SPEC 7.4: the hand card's href
    elif t in STACKED and isinstance(ev.get("cards"), list):
        out += [("cards[%d]" % i, v) for i, v in enumerate(ev["cards"])]   # SPEC 7.6
    return out


def owner_of(ev):
    """The seat whose hidden zone an event's hrefs are in: SPEC 7.6, the
    `player` of a classic deal, take or turn_over (the table announces them);
    else who announced it (a select, a mana)."""
    if ev.get("type") in STACKED and ev.get("by") == "table":
        return ev.get("player")
    return ev.get("by")


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


def card_db(path):
    """({id: card}, "set@version") of a card database (fixtures/cards/README.md
    1-2), or ({}, None)."""
    try:
        with open(path, encoding="utf-8") as f:
            db = json.load(f)
        return ({c["id"]: c for c in db["cards"]
                 if isinstance(c.get("id"), str) and isinstance(c.get("name"), str)},
                "%s@%s" % (db.get("set"), db.get("version")))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}, None


class Secrets:
    """What the public view must not show, from the original log."""

    def __init__(self, events, cards=None):
        self.mode = events[0].get("hidden") if events else None
        self.format = events[0].get("format") if events else None
        self.cards = cards or {}     # card id -> card, when the database is known
        self.names = {c: x["name"] for c, x in self.cards.items()}
        self.universe = set()        # every card id the log mentions
        self.nonces = set()
        self.revealed_at = {}        # card id -> first seq it was shown
        self.hidden_at = {}          # card id -> first seq it went in an href
        if self.format == "classic":
            # SPEC 7.6: the deck is every card of the header's database; each
            # is hidden until a flip shows it (a seat has no decklist)
            self.universe.update(self.cards)
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
    # a card's name gives it away as well as its id; a revealed card of the
    # same name (another copy) makes the name public
    shown = {secrets.names.get(c) for c in secrets.universe - hide}
    names = {c: n for c, n in secrets.names.items() if c in hide and n not in shown}
    for p, s in strings(obj):
        if s in secrets.nonces:
            bad.append("%s: %s is a nonce of the log" % (where, p))
        if s in hide:
            bad.append("%s: %s shows unrevealed card %r" % (where, p, s))
        elif " " in s:
            for c in hide:
                if c in s:
                    bad.append("%s: %s names unrevealed card %r in %r" % (where, p, c, s))
        for c, n in names.items():
            if re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(n), s):
                bad.append("%s: %s names unrevealed card %r (%s) in %r" % (where, p, c, n, s))
    return bad


def check_public_event(pub, orig, secrets, where):
    """One event as the public view shows it (feed, events view=public)."""
    if not R.check(isinstance(pub, dict), where + " is a map", short(pub)):
        return
    seq = orig.get("seq")
    for b in leaks(pub, secrets, seq, where):
        R.fail("public view leaks (9: no unrevealed identities, no nonces)", b)
    if secrets.format in SEATED:
        check_view_hidden(pub, orig, None, where)
    # hrefs: null, or a commitment {"c": hex} and nothing else -- never a card id
    for path, v in hidden_hrefs(pub):
        ok = v is None or (isinstance(v, dict) and set(v) == {"c"})
        if isinstance(v, str) and v not in secrets.unrevealed(seq) and secrets.format != "classic":
            ok = True            # a card already revealed publicly (SPEC 7.6: a classic
                                 # stack's order is hidden whoever saw its cards face up)
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


# ---------------------------------------------------------------- Advanced, Master

def commitment(card, nonce):
    """SPEC 7: BLAKE2b-256(card id || 0x00 || nonce bytes), hex."""
    try:
        nb = bytes.fromhex(nonce)
    except (TypeError, ValueError):
        return None
    return hashlib.blake2b(card.encode() + b"\x00" + nb, digest_size=32).hexdigest()


_own_nonce_noted = set()


def check_own_href(got, orig, key, want_own, view, me, where):
    """One href field (`cards` of a select, `card` of a mana) as view `me` shows
    it: the owner's as sent; another's as the public sees it -- null, or the
    commitment as sent (arbiterd(8), 7.2, 7.4)."""
    g, o = got.get(key), orig[key]
    if owner_of(orig) == me:
        R.check(g == o, "the %s view shows %s's own %s as sent (arbiterd(8))" % (view, me, want_own),
                "%s: %s = %s, sent %s" % (where, key, short(g, 120), short(o, 120)))
        return
    pairs = [(key, g, o)]
    if isinstance(o, list):
        if not R.check(isinstance(g, list) and len(g) == len(o),
                       "the %s view keeps one href per card selected (arbiterd(8): counts)" % view,
                       "%s: %s = %s" % (where, key, short(g, 120))):
            return
        pairs = [("%s[%d]" % (key, i), gi, oi) for i, (gi, oi) in enumerate(zip(g, o))]
    for path, gi, oi in pairs:
        want = oi if isinstance(oi, dict) else None
        R.check(gi == want, "the %s view hides %s's %s: an href is null, or the commitment "
                "as sent (arbiterd(8), 7.2, 7.4, 7.6)" % (view, owner_of(orig), want_own),
                "%s: %s = %s, sent %s" % (where, path, short(gi, 90), short(oi, 90)))


# what a view may change in an event: the hrefs and nonces (arbiterd(8)), a
# header's decklists; everything else is public and kept as sent
VIEW_HIDES = ("cards", "card", "nonce", "players")


def check_view_hidden(got, orig, me, where):
    """An Advanced, Master or classic event as view `me` shows it (None: public;
    "p1".."pN").

    arbiterd(8): public -- no card id a hidden zone holds (hrefs null), no nonce, no
    decklist, commitments {"c": hex} stay; pN -- that player's own hidden cards
    and decklist too.  SPEC 7.4: a mana card's class is public, always.  SPEC
    7.6: a classic stack's hrefs are its `player`'s hidden cards, whoever
    announced them (the table)."""
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
                        "the %s view shows %s's own decklist (arbiterd(8))" % (view, p),
                        "%s: players.%s.deck = %s" % (where, p, short(g.get("deck"), 80)))
            else:
                R.check(g.get("deck") is None,
                        "the %s view shows no decklist of %s (arbiterd(8))" % (view, p),
                        "%s: players.%s.deck = %s" % (where, p, short(g.get("deck"), 80)))
    if t == "select" and isinstance(orig.get("cards"), list):
        check_own_href(got, orig, "cards", "hand (select hrefs)", view, me, where)
    if t == "mana" and "card" in orig:
        check_own_href(got, orig, "card", "Mana Zone (mana href)", view, me, where)
    if t in STACKED and isinstance(orig.get("cards"), list):
        check_own_href(got, orig, "cards", "face-down stack (%s hrefs)" % t, view, me, where)
    for k in orig:
        if k not in VIEW_HIDES:
            R.check(got.get(k) == orig[k], "the %s view keeps every public field as sent (SPEC "
                    "9: only hidden identities, nonces, decklists go; 7.4: a mana card's class "
                    "is public)" % view,
                    "%s: %s = %s, sent %s" % (where, k, short(got.get(k), 90), short(orig[k], 90)))
    if "nonce" in orig:
        if orig.get("by") != me:
            R.check(got.get("nonce") is None, "the %s view carries no nonce of another "
                    "player (arbiterd(8): public view plus the player's own)" % view,
                    "%s: nonce %s" % (where, short(got.get("nonce"), 40)))
        elif view not in _own_nonce_noted:
            _own_nonce_noted.add(view)
            R.note("the %s view %s the player's own nonces (arbiterd(8) says the player view adds "
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
CARDS_ARGS = []      # --cards FILE for `arbiter replay` and `arbiter verify`, when given


class DuelZones:
    """The hidden zones and the decks as the log itself says they stand, after each seq.

    SPEC 7.2: `select` puts its hrefs in the hand, a revealing event from the
    hand (summon, spell, counter, evolve, prime, discard) takes the card out.
    SPEC 7.4 (Master): `mana` moves a hand card -- its href -- to the Mana Zone
    with its class, `mana_remove` takes one out, revealed; a `pay` spends that
    many ready mana of each class "until its controller's next turn begins"
    (after the other player's `end`).  Which card a `mana_remove` takes, a
    spent or a ready one, the log does not say: readiness is kept as a range.
    Only events the engine applied (ok, warning) count (8)."""

    def __init__(self, events, verdicts, mode, cards=None):
        self.mode = mode
        self.cards = cards or {}
        self.after = {}
        self.problems = []
        self.untold = set()            # players whose Mana Zone the log no longer tells
        hand = {"p1": [], "p2": []}
        mana = {"p1": [], "p2": []}    # [(href, class)]
        ready = {"p1": {}, "p2": {}}   # class -> [lo, hi] ready
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
                card = ev.get("card")
                if t == "select" and isinstance(ev.get("cards"), list):
                    hand[by] += ev["cards"]
                    if deck[by] is not None:
                        deck[by] -= len(ev["cards"])
                elif t in FROM_HAND and isinstance(card, str):
                    self._take(hand[by], self._href(ev), ev, "hand")
                elif t == "mana":
                    self._take(hand[by], card, ev, "hand")
                    mana[by].append((card, ev.get("class")))
                    r = ready[by].setdefault(ev.get("class"), [0, 0])
                    r[0] += 1
                    r[1] += 1
                elif t == "mana_remove" and isinstance(card, str):
                    self._remove_mana(mana[by], ready[by], ev, by)
                if isinstance(ev.get("pay"), dict):
                    for cls, k in ev["pay"].items():
                        r = ready[by].get(cls)
                        if r is not None and isinstance(k, int):
                            r[0], r[1] = max(r[0] - k, 0), r[1] - k
                if t == "end":
                    nxt = "p2" if by == "p1" else "p1"
                    for cls in ready[nxt]:
                        n = sum(1 for _h, c in mana[nxt] if c == cls)
                        ready[nxt][cls] = [n, n]
            self.after[seq] = ({p: list(h) for p, h in hand.items()},
                               {p: list(m) for p, m in mana.items()},
                               {p: {c: tuple(r) for c, r in x.items()} for p, x in ready.items()},
                               dict(deck), set(self.untold))

    def _href(self, ev):
        """The href the revealed card went into its hidden zone with (SPEC 7)."""
        if self.mode == "commit":
            return {"c": commitment(ev["card"], ev.get("nonce", ""))}
        return ev["card"] if self.mode == "open" else None

    def _take(self, zone, want, ev, name):
        if want in zone:
            zone.remove(want)
        else:
            self.problems.append("seq %s: %s's %s of %s opens no card of the %s the log "
                                 "gives, yet the engine accepted it" % (
                                     ev.get("seq"), ev.get("by"), ev.get("type"),
                                     short(ev.get("card"), 80), name))

    def _remove_mana(self, zone, ready, ev, by):
        want = self._href(ev)
        cls = (self.cards.get(ev["card"]) or {}).get("class")
        cands = [e for e in zone if e[0] == want and (want is not None or e[1] == cls)]
        if want is None and cls is None:
            self.untold.add(by)    # announced, no card database: which class left?
            cands = [e for e in zone if e[0] is None]
        if not cands:
            self.problems.append("seq %s: %s's mana_remove of %s opens no card of the Mana "
                                 "Zone the log gives, yet the engine accepted it" % (
                                     ev.get("seq"), by, ev["card"]))
            return
        zone.remove(cands[0])
        left = sum(1 for _h, c in zone if c == cands[0][1])
        r = ready.get(cands[0][1], [0, 0])
        r[0], r[1] = max(r[0] - 1, 0), min(r[1], left)   # a ready card or a spent one left

    def hidden(self, owner, view, href):
        """What view may see of owner's hidden card (arbiter-replay(1): HIDDEN)."""
        if view == "public" or (view in ("p1", "p2") and view != owner):
            return None
        if self.mode == "open":
            return href
        return "committed" if self.mode == "commit" else None

    def expect(self, seq, owner, view):
        """The `hand.cards` a view must show for owner's hand after seq."""
        return [self.hidden(owner, view, h) for h in self.after[seq][0][owner]]

    def expect_mana(self, seq, owner, view):
        """The `mana.cards` a view must show for owner's Mana Zone after seq."""
        return [{"class": c, "card": self.hidden(owner, view, h)}
                for h, c in self.after[seq][1][owner]]


def board_of(r):
    """The board in a state reply: r["state"], or r itself (arbiterd(8) 'state')."""
    if isinstance(r, dict) and isinstance(r.get("state"), dict):
        return r["state"]
    if isinstance(r, dict) and isinstance(r.get("players"), dict):
        return {k: v for k, v in r.items() if k != "ok"}
    return None


def replay_board(arbiter, log, at, view):
    try:
        cp = subprocess.run([arbiter, "replay", log, "--at", str(at), "--view", view, "--json"]
                            + CARDS_ARGS,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    if cp.returncode != 0:
        return None, "exit %d: %s" % (cp.returncode, cp.stderr.decode(errors="replace").strip()[:200])
    try:
        return json.loads(cp.stdout.decode()), None
    except ValueError as e:
        return None, "not JSON: %s" % e


def masked(b):
    """A duel board with what only some views see taken out: the cards of the
    hand and of the Mana Zone (arbiter-replay(1): face-up monsters, the chain, the attack,
    graveyards and counts are public in every view; the Mana Zone's classes and
    readiness are public, its cards hidden as the hand is)."""
    out = json.loads(json.dumps(b))
    out.pop("view", None)
    for pl in (out.get("players") or {}).values():
        if not isinstance(pl, dict):
            continue
        for zone in ("hand", "mana"):
            z = pl.get(zone)
            if isinstance(z, dict) and isinstance(z.get("cards"), list):
                z["cards"] = [dict(c, card=None) if isinstance(c, dict) else None
                              for c in z["cards"]]
    return out


def sortkey(x):
    return json.dumps(x, sort_keys=True)


def check_hidden_list(got, want, owner, view, zone, what, where):
    """players.<owner>.<zone>.cards as a view shows it, against the log's."""
    R.check(isinstance(got, dict) and got.get("count", len(want)) == len(want) == len(got["cards"]),
            "%s.count is the %s the log gives, one entry a card (arbiter-replay(1), SPEC 7.2, 7.4)"
            % (zone, what), "%s: %s %s count %r, %d entries, the log gives %d" % (
                where, owner, zone, got.get("count"), len(got["cards"]), len(want)))
    R.check(sorted(got["cards"], key=sortkey) == sorted(want, key=sortkey),
            "the %s view shows %s's %s as the engine knows it (arbiter-replay(1): HIDDEN null when the "
            "view may not see it, else the id in open mode, \"committed\" in commit mode, null "
            "announced)" % (view, owner, what),
            "%s: players.%s.%s.cards = %s, the log gives %s" % (
                where, owner, zone, short(got["cards"], 200), short(want, 200)))


def check_board_player(b, p, view, zones, at, where):
    """One player of a duel board: hand and deck against the log's."""
    pl = b["players"].get(p)
    hd = pl.get("hand") if isinstance(pl, dict) else None
    if not R.check(isinstance(hd, dict) and isinstance(hd.get("cards"), list),
                   "a duel board has players.pN.hand.{count,cards} (arbiter-replay(1))",
                   "%s: players.%s.hand = %s" % (where, p, short(hd, 120))):
        return
    check_hidden_list(hd, zones.expect(at, p, view), p, view, "hand", "hand", where)
    expect_deck = zones.after[at][3]
    if expect_deck.get(p) is not None:
        R.check(pl.get("deck") == expect_deck[p],
                "deck is the cards not yet selected (arbiter-replay(1): deck count)",
                "%s: players.%s.deck = %r, the log gives %d" %
                (where, p, pl.get("deck"), expect_deck[p]))


def check_board_mana(b, p, view, zones, at, where):
    """arbiter-replay(1) (A MASTER BOARD): mana {cards: [{class, card: HIDDEN}], ready: {class: n}},
    and ongoing; SPEC 7.4: classes public, cards hidden as the hand is."""
    pl = b["players"].get(p) or {}
    mn = pl.get("mana")
    if not R.check(isinstance(mn, dict) and isinstance(mn.get("cards"), list)
                   and isinstance(mn.get("ready"), dict) and isinstance(pl.get("ongoing"), list),
                   "a Master board has players.pN.mana.{cards,ready} and ongoing (arbiter-replay(1))",
                   "%s: players.%s.mana = %s, ongoing = %s" % (
                       where, p, short(mn, 120), short(pl.get("ongoing"), 80))):
        return
    if p in zones.after[at][4]:
        return
    check_hidden_list(mn, zones.expect_mana(at, p, view), p, view, "mana", "Mana Zone", where)
    ready = zones.after[at][2][p]
    for cls in set(CLASSES) | set(ready) | set(mn["ready"]):
        lo, hi = ready.get(cls, (0, 0))
        n = mn["ready"].get(cls, 0)
        R.check(isinstance(n, int) and lo <= n <= hi,
                "mana.ready is the mana the log's payments leave ready (SPEC 7.4: a card that "
                "paid is spent until its controller's next turn begins)",
                "%s: players.%s.mana.ready.%s = %r, the log gives %s" % (
                    where, p, cls, n, lo if lo == hi else "%d..%d" % (lo, hi)))


def state_points(events, verdicts):
    """The seqs worth a board: after the opening selections, at each ruling, at
    each claim with lp, and in Master after each mana, mana_remove and payment;
    the middle and the end."""
    N = len(events)
    opening = [ev["seq"] for ev in events if ev.get("type") == "select"][:2]
    points = {max(opening)} if opening else set()
    for ev, v in zip(events, verdicts):
        st = v.get("status") if isinstance(v, dict) else None
        if st in ("illegal", "mismatch"):
            points.add(ev["seq"])
        if st in ("ok", "warning") and (
                (ev.get("type") == "claim" and isinstance(ev.get("lp"), dict))
                or ev.get("type") in ("mana", "mana_remove") or ev.get("pay")):
            points.add(ev["seq"])
    points.update({N // 2, N - 1})
    return sorted(p for p in points if 0 < p < N)


def check_claim_lp(b, ev, v, where):
    """SPEC 7.2 (and 7.4 for Master): a claim whose lp differs from the engine's
    Life Points is a mismatch -- so an accepted one is the board's, and one the
    engine found mismatch (claiming lp alone) is not."""
    if ev.get("type") != "claim" or not isinstance(ev.get("lp"), dict) or not isinstance(v, dict):
        return
    board_lp = {p: (b["players"].get(p) or {}).get("lp") for p in ev["lp"]}
    if v.get("status") in ("ok", "warning"):
        R.check(board_lp == ev["lp"], "an accepted claim's lp is the board's (SPEC 7.2: "
                "mismatch otherwise)", "%s: lp %s, claim %s" % (where, board_lp, ev["lp"]))
    elif v.get("status") == "mismatch" and not ({"defeated", "winner"} & set(ev)):
        R.check(board_lp != ev["lp"], "a claim of lp found mismatch disagrees with the "
                "board's lp (SPEC 7.2)", "%s: lp %s, claim %s" % (where, board_lp, ev["lp"]))


def compare_replay(b, arbiter, log, at, view, where):
    want_b, err = replay_board(arbiter, log, at, view)
    if want_b is None:
        R.note("%s: arbiter replay failed (%s); board not compared" % (where, err))
        return
    # arbiterd(8): `state` is "the board ... as arbiter replay --json draws it";
    # the audit's `board` is "replay --json's board keys".  Whether the
    # replay's own keys (match, seq, view, verdicts, note) are part of the
    # board is not said.
    meta = [k for k in REPLAY_META if k in want_b and k not in b]
    if meta and "replay-meta" not in _own_nonce_noted:
        _own_nonce_noted.add("replay-meta")
        R.note("the state board leaves out arbiter replay --json's keys %s "
               "(arbiterd(8) does not say whether they belong to 'the board'; "
               "seq is in the reply) -- accepted" % meta)
    diff = sorted(k for k in set(want_b) | set(b)
                  if k not in meta and want_b.get(k) != b.get(k))
    R.check(not diff, "the state is the board arbiter replay --json draws "
            "(arbiterd(8): state)", "%s: keys %s differ: daemon %s, replay %s" % (
                where, diff, short({k: b.get(k) for k in diff}, 200),
                short({k: want_b.get(k) for k in diff}, 200)))


def check_state_duel(q, M, events, verdicts, secrets, summary, arbiter=None, log=None):
    """`state` of an Advanced or Master match in every view (arbiterd(8), arbiter-replay(1))."""
    master = secrets.format == "master"
    zones = DuelZones(events, verdicts, secrets.mode, secrets.cards)
    for pr in zones.problems:
        R.note("zones kept from the log: " + pr)
    points = state_points(events, verdicts)
    R.info("state (%s) checked at seqs %s in views public, p1, p2, judge"
           % (secrets.format, points))

    def board(at, view, b, judge, where):
        R.check(b.get("step") in STEPS[secrets.format] and b.get("window") in WINDOWS,
                "a %s board's step and window are arbiter-replay(1)'s" % secrets.format,
                "%s: step %r, window %r" % (where, b.get("step"), b.get("window")))
        for p in ("p1", "p2"):
            check_board_player(b, p, view, zones, at, where)
            if master:
                check_board_mana(b, p, view, zones, at, where)
        check_claim_lp(b, events[at], verdicts[at], where)
        if judge is not None:
            mv, mj = masked(b), masked(judge)
            diff = sorted(k for k in set(mv) | set(mj) if mv.get(k) != mj.get(k))
            if diff == ["players"]:
                diff = ["players.%s.%s" % (p, k) for p in mj["players"]
                        for k in set(mv["players"].get(p) or {}) | set(mj["players"][p])
                        if (mv["players"].get(p) or {}).get(k) != mj["players"][p].get(k)]
            R.check(not diff, "the %s board is the judge's but for the hidden cards (arbiter-replay(1): "
                    "face-up monsters, the chain, the attack, graveyards, counts%s are "
                    "public in every view)" % (view, ", mana classes and readiness"
                                               if master else ""),
                    "%s: %s differ" % (where, diff))

    check_boards(q, M, len(events), points, ("judge", "public", "p1", "p2"), secrets, dict,
                 board, summary, arbiter, log)


def check_boards(q, M, N, points, views, secrets, players_type, board, summary, arbiter, log):
    """Ask `state` at each point in each view, judge first (arbiterd(8): the
    board after that event, as arbiter replay --json draws it), with the checks
    every format shares; `board(at, view, b, judge, where)` checks the format's
    own (judge: the judge's board of that seq, None in the judge view); with
    --arbiter each board is the command's; the summary is the last board's."""
    last = judge = None
    for at in points:
        for view in views:
            where = "state view=%s at %d" % (view, at)
            r = q.ask({"op": "state", "match": M, "at": at, "view": view}, where)
            if r is None or not R.check(r.get("ok") is True, "state answers ok:true", short(r)):
                continue
            b = board_of(r)
            if not R.check(isinstance(b, dict) and isinstance(b.get("players"), players_type),
                           "the state reply holds a board with players (arbiterd(8): as "
                           "arbiter replay --json draws it)", "%s: %s" % (where, short(r, 300))):
                continue
            R.check(r.get("seq", b.get("seq")) == at and b.get("seq", at) == at,
                    "the state is the board after the event asked for (arbiterd(8))",
                    "%s: seq %r (reply) / %r (board)" % (where, r.get("seq"), b.get("seq")))
            if view == "public":
                for x in leaks(b, secrets, at, where):
                    R.fail("the public state shows no hidden identity (9)", x)
            if view == "judge":
                judge = (at, b)
            board(at, view, b, judge[1] if view != "judge" and judge and judge[0] == at
                  else None, where)
            if arbiter and log:
                compare_replay(b, arbiter, log, at, view, where)
            if at == N - 1 and view == "judge":
                last = b
    check_last_board(summary, last)


def check_last_board(summary, last):
    """The match summary (9; arbiter-records(5)) against the last board."""
    if last is None or not isinstance(summary, dict):
        return
    R.check(summary.get("winner") == last.get("winner"),
            "the match winner is the last board's (9: summary)",
            "summary %r, board %r" % (summary.get("winner"), last.get("winner")))
    if "finished" in summary:
        R.check(summary.get("finished") == last.get("over"),
                "the match is finished when the last board is over",
                "summary finished %r, board over %r" % (summary.get("finished"), last.get("over")))
    R.check((summary.get("draw") is True) == (last.get("draw") is True),
            "the summary has draw:true exactly when the last board is a draw "
            "(arbiter-records(5): draw; arbiter-replay(1))",
            "summary draw %r, board draw %r" % (summary.get("draw"), last.get("draw")))


# ---------------------------------------------------------------- classic Snap

# arbiter-replay(1) (A CLASSIC SNAP BOARD): the board's variant, by the
# common_pile lever (SPEC 5)
CLASSIC_VARIANT = {False: "own_piles", True: "common_pile"}
APPLIED = ("ok", "warning")


class ClassicTable:
    """The table of a classic Snap log as the log itself says it stands, after each seq.

    SPEC 7.6: a `deal` gives `player` their face-down stack (hrefs, top first);
    a `flip` turns the top card of its player's stack face up onto their
    discard pile (the common pile in the common-pile variant); a `take` puts the
    piles it names (the common pile when it names none) and, with `pot`, the
    snap pot under the taker's stack, in the new order its `cards` give; a `pot`
    sets the disputed piles aside on the snap pot, their matching cards on top;
    a `penalty` gives the top card of the player's stack to each player still
    in, starting on their left, each under that player's stack, until the stack
    runs out (RULINGS A7); a `turn_over` makes the player's discard pile their
    new stack; an `out`, and a judge's game_loss, eliminate.  Only events the
    engine applied (ok, warning) count (8).  Who is out: whom the table
    announced, and whom the rulebook eliminates at once -- a player who cannot
    pay a penalty in full (A7), a player of the pile-each variant left without
    any card; arbiter-replay(1) says the board may know an elimination before
    the table announces it (in the common-pile variant, A11: when the turn
    passes to a player without cards)."""

    def __init__(self, events, verdicts, cards=None):
        hdr = events[0]
        self.seats = seats(hdr)
        rules = hdr.get("rules") if isinstance(hdr.get("rules"), dict) else {}
        # RULINGS A12: a card's matching value is the database's; SPEC 7.6: the
        # deck is every card of it, `decks` times
        self.value = {c: (x.get("classic") or {}).get("value") for c, x in (cards or {}).items()}
        decks = rules.get("decks", 1)
        self.deck = {c: decks for c in self.value} if isinstance(decks, int) else {}
        self.common = rules.get("common_pile") is True
        self.dealer = rules.get("dealer", 1)
        self.first = rules.get("first", 0)
        self.mode = hdr.get("hidden")
        self.after = {}
        self.problems = []
        self.partial = []         # the seqs of penalties paid in part (A7)
        stacks = {p: [] for p in self.seats}
        piles = {p: [] for p in self.seats}
        common, pot = [], []
        pot_tops = set()          # the pot's top is one of these (the disputed piles' tops)
        out, dealt = set(), set()
        last = None               # who flipped last
        end = None                # the accepted claim: ("winner", seat) or ("draw", True)
        for ev, v in zip(events, verdicts):
            seq, t, p = ev.get("seq"), ev.get("type"), ev.get("player")
            if seq == 0 or not (isinstance(v, dict) and v.get("status") in APPLIED):
                self.after[seq] = self.after[seq - 1] if seq else self._snap(
                    stacks, piles, common, pot, pot_tops, out, dealt, last, end)
                continue
            cards = ev.get("cards") if isinstance(ev.get("cards"), list) else []
            if t == "deal" and p in stacks:
                stacks[p] = list(cards)
                dealt.add(p)
            elif t == "flip" and ev.get("by") in stacks:
                by = ev["by"]
                if stacks[by]:
                    stacks[by].pop(0)
                else:
                    self.problems.append("seq %s: %s flipped with no face-down card, yet the "
                                         "engine accepted it" % (seq, by))
                (common if self.common else piles[by]).append(ev.get("card"))
                last = by
            elif t == "take" and p in stacks:
                taken = self._piles(ev, piles, common)
                n = sum(len(x) for x in taken) + (len(pot) if ev.get("pot") is True else 0)
                if n != len(cards):
                    self.problems.append("seq %s: %s takes %d cards, the piles%s hold %d, yet "
                                         "the engine accepted it" % (
                                             seq, p, len(cards),
                                             " and the pot" if ev.get("pot") else "", n))
                for x in taken:
                    del x[:]
                if ev.get("pot") is True:
                    del pot[:]
                    pot_tops = set()
                stacks[p] += cards
            elif t == "pot":
                taken = [x for x in self._piles(ev, piles, common) if x]
                if taken:
                    pot_tops = {x[-1] for x in taken}
                for x in taken:
                    pot += x
                    del x[:]
            elif t == "penalty" and p in stacks:
                i = self.seats.index(p)
                for k in range(1, len(self.seats)):
                    to = self.seats[(i + k) % len(self.seats)]
                    if to in out:
                        continue
                    if not stacks[p]:
                        out.add(p)          # A7: paid what it held, and is eliminated
                        self.partial.append(seq)
                        break
                    stacks[to].append(stacks[p].pop(0))
            elif t == "turn_over" and p in stacks:
                if len(cards) != len(piles[p]):
                    self.problems.append("seq %s: %s turns over %d cards, the discard pile "
                                         "holds %d, yet the engine accepted it" % (
                                             seq, p, len(cards), len(piles[p])))
                del piles[p][:]
                stacks[p] += cards
            elif t == "out" and p in stacks:
                out.add(p)
            elif t == "judge" and ev.get("ruling") == "game_loss" and ev.get("player") in stacks:
                out.add(ev["player"])
            elif t == "claim":
                end = ("draw", True) if ev.get("draw") is True else ("winner", ev.get("winner"))
            if t in ("take", "pot") and self.drawn(pot, pot_tops, out):
                end = end or ("draw", True)
            elif t in ("take", "pot", "penalty") and not self.common:
                # classic-snap.md: a player who loses all of their cards to
                # another player's "Snap!" is eliminated (with a pile each,
                # no face-down card and an empty discard pile)
                out.update(x for x in self.seats if not stacks[x] and not piles[x])
            self.after[seq] = self._snap(stacks, piles, common, pot, pot_tops, out, dealt,
                                         last, end)

    def drawn(self, pot, pot_tops, out):
        """RULINGS A8: at least two players in, cards in the snap pot, and no
        match can happen again -- no value held by two cards outside the pot,
        none outside of the pot's top's value.  Unknown without the database."""
        if not self.deck or not pot or len(self.seats) - len(out) < 2:
            return False
        left = dict(self.deck)
        for c in pot:
            left[c] = left.get(c, 0) - 1
        vals = {}
        for c, n in left.items():
            vals[self.value.get(c)] = vals.get(self.value.get(c), 0) + max(n, 0)
        top = {self.value.get(c) for c in pot_tops}
        return len(top) == 1 and all(n < 2 for n in vals.values()) and vals.get(top.pop(), 0) == 0

    def _piles(self, ev, piles, common):
        """The discard piles an event names (`piles`, seats), or the common pile."""
        names = ev.get("piles")
        if not isinstance(names, list):
            return [common] if self.common else []
        return [piles[x] for x in names if x in piles]

    @staticmethod
    def _snap(stacks, piles, common, pot, pot_tops, out, dealt, last, end):
        return {"stacks": {p: list(s) for p, s in stacks.items()},
                "piles": {p: list(s) for p, s in piles.items()},
                "common": list(common), "pot": len(pot), "pot_tops": set(pot_tops),
                "out": set(out), "dealt": len(dealt), "last": last, "end": end}

    def hidden(self, owner, view, href):
        """A stack card as a view sees it (arbiter-replay(1): HIDDEN)."""
        if view not in ("judge", owner):
            return None
        if self.mode == "open":
            return href
        return "committed" if self.mode == "commit" else None

    def next_seat(self, at):
        """Who flips next (arbiter-replay(1): next), while the game goes on."""
        s = self.after[at]
        n = len(self.seats)
        if s["dealt"] < n:
            return None
        if s["last"] is None:
            if isinstance(self.first, int) and 1 <= self.first <= n:
                return self.seats[self.first - 1]
            return self.seats[self.dealer % n] if isinstance(self.dealer, int) else None
        i = self.seats.index(s["last"])
        for k in range(1, n + 1):
            cand = self.seats[(i + k) % n]
            if cand not in s["out"]:
                return cand
        return None


def pile_of(cards):
    return {"count": len(cards), "top": cards[-1] if cards else None}


def classic_points(events, verdicts, table):
    """The seqs worth a board: the end of the deal, every ruling, the first two
    of each resolution (and the event before the first `out`), each penalty
    paid in part (A7: who gets a card depends on where the payer sits), four
    seqs where the table has settled every call (an accepted flip comes next),
    the middle and the end."""
    N = len(events)
    points = {N // 2, N - 1} | set(table.partial)
    deals = [ev["seq"] for ev, v in zip(events, verdicts)
             if ev.get("type") == "deal" and isinstance(v, dict) and v.get("status") in APPLIED]
    if deals:
        points.add(max(deals))
    seen = {}
    for ev, v in zip(events, verdicts):
        st = v.get("status") if isinstance(v, dict) else None
        t = ev.get("type")
        if st in ("illegal", "mismatch"):
            points.add(ev["seq"])
        if st in APPLIED and t in ("take", "pot", "penalty", "turn_over", "out"):
            seen[t] = seen.get(t, 0) + 1
            if seen[t] <= 2:
                points.add(ev["seq"])
                if t == "out" and seen[t] == 1:
                    points.add(ev["seq"] - 1)
    settled = [s for s in range(1, N) if settled_at(events, verdicts, s)]
    points.update(settled[i * len(settled) // 4] for i in range(4) if settled)
    return sorted(p for p in points if 0 < p < N)


def settled_at(events, verdicts, at):
    """True when the table has announced every consequence by `at`: its next
    event is a flip the engine accepted (RULINGS A4: no flip until the last
    consequence; SPEC 7.6: the table announces each elimination).  Not so before
    the claim: the last elimination, which ends the game, needs no `out`."""
    if at + 1 >= len(events):
        return False
    ev, v = events[at + 1], verdicts[at + 1]
    return ev.get("type") == "flip" and isinstance(v, dict) and v.get("status") in APPLIED


def unseen_stacks(b, view):
    """A classic board with what only some views see taken out: every stack's
    cards (arbiter-replay(1): stack_cards only where the view may see the stack)."""
    out = json.loads(json.dumps(b))
    out.pop("view", None)
    out.pop("verdicts", None)      # their sentences are drawn in the view (arbiterd(8))
    for pl in out.get("players") or []:
        if isinstance(pl, dict):
            pl.pop("stack_cards", None)
    return out


def check_classic_board(b, table, view, at, events, verdicts, where):
    """One classic board against the table the log gives (arbiter-replay(1))."""
    s = table.after[at]
    R.check(b.get("format") == "classic" and b.get("variant") == CLASSIC_VARIANT[table.common],
            "a classic board names its format and variant (arbiter-replay(1))",
            "%s: format %r, variant %r, the header's common_pile %s" % (
                where, b.get("format"), b.get("variant"), table.common))
    R.check(b.get("view", view) == view, "the board is drawn in the view asked for",
            "%s: view %r" % (where, b.get("view")))
    pls = b.get("players")
    if not R.check(isinstance(pls, list) and [x.get("seat") if isinstance(x, dict) else None
                                              for x in pls] == table.seats,
                   "a classic board's players are one per seat, p1 first (arbiter-replay(1))",
                   "%s: players %s" % (where, short(pls, 200))):
        return
    for pl in pls:
        p = pl["seat"]
        stack = s["stacks"][p]
        R.check(pl.get("stack") == len(stack),
                "stack is the face-down cards the log leaves the player (SPEC 7.6: deal, flip, "
                "take, penalty, turn_over)",
                "%s: %s stack %r, the log gives %d" % (where, p, pl.get("stack"), len(stack)))
        if view in ("judge", p):
            want = [table.hidden(p, view, h) for h in stack]
            R.check(pl.get("stack_cards") == want,
                    "the %s view shows %s's stack top first as the engine knows it "
                    "(arbiter-replay(1): HIDDEN, the id in open mode, \"committed\" in commit "
                    "mode, null announced)" % (view, p),
                    "%s: %s stack_cards %s, the log gives %s" % (
                        where, p, short(pl.get("stack_cards"), 160), short(want, 160)))
        else:
            R.check("stack_cards" not in pl,
                    "the %s view shows no card of %s's stack (arbiter-replay(1), arbiterd(8))"
                    % (view, p), "%s: %s stack_cards %s" % (where, p, short(pl.get("stack_cards"), 160)))
        if table.common:
            R.check("pile" not in pl, "the common-pile variant has no discard pile each",
                    "%s: %s pile %s" % (where, p, short(pl.get("pile"))))
        else:
            R.check(pl.get("pile") == pile_of(s["piles"][p]),
                    "pile is the player's discard pile: its count and face-up top (SPEC 7.6: "
                    "flip, take, pot, turn_over)",
                    "%s: %s pile %s, the log gives %s" % (
                        where, p, short(pl.get("pile")), pile_of(s["piles"][p])))
        if p in s["out"]:
            R.check(pl.get("out") is True, "a player the table announced out, or the rulebook "
                    "eliminates at once (A7; no card left with a pile each), is out",
                    "%s: %s out %r" % (where, p, pl.get("out")))
        elif settled_at(events, verdicts, at):
            R.check(pl.get("out") is False,
                    "once the table has announced every consequence, a player it did not "
                    "announce out is in (SPEC 7.6: out; arbiter-replay(1))",
                    "%s: %s out %r" % (where, p, pl.get("out")))
        else:
            R.check(isinstance(pl.get("out"), bool), "out is a bool", "%s: %s" % (where, short(pl)))
    if table.common:
        R.check(b.get("common_pile") == pile_of(s["common"]),
                "common_pile is the common discard pile: its count and top (SPEC 7.6)",
                "%s: common_pile %s, the log gives %s" % (
                    where, short(b.get("common_pile")), pile_of(s["common"])))
    else:
        R.check("common_pile" not in b, "the pile-each variant has no common pile",
                "%s: common_pile %s" % (where, short(b.get("common_pile"))))
    pot = b.get("pot") if isinstance(b.get("pot"), dict) else {}
    R.check(pot.get("count") == s["pot"] and (
        pot.get("top") is None if not s["pot"] else pot.get("top") in s["pot_tops"]),
        "pot is the snap pot: its count, and on top a matching card of the last disputed "
        "piles (SPEC 7.6: pot, take)",
        "%s: pot %s, the log gives %d cards, top one of %s" % (
            where, short(b.get("pot")), s["pot"], sorted(s["pot_tops"])))
    for k in ("calls_waiting", "consequences_due"):
        R.check(isinstance(b.get(k), int) and not isinstance(b.get(k), bool) and b[k] >= 0,
                "%s is a count (arbiter-replay(1))" % k, "%s: %s %r" % (where, k, b.get(k)))
    if settled_at(events, verdicts, at):
        R.check(b.get("consequences_due") == 0,
                "no consequence is due when the engine accepts the next flip (RULINGS A4)",
                "%s: consequences_due %r before seq %d's flip" % (
                    where, b.get("consequences_due"), at + 1))
    over = b.get("over")
    R.check(isinstance(over, bool) and isinstance(b.get("draw"), bool)
            and (b.get("winner") is None or b.get("winner") in table.seats),
            "over and draw are bools, winner a seat or null (arbiter-replay(1))",
            "%s: over %r, winner %r, draw %r" % (where, over, b.get("winner"), b.get("draw")))
    if settled_at(events, verdicts, at) and over is False:
        R.check(b.get("next") == table.next_seat(at),
                "next is who flips next: clockwise from the last to flip, skipping players "
                "out; first the `first` lever's seat or the dealer's left (arbiter-replay(1), "
                "RULINGS A14)", "%s: next %r, the log gives %r" % (
                    where, b.get("next"), table.next_seat(at)))
    if over is True:
        R.check(b.get("next") is None, "nobody flips next once the game is over",
                "%s: next %r" % (where, b.get("next")))
    if over is True and b.get("winner") in table.seats:
        R.check(all(pl.get("out") is (pl.get("seat") != b["winner"]) for pl in pls),
                "a won game leaves the winner in and every other player out (classic-snap.md: "
                "once all but one player has been eliminated, the remaining player wins)",
                "%s: winner %r, out %s" % (where, b["winner"],
                                           {pl.get("seat"): pl.get("out") for pl in pls}))
    if s["end"] is not None:
        kind, who = s["end"]
        R.check(over is True and (b.get("draw") is True and b.get("winner") is None
                                  if kind == "draw" else b.get("winner") == who),
                "after the claim the engine accepted, the board is over with the claim's "
                "outcome (SPEC 7.6: a claim that disagrees is a mismatch)",
                "%s: over %r, winner %r, draw %r; claim %s %r" % (
                    where, over, b.get("winner"), b.get("draw"), kind, who))
    if "verdicts" not in b:
        return                     # the daemon's board leaves the replay's verdicts out
    want_v = [(v.get("seq"), v.get("status"), v.get("rule")) for v in verdicts[:at + 1]
              if isinstance(v, dict) and v.get("status") != "ok"]
    got_v = [(v.get("seq"), v.get("status"), v.get("rule")) for v in b.get("verdicts") or []
             if isinstance(v, dict)]
    R.check(got_v == want_v, "the board's verdicts are every verdict so far that is not ok "
            "(arbiter-replay(1))", "%s: %s, live %s" % (where, short(got_v), short(want_v)))


def check_state_classic(q, M, events, verdicts, secrets, summary, arbiter=None, log=None):
    """`state` of a classic Snap match in every view, p1..pN (arbiterd(8),
    arbiter-replay(1) A CLASSIC SNAP BOARD), against the table the log gives."""
    table = ClassicTable(events, verdicts, secrets.cards)
    if not table.deck:
        R.note("no card database for %r: a draw the snap pot locks away (RULINGS A8) is not "
               "foreseen" % events[0].get("cards"))
    for pr in table.problems:
        R.note("table kept from the log: " + pr)
    points = classic_points(events, verdicts, table)
    views = ["judge", "public"] + table.seats
    R.info("state (classic, %d players) checked at seqs %s in views %s"
           % (len(table.seats), points, ", ".join(views)))

    def board(at, view, b, judge, where):
        check_classic_board(b, table, view, at, events, verdicts, where)
        if judge is not None:
            mv, mj = unseen_stacks(b, view), unseen_stacks(judge, "judge")
            diff = sorted(k for k in set(mv) | set(mj) if mv.get(k) != mj.get(k))
            R.check(not diff, "the %s board is the judge's but for the stacks' cards "
                    "(arbiter-replay(1): counts, piles, the pot are public)" % view,
                    "%s: %s differ" % (where, diff))

    check_boards(q, M, len(events), points, views, secrets, list, board, summary, arbiter, log)


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

    def encode(self, req):
        return msgpack.packb(req) if self.encoding == "msgpack" else json.dumps(req).encode()

    def ask(self, req, where):
        fr = self._ask(self.encode(req))
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
                    "summary and the verify op with `arbiter verify --json`, and each Advanced, "
                    "Master and classic state board with `arbiter replay --json` (with --cards "
                    "FILE, given to both)")
    ap.add_argument("--cards", default=os.environ.get("ARBITER_CARDS"),
                    help="the card database the log's header names (default $ARBITER_CARDS): "
                    "with it, no public text may name a card not yet revealed, and a classic "
                    "game's deck and matching values are known")
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
    if a.cards:
        CARDS_ARGS[:] = ["--cards", a.cards]
    cards, tag = card_db(a.cards) if a.cards else ({}, None)
    if a.cards and not cards:
        R.note("no card database read from %s: card names are not checked" % a.cards)
    elif cards and tag != events[0].get("cards"):
        R.note("the card database %s is %s, the header names %r: card names are not checked"
               % (a.cards, tag, events[0].get("cards")))
        cards = {}
    secrets = Secrets(events, cards)
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
           "select and lock cards, mana card, classic stack cards) nor any unrevealed card id anywhere (also in "
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
    if secrets.format in DUEL:
        check_state_duel(q, M, events, verdicts, secrets, summary,
                             a.arbiter, os.path.abspath(a.log))
    elif secrets.format == "classic":
        check_state_classic(q, M, events, verdicts, secrets, summary,
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
    sits = seats(events[0])
    for ev, v in zip(events, verdicts):
        if not isinstance(v, dict) or v.get("status") not in ("ok", "warning"):
            continue
        if ev.get("type") == "claim" and ev.get("winner") in sits:
            R.check(found["winner"] == ev["winner"],
                    "match winner agrees with the claim the engine accepted (7)",
                    "winner %r, seq %s claimed %r" % (found["winner"], ev["seq"], ev["winner"]))
        if ev.get("type") == "claim" and ev.get("draw") is True:
            dr, _p = find_key(r, "draw")
            R.check(found["winner"] is None and dr is True,
                    "an accepted claim of a draw leaves the match no winner and draw:true "
                    "(SPEC 7.6; arbiter-records(5): draw)",
                    "winner %r, draw %r; seq %s claimed a draw" % (found["winner"], dr, ev["seq"]))
        if ev.get("type") == "concede" and ev.get("by") in sits and len(sits) == 2:
            other = sits[1] if ev["by"] == sits[0] else sits[0]
            R.check(found["winner"] == other,
                    "an accepted concession makes the other player the winner (7: concede)",
                    "winner %r, seq %s: %s conceded" % (found["winner"], ev["seq"], ev["by"]))
    if events[0].get("format") in DUEL:
        hdr_pub = hdr if isinstance(hdr, dict) else {}
        # arbiterd(8): the header in the view (default public): no decklist
        for p, x in (hdr_pub.get("players") or {}).items():
            R.check(not isinstance(x, dict) or x.get("deck") is None,
                    "the match reply's header (public view) shows no decklist (arbiterd(8))",
                    "players.%s.deck = %s" % (p, short(x.get("deck"), 80)))
    fin, _p = find_key(r, "finished")
    out = {"status": found["status"], "winner": found["winner"], "finished": fin}
    for k in ("events", "unverified", "draw"):
        v, p = find_key(r, k)
        if p is not None:
            out[k] = v
    out["counts"] = found["counts"]
    return out


def seats(header):
    """The header's seats, "p1" to "pN" in order (SPEC.md 5: keys p1..pN of
    `players`, 2 <= N <= 8; any other key is no seat)."""
    keys = [k for k in (header.get("players") or {}) if len(k) == 2 and k[0] == "p" and k[1] in "12345678"]
    return sorted(keys, key=lambda k: int(k[1:]))


def events_pages(q, M, frm, to, view, where):
    """Every stored event from..to in a view, page by page (arbiterd(8): events:
    1,000 events or about 128 KiB a page; `next` is the `from` of the following
    page, null when there is none): (the first reply, [items]) or (None, None)."""
    first, items, pages = None, [], 0
    while True:
        r = q.ask({"op": "events", "match": M, "from": frm, "to": to, "view": view},
                  "%s from %d" % (where, frm))
        if r is None or not R.check(r.get("ok") is True, "events answers ok:true", short(r)):
            return None, None
        first = first or r
        pages += 1
        _p, got = find_list_of_maps(r, lambda x: "event" in x or "seq" in x)
        items += got or []
        nxt = r.get("next")
        if nxt is None:
            break
        if not R.check(isinstance(nxt, int) and nxt > frm and got and pages < 10000,
                       "events' next is the from of the following page, past this one "
                       "(arbiterd(8))", "%s: from %d, next %r" % (where, frm, nxt)):
            break
        frm = nxt
    if pages > 1:
        R.info("%s: %d pages" % (where, pages))
    return first, (items or None)


def check_events(q, M, events, verdicts, secrets):
    N = len(events)
    by_seq = {ev["seq"]: ev for ev in events}
    adv = secrets.format in SEATED
    for view in ["public", "judge"] + (seats(events[0]) if adv else ["p1"]):
        r, items = events_pages(q, M, 0, N - 1, view, "events view=%s" % view)
        if r is None or not R.check(items is not None, "events reply holds a list of events",
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
                # arbiterd(8) defines them: the public view plus the player's own
                # hidden cards and decklist
                check_view_hidden(e, orig, view, where)
                if v is not None and owner_of(orig) != view:
                    for b in leaks(v, secrets, seq, where + " verdict"):
                        R.fail("the %s view leaks in a verdict (arbiterd(8))" % view, b)
            elif view == "p1":
                # 9 names the views but does not define them; the reading here:
                # p1 sees what the public sees plus p1's own hidden cards.
                if orig.get("by") == "p2":
                    for path, hv in hidden_hrefs(e):
                        if isinstance(hv, str) and hv in secrets.unrevealed(seq):
                            R.note("%s: p1's view shows p2's unrevealed %s = %r "
                                   "(9 does not define the p1 view)" % (where, path, hv))
            if v is not None and seq < len(verdicts) and isinstance(verdicts[seq], dict):
                R.check(v == verdicts[seq] or (view != "judge" and redacted(
                    v, verdicts[seq], orig, view, secrets)),
                        "events carry the stored verdict (arbiterd(8): its sentence drawn in "
                        "the view, \"a hidden card\" for a card its event hides from it)",
                        "%s: %s vs ingest %s" % (where, short(v), short(verdicts[seq])))


def redacted(v, stored, orig, view, secrets):
    """True when verdict v is `stored` with its sentence drawn in `view`
    (arbiterd(8) VIEWS): every key the same but msg, where each "a hidden card"
    stands for a card the event hides from that view (its hrefs, not the
    view's own), by id or name."""
    if not isinstance(v, dict) or {k: x for k, x in v.items() if k != "msg"} != \
            {k: x for k, x in stored.items() if k != "msg"}:
        return False
    msg, full = v.get("msg"), stored.get("msg")
    if not isinstance(msg, str) or not isinstance(full, str) or "a hidden card" not in msg:
        return False
    if owner_of(orig) == view:
        return False
    hid = {h for _p, h in hidden_hrefs(orig) if isinstance(h, str)}
    words = hid | {secrets.names[c] for c in hid if c in secrets.names}
    m = re.fullmatch("(.+?)".join(re.escape(x) for x in msg.split("a hidden card")), full)
    return m is not None and all(g in words for g in m.groups())


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
    """`arbiter verify --json LOG`: the batch report (arbiter-verify(1))."""
    try:
        cp = subprocess.run([arbiter, "verify", "--json", "-j", "1", log] + CARDS_ARGS,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        return json.loads(cp.stdout.decode().splitlines()[0]), None
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as e:
        return None, str(e)


REPORT_KEYS = ("match", "format", "engine", "status", "winner", "finished", "draw", "events",
               "counts", "unverified", "verdicts")


def check_against_cli(q, M, events, verdicts, summary, arbiter, log):
    """openlog 10: batch (`arbiter verify`) and live verdicts are identical;
    arbiterd(8): the `verify` op reports as `arbiter verify --json`, and a summary
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
        for k in ("status", "winner", "finished", "draw", "events", "counts", "unverified"):
            if k in summary or (k == "draw" and k in cli):
                R.check(summary.get(k) == cli.get(k),
                        "the match summary says what arbiter verify says (9, 10)",
                        "%s: summary %s, arbiter verify %s" % (k, short(summary.get(k)),
                                                               short(cli.get(k))))
    if len(events) > VERIFY_MAX:
        return                     # refused, as check_verify saw
    r = q.ask({"op": "verify", "log": events}, "verify (against the command line)")
    if r is None or r.get("ok") is not True:
        return
    rep = r.get("report") if isinstance(r.get("report"), dict) else r
    diff = [k for k in REPORT_KEYS if rep.get(k) != cli.get(k)]
    R.check(not diff, "the verify op reports as arbiter verify --json (arbiterd(8): verify)",
            "keys %s differ: op %s, command %s" % (diff, short({k: rep.get(k) for k in diff}),
                                                  short({k: cli.get(k) for k in diff})))


def check_verify(q, M, events, verdicts, tally):
    r = q.ask({"op": "verify", "log": events}, "verify")
    if r is None:
        return
    if len(events) > VERIFY_MAX:
        # arbiterd(8) LIMITS: a verify query, 1,000 events; past it {"ok":false}
        R.check(r.get("ok") is False, "a verify query of more than %d events is refused "
                "(arbiterd(8): limits)" % VERIFY_MAX, "%d events: %s" % (len(events), short(r)))
        R.info("verify of %d events refused: %r" % (len(events), r.get("error")))
        return
    if not R.check(r.get("ok") is True, "verify answers ok:true (arbiterd(8): a list of at "
                   "most 1,000 events; a query request of at most 512 KiB)",
                   "%d events, a %s request of %d bytes: %s" % (
                       len(events), q.encoding, len(q.encode({"op": "verify", "log": events})),
                       short(r))):
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
    r, items = events_pages(q, M, 0, N + 200, "judge", "events after probes")
    if r is not None:
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
