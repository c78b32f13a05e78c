#!/usr/bin/env python3
"""Checks the format references (docs/formats/README.md): no file cites a section sign (the
numbered sections of documents outside the repository), every `docs/formats/<page>.md#<anchor>`
reference names a page and a heading that exist, and every relative link of a page in
docs/formats/ resolves. Exits 1 on a breach."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORMATS = ROOT / "docs" / "formats"
SCANNED = ["src", "include", "tests", "fuzz", "bench", "docs", "scripts", "README.md", "CMakeLists.txt"]
TEXT_SUFFIXES = {".c", ".h", ".py", ".sh", ".md", ".txt", ".json", ".dict", ".mjs", ".js", ".cmake", ".1", ".in"}
SECTION_SIGN = "\u00a7"
FORMAT_REF = re.compile(r"(?:docs/)?formats/([\w.-]+\.md)(?:#([\w-]+))?")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def slug(heading):
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen, fenced = set(), {}, False
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"#{1,6} ", line):
                base = slug(line.lstrip("#"))
                n = seen.get(base, 0)
                seen[base] = n + 1
                found.add(base if n == 0 else f"{base}-{n}")
        found.update(re.findall(r'<a (?:id|name)="([^"]+)"', path.read_text(encoding="utf-8")))
        cache[path] = found
    return cache[path]


def scanned_files():
    for name in SCANNED:
        top = ROOT / name
        paths = [top] if top.is_file() else sorted(
            p for p in top.rglob("*") if p.is_file() and "node_modules" not in p.parts)
        for p in paths:
            if p.suffix in TEXT_SUFFIXES or p.name == "CMakeLists.txt":
                yield p


def target_problem(page, anchor):
    if not page.is_file():
        return f"no page {page.relative_to(ROOT)}"
    if anchor and page.suffix == ".md" and anchor not in anchors(page):
        return f"no heading #{anchor} in {page.relative_to(ROOT)}"
    return None


def main():
    problems = []
    for path in scanned_files():
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        rel = path.relative_to(ROOT)
        for number, line in enumerate(lines, 1):
            if SECTION_SIGN in line:
                problems.append(f"{rel}:{number}: cites a numbered section; point at docs/formats/ instead")
            for page, anchor in FORMAT_REF.findall(line):
                why = target_problem(FORMATS / page, anchor)
                if why:
                    problems.append(f"{rel}:{number}: {why}")
            if path.parent == FORMATS:
                for link in MD_LINK.findall(line):
                    if re.match(r"[a-z]+:", link) or link.startswith("#") and not link[1:]:
                        continue
                    file_part, _, anchor = link.partition("#")
                    page = (FORMATS / file_part).resolve() if file_part else path
                    why = target_problem(page, anchor)
                    if why:
                        problems.append(f"{rel}:{number}: link {link}: {why}")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} format reference problem(s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
