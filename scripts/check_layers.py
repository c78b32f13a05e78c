#!/usr/bin/env python3
"""Checks the include directions between the layers of src/ (docs/architecture.md): a file may
include only headers of its own layer and of the layers listed for it below. Exits 1 on a breach."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# The layer of every public header in include/unearth/.
PUBLIC = {
    "common.h": "common", "export.h": "common", "version.h": "common",
    "codec.h": "codec", "lzss.h": "codec",
    "archive.h": "archive",
    "scene.h": "scene", "model_format.h": "scene",
    "preview.h": "render",
    "gltf.h": "export", "image.h": "export", "obj.h": "export",
    "obj_read.h": "import", "gltf_read.h": "import",
    "nres.h": "parkan", "rsli.h": "parkan", "msh.h": "parkan", "texm.h": "parkan",
    "parkan_material.h": "parkan", "msh_import.h": "parkan",
    "gamecube.h": "gamecube", "gx.h": "gamecube",
    "hsd.h": "hsd", "hsd_model.h": "hsd", "hsd_anim.h": "hsd", "hsd_import.h": "hsd",
    "model.h": "registry",
    # The advanced tier (include/unearth/advanced/, docs/public-api.md): what the CLI needs beyond
    # the plain API, each header in the layer that implements it.
    "advanced/files.h": "common", "advanced/text.h": "common", "advanced/buffers.h": "common",
    "advanced/json.h": "common",
    "advanced/archive.h": "archive", "advanced/png.h": "import", "advanced/parkan.h": "parkan",
    "advanced/model_walk.h": "registry",
}
# The CLI is built against the installed library (scripts/build_cli_installed.sh): besides its own
# headers it may include only public ones and the sample pack's interface.
CLI_PRIVATE_OK = ("cli/", "samples/samples.h")
FAMILY_BASE = {"common", "codec", "archive", "scene"}
BASE = {
    "common": set(),
    "codec": {"common"},
    "archive": {"common", "codec"},
    "scene": {"common"},
    "export": {"common", "scene"},
    "render": {"common", "scene"},  # previews and contact sheets: reads the scene IR only
    "import": {"common", "scene"},
}
# A family is a folder of src/ with a descriptor, src/NAME/NAME_family.c (docs/architecture.md,
# "Adding a family"); it may include the base layers, and more only when listed here.
FAMILY_EXTRA = {"hsd": {"gamecube"}}  # HSD models live in GameCube archives and use GX
FAMILIES = sorted(p.parent.name for p in (ROOT / "src").glob("*/*_family.c") if p.stem == p.parent.name + "_family")
# The one header of the registry a family includes: the descriptor type it fills in.
FAMILY_CONTRACT = "registry/family.h"
ALLOWED = dict(BASE)
ALLOWED.update({f: FAMILY_BASE | FAMILY_EXTRA.get(f, set()) for f in FAMILIES})
ALLOWED.update({
    # The registry tables every family (families.c, by link-time names: it includes no family's
    # header) and walks their models; nothing includes it but the samples and the CLI (and the
    # families, its descriptor type only).
    "registry": set(BASE),
    "samples": set(PUBLIC.values()),
    "cli": None,  # the top: may include anything; nothing includes it
})
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of_header(name):
    if name.startswith("unearth/"):
        return PUBLIC.get(name[len("unearth/"):], "unknown public header")
    return name.split("/", 1)[0] if "/" in name else None  # "archive/container.h" → archive


def main():
    breaches = []
    files = [(p, p.relative_to(ROOT / "src").parts[0]) for p in sorted((ROOT / "src").rglob("*.[ch]"))]
    public_dir = ROOT / "include/unearth"
    files += [(p, PUBLIC.get(p.relative_to(public_dir).as_posix(), "unknown public header"))
              for p in sorted(public_dir.rglob("*.h"))]
    for path, layer in files:
        if layer not in ALLOWED:
            breaches.append(f"{path.relative_to(ROOT)}: no layer named {layer!r} (add it to this script)")
            continue
        for header in INCLUDE.findall(path.read_text(encoding="utf-8")):
            if layer == "cli" and not header.startswith(("unearth/",) + CLI_PRIVATE_OK):
                breaches.append(f"{path.relative_to(ROOT)}: the CLI must not include the library's internal {header}")
                continue
            target = layer_of_header(header)
            if target is None or target == layer or (header == FAMILY_CONTRACT and layer in FAMILIES):
                continue
            allowed = ALLOWED[layer]
            if target == "cli" or (allowed is not None and target not in allowed):
                breaches.append(f"{path.relative_to(ROOT)}: {layer} must not include {header} ({target})")
    for b in breaches:
        print(b)
    print(f"layers: {len(files)} files checked, {len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
