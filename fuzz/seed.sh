#!/usr/bin/env bash
# seed.sh SRCDIR OUTDIR -- the seed corpora of the fuzz targets, from the
# fixtures (fuzz/README.md): OUTDIR/<target>/ for every target.
#
#   fuzz_decode_json     every event of the fixture logs, one JSON line each
#                        (no newline), and the malformed .jsonl corpus
#   fuzz_decode_msgpack  the same events as MessagePack maps, and the
#                        malformed .mlog corpus
#   fuzz_session         whole fixture logs framed as fuzz_session.c reads
#                        them (2-byte big-endian length, then the message),
#                        in JSON and in MessagePack, and a few cut short
#   fuzz_query           a request of every op, in JSON and in MessagePack,
#                        naming the matches of fuzz/query-store.list
#   fuzz_cards           fixtures/cards/*.json and fixtures/cards/broken/*
#   fuzz_deck            fixtures/decks/<format>/*.json
#
# Needs /usr/bin/python3 with msgpack (Debian: python3-msgpack).  Writes
# only under OUTDIR, which it empties first.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: fuzz/seed.sh SRCDIR OUTDIR" >&2; exit 2; }
exec /usr/bin/python3 - "$1" "$2" <<'PY'
import glob, hashlib, json, os, shutil, sys
import msgpack

src, out = sys.argv[1], sys.argv[2]
counts = {}

def put(target, data, name=None):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    name = name or hashlib.blake2b(data, digest_size=10).hexdigest()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    counts[target] = counts.get(target, 0) + 1

def fixture(*parts):
    return sorted(glob.glob(os.path.join(src, "fixtures", *parts)))

def lines(path):
    with open(path, "rb") as f:
        return [l.rstrip(b"\n") for l in f if l.strip()]

def frame(msgs):
    return b"".join(len(m).to_bytes(2, "big") + m for m in msgs)

shutil.rmtree(out, ignore_errors=True)
logs = fixture("snap", "*.jsonl") + fixture("advanced", "*.jsonl") + fixture("logs", "*.jsonl")

# one event per input, both encodings (the same event twice is written once)
for path in logs:
    for l in lines(path):
        put("fuzz_decode_json", l)
        try:
            put("fuzz_decode_msgpack", msgpack.packb(json.loads(l)))
        except ValueError:
            pass
for path in fixture("malformed", "*.jsonl"):
    for l in lines(path):
        put("fuzz_decode_json", l)
for path in fixture("malformed", "*.mlog"):
    with open(path, "rb") as f:
        put("fuzz_decode_msgpack", f.read())

# whole logs as one batch each; every fifth also cut short, and in MessagePack
for i, path in enumerate(logs):
    ls = lines(path)[:1024]
    put("fuzz_session", frame(ls), os.path.basename(path))
    if i % 5 == 0:
        put("fuzz_session", frame(ls[: len(ls) // 2]), os.path.basename(path) + ".half")
        try:
            put("fuzz_session", frame([msgpack.packb(json.loads(l)) for l in ls]), os.path.basename(path) + ".mp")
        except ValueError:
            pass

# the query ops against the matches fuzz_query's store holds
matches = []
with open(os.path.join(src, "fuzz", "query-store.list")) as f:
    for l in f:
        if l.strip() and not l.startswith("#"):
            with open(os.path.join(src, l.split()[0]), "rb") as g:
                matches.append(json.loads(g.readline())["match"])
reqs = [{"op": "health"}, {"op": "list"}, {"op": "list", "status": "illegal", "limit": 2},
        {"op": "list", "after": matches[0], "tournament": "spring"}, {"op": "quarantine"},
        {"op": "quarantine", "from": 1, "limit": 1}, {"op": "cards", "hash": "0" * 64}, {"op": "nope"}, {}]
for m in matches:
    for view in ("public", "p1", "p2", "judge"):
        reqs += [{"op": "match", "match": m, "view": view},
                 {"op": "events", "match": m, "from": 2, "to": 9, "limit": 3, "view": view},
                 {"op": "state", "match": m, "at": 7, "view": view}]
    reqs.append({"op": "state", "match": m})
verify_log = [json.loads(l) for l in lines(os.path.join(src, "fixtures", "snap", "legal-open-concede.jsonl"))]
reqs += [{"op": "verify", "log": verify_log}, {"op": "verify", "log": verify_log[:5]}, {"op": "verify", "log": []}]
# standings: fuzz_query's daemon has no --tournament, so these reach the checks
# of the request (and the refusal of an unknown tournament), not the worker
reqs += [{"op": "standings", "tournament": "spring"}, {"op": "standings"},
         {"op": "standings", "tournament": "spring", "after": 1}, {"op": "standings", "tournament": "spring", "final": True},
         {"op": "standings", "tournament": "spring", "after": 0, "final": True}, {"op": "standings", "tournament": 7}]
for r in reqs:
    put("fuzz_query", json.dumps(r, separators=(",", ":")))
    put("fuzz_query", msgpack.packb(r))

for path in fixture("cards", "*.json") + fixture("cards", "broken", "*"):
    with open(path, "rb") as f:
        put("fuzz_cards", f.read(), os.path.basename(path))
for path in fixture("decks", "*", "*.json"):
    with open(path, "rb") as f:
        put("fuzz_deck", f.read(), path.split(os.sep)[-2] + "-" + os.path.basename(path))

print("seeds in %s: %s" % (out, ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
PY
