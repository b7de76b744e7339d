#!/usr/bin/env bash
# Compares Guarantor's L* and L# with AALpy 2.0.0's L* (Rivest-Schapire) and L# on the seeded DFAs
# of the shared harness, all four in one invocation, and prints two Markdown tables (the ones in
# docs/benchmarks.md, "L* versus AALpy" and "L# versus AALpy") with the issue 18 targets checked:
# our L#'s membership queries at most AALpy's L#'s, its equivalence queries at most AALpy's
# L*-RS's, and at least 50x faster than AALpy's L#, per DFA.
#
# Our L# is measured with a teacher that answers step-wise (DfaTeacher::with_prefix_answers: one
# query gives the acceptance of every prefix of its word, as AALpy's SUL returns the output of
# every step), and with one-bit answers for reference. Queries are counted as AALpy's harness
# counts them: one per distinct word sent to the teacher (AALpy's own cache is off; the harness's
# CountingDfaSUL counts distinct words, so a repeated word is not counted again), whatever its
# length; our learner never sends a word twice and sends no word whose answer it already has.
#
# Both sides learn every DFA against a perfect teacher that answers an equivalence query with the
# shortest counterexample in breadth-first, symbol order (the harness's "shortest" mode), and both
# are timed the same way: mean CPU time of a whole learning run, teacher included, over a batch of
# runs repeated for >= 0.1 s, the fastest of LSTAR_BATCHES batches (CPU rather than wall time, and
# the fastest batch, since the machine is shared).
#
# Environment:
#   HARNESS          the harness folder (default: shared/harness beside the project checkout,
#                    i.e. ../shared/harness from the project root)
#   AALPY_PYTHON     a python with aalpy==2.0.0 (default: python3); without AALpy the table uses
#                    the counts and single-run times recorded in $HARNESS/dfas/results.csv
#   CARGO_TARGET_DIR where cargo builds (default: the workspace's target/)
#   LSTAR_CSV        where to write the joined figures as CSV (default
#                    benchmarks/results/lstar-aalpy.csv, and the L# table's beside it as
#                    lsharp-aalpy.csv; empty: nowhere)
#   LSTAR_BATCHES    batches per DFA and side, the fastest one counting (default 5; more batches
#                    give both sides more chances of a batch the machine's load leaves alone)
#   LSHARP_BATCHES   batches of AALpy's L# per DFA (default 1: one run takes up to minutes)
set -euo pipefail
export LSTAR_BATCHES="${LSTAR_BATCHES:-5}"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
harness="${HARNESS:-$root/../shared/harness}"
python="${AALPY_PYTHON:-python3}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
source "$root/benches/compare/common.sh"
need_input "$harness/dfas" "the AALpy harness's DFAs" \
    "the shared AALpy comparison harness (its dfas/*.dfa files and dfas/results.csv; not part of this repository)" HARNESS

(cd "$root" && cargo build --quiet --release -p guarantor-benches --example learn_dfas)
# Benchmark DFAs (not the mutants of the reuse study), random ones first, by size then alphabet.
mapfile -t files < <(ls "$harness"/dfas/*.dfa | grep -v _mut \
    | python3 -c 'import re, sys; fs = sys.stdin.read().split()
key = lambda f: (not "random" in f, *map(int, re.findall(r"_[nk](\d+)", f)))
print("\n".join(sorted(fs, key=key)))')
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "load before: $(uptime)" >&2
# Both sides measure one DFA back to back before moving to the next, so that a change in the load
# of the shared machine falls on both measurements of a DFA rather than on one side's whole list.
if "$python" -c 'import aalpy' 2> /dev/null; then
    source="rerun"
else
    echo "AALpy not importable by $python: using $harness/dfas/results.csv" >&2
    source="$harness/dfas/results.csv"
fi
for f in "${files[@]}"; do
    "$CARGO_TARGET_DIR/release/examples/learn_dfas" "$f" > "$out/ours.one"
    [ -s "$out/ours.csv" ] || head -n 1 "$out/ours.one" > "$out/ours.csv"
    tail -n +2 "$out/ours.one" >> "$out/ours.csv"
    if [ "$source" = rerun ]; then
        for algo in lstar_rs lsharp; do
            "$python" "$here/aalpy_time.py" "$harness" "$algo" "$f" > "$out/aalpy.one"
            [ -s "$out/aalpy.csv" ] || head -n 1 "$out/aalpy.one" > "$out/aalpy.csv"
            tail -n +2 "$out/aalpy.one" >> "$out/aalpy.csv"
        done
    fi
done
echo "load after: $(uptime)" >&2
csv_out="${LSTAR_CSV-$root/benchmarks/results/lstar-aalpy.csv}"
python3 "$here/table.py" "$out/ours.csv" "$out/aalpy.csv" "$source" ${csv_out:+"$csv_out"}
