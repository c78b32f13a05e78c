# The modder's loop in Blender (docs/hsd-import.md "From the game to Blender and back"): import IN,
# optionally edit, export OUT as GLB with the exporter's defaults.
# Run: blender -b --factory-startup --python blender_creature.py -- IN OUT [--edit MESH IMAGE BONE CLIP]
# --edit: every vertex of object MESH weighted to bone BONE alone moves by +0.25 in x (a rigid move
# of that part: its normals stay, Blender keeps them relative to the faces); image IMAGE
# gets glb_image.py's 'checker' picture (same size); a new action CLIP keys pose bone BONE's rotation
# at frames 0 (rest), 10 (0.6 rad about the bone's x) and 20 (0.3 rad about its z): at 24 fps, whole
# frames of the clip's 60 (0, 25 and 50), where the import bounds its error.
# Blender 3.4's exporter writes face-corner colours in the wrong order (glTF-Blender-IO #1815, fixed
# in 3.5): they are moved to the vertices first, where the importer's one colour per vertex fits.
import sys

import numpy

if not hasattr(numpy, "bool"):  # Debian 12's Blender 3.4 importer still uses numpy.bool
    numpy.bool = numpy.bool_
import bpy  # noqa: E402
from mathutils import Quaternion  # noqa: E402


def corner_colours_to_vertices(me):
    for ca in list(me.color_attributes):
        if ca.domain != "CORNER":
            continue
        name, kind = ca.name, ca.data_type
        per_vertex = [(1.0, 1.0, 1.0, 1.0)] * len(me.vertices)
        for loop in me.loops:
            per_vertex[loop.vertex_index] = tuple(ca.data[loop.index].color)
        me.color_attributes.remove(ca)
        moved = me.color_attributes.new(name, kind, "POINT")
        for d, c in zip(moved.data, per_vertex):
            d.color = c
        me.color_attributes.active_color = moved
        me.color_attributes.render_color_index = me.color_attributes.find(name)


def checker(img):
    w, h = img.size
    px = [0.0] * (4 * w * h)
    for y in range(h):  # glTF's row y is Blender's row h - 1 - y
        for x in range(w):
            c = (200, 30, 60, 255) if (x // 4 + y // 4) % 2 else (20, 180, 90, 255)
            i = 4 * ((h - 1 - y) * w + x)
            px[i:i + 4] = [v / 255 for v in c]
    img.pixels[:] = px
    img.update()
    img.pack()


def new_clip(bone, clip):
    arm = next(o for o in bpy.data.objects if o.type == "ARMATURE")
    pb = arm.pose.bones[bone]
    pb.rotation_mode = "QUATERNION"
    bpy.context.scene.render.fps, bpy.context.scene.render.fps_base = 24, 1.0
    arm.animation_data_create()
    arm.animation_data.action = bpy.data.actions.new(clip)
    rest = pb.rotation_quaternion.copy()
    for frame, q in ((0, Quaternion()), (10, Quaternion((1, 0, 0), 0.6)), (20, Quaternion((0, 0, 1), 0.3))):
        pb.rotation_quaternion = rest @ q
        pb.keyframe_insert("rotation_quaternion", frame=frame)


args = sys.argv[sys.argv.index("--") + 1:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=args[0])
if bpy.app.version < (3, 5, 0):
    for ob in bpy.data.objects:
        if ob.type == "MESH":
            corner_colours_to_vertices(ob.data)
if "--edit" in args:
    mesh, image, bone, clip = args[args.index("--edit") + 1:][:4]
    ob = bpy.data.objects[mesh]
    group = ob.vertex_groups[bone].index
    for v in ob.data.vertices:
        if [g.group for g in v.groups if g.weight > 0] == [group]:
            v.co.x += 0.25
    checker(bpy.data.images[image])
    new_clip(bone, clip)
bpy.ops.export_scene.gltf(filepath=args[1], export_format="GLB")
