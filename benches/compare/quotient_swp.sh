#!/usr/bin/env bash
# Quotient synthesis on the sliding window protocol (benchmarks/swp/swp.lts, properties A-D)
# against the monolithic check, in two measures:
#
#   cli       the whole check through the CLI (composing M, synthesis, checking M || A):
#             ROUNDS rounds of every command, median of the JSON `seconds` field, with the
#             refinement steps, hand-overs and assumption states of the last round.
#   callgrind instructions of synthesis alone (benches/examples/swp_fsp.rs: `repeat P X R` minus
#             `repeat P mono 0`, divided by R), exact and independent of the machine's load;
#             needs valgrind. The paper's one-edge loop on A and C takes minutes under valgrind
#             and is left out unless --with-paper-loop is given.
#
# Usage: benches/compare/quotient_swp.sh [cli|callgrind] [--rounds N] [--with-paper-loop]
#   (default: cli, 3 rounds). Prints a markdown table; docs/benchmarks.md (summary) and
#   docs/benchmarks/notebook/quotient.md (all tables) keep the results.
# Environment: CARGO_TARGET_DIR (where the CLI and the example are built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

MODE=cli; ROUNDS=3; PAPER_LOOP=0
while [ $# -gt 0 ]; do
    case $1 in
        cli|callgrind) MODE=$1; shift ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --with-paper-loop) PAPER_LOOP=1; shift ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
MODEL="$ROOT/benchmarks/swp/swp.lts"

# median of the numbers on stdin
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

cli() {
    build_cli
    local methods=("mono" "one" "all" "exact" "all-no-hand-over")
    local -A seconds=() last=()
    for _ in $(seq "$ROUNDS"); do
        for t in A B C D; do
            for m in "${methods[@]}"; do
                local args=(--method quotient --component RECEIVER)
                case $m in
                    mono) args=(--method mono) ;;
                    all) args+=(--split-all) ;;
                    exact) args+=(--exact) ;;
                    all-no-hand-over) args+=(--split-all --no-exact-fallback) ;;
                esac
                local out
                out=$("$GUARANTOR" check "$MODEL" --target "SYS_$t" --format json -q --no-deadlock "${args[@]}" || true)
                seconds[$t.$m]+="$(json_field "$out" seconds) "
                last[$t.$m]=$out
            done
        done
    done
    echo "| property | method | verdict | states | steps | hand-overs | seconds (median of $ROUNDS) |"
    echo "|---|---|---|---|---|---|---|"
    for t in A B C D; do
        for m in "${methods[@]}"; do
            local out=${last[$t.$m]}
            local med
            med=$(printf '%s\n' ${seconds[$t.$m]} | median)
            echo "| $t | $m | $(json_field "$out" verdict) | $(json_field "$out" states) | $(json_field "$out" refinement_steps) | $(json_field "$out" exact_fallbacks) | $med |"
        done
    done
}

# instructions BIN ARGS...: the instructions valgrind counts for one run.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 |
        sed -n 's/.*Collected : //p'
}

callgrind() {
    (cd "$ROOT" && cargo build --release -q -p guarantor-benches --example swp_fsp)
    local bin="$CARGO_TARGET_DIR/release/examples/swp_fsp"
    echo "| property | method | instructions per run | / monolithic |"
    echo "|---|---|---|---|"
    for t in A B C D; do
        local runs_mono=3 runs=3 base mono
        [ "$t" = D ] && runs_mono=200 && runs=200
        base=$(instructions "$bin" repeat "$t" mono 0)
        mono=$(( ($(instructions "$bin" repeat "$t" mono "$runs_mono") - base) / runs_mono ))
        echo "| $t | mono | $mono | 1 |"
        local methods=(exact one all pure-all)
        [ "$PAPER_LOOP" = 1 ] || [ "$t" = B ] || [ "$t" = D ] && methods+=(pure-one)
        for m in "${methods[@]}"; do
            local r=$runs
            [ "$m" = pure-one ] && [ "$t" != D ] && r=1
            local per=$(( ($(instructions "$bin" repeat "$t" "$m" "$r") - base) / r ))
            echo "| $t | $m | $per | $(awk -v a="$per" -v b="$mono" 'BEGIN {printf "%.2fx", a / b}') |"
        done
    done
}

"$MODE"
