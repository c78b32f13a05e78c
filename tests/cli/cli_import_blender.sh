#!/usr/bin/env bash
# `import --base` of Blender's own re-export (Debian's Blender 3.4, exporter defaults: vertices
# split, reordered, triangles rotated): the geometry comes back unchanged, and an object whose
# vertices were moved in Blender changes its positions and their dependants only. Skipped,
# saying so, when blender is not installed.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_import_blender
. "$HERE/cli_lib.sh"
if ! command -v blender >/dev/null 2>&1; then
  echo "$NAME: skipped: blender is not installed (Debian: apt-get install blender)"
  exit 0
fi
blender_reexport() { # IN OUT ORDERED [--move OBJECT DZ]
  blender -b --factory-startup --python "$HERE/blender_reexport.py" -- "$@" >"$T/blender.log" 2>&1 \
    && [ -s "$2" ] && ok || { bad "blender: $*"; tail -5 "$T/blender.log" >&2; }
}
# import_reexport GLB ORDERED: import --base; while the node matcher wants convert's node order
# (import.base.tree), the copy with nodes put parents first (same geometry) is imported instead.
import_reexport() {
  "$UE" import "$1" --base "$R" -o "$T/back.msh" -f >"$T/out" 2>"$T/err"
  if grep -q "import.base.tree" "$T/err"; then
    echo "$NAME: note: the node matcher refused Blender's node order; geometry checked on the parents-first copy"
    "$UE" import "$2" --base "$R" -o "$T/back.msh" -f >"$T/out" 2>"$T/err"
  fi
  [ -s "$T/back.msh" ] && ok || { bad "import --base $1"; cat "$T/err" >&2; }
}
# The resources the import reports changed, one word each ("nothing" when none).
changed() { sed -n 's/^changed: //p' "$T/err" | sed 's/ (.*//' | tr ' ' '\n' | grep -v '^$'; }
lacks() { if changed | grep -qx "$1"; then bad "$2: $1 changed"; grep '^changed' "$T/err" >&2; else ok; fi; }
has() { if changed | grep -qx "$1"; then ok; else bad "$2: $1 unchanged"; grep '^changed' "$T/err" >&2; fi; }

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb"

# ---- unedited: no geometry resource changes (Res3-7 vertices to triangles, Res13 batches, Res18 colours)
blender_reexport "$T/robot.glb" "$T/bl.glb" "$T/bl_ordered.glb"
import_reexport "$T/bl.glb" "$T/bl_ordered.glb"
for res in Res3 Res4 Res5 Res6 Res7 Res13 Res18; do lacks "$res" "unedited Blender re-export"; done

# ---- one object's vertices moved up by 0.25 in Blender: its positions, bounds and face normals
blender_reexport "$T/robot.glb" "$T/mv.glb" "$T/mv_ordered.glb" --move head 0.25
import_reexport "$T/mv.glb" "$T/mv_ordered.glb"
has Res3 "head moved"
for res in Res4 Res5 Res6 Res13 Res18; do lacks "$res" "head moved"; done
"$UE" validate --strict "$T/back.msh" >/dev/null 2>&1 && ok || bad "validate --strict of the moved head"
finish
