# Shared helpers of the comparison scripts (sourced, not run): the family manifest, the model
# generator, and the release build of the CLI. Kept in one place so spin.sh and methods.sh read
# benchmarks/families.tsv, substitute N and write their tables into the docs the same way.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MANIFEST="$ROOT/benchmarks/families.tsv"
: "${CARGO_TARGET_DIR:=$ROOT/target}"
GUARANTOR="$CARGO_TARGET_DIR/release/guarantor"

# need_input PATH WHAT ORIGIN VAR: stops with exit code 2 and says where to get PATH when it does not
# exist. Most scripts read only benchmarks/ (in every clone); the few that compare against outside
# material (fspc's tx3 model, the AALpy harness's DFAs) read it from a folder beside the checkout,
# which a fresh clone does not have: say so before building anything.
need_input() {
    [ -e "$1" ] && return 0
    {
        echo "error: $2 not found at $1"
        echo "  it comes from $3"
        echo "  fetch it, then point $4 at it (e.g. $4=/path/to/it $0)"
    } >&2
    exit 2
}

# build_cli [CARGO-ARGS...]: the release build of the command-line tool (`build_cli --features dist`
# for the distributed engine, which a plain build leaves out).
build_cli() {
    (cd "$ROOT" && CARGO_TARGET_DIR="$CARGO_TARGET_DIR" cargo build --release -q -p guarantor-cli "$@") ||
        { echo "cannot build guarantor-cli" >&2; exit 2; }
}

# manifest_rows [FAMILY]: the manifest's data lines (comments dropped), optionally one family.
manifest_rows() {
    grep -v '^[[:space:]]*#' "$MANIFEST" | grep -v '^[[:space:]]*$' |
        awk -v f="${1:-}" 'f == "" || $1 == f'
}

# generate FAMILY N OUT: writes the FSP model of FAMILY with `const N = N` to OUT.
generate() {
    sed "s/^const N = .*/const N = $2/" "$ROOT/benchmarks/$1/$1.lts" > "$3"
}

# json_field JSON NAME: one scalar field of the CLI's JSON output (no jq needed).
json_field() {
    printf '%s' "$1" | sed -n "s/.*\"$2\":\(\"[^\"]*\"\|[^,}]*\).*/\1/p" | tr -d '"'
}

# peak_kb FILE: the "%M" line written by /usr/bin/time -f "%e %M" into FILE, as "seconds kB".
timed() {
    local out=$1; shift
    "${PRIORITY[@]}" /usr/bin/time -f "%e %M" -o "$out" "$@"
}

# BENCH_FIFO=1: the measured runs (`timed`, and the scripts' `perf stat` lines) under SCHED_FIFO
# (`chrt -f 20`, root only), so that other work on a shared machine (a build, another benchmark)
# does not take their cores: their threads and the processes they start inherit it. Figures taken
# so say so.
PRIORITY=()
[ "${BENCH_FIFO:-}" = 1 ] && PRIORITY=(chrt -f 20)

# timed_check CHECK-ARGS...: one timed `guarantor check --quiet --format json --timeout $TIMEOUT`
# run (needs $WORK); sets rc, verdict (with the violation's kind, if any), states, secs and kb.
timed_check() {
    set +e
    timed "$WORK/time" "$GUARANTOR" check --quiet --format json --timeout "$TIMEOUT" "$@" \
        > "$WORK/out.json" 2> /dev/null
    rc=$?
    set -e
    read -r secs kb < <(tail -n 1 "$WORK/time")
    local json violation
    json=$(cat "$WORK/out.json")
    verdict=$(json_field "$json" verdict)
    violation=$(json_field "$json" violation)
    [ -z "$violation" ] || [ "$violation" = null ] || verdict="$verdict ($violation)"
    states=$(json_field "$json" states)
}

# check_runs CASE CSV_PREFIX CHECK-ARGS...: every "label=OPTIONS" of the array RUNS checked once
# (timed_check with OPTIONS and CHECK-ARGS); appends "CSV_PREFIX,label,verdict,secs,kb" (then
# ",load" when CSV_LOAD=1) to $CSV and " verdict, secs s, MB |" to $row, and reports each run on
# stderr with the load average it started at.
check_runs() {
    local case=$1 prefix=$2 run label options load
    shift 2
    for run in "${RUNS[@]}"; do
        label=${run%%=*}
        read -r -a options <<< "${run#*=}"
        load=$(cut -d' ' -f1 /proc/loadavg)
        timed_check "${options[@]}" "$@"
        if [ "${CSV_LOAD:-0}" = 1 ]; then
            echo "$prefix,$label,$verdict,$secs,$kb,$load" >> "$CSV"
        else
            echo "$prefix,$label,$verdict,$secs,$kb" >> "$CSV"
        fi
        row+=" $verdict, $secs s, $((kb / 1024)) MB |"
        echo "$case $label: $verdict in $secs s, $kb kB (load $load)" >&2
    done
}

# ratio_cell SECS BASE_SECS KB BASE_KB: "T x, M x", time and memory over the base's.
ratio_cell() {
    awk -v a="$1" -v b="$2" -v c="$3" -v d="$4" \
        'BEGIN { printf "%.1f x, %.1f x", (b > 0 ? a / b : 0), (d > 0 ? c / d : 0) }'
}

# write_doc_table MARKER TABLE: replaces what stands between `<!-- MARKER:begin -->` and
# `<!-- MARKER:end -->` by the file TABLE, in the first of docs/benchmarks.md and the notebook
# files docs/benchmarks/notebook/*.md that has the markers (the full spin and methods tables live
# in the notebook); prints TABLE instead when no file has them.
write_doc_table() {
    local docs="" candidate spliced
    for candidate in "$ROOT/docs/benchmarks.md" "$ROOT"/docs/benchmarks/notebook/*.md; do
        if [ -f "$candidate" ] && grep -q "<!-- $1:begin -->" "$candidate"; then
            docs=$candidate
            break
        fi
    done
    if [ -n "$docs" ]; then
        spliced=$(mktemp)
        awk -v table="$2" -v begin="<!-- $1:begin -->" -v end="<!-- $1:end -->" '
            index($0, begin) { print; while ((getline line < table) > 0) print line; skip = 1; next }
            index($0, end) { skip = 0 }
            !skip' "$docs" > "$spliced" && cp "$spliced" "$docs"
        rm -f "$spliced"
        echo "table written into $docs"
    else
        cat "$2"
    fi
}
