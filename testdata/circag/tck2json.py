#!/usr/bin/env python3
"""Converts a single-process TChecker file (as in osankur/CircAG's examples) into a Guarantor JSON LTS.

Usage: tck2json.py IN.tck OUT.json [--max-states N]

What it reads (untimed TChecker, one process per file, as CircAG requires):
  system:NAME
  event:NAME                        the process's alphabet
  int:SIZE:MIN:MAX:INIT:NAME        a bounded integer (SIZE > 1: an array)
  process:NAME
  location:PROC:NAME{initial: : labels: ...}
  edge:PROC:SRC:DST:EVENT{provided: GUARD : do : STATEMENTS}
  # comments to the end of a line
Guards use C operators (&&, ||, !, ==, !=, <, <=, >, >=, +, -, *, /, %) over the integers and
array cells; statements are `x = e`, `a[i] = e`, `if c then S else S end`, separated by `;`.

What it writes: the reachable part of the process's state space, a state per (location, valuation),
as the JSON form of docs/formats.md. Semantics, following CircAG's README: processes synchronise on
every declared event except those starting with `_`, which are local, so they become `tau`; the
safety property is "the event err never happens" (testdata/circag/never_err.json). An update that
leaves a variable's declared range, or indexes outside an array, disables the edge (TChecker
rejects such a state).

Clocks, `sync:` lines and several processes per file are refused: the product files of the
examples are not inputs of the DFA-based rule.
"""
import json
import re
import sys
from collections import deque

TOKEN = re.compile(r"\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|&&|\|\||==|!=|<=|>=|[-+*/%<>()!\[\]=;])")


def tokens(text):
    out, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SystemExit(f"cannot read {text[pos:]!r}")
        out.append(m.group(1))
        pos = m.end()
    return out


def to_python(toks):
    """A guard or right-hand side in Python syntax (over names bound in the environment)."""
    table = {"&&": " and ", "||": " or ", "!": " not ", "/": "//"}
    return "".join(table.get(t, f" {t} " if t.isalnum() or "_" in t else t) for t in toks).strip()


def split_top(toks, sep):
    """Splits a statement list on `sep` outside if ... end."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t == "if":
            depth += 1
        elif t == "end":
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return [p for p in parts if p]


def compile_statements(toks):
    """A list of callables env -> None (raising IndexError on a bad index)."""
    out = []
    for st in split_top(toks, ";"):
        if st[0] == "if":
            depth, then_i, else_i, end_i = 0, None, None, None
            for i, t in enumerate(st):
                if t == "if":
                    depth += 1
                elif t == "end":
                    depth -= 1
                    if depth == 0:
                        end_i = i
                elif depth == 1 and t == "then" and then_i is None:
                    then_i = i
                elif depth == 1 and t == "else" and else_i is None:
                    else_i = i
            cond = compile(to_python(st[1:then_i]), "<guard>", "eval")
            yes = compile_statements(st[then_i + 1:else_i if else_i else end_i])
            no = compile_statements(st[else_i + 1:end_i]) if else_i else []
            out.append(lambda env, c=cond, y=yes, n=no: run(y if eval(c, {}, env) else n, env))
        else:
            eq = st.index("=")
            target, rhs = st[:eq], compile(to_python(st[eq + 1:]), "<rhs>", "eval")
            if len(target) == 1:
                out.append(lambda env, v=target[0], r=rhs: env.__setitem__(v, eval(r, {}, env)))
            else:
                index = compile(to_python(target[2:-1]), "<index>", "eval")

                def assign(env, a=target[0], i=index, r=rhs):
                    value, k = eval(r, {}, env), eval(i, {}, env)
                    if not 0 <= k < len(env[a]):
                        raise IndexError
                    env[a][k] = value

                out.append(assign)
    return out


def run(statements, env):
    for s in statements:
        s(env)


def attributes(text):
    """`{key: value : key: value}` as a dict (values keep their own colons out: none do here)."""
    parts = text.split(":")
    return {parts[i].strip(): parts[i + 1].strip() for i in range(0, len(parts) - 1, 2)}


def parse(path):
    events, ints, locations, edges, initial, process = [], [], [], [], None, None
    for raw in open(path, encoding="utf-8"):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.match(r"([a-z]+):([^{]*)(?:\{(.*)\})?$", line)
        if not m:
            raise SystemExit(f"{path}: cannot read {line!r}")
        kind, fields, attrs = m.group(1), m.group(2).split(":"), attributes(m.group(3) or "")
        if kind == "system":
            continue
        if kind == "event":
            events.append(fields[0])
        elif kind == "int":
            size, lo, hi, init, name = fields
            ints.append((name, int(size), int(lo), int(hi), int(init)))
        elif kind == "process":
            if process is not None:
                raise SystemExit(f"{path}: more than one process")
            process = fields[0]
        elif kind == "location":
            locations.append(fields[1])
            if "initial" in attrs:
                initial = fields[1]
        elif kind == "edge":
            _, src, dst, event = fields
            guard = attrs.get("provided")
            guard = compile(to_python(tokens(guard)), "<guard>", "eval") if guard else None
            stmts = compile_statements(tokens(attrs["do"])) if attrs.get("do") else []
            edges.append((src, dst, event, guard, stmts))
        else:
            raise SystemExit(f"{path}: `{kind}:` is not supported")
    if initial is None:
        raise SystemExit(f"{path}: no initial location")
    return process, events, ints, initial, edges


def explore(path, max_states):
    process, events, ints, initial, edges = parse(path)
    bounds = {name: (lo, hi, size) for name, size, lo, hi, _ in ints}

    def freeze(loc, env):
        return (loc,) + tuple(tuple(env[n]) if bounds[n][2] > 1 else env[n] for n, *_ in ints)

    def in_range(env):
        for n, (lo, hi, size) in bounds.items():
            cells = env[n] if size > 1 else [env[n]]
            if any(not lo <= c <= hi for c in cells):
                return False
        return True

    start_env = {n: ([init] * size if size > 1 else init) for n, size, _, _, init in ints}
    start = freeze(initial, start_env)
    index, envs, queue, transitions = {start: 0}, {start: start_env}, deque([start]), []
    while queue:
        state = queue.popleft()
        loc, env0 = state[0], envs[state]
        for src, dst, event, guard, stmts in edges:
            if src != loc:
                continue
            env = {k: (list(v) if isinstance(v, list) else v) for k, v in env0.items()}
            try:
                if guard is not None and not eval(guard, {}, env):
                    continue
                run(stmts, env)
            except IndexError:
                continue
            if not in_range(env):
                continue
            nxt = freeze(dst, env)
            if nxt not in index:
                if len(index) >= max_states:
                    raise SystemExit(f"{path}: more than {max_states} states")
                index[nxt] = len(index)
                envs[nxt] = env
                queue.append(nxt)
            label = "tau" if event.startswith("_") else event
            transitions.append([index[state], label, index[nxt]])
    alphabet = [e for e in events if not e.startswith("_")]
    unique = sorted(set(map(tuple, transitions)), key=lambda t: (t[0], t[1], t[2]))
    return {
        "alphabet": alphabet,
        "initial": 0,
        "states": len(index),
        "error": None,
        "accepting": None,
        "transitions": [list(t) for t in unique],
    }


def main():
    args = sys.argv[1:]
    max_states = 1_000_000
    if "--max-states" in args:
        i = args.index("--max-states")
        max_states = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        raise SystemExit(__doc__)
    lts = explore(args[0], max_states)
    with open(args[1], "w", encoding="utf-8") as out:
        json.dump(lts, out, separators=(",", ":"))
        out.write("\n")
    print(f"{args[0]}: {lts['states']} states, {len(lts['transitions'])} transitions")


if __name__ == "__main__":
    main()
