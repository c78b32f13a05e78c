#!/usr/bin/env bash
# `import --base` of the robot re-exported by Blender 3.4 with its defaults (children before
# parents, no extras, so no selection record or source ids): every selection convert writes, as
# .glb and .gltf, gets past the node matching with no node renamed; a node renamed in Blender
# is found by its place; a node deleted there is removed, named. Skipped without `blender`.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_import_blender_nodes
. "$HERE/cli_lib.sh"
if ! command -v blender >/dev/null 2>&1; then
  echo "cli_import_blender_nodes: skipped: no blender on PATH"
  finish
  exit 0
fi
err_has() { grep -qF -- "$1" "$T/err" && ok || { bad "stderr lacks '$1' ($2)"; cat "$T/err" >&2; }; }
err_lacks() { ! grep -qF -- "$1" "$T/err" && ok || { bad "stderr has '$1' ($2)"; cat "$T/err" >&2; }; }
# blender_rt IN OUT [EDIT]: Blender's round trip (absolute paths: Blender writes a .gltf's
# companions relative to its own working directory otherwise).
blender_rt() {
  blender -b --factory-startup --python "$HERE/blender_rewrite.py" -- "$@" >"$T/blender.log" 2>&1 &&
    [ -s "$2" ] && ok || { bad "blender round trip $*"; tail -20 "$T/blender.log" >&2; }
}
# What the client did to the file, so that the matching below is tested against it: no
# asset.extras, no extras anywhere, and some node written before its parent.
client_shape() {
  python3 - "$1" <<'PY'
import json, struct, sys
d = open(sys.argv[1], "rb").read()
j = json.loads(d[20:20 + struct.unpack("<I", d[12:16])[0]] if d[:4] == b"glTF" else d)
assert "extras" not in j["asset"], "asset.extras kept"
assert "unearth_source" not in json.dumps(j), "source ids kept"
parent = {c: i for i, n in enumerate(j["nodes"]) for c in n.get("children", [])}
assert any(c < p for c, p in parent.items()), "no child before its parent"
PY
}

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
for sel in "" "--lod all" "--group all"; do
  for ext in glb gltf; do
    what="convert ${sel:-(default)} → Blender .$ext"
    expect_rc 0 "$UE" convert "$R" -o "$T/c.glb" -f $sel
    rm -rf "$T/bl"; mkdir "$T/bl"
    blender_rt "$T/c.glb" "$T/bl/b.$ext"
    client_shape "$T/bl/b.$ext" && ok || bad "$what: Blender's output is not what this test expects"
    "$UE" import "$T/bl/b.$ext" --base "$R" -o "$T/b.msh" -f >"$T/out" 2>"$T/err"
    err_lacks "import.base.tree" "$what"
    # Matched nodes keep their names (a node matched to another would take its name: Res10).
    grep -q "^changed:" "$T/err" && ok || { bad "$what: no changed: line"; cat "$T/err" >&2; }
    err_lacks "Res10" "$what"
  done
done

# Renamed in Blender: found by its place under its parent, and only its name is new.
expect_rc 0 "$UE" convert "$R" -o "$T/c.glb" -f
blender_rt "$T/c.glb" "$T/ren.glb" "rename:arm_left=arm L"
expect_rc 0 "$UE" import "$T/ren.glb" --base "$R" -o "$T/ren.msh" -f
err_has "Res10" "a node renamed in Blender"
expect_rc 0 "$UE" info "$T/ren.msh" --json
names=$(python3 -c 'import json,sys; print(",".join(str(n["name"]) for n in json.load(open(sys.argv[1]))["node_table"]))' "$T/out")
check "node names after a rename in Blender" "$names" "body,head,None,arm L,arm_right,legs"

# Deleted in Blender: removed from the model, named; the others keep their order.
blender_rt "$T/c.glb" "$T/del.glb" "delete:arm_right"
expect_rc 0 "$UE" import "$T/del.glb" --base "$R" -o "$T/del.msh"
err_has 'deletes 1 node of the base model, removed with their slots and tracks (the nodes after them are renumbered): "arm_right"' "a node deleted in Blender"
err_has "changed: Res1 Res2 Res8 Res10 Res19" "a node deleted in Blender"
expect_rc 0 "$UE" validate --strict "$T/del.msh"
expect_rc 0 "$UE" info "$T/del.msh" --json
names=$(python3 -c 'import json,sys; print(",".join(str(n["name"]) for n in json.load(open(sys.argv[1]))["node_table"]))' "$T/out")
check "node names after a deletion in Blender" "$names" "body,head,None,arm_left,legs"
finish
