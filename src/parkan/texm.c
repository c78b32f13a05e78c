/* unearth — Texm reader (docs/formats/texm.md): header, in-file palette, the mip chain and the Page chunk,
 * checked against hostile sizes; decoding of one level to RGBA; palette slot names (docs/formats/texm.md#palette-names). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/parse.h"
#include "parkan/texm_pixels.h"
#include "unearth/texm.h"

uint32_t ue_texm_bpp(uint32_t format) {
    switch (format) {
    case UE_TEXM_INDEXED: return 1;
    case UE_TEXM_565: case UE_TEXM_556: case UE_TEXM_4444: case UE_TEXM_88: return 2;
    case UE_TEXM_888: case UE_TEXM_8888: return 4;
    default: return 0;
    }
}

const char *ue_texm_format_name(uint32_t format) {
    switch (format) {
    case UE_TEXM_INDEXED: return "indexed";
    case UE_TEXM_565: return "565";
    case UE_TEXM_556: return "556";
    case UE_TEXM_4444: return "4444";
    case UE_TEXM_88: return "88";
    case UE_TEXM_888: return "888";
    case UE_TEXM_8888: return "8888";
    default: return NULL;
    }
}

void ue_texm_free(ue_texm *t) {
    if (!t) return;
    free(t->rects);
    free(t->data);
    memset(t, 0, sizeof *t);
}

/* Number of levels a full chain of w × h has (down to 1×1). */
static uint32_t full_chain(uint32_t w, uint32_t h) {
    uint32_t n = 1, side = w > h ? w : h;
    while (side > 1) side >>= 1, n++;
    return n;
}

/* Header fields and the limits that are checked before anything is sized from them. */
static ue_result parse_header(ue_texm *t, ue_parse_ctx *pc) {
    const uint8_t *p = t->data;
    if (t->size < UE_TEXM_HEADER_SIZE) {
        ue_parse_error(pc, "texm.header.truncated", 0, "texm/header",
                       "a Texm header needs %u bytes, only %zu are there", UE_TEXM_HEADER_SIZE, t->size);
        return UE_ERR_INVALID;
    }
    if (ue_load_u32le(p) != UE_TEXM_MAGIC) {
        ue_parse_error(pc, "texm.magic", 0, "texm/header/magic", "not a Texm: magic is 0x%08X",
                       ue_load_u32le(p));
        return UE_ERR_INVALID;
    }
    t->width = ue_load_u32le(p + 4), t->height = ue_load_u32le(p + 8);
    t->mip_count = ue_load_u32le(p + 12), t->flags4 = ue_load_u32le(p + 16);
    t->flags5 = ue_load_u32le(p + 20), t->unknown6 = ue_load_u32le(p + 24);
    t->format = ue_load_u32le(p + 28);
    if (t->width == 0 || t->height == 0 || t->mip_count == 0) {
        ue_parse_error(pc, "texm.header.zero", t->width == 0 ? 4 : t->height == 0 ? 8 : 12,
                       "texm/header", "width %u, height %u, mip_count %u: each must be above 0",
                       t->width, t->height, t->mip_count);
        return UE_ERR_INVALID;
    }
    if (t->width > UE_TEXM_MAX_SIDE || t->height > UE_TEXM_MAX_SIDE ||
        t->mip_count > UE_TEXM_MAX_LEVELS) {
        ue_parse_error(pc, "texm.header.limit", t->mip_count > UE_TEXM_MAX_LEVELS ? 12 : 4,
                       "texm/header", "%u × %u with %u mip levels is beyond the limits "
                       "(side ≤ %u, levels ≤ %u)", t->width, t->height, t->mip_count,
                       UE_TEXM_MAX_SIDE, UE_TEXM_MAX_LEVELS);
        return UE_ERR_LIMIT;
    }
    t->bpp = ue_texm_bpp(t->format);
    if (t->bpp == 0) {
        ue_parse_error(pc, "texm.format", 28, "texm/header/format",
                       "format code %u is none of 0, 565, 556, 4444, 88, 888, 8888", t->format);
        return UE_ERR_INVALID;
    }
    if (t->mip_count > full_chain(t->width, t->height))
        ue_violation(pc, "texm.mips.count", 12, "texm/header/mip_count",
                     "%u mip levels declared, a %u × %u chain ends at 1×1 after %u",
                     t->mip_count, t->width, t->height, full_chain(t->width, t->height));
    return UE_OK;
}

/* Lays out the palette and every level; a level that does not fit ends the chain (tolerant) or
 * the parse (strict). Returns the offset after the last complete level. */
static size_t parse_levels(ue_texm *t, ue_parse_ctx *pc) {
    size_t at = UE_TEXM_HEADER_SIZE;
    if (t->format == UE_TEXM_INDEXED) {
        if (t->size - at < UE_TEXM_PALETTE_SIZE) {
            ue_damage(pc, "texm.palette.truncated", at, "texm/palette",
                      "the palette needs %u bytes, %zu are left", UE_TEXM_PALETTE_SIZE, t->size - at);
            return at;
        }
        t->palette = t->data + at;
        at += UE_TEXM_PALETTE_SIZE;
    }
    for (uint32_t i = 0; i < t->mip_count; i++) {
        uint32_t w = t->width >> i, h = t->height >> i;
        ue_texm_level lv = {w ? w : 1, h ? h : 1, at, 0};
        lv.size = (size_t)lv.width * lv.height * t->bpp; /* ≤ 8192² × 4: no overflow */
        if (lv.size > t->size - at) {
            char path[32];
            snprintf(path, sizeof path, "texm/level[%u]", i);
            ue_damage(pc, "texm.level.truncated", at, path,
                      "mip level %u (%u × %u) needs %zu bytes, %zu are left; the declared chain "
                      "of %u levels does not fit", i, lv.width, lv.height, lv.size, t->size - at,
                      t->mip_count);
            break;
        }
        t->levels[t->level_count++] = lv;
        at += lv.size;
    }
    return at;
}

/* Checks one rect against the base level; outside is reported, never trusted for addressing. */
static void check_rect(const ue_texm *t, uint32_t i, size_t at, ue_parse_ctx *pc) {
    const ue_texm_rect *r = &t->rects[i];
    long x1 = (long)r->x + r->w, y1 = (long)r->y + r->h;
    if (r->x < 0 || r->y < 0 || r->w < 0 || r->h < 0 || x1 > (long)t->width || y1 > (long)t->height) {
        char path[40];
        snprintf(path, sizeof path, "texm/page/rect[%u]", i);
        ue_violation(pc, "texm.page.rect", at, path,
                     "rect x %d w %d y %d h %d reaches outside the %u × %u texture",
                     r->x, r->w, r->y, r->h, t->width, t->height);
    }
}

/* The optional Page chunk from `at`; anything else after the last level is a tail. */
static ue_result parse_tail(ue_texm *t, size_t at, ue_parse_ctx *pc) {
    size_t left = t->size - at;
    if (left == 0 || t->level_count < t->mip_count) {
        t->tail_offset = at, t->tail_size = left; /* after a cut chain: kept raw, not read */
        return UE_OK;
    }
    const uint8_t *p = t->data + at;
    uint32_t count = left >= 8 ? ue_load_u32le(p + 4) : 0;
    bool page = left >= 8 && ue_load_u32le(p) == UE_TEXM_PAGE_MAGIC;
    if (page && (left - 8) / 8 >= count && left == 8 + (size_t)count * 8) {
        t->rects = count ? malloc(count * sizeof *t->rects) : NULL;
        if (count && !t->rects) return UE_ERR_NOMEM;
        for (uint32_t i = 0; i < count; i++) {
            const uint8_t *q = p + 8 + 8 * (size_t)i;
            t->rects[i] = (ue_texm_rect){(int16_t)ue_load_u16le(q), (int16_t)ue_load_u16le(q + 2),
                                         (int16_t)ue_load_u16le(q + 4), (int16_t)ue_load_u16le(q + 6)};
        }
        t->has_page = true, t->rect_count = count;
        for (uint32_t i = 0; i < count; i++) check_rect(t, i, at + 8 + 8 * (size_t)i, pc);
        return UE_OK;
    }
    if (page)
        ue_violation(pc, "texm.page.size", at, "texm/page",
                     "the Page chunk declares %u rects (%llu bytes) but %zu bytes follow the last "
                     "level", count, 8ull + 8ull * count, left);
    else
        ue_violation(pc, "texm.tail", at, "texm/tail",
                     "%zu bytes follow the last mip level and are no Page chunk", left);
    t->tail_offset = at, t->tail_size = left;
    return UE_OK;
}

ue_result ue_texm_parse(const uint8_t *data, size_t size, ue_mode mode, ue_texm *t, ue_diag *d) {
    memset(t, 0, sizeof *t);
    ue_parse_ctx pc = ue_parse_begin(mode, d);
    t->data = ue_malloc_items(size, 1);
    if (!t->data) return UE_ERR_NOMEM;
    if (size) memcpy(t->data, data, size);
    t->size = size;
    ue_result r = parse_header(t, &pc);
    if (r == UE_OK && !ue_parse_failed(&pc)) r = parse_tail(t, parse_levels(t, &pc), &pc);
    if (r == UE_OK && t->level_count == 0 && !ue_parse_failed(&pc)) {
        ue_parse_error(&pc, "texm.level.none", UE_TEXM_HEADER_SIZE, "texm/level[0]",
                       "not one mip level is complete");
    }
    if (r == UE_OK && ue_parse_failed(&pc)) r = pc.failure;
    if (r != UE_OK) ue_texm_free(t);
    return r;
}

ue_result ue_texm_decode_level(const ue_texm *t, uint32_t level, const uint8_t *palette,
                               uint8_t *rgba, size_t rgba_size, ue_diag *d) {
    if (!t || level >= t->level_count) {
        ue_diag_add(d, UE_SEV_ERROR, "texm.level.missing", UE_NO_OFFSET, "texm",
                    "mip level %u is not there (%u levels)", level, t ? t->level_count : 0);
        return UE_ERR_USAGE;
    }
    const ue_texm_level *lv = &t->levels[level];
    size_t pixels = (size_t)lv->width * lv->height;
    if (!rgba || rgba_size / 4 < pixels) return UE_ERR_USAGE;
    const uint8_t *pal = palette ? palette : t->palette;
    if (t->format == UE_TEXM_INDEXED && !pal) return UE_ERR_USAGE;
    const uint8_t *src = t->data + lv->offset;
    texm_pixels_decode(t->format, src, pixels, pal, rgba);
    return UE_OK;
}

int ue_texm_palette_slot(const char *name) {
    const char *dot = name ? strchr(name, '.') : NULL;
    if (!dot || !dot[1]) return -1;
    int letter = (unsigned char)dot[1];
    if (letter >= 'a' && letter <= 'z') letter -= 'a' - 'A'; /* toupper in the C locale */
    int digit = (unsigned char)dot[2];
    /* The engine's arithmetic as it is (docs/formats/texm.md#palette-names): any second character counts as the digit. */
    int slot = (letter - 'A') * 11 + (digit ? digit - '0' + 1 : 0);
    return slot < 0 ? -1 : slot;
}

ue_result ue_texm_palette_name(int slot, char *out, size_t out_size) {
    if (slot < 0 || slot >= (int)UE_TEXM_PALETTES || !out || out_size < 8) return UE_ERR_USAGE;
    int variant = slot % 11;
    if (variant == 0) snprintf(out, out_size, "%c.PAL", 'A' + slot / 11);
    else snprintf(out, out_size, "%c%c.PAL", 'A' + slot / 11, '0' + variant - 1);
    return UE_OK;
}
