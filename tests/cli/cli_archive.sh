#!/usr/bin/env bash
# End-to-end tests of the container verbs on the demo pack: extract → pack byte-identity,
# edits, ARCHIVE:ENTRY, validation, bad input (exit 1, no output file, input untouched).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_archive
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
A="$T/demo/parkan/objects.rlb"
[ -f "$A" ] && ok || bad "demo did not write $A"
expect_rc 2 "$UE" demo -o "$T/demo"                    # exists without -f
expect_rc 0 "$UE" demo -o "$T/demo" -f

# info / list report real values
expect_rc 0 "$UE" info "$A"
grep -q "Parkan NRes archive" "$T/out" && ok || bad "info lacks the format"
expect_rc 0 "$UE" list --json "$A"
n=$(grep -c '"name_hex"' "$T/out"); [ "$n" = 7 ] && ok || bad "list --json shows $n entries, want 7"
grep -q '"nested": "nres"' "$T/out" && ok || bad "nested NRes not recognised"

# extract → pack is byte-identical
expect_rc 0 "$UE" extract "$A" -o "$T/x"
[ -f "$T/x/manifest.json" ] && ok || bad "no manifest"
expect_rc 0 "$UE" pack "$T/x" -o "$T/re.rlb"
cmp -s "$A" "$T/re.rlb" && ok || bad "extract/pack not byte-identical"
expect_rc 0 "$UE" roundtrip "$A"
grep -q identical "$T/out" && ok || bad "roundtrip not identical"

# a nested entry addressed as ARCHIVE:ENTRY
expect_rc 0 "$UE" list "$A:textures_inner.lib"
grep -q GRID_01 "$T/out" && ok || bad "ARCHIVE:ENTRY listing lacks GRID_01"
expect_rc 0 "$UE" roundtrip "$A:textures_inner.lib"
expect_rc 1 "$UE" list "$A:no_such_entry"

# a changed payload packs into a valid archive holding the new bytes (any bytes: empty.bin's
# type id, 1, is none unearth knows; a typed entry must hold its type, cli_typed_entries.sh)
f=$(ls "$T/x/entries/" | grep empty.bin)
printf 'changed payload of another size' > "$T/x/entries/$f"
expect_rc 0 "$UE" pack "$T/x" -o "$T/edit.rlb"
expect_rc 0 "$UE" validate --strict "$T/edit.rlb"
expect_rc 0 "$UE" extract "$T/edit.rlb" -o "$T/x2"
cmp -s "$T/x/entries/$f" "$T/x2/entries/$f" && ok || bad "edited payload not carried over"

# validate: the sample is valid, recursively
expect_rc 0 "$UE" validate --json "$A"
grep -q '"valid": true' "$T/out" && ok || bad "validate --json not valid"

# bad input: truncated archive → exit 1, diagnostic with offset, no output directory
mkdir -p "$T/d"; python3 "$HERE/damaged_files.py" "$T/demo" "$T/d" >/dev/null   # tests/cli/damaged_files.py
cp "$T/d/nres_trunc.rlb" "$T/trunc.rlb"
cp "$T/trunc.rlb" "$T/trunc.orig"
expect_rc 1 "$UE" extract "$T/trunc.rlb" -o "$T/never"
[ ! -e "$T/never" ] && ok || bad "partial output left behind"
grep -q '@0x' "$T/err" && ok || bad "diagnostic lacks an offset"
cmp -s "$T/trunc.rlb" "$T/trunc.orig" && ok || bad "input modified"
expect_rc 1 "$UE" validate "$T/trunc.rlb"
printf 'not an archive' > "$T/junk.bin"
expect_rc 1 "$UE" info "$T/junk.bin"
expect_rc 3 "$UE" info "$T/does-not-exist"
expect_rc 2 "$UE" frobnicate
expect_rc 2 "$UE" extract "$A"

# tolerant mode: an entry pointing past the directory is skipped, the rest extracted
cp "$T/d/nres_size.rlb" "$T/damaged.rlb"
expect_rc 1 "$UE" extract "$T/damaged.rlb" -o "$T/strict"
[ ! -e "$T/strict" ] && ok || bad "strict extract left output"
expect_rc 1 "$UE" extract --tolerant "$T/damaged.rlb" -o "$T/tol"
grep -q "skipped damaged entry 1" "$T/err" && ok || bad "tolerant extract did not list the damaged entry"
n=$(ls "$T/tol/entries" | wc -l); [ "$n" = 6 ] && ok || bad "tolerant extract wrote $n files, want 6"

# RsLi: every packing method lists, extracts and packs back byte-identically; an edited
# payload is re-packed with its own method and reads back.
L="$T/demo/parkan/sprites_demo.lib"
expect_rc 0 "$UE" list --json "$L"
for m in stored xor lzss xor+lzss lzhuf xor+lzhuf deflate; do
  grep -q "\"method\": \"$m\"" "$T/out" && ok || bad "RsLi sample lacks method $m"
done
expect_rc 0 "$UE" validate --strict "$L"
expect_rc 0 "$UE" extract "$L" -o "$T/lx"
expect_rc 0 "$UE" pack "$T/lx" -o "$T/l2.lib"
cmp -s "$L" "$T/l2.lib" && ok || bad "RsLi extract/pack not byte-identical"
expect_rc 0 "$UE" roundtrip "$L"
for f in "$T"/lx/entries/*; do printf 'EDITED %s' "$(basename "$f")" > "$f"; done
expect_rc 0 "$UE" pack "$T/lx" -o "$T/l3.lib"
expect_rc 0 "$UE" validate --strict "$T/l3.lib"
expect_rc 0 "$UE" extract "$T/l3.lib" -o "$T/lx3"
same=1
for f in "$T"/lx/entries/*; do cmp -s "$f" "$T/lx3/entries/$(basename "$f")" || same=0; done
[ "$same" = 1 ] && ok || bad "edited RsLi payloads did not survive pack → extract"

# reordering manifest entries rebuilds the sort tables (NRes and RsLi): lookups still work
for src in "$A" "$L"; do
  rm -rf "$T/ro"
  expect_rc 0 "$UE" extract "$src" -o "$T/ro"
  python3 - "$T/ro/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["entries"][0], m["entries"][1] = m["entries"][1], m["entries"][0]
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
  expect_rc 0 "$UE" pack "$T/ro" -o "$T/ro.bin" -f
  expect_rc 0 "$UE" validate --strict "$T/ro.bin"
  first=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['name'])" "$T/ro/manifest.json")
  expect_rc 0 "$UE" list --json "$T/ro.bin"
  [ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['entries'][0]['name'])" "$T/out")" = "$first" ] \
    && ok || bad "reordered entry not first after pack"
done
# a nested archive found by name through the rebuilt NRes table
expect_rc 0 "$UE" list "$T/ro.bin" >/dev/null
rm -rf "$T/ro"; expect_rc 0 "$UE" extract "$A" -o "$T/ro"
python3 - "$T/ro/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
m["entries"].reverse()
json.dump(m, open(sys.argv[1], "w"), indent=1)
PY
expect_rc 0 "$UE" pack "$T/ro" -o "$T/rev.rlb"
expect_rc 0 "$UE" list "$T/rev.rlb:textures_inner.lib"
grep -q GRID_01 "$T/out" && ok || bad "lookup through the rebuilt sort table"

# -q / -v: an NRes with 16 non-zero bytes outside every entry gets one info-level note
# (nres.unindexed); it is printed only with -v, on every verb that reads the file.
python3 - "$A" "$T/gap.rlb" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
count, total = struct.unpack_from("<iI", d, 8)
directory = total - 64 * count
out = d[:directory] + b"\x55" * 16 + d[directory:]
open(sys.argv[2], "wb").write(out[:12] + struct.pack("<I", total + 16) + out[16:])
PY
NOTE='gap.rlb: info: nres/data @0x[0-9a-f]*: 16 bytes outside every entry hold non-zero data (kept) \[nres.unindexed\]'
for verb in info list validate roundtrip; do
  expect_rc 0 "$UE" $verb "$T/gap.rlb"
  grep -q "info:" "$T/err" && bad "$verb printed a note without -v" || ok
  expect_rc 0 "$UE" $verb -v "$T/gap.rlb"
  grep -q "$NOTE" "$T/err" && ok || bad "$verb -v did not print the note"
  expect_rc 0 "$UE" $verb --verbose "$T/gap.rlb"
  [ "$(grep -c "$NOTE" "$T/err")" = 1 ] && ok || bad "$verb --verbose: not one note"
done
rm -rf "$T/gx"; expect_rc 0 "$UE" extract "$T/gap.rlb" -o "$T/gx"
grep -q "info:" "$T/err" && bad "extract printed a note without -v" || ok
grep -q "extracted 7 entries" "$T/err" && ok || bad "extract lost its progress line"
rm -rf "$T/gx"; expect_rc 0 "$UE" extract -v "$T/gap.rlb" -o "$T/gx"
grep -q "$NOTE" "$T/err" && ok || bad "extract -v did not print the note"
rm -rf "$T/gx"; expect_rc 0 "$UE" extract -q "$T/gap.rlb" -o "$T/gx"
[ ! -s "$T/err" ] && ok || bad "extract -q printed: $(cat "$T/err")"
# --json keeps every diagnostic, notes included, without -v
expect_rc 0 "$UE" list --json "$T/gap.rlb"
grep -q '"code": "nres.unindexed"' "$T/out" && ok || bad "list --json dropped the note"
# -q hides warnings but never errors: 3 non-zero bytes are padding (a warning in both modes),
# and a file cut short is an error.
python3 - "$T/gap.rlb" "$T/pad.rlb" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
count, total = struct.unpack_from("<iI", d, 8)
directory = total - 64 * count
del d[directory - 13:directory]  # 3 of the 16 bytes stay: less than the 8-byte alignment
struct.pack_into("<I", d, 12, total - 13)
open(sys.argv[2], "wb").write(bytes(d))
PY
expect_rc 0 "$UE" list "$T/pad.rlb"
grep -q "warning: .*\[nres.padding.nonzero\]" "$T/err" && ok || bad "padding warning not shown by default"
expect_rc 0 "$UE" list -q "$T/pad.rlb"
grep -q "warning:" "$T/err" && bad "list -q printed a warning" || ok
head -c 100 "$A" > "$T/cut.rlb"
expect_rc 1 "$UE" list -q "$T/cut.rlb"
grep -q "error:" "$T/err" && ok || bad "list -q hid the error"
# pack makes the directories its output goes into
expect_rc 0 "$UE" pack "$T/gx" -o "$T/new/sub/dir/gap.rlb"
cmp -s "$T/gap.rlb" "$T/new/sub/dir/gap.rlb" && ok || bad "pack into new directories is not byte-identical"

finish
