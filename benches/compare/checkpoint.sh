#!/usr/bin/env bash
# Checkpoints (issue 30): what a check killed with SIGKILL and resumed costs against one that
# ran uninterrupted. Per case, one run each, wall seconds (the same options throughout):
#   plain       `check` as a user runs it (default threads)
#   plain-1t    `check --threads 1` (the checkpointed search runs on one thread)
#   ckpt        `check --checkpoint DIR --checkpoint-every E`, uninterrupted (the overhead)
#   killed      the same killed with SIGKILL at FRACTION of plain's time, then `--resume DIR`
#               to the end: kill time + resume time (the figure issue 30 bounds by
#               1.5 x the uninterrupted run + 2 s: "bound" against plain, "bound ckpt" against
#               the uninterrupted checkpointing run, the same command)
# Verdicts, state and transition counts of the resumed run must be plain's ("MISMATCH" when they are not).
# With --processes P, plain, ckpt, killed and resumed run the distributed engine on P local
# processes (`--processes P`; plain-1t stays the one-thread monolithic check), and the kill hits
# every process of the run (its process group), which is gone before the resume starts.
#
# Usage: benches/compare/checkpoint.sh [--every E] [--fraction F] [--processes P] [CASE...]
#        CASE = family:target:N (default gas:SYS:13); E default 5 s, F default 0.5
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

EVERY=5; FRACTION=0.5; CASES=(); DIST=()
while [ $# -gt 0 ]; do
    case $1 in
        --every) EVERY=$2; shift 2 ;;
        --fraction) FRACTION=$2; shift 2 ;;
        --processes) DIST=(--processes "$2"); shift 2 ;;
        -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -gt 0 ] || CASES=(gas:SYS:13)
if [ ${#DIST[@]} -gt 0 ]; then build_cli --features dist; else build_cli; fi
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT

# run LABEL ARGS...: one timed run of the CLI (JSON out), wall seconds into $secs.
run() {
    local label=$1; shift
    local t0 t1
    t0=$(date +%s.%N)
    set +e
    "$GUARANTOR" check --quiet --format json "$@" > "$WORK/$label.json" 2> /dev/null
    set -e
    t1=$(date +%s.%N)
    secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

echo "load at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| case | plain s | plain-1t s | ckpt s | killed at s | resume s | killed+resumed s | bound s | within | bound ckpt s | within | states |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---|---:|"
for case in "${CASES[@]}"; do
    IFS=: read -r family target n <<< "$case"
    model=(--target "$target" --const "N=$n" "$ROOT/benchmarks/$family/$family.lts")
    run plain "${DIST[@]}" "${model[@]}"; plain=$secs
    run plain1 --threads 1 "${model[@]}"; plain1=$secs
    rm -rf "$WORK/ck"
    run ckpt "${DIST[@]}" --checkpoint "$WORK/ck" --checkpoint-every "$EVERY" "${model[@]}"; ckpt=$secs
    rm -rf "$WORK/ck"
    kill_at=$(awk -v p="$plain" -v f="$FRACTION" 'BEGIN { printf "%.2f", p * f }')
    t0=$(date +%s.%N)
    # In a session of its own (setsid execs in place: a background job of a script is no group
    # leader), so that the kill reaches every process the run started.
    setsid "$GUARANTOR" check --quiet --format json "${DIST[@]}" --checkpoint "$WORK/ck" \
        --checkpoint-every "$EVERY" "${model[@]}" > /dev/null 2>&1 &
    victim=$!
    sleep "$kill_at"
    kill -KILL -- "-$victim" 2> /dev/null || true
    wait "$victim" 2> /dev/null || true
    while kill -0 -- "-$victim" 2> /dev/null; do sleep 0.02; done
    t1=$(date +%s.%N)
    killed=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
    run resumed "${DIST[@]}" --resume "$WORK/ck" --checkpoint-every "$EVERY" "${model[@]}"; resume=$secs
    total=$(awk -v a="$killed" -v b="$resume" 'BEGIN { printf "%.2f", a + b }')
    bound=$(awk -v p="$plain" 'BEGIN { printf "%.2f", 1.5 * p + 2 }')
    within=$(awk -v t="$total" -v b="$bound" 'BEGIN { print (t <= b) ? "yes" : "no" }')
    bound_ck=$(awk -v p="$ckpt" 'BEGIN { printf "%.2f", 1.5 * p + 2 }')
    within_ck=$(awk -v t="$total" -v b="$bound_ck" 'BEGIN { print (t <= b) ? "yes" : "no" }')
    a=$(cat "$WORK/plain.json"); b=$(cat "$WORK/resumed.json")
    states=$(json_field "$a" states)
    key() { echo "$(json_field "$1" verdict)/$(json_field "$1" states)/$(json_field "$1" transitions)"; }
    if [ "$(key "$a")" != "$(key "$b")" ]; then
        states="MISMATCH $states vs $(json_field "$b" states)"
    fi
    echo "| $family $target N=$n | $plain | $plain1 | $ckpt | $killed | $resume | $total | $bound | $within | $bound_ck | $within_ck | $states |"
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)"
