#!/usr/bin/env bash
# validate --strict on nested archives read through one mapping (issue 12): the lines for a
# stored nested model and a model inside an LZSS-compressed entry, and a damaged nested model
# reported at its byte in the outer file (computed here from the NRes directory).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_validate_nested
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/objects.rlb"
expect_rc 0 "$UE" validate --strict "$R"
# Its textures (the 'Texm' entry and the two of the nested library) are checked as models too.
printf '  model %s:Robot_Skin.tex: valid (8 x 8 texture, format 8888, 1 of 1 mip levels, 0 errors, 0 warnings)
  model %s:textures_inner.lib:GRID_01: valid (8 x 8 texture, format 565, 1 of 1 mip levels, 0 errors, 0 warnings)
  model %s:textures_inner.lib:grid_00: valid (4 x 4 texture, format 8888, 1 of 1 mip levels, 0 errors, 0 warnings)
  model %s:ROBOT.msh: valid (6 nodes, 10 batches, 216 vertices, 102 triangles, 0 errors, 0 warnings)\n%s: valid (nres, 7 entries, 0 errors, 0 warnings)\n' \
  "$R" "$R" "$R" "$R" "$R" | cmp -s - "$T/out" && ok || bad "stored nested model: $(cat "$T/out")"
F="$T/demo/gamecube/creature.fsys"
expect_rc 0 "$UE" validate --strict "$F"
printf '  model %s:creature.pkx:model.dat: valid (8 joints, 5 meshes, 6 PObjs, 80 vertices, 52 triangles, 0 errors, 0 warnings)\n%s: valid (fsys, 1 entry, 0 errors, 0 warnings)\n' \
  "$F" "$F" | cmp -s - "$T/out" && ok || bad "model in a compressed entry: $(cat "$T/out")"

# ROBOT.msh's NRes version word (its byte 4) changed from 0x100 to 0x101, in a copy.
D="$T/damaged.rlb"
read -r index at < <(python3 - "$R" "$D" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
count, total = struct.unpack_from('<iI', b, 8)
table = total - count * 64                      # 64-byte rows end the file
for i in range(count):
    row = table + i * 64
    if b[row + 20:row + 56].split(b'\0')[0] == b'ROBOT.msh':
        at = struct.unpack_from('<I', b, row + 56)[0]   # the payload's offset
        b[at + 4] ^= 1
        open(sys.argv[2], 'wb').write(b)
        print(i, at + 4)
PY
)
[ -n "${at:-}" ] && ok || bad "ROBOT.msh not found in objects.rlb"
expect_rc 1 "$UE" validate --strict "$D"
want_at=$(printf '0x%x' "$at")
grep -qxF "$D: error: nres/entry[$index]/nres/header/version @$want_at: version is 0x101, expected 0x100 [nres.header.version]" "$T/err" \
  && ok || bad "outer offset $want_at not named: $(cat "$T/err")"
grep -qxF "$D:ROBOT.msh: error: nres/header/version @0x4: version is 0x101, expected 0x100 [nres.header.version]" "$T/err" \
  && ok || bad "model offset not named: $(cat "$T/err")"
[ "$(wc -l < "$T/err")" = 2 ] && ok || bad "more than the two errors: $(cat "$T/err")"
grep -qxF "$D: INVALID (nres, 7 entries, 2 errors, 0 warnings)" "$T/out" && ok || bad "verdict: $(cat "$T/out")"
# The JSON report carries the same offset, as a number.
expect_rc 1 "$UE" validate --strict --json "$D"
python3 - "$T/out" "$at" <<'PY' && ok || bad "JSON offset: $(cat "$T/out")"
import json, sys
r = json.load(open(sys.argv[1]))[0]
d = [x for x in r["diagnostics"] if x["code"] == "nres.header.version"]
sys.exit(0 if len(d) == 1 and d[0]["offset"] == int(sys.argv[2]) else 1)
PY
finish
