#!/usr/bin/env python3
"""Converts a finite-state machine in the `.fsm` text form used by cmu-soda/fortis-core (the UMDES /
DESUMA layout) into a Guarantor JSON LTS.

Usage: fsm2json.py IN.fsm OUT.json

Layout: the number of states on the first line; then, per state, a header `NAME MARKED COUNT`
followed by COUNT transitions `EVENT TARGET c|uc o|uo` (controllable, observable). Blank lines
separate states. The first state listed is the initial one. Marking and the controllable /
observable flags do not matter to safety checking and are dropped; the alphabet is every event that
occurs, in order of first occurrence.
"""
import json
import sys


def convert(path):
    lines = [ln.split() for ln in open(path, encoding="utf-8")]
    lines = [ln for ln in lines if ln]
    count = int(lines[0][0])
    names, blocks, i = [], [], 1
    while i < len(lines):
        name, _marked, n = lines[i]
        names.append(name)
        blocks.append(lines[i + 1:i + 1 + int(n)])
        i += 1 + int(n)
    if len(names) != count:
        raise SystemExit(f"{path}: header says {count} states, found {len(names)}")
    index = {n: k for k, n in enumerate(names)}
    alphabet, transitions = [], []
    for k, block in enumerate(blocks):
        for event, target, *_ in block:
            if event not in alphabet:
                alphabet.append(event)
            if target not in index:
                raise SystemExit(f"{path}: unknown state {target}")
            transitions.append([k, event, index[target]])
    return {
        "alphabet": alphabet,
        "initial": 0,
        "states": count,
        "error": None,
        "accepting": None,
        "transitions": transitions,
    }


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    lts = convert(sys.argv[1])
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        json.dump(lts, out, separators=(",", ":"))
        out.write("\n")
    print(f"{sys.argv[1]}: {lts['states']} states, {len(lts['transitions'])} transitions")


if __name__ == "__main__":
    main()
