# duel_fixtures.sh -- the checks of a duel format's generated fixtures, shared by
# e2e_advanced_fixtures.sh and e2e_master_fixtures.sh (sourced after lib.sh,
# not run).
#
#   duel_fixtures FORMAT "LEVERS THAT ONLY FORBID"
#
# fixtures/FORMAT (made by its generate.sh):
#   - every legal game verifies legal and finished with a winner, as .jsonl and
#     converted to .mlog; in open mode nothing is left unverified;
#   - the hidden mode changes what can be checked, never what is legal
#     (openlog 6): each open-mode legal game, announced instead (header hidden
#     "announced", select and mana hrefs null, nonces dropped), gets the same
#     verdicts, winner and end;
#   - a legal game whose header sets a lever that allows more than its default
#     (any lever but those that only forbid) is judged otherwise without it:
#     the game uses its lever;
#   - who sees which hidden card (openlog 9): in each open-mode legal game, at
#     a quarter, half, three quarters and the end of it, `arbiter replay --view public` (words and
#     JSON) names no card that is so far only selected into a hand or placed
#     face-down as mana (never summoned, played, discarded or removed), and
#     `--view judge --json` names each of them;
#   - every illegal log is flagged at exactly its .expect (one line "SEQ STATUS
#     RULE" per verdict that is not ok) in both encodings, every other event
#     verifying, and is named after a rule of its .expect;
#   - every rule id the engine can cite has an illegal log: the FORMAT: and
#     openlog: ids of verifiers/FORMAT/*.c, duel.c's "duel:x" as "FORMAT:x",
#     the openlog ids of the shared judge (openlog.c, verifier.c, duel.c) and
#     the format's deck rules (deck.c).

duel_fixtures() {
    local fmt=$1 forbid=$2 dir=$top_srcdir/fixtures/$1 n f b enc in out rc unv summary want got rules with without
    local named rule want_rc bad missing
    n=0
    for f in "$dir"/legal-*.jsonl; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        b=$(basename "$f" .jsonl)
        for enc in jsonl mlog; do
            in=$f
            if [ $enc = mlog ]; then in=$TMP/$b.mlog; "$ARBITER" convert "$f" "$in" || { fail "$b: convert"; continue; }; fi
            out=$("$ARBITER" verify --json "$in"); rc=$?
            # openlog 6: open mode leaves nothing unverified; in the other modes
            # the cards still hidden at the end (hand, Mana Zone) were never shown
            case "$b" in *-open-*) unv='"unverified":{"p1":0,"p2":0}' ;; *) unv='"unverified":{"p1":[0-9]+,"p2":[0-9]+}' ;; esac
            if [ $rc -eq 0 ] && [[ $out == *'"status":"legal"'* ]] && [[ $out == *'"finished":true'* ]] \
                && [[ $out == *'"winner":"p'[12]'"'* ]] && printf '%s' "$out" | grep -qE "$unv"; then
                pass "$b.$enc legal and finished, $(printf '%s' "$out" | grep -oE '"winner":"p[12]"')"
            else
                fail "$b.$enc: exit $rc: $out"
            fi
        done
    done
    [ $n -ge 12 ] || fail "only $n legal games in $dir"

    for f in "$dir"/legal-open-*.jsonl; do
        [ -e "$f" ] || continue
        b=$(basename "$f" .jsonl)
        jq -c 'if .type == "match" then .hidden = "announced"
               elif .type == "select" then .cards |= map(null)
               elif .type == "mana" then .card = null
               else . end | del(.nonce)' "$f" >"$TMP/$b.announced.jsonl" || { fail "$b: jq"; continue; }
        summary='{status, verdicts, winner, finished}'
        want=$("$ARBITER" verify --json "$f" | jq -c "$summary")
        got=$("$ARBITER" verify --json "$TMP/$b.announced.jsonl" | jq -c "$summary")
        if [ -n "$want" ] && [ "$got" = "$want" ] && ! grep -q '"cards":\["' "$TMP/$b.announced.jsonl"; then
            pass "$b in announced mode: the same verdicts, winner and end"
        else
            fail "$b in announced mode: want $want, got $got"
        fi
    done

    duel_views "$dir"

    for f in "$dir"/legal-*.jsonl; do
        [ -e "$f" ] || continue
        head -n 1 "$f" | jq -e --arg forbid "$forbid" '(.rules // {}) | keys - ($forbid | split(" ")) | length > 0' \
            >/dev/null || continue
        rules=$(head -n 1 "$f" | jq -c '.rules')
        { head -n 1 "$f" | jq -c 'del(.rules)'; tail -n +2 "$f"; } >"$TMP/nolever.jsonl"
        summary='{status, winner, finished}'
        with=$("$ARBITER" verify --json "$f" | jq -c "$summary")
        without=$("$ARBITER" verify --json "$TMP/nolever.jsonl" | jq -c "$summary")
        if [ "$with" != "$without" ]; then
            pass "$(basename "$f"): $rules changes the game (without it: $without)"
        else
            fail "$(basename "$f"): judged the same without $rules: the game does not use its levers"
        fi
    done

    # the status may be warning (the shot clock): the log is then legal (exit 0)
    n=0
    for f in "$dir"/illegal-*.jsonl; do
        [ -e "$f" ] || continue
        n=$((n + 1))
        b=$(basename "$f" .jsonl)
        [ -s "$dir/$b.expect" ] || { fail "$b: no .expect"; continue; }
        want=$(awk '{ printf "%s\"seq\":%s,\"status\":\"%s\",\"rule\":\"%s\"", (NR > 1 ? "\n" : ""), $1, $2, $3 }' "$dir/$b.expect")
        want_rc=0
        grep -qv ' warning ' "$dir/$b.expect" && want_rc=1
        # the file is named after a rule of its .expect (":" and "." as "_")
        named=no
        for rule in $(awk '{ print $3 }' "$dir/$b.expect" | tr ':.' '__'); do
            case "$b" in "illegal-$rule-"*) named=yes ;; esac
        done
        [ $named = yes ] || fail "$b: named after no rule of its .expect"
        for enc in jsonl mlog; do
            in=$f
            if [ $enc = mlog ]; then in=$TMP/$b.mlog; "$ARBITER" convert "$f" "$in" || { fail "$b: convert"; continue; }; fi
            out=$("$ARBITER" verify --json "$in"); rc=$?
            # every verdict that is not ok, in seq order: exactly the expected ones
            bad=$(printf '%s' "$out" | grep -oE '"seq":[0-9]+,"status":"(warning|illegal|mismatch|conflict|gap|malformed|duplicate)"(,"rule":"[^"]*")?')
            if [ $rc -eq $want_rc ] && [ "$bad" = "$want" ]; then
                pass "$b.$enc: $(tr '\n' ' ' <"$dir/$b.expect")and the rest verifies"
            else
                fail "$b.$enc: exit $rc (want $want_rc), want only $want, got: ${bad:-nothing}"
            fi
        done
    done
    [ $n -gt 0 ] || fail "no illegal logs in $dir"

    missing=
    for rule in $({ grep -ohE "\"($fmt|openlog):[A-Za-z0-9._]+\"" "$top_srcdir"/verifiers/"$fmt"/*.c
                    grep -ohE '"duel:[A-Za-z0-9._]+"' "$top_srcdir"/verifiers/duel.c | sed "s/\"duel:/\"$fmt:/"
                    grep -ohE '"openlog:[A-Za-z0-9._]+"' "$top_srcdir"/verifiers/openlog.c \
                        "$top_srcdir"/verifiers/verifier.c "$top_srcdir"/verifiers/duel.c
                    grep -ohE "\"$fmt:[A-Za-z0-9._]+\"" "$top_srcdir"/verifiers/deck.c; } | tr -d '"' | sort -u); do
        cat "$dir"/illegal-*.expect | grep -q " $rule\$" || missing="$missing $rule"
    done
    if [ -z "$missing" ]; then
        pass "every rule id the $fmt engine can cite has an illegal log"
    else
        fail "rule ids without an illegal log in $dir:$missing"
    fi
}

# duel_views DIR: the public view hides what is hidden; the judge's shows it.
duel_views() {
    local dir=$1 f b last k v hidden id name leaks missing
    for f in "$dir"/legal-open-*.jsonl; do
        [ -e "$f" ] || continue
        b=$(basename "$f" .jsonl)
        last=$(($(grep -c . "$f") - 1))
        leaks=
        missing=
        for k in $((last / 4)) $((last / 2)) $((3 * last / 4)) "$last"; do
            # "id<TAB>name" of each card selected or placed as mana up to k
            # and not shown since (summoned, played, discarded, removed)
            hidden=$(jq -rs --argjson k "$k" --slurpfile db "$ARBITER_CARDS" '[.[] | select(.seq <= $k)] as $e
                | ([$e[] | select(.type == "select") | .cards[]?] + [$e[] | select(.type == "mana") | .card])
                  - [$e[] | select(.type != "select" and .type != "mana" and .type != "match") | .card? // empty]
                | unique | .[] | strings | . as $id
                | "\($id)\t\($db[0].cards[] | select(.id == $id) | .name)"' "$f")
            for v in "public" "public --json" "judge --json"; do
                # shellcheck disable=SC2086
                out=$("$ARBITER" replay "$f" --at "$k" --view $v 2>&1) || { fail "$b at $k, view $v: $out"; continue; }
                while IFS=$'\t' read -r id name; do
                    [ -n "$id" ] || continue
                    case $v in
                        public*) [[ $out == *"$id"* || $out == *"$name"* ]] && leaks="$leaks $k:$v:$id" ;;
                        judge*) [[ $out == *"\"$id\""* ]] || missing="$missing $k:$id" ;;
                    esac
                done <<<"$hidden"
            done
        done
        if [ -z "$leaks$missing" ]; then
            pass "$b: the public view names no hidden card, the judge's names each (4 points of the game)"
        else
            fail "$b: public view leaks:${leaks:- none}; judge view misses:${missing:- none}"
        fi
    done
}
