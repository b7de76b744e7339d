#!/usr/bin/env bash
# Progress by compositional minimisation (issue 25): side by side in one invocation, on each case
# the time of `check --progress` (the default progress property: every action can always
# eventually occur) with `--method mono`, `--method reduce` and `--method auto` (the two raced),
# with verdicts and peak memory.
#
# Usage: benches/compare/progress-reduce.sh [--timeout S] [--assert] [CASE...]
#   CASE: family:target:N[:ACTION] (default: dining:SYS:9 clientserver:SYS:14 mer:SYS:8
#         gas:SYS:10 bakery:SYS:3). With ACTION (an FSP action such as phil[0].eat) the model gets
#         `progress T = {ACTION}` and the check is `--progress T`: a declared test, which keeps
#         one action visible, instead of the default property (every action). With --assert (an
#         ACTION needed) the model gets the liveness assertion `assert LIVE = []<>ACTION` instead
#         and the check is `--assert LIVE`; the test column then reads `assert:ACTION`.
# Appends to benchmarks/results/progress-reduce.csv and prints a Markdown table.
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TIMEOUT=120; CASES=(); ASSERT=0
while [ $# -gt 0 ]; do
    case $1 in
        --timeout) TIMEOUT=$2; shift 2 ;;
        --assert) ASSERT=1; shift ;;
        -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] ||
    CASES=(dining:SYS:9 clientserver:SYS:14 mer:SYS:8 gas:SYS:10 bakery:SYS:3)
RUNS=("mono=--method mono" "reduce=--method reduce" "auto=--method auto")

build_cli
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
mkdir -p "$ROOT/benchmarks/results"
CSV="$ROOT/benchmarks/results/progress-reduce.csv"
[ -f "$CSV" ] || echo "family,target,n,test,run,verdict,seconds,peak_kb" > "$CSV"
echo "| case | mono | reduce | auto |"
echo "|---|---|---|---|"
for case in "${CASES[@]}"; do
    IFS=: read -r family target n action <<< "$case"
    model="$WORK/$family-$n.lts"
    generate "$family" "$n" "$model"
    test=default
    question=(--progress)
    if [ "$ASSERT" = 1 ]; then
        [ -n "$action" ] || { echo "--assert needs family:target:N:ACTION" >&2; exit 2; }
        echo "assert LIVE = []<>$action" >> "$model"
        test=assert:$action
        question=(--assert LIVE)
    elif [ -n "$action" ]; then
        echo "progress T = {$action}" >> "$model"
        test=$action
        question=(--progress T)
    fi
    row="| $family $target N=$n, $test |"
    check_runs "$case" "$family,$target,$n,$test" "${question[@]}" --target "$target" "$model"
    echo "$row"
done
