#!/usr/bin/env bash
# Does the default question (properties + deadlock) cost what the properties alone cost? Issue 25:
# side by side in one invocation, on each case the time of `check --method auto` with the default
# question, of `auto --no-deadlock`, of `mono`, and of `reduce` (compositional minimisation), with
# verdicts and peak memory. The cases: the holding variants at the sizes the issue names, and
# dining CLASSIC (a deadlock) at N = 12.
#
# Usage: benches/compare/questions.sh [--timeout S] [--no-doc] [CASE...]
#   CASE: family:target:N (default: dining:SYS:11 clientserver:SYS:18 mer:SYS:10 gas:SYS:13
#         dining:CLASSIC:12)
# Writes benchmarks/results/questions.csv and the table between the "questions:begin/end" markers
# of docs/benchmarks.md (--no-doc: print it instead).
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=120; DOC=1; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] ||
    CASES=(dining:SYS:11 clientserver:SYS:18 mer:SYS:10 gas:SYS:13 dining:CLASSIC:12)
RUNS=("auto=--method auto" "auto, no deadlock=--method auto --no-deadlock" "mono=--method mono"
    "reduce=--method reduce")

build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/questions.csv"
echo "family,target,n,run,verdict,seconds,peak_kb" > "$CSV"
TABLE="$WORK/table.md"
{
    echo "| case | auto | auto, no deadlock | mono | reduce |"
    echo "|---|---|---|---|---|"
} > "$TABLE"

for case in "${CASES[@]}"; do
    IFS=: read -r family target n <<< "$case"
    model="$WORK/$family-$n.lts"
    generate "$family" "$n" "$model"
    row="| $family $target N=$n |"
    check_runs "$case" "$family,$target,$n" --target "$target" "$model"
    echo "$row" >> "$TABLE"
done

if [ "$DOC" = 1 ]; then
    write_doc_table questions "$TABLE"
else
    cat "$TABLE"
fi
