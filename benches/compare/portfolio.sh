#!/usr/bin/env bash
# The portfolio (`--method auto`) against each of its members run alone, side by side in one run.
#
# For each case (family, variant, N) it runs the release CLI once per member configuration and once
# with `auto`, each with the same --timeout and --max-states, and records verdict and wall time.
# The target of issue 14: wherever some member answers within the timeout, auto answers too, in at
# most 1.3 x the fastest member's time + 0.5 s. The last column says whether that holds. Writes
# benchmarks/results/portfolio.csv and a markdown table between the "portfolio:begin/end" markers of
# docs/benchmarks.md (printed instead with --no-doc).
#
# Usage: benches/compare/portfolio.sh [--timeout S] [--max-states N] [--no-doc] [CASE...]
#        CASE = family:target:N (default: the issue's six cases: mer:SYS:10 mer:SYS:12 gas:SYS:10
#        dining:SYS:9 clientserver:SYS:20 swp:SYS_A:8)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=60; MAX_STATES=50000000; DOC=1; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --max-states) MAX_STATES=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] || CASES=(mer:SYS:10 mer:SYS:12 gas:SYS:10 dining:SYS:9 clientserver:SYS:20 swp:SYS_A:8)

# The members of the default portfolio, each as the flags that run it alone.
MEMBERS=("mono|--method mono"
         "circ-neighbours|--method circ --premise-policy neighbours"
         "circ|--method circ"
         "lstar-nway|--method lstar-nway"
         "quotient|--method quotient")

HARD=$(awk -v t="$TIMEOUT" 'BEGIN { printf "%d", 2 * t + 10 }')
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/portfolio.csv"
echo "family,target,n,config,verdict,seconds,answered_by" > "$CSV"

# run FAMILY TARGET N FLAGS...: prints "verdict seconds answered-by" for one CLI run.
run() {
    local model="$WORK/m.lts" out rc secs verdict by
    generate "$1" "$3" "$model"
    local target=$2; shift 3
    set +e
    out=$(/usr/bin/time -f "%e" -o "$WORK/time" timeout "$HARD" "$GUARANTOR" check --quiet --no-deadlock \
        --format json --timeout "$TIMEOUT" --max-states "$MAX_STATES" --target "$target" \
        "$@" "$model" 2>/dev/null)
    rc=$?
    set -e
    secs=$(tail -n 1 "$WORK/time" 2>/dev/null || echo "?")
    # python3, not json_field: "method" also appears inside the "tried" list.
    read -r verdict by < <(python3 -c '
import json, sys
try:
    j = json.loads(sys.stdin.read())
    print(j.get("verdict", "?"), j.get("method", "-"))
except ValueError:
    print("? -")' <<< "$out")
    case $rc in 0|1) ;; *) verdict="budget" ;; esac
    echo "${verdict:-?} $secs ${by:--}"
}

TABLE="$WORK/table.md"
{
    echo "| case | $(printf '%s | ' "${MEMBERS[@]%%|*}")auto (answered by) | fastest member | auto / fastest | target met |"
    echo "|---|$(printf -- '---:|%.0s' "${MEMBERS[@]}")---:|---|---:|---|"
} > "$TABLE"

for case in "${CASES[@]}"; do
    IFS=: read -r family target n <<< "$case"
    row="| $family $target N=$n |"
    best=""; best_name=""
    for member in "${MEMBERS[@]}"; do
        name=${member%%|*}; read -r -a flags <<< "${member#*|}"
        read -r verdict secs _ < <(run "$family" "$target" "$n" "${flags[@]}")
        echo "$family,$target,$n,$name,$verdict,$secs," >> "$CSV"
        if [ "$verdict" = holds ] || [ "$verdict" = violated ]; then
            row="$row $secs |"
            if [ -z "$best" ] || awk -v a="$secs" -v b="$best" 'BEGIN { exit !(a < b) }'; then
                best=$secs; best_name=$name
            fi
        else
            row="$row — |"
        fi
        echo "  $case $name: $verdict $secs s" >&2
    done
    read -r verdict secs by < <(run "$family" "$target" "$n" --method auto)
    echo "$family,$target,$n,auto,$verdict,$secs,$by" >> "$CSV"
    echo "  $case auto: $verdict $secs s ($by)" >&2
    if [ "$verdict" = holds ] || [ "$verdict" = violated ]; then
        row="$row $secs ($by) |"
    else
        row="$row — |"
    fi
    if [ -z "$best" ]; then
        row="$row — | — | no member answers |"
    else
        ratio=$(awk -v a="$secs" -v b="$best" 'BEGIN { printf "%.2f", a / b }')
        met=$(awk -v a="$secs" -v b="$best" -v v="$verdict" \
            'BEGIN { print ((v == "holds" || v == "violated") && a <= 1.3 * b + 0.5) ? "yes" : "no" }')
        row="$row $best_name ($best s) | $ratio | $met |"
    fi
    echo "$row" >> "$TABLE"
done

if [ "$DOC" = 1 ]; then write_doc_table portfolio "$TABLE"; else cat "$TABLE"; fi
