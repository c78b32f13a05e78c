#!/usr/bin/env bash
# convert -r --gallery without a browser: OUTDIR/index.html lists every converted model once, in the
# report's order, with its counts as the report states them, its name and source HTML-escaped and
# its viewer link percent-encoded; the bytes are the same at -j 1 and -j 2; the report's gallery
# records validate; a resumed run keeps the counts; without the viewer the page links the glb and
# says so once; a user's own index.html is left as it is; -r, glTF output and OUTDIR's ownership hold.
set -u
UE="$1"
HERE="$(cd "$(dirname "$0")" && pwd)"
NAME=cli_gallery
. "$HERE/cli_lib.sh"

expect_rc 0 "$UE" demo -o "$T/demo"
# A model whose file name needs escaping in HTML and in a URL.
mkdir -p "$T/in/odd"
cp "$T/demo/parkan/robot.msh" "$T/in/odd/a<b&c'd\"e #1.msh"
cp "$T/demo/gamecube/creature.fsys" "$T/in/creature.fsys"

expect_rc 0 "$UE" convert -r "$T/in" -o "$T/g1" --gallery -j 1 -q
expect_rc 0 "$UE" convert -r "$T/in" -o "$T/g2" --gallery -j 2 -q
cmp -s "$T/g1/index.html" "$T/g2/index.html" && ok || bad "index.html differs between -j 1 and -j 2"

# The page against the report, read independently (Python's HTML parser).
python3 - "$T/g1" <<'PY' && ok || bad "index.html does not match the report"
import html.parser, json, sys, urllib.parse
root = sys.argv[1]
report = json.load(open(root + "/unearth-batch.json"))
models = [r for r in report["records"] if r["kind"] == "model" and r["status"] in ("converted", "kept")]
page = open(root + "/index.html", encoding="utf-8").read()
class Cards(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.cards = []; self.field = None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and "model" in (a.get("class") or "").split():
            self.cards.append({"name": a["data-name"], "href": None, "source": "", "counts": ""})
        elif tag == "a" and self.cards and self.cards[-1]["href"] is None:
            self.cards[-1]["href"] = a["href"]
        elif tag == "div" and a.get("class") in ("source", "counts"):
            self.field = a["class"]
    def handle_endtag(self, tag):
        if tag == "div": self.field = None
    def handle_data(self, data):
        if self.field: self.cards[-1][self.field] += data
p = Cards(); p.feed(page)
errors = []
if [c["source"] for c in p.cards] != [m["input"] for m in models]:
    errors.append("sources %r != %r" % ([c["source"] for c in p.cards], [m["input"] for m in models]))
for c, m in zip(p.cards, models):
    g = m["gallery"]
    want = "%d triangles, %d joints, %d clips, %d textures" % (g["triangles"], g["joints"], g["clips"], g["textures"])
    if c["counts"] != want: errors.append("%s: counts %r != %r" % (m["input"], c["counts"], want))
    href = urllib.parse.urlsplit(c["href"])
    if href.path != "unearth-viewer/viewer.html" or urllib.parse.unquote(href.query[2:]) != m["output"]:
        errors.append("%s: link %r" % (m["input"], c["href"]))
odd = [c for c in p.cards if c["source"].endswith(".msh")]
if not odd or odd[0]["name"] != "a<b&c'd\"e #1.msh": errors.append("odd name not shown as it is: %r" % odd)
for raw in ("a<b", "&c'", "d\"e"):
    if raw in page: errors.append("unescaped %r in the page" % raw)
# robot: 72 triangles, no skin; copied without its WEAR table, so a warning, shown escaped.
robot = next(m for m in models if m["input"].endswith(".msh"))["gallery"]
if (robot["triangles"], robot["joints"]) != (72, 0): errors.append("robot %r" % robot)
if not robot["warnings"] or "<li>" + html.escape(robot["warnings"][0]).replace("&#x27;", "&#39;") + "</li>" not in page:
    errors.append("robot's warning not on the page: %r" % robot["warnings"])
if any(m["gallery"]["joints"] != 8 for m in models if "creature" in m["input"]): errors.append("creature joints")
print("\n".join(errors), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
node "$HERE/../json_schema_check.mjs" "$HERE/../../docs/schema/batch.schema.json" "$T/g1/unearth-batch.json" >"$T/schema" 2>&1 \
  && ok || { bad "report against its schema"; cat "$T/schema" >&2; }
[ -f "$T/g1/unearth-viewer/viewer.html" ] && [ -f "$T/g1/unearth-viewer/node_modules/three/build/three.module.js" ] \
  && ok || bad "the viewer's files are not in OUTDIR (cd viewer && npm ci)"

# The thumbnails of the whole sample pack: each model's is a 256x256 PNG, the very bytes
# `unearth preview MODEL` writes with its defaults, and its card shows it; the files that hold no
# model (texture and material libraries, WEAR tables, animation banks) get no card at all.
expect_rc 0 "$UE" convert -r "$T/demo" -o "$T/gp" --gallery -q
python3 - "$T/gp" >"$T/thumbs" <<'PY' && ok || bad "thumbnails of the sample pack: $(cat "$T/thumbs")"
import html.parser, json, struct, sys, urllib.parse
root = sys.argv[1]
report = json.load(open(root + "/unearth-batch.json"))
models = [r for r in report["records"] if r["kind"] == "model" and r["status"] == "converted"]
class Thumbs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.cards = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "li" and "model" in (a.get("class") or "").split():
            self.cards.append(None); self.names.append((a["data-name"], a["class"]))
        elif tag == "img" and self.cards: self.cards[-1] = urllib.parse.unquote(a["src"])
        elif tag == "a" and (a.get("id") or "").startswith("l-"): self.letters.append(a["id"][2:])
page = open(root + "/index.html", encoding="utf-8").read()
p = Thumbs(); p.names = []; p.letters = []; p.feed(page)
errors = []
# A PKX's one entry is named model.dat by unearth itself: its card goes by the PKX's name, as its
# output does (creature.pkx:model.dat -> creature.glb), listed under that name's letter.
for m, (name, cls) in zip(models, p.names):
    named = m["input"][:-len(":model.dat")] if m["input"].endswith(".pkx:model.dat") else m["input"]
    want = named.rsplit(":", 1)[-1].rsplit("/", 1)[-1]
    if (name, cls) != (want, "model l-" + (want[0].upper() if want[0].isalpha() else "0")):
        errors.append("%s: card named %r (%s), want %r" % (m["input"], name, cls, want))
if "M" in p.letters: errors.append("a letter M with no model named so: %r" % p.letters)
if len(models) != 5 or len(p.cards) != 5: errors.append("%d models, %d cards, want 5" % (len(models), len(p.cards)))
if "nopreview" in page.split("</style>")[1]: errors.append("a 'no preview' box on the page")
for m, shown in zip(models, p.cards):
    thumb = m["gallery"].get("thumbnail")
    png = open(root + "/" + thumb, "rb").read() if thumb else b""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR" or struct.unpack(">II", png[16:24]) != (256, 256):
        errors.append("%s: %r is not a 256x256 PNG" % (m["input"], thumb))
    if shown != thumb: errors.append("%s: the card shows %r, not %r" % (m["input"], shown, thumb))
    print(m["input"] + "\t" + (thumb or ""))
skipped = [r["input"] for r in report["records"] if r["kind"] == "file" and r["status"] == "skipped"]
if not skipped or any(html.escape(s) in page for s in skipped): errors.append("files without a model on the page: %r" % skipped)
print("\n".join(errors), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
while IFS="$(printf '\t')" read -r model thumb; do
  expect_rc 0 "$UE" preview "$model" -o "$T/preview.png" -f
  cmp -s "$T/preview.png" "$T/gp/$thumb" && ok || bad "$thumb is not what unearth preview $model draws"
done < "$T/thumbs"

# Resumed: every model kept, the same page (its counts read back from the earlier report).
cp "$T/g1/index.html" "$T/index.before"
expect_rc 0 "$UE" convert -r "$T/in" -o "$T/g1" --gallery
grep -q ' 0 converted, [0-9]* kept' "$T/err" && ok || bad "second run kept nothing: $(cat "$T/err")"
cmp -s "$T/index.before" "$T/g1/index.html" && ok || bad "index.html of the resumed run differs"
# Redone without --gallery (its options differ: --fresh): the gallery's files go with the rest.
expect_rc 0 "$UE" convert -r "$T/in" -o "$T/g1" --fresh -q
[ ! -e "$T/g1/index.html" ] && [ ! -e "$T/g1/unearth-viewer" ] && ok || bad "--fresh without --gallery left the gallery"

# No viewer: the page still, each model linking its glb, and one warning saying how to install it.
expect_rc 0 env UNEARTH_VIEWER_DIR="$T/nowhere" "$UE" convert -r "$T/in" -o "$T/g3" --gallery -q
[ "$(grep -c 'viewer page is not installed' "$T/err")" = 1 ] && ok || bad "no single warning for the missing viewer: $(cat "$T/err")"
grep -q 'npm ci' "$T/err" && ok || bad "the warning does not say how to install the viewer"
[ ! -e "$T/g3/unearth-viewer" ] && grep -q 'href="creature.fsys/creature.glb"' "$T/g3/index.html" && ok \
  || bad "without the viewer: no direct link to the glb"

# A user's own index.html in OUTDIR is left as it is (the page is not written), the rest goes on.
expect_rc 0 "$UE" convert -r "$T/in" -o "$T/g4" --gallery -q
echo "mine" > "$T/mine.html"
cp "$T/mine.html" "$T/g4/index.html"
expect_rc 0 "$UE" convert -r "$T/in" -o "$T/g4" --gallery --fresh
cmp -s "$T/mine.html" "$T/g4/index.html" && ok || bad "a changed index.html was replaced"
grep -q 'index.html.*left as it is' "$T/err" && ok || bad "the index.html left is not said: $(cat "$T/err")"

# Usage: -r only, glTF output only.
expect_usage "" "$UE" convert "$T/demo/parkan/robot.msh" -o "$T/one.glb" --gallery
expect_usage "" "$UE" convert -r "$T/in" -o "$T/g5" --gallery --format obj
[ ! -e "$T/g5" ] && ok || bad "a refused --gallery made OUTDIR"
finish
