#!/usr/bin/env python3
"""Runs AALpy 2.0.0's Mealy learners on one DOT model the way `guarantor learn --oracle wp:2` runs
ours, and prints one CSV line per algorithm.

Black box: load_automaton_from_file(path, 'mealy') + MealySUL (as ../shared/harness/mealy does).
Learners: run_Lsharp(..., 'mealy') with AALpy's defaults (SepSeq extension, ADS separation, its
cache on) and run_Lstar(..., 'mealy', cex_processing='rs'). Oracle: AALpy's WpMethodEqOracle with
its bound reset each round to <hypothesis states + 2> (the harness's "wprel" oracle; AALpy's fixed
bound would make early rounds exhaustive). Each run in a child process, killed after TIMEOUT s.
PYTHONHASHSEED=0 is forced (AALpy's counts depend on set order over string hashes).

Columns: algo, queries_learning, steps_learning (AALpy's counters after its cache),
queries_eq_oracle, steps_eq_oracle, learning_rounds (= equivalence queries), states_learned,
total_time (AALpy's own wall clock, learning + oracle, s), cpu_s (CPU time of the same call,
time.process_time), equivalent (our product BFS vs the target),
status.

Usage: aalpy_run.py MODEL.dot TIMEOUT ALGO[,ALGO]
"""
import multiprocessing as mp
import os
import sys
import time


def equivalent(target, hyp, alphabet):
    """Product search comparing outputs on every input from every reachable pair."""
    start = (target.initial_state, hyp.initial_state)
    seen, todo = {start}, [start]
    while todo:
        a, b = todo.pop()
        for i in alphabet:
            if i not in a.transitions or i not in b.transitions:
                return False
            if a.output_fun[i] != b.output_fun[i]:
                return False
            nxt = (a.transitions[i], b.transitions[i])
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return True


def child(path, algo, q):
    import warnings
    warnings.filterwarnings("ignore")
    from aalpy.learning_algs import run_Lsharp, run_Lstar
    from aalpy.oracles import WpMethodEqOracle
    from aalpy.SULs import MealySUL
    from aalpy.utils import load_automaton_from_file

    class WpPlus2(WpMethodEqOracle):
        def find_cex(self, hypothesis):
            self.m = len(hypothesis.states) + 2
            return super().find_cex(hypothesis)

    target = load_automaton_from_file(path, automaton_type="mealy")
    alphabet = target.get_input_alphabet()
    sul = MealySUL(target)
    eq = WpPlus2(alphabet, sul, max_number_of_states=len(target.states) + 2)
    cpu = time.process_time()
    if algo == "lsharp":
        hyp, info = run_Lsharp(alphabet, sul, eq, "mealy", return_data=True, print_level=0)
    else:
        hyp, info = run_Lstar(alphabet, sul, eq, "mealy", cex_processing="rs", return_data=True,
                              print_level=0)
    cpu = time.process_time() - cpu
    q.put([info["queries_learning"], info["steps_learning"], info["queries_eq_oracle"],
           info["steps_eq_oracle"], info["learning_rounds"], len(hyp.states),
           info["total_time"], round(cpu, 4), equivalent(target, hyp, alphabet)])


def main():
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable] + sys.argv)
    path, timeout, algos = sys.argv[1], float(sys.argv[2]), sys.argv[3].split(",")
    for algo in algos:
        q = mp.Queue()
        p = mp.Process(target=child, args=(path, algo, q))
        p.start()
        try:
            row = q.get(timeout=timeout) + ["ok"]
        except Exception:
            row = [""] * 9 + [f"timeout {timeout:g}s"]
        p.join(5)
        if p.is_alive():
            p.kill()
            p.join()
        print(",".join(str(x) for x in [algo] + row), flush=True)


if __name__ == "__main__":
    main()
