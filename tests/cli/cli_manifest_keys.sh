#!/usr/bin/env bash
# Every manifest key is honoured or named, for every container: an unedited extract packs back
# byte-identical with no warning; a misspelled key, an informational key edited to disagree with
# what pack writes, and an FSYS "name" and "short_name" both edited to disagree are warnings naming
# entry and key; an FSYS entry renames silently through "name" or through "short_name"/"full_name".
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_manifest_keys
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
G="$T/demo/gamecube"
P="$T/demo/parkan"

# An unedited extract of each container packs byte-identical, and pack says nothing but "packed".
for f in "$G/demo_xd.fsys" "$G/demo_colo.fsys" "$G/creature.fsys" "$G/demo_xd.pkx" \
         "$G/demo_colo.pkx" "$G/demo_model.lzss" "$P/objects.rlb" "$P/sprites_demo.lib"; do
  b=$(basename "$f")
  expect_rc 0 "$UE" extract "$f" -o "$T/x_$b"
  expect_rc 0 "$UE" pack "$T/x_$b" -o "$T/p_$b"
  cmp -s "$f" "$T/p_$b" && ok || bad "$b: an unedited extract does not pack byte-identical"
  [ "$(grep -c . "$T/err")" = 1 ] && grep -q "^packed " "$T/err" && ok || bad "$b: pack of an unedited extract said more: $(cat "$T/err")"
done
# An edited payload is not an edited key: the FSYS is laid out anew, and nothing is reported.
cp -r "$T/x_demo_xd.fsys" "$T/payload"
printf 'more' >> "$T/payload/entries/0001_demo_xd_gpt1.pkx"
expect_rc 0 "$UE" pack "$T/payload" -o "$T/payload.fsys"
grep -q "warning" "$T/err" && bad "an edited payload gave a warning: $(cat "$T/err")" || ok

# copy_edit SRC DIR PYTHON: a copy of an extract with its manifest edited.
copy_edit() { rm -rf "$2"; cp -r "$1" "$2"; edit_manifest "$2" "$3"; }

# A misspelled key, per container: the entry (index and name) and the key, with the near miss.
copy_edit "$T/x_demo_xd.fsys" "$T/fk" "e = m['entries'][2]; e['fiel_id'] = e.pop('file_id')"
expect_rc 0 "$UE" pack "$T/fk" -o "$T/fk.fsys"
grep -q 'manifest/entries\[2\]: entry "demo_model.dat": unknown key "fiel_id" is ignored; did you mean "file_id"?' "$T/err" \
  && ok || bad "FSYS: no warning naming entry 2 and \"fiel_id\": $(cat "$T/err")"
copy_edit "$T/x_demo_xd.fsys" "$T/fh" "m['header']['versoin'] = 1"
expect_rc 0 "$UE" pack "$T/fh" -o "$T/fh.fsys"
grep -q 'manifest/header: unknown key "header.versoin" is ignored; did you mean "version"?' "$T/err" \
  && ok || bad "FSYS: no warning for a misspelled header key: $(cat "$T/err")"
cmp -s "$T/fh.fsys" "$G/demo_xd.fsys" && ok || bad "FSYS: an ignored key changed the archive"
copy_edit "$T/x_demo_xd.pkx" "$T/pk" "m['layout']['dat_sise'] = 1; m['gtp1'] = {}"
expect_rc 0 "$UE" pack "$T/pk" -o "$T/pk.pkx"
grep -q 'manifest/layout: unknown key "dat_sise" is ignored; did you mean "dat_size"?' "$T/err" \
  && ok || bad "PKX: no warning for layout.dat_sise: $(cat "$T/err")"
grep -q 'manifest: unknown key "gtp1" is ignored; did you mean "gpt1"?' "$T/err" \
  && ok || bad "PKX: no warning for the top-level gtp1: $(cat "$T/err")"
cmp -s "$T/pk.pkx" "$G/demo_xd.pkx" && ok || bad "PKX: an ignored key changed the file"
copy_edit "$T/x_demo_model.lzss" "$T/lk" "m['stored']['fiel'] = m['stored'].pop('file')"
expect_rc 0 "$UE" pack "$T/lk" -o "$T/lk.lzss"
grep -q 'manifest/stored: unknown key "fiel" is ignored; did you mean "file"?' "$T/err" \
  && ok || bad "LZSS: no warning for stored.fiel: $(cat "$T/err")"
copy_edit "$T/x_sprites_demo.lib" "$T/rk" "m['entries'][1]['flgas'] = 3"
expect_rc 0 "$UE" pack "$T/rk" -o "$T/rk.lib"
grep -q 'manifest/entries\[1\]: entry "XOR.TXT": unknown key "flgas" is ignored; did you mean "flags"?' "$T/err" \
  && ok || bad "RsLi: no warning for flgas: $(cat "$T/err")"

# pack_edited SRC DIR OUT PYTHON: packs a copy of extract SRC with its manifest edited into OUT.
pack_edited() { copy_edit "$1" "$2" "$4"; expect_rc 0 "$UE" pack "$2" -o "$3"; }
# only_packed: pack said nothing but its "packed" line.
only_packed() { [ "$(grep -c . "$T/err")" = 1 ] && grep -q "^packed " "$T/err"; }

# FSYS rename through "name" alone, in an archive with full names (XD) and one without
# (Colosseum): silent; the names table holds the new short name (the type's extension dropped)
# and, with full names, the new full name; list shows the new name.
pack_edited "$T/x_demo_xd.fsys" "$T/rx" "$T/rx.fsys" "m['entries'][0]['name'] = 'newmon.pkx'"
only_packed && ok || bad "FSYS: a rename through name alone was not silent: $(cat "$T/err")"
expect_rc 0 "$UE" validate --strict "$T/rx.fsys"
expect_rc 0 "$UE" list --json "$T/rx.fsys"
python3 - "$T/out" "$T/rx.fsys" <<'PY' && ok || bad "XD rename: list or the names table do not hold newmon / newmon.pkx"
import json, struct, sys
entries = json.load(open(sys.argv[1]))["entries"]
data = open(sys.argv[2], "rb").read()
# docs/formats/fsys.md#entry-record: record +0x1C full-name offset, +0x24 short-name offset (absolute, big-endian).
count, = struct.unpack_from(">I", data, 0x0C)
list_ofs, = struct.unpack_from(">I", data, 0x40)
rec, = struct.unpack_from(">I", data, list_ofs)
full_ofs, = struct.unpack_from(">I", data, rec + 0x1C)
short_ofs, = struct.unpack_from(">I", data, rec + 0x24)
cstr = lambda o: data[o:data.index(b"\0", o)]
ok = (entries[0]["name"] == "newmon.pkx" and cstr(short_ofs) == b"newmon"
      and cstr(full_ofs) == b"newmon.pkx" and count == 4
      and [e["name"] for e in entries[1:3]] == ["demo_xd_gpt1.pkx", "demo_model.dat"])
sys.exit(0 if ok else 1)
PY
pack_edited "$T/x_demo_colo.fsys" "$T/rc" "$T/rc.fsys" "m['entries'][1]['name'] = 'hero.dat'"
only_packed && ok || bad "Colosseum: a rename through name alone was not silent: $(cat "$T/err")"
expect_rc 0 "$UE" list "$T/rc.fsys"
grep -q " hero\.dat$" "$T/out" && ok || bad "Colosseum rename: list does not show hero.dat"
grep -q "demo_model" "$T/out" && bad "Colosseum rename: the old name is still listed" || ok
python3 - "$T/rc.fsys" <<'PY' && ok || bad "Colosseum rename: the short name is not hero, or a full name appeared"
import struct, sys
data = open(sys.argv[1], "rb").read()
list_ofs, = struct.unpack_from(">I", data, 0x40)
rec, = struct.unpack_from(">I", data, list_ofs + 4)
full_ofs, short_ofs = struct.unpack_from(">I", data, rec + 0x1C)[0], struct.unpack_from(">I", data, rec + 0x24)[0]
sys.exit(0 if data[short_ofs:short_ofs + 5] == b"hero\0" and full_ofs == 0 else 1)
PY
# Renamed through short_name with name agreeing: the same archive, and nothing to say.
copy_edit "$T/x_demo_colo.fsys" "$T/rs" "e = m['entries'][1]; e['short_name'] = 'hero'; e['name'] = 'hero.dat'"
expect_rc 0 "$UE" pack "$T/rs" -o "$T/rs.fsys"
cmp -s "$T/rs.fsys" "$T/rc.fsys" && ok || bad "short_name + name do not give the archive name alone gives"
grep -q "warning" "$T/err" && bad "agreeing name and short_name gave a warning" || ok
# Renamed through short_name alone ("name" still the original, which the skeleton's names table
# tells): the short name counts, silently, and the archive is the one "name" alone gives.
pack_edited "$T/x_demo_colo.fsys" "$T/rso" "$T/rso.fsys" "m['entries'][1]['short_name'] = 'hero'"
only_packed && ok || bad "a rename through short_name alone was not silent: $(cat "$T/err")"
cmp -s "$T/rso.fsys" "$T/rc.fsys" && ok || bad "short_name alone does not give the archive name alone gives"
# The same through full_name alone in an archive with full names: list shows it, the short name stays.
pack_edited "$T/x_demo_xd.fsys" "$T/rfo" "$T/rfo.fsys" "m['entries'][0]['full_name'] = 'mon2.pkx'"
only_packed && ok || bad "a rename through full_name alone was not silent: $(cat "$T/err")"
expect_rc 0 "$UE" list --json "$T/rfo.fsys"
python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['entries']; sys.exit(0 if [x['name'] for x in e[:3]] == ['mon2.pkx', 'demo_xd_gpt1.pkx', 'demo_model.dat'] else 1)" "$T/out" \
  && ok || bad "full_name alone: list does not show mon2.pkx first"
# Both edited and disagreeing: "name" wins, and pack says both were edited.
pack_edited "$T/x_demo_colo.fsys" "$T/rbo" "$T/rbo.fsys" "e = m['entries'][1]; e['short_name'] = 'alpha'; e['name'] = 'beta.dat'"
grep -q 'manifest/entries\[1\]: entry "beta.dat": "name" and "short_name"/"full_name" were both edited and disagree (they give "alpha.dat"): "name" wins (short name "beta")' "$T/err" \
  && ok || bad "both names edited: no warning that name wins: $(cat "$T/err")"
expect_rc 0 "$UE" list "$T/rbo.fsys"
grep -q " beta\.dat$" "$T/out" && ! grep -q "alpha" "$T/out" && ok || bad "both names edited: list does not show beta.dat alone"
# Without the skeleton the original names are unknown: "name" wins, with the warning of old.
pack_edited "$T/x_demo_colo.fsys" "$T/rns" "$T/rns.fsys" "m['entries'][1]['name'] = 'hero.dat'; del m['skeleton']"
grep -q 'manifest/entries\[1\]: entry "hero.dat": "name" differs from the "demo_model.dat" that "short_name"/"full_name" give: "name" wins (short name "hero")' "$T/err" \
  && ok || bad "no skeleton: the rename does not say that name wins: $(cat "$T/err")"
cmp -s "$T/rns.fsys" "$T/rc.fsys" && ok || bad "no skeleton: the rename gives another archive"
# An edited skeleton tells nothing either.
copy_edit "$T/x_demo_colo.fsys" "$T/rks" "m['entries'][1]['short_name'] = 'hero'"
printf 'x' >> "$T/rks/layout/skeleton.bin"
expect_rc 0 "$UE" pack "$T/rks" -o "$T/rks.fsys"
grep -q '"name" differs from the "hero.dat" that "short_name"/"full_name" give: "name" wins (short name "demo_model")' "$T/err" \
  && ok || bad "edited skeleton: no warning that name wins: $(cat "$T/err")"

# A type_code edit in an archive without full names changes the extension list shows, not the name.
pack_edited "$T/x_demo_colo.fsys" "$T/rt" "$T/rt.fsys" "m['entries'][1]['type_code'] = 24"
only_packed && ok || bad "a type_code edit was taken for a rename: $(cat "$T/err")"
expect_rc 0 "$UE" list "$T/rt.fsys"
grep -q " demo_model\.cam" "$T/out" && ok || bad "type_code 24: list does not show demo_model.cam"
# type_code 30 says PKX, which the bytes are not: validate's check refuses it, so pack does.
copy_edit "$T/x_demo_colo.fsys" "$T/rp" "m['entries'][1]['type_code'] = 30"
expect_rc 1 "$UE" pack "$T/rp" -o "$T/rp.fsys"
grep -qF 'fsys/entry[1]/demo_model.pkx @0x740: not a container unearth knows' "$T/err" && ok || bad "type_code 30: $(cat "$T/err")"
# A name that is not printable ASCII is refused, naming the entry.
copy_edit "$T/x_demo_colo.fsys" "$T/rbad" "m['entries'][1]['name'] = 'héros.dat'"
expect_rc 1 "$UE" pack "$T/rbad" -o "$T/rbad.fsys"
grep -q 'manifest/entries\[1\]: "name" "héros.dat" must be 1..255 bytes of printable ASCII' "$T/err" && ok || bad "a non-ASCII FSYS name is not refused: $(cat "$T/err")"
[ ! -e "$T/rbad.fsys" ] && ok || bad "pack wrote an archive with a refused name"

# Informational keys edited to disagree with what pack writes: named, with the key to change.
copy_edit "$T/x_demo_xd.fsys" "$T/ti" "e = m['entries'][2]; e['type_index'] = 7; e['stored_size'] = 1"
expect_rc 0 "$UE" pack "$T/ti" -o "$T/ti.fsys"
grep -q 'manifest/entries\[2\]: entry "demo_model.dat": "type_index" is 7 but pack writes 2 (the key is informational): change "type_code" instead' "$T/err" \
  && ok || bad "FSYS type_index: no informational message: $(cat "$T/err")"
grep -q '"stored_size" is 1 but pack writes 373 (the key is informational): pack takes sizes from the payload files' "$T/err" \
  && ok || bad "FSYS stored_size: no informational message: $(cat "$T/err")"
cmp -s "$T/ti.fsys" "$G/demo_xd.fsys" && ok || bad "informational FSYS keys changed the archive"
# The type changes through type_code: type_index follows (docs/formats/fsys.md#entry-record: type code / 2), no warning.
copy_edit "$T/x_demo_xd.fsys" "$T/tc" "e = m['entries'][2]; e['type_code'] = 2"
expect_rc 0 "$UE" pack "$T/tc" -o "$T/tc.fsys"
grep -q "warning" "$T/err" && bad "a type_code edit gave a warning: $(cat "$T/err")" || ok
expect_rc 0 "$UE" list --json "$T/tc.fsys"
python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['entries'][2]; sys.exit(0 if e['extra']['type_code'] == 2 and e['extra']['type_index'] == 1 else 1)" "$T/out" \
  && ok || bad "type_code 2 did not give type index 1"
copy_edit "$T/x_sprites_demo.lib" "$T/rm" "m['entries'][0]['method'] = 'deflate'"
expect_rc 0 "$UE" pack "$T/rm" -o "$T/rm.lib"
grep -q 'manifest/entries\[0\]: entry "STORED.TXT": "method" is "deflate" but pack writes "stored" (the key is informational): the method comes from "flags"; set "flags" to 256 (0x0100) for "deflate"' "$T/err" \
  && ok || bad "RsLi method: no message naming flags: $(cat "$T/err")"
cmp -s "$T/rm.lib" "$P/sprites_demo.lib" && ok || bad "an RsLi method edit changed the library"
# NRes "type" is type_id shown as text: only type_id is stored, and a disagreeing type names the
# type_id that asks for it ("Texm" little-endian: 0x6D786554 = 1836606804).
pack_edited "$T/x_objects.rlb" "$T/nt" "$T/nt.rlb" "m['entries'][0]['type'] = 'Texm'"
grep -q 'manifest/entries\[0\]: entry "robot.wea": "type" is "Texm" but pack writes "WEAR" (the key is informational): the type comes from "type_id": set it to 1836606804 for "Texm"' "$T/err" \
  && ok || bad "NRes type: no message naming type_id: $(cat "$T/err")"
cmp -s "$T/nt.rlb" "$P/objects.rlb" && ok || bad "an NRes type edit changed the archive"
# ROBOT.msh (an NRes) retyped NRes: a type its bytes are, so validate's check passes.
pack_edited "$T/x_objects.rlb" "$T/ni" "$T/ni.rlb" "e = m['entries'][6]; e['type_id'] = 1936020046; e['type'] = 'NRes'"
only_packed && ok || bad "NRes type_id and type edited together gave a warning: $(cat "$T/err")"
expect_rc 0 "$UE" list --json "$T/ni.rlb"
python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['entries'][6]; sys.exit(0 if e['type'] == 'NRes' else 1)" "$T/out" \
  && ok || bad "NRes type_id 1936020046 is not listed as NRes"
# RsLi "header" is what extract read from header_hex (table seed: bytes 0x14..0x17 = 0x1234).
pack_edited "$T/x_sprites_demo.lib" "$T/rh" "$T/rh.lib" "m['header']['table_seed'] = 999"
grep -q 'manifest/header: "header.table_seed" is 999 but pack writes 4660 (the key is informational): edit "header_hex" instead' "$T/err" \
  && ok || bad "RsLi header: no message naming header_hex: $(cat "$T/err")"
cmp -s "$T/rh.lib" "$P/sprites_demo.lib" && ok || bad "an RsLi header edit changed the library"
# An edited payload lays the library out anew (new file size): the header's sizes are not edits.
copy_edit "$T/x_sprites_demo.lib" "$T/rp" "pass"
printf 'more' >> "$T/rp/entries/0000_STORED.TXT"
expect_rc 0 "$UE" pack "$T/rp" -o "$T/rp.lib"
only_packed && ok || bad "an edited RsLi payload gave a warning: $(cat "$T/err")"
copy_edit "$T/x_demo_colo.pkx" "$T/pm" "m['metadata']['word_10'] = 77"
expect_rc 0 "$UE" pack "$T/pm" -o "$T/pm.pkx"
grep -q 'manifest/metadata: "metadata.word_10" is 77 but pack writes 5 (the key is informational): pack copies it from layout/frame.bin' "$T/err" \
  && ok || bad "PKX metadata: no informational message: $(cat "$T/err")"
# A bare LZSS file: "reserved" is honoured (big-endian at 0x0C), a size is informational.
copy_edit "$T/x_demo_model.lzss" "$T/lr" "m['header']['reserved'] = 7; m['header']['compressed_size'] = 5"
expect_rc 0 "$UE" pack "$T/lr" -o "$T/lr.lzss"
python3 - "$T/lr.lzss" "$G/demo_model.lzss" <<'PY' && ok || bad "LZSS reserved not stored at 0x0C, or other bytes changed"
import sys
a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
sys.exit(0 if a[12:16] == b"\0\0\0\x07" and a[:12] == b[:12] and a[16:] == b[16:] else 1)
PY
grep -q 'manifest/header: "header.compressed_size" is 5 but pack writes 373' "$T/err" \
  && ok || bad "LZSS compressed_size: no informational message: $(cat "$T/err")"
grep -q '"header.reserved"' "$T/err" && bad "the honoured reserved key was reported" || ok
finish
