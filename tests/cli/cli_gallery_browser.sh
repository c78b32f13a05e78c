#!/usr/bin/env bash
# The gallery in a real browser: `convert -r --gallery` of the sample pack, then
# tests/clients/gallery_browser.mjs opens index.html and every viewer page in Debian's headless
# Chromium (WebGL through SwiftShader): every model listed with the counts of its glb, every clip
# listed, the KHR_animation_pointer clips bound and changing material values, no console error,
# a non-blank canvas; a model whose name holds '#', '&' and quotes loads like the others.
# Chromium and playwright-core come from scripts/setup.sh; without them it fails.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_gallery_browser
. "$HERE/cli_lib.sh"

. "$HERE/browser_lib.sh"
browser_ready || { finish; exit; }
gallery_of_pack "a<b&c'd\"e #1.msh"
if node "$HERE/../clients/gallery_browser.mjs" "$T/gallery" >"$T/browser.log" 2>&1; then ok; else bad "gallery_browser.mjs"; cat "$T/browser.log" >&2; fi
finish
