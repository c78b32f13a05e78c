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

# edit_manifest DIR PYTHON: runs PYTHON with `m` bound to the manifest, then writes it back.
edit_manifest() {
  python3 - "$1/manifest.json" "$2" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
m = json.load(open(path))
exec(code)
json.dump(m, open(path, "w"), indent=2)
PY
}

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
grep -q 'NEW\\\\xC0NAME.wea' "$T/ren2/manifest.json" && ok || bad "re-extracted name is not NEW\\xC0NAME.wea"
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
