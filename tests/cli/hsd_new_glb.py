#!/usr/bin/env python3
# unearth CLI tests — new HSD models from glTF (tests/cli/cli_hsd_new.sh): hand-made glTF scenes, and
# their triangles as drawn in world space, worked out here by the glTF rules alone.
# Usage: hsd_new_glb.py COMMAND ARGS
#   static OUT.gltf              a textured quad with alpha (BLEND, a 12 x 6 image), and a cube with vertex
#                                colours under a rotated, non-uniformly scaled parent; two root nodes
#   skinned12 OUT.gltf           a strip of 12 joints in a chain, one mesh whose vertices each follow two
#                                neighbouring joints, bent at rest (bones 8 and 10 rotated under bone 3's non-uniform
#                                scale; inverse binds of the straight chain), normals, its mesh node a child
#                                of bone 0, and a vertex below it with 6 influences (bones 0-5)
#   skinned-many OUT.gltf N      N separate triangles, every vertex its own two-joint envelope
#   smooth-tube OUT.gltf         a tube of 10,000 triangles around a chain of 40 joints curled 4 degrees each at
#                                rest (inverse binds of the straight chain), weights painted smoothly: a
#                                vertex at height t (joint units) and angle a weighs joint j by
#                                (1 - |t + d(a) - j| / 2)^2, d(a) = 0.05 sin a + 0.004 column, so every vertex
#                                is its own blend of 2 to 4 joints
#   rounded GLTF UNITS           the distinct envelopes of the skinned vertices after the rounding rule of
#                                docs/hsd-import.md (largest remainders in 1/UNITS), worked out here
#   smooth-check GLTF GLB UNITS REL  every skinned vertex of GLTF (its 4 largest weights renormalised) at rest is
#                                within 1/UNITS x D + REL x extent of a vertex of GLB, D the largest distance
#                                between its joints' transforms of it, with every weight within 1/UNITS of the
#                                glTF's and a whole number of 1/UNITS; prints vertices, the largest error and
#                                the largest error over its bound
#   confetti OUT.gltf N          N separate triangles on a 200-wide grid (3N vertices, no position twice), every
#                                vertex weighted wholly to bone0 of a two-bone chain
#   skinned-own OUT.gltf N       N separate triangles, every vertex weighted wholly to a joint of its own (3N
#                                joints, children of one root)
#   two-skins OUT.gltf           two skinned meshes whose skins bind bone 1 with different matrices
#   split GLTF [UNITS]           the envelopes of every vertex (4 largest weights, renormalised, rounded to 1/UNITS,
#                                default 64) and
#                                the PObjs the split rule of docs/hsd-import.md makes of each primitive:
#                                "PObjs N: matrices per PObj", worked out here
#   dat-pobjs DAT                the DAT read here from the spec: every ENVELOPE PObj's envelope count, the
#                                root joint's flags, and how many joints are SKELETON with an inverse bind
#   weights GLB X Y Z            the joint names and weights of the skinned vertex at (X, Y, Z)
#   many OUT.gltf N              one mesh of N primitives, one triangle each (N PObjs)
#   same A B REL                 every triangle of A (world space: node matrices, skins Σ w·World·IBM)
#                                has its own triangle in B with the same winding and every corner within
#                                REL × the model's extent, and the counts agree; prints the count
#   materials GLB                every material's baseColorFactor (4 decimals) and alphaMode, one a line, sorted
#   image-size GLB I             image I's width x height (its PNG header)
import base64, json, math, struct, sys, zlib

sys.path.insert(0, __import__("os").path.dirname(__file__))
from hsd_glb import accessor, load, mat_mul, worlds  # noqa: E402

def png(w, h, rgba):
    raw = b"".join(b"\0" + bytes(rgba[y * w * 4:(y + 1) * w * 4]) for y in range(h))
    def chunk(t, d):
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))

class Builder:
    def __init__(self):
        self.bin = bytearray()
        self.doc = {"asset": {"version": "2.0"}, "buffers": [], "bufferViews": [], "accessors": [],
                    "nodes": [], "meshes": [], "materials": [], "scenes": [{"nodes": []}], "scene": 0}

    def add(self, fmt, rows, gltf_type, ctype, target=None):
        while len(self.bin) % 4:
            self.bin.append(0)
        start = len(self.bin)
        for r in rows:
            self.bin += struct.pack("<" + fmt, *r)
        view = {"buffer": 0, "byteOffset": start, "byteLength": len(self.bin) - start}
        if target:
            view["target"] = target
        self.doc["bufferViews"].append(view)
        acc = {"bufferView": len(self.doc["bufferViews"]) - 1, "componentType": ctype, "count": len(rows),
               "type": gltf_type}
        if gltf_type == "VEC3" and fmt == "3f":
            acc["min"] = [min(r[k] for r in rows) for k in range(3)]
            acc["max"] = [max(r[k] for r in rows) for k in range(3)]
        self.doc["accessors"].append(acc)
        return len(self.doc["accessors"]) - 1

    def mesh(self, name, attrs, tris, material):
        wide = max(max(t) for t in tris) > 65535
        prim = {"attributes": attrs, "indices": self.add("3I" if wide else "3H", tris, "SCALAR", 5125 if wide else 5123, 34963),
                "material": material}
        for a in self.doc["accessors"][prim["indices"]:prim["indices"] + 1]:
            a["count"] *= 3
        self.doc["meshes"].append({"name": name, "primitives": [prim]})
        return len(self.doc["meshes"]) - 1

    def node(self, **kw):
        self.doc["nodes"].append(kw)
        return len(self.doc["nodes"]) - 1

    def save(self, path):
        self.doc["buffers"] = [{"byteLength": len(self.bin),
                                "uri": "data:application/octet-stream;base64," + base64.b64encode(self.bin).decode()}]
        open(path, "w").write(json.dumps(self.doc, indent=1))

def cmd_static(args):
    b = Builder()
    # The quad's image: 12 x 6, opaque red on the left half, half-transparent blue on the right.
    w, h = 12, 6
    rgba = []
    for y in range(h):
        for x in range(w):
            rgba += [255, 0, 0, 255] if x < 6 else [0, 0, 255, 128]
    b.doc["images"] = [{"uri": "data:image/png;base64," + base64.b64encode(png(w, h, rgba)).decode()}]
    b.doc["textures"] = [{"source": 0}]
    b.doc["materials"] = [
        {"name": "glass", "pbrMetallicRoughness": {"baseColorFactor": [1, 1, 1, 0.75], "baseColorTexture": {"index": 0}},
         "alphaMode": "BLEND", "doubleSided": True},
        {"name": "paint", "pbrMetallicRoughness": {"baseColorFactor": [0.5, 0.25, 1, 1]}}]
    quad_pos = [(-1, 0, 0), (1, 0, 0), (1, 1.5, 0), (-1, 1.5, 0)]
    quad = b.mesh("quad", {"POSITION": b.add("3f", quad_pos, "VEC3", 5126),
                           "NORMAL": b.add("3f", [(0, 0, 1)] * 4, "VEC3", 5126),
                           "TEXCOORD_0": b.add("2f", [(0, 1), (1, 1), (1, 0), (0, 0)], "VEC2", 5126)},
                  [(0, 1, 2), (0, 2, 3)], 0)
    # The cube: 24 vertices (4 per face), a colour per face, outward normals, counter-clockwise.
    pos, nrm, col, tris = [], [], [], []
    faces = [((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((-1, 0, 0), (0, 0, 1), (0, 1, 0)),
             ((0, 1, 0), (0, 0, 1), (1, 0, 0)), ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (0, 1, 0), (1, 0, 0))]
    colours = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 0, 1), (0.2, 0.4, 0.6, 1), (1, 1, 1, 1)]
    for f, (n, u, v) in enumerate(faces):
        base = len(pos)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            pos.append(tuple(0.5 * (n[k] + su * u[k] + sv * v[k]) for k in range(3)))
            nrm.append(n)
            col.append(colours[f])
        tris += [(base, base + 1, base + 2), (base, base + 2, base + 3)]
    cube = b.mesh("cube", {"POSITION": b.add("3f", pos, "VEC3", 5126), "NORMAL": b.add("3f", nrm, "VEC3", 5126),
                           "COLOR_0": b.add("4f", col, "VEC4", 5126)}, tris, 1)
    s = math.sqrt(0.5)
    cube_node = b.node(name="cube", mesh=cube, translation=[0.25, 0.5, 0], rotation=[0, s, 0, s])
    b.node(name="holder", children=[cube_node], translation=[3, 0, 0], rotation=[s, 0, 0, s], scale=[2, 1, 0.5])
    b.node(name="quad", mesh=quad, translation=[0, 0, -1])
    b.doc["scenes"][0]["nodes"] = [1, 2]
    b.save(args[0])

def chain(b, joints, rotations=None, scales=None, children=None):
    """Bones 0 … joints-1 in a chain, each 1 up from its parent; the index of bone 0."""
    first = len(b.doc["nodes"])
    for i in range(joints):
        n = {"name": "bone%d" % i, "translation": [0, 0 if i == 0 else 1, 0]}
        if rotations and i in rotations:
            n["rotation"] = rotations[i]
        if scales and i in scales:
            n["scale"] = scales[i]
        kids = ([first + i + 1] if i + 1 < joints else []) + ((children or {}).get(i, []))
        if kids:
            n["children"] = kids
        b.node(**n)
    return first

def straight_ibms(joints, scales):
    """The inverse world matrices of the unrotated chain (column-major), scales kept."""
    out, sx, sy, sz, y = [], 1.0, 1.0, 1.0, 0.0
    for i in range(joints):
        if i:
            y += sy  # the parent's scale applies to the child's translation
        s = scales.get(i, [1, 1, 1])
        sx, sy, sz = sx * s[0], sy * s[1], sz * s[2]
        out.append((1 / sx, 0, 0, 0, 0, 1 / sy, 0, 0, 0, 0, 1 / sz, 0, 0, -y / sy, 0, 1))
    return out

def cmd_skinned12(args):
    b = Builder()
    joints = 12
    pos, nrm, js, ws, js1, ws1, tris = [], [], [], [], [], [], []
    for i in range(joints + 1):
        for x in (-0.5, 0.5):
            pos.append((x, float(i), 0))
            j = min(i, joints - 1)
            js.append((j, max(j - 1, 0), 0, 0))
            ws.append((0.75, 0.25, 0, 0) if 0 < i < joints else (1, 0, 0, 0))
    for i in range(joints):
        a = 2 * i
        tris += [(a, a + 1, a + 3), (a, a + 3, a + 2)]
    js1 = [(0, 0, 0, 0)] * len(pos)
    ws1 = [(0, 0, 0, 0)] * len(pos)
    pos.append((0, -1, 0))  # six influences; bones 0-5 are at their bind pose, so the place is the same
    js.append((0, 1, 2, 3))
    ws.append((0.3, 0.25, 0.2, 0.15))
    js1.append((4, 5, 0, 0))
    ws1.append((0.06, 0.04, 0, 0))
    tris.append((0, len(pos) - 1, 1))
    nrm = [(0, 0, 1)] * len(pos)
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("strip", {"POSITION": b.add("3f", pos, "VEC3", 5126), "NORMAL": b.add("3f", nrm, "VEC3", 5126),
                            "JOINTS_0": b.add("4H", js, "VEC4", 5123), "WEIGHTS_0": b.add("4f", ws, "VEC4", 5126),
                            "JOINTS_1": b.add("4H", js1, "VEC4", 5123), "WEIGHTS_1": b.add("4f", ws1, "VEC4", 5126)},
                  tris, 0)
    # Quaternions of 20 degrees about z and 15 degrees about x (half angles).
    z20 = [0, 0, math.sin(math.radians(10)), math.cos(math.radians(10))]
    x15 = [math.sin(math.radians(7.5)), 0, 0, math.cos(math.radians(7.5))]
    scales = {3: [1.25, 1, 0.8]}
    skinned = joints  # the mesh node comes right after the chain
    first = chain(b, joints, {8: z20, 10: x15}, scales, {0: [skinned]})
    b.doc["skins"] = [{"joints": list(range(first, first + joints)),
                       "inverseBindMatrices": b.add("16f", straight_ibms(joints, scales), "MAT4", 5126)}]
    b.node(name="strip", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [first]
    b.save(args[0])

def cmd_skinned_many(args):
    b = Builder()
    n = int(args[1])
    pos, js, ws, tris = [], [], [], []
    for t in range(n):
        for k, (x, y) in enumerate(((0, 0), (1, 0), (0, 1))):
            v = 3 * t + k
            pos.append((x + 2 * t, y, 0))
            js.append((0, 1, 0, 0))
            a = (v + 1) / 8192  # a weight of its own: no two vertices share an envelope
            ws.append((a, 1 - a, 0, 0))
        tris.append((3 * t, 3 * t + 1, 3 * t + 2))
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("tris", {"POSITION": b.add("3f", pos, "VEC3", 5126), "JOINTS_0": b.add("4H", js, "VEC4", 5123),
                           "WEIGHTS_0": b.add("4f", ws, "VEC4", 5126)}, tris, 0)
    first = chain(b, 2)
    b.doc["skins"] = [{"joints": [first, first + 1]}]
    b.node(name="tris", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [first, first + 2]
    b.save(args[0])

def cmd_confetti(args):
    b = Builder()
    n = int(args[1])
    pos, tris = [], []
    for t in range(n):
        x, y = 0.01 * (t % 200), 0.01 * (t // 200)
        pos += [(x, y, 0), (x + 0.005, y, 0), (x, y + 0.005, 0)]
        tris.append((3 * t, 3 * t + 1, 3 * t + 2))
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("confetti", {"POSITION": b.add("3f", pos, "VEC3", 5126),
                               "JOINTS_0": b.add("4H", [(0, 0, 0, 0)] * len(pos), "VEC4", 5123),
                               "WEIGHTS_0": b.add("4f", [(1, 0, 0, 0)] * len(pos), "VEC4", 5126)}, tris, 0)
    first = chain(b, 2)
    b.doc["skins"] = [{"joints": [first, first + 1]}]
    b.node(name="confetti", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [first, first + 2]
    b.save(args[0])

def cmd_flat_skin(args):
    """A root and N joints side by side under it, all in the skin, the first 10 drawing a triangle
    each (weighing it alone); with "twice" the skin lists its last joint a second time."""
    b = Builder()
    n = int(args[1])
    pos, js, ws, tris = [], [], [], []
    for j in range(min(n, 10)):
        for x, y in ((0, 0), (1, 0), (0, 1)):
            pos.append((x, y, 0))
            js.append((j, 0, 0, 0))
            ws.append((1, 0, 0, 0))
        tris.append((3 * j, 3 * j + 1, 3 * j + 2))
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("tris", {"POSITION": b.add("3f", pos, "VEC3", 5126), "JOINTS_0": b.add("4H", js, "VEC4", 5123),
                           "WEIGHTS_0": b.add("4f", ws, "VEC4", 5126)}, tris, 0)
    b.node(name="root", children=list(range(1, n + 1)))
    for j in range(n):
        b.node(name="j%d" % j, translation=[2.0 * (j % 200), 2.0 * (j // 200), 0])
    joints = list(range(1, n + 1)) + ([n] if len(args) > 2 and args[2] == "twice" else [])
    b.doc["skins"] = [{"joints": joints}]
    b.node(name="tris", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [0, n + 1]
    b.save(args[0])

def cmd_own_envelopes(args):
    """N triangles, each of its own 3-joint envelope (weights that no other triangle has) over 40
    joints side by side under a root: the split and the coarser steps at their largest."""
    b = Builder()
    n = int(args[1])
    pos, js, ws, tris = [], [], [], []
    for t in range(n):
        a = 0.2 + 0.3 * (t % 997) / 997
        c = 0.1 + 0.2 * (t // 997) / (n // 997 + 1)
        for x, y in ((0, 0), (1, 0), (0, 1)):
            pos.append((x + 2 * (t % 300), y + 2 * (t // 300), 0))
            js.append((t % 40, (t + 7) % 40, (t + 19) % 40, 0))
            ws.append((a, c, 1 - a - c, 0))
        tris.append((3 * t, 3 * t + 1, 3 * t + 2))
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("tris", {"POSITION": b.add("3f", pos, "VEC3", 5126), "JOINTS_0": b.add("4H", js, "VEC4", 5123),
                           "WEIGHTS_0": b.add("4f", ws, "VEC4", 5126)}, tris, 0)
    b.node(name="root", children=list(range(1, 41)))
    for j in range(40):
        b.node(name="j%d" % j, translation=[float(j), 0, 0])
    b.doc["skins"] = [{"joints": list(range(1, 41))}]
    b.node(name="tris", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [0, 41]
    b.save(args[0])

def cmd_smooth_tube(args):
    b = Builder()
    joints, rows, cols = 40, 50, 100
    pos, nrm, js, ws, tris = [], [], [], [], []
    for r in range(rows + 1):
        for c in range(cols + 1):
            a = 2 * math.pi * c / cols
            t = r * (joints - 1) / rows
            pos.append((math.cos(a), t, math.sin(a)))
            nrm.append((math.cos(a), 0, math.sin(a)))
            u = t + 0.05 * math.sin(a) + 0.004 * c
            near = sorted(((max(0.0, 1 - abs(u - j) / 2) ** 2, j) for j in range(joints)), reverse=True)[:4]
            js.append(tuple(j for _, j in near))
            total = sum(w for w, _ in near)
            ws.append(tuple(w / total for w, _ in near))
    for r in range(rows):
        for c in range(cols):
            a = r * (cols + 1) + c
            tris += [(a, a + cols + 1, a + 1), (a + 1, a + cols + 1, a + cols + 2)]
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("tube", {"POSITION": b.add("3f", pos, "VEC3", 5126), "NORMAL": b.add("3f", nrm, "VEC3", 5126),
                           "JOINTS_0": b.add("4H", js, "VEC4", 5123), "WEIGHTS_0": b.add("4f", ws, "VEC4", 5126)},
                  tris, 0)
    z4 = [0, 0, math.sin(math.radians(2)), math.cos(math.radians(2))]
    first = chain(b, joints, {i: z4 for i in range(1, joints)})
    b.doc["skins"] = [{"joints": list(range(first, first + joints)),
                       "inverseBindMatrices": b.add("16f", straight_ibms(joints, {}), "MAT4", 5126)}]
    b.node(name="tube", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [first, first + joints]
    b.save(args[0])

def rounded(env, units):
    """The rule: floor of w x units, the units left over to the largest remainders (earlier joint on a tie)."""
    total = sum(w for _, w in env)
    x = [w / total * units for _, w in env]
    u = [math.floor(v) for v in x]
    for k in sorted(range(len(x)), key=lambda k: (-(x[k] - u[k]), k))[:units - sum(u)]:
        u[k] += 1
    kept = sorted(((n, j) for (j, _), n in zip(env, u) if n), key=lambda nj: (-nj[0], nj[1]))
    return tuple((j, n / units) for n, j in kept)

def skinned_vertices(path):
    """Per skinned vertex: its rest position, its envelope (rule of `envelope`, joints as node names)
    and the joints' skin matrices World x IBM."""
    doc, binary = load_any(path)
    w = worlds(doc)
    out = []
    for node in doc["nodes"]:
        if "skin" not in node:
            continue
        skin = doc["skins"][node["skin"]]
        ibm = (accessor(doc, binary, skin["inverseBindMatrices"]) if "inverseBindMatrices" in skin
               else [(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)] * len(skin["joints"]))
        jm = {doc["nodes"][j]["name"]: mat_mul(w[j], list(ibm[k])) for k, j in enumerate(skin["joints"])}
        names = [doc["nodes"][j]["name"] for j in skin["joints"]]
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            at = prim["attributes"]
            pos = accessor(doc, binary, at["POSITION"])
            js, ws = accessor(doc, binary, at["JOINTS_0"]), accessor(doc, binary, at["WEIGHTS_0"])
            for p, j, wt in zip(pos, js, ws):
                env = envelope([names[k] for k in j], wt)
                out.append((p, env, jm))
    return out

def apply(m, p):
    return [sum(m[c * 4 + r] * (list(p) + [1])[c] for c in range(3)) + m[12 + r] for r in range(3)]

def cmd_rounded(args):
    units, seen = int(args[1]), set()
    for _, env, _ in skinned_vertices(args[0]):
        seen.add(rounded(env, units))
    print(len(seen))

def cmd_smooth_check(args):
    units, rel = int(args[2]), float(args[3])
    back = []
    for p, env, jm in skinned_vertices(args[1]):
        q = [sum(w * apply(jm[j], p)[r] for j, w in env) for r in range(3)]
        back.append((q, dict(env)))
    extent = max(abs(c) for q, _ in back for c in q)
    tol = rel * extent
    grid = {}
    for i, (q, _) in enumerate(back):
        grid.setdefault(tuple(int(math.floor(c / 0.25)) for c in q), []).append(i)
    worst, worst_ratio, n = 0.0, 0.0, 0
    for p, env, jm in skinned_vertices(args[0]):
        pts = [apply(jm[j], p) for j, _ in env]
        want = [sum(w * pt[r] for (_, w), pt in zip(env, pts)) for r in range(3)]
        spread = max(math.dist(a, c) for a in pts for c in pts)
        bound = spread / units + tol
        cell = tuple(int(math.floor(c / 0.25)) for c in want)
        best = None
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for i in grid.get((cell[0] + dx, cell[1] + dy, cell[2] + dz), []):
                        d = math.dist(want, back[i][0])
                        if best is None or d < best[0]:
                            best = (d, i)
        assert best and best[0] <= bound, "vertex %s at %s: nearest back %s, bound %g" % (n, want, best, bound)
        got = back[best[1]][1]
        for j in set(got) | {j for j, _ in env}:
            w0, w1 = dict(env).get(j, 0.0), got.get(j, 0.0)
            assert abs(w0 - w1) <= 1 / units + 1e-6, "vertex %d joint %s: weight %g back as %g" % (n, j, w0, w1)
            assert abs(w1 * units - round(w1 * units)) < 1e-4, "vertex %d joint %s: %g not in 1/%d" % (n, j, w1, units)
        worst = max(worst, best[0])
        worst_ratio = max(worst_ratio, best[0] / bound)
        n += 1
    assert len(back) >= n, "%d vertices back for %d" % (len(back), n)
    print("%d vertices, largest error %.5f, largest error over its bound %.3f" % (n, worst, worst_ratio))

def cmd_skinned_own(args):
    b = Builder()
    n = int(args[1])
    pos = [(x + 2 * t, y, 0) for t in range(n) for x, y in ((0, 0), (1, 0), (0, 1))]
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("tris", {"POSITION": b.add("3f", pos, "VEC3", 5126),
                           "JOINTS_0": b.add("4H", [(v, 0, 0, 0) for v in range(3 * n)], "VEC4", 5123),
                           "WEIGHTS_0": b.add("4f", [(1, 0, 0, 0)] * (3 * n), "VEC4", 5126)},
                  [(3 * t, 3 * t + 1, 3 * t + 2) for t in range(n)], 0)
    root = b.node(name="root", children=list(range(1, 3 * n + 1)))
    for v in range(3 * n):
        b.node(name="j%d" % v)
    b.doc["skins"] = [{"joints": list(range(1, 3 * n + 1))}]
    b.node(name="tris", mesh=mesh, skin=0)
    b.doc["scenes"][0]["nodes"] = [root, 3 * n + 1]
    b.save(args[0])

def cmd_two_skins(args):
    b = Builder()
    pos = b.add("3f", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], "VEC3", 5126)
    js = b.add("4H", [(1, 0, 0, 0)] * 3, "VEC4", 5123)
    ws = b.add("4f", [(1, 0, 0, 0)] * 3, "VEC4", 5126)
    b.doc["materials"] = [{"name": "m"}]
    mesh = b.mesh("tri", {"POSITION": pos, "JOINTS_0": js, "WEIGHTS_0": ws}, [(0, 1, 2)], 0)
    first = chain(b, 2)
    ident = (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
    moved = (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1)
    b.doc["skins"] = [{"joints": [first, first + 1], "inverseBindMatrices": b.add("16f", [ident, moved], "MAT4", 5126)},
                      {"joints": [first, first + 1], "inverseBindMatrices": b.add("16f", [ident, ident], "MAT4", 5126)}]
    a = b.node(name="a", mesh=mesh, skin=0)
    c = b.node(name="c", mesh=mesh, skin=1)
    b.doc["scenes"][0]["nodes"] = [first, a, c]
    b.save(args[0])

def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]

def envelope(joints, weights):
    """The 4 largest weights (lower joint on a tie), merged per joint, renormalised; one joint when
    the largest reaches 1 - 2^-23."""
    acc = {}
    for j, w in zip(joints, weights):
        if w > 0:
            acc[j] = acc.get(j, 0.0) + w
    kept = sorted(acc.items(), key=lambda jw: (-jw[1], jw[0]))[:4]
    total = sum(w for _, w in kept)
    env = [(j, f32(w / total)) for j, w in kept]
    if env[0][1] >= 1 - 2 ** -23:
        env = [(env[0][0], 1.0)]
    return tuple(env)

def split(tri_env, max_slots=10):
    """The PObjs of the rule: a PObj is seeded by the first triangle not yet placed; a pass over its
    frontier (triangles with a corner it has), in order, takes every triangle it covers and remembers
    the first other that fits with the fewest new envelopes; that one joins and passes repeat; when
    none there fits, the first triangle left joins if it fits."""
    placed, pobjs = [False] * len(tri_env), []
    while not all(placed):
        seed = placed.index(False)
        have, best = [], seed
        while best is not None:
            have += [e for e in dict.fromkeys(tri_env[best]) if e not in have]
            placed[best] = True
            best, best_new = None, 4
            for t in range(len(tri_env)):
                if placed[t] or not any(e in have for e in tri_env[t]):
                    continue
                new = [e for e in dict.fromkeys(tri_env[t]) if e not in have]
                if not new:
                    placed[t] = True
                elif len(have) + len(new) <= max_slots and len(new) < best_new:
                    best, best_new = t, len(new)
            if best is None and not all(placed):  # the first triangle left, if it fits
                t = placed.index(False)
                if len(have) + len([e for e in dict.fromkeys(tri_env[t]) if e not in have]) <= max_slots:
                    best = t
        pobjs.append(len(have))
    return pobjs

def cmd_split(args):
    doc, binary = load_any(args[0])
    units = int(args[1]) if len(args) > 1 else 64
    out = []
    for node in doc["nodes"]:
        if "skin" not in node:
            continue
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            at = prim["attributes"]
            sets = [(accessor(doc, binary, at["JOINTS_%d" % k]), accessor(doc, binary, at["WEIGHTS_%d" % k]))
                    for k in range(2) if "JOINTS_%d" % k in at]
            envs = {}
            ids = []
            for v in range(len(sets[0][0])):
                e = rounded(envelope([j for js, _ in sets for j in js[v]], [w for _, ws in sets for w in ws[v]]), units)
                ids.append(envs.setdefault(e, len(envs)))
            idx = [i[0] for i in accessor(doc, binary, prim["indices"])]
            out += split([tuple(ids[i] for i in idx[t:t + 3]) for t in range(0, len(idx), 3)])
    print("PObjs %d: %s" % (len(out), " ".join(map(str, out))))

def cmd_dat_pobjs(args):
    d = open(args[0], "rb").read()
    data_size, nb_reloc = struct.unpack_from(">II", d, 4)
    data = d[0x20:0x20 + data_size]
    u32 = lambda off: struct.unpack_from(">I", data, off)[0]
    public = 0x20 + data_size + 4 * nb_reloc
    scene = struct.unpack_from(">I", d, public)[0]
    root = u32(u32(u32(scene)))  # SceneDesc → ModelSet*[0] → ModelSet.root
    counts, skeleton, stack = [], 0, [root]
    while stack:
        j = stack.pop()
        flags = u32(j + 4)
        skeleton += bool(flags & 1 and u32(j + 0x38))
        dobj = u32(j + 0x10) if not flags & 0x4020 else 0
        while dobj:
            pobj = u32(dobj + 0xC)
            while pobj:
                if struct.unpack_from(">H", data, pobj + 0xC)[0] & 0x3000 == 0x2000:
                    lst, n = u32(pobj + 0x14), 0
                    while u32(lst + 4 * n):
                        n += 1
                    counts.append(n)
                pobj = u32(pobj + 4)
            dobj = u32(dobj + 4)
        for nxt in (u32(j + 0xC), u32(j + 8)):  # child popped first: pre-order
            if nxt:
                stack.append(nxt)
    print("PObjs %d: %s" % (len(counts), " ".join(map(str, counts))))
    print("root flags SKELETON_ROOT %d ENVELOPE_MODEL %d SKELETON %d" % (bool(u32(root + 4) & 2), bool(u32(root + 4) & 4),
                                                                         bool(u32(root + 4) & 1)))
    print("skeleton joints with inverse binds %d" % skeleton)

def cmd_weights(args):
    doc, binary = load_any(args[0])
    want = [float(a) for a in args[1:4]]
    for node in doc["nodes"]:
        if "skin" not in node:
            continue
        names = [doc["nodes"][j]["name"] for j in doc["skins"][node["skin"]]["joints"]]
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            at = prim["attributes"]
            pos = accessor(doc, binary, at["POSITION"])
            js, ws = accessor(doc, binary, at["JOINTS_0"]), accessor(doc, binary, at["WEIGHTS_0"])
            for p, j, w in zip(pos, js, ws):
                if all(abs(p[k] - want[k]) < 1e-4 for k in range(3)):
                    print(" ".join("%s:%.4f" % (names[jj], ww) for jj, ww in zip(j, w) if ww > 0))
                    return
    sys.exit("no skinned vertex at %s" % args[1:4])

def cmd_many(args):
    b = Builder()
    n = int(args[1])
    b.doc["materials"] = [{"name": "m"}]
    pos = b.add("3f", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], "VEC3", 5126)
    idx = b.add("3H", [(0, 1, 2)], "SCALAR", 5123, 34963)
    b.doc["accessors"][idx]["count"] = 3
    b.doc["meshes"] = [{"name": "many", "primitives": [{"attributes": {"POSITION": pos}, "indices": idx, "material": 0}] * n}]
    b.node(name="many", mesh=0)
    b.doc["scenes"][0]["nodes"] = [0]
    b.save(args[0])

def load_any(path):
    if path.endswith(".glb"):
        return load(path)
    doc = json.load(open(path))
    uri = doc["buffers"][0]["uri"]
    return doc, base64.b64decode(uri.split(",", 1)[1])

def world_triangles(path):
    doc, binary = load_any(path)
    w = worlds(doc)
    out = []
    for ni, node in enumerate(doc["nodes"]):
        if "mesh" not in node:
            continue
        skin = doc["skins"][node["skin"]] if "skin" in node else None
        if skin:
            ibm = (accessor(doc, binary, skin["inverseBindMatrices"]) if "inverseBindMatrices" in skin
               else [(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)] * len(skin["joints"]))
            jm = [mat_mul(w[j], list(ibm[k])) for k, j in enumerate(skin["joints"])]
        for prim in doc["meshes"][node["mesh"]]["primitives"]:
            at = prim["attributes"]
            pos = accessor(doc, binary, at["POSITION"])
            if skin:
                js, ws = accessor(doc, binary, at["JOINTS_0"]), accessor(doc, binary, at["WEIGHTS_0"])
                if "JOINTS_1" in at:
                    js1, ws1 = accessor(doc, binary, at["JOINTS_1"]), accessor(doc, binary, at["WEIGHTS_1"])
                    js, ws = [a + c for a, c in zip(js, js1)], [a + c for a, c in zip(ws, ws1)]
                mats = []
                for jj, ww in zip(js, ws):
                    mats.append([sum(ww[k] * jm[jj[k]][e] for k in range(len(jj))) for e in range(16)])
            else:
                mats = [w[ni]] * len(pos)
            pts = [tuple(sum(m[c * 4 + r] * (list(p) + [1])[c] for c in range(4)) for r in range(3))
                   for p, m in zip(pos, mats)]
            idx = [i[0] for i in accessor(doc, binary, prim["indices"])] if "indices" in prim else list(range(len(pts)))
            for t in range(0, len(idx), 3):
                out.append([pts[idx[t]], pts[idx[t + 1]], pts[idx[t + 2]]])
    return out

def cmd_same(args):
    print(same_triangles(world_triangles(args[0]), world_triangles(args[1]), float(args[2]), args[0], args[1]))

def euler_zyx(rx, ry, rz):
    """R = Rz·Ry·Rx as rows."""
    cx, sx, cy, sy, cz, sz = math.cos(rx), math.sin(rx), math.cos(ry), math.sin(ry), math.cos(rz), math.sin(rz)
    return [[cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
            [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx],
            [-sy, cy * sx, cy * cx]]

def dat_joint_worlds(u32, f32, root):
    """Every JObj's world matrix (column-major) by the runtime's rule, read from the DAT's own SRTs:
    Local = [P⁻¹·R·diag(scale)·P | translation], P the parent's accumulated scale."""
    worlds, stack = {}, [(root, None, None)]
    while stack:
        j, parent, pscl = stack.pop()
        rot = [f32(j + 0x14 + 4 * k) for k in range(3)]
        scale = [f32(j + 0x20 + 4 * k) for k in range(3)]
        trans = [f32(j + 0x2C + 4 * k) for k in range(3)]
        classical = u32(j + 4) & 8
        r, p = euler_zyx(*rot), pscl or [1, 1, 1]
        local = [0.0] * 16
        for c in range(3):
            for i in range(3):
                local[c * 4 + i] = r[i][c] * scale[c] * p[c] / p[i]
            local[12 + c] = trans[c]
        local[15] = 1
        worlds[j] = mat_mul(worlds[parent], local) if parent else local
        if classical:
            scl = pscl
        else:
            scl = [scale[k] * (pscl[k] if pscl else 1) for k in range(3)]
        for nxt, par, ps in ((u32(j + 0xC), parent, pscl), (u32(j + 8), j, scl)):
            if nxt:
                stack.append((nxt, par, ps))
    return worlds

def dat_skinned_triangles(path):
    """Every triangle of a new model's envelope PObjs where the runtime draws it at rest, from the
    DAT's bytes alone: PNMTXIDX picks the envelope, M = W(j) for one joint (a SKELETON_ROOT owner,
    no R) or Σ w·W(j)·IB(j) (IB stored 3×4, rows), the stored position through M."""
    d = open(path, "rb").read()
    data_size, nb_reloc = struct.unpack_from(">II", d, 4)
    data = d[0x20:0x20 + data_size]
    u32 = lambda off: struct.unpack_from(">I", data, off)[0]
    u16 = lambda off: struct.unpack_from(">H", data, off)[0]
    f32 = lambda off: struct.unpack_from(">f", data, off)[0]
    root = u32(u32(u32(struct.unpack_from(">I", d, 0x20 + data_size + 4 * nb_reloc)[0])))
    worlds = dat_joint_worlds(u32, f32, root)
    def skin_matrix(j):
        ib = u32(j + 0x38)
        m = [f32(ib + 4 * (row * 4 + col)) for col in range(4) for row in range(3)]
        ibm = [m[3 * c + r] if r < 3 else float(c == 3) for c in range(4) for r in range(4)]
        return mat_mul(worlds[j], ibm)
    assert u32(root + 4) & 2, "the owner is not SKELETON_ROOT"
    out, dobj = [], u32(root + 0x10)
    while dobj:
        pobj = u32(dobj + 0xC)
        while pobj:
            assert u16(pobj + 0xC) & 0x3000 == 0x2000, "not an envelope PObj"
            mats, lst, k = [], u32(pobj + 0x14), 0
            while u32(lst + 4 * k):
                env, i, m = u32(lst + 4 * k), 0, [0.0] * 16
                pairs = []
                while u32(env + 8 * i):
                    pairs.append((u32(env + 8 * i), f32(env + 8 * i + 4)))
                    i += 1
                if pairs[0][1] >= 1 - 2 ** -23:
                    m = worlds[pairs[0][0]]
                else:
                    for j, w in pairs:
                        m = [a + w * b for a, b in zip(m, skin_matrix(j))]
                mats.append(m)
                k += 1
            # Descriptors: PNMTXIDX direct (1 byte), the rest indexed (1 or 2 bytes); positions read.
            at, rec, pos_at, pos_desc = u32(pobj + 8), 0, None, None
            while u32(at) != 0xFF:
                attr, kind = u32(at), u32(at + 4)
                if attr == 9:
                    pos_at, pos_desc = rec, at
                rec += 1 if kind in (1, 2) else 2
                at += 0x18
            kind, ctype, frac, stride, arr = (u32(pos_desc + 4), u32(pos_desc + 0xC), data[pos_desc + 0x10],
                                              u16(pos_desc + 0x12), u32(pos_desc + 0x14))
            fmt, size = {0: ("B", 1), 1: ("b", 1), 2: ("H", 2), 3: ("h", 2), 4: ("f", 4)}[ctype]
            def position(i):
                raw = struct.unpack_from(">3" + fmt, data, arr + stride * i)
                return [c if ctype == 4 else c / (1 << frac) for c in raw]
            dl, end = u32(pobj + 0x10), u32(pobj + 0x10) + 32 * u16(pobj + 0xE)
            while dl < end and data[dl]:
                op, n = data[dl] & 0xF8, u16(dl + 1)
                verts = []
                for v in range(n):
                    r = dl + 3 + rec * v
                    idx = data[r + pos_at] if kind == 2 else u16(r + pos_at)
                    verts.append(apply(mats[data[r] // 3], position(idx)))
                dl += 3 + rec * n
                assert op in (0x90, 0x98), "display list command %#x" % op
                tris = ([verts[i:i + 3] for i in range(0, n, 3)] if op == 0x90 else
                        [[verts[i], verts[i + 1], verts[i + 2]] if i % 2 == 0 else [verts[i + 1], verts[i], verts[i + 2]]
                         for i in range(n - 2)])
                out += [[t[0], t[2], t[1]] for t in tris]  # GX winding is clockwise: glTF's reversed
            pobj = u32(pobj + 4)
        dobj = u32(dobj + 4)
    return out

def cmd_dat_same(args):
    """The DAT's triangles as its bytes place them (dat_skinned_triangles) against the glTF's skinned rest."""
    print(same_triangles(dat_skinned_triangles(args[0]), world_triangles(args[1]), float(args[2]), args[0], args[1]))

def same_triangles(a, b, rel, a_name, b_name):
    extent = max(abs(c) for t in a for p in t for c in p)
    tol = rel * max(extent, 1e-9)
    assert len(a) == len(b), "%d triangles in %s, %d in %s" % (len(a), a_name, len(b), b_name)
    def close(p, q):
        return all(abs(p[k] - q[k]) <= tol for k in range(3))
    used = [False] * len(b)
    for t in a:
        found = False
        for j, u in enumerate(b):
            if used[j]:
                continue
            for rot in range(3):  # the same winding, any first corner
                if all(close(t[k], u[(k + rot) % 3]) for k in range(3)):
                    found = True
                    break
            if found:
                used[j] = True
                break
        assert found, "no partner within %g for triangle %s" % (tol, t)
    return len(a)

def cmd_materials(args):
    doc, _ = load_any(args[0])
    lines = []
    for m in doc["materials"]:
        f = m.get("pbrMetallicRoughness", {}).get("baseColorFactor", [1, 1, 1, 1])
        lines.append(",".join("%.4f" % v for v in f) + " " + m.get("alphaMode", "OPAQUE"))
    print("\n".join(sorted(lines)))

def cmd_image_size(args):
    doc, binary = load_any(args[0])
    im = doc["images"][int(args[1])]
    v = doc["bufferViews"][im["bufferView"]]
    head = binary[v.get("byteOffset", 0):v.get("byteOffset", 0) + 24]
    print("%dx%d" % struct.unpack(">II", head[16:24]))

if __name__ == "__main__":
    {"static": cmd_static, "many": cmd_many, "skinned12": cmd_skinned12,
     "skinned-many": cmd_skinned_many, "confetti": cmd_confetti, "smooth-tube": cmd_smooth_tube, "skinned-own": cmd_skinned_own, "rounded": cmd_rounded,
     "smooth-check": cmd_smooth_check, "two-skins": cmd_two_skins, "split": cmd_split, "dat-pobjs": cmd_dat_pobjs,
     "weights": cmd_weights, "same": cmd_same, "materials": cmd_materials,
     "image-size": cmd_image_size, "flat-skin": cmd_flat_skin, "own-envelopes": cmd_own_envelopes,
     "dat-same": cmd_dat_same}[sys.argv[1]](sys.argv[2:])
