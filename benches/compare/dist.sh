#!/usr/bin/env bash
# Distributed exploration (issue 17): the monolithic breadth-first check on the single-process
# engine (`--threads 1`) against the distributed engine of guarantor-dist (`--processes P`, one
# worker each, on 127.0.0.1) for P in 1, 2 and 4: mean wall seconds of R whole CLI runs, the
# states explored (which must agree: "MISMATCH" when they do not) and the cost per state in
# microseconds. Cases are FAMILY:TARGET:N (benchmarks/families.tsv); properties only, no deadlock
# search. The machine is shared and has 2 cores: 4 processes on it measure overhead, not speed-up.
#
# Usage: benches/compare/dist.sh [--repeat R] [--timeout S] [--write] [CASE...]
#   --write  splice the table into docs/benchmarks.md (between the dist markers)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REPEAT=3; TIMEOUT=600; WRITE=""; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --repeat) REPEAT=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --write) WRITE=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -eq 0 ] && CASES=(dining:SYS:6 clientserver:SYS:8 gas:SYS:6)

build_cli --features dist
mkdir -p "$CARGO_TARGET_DIR"
WORK=$(mktemp -d "$CARGO_TARGET_DIR/dist-bench.XXXXXX"); trap 'rm -rf "$WORK"' EXIT

# run_mean ENGINE-ARGS...: mean wall seconds of $REPEAT runs (sets mean, states, verdict).
run_mean() {
    local total=0 i
    for ((i = 0; i < REPEAT; i++)); do
        timed_check "$WORK/m.lts" --target "$target" --no-deadlock "$@"
        total=$(awk -v a="$total" -v b="$secs" 'BEGIN { print a + b }')
    done
    mean=$(awk -v t="$total" -v r="$REPEAT" 'BEGIN { printf "%.3f", t / r }')
}

TABLE="$WORK/table.md"
{
    echo "| case | states | mono 1 thread | dist 1 process | dist 2 processes | dist 4 processes |"
    echo "|---|---:|---:|---:|---:|---:|"
} > "$TABLE"
for case in "${CASES[@]}"; do
    IFS=: read -r fam target n <<< "$case"
    generate "$fam" "$n" "$WORK/m.lts"
    run_mean --threads 1
    base=$mean; base_states=$states
    row="| $fam $target N=$n | $states | $(awk -v s="$mean" -v n="$states" 'BEGIN { printf "%.2f s, %.2f us", s, (n > 0 ? s * 1e6 / n : 0) }')"
    for p in 1 2 4; do
        run_mean --processes "$p"
        cell=$(awk -v s="$mean" -v n="$states" -v b="$base" \
            'BEGIN { printf "%.2f s, %.2f us, %.1f x", s, (n > 0 ? s * 1e6 / n : 0), (b > 0 ? s / b : 0) }')
        [ "$states" != "$base_states" ] && cell="MISMATCH $states ($cell)"
        row="$row | $cell"
    done
    echo "$row |" >> "$TABLE"
done
{
    echo
    echo "Cells: mean wall seconds of $REPEAT runs, microseconds per state, and the ratio to mono."
    echo "Load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")."
} >> "$TABLE"
if [ -n "$WRITE" ]; then write_doc_table dist "$TABLE"; else cat "$TABLE"; fi
