#!/usr/bin/env python3
"""Differential fuzzing of `guarantor` against LTSA (benches/compare/ltsa-diff; see README.md).

For each seed: gen.py writes a random FSP model; LTSA's core (through LtsaDriver) and guarantor
each give the composite's Compose counts, Check Safety's verdict, Check Progress's verdict and
each assertion's verdict; any difference is a disagreement of a kind (which answer differs, with
both values), which is then shrunk by delta debugging on the model text (lines, then tokens)
while the disagreement of the same kind remains, and written with both answers into the results
folder. A summary (models, disagreements by kind) is rewritten after every model.

    run.py --ltsa-classes DIR --guarantor BIN --out DIR [--minutes M | --seeds N] [--start S]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402

STEP_SECONDS = 5


# ---- running the two tools -------------------------------------------------------------------


def target_of(text):
    m = re.match(r"// target: (\S+)", text)
    return m.group(1) if m else "DEFAULT"


def assert_names(text):
    return sorted(set(re.findall(r"^\s*assert\s+([A-Z][A-Za-z0-9_]*)", text, re.M)))


class Ltsa:
    """LTSA's core behind LtsaDriver --serve: one JVM answers request after request, and is
    started again after a step overran (the driver then exits) or anything else went wrong."""

    def __init__(self, classes):
        self.classes = classes
        self.proc = None

    def start(self):
        cmd = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss256m", "-Xmx2g",
               "-cp", self.classes, "LtsaDriver", "--serve", str(STEP_SECONDS)]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def ask(self, path, target, steps):
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(f"{path}\t{target}\t{steps}\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()  # the driver's own step limit bounds the wait
        except (BrokenPipeError, OSError):
            line = ""
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            self.proc.kill()
            self.proc.wait()
            self.proc = None
            return {"compile": "crash: no answer"}


def run_ltsa(args, path, target, steps):
    return args.ltsa.ask(path, target, steps)


def guarantor(args, argv):
    """One guarantor run: (exit code, parsed JSON or None)."""
    cmd = [args.guarantor] + argv + ["--format", "json", "-q", "--timeout", str(STEP_SECONDS)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=STEP_SECONDS * 2 + 5)
    except subprocess.TimeoutExpired:
        return "timeout", None
    try:
        return p.returncode, json.loads(p.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        return p.returncode, {"stderr": p.stderr.strip()[-300:]}


def our_verdict(code, out, kind):
    """Our answer in LTSA's vocabulary for `kind` (safety, progress or assert)."""
    if code == "timeout" or code == 3:
        return "timeout"
    if code not in (0, 1, 2) or out is None:
        return f"crash (exit {code}): {(out or {}).get('stderr', '')}"
    if "error" in out:
        return "error: " + out["error"].get("message", "")
    verdict, violation = out.get("verdict"), out.get("violation")
    if kind == "safety":
        return {"holds": "none", "deadlock": "deadlock"}.get(verdict, "violation")
    if verdict == "holds":
        return "pass"
    if violation == "deadlock":
        return "deadlock"
    if kind == "progress" and violation not in ("progress", "deadlock", None):
        return "error-state"
    if kind == "assert" and violation not in ("assert", None):
        return "error-state"
    return "violated"


def run_ours(args, path, target, steps):
    base = [path, "--target", target] if target != "DEFAULT" else [path]
    res = {}
    code, out = guarantor(args, ["check"] + base)
    v = our_verdict(code, out, "safety")
    if v.startswith(("error", "crash", "timeout")):
        res["compile"] = v
        return res
    res["compile"] = "ok"
    if "safety" in steps:
        res["safety"] = v
    if "progress" in steps:
        # `--progress` last: its value is optional and would take the model's path.
        res["progress"] = our_verdict(*guarantor(args, ["check"] + base + ["--progress"]),
                                      "progress")
    if "asserts" in steps:
        text = open(path, encoding="latin-1").read()
        res["asserts"] = {n: our_verdict(*guarantor(args, ["check", "--assert", n] + base), "assert")
                          for n in assert_names(text)}
    if "compose" in steps:
        # DOT, not .aut: LTSA does not count its ERROR state (-1), which DOT marks.
        cmd = [args.guarantor, "export", "--dot"] + base
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=STEP_SECONDS * 2)
            if p.returncode == 0 and p.stdout.startswith("digraph"):
                nodes = re.findall(r'^\s*s\d+ \[label="(-?\d+)"', p.stdout, re.M)
                # One DOT edge carries every label between two states: "d, a".
                edges = re.findall(r'^\s*s\d+ -> s\d+ \[label="([^"]*)"', p.stdout, re.M)
                res["states"] = sum(1 for n in nodes if n != "-1")
                res["transitions"] = sum(len(e.split(", ")) for e in edges)
            else:
                res["states"] = f"export exit {p.returncode}: {p.stderr.strip()[-200:]}"
        except subprocess.TimeoutExpired:
            res["states"] = "timeout"
    # Our own safety verdict, to judge LTSA's "deadlock"/"error-state" answers to other checks.
    res["_safety"] = v
    return res


# ---- comparing ---------------------------------------------------------------------------------


def compatible(kind, lt, ours, our_safety):
    """LTSA stops a progress or LTL search at a deadlock or ERROR state it meets first, and its
    safety-formula search reports deadlocks; ours reports the check's own verdict. Those answers
    agree when our safety check finds that deadlock or violation too."""
    if lt == ours:
        return True
    if kind in ("progress", "assert") and lt in ("deadlock", "error-state"):
        return our_safety != "none"
    if kind == "progress" and ours == "deadlock" and lt in ("violated", "error-state"):
        return True
    if kind == "assert" and lt == "violated" and ours == "error-state":
        return our_safety == "violation"  # both reachable: which one a search meets first
    return False


def disagreements(lt, ours):
    """Kinds of disagreement between the two answers: strings like `safety:none/deadlock`
    (LTSA's value first)."""
    out = []
    lc, oc = lt.get("compile", "?"), ours.get("compile", "?")
    if lc != "ok" or oc != "ok":
        if lc.startswith("error") and oc.startswith("error"):
            return []
        if "timeout" in lc or "timeout" in oc:
            return [f"timeout:{short(lc)}/{short(oc)}"]
        return [f"compile:{short(lc)}/{short(oc)}"]
    for key, v in sorted(lt.items()):
        if isinstance(v, str) and v.startswith(("timeout", "crash", "unknown")):
            mine = ours.get({"compose": "states"}.get(key, key), "")
            if v.startswith("timeout") and str(mine).startswith("timeout"):
                continue  # both ran out of time: no answer to compare
            out.append(f"ltsa-{short(v).split(':')[0]}:{key.split(':')[0]}")
    for key in ("safety", "progress"):
        if key in lt and key in ours and not compatible(key, lt[key], ours[key], ours["_safety"]):
            out.append(f"{key}:{short(lt[key])}/{short(ours[key])}")
    for name, v in sorted(lt.get("asserts", {}).items()):
        o = ours.get("asserts", {}).get(name, "missing")
        if not compatible("assert", v, o, ours["_safety"]):
            out.append(f"assert:{short(v)}/{short(o)}")
    if "states" in lt and "states" in ours:
        if (lt["states"], lt["transitions"]) != (ours["states"], ours.get("transitions")):
            if isinstance(ours["states"], int):
                out.append("counts")
            else:
                out.append(f"counts:{short(str(ours['states']))}")
    return list(dict.fromkeys(out))


def short(v):
    v = str(v)
    if v.startswith("error"):
        return "error"
    if v.startswith("crash"):
        return "crash"
    return v


STEPS_OF = {"ltsa-timeout": "safety,progress,asserts,compose",
            "ltsa-crash": "safety,progress,asserts,compose",
            "ltsa-unknown": "safety,progress,asserts,compose",
            "safety": "safety", "progress": "progress", "assert": "asserts", "counts": "compose",
            "compile": "safety", "timeout": "safety,progress,asserts,compose"}


def padded(text, name, actions):
    """The model with assertion `name` made to observe `actions` too, by a conjunct that always
    holds: `(F) && [](x || !x || y ...)`. LTSA's answer does not change (its formula automaton
    observes every action anyway); ours does when our answer came from unobserved actions."""
    if not actions:
        return None
    pad = "[](" + actions[0] + " || !" + actions[0] + "".join(" || " + a for a in actions[1:]) + ")"
    pattern = re.compile(r"^(\s*assert\s+" + name + r"\s*=\s*)(.*)$", re.M)
    if not pattern.search(text):
        return None
    return pattern.sub(lambda m: f"{m.group(1)}(({m.group(2)}) && {pad})", text, count=1)


def system_actions(args, path, target):
    """The visible actions of the target (from our DOT export), in LTSA's spelling `t[1]`."""
    base = [path, "--target", target] if target != "DEFAULT" else [path]
    try:
        p = subprocess.run([args.guarantor, "export", "--dot"] + base, capture_output=True,
                           text=True, timeout=STEP_SECONDS * 2)
    except subprocess.TimeoutExpired:
        return []
    labels = set()
    for e in re.findall(r'^\s*s\d+ -> s\d+ \[label="([^"]*)"', p.stdout, re.M):
        labels.update(x for x in e.split(", ") if x != "tau")
    out = []
    for a in sorted(labels):
        parts = a.split(".")
        if not re.fullmatch(r"[a-z][A-Za-z0-9_]*", parts[0]):
            return []  # a label FSP cannot spell as an atom: give up on padding
        out.append(parts[0] + "".join(f"[{x}]" if x.isdigit() else f".{x}" for x in parts[1:]))
    return out


def alphabet_cause(args, text, lt, ours):
    """Whether every assertion disagreement goes away once our formula observes every action
    (cause A: our formula automaton observes only the formula's own actions)."""
    bad = [n for n, v in lt.get("asserts", {}).items()
           if not compatible("assert", v, ours.get("asserts", {}).get(n, "missing"), ours["_safety"])]
    with tempfile.NamedTemporaryFile("w", suffix=".lts", delete=False, encoding="latin-1",
                                     dir=args.scratch) as f:
        f.write(text)
        path = f.name
    try:
        target = target_of(text)
        # LTSA's LTL check replaces the target's own hiding by the formula's alphabet, so the
        # padding takes the target's actions before its top-level `\` or `@`.
        unhidden = re.sub(r"^((?:minimal |deterministic |property )*\|\|\s*" + target
                          + r"\b.*?)\s*[\\@]\s*(\{[^}]*\}|[A-Z]\w*)\s*\.\s*$", r"\1.",
                          text, flags=re.M)
        with open(path, "w", encoding="latin-1") as g:
            g.write(unhidden)
        actions = system_actions(args, path, target)
        base = [path, "--target", target] if target != "DEFAULT" else [path]
        for n in bad:
            t2 = padded(text, n, actions)
            if t2 is None:
                return False
            with open(path, "w", encoding="latin-1") as g:
                g.write(t2)
            v = our_verdict(*guarantor(args, ["check", "--assert", n] + base), "assert")
            if not compatible("assert", lt["asserts"][n], v, ours["_safety"]):
                return False
        return bool(bad)
    finally:
        os.unlink(path)


def ours_side(kind, ours):
    """Whether our answer alone already shows our half of a disagreement of `kind`."""
    head, _, pair = kind.partition(":")
    want = pair.split("/")[-1] if pair else None
    if head in ("counts",):
        return ours.get("compile") == "ok"
    if head == "compile":
        return short(ours.get("compile")) == want
    if ours.get("compile") != "ok":
        return False
    if head in ("safety", "progress"):
        return short(ours.get(head)) == want
    if head == "assert":
        return any(short(v) == want for v in ours.get("asserts", {}).values())
    return True


def answers(args, text, steps, kind=None):
    with tempfile.NamedTemporaryFile("w", suffix=".lts", delete=False, encoding="latin-1",
                                     dir=args.scratch) as f:
        f.write(text)
        path = f.name
    try:
        target = target_of(text)
        ours = run_ours(args, path, target, steps)
        if kind is not None and not ours_side(kind, ours):
            return None, ours
        return run_ltsa(args, path, target, steps), ours
    finally:
        os.unlink(path)


# ---- delta debugging ---------------------------------------------------------------------------


def tokens(text):
    return re.findall(r"\s+|[A-Za-z_][A-Za-z0-9_]*|\d+|->|\|\||::|<<|>>|\.\.|<>|\[\]|&&|.", text)


def statements(text):
    """The model's top-level definitions: one-line declarations, and processes and composites
    up to their closing dot."""
    out, cur = [], []
    for line in text.split("\n"):
        cur.append(line)
        if re.match(r"\s*(const|range|set|progress|fluent|assert)\b", line) or \
                line.rstrip().endswith("."):
            out.append("\n".join(cur))
            cur = []
    if cur:
        out.append("\n".join(cur))
    return out


def ddmin(units, test, budget):
    """Zeller's ddmin: a smallest-found sublist of `units` for which `test` holds."""
    n = 2
    while len(units) >= 2 and budget[0] > 0:
        chunk = max(1, len(units) // n)
        subsets = [units[i:i + chunk] for i in range(0, len(units), chunk)]
        reduced = False
        for i in range(len(subsets)):
            complement = [u for j, s in enumerate(subsets) if j != i for u in s]
            if budget[0] <= 0:
                break
            budget[0] -= 1
            if test(complement):
                units, n, reduced = complement, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(units):
                break
            n = min(len(units), n * 2)
    return units


def minimise(args, text, kind):
    """Shrinks `text` while it still shows a disagreement of `kind`."""
    kind = kind.replace("assert-alphabet:", "assert:")
    steps = STEPS_OF[kind.split(":")[0]]
    header, body = text.split("\n", 1)
    cache = {}

    target = target_of(text)

    def holds(candidate_body):
        if candidate_body in cache:
            return cache[candidate_body]
        if time.time() > deadline:
            budget[0] = 0
            return False
        # LTSA falls back to another composite when the target is gone: keep the target.
        if target != "DEFAULT" and not re.search(r"\|\|\s*" + target + r"\b", candidate_body):
            return False
        lt, ours = answers(args, header + "\n" + candidate_body, steps, kind)
        ok = lt is not None and kind in disagreements(lt, ours)
        cache[candidate_body] = ok
        return ok

    budget = [args.min_tests]
    deadline = time.time() + args.min_seconds
    # Whole definitions first (they fail or pass as units), then lines, then tokens; again
    # while that still shrinks the model.
    while budget[0] > 0:
        before = body
        units = ddmin(statements(body), lambda us: holds("\n".join(us)), budget)
        body = "\n".join(units)
        lines = ddmin(body.split("\n"), lambda ls: holds("\n".join(ls)), budget)
        body = "\n".join(lines)
        toks = ddmin(tokens(body), lambda ts: holds("".join(ts)), budget)
        body = "".join(toks)
        if body == before:
            break
    squeezed = re.sub(r"[ \t]+", " ", body)
    if holds(squeezed):
        body = squeezed
    return header + "\n" + body.strip() + "\n", args.min_tests - budget[0]


# ---- the run -----------------------------------------------------------------------------------


def write_case(args, number, kind, text, lt, ours):
    safe = re.sub(r"[^A-Za-z0-9]+", "-", kind).strip("-")
    path = os.path.join(args.out, f"{number:04d}-{safe}.lts")
    with open(path, "w", encoding="latin-1") as f:
        f.write(text)
        f.write(f"// kind: {kind}\n// LTSA: {json.dumps(lt, sort_keys=True)}\n")
        ours = {k: v for k, v in ours.items() if not k.startswith("_")}
        f.write(f"// ours: {json.dumps(ours, sort_keys=True)}\n")
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ltsa-classes", required=True)
    ap.add_argument("--guarantor", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--seeds", type=int, default=10**9)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--min-tests", type=int, default=150, help="tests per minimisation")
    ap.add_argument("--keep", type=int, default=25, help="kind's cases all shrunk up to this")
    ap.add_argument("--sample", type=int, default=10, help="then one in this many")
    ap.add_argument("--min-seconds", type=float, default=60, help="time per minimisation")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    args.scratch = tempfile.mkdtemp(prefix="ltsa-diff-")
    args.ltsa = Ltsa(args.ltsa_classes)
    started = time.time()
    summary = {"models": 0, "agree": 0, "disagreeing_models": 0, "kinds": {}, "cases": [],
               "command": " ".join(sys.argv), "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                      time.gmtime())}
    log = open(os.path.join(args.out, "log.jsonl"), "a")
    seed = args.start
    while seed < args.start + args.seeds and time.time() - started < args.minutes * 60:
        text = gen.Gen(seed).model()
        lt, ours = answers(args, text, "safety,progress,asserts,compose")
        kinds = disagreements(lt, ours)
        if any(k.startswith("assert:") for k in kinds) and alphabet_cause(args, text, lt, ours):
            # Counted apart, kept only a few times: see alphabet_cause.
            kinds = [("assert-alphabet" + k[6:]) if k.startswith("assert:") else k
                     for k in kinds]
        summary["models"] += 1
        ours = {k: v for k, v in ours.items() if not k.startswith("_")}
        log.write(json.dumps({"seed": seed, "kinds": kinds, "ltsa": lt, "ours": ours},
                             sort_keys=True) + "\n")
        log.flush()
        if not kinds:
            summary["agree"] += 1
        else:
            summary["disagreeing_models"] += 1
        for kind in kinds:
            summary["kinds"][kind] = summary["kinds"].get(kind, 0) + 1
            kept = sum(1 for c in summary["cases"] if c["kind"] == kind)
            seen = summary["kinds"][kind]
            # Every disagreement of a kind is shrunk until --keep of them are, then one in
            # --sample (a frequent kind would otherwise take the whole time budget); the
            # assert-alphabet kinds, already explained, three times.
            if kind.startswith("assert-alphabet"):
                if kept >= 3:
                    continue
            elif kept >= args.keep and seen % args.sample:
                continue
            t0 = time.time()
            try:
                small, tests = minimise(args, text, kind)
            except Exception as e:  # a harness fault must not end the run: keep the model
                print(f"seed {seed}: minimising {kind} failed: {e!r}", flush=True)
                small, tests = text, 0
            lt2, ours2 = answers(args, small, "safety,progress,asserts,compose")
            path = write_case(args, len(summary["cases"]), kind, small, lt2, ours2)
            summary["cases"].append({"kind": kind, "seed": seed, "file": os.path.basename(path),
                                     "tests": tests, "seconds": round(time.time() - t0, 1)})
            print(f"seed {seed}: {kind} -> {path} ({tests} tests)", flush=True)
        summary["elapsed_s"] = round(time.time() - started)
        with open(os.path.join(args.out, "summary.json"), "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
        seed += 1
    print(json.dumps({k: summary[k] for k in ("models", "agree", "disagreeing_models", "kinds")},
                     indent=1))


if __name__ == "__main__":
    main()
