#!/usr/bin/env bash
# `info` on HSD animations: the clips of a hand-built DAT (hsd_anim_dat.py: one skeletal, one
# material clip) in text and JSON (schema-checked), and the PKX animation slots once it is wrapped.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hsd_anim_info
. "$HERE/cli_lib.sh"
SCHEMA="$HERE/../../docs/schema"

python3 "$HERE/hsd_anim_dat.py" "$T/anim.dat" && ok || bad "fixture not written"

# Text: values worked out from the fixture (end frames 30 and 40 at 60 fps).
expect_rc 0 "$UE" info --strict "$T/anim.dat"
grep -qx '  Animation_0: skeletal, end frame 30, 0.500 s at 60 fps, 1 joints, 0 materials, 0 textures (rotation, translation)' "$T/out" \
  && ok || { bad "skeletal clip line"; cat "$T/out" >&2; }
grep -qx '  Animation_0: material, end frame 40, 0.667 s at 60 fps, 0 joints, 1 materials, 1 textures (colour, alpha, UV, image swap)' "$T/out" \
  && ok || { bad "material clip line"; cat "$T/out" >&2; }
grep -q 'animation slot' "$T/out" && bad "slots listed for a bare DAT" || ok

# JSON: the same numbers, and the schema.
expect_rc 0 "$UE" info --json --strict "$T/anim.dat"
cp "$T/out" "$T/info.json"
python3 - "$T/info.json" <<'EOF' && ok || bad "info JSON animations"
import json, sys
a = json.load(open(sys.argv[1]))["animations"]
assert [c["kind"] for c in a] == ["skeletal", "material"], a
assert a[0]["end_frame"] == 30 and a[0]["seconds"] == 0.5 and a[0]["joints"] == 1, a[0]
assert a[0]["tracks"] == ["rotation", "translation"], a[0]
assert a[1]["end_frame"] == 40 and a[1]["materials"] == 1 and a[1]["textures"] == 1, a[1]
assert a[1]["tracks"] == ["colour", "alpha", "UV", "image swap"], a[1]
assert all(c["name"] == "Animation_0" and c["index"] == 0 and c["root"] is None for c in a)
EOF
node "$HERE/../json_schema_check.mjs" "$SCHEMA/info.schema.json" "$T/info.json" >"$T/val" 2>&1 \
  && ok || { bad "info JSON does not match info.schema.json"; cat "$T/val" >&2; }

# Wrapped in an XD PKX (the demo's frame, this DAT): the entry table names the slots.
expect_rc 0 "$UE" demo -o "$T/demo"
expect_rc 0 "$UE" extract "$T/demo/gamecube/demo_xd.pkx" -o "$T/x"
cp "$T/anim.dat" "$T/x/entries/0000_model.dat"
expect_rc 0 "$UE" pack "$T/x" -o "$T/anim.pkx"
expect_rc 0 "$UE" info "$T/anim.pkx:model.dat"
grep -q '  Animation_0: skeletal, end frame 30' "$T/out" && ok || bad "clips through the PKX"
# demo_xd.pkx is species 25 (a Pokémon): entry 0 is idle and plays animation 0, entry 10 faints
grep -qx '  animation slot 0 (idle): Animation_0' "$T/out" && ok || { bad "slot 0 line"; cat "$T/out" >&2; }
grep -qx '  animation slot 10 (faint): Animation_10' "$T/out" && ok || bad "slot 10 line"
expect_rc 0 "$UE" info --json "$T/anim.pkx:model.dat"
cp "$T/out" "$T/pkx.json"
python3 - "$T/pkx.json" <<'EOF' && ok || bad "info JSON animation_slots"
import json, sys
s = json.load(open(sys.argv[1]))["animation_slots"]
assert len(s) == 17 and s[0] == {"slot": 0, "name": "idle", "motion_kind": 2, "anims": [0]}, s[0]
assert s[16]["name"] == "take flight" and s[16]["anims"] == [16], s[16]
EOF
node "$HERE/../json_schema_check.mjs" "$SCHEMA/info.schema.json" "$T/pkx.json" >"$T/val" 2>&1 \
  && ok || { bad "PKX model info JSON does not match info.schema.json"; cat "$T/val" >&2; }
# The PKX itself: its header carries the same table.
expect_rc 0 "$UE" info --json "$T/anim.pkx"
python3 -c 'import json,sys; h=json.load(open(sys.argv[1]))["header"]; assert h["slots"][10]["name"] == "faint"' "$T/out" \
  && ok || bad "PKX header slots"

finish
