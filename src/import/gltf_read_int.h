/* unearth internal — what the parts of the glTF reader share: the read context (JSON root,
 * loaded buffers, the decoded-bytes budget), JSON getters that report at a glTF path, accessors. */
#ifndef UE_IMPORT_GLTF_READ_INT_H
#define UE_IMPORT_GLTF_READ_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/json_doc.h"
#include "common/parse.h"
#include "unearth/scene.h"

/* One glTF buffer as bytes: the GLB BIN chunk, a decoded data: URI or an external file. */
typedef struct gr_buffer {
    const uint8_t *data;
    size_t size;        /* the buffer's byteLength (the bytes beyond it are ignored) */
    uint8_t *owned;     /* what to free (a data: URI); NULL for the BIN chunk and files (shared) */
    uint64_t file_base; /* offset of byte 0 in the outermost input, UE_NO_OFFSET if elsewhere */
} gr_buffer;

/* One external file the document names, read once however many buffers and images name it. */
typedef struct gr_file {
    char *path;          /* base_dir + "/" + the decoded URI, as opened */
    uint64_t dev, ino;   /* its identity: two URIs spelling one file share one read */
    uint8_t *data;
    size_t size;
} gr_file;

typedef struct gr_ctx {
    ue_parse_ctx pc;
    ue_scene *s;
    ue_jdoc doc;                 /* the parsed JSON, one arena */
    const ue_jv *root;
    const char *base_dir;        /* NULL: external URIs refused */
    const uint8_t *bin;          /* GLB BIN chunk, or NULL */
    size_t bin_size;
    uint64_t bin_offset;         /* file offset of the BIN chunk's data */
    gr_buffer *buffers;
    size_t buffer_count;
    gr_file *files;              /* every distinct external file read so far */
    size_t file_count, file_cap;
    size_t input_bytes;          /* the document plus every distinct file it names */
    size_t budget;               /* decoded bytes still allowed (bounded work) */
} gr_ctx;

/* ---- reporting (gltf_read.c) ----------------------------------------------------------- */

/* An error that fails the read in both modes; returns false so callers can `return gr_fail(…)`. */
bool gr_fail(gr_ctx *c, const char *code, uint64_t offset, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* A warning in both modes (something read differently or left out, never silently). */
void gr_warn(gr_ctx *c, const char *code, const char *path, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Takes `bytes` from the decoded-bytes budget; false (with an error at `path`) when it is spent. */
bool gr_charge(gr_ctx *c, size_t bytes, const char *path);

/* ---- JSON getters: each checks the type and reports at path + "/" + key ------------------- */

/* The array `key` of `obj` (NULL when absent; *ok false, reported, when not an array). */
const ue_jv *gr_array(gr_ctx *c, const ue_jv *obj, const char *key, const char *path, bool *ok);
/* The object `key` of `obj` (NULL when absent; *ok false when not an object). */
const ue_jv *gr_object(gr_ctx *c, const ue_jv *obj, const char *key, const char *path, bool *ok);
/* An index in [0, limit) or -1 when absent and not required. */
bool gr_index(gr_ctx *c, const ue_jv *obj, const char *key, size_t limit, bool required,
              const char *path, int32_t *out);
/* A non-negative integer ≤ max (def when absent). */
bool gr_uint(gr_ctx *c, const ue_jv *obj, const char *key, uint64_t max, uint64_t def, bool required,
             const char *path, uint64_t *out);
/* A finite number (def when absent). */
bool gr_number(gr_ctx *c, const ue_jv *obj, const char *key, double def, const char *path, double *out);
/* Exactly n finite numbers into out (left as is when absent); *present tells which. */
bool gr_floats(gr_ctx *c, const ue_jv *obj, const char *key, size_t n, const char *path, float *out,
               bool *present);
/* A string (def when absent). */
bool gr_string(gr_ctx *c, const ue_jv *obj, const char *key, const char *def, const char *path,
               const char **out);
/* A boolean (def when absent). */
bool gr_bool(gr_ctx *c, const ue_jv *obj, const char *key, bool def, const char *path, bool *out);
/* Copies a glTF name into a 64-byte IR name, cut before a UTF-8 character that does not fit. */
bool gr_name(gr_ctx *c, const ue_jv *obj, const char *path, char out[64]);
/* asset.extras.unearth_selection into the scene's selection; a malformed one is reported and
 * left out (it is a hint, never required). */
void gr_selection(gr_ctx *c, const ue_jv *asset);
/* Reads `extras` of obj: unearth_source into *src (may be NULL), other numbers and strings into
 * *x (may be NULL); unearth_clip into *clip for animations (may be NULL). */
bool gr_extras(gr_ctx *c, const ue_jv *obj, const char *path, ue_source_id *src, ue_extras *x,
               ue_scene_animation *clip);

/* Warns (gltf.extension.skipped) for each entry of obj's "extensions" other than `known` (may
 * be NULL): what the reader does not read is reported, never dropped silently. */
bool gr_other_extensions(gr_ctx *c, const ue_jv *obj, const char *path, const char *known);

/* ---- accessors (gltf_read_accessor.c) --------------------------------------------------- */

/* glTF componentType values. */
enum { GR_BYTE = 5120, GR_UBYTE = 5121, GR_SHORT = 5122, GR_USHORT = 5123, GR_UINT = 5125,
       GR_FLOAT = 5126 };
#define GR_CT(t) (1u << ((t) - GR_BYTE))

/* What a use of an accessor allows. */
typedef struct gr_acc_rule {
    unsigned comps;      /* bit n: n components allowed (1, 2, 3, 4, 16) */
    unsigned ctypes;     /* GR_CT(…) bits */
    bool ints_normalized;/* integer types must be normalized (UVs, colours, weights) */
    bool as_uint;        /* integer output (indices, joints); else float */
} gr_acc_rule;

/* An accessor's values, sparse substitution applied. */
typedef struct gr_acc {
    uint32_t count;      /* elements */
    uint32_t comps;      /* components per element */
    int ctype;
    float *f;            /* count × comps when !as_uint (malloc; the caller takes it) */
    uint32_t *u;         /* count × comps when as_uint */
} gr_acc;

/* Reads accessor `index` for a use at `path` (the referring property, e.g.
 * "/meshes/0/primitives/1/attributes/NORMAL"): types checked against `rule`, every byte range
 * checked, floats finite. */
bool gr_accessor(gr_ctx *c, int32_t index, const char *path, const gr_acc_rule *rule, gr_acc *out);
/* The number of accessors (0 when absent). */
size_t gr_accessor_count(gr_ctx *c);
/* A buffer view's bytes (images): range checked. */
bool gr_view_bytes(gr_ctx *c, int32_t view, const char *path, const uint8_t **data, size_t *size);

/* ---- the parts ------------------------------------------------------------------------- */

bool gr_read_buffers(gr_ctx *c);
bool gr_read_nodes(gr_ctx *c);
bool gr_read_meshes(gr_ctx *c);
bool gr_read_materials(gr_ctx *c);   /* textures and images first, then materials */
bool gr_read_skins(gr_ctx *c);
bool gr_read_animations(gr_ctx *c);
/* Decodes a data: URI ("data:[mime][;base64],payload") into *out (malloc). */
bool gr_data_uri(gr_ctx *c, const char *uri, const char *path, uint8_t **out, size_t *size,
                 char *mime, size_t mime_cap);
/* The bytes of the file a relative URI names under base_dir (owned by the context: a file named
 * by several buffers or images is read, kept and counted into input_bytes once); absolute paths,
 * schemes and ".." segments are refused. */
bool gr_external_uri(gr_ctx *c, const char *uri, const char *path, const uint8_t **out, size_t *size);

#endif
