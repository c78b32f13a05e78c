/* unearth tests — FigaTree clips and DAT banks on a 3-joint model: the bank's chain, its container
 * round trip, clips bound by joint index with poses worked out by hand at chosen frames (key
 * machine and glTF channels), the joint-count error; with DIR, writes the files of the CLI test. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "archive/container.h"
#include "hsd/dat_bank.h"
#include "hsd/hsd_anim_eval.h"
#include "hsd/hsd_figatree.h"
#include "hsd/hsd_to_scene.h"
#include "hsd/hsd_write_figatree.h"
#include "test.h"
#include "unearth/hsd_anim.h"

/* ---- the model: J0 → J1 → J2, each 1 along X from its parent; J0 draws one triangle ------------ */

static ue_buf model_dat(void) {
    static ue_hsd_joint joints[3];
    static ue_hsd_dobj dobj;
    static ue_hsd_pobj pobj;
    static ue_hsd_vtx_attr attr;
    static ue_hsd_mobj mobj;
    static ue_hsd_model_set set;
    static uint8_t dl[64];
    const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    dl[0] = 0x90, dl[2] = 3; /* GX_TRIANGLES, 3 vertices of 3 big-endian floats */
    for (int k = 0; k < 9; k++) {
        uint32_t u;
        memcpy(&u, &v[k], 4);
        for (int b = 0; b < 4; b++) dl[3 + 4 * k + b] = (uint8_t)(u >> (24 - 8 * b));
    }
    attr = (ue_hsd_vtx_attr){0, UE_GX_VA_POS, UE_GX_DIRECT, 1, 4, 0, 0, 0, false, NULL, 0};
    pobj = (ue_hsd_pobj){0, NULL, -1, 0, 2, 0, 1, 0, 0, dl, sizeof dl, -1, 0, 0, 0};
    mobj = (ue_hsd_mobj){0};
    mobj.render_mode = 0x4u, mobj.first_tobj = -1, mobj.has_material = true;
    mobj.material = (ue_hsd_material){{0}, {200, 100, 50, 255}, {0}, 1.0f, 0};
    dobj = (ue_hsd_dobj){0, NULL, -1, 0, 0, 0};
    static const int32_t parent[3] = {-1, 0, 1}, child[3] = {1, 2, -1};
    for (int j = 0; j < 3; j++) {
        joints[j] = (ue_hsd_joint){0};
        joints[j].parent = parent[j], joints[j].first_child = child[j], joints[j].next_sibling = -1;
        joints[j].depth = (uint32_t)j, joints[j].first_dobj = j ? -1 : 0;
        for (int k = 0; k < 3; k++) joints[j].scale[k] = 1;
        joints[j].translation[0] = j ? 1.0f : 0.0f;
    }
    set = (ue_hsd_model_set){0, "PlyTest_Share_joint", 0, 0, 0, 0};
    ue_hsd_model m = {0};
    m.sets = &set, m.set_count = 1, m.joints = joints, m.joint_count = 3, m.dobjs = &dobj, m.dobj_count = 1;
    m.mobjs = &mobj, m.mobj_count = 1, m.pobjs = &pobj, m.pobj_count = 1, m.attrs = &attr, m.attr_count = 1;
    ue_buf out = {0};
    ue_diag d = {0};
    if (ue_hsd_model_write(&m, &out, &d) != UE_OK) dump_diag(&d);
    ue_diag_free(&d);
    return out;
}

/* ---- clips written by the FigaTree writer (hsd_write_figatree.c) ------------------------------ */

typedef struct test_track {
    uint8_t type;
    uint8_t op;             /* every key of the track has this opcode */
    float values[2];
    uint32_t waits[2];
    size_t keys;
} test_track;

/* One DAT whose only root is a FigaTree of `frames` frames: per joint `counts[j]` tracks from
 * `tracks` in order, float keys. */
static ue_buf figatree_dat(const char *root, float frames, const uint8_t *counts, size_t joints,
                           const test_track *tracks) {
    ue_hsd_key keys[4][2];
    hsd_figatree_track_def defs[4];
    size_t n = 0;
    for (size_t j = 0; j < joints; j++) n += counts[j];
    for (size_t t = 0; t < n && t < 4; t++) {
        for (size_t k = 0; k < tracks[t].keys; k++)
            keys[t][k] = (ue_hsd_key){tracks[t].op, 0, tracks[t].values[k], 0, tracks[t].waits[k]};
        defs[t] = (hsd_figatree_track_def){tracks[t].type, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, 0, keys[t], tracks[t].keys};
    }
    hsd_figatree_def f = {frames, counts, joints, defs};
    ue_buf out = {0};
    CHECK(n <= 4 && hsd_figatree_dat(root, &f, &out) == UE_OK);
    return out;
}

/* Clip Wait1 (20 frames): J0 TRAY linear 0 → 4 over 20 frames; J1 ROTZ linear 0 → 1 over 10 then
 * held, TRAX constant 2. Clip Walk (8 frames): J2 ROTX hermite, slopes 0, 0 → 2 over 8. Clip
 * PlyTest_Jump (4 frames, no "_ACTION_"): J0 SCAX linear 1 → 3 over 4. */
static ue_buf clip_wait(void) {
    static const uint8_t counts[3] = {1, 2, 0};
    static const test_track t[3] = {{UE_HSD_JT_TRAY, UE_HSD_KEY_LIN, {0, 4}, {20, 0}, 2},
                                    {UE_HSD_JT_ROTZ, UE_HSD_KEY_LIN, {0, 1}, {10, 0}, 2},
                                    {UE_HSD_JT_TRAX, UE_HSD_KEY_CON, {2, 0}, {0, 0}, 1}};
    return figatree_dat("PlyTest_Share_ACTION_Wait1_figatree", 20, counts, 3, t);
}
static ue_buf clip_walk(void) {
    static const uint8_t counts[3] = {0, 0, 1};
    static const test_track t[1] = {{UE_HSD_JT_ROTX, UE_HSD_KEY_SPL0, {0, 2}, {8, 0}, 2}};
    return figatree_dat("PlyTest_Share_ACTION_Walk_figatree", 8, counts, 3, t);
}
static ue_buf clip_jump(void) {
    static const uint8_t counts[3] = {1, 0, 0};
    static const test_track t[1] = {{UE_HSD_JT_SCAX, UE_HSD_KEY_LIN, {1, 3}, {4, 0}, 2}};
    return figatree_dat("PlyTest_Jump_figatree", 4, counts, 3, t);
}
/* Two clips of a 2-joint skeleton: a bank that fits no 3-joint model. */
static ue_buf clip_other(const char *root) {
    static const uint8_t counts[2] = {1, 0};
    static const test_track t[1] = {{UE_HSD_JT_ROTY, UE_HSD_KEY_LIN, {0, 1}, {5, 0}, 2}};
    return figatree_dat(root, 5, counts, 2, t);
}

/* The bank layout read off Melee's files: each DAT at a multiple of 32, 0xFF up to the next one
 * and up to the end of the file (ue_dat_bank_append). */
static void bank_add(ue_buf *bank, const ue_buf *dat) { REQUIRE(ue_dat_bank_append(bank, dat->data, dat->size) == UE_OK); }

static ue_buf make_bank(void) {
    ue_buf bank = {0}, c[3] = {clip_wait(), clip_walk(), clip_jump()};
    for (int i = 0; i < 3; i++) bank_add(&bank, &c[i]), ue_buf_free(&c[i]);
    return bank;
}

/* ---- the bank as a container ------------------------------------------------------------------- */

static void test_bank_chain(void) {
    ue_buf c[3] = {clip_wait(), clip_walk(), clip_jump()};
    ue_buf bank = make_bank();
    ue_source src = ue_source_memory(bank.data, bank.size);
    ue_dat_bank_entry *e = NULL;
    size_t n = 0;
    ue_diag d = {0};
    REQUIRE(ue_dat_bank_scan(&src, UE_MODE_STRICT, &e, &n, &d) == UE_OK);
    REQUIRE(n == 3);
    uint64_t at = 0;
    for (int i = 0; i < 3; i++) {
        CHECK_EQ_U(e[i].offset, at);
        CHECK_EQ_U(e[i].size, c[i].size);
        CHECK_EQ_U(e[i].padding, (32 - c[i].size % 32) % 32);
        CHECK(e[i].plain_fill);
        at += c[i].size + e[i].padding;
    }
    CHECK_STR(e[0].name, "PlyTest_Share_ACTION_Wait1_figatree");
    CHECK_STR(e[2].name, "PlyTest_Jump_figatree");
    CHECK(ue_dat_bank_probe(bank.data, 256, bank.size));
    CHECK(!ue_dat_bank_probe(c[0].data, c[0].size < 256 ? c[0].size : 256, c[0].size)); /* one DAT */
    /* the container re-serialises each DAT through the DAT writer, byte for byte */
    ue_archive *a = NULL;
    REQUIRE(ue_archive_open_memory(bank.data, bank.size, "bank.dat", UE_MODE_STRICT, &a, &d) == UE_OK);
    CHECK_STR(ue_archive_format(a), "datbank");
    ue_entry_info info;
    ue_archive_entry(a, 1, &info);
    CHECK_STR(info.name, "PlyTest_Share_ACTION_Walk_figatree.dat");
    ue_buf again = {0};
    CHECK(ue_archive_reencode(a, &again, &d) == UE_OK);
    CHECK(again.size == bank.size && memcmp(again.data, bank.data, bank.size) == 0);
    ue_archive_close(a);
    /* a second "DAT" that is no DAT ends the chain: strict refuses the tail */
    ue_buf bad = {0};
    ue_buf_put(&bad, bank.data, bank.size);
    for (int k = 0; k < 64; k++) ue_buf_put_u8(&bad, 0x11);
    ue_source bsrc = ue_source_memory(bad.data, bad.size);
    free(e);
    e = NULL;
    CHECK(ue_dat_bank_scan(&bsrc, UE_MODE_STRICT, &e, &n, &d) == UE_ERR_INVALID);
    CHECK(has_code(&d, "bank.tail"));
    free(e);
    ue_buf_free(&bad), ue_buf_free(&again), ue_buf_free(&bank), ue_diag_free(&d);
    for (int i = 0; i < 3; i++) ue_buf_free(&c[i]);
}

/* ---- clips on the model ----------------------------------------------------------------------- */

static void test_clip_name(void) {
    char n[64];
    hsd_figatree_clip_name("PlyMario5K_Share_ACTION_Wait1_figatree", n, sizeof n);
    CHECK_STR(n, "Wait1");
    hsd_figatree_clip_name("PlyTest_Jump_figatree", n, sizeof n);
    CHECK_STR(n, "PlyTest_Jump");
}

typedef struct loaded {
    ue_buf model, bank;
    ue_dat dat;
    ue_hsd_model m;
    hsd_figatree_files files;
} loaded;

/* The model read from its DAT with the bank at `bank_path` attached. */
static ue_result load(loaded *l, const char *bank_path, ue_diag *d) {
    memset(l, 0, sizeof *l);
    l->model = model_dat();
    ue_result r = ue_dat_parse(l->model.data, l->model.size, UE_MODE_STRICT, &l->dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&l->dat, UE_MODE_STRICT, &l->m, d);
    ue_model_option opt = {"anims", bank_path};
    ue_model_options opts = {&opt, 1, NULL};
    if (r == UE_OK) r = hsd_figatree_attach_all(&l->m, &opts, UE_MODE_STRICT, &l->files, d);
    return r;
}

static void unload(loaded *l) {
    ue_hsd_model_free(&l->m);
    ue_dat_free(&l->dat);
    hsd_figatree_files_free(&l->files);
    ue_buf_free(&l->model);
}

static bool near(float a, float b) { return fabsf(a - b) <= 1e-5f * fmaxf(1.0f, fabsf(b)); }

static void test_poses(const char *bank_path) {
    loaded l;
    ue_diag d = {0};
    ue_result r = load(&l, bank_path, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    REQUIRE(l.m.anims.clip_count == 3);
    CHECK(l.m.anims.clips[0].figatree && l.m.anims.clips[2].end_frame == 4.0f);
    CHECK_EQ_U(l.m.anims.clips[0].end_frame, 20);
    hsd_joint_state s[3];
    /* Wait1 at frame 5: J0 TRAY 4·5/20 = 1; J1 ROTZ 5/10 = 0.5, TRAX 2; J2 at rest (1, 0, 0) */
    hsd_anim_joint_states(&l.m, 0, 5, s);
    CHECK(near(s[0].translation[1], 1.0f) && near(s[1].rotation[2], 0.5f) && near(s[1].translation[0], 2.0f));
    CHECK(near(s[2].translation[0], 1.0f) && near(s[2].rotation[2], 0.0f));
    /* frame 15: J1 ROTZ past its last key holds 1; J0 TRAY 3 */
    hsd_anim_joint_states(&l.m, 0, 15, s);
    CHECK(near(s[1].rotation[2], 1.0f) && near(s[0].translation[1], 3.0f));
    /* Walk at frame 4: hermite with zero slopes, u = 1/2: 2 · (3u² − 2u³) = 1 */
    hsd_anim_joint_states(&l.m, 1, 4, s);
    CHECK(near(s[2].rotation[0], 1.0f) && near(s[1].rotation[2], 0.0f));
    /* PlyTest_Jump at frame 2: J0 SCAX 1 + 2·2/4 = 2 */
    hsd_anim_joint_states(&l.m, 2, 2, s);
    CHECK(near(s[0].scale[0], 2.0f) && near(s[0].scale[1], 1.0f));
    unload(&l);
    ue_diag_free(&d);
}

/* The rotation channel of the joint node with table index j in animation `a`, sampled at `frame`
 * between the keys the channel kept, interpolated as a glTF viewer does (slerp for rotations). */
static bool channel_at(const ue_scene *s, const ue_scene_animation *a, size_t j, ue_anim_target target,
                       float frame, float *out) {
    for (size_t c = 0; c < a->channel_count; c++) {
        const ue_anim_channel *ch = &a->channels[c];
        const ue_scene_node *n = ch->node >= 0 ? &s->nodes[ch->node] : NULL;
        if (ch->target != target || !n || n->mesh >= 0 || n->source.type != HSD_KIND_JOBJ || n->source.index != j)
            continue;
        float t = frame / 60.0f;
        uint32_t k = 0;
        while (k + 1 < ch->key_count && ch->times[k + 1] <= t) k++;
        uint32_t nk = k + 1 < ch->key_count ? k + 1 : k;
        float u = nk == k ? 0 : (t - ch->times[k]) / (ch->times[nk] - ch->times[k]);
        const float *a = &ch->values[k * ch->components], *b = &ch->values[nk * ch->components];
        float wa = 1 - u, wb = u, dot = 0;
        for (uint32_t i = 0; ch->components == 4 && i < 4; i++) dot += a[i] * b[i];
        if (ch->components == 4 && dot < 0.9999f) { /* slerp, as glTF's LINEAR rotation is */
            float th = acosf(dot);
            wa = sinf((1 - u) * th) / sinf(th), wb = sinf(u * th) / sinf(th);
        }
        for (uint32_t i = 0; i < ch->components; i++) out[i] = wa * a[i] + wb * b[i];
        return true;
    }
    return false;
}

static const ue_scene_animation *animation_named(const ue_scene *s, const char *name) {
    for (size_t i = 0; i < s->animation_count; i++)
        if (strcmp(s->animations[i].name, name) == 0) return &s->animations[i];
    return NULL;
}

static void test_gltf_channels(const char *bank_path) {
    ue_buf model = model_dat();
    ue_model_option opt = {"anims", bank_path};
    ue_model_options opts = {&opt, 1, NULL};
    ue_scene s;
    ue_scene_init(&s);
    ue_diag d = {0};
    ue_result r = ue_hsd_model_format.to_scene(model.data, model.size, "test", UE_MODE_STRICT, &opts, &s, &d);
    if (r != UE_OK) dump_diag(&d);
    REQUIRE(r == UE_OK);
    CHECK_EQ_U(s.animation_count, 3);
    const ue_scene_animation *wait = animation_named(&s, "Wait1"), *walk = animation_named(&s, "Walk");
    REQUIRE(wait && walk && animation_named(&s, "PlyTest_Jump"));
    CHECK(wait->end_frame == 20.0f && walk->end_frame == 8.0f);
    /* Wait1 frame 5: J1 turned 0.5 rad about Z: q = (0, 0, sin .25, cos .25), at (2, 0, 0) */
    float q[4] = {0}, t[3] = {0};
    CHECK(channel_at(&s, wait, 1, UE_TARGET_ROTATION, 5, q));
    CHECK(fabsf(q[2] - sinf(0.25f)) < 1e-3f && fabsf(q[3] - cosf(0.25f)) < 1e-3f && fabsf(q[0]) < 1e-6f);
    CHECK(channel_at(&s, wait, 1, UE_TARGET_TRANSLATION, 5, t));
    CHECK(near(t[0], 2.0f) && near(t[1], 0.0f));
    /* Walk frame 8 (its last): J2 turned 2 rad about X */
    CHECK(channel_at(&s, walk, 2, UE_TARGET_ROTATION, 8, q));
    CHECK(fabsf(q[0] - sinf(1.0f)) < 1e-4f && fabsf(q[3] - cosf(1.0f)) < 1e-4f);
    ue_scene_free(&s);
    ue_buf_free(&model);
    ue_diag_free(&d);
}

static void test_joint_count_error(const char *other_path) {
    loaded l;
    ue_diag d = {0};
    CHECK(load(&l, other_path, &d) == UE_ERR_INVALID);
    const ue_diag_item *e = diag_find(&d, "hsd.figatree.joints", other_path);
    CHECK(e && e->severity == UE_SEV_ERROR && strstr(e->message, "animate 2 joints, the model has 3"));
    unload(&l);
    ue_diag_free(&d);
}

static bool write_file(const char *dir, const char *name, const ue_buf *b, char *path, size_t cap) {
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(b->data, 1, b->size, f) == b->size;
    if (f) ok = fclose(f) == 0 && ok;
    if (ok) printf("%s\n", path);
    return ok;
}

int main(int argc, char **argv) {
    /* Without DIR the files go to a private directory, removed at the end. */
    char own[] = "/tmp/ue_figatree.XXXXXX";
    const char *dir = argc > 1 ? argv[1] : mkdtemp(own);
    if (!dir) return 1;
    ue_buf model = model_dat(), bank = make_bank(), other = {0}, single = clip_walk();
    ue_buf o1 = clip_other("PlyOther_Share_ACTION_Wait1_figatree"), o2 = clip_other("PlyOther_Share_ACTION_Run_figatree");
    bank_add(&other, &o1), bank_add(&other, &o2);
    char bank_path[512], other_path[512], path[512];
    bool ok = write_file(dir, "model.dat", &model, path, sizeof path) &&
              write_file(dir, "bank.dat", &bank, bank_path, sizeof bank_path) &&
              write_file(dir, "other.dat", &other, other_path, sizeof other_path) &&
              write_file(dir, "walk.dat", &single, path, sizeof path);
    if (!ok) {
        fprintf(stderr, "cannot write the test files into %s\n", dir);
        return 1;
    }
    RUN(test_bank_chain);
    RUN(test_clip_name);
    test_poses(bank_path);
    test_gltf_channels(bank_path);
    test_joint_count_error(other_path);
    if (argc <= 1) {
        static const char *const names[] = {"model.dat", "bank.dat", "other.dat", "walk.dat"};
        for (int i = 0; i < 4; i++) snprintf(path, sizeof path, "%s/%s", dir, names[i]), unlink(path);
        rmdir(dir);
    }
    ue_buf_free(&model), ue_buf_free(&bank), ue_buf_free(&other), ue_buf_free(&single), ue_buf_free(&o1),
        ue_buf_free(&o2);
    return ue_test_failed_checks ? 1 : TEST_SUMMARY();
}
