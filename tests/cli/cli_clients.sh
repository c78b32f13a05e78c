#!/usr/bin/env bash
# Round trips through the real glTF clients (tests/clients/: Blender 3.4, three.js, gltf-transform),
# each driven by its own API: for the robot at convert's default selection, --lod all and
# --group all, as .glb and .gltf, a client's unedited re-export imports back with --base
# byte-identical; a vertex move, a rename and a deletion (a leaf, a subtree) made in the client come back as exactly
# that change and pass validate --strict; a painted image and a changed base colour come back as
# exactly those texels in a copy of Textures.lib (tests/clients/texture_check.py); a node scale
# and a new skin are refused by name. A client
# that is not installed is skipped, saying so (scripts/setup.sh installs them all).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_clients
. "$HERE/cli_lib.sh"
CL="$HERE/../clients"

validate_gltf() {
  if node "$HERE/../gltf_validate.mjs" "$@" >"$T/val" 2>&1; then ok; else bad "gltf-validator: $*"; cat "$T/val" >&2; fi
}
first_error() { grep -m2 'error' "$T/err" | tr '\n' ' '; }

# ---- which clients are here ----
node_has() { [ -f "$HERE/../node_modules/$1/package.json" ]; }
CLIENTS=()
if command -v blender >/dev/null 2>&1; then CLIENTS+=(blender); else echo "$NAME: skipping Blender: no blender binary"; fi
if ! command -v node >/dev/null 2>&1; then
  echo "$NAME: skipping three.js and gltf-transform: no node"
else
  if node_has three && node_has @napi-rs/canvas; then CLIENTS+=(three)
  else echo "$NAME: skipping three.js: npm three or @napi-rs/canvas missing (cd tests && npm ci)"; fi
  if node_has @gltf-transform/functions && node_has @napi-rs/canvas; then
    CLIENTS+=(gltf-transform gltf-transform:dedup gltf-transform:weld gltf-transform:prune gltf-transform:quantize)
  else echo "$NAME: skipping gltf-transform: npm @gltf-transform/functions missing (cd tests && npm ci)"; fi
fi
[ ${#CLIENTS[@]} -gt 0 ] || { echo "$NAME: no client installed"; finish; exit; }

# run_client CLIENT IN OUT [EDIT...]: the client's re-export of IN as OUT (log in $T/client.log).
run_client() {
  local client=$1 in=$2 out=$3; shift 3
  mkdir -p "$(dirname "$out")"
  case $client in
    blender) blender -b --factory-startup --python-exit-code 1 --python "$CL/blender_gltf.py" -- "$in" "$out" "$@" ;;
    three) node "$CL/three_gltf.mjs" "$in" "$out" "$@" ;;
    gltf-transform) node "$CL/gltf_transform.mjs" "$in" "$out" "$@" ;;
    gltf-transform:*) node "$CL/gltf_transform.mjs" "$in" "$out" "${client#*:}" "$@" ;;
  esac >"$T/client.log" 2>&1 && [ -s "$out" ]
}

expect_rc 0 "$UE" demo -o "$T/demo"
P="$T/demo/parkan"
R="$P/robot.msh"
expect_rc 0 "$UE" extract "$R" -o "$T/base.x"
expect_rc 0 "$UE" info --json "$R"; cp "$T/out" "$T/base.json"
cp "$P/Textures.lib" "$T/Textures.orig"

# try_import LABEL GLTF: import --base into $T/back.msh; true when it exits 0, else one precise
# failure (the client, the selection, the case and the error) with what the client changed.
try_import() {
  rm -f "$T/back.msh"
  "$UE" import "$2" --base "$R" -o "$T/back.msh" >"$T/out" 2>"$T/err" && return 0
  bad "$1: import --base exits $?: $(first_error)"
  return 1
}

# unedited LABEL CLIENT SOURCE OUT: the re-export imports back byte-identical.
unedited() {
  run_client "$2" "$3" "$4" || { bad "$1: the client failed: $(tail -3 "$T/client.log")"; return; }
  if try_import "$1" "$4"; then
    cmp -s "$T/back.msh" "$R" && ok || bad "$1: import --base is not byte-identical to the base: $(grep changed "$T/err")"
  else
    python3 "$CL/gltf_facts.py" "$3" "$4" | head -8 | sed 's/^/    client changed: /' | cut -c1-240 >&2
  fi
}

# edited LABEL CLIENT SOURCE OUT EDIT: the client's edit of SOURCE, imported into $T/back.msh
# and extracted into $T/back.x; true when all of that worked and the model passes validate --strict.
edited() {
  local label=$1 client=$2 source=$3 out=$4; shift 4
  run_client "$client" "$source" "$out" "$@" || { bad "$label: the client failed: $(tail -3 "$T/client.log")"; return 1; }
  try_import "$label" "$out" || return 1
  cp "$T/err" "$T/import.err"
  expect_rc 0 "$UE" validate --strict "$T/back.msh"
  rm -rf "$T/back.x"; "$UE" extract "$T/back.msh" -o "$T/back.x" >/dev/null 2>&1 || { bad "$label: extract"; return 1; }
  "$UE" info --json "$T/back.msh" >"$T/back.json" 2>/dev/null
}

# check_msh LABEL CHECK ARGS...: one msh_check.py check of $T/back.x against the base.
check_msh() {
  local label=$1; shift
  if python3 "$CL/msh_check.py" "$1" "$T/base.x" "$T/back.x" "${@:2}" >"$T/check" 2>&1; then ok
  else bad "$label: $(head -5 "$T/check" | tr '\n' ' ')"; fi
}

node_names() { python3 -c 'import json,sys; print(" ".join(str(n["name"]) for n in json.load(open(sys.argv[1]))["node_table"]))' "$1"; }

# refused LABEL CLIENT SOURCE OUT CODE EDIT: the edit's import exits 1 with CODE, writing nothing.
refused() {
  local label=$1 client=$2 source=$3 out=$4 code=$5; shift 5
  run_client "$client" "$source" "$out" "$@" || { bad "$label: the client failed: $(tail -3 "$T/client.log")"; return; }
  rm -f "$T/back.msh"
  "$UE" import "$out" --base "$R" -o "$T/back.msh" >"$T/out" 2>"$T/err"; local rc=$?
  [ "$rc" = 1 ] && ok || bad "$label: import --base exits $rc, want 1 with $code"
  grep -qF -- "$code" "$T/err" && ok || bad "$label: no $code: $(first_error)"
  [ ! -e "$T/back.msh" ] && ok || bad "$label: a refused import wrote $T/back.msh"
}

# edit_cases LABEL CLIENT SOURCE DIR MESH_NODE: the geometry and tree edits; MESH_NODE is the
# glTF node holding body's LOD 0 group 0 mesh in this selection.
edit_cases() {
  local label=$1 client=$2 source=$3 dir=$4 mesh=$5 ext=${3##*.}
  if edited "$label move" "$client" "$source" "$dir/move/robot.$ext" "move=$mesh:0.25,0.5,-0.125"; then
    check_msh "$label move" moved "$T/base.json" body 0.25 0.5 -0.125
    check_msh "$label move" differ res2 res3   # positions and bounds; a translation keeps face normals
  fi
  if edited "$label rename" "$client" "$source" "$dir/rename/robot.$ext" "rename=head:visor"; then
    check "$label rename: node names" "$(node_names "$T/back.json")" "body visor None arm_left arm_right legs"
    check_msh "$label rename" differ res10
  fi
  if edited "$label delete" "$client" "$source" "$dir/delete/robot.$ext" "delete=legs"; then
    check "$label delete: node names" "$(node_names "$T/back.json")" "body head None arm_left arm_right"
    check_msh "$label delete" removed legs
    grep -q 'deletes 1 node of the base model.*"legs"' "$T/import.err" && ok || bad "$label delete: no warning naming legs"
  fi
  # head takes its unnamed child with it; the nodes after them are renumbered (default selection only).
  if [[ $label == *" default "* ]] && edited "$label delete subtree" "$client" "$source" "$dir/delete_head/robot.$ext" "delete=head"; then
    check "$label delete subtree: node names" "$(node_names "$T/back.json")" "body arm_left arm_right legs"
    check_msh "$label delete subtree" removed head
  fi
  refused "$label scale" "$client" "$source" "$dir/scale/robot.$ext" "[msh.import.scale]" "scale=arm_left:2"
  refused "$label skin" "$client" "$source" "$dir/skin/robot.$ext" "skin]" "skin=${mesh/body/arm_left}"
}

# texture_import LABEL GLTF [OPTION...]: import --base with --textures-out $T/tex/Textures.lib
# (and OPTIONs); true when it worked, the model is unchanged, the new archive passes
# validate --strict and the original archive is untouched.
texture_import() {
  local label=$1 gltf=$2; shift 2
  rm -rf "$T/tex"; mkdir -p "$T/tex"
  if ! "$UE" import "$gltf" --base "$R" -o "$T/tex/back.msh" --textures-out "$T/tex/Textures.lib" "$@" \
       >"$T/out" 2>"$T/err"; then
    bad "$label: import --textures-out exits $?: $(first_error)"; return 1
  fi
  cmp -s "$T/tex/back.msh" "$R" && ok || bad "$label: the model changed"
  cmp -s "$P/Textures.lib" "$T/Textures.orig" && ok || bad "$label: the original Textures.lib changed"
  expect_rc 0 "$UE" validate --strict "$T/tex/Textures.lib"
}

# check_textures LABEL CHECK ARGS...: one texture_check.py check of $T/tex/Textures.lib.
check_textures() {
  local label=$1 kind=$2; shift 2
  if python3 "$CL/texture_check.py" "$kind" "$T/Textures.orig" "$T/tex/Textures.lib" "$@" >"$T/check" 2>&1; then ok
  else bad "$label: $(head -5 "$T/check" | tr '\n' ' ')"; fi
}

# image_edit_case LABEL CLIENT SOURCE DIR: ROBOT_LEG.0 (4444: alpha, 4-bit channels) painted in
# the client comes back into a copy of Textures.lib as the client's pixels; nothing else changes.
image_edit_case() {
  local label="$1 image" client=$2 out="$4/image/robot.${3##*.}" canvas=()
  # three.js and the gltf-transform driver paint through a canvas, which stores colours
  # premultiplied by alpha in 8 bits: a texel of alpha a < 255 may come back up to 255/(2a) off
  # (16 at the ramp's lowest alpha, 8); Blender writes its float pixels exactly.
  [ "$client" = blender ] || canvas=(--canvas)
  if run_client "$client" "$3" "$out" "image=ROBOT_LEG.0:1,0.5,0.25,1"; then
    texture_import "$label" "$out" --textures-into "$P/Textures.lib" &&
      check_textures "$label" image ROBOT_LEG.0 "$out" ROBOT_LEG 1 0.5 0.25 1 "${canvas[@]}"
  else bad "$label: the client failed: $(tail -3 "$T/client.log")"; fi
}

# color_edit_case LABEL CLIENT SOURCE DIR: ROBOT_ARM's base colour changed in the client comes
# back as its 888 texture times the factor, in a copy of the Textures.lib beside the model (as
# the material chain finds it); nothing else changes.
color_edit_case() {
  local label="$1 color" client=$2 out="$4/color/robot.${3##*.}"
  if run_client "$client" "$3" "$out" "color=ROBOT_ARM:0.5,0.25,1,1"; then
    texture_import "$label" "$out" && check_textures "$label" color ROBOT_ARM.0 "$out" ROBOT_ARM 0.5 0.25 1 1
  else bad "$label: the client failed: $(tail -3 "$T/client.log")"; fi
}

# UE_CLIENTS=reduced (CI's sanitizer leg): convert's default selection as .glb only, each client
# once unedited and once with one texture edit, so every client's real output still goes through
# the import code under the sanitizers in a fraction of the full matrix's time.
MODE="${UE_CLIENTS:-full}"
case $MODE in
  full) SELECTIONS=(default lod_all group_all); EXTENSIONS=(glb gltf) ;;
  reduced) SELECTIONS=(default); EXTENSIONS=(glb); echo "$NAME: reduced (UE_CLIENTS=reduced)" ;;
  *) bad "UE_CLIENTS is '$MODE', want full or reduced"; finish; exit ;;
esac
reduced_edit() {
  case $2 in gltf-transform) color_edit_case "$@" ;; *) image_edit_case "$@" ;; esac
}

for sel in "${SELECTIONS[@]}"; do
  case $sel in
    default) opt=(); mesh=body ;;
    lod_all) opt=(--lod all); mesh=body_lod0_group0 ;;
    group_all) opt=(--group all); mesh=body_group0 ;;
  esac
  for ext in "${EXTENSIONS[@]}"; do
    D="$T/$sel.$ext"
    expect_rc 0 "$UE" convert "$R" -o "$D/robot.$ext" "${opt[@]}"
    validate_gltf "$D/robot.$ext"
    for client in "${CLIENTS[@]}"; do
      label="$client $sel .$ext"
      [ "$MODE" = reduced ] && [[ $client == *:* ]] && continue
      unedited "$label unedited" "$client" "$D/robot.$ext" "$D/${client/:/_}/robot.$ext"
      case $client in *:*) continue ;; esac   # the gltf-transform operations: unedited only
      if [ "$MODE" = reduced ]; then reduced_edit "$label" "$client" "$D/robot.$ext" "$D/${client}_edit"; continue; fi
      edit_cases "$label" "$client" "$D/robot.$ext" "$D/${client}_edit" "$mesh"
      image_edit_case "$label" "$client" "$D/robot.$ext" "$D/${client}_edit"
      color_edit_case "$label" "$client" "$D/robot.$ext" "$D/${client}_edit"
    done
  done
done
finish
