#!/usr/bin/env bash
# An LTL liveness check beside the safety check on the benchmark families (issue 16): for each
# case, `guarantor check` (LTSA's Check Safety, one breadth-first walk) and `guarantor check
# --assert LIVE` for a liveness assertion appended to the model (`[]<>` of one process's action:
# the Büchi product under fair choice, with its terminal-set analysis), each timed with
# /usr/bin/time: wall seconds, peak RSS, product states and the verdict.
# Writes benchmarks/results/ltl.csv and a markdown table (into docs/benchmarks.md between the
# `ltl` markers, unless --no-doc).
#
# Usage: benches/compare/ltl.sh [--timeout S] [--no-doc] [CASE...]
#        CASE = family:target:N:ACTION (default: the sizes of benches/compare/progress.sh, with
#        dining's phil[0].eat, clientserver's c[0].enter, mer's u[0].work, gas's c[0].arrive)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=120; CASES=(); DOC=1
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] || CASES=(dining:SYS:9:phil[0].eat clientserver:SYS:16:c[0].enter
    mer:SYS:9:u[0].work gas:SYS:10:c[0].arrive)
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/ltl.csv"
TABLE="$WORK/table.md"
echo "family,target,n,check,exit,verdict,states,seconds,peak_kb" > "$CSV"
{
    echo "| case | assertion | safety: states, verdict, wall s, peak MB | LTL: product states, verdict, wall s, peak MB | LTL / safety (time, memory) |"
    echo "|---|---|---|---|---|"
} > "$TABLE"

for case in "${CASES[@]}"; do
    IFS=: read -r family target n action <<< "$case"
    generate "$family" "$n" "$WORK/m.lts"
    echo "assert LIVE = []<>$action" >> "$WORK/m.lts"
    timed_check --target "$target" "$WORK/m.lts"
    echo "$family,$target,$n,safety,$rc,$verdict,$states,$secs,$kb" >> "$CSV"
    s_secs=$secs; s_kb=$kb; s_cell="$states, $verdict, $secs, $((kb / 1024))"
    timed_check --target "$target" "$WORK/m.lts" --assert LIVE
    echo "$family,$target,$n,ltl,$rc,$verdict,$states,$secs,$kb" >> "$CSV"
    ratio=$(ratio_cell "$secs" "$s_secs" "$kb" "$s_kb")
    echo "| $family $target N=$n | \`[]<>$action\` | $s_cell | $states, $verdict, $secs, $((kb / 1024)) | $ratio |" >> "$TABLE"
done
cat "$TABLE"
if [ "$DOC" = 1 ]; then
    write_doc_table ltl "$TABLE"
fi
