#!/usr/bin/env bash
# Threads (issue 17): the same check with `--threads 1` and `--threads 2` (or --threads LIST),
# each repeated with `perf stat -r R` (default 5): mean wall seconds with perf's spread, CPU
# seconds (task-clock) and the CPUs perf saw used, and the verdict, iterations and largest product
# of the CLI's JSON, which must not depend on the thread count ("MISMATCH" when they do).
#
# Cases are FAMILY:TARGET:N:METHOD (FAMILY tx3: the shared fspc tx3 model, N ignored); the
# default ones are those issue 17 names:
#   tx3:SYSTEM:-:mono          the monolithic breadth-first search, wide levels on both threads
#   dining:SYS:10:mono         the same on the philosophers-with-lock family at N = 10
#   clientserver:SYS:16:circ   CIRC-AG_N, premises of an iteration decided concurrently
#   mer:SYS:8:lstar            L* (ASYM), membership batches answered concurrently
# Every run also uses the monolithic engine's parallel breadth-first search where a method calls it.
# The machine is shared: run it when it is quiet, and read the CPU seconds beside the wall time.
#
# Usage: benches/compare/threads.sh [--repeat R] [--threads 1,2] [--timeout S] [--storage S] [CASE...]
#   --storage  the CLI's --storage for every run (default: none, the CLI's default, compact)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target); BENCH_FIFO=1 runs the
# measured processes under SCHED_FIFO (see common.sh), for a machine that other work shares.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REPEAT=5; THREADS=1,2; TIMEOUT=600; STORAGE=(); CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --repeat) REPEAT=$2; shift 2 ;;
        --threads) THREADS=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --storage) STORAGE=(--storage "$2"); shift 2 ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -eq 0 ] && CASES=(tx3:SYSTEM:-:mono dining:SYS:10:mono clientserver:SYS:16:circ mer:SYS:8:lstar)
TX3=${TX3:-$ROOT/../shared/benchmarks/vmaffione-fspc/src/examples/tx3.lts}
if printf '%s\n' "${CASES[@]}" | grep -q '^tx3:'; then
    need_input "$TX3" "the tx3 model" \
        "vmaffione/fspc on GitHub, file src/examples/tx3.lts (not part of this repository)" TX3
fi
command -v perf > /dev/null || { echo "threads.sh needs perf (linux-tools)" >&2; exit 2; }

build_cli
mkdir -p "$CARGO_TARGET_DIR"
WORK=$(mktemp -d "$CARGO_TARGET_DIR/threads-bench.XXXXXX"); trap 'rm -rf "$WORK"' EXIT

# answer JSON: "verdict iterations states" (iterations "-" for a method without them).
answer() {
    python3 -c '
import json, sys
j = json.loads(sys.argv[1])
print(j.get("verdict", "?"), j.get("iterations", "-"), j.get("states", "-"))' "$1"
}

# perf_figures FILE: "wall spread cpu cpus" from perf stat's report (wall and CPU in seconds).
perf_figures() {
    awk '
        /task-clock/ { cpu = $1; gsub(",", "", cpu); for (i = 2; i <= NF; i++) if ($i == "CPUs") cpus = $(i - 1) }
        /seconds time elapsed/ { wall = $1; spread = ($2 == "+-") ? $3 : "?" }
        END { printf "%s %s %.2f %s\n", wall, spread, cpu / 1000, cpus }' "$1"
}

echo "| case | method | threads | wall s (mean of $REPEAT, +- sd) | CPU s | CPUs used | verdict, iterations, states |"
echo "|---|---|---:|---:|---:|---:|---|"
for case in "${CASES[@]}"; do
    IFS=: read -r fam target n method <<< "$case"
    if [ "$fam" = tx3 ]; then cp "$TX3" "$WORK/m.lts"; else generate "$fam" "$n" "$WORK/m.lts"; fi
    # tx3 has no property: LTSA's deadlock search is its check; the families check their property.
    deadlock=--no-deadlock; [ "$fam" = tx3 ] && deadlock=--deadlock
    args=(check "$WORK/m.lts" --target "$target" --method "$method" "$deadlock" --timeout "$TIMEOUT" "${STORAGE[@]}")
    first=""
    for t in ${THREADS//,/ }; do
        # One run for the answer, then the timed repetitions.
        out=$("$GUARANTOR" "${args[@]}" --threads "$t" --format json 2> /dev/null || true)
        got=$(answer "$out")
        [ -z "$first" ] && first=$got
        [ "$got" != "$first" ] && got="MISMATCH $got (1st: $first)"
        "${PRIORITY[@]}" perf stat -r "$REPEAT" -o "$WORK/perf" -- "$GUARANTOR" "${args[@]}" --threads "$t" > /dev/null 2>&1 || true
        read -r wall spread cpu cpus <<< "$(perf_figures "$WORK/perf")"
        echo "| $fam $target N=$n | $method | $t | $wall (+- $spread) | $cpu | $cpus | $got |"
    done
done
echo
echo "storage: ${STORAGE[*]:-default}; ${PRIORITY[*]:+under ${PRIORITY[*]}; }load average: $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")"
