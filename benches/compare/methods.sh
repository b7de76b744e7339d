#!/usr/bin/env bash
# Every verification method of the CLI on every benchmark family and size, under a time and a
# state budget.
#
# For every (family, variant, N) of benchmarks/families.tsv and every method (mono, lstar,
# lstar-sym, lstar-nway, quotient, circ, auto) it runs the release CLI with --timeout and
# --max-states and records verdict, wall time, peak RSS, the largest product the method built (the
# JSON's `states`) and the assumption sizes (the JSON's `assumptions`). A method the CLI rejects
# with "unknown method" is skipped and listed; after a budget is exceeded a method is not run on
# larger sizes of that variant; a run that overruns its --timeout is killed at twice the timeout
# plus ten seconds and counted as a budget. Deadlock variants are run with mono only (the other methods check
# safety properties). Writes benchmarks/results/methods.csv and a markdown table between the
# "methods:begin/end" markers of docs/benchmarks/notebook/families.md (the results page
# docs/benchmarks.md keeps a summary of it).
#
# Usage: benches/compare/methods.sh [--sizes small|large] [--timeout S] [--max-states N]
#                                   [--methods m1,m2,...] [--no-doc] [FAMILY...]
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SIZES=large; TIMEOUT=120; MAX_STATES=50000000; DOC=1; FAMILIES=()
METHODS="mono,lstar,lstar-sym,lstar-nway,quotient,circ,auto"
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) SIZES=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --max-states) MAX_STATES=$2; shift 2 ;;
        --methods) METHODS=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) FAMILIES+=("$1"); shift ;;
    esac
done

HARD=$(awk -v t="$TIMEOUT" 'BEGIN { printf "%d", 2 * t + 10 }')
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/methods.csv"
echo "family,target,n,expected,method,verdict,seconds,peak_kb,largest_states,assumption_states" > "$CSV"
declare -A SKIPPED=()   # method -> why
declare -A GAVE_UP=()   # family/target/method -> size at which a budget ran out

# summary JSON: "verdict largest assumption-sizes" from the CLI's JSON (python3: no jq needed).
summary() {
    python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
sizes = "+".join(str(a.get("states", "?")) for a in (j.get("assumptions") or []))
print(j.get("verdict", "?"), j.get("states", ""), sizes or "-")' <<< "$1"
}

# run_one FAMILY TARGET EXPECTED N METHOD: one CSV line; prints the table cell on stdout.
run_one() {
    local model="$WORK/m.lts" flags=() out rc secs kb verdict largest sizes
    generate "$1" "$4" "$model"
    # FSP check searches deadlocks by default (LTSA): the safety variants measure safety alone.
    if [ "$3" = deadlock ]; then flags+=(--deadlock); else flags+=(--no-deadlock); fi
    set +e
    # A hard limit as well, in case a method overruns its --timeout: killed runs count as budget.
    out=$(timed "$WORK/time" timeout -s KILL "$HARD" "$GUARANTOR" check "$model" --target "$2" --method "$5" --format json \
        --timeout "$TIMEOUT" --max-states "$MAX_STATES" "${flags[@]}" 2>"$WORK/err")
    rc=$?
    set -e
    read -r secs kb < <(tail -1 "$WORK/time")
    case $rc in
        0|1) read -r verdict largest sizes < <(summary "$out") ;;
        3|137) verdict=budget; largest=; sizes=-; GAVE_UP["$1/$2/$5"]=$4
           [ $rc = 137 ] && echo "killed: $1 $2 N=$4 --method $5 overran --timeout $TIMEOUT" >&2 ;;
        *) if grep -q 'unknown method' "$WORK/err"; then
               SKIPPED[$5]="unknown method"; return 0
           fi
           verdict=error; largest=; sizes=-
           echo "error: $1 $2 N=$4 --method $5: $(head -3 "$WORK/err")" >&2 ;;
    esac
    [ "$verdict" != budget ] && [ "$verdict" != error ] && [ "$verdict" != "$3" ] &&
        echo "WRONG VERDICT: $1 $2 N=$4 --method $5 gave $verdict, expected $3" >&2
    echo "$1,$2,$4,$3,$5,$verdict,$secs,$kb,$largest,$sizes" >> "$CSV"
    local mark=$verdict
    [ "$verdict" = "$3" ] && mark=ok
    if [ "$verdict" = budget ]; then
        CELL="budget (${secs} s)"
    else
        CELL="$mark ${secs} s, $(( kb / 1024 )) MB, ${largest} st${sizes:+, A=$sizes}"
        CELL=${CELL%, A=-}
    fi
}

IFS=, read -r -a METHOD_LIST <<< "$METHODS"
TABLE="$WORK/table.md"
{
    printf '| family | variant | N |'; for m in "${METHOD_LIST[@]}"; do printf ' %s |' "$m"; done; echo
    printf '|---|---|---:|'; for _ in "${METHOD_LIST[@]}"; do printf '%s' '---|'; done; echo
} > "$TABLE"

while read -r family target expected _flag small large; do
    if [ ${#FAMILIES[@]} -gt 0 ] && [[ ! " ${FAMILIES[*]} " == *" $family "* ]]; then continue; fi
    sizes=$large; [ "$SIZES" = small ] && sizes=$small
    for n in ${sizes//,/ }; do
        row="| $family | $target | $n |"
        for m in "${METHOD_LIST[@]}"; do
            CELL="-"
            if [ -n "${SKIPPED[$m]:-}" ]; then CELL="skipped"
            elif [ "$expected" = deadlock ] && [ "$m" != mono ]; then CELL="n/a"
            elif [ -n "${GAVE_UP["$family/$target/$m"]:-}" ]; then CELL="(budget at N=${GAVE_UP["$family/$target/$m"]})"
            else
                run_one "$family" "$target" "$expected" "$n" "$m"
                [ -n "${SKIPPED[$m]:-}" ] && CELL="skipped"
            fi
            row="$row $CELL |"
        done
        echo "$row" | tee -a "$TABLE"
    done
done < <(manifest_rows)

{
    echo
    echo "Budget per run: ${TIMEOUT} s, ${MAX_STATES} states. Cells: verdict (ok = expected), wall time,"
    echo "peak RSS, largest product built (states), assumption sizes (A=, states per assumption)."
    if [ ${#SKIPPED[@]} -gt 0 ]; then
        echo "Skipped (the CLI does not accept them yet): ${!SKIPPED[*]}."
    fi
} >> "$TABLE"
echo "CSV: $CSV"
[ ${#SKIPPED[@]} -gt 0 ] && echo "skipped methods: ${!SKIPPED[*]}"
if [ "$DOC" = 1 ]; then
    write_doc_table methods "$TABLE"
fi
