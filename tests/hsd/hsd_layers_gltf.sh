#!/usr/bin/env bash
# Writes the glb files of the texture-layer test (test_hsd_layers DIR: a baked detail layer, a
# reflection-only material, repeated images) and checks each with the Khronos validator.
set -u
PROG="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
T="${UE_TEST_TMP:-/tmp}/hsd_layers_gltf.$$"
rm -rf "$T"; mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
if ! command -v node >/dev/null 2>&1 || [ ! -d "$HERE/../node_modules/gltf-validator" ]; then
  echo "FAIL: node or tests/node_modules/gltf-validator missing (run: cd tests && npm ci)" >&2
  exit 1
fi
"$PROG" "$T" >"$T/out" 2>"$T/log" || { cat "$T/log" >&2; echo "FAIL: $PROG" >&2; exit 1; }
grep "^$T/.*\.glb$" "$T/out" >"$T/list"
[ "$(grep -c . "$T/list")" = 3 ] || { echo "FAIL: expected 3 files" >&2; exit 1; }
# shellcheck disable=SC2046
node "$HERE/../gltf_validate.mjs" $(cat "$T/list")
