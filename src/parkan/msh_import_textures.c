/* unearth — texture edits of `import --base`: each glTF image matched to the Texm it was exported
 * from, compared as the Texm's format stores it, and a changed one re-encoded like the original. */
#define _DEFAULT_SOURCE /* strcasecmp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/bytes.h"
#include "parkan/msh_materials.h"
#include "parkan/texm_pixels.h"
#include "unearth/archive.h"
#include "unearth/msh_import.h"
#include "unearth/texm.h"

#define FACTOR_TOLERANCE (0.5f / 255.0f) /* half a step of an 8-bit channel */

/* What a scene texture was exported from: a Texm entry of the library, or a phase atlas. */
typedef enum match_kind { MATCH_NONE = 0, MATCH_ENTRY, MATCH_ATLAS } match_kind;
typedef struct texture_match {
    match_kind kind;
    size_t index;    /* MATCH_ENTRY: the library entry; MATCH_ATLAS: the reference texture */
    char name[256];  /* as the library (or the reference export) names it */
} texture_match;

/* The first scene texture that reached each library entry, so two images of one Texm agree. */
typedef struct entry_claim {
    int32_t texture;
    float factor[4];
} entry_claim;

/* A name without its extension, for the sorted index match_stem searches. */
typedef struct stem_key {
    char name[256];
    size_t len;      /* stem_length(name) */
    match_kind kind;
    size_t index;
} stem_key;

typedef struct edit_ctx {
    const ue_scene *s;
    const ue_scene *ref;    /* the base as `convert` exports it, every LOD, materials resolved */
    ue_scene own_ref;       /* ref, when made here */
    ue_archive *lib;
    const char *library;
    entry_claim *claims;    /* per library entry; texture -1 until claimed */
    long *ref_of;           /* per scene material: its reference material (reference_material) */
    size_t *shown_start;    /* per scene texture t: the materials showing it as base colour are */
    size_t *shown;          /* shown[shown_start[t] .. shown_start[t + 1]) */
    stem_key *stems;        /* the library's Texm entries and the atlases, by stem (any case) */
    size_t stem_count;
    ue_texture_edits *out;
    ue_diag *d;
} edit_ctx;

static void path_of(char *path, size_t cap, int32_t texture) { snprintf(path, cap, "/textures/%d", texture); }

/* ---- names ---------------------------------------------------------------------------------- */

/* "NAME.001" → "NAME": the suffix Blender gives a name that is already taken. False when the
 * name has none. */
static bool undo_duplicate_suffix(const char *name, char *out, size_t cap) {
    size_t n = strlen(name);
    bool has = n > 4 && name[n - 4] == '.' && name[n - 3] >= '0' && name[n - 3] <= '9' && name[n - 2] >= '0' &&
               name[n - 2] <= '9' && name[n - 1] >= '0' && name[n - 1] <= '9';
    if (has) snprintf(out, cap, "%.*s", (int)(n - 4), name);
    return has;
}

/* Length of `name` without its last ".ext" (Blender writes an image's name so: "ROBOT_BODY.0"
 * becomes "ROBOT_BODY"). */
static size_t stem_length(const char *name) {
    const char *dot = strrchr(name, '.');
    return dot && dot != name ? (size_t)(dot - name) : strlen(name);
}

static bool is_texm_entry(const ue_archive *a, size_t i, ue_entry_info *info) {
    ue_archive_entry(a, i, info);
    return !strcmp(info->type, "Texm") || !strcmp(ue_archive_format(a), "rsli");
}

/* A reference texture that is no Texm of its own: the phase atlas of an animated material. */
static bool is_atlas(const ue_scene_texture *t) { return strcmp(t->source.format, "texm") != 0; }

/* `name` exactly (any letter case; the library by the engine's own lookup). */
static bool match_exact(const edit_ctx *x, const char *name, texture_match *m) {
    size_t i;
    ue_entry_info info;
    if (ue_archive_find(x->lib, name, &i) == UE_OK && is_texm_entry(x->lib, i, &info)) {
        *m = (texture_match){MATCH_ENTRY, i, ""};
        snprintf(m->name, sizeof m->name, "%s", info.name);
        return true;
    }
    for (size_t t = 0; t < x->ref->texture_count; t++)
        if (is_atlas(&x->ref->textures[t]) && !strcasecmp(x->ref->textures[t].name, name)) {
            *m = (texture_match){MATCH_ATLAS, t, ""};
            snprintf(m->name, sizeof m->name, "%s", x->ref->textures[t].name);
            return true;
        }
    return false;
}

static int stem_compare(const char *a, size_t a_len, const char *b, size_t b_len) {
    int c = strncasecmp(a, b, a_len < b_len ? a_len : b_len);
    return c ? c : (a_len > b_len) - (a_len < b_len);
}

static int stem_key_order(const void *pa, const void *pb) {
    const stem_key *a = pa, *b = pb;
    int c = stem_compare(a->name, a->len, b->name, b->len);
    return c ? c : (a->kind > b->kind) - (a->kind < b->kind);
}

static void add_stem(edit_ctx *x, const char *name, match_kind kind, size_t index) {
    stem_key *k = &x->stems[x->stem_count++];
    snprintf(k->name, sizeof k->name, "%s", name);
    k->len = stem_length(k->name), k->kind = kind, k->index = index;
}

/* The sorted stem index: every Texm entry of the library and every atlas of the reference. */
static ue_result index_stems(edit_ctx *x) {
    size_t entries = ue_archive_count(x->lib), cap = entries + x->ref->texture_count;
    if (!(x->stems = ue_malloc_items(cap, sizeof *x->stems))) return UE_ERR_NOMEM;
    ue_entry_info info;
    for (size_t i = 0; i < entries; i++)
        if (is_texm_entry(x->lib, i, &info)) add_stem(x, info.name, MATCH_ENTRY, i);
    for (size_t t = 0; t < x->ref->texture_count; t++)
        if (is_atlas(&x->ref->textures[t])) add_stem(x, x->ref->textures[t].name, MATCH_ATLAS, t);
    qsort(x->stems, x->stem_count, sizeof *x->stems, stem_key_order);
    return UE_OK;
}

/* The one entry or atlas whose name without its extension is `name`; false when none or
 * several (a binary search of the stem index). */
static bool match_stem(const edit_ctx *x, const char *name, texture_match *m) {
    size_t len = strlen(name), lo = 0, hi = x->stem_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (stem_compare(x->stems[mid].name, x->stems[mid].len, name, len) < 0) lo = mid + 1;
        else hi = mid;
    }
    bool one = lo < x->stem_count && !stem_compare(x->stems[lo].name, x->stems[lo].len, name, len) &&
               (lo + 1 == x->stem_count || stem_compare(x->stems[lo + 1].name, x->stems[lo + 1].len, name, len));
    if (one) {
        *m = (texture_match){x->stems[lo].kind, x->stems[lo].index, ""};
        snprintf(m->name, sizeof m->name, "%s", x->stems[lo].name);
    }
    return one;
}

/* By the texture's own name: exactly, then with an exporter's ".001" undone, then without the
 * extension an exporter dropped. */
static bool match_by_name(const edit_ctx *x, const char *name, texture_match *m) {
    char plain[64];
    bool renamed = undo_duplicate_suffix(name, plain, sizeof plain);
    if (match_exact(x, name, m) || (renamed && match_exact(x, plain, m))) return true;
    return match_stem(x, renamed ? plain : name, m);
}

/* ---- through the materials ------------------------------------------------------------------- */

static const ue_extra *extra_of(const ue_extras *e, const char *key, ue_extra_kind kind) {
    for (size_t k = 0; k < e->count; k++)
        if (!strcmp(e->items[k].key, key) && e->items[k].kind == kind) return &e->items[k];
    return NULL;
}

/* The reference material a scene material was exported as: by its WEAR row (extras.wear_row),
 * else by its name (".001" undone) when one reference material has it; -1 when none. */
static long reference_material(const edit_ctx *x, const ue_scene_material *m) {
    const ue_extra *row = extra_of(&m->extras, UE_MSH_WEAR_ROW_KEY, UE_EXTRA_NUMBER);
    char plain[64];
    const char *name = undo_duplicate_suffix(m->name, plain, sizeof plain) ? plain : m->name;
    long by_name = -1;
    size_t named = 0;
    for (size_t r = 0; r < x->ref->material_count; r++) {
        const ue_scene_material *rm = &x->ref->materials[r];
        const ue_extra *rrow = extra_of(&rm->extras, UE_MSH_WEAR_ROW_KEY, UE_EXTRA_NUMBER);
        if (row && rrow && rrow->number == row->number) return (long)r;
        if (!strcasecmp(rm->name, name) && !named++) by_name = (long)r;
    }
    return !row && named == 1 ? by_name : -1;
}

/* What material `mi` showed as its base colour in the reference, or from its extras.texture. */
static bool match_by_material(const edit_ctx *x, size_t mi, texture_match *m) {
    const ue_scene_material *mat = &x->s->materials[mi];
    long r = x->ref_of[mi];
    int32_t rt = r >= 0 ? ue_scene_material_texture(&x->ref->materials[r], UE_TEX_BASE_COLOR) : -1;
    if (rt >= 0) return match_exact(x, x->ref->textures[rt].name, m);
    const ue_extra *tex = extra_of(&mat->extras, "texture", UE_EXTRA_STRING);
    return tex && match_exact(x, tex->text, m);
}

/* Scene texture `ti` by name, else through every material that shows it (which must agree). */
static void match_texture(const edit_ctx *x, int32_t ti, texture_match *m) {
    if (match_by_name(x, x->s->textures[ti].name, m)) return;
    memset(m, 0, sizeof *m); /* a name shared by several entries left its first one here */
    for (size_t k = x->shown_start[ti]; k < x->shown_start[ti + 1]; k++) {
        size_t mi = x->shown[k];
        texture_match got;
        if (!match_by_material(x, mi, &got)) continue;
        if (m->kind == MATCH_NONE) *m = got;
        else if (got.kind != m->kind || got.index != m->index) {
            char path[32];
            path_of(path, sizeof path, ti);
            ue_diag_add(x->d, UE_SEV_WARNING, "import.texture.ambiguous", UE_NO_OFFSET, path,
                        "image '%s' is shown by materials that came with different textures (%s, %s); it is "
                        "not written back", x->s->textures[ti].name, m->name, got.name);
            m->kind = MATCH_NONE;
            return;
        }
    }
}

/* ---- the base colour factor ------------------------------------------------------------------- */

/* The factor the materials showing `ti` multiply it by, when it differs from what the reference
 * material had (white for a textured one): false when unchanged. Materials that disagree are
 * refused: one Texm cannot take two colours. */
static ue_result changed_factor(const edit_ctx *x, int32_t ti, float factor[4], bool *changed) {
    *changed = false;
    int32_t first = -1;
    for (size_t k = x->shown_start[ti]; k < x->shown_start[ti + 1]; k++) {
        size_t mi = x->shown[k];
        const ue_scene_material *mat = &x->s->materials[mi];
        long r = x->ref_of[mi];
        bool differs = false, other = false;
        for (int c = 0; c < 4; c++) {
            float was = r >= 0 ? x->ref->materials[r].base_color[c] : 1.0f;
            differs |= fabsf(mat->base_color[c] - was) > FACTOR_TOLERANCE;
            other |= first >= 0 && fabsf(mat->base_color[c] - factor[c]) > FACTOR_TOLERANCE;
        }
        if (other) {
            char path[32];
            snprintf(path, sizeof path, "/materials/%zu", mi);
            ue_diag_add(x->d, UE_SEV_ERROR, "import.texture.factor", UE_NO_OFFSET, path,
                        "materials '%s' and '%s' share image '%s' with different baseColorFactor values; the "
                        "factor goes into the texture, which can take only one", x->s->materials[first].name,
                        mat->name, x->s->textures[ti].name);
            return UE_ERR_INVALID;
        }
        if (first < 0) memcpy(factor, mat->base_color, 4 * sizeof *factor), first = (int32_t)mi;
        *changed |= differs;
    }
    return UE_OK;
}

/* sRGB ↔ linear (glTF multiplies the decoded texel by the linear factor). */
static float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f); }
static float linear_to_srgb(float c) { return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f; }

static uint8_t to_byte(float v) {
    v = v < 0 ? 0 : v > 1 ? 1 : v;
    return (uint8_t)lrintf(v * 255.0f);
}

/* The texels as a viewer shows them: colour in linear space times the factor, alpha times its. */
static void multiply_factor(uint8_t *rgba, size_t pixels, const float f[4]) {
    for (size_t i = 0; i < pixels; i++) {
        uint8_t *p = rgba + 4 * i;
        for (int c = 0; c < 3; c++) p[c] = to_byte(linear_to_srgb(srgb_to_linear(p[c] / 255.0f) * f[c]));
        p[3] = to_byte(p[3] / 255.0f * f[3]);
    }
}

/* ---- compare and re-encode ---------------------------------------------------------------------- */

/* The texel as `format` stores it: through its channel table, or (indexed) its colour only, since
 * a palette entry holds no alpha. */
static void as_stored(uint32_t format, const uint8_t in[4], uint8_t out[4]) {
    if (format == UE_TEXM_INDEXED) {
        memcpy(out, in, 3), out[3] = 255;
        return;
    }
    uint8_t px[4];
    texm_pixel_encode(format, in, px);
    texm_pixel_decode(format, px, NULL, out);
}

/* Do the new texels differ from the original's as its format would store them? A texel that is
 * fully transparent in both is the same whatever its colour (exporters clear it). */
static bool pixels_differ(uint32_t format, const uint8_t *now, const uint8_t *was, size_t pixels) {
    for (size_t i = 0; i < pixels; i++) {
        uint8_t q[4];
        as_stored(format, now + 4 * i, q);
        if (q[3] == 0 && was[4 * i + 3] == 0) continue;
        if (memcmp(q, was + 4 * i, 4)) return true;
    }
    return false;
}

/* The original's unused fourth byte of each 888 texel, kept (docs/formats/texm.md#pixel-formats). */
static void keep_unused_888(const ue_texm *orig, uint8_t *texm) {
    for (uint32_t l = 0; l < orig->level_count; l++)
        for (size_t b = 3; b < orig->levels[l].size; b += 4)
            texm[orig->levels[l].offset + b] = orig->data[orig->levels[l].offset + b];
}

/* The new Texm: the original's format, size, flags, mip count and rects; proven by a strict parse. */
static ue_result encode_like(const ue_texm *orig, const uint8_t *rgba, ue_buf *out, ue_diag *d) {
    ue_texm_build how = {orig->format, orig->mip_count, orig->flags4, orig->flags5, orig->unknown6,
                         orig->rects, orig->rect_count, true};
    ue_result r = ue_texm_build_rgba(orig->width, orig->height, rgba, &how, out, d);
    if (r == UE_OK && orig->format == UE_TEXM_888 && out->size == orig->size) keep_unused_888(orig, out->data);
    ue_texm check;
    if (r == UE_OK && (r = ue_texm_parse(out->data, out->size, UE_MODE_STRICT, &check, d)) == UE_OK)
        ue_texm_free(&check);
    return r;
}

/* The library's entry parsed strictly and its level 0 decoded into *was (malloc). */
static ue_result load_original(edit_ctx *x, const texture_match *m, const char *path, ue_texm *t, uint8_t **was) {
    uint8_t *data = NULL;
    size_t size = 0;
    ue_diag scratch = {0};
    *was = NULL;
    ue_result r = ue_archive_read(x->lib, m->index, &data, &size, &scratch);
    if (r == UE_OK) r = ue_texm_parse(data, size, UE_MODE_STRICT, t, &scratch);
    free(data);
    ue_diag_free(&scratch);
    if (r != UE_OK) {
        ue_diag_add(x->d, UE_SEV_ERROR, "import.texture.original", UE_NO_OFFSET, path,
                    "texture %s in %s does not read as a valid Texm (unearth validate says why)", m->name, x->library);
        return UE_ERR_INVALID;
    }
    size_t bytes = (size_t)t->width * t->height * 4;
    if (!(*was = malloc(bytes))) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = ue_texm_decode_level(t, 0, NULL, *was, bytes, NULL);
    if (r != UE_OK) ue_texm_free(t);
    return r;
}

static ue_result add_edit(edit_ctx *x, int32_t ti, const texture_match *m, const ue_texm *orig, ue_buf *texm) {
    ue_texture_edit *grown = realloc(x->out->items, (x->out->count + 1) * sizeof *grown);
    if (!grown) return UE_ERR_NOMEM;
    x->out->items = grown;
    ue_texture_edit *e = &grown[x->out->count++];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", m->name);
    e->texture = ti, e->format = orig->format, e->width = orig->width, e->height = orig->height;
    e->mip_count = orig->mip_count, e->texm = texm->data, e->size = texm->size;
    *texm = (ue_buf){0};
    return UE_OK;
}

typedef enum claim_state { CLAIM_FIRST, CLAIM_SAME, CLAIM_CONFLICT } claim_state;

/* The first image of a Texm stands for it; a second must be the same image (pixels and factor). */
static claim_state claim_entry(edit_ctx *x, int32_t ti, const texture_match *m, const float factor[4]) {
    entry_claim *c = &x->claims[m->index];
    if (c->texture < 0) {
        c->texture = ti;
        memcpy(c->factor, factor, sizeof c->factor);
        return CLAIM_FIRST;
    }
    const ue_scene_texture *a = &x->s->textures[c->texture], *b = &x->s->textures[ti];
    bool same = a->width == b->width && a->height == b->height &&
                !memcmp(a->rgba, b->rgba, (size_t)a->width * a->height * 4);
    for (int k = 0; k < 4; k++) same = same && fabsf(c->factor[k] - factor[k]) <= FACTOR_TOLERANCE;
    if (same) return CLAIM_SAME;
    char path[32];
    path_of(path, sizeof path, ti);
    ue_diag_add(x->d, UE_SEV_ERROR, "import.texture.conflict", UE_NO_OFFSET, path,
                "images '%s' and '%s' both come from texture %s but differ; keep one of them", a->name, b->name, m->name);
    return CLAIM_CONFLICT;
}

/* Scene texture `ti`, matched to library entry `m`: unchanged, or one edit more. */
static ue_result edit_entry(edit_ctx *x, int32_t ti, const texture_match *m, const float factor[4], bool tinted) {
    const ue_scene_texture *t = &x->s->textures[ti];
    char path[32];
    path_of(path, sizeof path, ti);
    claim_state claim = claim_entry(x, ti, m, factor);
    if (claim != CLAIM_FIRST) return claim == CLAIM_SAME ? UE_OK : UE_ERR_INVALID;
    ue_texm orig;
    ue_result r;
    uint8_t *was = NULL, *now = NULL;
    if ((r = load_original(x, m, path, &orig, &was)) != UE_OK) return r;
    size_t pixels = (size_t)t->width * t->height;
    if (t->width != orig.width || t->height != orig.height) {
        ue_diag_add(x->d, UE_SEV_ERROR, "import.texture.size", UE_NO_OFFSET, path,
                    "image '%s' is %u × %u, its texture %s in %s is %u × %u: a Texm keeps its size (scale the "
                    "image back to %u × %u)", t->name, t->width, t->height, m->name, x->library, orig.width,
                    orig.height, orig.width, orig.height);
        r = UE_ERR_INVALID;
    } else if (!(now = malloc(pixels * 4))) {
        r = UE_ERR_NOMEM;
    } else {
        memcpy(now, t->rgba, pixels * 4);
        if (tinted) multiply_factor(now, pixels, factor);
        ue_buf texm = {0};
        if (!pixels_differ(orig.format, now, was, pixels)) x->out->unchanged++;
        else if ((r = encode_like(&orig, now, &texm, x->d)) == UE_OK) r = add_edit(x, ti, m, &orig, &texm);
        ue_buf_free(&texm);
    }
    free(now);
    free(was);
    ue_texm_free(&orig);
    return r;
}

/* An atlas of animated phases has no Texm of its own: kept as it was, or refused when edited. */
static ue_result check_atlas(edit_ctx *x, int32_t ti, const texture_match *m, bool tinted) {
    const ue_scene_texture *t = &x->s->textures[ti], *was = &x->ref->textures[m->index];
    bool same = !tinted && t->width == was->width && t->height == was->height &&
                !pixels_differ(UE_TEXM_8888, t->rgba, was->rgba, (size_t)t->width * t->height);
    if (same) return UE_OK;
    char path[32];
    path_of(path, sizeof path, ti);
    ue_diag_add(x->d, UE_SEV_ERROR, "import.texture.atlas", UE_NO_OFFSET, path,
                "image '%s' is the atlas of an animated material's phase textures, which has no Texm of its "
                "own; its edit cannot be written back: edit the phase textures with `unearth texm` instead",
                t->name);
    return UE_ERR_INVALID;
}

static ue_result edit_texture(edit_ctx *x, int32_t ti) {
    texture_match m;
    match_texture(x, ti, &m);
    if (m.kind == MATCH_NONE) {
        char path[32];
        path_of(path, sizeof path, ti);
        ue_diag_add(x->d, UE_SEV_WARNING, "import.texture.unmatched", UE_NO_OFFSET, path,
                    "image '%s' matches no texture of %s by its name or its materials; it is not written back",
                    x->s->textures[ti].name, x->library);
        return UE_OK;
    }
    float factor[4] = {1, 1, 1, 1};
    bool tinted;
    ue_result r = changed_factor(x, ti, factor, &tinted);
    if (r != UE_OK) return r;
    return m.kind == MATCH_ATLAS ? check_atlas(x, ti, &m, tinted) : edit_entry(x, ti, &m, factor, tinted);
}

/* ---- the reference and the entry points ------------------------------------------------------------ */

/* The base exported with every LOD and its materials resolved, as `convert` finds them: the
 * names and atlases the scene's textures are matched to. What cannot be found only leaves
 * fewer names to match (no diagnostics: the comparison does not depend on them). */
static ue_result export_reference(const ue_msh *base, const char *origin, ue_scene *ref) {
    ue_msh_export_options eo = {UE_MSH_LOD_ALL, 0, 0};
    ue_diag scratch = {0};
    ue_parkan_search where = {.origin = origin};
    ue_result r = ue_msh_to_scene(base, "model", &eo, ref, &scratch);
    if (r == UE_OK && origin) r = ue_msh_resolve_materials(ref, 0, &where, UE_MODE_TOLERANT, &scratch);
    ue_diag_free(&scratch);
    return r;
}

/* The texture archive holds textures (a model, also an NRes, is the wrong file). */
static ue_result check_library(const ue_archive *lib, const char *path, ue_diag *d) {
    ue_entry_info info;
    for (size_t i = 0; i < ue_archive_count(lib); i++)
        if (is_texm_entry(lib, i, &info)) return UE_OK;
    ue_diag_add(d, UE_SEV_ERROR, "import.texture.library", UE_NO_OFFSET, path,
                "the texture archive %s holds no Texm entry; name the game's Textures.lib", path);
    return UE_ERR_USAGE;
}

/* One pass over the scene's materials: each one's reference material, and per texture the
 * materials showing it as base colour (a counting sort), so that matching is linear. */
static ue_result index_materials(edit_ctx *x) {
    const ue_scene *s = x->s;
    x->ref_of = ue_malloc_items(s->material_count, sizeof *x->ref_of);
    x->shown_start = calloc(s->texture_count + 2, sizeof *x->shown_start);
    x->shown = ue_malloc_items(s->material_count, sizeof *x->shown);
    if (!x->ref_of || !x->shown_start || !x->shown) return UE_ERR_NOMEM;
    for (size_t mi = 0; mi < s->material_count; mi++) {
        x->ref_of[mi] = reference_material(x, &s->materials[mi]);
        int32_t t = ue_scene_material_texture(&s->materials[mi], UE_TEX_BASE_COLOR);
        if (t >= 0 && (size_t)t < s->texture_count) x->shown_start[t + 2]++;
    }
    for (size_t t = 0; t < s->texture_count; t++) x->shown_start[t + 2] += x->shown_start[t + 1];
    for (size_t mi = 0; mi < s->material_count; mi++) {
        int32_t t = ue_scene_material_texture(&s->materials[mi], UE_TEX_BASE_COLOR);
        if (t >= 0 && (size_t)t < s->texture_count) x->shown[x->shown_start[t + 1]++] = mi;
    }
    return UE_OK;
}

/* An untextured material's changed baseColorFactor has nowhere to go (MAT0's colours are
 * unproven): a warning names it rather than dropping it silently. */
static void note_untextured_colours(const edit_ctx *x) {
    for (size_t mi = 0; mi < x->s->material_count; mi++) {
        const ue_scene_material *mat = &x->s->materials[mi];
        long r = x->ref_of[mi];
        if (r < 0 || ue_scene_material_texture(mat, UE_TEX_BASE_COLOR) >= 0 ||
            ue_scene_material_texture(&x->ref->materials[r], UE_TEX_BASE_COLOR) >= 0)
            continue;
        const float *was = x->ref->materials[r].base_color, *now = mat->base_color;
        bool differs = false;
        for (int c = 0; c < 4; c++) differs |= fabsf(now[c] - was[c]) > FACTOR_TOLERANCE;
        if (!differs) continue;
        char path[40];
        snprintf(path, sizeof path, "/materials/%zu", mi);
        ue_diag_add(x->d, UE_SEV_WARNING, "import.material.color", UE_NO_OFFSET, path,
                    "material '%s' has no texture and its baseColorFactor changed (%.3g %.3g %.3g %.3g, was "
                    "%.3g %.3g %.3g %.3g); an untextured material's colour is not written back", mat->name,
                    now[0], now[1], now[2], now[3], was[0], was[1], was[2], was[3]);
    }
}

/* Every scene texture compared with its original, every refusal named. */
static ue_result edit_textures(edit_ctx *x) {
    size_t entries = ue_archive_count(x->lib);
    if (!(x->claims = ue_malloc_items(entries, sizeof *x->claims))) return UE_ERR_NOMEM;
    for (size_t i = 0; i < entries; i++) x->claims[i].texture = -1;
    ue_result r = index_stems(x), first_error = UE_OK;
    for (size_t ti = 0; r == UE_OK && ti < x->s->texture_count; ti++) {
        ue_result one = edit_texture(x, (int32_t)ti);
        if (one == UE_ERR_NOMEM) r = one;
        else if (one != UE_OK && first_error == UE_OK) first_error = one;
    }
    return r == UE_OK ? first_error : r;
}

ue_result ue_msh_texture_reference(const ue_msh *base, const char *origin, ue_scene *ref) {
    ue_scene_init(ref);
    ue_result r = export_reference(base, origin, ref);
    if (r != UE_OK) ue_scene_free(ref);
    return r;
}

ue_result ue_msh_texture_edits(const ue_msh *base, const ue_scene *s, const ue_texture_edit_options *o,
                               ue_texture_edits *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    if (!s || !o || (!base && !o->reference)) return UE_ERR_USAGE;
    edit_ctx x = {.s = s, .ref = o->reference, .library = o->library, .out = out, .d = d};
    ue_scene_init(&x.own_ref);
    ue_result r = UE_OK;
    if (!x.ref && o->base_exports) ++*o->base_exports;
    if (!x.ref && (r = export_reference(base, o->origin, &x.own_ref)) == UE_OK) x.ref = &x.own_ref;
    if (r == UE_OK) r = index_materials(&x);
    if (r == UE_OK) note_untextured_colours(&x);
    if (r == UE_OK && o->library) r = ue_archive_open(o->library, UE_MODE_STRICT, &x.lib, d);
    if (r == UE_OK && o->library) r = check_library(x.lib, o->library, d);
    if (r == UE_OK && o->library) r = edit_textures(&x);
    free(x.claims);
    free(x.ref_of);
    free(x.shown_start);
    free(x.shown);
    free(x.stems);
    ue_scene_free(&x.own_ref);
    ue_archive_close(x.lib);
    if (r != UE_OK) ue_texture_edits_free(out);
    return r;
}

void ue_texture_edits_free(ue_texture_edits *e) {
    if (!e) return;
    for (size_t i = 0; i < e->count; i++) free(e->items[i].texm);
    free(e->items);
    memset(e, 0, sizeof *e);
}

ue_result ue_texture_edits_put(const ue_texture_edits *e, const char *library, ue_buf *out, ue_diag *d) {
    ue_archive *a = NULL;
    ue_result r = ue_archive_open(library, UE_MODE_STRICT, &a, d);
    ue_archive_put_entry *entries = r == UE_OK ? ue_calloc_items(e->count, sizeof *entries) : NULL;
    if (r == UE_OK && !entries) r = UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < e->count; i++)
        entries[i] = (ue_archive_put_entry){e->items[i].name, e->items[i].texm, e->items[i].size};
    size_t added = 0;
    /* One rebuild for every edit; with none, the archive byte for byte. */
    if (r == UE_OK) r = ue_archive_put_many(a, entries, e->count, out, &added, d);
    free(entries);
    ue_archive_close(a);
    return r == UE_OK && out->failed ? UE_ERR_NOMEM : r;
}

ue_result ue_msh_texture_library(const char *origin, char *out, size_t cap) {
    char dir[1024];
    ue_parkan_origin_dir(origin, dir, sizeof dir);
    return ue_parkan_find_library(NULL, dir, "Textures.lib", out, cap) ? UE_OK : UE_ERR_INVALID;
}
