#!/usr/bin/env bash
# LTSA's progress check against its safety check on the benchmark families (issue 16): for each
# case, `guarantor check` (LTSA's Check Safety: property violations, ERROR and deadlocks, one
# breadth-first walk) and `guarantor check --progress` (Check > Progress: the default progress
# property, or the model's progress tests, by a terminal-component analysis of the same product),
# each timed with /usr/bin/time: wall seconds, peak RSS, product states and the verdict.
# Writes benchmarks/results/progress.csv and a markdown table (into docs/benchmarks.md between
# the `progress` markers, unless --no-doc).
#
# Usage: benches/compare/progress.sh [--timeout S] [--no-doc] [CASE...]
#        CASE = family:target:N (default: the largest N each family's mono answered within 20 s in
#        docs/benchmarks.md: dining:SYS:9 clientserver:SYS:16 mer:SYS:9 gas:SYS:10 bakery:SYS:4
#        swp:SYS_A:12)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=120; CASES=(); DOC=1
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] || CASES=(dining:SYS:9 clientserver:SYS:16 mer:SYS:9 gas:SYS:10 bakery:SYS:4 swp:SYS_A:12)
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/progress.csv"
TABLE="$WORK/table.md"
echo "family,target,n,check,exit,verdict,states,seconds,peak_kb" > "$CSV"
{
    echo "| case | states | safety: verdict, wall s, peak MB | progress: verdict, wall s, peak MB | progress / safety (time, memory) |"
    echo "|---|---:|---|---|---|"
} > "$TABLE"

for case in "${CASES[@]}"; do
    IFS=: read -r family target n <<< "$case"
    generate "$family" "$n" "$WORK/m.lts"
    timed_check --target "$target" "$WORK/m.lts"
    echo "$family,$target,$n,safety,$rc,$verdict,$states,$secs,$kb" >> "$CSV"
    s_secs=$secs; s_kb=$kb; s_cell="$verdict, $secs, $((kb / 1024))"; s_states=$states
    timed_check --target "$target" "$WORK/m.lts" --progress
    echo "$family,$target,$n,progress,$rc,$verdict,$states,$secs,$kb" >> "$CSV"
    ratio=$(ratio_cell "$secs" "$s_secs" "$kb" "$s_kb")
    echo "| $family $target N=$n | $s_states | $s_cell | $verdict, $secs, $((kb / 1024)) | $ratio |" >> "$TABLE"
done
cat "$TABLE"
if [ "$DOC" = 1 ]; then
    write_doc_table progress "$TABLE"
fi
