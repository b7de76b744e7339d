#!/usr/bin/env python3
"""Times AALpy 2.0.0's L* with Rivest-Schapire processing (ALGO lstar_rs) or its L# (ALGO lsharp,
AALpy's defaults) on the harness DFAs, the way learn_dfas.rs times ours: the mean CPU time
(time.thread_time) of whole learning runs (teacher included) over a batch of runs filling at least
0.1 s of wall time, the fastest of LSTAR_BATCHES batches (default 5; for lsharp LSHARP_BATCHES,
default 1, since one of its runs takes seconds to minutes).

Uses the shared harness (CountingDfaSUL, PerfectDfaOracle in "shortest" mode, the harness's options
of ALGO) so query counts are exactly those of results.csv. Prints one CSV line per DFA.

Usage: aalpy_time.py HARNESS_DIR ALGO FILE.dfa...
"""
import os
import sys
import time


def main():
    harness, algo, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.path.insert(0, harness)
    import aalpy_lstar as h
    from aalpy.learning_algs import run_Lsharp, run_Lstar

    opts = dict(h.ALGOS[algo])
    run = {"lstar": run_Lstar, "lsharp": run_Lsharp}[opts.pop("fn")]
    batches = int(os.environ.get("LSHARP_BATCHES" if algo == "lsharp" else "LSTAR_BATCHES",
                                 "1" if algo == "lsharp" else "5"))
    print("algo,dfa,mq_unique,eq_queries,learned_states,correct,time_us")
    for path in files:
        meta, acc, delta = h.read_dfa(path)
        alphabet = list(range(len(delta[0])))

        def once():
            sul = h.CountingDfaSUL(acc, delta)
            oracle = h.PerfectDfaOracle(alphabet, sul, acc, delta, mode="shortest",
                                        seed=int(meta["seed"]),
                                        prefix_closed=meta["kind"] == "prefix_closed")
            hyp = run(alphabet, sul, oracle, "dfa", cache_and_non_det_check=False,
                      return_data=False, print_level=0, **opts)
            return sul, oracle, hyp

        # Batches, each repeating runs for >= 0.1 s of wall time; the fastest batch's mean
        # is the least disturbed by other processes on a shared machine.
        best = float("inf")
        for _ in range(batches):
            start, cpu, runs = time.perf_counter(), time.thread_time(), 0
            while runs < 1 or time.perf_counter() - start < 0.1:
                sul, oracle, hyp = once()
                runs += 1
            best = min(best, (time.thread_time() - cpu) / runs)
        check = h.PerfectDfaOracle(alphabet, sul, acc, delta)
        correct = check._bfs(hyp.initial_state, 0) is None
        name = os.path.basename(path)[:-4]
        print(f"{algo},{name},{len(sul.unique)},{oracle.eq_queries},{len(hyp.states)},{correct},"
              f"{best * 1e6:.1f}", flush=True)


if __name__ == "__main__":
    main()
