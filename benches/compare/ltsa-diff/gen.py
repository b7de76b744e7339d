#!/usr/bin/env python3
"""Random FSP models for the differential fuzzer against LTSA (benches/compare/ltsa-diff).

`gen.py SEED` prints one model. Its first line is a comment `// target: NAME` naming the
composite both tools check (DEFAULT when the model has none). The same seed gives the same model.

What a model may hold: const/range/set definitions with expressions, primitive processes with
choice, guards, local and indexed local processes, parameters, END/STOP/ERROR, process-level
hiding, `@` interfaces, relabelling and alphabet extension, `property`, `minimal` and
`deterministic` processes and composites, composites of composites with prefix labels, sharing
(`{x,y}::P`), relabelling, `forall`, priorities `<<`/`>>`, hiding and interfaces, `progress`
tests (plain and conditional), `fluent`s and `assert`ions. Sizes are kept small (a few local
states, at most four parallel parts) so that both tools answer in well under a second.
"""

import random
import sys

ACTIONS = ["a", "b", "c", "d", "e"]
INDEXED = ["t", "u"]  # actions indexed by the range R


class Gen:
    """One model under construction; `r` is the seeded random source."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.consts = {}
        self.processes = []  # (name, parameter default or None)
        self.composites = []
        self.used_actions = set()

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    # ---- declarations -------------------------------------------------------------------

    def declarations(self):
        n = self.r.randint(1, 2)
        self.consts["N"] = n
        self.lines.append(f"const N = {n}")
        if self.chance(0.4):
            self.consts["M"] = n + 1
            self.lines.append("const M = N + 1")
        top = self.pick(["N", "N"] + (["M - 1", "M"] if "M" in self.consts else []))
        self.range_hi = n if top in ("N", "M - 1") else n + 1
        self.lines.append(f"range R = 0..{top}")
        self.sets = []
        if self.chance(0.6):
            members = self.r.sample(ACTIONS, self.r.randint(2, 3))
            self.lines.append("set S = {" + ", ".join(members) + "}")
            self.sets.append(("S", members))
            if self.chance(0.3):
                extra = self.pick([a for a in ACTIONS if a not in members])
                self.lines.append("set T = {S, " + extra + "}")
                self.sets.append(("T", members + [extra]))

    # ---- actions and label sets ---------------------------------------------------------

    def action(self, var=None):
        """A plain action, or one indexed by R: a constant index, or the variable `var`."""
        if self.chance(0.75):
            a = self.pick(ACTIONS)
            self.used_actions.add(a)
            return a
        t = self.pick(INDEXED)
        self.used_actions.add(t)
        if var is not None and self.chance(0.6):
            return f"{t}[{var}]"
        return f"{t}[{self.r.randint(0, self.range_hi)}]"

    def label_set(self, size=None):
        """A label set for hiding, priorities, progress and fluents."""
        if self.sets and self.chance(0.25):
            return self.pick(self.sets)[0]
        k = size or self.r.randint(1, 2)
        items = []
        for _ in range(k):
            if self.chance(0.2):
                items.append(self.pick(INDEXED) + self.pick(["[R]", "[0]", "[1]", ""]))
            else:
                items.append(self.pick(ACTIONS))
        return "{" + ", ".join(dict.fromkeys(items)) + "}"

    # ---- primitive processes ------------------------------------------------------------

    def local_target(self, name, locals_, var, param):
        """Where a branch continues: a local, the process itself, or STOP/END/ERROR."""
        roll = self.r.random()
        if roll < 0.06:
            return "STOP"
        if roll < 0.12:
            return "END"
        if roll < 0.15:
            return "ERROR"
        lname, indexed = self.pick(locals_)
        if indexed:
            if var is not None:
                return f"{lname}[{var}]"  # stays in range by construction
            return f"{lname}[{self.r.randint(0, self.range_hi)}]"
        return lname

    def branch(self, name, locals_, var, param):
        guard = ""
        if var is not None and self.chance(0.4):
            op = self.pick(["<", ">", "==", "!=", "<="])
            rhs = self.pick(["N", "1", "0"] + ([param] if param else []))
            guard = f"when ({var} {op} {rhs}) "
        seq = [self.action(var) for _ in range(self.r.randint(1, 2))]
        # An indexed local that moves along its index: guarded so it stays within R.
        if var is not None and self.chance(0.35):
            lname = self.pick([n for n, ix in locals_ if ix] or [None])
            if lname:
                step = self.pick(["+1", "-1"])
                bound = "N" if self.range_hi == self.consts["N"] else "N+1"
                g = f"{var} < {bound}" if step == "+1" else f"{var} > 0"
                return f"when ({g}) " + " -> ".join(seq) + f" -> {lname}[{var}{step}]"
        return guard + " -> ".join(seq) + " -> " + self.local_target(name, locals_, var, param)

    def body(self, name, locals_, var, param):
        branches = [self.branch(name, locals_, var, param) for _ in range(self.r.randint(1, 3))]
        if var is not None and all(b.startswith("when") for b in branches):
            branches.append(f"{self.action(None)} -> {self.local_target(name, locals_, None, param)}")
        return "(" + "\n    | ".join(branches) + ")"

    def process(self, i):
        name = f"P{i}"
        param = None
        head = name
        if self.chance(0.25):
            param = "K"
            head = f"{name}(K=1)"
        locals_ = [(name, False)]
        nloc = self.r.randint(0, 2)
        for j in range(nloc):
            locals_.append((f"Q{i}{j}", self.chance(0.5)))
        defs = []
        for lname, indexed in locals_:
            var = "i" if indexed else None
            lhs = f"{lname}[i:R]" if indexed else (head if lname == name else lname)
            defs.append(f"{lhs} = {self.body(name, locals_, var, param)}")
        text = ",\n".join(defs)
        if self.chance(0.1):
            text += " + {" + self.pick(ACTIONS) + "}"
        if self.chance(0.12):
            a, b = self.r.sample(ACTIONS, 2)
            text += f" / {{{b}/{a}}}"
        if self.chance(0.25):
            text += (" @ " if self.chance(0.3) else " \\ ") + self.label_set()
        kw = ""
        roll = self.r.random()
        if roll < 0.15:
            kw = "property "
        elif roll < 0.22:
            kw = "minimal "
        elif roll < 0.27:
            kw = "deterministic "
        self.lines.append(f"{kw}{text}.")
        self.processes.append((name, param, kw.strip()))

    # ---- composites ---------------------------------------------------------------------

    def part(self, allow_composites):
        pool = [p[0] for p in self.processes]
        if allow_composites:
            pool += self.composites
        name = self.pick(pool)
        params = {p[0]: p[1] for p in self.processes}
        ref = name
        if params.get(name) and self.chance(0.5):
            ref = f"{name}({self.r.randint(0, 2)})"
        roll = self.r.random()
        if roll < 0.12:
            ref = f"{self.pick(['x', 'y'])}:{ref}"
        elif roll < 0.2:
            ref = f"{{x, y}}::{ref}"
        elif roll < 0.24:
            ref = f"forall [j:0..1] p[j]:{ref}"
        if self.chance(0.12):
            a, b = self.r.sample(ACTIONS, 2)
            ref += f" / {{{b}/{a}}}"
        return ref

    def composite(self, i):
        name = f"C{i}"
        k = self.r.randint(1, 3 if i == 0 else 2)
        parts = [self.part(i > 0) for _ in range(k)]
        text = f"||{name} = (" + " || ".join(parts) + ")"
        if self.chance(0.15):
            text += (" << " if self.chance(0.5) else " >> ") + self.label_set()
        if self.chance(0.25):
            text += (" @ " if self.chance(0.3) else " \\ ") + self.label_set()
        kw = ""
        roll = self.r.random()
        if roll < 0.1:
            kw = "minimal "
        elif roll < 0.16:
            kw = "deterministic "
        elif roll < 0.2:
            kw = "property "
        self.lines.append(f"{kw}{text}.")
        self.composites.append(name)

    # ---- progress, fluents, assertions --------------------------------------------------

    def checks(self):
        for i in range(self.r.randint(0, 2) if self.chance(0.5) else 0):
            if self.chance(0.3):
                self.lines.append(f"progress G{i} = if {self.label_set()} then {self.label_set()}")
            else:
                self.lines.append(f"progress G{i} = {self.label_set()}")
        fluents = []
        for i in range(self.r.randint(0, 2)):
            init = " initially 1" if self.chance(0.2) else ""
            self.lines.append(f"fluent F{i} = <{self.label_set()}, {self.label_set()}>{init}")
            fluents.append(f"F{i}")
        for i in range(self.r.randint(0, 2)):
            self.lines.append(f"assert A{i} = {self.formula(fluents, 2)}")

    def formula(self, fluents, depth):
        atoms = fluents + sorted(a for a in self.used_actions if a in ACTIONS) or ["a"]
        if depth == 0 or self.chance(0.3):
            return self.pick(atoms)
        roll = self.r.random()
        f = lambda: self.formula(fluents, depth - 1)
        if roll < 0.2:
            return f"[]<>{f()}"
        if roll < 0.35:
            return f"[]({f()} -> <>{f()})"
        if roll < 0.5:
            return f"[]{f()}"
        if roll < 0.6:
            return f"<>{f()}"
        if roll < 0.7:
            return f"!{f()}"
        if roll < 0.8:
            return f"({f()} && {f()})"
        if roll < 0.9:
            return f"({f()} U {f()})"
        return f"({f()} || {f()})"

    def model(self):
        self.declarations()
        for i in range(self.r.randint(1, 3)):
            self.process(i)
        ncomp = 0 if self.chance(0.08) else self.r.randint(1, 2)
        for i in range(ncomp):
            self.composite(i)
        self.checks()
        target = self.composites[-1] if self.composites else "DEFAULT"
        return f"// target: {target}\n" + "\n".join(self.lines) + "\n"


def main():
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    sys.stdout.write(Gen(seed).model())


if __name__ == "__main__":
    main()
