/* unearth CLI — the tables every verb and option is described by, and the help printed from them:
 * the parser (options.c) and the help read the same rows, so what is documented is what is accepted. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

#define BIT(id) (1ul << (id))
#define NO_RANGE 1, 0
#define MODE_OPTS (BIT(OPT_STRICT) | BIT(OPT_TOLERANT))
#define TALK_OPTS (BIT(OPT_QUIET) | BIT(OPT_VERBOSE))
#define WRITE_OPTS (BIT(OPT_OUTPUT) | BIT(OPT_FORCE))
#define EDIT_OPS                                                                                   \
    (BIT(OPT_RENAME_NODE) | BIT(OPT_VERTICES) | BIT(OPT_TRANSLATE) | BIT(OPT_SCALE) |             \
     BIT(OPT_REPLACE_SLOT) | BIT(OPT_MATERIAL))

/* Help texts state the range and the default of every value; -o's text is the verb's own. */
static const cli_option_def option_table[] = {
    {OPT_HELP, "-h", "--help", 0, NULL, NO_RANGE, NULL, "print this help and exit"},
    {OPT_OUTPUT, "-o", "--output", 1, "PATH", NO_RANGE, NULL, NULL},
    {OPT_FORCE, "-f", "--force", 0, NULL, NO_RANGE, NULL,
     "replace an existing output (default: an existing output is an error)"},
    {OPT_JSON, NULL, "--json", 0, NULL, NO_RANGE, NULL,
     "print the report as JSON on stdout (default: text); the schema is\n"
     "in docs/json-output.md"},
    {OPT_STRICT, NULL, "--strict", 0, NULL, NO_RANGE, NULL,
     "every violation of a format rule is an error (the default)"},
    {OPT_TOLERANT, NULL, "--tolerant", 0, NULL, NO_RANGE, NULL,
     "report damage as warnings, skip damaged parts, keep what is intact\n"
     "(default: --strict)"},
    {OPT_QUIET, "-q", "--quiet", 0, NULL, NO_RANGE, NULL,
     "print only errors: no warnings, notes or progress (default: off;\n"
     "warnings and errors are printed)"},
    {OPT_VERBOSE, "-v", "--verbose", 0, NULL, NO_RANGE, NULL,
     "also print informational notes, diagnostics of severity info\n"
     "(default: off, notes are not printed; not with -q)"},
    {OPT_RECURSIVE, "-r", "--recursive", 0, NULL, NO_RANGE, NULL,
     "batch: every model below the directories IN, mirrored into the\n"
     "directory OUT, with a summary and a report (default: off; a\n"
     "directory IN is an error)"},
    {OPT_LOD, NULL, "--lod", 1, "N", NO_RANGE, "0|1|2|all",
     "MSH option: level of detail 0..2 (default: 0), or all for the whole\n"
     "slot matrix: each LOD and group under a child node NODE_lodL_groupG,\n"
     "which import reads back"},
    {OPT_GROUP, NULL, "--group", 1, "G", NO_RANGE, "0|1|2|3|4|all|-1",
     "MSH option: group 0..4, or all (alias -1) for every group, each under\n"
     "a child node NODE_groupG (default: 0, what the game draws)"},
    {OPT_FPS, NULL, "--fps", 1, "N", 1, 1000, NULL,
     "frames per second of animation clips, 1..1000, recorded in each clip's\n"
     "extras (default: the format's own rate; MSH: 30)"},
    {OPT_DATA, NULL, "--data", 1, "DIR", NO_RANGE, NULL,
     "MSH option: a game folder searched first for Material.lib and\n"
     "Textures.lib (default: beside the model and in its parent folders)"},
    {OPT_WEAR, NULL, "--wear", 1, "FILE", NO_RANGE, NULL,
     "MSH option: the model's WEAR table (its materials), a file or\n"
     "ARCHIVE:ENTRY, for a model whose WEAR has another name (default: the\n"
     "same-stem .wea beside the model or in its archive; one model only)"},
    {OPT_ANIMS, NULL, "--anims", 1, "BANK", NO_RANGE, NULL,
     "HSD option: a bank of DATs or a DAT (a file or ARCHIVE:ENTRY) whose\n"
     "FigaTree clips are added to the model, bound by joint index; repeatable\n"
     "(up to 16; default: only the clips the model's own DAT holds)"},
    {OPT_NO_ANIMATION_POINTER, NULL, "--no-animation-pointer", 0, NULL, NO_RANGE, NULL,
     "glTF: leave out the KHR_animation_pointer channels (material colour,\n"
     "UV and visibility animation) for viewers without the extension; the\n"
     "skeleton still animates (default: written)"},
    {OPT_JOBS, "-j", "--jobs", 1, "N", 1, 64, NULL,
     "models converted in parallel, 1..64 (default: 1)"},
    {OPT_FORMAT, NULL, "--format", 1, "F", NO_RANGE, "glb|gltf|obj",
     "file type written for each model when OUT is a directory: glb, gltf\n"
     "or obj (default: glb)"},
    {OPT_MIPS, NULL, "--mips", 0, NULL, NO_RANGE, NULL,
     "also write every mip level N >= 1 as NAME.mipN.png (default: off,\n"
     "level 0 only)"},
    {OPT_REPORT, NULL, "--report", 1, "FILE.json", NO_RANGE, NULL,
     "with -r: also write the batch's JSON report to FILE.json (default:\n"
     "only OUT/unearth-batch.json; docs/batch.md)"},
    {OPT_FOLLOW_LINKS, NULL, "--follow-links", 0, NULL, NO_RANGE, NULL,
     "with -r: enter symbolic links to directories, each directory once\n"
     "(default: links to directories are reported and skipped)"},
    {OPT_FRESH, NULL, "--fresh", 0, NULL, NO_RANGE, NULL,
     "with -r: convert every model again, replacing an earlier batch's\n"
     "outputs in OUT (default: continue it when the same command wrote it)"},
    {OPT_RESUME, NULL, "--resume", 0, NULL, NO_RANGE, NULL,
     "with -r: keep each output an earlier run of the same command placed,\n"
     "unchanged since, of its input as it is now; refuse an OUT of other options\n"
     "(the default when OUT's marker names this command)"},
    {OPT_GALLERY, NULL, "--gallery", 0, NULL, NO_RANGE, NULL,
     "with -r: also a thumbnail per model, OUTDIR/index.html listing every\n"
     "model, and OUTDIR/viewer.html showing one in the browser (glb or gltf;\n"
     "docs/gallery.md)"},
    {OPT_LIKE, NULL, "--like", 1, "ORIG", NO_RANGE, NULL,
     "the Texm being replaced (a file or ARCHIVE:ENTRY): its pixel format,\n"
     "flags, mip count and Page rects are kept (default: 8888, full chain)"},
    {OPT_PIXEL_FORMAT, NULL, "--pixel-format", 1, "F", NO_RANGE, "0|565|556|4444|88|888|8888",
     "Texm pixel format code; 0 is 256-colour indexed (default: --like's,\n"
     "else 8888)"},
    {OPT_MIP_LEVELS, NULL, "--mip-levels", 1, "N", 0, 14, NULL,
     "mip levels 0..14, box-filtered from the PNG; 0 = down to 1x1\n"
     "(default: --like's, else 0)"},
    {OPT_BASE, NULL, "--base", 1, "ORIG", NO_RANGE, NULL,
     "edit mode: the model the glTF was converted from (a file or\n"
     "ARCHIVE:ENTRY); only what the glTF changed is written back, every\n"
     "other byte is kept (default: a new model)"},
    {OPT_INTO, NULL, "--into", 1, "ARCHIVE:ENTRY", NO_RANGE, NULL,
     "put the model into a copy of the NRes or RsLi ARCHIVE as ENTRY\n"
     "(replaced where it is, or added last when absent; #N replaces entry N);\n"
     "-o names the new archive, with ARCHIVE's extension, .rlb or .lib;\n"
     "an HSD model goes into a PKX (FILE.pkx) or replaces an FSYS entry\n"
     "(ARCHIVE.fsys:ENTRY, through a PKX entry to its DAT; --add adds one)\n"
     "(default: -o is the model file)"},
    {OPT_TEXTURES_INTO, NULL, "--textures-into", 1, "ARCHIVE", NO_RANGE, NULL,
     "with --base: the texture archive (Textures.lib) whose Texm entries\n"
     "images edited in the glTF go back to, re-encoded like the originals\n"
     "(default: the Textures.lib the base's materials are read from)"},
    {OPT_TEXTURES_OUT, NULL, "--textures-out", 1, "NEW_ARCHIVE", NO_RANGE, NULL,
     "write a copy of --textures-into with the edited textures replaced\n"
     "(.lib, .rlb or ARCHIVE's extension; validated strictly first)"},
    {OPT_TEXTURES_DIR, NULL, "--textures-dir", 1, "DIR", NO_RANGE, NULL,
     "write each edited texture as DIR/ENTRY.tex, a bare Texm, instead"},
    {OPT_TEXTURE_FORMAT, NULL, "--texture-format", 1, "F", NO_RANGE, "auto|cmpr|rgb5a3|rgba8|rgb565",
     "a new HSD model's GX texture format (default: auto, CMPR for opaque\n"
     "images and RGB5A3 for images with alpha)"},
    {OPT_WEIGHT_STEP, NULL, "--weight-step", 1, "S", NO_RANGE, NULL,
     "a new HSD model's skin weights rounded to multiples of S (1/N, N\n"
     "1..65536, as 1/N or a decimal) to merge envelopes; 0 keeps them as\n"
     "given (default: 1/64)"},
    {OPT_ANIM_SLOT, NULL, "--anim-slot", 2, "N NAME", NO_RANGE, NULL,
     "with an HSD model (--base, or a new one) and a PKX output: slot N of the PKX\n"
     "plays the glTF's clip NAME (its index in the DAT's ModelSet anims[]);\n"
     "repeatable (default: the PKX's slots as they are)"},
    {OPT_ADD, NULL, "--add", 0, NULL, NO_RANGE, NULL,
     "with an HSD model and --into ARCHIVE.fsys:ENTRY: ENTRY is a new entry,\n"
     "added last (ENTRY.pkx or ENTRY.dat; its type code, file id and LZSS\n"
     "from the archive's entries) (default: ENTRY must be there)"},
    {OPT_LEVEL, NULL, "--level", 1, "N", 0, 9, NULL,
     "LZSS effort 0..9 for every entry pack compresses again (edited or\n"
     "added payloads of FSYS, GameCube LZSS and RsLi LZSS/LZHUF); wins over\n"
     "the manifest's \"lzss_level\" (default: that value, else 6; a bare\n"
     "LZSS file 9). Unchanged entries keep their bytes"},
    {OPT_SIZE, NULL, "--size", 1, "N", 1, 8192, NULL,
     "image side in pixels, 1..8192 (default: 256); of a sheet, each\n"
     "thumbnail's side, 16..1024 (default: 128)"},
    {OPT_VIEW, NULL, "--view", 1, "V", NO_RANGE, "front|back|left|right|top|iso",
     "orthographic view: front|back|left|right|top|iso, framed on the\n"
     "posed model's bounds (default: iso; docs/preview.md)"},
    {OPT_BACKGROUND, NULL, "--background", 1, "B", NO_RANGE, NULL,
     "transparent, or an opaque colour #rrggbb (default: transparent)"},
    {OPT_CLIP, NULL, "--clip", 1, "NAME", NO_RANGE, NULL,
     "pose the model at a frame of the animation NAME (default: the bind\n"
     "pose, every node at rest)"},
    {OPT_FRAME, NULL, "--frame", 1, "F", NO_RANGE, NULL,
     "with --clip: the frame, 0 to the clip's end, in frames at the clip's\n"
     "own rate (30 when it has none; fractions allowed; default: 0)"},
    {OPT_SHEET, NULL, "--sheet", 0, NULL, NO_RANGE, NULL,
     "write one contact sheet instead: -o names a PNG with every texture as\n"
     "a labelled thumbnail (default: off, one PNG per texture in DIR)"},
    {OPT_RENAME_NODE, NULL, "--rename-node", 2, "N NAME", NO_RANGE, NULL,
     "name node N, 0..nodes-1, in UTF-8 (stored as Windows-1251; \"\" removes the name)"},
    {OPT_VERTICES, NULL, "--vertices", 2, "FIRST COUNT", NO_RANGE, NULL,
     "limit the next --translate/--scale to COUNT vertices from FIRST\n"
     "(default: every vertex)"},
    {OPT_TRANSLATE, NULL, "--translate", 3, "X Y Z", NO_RANGE, NULL,
     "move vertices by X Y Z (engine axes: Z up)"},
    {OPT_SCALE, NULL, "--scale", 1, "S", NO_RANGE, NULL,
     "scale about the origin by S, 1e-30 to 1e30 in size, negative to\n"
     "mirror, not 0 (convert: the whole model, default 1; edit: the whole\n"
     "model, every vertex and node offset at every frame, S > 0, or after\n"
     "--vertices those vertices only)"},
    {OPT_REPLACE_SLOT, NULL, "--replace-slot", 2, "S FILE.obj", NO_RANGE, NULL,
     "new geometry for slot S, 0..slots-1, from an OBJ in the node-local\n"
     "Y-up axes that `convert` writes"},
    {OPT_MATERIAL, NULL, "--material", 1, "M", NO_RANGE, NULL,
     "WEAR row of the --replace-slot geometry, 0..rows-1 of the model's\n"
     "WEAR table (default: the row of the slot's first batch)"},
};

static const cli_verb_def verb_table[] = {
    {"info", cmd_info, BIT(OPT_HELP) | BIT(OPT_JSON) | MODE_OPTS | TALK_OPTS, "FILE...", 1, 0, NULL,
     NULL, "unearth info FILE... [--json] [--strict|--tolerant] [-q|-v]",
     "what a file is and what it holds",
     "Names FILE's format and prints its header fields and entry count (a container) or its\n"
     "nodes, LODs, groups, slots, batches and triangles (a model). FILE may be ARCHIVE:ENTRY.\n"
     "A container's models, at any depth, get one line each: name, format and summary.\n"
     "Several FILEs: a heading before each (--json: an array), exit code the worst of them.\n",
     "unearth info demo/parkan/objects.rlb\n"
     "unearth info demo/gamecube/*.pkx demo/gamecube/*.fsys\n"
     "unearth info --json demo/parkan/robot.msh\n"
     "unearth info demo/gamecube/demo_colo.fsys:demo_colo.pkx\n"},
    {"list", cmd_list, BIT(OPT_HELP) | BIT(OPT_JSON) | MODE_OPTS | TALK_OPTS, "ARCHIVE", 1, 1,
     NULL, NULL, "unearth list ARCHIVE [--json] [--strict|--tolerant] [-q|-v]",
     "entries of an NRes / RsLi / FSYS / PKX container or a DAT bank",
     "One line per entry: name, type, size, stored size, method, offset; nested containers are\n"
     "marked. ARCHIVE may be OUTER:ENTRY to list a container inside another.\n",
     "unearth list demo/parkan/objects.rlb\n"
     "unearth list --json demo/parkan/sprites_demo.lib\n"
     "unearth list demo/gamecube/demo_colo.fsys:demo_colo.pkx\n"},
    {"extract", cmd_extract, BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS, "ARCHIVE", 1, 1,
     "DIR", "directory for manifest.json and entries/ (required)",
     "unearth extract ARCHIVE -o DIR [-f] [--strict|--tolerant] [-q|-v]",
     "payloads + manifest.json (everything needed to repack)",
     "Writes every payload to DIR/entries/ and DIR/manifest.json with every field a\n"
     "byte-identical `pack` needs. An input validate rejects is refused (exit 1). With\n"
     "--tolerant, damaged entries are listed and skipped; exit 1 when anything was dropped.\n",
     "unearth extract demo/parkan/objects.rlb -o objects\n"
     "unearth extract --tolerant damaged.rlb -o salvage\n"},
    {"cat", cmd_cat, BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS, "ARCHIVE:ENTRY", 1, 1, "FILE",
     "file for the entry's bytes, or - for stdout (required)",
     "unearth cat ARCHIVE:ENTRY[:ENTRY...] -o FILE|- [-f] [--strict|--tolerant] [-q|-v]",
     "one entry's decoded bytes, to a file or stdout",
     "Writes the payload of one entry as `extract` would write its file: decompressed and\n"
     "de-XORed. ENTRY may be a name or #N; a chain reaches entries of nested containers.\n"
     "FILE appears whole or not at all and is never an input; -o - writes to stdout.\n",
     "unearth cat demo/parkan/objects.rlb:robot.wea -o robot.wea\n"
     "unearth cat demo/gamecube/creature.fsys:creature.pkx:model.dat -o creature.dat\n"
     "unearth cat demo/parkan/sprites_demo.lib:LZSS.TXT -o - | head\n"},
    {"pack", cmd_pack, BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS | BIT(OPT_LEVEL), "DIR", 1, 1,
     "ARCHIVE", "archive file to write; missing directories are created (required)",
     "unearth pack DIR -o ARCHIVE [--level N] [--strict|--tolerant] [-f] [-q|-v]",
     "rebuild an archive from DIR/manifest.json",
     "Unchanged payloads keep their bytes and offsets, so an untouched extraction packs\n"
     "byte-identical; edited ones are re-laid out (and re-compressed with their method).\n"
     "An edited entry \"name\" is UTF-8; NRes and RsLi store it as Windows-1251.\n"
     "The archive written is read back as validate reads it: one that strict validation\n"
     "rejects is not written (exit 1), unless --tolerant, which writes it with warnings\n"
     "(a damaged archive extracted with --tolerant packs back byte-identical).\n",
     "unearth pack objects -o objects.rlb\n"
     "unearth pack --level 9 edited_fsys -o smaller.fsys\n"},
    {"validate", cmd_validate, BIT(OPT_HELP) | BIT(OPT_JSON) | MODE_OPTS | TALK_OPTS, "FILE...", 1,
     0, NULL, NULL, "unearth validate FILE... [--strict|--tolerant] [--json] [-q|-v]",
     "check files against their format's rules",
     "Checks each FILE, every container nested in it and every model inside, and prints a\n"
     "summary per file (--json: every diagnostic, notes included, whatever -q/-v say).\n"
     "An ARCHIVE:ENTRY of a kind unearth does not read (a camera, a sound) is not read: its\n"
     "container's checks are its verdict, and 'unearth cat' writes its bytes.\n"
     "Exit 1 when any FILE is invalid.\n",
     "unearth validate demo/parkan/objects.rlb\n"
     "unearth validate --json demo/gamecube/*.fsys\n"
     "unearth validate --tolerant damaged.rlb\n"},
    {"roundtrip", cmd_roundtrip, BIT(OPT_HELP) | MODE_OPTS | TALK_OPTS, "FILE...", 1, 0, NULL, NULL,
     "unearth roundtrip FILE... [--strict|--tolerant] [-q|-v]", "decode, encode, byte-compare",
     "Re-encodes each FILE (and each model inside) with unearth's writers and compares the\n"
     "bytes with the input. Exit 1 on the first differing byte of any FILE, or when validate\n"
     "rejects it (it is then not compared).\n",
     "unearth roundtrip demo/parkan/*.rlb demo/parkan/*.lib demo/gamecube/*\n"},
    {"convert", cmd_convert,
     BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS | BIT(OPT_RECURSIVE) | BIT(OPT_LOD) |
         BIT(OPT_GROUP) | BIT(OPT_FPS) | BIT(OPT_DATA) | BIT(OPT_WEAR) | BIT(OPT_ANIMS) | BIT(OPT_JOBS) | BIT(OPT_FORMAT) | BIT(OPT_SCALE) |
         BIT(OPT_REPORT) | BIT(OPT_FOLLOW_LINKS) | BIT(OPT_NO_ANIMATION_POINTER) | BIT(OPT_FRESH) |
         BIT(OPT_RESUME) | BIT(OPT_GALLERY),
     "IN...", 1, 0, "OUT",
     ".glb, .gltf (+ .bin + PNGs) or .obj (+ .mtl + PNGs) file for one\n"
     "model, or a directory for several, one file each (required)",
     "unearth convert IN... -o OUT [--lod N] [--group G] [--fps N] [--data DIR]\n"
     "                [--wear FILE] [--anims BANK]... [--scale S] [--format F]\n"
     "                [--no-animation-pointer]\n"
     "                [-j N] [-f]\n"
     "                [--strict|--tolerant] [-q|-v]\n"
     "       unearth convert -r DIR... -o OUTDIR [--report FILE.json] [--follow-links]\n"
     "                [--fresh|--resume] [--gallery] [-j N] [--data DIR] [--scale S] ...",
     "models to glTF (.glb/.gltf) or OBJ",
     "IN is a model, an archive (every model inside, recursively), ARCHIVE:ENTRY, or with -r\n"
     "a directory. glTF output is right-handed, Y-up, metres (docs/gltf-output.md).\n"
     "With -r (a batch), OUTDIR mirrors the inputs: models/robot.msh -> OUTDIR/models/robot.glb,\n"
     "a.rlb:robot.msh -> OUTDIR/a.rlb/robot.glb (several DIRs: each one's name first). A progress\n"
     "bar when stderr is a terminal, a closing summary, OUTDIR/unearth-batch.json (the report);\n"
     "a failure never stops the batch, exit 1 when anything failed. Each output lands whole and\n"
     "is listed in OUTDIR's marker: an interrupt (exit 130), a full disk or a read-only OUTDIR\n"
     "(exit 3, at once) keep what is finished, and the same command continues (--fresh redoes\n"
     "everything; docs/batch.md).\n"
     "Without -r, a convert that writes several models shows the same bar and summary; above\n"
     "10 models it names each output only with -v and groups the warnings by code. A full disk,\n"
     "a read-only or vanished OUT stops it at once (exit 3), keeping what it wrote.\n"
     "Into a directory each model is named after its entry or file (a PKX's model after the\n"
     "PKX: creature.glb); a name taken, in any letter case, gets ~2, ~3 (docs/text.md). With\n"
     "several models, an MSH option (--lod, --group, --fps, --data) is given to MSH models\n"
     "only and ignored for the others, with one warning per option and format.\n"
     "Parkan models wear the materials their WEAR names, from Material.lib and Textures.lib\n"
     "found in --data, beside the model or in a parent folder, in any letter case; what is\n"
     "missing is a warning and a grey placeholder (docs/parkan-materials.md). The WEAR is the\n"
     "same-stem .wea beside the model (or in its archive); --wear names another for one model.\n"
     "A .glb keeps its textures inside; a .gltf writes each image as STEM.IMAGE.png beside it\n"
     "(robot.gltf -> robot.ROBOT_BODY_0.png), an .obj each PNG its .mtl names (named after the\n"
     "MTL), by the one rule of textures (docs/text.md#texture-files). An existing one refuses\n"
     "the run without -f, and the files of one output appear together or not at all.\n"
     "An HSD model takes the FigaTree clips of each --anims BANK (Melee's Pl??AJ.dat, or any\n"
     "DAT), joint k of the clip driving the model's joint k in depth-first order, one glTF\n"
     "animation each, named from its root (..._ACTION_Wait1_figatree -> Wait1); clips of another\n"
     "joint count are left out with a warning, and a BANK with none that fits is an error.\n",
     "unearth convert demo/parkan/robot.msh -o robot.glb\n"
     "unearth convert units/robot.msh -o robot.glb --data /games/parkan\n"
     "unearth convert robot2.msh -o robot2.glb --wear demo/parkan/objects.rlb:ROBOT.wea\n"
     "unearth convert demo/parkan/robot.msh -o robot.gltf --lod 1 --group all\n"
     "unearth convert demo/parkan/objects.rlb:ROBOT.msh -o robot.obj\n"
     "unearth convert -r demo -o models/ -j 2 --format obj\n"
     "unearth convert -r game -o game_gltf -j 2 --report game.json\n"
     "unearth convert demo/gamecube/creature.fsys -o creature.glb --scale 0.1\n"
     "unearth convert PlMrNr.dat --anims PlMrAJ.dat -o mario.glb\n"},
    {"textures", cmd_textures,
     BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS | BIT(OPT_MIPS) | BIT(OPT_WEAR) | BIT(OPT_SHEET) |
         BIT(OPT_BACKGROUND), "IN", 1, 1, "DIR",
     "directory for the PNG files, created whole or not at all (required);\n"
     "with --sheet, the sheet's .png file",
     "unearth textures IN -o DIR [--mips] [--wear FILE] [-f] [--strict|--tolerant] [-q|-v]\n"
     "       unearth textures IN -o SHEET.png --sheet [--background B] ...",
     "every texture of the models in IN as PNG",
     "IN is a model, a container (every model inside, recursively) or ARCHIVE:ENTRY. Each\n"
     "texture becomes DIR/MODEL.IMAGE.png (level 0; --mips adds .mipN.png), the name a .gltf\n"
     "of MODEL gives it (docs/text.md#texture-files); a name taken, in any letter case, gets\n"
     "~2, ~3 as convert's do. A model without\n"
     "textures is passed over; none at all is an error (exit 1) and nothing is written.\n"
     "Parkan materials not found beside a model (WEAR, Material.lib, Textures.lib) are not\n"
     "damage: listed once per kind (the first models; -v all), every texture found is written\n"
     "and the exit code is 0; when none at all was found, that is the error above. --wear\n"
     "gives the one Parkan model in IN the WEAR table of another name, as for convert.\n"
     "-f replaces only a directory `textures` wrote before (docs/output-safety.md).\n"
     "--sheet writes one PNG instead: every texture (level 0) as a thumbnail of 128 pixels,\n"
     "labelled MODEL.IMAGE, in a grid (docs/preview.md#contact-sheets).\n",
     "unearth textures demo/gamecube/creature.fsys -o textures\n"
     "unearth textures demo/gamecube/creature.fsys -o creature_textures.png --sheet\n"
     "unearth textures demo/gamecube/creature.pkx:model.dat -o textures --mips -f\n"},
    {"preview", cmd_preview,
     BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS | BIT(OPT_SIZE) | BIT(OPT_VIEW) |
         BIT(OPT_BACKGROUND) | BIT(OPT_CLIP) | BIT(OPT_FRAME),
     "IN", 1, 1, "OUT.png", "the PNG image to write (required)",
     "unearth preview IN -o OUT.png [--size N] [--view V] [--background B]\n"
     "                [--clip NAME [--frame F]] [-f] [--strict|--tolerant] [-q|-v]",
     "a picture of a model (or a contact sheet of a container's models)",
     "Draws the model with unearth's own software rasteriser (no GPU): textures with their\n"
     "wrap modes and UV transforms, vertex colours, alpha mask and blend, two-sided materials,\n"
     "skinning, a fixed key light and ambient. IN is anything convert reads (a model, ARCHIVE:ENTRY,\n"
     "a chain of containers) or a .glb/.gltf; Parkan models show LOD 0, group 0 as the game\n"
     "draws them. The view is orthographic and framed on the posed model's bounds; the camera,\n"
     "framing and light are given in docs/preview.md. A container of several models gives one\n"
     "contact sheet: a grid of thumbnails, each labelled with its entry's name. The same input\n"
     "and options always give the same bytes. OUT.png is written whole or not at all. -v also\n"
     "prints each model's camera as a line of JSON (forward, up, right, centre, extent).\n",
     "unearth preview demo/parkan/robot.msh -o robot.png\n"
     "unearth preview demo/gamecube/creature.fsys -o creature.png --view front --size 512\n"
     "unearth preview demo/gamecube/dat/creature.dat -o wave.png --clip Animation_1 --frame 20\n"
     "unearth preview demo/parkan/objects.rlb -o sheet.png --background '#202020'\n"
     "unearth preview robot.glb -o robot_top.png --view top\n"},
    {"texm", cmd_texm,
     BIT(OPT_HELP) | WRITE_OPTS | TALK_OPTS | BIT(OPT_LIKE) | BIT(OPT_PIXEL_FORMAT) |
         BIT(OPT_MIP_LEVELS),
     "PNG", 1, 1, "OUT", "Texm file to write (required)",
     "unearth texm PNG -o OUT [--like ORIG] [--pixel-format F] [--mip-levels N] [-f] [-q|-v]",
     "a PNG as a Parkan Texm texture (to replace one)",
     "Reads an 8-bit grey, RGB, RGBA or palette PNG (not interlaced) and writes a Texm:\n"
     "--like copies what the original declares, the options override it. Put the file in\n"
     "place of the entry in an extracted archive and `pack` it (docs/parkan-textures.md).\n",
     "unearth texm body.png -o x/entries/0000_PLATES.0 -f --like demo/parkan/textures_demo.lib:PLATES.0\n"
     "unearth texm icon.png -o icon.texm --pixel-format 565 --mip-levels 1\n"},
    {"edit", cmd_edit, BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | EDIT_OPS | BIT(OPT_INTO), "MODEL", 1, 1,
     "OUT", "the .msh file, or with --into the new archive (required)",
     "unearth edit MODEL -o OUT.msh [--into ARCHIVE:ENTRY] [-f] [--strict|--tolerant]\n"
     "             OPERATION...",
     "rename nodes, move or scale vertices, replace a slot's geometry",
     "Applies the operations in the order given; at least one is required. MODEL is a model\n"
     "file or ARCHIVE:ENTRY; bounds, counts and NRes attrs are recomputed, and the result must\n"
     "validate before it is written. edit writes Parkan MSH (-o *.msh; `convert` makes glTF).\n"
     "--material needs --replace-slot and a row of the model's WEAR table; --vertices needs a\n"
     "--translate or --scale after it. With --into the model goes into a copy of an archive,\n"
     "as with import, and as import's a note says where the game finds the materials of an\n"
     "output named with another stem than MODEL.\n",
     "unearth edit demo/parkan/robot.msh -o robot2.msh --rename-node 2 antenna --translate 0 0 0.5\n"
     "unearth edit demo/parkan/robot.msh -o robot3.msh --replace-slot 0 body.obj --material 0\n"
     "unearth edit robot.msh -o out.msh --vertices 0 8 --scale 2\n"
     "unearth edit demo/parkan/objects.rlb:ROBOT.msh -o objects2.rlb --scale 2 --into demo/parkan/objects.rlb:ROBOT.msh\n"},
    {"import", cmd_import,
     BIT(OPT_HELP) | WRITE_OPTS | MODE_OPTS | TALK_OPTS | BIT(OPT_FPS) | BIT(OPT_BASE) | BIT(OPT_INTO) |
         BIT(OPT_TEXTURES_INTO) | BIT(OPT_TEXTURES_OUT) | BIT(OPT_TEXTURES_DIR) |
         BIT(OPT_TEXTURE_FORMAT) | BIT(OPT_WEIGHT_STEP) | BIT(OPT_ANIM_SLOT) | BIT(OPT_ADD),
     "IN.glb", 1, 1, "OUT", "the model file, or with --into the new archive (required)",
     "unearth import IN.glb|IN.gltf -o OUT [--base ORIG] [--into ARCHIVE:ENTRY] [-f]\n"
     "               [--textures-into ARCHIVE] [--textures-out NEW_ARCHIVE | --textures-dir DIR]\n"
     "               [--texture-format auto|cmpr|rgb5a3|rgba8|rgb565] [--weight-step S]\n"
     "               [--anim-slot N NAME]... [--add]\n"
     "               [--strict|--tolerant] [--fps N] [-q|-v]",
     "a glTF back into a Parkan MSH or an HSD DAT (new, or an edit of --base)",
     "Reads a .glb or .gltf (its buffers beside it) and writes a Parkan MSH. With --base the\n"
     "glTF is compared with what the base model converts to, and only what changed (positions,\n"
     "normals, UVs, topology, names, rest poses, animation) is written back: an unedited glTF\n"
     "gives the base byte for byte. The model must validate strictly before it is written;\n"
     "--into also validates the new archive. Errors name the glTF path (docs/import.md).\n"
     "The game finds a model's materials by its stem (robot2.msh: robot2.wea); written under\n"
     "another stem than --base, a note says so (not with -q).\n"
     "With --textures-out or --textures-dir, images the glTF changed go back as Texm textures\n"
     "in their original pixel format, size and mip count.\n"
     "An HSD --base (a .dat, a .pkx, or FSYS:ENTRY) writes the model's DAT: the glTF's vertex\n"
     "positions, normals, UVs and colours go back in each attribute's own format (widened\n"
     "where a value does not fit), skin weights as envelopes, changed images in their GX\n"
     "format and size, material colours and alpha modes; every other byte\n"
     "of the DAT is kept (docs/hsd-import.md). With --into FILE.pkx or ARCHIVE.fsys:ENTRY,\n"
     "or -o named .pkx or .fsys like a container of --base, the DAT goes back into a copy of\n"
     "that PKX or FSYS (re-wrapped, LZSS again where it was), which must validate strictly;\n"
     "--anim-slot N NAME makes the PKX's animation slot N play the glTF's clip NAME;\n"
     "--add makes --into ARCHIVE.fsys:NEW.dat|NEW.pkx a new entry of the FSYS's copy.\n"
     "Without --base, -o OUT.dat makes a new HSD model from a static, rigid or skinned glTF:\n"
     "a joint per node, skinned meshes as envelopes (the 4 largest weights a vertex, at most\n"
     "10 matrices a PObj, weights rounded to 1/64 or --weight-step), attributes in the\n"
     "smallest GX format within a stated error, strips, textures as CMPR or RGB5A3\n"
     "(--texture-format), the glTF's clips as AnimJoint trees, read back strictly before it\n"
     "is written. With --into TEMPLATE.pkx or ARCHIVE.fsys:ENTRY (and -o named like it) the new\n"
     "DAT goes into a copy of that PKX or FSYS; slots playing a clip it lacks play clip 0.\n",
     "unearth convert demo/parkan/robot.msh -o robot.glb\n"
     "unearth import robot.glb -o robot2.msh --base demo/parkan/robot.msh\n"
     "unearth import robot.glb -o objects2.rlb --base demo/parkan/objects.rlb:ROBOT.msh --into demo/parkan/objects.rlb:ROBOT.msh\n"
     "unearth import robot.glb -o robot2.msh --base demo/parkan/robot.msh --textures-into demo/parkan/Textures.lib --textures-out Textures2.lib\n"
     "unearth import tank.gltf -o tank.msh\n"
     "unearth import creature.glb -o creature2.dat --base demo/gamecube/creature.pkx\n"
     "unearth import robot.glb -o robot.dat --texture-format rgb5a3\n"
     "unearth import creature.glb -o creature2.fsys --base demo/gamecube/creature.fsys:creature.pkx\n"
     "unearth import creature.glb -o creature2.pkx --base demo/gamecube/creature.pkx --anim-slot 3 Wave\n"},
    {"demo", cmd_demo, BIT(OPT_HELP) | WRITE_OPTS, NULL, 0, 0, "DIR",
     "directory for the sample pack (required)", "unearth demo -o DIR [-f]",
     "write the built-in sample assets",
     "Writes the synthetic sample pack (Parkan and GameCube files made by unearth's own\n"
     "writers) and lists what it wrote.\n",
     "unearth demo -o demo\n"},
};

const cli_verb_def *cli_verbs(size_t *count) {
    *count = sizeof verb_table / sizeof verb_table[0];
    return verb_table;
}

const cli_verb_def *cli_verb_find(const char *name) {
    for (size_t i = 0; i < sizeof verb_table / sizeof verb_table[0]; i++)
        if (!strcmp(verb_table[i].name, name)) return &verb_table[i];
    return NULL;
}

const cli_option_def *cli_options(size_t *count) {
    *count = sizeof option_table / sizeof option_table[0];
    return option_table;
}

const cli_option_def *cli_option_by_id(cli_opt_id id) {
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++)
        if (option_table[i].id == id) return &option_table[i];
    return NULL;
}

bool cli_verb_accepts(const cli_verb_def *v, cli_opt_id id) { return (v->options >> id) & 1ul; }

/* 130 is what a shell reports for a program ended by SIGINT: every verb returns it itself (128 + N:
 * 143 for SIGTERM, 129 for SIGHUP) after deleting its temporaries and saying what it finished. */
static const cli_exit_code_def exit_code_table[] = {
    {0, "ok"},
    {1, "invalid input, a round-trip mismatch, or something dropped with --tolerant"},
    {2, "usage error (verb, option, value, or an existing output without -f)"},
    {3, "I/O or internal error (a missing file, an unwritable output, out of memory)"},
    {130, "interrupted (Ctrl-C, SIGINT; 128+N for signal N: 143 SIGTERM, 129 SIGHUP)"},
};

const cli_exit_code_def *cli_exit_codes(size_t *count) {
    *count = sizeof exit_code_table / sizeof exit_code_table[0];
    return exit_code_table;
}

static void print_exit_codes(void) {
    puts("Exit codes:");
    for (size_t i = 0; i < sizeof exit_code_table / sizeof exit_code_table[0]; i++)
        printf("  %-4d %s\n", exit_code_table[i].code, exit_code_table[i].meaning);
}

static bool takes_operations(const cli_verb_def *v) { return (v->options & EDIT_OPS) == EDIT_OPS; }

bool cli_is_operation(const cli_verb_def *v, cli_opt_id id) {
    return id >= OPT_RENAME_NODE && takes_operations(v);
}

/* An edit operation that `v` takes as a plain option (convert's --scale). */
static bool borrowed_operation(const cli_verb_def *v, cli_opt_id id) {
    return id >= OPT_RENAME_NODE && cli_verb_accepts(v, id) && !cli_is_operation(v, id);
}

static size_t add_borrowed(const cli_verb_def *v, const cli_option_def **out, size_t n) {
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++)
        if (borrowed_operation(v, option_table[i].id)) out[n++] = &option_table[i];
    return n;
}

/* Table order, except that borrowed operations join the options that choose what is converted,
 * after --data (a verb without --data has no operations, so they close its list). */
size_t cli_verb_options(const cli_verb_def *v, const cli_option_def **out) {
    size_t n = 0;
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++) {
        const cli_option_def *opt = &option_table[i];
        if (!cli_verb_accepts(v, opt->id) || borrowed_operation(v, opt->id)) continue;
        out[n++] = opt;
        if (opt->id == OPT_DATA) n = add_borrowed(v, out, n);
    }
    return cli_verb_accepts(v, OPT_DATA) ? n : add_borrowed(v, out, n);
}

/* Prints text with every line indented by `indent` spaces. */
static void print_indented(const char *text, int indent) {
    while (*text) {
        const char *nl = strchr(text, '\n');
        int len = nl ? (int)(nl - text) : (int)strlen(text);
        printf("%*s%.*s\n", indent, "", len, text);
        text += len + (nl ? 1 : 0);
    }
}

/* One option: its spellings and values in a column, then its help (continuations aligned). */
static void print_option(const cli_verb_def *v, const cli_option_def *opt) {
    enum { HELP_COLUMN = 28 };
    char left[64];
    const char *metavar = opt->id == OPT_OUTPUT ? v->output : opt->metavar;
    snprintf(left, sizeof left, "%s%s%s%s%s", opt->short_name ? opt->short_name : "  ",
             opt->short_name ? ", " : "  ", opt->long_name, metavar ? " " : "",
             metavar ? metavar : "");
    const char *help = opt->id == OPT_OUTPUT ? v->output_help : opt->help;
    int width = printf("  %s", left);
    const char *nl = strchr(help, '\n');
    int len = nl ? (int)(nl - help) : (int)strlen(help);
    if (width >= HELP_COLUMN - 1) {
        printf("\n%*s", HELP_COLUMN, "");
    } else {
        printf("%*s", HELP_COLUMN - width, "");
    }
    printf("%.*s\n", len, help);
    if (nl) print_indented(nl + 1, HELP_COLUMN);
}

static void print_options(const cli_verb_def *v, bool operations) {
    const cli_option_def *shown[OPT_COUNT_];
    size_t count = cli_verb_options(v, shown);
    for (size_t i = 0; i < count; i++)
        if (cli_is_operation(v, shown[i]->id) == operations) print_option(v, shown[i]);
}

static bool takes_single_values(const cli_verb_def *v) {
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++)
        if (option_table[i].value_count == 1 && cli_verb_accepts(v, option_table[i].id)) return true;
    return false;
}

void cli_help_verb(const cli_verb_def *v) {
    printf("usage: %s\n\n%s: %s.\n", v->synopsis, v->name, v->summary);
    print_indented(v->details, 0);
    puts("\nOptions:");
    print_options(v, false);
    if (takes_operations(v)) {
        puts("\nOperations (applied in the order given):");
        print_options(v, true);
    }
    putchar('\n');
    if (v->inputs) puts("`--` ends the options: every later argument is an input, even one starting with '-'.");
    if (takes_single_values(v)) puts("Options that take one value also accept --option=VALUE.");
    puts("\nExamples:");
    print_indented(v->examples, 2);
    putchar('\n');
    print_exit_codes();
}

void cli_help_overview(void) {
    puts("usage: unearth VERB [options] INPUT...\n"
         "       unearth help VERB   (or unearth VERB --help): options, ranges, defaults, examples\n"
         "       unearth --version\n\nVerbs:");
    for (size_t i = 0; i < sizeof verb_table / sizeof verb_table[0]; i++)
        printf("  %-10s %s\n", verb_table[i].name, verb_table[i].summary);
    puts("\nARCHIVE and FILE may name an entry inside a container: OUTER:ENTRY (repeatable;\n"
         "#N = entry N by index). Data and reports go to stdout, diagnostics to stderr.\n");
    print_exit_codes();
}

/* The option table of one verb (or of all of them), one option a line: long form, short form
 * ("-" when there is none) and value count; the tests compare it with the help and the parser. */
static void list_options(const cli_verb_def *v) {
    for (size_t i = 0; i < sizeof option_table / sizeof option_table[0]; i++) {
        const cli_option_def *opt = &option_table[i];
        if (!v || cli_verb_accepts(v, opt->id))
            printf("%s %s %d\n", opt->long_name, opt->short_name ? opt->short_name : "-",
                   opt->value_count);
    }
}

int cli_help_command(int argc, char **argv) {
    if (argc == 1 && !strcmp(argv[0], "--man")) {
        cli_print_man_page();
        return EXIT_OK_;
    }
    bool options = argc > 0 && !strcmp(argv[0], "--options");
    if (options) argc--, argv++;
    if (argc > 1) return cli_usage_error(NULL, "help takes one verb, not %d arguments", argc);
    bool about_help = argc && !strcmp(argv[0], "help"); /* `help help`: the overview */
    const cli_verb_def *v = argc && !about_help ? cli_verb_find(argv[0]) : NULL;
    if (argc && !v && !about_help) return cli_unknown_verb(argv[0]);
    if (options) list_options(v);
    else if (v) cli_help_verb(v);
    else cli_help_overview();
    return EXIT_OK_;
}
