#!/usr/bin/env bash
# Storage (issues 17, 30): the monolithic check with `--storage table` and `--storage compact`
# (the default since issue 30), both on one thread unless --threads says otherwise, side by side
# in one run: mean wall seconds of `perf stat -r R` (default 3), the process's peak resident
# memory (/usr/bin/time's %M, the median of R runs) and bytes per state two ways: peak RSS over states (everything the process held: binary, model, store)
# and the store's own accounting (`store_bytes` of the CLI's JSON: tables, tuples and queue as
# allocated). Verdicts and state counts must agree ("MISMATCH" when they do not).
#
# Cases are FAMILY:TARGET:N; the default ones are the families' largest `large` sizes that
# issue 17 names: dining 10, clientserver 16, mer 9, gas 13.
#
# Usage: benches/compare/storage.sh [--repeat R] [--timeout S] [--threads T] [--write] [CASE...]
#   --threads  threads of both runs (default 1; `default`: no flag, every core, as a plain
#              `check` runs: issue 30's "default check")
#   --write    splice the table into docs/benchmarks.md (between the storage markers)
# Environment: CARGO_TARGET_DIR (where the CLI is built; default ROOT/target); BENCH_FIFO=1 runs the
# measured processes under SCHED_FIFO (see common.sh), for a machine that other work shares.
# Run it on a quiet machine: the time ratio is the figure that matters.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

REPEAT=3; TIMEOUT=600; WRITE=""; THREADS=1; CASES=()
while [ $# -gt 0 ]; do
    case $1 in
        --repeat) REPEAT=$2; shift 2 ;;
        --timeout) TIMEOUT=$2; shift 2 ;;
        --threads) THREADS=$2; shift 2 ;;
        --write) WRITE=1; shift ;;
        -h|--help) awk 'NR > 1 && /^#/ { print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) CASES+=("$1"); shift ;;
    esac
done
[ ${#CASES[@]} -eq 0 ] && CASES=(dining:SYS:10 clientserver:SYS:16 mer:SYS:9 gas:SYS:13)
command -v perf > /dev/null || { echo "storage.sh needs perf (linux-tools)" >&2; exit 2; }

build_cli
mkdir -p "$CARGO_TARGET_DIR"
WORK=$(mktemp -d "$CARGO_TARGET_DIR/storage-bench.XXXXXX"); trap 'rm -rf "$WORK"' EXIT
TABLE="$WORK/table.md"
THREAD_ARGS=(--threads "$THREADS"); [ "$THREADS" = default ] && THREAD_ARGS=()

# measure STORAGE: REPEAT runs for the answer and the memory (the median peak: on two threads it
# moves by up to a byte per state from run to run, with how the threads' allocations interleave),
# then the timed repetitions; sets verdict, states, kb, store and wall.
measure() {
    local kbs=() r
    for ((r = 0; r < REPEAT; r++)); do
        timed_check "$WORK/m.lts" --target "$target" --no-deadlock "${THREAD_ARGS[@]}" --storage "$1"
        kbs+=("$kb")
    done
    kb=$(printf '%s\n' "${kbs[@]}" | sort -n | awk '{ k[NR] = $1 } END { print k[int((NR + 1) / 2)] }')
    store=$(json_field "$(cat "$WORK/out.json")" store_bytes)
    "${PRIORITY[@]}" perf stat -r "$REPEAT" -o "$WORK/perf" -- "$GUARANTOR" check --quiet "$WORK/m.lts" \
        --target "$target" --no-deadlock "${THREAD_ARGS[@]}" --storage "$1" > /dev/null 2>&1 || true
    wall=$(awk '/seconds time elapsed/ { print $1 }' "$WORK/perf")
}

# cell: "wall s, RSS MB, RSS B/state, store B/state" of the last measure.
cell() {
    awk -v w="$wall" -v kb="$kb" -v s="$states" -v b="${store:-0}" \
        'BEGIN { printf "%.2f s, %.0f MB, %.1f B, %.1f B", w, kb / 1024, kb * 1024 / s, b / s }'
}

{
    echo "| case | states | table: wall, peak RSS, RSS/state, store/state | compact: the same | compact/table time, RSS |"
    echo "|---|---:|---|---|---|"
    for case in "${CASES[@]}"; do
        IFS=: read -r fam target n <<< "$case"
        generate "$fam" "$n" "$WORK/m.lts"
        measure table
        base_answer="$verdict $states"; base_wall=$wall; base_kb=$kb; base_cell=$(cell)
        measure compact
        answer="$states"
        [ "$verdict $states" != "$base_answer" ] && answer="MISMATCH $verdict $states (table: $base_answer)"
        ratio=$(awk -v a="$wall" -v b="$base_wall" -v c="$kb" -v d="$base_kb" \
            'BEGIN { printf "%.2f, %.2f", a / b, c / d }')
        echo "| $fam $target N=$n | $answer | $base_cell | $(cell) | $ratio |"
    done
    echo
    echo "Mean of $REPEAT runs each, threads: $THREADS; ${PRIORITY[*]:+under ${PRIORITY[*]}; }load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC'); commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "not a git checkout")."
} > "$TABLE"

if [ -n "$WRITE" ]; then write_doc_table storage "$TABLE"; else cat "$TABLE"; fi
