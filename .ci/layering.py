#!/usr/bin/env python3
"""Fails when a workspace crate has a normal dependency outside its allow-list.

The layering (docs/architecture.md): lts and ltl-core (LTL's vocabulary) at the bottom; certify on
lts; compose on lts and certify (the certificate format its Method trait names); every algorithm
crate on lts, compose and certify only (never on another algorithm crate), and so the distributed
engine (dist); fsp on lts and ltl-core; view on lts only; the facade on everything; the CLI on the
facade. Dev-dependencies are not checked: tests may use anything below the facade.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ALGORITHMS = [
    "guarantor-quotient",
    "guarantor-lstar",
    "guarantor-circ",
    "guarantor-predabs",
    "guarantor-ltl",
    "guarantor-reduce",
    "guarantor-por",
]
ALLOWED = {
    "guarantor-lts": [],
    # Fluent LTL's vocabulary (fluents, formulas, LTSA's assert syntax), checked by nobody here: it
    # moved down out of guarantor-ltl (which checks with compose) so that fsp elaborates its
    # asserts into the same values guarantor-ltl checks, without sitting on compose or beside ltl.
    "guarantor-ltl-core": [],
    # The certificate checker re-checks verdicts with its own code: it may not use compose or a method.
    "guarantor-certify": ["guarantor-lts"],
    # The Method trait names the certificate a method writes (guarantor-certify's format); the
    # checker stays on lts alone, so no circle and no trust in compose.
    "guarantor-compose": ["guarantor-lts", "guarantor-certify"],
    # FSP's `assert`s are elaborated into ltl-core's formulas (one vocabulary, no converter).
    "guarantor-fsp": ["guarantor-lts", "guarantor-ltl-core"],
    # Pictures (drawings, charts, HTML pages) know LTSs and action names only, no method.
    "guarantor-view": ["guarantor-lts"],
    # Each method writes its own certificates (guarantor-certify's format); LTL's vocabulary sits
    # below them all, so any method may read formulas (guarantor-ltl checks them).
    **{name: ["guarantor-lts", "guarantor-ltl-core", "guarantor-compose", "guarantor-certify"] for name in ALGORITHMS},
    # The distributed engine sits beside the algorithm crates: it explores compose's Product, and
    # as a Method names the certificate format (it hands on the monolithic search's certificate).
    "guarantor-dist": ["guarantor-lts", "guarantor-compose", "guarantor-certify"],
    "guarantor": ["guarantor-lts", "guarantor-ltl-core", "guarantor-certify", "guarantor-compose", "guarantor-fsp", "guarantor-view", *ALGORITHMS, "guarantor-dist"],
    "guarantor-cli": ["guarantor"],
    "guarantor-testkit": ["guarantor-lts", "guarantor-ltl-core", "guarantor-certify", "guarantor-compose", "guarantor-fsp"],
    # The unpublished bench crate measures everything, so it may use everything.
    "guarantor-benches": ["guarantor-lts", "guarantor-ltl-core", "guarantor-certify", "guarantor-compose", "guarantor-fsp", "guarantor-view", *ALGORITHMS, "guarantor-dist", "guarantor"],
}


# Circles between modules found when the check came (issue 27), per crate: each set is a strongly
# connected group of modules that may stay a circle until it is cut; no module may join one, and a
# new circle fails. One LTL vocabulary cut the facade's assertion -> checker -> model -> assertion;
# what still ties it is errors: portfolio -> json (BudgetKind, kind_of: typed budgets cut it) and
# checker <-> model (ModelError inside CheckError: one facade error cuts it). compose's is mostly
# error -> checkpoint (the checkpoint error), checkpoint <-> system and product <-> engine (the
# successor tables in engine/moves.rs; the loops read the product).
KNOWN_CIRCLES = {
    "certify": [{"check", "reduction"}],
    # The engine (src/engine/: explore, dfs, the stores, moves, stats) is one module here.
    "compose": [{
        "checkpoint", "compose", "config", "engine", "error", "error_lts", "product", "safety",
        "system", "termination", "threads",
    }],
    "dist": [{"engine", "level"}],
    "lts": [{"builder", "lts"}],
    "predabs": [{"program", "syntax"}],
    "reduce": [{"certificate", "method", "progress"}],
}


IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
TEST_MOD = re.compile(r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*([;{])")


def code_of(text: str) -> str:
    """Rust source without comments, string literals and inline `#[cfg(test)] mod x { .. }` (unit
    tests may use any module: only what the crate itself uses counts)."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    while (m := TEST_MOD.search(text)) and m.group(2) == "{":
        depth, end = 0, m.end() - 1
        for end in range(m.end() - 1, len(text)):
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            if depth == 0:
                break
        text = text[: m.start()] + text[end + 1 :]
    return text


def test_files(src: Path) -> set[Path]:
    """The files of modules declared under `#[cfg(test)]` (`#[cfg(test)] mod tests;`)."""
    out = set()
    for f in src.rglob("*.rs"):
        home = f.parent if f.stem in ("lib", "main", "mod") else f.with_suffix("")
        for m in TEST_MOD.finditer(f.read_text()):
            if m.group(2) == ";":
                out |= {home / f"{m.group(1)}.rs", *(home / m.group(1)).rglob("*.rs")}
    return out


def first_segments(tree: str) -> list[str]:
    """The first segment of each path of a use tree (`a::b`, `{a, b::{c, d}}`, `a as b`)."""
    tree = tree.strip()
    if not tree.startswith("{"):
        m = re.match(IDENT, tree)
        return [m.group(0)] if m else []
    depth, item, items = 0, "", []
    for ch in tree[1:]:
        if ch == "}" and depth == 0:
            break
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(item)
            item = ""
        else:
            item += ch
    items.append(item)
    return [seg for it in items for seg in first_segments(it)]


def module_of(src: Path, path: Path) -> str | None:
    """The crate's top-level module a file belongs to (None for the crate root)."""
    rel = path.relative_to(src)
    if len(rel.parts) == 1:
        return None if rel.stem in ("lib", "main") else rel.stem
    return rel.parts[0]


def reexports(root: str, modules: set[str]) -> dict[str, str]:
    """Names the crate root re-exports from one of its modules: name -> module."""
    out = {}
    for m in re.finditer(r"\buse\s+(?:crate::|self::)?(" + IDENT + r")::([^;]*);", root):
        if m.group(1) in modules:
            for name in re.findall(r"(" + IDENT + r")\s*(?=[,}]|$)", m.group(2)):
                out[name] = m.group(1)
    return out


def module_graph(src: Path) -> dict[str, dict[str, str]]:
    """module -> {module it uses: a file where it does}, over the crate's non-test files."""
    skip = test_files(src)
    files = [f for f in src.rglob("*.rs") if f not in skip and f.relative_to(src).parts[0] != "bin"]
    modules = {module_of(src, f) for f in files} - {None}
    root = next((src / r for r in ("lib.rs", "main.rs") if (src / r).exists()), None)
    names = reexports(code_of(root.read_text()), modules) if root else {}
    edges: dict[str, dict[str, str]] = {m: {} for m in modules}
    for f in files:
        here = module_of(src, f)
        if here is None:
            continue
        for m in re.finditer(r"\bcrate::(\{[^;]*|" + IDENT + ")", code_of(f.read_text())):
            for seg in first_segments(m.group(1)):
                there = seg if seg in modules else names.get(seg)
                if there and there != here:
                    edges[here].setdefault(there, str(f))
    return edges


def circles(edges: dict[str, dict[str, str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out = []
    for root in sorted(edges):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        path = [(root, iter(sorted(edges[root])))]
        while path:
            v, todo = path[-1]
            w = next(todo, None)
            if w is None:
                path.pop()
                if path:
                    low[path[-1][0]] = min(low[path[-1][0]], low[v])
                if low[v] == index[v]:
                    group = stack[stack.index(v) :]
                    del stack[stack.index(v) :]
                    if len(group) > 1:
                        out.append(sorted(group))
            elif w not in index:
                index[w] = low[w] = len(index)
                stack.append(w)
                path.append((w, iter(sorted(edges[w]))))
            elif w in stack:
                low[v] = min(low[v], index[w])
    return out


def module_circles() -> list[str]:
    """Circles between modules in a crate that KNOWN_CIRCLES does not allow, and stale entries."""
    bad = []
    crates = sorted(p for p in Path("crates").iterdir() if (p / "src").is_dir())
    for crate in crates + [p for p in [Path("benches")] if (p / "src").is_dir()]:
        edges = module_graph(crate / "src")
        found = circles(edges)
        known = KNOWN_CIRCLES.get(crate.name, [])
        for circle in found:
            if any(set(circle) <= k for k in known):
                continue
            path = " ; ".join(
                f"{m} -> {t} ({f})" for m in circle for t, f in sorted(edges[m].items()) if t in circle
            )
            bad.append(f"{crate.name}: modules {', '.join(circle)} use each other: {path}")
        for k in known:
            if not any(set(c) & k for c in found):
                print(f"note: {crate.name}'s known circle {sorted(k)} is gone: drop it from KNOWN_CIRCLES")
    return bad


def main() -> int:
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--no-deps", "--format-version", "1"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    )
    members = {p["name"] for p in meta["packages"]}
    bad = []
    for pkg in meta["packages"]:
        name = pkg["name"]
        if name not in ALLOWED:
            bad.append(f"{name}: not in the layering allow-list (.ci/layering.py)")
            continue
        for dep in pkg["dependencies"]:
            if dep["name"] not in members or dep.get("kind") is not None:
                continue  # external crate, or a dev/build dependency
            if dep["name"] not in ALLOWED[name]:
                bad.append(f"{name} -> {dep['name']}")
    bad += module_circles()
    if bad:
        print("layering violated:", *bad, sep="\n  ")
        return 1
    print(f"layering ok ({len(members)} crates, no new circle between modules)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
