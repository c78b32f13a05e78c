#!/usr/bin/env bash
# The README's main job: write the built-in sample pack, then run the pipeline on every
# container in it (info, list, extract, pack, byte-compare, roundtrip, validate).
set -euo pipefail
UE="${1:-build/release/unearth}"
OUT="${2:-out/demo}"

"$UE" demo -o "$OUT" -f
find "$OUT" -type f ! -path '*/extracted/*' ! -name '*.repacked' | sort | while read -r f; do
  if ! "$UE" info "$f" >/dev/null 2>&1; then continue; fi   # not a container
  echo "== $f"
  "$UE" info "$f"
  "$UE" list "$f"
  "$UE" validate "$f"
  "$UE" extract "$f" -o "$f.extracted" -f -q
  "$UE" pack "$f.extracted" -o "$f.repacked" -f -q
  cmp "$f" "$f.repacked" && echo "extract → pack: byte-identical"
  "$UE" roundtrip "$f"
done
