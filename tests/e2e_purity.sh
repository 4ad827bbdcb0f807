#!/usr/bin/env bash
# The engines are pure (HACKING.md, verifiers/): nothing under verifiers/, nor any
# project header it includes, may include stdio, time, ZeroMQ, LMDB or a
# library that pulls stdio in (jansson, msgpack).  Followed transitively
# through the project's own "..." includes.  A format's game generator
# (verifiers/<format>/gen/) is a program, not the engine: it is not checked.
. "$(dirname "$0")/lib.sh"
cd "$top_srcdir" || exit 1

forbidden='stdio\.h|time\.h|sys/time\.h|zmq\.h|czmq\.h|lmdb\.h|jansson\.h|msgpack\.h|unistd\.h'
declare -A seen=()
queue=(verifiers/*.c verifiers/*.h verifiers/*/*.c verifiers/*/*.h)
while [ ${#queue[@]} -gt 0 ]; do
    f=${queue[0]}; queue=("${queue[@]:1}")
    [ -f "$f" ] || continue
    [ -n "${seen[$f]:-}" ] && continue
    seen[$f]=1
    while read -r inc; do
        queue+=("$inc")
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
    bad=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*<($forbidden)>" "$f")
    if [ -n "$bad" ]; then fail "$f includes a forbidden header: $bad"; else pass "$f"; fi
done
finish
