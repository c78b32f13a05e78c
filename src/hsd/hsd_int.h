/* unearth — internal: what the HSD struct reader's files share (the read context, its offset →
 * row map, pointer following) and the vertex-descriptor layout rules the decoder checks too. */
#ifndef UNEARTH_HSD_INT_H
#define UNEARTH_HSD_INT_H

#include <string.h>

#include "unearth/hsd_model.h"
#include "common/bytes.h"
#include "common/parse.h"

#define HSD_MAX_DEPTH 1024u     /* joint tree depth (the header's promise) */
#define HSD_MAX_ATTRS 32u       /* vertex descriptors per PObj: GX has 26 attributes */
#define HSD_ENVELOPE_SLOTS 10u  /* envelopes a PObj draws with: GX PNMTX0..9 (docs/formats/hsd-model.md#envelopes) */
#define HSD_MAX_ENVELOPES 256u  /* envelopes read per list: bounds the work of overlapping lists */
#define HSD_MAX_WEIGHTS 64u     /* weights per envelope */
#define HSD_MAX_NAME 1024u      /* bytes of a name before its NUL */

/* One stored vertex component as the decoder reads it (docs/formats/hsd-model.md#attribute-values):
 * a U8/S8/U16/S16 integer (comp_type 0 … 3) times `scale` (2^-frac), or an F32 as it is. */
static inline double hsd_component_value(const uint8_t *p, uint32_t comp_type, double scale) {
    switch (comp_type) {
    case 0: return p[0] * scale;
    case 1: return (int8_t)p[0] * scale;
    case 2: return ue_load_u16be(p) * scale;
    case 3: return (int16_t)ue_load_u16be(p) * scale;
    default: {
        uint32_t bits = ue_load_u32be(p);
        float f;
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

/* The kinds of struct the map keeps apart: one data offset may be read as several kinds. */
typedef enum hsd_kind {
    HSD_K_JOINT = 1, HSD_K_DOBJ, HSD_K_MOBJ, HSD_K_TOBJ, HSD_K_IMAGE, HSD_K_TLUT, HSD_K_POBJ,
    HSD_K_ATTRS, HSD_K_ATTRS_BAD, HSD_K_ENVLIST, HSD_K_WEIGHTS, HSD_K_SCENE, HSD_K_SETSLOT,
    HSD_K_MODELSET,
    /* animation (hsd_read_anim.c) */
    HSD_K_ANIMJOINT, HSD_K_MATANIMJOINT, HSD_K_MATANIM, HSD_K_TEXANIM, HSD_K_AOBJ, HSD_K_FOBJ,
    HSD_K_ANIMSLOT, HSD_K_CLIPROOT,
    /* root structure checks (hsd_roots.c) */
    HSD_K_SHAPEANIMJOINT, HSD_K_SHAPEANIMDOBJ, HSD_K_SHAPEANIM, HSD_K_LIGHT, HSD_K_LIGHTSETS,
    HSD_K_MODELARRAY, HSD_K_FIGATREE
} hsd_kind;

/* Open-addressing map from (kind, data offset) to a row: every struct is read once. */
typedef struct hsd_map {
    uint64_t *keys; /* 0 = empty; else (kind << 32 | offset) + 1 */
    int32_t *rows;
    size_t cap, count;
} hsd_map;

/* One read in progress. */
typedef struct hsd_reader {
    ue_parse_ctx c;
    const ue_dat *dat;
    ue_hsd_model *m;
    hsd_map map;
    size_t steps;               /* structs read: the bounded-work test counts them */
} hsd_reader;

/* True when (kind, offset) was read before; *row is its row (-1: it was broken and dropped). */
bool hsd_map_find(const hsd_map *map, hsd_kind kind, uint32_t offset, int32_t *row);
/* Records a row; out of memory fails the read (UE_ERR_NOMEM) and returns false. */
bool hsd_map_put(hsd_reader *r, hsd_kind kind, uint32_t offset, int32_t row);
void hsd_map_free(hsd_map *map);

/* Follows the pointer field at data offset `field`: false for NULL and for a broken pointer (a
 * violation is reported at `path`: outside the data block, not 4-aligned when `align4`, or a
 * struct of `size` bytes not wholly inside). */
bool hsd_follow(hsd_reader *r, uint32_t field, uint32_t size, bool align4, const char *path,
                uint32_t *target);
/* The raw target of a pointer field kept, not followed (0 for NULL or a broken field, which is
 * reported at `path`). */
uint32_t hsd_raw_pointer(hsd_reader *r, uint32_t field, const char *path);
/* The NUL-terminated name the pointer field at `field` names, or NULL. */
const char *hsd_read_name(hsd_reader *r, uint32_t field, const char *path);
uint32_t hsd_u32(const hsd_reader *r, uint32_t off);
uint16_t hsd_u16(const hsd_reader *r, uint32_t off);
float hsd_f32(const hsd_reader *r, uint32_t off);
/* Records that memory ran out: the read fails in either mode. */
/* base + suffix, and base + name + "[index]", into out (cap bytes, cut as snprintf cuts): the
 * readers name every node they visit for messages they rarely write, so these spare them
 * printf's format machinery. */
void hsd_path_cat(char *out, size_t cap, const char *base, const char *suffix);
void hsd_path_index(char *out, size_t cap, const char *base, const char *name, size_t index);
void hsd_nomem(hsd_reader *r);
/* True when reading must stop (strict failure or no memory). */
bool hsd_stop(const hsd_reader *r);
/* The file offset of a data offset (data offsets count from the end of the DAT header). */
static inline uint64_t hsd_file_at(uint32_t data_offset) { return UE_DAT_HEADER + (uint64_t)data_offset; }
/* Room for one more row of a model table (its count implies the capacity); false after
 * hsd_nomem when memory runs out. Needs common/collections.h. */
#define HSD_GROW(r, items, count)                                                             \
    (ue_array_make_room((void **)&(items), (count), sizeof *(items), INT32_MAX) == UE_OK       \
         ? true                                                                               \
         : (hsd_nomem(r), false))

/* Reads joint row `j`'s DObj list (joint rows are all read before meshes, so envelope and skin
 * joints resolve at once). */
void hsd_read_joint_meshes(hsd_reader *r, int32_t j);

/* The Image / TLUT named by the pointer field at `field`: its row (a struct read before is the
 * same row), -1 for NULL or a broken struct (reported once, at `path`). */
int32_t hsd_read_image(hsd_reader *r, uint32_t field, const char *path);
int32_t hsd_read_tlut(hsd_reader *r, uint32_t field, const char *path);

/* Reads every set's animation trees into r->m->anims, bound to the tables already read
 * (hsd_read_anim.c); called once every joint and mesh row exists. */
void hsd_read_anims(hsd_reader *r);
void hsd_anims_free(ue_hsd_anims *a);

/* Reads the PObj chain whose head pointer is the field at `field` (paths "<base>/pobj[i]").
 * Returns the head row or -1. */
int32_t hsd_read_pobj_chain(hsd_reader *r, uint32_t field, const char *base);

/* The chain walk the DObj, TObj and PObj lists share (hsd_read_mesh.c): a struct read before
 * ends the walk (its rest was read with it); one of this very walk (row >= chain_start) is a
 * cycle, reported and dropped. `make` adds and reads a new row; `next_of` names a row's link. */
typedef int32_t (*hsd_make_row_fn)(hsd_reader *r, uint32_t off, const char *path, void *ctx);
typedef int32_t *(*hsd_next_of_fn)(hsd_reader *r, int32_t row);
int32_t hsd_walk_chain(hsd_reader *r, uint32_t field, hsd_kind kind, uint32_t size,
                       const char *base, const char *name, hsd_make_row_fn make,
                       hsd_next_of_fn next_of, int32_t chain_start, void *ctx);

/* ---- vertex descriptor layout (docs/formats/hsd-model.md#vertex-descriptor) ---- */

typedef struct hsd_attr_layout {
    uint32_t record_bytes; /* bytes the attribute takes in one display-list vertex */
    uint32_t elem_bytes;   /* bytes of one array element an index names (indexed types) */
    uint32_t comps;        /* components decoded (POS 2/3, NRM 3 or 9, TEX 1/2; colour 0) */
    uint32_t comp_bytes;   /* 1, 2 or 4; the colour format's size for CLR */
    uint32_t indices;      /* indices per vertex: 3 for NBT3, else 1 (indexed types) */
} hsd_attr_layout;

/* The layout of one descriptor, or false with *why naming what GX does not know (attribute,
 * type, component count or type). */
bool hsd_attr_layout_of(const ue_hsd_vtx_attr *a, hsd_attr_layout *out, const char **why);

/* Internal entry that also reports the number of structs read (tests bound the work). */
ue_result hsd_model_read_counted(const ue_dat *dat, ue_mode mode, ue_hsd_model *m, ue_diag *d,
                                 size_t *steps);

/* ue_hsd_pobj_decode with the PObj's struct path for its diagnostics (the owner's
 * "dat/joint[j]/dobj[k]/pobj[p]"); NULL: "dat/pobj[index]". */
ue_result hsd_pobj_decode_at(const ue_hsd_model *m, size_t index, const char *path, ue_mode mode,
                             ue_hsd_geometry *g, ue_diag *d);

/* Where the vertices of a decoded PObj lie in its display list, for edits in place
 * (hsd_import.c): the list offset of each vertex's first record, and every drawn record (the
 * same vertex recurs wherever the list repeats its record bytes). */
typedef struct hsd_records {
    uint32_t *first_at;            /* per vertex */
    uint32_t *occ_at, *occ_vertex; /* per drawn record: list offset and vertex */
    size_t occ_count;
    uint32_t record_bytes;         /* bytes of one vertex record */
} hsd_records;

/* hsd_pobj_decode_at that also fills `rec` (NULL: not wanted); freed with hsd_records_free,
 * already freed after a failure. */
ue_result hsd_pobj_decode_records(const ue_hsd_model *m, size_t index, const char *path, ue_mode mode,
                                  ue_hsd_geometry *g, hsd_records *rec, ue_diag *d);
void hsd_records_free(hsd_records *r);

#endif
