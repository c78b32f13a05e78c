/* unearth tests — skin weights of the edit-mode import (src/hsd/hsd_import_weights.c) at the library
 * level, where a scene can hold what the glTF reader refuses first: a weight that is not finite. */
#include <math.h>
#include <string.h>

#include "hsd/hsd_to_scene.h"
#include "samples/samples.h"
#include "test.h"
#include "unearth/hsd.h"
#include "unearth/hsd_import.h"

static const ue_diag_item *find_code(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code)) return &d->items[i];
    return NULL;
}

/* The sample creature's own export with WEIGHTS_0 of vertex 3 of its torso (mesh 0, primitive 0,
 * an envelope PObj) set to `w` in slot 0, applied to the creature: *r the result. */
static void apply_weight(float w, ue_buf *out, ue_diag *d, ue_result *r) {
    *r = UE_ERR_USAGE;
    ue_buf base = {0};
    REQUIRE(ue_sample_creature_dat(&base) == UE_OK);
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    REQUIRE(ue_dat_parse(base.data, base.size, UE_MODE_STRICT, &dat, d) == UE_OK);
    REQUIRE(ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d) == UE_OK);
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(hsd_model_to_scene(&m, "creature", UE_MODE_STRICT, &s, d) == UE_OK);
    REQUIRE(s.mesh_count > 0 && s.meshes[0].primitive_count > 0);
    ue_scene_primitive *p = &s.meshes[0].primitives[0];
    REQUIRE(p->weights && p->vertex_count > 3);
    p->weights[3 * (size_t)p->influences] = w;
    *r = ue_hsd_apply_scene(base.data, base.size, "creature", &s, out, NULL, d);
    ue_scene_free(&s);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_buf_free(&base);
}

/* Vertex 3 weighs hips 0.5 in slot 0 as exported (tests/cli/cli_hsd_import_weights.sh): the export
 * with that weight gives the base back byte for byte, so the scene is a faithful edit input. */
static void test_unchanged(void) {
    ue_buf out = {0}, base = {0};
    ue_diag d = {0};
    REQUIRE(ue_sample_creature_dat(&base) == UE_OK);
    ue_result r;
    apply_weight(0.5f, &out, &d, &r);
    CHECK(r == UE_OK);
    CHECK(out.size == base.size && !memcmp(out.data, base.data, base.size));
    ue_buf_free(&out);
    ue_buf_free(&base);
    ue_diag_free(&d);
}

static void test_not_finite(void) {
    const float bad[3] = {NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 3; i++) {
        ue_buf out = {0};
        ue_diag d = {0};
        ue_result r;
        apply_weight(bad[i], &out, &d, &r);
        CHECK(r == UE_ERR_INVALID);
        const ue_diag_item *it = find_code(&d, "import.hsd.weights");
        CHECK(it && !strcmp(it->message, "vertex 3: a weight is not finite"));
        CHECK(it && !strcmp(it->path, "/meshes/0/primitives/0"));
        CHECK(out.size == 0);
        ue_buf_free(&out);
        ue_diag_free(&d);
    }
}

int main(void) {
    RUN(test_unchanged);
    RUN(test_not_finite);
    return TEST_SUMMARY();
}
