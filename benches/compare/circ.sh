#!/usr/bin/env bash
# CIRC-AG_N in its four configurations (NW+AR, NW, 2W, 2W+AR) against the monolithic check on the
# FSP benchmark families (benchmarks/FAMILY/FAMILY.lts, N substituted), for growing N, each run
# under a timeout. Prints a markdown table: per method the wall time of the whole CLI process
# with its CPU time (user + system) in parentheses,
# the assumption sizes (max/min states), the iterations (with alphabet refinements); the verdict
# column is mono's, and a circ verdict that differs from it is flagged "MISMATCH".
# After a timeout a method is not run on larger N of that variant.
#
# Mono runs with a state budget (--max-states, default 10,000,000) as well, so that it can run out
# of it the way LTSA runs out of memory in the paper; "> N st" in its column means it did, and its
# "states" column gives the states it explored.
#
# Usage: benches/compare/circ.sh [--timeout S] [--sizes 2,4,6] [--mono-max-states N]
#          [--configs nwar,nw,2w,2war] [--premise-policy all|neighbours] [FAMILY...]
#   (default: --timeout 10 --sizes 2,3,4,6,8 --mono-max-states 10000000, all four configurations,
#   premise policy all; families clientserver mer gas dining). A configuration left out of
#   --configs shows "—"; --premise-policy is passed to every circ run.
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=10; SIZES=2,3,4,6,8; MONO_MAX=10000000; CONFIGS=nwar,nw,2w,2war; POLICY=all; FAMILIES=()
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --sizes) SIZES=$2; shift 2 ;;
        --mono-max-states) MONO_MAX=$2; shift 2 ;;
        --configs) CONFIGS=$2; shift 2 ;;
        --premise-policy) POLICY=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) FAMILIES+=("$1"); shift ;;
    esac
done
[ ${#FAMILIES[@]} -eq 0 ] && FAMILIES=(clientserver mer gas dining)

build_cli
mkdir -p "$CARGO_TARGET_DIR"
WORK=$(mktemp -d "$CARGO_TARGET_DIR/circ-bench.XXXXXX"); trap 'rm -rf "$WORK"' EXIT
declare -A GAVE_UP=()

# cell JSON SECONDS: "seconds|max/min|iterations (AR)|verdict|states" from the CLI's JSON.
cell() {
    python3 -c '
import json, sys
j = json.loads(sys.argv[1])
sizes = [a.get("states", 0) for a in (j.get("assumptions") or [])]
g = f"{max(sizes)}/{min(sizes)}" if sizes else "-"
it = j.get("iterations")
ar = j.get("alphabet_refinements", 0)
it = "-" if it is None else "%s (%s)" % (it, ar)
print("%s|%s|%s|%s|%s" % (sys.argv[2], g, it, j.get("verdict", "?"), j.get("states", "-")))' "$1" "$2"
}

# run FAMILY TARGET N KEY ARGS...: sets CELL to "seconds|sizes|iterations|verdict|states".
run() {
    local fam=$1 target=$2 n=$3 key=$4; shift 4
    if [ -n "${GAVE_UP[$fam/$target/$key]:-}" ]; then CELL="—|—|—|skip|—"; return; fi
    local out rc secs
    set +e
    out=$(/usr/bin/time -f "%e %U %S" -o "$WORK/time" "$GUARANTOR" check "$WORK/m.lts" --target "$target" --format json --no-deadlock \
        --timeout "$TIMEOUT" "$@" 2>"$WORK/err")
    rc=$?
    set -e
    # "wall (cpu)": the CPU time (user + system) is what the load disturbs least.
    secs=$( (tail -1 "$WORK/time" 2>/dev/null || echo '? ? ?') |
        awk '{ if ($2 == "?") print $1; else printf "%s (%.2f)\n", $1, $2 + $3 }')
    case $rc in
        0|1) CELL=$(cell "$out" "$secs") ;;
        3) if grep -q 'state limit' "$WORK/err"; then CELL="> $MONO_MAX st ($secs s)|—|—|timeout|> $MONO_MAX"
           else CELL="> $TIMEOUT|—|—|timeout|—"; fi
           GAVE_UP[$fam/$target/$key]=$n ;;
        *) CELL="error|—|—|error|—"; echo "error: $fam $target N=$n $key: $(head -2 "$WORK/err")" >&2 ;;
    esac
}

echo "| family | N | verdict (mono) | mono states | mono s | NW+AR s | NW s | 2W s | 2W+AR s | g max/min NW+AR | g NW | g 2W | g 2W+AR | iters (AR) NW+AR | NW | 2W | 2W+AR |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|---|---|---|---|---|"
for fam in "${FAMILIES[@]}"; do
    while read -r _ target expected _ _ _; do
        [ "$expected" = deadlock ] && continue
        for n in ${SIZES//,/ }; do
            generate "$fam" "$n" "$WORK/m.lts"
            run "$fam" "$target" "$n" mono --method mono --max-states "$MONO_MAX"
            IFS='|' read -r ms _ _ mv mst <<< "$CELL"
            # When mono ran out of budget (or was skipped after that), circ's verdict is compared
            # with the manifest's.
            if [ "$mv" = timeout ] || [ "$mv" = skip ]; then mv="$expected"; fi
            row=(); gs=(); its=()
            for cfg in "nwar:" "nw:--no-alphabet-refinement" "2w:--two-way --no-alphabet-refinement" "2war:--two-way"; do
                key=${cfg%%:*}; flags=${cfg#*:}
                if [[ ",$CONFIGS," != *",$key,"* ]]; then row+=("—"); gs+=("—"); its+=("—"); continue; fi
                # shellcheck disable=SC2086
                run "$fam" "$target" "$n" "$key" --method circ --premise-policy "$POLICY" $flags
                IFS='|' read -r s g it v _ <<< "$CELL"
                if [ "$v" != "$mv" ] && [ "$v" != timeout ] && [ "$v" != skip ]; then
                    s="MISMATCH $v $s"
                fi
                row+=("$s"); gs+=("$g"); its+=("$it")
            done
            echo "| $fam $target | $n | $mv | $mst | $ms | ${row[0]} | ${row[1]} | ${row[2]} | ${row[3]} | ${gs[0]} | ${gs[1]} | ${gs[2]} | ${gs[3]} | ${its[0]} | ${its[1]} | ${its[2]} | ${its[3]} |"
        done
    done < <(manifest_rows "$fam")
done
