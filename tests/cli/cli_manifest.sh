#!/usr/bin/env bash
# End-to-end tests of editing through manifest.json: the path-traversal guard, renaming entries
# (escaped bytes and CP1251 names), and re-packing a changed standalone GameCube LZSS file.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_manifest
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
A="$T/demo/parkan/objects.rlb"
expect_rc 0 "$UE" extract "$A" -o "$T/x"

# Path traversal: a manifest may only name files inside its own directory.
echo secret > "$T/outside.bin"
for bad_path in "../outside.bin" "$T/outside.bin" "entries/../../outside.bin" "./entries/x" ""; do
  cp -r "$T/x" "$T/evil"
  edit_manifest "$T/evil" "m['entries'][0]['file'] = '''$bad_path'''"
  expect_rc 1 "$UE" pack "$T/evil" -o "$T/evil.rlb"
  grep -q "must be a relative path inside the directory" "$T/err" && ok || bad "no traversal message for '$bad_path'"
  [ ! -e "$T/evil.rlb" ] && ok || bad "pack wrote an archive from '$bad_path'"
  rm -rf "$T/evil"
done

# A misspelled key ("nmae" for "name") is not an edit pack can apply: it warns, naming the
# entry and the key, and packs the archive unchanged; an extract's own manifest gives no warning.
expect_rc 0 "$UE" pack "$T/x" -o "$T/plain.rlb"
grep -q "manifest.key" "$T/err" && bad "an unedited manifest gave a key warning" || ok
cp -r "$T/x" "$T/typo"
edit_manifest "$T/typo" "e = m['entries'][1]; e['nmae'] = e.pop('name')"
expect_rc 0 "$UE" pack "$T/typo" -o "$T/typo.rlb"
grep -q 'manifest/entries\[1\]: unknown key "nmae" is ignored; did you mean "name"? \[manifest.key\]' "$T/err" && ok || bad "no warning for the misspelled key"
cmp -s "$T/typo.rlb" "$A" && ok || bad "a manifest with an unknown key did not pack the original bytes"
LIB="$T/demo/parkan/Material.lib"
expect_rc 0 "$UE" extract "$LIB" -o "$T/lib"
edit_manifest "$T/lib" "m['entries'][0]['methd'] = 'lzss'"
expect_rc 0 "$UE" pack "$T/lib" -o "$T/lib.lib"
grep -q 'manifest/entries\[0\]: entry "[^"]*": unknown key "methd" is ignored' "$T/err" && ok || bad "no warning for an RsLi entry's unknown key"

# Renaming an entry: an escaped byte (\xC0 is CP1251 'А') and plain ASCII; the raw 36-byte name
# is dropped so the readable name decides.
cp -r "$T/x" "$T/ren"
edit_manifest "$T/ren" "e = m['entries'][0]; e['name'] = 'NEW\\\\xC0NAME.wea'; e.pop('name_hex', None)"
expect_rc 0 "$UE" pack "$T/ren" -o "$T/ren.rlb"
expect_rc 0 "$UE" validate --strict "$T/ren.rlb"
# The stored name field holds exactly N E W 0xC0 N A M E . w e a and zero padding.
python3 - "$T/ren.rlb" <<'PY' && ok || bad "renamed entry's stored bytes are wrong"
import struct, sys
data = open(sys.argv[1], "rb").read()
count, total = struct.unpack_from("<iI", data, 8)
directory = total - 64 * count  # 64-byte records at the end; the name is at +0x14
names = [data[directory + 64 * i + 0x14:][:36] for i in range(count)]
want = b"NEW\xc0NAME.wea".ljust(36, b"\0")
sys.exit(0 if want in names else 1)
PY
expect_rc 0 "$UE" extract "$T/ren.rlb" -o "$T/ren2"
# CP1251 0xC0 is shown in UTF-8 from now on: the manifest names it NEWАNAME.wea (Cyrillic А).
grep -q '"name": "NEWАNAME.wea"' "$T/ren2/manifest.json" && ok || bad "re-extracted name is not NEWАNAME.wea"
# Cyrillic names (issue 13 point 6): ROBOT.msh renamed in UTF-8 through the manifest is stored as
# CP1251 bytes, listed and extracted in UTF-8, addressed by its UTF-8 name, and packs back exactly.
cp -r "$T/x" "$T/cyr"
edit_manifest "$T/cyr" "e = [e for e in m['entries'] if e['name'] == 'ROBOT.msh'][0]; e['name'] = 'РОБОТ.msh'"
expect_rc 0 "$UE" pack "$T/cyr" -o "$T/cyr.rlb"
python3 - "$T/cyr.rlb" <<'PY' && ok || bad "UTF-8 name not stored as CP1251 bytes"
import struct, sys
data = open(sys.argv[1], "rb").read()
count, total = struct.unpack_from("<iI", data, 8)
directory = total - 64 * count
names = [data[directory + 64 * i + 0x14:][:36] for i in range(count)]
sys.exit(0 if "РОБОТ.msh".encode("cp1251").ljust(36, b"\0") in names else 1)
PY
expect_rc 0 "$UE" list "$T/cyr.rlb"
grep -q "MESH .* РОБОТ.msh  \[nres\]$" "$T/out" && ok || bad "list does not show РОБОТ.msh in UTF-8"
expect_rc 0 "$UE" list --json "$T/cyr.rlb"
python3 - "$T/out" <<'PY' && ok || bad "list --json name is not UTF-8 with the raw bytes beside it"
import json, sys
e = [e for e in json.load(open(sys.argv[1]))["entries"] if e["type"] == "MESH"][0]
raw = bytes.fromhex(e["extra"]["name_hex"]).rstrip(b"\0")
sys.exit(0 if e["name"] == "РОБОТ.msh" and raw == "РОБОТ.msh".encode("cp1251") else 1)
PY
expect_rc 0 "$UE" extract "$T/cyr.rlb" -o "$T/cyr2"
robot_file=$(python3 -c "import json,sys; print([e['file'] for e in json.load(open(sys.argv[1]))['entries'] if e['name'] == 'РОБОТ.msh'][0])" "$T/cyr2/manifest.json")
[ "${robot_file#entries/}" = "0006_РОБОТ.msh" ] && ok || bad "payload file name is '$robot_file', not 0006_РОБОТ.msh"
[ -f "$T/cyr2/entries/0006_РОБОТ.msh" ] && ok || bad "no payload file entries/0006_РОБОТ.msh"
expect_rc 0 "$UE" pack "$T/cyr2" -o "$T/cyr2.rlb"
cmp -s "$T/cyr.rlb" "$T/cyr2.rlb" && ok || bad "extract -> pack of a Cyrillic archive is not byte-identical"
# ARCHIVE:ENTRY by the UTF-8 name, by the escaped form older versions printed, and by #N
for addr in "РОБОТ.msh" '\xD0\xCE\xC1\xCE\xD2.msh' "#6"; do
  expect_rc 0 "$UE" info "$T/cyr.rlb:$addr"
  grep -q "Parkan MSH model" "$T/out" && ok || bad "ARCHIVE:$addr does not find the model"
done
expect_rc 1 "$UE" info "$T/cyr.rlb:РОБОТЫ.msh"
grep -q 'no entry named "РОБОТЫ.msh"' "$T/err" && ok || bad "a missing UTF-8 name is not named in the error"
# A character CP1251 lacks is refused, naming the entry, the character and its code point.
cp -r "$T/x" "$T/cjk"
edit_manifest "$T/cjk" "m['entries'][2]['name'] = 'ROBOT名.msh'"
expect_rc 1 "$UE" pack "$T/cjk" -o "$T/cjk.rlb"
grep -q "manifest/entries\[2\]: name \"ROBOT名.msh\": '名' (U+540D) has no Windows-1251 code" "$T/err" \
  && ok || bad "unmappable character not refused by name: $(cat "$T/err")"
[ ! -e "$T/cjk.rlb" ] && ok || bad "pack wrote an archive with an unmappable name"
# Bytes without a character stay escaped in both directions: 0x98 (unassigned) and a control.
cp -r "$T/x" "$T/odd"
edit_manifest "$T/odd" "e = m['entries'][1]; e['name'] = 'A\\\\x98B\\\\x01\\\\\\\\.mat'; e.pop('name_hex', None)"
expect_rc 0 "$UE" pack "$T/odd" -o "$T/odd.rlb"
expect_rc 0 "$UE" list --json "$T/odd.rlb"
python3 - "$T/out" <<'PY' && ok || bad "0x98, a control byte or a backslash not escaped in the listing"
import json, sys
e = json.load(open(sys.argv[1]))["entries"][1]
raw = bytes.fromhex(e["extra"]["name_hex"]).rstrip(b"\0")
sys.exit(0 if e["name"] == "A\\x98B\\x01\\\\.mat" and raw == b"A\x98B\x01\\.mat" else 1)
PY
# RsLi names follow the same rule (12 bytes, shown through list --json's name_hex).
L="$T/demo/parkan/sprites_demo.lib"
expect_rc 0 "$UE" extract "$L" -o "$T/rl"
edit_manifest "$T/rl" "m['entries'][0]['name'] = 'ЩИТ_01'"
expect_rc 0 "$UE" pack "$T/rl" -o "$T/rl.lib"
expect_rc 0 "$UE" list --json "$T/rl.lib"
python3 - "$T/out" <<'PY' && ok || bad "RsLi UTF-8 rename not stored as CP1251"
import json, sys
names = {e["name"]: bytes.fromhex(e["extra"]["name_hex"]).rstrip(b"\0") for e in json.load(open(sys.argv[1]))["entries"]}
sys.exit(0 if names.get("ЩИТ_01") == "ЩИТ_01".encode("cp1251") else 1)
PY
# A name over 35 bytes is refused, naming the entry.
cp -r "$T/x" "$T/long"
edit_manifest "$T/long" "e = m['entries'][1]; e['name'] = 'x' * 40; e.pop('name_hex', None)"
expect_rc 1 "$UE" pack "$T/long" -o "$T/long.rlb"
grep -q "longer than 35 bytes" "$T/err" && ok || bad "no message for a 40-byte name"
[ ! -e "$T/long.rlb" ] && ok || bad "pack wrote an archive with a 40-byte name"

# A standalone GameCube LZSS file: change the decoded payload, pack, and read the new bytes back.
L="$T/demo/gamecube/demo_model.lzss"
expect_rc 0 "$UE" extract "$L" -o "$T/lz"
rel="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['file'])" "$T/lz/manifest.json")"
payload="$T/lz/$rel"
python3 - "$payload" <<'PY'
import sys
p = sys.argv[1]
data = bytearray(open(p, "rb").read())
data[0:16] = b"EDITED PAYLOAD!!"
open(p, "wb").write(bytes(data) + b"appended tail" * 7)
PY
cp "$payload" "$T/want.bin"
expect_rc 0 "$UE" pack "$T/lz" -o "$T/edited.lzss"
expect_rc 0 "$UE" validate --strict "$T/edited.lzss"
expect_rc 0 "$UE" extract "$T/edited.lzss" -o "$T/lz2"
cmp -s "$T/want.bin" "$T/lz2/$rel" && ok || bad "re-packed LZSS does not decode to the edited payload"
# The header records the new decoded size (big-endian at 4) and the file really is compressed.
python3 - "$T/edited.lzss" "$T/want.bin" <<'PY' && ok || bad "LZSS header sizes are wrong"
import os, struct, sys
data = open(sys.argv[1], "rb").read()
want = os.path.getsize(sys.argv[2])
magic, usize, csize = data[:4], *struct.unpack_from(">II", data, 4)
sys.exit(0 if magic == b"LZSS" and usize == want and csize == len(data) and len(data) < want else 1)
PY
finish
