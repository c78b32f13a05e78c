#!/usr/bin/env bash
# End-to-end tests of names and output paths: CP1251 in Parkan files and UTF-8 in everything
# unearth prints or writes (edit --rename-node, info, glTF, OBJ, batch file names), and how
# convert picks, creates and protects its outputs (extension case, --format, parents, clashes,
# empty selections).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_convert
. "$HERE/cli_lib.sh"
export LC_ALL=C.UTF-8 PYTHONIOENCODING=utf-8
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
json_field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1], encoding='utf-8')); print(eval(sys.argv[2]))" "$@"; }
glb_json() { python3 -c "import json,struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack_from('<I',b,12)[0]; d=json.loads(b[20:20+n]); print(eval(sys.argv[2]))" "$@"; }
# The stored bytes of node N's Res10 record, as hex (u32 length, then the bytes): read straight
# from the NRes directory, not through unearth.
res10_name_hex() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(); want = int(sys.argv[2])
n = struct.unpack_from('<i', d, 8)[0]; dir_off = len(d) - 64 * n
for i in range(n):
    t = struct.unpack_from('<I', d, dir_off + 64 * i)[0]
    off = struct.unpack_from('<I', d, dir_off + 64 * i + 56)[0]
    if t != 10: continue
    for node in range(want + 1):
        length = struct.unpack_from('<I', d, off)[0]
        text = d[off + 4:off + 4 + length]
        off += 4 + (length + 1 if length else 0)
    print(text.hex())
PY
}

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
A="$T/demo/parkan/objects.rlb"

# ---- names: edit --rename-node takes UTF-8 and stores Windows-1251 ----
expect_rc 0 "$UE" edit "$R" -o "$T/ru.msh" --rename-node 2 "Антенна" --rename-node 3 "left arm" \
  --rename-node 4 $'a\u00a0b#1'
want=$(python3 -c "print('Антенна'.encode('cp1251').hex())")
[ "$(res10_name_hex "$T/ru.msh" 2)" = "$want" ] && ok || bad "Res10 node 2 is not CP1251 $want"
[ "$want" = c0edf2e5edede0 ] && ok || bad "python's cp1251 table disagrees with the spec's letter rows"
[ "$(res10_name_hex "$T/ru.msh" 4)" = 61a0622331 ] && ok || bad "U+00A0 is stored as CP1251 0xA0"
expect_rc 0 "$UE" info --json "$T/ru.msh"
[ "$(json_field "$T/out" 'd["node_table"][2]["name"]')" = "Антенна" ] && ok || bad "info --json name in UTF-8"
expect_rc 0 "$UE" info "$T/ru.msh"
grep -q "^     2  Антенна                   1 " "$T/out" && ok || bad "info text: UTF-8 name padded by characters"
# characters CP1251 lacks, and bytes that are not UTF-8, are refused by name; nothing is written
expect_rc 2 "$UE" edit "$R" -o "$T/bad1.msh" --rename-node 2 "ab名"
grep -q "'名' (U+540D) has no Windows-1251 code" "$T/err" && ok || bad "unmappable character not named"
[ ! -e "$T/bad1.msh" ] && ok || bad "refused rename wrote a file"
expect_rc 2 "$UE" edit "$R" -o "$T/bad2.msh" --rename-node 2 $'x\xc3('
grep -q "is not UTF-8 text (byte 0xC3 at offset 1)" "$T/err" && ok || bad "malformed UTF-8 not reported"
[ ! -e "$T/bad2.msh" ] && ok || bad "refused rename wrote a file"

# glTF carries the UTF-8 names; OBJ statement names have no whitespace or '#'
expect_rc 0 "$UE" convert "$T/ru.msh" -o "$T/ru.gltf"
validate_gltf "$T/ru.gltf"
[ "$(json_field "$T/ru.gltf" 'd["nodes"][3]["name"]')" = "Антенна" ] && ok || bad "glTF node name"
[ "$(json_field "$T/ru.gltf" 'd["nodes"][4]["name"]')" = "left arm" ] && ok || bad "glTF keeps spaces"
[ "$(json_field "$T/ru.gltf" 'd["nodes"][5]["name"] == "a\u00a0b#1"')" = True ] && ok || bad "glTF keeps U+00A0"
expect_rc 0 "$UE" convert "$T/ru.msh" -o "$T/my robot.obj"
grep -qx "o Антенна" "$T/my robot.obj" && ok || bad "OBJ object name in UTF-8"
grep -qx "o left_arm" "$T/my robot.obj" && ok || bad "OBJ name with a space"
grep -qx "o a_b_1" "$T/my robot.obj" && ok || bad "OBJ name with U+00A0 and '#'"
grep -qx "mtllib my_robot.mtl" "$T/my robot.obj" && ok || bad "mtllib name with a space"
[ -f "$T/my_robot.mtl" ] && [ ! -e "$T/my robot.mtl" ] && ok || bad "MTL file not under the mtllib name"
[ "$(grep -c '^newmtl ' "$T/my_robot.mtl")" = "$(sort -u <(grep '^usemtl ' "$T/my robot.obj") | wc -l)" ] \
  && ok || bad "every usemtl has its newmtl"

# ---- names: batch file names keep non-ASCII letters ----
# objects.rlb with ROBOT.msh renamed to CP1251 "РОБОТ.msh" and a copy named "..msh"
expect_rc 0 "$UE" extract "$A" -o "$T/ex"
python3 - "$T/ex/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
esc = lambda s: ''.join('\\x%02X' % b if b >= 0x80 else chr(b) for b in s.encode('cp1251'))
robot = [e for e in m['entries'] if e['name'] == 'ROBOT.msh'][0]
robot['name'] = esc('РОБОТ.msh'); del robot['name_hex']
dots = dict(robot); dots['name'] = '..msh'; dots['index'] = len(m['entries'])
m['entries'].append(dots)
json.dump(m, open(sys.argv[1], 'w'), indent=1)
PY
expect_rc 0 "$UE" pack "$T/ex" -o "$T/cyr.rlb"
expect_rc 0 "$UE" validate "$T/cyr.rlb"
grep -q "model .*cyr.rlb:РОБОТ.msh: valid" "$T/out" && ok || bad "validate names the model in UTF-8"
expect_rc 0 "$UE" convert "$T/cyr.rlb" -o "$T/batch/"
[ "$(cd "$T/batch" && ls | sort | tr '\n' ' ')" = "model.glb РОБОТ.glb " ] && ok || bad "batch names: $(ls "$T/batch")"
grep -q "cyr.rlb:РОБОТ.msh -> $T/batch/РОБОТ.glb" "$T/err" && ok || bad "convert message in UTF-8"
validate_gltf "$T/batch/РОБОТ.glb"
[ "$(glb_json "$T/batch/РОБОТ.glb" 'd["nodes"][0]["name"]')" = "РОБОТ.msh" ] && ok || bad "root node named in UTF-8"
expect_rc 0 "$UE" convert "$T/cyr.rlb" -o "$T/objs" --format obj
[ -f "$T/objs/РОБОТ.obj" ] && grep -qx "mtllib РОБОТ.mtl" "$T/objs/РОБОТ.obj" && [ -f "$T/objs/РОБОТ.mtl" ] \
  && ok || bad "batch OBJ + MTL names"

# ---- output paths ----
# the extension decides in any case: X.GLB is a GLB file, Y.GLTF a glTF with Y.bin, Z.OBJ an OBJ
expect_rc 0 "$UE" convert "$R" -o "$T/X.GLB"
[ -f "$T/X.GLB" ] && [ "$(head -c 4 "$T/X.GLB")" = glTF ] && ok || bad "X.GLB is not a GLB file"
validate_gltf "$T/X.GLB"
expect_rc 0 "$UE" convert "$R" -o "$T/Y.GLTF"
[ -f "$T/Y.bin" ] && [ "$(json_field "$T/Y.GLTF" 'd["buffers"][0]["uri"]')" = Y.bin ] && ok || bad "Y.GLTF and its Y.bin"
expect_rc 0 "$UE" convert "$R" -o "$T/Z.OBJ"
[ "$(grep -c '^f ' "$T/Z.OBJ")" = 84 ] && grep -qx "mtllib Z.mtl" "$T/Z.OBJ" && [ -f "$T/Z.mtl" ] && ok || bad "Z.OBJ"
# a name ending in '/' is a directory whatever its extension
expect_rc 0 "$UE" convert "$R" -o "$T/d.glb/"
[ -f "$T/d.glb/robot.glb" ] && ok || bad "trailing slash makes a directory"
# --format may repeat the extension but not contradict it
expect_rc 2 "$UE" convert "$R" -o "$T/f.glb" --format obj
grep -q "format obj contradicts the output name .*f.glb" "$T/err" && ok || bad "contradiction not explained"
[ ! -e "$T/f.glb" ] && [ ! -e "$T/f.obj" ] && ok || bad "contradicting --format wrote a file"
expect_rc 2 "$UE" convert "$R" -o "$T/f.OBJ" --format gltf
expect_rc 0 "$UE" convert "$R" -o "$T/f.gltf" --format gltf
# missing parent directories are created
expect_rc 0 "$UE" convert "$R" -o "$T/new/deep/r.glb"
[ -f "$T/new/deep/r.glb" ] && ok || bad "parents of a .glb not created"
expect_rc 0 "$UE" convert "$R" -o "$T/new2/deep/r.obj"
[ -f "$T/new2/deep/r.obj" ] && [ -f "$T/new2/deep/r.mtl" ] && ok || bad "parents of a .obj not created"
# a clash names the file that exists, and nothing is written
touch "$T/c.mtl"
expect_rc 2 "$UE" convert "$R" -o "$T/c.obj"
grep -q "$T/c.mtl: output exists" "$T/err" && ok || bad "clash does not name c.mtl"
grep -q "c.obj: output exists" "$T/err" && bad "clash names c.obj, which does not exist" || ok
[ ! -e "$T/c.obj" ] && [ ! -s "$T/c.mtl" ] && ok || bad "refused OBJ run wrote something"
touch "$T/t.bin"
expect_rc 2 "$UE" convert "$R" -o "$T/t.gltf"
grep -q "$T/t.bin: output exists" "$T/err" && ok || bad "clash does not name t.bin"
# an empty selection is an error naming what the model holds, not an empty glb
expect_rc 1 "$UE" convert "$R" -o "$T/l2.glb" --lod 2
grep -q "LOD 2 has no geometry; the model has LOD 0 (groups 0, 1), LOD 1 (group 0)" "$T/err" \
  && ok || bad "empty LOD not explained"
[ ! -e "$T/l2.glb" ] && ok || bad "empty LOD wrote a file"
expect_rc 1 "$UE" convert "$R" -o "$T/g3.obj" --group 3
grep -q "LOD 0 group 3 has no geometry" "$T/err" && ok || bad "empty group not explained"
[ ! -e "$T/g3.obj" ] && [ ! -e "$T/g3.mtl" ] && ok || bad "empty group wrote a file"
expect_rc 1 "$UE" convert "$R" -o "$T/l1g1.glb" --lod 1 --group 1
expect_rc 0 "$UE" convert "$R" -o "$T/l1g0.glb" --lod 1 --group 0
[ "$(glb_json "$T/l1g0.glb" 'len(d["meshes"])')" = 3 ] && ok || bad "LOD 1 group 0 holds three meshes"

# Batch names mirror the folders and never collide: the .mtl files that OBJ output writes
# beside each model are checked too ("a b" and "a_b" share "a_b.mtl", so one becomes "a_b~2").
mkdir -p "$T/clash/x" "$T/clash/y" "$T/clash/z"
cp "$T/demo/parkan/robot.msh" "$T/clash/x/a.msh"; cp "$T/demo/parkan/robot.msh" "$T/clash/y/a_2.msh"
cp "$T/demo/parkan/robot.msh" "$T/clash/z/a.msh"
expect_rc 0 "$UE" convert -r "$T/clash" -o "$T/clash_out"
[ -f "$T/clash_out/x/a.glb" ] && [ -f "$T/clash_out/y/a_2.glb" ] && [ -f "$T/clash_out/z/a.glb" ] && ok \
  || bad "three models did not give three mirrored files: $(cd "$T/clash_out" && find . -type f)"
mkdir -p "$T/mtl"; cp "$T/demo/parkan/robot.msh" "$T/mtl/a b.msh"; cp "$T/demo/parkan/robot.msh" "$T/mtl/a_b.msh"
expect_rc 0 "$UE" convert -r "$T/mtl" -o "$T/mtl_out" --format obj
[ "$(ls "$T/mtl_out"/*.mtl | wc -l)" = 2 ] && [ -f "$T/mtl_out/a_b~2.mtl" ] && ok || bad "two OBJ models share one .mtl: $(ls "$T/mtl_out")"
for obj in "$T/mtl_out"/*.obj; do
  lib=$(sed -n 's/^mtllib //p' "$obj"); [ -f "$T/mtl_out/$lib" ] && ok || bad "$obj names a missing $lib"
done
finish
