#!/usr/bin/env bash
# End-to-end tests of output safety: an output that is, contains or lies inside an input is
# refused with or without -f and the input stays byte-identical; -f never removes foreign files.
set -u
UE="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_safety
. "$HERE/cli_lib.sh"

# A fingerprint of every file (path, size, content hash) under a tree, to prove nothing changed.
fingerprint() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
refused() { # refused WHY CMD...: exit 2, nothing written, and the message says WHY
  local why=$1; shift
  expect_rc 2 "$@"
  grep -q "$why" "$T/err" && ok || bad "message lacks '$why': $(cat "$T/err")"
}

expect_rc 0 "$UE" demo -o "$T/demo"
W="$T/work"; mkdir -p "$W"
cp "$T/demo/parkan/objects.rlb" "$W/a.rlb"
cp "$T/demo/parkan/robot.msh" "$W/r.msh"
expect_rc 0 "$UE" extract "$W/a.rlb" -o "$T/x"
before=$(fingerprint "$W"; fingerprint "$T/x")
unchanged() { [ "$(fingerprint "$W"; fingerprint "$T/x")" = "$before" ] && ok || bad "an input changed: $*"; }

# The output is the input: by name, by another spelling, through a hard link or a symlink.
refused "is the input" "$UE" extract "$W/a.rlb" -o "$W/a.rlb" -f;                     unchanged extract onto itself
refused "is the input" "$UE" extract "$W/a.rlb" -o "$W/../work/./a.rlb" -f;           unchanged other spelling
ln "$W/r.msh" "$T/hard.glb"
refused "is the input" "$UE" convert "$W/r.msh" -o "$T/hard.glb" -f;                  unchanged hard link
ln -s "$W/r.msh" "$T/soft.glb"
refused "is the input" "$UE" convert "$W/r.msh" -o "$T/soft.glb" -f;                  unchanged symlink
refused "is the input" "$UE" edit "$W/r.msh" -o "$W/r.msh" -f --scale 2;              unchanged edit in place
refused "is the input" "$UE" extract "$W/a.rlb:textures_inner.lib" -o "$W/a.rlb" -f;  unchanged OUTER:ENTRY
refused "is the input" "$UE" pack "$T/x" -o "$T/x" -f;                                unchanged pack onto its dir
# ... a companion file written beside the output (x.gltf → x.bin, x.obj → x.mtl) counts too.
ln "$W/r.msh" "$T/comp.bin"
refused "is the input" "$UE" convert "$W/r.msh" -o "$T/comp.gltf" -f;                 unchanged .bin companion
[ ! -e "$T/comp.gltf" ] && ok || bad "comp.gltf written although its .bin is the input"

# ... also through a directory that does not exist yet and ".." (the kernel would land on the
# input once the directory is made), and through the .mtl name the OBJ writer really uses.
cp "$W/r.msh" "$T/model.bin"; cp "$W/a.rlb" "$T/pack.glb"; cp "$W/r.msh" "$T/my_robot.mtl"
before_extra=$(cat "$T/model.bin" "$T/pack.glb" "$T/my_robot.mtl" | sha256sum)
refused "is the input" "$UE" convert "$T/model.bin" -o "$T/qq/../model.gltf" -f
refused "is the input" "$UE" convert "$T/pack.glb:ROBOT.msh" -o "$T/zz/../pack.glb" -f
refused "is the input" "$UE" convert "$T/my_robot.mtl" -o "$T/my robot.obj" -f
refused "is the input" "$UE" extract "$W/a.rlb" -o "$T/new/deeper/../../work/a.rlb" -f
[ "$(cat "$T/model.bin" "$T/pack.glb" "$T/my_robot.mtl" | sha256sum)" = "$before_extra" ] && ok \
  || bad "an input reached through a new directory and .. was overwritten"
[ ! -e "$T/qq" ] && [ ! -e "$T/zz" ] && [ ! -e "$T/new" ] && ok || bad "a refused command made directories"
unchanged "new directory then .."

# The output lies inside an input, or contains one.
refused "lies inside the input" "$UE" pack "$T/x" -o "$T/x/new.rlb" -f;               unchanged pack into its dir
[ ! -e "$T/x/new.rlb" ] && ok || bad "pack wrote inside its input directory"
refused "lies inside the input" "$UE" pack "$T/x" -o "$T/x/manifest.json" -f;         unchanged pack over manifest
refused "lies inside the input" "$UE" convert -r "$W" -o "$W/models";                  unchanged convert into its tree
[ ! -e "$W/models" ] && ok || bad "convert created a directory inside its input"
refused "contains the input" "$UE" extract "$W/a.rlb" -o "$W" -f;                      unchanged extract over its folder
(cd "$W" && "$UE" extract a.rlb -o . -f >/dev/null 2>&1); [ $? = 2 ] && ok || bad "extract -o . accepted"
unchanged "extract -o ."

# -f replaces only what the same verb writes: foreign files and directories survive.
F="$T/foreign"; mkdir -p "$F/keep"; echo precious > "$F/precious.txt"
refused "not empty and is not a previous unearth extract output" "$UE" extract "$W/a.rlb" -o "$F" -f
refused "not empty and is not a previous unearth sample pack" "$UE" demo -o "$F" -f
[ -d "$F/keep" ] && [ "$(cat "$F/precious.txt")" = precious ] && ok || bad "foreign files lost"
refused "is a directory" "$UE" pack "$T/x" -o "$F" -f
mkdir "$F/keep.glb"
refused "is a directory" "$UE" convert "$W/r.msh" -o "$F/keep.glb" -f
[ -d "$F/keep.glb" ] && [ "$(cat "$F/precious.txt")" = precious ] && ok || bad "foreign files lost to a file output"
echo target > "$T/target.rlb"; ln -s "$T/target.rlb" "$T/link.rlb"
refused "symbolic link" "$UE" pack "$T/x" -o "$T/link.rlb" -f
[ -L "$T/link.rlb" ] && [ "$(cat "$T/target.rlb")" = target ] && ok || bad "a symlink output was replaced"

# An empty directory is accepted without -f; a previous extract output needs -f, and gains no
# right to be replaced once a foreign file is in it.
mkdir "$T/empty"
expect_rc 0 "$UE" extract "$W/a.rlb" -o "$T/empty"
[ -f "$T/empty/manifest.json" ] && ok || bad "extract into an empty directory wrote nothing"
refused "use -f to replace it" "$UE" extract "$W/a.rlb" -o "$T/empty"
expect_rc 0 "$UE" extract "$W/a.rlb" -o "$T/empty" -f
echo mine > "$T/empty/notes.txt"
refused "not empty and is not a previous unearth extract output" "$UE" extract "$W/a.rlb" -o "$T/empty" -f
[ "$(cat "$T/empty/notes.txt")" = mine ] && ok || bad "-f removed a file added to an extract output"
rm "$T/empty/notes.txt"
mkdir "$T/empty/entries/sub"
refused "not empty and is not a previous unearth extract output" "$UE" extract "$W/a.rlb" -o "$T/empty" -f
rmdir "$T/empty/entries/sub"
# A file named like a string of the manifest (the source archive, an entry, a format name) is
# not part of the extract: -f refuses instead of deleting it.
for foreign in a.rlb ROBOT.msh nres; do
  echo precious > "$T/empty/$foreign"
  refused "not empty and is not a previous unearth extract output" "$UE" extract "$W/a.rlb" -o "$T/empty" -f
  [ "$(cat "$T/empty/$foreign")" = precious ] && ok || bad "-f removed $foreign from an extract output"
  rm "$T/empty/$foreign"
done
expect_rc 0 "$UE" extract "$W/a.rlb" -o "$T/empty" -f
# The sample pack replaces a previous sample pack with -f, nothing else.
expect_rc 0 "$UE" demo -o "$T/demo" -f
echo mine > "$T/demo/notes.txt"
refused "not empty and is not a previous unearth sample pack" "$UE" demo -o "$T/demo" -f
[ -f "$T/demo/notes.txt" ] && ok || bad "demo -f removed a foreign file"
ls "$T" | grep -q -e '\.partial-' -e '\.old-' -e '\.tmp-' && bad "temporary files left behind" || ok
finish
