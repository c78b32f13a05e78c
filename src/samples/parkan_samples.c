/* unearth — Parkan samples built by our own writers: an outer NRes archive with typed entries,
 * a nested NRes, names that exercise the engine's lower-case sort, and distinctive attrs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "unearth/texm.h"
#include "samples/samples.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* A deterministic byte pattern that compresses a little and is easy to recognise. */
static void pattern(uint8_t *p, size_t n, uint32_t seed) {
    uint32_t x = seed;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (i % 16 < 8) ? (uint8_t)(i & 0xFF) : (uint8_t)(x >> 24);
    }
}

static ue_result build_nres(ue_nres *n, ue_sample_list *out, const char *path) {
    ue_buf buf = {0};
    ue_result r = ue_nres_write(n, UE_NRES_CANONICAL, &buf, NULL);
    if (r != UE_OK) {
        ue_buf_free(&buf);
        return r;
    }
    size_t size;
    uint8_t *data = ue_buf_take(&buf, &size);
    return ue_sample_list_add(out, path, data, size);
}

/* A one-phase MAT0 of `version` whose parameter bytes and texture name come from `bytes`. */
static ue_result add_sample_mat0(ue_nres *n, const char *name, uint32_t attr1, uint32_t version,
                                 const uint8_t *bytes) {
    ue_mat0_phase phase;
    memcpy(phase.params, bytes, sizeof phase.params);
    memset(phase.texture, 0, sizeof phase.texture);
    memcpy(phase.texture, "GRID_01", 7);
    ue_mat0 m = {version, 1, 0, bytes[20], bytes[21], 0x3F800000u, 0, &phase, NULL};
    ue_buf b = {0};
    ue_result r = ue_mat0_write(&m, &b, NULL);
    if (r == UE_OK) r = ue_nres_add(n, FOURCC('M', 'A', 'T', '0'), attr1, version, 0, name, b.data, b.size);
    ue_buf_free(&b);
    return r;
}

/* A real Texm (an entry typed 'Texm' must hold one: validate checks it) of side × side pixels
 * in `format`, one level, its RGBA taken from the byte pattern of `seed`. */
static ue_result add_sample_texm(ue_nres *n, const char *name, uint32_t attr1, uint32_t attr2,
                                 uint32_t attr3, uint32_t side, uint32_t format, uint32_t seed) {
    uint8_t rgba[16 * 16 * 4];
    if (side > 16) return UE_ERR_USAGE;
    pattern(rgba, (size_t)side * side * 4, seed);
    ue_texm_build how = {format, 1, 0, 0, 0, NULL, 0, false};
    ue_buf b = {0};
    ue_result r = ue_texm_build_rgba(side, side, rgba, &how, &b, NULL);
    if (r == UE_OK) r = ue_nres_add(n, UE_TEXM_MAGIC, attr1, attr2, attr3, name, b.data, b.size);
    ue_buf_free(&b);
    return r;
}

/* The inner archive: a small texture library, as found nested in Parkan archives. */
static ue_result inner_archive(ue_buf *out) {
    ue_nres n;
    ue_nres_init(&n);
    ue_result r = add_sample_texm(&n, "GRID_01", 0, 0, 0, 8, UE_TEXM_565, 7);
    if (r == UE_OK) r = add_sample_texm(&n, "grid_00", 0, 0, 0, 4, UE_TEXM_8888, 11);
    if (r == UE_OK) r = ue_nres_write(&n, UE_NRES_CANONICAL, out, NULL);
    ue_nres_free(&n);
    return r;
}

ue_result ue_samples_parkan(ue_sample_list *out) {
    ue_nres n;
    ue_nres_init(&n);
    ue_buf inner = {0};
    ue_result r = inner_archive(&inner);
    uint8_t blob[64]; /* the parameter bytes of the two MAT0 entries */
    pattern(blob, sizeof blob, 42);
    /* "A_B" sorts before "AB" under lower-case folding ('_' < 'b') but after it under upper
     * case ('_' > 'B'): the sample pins the engine's choice. */
    if (r == UE_OK)
        r = ue_nres_add(&n, FOURCC('W', 'E', 'A', 'R'), 0, 0, 1, "robot.wea", ue_sample_robot_wear,
                        strlen(ue_sample_robot_wear));
    /* Two valid MAT0 payloads of versions 2 and 3 (attr2), so that validate's MAT0 checks pass. */
    if (r == UE_OK) r = add_sample_mat0(&n, "AB", 0x11, 2, blob);
    if (r == UE_OK) r = add_sample_mat0(&n, "A_B", 0x22, 3, blob + 40);
    /* A texture with attrs no writer would choose, so extract/pack shows they are kept. */
    if (r == UE_OK)
        r = add_sample_texm(&n, "Robot_Skin.tex", 0xDEADBEEF, 0x01020304, 0xCAFEF00D, 8,
                            UE_TEXM_8888, 42);
    if (r == UE_OK)
        r = ue_nres_add(&n, FOURCC('N', 'R', 'e', 's'), 0, 0, 0, "textures_inner.lib", inner.data,
                        inner.size);
    if (r == UE_OK) r = ue_nres_add(&n, 1, 0, 0, 0, "empty.bin", "", 0);
    ue_buf robot = {0};
    if (r == UE_OK) r = ue_sample_robot(&robot);
    /* Models live in outer archives as nested NRes entries named *.msh. */
    if (r == UE_OK)
        r = ue_nres_add(&n, FOURCC('M', 'E', 'S', 'H'), 0, 0, 0, "ROBOT.msh", robot.data, robot.size);
    if (r == UE_OK) {
        uint8_t *copy = malloc(robot.size);
        if (!copy) r = UE_ERR_NOMEM;
        else {
            memcpy(copy, robot.data, robot.size);
            r = ue_sample_list_add(out, "parkan/robot.msh", copy, robot.size);
        }
    }
    ue_buf_free(&robot);
    ue_buf_free(&inner);
    if (r == UE_OK) r = build_nres(&n, out, "parkan/objects.rlb");
    ue_nres_free(&n);
    /* An RsLi library with one entry per packing method. */
    ue_buf lib = {0};
    if (r == UE_OK) r = ue_sample_rsli(&lib);
    if (r == UE_OK) {
        size_t size;
        uint8_t *data = ue_buf_take(&lib, &size);
        r = ue_sample_list_add(out, "parkan/sprites_demo.lib", data, size);
    }
    ue_buf_free(&lib);
    /* A texture library showing every Texm feature (the robot's own Textures.lib is made with
     * its materials). */
    ue_buf tex = {0};
    if (r == UE_OK) r = ue_sample_textures_demo(&tex);
    if (r == UE_OK) {
        size_t size;
        uint8_t *data = ue_buf_take(&tex, &size);
        r = ue_sample_list_add(out, "parkan/textures_demo.lib", data, size);
    }
    ue_buf_free(&tex);
    if (r == UE_OK) r = ue_samples_parkan_materials(out);
    return r;
}
