/* unearth — Parkan Texm textures (docs/formats/texm.md) and palette names (docs/formats/texm.md#palette-names): parse with strict and
 * tolerant checks, decode any mip level to RGBA, write back byte-exactly, build from RGBA. */
#ifndef UNEARTH_TEXM_H
#define UNEARTH_TEXM_H

#include "unearth/common.h"
#include "unearth/model_format.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_TEXM_MAGIC 0x6D786554u      /* "Texm", also the NRes type id of a Texm entry */
#define UE_TEXM_PAGE_MAGIC 0x65676150u /* "Page" */
#define UE_TEXM_HEADER_SIZE 32u
#define UE_TEXM_PALETTE_SIZE 1024u     /* 256 entries × 4 bytes, format 0 only */
#define UE_TEXM_MAX_SIDE 8192u         /* a larger width or height is refused (UE_ERR_LIMIT) */
#define UE_TEXM_MAX_LEVELS 14u         /* 8192 → 1 is 14 levels; more is refused (UE_ERR_LIMIT) */
#define UE_TEXM_PALETTES 286u          /* palette slots of palettes.lib: 26 letters × 11 */

/* Format codes as stored (decimal "bit pattern" numbers). */
typedef enum ue_texm_format {
    UE_TEXM_INDEXED = 0, /* 8-bit index into the 1024-byte palette after the header */
    UE_TEXM_565 = 565,
    UE_TEXM_556 = 556,   /* loader-only, never seen in data */
    UE_TEXM_4444 = 4444,
    UE_TEXM_88 = 88,     /* loader-only, never seen in data */
    UE_TEXM_888 = 888,
    UE_TEXM_8888 = 8888
} ue_texm_format;

/* Bytes per pixel of a format code, 0 when the code is unknown. */
UE_API uint32_t ue_texm_bpp(uint32_t format);
/* "565", "indexed", ...; NULL when the code is unknown. */
UE_API const char *ue_texm_format_name(uint32_t format);

/* One atlas rectangle of the Page chunk, in the file's x, w, y, h order. */
typedef struct ue_texm_rect {
    int16_t x, w, y, h;
} ue_texm_rect;

/* One stored mip level: its size and where its pixels are in ue_texm.data. */
typedef struct ue_texm_level {
    uint32_t width, height;
    size_t offset; /* from the start of the Texm bytes */
    size_t size;   /* width × height × bpp */
} ue_texm_level;

/* A parsed Texm. It owns a copy of the bytes it was parsed from (`data`), so every field that
 * is not decoded (flags, unknown6, the unused 4th byte of 888 pixels, a tail kept by tolerant
 * reading) survives a write unchanged. */
typedef struct ue_texm {
    uint32_t width, height;   /* level 0 */
    uint32_t mip_count;       /* as declared */
    uint32_t flags4;          /* observed 0 or 0x20; preserved */
    uint32_t flags5;          /* observed 0, 0x04000000, 0x00800000; preserved */
    uint32_t unknown6;        /* preserved */
    uint32_t format;          /* ue_texm_format code */
    uint32_t bpp;             /* bytes per pixel of `format` */
    const uint8_t *palette;   /* the 1024 in-file palette bytes (into data), NULL unless format 0 */
    uint32_t level_count;     /* levels present: mip_count, or fewer when tolerant reading cut a
                                 truncated chain */
    ue_texm_level levels[UE_TEXM_MAX_LEVELS];
    bool has_page;            /* a well-formed Page chunk follows the last level */
    uint32_t rect_count;
    ue_texm_rect *rects;      /* rect_count rects (malloc), NULL when none */
    size_t tail_offset;       /* bytes after the last level that are no valid Page chunk (kept by
                                 tolerant reading, written back as they are); tail_size 0: none */
    size_t tail_size;
    uint8_t *data;            /* copy of the parsed bytes (malloc) */
    size_t size;
} ue_texm;

/* Parses a Texm of `size` bytes. Diagnostics name the byte offset and a path such as
 * "texm/level[2]"; UE_ERR_LIMIT for a side above UE_TEXM_MAX_SIDE or a mip count above
 * UE_TEXM_MAX_LEVELS, UE_ERR_INVALID for anything else that breaks docs/formats/texm.md in strict mode.
 * Tolerant mode keeps what can be used: the levels that are complete, an extra tail as raw
 * bytes. On failure *t is zeroed; otherwise free it with ue_texm_free. */
UE_API ue_result ue_texm_parse(const uint8_t *data, size_t size, ue_mode mode, ue_texm *t,
                               ue_diag *d);
UE_API void ue_texm_free(ue_texm *t);

/* Decodes mip `level` (< t->level_count) to RGBA8, rows top to bottom, into `rgba` which holds
 * `rgba_size` ≥ width × height × 4 bytes of that level (else UE_ERR_USAGE).
 *
 * Palettes (format 0 only; ignored otherwise): `palette` NULL uses the texture's own 1024-byte
 * palette; a non-NULL `palette` is 1024 bytes laid out like the in-file one (256 entries of 4
 * bytes) and replaces it, e.g. a palette picked by the name suffix rule
 * (ue_texm_palette_slot). Palette entries are read as B, G, R, unused — alpha 255; the channel
 * order of every format is decided once in src/parkan/texm_pixels.c (docs/parkan-textures.md).
 * An index past the palette cannot happen (8-bit index, 256 entries). */
UE_API ue_result ue_texm_decode_level(const ue_texm *t, uint32_t level, const uint8_t *palette,
                                      uint8_t *rgba, size_t rgba_size, ue_diag *d);

/* The palettes.lib slot a texture name selects, computed as the engine does (docs/formats/texm.md#palette-names): after the
 * first '.', L = toupper(next char) and an optional second char D give
 * (L − 'A') × 11 + (D ? D − '0' + 1 : 0). Returns -1 when the name picks no palette (no '.',
 * nothing after it, or a negative slot as for the stock "NAME.0"). A result ≥ UE_TEXM_PALETTES
 * (or a D that is no digit) is a slot the engine would read past its table: validate reports
 * it. */
UE_API int ue_texm_palette_slot(const char *texture_name);
/* The palettes.lib entry name of a slot ("A.PAL", "B3.PAL"); UE_ERR_USAGE for a slot out of
 * range. `out` holds at least 8 bytes. */
UE_API ue_result ue_texm_palette_name(int slot, char *out, size_t out_size);

/* Writes the Texm back from its fields and kept bytes: for a parsed Texm the result equals the
 * input byte for byte. Appends to `out`; UE_ERR_NOMEM when it fails. */
UE_API ue_result ue_texm_write(const ue_texm *t, ue_buf *out);

/* Builds a Texm of `format` from w × h RGBA8 pixels (rows top to bottom) with `mip_count`
 * levels (0: the full chain down to 1×1; each level a 2×2 box filter of the previous one) and
 * the given flags4/flags5/unknown6. Formats 565, 4444, 888 and 8888 (and 556, 88) are encoded
 * by the same channel table the decoder uses; format 0 builds a 256-colour palette of the
 * image's distinct colours and, when it has more than 256, fails with UE_ERR_UNSUPPORTED or
 * (with `quantise`) reduces them by median cut (docs/parkan-textures.md#the-quantiser); each
 * pixel takes the nearest entry. Appends the bytes to `out`. */
typedef struct ue_texm_build {
    uint32_t format;
    uint32_t mip_count;
    uint32_t flags4, flags5, unknown6;
    const ue_texm_rect *rects; /* a Page chunk of rect_count rects, or NULL for none */
    uint32_t rect_count;
    bool quantise;             /* format 0: more than 256 colours are reduced, not refused */
} ue_texm_build;
UE_API ue_result ue_texm_build_rgba(uint32_t w, uint32_t h, const uint8_t *rgba,
                                    const ue_texm_build *how, ue_buf *out, ue_diag *d);

/* The registry's entry for a bare Texm (probe, info, validate, roundtrip, images; a texture has
 * no geometry, so to_scene is NULL and convert passes it over: docs/models.md). */
UE_API extern const ue_model_format ue_texm_model_format;

#ifdef __cplusplus
}
#endif
#endif
