#!/usr/bin/env python3
"""Groups the minimised disagreements of a run.py results folder by cause.

    triage.py RESULTS_DIR... [--show N]

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
    ("J-END-in-assert",
     "an assertion on a model that reaches END: LTSA's product with the formula never "
     "terminates, so LTSA reports a deadlock (safety formula) or meets it on its way (\"Safety "
     "property violation detected\"); our safety check finds none",
     lambda k, t, a: k.startswith(("assert:deadlock", "assert:error")) and "END" in t),
    ("U-priority-ltl",
     "liveness assertion under `<<`/`>>`: LTSA's automaton stops following unprioritised "
     "actions (LTSA defect documented in docs/formats.md)",
     lambda k, t, a: k.startswith("assert:pass/violated") and re.search(r"<<|>>", t) is not None),
    ("P-liveness-on-deadlock",
     "a liveness assertion on a run that stops: we read it as its last valuation forever "
     "(docs/formats.md), LTSA by whether its automaton's state there accepts",
     lambda k, t, a: k.startswith(("assert:pass/violated", "assert:violated/pass"))
     and '"safety": "deadlock"' in a),
    ("V-unsatisfiable-formula",
     "a formula no run satisfies (`b U (d && b)`, `<>(a && e)`): LTSA's automaton is empty and its "
     "search reports a deadlock at the start; we report the violation",
     lambda k, t, a: k.startswith("assert:deadlock/violated")),
    ("A2-formula-alphabet-hidden",
     "assert: as A, where the unobserved steps are hidden (tau) or numeric actions, which the "
     "padding cannot name",
     lambda k, t, a: k.startswith(("assert:violated/pass", "assert:pass/violated"))
     and " U" not in t.split("assert", 1)[-1] and "U(" not in t.split("assert", 1)[-1]
     and (re.search(r"[\\@]\s*[{A-Z]", t) or re.search(r"(\(|\||->|\))\s*\[", t)
          or re.search(r"[(|]\s*\[", t))),
    ("R-fluent-free-action-unfair",
     "liveness formula with a fluent and an action no component has: our lasso never takes the "
     "free action (not a fair run); LTSA passes",
     lambda k, t, a: k.startswith("assert:pass/violated") and "fluent" in t
     and " U" not in t.split("assert", 1)[-1]),
    ("T-deterministic-hidden-error",
     "a `deterministic` composite whose start can reach ERROR by tau, used as a component: LTSA "
     "loses the ERROR (no violation), though it reports it for that composite alone (LTSA wrong)",
     lambda k, t, a: k.startswith(("safety:none/violation", "assert:pass/error", "progress:pass/error"))
     and re.search(r"deterministic\s*\|\|", t) is not None and "ERROR" in t),
    ("L-until-temporal-left",
     "assert with `U` whose left side is temporal (`([]b) U c`): LTSA passes a formula and its "
     "negation alike (LTSA wrong)",
     lambda k, t, a: k.startswith("assert:pass/violated") and re.search(r"U", t.split("assert", 1)[-1])),
    ("M-deadlock-or-error-first",
     "a deadlock and an ERROR both reachable: LTSA's Check Safety reports the one its "
     "breadth-first search meets first, we report the ERROR",
     lambda k, t, a: k.startswith("safety:deadlock/violation")),
    ("M2-progress-error-first",
     "progress with an ERROR reachable: we report the ERROR (documented), LTSA the first "
     "terminal set its walk meets",
     lambda k, t, a: k.startswith("progress:violated/error")),
    ("N-deterministic-composite-merges",
     "`deterministic` composite: we also merge equivalent states (two STOPs) that LTSA's subset "
     "construction keeps",
     lambda k, t, a: k == "counts" and re.search(r"deterministic\s*\|\|", t) is not None),
    ("O-guard-mid-sequence",
     "`a -> when (c) b -> P`: LTSA allows `when` only at the start of a choice; we accept it",
     lambda k, t, a: k.startswith("compile:error/ok") and re.search(r"->\s*when", t) is not None),
    ("K5-property-composite",
     "known 5/6: a `property` composite (its ERROR moves, determinisation)",
     lambda k, t, a: re.search(r"property\s*\|\|", t) is not None),
    ("K2-END",
     "known 2: END is termination in LTSA, a deadlock for us",
     lambda k, t, a: "END" in t and k.startswith(("safety:none/deadlock", "progress"))),
    ("B-det-min-process",
     "`deterministic`/`minimal` on a primitive process that is a component: we do not apply it",
     lambda k, t, a: re.search(r"(deterministic|minimal)\s+[A-Z]", t) is not None
     and not k.startswith(("compile", "assert"))),
    ("K1-minimal",
     "known 1: a `minimal` composite",
     lambda k, t, a: re.search(r"minimal\s*\|\|", t) is not None
     and k.startswith(("counts", "safety", "progress"))),
    ("K2-END-counts",
     "known 2: END states (LTSA merges them)",
     lambda k, t, a: "END" in t and k.startswith("counts")),
    ("I-composite-relabel",
     "a composite relabelled so that two of its actions become one: LTSA composes it first and "
     "relabels the result; we relabel its components, which then synchronise anew",
     lambda k, t, a: re.search(r"\bC\d+(\(\d+\))?\s*/\s*\{", t) is not None
     and not k.startswith(("compile", "assert"))),
    ("C-property-nondet-relabelled",
     "a `property` process that relabelling makes nondeterministic: LTSA completes it with ERROR "
     "before relabelling and composes it; we refuse it or complete it after relabelling",
     lambda k, t, a: re.search(r"property\s+[A-Z]", t) is not None and "/" in t
     and (k.startswith(("counts", "safety", "progress")) or "not deterministic" in a)),
    ("D-property-nondet-unreachable",
     "LTSA refuses a `property` process nondeterministic in a local process or index that "
     "is never reached; we accept it",
     lambda k, t, a: k.startswith("compile:error/ok") and "must be deterministic" in a),
    ("Q-property-repeated-branch",
     "`property P = (d->P | d->P).`: LTSA merges the identical branches (deterministic); we "
     "refuse it as nondeterministic",
     lambda k, t, a: k.startswith("compile:ok/error") and "must be deterministic" in a),
    ("S-empty-arguments",
     "`P()` (empty argument list): LTSA refuses it, we accept it",
     lambda k, t, a: k.startswith("compile:error/ok") and re.search(r"[A-Z]\w*\(\)", t)),
    ("G-empty-composite",
     "`||C = ().`: LTSA compiles it and crashes in its checks; we refuse it",
     lambda k, t, a: re.search(r"=\s*\(\s*\)", t) is not None and k.startswith("compile")),
    ("H-number-then-letters",
     "`1range`: LTSA's lexer reads a number then a name; we refuse the literal",
     lambda k, t, a: k.startswith("compile:ok/error") and "bad integer literal" in a),
    ("K6-parenthesised-reference",
     "known 6: a process body that is only a parenthesised reference, `(Q)`: LTSA refuses it",
     lambda k, t, a: k.startswith("compile:error/ok")
     and "identifier, label set or range expected" in a),
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
    folders = [a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()]
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 0
    groups = defaultdict(list)
    totals = defaultdict(int)
    kinds_all = defaultdict(int)
    for folder in folders:
        summary = json.load(open(os.path.join(folder, "summary.json")))
        for key in ("models", "agree", "disagreeing_models"):
            totals[key] += summary[key]
        totals["cases"] += len(summary["cases"])
        for k, n in summary["kinds"].items():
            kinds_all[k] += n
        for case in summary["cases"]:
            path = os.path.join(folder, case["file"])
            kind, model, answers = read_case(path)
            groups[cause_of(kind, model, answers)].append((len(model), path, kind))
    desc = {cid: d for cid, d, _ in CAUSES}
    desc["other"] = "not explained by a rule: read them"
    print(f"models {totals['models']}, agreeing {totals['agree']}, "
          f"disagreeing {totals['disagreeing_models']}, minimised cases {totals['cases']}")
    print("disagreements by kind: " + ", ".join(
        f"{k} {n}" for k, n in sorted(kinds_all.items(), key=lambda x: -x[1])))
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
