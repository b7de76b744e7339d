#!/usr/bin/env bash
# Do the compositional methods pay off? Mono and every compositional method, side by side in one
# invocation, on each family at the largest `large` size where mono answers within the timeout
# and at the next size.
#
# For each family (default: gas dining bakery mer clientserver swp) the holding variant of
# benchmarks/families.tsv is checked (swp: SYS_A). N1 is found top-down: mono runs on the largest
# `large` size, then on smaller ones until it answers within --timeout; N2 is the next `large`
# size above N1, or N1 + 1 when N1 is the largest. Every method of --methods (label=CLI options)
# then runs at N1 and N2 under --timeout and --max-states. A family pays off when some
# compositional method gives the expected verdict at N1 no slower than mono. Writes
# benchmarks/results/payoff.csv and the table between the "payoff:begin/end" markers of
# docs/benchmarks.md (--no-doc: print it instead).
#
# Usage: benches/compare/payoff.sh [--timeout S] [--method-timeout S] [--max-states N]
#                                  [--methods SPEC] [--no-doc] [FAMILY...]
#   SPEC: comma-separated label=options, options with ':' for spaces, e.g.
#         "mono=--method:mono,circ=--method:circ"; the first must be mono.
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=60; METHOD_TIMEOUT=""; MAX_STATES=50000000; DOC=1; FAMILIES=()
METHODS="mono=--method:mono"
METHODS+=",lstar=--method:lstar"
METHODS+=",lstar L#=--method:lstar:--learner:lsharp"
METHODS+=",lstar-sym=--method:lstar-sym"
METHODS+=",lstar-nway=--method:lstar-nway"
METHODS+=",lstar-nway no AR=--method:lstar-nway:--no-alphabet-refinement"
METHODS+=",quotient=--method:quotient"
METHODS+=",circ=--method:circ"
METHODS+=",circ synthesis only=--method:circ:--max-projection-states:0"
METHODS+=",circ-neighbours=--method:circ-neighbours"
METHODS+=",auto=--method:auto"
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --method-timeout) METHOD_TIMEOUT=$2; shift 2 ;;
        --max-states) MAX_STATES=$2; shift 2 ;;
        --methods) METHODS=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) FAMILIES+=("$1"); shift ;;
    esac
done
[ ${#FAMILIES[@]} -gt 0 ] || FAMILIES=(gas dining bakery mer clientserver swp)
MONO_TIMEOUT=$TIMEOUT; : "${METHOD_TIMEOUT:=$TIMEOUT}"
IFS=, read -r -a SPECS <<< "$METHODS"
[ "${SPECS[0]%%=*}" = mono ] || { echo "the first method must be mono" >&2; exit 2; }

build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/payoff.csv"
echo "family,target,n,expected,method,verdict,seconds,peak_kb,largest_states" > "$CSV"

# holding_variant FAMILY: "target expected large-sizes" of the family's first holding variant.
holding_variant() {
    manifest_rows "$1" | awk '$3 == "holds" { print $2, $3, $6; exit }'
}

# run FAMILY TARGET N OPTIONS: one timed check; sets rc, verdict, states, secs, kb.
run() {
    generate "$1" "$3" "$WORK/m.lts"
    local -a options
    IFS=: read -r -a options <<< "$4"
    timed_check "$WORK/m.lts" --target "$2" --no-deadlock --max-states "$MAX_STATES" "${options[@]}"
}

# answered EXPECTED: whether the last run gave the expected verdict.
answered() {
    [ "$rc" -le 1 ] && [ "${verdict%% *}" = "$1" ]
}

# cell EXPECTED: the table cell of the last run.
cell() {
    if answered "$1"; then
        printf '%.2f s' "$secs"
    elif [ "$rc" -eq 3 ]; then
        printf 'budget'
    elif [ "$rc" -le 1 ]; then
        printf 'WRONG (%s)' "$verdict"
    else
        printf 'error %s' "$rc"
    fi
}

TABLE="$WORK/table.md"
{
    printf '| family | N | states (mono) |'
    for spec in "${SPECS[@]}"; do printf ' %s |' "${spec%%=*}"; done
    printf ' pays off |\n|---|---:|---:|'
    for _ in "${SPECS[@]}"; do printf -- '---|'; done
    printf -- '---|\n'
} > "$TABLE"
PAID=0
for family in "${FAMILIES[@]}"; do
    read -r target expected sizes < <(holding_variant "$family")
    IFS=, read -r -a listed <<< "$sizes"
    # N1 top-down: the largest listed size mono answers within the timeout.
    n1=""; k=$((${#listed[@]} - 1))
    while [ "$k" -ge 0 ]; do
        echo "$family $target N=${listed[$k]}: mono (finding N1)" >&2
        TIMEOUT=$MONO_TIMEOUT
        run "$family" "$target" "${listed[$k]}" "${SPECS[0]#*=}"
        if answered "$expected"; then n1=${listed[$k]}; break; fi
        k=$((k - 1))
    done
    [ -n "$n1" ] || { echo "$family: mono answers no listed size" >&2; continue; }
    if [ "$k" -lt $((${#listed[@]} - 1)) ]; then n2=${listed[$((k + 1))]}; else n2=$((n1 + 1)); fi
    for n in "$n1" "$n2"; do
        row="| $family $target | $n |"
        mono_secs=""; best=""
        for spec in "${SPECS[@]}"; do
            label=${spec%%=*}
            echo "$family $target N=$n: $label" >&2
            if [ "$label" = mono ]; then TIMEOUT=$MONO_TIMEOUT; else TIMEOUT=$METHOD_TIMEOUT; fi
            run "$family" "$target" "$n" "${spec#*=}"
            echo "$family,$target,$n,$expected,$label,$verdict,$secs,$kb,$states" >> "$CSV"
            if [ "$label" = mono ]; then
                if answered "$expected"; then mono_secs=$secs; row+=" $states |"; else row+=" — |"; fi
            elif answered "$expected"; then
                best=$(awk -v a="$secs" -v b="${best:-inf}" 'BEGIN { print (b == "inf" || a < b) ? a : b }')
            fi
            row+=" $(cell "$expected") |"
        done
        verdict_cell="no"
        if [ -n "$best" ] && { [ -z "$mono_secs" ] || awk -v a="$best" -v b="$mono_secs" 'BEGIN { exit !(a <= b) }'; }; then
            verdict_cell="yes"
            [ "$n" != "$n1" ] || PAID=$((PAID + 1))
        fi
        echo "$row $verdict_cell |" >> "$TABLE"
    done
done
{
    echo
    echo "Families where a compositional method answers no slower than mono at N1: $PAID of ${#FAMILIES[@]}."
    echo "Budget per run: mono $MONO_TIMEOUT s, the others $METHOD_TIMEOUT s; $MAX_STATES states; release CLI, \`--no-deadlock\`."
} >> "$TABLE"
if [ "$DOC" = 1 ]; then write_doc_table payoff "$TABLE"; else cat "$TABLE"; fi
