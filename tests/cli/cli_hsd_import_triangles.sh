#!/usr/bin/env bash
# import --base with changed triangles (docs/hsd-import.md#triangles): two triangles of a PObj left
# out and one added over its own vertices; the DAT is laid out anew with that PObj's list rebuilt as
# strips, validates strictly, and converts back to exactly the edited glb's triangles (every mesh:
# the others unchanged); a base the DAT writer does not lay out byte for byte is refused, nothing written.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_import_triangles
. "$HERE/cli_lib.sh"
edit() { python3 "$HERE/hsd_import_glb.py" "$@"; }

expect_rc 0 "$UE" demo -o "$T/demo"
DAT="$T/demo/gamecube/dat/creature.dat"
expect_rc 0 "$UE" convert "$DAT" -o "$T/c.glb"

# head_mesh 0: 12 triangles; triangles 0 and 3 out, one in over their corners: 11.
expect_rc 0 edit retriangle "$T/c.glb" "$T/t.glb" head_mesh 0 0 3
edit triangles "$T/c.glb" >"$T/before"
edit triangles "$T/t.glb" >"$T/want"
check "head_mesh/0 triangles before" "$(grep -c '^head_mesh/0:' "$T/before")" 12
check "head_mesh/0 triangles edited" "$(grep -c '^head_mesh/0:' "$T/want")" 11
cmp -s "$T/before" "$T/want" && bad "the edit changed no triangle" || ok
expect_rc 0 "$UE" import "$T/t.glb" --base "$DAT" -o "$T/t.dat"
grep -q "^rebuilt: 1 display list as strips (11 triangles)$" "$T/err" && ok || bad "rebuilt line: $(cat "$T/err")"
grep -q "^changed: 0 positions, 0 normals, 0 UVs, 0 colours in 1 PObj, 0 images, 0 materials$" "$T/err" && ok ||
  bad "changed line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/t.dat"
expect_rc 0 "$UE" convert "$T/t.dat" -o "$T/back.glb"
edit triangles "$T/back.glb" >"$T/got"
cmp -s "$T/want" "$T/got" && ok || bad "triangles back differ: $(diff "$T/want" "$T/got" | head -5)"
# The relaid DAT imports its own conversion back unchanged (the writer's layout is kept).
expect_rc 0 "$UE" import "$T/back.glb" --base "$T/t.dat" -o "$T/t2.dat"
cmp -s "$T/t.dat" "$T/t2.dat" && ok || bad "re-import of the rebuilt DAT is not byte-identical"

# A changed triangle list with a vertex moved in the same PObj: both written.
edit offset "$T/t.glb" "$T/tm.glb" root_mesh 0 POSITION 3 0.25,-0.5,0.125 >/dev/null
edit retriangle "$T/tm.glb" "$T/tm2.glb" root_mesh 0 1 5 >/dev/null
expect_rc 0 "$UE" import "$T/tm2.glb" --base "$DAT" -o "$T/tm.dat"
grep -q "^rebuilt: 2 display lists as strips (34 triangles)$" "$T/err" && ok || bad "rebuilt line: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/tm.dat"
expect_rc 0 "$UE" convert "$T/tm.dat" -o "$T/back2.glb"
edit triangles "$T/tm2.glb" >"$T/want2"
edit triangles "$T/back2.glb" >"$T/got2"
cmp -s "$T/want2" "$T/got2" && ok || bad "triangles with a moved vertex differ: $(diff "$T/want2" "$T/got2" | head -5)"

# A DAT laid out by another writer (the fuzz corpus's hand-built one_mesh.dat): refused by name.
F="$HERE/../../fuzz/corpus/dat/one_mesh.dat"
expect_rc 0 "$UE" convert "$F" -o "$T/o.glb"
NODE=$(python3 -c "import sys, json; sys.path.insert(0, '$HERE'); from glb_image import read_glb
print([n['name'] for n in read_glb('$T/o.glb')[0]['nodes'] if 'mesh' in n][0])")
expect_rc 0 edit drop-triangle "$T/o.glb" "$T/o2.glb" "$NODE" 0
expect_rc 1 "$UE" import "$T/o2.glb" --base "$F" -o "$T/o.dat"
grep -q "import.hsd.layout" "$T/err" && ok || bad "no import.hsd.layout: $(cat "$T/err")"
[ ! -e "$T/o.dat" ] && ok || bad "o.dat was written"

# A PObj two DObjs share (head_mesh's second DObj pointed at the first's PObj, patched at the
# DObj's PObj field +0x0C, docs/formats/hsd-model.md): rebuilding its triangles would change the
# other DObj too, which convert draws once: refused by name, nothing written.
python3 -c "import struct, sys; b = bytearray(open(sys.argv[1], 'rb').read())
u = lambda o: struct.unpack('>I', b[0x20 + o:0x24 + o])[0]
head = u(u(u(u(u(u(0))) + 8) + 8) + 8)  # scene_data → models → ModelSet → root → hips → chest → head
d0 = u(head + 0x10); d1 = u(d0 + 4)
b[0x20 + d1 + 0xc:0x24 + d1 + 0xc] = b[0x20 + d0 + 0xc:0x24 + d0 + 0xc]
open(sys.argv[2], 'wb').write(b)" "$DAT" "$T/shared.dat"
expect_rc 0 "$UE" convert "$T/shared.dat" -o "$T/shared.glb"
edit retriangle "$T/shared.glb" "$T/shared_t.glb" head_mesh 0 0 3 >/dev/null
expect_rc 1 "$UE" import "$T/shared_t.glb" --base "$T/shared.dat" -o "$T/shared2.dat"
grep -q "PObj [0-9]*, whose triangles this primitive changes, is drawn by 2 DObjs of the base.*\[import.hsd.conflict\]" "$T/err" && ok || bad "shared PObj: $(cat "$T/err")"
[ ! -e "$T/shared2.dat" ] && ok || bad "shared2.dat was written"

finish
