# Independent checks of a model `import --base` wrote after a client's edit, read from what
# `unearth extract` (the MSH's resources) and `unearth info --json` print; decoded with struct
# from the format spec (parkan-formats.md §4). Prints the differences found, nothing when right.
#   python3 msh_check.py moved BASE_DIR NEW_DIR INFO.json NODE DX DY DZ   (offset in glTF axes)
#   python3 msh_check.py differ BASE_DIR NEW_DIR RES...   (exactly these resources differ: res3 ...)
import glob
import json
import os
import struct
import sys


def resource(folder, name):
    """The bytes of resource `name` ("res3") in an extract folder (entries/NNNN_res3)."""
    found = glob.glob(os.path.join(folder, "entries", "*_" + name))
    return open(found[0], "rb").read() if found else None


def resources(folder):
    return {os.path.basename(p).split("_", 1)[1]: open(p, "rb").read()
            for p in glob.glob(os.path.join(folder, "entries", "*"))}


def slot_vertices(folder, slot):
    """Res3 indices the batches of one Res2 slot draw: Res6[index_start + i] + base_vertex."""
    res2, res6, res13 = resource(folder, "res2"), resource(folder, "res6"), resource(folder, "res13")
    _, _, batch_start, batch_count = struct.unpack_from("<4H", res2, 0x8C + 68 * slot)
    out = set()
    for b in range(batch_start, batch_start + batch_count):
        index_count, index_start = struct.unpack_from("<HI", res13, 20 * b + 8)
        base_vertex = struct.unpack_from("<I", res13, 20 * b + 16)[0]
        for i in range(index_start, index_start + index_count):
            out.add(struct.unpack_from("<H", res6, 2 * i)[0] + base_vertex)
    return out


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def moved(base, new, info, node, dx, dy, dz):
    """NODE's LOD 0 group 0 vertices moved by (dx, dy, dz) in glTF axes, (dx, dz, dy) in the
    engine's; every other vertex the same bits."""
    table = json.load(open(info))["node_table"]
    index = next((i for i, n in enumerate(table) if n["name"] == node), None)
    if index is None or table[index]["slots"][0] is None:
        return ["no node %s with a LOD 0 group 0 slot" % node]
    mine = slot_vertices(base, table[index]["slots"][0])
    engine = (float(dx), float(dz), float(dy))
    a, b = resource(base, "res3"), resource(new, "res3")
    if len(a) != len(b):
        return ["Res3 holds %d vertices, the base %d" % (len(b) // 12, len(a) // 12)]
    problems = []
    for v in range(len(a) // 12):
        was, now = struct.unpack_from("<3f", a, 12 * v), struct.unpack_from("<3f", b, 12 * v)
        want = tuple(f32(was[k] + engine[k]) for k in range(3)) if v in mine else was
        if now != want:
            problems.append("vertex %d%s: %s, want %s (was %s)" % (v, " of " + node if v in mine else "", now, want, was))
    return problems[:5] + (["... %d more" % (len(problems) - 5)] if len(problems) > 5 else [])


def differ(base, new, *names):
    a, b = resources(base), resources(new)
    got = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return [] if got == sorted(names) else ["resources that differ: %s, want %s" % (got, sorted(names))]


if __name__ == "__main__":
    problems = {"moved": moved, "differ": differ}[sys.argv[1]](*sys.argv[2:])
    print("\n".join(problems))
    sys.exit(1 if problems else 0)
