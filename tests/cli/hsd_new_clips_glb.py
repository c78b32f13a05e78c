#!/usr/bin/env python3
# unearth CLI tests — clips of new HSD models (tests/cli/cli_hsd_new_clips.sh): a hand-made rig with
# clips, and a convert output stripped of its skin, built here by the glTF rules alone.
# Usage: hsd_new_clips_glb.py COMMAND ARGS
#   rig OUT.glb           three joints in a chain (hip, knee, ankle), a triangle under the hip and one under
#                         the ankle; clip "Swing" (2 s): the hip turned about y through 340 degrees in
#                         LINEAR keys off the frame grid, the knee about a slanted axis and back, the ankle
#                         moved (LINEAR) and scaled in STEP keys; clip "Bounce" (1 s): the hip moved in
#                         CUBICSPLINE keys with tangents, the knee scaled (LINEAR)
#   unskin IN OUT         the glb without skins: no node's skin, no JOINTS_n / WEIGHTS_n attributes
import math, os, struct, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from glb_image import read_glb, write_glb  # noqa: E402
from hsd_new_glb import Builder  # noqa: E402

def axis_angle(axis, deg):
    n = math.sqrt(sum(c * c for c in axis))
    h = math.radians(deg) / 2
    return tuple([c / n * math.sin(h) for c in axis] + [math.cos(h)])

def channel(b, anim, node, path, times, values, fmt, gltf_type, interpolation="LINEAR"):
    s = {"input": b.add("f", [(t,) for t in times], "SCALAR", 5126),
         "output": b.add(fmt, values, gltf_type, 5126), "interpolation": interpolation}
    b.doc["accessors"][s["input"]].update(min=[min(times)], max=[max(times)])
    anim["samplers"].append(s)
    anim["channels"].append({"sampler": len(anim["samplers"]) - 1, "target": {"node": node, "path": path}})

def cmd_rig(args):
    b = Builder()
    b.doc["materials"] = [{"name": "m"}]
    tri = b.mesh("tri", {"POSITION": b.add("3f", [(0, 0, 0), (0.2, 0, 0), (0, -0.3, 0.1)], "VEC3", 5126)},
                 [(0, 1, 2)], 0)
    foot = b.node(name="foot", mesh=tri)
    ankle = b.node(name="ankle", translation=[0, -0.5, 0], children=[foot])
    knee = b.node(name="knee", translation=[0, -0.5, 0], rotation=list(axis_angle((1, 0, 0), 10)), children=[ankle])
    thigh = b.node(name="thigh", mesh=tri, translation=[0.1, 0, 0])
    hip = b.node(name="hip", translation=[0, 1, 0], children=[knee, thigh])
    b.doc["scenes"][0]["nodes"] = [hip]
    swing = {"name": "Swing", "channels": [], "samplers": []}
    channel(b, swing, hip, "rotation", [0, 0.45, 0.95, 1.5, 2.0],
            [axis_angle((0, 1, 0), d) for d in (0, 170, 340, 200, 0)], "4f", "VEC4")
    channel(b, swing, knee, "rotation", [0, 0.7, 1.3, 2.0],
            [axis_angle((1, 0.5, 0.25), d) for d in (10, 80, -60, 10)], "4f", "VEC4")
    channel(b, swing, ankle, "translation", [0, 1.0, 2.0], [(0, -0.5, 0), (0.3, -0.4, 0.2), (0, -0.5, 0)], "3f", "VEC3")
    channel(b, swing, ankle, "scale", [0, 0.5, 1.25], [(1, 1, 1), (1.5, 1, 1), (1, 2, 0.5)], "3f", "VEC3", "STEP")
    bounce = {"name": "Bounce", "channels": [], "samplers": []}
    # CUBICSPLINE: per key an in-tangent, the value, an out-tangent.
    keys = [((0, 0, 0), (0, 1, 0), (0, 2, 0)), ((0, -1, 0), (0.2, 1.4, 0), (0, 1, 0)), ((1, 0, 0), (0, 1, 0), (0, 0, 0))]
    channel(b, bounce, hip, "translation", [0, 0.5, 1.0], [v for k in keys for v in k], "3f", "VEC3", "CUBICSPLINE")
    channel(b, bounce, knee, "scale", [0, 0.5, 1.0], [(1, 1, 1), (0.5, 0.8, 1.2), (1, 1, 1)], "3f", "VEC3")
    b.doc["animations"] = [swing, bounce]
    b.doc["buffers"] = [{"byteLength": len(b.bin)}]
    write_glb(args[0], b.doc, b.bin)

def cmd_unskin(args):
    doc, binary = read_glb(args[0])
    for n in doc["nodes"]:
        n.pop("skin", None)
    doc.pop("skins", None)
    for m in doc["meshes"]:
        for p in m["primitives"]:
            for k in [k for k in p["attributes"] if k.startswith(("JOINTS_", "WEIGHTS_"))]:
                del p["attributes"][k]
    write_glb(args[1], doc, binary)

if __name__ == "__main__":
    {"rig": cmd_rig, "unskin": cmd_unskin}[sys.argv[1]](sys.argv[2:])
