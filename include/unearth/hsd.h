/* unearth — HAL SysDolphin (HSD) .dat archives: the container of docs/formats/dat.md (header, data
 * block, relocation table, root and reference tables, string table) as a lossless model. */
#ifndef UNEARTH_HSD_H
#define UNEARTH_HSD_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_DAT_HEADER 0x20u /* the data block starts here; data offsets are relative to it */

/* A root (public) or reference (extern) entry. `name` points into the model's own copy of the
 * string table (NUL-terminated, `name_len` bytes before the NUL); it is NULL when the string
 * offset lies outside the table or the string has no NUL inside it (a damaged entry). */
typedef struct ue_dat_symbol {
    uint32_t data_offset;   /* root: the struct's data offset; reference: first use site */
    uint32_t string_offset; /* relative to the string table */
    const char *name;
    size_t name_len;
    bool damaged;           /* a tolerant parse kept the entry although a check failed */
} ue_dat_symbol;

/* The parsed archive. Every byte of the input is kept (`bytes`, an owned copy), so an unchanged
 * archive re-serialises byte for byte; the fields below are views and decoded tables. */
typedef struct ue_dat {
    uint8_t *bytes;  /* the whole input, owned */
    size_t size;
    /* header (docs/formats/dat.md#file-layout) */
    uint32_t file_size, data_size, nb_reloc, nb_public, nb_extern;
    /* absolute file offsets of the regions, as the header places them; counts may have been
     * cut by a tolerant parse so that every region lies inside the file */
    size_t reloc_offset, public_offset, extern_offset, strings_offset, strings_end;
    const uint8_t *data; /* bytes + UE_DAT_HEADER, data_size bytes */
    /* relocation table in file order (raw entries, valid or not) */
    uint32_t *reloc_raw;
    size_t reloc_raw_count;
    /* the valid relocated offsets: inside the data block, 4-aligned, holding an in-range
     * pointer; sorted ascending, without duplicates */
    uint32_t *relocs;
    size_t reloc_count;
    ue_dat_symbol *roots;
    size_t root_count;
    ue_dat_symbol *refs;
    size_t ref_count;
} ue_dat;

/* Parses a DAT. `p` is only read during the call (the model keeps a copy). Strict mode fails on
 * every broken rule (diagnostic paths like "dat/reloc[3]", offsets absolute in the file);
 * tolerant mode keeps what is intact: bad relocation entries leave the relocation set, roots
 * and references with a bad name or offset are marked damaged, table counts that run past the
 * file are cut. Work and memory are linear in `n`. ue_dat_free is safe after a failure. */
UE_API ue_result ue_dat_parse(const uint8_t *p, size_t n, ue_mode mode, ue_dat *dat, ue_diag *d);
UE_API void ue_dat_free(ue_dat *dat);

/* Re-serialises the archive: header (sizes recomputed from the tables, version and padding
 * words kept), data block, relocation table in its original order, root, reference and string
 * tables, then any bytes that followed them. An unchanged valid archive comes back identical. */
UE_API ue_result ue_dat_write(const ue_dat *dat, ue_buf *out);

/* The index of the first root named exactly `name`, or -1. */
UE_API long ue_dat_find_root(const ue_dat *dat, const char *name);
/* True when `data_offset` is a valid entry of the relocation set (binary search). */
UE_API bool ue_dat_is_relocated(const ue_dat *dat, uint32_t data_offset);
/* Big-endian reads at a data offset; false when the 4 bytes are not inside the data block. */
UE_API bool ue_dat_read_u32(const ue_dat *dat, uint32_t data_offset, uint32_t *out);
UE_API bool ue_dat_read_f32(const ue_dat *dat, uint32_t data_offset, float *out);
/* Reads the pointer field at `data_offset` by the null rule of docs/formats/dat.md#null-rule: the field is a
 * pointer when its value is non-zero or its location is relocated. UE_OK with *present false for
 * NULL; UE_ERR_INVALID when the field is outside the data block or its target is not below
 * data_size. `target` is a data offset. */
UE_API ue_result ue_dat_read_pointer(const ue_dat *dat, uint32_t data_offset, bool *present,
                                     uint32_t *target);

/* ---- root kinds (docs/formats/dat.md#root-names) ------------------------------------------- */

typedef enum ue_hsd_root_kind {
    UE_HSD_ROOT_UNKNOWN = 0,
    UE_HSD_ROOT_SCENE_DATA,      /* "scene_data" (Colosseum/XD) and "*_scene_data" */
    UE_HSD_ROOT_SCENE_MODELS,    /* "*_scene_models" */
    UE_HSD_ROOT_BOUND_BOX,       /* "bound_box" (Colosseum/XD) */
    UE_HSD_ROOT_JOINT,           /* "*_joint" */
    UE_HSD_ROOT_ANIMJOINT,       /* "*_animjoint" */
    UE_HSD_ROOT_MATANIM_JOINT,   /* "*_matanim_joint" */
    UE_HSD_ROOT_SHAPEANIM_JOINT, /* "*_shapeanim_joint" */
    UE_HSD_ROOT_CAMERA,          /* "*_camera" */
    UE_HSD_ROOT_LIGHTS,          /* "*_lights" */
    UE_HSD_ROOT_FIGATREE,        /* "*_figatree" */
    UE_HSD_ROOT_IMAGE,           /* "*_image" */
    UE_HSD_ROOT_TLUT,            /* "*_tlut" */
    UE_HSD_ROOT_FIGHTER_DATA,    /* "ftData*" (Melee fighter data) */
    UE_HSD_ROOT_FOG              /* "*_fog" */
} ue_hsd_root_kind;

/* The kind a root's name announces (longest matching suffix wins: "a_matanim_joint" is a
 * material animation, not a joint tree; "ftData" is a prefix); UE_HSD_ROOT_UNKNOWN for any other
 * name or NULL. By the name alone: `info` and `validate` also check the struct it names
 * (docs/hsd.md, "Root kinds"). */
UE_API ue_hsd_root_kind ue_hsd_root_kind_of(const char *name);
/* A short stable name for the kind ("scene_data", "joint", …, "unknown"). */
UE_API const char *ue_hsd_root_kind_name(ue_hsd_root_kind kind);

#ifdef __cplusplus
}
#endif

#endif
