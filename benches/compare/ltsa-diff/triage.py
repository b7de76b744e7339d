#!/usr/bin/env python3
"""Groups the minimised disagreements of a run.py results folder by cause.

    triage.py RESULTS_DIR [--show N]

Each minimised case (NNNN-kind.lts, with `// kind:`, `// LTSA:` and `// ours:` lines) is put
under the first cause below whose test matches its kind and text. The rules were written by
reading the cases (see docs/benchmarks/notebook/ltsa-diff.md for the judgement on each cause);
"other" is what no rule explains and needs reading. Prints cases and models per cause, and with
--show N the N smallest cases of each.
"""

import json
import os
import re
import sys
from collections import defaultdict

# (cause id, description, test(kind, model text without the trailing comments, answers))
CAUSES = [
    ("A-formula-alphabet",
     "assert: our formula automaton observes only the formula's actions (LTSA's observes all)",
     lambda k, t, a: k.startswith("assert-alphabet")),
    ("K5-property-composite",
     "known 5/6: a `property` composite (its ERROR moves, determinisation)",
     lambda k, t, a: re.search(r"property\s*\|\|", t) is not None),
    ("B-det-min-process",
     "`deterministic`/`minimal` on a primitive process that is a component: we do not apply it",
     lambda k, t, a: re.search(r"(deterministic|minimal)\s+[A-Z]", t) is not None
     and not k.startswith(("compile", "assert"))),
    ("K1-minimal",
     "known 1: a `minimal` composite",
     lambda k, t, a: re.search(r"minimal\s*\|\|", t) is not None
     and k.startswith(("counts", "safety", "progress"))),
    ("K2-END",
     "known 2: END is termination in LTSA, a deadlock for us",
     lambda k, t, a: "END" in t and (k.startswith(("safety:none/deadlock", "progress", "counts"))
                                     or "deadlock" in k)),
    ("C-property-nondet-relabelled",
     "a `property` process that relabelling makes nondeterministic: LTSA completes it with ERROR "
     "before relabelling and composes it; we refuse it or complete it after relabelling",
     lambda k, t, a: re.search(r"property\s+[A-Z]", t) is not None and "/" in t
     and (k.startswith(("counts", "safety", "progress")) or "not deterministic" in a)),
    ("D-property-nondet-unreachable",
     "LTSA refuses a `property` process nondeterministic in a local process or index that "
     "is never reached; we accept it",
     lambda k, t, a: k.startswith("compile:error/ok") and "must be deterministic" in a),
]


def read_case(path):
    text = open(path, encoding="latin-1").read()
    kind = re.search(r"^// kind: (.*)$", text, re.M).group(1)
    model = re.sub(r"^// (kind|LTSA|ours):.*\n?", "", text, flags=re.M)
    answers = "\n".join(re.findall(r"^// (?:LTSA|ours): (.*)$", text, re.M))
    return kind, model, answers


def cause_of(kind, model, answers):
    body = model.split("\n", 1)[1] if model.startswith("// target") else model
    for cid, _, test in CAUSES:
        if test(kind, body, answers):
            return cid
    return "other"


def main():
    folder = sys.argv[1]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 0
    summary = json.load(open(os.path.join(folder, "summary.json")))
    groups = defaultdict(list)
    for case in summary["cases"]:
        path = os.path.join(folder, case["file"])
        kind, model, answers = read_case(path)
        groups[cause_of(kind, model, answers)].append((len(model), case["file"], kind))
    desc = {cid: d for cid, d, _ in CAUSES}
    desc["other"] = "not explained by a rule: read them"
    print(f"models {summary['models']}, agreeing {summary['agree']}, "
          f"disagreeing {summary['disagreeing_models']}, minimised cases {len(summary['cases'])}")
    for cid in [c for c, _, _ in CAUSES] + ["other"]:
        cases = sorted(groups.get(cid, []))
        if not cases:
            continue
        kinds = defaultdict(int)
        for _, _, k in cases:
            kinds[k] += 1
        print(f"\n{cid}: {len(cases)} cases ({desc[cid]})")
        print("  kinds: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        for _, f, _ in cases[:show]:
            print("  " + f)


if __name__ == "__main__":
    main()
