# Blender glTF client driver of the real-client round trips (tests/cli/cli_clients.sh): imports a
# glTF with Blender's own importer, applies the edits named on the command line with bpy, and
# exports with the exporter's defaults (GLB for OUT.glb, separate .gltf + .bin + images for OUT.gltf).
#
# blender -b --factory-startup --python blender_gltf.py -- IN OUT [EDIT...]
# EDIT (names are glTF node, material and image names; offsets are glTF axes, the node's own frame):
#   move=NODE:DX,DY,DZ     every vertex of NODE's mesh moved by (DX, DY, DZ)
#   rename=NODE:NEW        NODE renamed
#   color=MATERIAL:R,G,B,A the material's base colour factor set (a multiply Mix node, as the importer builds it)
#   image=IMAGE:R,G,B,A    IMAGE painted with a ramp towards that colour (0..1), image_ramp() below
#   delete=NODE            NODE and everything under it deleted
#   scale=NODE:S           NODE scaled by S on every axis
#   skin=NODE              NODE bound to a new one-bone armature, every vertex weighted 1
import sys
import warnings

import numpy

# Debian 12's numpy (1.24) removed the `numpy.bool` alias that Blender 3.4's glTF importer still
# uses (io_import_scene_gltf2: numpy.bool in the primitive decoder); restore it before importing.
with warnings.catch_warnings():  # numpy 1.24 warns on the very lookup of the removed name
    warnings.simplefilter("ignore", FutureWarning)
    if not hasattr(numpy, "bool"):
        numpy.bool = numpy.bool_

import bpy  # noqa: E402  (after the numpy fix-up, as the add-on imports numpy on load)
from mathutils import Vector  # noqa: E402


def fail(msg):
    print("blender_gltf.py: " + msg, file=sys.stderr)
    sys.exit(1)


def blender_axes(x, y, z):
    """glTF (Y up) → Blender (Z up), the importer's own conversion: (x, y, z) → (x, -z, y)."""
    return Vector((x, -z, y))


def numbers(text, count):
    values = [float(v) for v in text.split(",")]
    if len(values) != count:
        fail("want %d numbers, got '%s'" % (count, text))
    return values


def find(collection, name, what):
    item = collection.get(name)
    if item is None:
        fail("no %s named '%s' (there are: %s)" % (what, name, ", ".join(sorted(collection.keys()))))
    return item


def edit_move(arg):
    name, offset = arg.split(":", 1)
    obj = find(bpy.data.objects, name, "object")
    delta = blender_axes(*numbers(offset, 3))
    for vertex in obj.data.vertices:
        vertex.co += delta


def edit_rename(arg):
    name, new = arg.split(":", 1)
    find(bpy.data.objects, name, "object").name = new


def edit_color(arg):
    name, rgba = arg.split(":", 1)
    factor = numbers(rgba, 4)
    tree = find(bpy.data.materials, name, "material").node_tree
    bsdf = next(n for n in tree.nodes if n.type == "BSDF_PRINCIPLED")
    socket = bsdf.inputs["Base Color"]
    if not socket.is_linked:
        socket.default_value = factor
        return
    # A texture drives the colour: multiply it by the factor with a colour Mix node, the node
    # setup the glTF add-on itself builds for a textured baseColorFactor and reads on export.
    mix = tree.nodes.new("ShaderNodeMix")
    mix.data_type, mix.blend_type = "RGBA", "MULTIPLY"
    inputs = {s.identifier: s for s in mix.inputs}
    inputs["Factor_Float"].default_value = 1.0
    inputs["B_Color"].default_value = factor
    tree.links.new(socket.links[0].from_socket, inputs["A_Color"])
    tree.links.new(next(s for s in mix.outputs if s.identifier == "Result_Color"), socket)
    bsdf.inputs["Alpha"].default_value = factor[3]


def image_ramp(width, height, rgba):
    """The picture of the image edit, image_ramp.mjs's for the other drivers: texel (x, y), row 0
    at the top, is R·(x+1)/w, G·(y+1)/h, B, A·(x+y+1)/(w+h−1), in 8-bit steps; rows from the top."""
    r, g, b, a = rgba
    return [[[round(255 * v) / 255 for v in (r * (x + 1) / width, g * (y + 1) / height, b,
                                              a * (x + y + 1) / (width + height - 1))]
             for x in range(width)] for y in range(height)]


def edit_image(arg):
    name, rgba = arg.split(":", 1)
    image = find(bpy.data.images, name, "image")
    width, height = image.size
    rows = image_ramp(width, height, numbers(rgba, 4))
    # Blender keeps an image's rows from the bottom up.
    image.pixels = [c for row in reversed(rows) for texel in row for c in texel]
    image.update()


def edit_delete(arg):
    obj = find(bpy.data.objects, arg, "object")
    for doomed in [obj] + list(obj.children_recursive):
        bpy.data.objects.remove(doomed, do_unlink=True)


def edit_scale(arg):
    name, factor = arg.split(":", 1)
    s = float(factor)
    find(bpy.data.objects, name, "object").scale = (s, s, s)


def edit_skin(arg):
    obj = find(bpy.data.objects, arg, "object")
    armature = bpy.data.armatures.new(arg + "_rig")
    rig = bpy.data.objects.new(arg + "_rig", armature)
    bpy.context.scene.collection.objects.link(rig)
    rig.matrix_world = obj.matrix_world
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    bone = armature.edit_bones.new("bone")
    bone.head, bone.tail = (0, 0, 0), (0, 0, 0.25)
    bpy.ops.object.mode_set(mode="OBJECT")
    group = obj.vertex_groups.new(name="bone")
    group.add([v.index for v in obj.data.vertices], 1.0, "REPLACE")
    modifier = obj.modifiers.new("rig", "ARMATURE")
    modifier.object = rig


EDITS = {"move": edit_move, "rename": edit_rename, "color": edit_color, "image": edit_image,
         "delete": edit_delete, "scale": edit_scale, "skin": edit_skin}


def main(argv):
    if len(argv) < 2:
        fail("usage: blender -b --factory-startup --python blender_gltf.py -- IN OUT [EDIT...]")
    source, target, edits = argv[0], argv[1], argv[2:]
    # An empty scene (no default cube, camera or light), as a modder starts an import.
    bpy.ops.wm.read_homefile(use_empty=True)
    if bpy.ops.import_scene.gltf(filepath=source) != {"FINISHED"}:
        fail("the import of %s failed" % source)
    for edit in edits:
        kind, _, arg = edit.partition("=")
        if kind not in EDITS:
            fail("unknown edit '%s'" % edit)
        EDITS[kind](arg)
    fmt = "GLB" if target.endswith(".glb") else "GLTF_SEPARATE"
    if bpy.ops.export_scene.gltf(filepath=target, export_format=fmt) != {"FINISHED"}:
        fail("the export of %s failed" % target)


main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else [])
