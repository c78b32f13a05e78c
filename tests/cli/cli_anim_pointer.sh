#!/usr/bin/env bash
# End-to-end: `convert --no-animation-pointer` on the sample creature (single output, .gltf, and
# a convert -r batch): exit 0, Khronos validator 0 errors, and our independent resolver
# (gltf_pointers.py) finds no pointer channel; without the flag every pointer it finds resolves.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_anim_pointer
. "$HERE/cli_lib.sh"
validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
pointers() { # pointers FILE ARGS...: the independent resolver
  if python3 "$HERE/gltf_pointers.py" "$@" >"$T/ptr" 2>&1; then ok; else bad "gltf_pointers $*"; cat "$T/ptr" >&2; fi
}

expect_rc 0 "$UE" demo -o "$T/demo"
PKX="$T/demo/gamecube/creature.pkx"

expect_rc 0 "$UE" convert "$PKX" -o "$T/full.glb"
validate_gltf "$T/full.glb"
pointers "$T/full.glb"
# The creature blinks and changes colour (docs/hsd-creature.md): it has pointer channels.
n=$(sed -n 's/^pointers: //p' "$T/ptr")
[ "${n:-0}" -ge 1 ] && ok || bad "the creature's glTF has no pointer channel"

expect_rc 0 "$UE" convert "$PKX" -o "$T/plain.glb" --no-animation-pointer
validate_gltf "$T/plain.glb"
pointers "$T/plain.glb" --none
expect_rc 0 "$UE" convert "$PKX" -o "$T/plain.gltf" --no-animation-pointer -v
validate_gltf "$T/plain.gltf"
pointers "$T/plain.gltf" --none
# Node TRS channels are not pointers: the skeleton's clips (if any) keep theirs.
full=$(python3 -c "import json,struct,sys;d=open(sys.argv[1],'rb').read();n=struct.unpack_from('<I',d,12)[0];j=json.loads(d[20:20+n]);print(sum(1 for a in j.get('animations',[]) for c in a['channels'] if c['target'].get('path')!='pointer'))" "$T/full.glb")
plain=$(python3 -c "import json,sys;j=json.load(open(sys.argv[1]));print(sum(1 for a in j.get('animations',[]) for c in a['channels'] if c['target'].get('path')!='pointer'))" "$T/plain.gltf")
[ "$full" = "$plain" ] && ok || bad "node channels: $plain without pointers, $full with"

# The batch passes the flag on to every model it writes.
expect_rc 0 "$UE" convert -r "$T/demo/gamecube" -o "$T/batch" --no-animation-pointer
n=0
for f in $(find "$T/batch" -name '*.glb' | sort); do
  pointers "$f" --none; n=$((n+1))
done
[ "$n" -ge 1 ] && ok || bad "the batch wrote no .glb"

# The flag belongs to convert only.
expect_rc 2 "$UE" info "$PKX" --no-animation-pointer
finish
