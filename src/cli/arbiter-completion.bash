# arbiter-completion.bash -- bash completion for arbiter(1) and arbiterd(8).
#
# Installed as $(datadir)/bash-completion/completions/arbiter (and a link
# for arbiterd), where bash-completion loads it on demand; or source it.
# The commands and options are the tables below, one line per command, as
# each command's --help lists them: tests/e2e_completion.sh holds the two to
# each other, so a new option must be added here too.

_arbiter_commands="cards deck convert verify replay send audit list query tournament store keygen pg"

# _arbiter_options CMD [SUB]: the options of one command (or sub-command)
_arbiter_options() {
    case "$1${2:+ $2}" in
        cards) echo "--json" ;;
        "deck check") echo "--format --rules --header --cards --json" ;;
        "deck rules") echo "--format --json" ;;
        convert) echo "--from --to" ;;
        verify) echo "--cards -j --json --quiet --from" ;;
        replay) echo "--at --view --cards --json" ;;
        send) echo "--endpoint --tables --rate --timeout --raw --key --server-key --json --quiet" ;;
        audit) echo "--db --query --pg --venue --at --view --against --cards --sealed-by --trusted-seals --head --key --server-key --json --html" ;;
        list) echo "--db --query --tournament --status --key --server-key --json" ;;
        query) echo "--endpoint --key --server-key" ;;
        tournament*) echo "--file --db --pg --after --final --round --view --out --projector --seed --cards --json --csv" \
                          "--id --name --format --structure --swiss-rounds --cut --rule --round-minutes --timezone" \
                          "--player --deck --reason --start --table --winner --draw --judge --text --at" \
                          "--draw-win --engine --at-time --double-loss --scores --match --tier --decklists-public" \
                          "--cut-on-later-day" ;;
        store*) echo "--sealed-by --trusted-seals --json" ;;
        keygen) echo "--out --role" ;;
        pg*) echo "--json --replace" ;;
    esac
}

_arbiterd_options="--db --ingest --feed --query --cards --key --trusted-seals --keyring --insecure --seal-legacy
--max-connections --peer-connections --max-matches --peer-matches --quarantine-max --log-level --map-mb
--replicate --venue --broadcast-delay --broadcast
--tournament"

# Words an option takes, or "file" / "dir" / "" (a value to type); $2 the
# subcommand, $3 the command (verify's --from is a file, convert's a format).
_arbiter_values() {
    case "$1" in
        --format) echo "snap advanced master" ;;
        --structure) echo "basic advanced" ;;
        --reason) echo "drop no_show disqualified" ;;
        --tier) echo "relaxed formal premier" ;;
        --view) echo "judge public p1 p2 p3 p4 p5 p6 p7 p8" ;;
        --status) echo "legal illegal" ;;
        --from) if [ "$3" = verify ]; then echo file; else echo "mlog jsonl"; fi ;;   # verify's: a list
        --to) echo "mlog jsonl" ;;
        --role) echo "table judge organiser viewer broadcast" ;;
        --log-level) echo "error warn info debug" ;;
        --csv) [ "$2" = stats ] && echo "cards classes rules length progress decklists" ;;
        --cards | --file | --out | --html | --key | --keyring | --server-key | --tournament | --trusted-seals | --header | \
            --sealed-by | --deck) echo file ;;
        --db | --against) echo dir ;;
        *) echo "" ;;
    esac
}

_arbiter_complete_value() {
    local cur=$1 values=$2
    case "$values" in
        file) mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        dir) mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
        *) mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur") ;;
    esac
}

_arbiter() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} cmd="" sub="" i
    COMPREPLY=()
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "${COMP_WORDS[i]}" in
            -*) ;;
            *) if [ -z "$cmd" ]; then cmd=${COMP_WORDS[i]}
               elif [ -z "$sub" ] && { [ "$cmd" = deck ] || [ "$cmd" = tournament ] || [ "$cmd" = store ] || [ "$cmd" = pg ]; }; then
                   sub=${COMP_WORDS[i]}
               fi ;;
        esac
    done
    if [ -z "$cmd" ]; then
        mapfile -t COMPREPLY < <(compgen -W "$_arbiter_commands --help --version" -- "$cur")
        return
    fi
    if [ -z "$sub" ] && [ "$cmd" = deck ]; then
        mapfile -t COMPREPLY < <(compgen -W "check rules" -- "$cur")
        return
    fi
    if [ -z "$sub" ] && [ "$cmd" = tournament ]; then
        mapfile -t COMPREPLY < <(compgen -W "standings pair alarms html stats wall slips new add drop late-entry publish result report intentional-draw time-call close undo status" -- "$cur")
        return
    fi
    if [ -z "$sub" ] && [ "$cmd" = store ]; then
        mapfile -t COMPREPLY < <(compgen -W "check salvage backup" -- "$cur")
        return
    fi
    if [ -z "$sub" ] && [ "$cmd" = pg ]; then
        mapfile -t COMPREPLY < <(compgen -W "migrate version venue" -- "$cur")
        return
    fi
    if [ "$cmd" = pg ] && [ "$prev" = venue ]; then
        mapfile -t COMPREPLY < <(compgen -W "add list" -- "$cur")
        return
    fi
    if [ "$cmd" = store ] && [[ $cur != -* ]]; then   # DIR, NEWDIR
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
        return
    fi
    # an option that takes a value: its words, a file, or nothing to offer
    if [[ $prev == -* ]] && ! [[ $prev =~ ^--(json|quiet|raw|final|projector|draw|engine|at-time|double-loss|decklists-public|cut-on-later-day|help)$ ]] &&
        { [ "$prev" != --csv ] || [ "$sub" = stats ]; }; then
        _arbiter_complete_value "$cur" "$(_arbiter_values "$prev" "$sub" "$cmd")"
        return
    fi
    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_arbiter_options "$cmd" "$sub") --help" -- "$cur")
    else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
    fi
}

_arbiterd() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    if [[ $prev == -* ]] && ! [[ $prev =~ ^--(insecure|seal-legacy|help)$ ]]; then
        _arbiter_complete_value "$cur" "$(_arbiter_values "$prev")"
    else
        mapfile -t COMPREPLY < <(compgen -W "$_arbiterd_options --help" -- "$cur")
    fi
}

complete -F _arbiter arbiter
complete -F _arbiterd arbiterd
