#!/usr/bin/env bash
# End-to-end tests of `--into` (import and edit) against the spec's canonical layout: a replaced
# entry keeps its place, an added one comes last in directory and data, the archive validates
# strictly and an unchanged replace is byte-identical (NRes and RsLi), a changed archive comes out
# in directory order with its non-zero regions kept; of what --into refuses (an output that is
# the archive, a copy validate --strict rejects, a model into an entry of another type, an
# output extension of another format); and of what `edit`
# refuses: no operation, --material without --replace-slot or past the WEAR rows, a --vertices
# nothing follows, an output that is not .msh, an --into output that is the archive.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_edit
. "$HERE/cli_lib.sh"
LAYOUT="python3 $HERE/archive_layout.py"
same() { [ "$1" = "$2" ] && ok || bad "$3: got '$1', want '$2'"; }
absent() { [ ! -e "$1" ] && ok || bad "$2: $1 was written"; }
err_has() { grep -qF -- "$1" "$T/err" && ok || { bad "stderr lacks '$1' ($2)"; cat "$T/err" >&2; }; }
same_file() { cmp -s "$1" "$2" && ok || bad "$3: $1 and $2 differ"; }
canonical() { same "$($LAYOUT nres-canonical "$1")" ok "$2: canonical NRes layout (docs/formats/nres.md#data-region)"; }
# entry_line ARCHIVE NAME: "index type name offset size" of the entry NAME, read from the bytes
entry_line() { $LAYOUT nres-dir "$1" | awk -v n="$2" '$3 == n'; }

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"
R="$P/robot.msh"
O="$P/objects.rlb"
S="$P/sprites_demo.lib"
canonical "$O" "the sample objects.rlb"
expect_rc 0 "$UE" convert "$R" -o "$T/robot.glb"
printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvn 0 0 1\nf 1//1 2//1 4//1 3//1\n' >"$T/quad.obj"

# ---- NRes: an added entry comes last in the directory and after every payload ----
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/added.rlb" --base "$R" --into "$O:NEWBOT.msh"
err_has "added $O:NEWBOT.msh" "import --into adds"
canonical "$T/added.rlb" "import --into, added"
expect_rc 0 "$UE" validate --strict "$T/added.rlb"
# 8 entries, the new one last with the type the game gives models ('MESH'), the model's bytes
same "$($LAYOUT nres-dir "$T/added.rlb" | wc -l)" 8 "entries after the add"
same "$($LAYOUT nres-dir "$T/added.rlb" | tail -1 | cut -d' ' -f1-3,5)" "7 MESH NEWBOT.msh $(stat -c %s "$R")" "the added entry"
# Every entry that was there keeps its offset and bytes: the archive grew only at the end.
same "$($LAYOUT nres-dir "$T/added.rlb" | head -7)" "$($LAYOUT nres-dir "$O")" "the old entries keep their places"
data_end=$(( $($LAYOUT nres-dir "$O" | tail -1 | cut -d' ' -f4) + $($LAYOUT nres-dir "$O" | tail -1 | cut -d' ' -f5) ))
cmp -s -i 16 -n "$(( data_end - 16 ))" "$O" "$T/added.rlb" && ok || bad "the old payloads are the same bytes"
expect_rc 0 "$UE" extract "$T/added.rlb" -o "$T/x_added"
same_file "$T/x_added/entries/0007_NEWBOT.msh" "$R" "the added model's bytes"

# ---- NRes: a replace keeps the entry's place; an unchanged one gives the archive back ----
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/same.rlb" --base "$O:ROBOT.msh" --into "$O:ROBOT.msh"
err_has "replaced $O:ROBOT.msh" "import --into replaces"
same_file "$T/same.rlb" "$O" "an unchanged replace (import)"
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/same2.rlb" --base "$R" --into "$T/added.rlb:newbot.msh"
same_file "$T/same2.rlb" "$T/added.rlb" "an unchanged replace of the added entry, found as the engine does"
err_has "replaced $T/added.rlb:NEWBOT.msh" "the entry's own name is reported, not the name as typed"
# edit --into: a bigger ROBOT.msh, which lies before NEWBOT: the later payload moves up.
expect_rc 0 "$UE" edit "$T/added.rlb:ROBOT.msh" -o "$T/grown.rlb" --replace-slot 0 "$T/quad.obj" \
  --into "$T/added.rlb:ROBOT.msh"
err_has "replaced $T/added.rlb:ROBOT.msh" "edit --into replaces"
canonical "$T/grown.rlb" "edit --into, a bigger entry replaced"
expect_rc 0 "$UE" validate --strict "$T/grown.rlb"
same "$(entry_line "$T/grown.rlb" ROBOT.msh | cut -d' ' -f1)" 6 "the replaced entry keeps its index"
[ "$(entry_line "$T/grown.rlb" ROBOT.msh | cut -d' ' -f5)" -gt "$(stat -c %s "$R")" ] && ok || bad "ROBOT.msh grew"
expect_rc 0 "$UE" extract "$T/grown.rlb" -o "$T/x_grown"
for f in "$T"/x_added/entries/*; do
  case "$(basename "$f")" in *ROBOT.msh) continue ;; esac
  same_file "$f" "$T/x_grown/entries/$(basename "$f")" "entry $(basename "$f") kept by edit --into"
done
# The edit in the archive is the edit written alone.
expect_rc 0 "$UE" edit "$T/added.rlb:ROBOT.msh" -o "$T/grown.msh" --replace-slot 0 "$T/quad.obj"
same_file "$T/x_grown/entries/0006_ROBOT.msh" "$T/grown.msh" "edit --into holds what edit -o writes"
# edit --into adds as import does.
expect_rc 0 "$UE" edit "$R" -o "$T/added2.rlb" --scale 2 --into "$O:BIG.msh"
err_has "added $O:BIG.msh" "edit --into adds"
canonical "$T/added2.rlb" "edit --into, added"
same "$($LAYOUT nres-dir "$T/added2.rlb" | tail -1 | cut -d' ' -f1-3)" "7 MESH BIG.msh" "the entry edit added"
# ---- #N addresses entry N (reported by its name), as everywhere else; past the last is refused ----
expect_rc 0 "$UE" edit "$R" -o "$T/by_index.rlb" --scale 2 --into "$O:#6"
err_has "replaced $O:ROBOT.msh" "edit --into #6 replaces entry 6"
expect_rc 0 "$UE" edit "$R" -o "$T/by_name.rlb" --scale 2 --into "$O:robot.msh"
err_has "replaced $O:ROBOT.msh" "the entry's own name, not robot.msh as typed"
same_file "$T/by_index.rlb" "$T/by_name.rlb" "#6 and robot.msh put the model into the same entry"
same "$($LAYOUT nres-dir "$T/by_index.rlb" | awk '$3 == "#6"' | wc -l)" 0 "no entry named #6"
same "$($LAYOUT nres-dir "$T/by_index.rlb" | wc -l)" 7 "#6 adds no entry"
expect_rc 2 "$UE" edit "$R" -o "$T/past.rlb" --scale 2 --into "$O:#7"
err_has "#7: --into addresses entry 7, but the archive has 7 entries (#0 to #6)" "#7 is past the last entry"
absent "$T/past.rlb" "--into #7"

# ---- RsLi: added last in table and data; unchanged replace is byte-identical ----
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/sprites2.lib" --base "$R" --into "$S:newbot.msh"
expect_rc 0 "$UE" validate --strict "$T/sprites2.lib"
expect_rc 0 "$UE" list --json "$T/sprites2.lib"
cp "$T/out" "$T/list.json"
same "$($LAYOUT rsli-order "$T/list.json")" ok "RsLi payloads in table order after an add"
same "$(python3 -c "import json,sys; e=json.load(open(sys.argv[1]))['entries']; print(len(e), e[-1]['name'], max(x['offset'] for x in e) == e[-1]['offset'])" "$T/list.json")" \
  "8 NEWBOT.MSH True" "the added RsLi entry: last, upper case, after every payload"
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/sprites3.lib" --base "$R" --into "$T/sprites2.lib:NEWBOT.MSH"
err_has "replaced" "RsLi replace"
same_file "$T/sprites3.lib" "$T/sprites2.lib" "an unchanged RsLi replace"
expect_rc 0 "$UE" edit "$R" -o "$T/sprites4.lib" --replace-slot 0 "$T/quad.obj" --into "$T/sprites2.lib:NEWBOT.MSH"
expect_rc 0 "$UE" validate --strict "$T/sprites4.lib"
expect_rc 0 "$UE" list --json "$T/sprites4.lib"
same "$($LAYOUT rsli-order "$T/out")" ok "RsLi payloads in table order after edit --into"
expect_rc 0 "$UE" info "$T/sprites4.lib:NEWBOT.MSH"

# ---- NRes out of directory order, with regions outside every payload (docs/formats/nres.md#data-region) ----
# Directory: first.bin (type 7), ROBOT.msh (MESH), last.bin (type 7). File: region R0 (16
# non-zero bytes), last.bin, ROBOT.msh, region R1 (8 bytes), first.bin. A changed archive comes
# out in directory order, each region right after the payload it followed (R0, after none, first).
python3 - "$R" "$T/ooo.rlb" <<'PY'
import struct, sys
model = open(sys.argv[1], "rb").read()
pad = lambda b: b + b"\0" * (-len(b) % 8)
r0, r1 = b"region zero, 16.", b"region 1"
first, last = b"FIRST123", b"the last payload"
data = r0 + pad(last)
off_last = 16 + len(r0)
off_model = 16 + len(data)
data += pad(model)
data += r1
off_first = 16 + len(data)
data += pad(first)
rows = [(7, b"first.bin", first, off_first), (0x4853454D, b"ROBOT.msh", model, off_model),
        (7, b"last.bin", last, off_last)]
order = sorted(range(3), key=lambda i: rows[i][1].lower())
dir_ = b"".join(struct.pack("<5I", t, 0, 0, len(p), 0) + n.ljust(36, b"\0") + struct.pack("<II", o, order[i])
                for i, (t, n, p, o) in enumerate(rows))
open(sys.argv[2], "wb").write(b"NRes" + struct.pack("<III", 0x100, 3, 16 + len(data) + len(dir_)) + data + dir_)
PY
R0=$(printf 'region zero, 16.' | od -An -tx1 | tr -d ' \n'); R1=$(printf 'region 1' | od -An -tx1 | tr -d ' \n')
same "$($LAYOUT nres-segments "$T/ooo.rlb")" "region:$R0 last.bin ROBOT.msh region:$R1 first.bin" "the archive as built"
expect_rc 0 "$UE" validate --strict "$T/ooo.rlb"
expect_rc 0 "$UE" import "$T/robot.glb" -o "$T/ooo_same.rlb" --base "$T/ooo.rlb:ROBOT.msh" --into "$T/ooo.rlb:ROBOT.msh"
same_file "$T/ooo_same.rlb" "$T/ooo.rlb" "an unchanged replace keeps an archive out of order byte for byte"
expect_rc 0 "$UE" edit "$T/ooo.rlb:ROBOT.msh" -o "$T/ooo_grown.rlb" --scale 2 --into "$T/ooo.rlb:ROBOT.msh"
same "$($LAYOUT nres-segments "$T/ooo_grown.rlb")" "region:$R0 first.bin ROBOT.msh region:$R1 last.bin" \
  "edit --into, replaced: directory order, regions after what they followed"
expect_rc 0 "$UE" validate --strict "$T/ooo_grown.rlb"
expect_rc 0 "$UE" edit "$R" -o "$T/ooo_added.rlb" --scale 2 --into "$T/ooo.rlb:NEW.msh"
same "$($LAYOUT nres-segments "$T/ooo_added.rlb")" "region:$R0 first.bin ROBOT.msh region:$R1 last.bin NEW.msh" \
  "edit --into, added: directory order, the new entry last"
expect_rc 0 "$UE" extract "$T/ooo_added.rlb" -o "$T/x_ooo"
same_file "$T/x_ooo/entries/0000_first.bin" <(printf 'FIRST123') "first.bin kept"
same_file "$T/x_ooo/entries/0002_last.bin" <(printf 'the last payload') "last.bin kept"

# ---- --into refuses: the archive as output (-f or not), a .msh output, a model as archive ----
cp "$O" "$T/keep.rlb"
expect_rc 2 "$UE" edit "$R" -o "$T/keep.rlb" --scale 2 --into "$T/keep.rlb:ROBOT.msh" -f
err_has "output is the input" "edit --into over its archive"
same_file "$T/keep.rlb" "$O" "edit --into never overwrites the archive"
expect_rc 2 "$UE" edit "$T/keep.rlb:ROBOT.msh" -o "$T/keep.rlb" --scale 2 --into "$T/added.rlb:ROBOT.msh" -f
same_file "$T/keep.rlb" "$O" "edit never overwrites the archive MODEL lives in"
# A file named like ARCHIVE:ENTRY beside the archive: the archive --into reads is the one the
# output is compared with (it once took the longer name, and keep.rlb was replaced).
cp "$R" "$T/keep.rlb:ROBOT.msh"
expect_rc 2 "$UE" edit "$R" -o "$T/keep.rlb" --scale 2 --into "$T/keep.rlb:ROBOT.msh" -f
err_has "output is the input $T/keep.rlb;" "edit --into over its archive, a file named ARCHIVE:ENTRY beside it"
same_file "$T/keep.rlb" "$O" "edit --into never overwrites the archive, whatever files lie beside it"
# The copy is checked as validate --strict checks it, models and textures included: a Texm entry
# whose header is cut short (the type check takes it, the texture's reader does not).
python3 - "$T/walkonly.lib" <<'PY'
import struct, sys
tex = b"Texm" + bytes(range(1, 13))
row = struct.pack("<5I", 0x6D786554, 0, 0, len(tex), 0) + b"bad.tex".ljust(36, b"\0") + struct.pack("<II", 16, 0)
open(sys.argv[1], "wb").write(b"NRes" + struct.pack("<III", 0x100, 1, 16 + 16 + 64) + tex + row)
PY
expect_rc 1 "$UE" validate --strict "$T/walkonly.lib"
expect_rc 1 "$UE" edit "$R" -o "$T/walk_out.lib" --scale 2 --into "$T/walkonly.lib:new.msh"
err_has "$T/walk_out.lib:bad.tex: error: texm/header @0x0: a Texm header needs 32 bytes, only 16 are there" "the texture's own check"
err_has "edit: $T/walk_out.lib: the new archive would not pass \`unearth validate --strict\` (above); nothing is written" "why nothing is written"
absent "$T/walk_out.lib" "--into an archive whose texture fails validate --strict"
# A model into an entry typed for something else: the user's mistake, said as such (exit 2).
expect_rc 2 "$UE" edit "$R" -o "$T/wea.rlb" --scale 2 --into "$O:robot.wea"
err_has "entry 'robot.wea' is typed WEAR (a WEAR table), and what is put is a Parkan model" "a model into the WEAR entry"
absent "$T/wea.rlb" "a model into the WEAR entry"
expect_rc 2 "$UE" edit "$R" -o "$T/tex.rlb" --scale 2 --into "$O:Robot_Skin.tex"
err_has "entry 'Robot_Skin.tex' is typed Texm (a Texm texture), and what is put is a Parkan model" "a model into a Texm entry"
# The output keeps the archive's extension, or takes .rlb or .lib: never one of another format.
expect_rc 2 "$UE" edit "$R" -o "$T/out.glb" --scale 2 --into "$O:N.msh"
err_has "edit: -o $T/out.glb: with --into the output is a copy of $O, an NRes archive; give it .rlb or .lib" "-o out.glb --into"
absent "$T/out.glb" "-o out.glb --into"
cp "$O" "$T/objects.res"
expect_rc 2 "$UE" import "$T/robot.glb" -o "$T/out.gltf" --into "$T/objects.res:N.msh"
err_has "give it its extension (.res), .rlb or .lib" "-o out.gltf --into a .res archive"
expect_rc 0 "$UE" edit "$R" -o "$T/copy.RES" --scale 2 --into "$T/objects.res:N.msh"
expect_rc 0 "$UE" edit "$R" -o "$T/copy.LIB" --scale 2 --into "$T/objects.res:N.msh"
expect_rc 2 "$UE" edit "$R" -o "$T/x.msh" --scale 2 --into "$O:ROBOT.msh"
err_has "with --into the output is a copy of the archive" "edit --into -o *.msh"
absent "$T/x.msh" "edit --into -o *.msh"
expect_rc 2 "$UE" edit "$R" -o "$T/no.rlb" --scale 2 --into "$R:x.msh"
err_has "is a Parkan MSH model, not an archive of models" "edit --into a model"
absent "$T/no.rlb" "edit --into a model"
expect_rc 2 "$UE" edit "$R" -o "$T/no.rlb" --scale 2 --into "$T/robot.glb:x.msh"
err_has "not an NRes or RsLi archive" "edit --into a glTF"
absent "$T/no.rlb" "edit --into a glTF"

# ---- edit refuses what it cannot do ----
expect_rc 2 "$UE" edit "$R" -o "$T/noop.msh"
err_has "edit: no operation: give at least one of --rename-node N NAME, --translate X Y Z, --scale S or --replace-slot S FILE.obj" "no operation"
absent "$T/noop.msh" "no operation"
expect_rc 2 "$UE" edit "$R" -o "$T/noop.msh" --vertices 0 8
err_has "no operation" "--vertices alone changes nothing"
expect_rc 2 "$UE" edit "$R" -o "$T/mat.msh" --rename-node 2 antenna --material 1
err_has "--material M is the WEAR row of --replace-slot geometry, and no --replace-slot is given" "--material alone"
absent "$T/mat.msh" "--material without --replace-slot"
expect_rc 2 "$UE" edit "$R" -o "$T/mat.msh" --replace-slot 0 "$T/quad.obj" --material 70
err_has "--material 70: the WEAR table of $R has 4 rows (0..3)" "--material past a 4-row WEAR"
absent "$T/mat.msh" "--material 70"
expect_rc 2 "$UE" edit "$O:ROBOT.msh" -o "$T/mat.msh" --replace-slot 0 "$T/quad.obj" --material 4
err_has "has 4 rows (0..3)" "the WEAR of a model in an archive is its entry ROBOT.wea"
expect_rc 0 "$UE" edit "$R" -o "$T/mat.msh" --replace-slot 0 "$T/quad.obj" --material 3
# Without its WEAR, the row cannot be checked: said, and written.
mkdir "$T/lone" && cp "$R" "$T/lone/"
expect_rc 0 "$UE" edit "$T/lone/robot.msh" -o "$T/lone70.msh" --replace-slot 0 "$T/quad.obj" --material 70
err_has "no WEAR table robot.wea (any letter case) in $T/lone" "an unchecked --material names what was looked for"
err_has "--material is not checked against a WEAR table" "an unchecked --material is said"
expect_rc 2 "$UE" edit "$T/lone/robot.msh" -o "$T/lone_x.msh" --replace-slot 0 "$T/quad.obj" --material x7
err_has "--material x7: a WEAR row is a number 0..65535" "a --material that is no number"
absent "$T/lone_x.msh" "a --material that is no number"
expect_rc 2 "$UE" edit "$R" -o "$T/v.msh" --vertices 0 8 --scale 2 --vertices 1 2
err_has "--vertices FIRST COUNT limits the next --translate or --scale, and none follows it" "a dangling --vertices"
absent "$T/v.msh" "a dangling --vertices"
for out in x.glb x.gltf x.obj; do
  expect_rc 2 "$UE" edit "$R" -o "$T/$out" --scale 2
  err_has "edit writes a Parkan MSH model; name it .msh, then \`unearth convert OUT.msh -o OUT.glb\` makes the glTF or OBJ" "-o $out"
  absent "$T/$out" "-o $out"
done
expect_rc 2 "$UE" edit "$R" -o "$T/x.rlb" --scale 2
err_has "name it .msh (or give --into ARCHIVE:ENTRY" "-o x.rlb without --into"
expect_rc 0 "$UE" edit "$R" -o "$T/upper.MSH" --scale 2

finish
