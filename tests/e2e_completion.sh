# e2e_completion.sh -- bash completion (src/cli/arbiter-completion.bash) as bash
# runs it: the commands `arbiter <TAB>` offers are those of arbiter --help;
# for each command, `arbiter CMD --<TAB>` offers exactly the options its
# --help lists; option values (formats, views, tables of stats) and files
# are offered where they belong; arbiterd's options are its --help's.
. "$(dirname "$0")/lib.sh"

: "${ARBITERD:=$top_builddir/arbiterd}"
C="$top_srcdir/src/cli/arbiter-completion.bash"

# complete LINE: what completion offers for LINE (the cursor at its end),
# sorted, one per line; run in a fresh bash
complete_line() {
    bash -c '. "$1"; read -ra COMP_WORDS <<<"$2"; [[ $2 == *" " ]] && COMP_WORDS+=("");
             COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); cd "$3" || exit 1
             if [ "${COMP_WORDS[0]}" = arbiterd ]; then _arbiterd; else _arbiter; fi
             printf "%s\n" "${COMPREPLY[@]}" | sort -u' _ "$C" "$1" "$TMP/dir"
}
mkdir -p "$TMP/dir/logs" && touch "$TMP/dir/cup.json" "$TMP/dir/game.jsonl"

# same NAME WANT GOT
same() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1: want [$(echo $2)], got [$(echo $3)]"; fi
}

cmds=$(arbiter_commands | sort)
same "arbiter <TAB>: the commands of arbiter --help" "$cmds" "$(complete_line 'arbiter ' | grep -v '^-')"

for cmd in $cmds; do
    if [ "$cmd" = deck ]; then
        help=$( ("$ARBITER" deck check --help; "$ARBITER" deck rules --help) 2>&1 | option_names)
        got=$( (complete_line 'arbiter deck check --'; complete_line 'arbiter deck rules --') | option_names)
    elif [ "$cmd" = tournament ] || [ "$cmd" = store ] || [ "$cmd" = pg ]; then
        help=$("$ARBITER" "$cmd" --help 2>&1 | option_names)
        sub=standings
        case $cmd in store) sub=check ;; pg) sub=migrate ;; esac
        got=$(complete_line "arbiter $cmd $sub --" | option_names)
    else
        help=$("$ARBITER" "$cmd" --help 2>&1 | option_names)
        got=$(complete_line "arbiter $cmd -" | option_names)
    fi
    same "arbiter $cmd -<TAB>: the options of its --help" "$help" "$got"
done

same "deck <TAB>" "$(printf 'check\nrules')" "$(complete_line 'arbiter deck ')"
same "pg <TAB>" "$(printf 'migrate\nvenue\nversion')" "$(complete_line 'arbiter pg ')"
same "pg venue <TAB>" "$(printf 'add\nlist')" "$(complete_line 'arbiter pg venue ')"
same "tournament <TAB>" "$(printf '%s\n' add alarms close drop html intentional-draw late-entry new pair publish report result \
    slips standings stats status time-call undo wall)" "$(complete_line 'arbiter tournament ')"
same "tournament drop --reason <TAB>" "$(printf 'disqualified\ndrop\nno_show')" \
    "$(complete_line 'arbiter tournament drop --reason ')"
same "--format <TAB>" "$(printf 'advanced\nmaster\nsnap')" "$(complete_line 'arbiter deck check --format ')"
same "--view <TAB>" "$(printf 'judge\np1\np2\np3\np4\np5\np6\np7\np8\npublic')" "$(complete_line 'arbiter replay game.jsonl --view ')"
same "stats --csv <TAB>: the tables" "$(printf 'cards\nclasses\ndecklists\nlength\nprogress\nrules')" \
    "$(complete_line 'arbiter tournament stats --file cup.json --csv ')"
same "standings --csv is a flag: files follow" "$(printf 'cup.json\ngame.jsonl\nlogs')" \
    "$(complete_line 'arbiter tournament standings --csv ')"
same "--file <TAB>: files" "cup.json" "$(complete_line 'arbiter tournament pair --file cu')"
same "--db <TAB>: directories" "logs" "$(complete_line 'arbiter list --db ')"
same "verify <TAB>: the logs" "game.jsonl" "$(complete_line 'arbiter verify ga')"
same "arbiterd -<TAB>: the options of arbiterd --help" "$("$ARBITERD" --help 2>&1 | option_names)" \
    "$(complete_line 'arbiterd -' | option_names)"
same "arbiterd --log-level <TAB>" "$(printf 'debug\nerror\ninfo\nwarn')" "$(complete_line 'arbiterd --log-level ')"

finish
