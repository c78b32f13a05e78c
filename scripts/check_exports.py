#!/usr/bin/env python3
"""Checks that the shared library exports exactly the functions and objects that the public
headers mark with UE_API (include/unearth/export.h): no internal symbol leaks, none is missing."""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DECLARED = re.compile(r"^UE_API\b[^;(]*?\b(ue_\w+|UE_\w+)\s*[(\[;]", re.M)
# A declaration at the start of a line that lacks the mark (static inline helpers are fine).
UNMARKED = re.compile(r"^(?!UE_API\b|static\b|typedef\b|#)(?:extern\s+const\b.*|[A-Za-z_][^;{}()=]*\bue_\w+\s*\()",
                      re.M)


def marked():
    names = set()
    for header in sorted((ROOT / "include/unearth").rglob("*.h")):
        names.update(DECLARED.findall(header.read_text(encoding="utf-8")))
    return names


def unmarked():
    found = []
    for header in sorted((ROOT / "include/unearth").rglob("*.h")):
        for m in UNMARKED.finditer(header.read_text(encoding="utf-8")):
            found.append(f"{header.relative_to(ROOT)}: {m.group(0).strip()}")
    return found


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    # Sanitizer and coverage instrumentation add reserved names (__odr_asan.X, __gcov_...).
    return {n for n in names if not n.startswith("__")}


def main():
    if len(sys.argv) != 2:
        print("usage: check_exports.py libunearth.so")
        return 2
    want, have = marked(), exported(sys.argv[1])
    bare = unmarked()
    for line in bare:
        print(f"unmarked: {line}... declared in a public header without UE_API")
    for name in sorted(have - want):
        print(f"leaks: {name} is exported but not marked UE_API in include/unearth/")
    for name in sorted(want - have):
        print(f"missing: {name} is marked UE_API but the library does not export it")
    print(f"exports: {len(have)} exported, {len(want)} marked")
    return 1 if want != have or bare else 0


if __name__ == "__main__":
    sys.exit(main())
