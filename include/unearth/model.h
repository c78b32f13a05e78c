/* unearth — the model registry: every model format the library reads (model_format.h), found
 * by probing bytes, collected from files and containers at any depth, and converted by name. */
#ifndef UNEARTH_MODEL_H
#define UNEARTH_MODEL_H

#include "unearth/common.h"
#include "unearth/model_format.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every registered format, in probe order (docs/models.md). */
UE_API const ue_model_format *const *ue_model_formats(size_t *count);
/* The format named `name` ("msh"), or NULL. */
UE_API const ue_model_format *ue_model_format_find(const char *name);
/* The first format whose probe accepts the bytes, or NULL when they are no model. */
UE_API const ue_model_format *ue_model_probe(const uint8_t *data, size_t size);

/* UE_OK when every key in `opts` is one the format documents; otherwise the error
 * model.option.unknown, which names the format and the options it does take, and
 * UE_ERR_USAGE. */
UE_API ue_result ue_model_options_check(const ue_model_format *f, const ue_model_options *opts,
                                 ue_diag *d);

/* One model reachable from a path. Owns its bytes. */
typedef struct ue_model_found {
    char name[512];                /* "archive.rlb:ROBOT.msh" or the file path, UTF-8 */
    const ue_model_format *format;
    uint8_t *data;
    size_t size;
    /* How much of `name` names the model (ue_model_title_length); 0 (a struct filled by hand):
     * all of it. A field added in 0.2.0: the struct grew, so rebuild against this header. */
    size_t title_length;
} ue_model_found;

/* Every model reachable from `path`: a bare model, or every model inside a container at any
 * depth (containers are walked through the archive layer and each entry is probed, in
 * registry order, before it is opened as a container), or one addressed as ARCHIVE:ENTRY.
 * A path that is neither a model nor a container fails as ue_archive_open does. */
UE_API ue_result ue_model_collect(const char *path, ue_mode mode, ue_model_found **items, size_t *count,
                           ue_diag *d);
/* The same for a file already in memory (`data` stays the caller's), named `name` in the
 * addresses of its models ("name:ENTRY"): a batch reads each small file with one read. */
UE_API ue_result ue_model_collect_memory(const uint8_t *data, size_t size, const char *name, ue_mode mode,
                                         ue_model_found **items, size_t *count, ue_diag *d);
/* The model at `path` itself (a file or ARCHIVE:ENTRY), without looking inside containers;
 * UE_ERR_UNSUPPORTED when the bytes are no model. `item` is the caller's; item->data is a new
 * allocation the caller frees with free() (NULL on failure). */
UE_API ue_result ue_model_load(const char *path, ue_mode mode, ue_model_found *item, ue_diag *d);
/* Frees what ue_model_collect returned: every item's bytes, then the array. */
UE_API void ue_model_found_free(ue_model_found *items, size_t count);

/* How much of a model's address (m->name) names it: the address without the entries at its end
 * that a container named itself because its file stores no names (a PKX's "model.dat", a
 * standalone LZSS file's "decoded.EXT"). "a.fsys:creature.pkx:model.dat" is named by
 * "a.fsys:creature.pkx", "c.lzss:decoded.pkx:model.dat" by "c.lzss", "objects.rlb:ROBOT.msh" by
 * all of it, and so is an NRes entry that happens to be called "model.dat": only the container
 * that made a name up (as the walk that found the model knows) passes it over. Returns
 * m->title_length, or the whole name's length when that is 0 or longer (never 0 for a
 * non-empty name). New in 0.2.0. */
UE_API size_t ue_model_title_length(const ue_model_found *m);

/* Checks the options (NULL: the format's defaults) against the model's format, then converts
 * it (the format's to_scene) into `s`, which the caller initialised and frees. The model's
 * bytes stay the caller's. */
UE_API ue_result ue_model_to_scene(const ue_model_found *m, const char *name, ue_mode mode,
                            const ue_model_options *opts, ue_scene *s, ue_diag *d);

/* One read for a model's verdict and its scene (docs/architecture.md#one-read-per-input).
 * The format's validate on (data, size); when `kept` is given and the format reads once (its
 * read_once hooks), *kept gets the model as it was read, else NULL. New in 0.3.0. */
UE_API ue_result ue_model_validate_kept(const ue_model_format *f, const uint8_t *data, size_t size, ue_mode mode,
                                        ue_model_check *out, ue_diag *d, ue_model_kept **kept);
/* ue_model_to_scene from what ue_model_validate_kept kept of `m` (consumed, whatever the
 * result), without reading m->data again; with `kept` NULL, ue_model_to_scene itself. The
 * same scene, result and diagnostics either way. New in 0.3.0. */
UE_API ue_result ue_model_to_scene_kept(const ue_model_found *m, ue_model_kept *kept, const char *name, ue_mode mode,
                                        const ue_model_options *opts, ue_scene *s, ue_diag *d);
/* Frees what ue_model_validate_kept kept of a model of format `f` (NULL: nothing). */
UE_API void ue_model_kept_free(const ue_model_format *f, ue_model_kept *kept);

/* The model's textures decoded (its format's `images` hook), appended to `out`, which the
 * caller zeroed and frees with ue_model_images_free. UE_ERR_UNSUPPORTED (with the diagnostic
 * model.images.none) when the format carries no images. */
UE_API ue_result ue_model_images_get(const ue_model_found *m, ue_mode mode, bool all_levels,
                                     ue_model_images *out, ue_diag *d);
/* The same with format options (at most UE_MODEL_IMAGES_MAX_OPTIONS; NULL: none) for a format
 * whose images come from its scene, as `textures --wear` gives MSH its option "wear"; the
 * option "origin" (the model's address) is added when the format declares it. */
#define UE_MODEL_IMAGES_MAX_OPTIONS 8
UE_API ue_result ue_model_images_get_with(const ue_model_found *m, ue_mode mode, bool all_levels,
                                          const ue_model_options *opts, ue_model_images *out, ue_diag *d);

#ifdef __cplusplus
}
#endif
#endif
