#!/usr/bin/env python3
"""Joins learn_dfas.rs's CSV with AALpy's figures and prints the Markdown tables of
docs/benchmarks.md ("L* versus AALpy", "L# versus AALpy", with the issue 18 targets checked); with
OUT.csv, also writes the joined figures there (the L# table's to OUT.csv with lstar replaced by
lsharp in its name). Usage: table.py OURS.csv AALPY.csv (rerun | RESULTS.csv) [OUT.csv]"""
import csv
import sys


def aalpy_rows(path, source, algo):
    if source == "rerun":
        return {r["dfa"]: r for r in csv.DictReader(open(path)) if r["algo"] == algo}
    rows = {}
    for r in csv.DictReader(open(source)):
        if r["algo"] == algo and r["cex"] == "shortest":
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
    aalpy = aalpy_rows(aalpy_path, source, "lstar_rs")
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
    print()
    lsharp_table(ours, aalpy, aalpy_rows(aalpy_path, source, "lsharp"), source,
                 sys.argv[4].replace("lstar", "lsharp") if len(sys.argv) > 4 else None)


def lsharp_table(ours, rs, sharp, source, out_path):
    """Our L# with a step-wise teacher (prefix-closed mode on the prefix-closed DFAs), as AALpy's
    SUL answers, against AALpy's L# (membership queries, time) and AALpy's L*-RS (equivalence
    queries), targets checked per DFA; our L# with one-bit answers beside it for reference."""
    out = csv.writer(open(out_path, "w", newline="")) if out_path else None
    if out:
        out.writerow(["dfa", "minimal", "mq_ours", "mq_ours_one_bit", "mq_aalpy_lsharp",
                      "eq_ours", "eq_ours_one_bit", "eq_aalpy_lstar_rs", "eq_aalpy_lsharp",
                      "time_ours_us", "time_aalpy_lsharp_us", "speedup"])
    print("| DFA | min. states | MQ ours (step-wise) | MQ ours (one-bit) | MQ AALpy L# "
          "| EQ ours (step-wise) | EQ ours (one-bit) | EQ AALpy L*-RS | EQ AALpy L# "
          "| time ours (µs) | time AALpy L# (µs) | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    ratios, mq_miss, eq_miss, sums = [], [], [], {}
    for name, modes in ours.items():
        a, r = sharp[name], rs[name]
        pc = "lsharp_steps_pc" in modes
        kind = "prefix-closed" if pc else "random"
        # The assume-guarantee rules learn in prefix-closed mode: it is the mode that counts on
        # the prefix-closed DFAs.
        best = modes["lsharp_steps_pc" if pc else "lsharp_steps"]
        bit = modes["lsharp_pc" if pc else "lsharp"]
        assert best["correct"] == "true" and bit["correct"] == "true", name
        if int(best["mq"]) > int(a["mq_unique"]):
            mq_miss.append(name)
        if int(best["eq"]) > int(r["eq_queries"]):
            eq_miss.append(name)
        ratio = float(a["time_us"]) / float(best["time_us"])
        ratios.append(ratio)
        s = sums.setdefault(kind, [0] * 6)
        for i, v in enumerate([best["mq"], a["mq_unique"], best["eq"], r["eq_queries"],
                               a["eq_queries"], bit["mq"]]):
            s[i] += int(v)
        cells = [name, best["minimal"], best["mq"], bit["mq"], a["mq_unique"], best["eq"],
                 bit["eq"], r["eq_queries"], a["eq_queries"], best["time_us"], a["time_us"],
                 f"{ratio:.1f}"]
        if out:
            out.writerow(cells)
        print(f"| {name} | {best['minimal']} | {best['mq']} | {bit['mq']} | {a['mq_unique']} "
              f"| {best['eq']} | {bit['eq']} | {r['eq_queries']} | {a['eq_queries']} "
              f"| {float(best['time_us']):.1f} | {float(a['time_us']):.0f} | {ratio:.0f}× |")
    print()
    for kind, s in sums.items():
        print(f"{kind}: MQ ours {s[0]} (one-bit {s[5]}), AALpy L# {s[1]}; EQ ours {s[2]}, "
              f"AALpy L*-RS {s[3]}, AALpy L# {s[4]}.")
    slow = [n for n, q in zip(ours, ratios) if q < 50]
    print(f"Speed-up over AALpy's L#: min {min(ratios):.0f}×, median "
          f"{sorted(ratios)[len(ratios) // 2]:.0f}×, max {max(ratios):.0f}×. Targets (step-wise "
          f"teacher; prefix-closed mode on the prefix-closed DFAs): MQ <= AALpy L# missed on "
          f"{len(mq_miss)} of {len(ratios)} ({', '.join(mq_miss) or 'none'}); EQ <= AALpy L*-RS "
          f"missed on {len(eq_miss)} ({', '.join(eq_miss) or 'none'}); >= 50x faster missed on "
          f"{len(slow)} ({', '.join(slow) or 'none'}). AALpy figures: "
          f"{'rerun in the same invocation' if source == 'rerun' else source}.")


if __name__ == "__main__":
    main()
