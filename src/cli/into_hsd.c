/* unearth CLI — an HSD edit put back into the game's containers: `--into FILE.pkx`,
 * `--into ARCHIVE.fsys:ENTRY[.pkx]`, or `-o` named like the --base's PKX or FSYS (docs/hsd-import.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cli.h"
#include "unearth/archive.h"
#include "unearth/gamecube.h"
#include "unearth/advanced/archive.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"

/* Nested containers a chain may go through (an FSYS holding a PKX needs two). */
#define INTO_MAX_DEPTH 4

/* The extension of an address's innermost name, with its dot ("" if none). */
static const char *leaf_extension(const char *address) {
    const char *leaf = ue_address_leaf(address);
    const char *dot = strrchr(leaf, '.');
    return dot && dot != leaf ? dot : "";
}

/* The prefix of `address` up to and including its outermost level named *.EXT (the FILE, else an
 * entry): what a copy named *.EXT is a copy of. False when no level is so named. */
static bool level_named(const char *address, const char *ext, char *out, size_t cap) {
    ue_address at;
    if (ue_address_split(address, 0, &at) != UE_OK) return false;
    if (ue_name_has_ext(at.file, ext)) return (size_t)snprintf(out, cap, "%s", at.file) < cap;
    char name[256];
    for (const char *rest = at.entries; rest && *rest;) {
        const char *start = rest;
        rest = ue_address_next_entry(rest, name, sizeof name);
        if (!ue_name_has_ext(name, ext)) continue;
        size_t len = (size_t)(start - address) + strlen(name);
        return len < cap && (size_t)snprintf(out, cap, "%.*s", (int)len, address) < cap;
    }
    return false;
}

int cli_into_hsd_plan(const cli_opts *o, cli_hsd_into *t) {
    memset(t, 0, sizeof *t);
    const char *ext = ue_name_has_ext(o->output, ".pkx") ? ".pkx" : ue_name_has_ext(o->output, ".fsys") ? ".fsys" : NULL;
    if (o->into) {
        ue_address at;
        if (ue_address_split(o->into, 0, &at) != UE_OK || (size_t)snprintf(t->container, sizeof t->container, "%s",
                                                                            at.file) >= sizeof t->container) {
            cli_error("import: --into %s: no such file", o->into);
            return EXIT_USAGE;
        }
        snprintf(t->chain, sizeof t->chain, "%s", at.entries);
        t->active = true;
    } else if (ext) {
        /* The copy of the base's own container: `--base a.fsys:c.pkx -o new.fsys` is
         * `--into a.fsys:c.pkx -o new.fsys`, and `-o new.pkx` the PKX inside it. */
        if (!level_named(o->base, ext, t->container, sizeof t->container)) {
            cli_error("import: -o %s: --base %s holds no %s to put the DAT back into; write the DAT "
                      "(-o OUT.dat), or name the container with --into FILE%s[:ENTRY]", o->output, o->base,
                      ext + 1, ext);
            return EXIT_USAGE;
        }
        t->from_base = true;
        t->active = true;
    }
    if (!t->active) return 0;
    ue_address at;
    ue_address_split(t->container, 0, &at);
    snprintf(t->file, sizeof t->file, "%s", at.file);
    const char *own = leaf_extension(t->container);
    if (!own[0] || !ue_name_has_ext(o->output, own)) {
        cli_error("import: -o %s: the output is a copy of %s; give it its extension (%s)", o->output,
                  t->container, own[0] ? own : "none");
        return EXIT_USAGE;
    }
    const char *file = t->file;
    int rc = cli_check_output("import", o->output, &file, 1);
    if (rc || !o->into) return rc;
    char written[4400];
    return cli_into_hsd_build(o, t, NULL, NULL, written, sizeof written); /* the target, before work */
}

/* With the base's own container, the entries between it and the model come from the model's
 * address ("a.fsys:c.pkx:model.dat" under "a.fsys" is "c.pkx:model.dat"). */
void cli_into_hsd_chain_from_model(cli_hsd_into *t, const char *model_address) {
    if (!t->from_base) return;
    size_t n = strlen(t->container);
    if (!strncmp(model_address, t->container, n) && model_address[n] == ':')
        snprintf(t->chain, sizeof t->chain, "%s", model_address + n + 1);
}

/* ---- the chain put, innermost first -------------------------------------------------------- */

typedef struct chain_put {
    const uint8_t *dat;
    size_t dat_size;
    char *written; /* the entries as the archives name them, appended level by level */
    size_t written_cap;
    ue_diag *d;
    bool dry; /* only the target checked (before any work): nothing put */
    const cli_hsd_into *t; /* its --anim-slot pairs */
    bool pkx_seen;         /* a level of the chain is a PKX */
    bool add;              /* --add: the chain's last name is a new FSYS entry */
    bool added;            /* ... and it was added */
    ue_fsys_added added_info;
} chain_put;

static ue_result put_level(ue_archive *a, const char *shown, const char *chain, int depth, chain_put *c,
                           ue_buf *out);

/* Entry `info` of `a` is a container: the DAT goes into a copy of it, which goes into `a`. */
static ue_result put_through(ue_archive *a, const char *shown, const ue_entry_info *info, const char *rest,
                             int depth, chain_put *c, ue_buf *out) {
    if (depth >= INTO_MAX_DEPTH) {
        ue_diag_add(c->d, UE_SEV_ERROR, "into.depth", UE_NO_OFFSET, shown,
                    "--into goes through more than %d nested containers", INTO_MAX_DEPTH);
        return UE_ERR_LIMIT;
    }
    uint8_t *inner = NULL;
    size_t inner_size = 0;
    ue_result r = ue_archive_read(a, info->index, &inner, &inner_size, c->d);
    char child_name[4400];
    snprintf(child_name, sizeof child_name, "%s:%s", shown, info->name);
    ue_archive *child = NULL;
    if (r == UE_OK) r = ue_archive_open_memory(inner, inner_size, child_name, UE_MODE_STRICT, &child, c->d);
    free(inner);
    ue_buf copy = {0};
    if (r == UE_OK) r = put_level(child, child_name, rest, depth + 1, c, &copy);
    ue_archive_close(child);
    bool added = false;
    if (r == UE_OK && !c->dry) r = ue_archive_put(a, info->name, copy.data, copy.size, out, &added, c->d);
    ue_buf_free(&copy);
    return r;
}

/* ue_archive_put replaces an entry by name, so one whose name an earlier entry shares is refused;
 * the innermost entry must be a model DAT: a PKX's model.dat (entry 0) or an FSYS entry of a DAT
 * type (a PKX in it is gone through), never a GPT1, camera or other slot. */
static ue_result check_target(const ue_archive *a, const char *shown, const ue_entry_info *info, bool pkx,
                              bool innermost, ue_diag *d) {
    size_t first;
    if (ue_archive_find(a, info->name, &first) == UE_OK && first != info->index) {
        ue_diag_add(d, UE_SEV_ERROR, "into.index", UE_NO_OFFSET, shown,
                    "entry %zu shares its name \"%s\" with entry %zu, which --into would replace instead",
                    info->index, info->name, first);
        return UE_ERR_USAGE;
    }
    bool dat = pkx ? info->index == 0 : !strcmp(info->type, "dat") || !strcmp(info->type, "rdat");
    if (!innermost || dat) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "into.entry_kind", UE_NO_OFFSET, shown,
                "entry %zu \"%s\" is a %s, not %s; an HSD model goes only there", info->index, info->name,
                info->type, pkx ? "the PKX's model DAT (entry 0)" : "a DAT or a PKX");
    return UE_ERR_USAGE;
}

static uint32_t load_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* ---- a new model in a template's PKX (docs/hsd-import.md#a-new-model-in-the-game) ----------- */

/* What fit_template changed, told in one warning per kind. */
typedef struct fit_count {
    size_t clips, bodies, parts;
    char slots[96]; /* the first slots whose clips were redirected */
} fit_count;

/* The sub-animations an entry uses ({motion type, index} pairs at +0x8C, +0x04 of them, at most 8)
 * whose clip the new model lacks play clip 0 instead: the game would read past ModelSet.anims[]. */
static ue_result fit_entry_clips(uint8_t *e, uint32_t slot, const char *shown, size_t at, chain_put *c,
                                 fit_count *n) {
    uint32_t used = load_be32(e + 0x04) < 8 ? load_be32(e + 0x04) : 8;
    for (uint32_t k = 0; k < used; k++) {
        uint32_t clip = load_be32(e + 0x90 + 8 * k);
        if (clip < c->t->new_clips) continue;
        if (!c->t->new_clips) {
            ue_diag_add(c->d, UE_SEV_ERROR, "into.new_model_clips", at, shown,
                        "animation slot %u plays clip %u, and the new model has no clips: the game would play "
                        "a clip that is not there; give the glTF at least one animation", slot, clip);
            return UE_ERR_INVALID;
        }
        if (!n->clips++ || strlen(n->slots) < sizeof n->slots - 16)
            snprintf(n->slots + strlen(n->slots), sizeof n->slots - strlen(n->slots), "%s%u", n->slots[0] ? ", " : "",
                     slot);
        store_be32(e + 0x90 + 8 * k, 0);
    }
    return UE_OK;
}

/* Body-map joints (+0x4C, 16 pre-order indices, -1 unused) past the new tree become 0, the root. */
static void fit_entry_bodies(uint8_t *e, chain_put *c, fit_count *n) {
    for (size_t j = 0; j < 16; j++) {
        uint32_t v = load_be32(e + 0x4C + 4 * j);
        if (v >= 0x80000000u || v < c->t->new_joints) continue;
        store_be32(e + 0x4C + 4 * j, 0);
        n->bodies++;
    }
}

/* XD: the head bone (+0x6E) past the new tree becomes 0; a part-animation block (+0x1C, four of 19
 * bytes) naming a bone past it is switched off (type 0), the value that means "none". */
static void fit_xd_header(uint8_t *p, chain_put *c, fit_count *n) {
    if ((size_t)(p[0x6E] << 8 | p[0x6F]) >= c->t->new_joints) p[0x6E] = p[0x6F] = 0, n->bodies++;
    for (size_t b = 0; b < 4; b++) {
        uint8_t *block = p + 0x1C + 19 * b;
        bool past = false;
        for (size_t k = 0; k < 8; k++) past |= block[2 + k] != 0xFF && block[2 + k] >= c->t->new_joints;
        if (block[0] && past) block[0] = 0, n->parts++;
    }
}

static void tell_fit(const fit_count *n, const char *shown, size_t joints, ue_diag *d) {
    if (n->clips)
        ue_diag_add(d, UE_SEV_WARNING, "into.new_model_clips", UE_NO_OFFSET, shown,
                    "%zu sub-animations (slots %s) played clips the new model does not have: they play clip 0 "
                    "(map them with --anim-slot N NAME)", n->clips, n->slots);
    if (n->bodies)
        ue_diag_add(d, UE_SEV_WARNING, "into.new_model_joints", UE_NO_OFFSET, shown,
                    "%zu body-map or head-bone joints lay past the new model's %zu joints: they name joint 0, the root",
                    n->bodies, joints);
    if (n->parts)
        ue_diag_add(d, UE_SEV_WARNING, "into.new_model_joints", UE_NO_OFFSET, shown,
                    "%zu part-animation blocks named bones past the new model's joints: switched off (type 0)",
                    n->parts);
}

/* A new model's DAT in the template's PKX: the slot table and header indices that point past its
 * clips or joints are brought into range (or refused: no clip at all); every other byte stays. */
static ue_result fit_template(ue_buf *pkx, const ue_pkx_info *info, const char *shown, chain_put *c) {
    fit_count n = {0};
    ue_result r = UE_OK;
    for (uint32_t slot = 0; slot < info->anim_count && r == UE_OK; slot++) {
        size_t at = info->anim_offset + (size_t)slot * UE_PKX_ANIM_ENTRY;
        r = fit_entry_clips(pkx->data + at, slot, shown, at, c, &n);
        fit_entry_bodies(pkx->data + at, c, &n);
    }
    if (r == UE_OK && info->layout == UE_PKX_XD) fit_xd_header(pkx->data, c, &n);
    if (r == UE_OK) tell_fit(&n, shown, c->t->new_joints, c->d);
    return r;
}

/* The --anim-slot pairs into the PKX copy `pkx`: slot N's first sub-animation names the clip's index
 * (docs/formats/pkx.md#animation-entry, +0x90 of the 0xD0-byte entry), an entry without
 * sub-animations gets one, its motion type (+0x8C) XD's 2 for a clip that loops, 1 for one played
 * once, Colosseum's 0; every other byte stays. A slot past the table is refused. A new model's
 * PKX is then fitted to it (fit_template), the slots just set being in range. */
static ue_result set_slots(ue_buf *pkx, const char *shown, chain_put *c) {
    if (!c->t->slot_count && !c->t->new_model) return UE_OK;
    ue_pkx_info info;
    ue_result r = ue_pkx_parse(pkx->data, pkx->size, UE_MODE_STRICT, &info, c->d);
    for (size_t k = 0; k < c->t->slot_count && r == UE_OK; k++) {
        uint32_t slot = c->t->slots[k];
        if (slot >= info.anim_count) {
            ue_diag_add(c->d, UE_SEV_ERROR, "into.anim_slot", info.anim_offset, shown,
                        "--anim-slot %u: the PKX's animation table has %u slots (0 … %u)", slot, info.anim_count,
                        info.anim_count ? info.anim_count - 1 : 0);
            return UE_ERR_INVALID;
        }
        uint8_t *e = pkx->data + info.anim_offset + (size_t)slot * UE_PKX_ANIM_ENTRY;
        if (!load_be32(e + 0x04)) { /* an empty slot: one sub-animation, its motion type the game's */
            store_be32(e + 0x04, 1);
            store_be32(e + 0x8C, info.layout == UE_PKX_XD ? (c->t->slot_loops[k] ? 2 : 1) : 0);
        }
        store_be32(e + 0x90, c->t->slot_clips[k]);
    }
    return r == UE_OK && c->t->new_model ? fit_template(pkx, &info, shown, c) : r;
}

/* --add: `name`, the chain's last, is a new entry of the FSYS `a`, the DAT as it is (ue_fsys_add);
 * before any work (dry) the name, type and id are checked on an empty payload. */
static ue_result add_entry(ue_archive *a, const char *shown, const char *name, chain_put *c, ue_buf *out) {
    size_t index;
    const char *why = strcmp(ue_archive_format(a), "fsys") ? "--add adds an entry to an FSYS, and this is a %s"
                      : ue_archive_find(a, name, &index) == UE_OK ? "--add adds a new entry, and \"%s\" is there: "
                                                                      "leave --add out to replace it"
                      : ue_name_has_ext(name, ".pkx") ? "--add puts the bare DAT in, and \"%s\" names a PKX entry "
                                                        "(one needs a PKX around the DAT): give the new entry a .dat name"
                                                      : NULL;
    if (why) {
        char printable[1024];
        ue_text_printable(strcmp(ue_archive_format(a), "fsys") ? ue_archive_format(a) : name, printable,
                          sizeof printable);
        ue_diag_add(c->d, UE_SEV_ERROR, "into.add", UE_NO_OFFSET, shown, why, printable);
        return UE_ERR_USAGE;
    }
    uint8_t *bytes = NULL;
    size_t size = 0;
    ue_result r = ue_archive_bytes(a, &bytes, &size);
    ue_buf scratch = {0};
    ue_diag said = {0}; /* the library names no file: its diagnostics are told under the archive's name */
    if (r == UE_OK) r = ue_fsys_add(bytes, size, name, c->dat, c->dat_size, c->dry ? &scratch : out, &c->added_info, &said);
    for (size_t i = 0; i < said.count; i++)
        ue_diag_add(c->d, said.items[i].severity, said.items[i].code, said.items[i].offset, shown, "%s",
                    said.items[i].message);
    ue_diag_free(&said);
    free(bytes);
    ue_buf_free(&scratch);
    c->added = r == UE_OK && !c->dry;
    size_t at = strlen(c->written);
    if (r == UE_OK) snprintf(c->written + at, c->written_cap - at, ":%s", name);
    return r;
}

/* Appends to `out` the copy of `a` (shown as `shown`) whose entry chain `chain` holds the DAT. An
 * empty chain in a PKX is its model.dat; an entry that is a PKX is gone through to its DAT. */
static ue_result put_level(ue_archive *a, const char *shown, const char *chain, int depth, chain_put *c,
                           ue_buf *out) {
    char name[256];
    const char *rest = NULL;
    bool pkx = !strcmp(ue_archive_format(a), "pkx");
    if (!chain[0] && !pkx) {
        ue_diag_add(c->d, UE_SEV_ERROR, "into.entry", UE_NO_OFFSET, shown,
                    "an FSYS holds many files: name the one the DAT replaces (--into %s:ENTRY)", shown);
        return UE_ERR_USAGE;
    }
    if (chain[0]) rest = ue_address_next_entry(chain, name, sizeof name);
    else snprintf(name, sizeof name, "model.dat");
    if (c->add && chain[0] && !(rest && rest[0])) return add_entry(a, shown, name, c, out);
    size_t index;
    ue_result r = ue_archive_find_reported(a, name, &index, c->d);
    if (r != UE_OK) return r;
    ue_entry_info info;
    ue_archive_entry(a, index, &info);
    r = check_target(a, shown, &info, pkx, !rest && !info.nested[0], c->d);
    if (r != UE_OK) return r;
    size_t at = strlen(c->written);
    snprintf(c->written + at, c->written_cap - at, ":%s", info.name);
    c->pkx_seen |= pkx;
    if (rest || info.nested[0]) r = put_through(a, shown, &info, rest ? rest : "", depth, c, out);
    else if (!c->dry) {
        bool added = false;
        r = ue_archive_put(a, info.name, c->dat, c->dat_size, out, &added, c->d);
    }
    return r == UE_OK && pkx && !c->dry ? set_slots(out, shown, c) : r;
}

int cli_into_hsd_build(const cli_opts *o, cli_hsd_into *t, const ue_buf *dat, ue_buf *copy, char *written,
                       size_t written_cap) {
    ue_diag d = {0}, check = {0};
    snprintf(written, written_cap, "%s", t->container);
    chain_put c = {dat ? dat->data : NULL, dat ? dat->size : 0, written, written_cap, &d, !dat, t, false, o->add,
                   false, {0}};
    ue_archive *a = NULL;
    ue_result r = ue_archive_open(t->container, UE_MODE_STRICT, &a, &d);
    const char *format = r == UE_OK ? ue_archive_format(a) : "";
    if (r == UE_OK && strcmp(format, "pkx") && strcmp(format, "fsys")) {
        ue_diag_add(&d, UE_SEV_ERROR, "into.format", UE_NO_OFFSET, t->container,
                    "is a %s; an HSD model goes into a PKX or an FSYS", format);
        r = UE_ERR_USAGE;
    }
    if (r == UE_OK) r = put_level(a, t->container, t->chain, 0, &c, copy);
    if (r == UE_OK && o->add && !c.added && !c.dry) {
        ue_diag_add(&d, UE_SEV_ERROR, "into.add", UE_NO_OFFSET, t->container,
                    "--add adds the last entry of --into ARCHIVE.fsys:ENTRY, a new entry of the FSYS: name it there");
        r = UE_ERR_USAGE;
    }
    t->added = c.added, t->added_info = c.added_info;
    if (r == UE_OK && o->anim_slot_count && !c.pkx_seen) {
        ue_diag_add(&d, UE_SEV_ERROR, "into.anim_slot", UE_NO_OFFSET, t->container,
                    "--anim-slot sets a PKX's animation slot, and the model goes into no PKX here (an FSYS entry "
                    "that is a bare DAT): address the PKX");
        r = UE_ERR_USAGE;
    }
    ue_archive_close(a);
    bool refused = r == UE_OK && dat && cli_check_archive_copy(o, o->output, copy, &check) != UE_OK;
    cli_diag_dedupe(&d);
    if (d.count) cli_print_diags(&d, 50); /* each names the archive or entry it is about */
    if (refused) cli_say_copy_refused("import", o->output, &check);
    else if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) cli_error("import: %s: %s", t->container, ue_result_name(r));
    ue_diag_free(&d);
    ue_diag_free(&check);
    return refused ? EXIT_INVALID : cli_exit_code(r);
}
