#!/usr/bin/env bash
# Times and measures the peak memory of LTSA's analysis of tx3 (vmaffione/fspc's
# src/examples/tx3.lts, composite SYSTEM: 1,250,688 states, 4,513,698 transitions, no deadlock,
# no violation): elaboration + one walk that looks for ERROR states and deadlocks.
# Figures go to docs/benchmarks.md (summary) and docs/benchmarks/notebook/fsp.md.
#
# Usage: benches/compare/fsp_tx3.sh [runs]   (default 3 runs of each command)
# Env: CARGO_TARGET_DIR (default target), TX3 (default: ../shared/benchmarks/vmaffione-fspc/
# src/examples/tx3.lts, relative to the project root: shared/ sits beside the project checkout).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-3}
target_dir=${CARGO_TARGET_DIR:-target}
tx3=${TX3:-../shared/benchmarks/vmaffione-fspc/src/examples/tx3.lts}
source benches/compare/common.sh
need_input "$tx3" "the tx3 model" \
    "vmaffione/fspc on GitHub, file src/examples/tx3.lts (not part of this repository)" TX3
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install -y time)" >&2; exit 1; }

cargo build --release -q -p guarantor-benches --example fsp_check
cargo build --release -q -p guarantor-cli || echo "(guarantor CLI does not build; skipped)" >&2

measure() {
    for _ in $(seq "$runs"); do
        /usr/bin/time -v "$@" 2>&1 >/dev/null |
            awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Elapsed \(wall/ {w=$2}
                        /Maximum resident/ {m=$2}
                        END {printf "  user %s s, sys %s s, wall %s, peak RSS %.1f MB\n", u, s, w, m/1024}'
    done
}

echo "fsp_check example (elaborate + check_system with deadlocks, one walk):"
"$target_dir/release/examples/fsp_check" "$tx3"
measure "$target_dir/release/examples/fsp_check" "$tx3"
if [ -x "$target_dir/release/guarantor" ]; then
    echo "guarantor check --deadlock:"
    "$target_dir/release/guarantor" check "$tx3" --deadlock || true
    measure "$target_dir/release/guarantor" check "$tx3" --deadlock
fi
