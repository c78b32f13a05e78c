/* unearth — PKX model wrappers (Colosseum and XD layouts): locating the DAT, GPT1 and animation
 * table, re-wrapping a new DAT, building fresh PKX files, and the container contract. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "common/bytes.h"
#include "common/text.h"
#include "common/io.h"
#include "common/parse.h"

/* docs/formats/pkx.md: Align32(value) = (value + 0x1F) & ~0x1F, done in 64 bits so it cannot wrap. */
static uint64_t align32(uint64_t v) { return (v + 0x1Fu) & ~(uint64_t)0x1F; }

static uint32_t be32_at(const uint8_t *p, size_t n, uint64_t off, bool *ok) {
    uint32_t v = 0;
    *ok = off <= SIZE_MAX && ue_rd_u32be(p, n, (size_t)off, &v);
    return v;
}

static ue_result fail(ue_diag *d, const char *code, uint64_t off, const char *path,
                      const char *msg, uint64_t a, uint64_t b) {
    ue_diag_add(d, UE_SEV_ERROR, code, off, path, "%s (%llu, %llu)", msg, (unsigned long long)a,
                (unsigned long long)b);
    return UE_ERR_INVALID;
}

/* Where the header words of each layout live (for diagnostics that name them). */
static uint64_t count_field(const ue_pkx_info *info) { return info->layout == UE_PKX_XD ? 0x10 : 0x08; }
static uint64_t gpt1_field(const ue_pkx_info *info) { return info->layout == UE_PKX_XD ? 0x08 : 0x04; }

/* The layout (docs/formats/pkx.md#detection: equal words at 0x00 and 0x40 mean Colosseum, whose DAT,
 * starting with its own size, follows the 0x40-byte header) and its header words. */
static ue_result read_header(const uint8_t *p, size_t n, ue_pkx_info *info, ue_diag *d) {
    if (n < 0x44)
        return fail(d, "pkx.truncated", 0, "pkx/header",
                    "too short for a PKX header (size, needed)", n, 0x44);
    uint32_t w0 = ue_load_u32be(p), w40 = ue_load_u32be(p + 0x40);
    info->declared_dat_size = w0;
    if (w0 == w40) {
        info->layout = UE_PKX_COLOSSEUM;
        info->gpt1_length = ue_load_u32be(p + 0x04);
        info->anim_count = ue_load_u32be(p + 0x08);
    } else {
        info->layout = UE_PKX_XD;
        if (n < UE_PKX_XD_PREAMBLE)
            return fail(d, "pkx.truncated", 0, "pkx/header",
                        "too short for the XD preamble (size, needed)", n, UE_PKX_XD_PREAMBLE);
        info->gpt1_length = ue_load_u32be(p + 0x08);
        info->anim_count = ue_load_u32be(p + 0x10);
    }
    if (info->anim_count > UE_PKX_MAX_ANIMS)
        return fail(d, "pkx.anim_count", count_field(info), "pkx/header/anim_count",
                    "animation count above the cap (count, cap)", info->anim_count,
                    UE_PKX_MAX_ANIMS);
    if (info->gpt1_length > n)
        return fail(d, "pkx.gpt1_range", gpt1_field(info), "pkx/header/gpt1_length",
                    "GPT1 length exceeds the file (length, file size)", info->gpt1_length, n);
    return UE_OK;
}

/* XD: animation table after the preamble, GPT1 block, then the DAT (*dat_off). */
static ue_result locate_xd(const uint8_t *p, size_t n, ue_pkx_info *info, uint64_t *dat_off,
                           ue_diag *d) {
    const uint64_t anim_bytes = (uint64_t)info->anim_count * UE_PKX_ANIM_ENTRY;
    const uint32_t w0 = info->declared_dat_size;
    info->anim_offset = UE_PKX_XD_PREAMBLE;
    uint64_t g = align32(UE_PKX_XD_PREAMBLE + anim_bytes);
    *dat_off = g + align32(info->gpt1_length);
    info->gpt1_offset = (size_t)(g < n ? g : n);
    /* Sources disagree on the DAT offset when a GPT1 block is present (docs/formats/pkx.md#xd-layout): take
     * ADDON's, unless only GODTOOL's (+4) holds a word equal to the declared size. */
    if (info->gpt1_length > 0) {
        bool ok, ok4;
        uint32_t at = be32_at(p, n, *dat_off, &ok), at4 = be32_at(p, n, *dat_off + 4, &ok4);
        if ((!ok || at != w0) && ok4 && at4 == w0) {
            *dat_off += 4;
            ue_diag_add(d, UE_SEV_INFO, "pkx.dat_offset_plus4", *dat_off, "pkx/dat",
                        "DAT found 4 bytes after the aligned GPT1 end (GoD-Tool layout)");
        }
    }
    if (!ue_range_ok(UE_PKX_XD_PREAMBLE, anim_bytes, n))
        return fail(d, "pkx.anim_range", count_field(info), "pkx/header/anim_count",
                    "animation table passes the end (count, file size)", info->anim_count, n);
    if (!ue_range_ok(g, info->gpt1_length, n))
        return fail(d, "pkx.gpt1_range", gpt1_field(info), "pkx/header/gpt1_length",
                    "GPT1 block passes the end (offset, length)", g, info->gpt1_length);
    return UE_OK;
}

/* docs/formats/pkx.md#dat-size (docs/formats/fsys.md#defensive-rules, rule 7): the declared DAT size must fit; else the DAT's own first word. */
static ue_result find_dat_size(const uint8_t *p, size_t n, uint64_t dat_off, ue_pkx_info *info,
                               ue_diag *d) {
    const uint32_t w0 = info->declared_dat_size;
    if (w0 >= 4 && ue_range_ok(dat_off, w0, n)) {
        info->dat_size = w0;
        return UE_OK;
    }
    bool ok;
    uint32_t own = be32_at(p, n, dat_off, &ok);
    if (!ok || own < 4 || !ue_range_ok(dat_off, own, n))
        return fail(d, "pkx.dat_size", 0, "pkx/header/dat_size",
                    "neither the declared DAT size nor the DAT's own size fits (declared, own)",
                    w0, ok ? own : 0);
    info->dat_size = own;
    info->dat_size_fallback = true;
    ue_diag_add(d, UE_SEV_WARNING, "pkx.dat_size_fallback", 0, "pkx/header/dat_size",
                "declared DAT size %u does not fit; using the DAT's own size %u", w0, own);
    return UE_OK;
}

/* Colosseum: GPT1 block and animation table after the DAT, each 32-byte aligned, then the tail. */
static ue_result locate_colosseum_tail(size_t n, ue_pkx_info *info, ue_diag *d) {
    const uint64_t anim_bytes = (uint64_t)info->anim_count * UE_PKX_ANIM_ENTRY;
    uint64_t g = UE_PKX_COLO_HEADER + align32(info->dat_size);
    uint64_t a = g + align32(info->gpt1_length);
    if (info->gpt1_length && !ue_range_ok(g, info->gpt1_length, n))
        return fail(d, "pkx.gpt1_range", gpt1_field(info), "pkx/header/gpt1_length",
                    "GPT1 block passes the end (offset, length)", g, info->gpt1_length);
    if (!ue_range_ok(a, anim_bytes, n))
        return fail(d, "pkx.anim_range", count_field(info), "pkx/header/anim_count",
                    "animation table passes the end (offset, bytes)", a, anim_bytes);
    info->gpt1_offset = (size_t)(g < n ? g : n);
    info->anim_offset = (size_t)a;
    info->tail_offset = (size_t)(a + anim_bytes);
    return UE_OK;
}

ue_result ue_pkx_parse(const uint8_t *p, size_t n, ue_mode mode, ue_pkx_info *info, ue_diag *d) {
    (void)mode; /* every PKX violation makes the DAT unlocatable, so both modes fail alike */
    memset(info, 0, sizeof *info);
    info->size = n;
    ue_result r = read_header(p, n, info, d);
    uint64_t dat_off = UE_PKX_COLO_HEADER;
    if (r == UE_OK && info->layout == UE_PKX_XD) r = locate_xd(p, n, info, &dat_off, d);
    if (r != UE_OK) return r;
    if (dat_off > n)
        return fail(d, "pkx.dat_range", 0, "pkx/header/dat_size",
                    "DAT offset lies past the end (offset, file size)", dat_off, n);
    info->dat_offset = (size_t)dat_off;
    if ((r = find_dat_size(p, n, dat_off, info, d)) != UE_OK) return r;
    if (info->layout == UE_PKX_COLOSSEUM) r = locate_colosseum_tail(n, info, d);
    else info->tail_offset = info->dat_offset + info->dat_size;
    if (r != UE_OK) return r;
    bool ok;
    uint32_t own = be32_at(p, n, info->dat_offset, &ok);
    if (ok && own != info->dat_size)
        ue_diag_add(d, UE_SEV_INFO, "pkx.dat_header", info->dat_offset, "pkx/dat",
                    "the DAT's own size word is %u, the PKX gives %zu", own, info->dat_size);
    return UE_OK;
}

/* Every region inside the file and in layout order: a manifest may carry edited numbers. */
static bool info_consistent(const ue_pkx_info *i, size_t n) {
    uint64_t anim_bytes = (uint64_t)i->anim_count * UE_PKX_ANIM_ENTRY;
    if (i->size != n || i->anim_count > UE_PKX_MAX_ANIMS) return false;
    if (i->layout == UE_PKX_COLOSSEUM)
        return i->dat_offset == UE_PKX_COLO_HEADER &&
               i->gpt1_offset == UE_PKX_COLO_HEADER + align32(i->dat_size) &&
               i->anim_offset == i->gpt1_offset + align32(i->gpt1_length) &&
               i->tail_offset == i->anim_offset + anim_bytes && i->tail_offset <= n;
    return i->layout == UE_PKX_XD && i->anim_offset == UE_PKX_XD_PREAMBLE &&
           i->gpt1_offset == align32(UE_PKX_XD_PREAMBLE + anim_bytes) &&
           i->gpt1_offset + align32(i->gpt1_length) <= i->dat_offset &&
           i->dat_offset - (i->gpt1_offset + align32(i->gpt1_length)) <= 4 &&
           i->tail_offset == i->dat_offset + i->dat_size && i->tail_offset <= n;
}

/* Padding after a region that changed size: the old bytes when the pad length is unchanged. */
static void put_pad(ue_buf *out, const uint8_t *old, size_t old_len, size_t new_len) {
    if (old && old_len == new_len) ue_buf_put(out, old, old_len);
    else ue_buf_put_zeros(out, new_len);
}

ue_result ue_pkx_rewrap(const uint8_t *orig, size_t orig_size, const ue_pkx_info *info,
                        const uint8_t *dat, size_t dat_size, const uint8_t *gpt1,
                        size_t gpt1_size, ue_buf *out, ue_diag *d) {
    if (!info_consistent(info, orig_size)) {
        ue_diag_add(d, UE_SEV_ERROR, "pkx.layout", UE_NO_OFFSET, "pkx",
                    "the PKX layout description is inconsistent with its %zu bytes", orig_size);
        return UE_ERR_INVALID;
    }
    if (dat_size > UINT32_MAX - 64 || gpt1_size > UINT32_MAX - 64) return UE_ERR_USAGE;
    if (info->layout == UE_PKX_COLOSSEUM && (dat_size < 4 || ue_load_u32be(dat) != dat_size)) {
        /* Colosseum files are recognised by the DAT's own size word (docs/formats/pkx.md#detection). */
        ue_diag_add(d, UE_SEV_ERROR, "pkx.dat_header", 0, "pkx/dat",
                    "a Colosseum PKX needs a DAT whose first word is its size (%zu bytes, word %u)",
                    dat_size, dat_size >= 4 ? ue_load_u32be(dat) : 0u);
        return UE_ERR_INVALID;
    }
    if (!gpt1) {
        gpt1 = orig + info->gpt1_offset;
        gpt1_size = info->gpt1_length;
    }
    const size_t old_gl = info->gpt1_length, old_dl = info->dat_size;
    const size_t old_gpad = (size_t)align32(old_gl) - old_gl;
    const size_t new_gpad = (size_t)align32(gpt1_size) - gpt1_size;
    const size_t start = out->size;
    if (info->layout == UE_PKX_COLOSSEUM) {
        ue_buf_put(out, orig, UE_PKX_COLO_HEADER);
        ue_buf_put(out, dat, dat_size);
        put_pad(out, orig + UE_PKX_COLO_HEADER + old_dl, (size_t)align32(old_dl) - old_dl,
                (size_t)align32(dat_size) - dat_size);
        if (gpt1_size) {
            ue_buf_put(out, gpt1, gpt1_size);
            put_pad(out, orig + info->gpt1_offset + old_gl, old_gpad, new_gpad);
        }
        ue_buf_put(out, orig + info->anim_offset, orig_size - info->anim_offset);
        if (out->failed) return UE_ERR_NOMEM;
        uint8_t *h = out->data + start;
        if (dat_size != old_dl) ue_store_u32be(h, (uint32_t)dat_size);
        if (gpt1_size != old_gl) ue_store_u32be(h + 4, (uint32_t)gpt1_size);
    } else {
        ue_buf_put(out, orig, info->gpt1_offset);
        if (gpt1_size) {
            ue_buf_put(out, gpt1, gpt1_size);
            put_pad(out, orig + info->gpt1_offset + old_gl, old_gpad, new_gpad);
        }
        size_t quirk_from = info->gpt1_offset + (size_t)align32(old_gl);
        if (gpt1_size) ue_buf_put(out, orig + quirk_from, info->dat_offset - quirk_from);
        ue_buf_put(out, dat, dat_size);
        ue_buf_put(out, orig + info->tail_offset, orig_size - info->tail_offset);
        if (out->failed) return UE_ERR_NOMEM;
        uint8_t *h = out->data + start;
        if (dat_size != old_dl) ue_store_u32be(h, (uint32_t)dat_size);
        if (gpt1_size != old_gl) ue_store_u32be(h + 8, (uint32_t)gpt1_size);
    }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

ue_result ue_pkx_build(ue_pkx_layout layout, const uint8_t *dat, size_t dat_size,
                       const uint8_t *gpt1, size_t gpt1_size, const uint8_t *anims,
                       uint32_t anim_count, uint16_t species, ue_buf *out) {
    if (anim_count > UE_PKX_MAX_ANIMS || dat_size > UINT32_MAX - 64 || gpt1_size > UINT32_MAX - 64)
        return UE_ERR_USAGE;
    const size_t start = out->size;
    const size_t anim_bytes = (size_t)anim_count * UE_PKX_ANIM_ENTRY;
    if (layout == UE_PKX_COLOSSEUM) {
        uint8_t h[UE_PKX_COLO_HEADER] = {0};
        ue_store_u32be(h + 0x00, (uint32_t)dat_size);
        ue_store_u32be(h + 0x04, (uint32_t)gpt1_size);
        ue_store_u32be(h + 0x08, anim_count);
        ue_store_u32be(h + 0x10, 5);
        ue_store_u32be(h + 0x18, 0xFFFFFFFFu); /* no sub-animation references */
        ue_store_u32be(h + 0x1C, 0xFFFFFFFFu);
        ue_store_u32be(h + 0x20, 0xFFFFFFFFu);
        ue_buf_put(out, h, sizeof h);
        ue_buf_put(out, dat, dat_size);
        ue_buf_put_zeros(out, (size_t)align32(dat_size) - dat_size);
        if (gpt1_size) {
            ue_buf_put(out, gpt1, gpt1_size);
            ue_buf_put_zeros(out, (size_t)align32(gpt1_size) - gpt1_size);
        }
        if (anim_bytes) ue_buf_put(out, anims, anim_bytes);
        /* Shiny block: identity channel routing, neutral brightness. */
        for (uint32_t c = 0; c < 4; c++) ue_buf_put_u32be(out, c);
        ue_buf_put_u32be(out, 0x7F7F7F7Fu);
    } else {
        uint8_t h[UE_PKX_XD_PREAMBLE] = {0};
        ue_store_u32be(h + 0x00, (uint32_t)dat_size);
        ue_store_u32be(h + 0x08, (uint32_t)gpt1_size);
        ue_store_u32be(h + 0x10, anim_count);
        ue_store_u16be(h + 0x18, species);
        ue_store_u16be(h + 0x1A, 0x000C);
        for (int b = 0; b < 4; b++) memset(h + 0x1C + 19 * b + 2, 0xFF, 16); /* unused parts */
        for (uint32_t c = 0; c < 4; c++) ue_store_u32be(h + 0x70 + 4 * c, c);
        memset(h + 0x80, 0x7F, 4);
        ue_buf_put(out, h, sizeof h);
        if (anim_bytes) ue_buf_put(out, anims, anim_bytes);
        ue_buf_put_zeros(out, (size_t)align32(UE_PKX_XD_PREAMBLE + anim_bytes) -
                                  (UE_PKX_XD_PREAMBLE + anim_bytes));
        if (gpt1_size) {
            ue_buf_put(out, gpt1, gpt1_size);
            ue_buf_put_zeros(out, (size_t)align32(gpt1_size) - gpt1_size);
        }
        ue_buf_put(out, dat, dat_size);
    }
    (void)start;
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

/* ---- animation-entry table (docs/formats/pkx.md#animation-entry) ---------------------------- */

static void read_anim_entry(ue_parse_ctx *c, const uint8_t *e, ue_pkx_layout layout, uint64_t at,
                            size_t k, ue_pkx_anim_entry *out) {
    char path[48];
    memset(out, 0, sizeof *out);
    out->motion_kind = ue_load_u32be(e);
    out->sub_anim_count = ue_load_u32be(e + 0x04);
    out->damage_flags = ue_load_u32be(e + 0x08);
    for (int t = 0; t < 4; t++) {
        uint32_t w = out->timing_raw[t] = ue_load_u32be(e + 0x10 + 4 * t);
        float f = (float)w / 60.0f; /* Colosseum counts frames at 60 fps */
        if (layout == UE_PKX_XD) memcpy(&f, &w, sizeof f);
        if (!isfinite(f)) {
            snprintf(path, sizeof path, "pkx/anims[%zu]/timing[%d]", k, t);
            ue_violation(c, "pkx.anim.timing", at + 0x10 + 4u * (unsigned)t, path,
                         "timing point is not a finite number of seconds; read as 0");
            f = 0.0f;
        }
        out->timing_seconds[t] = f;
    }
    for (uint32_t b = 0; b < UE_PKX_BODY_MAP; b++)
        out->body_map[b] = (int32_t)ue_load_u32be(e + 0x4C + 4 * b);
    for (uint32_t s = 0; s < UE_PKX_SUB_ANIMS; s++) {
        out->sub_motion[s] = ue_load_u32be(e + 0x8C + 8 * s);
        out->sub_anim[s] = ue_load_u32be(e + 0x90 + 8 * s);
    }
    out->terminator = ue_load_u32be(e + 0xCC);
    out->anim_count = out->sub_anim_count;
    if (out->anim_count > UE_PKX_SUB_ANIMS) {
        snprintf(path, sizeof path, "pkx/anims[%zu]/sub_anim_count", k);
        ue_violation(c, "pkx.anim.sub_count", at + 4, path,
                     "%u sub-animations claimed, an entry holds %u", out->sub_anim_count,
                     UE_PKX_SUB_ANIMS);
        out->anim_count = UE_PKX_SUB_ANIMS;
    }
}

ue_result ue_pkx_anim_entries(const uint8_t *p, size_t n, const ue_pkx_info *info, ue_mode mode,
                              ue_pkx_anim_entry **entries, size_t *count, ue_diag *d) {
    *entries = NULL;
    *count = 0;
    ue_parse_ctx c = ue_parse_begin(mode, d);
    uint64_t bytes = (uint64_t)info->anim_count * UE_PKX_ANIM_ENTRY;
    if (info->anim_count > UE_PKX_MAX_ANIMS || !ue_range_ok(info->anim_offset, bytes, n)) {
        ue_parse_error(&c, "pkx.anim_range", info->anim_offset, "pkx/anims",
                       "%u animation entries at 0x%zx run past the %zu-byte file",
                       info->anim_count, info->anim_offset, n);
        return c.failure;
    }
    if (info->anim_count == 0) return UE_OK;
    ue_pkx_anim_entry *e = calloc(info->anim_count, sizeof *e);
    if (!e) return UE_ERR_NOMEM;
    for (size_t k = 0; k < info->anim_count && !ue_parse_failed(&c); k++) {
        uint64_t at = info->anim_offset + (uint64_t)k * UE_PKX_ANIM_ENTRY;
        read_anim_entry(&c, p + at, info->layout, at, k, &e[k]);
    }
    if (ue_parse_failed(&c)) {
        free(e);
        return c.failure;
    }
    *entries = e;
    *count = info->anim_count;
    return UE_OK;
}

const char *ue_pkx_slot_name(uint32_t slot, bool trainer) {
    static const char *const pokemon[] = {
        "idle", "status A", "physical A", "physical B", "physical C", "physical D",
        "status B", "physical E", "damage", "damage 2", "faint", "idle 2", "special",
        "idle 3", "idle 4", "idle 5", "take flight"};
    static const char *const trainers[] = {"idle", "ball throw", "victory", "intro",
                                           "frustrated", "victory 2", NULL, NULL, NULL, NULL,
                                           "defeat"};
    if (trainer) return slot < sizeof trainers / sizeof *trainers ? trainers[slot] : NULL;
    return slot < sizeof pokemon / sizeof *pokemon ? pokemon[slot] : NULL;
}

bool ue_pkx_is_trainer(const uint8_t *p, size_t n, const ue_pkx_info *info) {
    return info->layout == UE_PKX_XD && n >= 0x1A && ue_load_u16be(p + 0x18) == 0;
}

/* ---- container contract --------------------------------------------------------------------- */

typedef struct pkx_state {
    uint8_t *bytes;
    size_t size;
    ue_pkx_info info;
} pkx_state;

static bool pkx_probe(const uint8_t *h, size_t n, uint64_t total) {
    if (n < 0x44) return false;
    uint32_t w0 = ue_load_u32be(h), w40 = ue_load_u32be(h + 0x40);
    if (w0 == w40)
        return w0 >= 0x20 && UE_PKX_COLO_HEADER + (uint64_t)w0 <= total &&
               ue_load_u32be(h + 0x08) <= UE_PKX_MAX_ANIMS && ue_load_u32be(h + 0x04) < total;
    if (n < UE_PKX_XD_PREAMBLE) return false;
    uint32_t anims = ue_load_u32be(h + 0x10), gl = ue_load_u32be(h + 0x08);
    if (ue_load_u32be(h + 0x04) != 0 || ue_load_u32be(h + 0x0C) != 0 || anims == 0 ||
        anims > UE_PKX_MAX_ANIMS || gl > total || w0 < 0x20)
        return false;
    uint64_t dat = align32(UE_PKX_XD_PREAMBLE + (uint64_t)anims * UE_PKX_ANIM_ENTRY) + align32(gl);
    return dat + 0x20 <= total;
}

static ue_result pkx_open(const ue_source *src, ue_mode mode, void **state, ue_diag *d) {
    if (src->size > UE_CAP_ENTRY_BYTES) {
        ue_diag_add(d, UE_SEV_ERROR, "pkx.size_cap", UE_NO_OFFSET, "pkx",
                    "a %llu-byte PKX is over the %zu-byte cap", (unsigned long long)src->size,
                    (size_t)UE_CAP_ENTRY_BYTES);
        return UE_ERR_LIMIT;
    }
    pkx_state *s = calloc(1, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    s->size = (size_t)src->size;
    ue_result r = ue_source_read_alloc(src, 0, s->size, UE_CAP_ENTRY_BYTES, &s->bytes);
    if (r == UE_OK) r = ue_pkx_parse(s->bytes, s->size, mode, &s->info, d);
    if (r != UE_OK) {
        free(s->bytes);
        free(s);
        return r;
    }
    *state = s;
    return UE_OK;
}

static void pkx_close(void *state) {
    pkx_state *s = state;
    if (!s) return;
    free(s->bytes);
    free(s);
}

static size_t pkx_count(const void *state) {
    return ((const pkx_state *)state)->info.gpt1_length ? 2 : 1;
}

static void pkx_entry(const void *state, size_t i, ue_entry_info *info) {
    const pkx_state *s = state;
    memset(info, 0, sizeof *info);
    info->index = i;
    snprintf(info->method, sizeof info->method, "stored");
    if (i == 0) {
        snprintf(info->name, sizeof info->name, "%s", UE_PKX_MODEL_ENTRY);
        snprintf(info->type, sizeof info->type, "dat");
        info->offset = s->info.dat_offset;
        info->size = info->stored_size = s->info.dat_size;
    } else {
        snprintf(info->name, sizeof info->name, "particles.gpt1");
        snprintf(info->type, sizeof info->type, "gpt1");
        info->offset = s->info.gpt1_offset;
        info->size = info->stored_size = s->info.gpt1_length;
    }
}

static bool pkx_find(const void *state, const char *name, size_t *index) {
    size_t n = pkx_count(state);
    if (strcmp(name, UE_PKX_MODEL_ENTRY) == 0 || strcmp(name, "dat") == 0) *index = 0;
    else if (n > 1 && (strcmp(name, "particles.gpt1") == 0 || strcmp(name, "gpt1") == 0)) *index = 1;
    else return false;
    return true;
}

static ue_result pkx_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    (void)d;
    pkx_state *s = state;
    ue_entry_info e;
    pkx_entry(state, i, &e);
    *data = ue_malloc_items((size_t)e.size, 1);
    if (!*data) return UE_ERR_NOMEM;
    if (e.size) memcpy(*data, s->bytes + e.offset, (size_t)e.size);
    *size = (size_t)e.size;
    return UE_OK;
}

static void write_u32_array(ue_json *w, const char *key, const uint8_t *p, size_t count, bool is_signed) {
    ue_json_key(w, key);
    ue_json_array_begin(w);
    for (size_t k = 0; k < count; k++) {
        uint32_t v = ue_load_u32be(p + 4 * k);
        ue_json_int(w, is_signed ? (int64_t)(int32_t)v : (int64_t)v);
    }
    ue_json_array_end(w);
}

static void write_hex_key(ue_json *w, const char *key, const uint8_t *p, size_t n) {
    ue_json_key(w, key);
    ue_json_hex(w, p, n);
}

/* XD times its four phases in seconds (floats), Colosseum in frames (integers). */
static void write_timing(ue_json *w, const uint8_t *p, ue_pkx_layout layout) {
    ue_json_key(w, layout == UE_PKX_XD ? "timing_seconds" : "timing_frames");
    ue_json_array_begin(w);
    for (int k = 0; k < 4; k++) {
        uint32_t word = ue_load_u32be(p + 0x10 + 4 * k);
        float f;
        memcpy(&f, &word, sizeof f);
        if (layout != UE_PKX_XD) ue_json_int(w, word);
        else if (isfinite(f)) ue_json_real(w, f);
        else ue_json_null(w);
    }
    ue_json_array_end(w);
}

static void write_anim(ue_json *w, const uint8_t *p, ue_pkx_layout layout) {
    ue_json_object_begin(w);
    ue_json_key_int(w, "motion_kind", ue_load_u32be(p));
    ue_json_key_int(w, "sub_anim_count", ue_load_u32be(p + 0x04));
    ue_json_key_int(w, "damage_flags", ue_load_u32be(p + 0x08));
    ue_json_key_int(w, "word_0c", ue_load_u32be(p + 0x0C));
    write_timing(w, p, layout);
    bool zero = true;
    for (size_t k = 0x20; k < 0x4C; k++)
        if (p[k]) zero = false;
    if (!zero) write_hex_key(w, "unknown_20_hex", p + 0x20, 0x2C);
    write_u32_array(w, "body_map", p + 0x4C, 16, true);
    ue_json_key(w, "sub_anims");
    ue_json_array_begin(w);
    for (int k = 0; k < 8; k++) {
        ue_json_object_begin(w);
        ue_json_key_int(w, "motion_type", ue_load_u32be(p + 0x8C + 8 * k));
        ue_json_key_int(w, "anim_index", ue_load_u32be(p + 0x90 + 8 * k));
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    ue_json_key_int(w, "terminator", ue_load_u32be(p + 0xCC));
    ue_json_object_end(w);
}

/* The entry table as `info` shows it (docs/formats/pkx.md#entry-slots): per slot its battle meaning and the animation
 * indices (ModelSet.anims[] / matanims[] positions) it plays. */
static void write_slots(ue_json *w, const pkx_state *s) {
    ue_pkx_anim_entry *e = NULL;
    size_t n = 0;
    if (ue_pkx_anim_entries(s->bytes, s->size, &s->info, UE_MODE_TOLERANT, &e, &n, NULL) != UE_OK) {
        ue_json_null(w);
        return;
    }
    bool trainer = ue_pkx_is_trainer(s->bytes, s->size, &s->info);
    ue_json_array_begin(w);
    for (size_t k = 0; k < n; k++) {
        const char *name = ue_pkx_slot_name((uint32_t)k, trainer);
        ue_json_object_begin(w);
        ue_json_key_int(w, "slot", (int64_t)k);
        ue_json_key_string_or_null(w, "name", name);
        ue_json_key_int(w, "motion_kind", e[k].motion_kind);
        ue_json_key(w, "anims");
        ue_json_array_begin(w);
        for (uint32_t i = 0; i < e[k].anim_count; i++) ue_json_int(w, e[k].sub_anim[i]);
        ue_json_array_end(w);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    free(e);
}

static void write_colosseum_header(ue_json *w, const ue_pkx_info *i, const uint8_t *p) {
    ue_json_key_int(w, "particle_orientation", (int32_t)ue_load_u32be(p + 0x0C));
    ue_json_key_int(w, "word_10", ue_load_u32be(p + 0x10));
    ue_json_key_int(w, "word_14", (int32_t)ue_load_u32be(p + 0x14));
    write_u32_array(w, "sub_anim_refs", p + 0x18, 3, true);
    if (i->size - i->tail_offset >= 20) {
        const uint8_t *sh = p + i->size - 20;
        write_u32_array(w, "shiny_routing", sh, 4, false);
        ue_json_key_int(w, "shiny_brightness", ue_load_u32be(sh + 16));
    }
}

static void write_xd_header(ue_json *w, const uint8_t *p) {
    ue_json_key_int(w, "particle_orientation", (int32_t)ue_load_u32be(p + 0x14));
    ue_json_key_int(w, "species", ue_load_u16be(p + 0x18));
    ue_json_key_int(w, "word_1a", ue_load_u16be(p + 0x1A));
    ue_json_key(w, "part_anims");
    ue_json_array_begin(w);
    for (int b = 0; b < 4; b++) {
        const uint8_t *q = p + 0x1C + 19 * b;
        ue_json_object_begin(w);
        ue_json_key_int(w, "type", q[0]);
        ue_json_key_int(w, "count", q[1]);
        write_hex_key(w, "parts_hex", q + 2, 8);
        write_hex_key(w, "selectors_hex", q + 10, 8);
        ue_json_key_int(w, "anim_index", q[18]);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    ue_json_key_int(w, "flags", p[0x68]);
    ue_json_key_int(w, "byte_69", p[0x69]);
    ue_json_key_int(w, "distortion_param", ue_load_u16be(p + 0x6A));
    ue_json_key_int(w, "distortion_type", p[0x6C]);
    ue_json_key_int(w, "head_bone", ue_load_u16be(p + 0x6E));
    write_u32_array(w, "shiny_routing", p + 0x70, 4, false);
    write_hex_key(w, "shiny_brightness_hex", p + 0x80, 4);
}

static void pkx_info_json(const void *state, ue_json *w) {
    const pkx_state *s = state;
    const ue_pkx_info *i = &s->info;
    const uint8_t *p = s->bytes;
    ue_json_object_begin(w);
    ue_json_key_string(w, "layout", i->layout == UE_PKX_XD ? "xd" : "colosseum");
    ue_json_key_int(w, "declared_dat_size", i->declared_dat_size);
    ue_json_key_int(w, "dat_offset", (int64_t)i->dat_offset);
    ue_json_key_int(w, "dat_size", (int64_t)i->dat_size);
    ue_json_key_bool(w, "dat_size_fallback", i->dat_size_fallback);
    ue_json_key_int(w, "gpt1_offset", (int64_t)i->gpt1_offset);
    ue_json_key_int(w, "gpt1_length", i->gpt1_length);
    ue_json_key_int(w, "anim_offset", (int64_t)i->anim_offset);
    ue_json_key_int(w, "anim_count", i->anim_count);
    ue_json_key_int(w, "tail_offset", (int64_t)i->tail_offset);
    ue_json_key_int(w, "tail_size", (int64_t)(i->size - i->tail_offset));
    if (i->layout == UE_PKX_COLOSSEUM) write_colosseum_header(w, i, p);
    else write_xd_header(w, p);
    ue_json_key(w, "animations");
    ue_json_array_begin(w);
    for (uint32_t k = 0; k < i->anim_count; k++)
        write_anim(w, p + i->anim_offset + (size_t)k * UE_PKX_ANIM_ENTRY, i->layout);
    ue_json_array_end(w);
    ue_json_key(w, "slots");
    write_slots(w, s);
    ue_json_object_end(w);
}

static void pkx_entry_json(const void *state, size_t i, ue_json *w) {
    ue_entry_info e;
    pkx_entry(state, i, &e);
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", (int64_t)i);
    ue_json_key_string(w, "name", e.name);
    ue_json_key_string(w, "type", e.type);
    ue_json_key_int(w, "offset", (int64_t)e.offset);
    ue_json_key_int(w, "size", (int64_t)e.size);
    ue_json_object_end(w);
}

static void write_layout(ue_json *w, const ue_pkx_info *i) {
    ue_json_object_begin(w);
    ue_json_key_string(w, "layout", i->layout == UE_PKX_XD ? "xd" : "colosseum");
    ue_json_key_int(w, "size", (int64_t)i->size);
    ue_json_key_int(w, "dat_offset", (int64_t)i->dat_offset);
    ue_json_key_int(w, "dat_size", (int64_t)i->dat_size);
    ue_json_key_int(w, "gpt1_offset", (int64_t)i->gpt1_offset);
    ue_json_key_int(w, "gpt1_length", i->gpt1_length);
    ue_json_key_int(w, "anim_offset", (int64_t)i->anim_offset);
    ue_json_key_int(w, "anim_count", i->anim_count);
    ue_json_key_int(w, "tail_offset", (int64_t)i->tail_offset);
    ue_json_object_end(w);
}

/* A file extract wrote, under `key`: its path and the XXH64 of its bytes. */
static void write_file(ue_json *w, const char *key, const char *rel, const uint8_t *p, size_t n) {
    ue_json_key(w, key);
    ue_json_object_begin(w);
    ue_json_key_string(w, "file", rel);
    ue_json_key(w, "xxh64");
    ue_json_xxh64(w, p, n);
    ue_json_object_end(w);
}

static ue_result pkx_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d) {
    pkx_state *s = state;
    const ue_pkx_info *i = &s->info;
    ue_json_key(w, "metadata");
    pkx_info_json(state, w);
    ue_json_key(w, "layout");
    write_layout(w, i);
    ue_result r = ue_outdir_write(o, "entries/0000_model.dat", s->bytes + i->dat_offset,
                                  i->dat_size, d);
    write_file(w, "dat", "entries/0000_model.dat", s->bytes + i->dat_offset, i->dat_size);
    if (r == UE_OK && i->gpt1_length) {
        r = ue_outdir_write(o, "entries/0001_particles.gpt1", s->bytes + i->gpt1_offset,
                            i->gpt1_length, d);
        write_file(w, "gpt1", "entries/0001_particles.gpt1", s->bytes + i->gpt1_offset, i->gpt1_length);
    }
    /* The frame: every byte except the DAT and the GPT1 block, in file order. */
    ue_buf f = {0};
    size_t first = i->layout == UE_PKX_XD ? i->gpt1_offset : i->dat_offset;
    size_t first_len = i->layout == UE_PKX_XD ? i->gpt1_length : i->dat_size;
    size_t second = i->layout == UE_PKX_XD ? i->dat_offset : i->gpt1_offset;
    size_t second_len = i->layout == UE_PKX_XD ? i->dat_size : i->gpt1_length;
    ue_buf_put(&f, s->bytes, first);
    ue_buf_put(&f, s->bytes + first + first_len, second - first - first_len);
    ue_buf_put(&f, s->bytes + second + second_len, s->size - second - second_len);
    if (r == UE_OK) r = f.failed ? UE_ERR_NOMEM : ue_outdir_write(o, "layout/frame.bin", f.data, f.size, d);
    write_file(w, "frame", "layout/frame.bin", f.data, f.size);
    ue_buf_free(&f);
    return r;
}

static bool get_size(const ue_jv *o, const char *k, size_t *out, ue_diag *d) {
    uint64_t v;
    if (!ue_jv_u64(o, k, &v, "manifest/layout", d) || v > UE_CAP_ENTRY_BYTES) return false;
    *out = (size_t)v;
    return true;
}

/* The keys extract writes; pack warns about any other. "metadata" is checked against what the
 * packed file holds (pkx_info_json), as its own keys depend on the layout. */
static const char *const pkx_manifest_keys[] = {"unearth_manifest", "format", "source", "metadata",
                                                "layout", "dat", "gpt1", "frame", NULL};
static const char *const pkx_layout_keys[] = {"layout", "size", "dat_offset", "dat_size",
                                              "gpt1_offset", "gpt1_length", "anim_offset",
                                              "anim_count", "tail_offset", NULL};
static const char *const pkx_part_keys[] = {"file", "xxh64", NULL};
/* Metadata a new DAT or GPT1 block changes (sizes, and the offsets of what follows them). */
static const char *const pkx_part_sized[] = {"declared_dat_size", "dat_offset", "dat_size",
                                             "dat_size_fallback", "gpt1_offset", "gpt1_length",
                                             "anim_offset", "tail_offset", "tail_size", NULL};

static void pkx_check_keys(const ue_jv *manifest, ue_diag *d) {
    static const char *const parts[] = {"dat", "gpt1", "frame"};
    ue_manifest_unknown_keys_jv(manifest, pkx_manifest_keys, "manifest", NULL, d);
    ue_manifest_unknown_keys_jv(ue_jv_get(manifest, "layout"), pkx_layout_keys, "manifest/layout",
                                NULL, d);
    for (size_t k = 0; k < 3; k++) {
        char where[32];
        snprintf(where, sizeof where, "manifest/%s", parts[k]);
        ue_manifest_unknown_keys_jv(ue_jv_get(manifest, parts[k]), pkx_part_keys, where, NULL, d);
    }
}

/* layout.layout: "xd" or "colosseum" as extract writes it, in any case ("XD" is the game's own
 * spelling); any other value is refused, since the two layouts place DAT and GPT1 differently. */
static bool layout_of(const char *name, ue_pkx_layout *out, ue_diag *d) {
    if (!strcasecmp(name, "xd") || !strcasecmp(name, "colosseum")) {
        *out = !strcasecmp(name, "xd") ? UE_PKX_XD : UE_PKX_COLOSSEUM;
        return true;
    }
    char shown[64];
    ue_text_printable(name, shown, sizeof shown);
    ue_diag_add(d, UE_SEV_ERROR, "manifest.field", UE_NO_OFFSET, "manifest/layout",
                "\"layout\" is \"%s\": a PKX layout is \"xd\" or \"colosseum\"", shown);
    return false;
}

/* Nothing in a PKX is compressed: the pack options (the LZSS level) have nothing to apply to. */
static ue_result pkx_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *opt,
                         ue_buf *out, ue_diag *d) {
    (void)opt;
    pkx_check_keys(manifest, d);
    const ue_jv *lj = ue_jv_get(manifest, "layout");
    const char *lname = ue_jv_string(ue_jv_get(lj, "layout"));
    ue_pkx_info info = {0};
    size_t anim_count = 0, gl = 0;
    if (!lname || !get_size(lj, "size", &info.size, d) ||
        !get_size(lj, "dat_offset", &info.dat_offset, d) ||
        !get_size(lj, "dat_size", &info.dat_size, d) ||
        !get_size(lj, "gpt1_offset", &info.gpt1_offset, d) || !get_size(lj, "gpt1_length", &gl, d) ||
        !get_size(lj, "anim_offset", &info.anim_offset, d) ||
        !get_size(lj, "anim_count", &anim_count, d) ||
        !get_size(lj, "tail_offset", &info.tail_offset, d) || anim_count > UE_PKX_MAX_ANIMS) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, "manifest/layout",
                    "PKX layout description missing or incomplete");
        return UE_ERR_INVALID;
    }
    if (!layout_of(lname, &info.layout, d)) return UE_ERR_INVALID;
    info.gpt1_length = (uint32_t)gl;
    info.anim_count = (uint32_t)anim_count;
    uint8_t *frame = NULL, *dat = NULL, *gpt1 = NULL, *orig = NULL;
    size_t fn = 0, dn = 0, gn = 0;
    bool ch, dat_changed = false, gpt1_changed = false;
    ue_result r = ue_manifest_load_file_jv(dir, ue_jv_get(manifest, "frame"), "file",
                                           UE_CAP_ENTRY_BYTES, &frame, &fn, &ch, d);
    if (r == UE_OK)
        r = ue_manifest_load_file_jv(dir, ue_jv_get(manifest, "dat"), "file", UE_CAP_ENTRY_BYTES,
                                     &dat, &dn, &dat_changed, d);
    if (r == UE_OK && ue_jv_get(manifest, "gpt1"))
        r = ue_manifest_load_file_jv(dir, ue_jv_get(manifest, "gpt1"), "file",
                                     UE_CAP_ENTRY_BYTES, &gpt1, &gn, &gpt1_changed, d);
    size_t base = out->size;
    /* Put placeholders of the original sizes back into the frame, then re-wrap. */
    if (r == UE_OK && (info.size < info.dat_size || info.size - info.dat_size < gl ||
                       fn != info.size - info.dat_size - gl || !info_consistent(&info, info.size))) {
        ue_diag_add(d, UE_SEV_ERROR, "pkx.layout", UE_NO_OFFSET, "manifest/layout",
                    "frame of %zu bytes does not match the recorded layout", fn);
        r = UE_ERR_INVALID;
    }
    if (r == UE_OK) {
        orig = ue_calloc_items(info.size, 1);
        if (!orig) r = UE_ERR_NOMEM;
    }
    if (r == UE_OK) {
        size_t first = info.layout == UE_PKX_XD ? info.gpt1_offset : info.dat_offset;
        size_t first_len = info.layout == UE_PKX_XD ? gl : info.dat_size;
        size_t second = info.layout == UE_PKX_XD ? info.dat_offset : info.gpt1_offset;
        size_t second_len = info.layout == UE_PKX_XD ? info.dat_size : gl;
        size_t a = first, b = second - first - first_len;
        memcpy(orig, frame, a);
        memcpy(orig + first + first_len, frame + a, b);
        memcpy(orig + second + second_len, frame + a + b, fn - a - b);
        r = ue_pkx_rewrap(orig, info.size, &info, dat, dn, gpt1, gpt1 ? gn : 0, out, d);
    }
    if (r == UE_OK)
        ue_manifest_check_info(&ue_pkx_ops, out->data + base, out->size - base,
                               ue_jv_get(manifest, "metadata"), "metadata",
                               dat_changed || gpt1_changed ? pkx_part_sized : NULL,
                               "pack copies it from layout/frame.bin; edit those bytes instead", d);
    free(frame);
    free(dat);
    free(gpt1);
    free(orig);
    return r;
}

static ue_result pkx_reencode(void *state, ue_buf *out, ue_diag *d) {
    pkx_state *s = state;
    const ue_pkx_info *i = &s->info;
    return ue_pkx_rewrap(s->bytes, s->size, i, s->bytes + i->dat_offset, i->dat_size,
                         s->bytes + i->gpt1_offset, i->gpt1_length, out, d);
}

/* ue_archive_put: model.dat (the DAT) and particles.gpt1 replaced by re-wrapping the frame
 * (header sizes, padding, animation table and every other byte kept); a PKX holds nothing else. */
static ue_result pkx_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count, ue_buf *out,
                         size_t *added, ue_diag *d) {
    *added = 0;
    pkx_state *s = NULL;
    ue_result r = pkx_open(src, UE_MODE_STRICT, (void **)&s, d);
    const ue_pkx_info *i = r == UE_OK ? &s->info : NULL;
    const uint8_t *dat = r == UE_OK ? s->bytes + i->dat_offset : NULL, *gpt1 = NULL;
    size_t dat_size = r == UE_OK ? i->dat_size : 0, gpt1_size = 0;
    for (size_t e = 0; r == UE_OK && e < count; e++) {
        size_t index;
        if (!pkx_find(s, entries[e].name, &index)) {
            ue_diag_add(d, UE_SEV_ERROR, "archive.put.absent", UE_NO_OFFSET, "pkx",
                        "a PKX holds %s only, not \"%s\"", i->gpt1_length ? "model.dat and particles.gpt1" : "model.dat",
                        entries[e].name);
            r = UE_ERR_USAGE;
        } else if (index == 0) {
            dat = entries[e].data, dat_size = entries[e].size;
        } else {
            gpt1 = entries[e].data, gpt1_size = entries[e].size;
        }
    }
    if (r == UE_OK) r = ue_pkx_rewrap(s->bytes, s->size, i, dat, dat_size, gpt1, gpt1_size, out, d);
    pkx_close(s);
    return r;
}

const ue_container_ops ue_pkx_ops = {
    .name = "pkx",
    .names_made_up = true, /* "model.dat" */
    .description = "Pokémon Colosseum / XD PKX model wrapper",
    .probe = pkx_probe,
    .open = pkx_open,
    .close = pkx_close,
    .count = pkx_count,
    .entry = pkx_entry,
    .find = pkx_find,
    .read = pkx_read,
    .info_json = pkx_info_json,
    .entry_json = pkx_entry_json,
    .extract = pkx_extract,
    .pack = pkx_pack,
    .put = pkx_put,
    .reencode = pkx_reencode,
    .validate = NULL,
};
