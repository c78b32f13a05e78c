#!/usr/bin/env bash
# End-to-end tests of Parkan materials: the sample robot converts to a validator-clean glTF with
# its four MAT0 materials and Texm textures, the head's two phases as an atlas switched by a
# STEP clip; the libraries are found in a parent folder, in any letter case, or through --data;
# without Material.lib the model still converts (exit 0) with a warning naming the library and
# grey placeholders.
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
same "$(python3 -c "$png_size" "$T/tex/robot_ROBOT_HEAD_phases.png")" "(64, 32)" "atlas size"
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
# A format without libraries refuses --data (exit 2), like --lod.
expect_rc 2 "$UE" convert "$T/demo/gamecube/creature.fsys" -o "$T/c.glb" --data "$T/game"
finish
