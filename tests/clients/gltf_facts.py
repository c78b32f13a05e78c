# What a glTF client changed in a file unearth wrote: prints one line per difference between
# ORIG and CLIENT (node order and names, extras, vertex splits and order, clip sampling, dropped
# channels, images, accessor types), for the real-client tests' failure messages and notes.
# python3 gltf_facts.py ORIG.glb|.gltf CLIENT.glb|.gltf
import base64
import json
import os
import struct
import sys

COMPONENT = {5120: "i8", 5121: "u8", 5122: "i16", 5123: "u16", 5125: "u32", 5126: "f32"}
SIZE = {5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4}
COUNT = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}


def load(path):
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        n = struct.unpack_from("<I", data, 12)[0]
        doc = json.loads(data[20:20 + n])
        rest = 20 + n
        bin_chunk = data[rest + 8:rest + 8 + struct.unpack_from("<I", data, rest)[0]] if rest < len(data) else b""
    else:
        doc, bin_chunk = json.loads(data), b""
    buffers = []
    for b in doc.get("buffers", []):
        uri = b.get("uri")
        if uri is None:
            buffers.append(bin_chunk)
        elif uri.startswith("data:"):
            buffers.append(base64.b64decode(uri.split(",", 1)[1]))
        else:
            buffers.append(open(os.path.join(os.path.dirname(path), uri), "rb").read())
    doc["_buffers"] = buffers
    doc["_dir"] = os.path.dirname(path)
    return doc


def view_bytes(doc, index):
    v = doc["bufferViews"][index]
    return doc["_buffers"][v.get("buffer", 0)][v.get("byteOffset", 0):v.get("byteOffset", 0) + v["byteLength"]], v


def accessor(doc, index):
    a = doc["accessors"][index]
    comps, kind = COUNT[a["type"]], a["componentType"]
    fmt = {5120: "b", 5121: "B", 5122: "h", 5123: "H", 5125: "I", 5126: "f"}[kind]
    if "bufferView" not in a:
        return [(0,) * comps] * a["count"]
    raw, v = view_bytes(doc, a["bufferView"])
    stride = v.get("byteStride") or comps * SIZE[kind]
    out = []
    for i in range(a["count"]):
        vals = struct.unpack_from("<%d%s" % (comps, fmt), raw, a.get("byteOffset", 0) + i * stride)
        if a.get("normalized"):
            top = {5120: 127, 5121: 255, 5122: 32767, 5123: 65535}[kind]
            vals = tuple(max(x / top, -1.0) for x in vals)
        out.append(vals)
    return out


def parents(doc):
    up = {}
    for i, n in enumerate(doc.get("nodes", [])):
        for c in n.get("children", []):
            up[c] = i
    return up


def node_path(doc, i, up):
    names = []
    while i is not None:
        names.append(doc["nodes"][i].get("name", "#%d" % i))
        i = up.get(i)
    return "/".join(reversed(names))


def image_bytes(doc, img):
    if "bufferView" in img:
        return view_bytes(doc, img["bufferView"])[0]
    uri = img.get("uri", "")
    if uri.startswith("data:"):
        return base64.b64decode(uri.split(",", 1)[1])
    return open(os.path.join(doc["_dir"], uri), "rb").read()


def image_counterpart(orig, image, index):
    """The original image of a client's: same name, or the name without its '.0'-like tail, else by index."""
    name = image.get("name")
    for a in orig.get("images", []):
        if name and (a.get("name") == name or (a.get("name") or "").rsplit(".", 1)[0] == name):
            return a
    images = orig.get("images", [])
    return images[index] if index < len(images) else None


def png_header(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "not PNG"
    w, h, depth, colour = struct.unpack_from(">IIBB", data, 16)
    return "%dx%d depth %d colour type %d" % (w, h, depth, colour)


def rounded(v):
    return tuple(round(x, 5) for x in v)


def vertices(doc, prim):
    a = prim["attributes"]
    cols = [accessor(doc, a[k]) for k in ("POSITION", "NORMAL", "TEXCOORD_0") if k in a]
    return [tuple(rounded(c[i]) for c in cols) for i in range(len(cols[0]))]


def facts(orig, new):
    out = []
    say = out.append
    on, nn = orig.get("nodes", []), new.get("nodes", [])
    ou, nu = parents(orig), parents(new)
    op = [node_path(orig, i, ou) for i in range(len(on))]
    np_ = [node_path(new, i, nu) for i in range(len(nn))]
    if op != np_:
        say("nodes: %d → %d; order/paths were %s, now %s" % (len(on), len(nn), op, np_))
    if any("extras" in n for n in on) and not any("extras" in n for n in nn):
        say("nodes: extras dropped")
    if any("matrix" in n for n in nn) and not any("matrix" in n for n in on):
        say("nodes: TRS written as matrix")
    for key in ("meshes", "materials", "textures", "images", "animations", "skins"):
        a, b = orig.get(key, []), new.get(key, [])
        if len(a) != len(b):
            say("%s: %d → %d" % (key, len(a), len(b)))
        an, bn = [x.get("name") for x in a], [x.get("name") for x in b]
        if sorted(map(str, an)) != sorted(map(str, bn)):
            say("%s names: %s → %s" % (key, an, bn))
        if any("extras" in x for x in a) and not any("extras" in x for x in b):
            say("%s: extras dropped" % key)
    if orig.get("extensionsUsed") != new.get("extensionsUsed"):
        say("extensionsUsed: %s → %s" % (orig.get("extensionsUsed"), new.get("extensionsUsed")))
    # Meshes by the name of the node that holds them.
    def meshes_by_node(doc):
        return {doc["nodes"][i].get("name"): doc["meshes"][n["mesh"]]
                for i, n in enumerate(doc.get("nodes", [])) if "mesh" in n}
    om, nm = meshes_by_node(orig), meshes_by_node(new)
    for name, mesh in om.items():
        other = nm.get(name)
        if other is None:
            continue
        if len(mesh["primitives"]) != len(other["primitives"]):
            say("mesh of %s: %d → %d primitives" % (name, len(mesh["primitives"]), len(other["primitives"])))
            continue
        for p, (a, b) in enumerate(zip(mesh["primitives"], other["primitives"])):
            va, vb = vertices(orig, a), vertices(new, b)
            ia = len(accessor(orig, a["indices"])) if "indices" in a else len(va)
            ib = len(accessor(new, b["indices"])) if "indices" in b else len(vb)
            where = "mesh of %s primitive %d" % (name, p)
            if len(va) != len(vb):
                say("%s: %d → %d vertices (%s)" % (where, len(va), len(vb), "split" if len(vb) > len(va) else "welded"))
            elif va != vb:
                say("%s: vertices %s" % (where, "reordered" if sorted(va) == sorted(vb) else "changed values (beyond 1e-5)"))
            if ia != ib:
                say("%s: %d → %d indices" % (where, ia, ib))
            ta = {k: COMPONENT[orig["accessors"][v]["componentType"]] for k, v in a["attributes"].items()}
            tb = {k: COMPONENT[new["accessors"][v]["componentType"]] +
                  (" normalized" if new["accessors"][v].get("normalized") else "")
                  for k, v in b["attributes"].items()}
            if ta != tb:
                say("%s: attributes %s → %s" % (where, ta, tb))
    for i, (a, b) in enumerate(zip(orig.get("animations", []), new.get("animations", []))):
        say("animation %d %r → %r: %d → %d channels" % (i, a.get("name"), b.get("name"), len(a["channels"]), len(b["channels"]))
            if len(a["channels"]) != len(b["channels"]) else None)
        for s in b["samplers"][:1]:
            times = [t[0] for t in accessor(new, s["input"])]
            otimes = [t[0] for t in accessor(orig, a["samplers"][0]["input"])]
            if len(times) != len(otimes) or any(abs(x - y) > 1e-6 for x, y in zip(times, otimes)):
                step = times[1] - times[0] if len(times) > 1 else 0
                say("animation %r: keys resampled, %d keys %.4g..%.4g s (step %.4g s, %.3g/s) where the original had %d keys step %.4g s"
                    % (b.get("name"), len(times), times[0], times[-1], step, 1 / step if step else 0, len(otimes),
                       otimes[1] - otimes[0] if len(otimes) > 1 else 0))
        paths = [c["target"].get("path") for c in b["channels"]]
        if "pointer" in paths and "KHR_animation_pointer" not in (new.get("extensionsUsed") or []):
            say("animation %r: channel path 'pointer' without the KHR_animation_pointer extension object" % b.get("name"))
    for i, b in enumerate(new.get("images", [])):
        a = image_counterpart(orig, b, i)
        if a is None:
            continue
        ba, bb = image_bytes(orig, a), image_bytes(new, b)
        if ba != bb:
            say("image %d %r: re-encoded (%d → %d bytes, %s → %s)%s" % (i, b.get("name"), len(ba), len(bb), png_header(ba),
                png_header(bb), ", now external file %s" % b["uri"] if "uri" in b and not b["uri"].startswith("data:") else ""))
    for i, (a, b) in enumerate(zip(orig.get("materials", []), new.get("materials", []))):
        fa = a.get("pbrMetallicRoughness", {}).get("baseColorTexture", {}).get("extensions")
        fb = b.get("pbrMetallicRoughness", {}).get("baseColorTexture", {}).get("extensions")
        if fa != fb:
            say("material %r: base colour texture extensions %s → %s" % (b.get("name"), fa, fb))
    return [line for line in out if line]


if __name__ == "__main__":
    for line in facts(load(sys.argv[1]), load(sys.argv[2])):
        print(line)
