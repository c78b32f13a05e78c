# Blender's round trip of a glTF, run by `blender -b --factory-startup --python THIS -- IN OUT [EDIT]`:
# import IN with the importer's defaults, apply EDIT ("rename:OLD=NEW" or "delete:NAME" of an
# object), export OUT with the exporter's defaults (.glb, or .gltf with its .bin and images).
import sys

import numpy
if not hasattr(numpy, "bool"):  # Debian 12's Blender 3.4 importer still uses numpy.bool
    numpy.bool = numpy.bool_
import bpy

args = sys.argv[sys.argv.index("--") + 1:]
src, dst = args[0], args[1]
edit = args[2] if len(args) > 2 else ""
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=src)
if edit.startswith("rename:"):
    old, new = edit[len("rename:"):].split("=", 1)
    bpy.data.objects[old].name = new
elif edit.startswith("delete:"):
    bpy.data.objects.remove(bpy.data.objects[edit[len("delete:"):]], do_unlink=True)
elif edit:
    sys.exit("unknown edit " + edit)
bpy.ops.export_scene.gltf(filepath=dst, export_format="GLTF_SEPARATE" if dst.endswith(".gltf") else "GLB")
