#!/usr/bin/env python3
"""Checks that a game family is registered in one place only (docs/architecture.md, "Adding a
family"): its descriptor src/NAME/NAME_family.c lists every container and model format the family
defines, the table of src/registry/families.c lists every descriptor, and no other file of src/
tables or names a family's containers or formats. Exits 1 on a breach.
`--self-test` also proves, on the sources with one registration added elsewhere, that each kind
of breach is caught."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TABLE = pathlib.Path("registry/families.c")
DEFINITION = re.compile(r"^const\s+(ue_container_ops|ue_model_format)\s+(\w+)\s*=", re.M)
TABLE_LINE = re.compile(r"^\s*X\((\w+)\)", re.M)
# An array of containers, formats or families: a registration, if it is anywhere but a
# descriptor or the table.
ARRAY = re.compile(r"\b(ue_container_ops|ue_model_format|ue_family)\s*\*\s*const\s+\w+\s*\[")
# Where a family's public model formats may be named besides its own folder: the top, which
# uses them through the public API (`m.format == &ue_msh_model_format`), never to register one.
PUBLIC_USERS = {"cli", "samples"}


def load(src):
    """{path relative to src/: text} of every C source and header."""
    return {p.relative_to(src): p.read_text(encoding="utf-8") for p in sorted(src.rglob("*.[ch]"))}


def families(texts):
    """{name: descriptor path} of every NAME/NAME_family.c."""
    return {p.parts[0]: p for p in texts if len(p.parts) == 2 and p.name == p.parts[0] + "_family.c"}


def check(texts):
    breaches = []
    fams = families(texts)
    listed = TABLE_LINE.findall(texts.get(TABLE, ""))
    for name in sorted(set(fams) - set(listed)):
        breaches.append(f"{fams[name]}: family {name} is not in the table of {TABLE}")
    for name in listed:
        if name not in fams:
            breaches.append(f"{TABLE}: lists {name}, which has no src/{name}/{name}_family.c")
        elif not re.search(rf"^const ue_family ue_{name}_family\s*=", texts[fams[name]], re.M):
            breaches.append(f"{fams[name]}: defines no `const ue_family ue_{name}_family`")

    symbols = {}  # symbol -> (kind, family folder)
    for path, text in texts.items():
        folder = path.parts[0]
        for kind, symbol in DEFINITION.findall(text):
            if folder not in fams:
                breaches.append(f"{path}: {kind} {symbol} defined outside a family's folder")
                continue
            symbols[symbol] = (kind, folder)
            if not re.search(rf"\b{symbol}\b", texts[fams[folder]]):
                breaches.append(f"{path}: {kind} {symbol} is not listed by {fams[folder]}")

    descriptors = set(fams.values())
    named = re.compile(r"\b(" + "|".join(symbols) + r")\b") if symbols else None
    for path, text in texts.items():
        folder = path.parts[0]
        table = ARRAY.search(text)
        if path not in descriptors and path != TABLE and table:
            breaches.append(f"{path}: a table of {table.group(1)} outside a family's descriptor and {TABLE}")
        for symbol in sorted(set(named.findall(text)) if named else ()):
            kind, owner = symbols[symbol]
            if folder == owner:
                continue
            if kind == "ue_model_format" and folder in PUBLIC_USERS:
                continue
            breaches.append(f"{path}: names {symbol}, a {kind} of the {owner} family (register it in src/{owner}/{owner}_family.c)")
    return breaches, len(fams), len(symbols)


def self_test():
    """Each breach, added to the sources as read, must be reported."""
    cases = [
        ("archive/archive.c", "#include \"common/text.h\"\n",
         "#include \"common/text.h\"\nstatic const ue_container_ops *const extra[] = {&ue_nres_ops};\n"),
        ("registry/registry.c", "#define MAX_DEPTH 6",
         "static const void *extra = &ue_hsd_data_format;\n#define MAX_DEPTH 6"),
        ("registry/families.c", "    X(hsd)", "    X(hsd)  \\\n    X(nowhere)"),
        ("registry/families.c", "    X(gamecube)            \\\n", ""),
        ("parkan/parkan_family.c", "&ue_texm_model_format, NULL", "NULL"),
    ]
    texts = load(ROOT / "src")
    failed = 0
    for rel, old, new in cases:
        rel = pathlib.Path(rel)
        if old not in texts[rel]:
            print(f"self-test: {rel} no longer holds {old!r}; update the case")
            failed += 1
            continue
        breaches, _, _ = check({**texts, rel: texts[rel].replace(old, new, 1)})
        if not breaches:
            print(f"self-test: a registration added to {rel} went unreported")
            failed += 1
    print(f"families self-test: {len(cases) - failed} of {len(cases)} breaches caught")
    return failed


def main():
    breaches, fams, symbols = check(load(ROOT / "src"))
    for b in breaches:
        print(b)
    print(f"families: {fams} families, {symbols} containers and formats, {len(breaches)} breaches")
    failed = self_test() if "--self-test" in sys.argv[1:] else 0
    return 1 if breaches or failed else 0


if __name__ == "__main__":
    sys.exit(main())
