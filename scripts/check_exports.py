#!/usr/bin/env python3
"""Checks that the shared library exports exactly the functions and objects that the public
headers mark with UE_API (include/unearth/export.h): no internal symbol leaks, none is missing."""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DECLARED = re.compile(r"^UE_API\b[^;(]*?\b(ue_\w+|UE_\w+)\s*[(\[;]", re.M)


def marked():
    names = set()
    for header in sorted((ROOT / "include/unearth").glob("*.h")):
        names.update(DECLARED.findall(header.read_text(encoding="utf-8")))
    return names


def exported(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main():
    if len(sys.argv) != 2:
        print("usage: check_exports.py libunearth.so")
        return 2
    want, have = marked(), exported(sys.argv[1])
    for name in sorted(have - want):
        print(f"leaks: {name} is exported but not marked UE_API in include/unearth/")
    for name in sorted(want - have):
        print(f"missing: {name} is marked UE_API but the library does not export it")
    print(f"exports: {len(have)} exported, {len(want)} marked")
    return 1 if want != have else 0


if __name__ == "__main__":
    sys.exit(main())
