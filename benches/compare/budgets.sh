#!/usr/bin/env bash
# Do budgets stop every method? Each method of the registry on the cases of issue 14 with a
# timeout and a state budget: wall time (against the timeout), exit code (3 = a budget was
# exceeded) and peak RSS. A run is killed at a hard limit of 4 x the timeout + 20 s and shown as
# "killed". The target of issue 14: every run ends within 10 % + 2 s of --timeout, and its peak
# memory stays within 2x of what the state budget implies: max-states x 48 bytes (one state of the
# monolithic checker's store, Config::STATE_BYTES; mono measured 46-50 bytes/state), column "2x mem".
# With --max-memory SIZE (issue 30) every run also gets `--max-memory SIZE` and the memory column
# is against SIZE + 10 % (its target) instead; the CSV is then budgets-mem-SIZE.csv.
# Writes benchmarks/results/budgets.csv and prints a markdown table.
#
# Usage: benches/compare/budgets.sh [--timeout S] [--max-states N] [--max-memory SIZE]
#                                   [--methods M1,M2] [CASE...]
#        CASE = family:target:N (default: gas:SYS:10 mer:SYS:12 dining:SYS:10 bakery:SYS:4)
#        SIZE = a number of MB followed by M (e.g. 512M)
#        --methods: only these methods of the registry (default: all of them); the CSV is then
#        benchmarks/results/budgets-M1-M2.csv, so a partial run leaves the full one as it is
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=20; MAX_STATES=10000000; CASES=(); ONLY=; MAX_MEMORY=
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --max-states) MAX_STATES=$2; shift 2 ;;
        --methods) ONLY=$2; shift 2 ;;
        --max-memory) MAX_MEMORY=$2; shift 2 ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] || CASES=(gas:SYS:10 mer:SYS:12 dining:SYS:10 bakery:SYS:4)
METHODS=(mono lstar lstar-sym lstar-nway lstar-weakest quotient circ circ-neighbours reduce auto)
[ -z "$ONLY" ] || IFS=, read -r -a METHODS <<< "$ONLY"

HARD=$(awk -v t="$TIMEOUT" 'BEGIN { printf "%d", 4 * t + 20 }')
LIMIT=$(awk -v t="$TIMEOUT" 'BEGIN { printf "%.1f", 1.1 * t + 2 }')
MEM_MB=$(awk -v n="$MAX_STATES" 'BEGIN { printf "%d", 2 * 48 * n / 1048576 }')
MEM_ARGS=()
if [ -n "$MAX_MEMORY" ]; then
    MEM_MB=$(awk -v m="${MAX_MEMORY%M}" 'BEGIN { printf "%d", 1.1 * m }')
    MEM_ARGS=(--max-memory "$MAX_MEMORY")
fi
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/budgets${MAX_MEMORY:+-mem-$MAX_MEMORY}${ONLY:+-${ONLY//,/-}}.csv"
echo "family,target,n,method,exit,seconds,peak_kb" > "$CSV"

echo "| case | method | exit | wall s | peak MB | within $LIMIT s | within $MEM_MB MB |"
echo "|---|---|---:|---:|---:|---|---|"
for case in "${CASES[@]}"; do
    IFS=: read -r family target n <<< "$case"
    generate "$family" "$n" "$WORK/m.lts"
    for method in "${METHODS[@]}"; do
        set +e
        /usr/bin/time -f "%e %M" -o "$WORK/time" timeout -s KILL "$HARD" "$GUARANTOR" check \
            --quiet --no-deadlock --timeout "$TIMEOUT" --max-states "$MAX_STATES" "${MEM_ARGS[@]}" --target "$target" \
            --method "$method" "$WORK/m.lts" > /dev/null 2>&1
        rc=$?
        set -e
        read -r secs kb < <(tail -n 1 "$WORK/time")
        [ "$rc" -eq 137 ] && rc=killed
        within=$(awk -v s="$secs" -v l="$LIMIT" 'BEGIN { print (s <= l) ? "yes" : "no" }')
        echo "$family,$target,$n,$method,$rc,$secs,$kb" >> "$CSV"
        mem=$( [ $((kb / 1024)) -le "$MEM_MB" ] && echo yes || echo no )
        echo "| $family $target N=$n | $method | $rc | $secs | $((kb / 1024)) | $within | $mem |"
    done
done
