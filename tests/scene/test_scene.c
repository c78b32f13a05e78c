/* Tests of the scene IR itself: extras, the checks on UV/colour sets, influences, texture slots
 * and typed targets, and the baking helpers, against independent closed-form evaluation. */
#include <math.h>

#include "gltf_scenes.h"
#include "test.h"
#include "unearth/scene.h"

/* ---- extras ----------------------------------------------------------------------------- */

static void extras_set_replace_and_refuse(void) {
    ue_extras x = {0};
    CHECK_EQ_U(ue_extras_set_number(&x, "flags", 3), UE_OK);
    CHECK_EQ_U(ue_extras_set_string(&x, "name", "arm"), UE_OK);
    CHECK_EQ_U(ue_extras_set_number(&x, "flags", 7.5), UE_OK); /* replaces, keeps position */
    REQUIRE(x.count == 2);
    CHECK_STR(x.items[0].key, "flags");
    CHECK(x.items[0].kind == UE_EXTRA_NUMBER && x.items[0].number == 7.5);
    CHECK(x.items[1].kind == UE_EXTRA_STRING);
    CHECK_STR(x.items[1].text, "arm");
    CHECK_EQ_U(ue_extras_set_number(&x, "unearth_source", 1), UE_ERR_USAGE);
    CHECK_EQ_U(ue_extras_set_string(&x, "unearth_clip", "x"), UE_ERR_USAGE);
    CHECK_EQ_U(ue_extras_set_number(&x, "", 1), UE_ERR_USAGE);
    CHECK_EQ_U(ue_extras_set_number(&x, "nan", NAN), UE_ERR_USAGE);
    char longkey[64];
    memset(longkey, 'k', sizeof longkey - 1);
    longkey[63] = 0;
    CHECK_EQ_U(ue_extras_set_number(&x, longkey, 1), UE_ERR_USAGE);
    char longtext[300];
    memset(longtext, 'a', sizeof longtext - 1);
    longtext[299] = 0;
    CHECK_EQ_U(ue_extras_set_string(&x, "long", longtext), UE_OK);
    CHECK_EQ_U(strlen(x.items[2].text), 127); /* cut, still terminated */
    CHECK_EQ_U(x.count, 3);
    ue_extras_free(&x);
    CHECK(x.items == NULL && x.count == 0);
}

static void extras_validated(void) {
    ue_scene s;
    ue_diag d = {0};
    gs_layers(&s);
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_OK);
    if (d.count) dump_diag(&d);
    CHECK_EQ_U(d.count, 0);
    /* bypass the setters: a duplicate key, a reserved key, a non-finite number */
    ue_extras *x = &s.materials[0].extras;
    REQUIRE(x->count == 2);
    memcpy(x->items[1].key, "wear_row", 9);
    ue_extras *n = &s.nodes[0].extras;
    memcpy(n->items[0].key, "unearth_source", 15);
    s.animations[0].extras.items[0].number = INFINITY;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.extras.key", "scene/materials[0]/extras[1]"));
    CHECK(diag_has(&d, "scene.extras.key", "scene/nodes[0]/extras[0]"));
    CHECK(diag_has(&d, "scene.extras.value", "scene/animations[0]/extras[0]"));
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* ---- vertex sets, influences, slots, targets ------------------------------------------------ */

static void vertex_sets_and_influences_checked(void) {
    ue_scene s;
    ue_diag d = {0};
    gs_layers(&s);
    ue_scene_primitive *quad = &s.meshes[0].primitives[0];
    ue_scene_primitive *blob = &s.meshes[1].primitives[0];
    REQUIRE(blob->influences == 8 && quad->uv[1] && quad->colors[1]);
    /* uv set 1 without set 0, and a colour set 1 without set 0 */
    float *uv0 = quad->uv[0], *c0 = quad->colors[0];
    quad->uv[0] = NULL;
    quad->colors[0] = NULL;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.uv", "scene/meshes[0]/primitives[0]"));
    CHECK(diag_has(&d, "scene.prim.color", "scene/meshes[0]/primitives[0]"));
    quad->uv[0] = uv0;
    quad->colors[0] = c0;
    ue_diag_free(&d);
    /* the normal slot reads uv set 1; without it the primitive cannot be textured */
    float *uv1 = quad->uv[1];
    quad->uv[1] = NULL;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.uv", "scene/meshes[0]/primitives[0]"));
    quad->uv[1] = uv1;
    ue_diag_free(&d);
    /* the 8th weight of vertex 2 breaks its sum; a 9th influence is not allowed */
    blob->weights[2 * 8 + 7] += 0.25f;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.weights", "scene/meshes[1]/primitives[0]/weights[2]"));
    blob->weights[2 * 8 + 7] -= 0.25f;
    ue_diag_free(&d);
    blob->joints[8 + 3] = blob->joints[8 + 4]; /* vertex 1: one joint twice, both weighted */
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.joints", "scene/meshes[1]/primitives[0]/joints[1]"));
    ue_diag_free(&d);
    blob->influences = 9;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.influences", "scene/meshes[1]/primitives[0]"));
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void slots_and_targets_checked(void) {
    ue_scene s;
    ue_diag d = {0};
    gs_layers(&s);
    ue_scene_material *m = &s.materials[0];
    m->slots[1].uv_set = UE_MAX_UV_SETS;
    m->slots[2].role = (ue_texture_role)42;
    m->slots[3].transform.offset[1] = NAN;
    ue_anim_channel *vis = &s.animations[0].channels[0];
    vis->interpolation = UE_INTERP_LINEAR;          /* visibility must be STEP */
    s.animations[0].channels[4].slot = 9;           /* no such slot */
    s.animations[0].channels[2].material = 5;       /* no such material */
    s.animations[0].end_frame = -1;                 /* before the start */
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.material.uv_set", "scene/materials[0]/slots[1]"));
    CHECK(diag_has(&d, "scene.material.role", "scene/materials[0]/slots[2]"));
    CHECK(diag_has(&d, "scene.value.nonfinite", "scene/materials[0]/slots[3]/transform[2]"));
    CHECK(diag_has(&d, "scene.anim.interp", "scene/animations[0]/channels[0]"));
    CHECK(diag_has(&d, "scene.anim.slot", "scene/animations[0]/channels[4]"));
    CHECK(diag_has(&d, "scene.anim.material", "scene/animations[0]/channels[2]"));
    CHECK(diag_has(&d, "scene.anim.range", "scene/animations[0]"));
    ue_diag_free(&d);
    ue_scene_free(&s);

    /* a flipbook: STEP texture indices that must name existing textures */
    gs_layers(&s);
    ue_anim_channel *fb = ue_scene_add_channel(&s, 0, UE_TARGET_TEXTURE_INDEX, UE_INTERP_STEP, 3);
    REQUIRE(fb && fb->components == 1 && fb->node == -1 && fb->material == -1 && fb->slot == -1);
    fb->material = 0;
    fb->slot = 0;
    fb->times[1] = 0.25f;
    fb->times[2] = 0.5f;
    fb->values[1] = 1;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_OK);
    fb->values[2] = 2; /* only textures 0 and 1 exist */
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.anim.texture", "scene/animations[0]/channels[5]/values[2]"));
    fb->values[2] = 0.5f;
    ue_diag_free(&d);
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.anim.texture", "scene/animations[0]/channels[5]/values[2]"));
    ue_diag_free(&d);
    CHECK(ue_scene_add_channel(&s, 0, (ue_anim_target)UE_TARGET_COUNT, UE_INTERP_STEP, 1) == NULL);
    ue_scene_free(&s);
}

/* glTF forbids two channels of one animation on one property: each repeat names the first
 * channel of its target, among hundreds of distinct ones (the check is a hash table). */
static void duplicate_targets_named(void) {
    ue_scene s;
    ue_scene_init(&s);
    for (int n = 0; n < 200; n++) REQUIRE(ue_scene_add_node(&s, "n", -1) == n);
    REQUIRE(ue_scene_add_animation(&s, "clip") == 0);
    /* channels 0 … 599: translation, rotation, scale of nodes 0 … 199, all distinct */
    static const ue_anim_target trs[3] = {UE_TARGET_TRANSLATION, UE_TARGET_ROTATION, UE_TARGET_SCALE};
    for (int c = 0; c < 600; c++) {
        ue_anim_channel *ch = ue_scene_add_channel(&s, 0, trs[c % 3], UE_INTERP_LINEAR, 1);
        REQUIRE(ch);
        ch->node = c / 3;
        if (trs[c % 3] == UE_TARGET_ROTATION) ch->values[3] = 1;
    }
    ue_diag d = {0};
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_OK);
    /* 600: node 7's rotation again (channel 22), 601: node 199's scale (599), 602: node 7's
     * rotation a third time (still channel 22, the first) */
    static const int repeat_of[3] = {22, 599, 22};
    for (int k = 0; k < 3; k++) {
        const ue_anim_channel *first = &s.animations[0].channels[repeat_of[k]];
        ue_anim_channel *ch = ue_scene_add_channel(&s, 0, first->target, UE_INTERP_LINEAR, 1);
        REQUIRE(ch);
        ch->node = s.animations[0].channels[repeat_of[k]].node;
        if (ch->target == UE_TARGET_ROTATION) ch->values[3] = 1;
    }
    /* a second clip (clips of this many channels are checked side by side): node 5's
     * translation twice; its report comes after the first clip's */
    REQUIRE(ue_scene_add_animation(&s, "second") == 1);
    for (int k = 0; k < 2; k++) {
        ue_anim_channel *ch = ue_scene_add_channel(&s, 1, UE_TARGET_TRANSLATION, UE_INTERP_LINEAR, 1);
        REQUIRE(ch);
        ch->node = 5;
    }
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK_EQ_U(d.count, 4);
    for (int k = 0; k < 3 && k < (int)d.count; k++) {
        char path[64], message[64];
        snprintf(path, sizeof path, "scene/animations[0]/channels[%d]", 600 + k);
        snprintf(message, sizeof message, "same target as channel %d", repeat_of[k]);
        CHECK(strcmp(d.items[k].code, "scene.anim.duplicate") == 0 && strcmp(d.items[k].path, path) == 0);
        CHECK(strcmp(d.items[k].message, message) == 0);
    }
    if (d.count == 4) {
        CHECK_STR(d.items[3].path, "scene/animations[1]/channels[1]");
        CHECK_STR(d.items[3].message, "same target as channel 0");
    }
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* ---- baking ----------------------------------------------------------------------------- */

/* An independent cubic, p(t) = 0.5 t^3 - 2 t^2 + t + 3, and its slope. */
static double poly(double t) { return ((0.5 * t - 2) * t + 1) * t + 3; }
static double poly_slope(double t) { return (1.5 * t - 4) * t + 1; }

/* A piecewise curve whose value is known in closed form: 1 + 2t up to t = 1, then 3 held up
 * to t = 1.5, then -1. */
static double piecewise(double t) { return t < 1 ? 1 + 2 * t : t < 1.5 ? 3 : -1; }

static void hermite_and_piecewise_baked(void) {
    ue_curve_key hk[3];
    static const float ht[3] = {0.0f, 0.7f, 2.0f};
    for (int k = 0; k < 3; k++) {
        hk[k].time = ht[k];
        hk[k].value = (float)poly(ht[k]);
        hk[k].in_tangent = hk[k].out_tangent = (float)poly_slope(ht[k]);
        hk[k].interp = UE_CURVE_HERMITE;
    }
    static const ue_curve_key pk[3] = {{0.0f, 1.0f, 0, 0, UE_CURVE_LINEAR},
                                       {1.0f, 3.0f, 0, 0, UE_CURVE_STEP},
                                       {1.5f, -1.0f, 0, 0, UE_CURVE_LINEAR}};
    ue_curve curves[2] = {{hk, 3, 0}, {pk, 3, 0}};
    ue_scene s;
    ue_scene_init(&s);
    int32_t m = ue_scene_add_material(&s, "m");
    int32_t t = ue_scene_add_texture(&s, "t", 1, 1);
    ue_scene_add_texture_slot(&s, m, UE_TEX_BASE_COLOR, t, 0);
    s.materials[m].slots[0].transform.enabled = true;
    int32_t an = ue_scene_add_animation(&s, "baked");
    ue_anim_channel *ch = NULL;
    REQUIRE(ue_bake_curves(&s, an, UE_TARGET_UV_OFFSET, curves, 0.0, 2.0, 30.0, &ch) == UE_OK);
    REQUIRE(ch && ch->key_count == 61 && ch->interpolation == UE_INTERP_LINEAR);
    ch->material = m; /* the caller names the target object */
    ch->slot = 0;
    double worst = 0;
    for (uint32_t k = 0; k < ch->key_count; k++) {
        double tk = ch->times[k];
        CHECK(fabs(tk - k / 30.0) < 1e-6);
        worst = fmax(worst, fabs(ch->values[k * 2] - poly(tk)));
        worst = fmax(worst, fabs(ch->values[k * 2 + 1] - piecewise(tk)));
    }
    CHECK(worst < 1e-5);
    if (worst >= 1e-5) fprintf(stderr, "  worst deviation %g\n", worst);
    CHECK(ch->times[60] == 2.0f);
    /* between samples and outside the keys, straight from the evaluator */
    double v = 0;
    CHECK_EQ_U(ue_curve_eval(&curves[0], 1.234, &v), UE_OK);
    CHECK(fabs(v - poly(1.234)) < 1e-5);
    CHECK_EQ_U(ue_curve_eval(&curves[0], -1.0, &v), UE_OK);
    CHECK(v == (float)poly(0.0));
    CHECK_EQ_U(ue_curve_eval(&curves[1], 9.0, &v), UE_OK);
    CHECK(v == -1.0);
    ue_curve empty = {NULL, 0, 0.25f};
    CHECK_EQ_U(ue_curve_eval(&empty, 3.0, &v), UE_OK);
    CHECK(v == 0.25);
    /* a range that does not fall on the rate: the last key is the end itself */
    REQUIRE(ue_bake_curves(&s, an, UE_TARGET_UV_SCALE, curves, 0.5, 0.6, 30.0, &ch) == UE_OK);
    CHECK_EQ_U(ch->key_count, 4);
    ch->material = m;
    ch->slot = 0;
    CHECK(ch->times[3] == 0.6f && ch->times[2] < 0.6f);
    ue_diag d = {0};
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_OK);
    if (d.count) dump_diag(&d);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void bake_refuses_bad_input(void) {
    ue_scene s;
    ue_scene_init(&s);
    int32_t an = ue_scene_add_animation(&s, "a");
    ue_curve_key bad[2] = {{1.0f, 0, 0, 0, UE_CURVE_LINEAR}, {0.5f, 1, 0, 0, UE_CURVE_LINEAR}};
    ue_curve_key ok[1] = {{0.0f, 1, 0, 0, UE_CURVE_LINEAR}};
    ue_curve c3[3] = {{ok, 1, 0}, {ok, 1, 0}, {bad, 2, 0}};
    ue_curve good[3] = {{ok, 1, 0}, {ok, 1, 0}, {ok, 1, 0}};
    double v;
    CHECK_EQ_U(ue_curve_eval(&c3[2], 0.7, &v), UE_ERR_INVALID);
    CHECK_EQ_U(ue_bake_euler(&s, an, 0, c3, UE_EULER_XYZ, 0, 1, 10, NULL), UE_ERR_INVALID);
    CHECK_EQ_U(ue_bake_curves(&s, an, UE_TARGET_SCALE, good, 0, 1, 0, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(ue_bake_curves(&s, an, UE_TARGET_SCALE, good, 1, 0.5, 10, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(ue_bake_curves(&s, an, UE_TARGET_SCALE, good, 0, 1e9, 1000, NULL), UE_ERR_LIMIT);
    CHECK_EQ_U(ue_bake_curves(&s, an, UE_TARGET_VISIBILITY, good, 0, 1, 10, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(ue_bake_curves(&s, 3, UE_TARGET_SCALE, good, 0, 1, 10, NULL), UE_ERR_USAGE);
    /* float times cannot hold 1e6 distinct steps near t = 1000 */
    CHECK_EQ_U(ue_bake_curves(&s, an, UE_TARGET_SCALE, good, 1000, 1000.5, 1e6, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(ue_bake_euler(&s, an, 0, good, (ue_euler_order)6, 0, 1, 10, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(s.animations[0].channel_count, 0); /* nothing added on failure */
    ue_scene_free(&s);
}

/* Independent Euler evaluation: rotation matrices about the axes, multiplied in order. */
/* A primitive larger than the IR's stated limit (1 << 26 vertices, 3 × that many indices) is a
 * limit error, not an allocation failure, and leaves the primitive without arrays. */
static void primitive_alloc_refuses_over_limit(void) {
    ue_scene s;
    ue_scene_init(&s);
    int32_t mesh = ue_scene_add_mesh(&s, "m");
    ue_scene_primitive *p = ue_scene_add_primitive(&s, mesh);
    REQUIRE(p != NULL);
    CHECK_EQ_U(ue_scene_primitive_alloc(p, (1u << 26) + 1, 3, 0), UE_ERR_LIMIT);
    CHECK_EQ_U(ue_scene_primitive_alloc(p, 3, 3u * (1u << 26) + 1, 0), UE_ERR_LIMIT);
    CHECK(p->positions == NULL && p->indices == NULL);
    CHECK_EQ_U(ue_scene_primitive_alloc(p, 3, 3, UE_ATTR_NORMAL), UE_OK);
    CHECK(p->positions != NULL && p->normals != NULL);
    CHECK_EQ_U(ue_scene_primitive_alloc(p, 3, 3, 0), UE_ERR_USAGE); /* already set */
    ue_scene_free(&s);
}

static void axis_matrix(int axis, double a, double m[9]) {
    double c = cos(a), s = sin(a);
    int i = (axis + 1) % 3, j = (axis + 2) % 3;
    memset(m, 0, 9 * sizeof *m);
    m[axis * 3 + axis] = 1;
    m[i * 3 + i] = c;
    m[j * 3 + j] = c;
    m[j * 3 + i] = s;  /* row j, column i: rotates i towards j */
    m[i * 3 + j] = -s;
}
static void mat3_mul(const double a[9], const double b[9], double out[9]) {
    double t[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) t[r * 3 + c] = a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c];
    memcpy(out, t, sizeof t);
}
static void euler_matrix(const double ang[3], const int seq[3], double m[9]) {
    double r[9];
    axis_matrix(seq[0], ang[seq[0]], m);
    for (int i = 1; i < 3; i++) {
        axis_matrix(seq[i], ang[seq[i]], r);
        mat3_mul(r, m, m); /* a later rotation applies after the earlier ones */
    }
}
static void quat_matrix(const float q[4], double m[9]) {
    double x = q[0], y = q[1], z = q[2], w = q[3];
    double rows[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                      2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                      2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
    memcpy(m, rows, sizeof rows);
}

static double angle_x(double t) { return 0.3 + 1.2 * t; }
static double angle_y(double t) { return -0.5 + 0.8 * t * t; }
static double angle_z(double t) { return t < 1.2 ? 0.1 : -2.0; }

static void euler_tracks_baked(void) {
    static const int seqs[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    static const ue_curve_key xk[2] = {{0.0f, 0.3f, 0, 0, UE_CURVE_LINEAR},
                                       {2.0f, 2.7f, 0, 0, UE_CURVE_LINEAR}};
    ue_curve_key yk[3];
    for (int k = 0; k < 3; k++) {
        float t = (float)k;
        yk[k] = (ue_curve_key){t, (float)angle_y(t), 1.6f * t, 1.6f * t, UE_CURVE_HERMITE};
    }
    static const ue_curve_key zk[2] = {{0.0f, 0.1f, 0, 0, UE_CURVE_STEP},
                                       {1.2f, -2.0f, 0, 0, UE_CURVE_STEP}};
    ue_curve xyz[3] = {{xk, 2, 0}, {yk, 3, 0}, {zk, 2, 0}};
    ue_scene s;
    ue_scene_init(&s);
    int32_t node = ue_scene_add_node(&s, "joint", -1);
    double worst = 0;
    for (int order = 0; order < 6; order++) {
        int32_t an = ue_scene_add_animation(&s, "euler"); /* one clip per order: same target */
        ue_anim_channel *ch = NULL;
        REQUIRE(ue_bake_euler(&s, an, node, xyz, (ue_euler_order)order, 0, 2, 24, &ch) == UE_OK);
        REQUIRE(ch->key_count == 49 && ch->node == node && ch->target == UE_TARGET_ROTATION);
        for (uint32_t k = 0; k < ch->key_count; k++) {
            double t = ch->times[k];
            double ang[3] = {angle_x(t), angle_y(t), angle_z(t)}, want[9], got[9];
            euler_matrix(ang, seqs[order], want);
            quat_matrix(ch->values + k * 4, got);
            for (int i = 0; i < 9; i++) worst = fmax(worst, fabs(want[i] - got[i]));
            if (k) { /* consecutive keys in one hemisphere */
                const float *a = ch->values + (k - 1) * 4, *b = ch->values + k * 4;
                CHECK(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] >= 0);
            }
        }
    }
    CHECK(worst < 1e-5);
    if (worst >= 1e-5) fprintf(stderr, "  worst matrix deviation %g\n", worst);
    /* a quarter turn about X: (sin 45°, 0, 0, cos 45°) */
    double q[4], ang[3] = {acos(0.0), 0, 0};
    ue_euler_to_quat(ang, UE_EULER_ZYX, q);
    CHECK(fabs(q[0] - sqrt(0.5)) < 1e-12 && q[1] == 0 && q[2] == 0 && fabs(q[3] - sqrt(0.5)) < 1e-12);
    ue_scene_free(&s);
}

int main(void) {
    RUN(extras_set_replace_and_refuse);
    RUN(extras_validated);
    RUN(vertex_sets_and_influences_checked);
    RUN(slots_and_targets_checked);
    RUN(duplicate_targets_named);
    RUN(hermite_and_piecewise_baked);
    RUN(bake_refuses_bad_input);
    RUN(primitive_alloc_refuses_over_limit);
    RUN(euler_tracks_baked);
    return TEST_SUMMARY();
}
