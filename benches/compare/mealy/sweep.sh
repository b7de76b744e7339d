#!/usr/bin/env bash
# Every learner with every oracle on every shared Mealy model through `guarantor learn` (60 s limit
# per run): one line per run with the exit code, `equivalent`, the learned states and the seconds.
# Usage: benches/compare/mealy/sweep.sh [MODELS] (default ../shared/benchmarks/mealy beside the
# checkout; run from anywhere after `cargo build --release -p guarantor-cli`).
root="$(cd "$(dirname "$0")/../../.." && pwd)"
bin="$root/target/release/guarantor"
cd "${1:-$root/../shared/benchmarks/mealy}"
for m in $(find . -name '*.dot' | sort); do for l in lsharp lstar kv; do for o in exact wp:2 w:1 random-walk:20000 random-words:2000 state-prefix:20; do
  out=$(timeout 60 "$bin" learn $m --learner $l --oracle $o --seed 1 --format json 2>&1); rc=$?
  eq=$(echo "$out" | python3 -c "import sys,json
try: d=json.loads(sys.stdin.read()); print(d['equivalent'], d['states'], round(d['seconds'],3))
except Exception as e: print('ERR')")
  echo "$m $l $o rc=$rc $eq"
done; done; done
