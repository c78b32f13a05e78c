#!/usr/bin/env bash
# End-to-end tests of what unearth says about a file and its entries: info lists a container's
# models and decodes PKX fields by name, takes several files; placeholder DATs say what they
# are; `cat` writes one entry's bytes; a missing entry name gets the close names that exist.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_info_cat
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"; G="$T/demo/gamecube"
has() { grep -qF -- "$2" "$T/$1" && ok || bad "$1 lacks '$2': $(head -c 600 "$T/$1")"; }
lacks() { ! grep -qF -- "$2" "$T/$1" && ok || bad "$1 has '$2'"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$T/$1"; }

# ---- info of an archive lists its models, with the counts the model's own info gives ------
expect_rc 0 "$UE" info --json "$P/robot.msh"; cp "$T/out" "$T/robot.json"
robot_line=$(json robot.json '"%d nodes, %d batches, %d vertices, %d triangles" % (d["nodes"], d["batches"], d["vertices"], d["triangles"])')
expect_rc 0 "$UE" info "$P/objects.rlb"
has out "  models               1"
has out "    ROBOT.msh (msh): $robot_line"
expect_rc 0 "$UE" info --json "$G/creature.fsys:creature.pkx:model.dat"; cp "$T/out" "$T/creature.json"
creature_line=$(json creature.json '"%d joints, %d meshes, %d PObjs" % (d["joints"], d["meshes"], d["pobjs"])')
expect_rc 0 "$UE" info "$G/creature.fsys"
has out "    creature.pkx:model.dat (hsd): $creature_line, "
expect_rc 0 "$UE" info --json "$P/objects.rlb"
[ "$(json out 'd["models"]')" = "[{'model': 'ROBOT.msh', 'format': 'msh', 'valid': True, 'summary': '$robot_line'}]" ] \
  && ok || bad "info --json models: $(json out 'd["models"]')"

# ---- PKX fields by name: every 0xD0 entry read straight from the bytes (docs/formats/pkx.md#animation-entry) --
pkx_expect() { # pkx_expect FILE.pkx OUT: the lines info must print for its animation entries
  python3 - "$1" > "$2" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
xd = struct.unpack(">I", b[0:4])[0] != struct.unpack(">I", b[0x40:0x44])[0]
if xd:
    count, at = struct.unpack(">I", b[0x10:0x14])[0], 0x84
    print("  species              %d" % struct.unpack(">H", b[0x18:0x1A])[0])
else:
    dat, gpt1, count = struct.unpack(">III", b[0:12])
    al = lambda v: (v + 31) & ~31
    at = 0x40 + al(dat) + al(gpt1)
print("  animations (%d)" % count)
for k in range(count):
    e = b[at + 0xD0 * k: at + 0xD0 * (k + 1)]
    w = struct.unpack(">52I", e)
    timing = struct.unpack(">4f", e[0x10:0x20]) if xd else w[4:8]
    tname = "timing_seconds" if xd else "timing_frames"
    print("    [%d] motion_kind %d, sub_anim_count %d, damage_flags %d, word_0c %d, %s %s, terminator %d"
          % (k, w[0], w[1], w[2], w[3], tname, " ".join("%g" % t for t in timing), w[51]))
    print("        body_map " + " ".join(str(v) for v in struct.unpack(">16i", e[0x4C:0x8C])))
    print("        sub_anims (motion_type anim_index) " + ", ".join("%d %d" % (w[35 + 2 * s], w[36 + 2 * s]) for s in range(8)))
EOF
}
for f in creature.pkx demo_colo.pkx; do
  pkx_expect "$G/$f" "$T/want_$f" || bad "pkx_expect $f"
  expect_rc 0 "$UE" info "$G/$f"
  # every expected line, in order, as a block of the output
  python3 -c "import sys; o=open(sys.argv[1]).read(); w=open(sys.argv[2]).read(); sys.exit(0 if all(l in o for l in w.splitlines()) and w.split('\n',1)[1] in o else 1)" \
    "$T/out" "$T/want_$f" && ok || bad "info $f: PKX fields: $(diff <(grep -A3 '^  animations' "$T/out") <(sed -n 2,5p "$T/want_$f"))"
  lacks out "{"          # no raw JSON left in the text
  expect_rc 0 "$UE" info --json "$G/$f"
  [ "$(json out 'len(d["header"]["animations"])')" = "$(sed -n 's/^  animations (\([0-9]*\))$/\1/p' "$T/want_$f")" ] \
    && ok || bad "info --json $f: animations"
done
has want_creature.pkx "  species              999"

# ---- several files: a heading each, in order; --json an array; exit code the worst -------
expect_rc 0 "$UE" info "$P/objects.rlb" "$G/demo_xd.pkx" "$P/robot.msh"
[ "$(grep '^==> ' "$T/out")" = "$(printf '==> %s <==\n' "$P/objects.rlb" "$G/demo_xd.pkx" "$P/robot.msh")" ] \
  && ok || bad "headings: $(grep '^==> ' "$T/out")"
head -c 4000 "$P/objects.rlb" > "$T/cut.rlb"
expect_rc 1 "$UE" info "$P/robot.msh" "$T/cut.rlb"
expect_rc 3 "$UE" info "$T/cut.rlb" "$T/missing.rlb" "$P/robot.msh"
has out "==> $P/robot.msh <=="
expect_rc 3 "$UE" info --json "$P/objects.rlb" "$T/missing.rlb" "$G/demo_colo.fsys:demo_model.dat"
[ "$(json out '[x["file"] for x in d]')" = "['$P/objects.rlb', '$T/missing.rlb', '$G/demo_colo.fsys:demo_model.dat']" ] \
  && ok || bad "info --json of several files: $(cat "$T/out")"
cp "$T/out" "$T/several.json"
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/info.schema.json" "$T/several.json" \
  && ok || bad "info --json of several files does not match docs/schema/info.schema.json"

# ---- placeholder DATs: every verb says what they are ------------------------------------
# The root's name and offset, read from the DAT's own tables (docs/formats/dat.md#file-layout).
"$UE" cat "$G/demo_colo.fsys:demo_model.dat" -o "$T/placeholder.dat" 2>/dev/null
root=$(python3 - "$T/placeholder.dat" <<'EOF'
import struct, sys
b = open(sys.argv[1], "rb").read()
size, data, nreloc, npub, next_ = struct.unpack(">5I", b[:20])
roots = 0x20 + data + 4 * nreloc
strings = roots + 8 * (npub + next_)
off, name = struct.unpack(">II", b[roots:roots + 8])
print("%s @0x%X" % (b[strings + name:].split(b"\0")[0].decode(), off + 0x20))
EOF
)
[ "$root" = "unearth_placeholder @0x20" ] && ok || bad "placeholder root read from the bytes: $root"
D="$G/demo_colo.fsys:demo_model.dat"
expect_rc 0 "$UE" info "$D"
has out "$D: HAL SysDolphin .dat without a model"
has out "  root 0: ${root% @*} (unknown) @${root#* @}"
expect_rc 0 "$UE" validate "$D"
has out "model $D: valid (no model root: roots ${root% @*} (unknown)"
expect_rc 1 "$UE" convert "$D" -o "$T/p.glb"
has err "no model root: roots ${root% @*} (unknown)"
[ ! -e "$T/p.glb" ] && ok || bad "convert of a placeholder wrote output"
expect_rc 1 "$UE" convert "$G/demo_colo.fsys" -o "$T/p.glb"
has err "holds $G/demo_colo.fsys:demo_room.dat, a HAL SysDolphin .dat without a model (no model root: roots unearth_room (unknown))"
has err "no model to convert"
for verb in list extract; do
  if [ "$verb" = list ]; then expect_rc 1 "$UE" list "$D"; else expect_rc 1 "$UE" extract "$D" -o "$T/x_one"; fi
  has err "$D is a HAL SysDolphin .dat without a model (no model root: roots ${root% @*} (unknown)), not a container"
  lacks err "not a container unearth knows"
done
expect_rc 0 "$UE" roundtrip "$G/demo_colo.fsys"
has out "model $G/demo_colo.fsys:demo_room.dat: identical (DAT re-serialised"

# ---- cat: the entry's decoded bytes, the same as extract's payload file --------------------
for a in "$P/objects.rlb" "$P/sprites_demo.lib" "$G/demo_colo.fsys" "$G/demo_xd.fsys"; do
  x="$T/x_$(basename "$a")"
  expect_rc 0 "$UE" extract "$a" -o "$x"
  python3 -c "
import json, sys
for e in json.load(open(sys.argv[1]))['entries']: print('%d\t%s' % (e['index'], e['file']))" "$x/manifest.json" > "$T/files"
  n=0
  while IFS=$'\t' read -r i file; do
    rm -f "$T/c.bin"
    expect_rc 0 "$UE" cat "$a:#$i" -o "$T/c.bin"
    cmp -s "$T/c.bin" "$x/$file" && ok || bad "cat $a:#$i differs from extract's $file"
    n=$((n+1))
  done < "$T/files"
  [ "$n" -ge 4 ] && ok || bad "$a: only $n entries compared"
done
"$UE" cat "$P/sprites_demo.lib:DEFLATE.TXT" -o - > "$T/stdout.bin" 2>"$T/err" && ok || bad "cat -o -"
cmp -s "$T/stdout.bin" "$T/x_sprites_demo.lib/entries/0006_DEFLATE.TXT" && ok || bad "cat -o - bytes"
[ ! -s "$T/err" ] && ok || bad "cat -o - wrote to stderr: $(cat "$T/err")"
# A chain: the DAT inside the LZSS-compressed PKX inside the FSYS, as extract of that PKX writes it.
expect_rc 0 "$UE" extract "$G/creature.pkx" -o "$T/x_pkx"
expect_rc 0 "$UE" cat "$G/creature.fsys:creature.pkx:model.dat" -o "$T/chain.dat"
cmp -s "$T/chain.dat" "$T/x_pkx/entries/0000_model.dat" && ok || bad "cat through the chain"
# Never overwrite without -f, never write an input, a usage error for no entry at all.
printf 'keep' > "$T/kept"
expect_rc 2 "$UE" cat "$P/objects.rlb:robot.wea" -o "$T/kept"
[ "$(cat "$T/kept")" = keep ] && ok || bad "cat overwrote without -f"
expect_rc 0 "$UE" cat "$P/objects.rlb:robot.wea" -o "$T/kept" -f
cmp -s "$T/kept" "$T/x_objects.rlb/entries/0000_robot.wea" && ok || bad "cat -f did not replace"
cp "$P/objects.rlb" "$T/o.rlb"
expect_rc 2 "$UE" cat "$T/o.rlb:robot.wea" -o "$T/o.rlb" -f
cmp -s "$T/o.rlb" "$P/objects.rlb" && ok || bad "cat wrote over its input"
expect_rc 2 "$UE" cat "$P/objects.rlb" -o "$T/whole"
has err "names no entry: give ARCHIVE:ENTRY"
expect_rc 1 "$UE" cat "$P/objects.rlb:robot.wae" -o "$T/none"
has err 'no entry named "robot.wae"; did you mean robot.wea or ROBOT.msh?'
[ ! -e "$T/none" ] && ok || bad "cat of a missing entry wrote output"
[ -z "$(ls -A "$T" | grep -v '^[a-z_.0-9]*$')" ] && ok || bad "a temporary file was left: $(ls -A "$T")"
# extract of one entry points to cat
expect_rc 1 "$UE" extract "$P/objects.rlb:robot.wea" -o "$T/one"
has err "\`unearth cat $P/objects.rlb:robot.wea -o FILE\` writes its bytes"
expect_rc 1 "$UE" extract "$G/demo_colo.fsys:demo_cam.cam" -o "$T/one"
has err "$G/demo_colo.fsys:demo_cam.cam is an entry that holds no container: \`unearth cat"

# ---- validate of an entry unearth does not read: not invalid, said what it is, exit 0 --------
CAM="$G/demo_colo.fsys:demo_cam.cam"
expect_rc 0 "$UE" cat "$CAM" -o "$T/cam.bin"
cam_size=$(wc -c < "$T/cam.bin")
expect_rc 0 "$UE" list --json "$G/demo_colo.fsys"
cam_type=$(json out '[e["type"] for e in d["entries"] if e["name"] == "demo_cam.cam"][0]')
expect_rc 0 "$UE" validate "$G/demo_colo.fsys"
has out "$G/demo_colo.fsys: valid (fsys, 5 entries, 0 errors, 0 warnings)"
expect_rc 0 "$UE" validate "$CAM"
[ "$(cat "$T/out")" = "$CAM: not read (fsys entry of type $cam_type, $cam_size bytes; its container passed its checks: 0 errors, 0 warnings): unearth does not read this kind of entry; \`unearth cat $CAM -o FILE\` writes its bytes" ] \
  && ok || bad "validate of a camera entry: $(cat "$T/out")"
lacks out "INVALID"
[ ! -s "$T/err" ] && ok || bad "validate of a camera entry printed an error: $(cat "$T/err")"
expect_rc 0 "$UE" validate --json "$CAM"; cp "$T/out" "$T/cam.json"
[ "$(json cam.json '[d[0][k] for k in ("valid", "verdict", "format", "errors")] + [d[0]["entry"][k] for k in ("container", "container_format", "type", "size")]')" \
  = "[True, 'not_read', 'unknown', 0, '$G/demo_colo.fsys', 'fsys', '$cam_type', $cam_size]" ] && ok || bad "validate --json: $(cat "$T/cam.json")"
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/validate.schema.json" "$T/cam.json" \
  && ok || bad "validate --json of a camera entry does not match docs/schema/validate.schema.json"
# beside an invalid file, the worst verdict still decides the exit code
printf 'NRes' > "$T/trunc.rlb"
expect_rc 1 "$UE" validate "$CAM" "$T/trunc.rlb"
has out "$CAM: not read ("
# its container's checks are its verdict: a damaged PKX entry (the LZSS size of entry 0, at
# 0x264 by the FSYS directory, claims 4 GiB) fails the container, tolerant mode opens it anyway
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0x264:0x268] = b"\xff" * 4; open(sys.argv[2], "wb").write(b)' \
  "$G/demo_colo.fsys" "$T/bad.fsys"
expect_rc 1 "$UE" validate --tolerant "$T/bad.fsys:demo_cam.cam"
has out "$T/bad.fsys:demo_cam.cam: INVALID (fsys entry of type $cam_type, $cam_size bytes; its container did not pass its checks: 1 error, 0 warnings)"
has err "[fsys.entry.size_limit]"

# ---- near-miss entry names, in every verb that takes ARCHIVE:ENTRY --------------------------
expect_rc 1 "$UE" list "$P/objects.rlb:ROBOT"
has err 'no entry named "ROBOT"; did you mean ROBOT.msh or robot.wea?'
for verb in info validate convert textures; do
  case $verb in
    info|validate) expect_rc 1 "$UE" "$verb" "$P/objects.rlb:robot";;
    *) expect_rc 1 "$UE" "$verb" "$P/objects.rlb:robot" -o "$T/nm_$verb";;
  esac
  has err 'no entry named "robot"; did you mean robot.wea or ROBOT.msh?'
done
expect_rc 1 "$UE" list "$P/objects.rlb:textures_inner"
has err 'did you mean textures_inner.lib?'
expect_rc 1 "$UE" list "$G/demo_xd.fsys:demo_modl.dat"
has err 'did you mean demo_model.dat?'
expect_rc 1 "$UE" list "$G/creature.fsys:creature.pkx:modle.dat"
has err 'did you mean model.dat?'
expect_rc 1 "$UE" list "$P/objects.rlb:xyz"
lacks err "did you mean"
# At most three, the closest first: names one slip from "ab.bin" (and one further away).
mkdir -p "$T/many/entries"
python3 - "$T/many" <<'EOF'
import json, sys
names = ["ab.bin", "ac.bin", "ad.bin", "ae.bin", "abc.bin", "zz.bin"]
entries = []
for i, n in enumerate(names):
    open("%s/entries/%d" % (sys.argv[1], i), "wb").write(n.encode())
    entries.append({"name": n, "type_id": 1, "attr1": 0, "attr2": 0, "attr3": 0, "file": "entries/%d" % i})
json.dump({"unearth_manifest": 1, "format": "nres", "header": {"version": 256}, "entries": entries},
          open(sys.argv[1] + "/manifest.json", "w"))
EOF
expect_rc 0 "$UE" pack "$T/many" -o "$T/many.lib"
expect_rc 1 "$UE" list "$T/many.lib:AB.BIN"
# "AB.BIN" is ab.bin in another case; NRes finds names in any case, so it is no near miss here:
# the miss is "af.bin", one substitution from ab, ac, ad, ae (four), which keeps three.
expect_rc 1 "$UE" list "$T/many.lib:af.bin"
has err 'did you mean ab.bin, ac.bin or ad.bin?'
lacks err "ae.bin"

finish
