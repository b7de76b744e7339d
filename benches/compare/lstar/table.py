#!/usr/bin/env python3
"""Joins learn_dfas.rs's CSV with AALpy's figures and prints the Markdown table of
docs/benchmarks.md; with OUT.csv, also writes the joined figures there. Usage:
table.py OURS.csv AALPY.csv (rerun | RESULTS.csv) [OUT.csv]"""
import csv
import sys


def aalpy_rows(path, source):
    if source == "rerun":
        return {r["dfa"]: r for r in csv.DictReader(open(path))}
    rows = {}
    for r in csv.DictReader(open(source)):
        if r["algo"] == "lstar_rs" and r["cex"] == "shortest":
            rows[r["dfa"][:-4]] = dict(mq_unique=r["mq_unique"], eq_queries=r["eq_queries"],
                                        time_us=str(float(r["wall_s"]) * 1e6))
    return rows


def main():
    ours_path, aalpy_path, source = sys.argv[1:4]
    out = csv.writer(open(sys.argv[4], "w", newline="")) if len(sys.argv) > 4 else None
    if out:
        out.writerow(["dfa", "minimal", "mq_ours", "mq_ours_prefix_closed", "mq_aalpy", "eq_ours",
                      "eq_aalpy", "time_ours_us", "time_aalpy_us", "speedup"])
    ours = {}
    for r in csv.DictReader(open(ours_path)):
        ours.setdefault(r["dfa"], {})[r["mode"]] = r
    aalpy = aalpy_rows(aalpy_path, source)
    print("| DFA | min. states | MQ ours | MQ ours, prefix-closed mode | MQ AALpy | EQ ours | EQ AALpy "
          "| time ours (µs) | time AALpy (µs) | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios, worse = [], []
    for name, modes in ours.items():
        rs, pc, a = modes["rs"], modes.get("rs_pc"), aalpy[name]
        assert rs["correct"] == "true" and (pc is None or pc["correct"] == "true"), name
        if int(rs["mq"]) > int(a["mq_unique"]):
            worse.append(name)
        ratio = float(a["time_us"]) / float(rs["time_us"])
        ratios.append(ratio)
        if out:
            out.writerow([name, rs["minimal"], rs["mq"], pc["mq"] if pc else "", a["mq_unique"],
                          rs["eq"], a["eq_queries"], rs["time_us"], a["time_us"], f"{ratio:.1f}"])
        print(f"| {name} | {rs['minimal']} | {rs['mq']} | {pc['mq'] if pc else '—'} | {a['mq_unique']} "
              f"| {rs['eq']} | {a['eq_queries']} | {float(rs['time_us']):.1f} | {float(a['time_us']):.0f} "
              f"| {ratio:.0f}× |")
    print()
    print(f"Speed-up: min {min(ratios):.0f}×, median {sorted(ratios)[len(ratios) // 2]:.0f}×, "
          f"max {max(ratios):.0f}×. DFAs where ours asked more membership queries: "
          f"{', '.join(worse) if worse else 'none'}. AALpy figures: "
          f"{'rerun in the same invocation' if source == 'rerun' else source}.")


if __name__ == "__main__":
    main()
