#!/usr/bin/env python3
# unearth CLI tests — edits inside a .glb that `convert` wrote from an HSD model, and the checks of
# what `import --base` made of them (tests/cli/cli_hsd_import.sh), read here with the glTF rules alone.
# Usage: hsd_import_glb.py COMMAND ARGS
#   set IN OUT NODE PRIM ATTR V VALUES    ATTR (POSITION, TEXCOORD_0, COLOR_0, ...) of vertex V of
#                                         primitive PRIM of node NODE's mesh, and of every vertex of
#                                         that primitive holding the same value, set to VALUES (a,b,..)
#   offset IN OUT NODE PRIM ATTR V DELTAS  the same, the value moved by DELTAS
#   pair IN OUT NODE PRIM DX               two vertices with one position moved apart (DX and -DX on x)
#   drop-triangle IN OUT NODE PRIM         the primitive's last triangle left out
#   retriangle IN OUT NODE PRIM I J        triangles I and J left out and one added over their corners:
#                                          I's first two and the first of J's not among them
#   extra-vertex IN OUT NODE PRIM          a copy of the primitive's first vertex put before it (every index
#                                          one on, so the order is not the base's), no triangle using
#                                          it: the same triangles, another vertex count (matched by geometry)
#   triangles GLB                          every primitive's triangles as position (and TEXCOORD_0)
#                                          triples, each rotated to its smallest corner first (winding
#                                          kept), sorted: one line per triangle, "MESH/PRIM: ..."
#   rename IN OUT NODE NEW                 a node renamed
#   duplicate IN OUT NODE NEW              a copy of node NODE named NEW, drawing the same mesh, beside it
#   check ORIG EDITED BACK TOL             every value of BACK (the re-conversion of the import) is ORIG's
#                                          exactly where EDITED did not change it, else EDITED's within TOL
#                                          (ORIG's within TOL for a vertex whose weights EDITED changed)
#   bytes-differ A B                       how many bytes two files of one size differ in
#   value GLB NODE PRIM ATTR V             the value, comma-separated
#   expect-image BACK IMAGE PATTERN HOW ORIG  image IMAGE of BACK is glb_image.py's PATTERN as HOW stores
#                                          it, computed here: RGB5A3, LUMA (I8), RGB565 (CMPR of one colour per
#                                          4 x 4 block), PALETTE (each texel the nearest colour of
#                                          ORIG's image, the palette it keeps); prints the texel count
#   same-image A B IMAGE                   image IMAGE has the same pixels in two glbs
#   material IN OUT NAME FACTOR|- [MODE [CUTOFF]]  every material NAME gets baseColorFactor FACTOR
#                                          (r,g,b,a; - keeps it) and alphaMode MODE (alphaCutoff CUTOFF)
#   factor GLB NAME                        material NAME's baseColorFactor, then its alphaMode and cutoff
#   moved ORIG BACK NODE                   positions of NODE's mesh that differ between two conversions of
#                                          one model: their count and the first one's offset x,y,z
#   srgb-step C                            C (linear) through an sRGB byte and back, as a Material stores it
#   rotation-angle A CLIP_A B CLIP_B NODE T..  the largest angle (radians) between NODE's rotation in clip
#                                          CLIP_A of A and in CLIP_B of B at times T (seconds), each
#                                          channel played as glTF plays LINEAR keys (slerp); NODE and its
#                                          ancestors must rest alike in A and B (the local frames agree)
#   weights IN OUT NODE PRIM V JOINT:W,..  JOINTS_0/WEIGHTS_0 of vertex V, and of every vertex of the primitive
#                                          at its position, set to the named joints and weights (past 4:
#                                          JOINTS_1/WEIGHTS_1 too, added for the primitive)
#   weights-all IN OUT NODE PRIM JOINT:W,..  every vertex of the primitive given those joints and weights (at most 4)
#   image-format DAT OUT W H FROM TO       the first W x H ImageDesc of GX format FROM stored as format TO
#                                          (an intensity format over the same pixels' bytes, for a test)
#   skin GLB NODE PRIM V                   vertex V's influences: joint:weight, by joint name, zeros left out
#   direct-normal GLB NODE PRIM V          the NORMAL that vertex V would store so that glTF draws, through
#                                          the inverse transpose of its skin matrix M (joint worlds of
#                                          translations and rotations only × inverse binds, as the import
#                                          compares), the base normal carried by M itself: M^T·M·n, made unit
#   skin-check ORIG EDITED BACK TOL        every vertex's influences in BACK are EDITED's (its 4 largest,
#                                          renormalised) within TOL, ORIG's where EDITED kept them; prints
#                                          how many vertices EDITED changed
#   subdivide IN OUT NODE PRIM T [JOINT:W,..]  triangle T split into 3 around a new vertex at its
#                                          corners' mean (normal normalised; JOINTS_0/WEIGHTS_0 as given,
#                                          else corner 0's; COLOR_0 corner 0's), appended to every
#                                          attribute; prints the new vertex's position
#   split-edge IN OUT NODE PRIM T K [JOINT:W,..]  K new vertices evenly along triangle T's first edge
#                                          (values interpolated; weights as given, else the corner's), the
#                                          triangle fanned over them from its third corner (+K triangles)
#   extrude IN OUT NODE PRIM T D           triangle T raised by D along its face normal: three new vertices
#                                          (copies of its corners, moved), the top and three side quads
#                                          (+6 triangles); prints the count of vertices
#   tri-match ORIG EDITED BACK NODE PRIM TOL [UVTOL]  every triangle of EDITED's primitive has one of BACK's (same
#                                          winding) with each corner's position within TOL, and the counts
#                                          agree; every BACK vertex has exactly the values (and influences)
#                                          of one of ORIG's, or its position lies within TOL (its TEXCOORD_0
#                                          within UVTOL, default 0) of one of EDITED's new vertices (past
#                                          ORIG's count); prints the triangles
#                                          and the BACK vertices that are new
#   count-triangles GLB NODE PRIM          the primitive's triangle count
#   skin-near GLB NODE PRIM X,Y,Z TOL      the influences of each vertex within TOL of X,Y,Z
#   copy IN OUT NODE PRIM ATTR FROM TO     vertex TO's ATTR set to vertex FROM's, bit for bit
#   tri-skin EDITED BACK NODE PRIM TOL [UVTOL]  every triangle of EDITED's primitive has one of BACK's
#                                          (same winding) with each corner's position within TOL, its
#                                          TEXCOORD_0 within UVTOL (default TOL) and its influences EDITED's
#                                          (4 largest, renormalised) within 1e-6, and the counts agree; prints
#                                          the triangles, BACK's vertices and how many distinct vertices (every
#                                          attribute and influence alike) EDITED's triangles use
import math, os, struct, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from glb_image import read_glb as load, write_glb as save  # the GLB framing the other glb tools share
from glb_image import image_bytes, image_index, pattern, png_decode

COMPS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}

def place(doc, index):  # (byte offset, stride, components) of a float accessor
    a = doc["accessors"][index]
    assert a["componentType"] == 5126, "float accessors only"
    v = doc["bufferViews"][a["bufferView"]]
    comps = COMPS[a["type"]]
    return v.get("byteOffset", 0) + a.get("byteOffset", 0), v.get("byteStride", 4 * comps), comps, a["count"]

def read(binary, doc, index, i):
    base, stride, comps, _ = place(doc, index)
    return list(struct.unpack_from("<%df" % comps, binary, base + i * stride))

def write(binary, doc, index, i, vals):
    base, stride, comps, _ = place(doc, index)
    struct.pack_into("<%df" % comps, binary, base + i * stride, *vals)

def primitive(doc, node, prim):
    for n in doc["nodes"]:
        if n.get("name") == node and "mesh" in n:
            return doc["meshes"][n["mesh"]]["primitives"][int(prim)]
    sys.exit("no mesh node " + node)

def edit(args, how):
    src, dst, node, prim, attr, v, vals = args
    doc, binary = load(src)
    acc = primitive(doc, node, prim)["attributes"][attr]
    old = read(binary, doc, acc, int(v))
    vals = [float(x) for x in vals.split(",")]
    new = how(old, vals)
    count = place(doc, acc)[3]
    same = [i for i in range(count) if read(binary, doc, acc, i) == old]
    for i in same:
        write(binary, doc, acc, i, new)
    save(dst, doc, binary)
    print(len(same))

def cmd_pair(args):
    src, dst, node, prim, dx = args
    doc, binary = load(src)
    acc = primitive(doc, node, prim)["attributes"]["POSITION"]
    count = place(doc, acc)[3]
    seen = {}
    for i in range(count):
        p = tuple(read(binary, doc, acc, i))
        if p in seen:
            a, b = seen[p], i
            pa, pb = list(p), list(p)
            pa[0] += float(dx); pb[0] -= float(dx)
            write(binary, doc, acc, a, pa); write(binary, doc, acc, b, pb)
            save(dst, doc, binary)
            return
        seen[p] = i
    sys.exit("no two vertices share a position")

def cmd_drop_triangle(args):
    src, dst, node, prim = args
    doc, binary = load(src)
    doc["accessors"][primitive(doc, node, prim)["indices"]]["count"] -= 3
    save(dst, doc, binary)

def indices(doc, binary, prim):  # a primitive's index list, any component type
    a = doc["accessors"][prim["indices"]]
    v = doc["bufferViews"][a["bufferView"]]
    fmt = {5121: "B", 5123: "H", 5125: "I"}[a["componentType"]]
    return list(struct.unpack_from("<%d%s" % (a["count"], fmt), binary, v.get("byteOffset", 0) + a.get("byteOffset", 0)))

def cmd_retriangle(args):
    src, dst, node, prim, i, j = args
    doc, binary = load(src)
    pr = primitive(doc, node, prim)
    idx = indices(doc, binary, pr)
    ti, tj = idx[3 * int(i):3 * int(i) + 3], idx[3 * int(j):3 * int(j) + 3]
    new = ti[:2] + [[c for c in tj if c not in ti[:2]][0]]
    keep = [t for k, t in enumerate(zip(idx[0::3], idx[1::3], idx[2::3])) if k not in (int(i), int(j))]
    out = [c for t in keep for c in t] + new
    while len(binary) % 4: binary.append(0)
    doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": 4 * len(out)})
    binary += struct.pack("<%dI" % len(out), *out)
    doc["buffers"][0]["byteLength"] = len(binary)
    doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1, "componentType": 5125, "count": len(out), "type": "SCALAR"})
    pr["indices"] = len(doc["accessors"]) - 1
    save(dst, doc, binary)
    print(",".join(str(c) for c in new))

def cmd_extra_vertex(args):
    src, dst, node, prim = args
    doc, binary = load(src)
    for acc in primitive(doc, node, prim)["attributes"].values():
        a = doc["accessors"][acc]
        v = doc["bufferViews"][a["bufferView"]]
        size = {5121: 1, 5123: 2, 5125: 4, 5126: 4}[a["componentType"]] * COMPS[a["type"]]
        stride, start = v.get("byteStride", size), v.get("byteOffset", 0) + a.get("byteOffset", 0)
        rows = [bytes(binary[start + i * stride:start + i * stride + size]) for i in range(a["count"])]
        while len(binary) % 4: binary.append(0)
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": size * (len(rows) + 1)})
        binary += b"".join(rows[:1] + rows)
        a.update(bufferView=len(doc["bufferViews"]) - 1, byteOffset=0, count=a["count"] + 1)
    pr = primitive(doc, node, prim)
    out = [i + 1 for i in indices(doc, binary, pr)]  # every vertex one place on: the glTF's order is not the base's
    set_indices(doc, binary, pr, out)
    save(dst, doc, binary)

def cmd_triangles(args):
    doc, binary = load(args[0])
    for mesh in doc["meshes"]:
        for p, pr in enumerate(mesh["primitives"]):
            at = pr["attributes"]
            def corner(c):
                v = tuple("%.6g" % x for x in read(binary, doc, at["POSITION"], c))
                if "TEXCOORD_0" in at: v += tuple("%.6g" % x for x in read(binary, doc, at["TEXCOORD_0"], c))
                return v
            idx = indices(doc, binary, pr)
            tris = []
            for t in zip(idx[0::3], idx[1::3], idx[2::3]):
                c = [corner(k) for k in t]
                r = c.index(min(c))
                tris.append(c[r:] + c[:r])
            for t in sorted(tris):
                print("%s/%d: %s" % (mesh["name"], p, " ".join(",".join(v) for v in t)))

def cmd_rename(args):
    src, dst, node, new = args
    doc, binary = load(src)
    for n in doc["nodes"]:
        if n.get("name") == node: n["name"] = new
    save(dst, doc, binary)

def cmd_duplicate(args):
    src, dst, node, new = args
    doc, binary = load(src)
    i = next(k for k, n in enumerate(doc["nodes"]) if n.get("name") == node)
    copy = {k: v for k, v in doc["nodes"][i].items() if k != "children"}
    copy["name"] = new
    doc["nodes"].append(copy)
    parents = [n.get("children", []) for n in doc["nodes"]] + [s["nodes"] for s in doc.get("scenes", [])]
    next(c for c in parents if i in c).append(len(doc["nodes"]) - 1)
    save(dst, doc, binary)

def cmd_check(args):
    orig, edited, back, tol = args
    (do, bo), (de, be), (db, bb) = load(orig), load(edited), load(back)
    tol = float(tol); changed = 0
    for m, mesh in enumerate(do["meshes"]):
        for p, pr in enumerate(mesh["primitives"]):
            for attr, acc in pr["attributes"].items():
                if do["accessors"][acc]["componentType"] != 5126 or attr.startswith("WEIGHTS"): continue
                acc_e = de["meshes"][m]["primitives"][p]["attributes"][attr]
                acc_b = db["meshes"][m]["primitives"][p]["attributes"][attr]
                pe = de["meshes"][m]["primitives"][p]
                for i in range(place(do, acc)[3]):
                    o, e, b = read(bo, do, acc, i), read(be, de, acc_e, i), read(bb, db, acc_b, i)
                    if e == o and "JOINTS_0" in pr["attributes"] and influences(do, bo, pr, i) != influences(de, be, pe, i):
                        if any(abs(x - y) > tol for x, y in zip(b, o)):  # re-weighted: stored anew, within TOL
                            sys.exit("%s %s/%d/%s[%d]: %s, re-weighted from %s" % (back, mesh["name"], p, attr, i, b, o))
                    elif e == o:
                        if b != o: sys.exit("%s %s/%d/%s[%d]: %s, the base had %s" % (back, mesh["name"], p, attr, i, b, o))
                    else:
                        changed += 1
                        if any(abs(x - y) > tol for x, y in zip(b, e)):
                            sys.exit("%s %s/%d/%s[%d]: %s, the edit was %s" % (back, mesh["name"], p, attr, i, b, e))
    print(changed)

def cmd_bytes_differ(args):
    a, b = open(args[0], "rb").read(), open(args[1], "rb").read()
    if len(a) != len(b): sys.exit("sizes differ: %d and %d" % (len(a), len(b)))
    print(sum(x != y for x, y in zip(a, b)))

def cmd_value(args):
    path, node, prim, attr, v = args
    doc, binary = load(path)
    print(",".join("%.6g" % x for x in read(binary, doc, primitive(doc, node, prim)["attributes"][attr], int(v))))

def image_pixels(path, name):
    doc, binary = load(path)
    return png_decode(image_bytes(doc, binary, image_index(doc, name)))

def step(v, bits):  # an 8-bit channel to the nearest of 2^bits levels and back by bit replication
    q, out, shift = round(v * ((1 << bits) - 1) / 255), 0, 8 - bits
    while shift > -bits:
        out |= q << shift if shift >= 0 else q >> -shift
        shift -= bits
    return out

def rgb5a3(t):
    if round(t[3] * 7 / 255) == 7: return [step(t[0], 5), step(t[1], 5), step(t[2], 5), 255]
    return [step(t[0], 4), step(t[1], 4), step(t[2], 4), step(t[3], 3)]

def cmd_expect_image(args):
    back, name, pat, how, orig = args
    w, h, got = image_pixels(back, name)
    want = pattern(pat, w, h)
    if how == 'RGB5A3': want = [rgb5a3(t) for t in want]
    elif how == 'LUMA': want = [[(77 * t[0] + 150 * t[1] + 29 * t[2] + 128) >> 8] * 4 for t in want]  # GX: alpha = I
    elif how == 'RGB565': want = [[step(t[0], 5), step(t[1], 6), step(t[2], 5), 255] for t in want]
    elif how == 'PALETTE':
        palette = sorted({tuple(t) for t in image_pixels(orig, name)[2]})
        want = [list(min(palette, key=lambda p: sum((a - b) ** 2 for a, b in zip(p, t)))) for t in want]
    else: sys.exit('unknown HOW ' + how)
    for i, (g, e) in enumerate(zip(got, want)):
        if g != e: sys.exit('%s %s texel (%d, %d): %s, expected %s' % (back, name, i % w, i // w, g, e))
    print(len(got))

def cmd_same_image(args):
    if image_pixels(args[0], args[2]) != image_pixels(args[1], args[2]): sys.exit(args[2] + ' differs')

def cmd_material(args):
    src, dst, name, factor = args[:4]
    doc, binary = load(src)
    for m in doc["materials"]:
        if m.get("name") != name: continue
        if factor != "-": m["pbrMetallicRoughness"]["baseColorFactor"] = [float(v) for v in factor.split(",")]
        if len(args) > 4: m["alphaMode"] = args[4]
        if len(args) > 5: m["alphaCutoff"] = float(args[5])
        elif len(args) > 4: m.pop("alphaCutoff", None)
    save(dst, doc, binary)

def cmd_factor(args):
    doc, _ = load(args[0])
    m = [m for m in doc["materials"] if m.get("name") == args[1]][0]
    f = m.get("pbrMetallicRoughness", {}).get("baseColorFactor", [1, 1, 1, 1])
    mode = m.get("alphaMode", "OPAQUE")
    print(",".join("%.6g" % x for x in f) + " " + mode + ("" if mode != "MASK" else " %.6g" % m.get("alphaCutoff", 0.5)))

def cmd_moved(args):
    (do, bo), (db, bb) = load(args[0]), load(args[1])
    moved = []
    for m_o, m_b in zip(do["meshes"], db["meshes"]):
        if m_o["name"] != args[2]: continue
        for p_o, p_b in zip(m_o["primitives"], m_b["primitives"]):
            a_o, a_b = p_o["attributes"]["POSITION"], p_b["attributes"]["POSITION"]
            for i in range(place(do, a_o)[3]):
                o, b = read(bo, do, a_o, i), read(bb, db, a_b, i)
                if o != b: moved.append([y - x for x, y in zip(o, b)])
    print(len(moved), ",".join("%.3f" % (round(v, 3) + 0.0) for v in (moved[0] if moved else [])))  # no "-0.000"

def cmd_srgb_step(args):  # linear → sRGB byte (rounded) → linear, the formulas of the sRGB standard
    c = float(args[0])
    s = c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    v = round(s * 255) / 255
    print("%.6g" % (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4))

def slerp(a, b, u):
    d = sum(x * y for x, y in zip(a, b))
    if d < 0: b, d = [-y for y in b], -d
    if d > 0.9999995: return [x + u * (y - x) for x, y in zip(a, b)]
    th = math.acos(min(1.0, d))
    return [(math.sin((1 - u) * th) * x + math.sin(u * th) * y) / math.sin(th) for x, y in zip(a, b)]

def clip_rotation(doc, binary, clip, node, t):
    anim = next(a for a in doc["animations"] if a.get("name") == clip)
    for ch in anim["channels"]:
        if ch["target"].get("node") != node or ch["target"]["path"] != "rotation": continue
        smp = anim["samplers"][ch["sampler"]]
        times = [read(binary, doc, smp["input"], i)[0] for i in range(place(doc, smp["input"])[3])]
        k = max([0] + [i for i, x in enumerate(times) if x <= t])
        a = read(binary, doc, smp["output"], k)
        if k + 1 >= len(times): return a
        return slerp(a, read(binary, doc, smp["output"], k + 1), (t - times[k]) / (times[k + 1] - times[k]))
    return doc["nodes"][node].get("rotation", [0, 0, 0, 1])

def node_and_rests(doc, name):  # the node's index, and its and its ancestors' translations and rotations
    index = next(i for i, n in enumerate(doc["nodes"]) if n.get("name") == name)
    parent = {c: i for i, n in enumerate(doc["nodes"]) for c in n.get("children", [])}
    chain, i = [], index
    while i is not None:
        n = doc["nodes"][i]
        chain.append([n.get("translation", [0, 0, 0]), n.get("rotation", [0, 0, 0, 1])])
        i = parent.get(i)
    return index, chain

def cmd_rotation_angle(args):
    (da, ba), (db, bb) = load(args[0]), load(args[2])
    na, ra = node_and_rests(da, args[4])
    nb, rb = node_and_rests(db, args[4])
    for (ta, qa), (tb, qb) in zip(ra, rb):
        same_q = all(abs(x - y) < 1e-5 for x, y in zip(qa, qb)) or all(abs(x + y) < 1e-5 for x, y in zip(qa, qb))
        if not same_q or any(abs(x - y) > 1e-5 for x, y in zip(ta, tb)): sys.exit(args[4] + ": the rests differ")
    worst = 0.0
    for t in map(float, args[5:]):
        qa, qb = clip_rotation(da, ba, args[1], na, t), clip_rotation(db, bb, args[3], nb, t)
        d = abs(sum(x * y for x, y in zip(qa, qb))) / math.sqrt(sum(x * x for x in qa) * sum(y * y for y in qb))
        worst = max(worst, 2 * math.acos(min(1.0, d)))
    print("%.6f" % worst)

def influences(doc, binary, prim, v):  # {joint name: weight} of vertex v (both sets), zero weights left out
    at, out = prim["attributes"], {}
    names = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]]
    for k in (0, 1):
        if "JOINTS_%d" % k not in at: continue
        a = doc["accessors"][at["JOINTS_%d" % k]]
        view = doc["bufferViews"][a["bufferView"]]
        joints = struct.unpack_from("<4H", binary, view.get("byteOffset", 0) + a.get("byteOffset", 0) + 8 * v)
        for j, w in zip(joints, read(binary, doc, at["WEIGHTS_%d" % k], v)):
            if w > 0: out[names[j]] = out.get(names[j], 0) + w
    return out

def mat_mul(a, b):  # 4 x 4, column-major lists of 16
    return [sum(a[k * 4 + r] * b[c * 4 + k] for k in range(4)) for c in range(4) for r in range(4)]

def world_without_scale(doc, index):
    parent = {c: i for i, n in enumerate(doc["nodes"]) for c in n.get("children", [])}
    w = [1.0 if i % 5 == 0 else 0.0 for i in range(16)]
    while index is not None:
        n = doc["nodes"][index]
        x, y, z, q = *n.get("rotation", [0, 0, 0, 1])[:3], n.get("rotation", [0, 0, 0, 1])[3]
        t = n.get("translation", [0, 0, 0])
        local = [1 - 2 * (y * y + z * z), 2 * (x * y + z * q), 2 * (x * z - y * q), 0,
                 2 * (x * y - z * q), 1 - 2 * (x * x + z * z), 2 * (y * z + x * q), 0,
                 2 * (x * z + y * q), 2 * (y * z - x * q), 1 - 2 * (x * x + y * y), 0, t[0], t[1], t[2], 1]
        w, index = mat_mul(local, w), parent.get(index)
    return w

def cmd_direct_normal(args):
    doc, binary = load(args[0])
    prim, v = primitive(doc, args[1], args[2]), int(args[3])
    skin, names = doc["skins"][0], [n.get("name") for n in doc["nodes"]]
    m = [0.0] * 16
    for name, wt in influences(doc, binary, prim, v).items():
        k = [names[j] for j in skin["joints"]].index(name)
        ib = read(binary, doc, skin["inverseBindMatrices"], k)
        m = [a + wt * b for a, b in zip(m, mat_mul(world_without_scale(doc, names.index(name)), ib))]
    n = read(binary, doc, prim["attributes"]["NORMAL"], v)
    d = [sum(m[c * 4 + r] * n[c] for c in range(3)) for r in range(3)]  # M·n
    out = [sum(m[r * 4 + c] * d[c] for c in range(3)) for r in range(3)]  # M^T·(M·n)
    length = math.sqrt(sum(c * c for c in out))
    print(",".join("%.7f" % (c / length) for c in out))

def four_largest(inf):  # docs/hsd-import.md#skin-weights: the 4 largest (the earlier on a tie), renormalised
    keep = sorted(inf, key=lambda j: -inf[j])[:4]
    total = sum(inf[j] for j in keep)
    return {j: inf[j] / total for j in keep}

def cmd_weights(args):
    src, dst, node, prim, v, spec = args
    doc, binary = load(src)
    pr = primitive(doc, node, prim)
    names = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]]
    pairs = [(names.index(p.split(":")[0]), float(p.split(":")[1])) for p in spec.split(",")]
    sets = 2 if len(pairs) > 4 else 1
    pairs += [(0, 0.0)] * (4 * sets - len(pairs))
    count = doc["accessors"][pr["attributes"]["JOINTS_0"]]["count"]
    if sets == 2 and "JOINTS_1" not in pr["attributes"]:  # a second set, zero for every vertex
        for attr, ctype in (("JOINTS_1", 5123), ("WEIGHTS_1", 5126)):
            size = (8 if ctype == 5123 else 16) * count
            while len(binary) % 4: binary.append(0)
            doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": size})
            binary += bytes(size)
            doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1, "componentType": ctype,
                                     "count": count, "type": "VEC4"})
            pr["attributes"][attr] = len(doc["accessors"]) - 1
        doc["buffers"][0]["byteLength"] = len(binary)
    pos = read(binary, doc, pr["attributes"]["POSITION"], int(v))
    same = [i for i in range(count) if read(binary, doc, pr["attributes"]["POSITION"], i) == pos]
    for k in range(sets):
        a = doc["accessors"][pr["attributes"]["JOINTS_%d" % k]]
        view = doc["bufferViews"][a["bufferView"]]
        base = view.get("byteOffset", 0) + a.get("byteOffset", 0)
        part = pairs[4 * k:4 * k + 4]
        for i in same:
            struct.pack_into("<4H", binary, base + 8 * i, *[j for j, _ in part])
            write(binary, doc, pr["attributes"]["WEIGHTS_%d" % k], i, [w for _, w in part])
    save(dst, doc, binary)
    print(len(same))

def cmd_weights_all(args):
    src, dst, node, prim, spec = args
    doc, binary = load(src)
    pr = primitive(doc, node, prim)
    row = skin_row(doc, spec)
    a = doc["accessors"][pr["attributes"]["JOINTS_0"]]
    base = doc["bufferViews"][a["bufferView"]].get("byteOffset", 0) + a.get("byteOffset", 0)
    for i in range(a["count"]):
        struct.pack_into("<4H", binary, base + 8 * i, *row["JOINTS_0"])
        write(binary, doc, pr["attributes"]["WEIGHTS_0"], i, row["WEIGHTS_0"])
    save(dst, doc, binary)
    print(a["count"])

def cmd_image_format(args):  # DAT header (docs/formats/dat.md): file size, data size, relocations
    src, dst, w, h, old, new = args[0], args[1], *map(int, args[2:])
    dat = bytearray(open(src, "rb").read())
    data_size, relocs = struct.unpack_from(">II", dat, 4)
    pointers = {struct.unpack_from(">I", dat, 0x20 + data_size + 4 * i)[0] for i in range(relocs)}
    for at in range(0, data_size - 0x18, 4):
        if at in pointers and struct.unpack_from(">HHI", dat, 0x20 + at + 4) == (w, h, old):
            struct.pack_into(">I", dat, 0x20 + at + 8, new)
            open(dst, "wb").write(dat)
            return
    sys.exit("no %d x %d image of format %d" % (w, h, old))

def cmd_skin(args):
    path, node, prim, v = args
    doc, binary = load(path)
    inf = influences(doc, binary, primitive(doc, node, prim), int(v))
    print(",".join("%s:%.6g" % (k, inf[k]) for k in sorted(inf)))

def cmd_skin_check(args):
    (do, bo), (de, be), (db, bb) = load(args[0]), load(args[1]), load(args[2])
    tol, changed = float(args[3]), 0
    for m, mesh in enumerate(do["meshes"]):
        for p, pr in enumerate(mesh["primitives"]):
            if "JOINTS_0" not in pr["attributes"]: continue
            pe, pb = de["meshes"][m]["primitives"][p], db["meshes"][m]["primitives"][p]
            for i in range(do["accessors"][pr["attributes"]["JOINTS_0"]]["count"]):
                o, e, b = influences(do, bo, pr, i), influences(de, be, pe, i), influences(db, bb, pb, i)
                changed += e != o
                want = o if e == o else four_largest(e)
                if set(b) != set(want) or any(abs(b[k] - want[k]) > tol for k in b):
                    sys.exit("%s %s/%d vertex %d: %s, expected %s" % (args[2], mesh["name"], p, i, b, want))
    print(changed)

CTYPE = {5126: "f", 5123: "H", 5121: "B"}

def element(doc, binary, acc, i):  # one element of any accessor (float, u16 or u8 components)
    a = doc["accessors"][acc]
    v = doc["bufferViews"][a["bufferView"]]
    fmt = "<%d%s" % (COMPS[a["type"]], CTYPE[a["componentType"]])
    stride = v.get("byteStride", struct.calcsize(fmt))
    return list(struct.unpack_from(fmt, binary, v.get("byteOffset", 0) + a.get("byteOffset", 0) + i * stride))

def append_vertices(doc, binary, pr, rows):  # rows: [{attribute: values}], one per new vertex
    for attr, acc in list(pr["attributes"].items()):
        a = doc["accessors"][acc]
        fmt = "<%d%s" % (COMPS[a["type"]], CTYPE[a["componentType"]])
        vals = [element(doc, binary, acc, i) for i in range(a["count"])] + [r[attr] for r in rows]
        while len(binary) % 4: binary.append(0)
        doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": struct.calcsize(fmt) * len(vals)})
        for v in vals: binary += struct.pack(fmt, *v)
        new = {k: x for k, x in a.items() if k not in ("min", "max", "byteOffset")}
        new.update(bufferView=len(doc["bufferViews"]) - 1, count=len(vals))
        if attr == "POSITION":
            new["min"] = [min(v[k] for v in vals) for k in range(3)]
            new["max"] = [max(v[k] for v in vals) for k in range(3)]
        doc["accessors"].append(new)
        pr["attributes"][attr] = len(doc["accessors"]) - 1

def set_indices(doc, binary, pr, out):
    while len(binary) % 4: binary.append(0)
    doc["bufferViews"].append({"buffer": 0, "byteOffset": len(binary), "byteLength": 4 * len(out)})
    binary += struct.pack("<%dI" % len(out), *out)
    doc["accessors"].append({"bufferView": len(doc["bufferViews"]) - 1, "componentType": 5125, "count": len(out), "type": "SCALAR"})
    pr["indices"] = len(doc["accessors"]) - 1
    doc["buffers"][0]["byteLength"] = len(binary)

def skin_row(doc, spec):  # JOINT:W,.. (at most 4) as one vertex's JOINTS_0 and WEIGHTS_0
    names = [doc["nodes"][j]["name"] for j in doc["skins"][0]["joints"]]
    pairs = [(names.index(p.split(":")[0]), float(p.split(":")[1])) for p in spec.split(",")]
    pairs += [(0, 0.0)] * (4 - len(pairs))
    return {"JOINTS_0": [j for j, _ in pairs], "WEIGHTS_0": [w for _, w in pairs]}

def cmd_subdivide(args):
    src, dst, node, prim, t = args[:5]
    doc, binary = load(src)
    pr = primitive(doc, node, prim)
    idx = indices(doc, binary, pr)
    corners = idx[3 * int(t):3 * int(t) + 3]
    n = doc["accessors"][pr["attributes"]["POSITION"]]["count"]
    row = {}
    for attr, acc in pr["attributes"].items():
        vals = [element(doc, binary, acc, c) for c in corners]
        if attr in ("POSITION", "NORMAL") or attr.startswith("TEXCOORD"):
            row[attr] = [sum(v[k] for v in vals) / 3 for k in range(len(vals[0]))]
        else:
            row[attr] = vals[0]
    if "NORMAL" in row:
        length = math.sqrt(sum(x * x for x in row["NORMAL"]))
        row["NORMAL"] = [x / length for x in row["NORMAL"]]
    if len(args) > 5: row.update(skin_row(doc, args[5]))
    append_vertices(doc, binary, pr, [row])
    a, b, c = corners
    keep = [x for k in range(len(idx) // 3) if k != int(t) for x in idx[3 * k:3 * k + 3]]
    set_indices(doc, binary, pr, keep + [a, b, n, b, c, n, c, a, n])
    save(dst, doc, binary)
    print(",".join("%.6g" % x for x in row["POSITION"]))

def cmd_split_edge(args):
    src, dst, node, prim, t, k = args[:6]
    doc, binary = load(src)
    pr = primitive(doc, node, prim)
    idx = indices(doc, binary, pr)
    a, b, c = idx[3 * int(t):3 * int(t) + 3]
    n, k = doc["accessors"][pr["attributes"]["POSITION"]]["count"], int(k)
    rows = []
    for i in range(1, k + 1):
        u = i / (k + 1)
        row = {}
        for attr, acc in pr["attributes"].items():
            va, vb = element(doc, binary, acc, a), element(doc, binary, acc, b)
            mix = attr in ("POSITION", "NORMAL") or attr.startswith("TEXCOORD")
            row[attr] = [x + u * (y - x) for x, y in zip(va, vb)] if mix else va
        rows.append(row)
    if len(args) > 6:
        for row in rows: row.update(skin_row(doc, args[6]))
    append_vertices(doc, binary, pr, rows)
    chain = [a] + list(range(n, n + k)) + [b]
    keep = [x for q in range(len(idx) // 3) if q != int(t) for x in idx[3 * q:3 * q + 3]]
    set_indices(doc, binary, pr, keep + [x for i in range(k + 1) for x in (chain[i], chain[i + 1], c)])
    save(dst, doc, binary)
    print(k)

def cmd_extrude(args):
    src, dst, node, prim, t, d = args
    doc, binary = load(src)
    pr = primitive(doc, node, prim)
    idx = indices(doc, binary, pr)
    corners = idx[3 * int(t):3 * int(t) + 3]
    n = doc["accessors"][pr["attributes"]["POSITION"]]["count"]
    p = [read(binary, doc, pr["attributes"]["POSITION"], c) for c in corners]
    e1, e2 = [p[1][k] - p[0][k] for k in range(3)], [p[2][k] - p[0][k] for k in range(3)]
    nrm = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]]
    length = math.sqrt(sum(x * x for x in nrm))
    rows = []
    for c in corners:
        row = {attr: element(doc, binary, acc, c) for attr, acc in pr["attributes"].items()}
        row["POSITION"] = [x + float(d) * y / length for x, y in zip(row["POSITION"], nrm)]
        rows.append(row)
    append_vertices(doc, binary, pr, rows)
    a, b, c = corners
    A, B, C = n, n + 1, n + 2
    keep = [x for k in range(len(idx) // 3) if k != int(t) for x in idx[3 * k:3 * k + 3]]
    sides = [a, b, B, a, B, A, b, c, C, b, C, B, c, a, A, c, A, C]
    set_indices(doc, binary, pr, keep + [A, B, C] + sides)
    save(dst, doc, binary)
    print(n + 3)

def tri_positions(doc, binary, pr):
    idx = indices(doc, binary, pr)
    return [[read(binary, doc, pr["attributes"]["POSITION"], c) for c in idx[k:k + 3]] for k in range(0, len(idx), 3)]

def cmd_tri_match(args):
    (do, bo), (de, be), (db, bb) = load(args[0]), load(args[1]), load(args[2])
    po, pe, pb = (primitive(d, args[3], args[4]) for d in (do, de, db))
    tol = float(args[5])
    te, tb = tri_positions(de, be, pe), tri_positions(db, bb, pb)
    if len(te) != len(tb): sys.exit("%s: %d triangles, the edit has %d" % (args[2], len(tb), len(te)))
    near = lambda p, q: all(abs(x - y) <= tol for x, y in zip(p, q))
    free = list(range(len(tb)))
    for t in te:
        hit = next((k for k in free for r in range(3) if all(near(t[i], tb[k][(i + r) % 3]) for i in range(3))), None)
        if hit is None: sys.exit("%s: no triangle at %s" % (args[2], t))
        free.remove(hit)
    count = lambda d, p: d["accessors"][p["attributes"]["POSITION"]]["count"]
    whole = lambda d, b, p, i: [tuple(element(d, b, p["attributes"][a], i)) for a in sorted(p["attributes"])
                                if not a.startswith(("JOINTS", "WEIGHTS"))] + \
                               ([sorted(influences(d, b, p, i).items())] if "JOINTS_0" in p["attributes"] else [])
    old = [whole(do, bo, po, i) for i in range(count(do, po))]
    uv = lambda d, b, p, i: read(b, d, p["attributes"]["TEXCOORD_0"], i) if "TEXCOORD_0" in p["attributes"] else []
    new = [(read(be, de, pe["attributes"]["POSITION"], i), uv(de, be, pe, i)) for i in range(count(do, po), count(de, pe))]
    uv_tol = float(args[6]) if len(args) > 6 else 0.0
    fresh = 0
    for i in range(count(db, pb)):
        if whole(db, bb, pb, i) in old: continue  # a base vertex: every value exactly the base's
        p, t = read(bb, db, pb["attributes"]["POSITION"], i), uv(db, bb, pb, i)
        if not any(near(p, q) and all(abs(x - y) <= uv_tol for x, y in zip(t, s)) for q, s in new):
            sys.exit("%s vertex %d at %s (UV %s): neither the base's nor a new one" % (args[2], i, p, t))
        fresh += 1
    print(len(te), fresh)

def cmd_skin_near(args):
    doc, binary = load(args[0])
    pr = primitive(doc, args[1], args[2])
    want, tol = [float(x) for x in args[3].split(",")], float(args[4])
    for i in range(doc["accessors"][pr["attributes"]["POSITION"]]["count"]):
        if all(abs(x - y) <= tol for x, y in zip(read(binary, doc, pr["attributes"]["POSITION"], i), want)):
            inf = influences(doc, binary, pr, i)
            print(",".join("%s:%.6g" % (k, inf[k]) for k in sorted(inf)))

def cmd_copy(args):
    src, dst, node, prim, attr, a, b = args
    doc, binary = load(src)
    acc = primitive(doc, node, prim)["attributes"][attr]
    write(binary, doc, acc, int(b), read(binary, doc, acc, int(a)))
    save(dst, doc, binary)

def cmd_tri_skin(args):
    (de, be), (db, bb) = load(args[0]), load(args[1])
    pe, pb = primitive(de, args[2], args[3]), primitive(db, args[2], args[3])
    tol = float(args[4])
    uv_tol = float(args[5]) if len(args) > 5 else tol
    def corners(d, b, p):
        uv = lambda i: read(b, d, p["attributes"]["TEXCOORD_0"], i) if "TEXCOORD_0" in p["attributes"] else []
        return [[(read(b, d, p["attributes"]["POSITION"], i), uv(i), influences(d, b, p, i)) for i in t]
                for t in zip(*[iter(indices(d, b, p))] * 3)]
    te, tb = corners(de, be, pe), corners(db, bb, pb)
    if len(te) != len(tb): sys.exit("%s: %d triangles, the edit has %d" % (args[1], len(tb), len(te)))
    def same(e, k):
        want = four_largest(e[2])
        return all(abs(x - y) <= tol for x, y in zip(e[0], k[0])) and set(want) == set(k[2]) and \
               all(abs(x - y) <= uv_tol for x, y in zip(e[1], k[1])) and \
               all(abs(want[j] - k[2][j]) <= 1e-6 for j in want)
    free = list(range(len(tb)))
    for t in te:
        hit = next((k for k in free for r in range(3) if all(same(t[i], tb[k][(i + r) % 3]) for i in range(3))), None)
        if hit is None: sys.exit("%s: no triangle at %s" % (args[1], t))
        free.remove(hit)
    count = lambda d, p: d["accessors"][p["attributes"]["POSITION"]]["count"]
    whole = lambda i: tuple(tuple(element(de, be, pe["attributes"][a], i)) for a in sorted(pe["attributes"])
                            if not a.startswith(("JOINTS", "WEIGHTS"))) + tuple(sorted(influences(de, be, pe, i).items()))
    print(len(te), count(db, pb), len({whole(i) for i in indices(de, be, pe)}))

def cmd_count_triangles(args):
    doc, binary = load(args[0])
    print(len(indices(doc, binary, primitive(doc, args[1], args[2]))) // 3)

COMMANDS = {"subdivide": cmd_subdivide, "split-edge": cmd_split_edge, "skin-near": cmd_skin_near, "extrude": cmd_extrude, "tri-match": cmd_tri_match,
            "count-triangles": cmd_count_triangles, "copy": cmd_copy, "tri-skin": cmd_tri_skin,
    "weights": cmd_weights, "weights-all": cmd_weights_all, "image-format": cmd_image_format, "skin": cmd_skin, "skin-check": cmd_skin_check,
    "set": lambda args: edit(args, lambda old, vals: vals),
    "offset": lambda args: edit(args, lambda old, vals: [o + d for o, d in zip(old, vals)]),
    "pair": cmd_pair, "drop-triangle": cmd_drop_triangle, "rename": cmd_rename,
    "duplicate": cmd_duplicate,
    "retriangle": cmd_retriangle, "triangles": cmd_triangles, "check": cmd_check,
    "bytes-differ": cmd_bytes_differ, "value": cmd_value, "expect-image": cmd_expect_image,
    "same-image": cmd_same_image, "material": cmd_material, "factor": cmd_factor,
    "srgb-step": cmd_srgb_step, "moved": cmd_moved, "rotation-angle": cmd_rotation_angle,
}

COMMANDS["direct-normal"], COMMANDS["extra-vertex"] = cmd_direct_normal, cmd_extra_vertex

def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd not in COMMANDS: sys.exit("unknown command " + cmd)
    COMMANDS[cmd](args)

main()
