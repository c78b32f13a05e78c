# Blender's own glTF round trip: import IN, export OUT as GLB with the exporter's defaults.
# Run: blender -b --factory-startup --python blender_reexport.py -- IN OUT [ORDERED] [--move OBJECT DZ]
# ORDERED, when given, gets a copy of OUT whose node list is put parents first, depth-first from
# the scene roots (the order convert writes), for an import that matches nodes by position.
# --move adds DZ to Blender's z (glTF's y, up) of every vertex of OBJECT's mesh: one object moved.
import json
import struct
import sys

import numpy

if not hasattr(numpy, "bool"):  # Debian 12's Blender 3.4 importer still uses numpy.bool
    numpy.bool = numpy.bool_
import bpy  # noqa: E402


def parents_first(src, dst):
    data = open(src, "rb").read()
    jlen = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + jlen])
    order = []

    def visit(n):
        order.append(n)
        for c in doc["nodes"][n].get("children", []):
            visit(c)

    for root in doc["scenes"][doc.get("scene", 0)]["nodes"]:
        visit(root)
    new_of = {old: new for new, old in enumerate(order)}
    doc["nodes"] = [doc["nodes"][o] for o in order]
    for n in doc["nodes"]:
        if "children" in n:
            n["children"] = [new_of[c] for c in n["children"]]
    for s in doc["scenes"]:
        s["nodes"] = [new_of[c] for c in s["nodes"]]
    for a in doc.get("animations", []):
        for ch in a["channels"]:
            if "node" in ch["target"]:
                ch["target"]["node"] = new_of[ch["target"]["node"]]
    for sk in doc.get("skins", []):
        sk["joints"] = [new_of[j] for j in sk["joints"]]
        if "skeleton" in sk:
            sk["skeleton"] = new_of[sk["skeleton"]]
    js = json.dumps(doc).encode()
    js += b" " * (-len(js) % 4)
    rest = data[20 + jlen:]
    head = struct.pack("<III", 0x46546C67, 2, 20 + len(js) + len(rest)) + struct.pack("<II", len(js), 0x4E4F534A)
    open(dst, "wb").write(head + js + rest)


args = sys.argv[sys.argv.index("--") + 1:]
move = None
if "--move" in args:
    at = args.index("--move")
    move = (args[at + 1], float(args[at + 2]))
    args = args[:at] + args[at + 3:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=args[0])
if move:
    mesh = bpy.data.objects[move[0]].data
    for v in mesh.vertices:
        v.co.z += move[1]
bpy.ops.export_scene.gltf(filepath=args[1], export_format="GLB")
if len(args) > 2:
    parents_first(args[1], args[2])
