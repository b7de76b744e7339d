#!/usr/bin/env python3
"""Fails when a workspace crate has a normal dependency outside its allow-list.

The layering (docs/architecture.md): lts and ltl-core (LTL's vocabulary) at the bottom; certify on
lts; compose on lts and certify (the certificate format its Method trait names); every algorithm
crate on lts, compose and certify only (never on another algorithm crate), and so the distributed
engine (dist); fsp on lts and ltl-core; view on lts only; the facade on everything; the CLI on the
facade. Dev-dependencies are not checked: tests may use anything below the facade.
"""
import json
import subprocess
import sys

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
    if bad:
        print("layering violated:", *bad, sep="\n  ")
        return 1
    print(f"layering ok ({len(members)} crates)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
