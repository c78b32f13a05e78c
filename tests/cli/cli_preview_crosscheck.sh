#!/usr/bin/env bash
# unearth's previews against three.js: the sample pack converted with --gallery (the glb of each
# model and the viewer's copy of three.js), then tests/clients/preview_crosscheck.mjs draws every
# model from every view with `unearth preview -v` and with three.js in Debian's headless Chromium
# (WebGL through SwiftShader) from the camera -v states; each silhouette pair must have an
# intersection over union of 0.97 or more (the table of IoUs is printed).
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_preview_crosscheck
. "$HERE/cli_lib.sh"

. "$HERE/browser_lib.sh"
browser_ready || { finish; exit; }
gallery_of_pack
if node "$HERE/../clients/preview_crosscheck.mjs" "$UE" "$T/gallery" >"$T/crosscheck.log" 2>&1; then ok; else bad "preview_crosscheck.mjs"; fi
cat "$T/crosscheck.log"
finish
