#!/usr/bin/env bash
# run.sh SRCDIR DIR TARGET... -- run each fuzz target for $FUZZ_SECONDS
# (default 15), $FUZZ_JOBS at a time (default 1), from DIR/seeds/TARGET,
# growing DIR/corpus/TARGET, its output in DIR/logs/TARGET.log
# (fuzz/README.md).  Prints one line per target as it ends (runs,
# coverage, corpus); a target that stops before its time -- a crash, a
# leak, a timeout, a harness abort -- fails the run, with the end of its
# log and the input it left (DIR/logs/TARGET-crash-*).
set -uo pipefail
[ $# -ge 3 ] || { echo "usage: fuzz/run.sh SRCDIR DIR TARGET..." >&2; exit 2; }
src=$1 dir=$2
shift 2
secs=${FUZZ_SECONDS:-15}
jobs=${FUZZ_JOBS:-1}
export ARBITER_SRCDIR=$src ARBITER_CARDS=$src/fixtures/cards/core.json
mkdir -p "$dir/logs"

# run_one TARGET: one target's run; its lines printed at once when it ends.
run_one() {
    local t=$1 log=$dir/logs/$1.log out runs cov corp
    local opts=(-max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
                -artifact_prefix="$dir/logs/$t-")
    case $t in
        fuzz_decode_*|fuzz_session) opts+=(-dict="$src/fuzz/openlog.dict") ;;
    esac
    case $t in
        fuzz_cards) opts+=(-max_len=262144) ;;
        fuzz_session) opts+=(-max_len=65536) ;;
    esac
    mkdir -p "$dir/corpus/$t"
    if "$dir/$t" "${opts[@]}" "$dir/corpus/$t" "$dir/seeds/$t" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1)
        corp=$(grep -Eo 'corp: [0-9]+' "$log" | tail -n 1)
        printf 'fuzz %-20s ok: %s inputs in %s s, %s, %s\n' "$t" "${runs:-?}" "$secs" "${cov:-cov: ?}" "${corp:-corp: ?}"
        return 0
    fi
    out=$(printf 'fuzz %-20s FAILED (%s):\n' "$t" "$log"
          grep -E 'ERROR|SUMMARY|fuzz harness|Test unit written' "$log" | head -n 20
          tail -n 30 "$log")
    printf '%s\n' "$out"
    return 1
}

pids=()
for t in "$@"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
        wait -n
    done
    run_one "$t" &
    pids+=($!)
done
bad=0
for p in "${pids[@]}"; do
    wait "$p" || bad=$((bad + 1))
done
[ $bad -eq 0 ]
