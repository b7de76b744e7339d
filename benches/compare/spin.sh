#!/usr/bin/env bash
# SPIN against `guarantor check --method mono` on the benchmark families, one size at a time.
#
# For every (family, variant, N) of benchmarks/families.tsv (or the ones named on the command
# line) it generates the FSP model, runs the release CLI, compiles SPIN's verifier from the Promela
# twin (spin -a; gcc -O2 -DSAFETY) and runs it, then prints one line with both verdicts, state
# counts, times, peak memory and the ratio (our wall time / pan's wall time). Writes a CSV
# (benchmarks/results/spin.csv) and a markdown table between the "spin:begin/end" markers of
# docs/benchmarks/notebook/spin.md (the results page docs/benchmarks.md keeps a summary of it).
# Installs spin with apt-get if it is missing.
#
# Usage: benches/compare/spin.sh [--sizes small|large] [--timeout S] [--append] [--no-doc]
#                               [--violated-search bfs|dfs] [FAMILY...]
# --append keeps the CSV's earlier rows (to run families in several sessions); the table is
# always made from the whole CSV. Violated variants run `--search dfs` (default; SPIN searches
# depth first too) or, with --violated-search bfs, breadth first (shortest counterexamples);
# holds and deadlock variants always run breadth first (the whole product is explored anyway).
# The CSV's `search` column says which.
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
#
# Fairness: pan's hash table is sized from our state count (-w = ceil(log2 states) + 1, so SPIN
# gets a load factor at most 1/2) and its depth limit is our state count (no truncation). Compile
# time (spin -a, gcc) is reported apart and not in the ratio; our time is the whole process
# (parsing, elaboration and checking) and the JSON's own check time is reported apart.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SIZES=large; TIMEOUT=600; DOC=1; APPEND=0; VSEARCH=dfs; FAMILIES=()
while [ $# -gt 0 ]; do
    case $1 in
        --sizes) SIZES=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --no-doc) DOC=0; shift ;;
        --append) APPEND=1; shift ;;
        --violated-search) VSEARCH=$2; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) FAMILIES+=("$1"); shift ;;
    esac
done

if ! command -v spin >/dev/null; then
    echo "spin not found: installing it with apt-get" >&2
    apt-get update -qq && apt-get install -y -qq spin >/dev/null
fi
build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/spin.csv"
if [ "$APPEND" = 0 ] || [ ! -s "$CSV" ]; then
    echo "family,target,n,expected,verdict,spin_verdict,states,spin_states,transitions,spin_transitions,seconds,check_seconds,peak_kb,spin_seconds,spin_compile_seconds,spin_peak_kb,ratio,search" > "$CSV"
fi
case $VSEARCH in bfs|dfs) ;; *) echo "--violated-search: bfs or dfs" >&2; exit 2 ;; esac

# ours FAMILY TARGET EXPECTED N: runs the CLI; sets O_VERDICT O_STATES O_TRANS O_CHECK O_WALL O_KB
# O_SEARCH.
ours() {
    local model="$WORK/m.lts" flags=() out rc
    generate "$1" "$4" "$model"
    # FSP check searches deadlocks by default (LTSA): the safety variants measure safety alone.
    if [ "$3" = deadlock ]; then flags+=(--deadlock); else flags+=(--no-deadlock); fi
    O_SEARCH=bfs
    [ "$3" = violated ] && O_SEARCH=$VSEARCH
    flags+=(--search "$O_SEARCH")
    set +e
    out=$(timed "$WORK/time" "$GUARANTOR" check "$model" --target "$2" --format json \
        --method mono --timeout "$TIMEOUT" "${flags[@]}" 2>"$WORK/err")
    rc=$?
    set -e
    read -r O_WALL O_KB < <(tail -1 "$WORK/time")
    case $rc in
        0|1) O_VERDICT=$(json_field "$out" verdict); O_STATES=$(json_field "$out" states)
             O_TRANS=$(json_field "$out" transitions); O_CHECK=$(json_field "$out" seconds) ;;
        3) O_VERDICT=budget; O_STATES=; O_TRANS=; O_CHECK= ;;
        *) O_VERDICT=error; O_STATES=; O_TRANS=; O_CHECK=; cat "$WORK/err" >&2 ;;
    esac
}

# spin_run FAMILY FLAG N EXPECTED STATES: compiles and runs pan; sets S_VERDICT S_STATES S_TRANS
# S_WALL S_KB S_COMPILE. A deadlock variant runs on past the first invalid end state (-c0), as our
# check explores the whole product before its deadlock search; a violation stops both at once.
spin_run() {
    local dir="$WORK/spin" w m start stop=-c1
    rm -rf "$dir"; mkdir -p "$dir"
    cp "$ROOT/benchmarks/$1/$1.pml" "$dir/model.pml"
    local defs=(-DN="$3")
    [ "$2" != - ] && defs+=("$2")
    start=$(date +%s.%N)
    (cd "$dir" && spin "${defs[@]}" -a model.pml >/dev/null && gcc -w -O2 -DSAFETY -o pan pan.c)
    S_COMPILE=$(echo "$(date +%s.%N) - $start" | bc)
    [ "$4" = deadlock ] && stop=-c0
    w=$(awk -v s="${5:-1000000}" 'BEGIN { w = 18; while (2 ^ (w - 1) < s && w < 30) w++; print w }')
    m=$(( ${5:-10000000} + 1000 ))
    [ "$4" = violated ] && m=10000000
    set +e
    (cd "$dir" && timed "$dir/time" timeout "$TIMEOUT" ./pan -w"$w" -m"$m" "$stop" > out.txt 2>&1)
    local rc=$?
    set -e
    read -r S_WALL S_KB < <(tail -1 "$dir/time")
    S_STATES=$(awk '/states, stored/ { print $1; exit }' "$dir/out.txt")
    S_TRANS=$(awk '/transitions \(= stored\+matched\)/ { print $1; exit }' "$dir/out.txt")
    if [ $rc -eq 124 ]; then S_VERDICT=budget
    elif grep -q '^pan:[0-9]*: assertion violated' "$dir/out.txt"; then S_VERDICT=violated
    elif grep -q '^pan:[0-9]*: invalid end state' "$dir/out.txt"; then S_VERDICT=deadlock
    elif grep -q 'errors: 0' "$dir/out.txt"; then S_VERDICT=holds
    else S_VERDICT=error; fi
    grep -q 'max search depth too small' "$dir/out.txt" && S_VERDICT="$S_VERDICT(truncated)"
    # pan's transition count includes the initial store; ours counts edges only.
    [ -n "$S_TRANS" ] && S_TRANS=$((S_TRANS - 1))
    return 0
}

mb() { [ -n "$1" ] && awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

while read -r family target expected flag small large; do
    if [ ${#FAMILIES[@]} -gt 0 ] && [[ ! " ${FAMILIES[*]} " == *" $family "* ]]; then continue; fi
    sizes=$large; [ "$SIZES" = small ] && sizes=$small
    for n in ${sizes//,/ }; do
        ours "$family" "$target" "$expected" "$n"
        spin_run "$family" "$flag" "$n" "$expected" "${O_STATES:-}"
        ratio=$(awk -v a="$O_WALL" -v b="$S_WALL" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
        echo "$family,$target,$n,$expected,$O_VERDICT,$S_VERDICT,$O_STATES,$S_STATES,$O_TRANS,$S_TRANS,$O_WALL,$O_CHECK,$O_KB,$S_WALL,$S_COMPILE,$S_KB,$ratio,$O_SEARCH" >> "$CSV"
        printf '%-12s %-8s N=%-3s ours(%s) %-9s %10s st %7ss %7sMB | spin %-9s %10s st %7ss %7sMB | ratio %s\n' \
            "$family" "$target" "$n" "$O_SEARCH" "$O_VERDICT" "$O_STATES" "$O_WALL" "$(mb "$O_KB")" \
            "$S_VERDICT" "$S_STATES" "$S_WALL" "$(mb "$S_KB")" "$ratio"
        [ "$O_VERDICT" = budget ] && break
    done
done < <(manifest_rows)

echo "CSV: $CSV"
# The markdown table, from the whole CSV.
TABLE="$WORK/table.md"
awk -F, 'NR == 1 { next }
    { mb = sprintf("%.0f / %.0f", $13 / 1024, $16 / 1024)
      same = ($7 == $8) ? "=" : "!="
      search = ($18 == "") ? "bfs" : $18
      rows[NR] = sprintf("| %s | %s | %s | %s | %s / %s | %s %s %s | %s s (%.3g s) | %s s (%.1f s) | %s | %s |",
          $1, $2, $3, search, $5, $6, $7, same, $8, $11, $12, $14, $15, mb, $17) }
    END {
      print "| family | variant | N | ours | verdict (ours / SPIN) | states (ours, SPIN) | ours: wall (check) | SPIN pan (compile) | peak MB (ours / SPIN) | ratio |"
      print "|---|---|---:|---|---|---:|---:|---:|---:|---:|"
      for (i = 2; i <= NR; i++) if (i in rows) print rows[i] }' "$CSV" > "$TABLE"
if [ "$DOC" = 1 ]; then
    write_doc_table spin "$TABLE"
fi
