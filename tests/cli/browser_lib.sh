# What the browser tests share (sourced after cli_lib.sh): the check that headless Chromium and
# playwright-core are installed, and the sample pack converted with --gallery into $T/gallery.
# Usage: . browser_lib.sh; browser_ready || { finish; exit; }; gallery_of_pack [NAME]
# With NAME, the pack's robot is also converted under that file name (in the folder odd/).
browser_ready() {
  [ -x "${UE_CHROMIUM:-/usr/bin/chromium}" ] || { bad "no chromium (apt-get install chromium; scripts/setup.sh)"; return 1; }
  [ -f "$HERE/../node_modules/playwright-core/package.json" ] || { bad "no playwright-core (cd tests && npm ci)"; return 1; }
}
gallery_of_pack() {
  expect_rc 0 "$UE" demo -o "$T/pack"
  [ -z "${1:-}" ] || { mkdir -p "$T/pack/odd" && cp "$T/pack/parkan/robot.msh" "$T/pack/odd/$1"; }
  expect_rc 0 "$UE" convert -r "$T/pack" -o "$T/gallery" --gallery -q
  [ -f "$T/gallery/unearth-viewer/viewer.html" ] && [ -f "$T/gallery/unearth-viewer/node_modules/three/build/three.module.js" ] \
    && ok || bad "no viewer page or three.js in OUTDIR (cd viewer && npm ci)"
}
