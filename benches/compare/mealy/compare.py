#!/usr/bin/env python3
"""Runs `guarantor learn --oracle wp:2` (L#, L* and KV) and AALpy 2.0.0 (aalpy_run.py: L# and L*-RS
with the same Wp test suites, bound hypothesis + 2 each round) on every Mealy model under ROOT, model
by model, writes the joined figures to CSV and prints the issue 29 targets checked in one summary
line. Our `wp:2` runs each round's whole suite (its answers go to the learner's cache) and returns
its first failing test; AALpy's oracle stops at that test. Our L# is also run with `wp-first:2`,
which stops there too (CSV algorithm `lsharp/wp-first:2`), for a like-for-like row, and with
`--tour` (CSV algorithm `lsharp/tour`: each hypothesis walked on the system in one membership
query before the oracle sees it). Times (column time_s): ours, the learning run's wall-clock seconds as `guarantor learn`
reports them (learner and oracle, no process start-up), the fastest of REPEATS runs; AALpy, CPU
seconds (time.process_time() around its run_* call, one run). Wall time is never below CPU time,
so on a shared machine the comparison is, if anything, unfair to us.

Usage: compare.py GUARANTOR_BINARY AALPY_PYTHON ROOT OUT.csv [REPEATS] [TIMEOUT]
"""
import csv
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = [("lsharp", "wp:2", []), ("lstar", "wp:2", []), ("kv", "wp:2", []),
        ("lsharp", "wp-first:2", []), ("lsharp", "wp:2", ["--tour"])]


def ours(binary, path, learner, repeats, oracle="wp:2", flags=()):
    best = None
    for _ in range(repeats):
        out = subprocess.run([binary, "learn", path, "--learner", learner, "--oracle", oracle,
                              "--format", "json", *flags], capture_output=True, text=True)
        d = json.loads(out.stdout)
        # The learning run's own wall-clock time (`seconds`: the learner and the oracle, no
        # process start-up or parsing); never less than its CPU time, so the comparison with
        # AALpy's CPU time is, if anything, unfair to us.
        d["cpu_s"] = d["seconds"]
        if best is None or d["cpu_s"] < best["cpu_s"]:
            best = d
    return best


def aalpy(python, path, timeout):
    out = subprocess.run([python, os.path.join(HERE, "aalpy_run.py"), path, str(timeout),
                          "lsharp,lstar"], capture_output=True, text=True)
    rows = {}
    for line in out.stdout.strip().splitlines():
        f = line.split(",")
        keys = ["queries_learning", "steps_learning", "queries_eq_oracle", "steps_eq_oracle",
                "learning_rounds", "states_learned", "total_time", "cpu_s", "equivalent",
                "status"]
        rows[f[0]] = dict(zip(keys, f[1:]))
    return rows


def main():
    binary, python, root, out_csv = sys.argv[1:5]
    repeats = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    timeout = float(sys.argv[6]) if len(sys.argv) > 6 else 60
    models = sorted(os.path.relpath(os.path.join(d, f), root)
                    for d, _, fs in os.walk(root) for f in fs if f.endswith(".dot"))
    fields = ["model", "side", "algorithm", "states_target", "inputs", "states_learned",
              "membership_queries", "steps", "resets", "equivalence_queries", "oracle_queries",
              "oracle_steps", "time_s", "equivalent", "status"]
    table = []
    with open(out_csv, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields)
        w.writeheader()
        for m in models:
            path = os.path.join(root, m)
            res = {}
            # Ours with wp:2 (each round's whole Wp suite), and L# with wp-first:2 (the suite
            # stopped at its first failing test, as AALpy's oracle is) for a like-for-like row.
            for learner, oracle, flags in RUNS:
                d = ours(binary, path, learner, repeats, oracle, flags)
                name = learner if oracle == "wp:2" else f"{learner}/{oracle}"
                name += "".join("/" + f.lstrip("-") for f in flags)
                res[("ours", name)] = d
                w.writerow(dict(model=m, side="guarantor", algorithm=name,
                                states_target=d["target_states"], inputs=d["inputs"],
                                states_learned=d["states"],
                                membership_queries=d["membership_queries"], steps=d["steps"],
                                resets=d["resets"],
                                equivalence_queries=d["equivalence_queries"],
                                oracle_queries=d["oracle_queries"],
                                oracle_steps=d["oracle_steps"], time_s=round(d["cpu_s"], 6),
                                equivalent=d["equivalent"], status="ok"))
            for algo, r in aalpy(python, path, timeout).items():
                res[("aalpy", algo)] = r
                w.writerow(dict(model=m, side="aalpy-2.0.0", algorithm=algo,
                                states_target=res[("ours", "lsharp")]["target_states"],
                                inputs=res[("ours", "lsharp")]["inputs"],
                                states_learned=r["states_learned"],
                                membership_queries=r["queries_learning"],
                                steps=r["steps_learning"], resets=r["queries_learning"],
                                equivalence_queries=r["learning_rounds"],
                                oracle_queries=r["queries_eq_oracle"],
                                oracle_steps=r["steps_eq_oracle"], time_s=r["cpu_s"],
                                equivalent=r["equivalent"], status=r["status"]))
            fh.flush()
            table.append((m, res))
            print(f"{m}: done", file=sys.stderr, flush=True)
    summary(table)


def summary(table):
    """One line with the issue 29 targets, and the per-learner comparisons beside them."""
    exact = mq = eq = eq_star = eq_sharp = mq_first = eq_first = mq_tour = eq_tour = 0
    mq_n = eq_n = 0
    speed = []
    for m, res in table:
        o, ol, ok = res[("ours", "lsharp")], res[("ours", "lstar")], res[("ours", "kv")]
        of = res[("ours", "lsharp/wp-first:2")]
        ot = res[("ours", "lsharp/tour")]
        a, al = res.get(("aalpy", "lsharp"), {}), res.get(("aalpy", "lstar"), {})
        exact += all(r["equivalent"] for r in (o, ol, ok, of, ot))
        if a.get("queries_learning"):
            mq_n += 1
            mq += o["membership_queries"] <= int(a["queries_learning"])
            mq_first += of["membership_queries"] <= int(a["queries_learning"])
            mq_tour += ot["membership_queries"] <= int(a["queries_learning"])
            eq_sharp += o["equivalence_queries"] <= int(a["learning_rounds"])
            speed.append(float(a["cpu_s"]) / max(o["cpu_s"], 1e-6))
        if al.get("learning_rounds"):
            eq_n += 1
            eq += o["equivalence_queries"] <= int(al["learning_rounds"])
            eq_star += ol["equivalence_queries"] <= int(al["learning_rounds"])
            eq_first += of["equivalence_queries"] <= int(al["learning_rounds"])
            eq_tour += ot["equivalence_queries"] <= int(al["learning_rounds"])
    print(f"learned exactly (all our runs): {exact}/{len(table)}; "
          f"our L# MQ <= AALpy L#: {mq}/{mq_n}; our L# EQ <= AALpy L*-RS: {eq}/{eq_n}; "
          f"our L* EQ <= AALpy L*-RS: {eq_star}/{eq_n}; our L# EQ <= AALpy L#: {eq_sharp}/{mq_n}; "
          f"speed-up of our L# (wall) over AALpy L# (CPU): median {statistics.median(speed):.0f}x, "
          f"min {min(speed):.0f}x, max {max(speed):.0f}x; "
          f"our L# with wp-first:2: MQ <= AALpy L#: {mq_first}/{mq_n}, "
          f"EQ <= AALpy L*-RS: {eq_first}/{eq_n}; "
          f"our L# with --tour: MQ <= AALpy L#: {mq_tour}/{mq_n}, "
          f"EQ <= AALpy L*-RS: {eq_tour}/{eq_n}")


if __name__ == "__main__":
    main()
