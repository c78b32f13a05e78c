/* unearth — GameCube part of the sample pack: placeholder HSD DATs in both PKX layouts and two
 * FSYS archives (Colosseum v1 / XD v2), and the sample creature wrapped FSYS → LZSS → PKX → DAT. */
#include <stdlib.h>
#include <string.h>

#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "samples/samples.h"
#include "samples/gamecube_creature.h"
#include "common/bytes.h"

/* Deterministic generator (xorshift32) so every build yields the same bytes. */
static uint32_t next_rand(uint32_t *s) {
    uint32_t x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* A minimal HSD archive (docs/formats/dat.md#file-layout): header, a data block of vaguely model-like words, no
 * relocations, one public root. Its first word is its own size, as PKX detection expects. */
static uint8_t *placeholder_dat(const char *root, uint32_t seed, size_t blocks, size_t *n) {
    const size_t data_size = blocks * 0x40;
    const size_t name_len = strlen(root) + 1;
    const size_t size = 0x20 + data_size + 8 + name_len;
    uint8_t *p = calloc(size, 1);
    if (!p) return NULL;
    ue_store_u32be(p + 0x00, (uint32_t)size);
    ue_store_u32be(p + 0x04, (uint32_t)data_size);
    ue_store_u32be(p + 0x0C, 1);
    uint32_t s = seed ? seed : 1;
    for (size_t b = 0; b < blocks; b++) {
        uint8_t *q = p + 0x20 + b * 0x40;
        /* A joint-like record: flags, a few floats near 1.0, a repeated tail; it compresses
         * the way real DATs do (many repeats, some noise). */
        ue_store_u32be(q + 0x00, 0x00000100u | (uint32_t)(b & 7));
        for (int k = 0; k < 9; k++) {
            uint32_t r = next_rand(&s);
            uint32_t f = (r & 3) == 0 ? 0x3F800000u : (r & 3) == 1 ? 0u : (0x3F000000u | (r >> 12));
            ue_store_u32be(q + 0x14 + 4 * k, f);
        }
    }
    uint8_t *pub = p + 0x20 + data_size;
    ue_store_u32be(pub + 0, 0);
    ue_store_u32be(pub + 4, 0);
    memcpy(pub + 8, root, name_len);
    *n = size;
    return p;
}

/* anim_count × 0xD0 animation entries (docs/formats/pkx.md#animation-entry). */
static uint8_t *anim_table(uint32_t count, bool xd) {
    uint8_t *a = ue_calloc_items(count, 0xD0);
    if (!a) return NULL;
    for (uint32_t i = 0; i < count; i++) {
        uint8_t *e = a + (size_t)i * 0xD0;
        ue_store_u32be(e + 0x00, i == 0 ? 2u : (i == 8 || i == 9) ? 3u : 4u);
        ue_store_u32be(e + 0x04, 1);
        for (int k = 0; k < 4; k++) {
            uint32_t frames = 10u * (uint32_t)(k + 1) + i;
            if (xd) {
                float sec = (float)frames / 60.0f;
                uint32_t w;
                memcpy(&w, &sec, sizeof w);
                ue_store_u32be(e + 0x10 + 4 * k, w);
            } else {
                ue_store_u32be(e + 0x10 + 4 * k, frames);
            }
        }
        for (int k = 0; k < 16; k++) ue_store_u32be(e + 0x4C + 4 * k, k < 3 ? (uint32_t)k : 0xFFFFFFFFu);
        ue_store_u32be(e + 0x8C, xd ? (i == 0 ? 2u : 1u) : 0u);
        ue_store_u32be(e + 0x90, i);
        ue_store_u32be(e + 0xCC, xd ? 3u : 1u);
    }
    return a;
}

static uint8_t *build_pkx(ue_pkx_layout layout, uint32_t seed, bool with_gpt1, size_t *n) {
    size_t dn;
    uint8_t *dat = placeholder_dat("unearth_placeholder", seed, 24, &dn);
    uint32_t count = layout == UE_PKX_XD ? 17 : 16;
    uint8_t *anims = anim_table(count, layout == UE_PKX_XD);
    uint8_t gpt1[0x44] = {0};
    memcpy(gpt1, "GPT1", 4);
    ue_store_u32be(gpt1 + 4, 0x20);
    ue_store_u32be(gpt1 + 8, 0x40);
    for (size_t k = 0x20; k < sizeof gpt1; k++) gpt1[k] = (uint8_t)(k * 7);
    ue_buf b = {0};
    ue_result r = UE_ERR_NOMEM;
    if (dat && anims)
        r = ue_pkx_build(layout, dat, dn, with_gpt1 ? gpt1 : NULL, with_gpt1 ? sizeof gpt1 : 0,
                         anims, count, layout == UE_PKX_XD ? 25 : 0, &b);
    free(dat);
    free(anims);
    if (r != UE_OK) {
        ue_buf_free(&b);
        return NULL;
    }
    return ue_buf_take(&b, n);
}

static ue_result add_buf(ue_sample_list *out, const char *path, ue_buf *b) {
    size_t n;
    uint8_t *p = ue_buf_take(b, &n);
    return p ? ue_sample_list_add(out, path, p, n) : UE_ERR_NOMEM;
}

/* The sample creature (gamecube_creature.c) in an XD-style PKX, and in an XD-style FSYS that
 * stores that PKX LZSS-compressed: the game's chain FSYS → LZSS → PKX → DAT (the bare DAT is in
 * gamecube/dat/, gamecube_dats.c). Its 0xD0 entries and blink block name the creature's clips
 * (gamecube_creature_anim.c). */
static ue_result add_creature(ue_sample_list *out) {
    ue_buf dat = {0}, pkx = {0}, fsys = {0};
    uint8_t *anims = creature_pkx_anim_entries();
    ue_result r = anims ? ue_sample_creature_dat(&dat) : UE_ERR_NOMEM;
    if (r == UE_OK)
        r = ue_pkx_build(UE_PKX_XD, dat.data, dat.size, NULL, 0, anims, 17, CREATURE_SPECIES, &pkx);
    if (r == UE_OK) creature_pkx_blink(pkx.data, pkx.size);
    const ue_fsys_write_entry entries[] = {
        {"creature", "creature.pkx", 0x1E, 0x0301, true, pkx.data, pkx.size, NULL, 0, NULL, 0},
    };
    ue_fsys_write_options opt = {0x201, 0x0003, true, NULL, 0, 9};
    if (r == UE_OK) r = ue_fsys_write(&opt, entries, 1, &fsys, NULL);
    free(anims);
    if (r == UE_OK) r = add_buf(out, "gamecube/creature.fsys", &fsys);
    if (r == UE_OK) r = add_buf(out, "gamecube/creature.pkx", &pkx);
    ue_buf_free(&dat);
    ue_buf_free(&pkx);
    ue_buf_free(&fsys);
    return r;
}

ue_result ue_samples_gamecube(ue_sample_list *out) {
    size_t colo_n, xd_n, xdg_n, dat_n, room_n;
    uint8_t *colo = build_pkx(UE_PKX_COLOSSEUM, 0xC0105u, true, &colo_n);
    uint8_t *xd = build_pkx(UE_PKX_XD, 0x0D0Du, false, &xd_n);
    uint8_t *xdg = build_pkx(UE_PKX_XD, 0x6B71u, true, &xdg_n);
    uint8_t *dat = placeholder_dat("unearth_placeholder", 0xDA7u, 12, &dat_n);
    uint8_t *room = placeholder_dat("unearth_room", 0x2004u, 40, &room_n);
    static const uint8_t cam[48] = {0, 0, 0, 48, 0, 0, 0, 8, 'c', 'a', 'm', 0};
    static const uint8_t blob[21] = "unknown type payload";
    ue_result r = UE_ERR_NOMEM;
    ue_buf b = {0};
    if (!colo || !xd || !xdg || !dat || !room) goto done;

    /* Colosseum-style v1 archive, short names only. */
    const ue_fsys_write_entry colo_entries[] = {
        {"demo_colo", NULL, 0x1E, 0x0101, true, colo, colo_n, NULL, 0, NULL, 0},
        {"demo_model", NULL, 0x04, 0x0102, false, dat, dat_n, NULL, 0, NULL, 0},
        {"demo_room", NULL, 0x02, 0x0103, true, room, room_n, NULL, 0, NULL, 0},
        {"demo_cam", NULL, 0x18, 0x0104, false, cam, sizeof cam, NULL, 0, NULL, 0},
        {"demo_blob", NULL, 0x16, 0x0105, false, blob, sizeof blob - 1, NULL, 0, NULL, 0},
    };
    ue_fsys_write_options opt = {0x100, 0x0001, false, NULL, 0, 9};
    r = ue_fsys_write(&opt, colo_entries, sizeof colo_entries / sizeof colo_entries[0], &b, NULL);
    if (r == UE_OK) r = add_buf(out, "gamecube/demo_colo.fsys", &b);

    /* XD-style v2 archive with full names; the last entry has no usable name at all. */
    const ue_fsys_write_entry xd_entries[] = {
        {"demo_xd", NULL, 0x1E, 0x0201, true, xd, xd_n, NULL, 0, NULL, 0},
        {"demo_xd_gpt1", "demo_xd_gpt1.pkx", 0x1E, 0x0202, false, xdg, xdg_n, NULL, 0, NULL, 0},
        {"demo_model", NULL, 0x04, 0x0203, true, dat, dat_n, NULL, 0, NULL, 0},
        {"", "", 0x04, 0x0204, false, dat, dat_n, NULL, 0, NULL, 0},
    };
    ue_fsys_write_options xopt = {0x201, 0x0002, true, NULL, 0, 9};
    if (r == UE_OK)
        r = ue_fsys_write(&xopt, xd_entries, sizeof xd_entries / sizeof xd_entries[0], &b, NULL);
    if (r == UE_OK) r = add_buf(out, "gamecube/demo_xd.fsys", &b);

    if (r == UE_OK) {
        r = ue_sample_list_add(out, "gamecube/demo_colo.pkx", colo, colo_n);
        colo = NULL;
    }
    if (r == UE_OK) {
        r = ue_sample_list_add(out, "gamecube/demo_xd.pkx", xd, xd_n);
        xd = NULL;
    }
    if (r == UE_OK) r = ue_gclzss_encode(dat, dat_n, 9, 0, &b);
    if (r == UE_OK) r = add_buf(out, "gamecube/demo_model.lzss", &b);
    if (r == UE_OK) r = add_creature(out);
    if (r == UE_OK) r = ue_samples_gamecube_dats(out);
done:
    ue_buf_free(&b);
    free(colo);
    free(xd);
    free(xdg);
    free(dat);
    free(room);
    return r;
}
