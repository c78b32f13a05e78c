/* unearth — the sample textures_demo.lib: Texm in every pixel format the game uses, with mip
 * chains and a Page chunk, built by our own writer (entries listed in docs/parkan-textures.md). */
#include <stdlib.h>
#include <string.h>

#include "samples/samples.h"
#include "unearth/nres.h"
#include "unearth/texm.h"

#define TEXM_TYPE UE_TEXM_MAGIC

/* Pixel (x, y) of each picture, a function of position only, so the pack is deterministic. */
typedef void (*paint_fn)(uint32_t x, uint32_t y, uint8_t rgba[4]);

static void paint_body(uint32_t x, uint32_t y, uint8_t c[4]) { /* steel plates with rivets */
    bool seam = x % 8 == 0 || y % 8 == 0, rivet = x % 8 == 2 && y % 8 == 2;
    uint8_t v = (uint8_t)(seam ? 70 : rivet ? 220 : 140 + 4 * ((x + y) % 8));
    c[0] = v, c[1] = v, c[2] = (uint8_t)(v + 12 > 255 ? 255 : v + 12), c[3] = 255;
}
static void paint_glow(uint32_t x, uint32_t y, uint8_t c[4]) { /* orange disc fading out */
    int dx = (int)x * 2 - 7, dy = (int)y * 2 - 7, r2 = dx * dx + dy * dy;
    uint8_t a = (uint8_t)(r2 >= 64 ? 0 : 255 - r2 * 4);
    c[0] = 255, c[1] = (uint8_t)(120 + x * 8), c[2] = 16, c[3] = a;
}
static void paint_trim(uint32_t x, uint32_t y, uint8_t c[4]) { /* yellow and black stripes */
    bool yellow = ((x + y) / 2) % 2 == 0;
    c[0] = yellow ? 255 : 0, c[1] = yellow ? 204 : 0, c[2] = 0, c[3] = 255;
}
static void paint_panel(uint32_t x, uint32_t y, uint8_t c[4]) { /* four-colour checker */
    static const uint8_t colours[4][3] = {{40, 60, 90}, {200, 40, 40}, {230, 230, 230}, {20, 140, 60}};
    const uint8_t *k = colours[(x / 2 + y / 2) % 4];
    c[0] = k[0], c[1] = k[1], c[2] = k[2], c[3] = 255;
}
static void paint_eye(uint32_t x, uint32_t y, uint8_t c[4]) { /* red gradient */
    c[0] = (uint8_t)(128 + x * 32), c[1] = (uint8_t)(y * 16), c[2] = 0, c[3] = 255;
}

typedef struct sample_texture {
    const char *name;
    uint32_t side, format, mips, flags4;
    paint_fn paint;
} sample_texture;

static const sample_texture textures[] = {
    {"PLATES.0", 16, UE_TEXM_8888, 0, 0x20, paint_body},
    {"GLOW.0", 8, UE_TEXM_4444, 0, 0x20, paint_glow},
    {"STRIPES.0", 8, UE_TEXM_565, 1, 0, paint_trim},
    {"PANEL.0", 8, UE_TEXM_INDEXED, 2, 0x20, paint_panel},
    {"GRADIENT.0", 4, UE_TEXM_888, 1, 0x20, paint_eye},
};

static ue_result build_one(const sample_texture *t, ue_buf *out) {
    uint8_t *rgba = malloc((size_t)t->side * t->side * 4);
    if (!rgba) return UE_ERR_NOMEM;
    for (uint32_t y = 0; y < t->side; y++)
        for (uint32_t x = 0; x < t->side; x++) t->paint(x, y, rgba + ((size_t)y * t->side + x) * 4);
    /* the body carries a Page chunk: its top half and its bottom-left quarter */
    static const ue_texm_rect rects[] = {{0, 16, 0, 8}, {0, 8, 8, 8}};
    bool page = t->paint == paint_body;
    ue_texm_build how = {t->format, t->mips, t->flags4, 0, 0, page ? rects : NULL, page ? 2u : 0u, false};
    ue_result r = ue_texm_build_rgba(t->side, t->side, rgba, &how, out, NULL);
    free(rgba);
    return r;
}

ue_result ue_sample_textures_demo(ue_buf *out) {
    ue_nres n;
    ue_nres_init(&n);
    ue_result r = UE_OK;
    for (size_t i = 0; r == UE_OK && i < sizeof textures / sizeof textures[0]; i++) {
        ue_buf one = {0};
        r = build_one(&textures[i], &one);
        if (r == UE_OK) r = ue_nres_add(&n, TEXM_TYPE, 0, 0, 0, textures[i].name, one.data, one.size);
        ue_buf_free(&one);
    }
    if (r == UE_OK) r = ue_nres_write(&n, UE_NRES_CANONICAL, out, NULL);
    ue_nres_free(&n);
    return r;
}
