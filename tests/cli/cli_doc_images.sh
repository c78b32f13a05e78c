#!/usr/bin/env bash
# The pictures in the docs never go stale: scripts/preview_samples.sh draws the sample pack's
# previews again with this binary, and docs/images/ must hold exactly those files, byte for byte.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_doc_images
. "$HERE/cli_lib.sh"
IMAGES="$HERE/../../docs/images"

expect_rc 0 "$UE" demo -o "$T/pack"
expect_rc 0 "$HERE/../../scripts/preview_samples.sh" "$UE" "$T/pack" "$T/images"
check "the images drawn and those in docs/images" "$(cd "$T/images" && ls)" "$(cd "$IMAGES" && ls)"
for f in "$T"/images/*.png; do
  cmp -s "$f" "$IMAGES/$(basename "$f")" && ok \
    || bad "docs/images/$(basename "$f") is not what the binary draws (scripts/preview_samples.sh UNEARTH PACK docs/images)"
done
finish
