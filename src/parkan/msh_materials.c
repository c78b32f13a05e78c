/* unearth — the Parkan material chain (docs/formats/materials.md#chain) for a converted MSH model: the same-stem WEAR
 * beside the model, MAT0 entries of Material.lib, phase-0 textures from Textures.lib. */
#define _DEFAULT_SOURCE /* opendir, realpath, strcasecmp */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parkan/mat0_phases.h"
#include "parkan/msh_materials.h"
#include "unearth/archive.h"
#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "unearth/texm.h"
#include "unearth/advanced/buffers.h"

#define PATH_CAP 1024

/* A library as one model uses it: shared through the cache, or read for this model alone. */
typedef struct library {
    const char *file;          /* "Material.lib" */
    char path[PATH_CAP];       /* where it was found, "" when not */
    const ue_nres *nres;       /* its directory, once open */
    ue_parkan_library *owned;  /* read for this model alone (no cache) */
    bool tried, open, warned;
} library;

typedef struct resolver {
    ue_scene *s;
    ue_mode mode;
    ue_diag *d;
    const ue_parkan_search *where;
    char model_dir[PATH_CAP];
    ue_wear wear;
    bool have_wear;
    library materials, textures;
    size_t first_texture;
    bool *tiles;               /* per material: a primitive drawn with it has UVs outside [0, 1] */
    bool tiles_known;
    struct entry_atlas *atlases; /* per Material.lib entry: its phase atlas, built once */
} resolver;

/* ---- files, case-insensitively --------------------------------------------------------------- */

bool ue_parkan_find_file(const char *dir, const char *name, char *out, size_t cap) {
    DIR *dp = opendir(dir && dir[0] ? dir : ".");
    if (!dp) return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(dp)) != NULL;) {
        if (strcasecmp(e->d_name, name) != 0) continue;
        int n = snprintf(out, cap, "%s/%s", dir && dir[0] ? dir : ".", e->d_name);
        found = n > 0 && (size_t)n < cap;
    }
    closedir(dp);
    return found;
}

bool ue_parkan_find_library(const char *data_dir, const char *start_dir, const char *name, char *out,
                            size_t cap) {
    if (data_dir && ue_parkan_find_file(data_dir, name, out, cap)) return true;
    char dir[PATH_MAX];
    if (!start_dir || !realpath(start_dir[0] ? start_dir : ".", dir)) return false;
    for (int level = 0; level < UE_PARKAN_MAX_PARENT_DIRS; level++) {
        if (ue_parkan_find_file(dir, name, out, cap)) return true;
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            if (strcmp(dir, "/") == 0) break;
            strcpy(dir, "/");
            continue;
        }
        *slash = 0;
    }
    return false;
}

void ue_parkan_origin_dir(const char *origin, char *out, size_t cap) {
    ue_address at;
    ue_address_split(origin, 0, &at);
    snprintf(out, cap, "%s", at.file);
    char *slash = strrchr(out, '/');
    if (slash) slash[slash == out] = 0; /* "/robot.msh" lives in "/" */
    else snprintf(out, cap, ".");
}

static bool library_open(resolver *r, library *lib) {
    if (lib->tried) return lib->open;
    lib->tried = true;
    ue_cache *c = r->where->cache;
    if (!ue_parkan_library_path(c, r->where->data_dir, r->model_dir, lib->file, lib->path, PATH_CAP)) {
        lib->path[0] = 0;
        return false;
    }
    const ue_parkan_library *got = ue_parkan_library_get(c, lib->path, &lib->owned);
    lib->nres = got ? &got->nres : NULL;
    return lib->open = got != NULL;
}

static void library_close(library *lib) { ue_parkan_library_drop(lib->owned); }

/* Once per library: it is missing or unreadable, and what that means for the model. */
static void warn_library(resolver *r, library *lib, const char *consequence) {
    if (lib->warned) return;
    lib->warned = true;
    if (lib->path[0])
        ue_diag_add(r->d, UE_SEV_WARNING, "msh.material.library_damaged", UE_NO_OFFSET, "msh/materials",
                    "%s is no readable NRes library; %s", lib->path, consequence);
    else
        ue_diag_add(r->d, UE_SEV_WARNING, "msh.material.library", UE_NO_OFFSET, "msh/materials",
                    "%s not found (any letter case) beside the model, in its parent folders%s; %s", lib->file,
                    r->where->data_dir ? " or in --data" : "", consequence);
}

/* ---- the model's WEAR table --------------------------------------------------------------- */

/* "ROBOT.msh" → "ROBOT.wea": the same stem, as the engine pairs them. */
static void wear_name(const char *model, char *out, size_t cap) {
    const char *base = strrchr(model, '/');
    base = base ? base + 1 : model;
    snprintf(out, cap, "%s", base);
    char *dot = strrchr(out, '.');
    if (dot) *dot = 0;
    size_t n = strlen(out);
    if (n + 5 <= cap) memcpy(out + n, ".wea", 5);
}

/* The same-stem WEAR of the model at `origin` (whose folder is `model_dir`), parsed: false,
 * after a warning naming what was looked for and where, when it is absent or unreadable.
 * `cache` (may be NULL) is the run's, which reads an archive's WEAR entries once. */
static bool wear_load(ue_cache *cache, const char *origin, const char *model_dir, ue_wear *wear, ue_diag *d) {
    char name[256], where[PATH_CAP];
    wear_name(ue_address_leaf(origin), name, sizeof name);
    uint8_t *data = NULL;
    size_t size = 0;
    bool found = ue_parkan_wear_read(cache, origin, model_dir, name, &data, &size, where, sizeof where);
    if (!found) {
        ue_diag_add(d, UE_SEV_WARNING, "msh.material.wear", UE_NO_OFFSET, "msh/materials",
                    "no WEAR table %s (any letter case) in %s; every material is a placeholder", name, where);
        return false;
    }
    ue_diag scratch = {0};
    bool have = ue_wear_parse(data, size, 0, UE_MODE_TOLERANT, wear, &scratch) == UE_OK;
    if (scratch.count || !have)
        ue_diag_add(d, UE_SEV_WARNING, "msh.material.wear_damaged", UE_NO_OFFSET, "msh/materials",
                    "the WEAR table %s in %s is damaged (unearth validate says how)%s", name, where,
                    have ? "" : "; every material is a placeholder");
    ue_diag_free(&scratch);
    free(data);
    return have;
}

/* The model's WEAR: the one given (which must be there and valid: the conversion fails
 * otherwise), else the same-stem one beside the model (a warning when it is not). */
static ue_result load_wear(resolver *r) {
    const char *given = r->where->wear;
    if (!given) {
        r->have_wear = wear_load(r->where->cache, r->where->origin, r->model_dir, &r->wear, r->d);
        return UE_OK;
    }
    ue_result res = ue_wear_load(given, r->mode, &r->wear, r->d);
    if (res != UE_OK)
        ue_diag_add(r->d, UE_SEV_ERROR, "msh.material.wear_given", UE_NO_OFFSET, "msh/materials",
                    "the WEAR table %s given for the model cannot be used (above: why)", given);
    r->have_wear = res == UE_OK;
    return res;
}

ue_result ue_msh_wear_of(const char *origin, ue_wear *out, ue_diag *d) {
    char model_dir[PATH_CAP];
    memset(out, 0, sizeof *out);
    ue_parkan_origin_dir(origin, model_dir, sizeof model_dir);
    return wear_load(NULL, origin, model_dir, out, d) ? UE_OK : UE_ERR_INVALID;
}

/* ---- MAT0 and Texm ------------------------------------------------------------------------ */

/* Entry `name` of type `type` (the engine's case-folded lookup), or -1. */
static long find_entry(const library *lib, const char *name, uint32_t type) {
    size_t i;
    if (ue_nres_find(lib->nres, name, &i) && lib->nres->entries[i].type_id == type) return (long)i;
    for (i = 0; i < lib->nres->count; i++) {
        char nm[UE_NRES_NAME_SIZE + 1];
        ue_nres_entry_name(&lib->nres->entries[i], nm, sizeof nm);
        if (lib->nres->entries[i].type_id == type && ue_nres_name_compare(nm, name) == 0) return (long)i;
    }
    return -1;
}

/* The MAT0 entry for `name`; the engine's fallbacks "DEFAULT", then entry #0, with a warning. */
static long find_material(resolver *r, const char *name) {
    long i = find_entry(&r->materials, name, UE_MAT0_TYPE);
    if (i >= 0) return i;
    long def = find_entry(&r->materials, "DEFAULT", UE_MAT0_TYPE);
    if (def < 0 && r->materials.nres->count && r->materials.nres->entries[0].type_id == UE_MAT0_TYPE) def = 0;
    ue_diag_add(r->d, UE_SEV_WARNING, "msh.material.missing", UE_NO_OFFSET, "msh/materials",
                "material %s not found in %s; %s", name, r->materials.path,
                def < 0 ? "a placeholder is used" : def == 0 && find_entry(&r->materials, "DEFAULT", UE_MAT0_TYPE) < 0
                                                  ? "its entry #0 is used (no DEFAULT)" : "DEFAULT is used");
    return def;
}

static bool read_mat0(resolver *r, long i, ue_mat0 *m) {
    const ue_nres_entry *e = &r->materials.nres->entries[i];
    const uint8_t *data;
    uint8_t *to_free = NULL;
    if (ue_nres_payload(r->materials.nres, (size_t)i, &data, &to_free, NULL) != UE_OK) return false;
    ue_diag scratch = {0};
    ue_result res = ue_mat0_parse(data, e->size, e->attr2, e->data_offset, r->mode, m, &scratch);
    char nm[UE_NRES_NAME_SIZE + 1];
    ue_nres_entry_name(e, nm, sizeof nm);
    if (res != UE_OK || scratch.count)
        ue_diag_add(r->d, UE_SEV_WARNING, "msh.material.damaged", e->data_offset, "msh/materials",
                    "MAT0 %s in %s is damaged (unearth validate says how)%s", nm, r->materials.path,
                    res == UE_OK ? "" : "; a placeholder is used");
    ue_diag_free(&scratch);
    free(to_free);
    return res == UE_OK;
}

/* Level 0 of a Texm decoded to RGBA (malloc'd into *img). A palette texture uses its own
 * palette: palettes.lib is not looked up (docs/parkan-materials.md). */
static ue_result decode_rgba(const uint8_t *data, size_t size, ue_atlas_image *img, uint8_t **rgba) {
    ue_texm t;
    *rgba = NULL;
    ue_result res = ue_texm_parse(data, size, UE_MODE_TOLERANT, &t, NULL);
    if (res != UE_OK) return res;
    size_t bytes = t.level_count ? (size_t)t.levels[0].width * t.levels[0].height * 4 : 0;
    if (!bytes) res = UE_ERR_INVALID;
    else if (!(*rgba = malloc(bytes))) res = UE_ERR_NOMEM;
    if (res == UE_OK) res = ue_texm_decode_level(&t, 0, NULL, *rgba, bytes, NULL);
    if (res == UE_OK) *img = (ue_atlas_image){t.levels[0].width, t.levels[0].height, *rgba};
    else free(*rgba), *rgba = NULL;
    ue_texm_free(&t);
    return res;
}

/* Texm `name` from Textures.lib, decoded; its entry index in *entry. UE_ERR_INVALID (after a
 * warning naming what was looked for) when it cannot be had, UE_ERR_NOMEM when out of memory. */
static ue_result load_texm(resolver *r, const char *name, const char *material, ue_atlas_image *img,
                          uint8_t **rgba, long *entry) {
    if (!library_open(r, &r->textures)) {
        warn_library(r, &r->textures, "materials are untextured");
        return UE_ERR_INVALID;
    }
    long i = *entry = find_entry(&r->textures, name, UE_TEXM_MAGIC);
    if (i < 0) {
        ue_diag_add(r->d, UE_SEV_WARNING, "msh.texture.missing", UE_NO_OFFSET, "msh/materials",
                    "texture %s of material %s not found in %s; the material is untextured", name, material,
                    r->textures.path);
        return UE_ERR_INVALID;
    }
    const uint8_t *data;
    uint8_t *to_free = NULL;
    ue_result res = ue_nres_payload(r->textures.nres, (size_t)i, &data, &to_free, NULL);
    if (res == UE_OK) res = decode_rgba(data, r->textures.nres->entries[i].size, img, rgba);
    free(to_free);
    if (res == UE_OK || res == UE_ERR_NOMEM) return res;
    ue_diag_add(r->d, UE_SEV_WARNING, "msh.texture.damaged", r->textures.nres->entries[i].data_offset,
                "msh/materials", "texture %s in %s cannot be decoded (%s); material %s is untextured", name,
                r->textures.path, ue_result_name(res), material);
    return UE_ERR_INVALID;
}

/* Scene texture named `name` decoded from Textures.lib (reused when already there), or -1
 * with a warning. -2 when out of memory. */
static int32_t texture_for(resolver *r, const char *name, const char *material) {
    for (size_t t = r->first_texture; t < r->s->texture_count; t++)
        if (strcasecmp(r->s->textures[t].name, name) == 0) return (int32_t)t; /* one image per Texm */
    ue_atlas_image img;
    uint8_t *rgba;
    long i;
    ue_result res = load_texm(r, name, material, &img, &rgba, &i);
    if (res != UE_OK) return res == UE_ERR_NOMEM ? -2 : -1;
    /* Only a decoded image joins the scene. */
    int32_t ti = ue_scene_add_texture(r->s, name, img.width, img.height);
    if (ti >= 0) memcpy(r->s->textures[ti].rgba, rgba, (size_t)img.width * img.height * 4);
    free(rgba);
    if (ti < 0) return -2;
    ue_scene_texture *t = &r->s->textures[ti];
    t->source.offset = r->textures.nres->entries[i].data_offset;
    t->source.type = UE_TEXM_MAGIC;
    t->source.index = (uint32_t)i;
    memcpy(t->source.format, "texm", 5);
    return ti;
}

/* Alpha the way the images show it: all 255 opaque, only 0 or 255 a cut-out (MASK), any
 * other value blended. MAT0's own blend bits are not proven (docs/parkan-materials.md). */
static ue_alpha_mode alpha_of_images(const ue_atlas_image *img, size_t count) {
    bool partial = false, cut = false;
    for (size_t i = 0; i < count; i++)
        for (size_t p = 0; p < (size_t)img[i].width * img[i].height; p++) {
            uint8_t a = img[i].rgba[4 * p + 3];
            if (a == 0) cut = true;
            else if (a != 255) partial = true;
        }
    return partial ? UE_ALPHA_BLEND : cut ? UE_ALPHA_MASK : UE_ALPHA_OPAQUE;
}

static void set_alpha(ue_scene_material *mat, ue_alpha_mode mode) {
    mat->alpha_mode = mode;
    mat->alpha_cutoff = 0.5f;
}

/* ---- animated phases (mat0_phases.c) ------------------------------------------------------------ */

#define MAX_PHASE_CELLS 64 /* distinct phase textures in one atlas (stock files: at most 29 phases) */

static const uint8_t white_texel[4] = {255, 255, 255, 255}; /* an untextured phase shows white */

/* Does a primitive drawn with material `mi` tile its texture (UVs outside [0, 1])? An atlas
 * cell cannot repeat, so such a material keeps its phase-0 texture. One pass over the scene's
 * UVs answers it for every material (work linear in the vertices, however many materials). */
static bool uvs_tile(resolver *r, size_t mi) {
    const ue_scene *s = r->s;
    if (!r->tiles_known) {
        r->tiles_known = true;
        r->tiles = ue_calloc_items(s->material_count, sizeof *r->tiles);
        for (size_t m = 0; r->tiles && m < s->mesh_count; m++)
            for (size_t p = 0; p < s->meshes[m].primitive_count; p++) {
                const ue_scene_primitive *pr = &s->meshes[m].primitives[p];
                if (pr->material < 0 || (size_t)pr->material >= s->material_count || !pr->uv[0]) continue;
                for (size_t v = 0; v < 2 * (size_t)pr->vertex_count && !r->tiles[pr->material]; v++)
                    r->tiles[pr->material] = !(pr->uv[0][v] >= 0.0f && pr->uv[0][v] <= 1.0f);
            }
    }
    return !r->tiles || r->tiles[mi]; /* out of memory: the safe answer, phase 0 */
}

/* The phase textures the keys of `a` reach, each distinct name (any case) once: names into
 * `names`, the cell of each key into `cell_of_key`. The count; 0 when a key names no phase
 * (reported by the MAT0 reader), SIZE_MAX when there are more than MAX_PHASE_CELLS. */
static size_t phase_cells(const ue_mat0 *m, const ue_mat0_anim *a, char (*names)[UE_MAT0_NAME_BYTES + 1],
                          uint32_t *cell_of_key) {
    size_t n = 0;
    for (size_t k = 0; k < a->key_count; k++) {
        if (a->keys[k].k0 >= m->phase_count) return 0;
        char tex[UE_MAT0_NAME_BYTES + 1];
        ue_mat0_texture_name(&m->phases[a->keys[k].k0], tex);
        size_t c = 0;
        while (c < n && strcasecmp(names[c], tex) != 0) c++;
        if (c == n && n == MAX_PHASE_CELLS) return SIZE_MAX;
        if (c == n) memcpy(names[n++], tex, sizeof tex);
        cell_of_key[k] = (uint32_t)c;
    }
    return n;
}

/* Decodes every cell's texture; UE_ERR_INVALID (warned) when one cannot be had. */
static ue_result load_cells(resolver *r, char (*names)[UE_MAT0_NAME_BYTES + 1], size_t n, const char *material,
                            ue_atlas_image *img, uint8_t **rgba) {
    ue_result res = UE_OK;
    for (size_t c = 0; c < n && res == UE_OK; c++) {
        long entry;
        if (!names[c][0]) img[c] = (ue_atlas_image){1, 1, white_texel};
        else res = load_texm(r, names[c], material, &img[c], &rgba[c], &entry);
    }
    return res;
}

/* Why a material with several phases keeps phase 0; NULL when its block can be animated. */
static const char *static_reason(resolver *r, size_t mi, const ue_mat0_anim *a) {
    uint32_t mode = ue_mat0_anim_mode(a);
    if (mode == UE_MAT0_MODE_RANDOM) return "picks its phases at random (mode 3), which a glTF clip cannot";
    if (mode > UE_MAT0_MODE_RANDOM) return "has an animation mode (header & 7) the engine does not define";
    if (uvs_tile(r, mi)) return "tiles its texture (UVs outside [0, 1]), which an atlas cell cannot";
    return NULL;
}

/* The phase atlas of one Material.lib entry, built for the first material that uses the entry
 * and shared by every later one (WEAR rows may name one MAT0 many times): each row costs a
 * slot and a clip, never another atlas. */
typedef enum atlas_state { ATLAS_UNTRIED = 0, ATLAS_BUILT, ATLAS_NONE } atlas_state;
typedef struct entry_atlas {
    atlas_state state;
    int32_t texture;          /* the scene texture holding the atlas */
    ue_atlas layout;          /* the texels live in the scene texture */
    uint32_t *cell_of_key;    /* the atlas cell of each key of block 0 */
    ue_alpha_mode alpha;      /* of the cells' images */
} entry_atlas;

/* The atlas record of Material.lib entry `entry`; NULL out of memory. */
static entry_atlas *atlas_of(resolver *r, long entry) {
    if (!r->atlases) r->atlases = calloc(r->materials.nres->count, sizeof *r->atlases);
    return r->atlases ? &r->atlases[entry] : NULL;
}

static void free_atlases(resolver *r) {
    for (size_t i = 0; r->atlases && i < r->materials.nres->count; i++) {
        free(r->atlases[i].cell_of_key);
        ue_atlas_free(&r->atlases[i].layout);
    }
    free(r->atlases);
}

/* Builds entry `ea`'s atlas (a texture named after material `mi`) from block `a` of `m`: state
 * ATLAS_BUILT, or ATLAS_NONE when the phases cannot make one (reported). UE_ERR_NOMEM only. */
static ue_result build_atlas(resolver *r, size_t mi, const ue_mat0 *m, const ue_mat0_anim *a, const char *name,
                             entry_atlas *ea) {
    ea->state = ATLAS_NONE;
    char(*names)[UE_MAT0_NAME_BYTES + 1] = malloc(MAX_PHASE_CELLS * sizeof *names);
    ea->cell_of_key = malloc(a->key_count * sizeof *ea->cell_of_key);
    ue_atlas_image img[MAX_PHASE_CELLS];
    uint8_t *rgba[MAX_PHASE_CELLS] = {0};
    ue_result res = UE_OK;
    size_t n = names && ea->cell_of_key ? phase_cells(m, a, names, ea->cell_of_key) : 0;
    if (!names || !ea->cell_of_key) res = UE_ERR_NOMEM;
    if (n == SIZE_MAX) res = UE_ERR_LIMIT, n = 0; /* more textures than cells: said below */
    if (n > 1) res = load_cells(r, names, n, name, img, rgba);
    if (n > 1 && res == UE_OK) res = ue_atlas_layout(img, n, &ue_mat0_atlas_style, &ea->layout);
    if (n > 1 && res == UE_OK) {
        char tex[64];
        snprintf(tex, sizeof tex, "%s.phases", r->s->materials[mi].name);
        ea->texture = ue_atlas_texture(r->s, &ea->layout, img, tex, -1);
        if (ea->texture < 0) res = UE_ERR_NOMEM;
        else ea->state = ATLAS_BUILT, ea->alpha = alpha_of_images(img, n);
    } else if (res == UE_ERR_LIMIT) {
        ue_diag_add(r->d, UE_SEV_INFO, "msh.material.phases", UE_NO_OFFSET, "msh/materials",
                    "material %s: its phase textures exceed an atlas (%d cells, %u texels a side); phase 0 is "
                    "exported", name, MAX_PHASE_CELLS, UE_MAT0_ATLAS_MAX_SIDE);
    }
    for (size_t c = 0; c < n; c++) free(rgba[c]);
    free(names);
    return res == UE_ERR_NOMEM ? res : UE_OK; /* anything else: phase 0, already reported */
}

/* The atlas and clip of a material whose block 0 switches between different textures, the
 * atlas of its Material.lib entry `entry` built on first use. false (phase 0 is exported) when
 * that is not possible; *res carries out-of-memory. */
static bool animate_phases(resolver *r, size_t mi, long entry, const ue_mat0 *m, const char *name,
                           ue_result *res) {
    *res = UE_OK;
    if (m->phase_count < 2 || !m->anim_count || !ue_mat0_cycle(&m->anims[0])) return false;
    const ue_mat0_anim *a = &m->anims[0];
    const char *why = static_reason(r, mi, a);
    if (why) {
        ue_diag_add(r->d, UE_SEV_INFO, "msh.material.phases", UE_NO_OFFSET, "msh/materials",
                    "material %s %s: its phase-0 texture is exported", name, why);
        return false;
    }
    entry_atlas *ea = atlas_of(r, entry);
    if (!ea) *res = UE_ERR_NOMEM;
    else if (ea->state == ATLAS_UNTRIED) *res = build_atlas(r, mi, m, a, name, ea);
    if (*res != UE_OK || ea->state != ATLAS_BUILT) return false;
    *res = ue_mat0_animate(r->s, (int32_t)mi, a, &ea->layout, ea->cell_of_key, ea->texture);
    if (*res == UE_OK) set_alpha(&r->s->materials[mi], ea->alpha);
    bool done = *res == UE_OK;
    if (*res != UE_ERR_NOMEM) *res = UE_OK; /* anything else: phase 0 */
    return done;
}

/* ---- one material ----------------------------------------------------------------------------- */

static ue_result dress_texture(resolver *r, size_t mi, const char *name, const char *tex) {
    int32_t ti = texture_for(r, tex, name);
    if (ti == -2) return UE_ERR_NOMEM;
    ue_scene_material *mat = &r->s->materials[mi];
    if (ti < 0) {
        for (int c = 0; c < 3; c++) mat->base_color[c] = 0.8f; /* grey: the texture is missing */
        return UE_OK;
    }
    if (ue_scene_add_texture_slot(r->s, (int32_t)mi, UE_TEX_BASE_COLOR, ti, 0) < 0) return UE_ERR_NOMEM;
    const ue_scene_texture *t = &r->s->textures[ti];
    ue_atlas_image img = {t->width, t->height, t->rgba};
    set_alpha(mat, alpha_of_images(&img, 1));
    return UE_OK;
}

static ue_result dress_material(resolver *r, size_t mi, const char *name) {
    ue_mat0 m;
    long entry = find_material(r, name);
    if (entry < 0 || !read_mat0(r, entry, &m)) return UE_OK;
    ue_scene_material *mat = &r->s->materials[mi];
    ue_result res = ue_extras_set_number(&mat->extras, "mat0_attr1", r->materials.nres->entries[entry].attr1);
    if (res == UE_OK) res = ue_extras_set_number(&mat->extras, "mat0_phases", m.phase_count);
    if (res == UE_OK && m.anim_count) res = ue_extras_set_number(&mat->extras, "mat0_anim_blocks", m.anim_count);
    char tex[UE_MAT0_NAME_BYTES + 1];
    ue_mat0_texture_name(&m.phases[0], tex);
    for (int c = 0; c < 4; c++) mat->base_color[c] = 1.0f;
    if (res == UE_OK && tex[0]) res = ue_extras_set_string(&mat->extras, "texture", tex);
    bool animated = res == UE_OK && animate_phases(r, mi, entry, &m, name, &res);
    ue_mat0_free(&m);
    if (res != UE_OK || animated || !tex[0]) return res; /* no texture: intentionally untextured */
    return dress_texture(r, mi, name, tex);
}

/* The WEAR row of a material made by msh_scene.c, or -1. */
static long wear_row_of(const ue_scene_material *mat) {
    for (size_t k = 0; k < mat->extras.count; k++)
        if (strcmp(mat->extras.items[k].key, UE_MSH_WEAR_ROW_KEY) == 0 && mat->extras.items[k].kind == UE_EXTRA_NUMBER)
            return (long)mat->extras.items[k].number;
    return -1;
}

static ue_result resolve_one(resolver *r, size_t mi) {
    long row = wear_row_of(&r->s->materials[mi]);
    if (row < 0 || !r->have_wear) return UE_OK;
    if ((size_t)row >= r->wear.material_count) {
        ue_diag_add(r->d, UE_SEV_WARNING, "msh.material.row", UE_NO_OFFSET, "msh/materials",
                    "a batch uses WEAR row %ld, the table has %zu rows; a placeholder is used", row,
                    r->wear.material_count);
        return UE_OK;
    }
    const char *name = r->wear.materials[row].name;
    ue_cp1251_to_utf8(name, r->s->materials[mi].name, sizeof r->s->materials[mi].name);
    if (!library_open(r, &r->materials)) {
        warn_library(r, &r->materials, "every material is a placeholder");
        return UE_OK;
    }
    return dress_material(r, mi, name);
}

ue_result ue_msh_resolve_materials(ue_scene *s, size_t first_material, const ue_parkan_search *where,
                                   ue_mode mode, ue_diag *d) {
    if (!where || (!where->origin && !where->wear)) {
        ue_diag_add(d, UE_SEV_INFO, "msh.material.origin", UE_NO_OFFSET, "msh/materials",
                    "the model's location is unknown: its WEAR table and libraries are not looked for");
        return UE_OK;
    }
    resolver r;
    memset(&r, 0, sizeof r);
    r.s = s, r.mode = mode, r.d = d, r.where = where, r.first_texture = s->texture_count;
    r.materials.file = "Material.lib";
    r.textures.file = "Textures.lib";
    /* Without the model's location, the libraries are looked for from the given WEAR's folder. */
    ue_parkan_origin_dir(where->origin ? where->origin : where->wear, r.model_dir, sizeof r.model_dir);
    ue_result res = load_wear(&r);
    for (size_t mi = first_material; mi < s->material_count && res == UE_OK; mi++) res = resolve_one(&r, mi);
    free_atlases(&r); /* before the library: one record per entry of its directory */
    library_close(&r.materials);
    library_close(&r.textures);
    ue_wear_free(&r.wear);
    free(r.tiles);
    return res;
}
