#!/usr/bin/env bash
# FigaTree clips and DAT banks from the command line, on the files test_hsd_figatree writes (a
# 3-joint model, a bank of three clips, a bank of a 2-joint skeleton, one FigaTree DAT): list,
# extract + pack byte for byte (also after an entry changes size), roundtrip, validate, info's
# clip table, convert --anims (Khronos validator, animation names and end times), the
# joint-count error, and an --anims bank that an output would overwrite.
set -u
PROG="$1"
UE="$2"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=hsd_figatree_cli
. "$HERE/../cli/cli_lib.sh"
"$PROG" "$T" >"$T/prog" 2>&1 || { cat "$T/prog" >&2; bad "test_hsd_figatree"; finish; exit 1; }
B="$T/bank.dat"

# list: one entry per DAT, named from its root, at 32-aligned offsets
expect_rc 0 "$UE" list --json "$B"
check "entry names" "$(python3 -c 'import json,sys; print(",".join(e["name"] for e in json.load(open(sys.argv[1]))["entries"]))' "$T/out")" \
  "PlyTest_Share_ACTION_Wait1_figatree.dat,PlyTest_Share_ACTION_Walk_figatree.dat,PlyTest_Jump_figatree.dat"
check "offsets 32-aligned" "$(python3 -c 'import json,sys; print(all(e["offset"] % 32 == 0 for e in json.load(open(sys.argv[1]))["entries"]))' "$T/out")" True

# extract + pack: the same bytes; an entry that grows moves the next one to its 32-byte boundary
expect_rc 0 "$UE" extract "$B" -o "$T/x"
expect_rc 0 "$UE" pack "$T/x" -o "$T/again.dat"
cmp -s "$B" "$T/again.dat" && ok || bad "pack is not byte-exact"
cp "$T/walk.dat" "$T/x/entries/0000_PlyTest_Share_ACTION_Wait1_figatree.dat"
expect_rc 0 "$UE" pack "$T/x" -o "$T/edited.dat"
expect_rc 0 "$UE" list --json "$T/edited.dat"
check "edited bank: offsets 32-aligned" "$(python3 -c 'import json,sys; print(all(e["offset"] % 32 == 0 for e in json.load(open(sys.argv[1]))["entries"]))' "$T/out")" True
check "edited bank: size" "$(stat -c %s "$T/edited.dat")" \
  "$(python3 -c 'import os,sys; a=lambda n:(n+31)//32*32; print(a(os.path.getsize(sys.argv[1]))+sum(a(os.path.getsize(sys.argv[2]+"/entries/"+f)) for f in sorted(os.listdir(sys.argv[2]+"/entries"))[1:]))' "$T/walk.dat" "$T/x")"

expect_rc 0 "$UE" roundtrip "$B"
grep -q "identical (datbank" "$T/out" && ok || bad "roundtrip: $(cat "$T/out")"
expect_rc 0 "$UE" validate "$B"
grep -q "valid (datbank, 3 entries, 0 errors, 0 warnings)" "$T/out" && ok || bad "validate: $(cat "$T/out")"

# info: the clip table of the bank and of a single FigaTree DAT
expect_rc 0 "$UE" info "$B"
grep -q '^    \[0\] entry 0, clip Wait1, frames 20, joints 3, root PlyTest_Share_ACTION_Wait1_figatree$' "$T/out" && ok || bad "info: $(cat "$T/out")"
grep -q '^    \[2\] entry 2, clip PlyTest_Jump, frames 4, joints 3' "$T/out" && ok || bad "info: jump"
expect_rc 0 "$UE" info "$T/walk.dat"
grep -q '^  clip Walk: 8 frames, 3 joints$' "$T/out" && ok || bad "info walk.dat: $(cat "$T/out")"

# convert --anims: one animation per clip, exact end times, valid glTF
expect_rc 0 "$UE" convert "$T/model.dat" --anims "$B" -o "$T/m.glb"
if node "$HERE/../gltf_validate.mjs" "$T/m.glb" >"$T/val" 2>&1; then ok; else bad "gltf-validator"; cat "$T/val" >&2; fi
check "animations" "$(python3 - "$T/m.glb" <<'PY'
import json, struct, sys
b = open(sys.argv[1], 'rb').read()
n = struct.unpack('<I', b[12:16])[0]
g = json.loads(b[20:20 + n])
out = []
for a in g['animations']:
    end = max(g['accessors'][s['input']]['max'][0] for s in a['samplers'])
    out.append('%s@%g' % (a['name'], round(end * 60, 4)))
print(','.join(out))
PY
)" "Wait1@20,Walk@8,PlyTest_Jump@4"
# a single FigaTree DAT, twice --anims: its clip comes twice
expect_rc 0 "$UE" convert "$T/model.dat" --anims "$T/walk.dat" --anims "$B" -o "$T/two.glb"
check "two --anims" "$(python3 -c 'import json,struct,sys; b=open(sys.argv[1],"rb").read(); n=struct.unpack("<I",b[12:16])[0]; print(len(json.loads(b[20:20+n])["animations"]))' "$T/two.glb")" 4

# a bank of another skeleton: exit 1 naming both counts, nothing written
expect_rc 1 "$UE" convert "$T/model.dat" --anims "$T/other.dat" -o "$T/bad.glb"
grep -q "animate 2 joints, the model has 3" "$T/err" && ok || bad "joint count message: $(cat "$T/err")"
[ ! -e "$T/bad.glb" ] && ok || bad "a failed convert wrote its output"
# the bank is an input: never an output, -f or not
expect_rc 2 "$UE" convert "$T/model.dat" --anims "$B" -o "$B" -f
cmp -s "$B" "$T/again.dat" && ok || bad "the bank was overwritten"
expect_rc 2 "$UE" convert -r "$T" --anims "$B" -o "$T/all"
finish
