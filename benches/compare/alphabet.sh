#!/usr/bin/env bash
# Alphabet refinement of the learning rules, on and off (--no-alphabet-refinement), per family.
#
# For every (family, variant, N) of benchmarks/families.tsv (safety variants only) and every
# learning method it runs the release CLI twice, with and without --no-alphabet-refinement, and
# records verdict, wall time, the assumption sizes (the JSON's `assumptions`, states each) and
# the JSON's counters `assumption_alphabet` / `interface_alphabet` (actions of the outermost
# assumption / of its full interface) and `alphabet_refinements`. After a budget, a
# (variant, method, setting) is not run on larger sizes. Writes
# benchmarks/results/alphabet.csv and prints a markdown table (one row per run pair).
#
# Usage: benches/compare/alphabet.sh [--sizes small|large] [--timeout S]
#                                    [--methods m1,m2,...] [FAMILY...]
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SIZES=large; TIMEOUT=20; METHODS="lstar,lstar-nway"; FAMILIES=()
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) SIZES=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --methods) METHODS=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) FAMILIES+=("$1"); shift ;;
    esac
done

HARD=$(awk -v t="$TIMEOUT" 'BEGIN { printf "%d", 2 * t + 10 }')
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/alphabet.csv"
echo "family,target,n,expected,method,refinement,verdict,seconds,assumption_states,assumption_alphabet,interface_alphabet,refinements" > "$CSV"
declare -A GAVE_UP=()

# summary JSON: "verdict sizes alphabet interface refinements" from the CLI's JSON.
summary() {
    python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
sizes = "+".join(str(a.get("states", "?")) for a in (j.get("assumptions") or []))
print(j.get("verdict", "?"), sizes or "-", j.get("assumption_alphabet", "-"),
      j.get("interface_alphabet", "-"), j.get("alphabet_refinements", "-"))' <<< "$1"
}

# run_one FAMILY TARGET EXPECTED N METHOD SETTING(on|off): one CSV line; sets CELL.
run_one() {
    local model="$WORK/m.lts" flags=(--no-deadlock) out rc secs kb verdict sizes alpha iface refs
    generate "$1" "$4" "$model"
    [ "$6" = off ] && flags+=(--no-alphabet-refinement)
    set +e
    out=$(timed "$WORK/time" timeout -s KILL "$HARD" "$GUARANTOR" check "$model" --target "$2" \
        --method "$5" --format json --timeout "$TIMEOUT" "${flags[@]}" 2>"$WORK/err")
    rc=$?
    set -e
    read -r secs kb < <(tail -1 "$WORK/time")
    case $rc in
        0|1) read -r verdict sizes alpha iface refs < <(summary "$out") ;;
        *) verdict=budget; sizes=-; alpha=-; iface=-; refs=-; GAVE_UP["$1/$2/$5/$6"]=$4 ;;
    esac
    [ "$verdict" != budget ] && [ "$verdict" != "$3" ] &&
        echo "WRONG VERDICT: $1 $2 N=$4 --method $5 ($6) gave $verdict, expected $3" >&2
    echo "$1,$2,$4,$3,$5,$6,$verdict,$secs,$sizes,$alpha,$iface,$refs" >> "$CSV"
    if [ "$verdict" = budget ]; then
        CELL="budget"
    else
        CELL="${secs} s, A=${sizes}, Σ ${alpha}/${iface}, ref ${refs}"
    fi
}

IFS=, read -r -a METHOD_LIST <<< "$METHODS"
echo "| family | variant | N | method | refinement on | refinement off |"
echo "|---|---|---:|---|---|---|"
while read -r family target expected _flag small large; do
    if [ ${#FAMILIES[@]} -gt 0 ] && [[ ! " ${FAMILIES[*]} " == *" $family "* ]]; then continue; fi
    [ "$expected" = deadlock ] && continue
    sizes=$large; [ "$SIZES" = small ] && sizes=$small
    for n in ${sizes//,/ }; do
        for m in "${METHOD_LIST[@]}"; do
            row="| $family | $target | $n | $m |"
            for setting in on off; do
                if [ -n "${GAVE_UP["$family/$target/$m/$setting"]:-}" ]; then
                    CELL="(budget at N=${GAVE_UP["$family/$target/$m/$setting"]})"
                else
                    run_one "$family" "$target" "$expected" "$n" "$m" "$setting"
                fi
                row="$row $CELL |"
            done
            echo "$row"
        done
    done
done < <(manifest_rows)
echo
echo "Budget per run: ${TIMEOUT} s. Cells: wall time, assumption sizes (states), outermost"
echo "assumption alphabet / full interface alphabet (actions), alphabet refinements."
echo "CSV: $CSV" >&2
