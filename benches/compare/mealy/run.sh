#!/usr/bin/env bash
# Compares `guarantor learn` (L#, L* with Rivest-Schapire processing and KV, Wp oracle with bound
# "hypothesis + 2" each round, `--oracle wp:2`, which runs each round's whole suite; L# also with
# `--oracle wp-first:2`, which stops at the first failing test as AALpy's does, and with `--tour`,
# which walks each hypothesis on the system in one membership query first) with AALpy 2.0.0's
# L# and L*-RS under the same Wp suites, on every Mealy model of the shared benchmark folder,
# model by model in one invocation, and writes benchmarks/results/mealy.csv; prints one summary
# line with the issue 29 targets
# (learned exactly; our L#'s membership queries <= AALpy L#'s; its equivalence queries <= AALpy
# L*-RS's; CPU speed-up over AALpy's L#). Queries, steps and resets are counted after each side's
# cache (AALpy's queries_learning / steps_learning).
#
# Environment:
#   MODELS        the model folder (default ../shared/benchmarks/mealy beside the checkout)
#   AALPY_PYTHON  a python with aalpy==2.0.0 (default target/aalpy-venv/bin/python, created with
#                 `python3 -m venv target/aalpy-venv && target/aalpy-venv/bin/pip install aalpy==2.0.0`
#                 when missing)
#   REPEATS       runs of ours per model and learner, the fastest counting (default 3)
#   TIMEOUT       seconds per AALpy run (default 60)
#   MEALY_CSV     output CSV (default benchmarks/results/mealy.csv)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
models="${MODELS:-$root/../shared/benchmarks/mealy}"
python="${AALPY_PYTHON:-$root/target/aalpy-venv/bin/python}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
if ! "$python" -c 'import aalpy' 2> /dev/null; then
    python3 -m venv "$root/target/aalpy-venv"
    "$root/target/aalpy-venv/bin/pip" install --quiet aalpy==2.0.0
    python="$root/target/aalpy-venv/bin/python"
fi
(cd "$root" && cargo build --quiet --release -p guarantor-cli)
mkdir -p "$root/benchmarks/results"
echo "load before: $(uptime)" >&2
python3 "$here/compare.py" "$CARGO_TARGET_DIR/release/guarantor" "$python" "$models" \
    "${MEALY_CSV:-$root/benchmarks/results/mealy.csv}" "${REPEATS:-3}" "${TIMEOUT:-60}"
echo "load after: $(uptime)" >&2
