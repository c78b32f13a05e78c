/* unearth — the interface a model format implements to join the registry (model.h): probe,
 * to_scene, info, validate and roundtrip over a model's bytes, with its own key=value options. */
#ifndef UNEARTH_MODEL_FORMAT_H
#define UNEARTH_MODEL_FORMAT_H

#include "unearth/common.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options: a small key=value list that each format parses and documents ---------------- */

typedef struct ue_model_option {
    const char *key;   /* "lod" */
    const char *value; /* "1" */
} ue_model_option;

typedef struct ue_model_options {
    const ue_model_option *items; /* borrowed */
    size_t count;
    ue_cache *cache;              /* borrowed, optional: companions read once for many models */
} ue_model_options;

/* One option a format accepts, for its documentation and for refusing the others. */
typedef struct ue_model_option_def {
    const char *key;
    const char *help;  /* range and default, one line */
} ue_model_option_def;

/* The value of `key` (the last one given wins), or NULL when absent; opts may be NULL. */
UE_API const char *ue_model_option_get(const ue_model_options *opts, const char *key);
/* `key` as a decimal integer in [min, max], or `fallback` when absent. A value that is not a
 * number or out of range adds the error model.option.value (naming the format) and returns
 * UE_ERR_USAGE. */
UE_API ue_result ue_model_option_int(const ue_model_options *opts, const char *format, const char *key,
                              long min, long max, long fallback, long *out, ue_diag *d);

/* ---- what validate and roundtrip report per model ----------------------------------------- */

typedef struct ue_model_check {
    /* validate in tolerant mode: reading had to leave a part of the model out (a strict read
     * fails), which makes the verdict DAMAGED */
    bool lost_parts;
    /* validate: how many times the format parsed the model's bytes (1; 2 in tolerant mode when
     * a strict parse had to tell what was lost); 0 where the format does not count. New in 0.3.0 */
    unsigned reads;
    /* one line without the verdict: "6 nodes, 3 batches, 120 vertices, 40 triangles" for
     * validate, "12 tables decoded and re-encoded" for roundtrip; "" when there is nothing */
    char summary[160];
    /* validate: the format's statistics, the calls of a ue_json writer that write one JSON
     * object, recorded (ue_json_init_record; empty when there are none): ue_json_replay_members
     * puts its keys into a caller's object (the CLI's per-model report), ue_json_replay into a
     * text writer gives its JSON text. The caller frees it with ue_buf_free. Changed in 0.3.0
     * (was a jansson json_t) */
    ue_buf stats;
} ue_model_check;

/* ---- images: the textures a model carries, decoded (the `textures` verb) ------------------ */

#define UE_MODEL_MAX_LEVELS 16 /* mip levels kept per image */

typedef struct ue_model_image_level {
    uint32_t width, height;
    uint8_t *rgba;               /* width × height × 4 bytes, rows top to bottom (malloc) */
} ue_model_image_level;

typedef struct ue_model_image {
    char name[64];               /* the model's name for it, unique within one list */
    uint32_t level_count;        /* 1, or every stored mip level when asked for */
    ue_model_image_level levels[UE_MODEL_MAX_LEVELS];
    ue_source_id source;         /* the struct it was decoded from */
} ue_model_image;

typedef struct ue_model_images {
    ue_model_image *items;
    size_t count;
} ue_model_images;

/* Appends an image with `level_count` zeroed levels (rgba NULL) and returns it, or NULL when
 * out of memory or level_count is 0 or above UE_MODEL_MAX_LEVELS. */
UE_API ue_model_image *ue_model_images_add(ue_model_images *l, const char *name,
                                           uint32_t level_count);
/* Frees every level of every image and the list; safe on a zeroed or half-filled list. */
UE_API void ue_model_images_free(ue_model_images *l);

/* ---- one read for a model's verdict and its scene (optional) ----------------------------- */

/* What a format keeps of a model its validate read: the format's own (opaque here), owning
 * every byte it needs, so the model's bytes may be freed once it is kept. */
typedef struct ue_model_kept ue_model_kept;

/* The hooks of a format that reads a model once for both validate and to_scene
 * (docs/architecture.md#one-read-per-input); all three are set. */
typedef struct ue_model_read_once {
    /* validate, which also hands back the model as it read it in *kept when that read
     * succeeded (NULL otherwise): the same result, check and diagnostics as validate. */
    ue_result (*validate)(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                          ue_diag *d, ue_model_kept **kept);
    /* to_scene on a kept model, which it consumes (freed, whatever the result): the same
     * scene, result and diagnostics as to_scene on the bytes, those of the read included. */
    ue_result (*to_scene)(ue_model_kept *kept, const char *name, ue_mode mode,
                          const ue_model_options *opts, ue_scene *s, ue_diag *d);
    /* Frees a kept model no scene was made of; NULL is a no-op. */
    void (*free)(ue_model_kept *kept);
} ue_model_read_once;

/* ---- the format ------------------------------------------------------------------------ */

typedef struct ue_model_format {
    const char *name;        /* short and stable: "msh" (JSON "format", option errors) */
    const char *description; /* one line for people: "Parkan MSH model" */
    const ue_model_option_def *options; /* what to_scene accepts (NULL/0: no options) */
    size_t option_count;

    /* Is this byte range one of my models? Cheap, never fails loudly, no diagnostics. Probed in
     * registry order, before a container is opened: a model that is itself a container (MSH is
     * a nested NRes) must be recognised first. */
    bool (*probe)(const uint8_t *data, size_t size);

    /* The model as a scene, appended under a root node named `name`; the options are already
     * checked against `options`. A selection without geometry is an error naming what exists.
     * NULL for a format that has no geometry at all (a bare texture): convert passes such
     * inputs over or refuses them (docs/models.md), ue_model_to_scene says UE_ERR_UNSUPPORTED. */
    ue_result (*to_scene)(const uint8_t *data, size_t size, const char *name, ue_mode mode,
                          const ue_model_options *opts, ue_scene *s, ue_diag *d);

    /* Statistics as one JSON object recorded into `stats` as ue_model_check.stats is (counts
     * and tables, no "file" or "format" key; changed in 0.3.0, was a jansson json_t) and the
     * same for people in `text` (lines indented by two spaces); either may be NULL. */
    ue_result (*info)(const uint8_t *data, size_t size, ue_mode mode, ue_buf *stats,
                      ue_buf *text, ue_diag *d);

    /* Reads the model in `mode`, all diagnostics to `d`; fills `out` (summary and stats). */
    ue_result (*validate)(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                          ue_diag *d);

    /* Decode → encode → compare: UE_ERR_MISMATCH when the bytes differ. NULL when the format
     * has no writer. */
    ue_result (*roundtrip)(const uint8_t *data, size_t size, ue_mode mode, ue_model_check *out,
                           ue_diag *d);

    /* The textures the model holds, decoded to RGBA (level 0, or every mip level with
     * all_levels), appended to `out`; nothing appended on failure. NULL when the format holds
     * no images (docs/models.md: how a family joins the `textures` verb). */
    ue_result (*images)(const uint8_t *data, size_t size, ue_mode mode, bool all_levels,
                        ue_model_images *out, ue_diag *d);

    /* One read for validate and to_scene (see ue_model_read_once), or NULL: each reads the
     * model's bytes itself. A field added in 0.3.0: rebuild against this header. */
    const ue_model_read_once *read_once;
} ue_model_format;

#ifdef __cplusplus
}
#endif
#endif
