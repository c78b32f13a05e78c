#!/usr/bin/env bash
# End-to-end tests of Parkan materials: the sample robot converts to a validator-clean glTF with
# its four MAT0 materials and Texm textures, the head's two phases as an atlas switched by a
# STEP clip; the libraries are found in a parent folder, in any letter case, or through --data;
# without Material.lib the model still converts (exit 0) with a warning naming the library and
# grey placeholders. Bare .mat0 and .wea files are validated like entries, every bad-input class.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_materials
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
glb_json() { python3 -c "import json,struct,sys; b=open(sys.argv[1],'rb').read(); n=struct.unpack_from('<I',b,12)[0]; d=json.loads(b[20:20+n]); print(eval(sys.argv[2]))" "$@"; }
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
has() { grep -q -- "$2" "$1" && ok || { bad "$3: '$2' not in $1"; cat "$1" >&2; }; }

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"

# The sample pack: four textured materials by the WEAR rows' names, no warning.
expect_rc 0 "$UE" convert "$P/robot.msh" -o "$T/robot.glb"
validate_gltf "$T/robot.glb"
same "$(grep -c warning "$T/err")" "0" "convert of the sample robot prints no warning"
same "$(glb_json "$T/robot.glb" "[m['name'] for m in d['materials']]")" \
  "['ROBOT_BODY', 'ROBOT_HEAD', 'ROBOT_ARM', 'ROBOT_LEG']" "material names from robot.wea"
same "$(glb_json "$T/robot.glb" "[m['pbrMetallicRoughness']['baseColorTexture']['index'] for m in d['materials']]")" \
  "[0, 1, 2, 3]" "every material has its base-colour texture"
same "$(glb_json "$T/robot.glb" "[i['name'] for i in d['images']]")" \
  "['ROBOT_BODY.0', 'ROBOT_HEAD.phases', 'ROBOT_ARM.0', 'ROBOT_LEG.0']" "images named after the Texm entries (the head: its atlas)"
same "$(glb_json "$T/robot.glb" "[m.get('alphaMode', 'OPAQUE') for m in d['materials']]")" \
  "['OPAQUE', 'OPAQUE', 'OPAQUE', 'MASK']" "the legs' 4444 grille is a cut-out, the rest opaque"
same "$(glb_json "$T/robot.glb" "d['materials'][1]['extras']['mat0_phases']")" "2" "the head's two phases in extras"
# The head's atlas: ROBOT_HEAD.0 and ROBOT_HEAD.1 (16 x 16 each) side by side in 18 x 18 cells
# (a one-texel gutter), 36 x 18 rounded up to 64 x 32; the UV transform picks the inner 16 x 16
# of cell 0 at rest.
png_size="import struct,sys; b=open(sys.argv[1],'rb').read(); print(struct.unpack('>II', b[16:24]))"
expect_rc 0 "$UE" textures "$P/robot.msh" -o "$T/tex"
same "$(python3 -c "$png_size" "$T/tex/robot.ROBOT_HEAD_phases.png")" "(64, 32)" "atlas size"
same "$(glb_json "$T/robot.glb" "d['materials'][1]['pbrMetallicRoughness']['baseColorTexture']['extensions']['KHR_texture_transform']")" \
  "{'offset': [0.015625, 0.03125], 'rotation': 0, 'scale': [0.25, 0.5]}" "the head's cell 0 (1/64, 1/32; 16/64, 16/32)"
# Its clip: looping, one STEP channel on that offset, keys at 0, 0.5 and 1 s (phase 0 from 0 ms,
# phase 1 from 500 ms, the cycle ends at 1000 ms) giving cells 0, 1, 0.
clip="[a for a in d['animations'] if a['name'] == 'ROBOT_HEAD'][0]"
same "$(glb_json "$T/robot.glb" "($clip)['channels'][0]['target']['extensions']['KHR_animation_pointer']['pointer']")" \
  "/materials/1/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset" "pointer to the offset"
same "$(glb_json "$T/robot.glb" "[($clip)['samplers'][0]['interpolation'], ($clip)['extras']['unearth_clip']]")" \
  "['STEP', {'fps': 1000, 'start_frame': 0, 'end_frame': 1000, 'loop': True}]" "STEP, a 1000 ms looping cycle"
keys="import json,struct,sys
b=open(sys.argv[1],'rb').read(); n=struct.unpack_from('<I',b,12)[0]; d=json.loads(b[20:20+n]); bin0=20+n+8
a=[a for a in d['animations'] if a['name']=='ROBOT_HEAD'][0]['samplers'][0]
def acc(i, w):
    x=d['accessors'][i]; v=d['bufferViews'][x['bufferView']]
    return [round(f, 6) for f in struct.unpack_from('<%df' % (x['count'] * w), b, bin0 + v.get('byteOffset', 0) + x.get('byteOffset', 0))]
print(acc(a['input'], 1), acc(a['output'], 2))"
same "$(python3 -c "$keys" "$T/robot.glb")" \
  "[0.0, 0.5, 1.0] [0.015625, 0.03125, 0.296875, 0.03125, 0.015625, 0.03125]" "STEP keys: cells 0 (1/64), 1 (19/64), 0"
# The robot inside objects.rlb finds robot.wea in the same archive and the libraries beside it.
expect_rc 0 "$UE" convert "$P/objects.rlb:ROBOT.msh" -o "$T/ROBOT.glb"
validate_gltf "$T/ROBOT.glb"
same "$(glb_json "$T/ROBOT.glb" "len(d['textures'])")" "4" "objects.rlb:ROBOT.msh is textured"

# Libraries two folders up, in upper case; the WEAR in lower case beside a model in upper case.
mkdir -p "$T/game/data/units"
cp "$P/Material.lib" "$T/game/MATERIAL.LIB"
cp "$P/Textures.lib" "$T/game/textures.lib"
cp "$P/robot.msh" "$T/game/data/units/ROBOT.MSH"
cp "$P/robot.wea" "$T/game/data/units/robot.wea"
expect_rc 0 "$UE" convert "$T/game/data/units/ROBOT.MSH" -o "$T/up.glb"
same "$(glb_json "$T/up.glb" "len(d['images'])")" "4" "libraries found in a parent folder, any case"

# Without Material.lib: exit 0, a warning naming the library, grey placeholders.
mkdir -p "$T/bare"
cp "$P/robot.msh" "$P/robot.wea" "$T/bare/"
expect_rc 0 "$UE" convert "$T/bare/robot.msh" -o "$T/bare.glb"
validate_gltf "$T/bare.glb"
has "$T/err" "Material.lib not found" "missing Material.lib warning"
has "$T/err" "msh.material.library" "the warning's code"
same "$(glb_json "$T/bare.glb" "[m['pbrMetallicRoughness']['baseColorFactor'][0] for m in d['materials']]")" \
  "[0.800000012, 0.800000012, 0.800000012, 0.800000012]" "placeholders are grey"
same "$(glb_json "$T/bare.glb" "'textures' in d")" "False" "no texture without the libraries"
# --data points at the game folder.
expect_rc 0 "$UE" convert "$T/bare/robot.msh" -o "$T/data.glb" --data "$T/game"
same "$(grep -c warning "$T/err")" "0" "--data finds the libraries: no warning"
same "$(glb_json "$T/data.glb" "len(d['images'])")" "4" "--data gives the textures"
# A WEAR row naming a material the library lacks: DEFAULT, with a warning.
printf '4\r\n0 ROBOT_BODY\r\n1 NO_SUCH_MAT\r\n2 ROBOT_ARM\r\n3 ROBOT_LEG\r\n' > "$T/bare/robot.wea"
expect_rc 0 "$UE" convert "$T/bare/robot.msh" -o "$T/default.glb" --data "$T/game"
has "$T/err" "material NO_SUCH_MAT not found in .*MATERIAL.LIB; DEFAULT is used" "fallback warning"
same "$(glb_json "$T/default.glb" "'baseColorTexture' in d['materials'][1]['pbrMetallicRoughness']")" "False" \
  "DEFAULT is untextured"
# Every WEAR row naming the animated ROBOT_HEAD: one atlas image shared by the four materials
# (built once per MAT0 entry), each material its own slot transform and clip.
printf '4\n0 ROBOT_HEAD\n1 ROBOT_HEAD\n2 ROBOT_HEAD\n3 ROBOT_HEAD\n' > "$T/bare/robot.wea"
expect_rc 0 "$UE" convert "$T/bare/robot.msh" -o "$T/heads.glb" --data "$T/game"
validate_gltf "$T/heads.glb"
same "$(glb_json "$T/heads.glb" "[i['name'] for i in d['images']]")" "['ROBOT_HEAD.phases']" "one atlas for four rows"
same "$(glb_json "$T/heads.glb" "[m['pbrMetallicRoughness']['baseColorTexture']['index'] for m in d['materials']]")" \
  "[0, 0, 0, 0]" "every material samples the shared atlas"
same "$(glb_json "$T/heads.glb" "sorted(int(c['target']['extensions']['KHR_animation_pointer']['pointer'].split('/')[2]) for a in d['animations'] if a['name'] == 'ROBOT_HEAD' for c in a['channels'])")" \
  "[0, 1, 2, 3]" "every material's offset is animated"
# ---- bare MAT0 and WEAR files: validate and info as for entries, offsets into the file ---------
expect_rc 0 "$UE" extract "$P/Material.lib" -o "$T/mat"
cp "$T/mat/entries/0001_ROBOT_HEAD" "$T/head.mat0"
expect_rc 0 "$UE" validate --strict "$T/head.mat0" "$P/robot.wea"
has "$T/out" "MAT0 version 6, 2 phases, 1 animation blocks, 3 keys" "validate summary of a bare MAT0"
has "$T/out" "WEAR table, 4 materials, 0 lightmaps" "validate summary of a bare WEAR"
expect_rc 0 "$UE" info "$T/head.mat0"
has "$T/out" "block 0: loop, interpolation mask 0x0, 3 keys, cycle 1000 ms" "info of a bare MAT0"
expect_rc 0 "$UE" roundtrip "$T/head.mat0" "$P/robot.wea"
expect_rc 1 "$UE" convert "$T/head.mat0" -o "$T/head.glb"
has "$T/err" "a Parkan MAT0 material (no geometry), no model to convert" "convert says what a bare MAT0 is"
# One damaged file per check (python writes them from the spec's layout, version 6: u16 phases,
# u16 blocks, u8 u8 u32 u32, 34-byte phases, blocks of u32 header, u16 count, 6-byte keys).
python3 - "$T" <<'PY'
import struct, sys
t = sys.argv[1]
hdr = lambda p, a: struct.pack('<HHBBII', p, a, 255, 255, 0x3F800000, 0)
ph = bytes(18) + b'T.0'.ljust(16, b'\0')
blk = lambda keys, mode=0: struct.pack('<IH', mode, len(keys)) + b''.join(struct.pack('<HHH', *k) for k in keys)
good = blk([(0, 0, 0), (1, 500, 0)])
cases = {
    'truncated': hdr(1, 0)[:9],
    'no_phase': hdr(0, 0),
    'phase_past_end': hdr(3, 0) + ph,
    'anim_count': hdr(1, 20) + ph + good * 20,
    'anim_past_end': hdr(2, 1) + ph + ph + b'\0\0',
    'keys_past_end': hdr(2, 1) + ph + ph + struct.pack('<IH', 0, 5) + bytes(6),
    'no_keys': hdr(2, 1) + ph + ph + blk([]),
    'trailing': hdr(2, 1) + ph + ph + good + b'xx',
    'key_phase': hdr(2, 1) + ph + ph + blk([(0, 0, 0), (7, 500, 0)]),
    'key_order': hdr(2, 1) + ph + ph + blk([(0, 900, 0), (1, 500, 0)]),
}
for name, data in cases.items():
    open(f'{t}/{name}.mat0', 'wb').write(data)
wear = {
    'count_missing': b'',
    'count_value': b'0\r\n',
    'count_mismatch': b'3\r\n0 A\r\n1 B\r\n',
    'row_name': b'2\r\n0 A\r\n1\r\n',
    'row_long': b'1\r\n0 ' + b'N' * 70 + b'\r\n',
    'lightmaps_blank': b'1\r\n0 A\r\nLIGHTMAPS\r\n1\r\n0 LM.0\r\n',
    'lightmap_name': b'1\r\n0 A\r\n\r\nLIGHTMAPS\r\n1\r\n0 NODOTNAMEATALL_X\r\n',
}
for name, data in wear.items():
    open(f'{t}/{name}.wea', 'wb').write(data)
PY
# file, the diagnostic's code, and its offset as the CLI prints it (@0x…)
bad_file() {
  expect_rc 1 "$UE" validate --strict "$T/$1"
  has "$T/err" "@0x$3.*\[$2\]" "$1: $2 at offset 0x$3"
}
bad_file truncated.mat0 mat0.header.truncated 0
bad_file no_phase.mat0 mat0.phase.none 0
bad_file phase_past_end.mat0 mat0.phase.past_end 30       # 14 + 34 = 48: the second phase would start
bad_file anim_count.mat0 mat0.anim.count 2
bad_file anim_past_end.mat0 mat0.anim.past_end 52         # 14 + 2 x 34 = 82
bad_file keys_past_end.mat0 mat0.anim.keys_past_end 58    # 82 + the 6-byte block header = 88
bad_file no_keys.mat0 mat0.anim.no_keys 56                # the key count at 82 + 4 = 86
bad_file trailing.mat0 mat0.trailing 64                   # 14 + 2 x 34 + 6 + 2 x 6 = 100
bad_file key_phase.mat0 mat0.anim.phase 5e                # the second key: 82 + 6 + 6 = 94
bad_file key_order.mat0 mat0.anim.key_order 60            # its time, 2 bytes further: 96
bad_file count_missing.wea wear.count.missing 0
bad_file count_value.wea wear.count.value 0
bad_file count_mismatch.wea wear.count.mismatch d         # the end: 3 + 2 rows of 5 bytes = 13
bad_file row_name.wea wear.row.name 8                     # row 1: 3 + 5
bad_file row_long.wea wear.row.long 5                     # the name after "1\r\n0 "
bad_file lightmaps_blank.wea wear.lightmaps.blank 8       # the LIGHTMAPS line: 3 + 5
bad_file lightmap_name.wea wear.lightmap.name 1a         # 3 + 5 + 2 + 11 + 3 + 2 = 26
# Tolerant: the same files are read with warnings (the key past the phases, the short count).
expect_rc 0 "$UE" validate --tolerant "$T/key_phase.mat0" "$T/count_mismatch.wea"
has "$T/err" "warning.*\[mat0.anim.phase\]" "tolerant: a warning"
# A cut header is unusable in both modes.
expect_rc 1 "$UE" validate --tolerant "$T/truncated.mat0"

# A format without libraries refuses --data (exit 2), like --lod.
expect_rc 2 "$UE" convert "$T/demo/gamecube/creature.fsys" -o "$T/c.glb" --data "$T/game"
finish
