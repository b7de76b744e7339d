#!/usr/bin/env bash
# Distributed exploration (issues 17 and 30): the monolithic breadth-first check on one thread
# (`--threads 1`) beside the distributed engine of guarantor-dist (`--processes 1` and
# `--processes 2`, one worker each, on 127.0.0.1), properties only (`--no-deadlock`). The three
# engines run in turn within each repeat, so that they share the machine's load; a cell is the
# median wall seconds of R whole CLI runs and its ratio to mono's median. Per distributed run the
# CLI's JSON gives the states each process stored, the bytes sent between processes, and each
# process's milliseconds exploring and in the exchange; the table shows them for the median run.
# The states must agree with mono's ("MISMATCH" when they do not). The header names the store,
# the repeats, the date and the commit; per process: states, seconds exploring / in the exchange;
# load: the 1-minute load average before-after the case. Cases are FAMILY:TARGET:N
# (benchmarks/families.tsv). The 1-minute load average is read before and after each case: this
# machine has 2 cores and is shared, so 2 processes against one thread is only fair on an idle
# machine (under load the two processes compete with other work for the same 2 cores).
#
# Usage: benches/compare/dist.sh [--repeat R] [--timeout S] [--storage table|compact] [--write] [CASE...]
#   --storage  the visited-state store of every engine (default: table, as first measured)
#   --write    splice the table into docs/benchmarks.md (between the dist markers)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target); BENCH_FIFO=1 runs the
# measured processes under SCHED_FIFO (see common.sh), for a machine that other work shares.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REPEAT=5; TIMEOUT=600; WRITE=""; STORAGE=table; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --repeat) REPEAT=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --storage) STORAGE=$2; shift 2 ;;
        --write) WRITE=1; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -eq 0 ] && CASES=(dining:SYS:9 clientserver:SYS:14 gas:SYS:10)

build_cli --features dist
mkdir -p "$CARGO_TARGET_DIR"
WORK=$(mktemp -d "$CARGO_TARGET_DIR/dist-bench.XXXXXX"); trap 'rm -rf "$WORK"' EXIT

ENGINES=("--threads 1" "--processes 1" "--processes 2")

# one_run I ENGINE: one timed run of engine I; appends "secs states extra" to $WORK/runs.I, where
# extra is, for a distributed run, per process "states/explore_ms/exchange_ms" and the bytes sent.
one_run() {
    local i=$1 engine=$2 json p extra=""
    # shellcheck disable=SC2086 # the engine's flags are two words
    timed_check "$WORK/m.lts" --target "$target" --no-deadlock --storage "$STORAGE" $engine
    json=$(cat "$WORK/out.json")
    if [ "$i" -gt 0 ]; then
        for ((p = 0; ; p++)); do
            local s
            s=$(json_field "$json" "process_${p}_states")
            [ -z "$s" ] && break
            extra="$extra $s/$(json_field "$json" "process_${p}_explore_ms")/$(json_field "$json" "process_${p}_exchange_ms")"
        done
        extra="$extra $(json_field "$json" bytes_sent)"
    fi
    echo "$secs $states$extra" >> "$WORK/runs.$i"
}

# median_line I: the run of engine I with the median time.
median_line() {
    sort -n "$WORK/runs.$1" | awk -v r="$REPEAT" 'NR == int((r + 1) / 2)'
}

load1() { cut -d' ' -f1 /proc/loadavg; }

TABLE="$WORK/table.md"
{
    echo "| case ($STORAGE store, median of $REPEAT${PRIORITY[*]:+, under ${PRIORITY[*]}}; $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "no git")) | states | mono 1 thread | dist 1 process | dist 2 processes | per process (2 p): states, explore / exchange | bytes sent / state (2 p) | load |"
    echo "|---|---:|---:|---:|---:|---|---:|---|"
} > "$TABLE"
for case in "${CASES[@]}"; do
    IFS=: read -r fam target n <<< "$case"
    generate "$fam" "$n" "$WORK/m.lts"
    rm -f "$WORK"/runs.*
    load_before=$(load1)
    for ((r = 0; r < REPEAT; r++)); do
        for i in "${!ENGINES[@]}"; do one_run "$i" "${ENGINES[$i]}"; done
    done
    load_after=$(load1)
    for i in "${!ENGINES[@]}"; do
        while read -r secs states rest; do
            read -ra parts <<< "$rest"
            procs="" bytes=""
            if [ ${#parts[@]} -gt 0 ]; then
                bytes=${parts[${#parts[@]}-1]}
                procs=$(printf '%s ' "${parts[@]:0:${#parts[@]}-1}" | sed 's/ $//')
            fi
            echo "$fam $target N=$n,${ENGINES[$i]},$secs,$states,$procs,$bytes,$load_before,$load_after,$(date -u '+%Y-%m-%d %H:%M')" >> "$WORK/csv"
        done < "$WORK/runs.$i"
    done
    read -r base base_states _ < <(median_line 0)
    row="| $fam $target N=$n | $base_states | $(awk -v s="$base" -v n="$base_states" 'BEGIN { printf "%.2f s, %.2f us/state", s, (n > 0 ? s * 1e6 / n : 0) }')"
    for i in 1 2; do
        read -r secs states rest < <(median_line "$i")
        cell=$(awk -v s="$secs" -v b="$base" 'BEGIN { printf "%.2f s, %.2f x", s, (b > 0 ? s / b : 0) }')
        [ "$states" != "$base_states" ] && cell="MISMATCH $states ($cell)"
        row="$row | $cell"
        [ "$i" -eq 2 ] && two="$rest" two_states=$states
    done
    # The 2-process run's extras: "s/e/x s/e/x bytes".
    read -ra parts <<< "$two"
    bytes=${parts[${#parts[@]}-1]}
    per=$(printf '%s\n' "${parts[@]:0:${#parts[@]}-1}" |
        awk -F/ '{ printf "%s%s, %.2f / %.2f s", (NR > 1 ? "; " : ""), $1, $2 / 1000, $3 / 1000 }')
    row="$row | $per | $(awk -v b="$bytes" -v n="$two_states" 'BEGIN { printf "%.1f", (n > 0 ? b / n : 0) }') | $load_before-$load_after |"
    echo "$row" >> "$TABLE"
done
if [ -n "$WRITE" ]; then
    # Every run, for benchmarks/results/: case, engine, seconds, states, then per process
    # "states/explore ms/exchange ms" (space separated) and the bytes sent between processes.
    CSV="$ROOT/benchmarks/results/dist-$STORAGE.csv"
    echo "case,engine,seconds,states,processes,bytes_sent,load_before,load_after,date" > "$CSV"
    cat "$WORK/csv" >> "$CSV"
    echo "runs written to $CSV"
fi
if [ -n "$WRITE" ]; then write_doc_table dist "$TABLE"; else cat "$TABLE"; fi
