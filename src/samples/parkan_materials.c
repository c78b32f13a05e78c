/* unearth — the sample robot's materials: its WEAR table, a Material.lib of MAT0 entries and a
 * Textures.lib of small Texm images in four pixel formats, all written from docs/formats/materials.md and docs/formats/texm.md. */
#include <stdlib.h>
#include <string.h>

#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "samples/samples.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define SIDE 16

/* The robot's batches use rows 0 body, 1 head and antenna, 2 arms, 3 legs. */
const char ue_sample_robot_wear[] = "4\r\n0 ROBOT_BODY\r\n1 ROBOT_HEAD\r\n2 ROBOT_ARM\r\n3 ROBOT_LEG\r\n";

/* ---- Textures.lib ---------------------------------------------------------------------------- */

static void texm_header(ue_buf *b, uint32_t side, uint32_t format) {
    ue_buf_put_u32le(b, FOURCC('T', 'e', 'x', 'm'));
    ue_buf_put_u32le(b, side);
    ue_buf_put_u32le(b, side);
    ue_buf_put_u32le(b, 1); /* one mip level */
    ue_buf_put_u32le(b, 0);
    ue_buf_put_u32le(b, 0);
    ue_buf_put_u32le(b, 0);
    ue_buf_put_u32le(b, format);
}

/* Body: 8888 (bytes A, R, G, B), a steel-blue plate with a light rim and four rivets. */
static void body_texture(ue_buf *b) {
    texm_header(b, SIDE, 8888);
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++) {
            bool rim = x == 0 || y == 0 || x == SIDE - 1 || y == SIDE - 1;
            bool rivet = (x == 2 || x == SIDE - 3) && (y == 2 || y == SIDE - 3);
            uint8_t argb[4] = {255, 0x50, 0x60, 0x90};
            if (rim || rivet) argb[1] = 0xB0, argb[2] = 0xC0, argb[3] = 0xD8;
            ue_buf_put(b, argb, 4);
        }
}

/* Head: 565, orange with a visor band across the middle, dark (phase 0) or lit cyan (phase
 * 1: the second texture of ROBOT_HEAD's blinking phases). */
static void head_texture_visor(ue_buf *b, bool lit) {
    texm_header(b, SIDE, 565);
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++) {
            bool visor = y >= 6 && y < 10;
            uint16_t r = visor ? (lit ? 4 : 2) : 31, g = visor ? (lit ? 60 : 4) : 40, bl = visor ? (lit ? 30 : 6) : 4;
            ue_buf_put_u16le(b, (uint16_t)(r << 11 | g << 5 | bl));
        }
}

static void head_texture(ue_buf *b) { head_texture_visor(b, false); }
static void head_lit_texture(ue_buf *b) { head_texture_visor(b, true); }

/* Arms: 888 (bytes R, G, B, unused), green with darker diagonal stripes. */
static void arm_texture(ue_buf *b) {
    texm_header(b, SIDE, 888);
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++) {
            uint8_t px[4] = {0x40, 0xC0, 0x60, 0};
            if ((x + y) % 8 < 2) px[0] = 0x20, px[1] = 0x70, px[2] = 0x30;
            ue_buf_put(b, px, 4);
        }
}

/* Legs: 4444 (A in the top nibble), a dark grille whose holes are transparent (a cut-out). */
static void leg_texture(ue_buf *b) {
    texm_header(b, SIDE, 4444);
    for (int y = 0; y < SIDE; y++)
        for (int x = 0; x < SIDE; x++) {
            bool hole = x % 4 == 2 && y % 4 == 2;
            ue_buf_put_u16le(b, hole ? 0x0000 : 0xF333);
        }
}

static ue_result add_texm(ue_nres *n, const char *name, void (*make)(ue_buf *)) {
    ue_buf b = {0};
    make(&b);
    ue_result r = b.failed ? UE_ERR_NOMEM : ue_nres_add(n, FOURCC('T', 'e', 'x', 'm'), 0, 0, 0, name, b.data, b.size);
    ue_buf_free(&b);
    return r;
}

/* ---- Material.lib -------------------------------------------------------------------------- */

/* A version-6 MAT0: white colour groups and the given texture; `lit`, when not NULL, adds a
 * second phase with that texture and one looping block of three keys (k0 phase, k1 time in
 * milliseconds): phase 0 from 0 ms, phase 1 from 500 ms, the cycle ends at 1000 ms. */
static ue_result add_mat0(ue_nres *n, const char *name, const char *texture, const char *lit) {
    bool animated = lit != NULL;
    ue_mat0_phase ph[2];
    memset(ph, 0, sizeof ph);
    for (int p = 0; p < 2; p++) {
        for (int i = 4; i < 16; i++) ph[p].params[i] = 255;
        ph[p].params[3] = 100; /* × 0.01 = 1.0 */
        memcpy(ph[p].texture, texture, strlen(texture) < UE_MAT0_NAME_BYTES ? strlen(texture) : UE_MAT0_NAME_BYTES);
    }
    if (lit) memset(ph[1].texture, 0, UE_MAT0_NAME_BYTES), memcpy(ph[1].texture, lit, strlen(lit));
    ph[1].params[12] = 128; /* the second phase dims one colour group */
    ue_mat0_key keys[3] = {{0, 0, 0}, {1, 500, 0}, {0, 1000, 0}};
    ue_mat0_anim anim = {0, 3, keys};
    ue_mat0 m = {6, animated ? 2 : 1, animated ? 1 : 0, 255, 255, 0x3F800000u, 0, ph, &anim};
    ue_buf b = {0};
    ue_result r = ue_mat0_write(&m, &b, NULL);
    if (r == UE_OK) r = ue_nres_add(n, FOURCC('M', 'A', 'T', '0'), 0, 6, 0, name, b.data, b.size);
    ue_buf_free(&b);
    return r;
}

static ue_result add_nres(ue_sample_list *out, ue_nres *n, const char *path) {
    ue_buf b = {0};
    ue_result r = ue_nres_write(n, UE_NRES_CANONICAL, &b, NULL);
    size_t size;
    uint8_t *data = ue_buf_take(&b, &size);
    if (r == UE_OK) return ue_sample_list_add(out, path, data, size);
    free(data);
    return r;
}

ue_result ue_samples_parkan_materials(ue_sample_list *out) {
    ue_nres n;
    ue_nres_init(&n);
    ue_result r = add_mat0(&n, "ROBOT_BODY", "ROBOT_BODY.0", NULL);
    if (r == UE_OK) r = add_mat0(&n, "ROBOT_HEAD", "ROBOT_HEAD.0", "ROBOT_HEAD.1");
    if (r == UE_OK) r = add_mat0(&n, "ROBOT_ARM", "ROBOT_ARM.0", NULL);
    if (r == UE_OK) r = add_mat0(&n, "ROBOT_LEG", "ROBOT_LEG.0", NULL);
    if (r == UE_OK) r = add_mat0(&n, "DEFAULT", "", NULL);
    if (r == UE_OK) r = add_nres(out, &n, "parkan/Material.lib");
    ue_nres_free(&n);
    ue_nres_init(&n);
    if (r == UE_OK) r = add_texm(&n, "ROBOT_BODY.0", body_texture);
    if (r == UE_OK) r = add_texm(&n, "ROBOT_HEAD.0", head_texture);
    if (r == UE_OK) r = add_texm(&n, "ROBOT_HEAD.1", head_lit_texture);
    if (r == UE_OK) r = add_texm(&n, "ROBOT_ARM.0", arm_texture);
    if (r == UE_OK) r = add_texm(&n, "ROBOT_LEG.0", leg_texture);
    if (r == UE_OK) r = add_nres(out, &n, "parkan/Textures.lib");
    ue_nres_free(&n);
    size_t size = sizeof ue_sample_robot_wear - 1;
    uint8_t *wear = malloc(size);
    if (r == UE_OK && !wear) r = UE_ERR_NOMEM;
    if (r == UE_OK) memcpy(wear, ue_sample_robot_wear, size), r = ue_sample_list_add(out, "parkan/robot.wea", wear, size);
    else free(wear);
    return r;
}
