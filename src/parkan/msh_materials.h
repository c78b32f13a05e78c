/* unearth internal — the Parkan material chain of docs/formats/materials.md#chain for a converted MSH model: WEAR row
 * → MAT0 in Material.lib → phase texture → Texm in Textures.lib, found beside the model. */
#ifndef UE_PARKAN_MSH_MATERIALS_H
#define UE_PARKAN_MSH_MATERIALS_H

#include "unearth/nres.h"
#include "unearth/scene.h"

/* Where a model's companions are looked for. */
typedef struct ue_parkan_search {
    const char *origin;   /* the model's path, FILE or ARCHIVE:ENTRY (chains allowed); NULL: unknown */
    const char *data_dir; /* a game folder searched first (convert --data), or NULL */
    const char *wear;     /* the model's WEAR table, FILE or ARCHIVE:ENTRY (convert --wear), or NULL:
                           * the same-stem one beside the model */
    ue_cache *cache;      /* companions read once for every model of a run, or NULL: per model */
} ue_parkan_search;

/* The scene key of a material made for a WEAR row (a number extra). */
#define UE_MSH_WEAR_ROW_KEY "wear_row"
#define UE_PARKAN_MAX_PARENT_DIRS 32

/* Gives the materials [first_material, material_count) that carry a wear_row their MAT0
 * name, phase-0 texture and alpha mode. What cannot be found or read leaves a placeholder and
 * a warning naming what was looked for and where; only running out of memory fails. */
ue_result ue_msh_resolve_materials(ue_scene *s, size_t first_material, const ue_parkan_search *where,
                                   ue_mode mode, ue_diag *d);

/* The folder part of a model's origin (FILE or ARCHIVE:ENTRY: of the outermost file). */
void ue_parkan_origin_dir(const char *origin, char *out, size_t cap);

/* Finds `name` in folder `dir` ignoring ASCII case (as on the game's Windows file system) and
 * writes the path as it is on disk to `out`; false when absent. */
bool ue_parkan_find_file(const char *dir, const char *name, char *out, size_t cap);

/* The library `name` in data_dir, then in `start_dir` and each of its parents (at most
 * UE_PARKAN_MAX_PARENT_DIRS); its path into `out`, false when absent. */
bool ue_parkan_find_library(const char *data_dir, const char *start_dir, const char *name, char *out, size_t cap);

/* ---- companions found and read once per cache (msh_companions.c; c NULL: every time) ---- */

/* A library (Material.lib, Textures.lib) read whole, its NRes directory parsed. */
typedef struct ue_parkan_library {
    uint8_t *bytes;
    ue_source src;
    ue_nres nres;
} ue_parkan_library;

/* ue_parkan_find_library, its answer kept in `c`. */
bool ue_parkan_library_path(ue_cache *c, const char *data_dir, const char *model_dir, const char *name, char *out,
                            size_t cap);
/* The library at `path`, or NULL when it is no readable NRes. *owned is set when the value is
 * this caller's alone (no cache, or a full one): free it with ue_parkan_library_drop. */
const ue_parkan_library *ue_parkan_library_get(ue_cache *c, const char *path, ue_parkan_library **owned);
void ue_parkan_library_drop(void *lib);
/* The WEAR table `name` beside the model at `origin`: the first entry of that name (any letter
 * case) in the same archive for ARCHIVE:ENTRY, else the file in `model_dir`. Its bytes into
 * *data (free() them); *where names the archive or folder searched, found or not. */
bool ue_parkan_wear_read(ue_cache *c, const char *origin, const char *model_dir, const char *name, uint8_t **data,
                         size_t *size, char *where, size_t cap);

#endif
