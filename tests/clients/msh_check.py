# Independent checks of a model `import --base` wrote after a client's edit, read from what
# `unearth extract` (the MSH's resources) and `unearth info --json` print; decoded with struct
# from the format spec (docs/formats/msh.md). Prints the differences found, nothing when right.
#   python3 msh_check.py moved BASE_DIR NEW_DIR INFO.json NODE DX DY DZ   (offset in glTF axes)
#   python3 msh_check.py differ BASE_DIR NEW_DIR RES...   (exactly these resources differ: res3 ...)
#   python3 msh_check.py removed BASE_DIR NEW_DIR NODE    (NODE and its subtree removed, the rest kept)
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


def nodes(folder):
    """Res1 records (flags, parent, map start, fallback key, 15 slots) and Res10 names."""
    res1, res10 = resource(folder, "res1"), resource(folder, "res10")
    table = [struct.unpack_from("<19H", res1, 38 * i) for i in range(len(res1) // 38)]
    names, at = [], 0
    for _ in table:
        length = struct.unpack_from("<I", res10, at)[0]
        names.append(res10[at + 4:at + 4 + length].decode("cp1251") if length else None)
        at += 4 + (length + 1 if length else 0)
    return table, names


def removed(base, new, node):
    """NODE and every node under it gone; each other node keeps its flags, name, parent (renumbered),
    the bytes of its slot records and of its Res8 track; the geometry tables are unchanged."""
    (bt, bn), (nt, nn) = nodes(base), nodes(new)
    if node not in bn:
        return ["no node %s in the base" % node]
    gone = set()
    for i, rec in enumerate(bt):
        if bn[i] == node or rec[1] in gone:
            gone.add(i)
    kept = [i for i in range(len(bt)) if i not in gone]
    if len(nt) != len(kept):
        return ["%d nodes, want %d (without %s and its %d descendants)" % (len(nt), len(kept), node, len(gone) - 1)]
    r2a, r8a, r2b, r8b = (resource(f, r) for f in (base, new) for r in ("res2", "res8"))
    problems = []
    for k, o in enumerate(kept):
        a, b = bt[o], nt[k]
        parent = 0xFFFF if a[1] == 0xFFFF else kept.index(a[1])
        track = lambda t, i, res: res[24 * (t[i - 1][3] + 1 if i else 0):24 * (t[i][3] + 1)]
        if (b[0], b[1], nn[k]) != (a[0], parent, bn[o]):
            problems.append("node %d: flags, parent, name %s, want %s" % (k, (b[0], b[1], nn[k]), (a[0], parent, bn[o])))
        for c in range(15):
            sa, sb = a[4 + c], b[4 + c]
            slot = lambda res, s: res[0x8C + 68 * s:0x8C + 68 * (s + 1)]
            if (sa == 0xFFFF) != (sb == 0xFFFF) or (sa != 0xFFFF and slot(r2a, sa) != slot(r2b, sb)):
                problems.append("node %d (%s): cell %d is not the base's slot" % (k, nn[k], c))
        if track(nt, k, r8b) != track(bt, o, r8a):
            problems.append("node %d (%s): its Res8 track differs from the base's" % (k, nn[k]))
    a, b = resources(base), resources(new)
    problems += ["%s changed" % r for r in ("res3", "res4", "res5", "res6", "res7", "res13") if a.get(r) != b.get(r)]
    return problems[:5]


if __name__ == "__main__":
    problems = {"moved": moved, "differ": differ, "removed": removed}[sys.argv[1]](*sys.argv[2:])
    print("\n".join(problems))
    sys.exit(1 if problems else 0)
