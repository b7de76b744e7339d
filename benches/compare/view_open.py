#!/usr/bin/env python3
"""How long the report page of a large model takes to open in headless Chromium (issue 31: a
report for a model with a 5,000-state component and a 40-step trace opens in under 2 s).

The model (written here, FSP): BIG, a ring of M+1 = 5,000 states on `tick` with a `ping` self-loop
on every even state; USER, which synchronises on both; the property FORTY, which allows 39 ticks,
so the shortest counterexample is 40 ticks. `guarantor check --html` writes the report; the page is
then opened RUNS times in one headless Chromium (a fresh profile, the flags of
tests/browser/browser.py), each time measuring
- wall: from the driver's `get` (which returns after the load event) until the page's script has
  run (`document.body.dataset.ready`) and a frame has been painted (two animation frames);
- load: the navigation timing's loadEventEnd (parse, inline script, style).
Prints one line per run and appends the medians and maxima to benchmarks/results/view-open.csv
with the date, commit, page size and load average.

Usage: benches/compare/view_open.py [--runs N] [--states S] [--no-csv]
Environment: GUARANTOR_BIN (default target/debug/guarantor: the page is the same from any
build), CHROMIUM, CHROMEDRIVER.
"""
import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import browser  # noqa: E402

MODEL = """const M = {last}
BIG = B[0],
B[i:0..M] = ( when (i < M) tick -> B[i+1] | when (i == M) tick -> B[0]
            | when (i % 2 == 0) ping -> B[i] ).
USER = (ping -> tick -> USER | tick -> USER).
property FORTY = F[0],
F[k:0..39] = (when (k < 39) tick -> F[k+1]).
||SYS = (BIG || USER || FORTY).
"""

PAINTED = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => done(document.body.dataset.ready)));
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--states", type=int, default=5000)
    ap.add_argument("--no-csv", action="store_true")
    args = ap.parse_args()
    why = browser.available()
    if why:
        sys.exit(why)
    work = Path(tempfile.mkdtemp(prefix="guarantor-view-open-"))
    model = work / "big.lts"
    model.write_text(MODEL.format(last=args.states - 1))
    started = time.perf_counter()
    page = browser.write_page(["check", "-q", str(model)], work, "big")
    written = time.perf_counter() - started
    size = page.stat().st_size
    print(f"page {size} bytes, written in {written:.2f} s")
    b = browser.Browser()
    walls, loads = [], []
    try:
        for run in range(args.runs):
            b.driver.get("about:blank")
            t0 = time.perf_counter()
            b.driver.get(page.resolve().as_uri())
            ready = b.driver.execute_async_script(PAINTED)
            wall = time.perf_counter() - t0
            load = b.driver.execute_script(
                "return performance.getEntriesByType('navigation')[0].loadEventEnd") / 1000
            steps = b.driver.execute_script(
                "return document.querySelectorAll('#chart g.step').length")
            if ready != "true" or steps != 40 or b.console_errors():
                sys.exit(f"run {run}: the page is broken (ready={ready}, steps={steps})")
            walls.append(wall)
            loads.append(load)
            print(f"run {run + 1}: wall {wall:.3f} s, loadEventEnd {load:.3f} s")
    finally:
        b.close()
    load_avg = os.getloadavg()[0]
    row = [
        datetime.date.today().isoformat(),
        subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                       text=True).stdout.strip(),
        str(args.states), "40", str(size), str(args.runs),
        f"{statistics.median(walls):.3f}", f"{max(walls):.3f}",
        f"{statistics.median(loads):.3f}", f"{max(loads):.3f}", f"{load_avg:.1f}",
    ]
    print("median wall {} s (max {}), median loadEventEnd {} s (max {}), load {}".format(
        *row[6:]))
    if not args.no_csv:
        csv = ROOT / "benchmarks" / "results" / "view-open.csv"
        if not csv.exists():
            csv.write_text("date,commit,states,steps,page_bytes,runs,wall_median_s,wall_max_s,"
                           "load_median_s,load_max_s,load_average\n")
        with csv.open("a") as f:
            f.write(",".join(row) + "\n")


if __name__ == "__main__":
    main()
