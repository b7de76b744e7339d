#!/usr/bin/env bash
# Multi-core beside SPIN's (issue 17): our breadth-first search on 1 and 2 threads and SPIN's pan
# compiled for one core (-DSAFETY) and for two (-DSAFETY -DNCORE=2), on the same family and size,
# in one run. Prints wall seconds, peak memory and stored states of each, and the ratios
# 2-thread / 1-thread for both tools.
#
# pan gets the hash table spin.sh gives it (-w = ceil(log2 states) + 1, load at most 1/2) and a
# depth limit of our state count, so it explores everything; its compile time is not counted.
# SPIN's multi-core mode is its own depth-first search split over cores (Holzmann and Bosnacki
# 2007); for safety properties it is the mode SPIN offers.
#
# Usage: benches/compare/spin_ncore.sh [--repeat R] [FAMILY:TARGET:N ...]
#   default: dining:SYS:10 clientserver:SYS:16
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REPEAT=3; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --repeat) REPEAT=$2; shift 2 ;;
        -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -eq 0 ] && CASES=(dining:SYS:10 clientserver:SYS:16)
command -v spin > /dev/null || { apt-get update -qq && apt-get install -y -qq spin > /dev/null; }

build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT

# best_of CMD...: runs CMD $REPEAT times; prints the fastest "wall peak_kb" (GNU time).
best_of() {
    local best="" line
    for _ in $(seq "$REPEAT"); do
        timed "$WORK/time" "$@" > "$WORK/out" 2>&1 || true
        line=$(tail -1 "$WORK/time")
        if [ -z "$best" ] || awk -v a="${line%% *}" -v b="${best%% *}" 'BEGIN { exit !(a < b) }'; then
            best=$line
        fi
    done
    echo "$best"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

echo "| case | ours 1 thread | ours 2 threads | 2 / 1 | pan 1 core | pan NCORE=2 | 2 / 1 | states (ours, pan) |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for case in "${CASES[@]}"; do
    IFS=: read -r fam target n <<< "$case"
    generate "$fam" "$n" "$WORK/m.lts"
    args=(check "$WORK/m.lts" --target "$target" --method mono --no-deadlock --format json)
    states=$(json_field "$("$GUARANTOR" "${args[@]}" --threads 1 2> /dev/null || true)" states)
    read -r o1 k1 <<< "$(best_of "$GUARANTOR" "${args[@]}" --threads 1)"
    read -r o2 k2 <<< "$(best_of "$GUARANTOR" "${args[@]}" --threads 2)"
    dir="$WORK/spin"; rm -rf "$dir"; mkdir -p "$dir"
    cp "$ROOT/benchmarks/$fam/$fam.pml" "$dir/model.pml"
    (cd "$dir" && spin -DN="$n" -a model.pml > /dev/null \
        && gcc -w -O2 -DSAFETY -o pan1 pan.c && gcc -w -O2 -DSAFETY -DNCORE=2 -o pan2 pan.c)
    w=$(awk -v s="$states" 'BEGIN { w = 18; while (2 ^ (w - 1) < s && w < 30) w++; print w }')
    m=$((states + 1000))
    read -r s1 j1 <<< "$(cd "$dir" && best_of ./pan1 -w"$w" -m"$m")"
    pan_states=$(awk '/states, stored/ { print $1; exit }' "$WORK/out")
    read -r s2 j2 <<< "$(cd "$dir" && best_of ./pan2 -w"$w" -m"$m")"
    echo "| $fam $target N=$n | ${o1} s, $(mb "$k1") MB | ${o2} s, $(mb "$k2") MB | $(ratio "$o2" "$o1") | ${s1} s, $(mb "$j1") MB | ${s2} s, $(mb "$j2") MB | $(ratio "$s2" "$s1") | $states, $pan_states |"
done
echo
echo "best of $REPEAT; load average: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")"
