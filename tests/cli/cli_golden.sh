#!/usr/bin/env bash
# Golden output of Parkan conversion: the sample robot (bare and inside objects.rlb) converted
# to .gltf must match tests/cli/golden/ byte for byte, and its .bin, its PNG files and the .glb
# of the same robot must match the pinned SHA-256s (golden/bin.sha256).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_golden
. "$HERE/cli_lib.sh"
G="$HERE/golden"

expect_rc 0 "$UE" demo -o "$T/demo"
mkdir -p "$T/out_dir"
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/out_dir/robot.gltf"
expect_rc 0 "$UE" convert "$T/demo/parkan/objects.rlb:ROBOT.msh" -o "$T/out_dir/ROBOT.gltf"
expect_rc 0 "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/out_dir/robot.glb"
cmp "$T/out_dir/robot.gltf" "$G/robot.gltf" && ok || bad "robot.gltf differs from tests/cli/golden/robot.gltf"
cmp "$T/out_dir/ROBOT.gltf" "$G/objects_ROBOT.gltf" && ok \
  || bad "objects.rlb:ROBOT.msh differs from tests/cli/golden/objects_ROBOT.gltf"
(cd "$T/out_dir" && sha256sum --check --strict --quiet "$G/bin.sha256") && ok \
  || bad ".bin, PNG or .glb hashes differ from tests/cli/golden/bin.sha256"
finish
