#!/usr/bin/env bash
# The learning rule `lstar` with the default question (properties + deadlock; issue 25): since
# `lstar` answers deadlocks itself (a learned failure assumption, crates/lstar/src/ag/deadlock.rs),
# side by side in one invocation, on each case the time of `check --method lstar` with the default
# question, of `lstar --no-deadlock`, and of `mono` with the default question, with verdicts,
# peak memory and the run's phases.
#
# Usage: benches/compare/lstar-deadlock.sh [--timeout S] [CASE...]
#   CASE: family:target:N (default: dining:SYS:5 clientserver:SYS:6 mer:SYS:3 gas:SYS:4)
# Appends to benchmarks/results/lstar-deadlock.csv and prints a Markdown table.
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=120; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] || CASES=(dining:SYS:5 clientserver:SYS:6 mer:SYS:3 gas:SYS:4)
RUNS=("lstar=--method lstar" "lstar, no deadlock=--method lstar --no-deadlock"
    "mono=--method mono")

build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/lstar-deadlock.csv"
[ -f "$CSV" ] || echo "family,target,n,run,verdict,seconds,peak_kb,load" > "$CSV"
echo "| case | lstar | lstar, no deadlock | mono |"
echo "|---|---|---|---|"
for case in "${CASES[@]}"; do
    IFS=: read -r family target n <<< "$case"
    model="$WORK/$family-$n.lts"
    generate "$family" "$n" "$model"
    row="| $family $target N=$n |"
    CSV_LOAD=1 check_runs "$case" "$family,$target,$n" --target "$target" "$model"
    echo "$row"
done
