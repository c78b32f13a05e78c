#!/usr/bin/env bash
# End-to-end tests of the hints for a newcomer's slips: a file before its verb, an output without
# -o, --format/--lod in capitals, a missing --data folder, pack given an archive, -o robot.fbx,
# and the exit codes and option groups the help, the man page and the README document.
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"   # absolute: the test changes directory
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_hints
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
R="$T/demo/parkan/robot.msh"
A="$T/demo/parkan/objects.rlb"
cd "$T/demo" || exit 1

# ---- a file before its verb ----------------------------------------------------------------
expect_usage "unearth: parkan/robot.msh is a file, not a verb; the verb comes first (did you mean 'unearth info parkan/robot.msh'?); see 'unearth --help'" \
  "$UE" parkan/robot.msh info
expect_usage "unearth: parkan/robot.msh is a file, not a verb; the verb comes first (did you mean 'unearth info parkan/robot.msh'?); see 'unearth --help'" \
  "$UE" parkan/robot.msh
# the verb moves to the front, everything else keeps its order; -o's value is not taken for a verb
expect_usage "unearth: parkan/robot.msh is a file, not a verb; the verb comes first (did you mean 'unearth convert parkan/robot.msh -o info --lod 1'?); see 'unearth --help'" \
  "$UE" parkan/robot.msh -o info convert --lod 1
expect_usage "unearth: parkan is a directory, not a verb; the verb comes first (did you mean 'unearth convert parkan -r -o out'?); see 'unearth --help'" \
  "$UE" parkan convert -r -o out
# a lone directory has no obvious verb, and a word that names nothing is an unknown verb
NO_GUESS="the verb comes first (unearth VERB [options] INPUT...); see 'unearth --help'"
expect_usage "unearth: parkan is a directory, not a verb; $NO_GUESS" "$UE" parkan
expect_usage "unearth: unknown verb nosuch.msh; see 'unearth --help'" "$UE" nosuch.msh info
# a command ending in an option that takes values (its values missing) has no verb to move
for tail in "-o" "--lod" "--output" "--rename-node a" "--translate 1 2" "--replace-slot 0" "-o r.glb --lod"; do
  # shellcheck disable=SC2086 # the words of $tail are separate arguments
  expect_usage "unearth: parkan/robot.msh is a file, not a verb; $NO_GUESS" "$UE" parkan/robot.msh $tail
done
# info only for a lone file: it takes no -o, and `--` ends the words that may be verbs
expect_usage "unearth: parkan/robot.msh is a file, not a verb; $NO_GUESS" "$UE" parkan/robot.msh -o r.glb
expect_usage "unearth: parkan/robot.msh is a file, not a verb; $NO_GUESS" "$UE" parkan/robot.msh -- info
# a misspelled verb after the file is corrected and moved; an existing file of that name is an input
expect_usage "unearth: parkan/robot.msh is a file, not a verb; the verb comes first (did you mean 'unearth convert parkan/robot.msh -o r.glb'?); see 'unearth --help'" \
  "$UE" parkan/robot.msh convrt -o r.glb
expect_usage "unearth: parkan/robot.msh is a file, not a verb; the verb comes first (did you mean 'unearth extract parkan/robot.msh -o x'?); see 'unearth --help'" \
  "$UE" parkan/robot.msh -o x extrcat
cp "$R" convrt
expect_usage "unearth: parkan/robot.msh is a file, not a verb; $NO_GUESS" "$UE" parkan/robot.msh convrt -o r.glb
rm convrt
[ ! -e r.glb ] && [ ! -e x ] && ok || bad "a verb hint wrote an output"
# the suggestion is a command the shell runs as it is, quotes included
cp "$R" "my robot's.msh"
expect_usage "" "$UE" "my robot's.msh" convert -o 'out dir/r.glb'
suggested=$(sed -n "s/.*(did you mean '\\(.*\\)'?); see 'unearth --help'\$/\\1/p" "$T/err")
[ "$suggested" = "unearth convert 'my robot'\\''s.msh' -o 'out dir/r.glb'" ] && ok || bad "suggestion: $suggested"
expect_rc 0 bash -c "${suggested/unearth/\"\$0\"}" "$UE"
expect_rc 0 "$UE" convert "my robot's.msh" -o "$T/direct.glb"
cmp -s "out dir/r.glb" "$T/direct.glb" && ok || bad "the suggested command did not convert the file"
# a name with a newline is shown escaped on the message's one line, and no command is suggested
# (it could not be pasted as one line)
cp "$R" "$(printf 'new\nline.msh')"
expect_usage "unearth: new\\x0Aline.msh is a file, not a verb; $NO_GUESS" "$UE" "$(printf 'new\nline.msh')" convert -o r.glb
expect_usage "unearth: convert: --data no\\x0Athere: no such directory; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/nl.glb" --data "$(printf 'no\nthere')"
# a suggestion too long for the message is dropped whole, never cut inside a quoted word
x960=$(printf '%0960d' 0)
expect_usage "" "$UE" parkan/robot.msh convert -o "$T/${x960:${#T}}'q.glb"
suggested=$(sed -n "s/.*(did you mean '\\(.*\\)'?); see 'unearth --help'\$/\\1/p" "$T/err")
[ "$suggested" = "unearth convert parkan/robot.msh -o '$T/${x960:${#T}}'\\''q.glb'" ] && ok || bad "long suggestion: $(cat "$T/err")"
for extra in 30 300; do
  expect_usage "unearth: parkan/robot.msh is a file, not a verb; $NO_GUESS" \
    "$UE" parkan/robot.msh convert -o "$T/${x960:${#T}}$(printf "%0${extra}d" 0)'q.glb"
done

# ---- an output without -o -------------------------------------------------------------------
expect_usage "unearth: extract: -o DIR is required (did you mean -o objs?); see 'unearth extract --help'" \
  "$UE" extract parkan/objects.rlb objs
expect_usage "unearth: convert: -o OUT is required (did you mean -o r.glb?); see 'unearth convert --help'" \
  "$UE" convert parkan/robot.msh r.glb
expect_usage "unearth: demo: -o DIR is required (did you mean -o d2?); see 'unearth demo --help'" "$UE" demo d2
expect_usage "unearth: convert: -o OUT is required (did you mean -o models?); see 'unearth convert --help'" \
  "$UE" convert parkan/robot.msh models
expect_usage "unearth: edit: -o OUT is required (did you mean -o r2.msh?); see 'unearth edit --help'" \
  "$UE" edit parkan/robot.msh r2.msh --scale 2
# no guess for a word that is an input: an existing file, an entry of an existing archive (by
# name or #N), a misspelled input (not an output's name), an existing file after extract's input
for last in parkan/objects.rlb parkan/objects.rlb:robot.msh 'gamecube/creature.fsys#0' \
            parkan/objects.rlb:nosuch.msh typo.msh typo.PKX; do
  expect_usage "unearth: convert: -o OUT is required; see 'unearth convert --help'" \
    "$UE" convert parkan/robot.msh "$last"
done
expect_usage "unearth: extract: -o DIR is required; see 'unearth extract --help'" \
  "$UE" extract parkan/objects.rlb parkan/textures_demo.lib
expect_usage "unearth: extract: -o DIR is required; see 'unearth extract --help'" \
  "$UE" extract parkan/objects.rlb objs.glb
expect_usage "unearth: demo: -o DIR is required; see 'unearth demo --help'" "$UE" demo parkan
expect_usage "unearth: edit: -o OUT is required; see 'unearth edit --help'" \
  "$UE" edit parkan/robot.msh r2.glb --scale 2
ln -s nowhere dangling.glb          # a link is something on disk, even one that leads nowhere
expect_usage "unearth: convert: -o OUT is required; see 'unearth convert --help'" \
  "$UE" convert parkan/robot.msh dangling.glb
rm dangling.glb
for out in objs r.glb d2 models r2.msh typo.msh typo.PKX objs.glb r2.glb nowhere; do
  [ ! -e "$out" ] && ok || bad "a usage error wrote $out"
done

# ---- choices in any letter case ---------------------------------------------------------------
expect_rc 0 "$UE" convert "$R" -o "$T/lower" --format obj
expect_rc 0 "$UE" convert "$R" -o "$T/upper" --format OBJ
cmp -s "$T/lower/robot.obj" "$T/upper/robot.obj" && cmp -s "$T/lower/robot.mtl" "$T/upper/robot.mtl" \
  && ok || bad "--format OBJ differs from --format obj"
expect_rc 0 "$UE" convert "$R" -o "$T/gltf" --format=GlTf
[ -f "$T/gltf/robot.gltf" ] && [ -f "$T/gltf/robot.bin" ] && ok || bad "--format=GlTf wrote no .gltf"
expect_rc 0 "$UE" convert "$R" -o "$T/all_lower.glb" --lod all --group all
expect_rc 0 "$UE" convert "$R" -o "$T/all_upper.glb" --lod ALL --group All
cmp -s "$T/all_lower.glb" "$T/all_upper.glb" && ok || bad "--lod ALL --group All differ from all/all"
expect_rc 0 "$UE" convert "$R" -o "$T/x.GLB" --format glb        # extension and option agree
expect_usage "unearth: convert: --format takes one of glb|gltf|obj, not 'Png'; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/png" --format Png
expect_rc 2 "$UE" convert "$R" -o "$T/y.glb" --format OBJ           # still contradicts the name
grep -q -- "--format obj contradicts the output name" "$T/err" && ok || bad "contradiction: $(cat "$T/err")"

# ---- --data names a directory ----------------------------------------------------------------
expect_usage "unearth: convert: --data $T/missing: no such directory; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/d1.glb" --data "$T/missing"
expect_usage "unearth: convert: --data $R: not a directory (the game folder holding Material.lib); see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/d1.glb" --data "$R"
expect_usage "unearth: convert: --data '': no such directory; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/d1.glb" --data=
expect_usage "unearth: convert: --data $T/missing: no such directory; see 'unearth convert --help'" \
  "$UE" convert -r parkan -o "$T/d1" --data "$T/missing"
[ ! -e "$T/d1.glb" ] && [ ! -e "$T/d1" ] && ok || bad "a refused --data wrote an output"
expect_rc 0 "$UE" convert "$R" -o "$T/d2.glb" --data "$T/demo/parkan"
# every verb that takes --data checks it (the help's option list names them)
data_verbs=0
for v in $("$UE" help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
  "$UE" help --options "$v" | grep -q '^--data ' || continue
  data_verbs=$((data_verbs + 1))
  "$UE" "$v" "$R" -o "$T/any_$v" --data "$T/missing" >"$T/out" 2>"$T/err"
  [ $? = 2 ] && grep -q -- "--data $T/missing: no such directory" "$T/err" && ok || bad "$v ignores a missing --data"
done
[ "$data_verbs" -ge 1 ] && ok || bad "the help names no verb that takes --data"

# ---- pack given an archive ---------------------------------------------------------------------
expect_usage "unearth: pack: parkan/objects.rlb is an archive (nres), not a directory: pack takes the directory that \`extract\` writes; run 'unearth extract parkan/objects.rlb -o DIR' first, then 'unearth pack DIR -o $T/p.rlb'; see 'unearth pack --help'" \
  "$UE" pack parkan/objects.rlb -o "$T/p.rlb"
expect_usage "unearth: pack: gamecube/demo_colo.fsys is an archive (fsys), not a directory: pack takes the directory that \`extract\` writes; run 'unearth extract gamecube/demo_colo.fsys -o DIR' first, then 'unearth pack DIR -o $T/p.fsys'; see 'unearth pack --help'" \
  "$UE" pack gamecube/demo_colo.fsys -o "$T/p.fsys"
expect_usage "unearth: pack: parkan/robot.wea is a file, not a directory: pack takes the directory that \`extract\` writes (manifest.json and entries/); see 'unearth pack --help'" \
  "$UE" pack parkan/robot.wea -o "$T/p.rlb"
[ ! -e "$T/p.rlb" ] && [ ! -e "$T/p.fsys" ] && ok || bad "a refused pack wrote an output"
# the two commands it suggests give back the archive, byte for byte
expect_rc 0 "$UE" extract parkan/objects.rlb -o "$T/DIR"
expect_rc 0 "$UE" pack "$T/DIR" -o "$T/p.rlb"
cmp -s "$A" "$T/p.rlb" && ok || bad "extract + pack as suggested is not byte-identical"

# ---- convert -o in a type it does not write ----------------------------------------------------
expect_usage "unearth: convert: -o $T/r.fbx: convert writes .glb, .gltf or .obj (or, for several models, a directory); Blender and other tools take a glTF further; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/r.fbx"
expect_usage "unearth: convert: -o $T/r.PNG: convert writes models as .glb, .gltf or .obj (or, for several models, a directory); textures become PNG files with 'unearth textures IN -o DIR'; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/r.PNG"
[ ! -e "$T/r.fbx" ] && [ ! -e "$T/r.PNG" ] && ok || bad "convert -o r.fbx wrote something"
# the games' own files are not convert's to write, in any letter case
for out in r.msh r.MSH r.Dat r.pkx r.fsys r.tex r.rlb; do
  expect_usage "unearth: convert: -o $T/$out: convert writes .glb, .gltf or .obj (or, for several models, a directory), not game files; a glTF becomes a Parkan model with 'unearth import IN.glb -o OUT.msh', and 'unearth edit' changes one; see 'unearth convert --help'" \
    "$UE" convert "$R" -o "$T/$out"
  [ ! -e "$T/$out" ] && ok || bad "convert -o $out wrote something"
done
mkdir "$T/v.fbx"                       # an existing directory is what the user named
expect_rc 0 "$UE" convert "$R" -o "$T/v.fbx"
[ -f "$T/v.fbx/robot.glb" ] && ok || bad "convert into the directory v.fbx"
expect_rc 0 "$UE" convert "$R" -o "$T/v2.fbx/"   # so is a name ending in '/'
[ -f "$T/v2.fbx/robot.glb" ] && ok || bad "convert into v2.fbx/"

# ---- --scale is one of convert's options, and given once ---------------------------------------
expect_rc 0 "$UE" convert --help; cp "$T/out" "$T/help_convert"
! grep -q '^Operations' "$T/help_convert" && ok || bad "convert --help has an Operations group"
after_data=$(sed -n '/^      --data DIR/,$p' "$T/help_convert" | tail -n +2 | grep -m1 -E '^  (-[a-z], |    )--' | sed 's/^ *//')
[ "${after_data%% *}" = --scale ] && ok || bad "convert --help: the option after --data is '$after_data'"
grep -q -- '^       unearth convert -r .*$' "$T/help_convert" && \
  sed -n '/^       unearth convert -r/,/^$/p' "$T/help_convert" | grep -q -- '\[--data DIR\] \[--scale S\]' \
  && ok || bad "convert -r synopsis lacks --data/--scale"
expect_rc 0 "$UE" edit --help
sed -n '/^Operations/,/^$/p' "$T/out" | grep -q -- '^      --scale S' && ok || bad "edit --help: --scale not an operation"
expect_usage "unearth: convert: --scale given twice; see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/s.glb" --scale 2 --scale 3
expect_rc 0 "$UE" edit "$R" -o "$T/s6.msh" --scale 2 --scale 3      # edit applies both, in order
expect_rc 0 "$UE" edit "$R" -o "$T/s6b.msh" --scale 6
cmp -s "$T/s6.msh" "$T/s6b.msh" && ok || bad "edit --scale 2 --scale 3 is not --scale 6"
# the man page lists convert's options in the help's order
expect_rc 0 "$UE" help --man
sed -n '/^\.SS convert$/,/^\.SS /p' "$T/out" | grep -A2 '^\\fB\\-\\-data' >/dev/null && \
  [ "$(sed -n '/^\.SS convert$/,/^\.SS /p' "$T/out" | grep '^\\fB' | grep -A1 'data' | sed -n 2p)" = '\fB\-\-scale\fR \fIS\fR' ] \
  && ok || bad "man page: --scale does not follow --data in convert"

# ---- exit codes in the help, every verb's help, the man page and the README ---------------------
expect_rc 0 "$UE" help
codes=$(sed -n '/^Exit codes:/,$p' "$T/out" | sed -n 's/^  \([0-9][0-9]*\) .*/\1/p' | tr '\n' ' ')
[ "$codes" = "0 1 2 3 130 " ] && ok || bad "help lists exit codes '$codes'"
for v in $("$UE" help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
  "$UE" help "$v" | sed -n '/^Exit codes:/,$p' | grep -q '^  130  interrupted' && ok || bad "help $v lacks exit 130"
done
expect_rc 0 "$UE" help --man
man_codes=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$T/out" | grep -A1 '^\.TP' | grep '^[0-9]' | tr '\n' ' ')
[ "$man_codes" = "$codes" ] && ok || bad "man page lists exit codes '$man_codes'"
README="$HERE/../../README.md"
readme_codes=$(sed -n '/^### Exit codes/,/^\*\*/p' "$README" | sed -n 's/^| \([0-9][0-9]*\) |.*/\1/p' | tr '\n' ' ')
[ "$readme_codes" = "$codes" ] && ok || bad "README lists exit codes '$readme_codes'"
# 130 is SIGINT's; every place says the rule (128 + N) and the other two signals handled
SIGNALS='interrupted (Ctrl-C, SIGINT; 128+N for signal N: 143 SIGTERM, 129 SIGHUP)'
for v in "" $("$UE" help | sed -n 's/^  \([a-z]*\) .*/\1/p'); do
  "$UE" help $v | grep -qxF "  130  $SIGNALS" && ok || bad "help $v: the 130 row does not name 143 and 129"
done
"$UE" help --man | sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' | sed 's/\\-/-/g' | grep -qxF "$SIGNALS" && ok \
  || bad "man page: the 130 row does not name 143 and 129"
sed -n '/^### Exit codes/,/^\*\*/p' "$README" | grep -qF "| 130 | $SIGNALS: " && ok \
  || bad "README: the 130 row does not name 143 and 129"

# ---- -o - is stdout for cat alone: every other verb refuses it (exit 2) and makes no "-" --------
expect_usage "unearth: convert: -o -: glTF to stdout is not supported; name a file (.glb, .gltf, .obj) or a directory; see 'unearth convert --help'" \
  "$UE" convert "$R" -o -
expect_usage "unearth: convert: -o -: glTF to stdout is not supported; name a file (.glb, .gltf, .obj) or a directory; see 'unearth convert --help'" \
  "$UE" convert -r "$T/demo/parkan" -o -
expect_usage "unearth: extract: -o -: extract does not write to stdout; give the output a name (./- names one called -); see 'unearth extract --help'" \
  "$UE" extract "$T/demo/parkan/objects.rlb" -o -
expect_usage "" "$UE" textures "$R" -o -
expect_usage "" "$UE" demo -o -
expect_usage "" "$UE" pack "$T/demo/parkan" -o -
expect_usage "" "$UE" texm "$T/none.png" -o -
expect_usage "" "$UE" edit "$R" -o - --scale 2
expect_usage "" "$UE" import "$T/none.glb" -o -
[ ! -e - ] && ok || bad "a file or directory named - was made"
expect_rc 0 "$UE" cat "$T/demo/parkan/objects.rlb:robot.wea" -o -
[ -s "$T/out" ] && ok || bad "cat -o - wrote nothing to stdout"
expect_rc 0 "$UE" demo -o ./-
[ -d ./- ] && ok || bad "demo -o ./- made no directory named -"
rm -rf ./-

# ---- --scale says its range ------------------------------------------------------------------
expect_usage "unearth: convert: --scale 1e31: want a number from 1e-30 to 1e30 in size, negative to mirror (not 0); see 'unearth convert --help'" \
  "$UE" convert "$R" -o "$T/big.glb" --scale 1e31
expect_rc 2 "$UE" edit "$R" -o "$T/s0.msh" --scale 0
grep -qxF "unearth: edit: --scale 0: want a number from 1e-30 to 1e30, not negative: the whole model is scaled, and a mirror would turn its faces inside out (--vertices FIRST COUNT before --scale mirrors those vertices only)" "$T/err" \
  && ok || bad "edit --scale 0: $(cat "$T/err")"
expect_rc 0 "$UE" convert "$R" -o "$T/mirror.glb" --scale -1e-30

finish
