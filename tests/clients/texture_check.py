# Independent checks of the texture archive `import --base --textures-out` wrote after a client
# changed an image or a base colour: NRes read as the spec lays it out (archive_layout.py), Texm
# decoded from docs/formats/texm.md and PNG with zlib (glb_image.py), the client's pixels from its own file.
#   python3 texture_check.py image ORIG.lib NEW.lib ENTRY CLIENT.gl* MATERIAL R G B A [--canvas]
#       MATERIAL's base colour image in the client's file is the drivers' ramp towards R G B A
#       (image_ramp.mjs), exactly, or with --canvas within what a premultiplied 8-bit canvas
#       keeps of a colour; ENTRY holds those pixels as the client wrote them
#   python3 texture_check.py color ORIG.lib NEW.lib ENTRY CLIENT.gl* MATERIAL R G B A
#       ENTRY holds that image times the factor, as docs/import.md "Base colour" says
# Both: ENTRY keeps its format, size, mip count and flags; every other entry keeps its bytes.
# Prints the differences found, nothing when right.
import base64
import json
import os
import struct
import sys
from urllib.parse import unquote

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
import archive_layout  # noqa: E402
import glb_image  # noqa: E402


def load_gltf(path):
    """The JSON of a .glb or .gltf and a function giving the bytes of one of its images."""
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        doc, binary = glb_image.read_glb(path)
    else:
        doc, binary = json.loads(data), None

    def buffer(index):
        uri = doc["buffers"][index].get("uri")
        return binary if uri is None else uri_bytes(uri)

    def uri_bytes(uri):
        if uri.startswith("data:"):
            return base64.b64decode(uri.split(",", 1)[1])
        return open(os.path.join(os.path.dirname(path), unquote(uri)), "rb").read()

    def image(index):
        im = doc["images"][index]
        if "uri" in im:
            return uri_bytes(im["uri"])
        view = doc["bufferViews"][im["bufferView"]]
        start = view.get("byteOffset", 0)
        return bytes(buffer(view["buffer"])[start:start + view["byteLength"]])
    return doc, image


def material_pixels(path, material):
    """The RGBA texels of MATERIAL's base colour image in the client's file."""
    doc, image = load_gltf(path)
    mat = [m for m in doc["materials"] if m.get("name") == material]
    if len(mat) != 1:
        sys.exit("%s: %d materials named %s" % (path, len(mat), material))
    texture = doc["textures"][mat[0]["pbrMetallicRoughness"]["baseColorTexture"]["index"]]
    return glb_image.png_decode(image(texture["source"]))


def entries(path):
    data = open(path, "rb").read()
    _, table = archive_layout.nres_entries(data)
    return [(e["name"].decode("cp1251"), e["type"], data[e["offset"]:e["offset"] + e["size"]]) for e in table]


def header(texm):
    return dict(zip(("width", "height", "mips", "flags4", "flags5", "unknown6", "format"),
                    struct.unpack_from("<7I", texm, 4)))


def compare(got, want, fmt, slack):
    """Texels further apart than what FMT can store (plus SLACK) from the wanted ones."""
    bound = [e + slack for e in glb_image.stored_error(fmt)]
    has_alpha = fmt in (4444, 8888)
    problems = []
    for k, (g, t) in enumerate(zip(got, want)):
        t = t if has_alpha else t[:3] + [255]
        if any(abs(g[c] - t[c]) > bound[c] for c in range(4)):
            problems.append("texel %d: %s, want %s within %s" % (k, g, t, bound))
    return problems


def image_ramp(width, height, rgba):
    """Texel (x, y), row 0 at the top: R·(x+1)/w, G·(y+1)/h, B, A·(x+y+1)/(w+h−1), 8-bit."""
    r, g, b, a = rgba
    return [[round(255 * v) for v in (r * (x + 1) / width, g * (y + 1) / height, b,
                                      a * (x + y + 1) / (width + height - 1))]
            for y in range(height) for x in range(width)]


def canvas_error(alpha):
    """How far a canvas may move a colour channel of a texel of this alpha: it stores c·a/255
    rounded to 8 bits (premultiplied) and divides by a again, so half a step, 255/(2a), plus
    one for the rounding at each end; alpha itself is kept."""
    return 0 if alpha == 255 else int(128 / alpha) + 1 if alpha else 255


def client_painted(pixels, width, height, rgba, canvas):
    """Texels of the client's image that are not the ramp it was asked to paint."""
    problems = []
    for k, (got, want) in enumerate(zip(pixels, image_ramp(width, height, [float(v) for v in rgba]))):
        bound = canvas_error(want[3]) if canvas else 0
        if got[3] != want[3] or any(abs(got[c] - want[c]) > bound for c in range(3)):
            problems.append("the client wrote texel %d as %s, asked for %s (within %d)" % (k, got, want, bound))
    return problems


def check(kind, orig_lib, new_lib, entry, client, material, *numbers):
    old, new = entries(orig_lib), entries(new_lib)
    if [(n, t) for n, t, _ in old] != [(n, t) for n, t, _ in new]:
        return ["the entries are %s, the original's %s" % ([n for n, _, _ in new], [n for n, _, _ in old])]
    problems = ["entry %s changed" % n for (n, _, a), (_, _, b) in zip(old, new) if n != entry and a != b]
    was, now = [next(d for n, _, d in table if n == entry) for table in (old, new)]
    if was == now:
        return problems + ["%s is unchanged" % entry]
    if header(was) != header(now):
        problems.append("%s header %s, the original's %s" % (entry, header(now), header(was)))
    with open(new_lib + ".entry", "wb") as f:
        f.write(now)
    fmt, _, levels = glb_image.read_texm(new_lib + ".entry")
    os.remove(new_lib + ".entry")
    width, height, pixels = material_pixels(client, material)
    if (width, height) != levels[0][:2]:
        return problems + ["the client's image is %d x %d, the Texm %d x %d" % ((width, height) + levels[0][:2])]
    slack = 0
    if kind == "image":
        painted = client_painted(pixels, width, height, numbers[:4], "--canvas" in numbers)
        if painted:
            return problems + painted[:3] + (["... %d more" % (len(painted) - 3)] if len(painted) > 3 else [])
    if kind == "color":  # the tint in floating point, then rounded: one step either way
        f = [float(v) for v in numbers]
        pixels = [[glb_image.srgb_times(t[c], f[c]) for c in range(3)] + [round(t[3] * f[3])] for t in pixels]
        slack = 1
    bad = compare(levels[0][2], pixels, fmt, slack)
    return problems + bad[:5] + (["... %d more texels" % (len(bad) - 5)] if len(bad) > 5 else [])


if __name__ == "__main__":
    found = check(*sys.argv[1:])
    print("\n".join(found))
    sys.exit(1 if found else 0)
