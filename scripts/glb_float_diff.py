#!/usr/bin/env python3
"""unearth — compares two .glb files that should hold the same model: the same JSON structure and
counts, the same bytes outside float data, every float within a tolerance (ulps or relative)."""
import json
import math
import struct
import sys

COMPONENT = {5120: ("b", 1), 5121: ("B", 1), 5122: ("h", 2), 5123: ("H", 2), 5125: ("I", 4), 5126: ("f", 4)}
COUNT = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT2": 4, "MAT3": 9, "MAT4": 16}


def read_glb(path):
    data = open(path, "rb").read()
    magic, _version, length = struct.unpack_from("<III", data, 0)
    if magic != 0x46546C67 or length != len(data):
        raise SystemExit(f"{path}: not a glb")
    chunks, off = [], 12
    while off < length:
        size, kind = struct.unpack_from("<II", data, off)
        chunks.append((kind, data[off + 8: off + 8 + size]))
        off += 8 + size
    doc = json.loads(chunks[0][1])
    binary = chunks[1][1] if len(chunks) > 1 else b""
    return doc, binary


def ulps(a, b):
    """Distance in float32 steps (a and b float32 values of the same sign), inf across signs."""
    if a == b:
        return 0
    if math.isnan(a) or math.isnan(b) or (a < 0) != (b < 0):
        return math.inf
    ia = struct.unpack("<i", struct.pack("<f", a))[0]
    ib = struct.unpack("<i", struct.pack("<f", b))[0]
    return abs(ia - ib)


class Diff:
    def __init__(self, max_ulps, rel):
        self.max_ulps, self.rel = max_ulps, rel
        self.floats = self.changed = self.worst_ulps = 0
        self.worst_rel = 0.0
        self.errors = []

    def float_pair(self, a, b, where):
        self.floats += 1
        if a == b and math.copysign(1, a) == math.copysign(1, b):
            return
        self.changed += 1
        u = ulps(a, b)
        rel = abs(a - b) / max(abs(a), abs(b), 1e-300)
        self.worst_ulps = max(self.worst_ulps, u)
        self.worst_rel = max(self.worst_rel, rel)
        if u > self.max_ulps and rel > self.rel and len(self.errors) < 20:
            self.errors.append(f"{where}: {a!r} vs {b!r} ({u} ulps, {rel:.3g} relative)")

    def json(self, a, b, where="$"):
        if isinstance(a, dict) and isinstance(b, dict):
            if list(a) != list(b):
                self.errors.append(f"{where}: keys {list(a)} vs {list(b)}")
                return
            for k in a:
                self.json(a[k], b[k], f"{where}.{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                self.errors.append(f"{where}: {len(a)} vs {len(b)} items")
                return
            for i, (x, y) in enumerate(zip(a, b)):
                self.json(x, y, f"{where}[{i}]")
        elif isinstance(a, float) or isinstance(b, float):
            if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                fa, fb = struct.unpack("<ff", struct.pack("<ff", a, b))
                self.float_pair(fa, fb, where)
            else:
                self.errors.append(f"{where}: {a!r} vs {b!r}")
        elif a != b:
            self.errors.append(f"{where}: {a!r} vs {b!r}")


def float_ranges(doc):
    """(start, end) byte ranges of the binary chunk that hold float accessor data."""
    ranges = []
    views = doc.get("bufferViews", [])
    for acc in doc.get("accessors", []):
        if acc.get("componentType") != 5126 or "bufferView" not in acc:
            continue
        view = views[acc["bufferView"]]
        if view.get("buffer", 0) != 0:
            continue
        start = view.get("byteOffset", 0) + acc.get("byteOffset", 0)
        n = COUNT[acc["type"]]
        stride = view.get("byteStride", 4 * n)
        for i in range(acc["count"]):
            ranges.append((start + i * stride, start + i * stride + 4 * n))
    return ranges


def compare(path_a, path_b, d):
    doc_a, bin_a = read_glb(path_a)
    doc_b, bin_b = read_glb(path_b)
    d.json(doc_a, doc_b)
    if len(bin_a) != len(bin_b):
        d.errors.append(f"binary chunk {len(bin_a)} vs {len(bin_b)} bytes")
        return
    is_float = bytearray(len(bin_a) + 4)
    for s, e in float_ranges(doc_a):
        for o in range(s, e, 4):
            is_float[o] = 1
            if bin_a[o:o + 4] != bin_b[o:o + 4]:
                a, b = struct.unpack_from("<f", bin_a, o)[0], struct.unpack_from("<f", bin_b, o)[0]
                d.float_pair(a, b, f"bin@{o}")
            else:
                d.floats += 1
    if bin_a == bin_b:
        return
    for o in range(len(bin_a)):
        if bin_a[o] != bin_b[o] and not is_float[o & ~3]:
            d.errors.append(f"bin@{o}: non-float byte {bin_a[o]} vs {bin_b[o]}")
            break


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        raise SystemExit("usage: glb_float_diff.py A.glb B.glb [MAX_ULPS [MAX_RELATIVE]]")
    d = Diff(int(args[2]) if len(args) > 2 else 2, float(args[3]) if len(args) > 3 else 1e-6)
    compare(args[0], args[1], d)
    print(f"{d.floats} floats, {d.changed} changed, worst {d.worst_ulps} ulps / {d.worst_rel:.3g} relative")
    for e in d.errors:
        print("  " + e)
    sys.exit(1 if d.errors else 0)


if __name__ == "__main__":
    main()
