#!/usr/bin/env python3
# unearth CLI tests — reads a .glb written by `convert` and checks an HSD model by the glTF rule:
# every skinned vertex = Σ w · World(joint node) · IBM · v, worked out here independently.
# Usage: hsd_glb.py FILE.glb COMMAND [ARGS]
#   has-point X Y Z       some skinned vertex lies within 1e-4 of (X, Y, Z)
#   bind-is-identity      World · IBM is the identity (1e-5) for every joint of every skin
#   skin-joints           the skin's joint names, in order, comma-separated
#   source NODE_NAME      the node's extras.unearth_source offset
#   extent                the largest |coordinate| of any skinned vertex
import json, math, struct, sys

def load(path):
    data = open(path, "rb").read()
    assert data[:4] == b"glTF", "not a GLB"
    n = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + n])
    at = 20 + n
    blen = struct.unpack_from("<I", data, at)[0]
    return doc, data[at + 8:at + 8 + blen]

def accessor(doc, binary, index):
    a = doc["accessors"][index]
    v = doc["bufferViews"][a["bufferView"]]
    comps = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"]]
    fmt = {5126: "f", 5125: "I", 5123: "H", 5121: "B"}[a["componentType"]]
    size = struct.calcsize(fmt)
    stride = v.get("byteStride", comps * size)
    base = v.get("byteOffset", 0) + a.get("byteOffset", 0)
    return [struct.unpack_from("<%d%s" % (comps, fmt), binary, base + i * stride) for i in range(a["count"])]

def mat_mul(a, b):  # column-major 4×4
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]

def quat_matrix(q):
    x, y, z, w = q
    return [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
            2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
            2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]

def local(node):
    t = node.get("translation", [0, 0, 0]); s = node.get("scale", [1, 1, 1])
    r = quat_matrix(node.get("rotation", [0, 0, 0, 1]))
    m = [0.0] * 16
    for c in range(3):
        for i in range(3):
            m[c * 4 + i] = r[c * 3 + i] * s[c]
    m[12:15] = t
    m[15] = 1.0
    return m

def worlds(doc):
    nodes = doc["nodes"]
    parent = {}
    for i, n in enumerate(nodes):
        for c in n.get("children", []):
            parent[c] = i
    out = {}
    def world(i):
        if i not in out:
            out[i] = mat_mul(world(parent[i]), local(nodes[i])) if i in parent else local(nodes[i])
        return out[i]
    for i in range(len(nodes)):
        world(i)
    return out

def skinned_points(doc, binary):
    w = worlds(doc)
    for node in doc["nodes"]:
        if "mesh" not in node or "skin" not in node:
            continue
        skin = doc["skins"][node["skin"]]
        ibm = accessor(doc, binary, skin["inverseBindMatrices"])
        joint_m = [mat_mul(w[j], list(ibm[k])) for k, j in enumerate(skin["joints"])]
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            at = prim["attributes"]
            pos = accessor(doc, binary, at["POSITION"])
            js = accessor(doc, binary, at["JOINTS_0"])
            ws = accessor(doc, binary, at["WEIGHTS_0"])
            for p, jj, ww in zip(pos, js, ws):
                acc = [0.0, 0.0, 0.0]
                for j, wt in zip(jj, ww):
                    m = joint_m[j]
                    for r in range(3):
                        acc[r] += wt * (m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
                yield acc

def main():
    doc, binary = load(sys.argv[1])
    cmd = sys.argv[2]
    if cmd == "has-point":
        want = [float(v) for v in sys.argv[3:6]]
        ok = any(all(abs(a - b) <= 1e-4 for a, b in zip(p, want)) for p in skinned_points(doc, binary))
        print("yes" if ok else "no")
    elif cmd == "bind-is-identity":
        w = worlds(doc)
        worst = 0.0
        for skin in doc["skins"]:
            ibm = accessor(doc, binary, skin["inverseBindMatrices"])
            for k, j in enumerate(skin["joints"]):
                m = mat_mul(w[j], list(ibm[k]))
                worst = max(worst, max(abs(m[i] - (1.0 if i % 5 == 0 else 0.0)) for i in range(16)))
        print("yes" if worst <= 1e-5 else "no %g" % worst)
    elif cmd == "skin-joints":
        print(",".join(doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]))
    elif cmd == "source":
        node = next(n for n in doc["nodes"] if n.get("name") == sys.argv[3])
        print(node["extras"]["unearth_source"]["offset"])
    elif cmd == "extent":
        print("%.6f" % max(max(abs(c) for c in p) for p in skinned_points(doc, binary)))

if __name__ == "__main__":
    main()
