/* unearth — the sample robot's materials: its WEAR table and a Material.lib of MAT0 entries
 * naming the textures of the sample Textures.lib (parkan_textures.c), from spec §5.2–5.3. */
#include <stdlib.h>
#include <string.h>

#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "samples/samples.h"

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

/* The robot's batches use rows 0 body, 1 head and antenna, 2 arms, 3 legs. */
const char ue_sample_robot_wear[] = "4\r\n0 ROBOT_BODY\r\n1 ROBOT_HEAD\r\n2 ROBOT_ARM\r\n3 ROBOT_LEG\r\n";

/* ---- Material.lib -------------------------------------------------------------------------- */

/* A version-6 MAT0: white colour groups and `texture`; a `second` texture adds a second phase
 * and one looping block of two keys (k0 phase, k1 time). */
static ue_result add_mat0(ue_nres *n, const char *name, const char *texture, const char *second) {
    bool animated = second != NULL;
    ue_mat0_phase ph[2];
    memset(ph, 0, sizeof ph);
    for (int p = 0; p < 2; p++) {
        for (int i = 4; i < 16; i++) ph[p].params[i] = 255;
        ph[p].params[3] = 100; /* × 0.01 = 1.0 */
        const char *t = p && second ? second : texture;
        memcpy(ph[p].texture, t, strlen(t) < UE_MAT0_NAME_BYTES ? strlen(t) : UE_MAT0_NAME_BYTES);
    }
    ph[1].params[12] = 128; /* the second phase dims one colour group */
    ue_mat0_key keys[2] = {{0, 0, 0}, {1, 500, 0}};
    ue_mat0_anim anim = {0, 2, keys};
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
    /* Texture names of the sample Textures.lib (docs/parkan-textures.md); the head's eye glows
     * in its second phase. */
    ue_result r = add_mat0(&n, "ROBOT_BODY", "ROBOT_BODY.0", NULL);
    if (r == UE_OK) r = add_mat0(&n, "ROBOT_HEAD", "ROBOT_EYE.0", "ROBOT_GLOW.0");
    if (r == UE_OK) r = add_mat0(&n, "ROBOT_ARM", "ROBOT_TRIM.0", NULL);
    if (r == UE_OK) r = add_mat0(&n, "ROBOT_LEG", "PANEL.0", NULL);
    if (r == UE_OK) r = add_mat0(&n, "DEFAULT", "", NULL);
    if (r == UE_OK) r = add_nres(out, &n, "parkan/Material.lib");
    ue_nres_free(&n);
    size_t size = sizeof ue_sample_robot_wear - 1;
    uint8_t *wear = malloc(size);
    if (r == UE_OK && !wear) r = UE_ERR_NOMEM;
    if (r == UE_OK) memcpy(wear, ue_sample_robot_wear, size), r = ue_sample_list_add(out, "parkan/robot.wea", wear, size);
    else free(wear);
    return r;
}
