#!/usr/bin/env python3
# unearth CLI tests — compares two .glb files that `convert` wrote of a model and of its
# `edit --scale S` copy: every node's offset, and every vertex's world position worked out here
# from the node tree and the clip's channels, is S × the original's, at rest and at clip times.
# Usage: msh_scale_glb.py ORIG.glb SCALED.glb S TIME...   prints "ok N" (N vertices compared) or why not
import math, sys

from hsd_anim_glb import load, accessor  # the GLB reader of the animation tests (float accessors)

def slerp(a, b, f):
    dot = sum(x * y for x, y in zip(a, b))
    if dot < 0:
        b, dot = [-x for x in b], -dot
    if dot > 0.9995:
        q = [x + (y - x) * f for x, y in zip(a, b)]
    else:
        th = math.acos(dot)
        wa, wb = math.sin((1 - f) * th) / math.sin(th), math.sin(f * th) / math.sin(th)
        q = [wa * x + wb * y for x, y in zip(a, b)]
    n = math.sqrt(sum(x * x for x in q))
    return [x / n for x in q]

def sample(times, values, interp, t, path):
    """The glTF sampler's value at t: clamped at the ends, STEP or LINEAR (slerp for rotations)."""
    if t <= times[0]:
        return list(values[0])
    if t >= times[-1]:
        return list(values[-1])
    k = max(i for i in range(len(times)) if times[i] <= t)
    if interp == "STEP" or times[k] == t:
        return list(values[k])
    f = (t - times[k]) / (times[k + 1] - times[k])
    if path == "rotation":
        return slerp(values[k], values[k + 1], f)
    return [x + (y - x) * f for x, y in zip(values[k], values[k + 1])]

def posed_nodes(doc, binary, t):
    """Each node's translation and rotation at time t (None: the rest pose of the node tree)."""
    nodes = [{"t": list(n.get("translation", [0, 0, 0])), "r": list(n.get("rotation", [0, 0, 0, 1])),
              "s": n.get("scale", [1, 1, 1])} for n in doc["nodes"]]
    for anim in doc.get("animations", []) if t is not None else []:
        for ch in anim["channels"]:
            target = ch["target"]
            if target.get("path") not in ("translation", "rotation"):
                continue  # KHR_animation_pointer channels move materials, not geometry
            smp = anim["samplers"][ch["sampler"]]
            times = [x[0] for x in accessor(doc, binary, smp["input"])]
            values = accessor(doc, binary, smp["output"])
            key = "t" if target["path"] == "translation" else "r"
            nodes[target["node"]][key] = sample(times, values, smp.get("interpolation", "LINEAR"), t, target["path"])
    return nodes

def rotate(q, v):
    x, y, z, w = q
    ux = 2 * (y * v[2] - z * v[1]); uy = 2 * (z * v[0] - x * v[2]); uz = 2 * (x * v[1] - y * v[0])
    return [v[0] + w * ux + y * uz - z * uy, v[1] + w * uy + z * ux - x * uz, v[2] + w * uz + x * uy - y * ux]

def world_points(doc, binary, t):
    """Every vertex of every mesh instance in world space, in document order."""
    nodes = posed_nodes(doc, binary, t)
    parent = {c: i for i, n in enumerate(doc["nodes"]) for c in n.get("children", [])}
    def to_world(i, p):
        while True:
            n = nodes[i]
            p = rotate(n["r"], [p[k] * n["s"][k] for k in range(3)])
            p = [p[k] + n["t"][k] for k in range(3)]
            if i not in parent:
                return p
            i = parent[i]
    out = []
    for i, node in enumerate(doc["nodes"]):
        if "mesh" in node:
            for prim in doc["meshes"][node["mesh"]]["primitives"]:
                out += [to_world(i, p) for p in accessor(doc, binary, prim["attributes"]["POSITION"])]
    return out

def main():
    (a, ab), (b, bb) = load(sys.argv[1]), load(sys.argv[2])
    s = float(sys.argv[3])
    times = [None] + [float(x) for x in sys.argv[4:]]
    for k, (na, nb) in enumerate(zip(a["nodes"], b["nodes"])):
        ta, tb = na.get("translation", [0, 0, 0]), nb.get("translation", [0, 0, 0])
        if any(abs(tb[c] - s * ta[c]) > 1e-5 * (1 + abs(s * ta[c])) for c in range(3)) or \
                na.get("rotation") != nb.get("rotation"):
            print("node %d (%s): translation %s rotation %s, want %s × %s and %s" % (
                k, nb.get("name"), tb, nb.get("rotation"), s, ta, na.get("rotation")))
            return
    count = 0
    for t in times:
        pa, pb = world_points(a, ab, t), world_points(b, bb, t)
        if len(pa) != len(pb) or not pa:
            print("vertex counts %d and %d at %s" % (len(pa), len(pb), t))
            return
        for k, (p, q) in enumerate(zip(pa, pb)):
            if any(abs(q[c] - s * p[c]) > 1e-4 * (1 + abs(s * p[c])) for c in range(3)):
                print("vertex %d at %s: %s, want %s × %s" % (k, "rest" if t is None else t, q, s, p))
                return
        count += len(pa)
    print("ok %d" % count)

main()
