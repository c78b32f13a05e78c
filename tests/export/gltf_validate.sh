#!/usr/bin/env bash
# Writes the glTF fixture scenes with the library (gltf_samples) and runs the Khronos validator
# on each file. A missing validator is a failure: glTF output is never accepted unchecked.
set -u
SAMPLES="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
T="${UE_TEST_TMP:-/tmp}/gltf_validate.$$"
rm -rf "$T"; mkdir -p "$T"
trap 'rm -rf "$T"' EXIT
if ! command -v node >/dev/null 2>&1 || [ ! -d "$HERE/../node_modules/gltf-validator" ]; then
  echo "FAIL: node or tests/node_modules/gltf-validator missing (run: cd tests && npm ci)" >&2
  exit 1
fi
"$SAMPLES" "$T" >"$T/list" || { echo "FAIL: gltf_samples" >&2; exit 1; }
n=$(grep -c . "$T/list")
[ "$n" -ge 14 ] || { echo "FAIL: only $n files written" >&2; exit 1; }
for f in "$T"/*.gltf; do  # a .gltf that names a buffer must have its .bin beside it
  if grep -q '"uri"' "$f" && [ ! -f "${f%.gltf}.bin" ]; then echo "FAIL: $f has no .bin" >&2; exit 1; fi
done
# shellcheck disable=SC2046
node "$HERE/../gltf_validate.mjs" $(cat "$T/list")
