/* unearth — HSD models read from a DAT (docs/formats/hsd-model.md): the joint tree, meshes (DObj → PObj),
 * materials (MObj → Material, PE, TObj → Image, TLUT) and envelopes, as flat tables linked by index. */
#ifndef UNEARTH_HSD_MODEL_H
#define UNEARTH_HSD_MODEL_H

#include "unearth/common.h"
#include "unearth/hsd.h"
#include "unearth/hsd_anim.h"
#include "unearth/model_format.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every struct is read once, whatever number of pointers name it: a table row per distinct data
 * offset (shared MObjs, TObjs, Images and PObj chains are shared rows). Links are indices into
 * the model's tables, -1 for NULL. `offset` is the struct's data offset in the DAT (add
 * UE_DAT_HEADER for the file offset). Byte views (`data`, `size`) point into the DAT the model
 * was read from (or, for a model built in memory for the writer, into the caller's buffers);
 * they live as long as that memory. */

#define UE_HSD_NONE (-1)

/* JObj flag bits (docs/formats/hsd-model.md#joint-flags) the library acts on; the rest are kept in `flags` as read. */
#define UE_JOBJ_SKELETON 0x1u
#define UE_JOBJ_SKELETON_ROOT 0x2u
#define UE_JOBJ_ENVELOPE_MODEL 0x4u
#define UE_JOBJ_CLASSICAL_SCALE 0x8u
#define UE_JOBJ_HIDDEN 0x10u
#define UE_JOBJ_PTCL 0x20u
#define UE_JOBJ_LIGHTING 0x80u
#define UE_JOBJ_INSTANCE 0x1000u
#define UE_JOBJ_SPLINE 0x4000u
#define UE_JOBJ_OPA 0x40000u
#define UE_JOBJ_XLU 0x80000u
#define UE_JOBJ_TEXEDGE 0x100000u
#define UE_JOBJ_ROOT_OPA 0x10000000u
#define UE_JOBJ_ROOT_XLU 0x20000000u
#define UE_JOBJ_ROOT_TEXEDGE 0x40000000u

/* PObj flags (docs/formats/hsd-model.md#pobj). */
#define UE_POBJ_TYPE_MASK 0x3000u
#define UE_POBJ_SKIN 0x0000u
#define UE_POBJ_SHAPEANIM 0x1000u
#define UE_POBJ_ENVELOPE 0x2000u
#define UE_POBJ_CULL_FRONT 0x4000u
#define UE_POBJ_CULL_BACK 0x8000u

/* GXAttr values of a vertex descriptor (docs/formats/hsd-model.md#vertex-descriptor). */
enum {
    UE_GX_VA_PNMTXIDX = 0,
    UE_GX_VA_TEX0MTXIDX = 1, /* .. 8 = TEX7MTXIDX */
    UE_GX_VA_POS = 9,
    UE_GX_VA_NRM = 10,
    UE_GX_VA_CLR0 = 11,
    UE_GX_VA_CLR1 = 12,
    UE_GX_VA_TEX0 = 13, /* .. 20 = TEX7 */
    UE_GX_VA_NBT = 25,
    UE_GX_VA_NULL = 0xFF
};
/* Attribute types. */
enum { UE_GX_NONE = 0, UE_GX_DIRECT = 1, UE_GX_INDEX8 = 2, UE_GX_INDEX16 = 3 };

typedef struct ue_hsd_joint {
    uint32_t offset;
    uint32_t flags;                /* UE_JOBJ_* and every other bit as stored */
    const char *class_name;        /* NUL-terminated inside the data block, or NULL */
    int32_t parent, first_child, next_sibling; /* joints */
    int32_t first_dobj;            /* dobjs: head of this joint's DObj list */
    float rotation[3];             /* Euler radians, applied X, then Y, then Z (docs/formats/hsd-model.md#joint-matrices) */
    float scale[3];
    float translation[3];
    bool has_inverse_bind;
    float inverse_bind[12];        /* 3×4 row-major as stored (+0x38); implicit last row 0 0 0 1 */
    uint32_t robj_offset;          /* +0x3C, kept raw (0 when NULL) */
    uint32_t extra_offset;         /* +0x10 when SPLINE or PTCL: kept raw, not a DObj */
    uint32_t instance_offset;      /* +0x08 when INSTANCE: the instanced tree, kept raw, not a child */
    uint32_t depth;                /* 0 for a tree root */
} ue_hsd_joint;

typedef struct ue_hsd_dobj {
    uint32_t offset;
    const char *name;
    int32_t next;                  /* dobjs */
    int32_t mobj;                  /* mobjs */
    int32_t first_pobj;            /* pobjs */
    int32_t joint;                 /* the joint whose list holds it (its owner) */
} ue_hsd_dobj;

typedef struct ue_hsd_material {   /* Material (0x14) */
    uint8_t ambient[4], diffuse[4], specular[4]; /* r, g, b, a */
    float alpha;                   /* opacity, 1 = opaque */
    float shininess;
} ue_hsd_material;

typedef struct ue_hsd_pe {         /* PEDesc (0x0C), bytes in file order */
    uint8_t flags, ref0, ref1, dst_alpha, type, src_factor, dst_factor, logic_op, z_comp,
        alpha_comp0, alpha_op, alpha_comp1;
} ue_hsd_pe;

typedef struct ue_hsd_mobj {
    uint32_t offset;
    const char *name;
    uint32_t render_mode;          /* bits of docs/formats/hsd-materials.md#render-mode */
    int32_t first_tobj;            /* tobjs: the texture chain */
    bool has_material, has_pe;
    ue_hsd_material material;
    ue_hsd_pe pe;
    uint32_t render_desc_offset;   /* +0x10, kept raw */
} ue_hsd_mobj;

typedef struct ue_hsd_image {      /* ImageDesc (0x18) and its pixels */
    uint32_t offset;
    uint32_t data_offset;          /* where the pixels start (data offset) */
    const uint8_t *data;           /* level 0 onwards */
    size_t size;                   /* the bytes every declared level needs (checked readable) */
    uint16_t width, height;
    uint32_t format;               /* ue_gx_format */
    bool mipmap;
    float min_lod, max_lod;
    uint32_t levels;               /* 1, or floor(max_lod) + 1 when mipmapped */
} ue_hsd_image;

typedef struct ue_hsd_tlut {       /* TlutDesc (0x10) and its entries */
    uint32_t offset;
    uint32_t data_offset;
    const uint8_t *data;           /* n_entries × u16 BE */
    uint32_t format;               /* ue_gx_tlut_format */
    uint32_t name_word;            /* +0x08, kept raw */
    uint16_t n_entries;
} ue_hsd_tlut;

typedef struct ue_hsd_tobj {
    uint32_t offset;
    const char *name;
    int32_t next;                  /* tobjs: next in the material's chain */
    uint32_t id;                   /* GXTexMapID (+0x08), TexAnims bind by it */
    uint32_t src;                  /* GXTexGenSrc: 4..11 = UV set 0..7 */
    float rotation[3], scale[3], translation[3];
    uint32_t wrap_s, wrap_t;       /* 0 CLAMP, 1 REPEAT, 2 MIRROR */
    uint8_t repeat_s, repeat_t;
    uint32_t flags;                /* coord mode, light map, colour/alpha op, BUMP */
    float blending;
    uint32_t mag_filter;
    int32_t image;                 /* images */
    int32_t tlut;                  /* tluts */
    uint32_t lod_offset, tev_offset; /* kept raw (0 when NULL) */
} ue_hsd_tobj;

typedef struct ue_hsd_vtx_attr {   /* one VtxDesc (0x18) */
    uint32_t offset;
    uint32_t attr, type, comp_count, comp_type;
    uint8_t frac;
    uint16_t stride;
    uint32_t array_offset;         /* data offset of the attribute array; 0 with has_array false */
    bool has_array;
    const uint8_t *array;          /* the array's bytes: read, up to the end of the data block; */
    size_t array_size;             /* for the writer, exactly the bytes to write */
} ue_hsd_vtx_attr;

typedef struct ue_hsd_weight {     /* one EnvelopeDesc entry */
    int32_t joint;                 /* joints */
    float weight;
} ue_hsd_weight;

typedef struct ue_hsd_envelope {   /* one E[k]: a run of weights */
    uint32_t offset;
    uint32_t first_weight, weight_count; /* into weights */
} ue_hsd_envelope;

typedef struct ue_hsd_pobj {
    uint32_t offset;
    const char *name;
    int32_t next;                  /* pobjs */
    uint16_t flags;                /* UE_POBJ_* */
    uint16_t n_display;            /* display list length in 32-byte units */
    uint32_t attr_first, attr_count; /* into attrs, in descriptor order, terminator excluded */
    uint32_t attrs_offset;         /* the descriptor array */
    uint32_t dl_offset;
    const uint8_t *dl;             /* n_display × 32 bytes */
    size_t dl_size;
    int32_t skin_joint;            /* SKIN with +0x14 set: the shared-vertex joint, else -1 */
    uint32_t env_first, env_count; /* ENVELOPE: into envelopes (E[0] … before the NULL) */
    uint32_t property_offset;      /* +0x14 raw (the ShapeSet for SHAPEANIM, kept raw) */
} ue_hsd_pobj;

/* One model of the DAT: a joint tree with its animation arrays (Colosseum/XD ModelSet) or a plain
 * `*_joint` root. */
typedef struct ue_hsd_model_set {
    int32_t root_joint;            /* joints */
    const char *root_name;         /* the root symbol it came from */
    uint32_t offset;               /* the ModelSet's data offset, or the joint's for `*_joint` */
    uint32_t anim_joints_offset, matanim_joints_offset, shapeanim_joints_offset; /* raw, 0 = NULL */
} ue_hsd_model_set;

typedef struct ue_hsd_model {
    const ue_dat *dat;             /* borrowed */
    ue_hsd_model_set *sets;
    size_t set_count;
    ue_hsd_joint *joints;          /* depth-first pre-order per set (child before next sibling) */
    size_t joint_count;
    ue_hsd_dobj *dobjs;
    size_t dobj_count;
    ue_hsd_mobj *mobjs;
    size_t mobj_count;
    ue_hsd_tobj *tobjs;
    size_t tobj_count;
    ue_hsd_image *images;
    size_t image_count;
    ue_hsd_tlut *tluts;
    size_t tlut_count;
    ue_hsd_pobj *pobjs;
    size_t pobj_count;
    ue_hsd_vtx_attr *attrs;
    size_t attr_count;
    ue_hsd_envelope *envelopes;
    size_t envelope_count;
    ue_hsd_weight *weights;
    size_t weight_count;
    ue_hsd_anims anims;            /* the sets' animation trees, bound to these tables (hsd_anim.h) */
} ue_hsd_model;

/* Reads every model set of a parsed DAT: `scene_data` roots (SceneDesc → ModelSet[] → JObj) and
 * `*_joint` roots, following every link once (a struct reached again through another pointer is
 * the same row; a joint reached twice, a cycle or a depth past 1024 is a violation and the link
 * is dropped). Diagnostics name the struct path ("dat/joint[3]/dobj[0]/pobj[1]/dl") and the
 * absolute file offset. Strict mode fails on every broken rule; tolerant mode drops the broken
 * link and keeps the rest. Work and memory are linear in the DAT's size. UE_ERR_INVALID when the
 * DAT has no model root. ue_hsd_model_free is safe after a failure. */
UE_API ue_result ue_hsd_model_read(const ue_dat *dat, ue_mode mode, ue_hsd_model *m, ue_diag *d);
UE_API void ue_hsd_model_free(ue_hsd_model *m);

/* ---- decoded geometry of one PObj (docs/formats/hsd-model.md#display-lists) -------------- */

typedef struct ue_hsd_geometry {
    uint32_t vertex_count;
    float *positions;              /* 3 × vertex_count, in the space the PObj stores them (docs/formats/hsd-model.md#skinning) */
    float *normals;                /* 3 × vertex_count or NULL (as stored, not normalised) */
    float *uv[2];                  /* TEX0/TEX1: 2 × vertex_count or NULL, t = 0 at the top row */
    float *colors[2];              /* CLR0/CLR1: 4 × vertex_count RGBA in [0,1] or NULL */
    uint8_t *pnmtx;                /* PNMTXIDX per vertex or NULL */
    uint32_t *indices;             /* triangles, counter-clockwise (GX order reversed) */
    size_t index_count;
    size_t skipped_lines, skipped_points; /* primitives reported and not drawn */
} ue_hsd_geometry;

/* Decodes pobj `index`'s display list: every primitive type (quads, triangles, strips and fans
 * become triangles; lines and points are counted and skipped, with an info diagnostic), direct,
 * index8 and index16 attributes of every component type with its fractional shift, PNMTXIDX,
 * two UV sets and two colour sets. One output vertex per distinct vertex record of the list.
 * Refused (strict) or dropped from the point of damage (tolerant): a list running past its size,
 * an index past its array's readable bytes, an unknown attribute, type or format. Work is
 * linear in the list's size. */
UE_API ue_result ue_hsd_pobj_decode(const ue_hsd_model *m, size_t index, ue_mode mode,
                                    ue_hsd_geometry *g, ue_diag *d);
UE_API void ue_hsd_geometry_free(ue_hsd_geometry *g);

/* ---- writing (docs/formats/dat.md#writer-layout) ------------------------------------------- */

/* Builds a new DAT from a model's tables (offsets in the rows are ignored, `dat` may be NULL):
 * structs 4-aligned, vertex arrays, display lists, pixels and palettes 32-aligned, a relocation
 * for every non-NULL pointer, one root per set (a set whose root_name is "scene_data" is written
 * as SceneDesc → ModelSet[]; any other name as a plain joint root), the string table last and
 * file_size equal to the bytes written. The JObj bits the game needs to draw (OPA/XLU/TEXEDGE
 * from each DObj's render mode, ROOT_* on every ancestor) are set as the runtime requires.
 * An attribute array is written up to the last element a display list indexes (never past
 * array_size), so a model read from a DAT writes back without the data block's tail.
 * Reading the result with ue_dat_parse + ue_hsd_model_read gives the same tables back.
 * UE_ERR_USAGE (diagnostic "hsd.write.model") for tables that break a link or rule. */
UE_API ue_result ue_hsd_model_write(const ue_hsd_model *m, ue_buf *out, ue_diag *d);

/* ---- the model registry's view (model_format.h, docs/models.md) --------------------------- */

/* "hsd": a DAT with a `scene_data` or `*_joint` root, converted through ue_hsd_model_read and
 * the bind pose (docs/formats/hsd-model.md#skinning) (docs/hsd.md). Probe order: after MSH. */
UE_API extern const ue_model_format ue_hsd_model_format;
/* "hsd_data": a DAT that parses (header, relocation table, roots) but has no model root, e.g. a
 * room, a camera or the sample pack's placeholders: a format without geometry or images, so
 * that info, validate and roundtrip describe it and convert says what it holds. Probed last. */
UE_API extern const ue_model_format ue_hsd_data_format;
/* Its probe: the DAT header's file_size is the byte count, the strict parse succeeds, and no
 * root is a model root (ue_hsd_probe is false). */
UE_API bool ue_hsd_data_probe(const uint8_t *data, size_t size);
/* The registry's probe: a strict but cheap DAT header check (file_size equal to the bytes,
 * every region inside, plausible counts) and at least one model root name. */
UE_API bool ue_hsd_probe(const uint8_t *data, size_t size);
/* The probe, or bytes named "*.dat" (any case) whose header is a DAT's cut short: regions that
 * fit the file_size it claims, which is more than the bytes present. For callers that know the
 * name (the registry), so a truncated DAT is read as one and its parse names the cut, while
 * other files called .dat (text, other games' data) are still passed over. */
UE_API bool ue_hsd_probe_named(const char *name, const uint8_t *data, size_t size);

#ifdef __cplusplus
}
#endif
#endif
