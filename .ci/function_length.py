#!/usr/bin/env python3
"""Fails when a function in crates/*/src is longer than 150 lines (issue 27: no function over about
80 lines without a reason in a comment, none over 150).

A function runs from its `fn` line to the line of the brace that closes its body, counted by a
small brace matcher that skips comments, string literals (raw strings included) and character
literals, so `'{'` or `"}"` do not move it. Nested functions count inside their parent as well.
Usage: python3 .ci/function_length.py [LIMIT] (default 150); prints the longest functions found.
"""
import pathlib
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")
TOKENS = re.compile(
    r'//[^\n]*'                        # line comment
    r'|/\*.*?\*/'                      # block comment (one line)
    r'|r#*"'                           # raw string start (handled below)
    r'|b?"(?:\\.|[^"\\])*"'            # string
    r"|b?'(?:\\.|[^'\\])'"             # character literal
    r"|b?'\\u\{[0-9a-fA-F]+\}'"        # unicode escape literal
    r'|[{}]',
    re.DOTALL,
)


def braces(text):
    """Yields (line number, +1/-1) for every brace outside comments and literals."""
    i, line = 0, 1
    while True:
        m = TOKENS.search(text, i)
        if not m:
            return
        line += text.count("\n", i, m.start())
        tok = m.group(0)
        if tok.startswith("r") and tok.endswith('"'):
            hashes = tok.count("#")
            end = text.find('"' + "#" * hashes, m.end())
            end = len(text) if end < 0 else end + 1 + hashes
            line += text.count("\n", m.start(), end)
            i = end
            continue
        if tok == "{":
            yield line, 1
        elif tok == "}":
            yield line, -1
        line += tok.count("\n")
        i = m.end()


def has_body(lines, start):
    """Whether the function declared on line `start` has a body: a `{` comes before a `;` outside
    parentheses and brackets (`fn f(x: [u8; 4]);` is a declaration, as in a trait)."""
    depth = 0
    for line in lines[start - 1:]:
        for c in line.split("//")[0]:
            if c in "([":
                depth += 1
            elif c in ")]":
                depth -= 1
            elif depth == 0 and c == "{":
                return True
            elif depth == 0 and c == ";":
                return False
    return False


def lengths(path):
    text = path.read_text()
    lines = text.split("\n")
    starts = {n + 1: FN.match(l).group(7) for n, l in enumerate(lines) if FN.match(l)}
    events = list(braces(text))
    found = []
    for start, name in starts.items():
        if not has_body(lines, start):
            continue
        depth = 0
        for line, step in events:
            if line < start:
                continue
            depth += step
            if depth == 0:
                found.append((line - start + 1, f"{path}:{start} {name}"))
                break
    return found


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    found = []
    for path in sorted(pathlib.Path("crates").glob("*/src/**/*.rs")):
        found.extend(lengths(path))
    found.sort(reverse=True)
    for n, where in found[:5]:
        print(f"{n:5} lines  {where}")
    long = [(n, w) for n, w in found if n > limit]
    if long:
        print(f"{len(long)} function(s) over {limit} lines:", file=sys.stderr)
        for n, where in long:
            print(f"  {n} lines  {where}", file=sys.stderr)
        return 1
    print(f"no function over {limit} lines ({len(found)} functions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
