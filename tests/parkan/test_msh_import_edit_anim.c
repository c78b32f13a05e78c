/* Tests of edit mode's clip comparison (msh_import_edit_anim.c): the robot's clip re-sampled
 * in memory as real clients write it (Blender's 24 fps, STEP, CUBICSPLINE, a dropped key). */
#include <math.h>

#include "test.h"
#include "parkan/parkan_axes.h"
#include "samples/samples.h"
#include "unearth/msh_import.h"

typedef struct fixture {
    ue_buf original; /* the robot's bytes */
    ue_msh m;        /* parsed, to be edited */
    ue_msh before;   /* parsed and left alone: the poses to compare with */
    ue_scene s;      /* what convert exports (30 fps) */
    ue_buf out;
    ue_diag d;
} fixture;

static bool setup(fixture *f) {
    memset(f, 0, sizeof *f);
    ue_scene_init(&f->s);
    if (ue_sample_robot(&f->original) != UE_OK) return false;
    if (ue_msh_parse(f->original.data, f->original.size, UE_MODE_STRICT, &f->m, NULL) != UE_OK) return false;
    if (ue_msh_parse(f->original.data, f->original.size, UE_MODE_STRICT, &f->before, NULL) != UE_OK) return false;
    ue_msh_export_options o = {0, 0, 0};
    return ue_msh_to_scene(&f->m, "robot", &o, &f->s, NULL) == UE_OK && f->s.animation_count == 1;
}

static void teardown(fixture *f) {
    ue_buf_free(&f->original);
    ue_buf_free(&f->out);
    ue_msh_free(&f->m);
    ue_msh_free(&f->before);
    ue_scene_free(&f->s);
    ue_diag_free(&f->d);
}

static ue_result apply_and_write(fixture *f) {
    ue_result r = ue_msh_apply_scene(&f->m, &f->s, NULL, &f->d);
    if (r == UE_OK) r = ue_msh_write(&f->m, &f->out, &f->d);
    return r;
}

static bool byte_identical(const fixture *f) {
    return f->out.size == f->original.size && memcmp(f->out.data, f->original.data, f->out.size) == 0;
}

static bool has_diag(const ue_diag *d, const char *code, ue_severity sev) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code) && d->items[i].severity == sev) return true;
    return false;
}

/* ---- a client's re-sampling, computed here independently of the importer ---- */

/* A LINEAR channel (what convert writes) at time t, as Blender evaluates it: each component
 * lerped between the two keys around t, a rotation then normalised; clamped at both ends. */
static void client_eval(const ue_anim_channel *c, float t, float *out) {
    uint32_t n = c->key_count, comps = c->components, k = 0;
    while (k + 1 < n && c->times[k + 1] <= t) k++;
    float a = k + 1 < n && t > c->times[k] ? (t - c->times[k]) / (c->times[k + 1] - c->times[k]) : 0;
    const float *v0 = &c->values[k * comps], *v1 = k + 1 < n ? &c->values[(k + 1) * comps] : v0;
    float len = 0;
    for (uint32_t i = 0; i < comps; i++) {
        out[i] = v0[i] + (v1[i] - v0[i]) * a;
        len += out[i] * out[i];
    }
    for (uint32_t i = 0; comps == 4 && i < 4; i++) out[i] /= sqrtf(len);
}

/* Replaces the channel's keys by its curve sampled every 1/rate s from 0 to the last whole
 * sample before its end (Blender drops a last key that falls between two of its frames).
 * CUBICSPLINE tangents are the central differences of the samples. */
static bool resample(ue_anim_channel *c, float rate, ue_interp interp) {
    uint32_t comps = c->components, n = (uint32_t)floorf(c->times[c->key_count - 1] * rate + 1e-3f) + 1;
    size_t stride = interp == UE_INTERP_CUBIC ? 3 * (size_t)comps : comps, at = interp == UE_INTERP_CUBIC ? comps : 0;
    float *times = calloc(n, sizeof *times), *values = calloc(n * stride, sizeof *values);
    if (!times || !values) return free(times), free(values), false;
    for (uint32_t i = 0; i < n; i++) {
        times[i] = (float)i / rate;
        client_eval(c, times[i], &values[i * stride + at]);
    }
    for (uint32_t i = 0; interp == UE_INTERP_CUBIC && i < n; i++)
        for (uint32_t k = 0; k < comps; k++) {
            size_t before = (i ? i - 1 : i) * stride + at + k, after = (i + 1 < n ? i + 1 : i) * stride + at + k;
            float slope = i && i + 1 < n ? (values[after] - values[before]) * rate / 2 : 0;
            values[i * stride + k] = values[i * stride + 2 * comps + k] = slope; /* in, out */
        }
    free(c->times);
    free(c->values);
    c->times = times;
    c->values = values;
    c->key_count = n;
    c->interpolation = interp;
    return true;
}

static bool resample_clip(ue_scene *s, float rate, ue_interp interp) {
    ue_scene_animation *an = &s->animations[0];
    for (size_t c = 0; c < an->channel_count; c++)
        if (!resample(&an->channels[c], rate, interp)) return false;
    return true;
}

static ue_anim_channel *channel_of(ue_scene *s, const char *node, ue_anim_target target) {
    ue_scene_animation *an = &s->animations[0];
    for (size_t c = 0; c < an->channel_count; c++)
        if (an->channels[c].target == target && !strcmp(s->nodes[an->channels[c].node].name, node))
            return &an->channels[c];
    return NULL;
}

static size_t model_node(const ue_msh *m, const char *name) {
    size_t n = 0;
    while (n < m->node_count && (!ue_msh_node_name(m, n) || strcmp(ue_msh_node_name(m, n), name))) n++;
    return n;
}

/* ---- the client's re-sampling of an unedited clip is no edit ---- */

static void check_resampled_is_unchanged(ue_interp interp) {
    fixture f;
    REQUIRE(setup(&f));
    REQUIRE(resample_clip(&f.s, 24.0f, interp));
    const ue_anim_channel *head = channel_of(&f.s, "head", UE_TARGET_ROTATION);
    REQUIRE(head != NULL);
    CHECK_EQ_U(head->key_count, 5); /* 0..4/24 s: the base's last key, 0.2 s, is at frame 4.8 */
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(byte_identical(&f));
    CHECK_EQ_U(f.d.count, 0);
    teardown(&f);
}

static void test_resampled_24fps_linear_is_unchanged(void) { check_resampled_is_unchanged(UE_INTERP_LINEAR); }
static void test_resampled_24fps_step_is_unchanged(void) { check_resampled_is_unchanged(UE_INTERP_STEP); }
static void test_resampled_24fps_cubic_is_unchanged(void) { check_resampled_is_unchanged(UE_INTERP_CUBIC); }

/* The client slerps (as glTF says) instead of Blender's per-component lerp: unchanged too. */
static void test_resampled_with_slerp_is_unchanged(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_anim_channel *arm = channel_of(&f.s, "arm_left", UE_TARGET_ROTATION);
    REQUIRE(arm != NULL && arm->key_count == 4);
    float q0[4], q1[4];
    memcpy(q0, &arm->values[4], sizeof q0); /* keys 1 and 2: 40° apart, where lerp and slerp differ */
    memcpy(q1, &arm->values[8], sizeof q1);
    float t0 = arm->times[1], t1 = arm->times[2];
    REQUIRE(resample_clip(&f.s, 24.0f, UE_INTERP_LINEAR));
    for (uint32_t i = 0; i < arm->key_count; i++) {
        float t = arm->times[i];
        if (t <= t0 || t >= t1) continue;
        float a = (t - t0) / (t1 - t0), dot = 0;
        for (int k = 0; k < 4; k++) dot += q0[k] * q1[k];
        float th = acosf(dot), w0 = sinf((1 - a) * th) / sinf(th), w1 = sinf(a * th) / sinf(th);
        for (int k = 0; k < 4; k++) arm->values[i * 4 + k] = w0 * q0[k] + w1 * q1[k];
    }
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(byte_identical(&f));
    teardown(&f);
}

/* ---- edits: beyond the tolerance the node's track is re-keyed on the model's frames ---- */

/* The node's keys (its track runs from its first map word's key to its fallback key). */
static const ue_msh_key *track_keys(const ue_msh *m, size_t node, size_t *count) {
    const ue_msh_node *nd = &m->nodes[node];
    if (nd->anim_map_start == UE_MSH_NONE) return *count = 1, &m->keys[nd->fallback_key];
    size_t first = m->frame_map[nd->anim_map_start];
    *count = nd->fallback_key - first + 1u;
    return &m->keys[first];
}

static void check_other_nodes_unchanged(const fixture *f, size_t edited) {
    for (size_t n = 0; n < f->m.node_count; n++) {
        if (n == edited) continue;
        size_t a = 0, b = 0;
        const ue_msh_key *ka = track_keys(&f->m, n, &a), *kb = track_keys(&f->before, n, &b);
        CHECK_EQ_U(a, b);
        CHECK(a == b && memcmp(ka, kb, a * sizeof *ka) == 0);
    }
}

/* arm_right's translation sample at 0.125 s (3/24) moved by `dy` glTF units in y (engine z). */
static void move_arm_sample(fixture *f, float dy, float *y) {
    ue_anim_channel *move = channel_of(&f->s, "arm_right", UE_TARGET_TRANSLATION);
    move->values[3 * 3 + 1] += dy;
    for (uint32_t i = 0; i < move->key_count; i++) y[i] = move->values[i * 3 + 1];
}

static void test_moved_sample_rekeys_the_node_at_model_frames(void) {
    fixture f;
    REQUIRE(setup(&f));
    REQUIRE(resample_clip(&f.s, 24.0f, UE_INTERP_LINEAR));
    float y[16]; /* the client's y samples at i/24 s after the edit */
    move_arm_sample(&f, 0.02f, y);
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(!byte_identical(&f));
    size_t arm = model_node(&f.m, "arm_right");
    REQUIRE(arm < f.m.node_count);
    check_other_nodes_unchanged(&f, arm);
    /* Every frame at 30 fps up to ceil(0.25 × 30) = 8; z (glTF y) the client's lerp there; the
     * rotation (unchanged) the base's own curve, so its keys 0, 1, 4 and 8 are the base's. */
    size_t count = 0, was = 0;
    const ue_msh_key *k = track_keys(&f.m, arm, &count), *old = track_keys(&f.before, arm, &was);
    CHECK_EQ_U(count, 9);
    for (size_t i = 0; i < count && count == 9; i++) {
        float t = (float)i / 30.0f, s = t * 24.0f;
        size_t j = (size_t)s < 6 ? (size_t)s : 6;
        float want = j < 6 ? y[j] + (y[j + 1] - y[j]) * (s - (float)j) : y[6];
        CHECK(k[i].time == (float)i);
        CHECK(fabsf(k[i].position[2] - want) < 1e-6f);
        CHECK(k[i].position[0] == -0.5f);
    }
    static const int base_frames[] = {0, 1, 4, 8};
    for (size_t i = 0; i < 4 && count == 9 && was == 4; i++) CHECK_MEM(k[base_frames[i]].quat, old[i].quat, 8);
    CHECK(fabsf(k[4].position[2] - 0.25f) > 0.01f); /* frame 4 = 0.1333 s, beside the moved sample */
    teardown(&f);
}

/* The translation tolerance, TRANSLATION_TOL × max(1, |value|) = 1e-5 here: half of it is
 * no edit, twice it is. */
static void test_translation_tolerance_boundary(void) {
    for (int over = 0; over < 2; over++) {
        fixture f;
        REQUIRE(setup(&f));
        REQUIRE(resample_clip(&f.s, 24.0f, UE_INTERP_LINEAR));
        float y[16];
        move_arm_sample(&f, over ? 2e-5f : 0.5e-5f, y);
        CHECK_EQ_U(apply_and_write(&f), UE_OK);
        CHECK(byte_identical(&f) == !over);
        teardown(&f);
    }
}

/* The rotation tolerance, half an int16 step (0.5/32767) per component. */
static void test_rotation_tolerance_boundary(void) {
    static const float steps[] = {0.45f, 0.55f};
    for (int over = 0; over < 2; over++) {
        fixture f;
        REQUIRE(setup(&f));
        ue_anim_channel *head = channel_of(&f.s, "head", UE_TARGET_ROTATION);
        REQUIRE(head != NULL && head->key_count == 3);
        head->values[4 + 0] += steps[over] / 32767.0f; /* key 1's x, 0: its length stays 1 to 1e-10 */
        CHECK_EQ_U(apply_and_write(&f), UE_OK);
        CHECK(byte_identical(&f) == !over);
        teardown(&f);
    }
}

/* A client that keeps the keys but drops one: each key it has lies on the base's curve, but
 * the base's key at 4/30 s is not on the client's, and the client's keys are 1/30 s apart
 * elsewhere, so it could have kept it. */
static void test_dropped_key_is_a_change(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_anim_channel *move = channel_of(&f.s, "arm_right", UE_TARGET_TRANSLATION);
    REQUIRE(move != NULL && move->key_count == 4);
    CHECK(fabsf(move->times[2] * 30.0f - 4.0f) < 1e-4f);
    memmove(&move->times[2], &move->times[3], sizeof *move->times);
    memmove(&move->values[6], &move->values[9], 3 * sizeof *move->values);
    move->key_count = 3;
    float y1 = move->values[4], y2 = move->values[7]; /* 0.35 at 1/30 s, 0.3 at 8/30 s */
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(!byte_identical(&f));
    size_t arm = model_node(&f.m, "arm_right");
    REQUIRE(arm < f.m.node_count);
    check_other_nodes_unchanged(&f, arm);
    size_t count = 0;
    const ue_msh_key *k = track_keys(&f.m, arm, &count);
    CHECK_EQ_U(count, 4); /* keyed at the channels' whole frames: 0, 1, 4 (the rotation's), 8 */
    CHECK(count == 4 && k[2].time == 4.0f);
    CHECK(count == 4 && fabsf(k[2].position[2] - (y1 + (y2 - y1) * 3.0f / 7.0f)) < 1e-6f);
    teardown(&f);
}

/* ---- a clip the glTF lacks keeps the base's, with a warning ---- */

static void test_absent_clip_keeps_the_base(void) {
    fixture f;
    REQUIRE(setup(&f));
    ue_scene_animation *an = &f.s.animations[0]; /* the clip emptied: no animation moves a node */
    for (size_t c = 0; c < an->channel_count; c++) {
        free(an->channels[c].times);
        free(an->channels[c].values);
    }
    an->channel_count = 0;
    CHECK_EQ_U(apply_and_write(&f), UE_OK);
    CHECK(byte_identical(&f));
    CHECK(has_diag(&f.d, "import.anim.absent", UE_SEV_WARNING));
    teardown(&f);
}

int main(void) {
    RUN(test_resampled_24fps_linear_is_unchanged);
    RUN(test_resampled_24fps_step_is_unchanged);
    RUN(test_resampled_24fps_cubic_is_unchanged);
    RUN(test_resampled_with_slerp_is_unchanged);
    RUN(test_moved_sample_rekeys_the_node_at_model_frames);
    RUN(test_translation_tolerance_boundary);
    RUN(test_rotation_tolerance_boundary);
    RUN(test_dropped_key_is_a_change);
    RUN(test_absent_clip_keeps_the_base);
    return TEST_SUMMARY();
}
