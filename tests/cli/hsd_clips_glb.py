#!/usr/bin/env python3
# unearth CLI tests — clip edits inside a .glb that `convert` wrote from an HSD model, and the checks
# of what `import --base` made of them (tests/cli/cli_hsd_clips.sh), with glTF's sampling rules and
# quaternion math of its own (no code of unearth).
# Usage: hsd_clips_glb.py COMMAND ARGS
#   turn IN OUT ANIM NODE KEY AXIS DEG  rotation key KEY of NODE's channel in animation ANIM turned by
#                                       DEG degrees about the node's own AXIS (x, y or z): q · r;
#                                       prints the key's frame (time · 60)
#   compare A B ANIM [ANIM_B]           every joint node (a node without a mesh, named alike in both)
#                                       sampled at every frame 0 … end (60 fps) of animation ANIM in
#                                       both: the largest rotation angle between them (radians), then
#                                       the largest translation and scale difference (relative beyond 1);
#                                       B's animation named ANIM_B when given
#   rotation GLB ANIM NODE FRAME        NODE's rotation in ANIM at FRAME, x,y,z,w (w ≥ 0)
#   same-anim A B ANIM                  "same" when every channel of ANIM has the same key times and
#                                       values in both (by node name and path), else what differs
#   rest IN OUT NODE X,Y,Z,W            NODE's rest rotation set (a skeleton re-expressed)
#   rename-anim IN OUT OLD NEW          animation OLD renamed NEW
#   dense IN OUT ANIM NODE N            a new animation ANIM: NODE's rotation keyed at N frames (60 fps),
#                                       turning ±0.5 rad about x and a little about y from frame to frame
#                                       (no two alike, so no fit spans them)
#   nlerp-resample IN OUT ANIM NODE M   NODE's LINEAR rotation channel in ANIM keyed also at j/M of the way
#                                       (j = 1 … M−1) into every interval, as Blender plays it: the
#                                       components interpolated, then made unit; prints the key count
#   drop-channel IN OUT ANIM NODE PATH  NODE's PATH channel left out of ANIM
#   rest-scale IN OUT NODE X,Y,Z        NODE's rest scale set (a client that drops joint scales)
#   rest-move IN OUT NODE DX,DY,DZ      NODE's rest translation moved (a bone moved at rest)
#   scales GLB ANIM NODE                NODE's scale in ANIM at every frame 0 … end: the largest
#                                       difference of any component from NODE's rest scale in GLB
#   shared-long IN OUT N NODE SECONDS   N new animations Long_0 … Long_N−1, each turning NODE about y from
#                                       0 to SECONDS through one shared pair of two-key accessors (a few
#                                       bytes each, every one as long as the pair says)
import math, os, struct, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from glb_image import read_glb as load, write_glb as save

COMPS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}

def floats(doc, binary, index):
    a = doc["accessors"][index]
    assert a["componentType"] == 5126, "float accessors only"
    v = doc["bufferViews"][a["bufferView"]]
    comps = COMPS[a["type"]]
    base, stride = v.get("byteOffset", 0) + a.get("byteOffset", 0), v.get("byteStride", 4 * comps)
    return [list(struct.unpack_from("<%df" % comps, binary, base + i * stride)) for i in range(a["count"])], base, stride

def animation(doc, name):
    for a in doc["animations"]:
        if a["name"] == name:
            return a
    sys.exit("no animation " + name)

def channels(doc, binary, anim):  # {(node name, path): (times, values, interpolation)}
    out = {}
    for c in anim["channels"]:
        t = c["target"]
        if "node" not in t:
            continue
        s = anim["samplers"][c["sampler"]]
        times = [v[0] for v in floats(doc, binary, s["input"])[0]]
        out[(doc["nodes"][t["node"]].get("name"), t["path"])] = (times, floats(doc, binary, s["output"])[0], s.get("interpolation", "LINEAR"))
    return out

def qmul(a, b):  # Hamilton product of (x, y, z, w)
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz]

def normalise(q):
    n = math.sqrt(sum(c * c for c in q))
    return [c / n for c in q]

def slerp(a, b, f):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0:
        b, d = [-c for c in b], -d
    if d > 0.9995:
        return normalise([(1 - f) * x + f * y for x, y in zip(a, b)])
    th = math.acos(min(1.0, d))
    wa, wb = math.sin((1 - f) * th) / math.sin(th), math.sin(f * th) / math.sin(th)
    return normalise([wa * x + wb * y for x, y in zip(a, b)])

def sample(ch, t, path):
    times, vals, interp = ch
    assert interp in ("LINEAR", "STEP", "CUBICSPLINE"), "LINEAR, STEP and CUBICSPLINE channels only"
    if interp == "CUBICSPLINE":
        return cubic(times, vals, t, path)
    if t <= times[0]:
        return vals[0]
    if t >= times[-1]:
        return vals[-1]
    k = max(i for i in range(len(times)) if times[i] <= t)
    f = (t - times[k]) / (times[k + 1] - times[k])
    if interp == "STEP":
        return vals[k]
    if path == "rotation":
        return slerp(vals[k], vals[k + 1], f)
    return [(1 - f) * x + f * y for x, y in zip(vals[k], vals[k + 1])]

def cubic(times, vals, t, path):  # glTF 2.0 Appendix C: vals holds (in-tangent, value, out-tangent) per key
    if t <= times[0]:
        return vals[1]
    if t >= times[-1]:
        return vals[3 * len(times) - 2]
    k = max(i for i in range(len(times)) if times[i] <= t)
    d = times[k + 1] - times[k]
    s = (t - times[k]) / d
    p0, m0, p1, m1 = vals[3 * k + 1], vals[3 * k + 2], vals[3 * k + 4], vals[3 * k + 3]
    h = (2 * s ** 3 - 3 * s ** 2 + 1, s ** 3 - 2 * s ** 2 + s, -2 * s ** 3 + 3 * s ** 2, s ** 3 - s ** 2)
    out = [h[0] * a + h[1] * d * b + h[2] * c + h[3] * d * e for a, b, c, e in zip(p0, m0, p1, m1)]
    return normalise(out) if path == "rotation" else out

def rest(node, path):
    return {"translation": node.get("translation", [0, 0, 0]), "rotation": node.get("rotation", [0, 0, 0, 1]),
            "scale": node.get("scale", [1, 1, 1])}[path]

def joint_nodes(doc):
    return {n["name"]: n for n in doc["nodes"] if "mesh" not in n and "name" in n}

def pose(doc, chans, name, t, path):
    ch = chans.get((name, path))
    return sample(ch, t, path) if ch else list(rest(joint_nodes(doc)[name], path))

def end_time(chans):
    return max(ch[0][-1] for ch in chans.values())

def cmd_turn(args):
    src, dst, anim_name, node, key, axis, deg = args
    doc, binary = load(src)
    binary = bytearray(binary)
    anim = animation(doc, anim_name)
    for c in anim["channels"]:
        if c["target"].get("path") == "rotation" and doc["nodes"][c["target"]["node"]].get("name") == node:
            s = anim["samplers"][c["sampler"]]
            vals, base, stride = floats(doc, binary, s["output"])
            times = floats(doc, binary, s["input"])[0]
            k = int(key)
            half = math.radians(float(deg)) / 2
            r = [0.0, 0.0, 0.0, math.cos(half)]
            r["xyz".index(axis)] = math.sin(half)
            struct.pack_into("<4f", binary, base + k * stride, *normalise(qmul(vals[k], r)))
            save(dst, doc, bytes(binary))
            print("%g" % round(times[k][0] * 60, 3))
            return
    sys.exit("no rotation channel of %s in %s" % (node, anim_name))

def cmd_compare(args):
    a_path, b_path, name = args[:3]
    (da, ba), (db, bb) = load(a_path), load(b_path)
    ca, cb = channels(da, ba, animation(da, name)), channels(db, bb, animation(db, args[3] if len(args) > 3 else name))
    frames = int(math.ceil(max(end_time(ca), end_time(cb)) * 60 - 1e-6))
    names = sorted(set(joint_nodes(da)) & set(joint_nodes(db)))
    worst = [0.0, 0.0, 0.0]
    for f in range(frames + 1):
        t = f / 60
        for n in names:
            qa, qb = pose(da, ca, n, t, "rotation"), pose(db, cb, n, t, "rotation")
            d = min(1.0, abs(sum(x * y for x, y in zip(normalise(qa), normalise(qb)))))
            worst[0] = max(worst[0], 2 * math.acos(d))
            for i, path in ((1, "translation"), (2, "scale")):
                va, vb = pose(da, ca, n, t, path), pose(db, cb, n, t, path)
                worst[i] = max([worst[i]] + [abs(x - y) / max(1.0, abs(y)) for x, y in zip(va, vb)])
    print("%.3g %.3g %.3g" % tuple(worst))

def cmd_rotation(args):
    path, name, node, frame = args
    doc, binary = load(path)
    q = normalise(pose(doc, channels(doc, binary, animation(doc, name)), node, float(frame) / 60, "rotation"))
    if q[3] < 0:
        q = [-c for c in q]
    print(",".join("%.4f" % c for c in q))

def cmd_same_anim(args):
    a_path, b_path, name = args
    (da, ba), (db, bb) = load(a_path), load(b_path)
    ca, cb = channels(da, ba, animation(da, name)), channels(db, bb, animation(db, name))
    diff = [k for k in sorted(set(ca) | set(cb)) if ca.get(k) != cb.get(k)]
    print("same" if not diff else "differs: " + ", ".join("%s/%s" % k for k in diff))

def cmd_rest(args):
    src, dst, node, q = args
    doc, binary = load(src)
    joint_nodes(doc)[node]["rotation"] = [float(c) for c in q.split(",")]
    save(dst, doc, binary)

def cmd_rename_anim(args):
    src, dst, old, new = args
    doc, binary = load(src)
    animation(doc, old)["name"] = new
    save(dst, doc, binary)

def add_floats(doc, binary, rows, kind):  # a new float accessor of `rows` (lists), its index
    while len(binary) % 4:
        binary.append(0)
    offset = len(binary)
    for r in rows:
        binary += struct.pack("<%df" % len(r), *r)
    doc["bufferViews"].append({"buffer": 0, "byteOffset": offset, "byteLength": len(binary) - offset})
    acc = {"bufferView": len(doc["bufferViews"]) - 1, "componentType": 5126, "count": len(rows), "type": kind}
    if kind == "SCALAR":
        acc["min"], acc["max"] = [min(r[0] for r in rows)], [max(r[0] for r in rows)]
    doc["accessors"].append(acc)
    doc["buffers"][0]["byteLength"] = len(binary)
    return len(doc["accessors"]) - 1

def node_index(doc, name):
    return [i for i, n in enumerate(doc["nodes"]) if n.get("name") == name and "mesh" not in n][0]

def cmd_dense(args):
    src, dst, anim_name, node, n = args
    doc, binary = load(src)
    times, values = [], []
    for k in range(int(n)):
        ax, ay = (0.5 if k % 2 else -0.5) / 2, 0.05 * math.sin(k) / 2  # half angles
        times.append([k / 60])
        values.append(normalise(qmul([math.sin(ax), 0, 0, math.cos(ax)], [0, math.sin(ay), 0, math.cos(ay)])))
    t, v = add_floats(doc, binary, times, "SCALAR"), add_floats(doc, binary, values, "VEC4")
    doc["animations"].append({"name": anim_name, "samplers": [{"input": t, "output": v, "interpolation": "LINEAR"}],
                              "channels": [{"sampler": 0, "target": {"node": node_index(doc, node), "path": "rotation"}}]})
    save(dst, doc, binary)

def cmd_nlerp_resample(args):
    src, dst, anim_name, node, m = args
    doc, binary = load(src)
    anim, m = animation(doc, anim_name), int(m)
    for c in anim["channels"]:
        if c["target"].get("path") == "rotation" and doc["nodes"][c["target"]["node"]].get("name") == node:
            s = anim["samplers"][c["sampler"]]
            assert s.get("interpolation", "LINEAR") == "LINEAR"
            times, values = [v[0] for v in floats(doc, binary, s["input"])[0]], floats(doc, binary, s["output"])[0]
            t2, v2 = [], []
            for k in range(len(times)):
                t2.append([times[k]]), v2.append(values[k])
                if k + 1 < len(times):
                    a, b = values[k], values[k + 1]
                    if sum(x * y for x, y in zip(a, b)) < 0:
                        b = [-x for x in b]
                    for j in range(1, m):  # at the time as a float stores it (a step of 1 rad a frame)
                        t = struct.unpack("<f", struct.pack("<f", times[k] + j / m * (times[k + 1] - times[k])))[0]
                        u = (t - times[k]) / (times[k + 1] - times[k])
                        t2.append([t])
                        v2.append(normalise([x + u * (y - x) for x, y in zip(a, b)]))
            s["input"], s["output"] = add_floats(doc, binary, t2, "SCALAR"), add_floats(doc, binary, v2, "VEC4")
            save(dst, doc, binary)
            print(len(t2))
            return
    sys.exit("no rotation channel of %s in %s" % (node, anim_name))

def cmd_drop_channel(args):
    src, dst, anim_name, node, path = args
    doc, binary = load(src)
    anim = animation(doc, anim_name)
    keep = [c for c in anim["channels"] if not (c["target"].get("path") == path and
                                                doc["nodes"][c["target"].get("node", -1)].get("name") == node)]
    assert len(keep) == len(anim["channels"]) - 1, "no %s channel of %s" % (path, node)
    anim["channels"] = keep
    save(dst, doc, binary)

def cmd_rest_scale(args):
    src, dst, node, s = args
    doc, binary = load(src)
    joint_nodes(doc)[node]["scale"] = [float(c) for c in s.split(",")]
    save(dst, doc, binary)

def cmd_rest_move(args):
    src, dst, node, d = args
    doc, binary = load(src)
    n = joint_nodes(doc)[node]
    n["translation"] = [a + float(b) for a, b in zip(n.get("translation", [0, 0, 0]), d.split(","))]
    save(dst, doc, binary)

def cmd_scales(args):
    path, name, node = args
    doc, binary = load(path)
    chans = channels(doc, binary, animation(doc, name))
    want = rest(joint_nodes(doc)[node], "scale")
    worst = 0.0
    for f in range(int(math.ceil(end_time(chans) * 60 - 1e-6)) + 1):
        worst = max([worst] + [abs(a - b) for a, b in zip(pose(doc, chans, node, f / 60, "scale"), want)])
    print("%.3g" % worst)

def cmd_shared_long(args):
    src, dst, n, node, seconds = args
    doc, binary = load(src)
    binary = bytearray(binary)
    t = add_floats(doc, binary, [[0.0], [float(seconds)]], "SCALAR")
    v = add_floats(doc, binary, [[0, 0, 0, 1], [0, math.sin(0.5), 0, math.cos(0.5)]], "VEC4")
    doc.setdefault("animations", [])
    for k in range(int(n)):
        doc["animations"].append({"name": "Long_%d" % k, "samplers": [{"input": t, "output": v}],
                                  "channels": [{"sampler": 0, "target": {"node": node_index(doc, node), "path": "rotation"}}]})
    save(dst, doc, binary)

COMMANDS = {"shared-long": cmd_shared_long, "dense": cmd_dense, "nlerp-resample": cmd_nlerp_resample, "drop-channel": cmd_drop_channel,
            "rest-scale": cmd_rest_scale, "rest-move": cmd_rest_move, "scales": cmd_scales,
            "rest": cmd_rest, "rename-anim": cmd_rename_anim, "turn": cmd_turn, "compare": cmd_compare, "rotation": cmd_rotation, "same-anim": cmd_same_anim}

def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd not in COMMANDS:
        sys.exit("unknown command " + cmd)
    COMMANDS[cmd](args)

if __name__ == "__main__":
    main()
