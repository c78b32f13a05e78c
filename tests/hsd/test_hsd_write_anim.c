/* unearth tests — the HSD writer's animation trees (docs/formats/hsd-animation.md, docs/formats/hsd-model.md#scene-data): the sample
 * creature's clips walked byte by byte at the spec's offsets, read back, and refused tables. */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"
#include "samples/samples.h"

#define NONE UINT32_MAX

typedef struct dat_view {
    ue_buf bytes;
    ue_dat dat;
    bool bad;
} dat_view;

static uint32_t u32(dat_view *v, uint32_t off) {
    uint32_t x = 0;
    if (!ue_dat_read_u32(&v->dat, off, &x)) v->bad = true;
    return x;
}
static float f32(dat_view *v, uint32_t off) {
    float x = 0;
    if (!ue_dat_read_f32(&v->dat, off, &x)) v->bad = true;
    return x;
}
static uint32_t ptr(dat_view *v, uint32_t field) {
    bool present = false;
    uint32_t target = 0;
    if (ue_dat_read_pointer(&v->dat, field, &present, &target) != UE_OK) v->bad = true;
    return present ? target : NONE;
}
static const uint8_t *at(dat_view *v, uint32_t off) { return v->dat.data + off; }

static bool open_creature(dat_view *v) {
    memset(v, 0, sizeof *v);
    return ue_sample_creature_dat(&v->bytes) == UE_OK &&
           ue_dat_parse(v->bytes.data, v->bytes.size, UE_MODE_STRICT, &v->dat, NULL) == UE_OK;
}
static void close_view(dat_view *v) {
    ue_dat_free(&v->dat);
    ue_buf_free(&v->bytes);
}

/* scene_data → SceneDesc → ModelSet[0]: anims[] holds idle and attack then NULL, matanims[] the
 * face clip then NULL (docs/formats/hsd-model.md#scene-data). The idle tree: root (no AObj) → hips → chest → head → jaw, and
 * arm_l (no AObj) → arm_r after head; chest's next is NULL: the tail subtree has no node. */
static void test_creature_trees_in_bytes(void) {
    dat_view v;
    REQUIRE(open_creature(&v));
    long root = ue_dat_find_root(&v.dat, "scene_data");
    REQUIRE(root >= 0);
    uint32_t set = ptr(&v, ptr(&v, v.dat.roots[root].data_offset));
    uint32_t anims = ptr(&v, set + 4), matanims = ptr(&v, set + 8);
    REQUIRE(anims != NONE && matanims != NONE);
    CHECK(ptr(&v, anims) != NONE && ptr(&v, anims + 4) != NONE && ptr(&v, anims + 8) == NONE);
    CHECK(ptr(&v, matanims) != NONE && ptr(&v, matanims + 4) == NONE);
    CHECK(ptr(&v, set + 0x0C) == NONE); /* no shape animations */

    uint32_t aj_root = ptr(&v, anims), aj_hips = ptr(&v, aj_root), aj_chest = ptr(&v, aj_hips);
    CHECK(ptr(&v, aj_root + 8) == NONE && ptr(&v, aj_root + 4) == NONE);
    CHECK(ptr(&v, aj_hips + 4) == NONE);
    CHECK(ptr(&v, aj_chest + 4) == NONE); /* tail: no node */
    uint32_t aj_head = ptr(&v, aj_chest), aj_arm_l = ptr(&v, aj_head + 4);
    uint32_t aj_arm_r = ptr(&v, aj_arm_l + 4);
    CHECK(ptr(&v, ptr(&v, aj_head)) == NONE);     /* jaw: a leaf */
    CHECK(ptr(&v, aj_arm_l + 8) == NONE);         /* a node without an AObj */
    CHECK(ptr(&v, aj_arm_r + 8) != NONE && ptr(&v, aj_arm_r + 4) == NONE);

    /* hips: AObj LOOP, end 60, one FObj TRAY (6), FLOAT values, three SPL0 keys 3, 3.15, 3
     * with waits 30, 30, 0: pack header 0x23 (op 3, n − 1 = 2 in bits 4–6), LE floats. */
    uint32_t aobj = ptr(&v, aj_hips + 8), fobj = ptr(&v, aobj + 8);
    CHECK_EQ_U(u32(&v, aobj), 0x20000000u);
    CHECK(f32(&v, aobj + 4) == 60.0f);
    CHECK(ptr(&v, fobj) == NONE);
    static const uint8_t hips_keys[16] = {0x23, 0x00, 0x00, 0x40, 0x40, 30, 0x9A, 0x99,
                                          0x49, 0x40, 30,   0x00, 0x00, 0x40, 0x40, 0};
    CHECK_EQ_U(u32(&v, fobj + 4), 16);
    CHECK_EQ_U(u32(&v, fobj + 0x0C) >> 8, 0x060000u); /* type 6, value FLOAT, slope FLOAT */
    CHECK_MEM(at(&v, ptr(&v, fobj + 0x10)), hips_keys, 16);
    /* chest: the negative start frame */
    CHECK(f32(&v, ptr(&v, ptr(&v, aj_chest + 8) + 8) + 8) == -10.0f);
    CHECK(!v.bad);
    close_view(&v);
}

/* The face: MatAnimJoint root → hips → chest → head (no MatAnims above the head), the head's
 * MatAnims parallel to its DObjs head, eyes, mouth; the mouth's TexAnim has a 3-image table
 * whose entry 0 is the mouth TObj's own ImageDesc (one struct, shared). */
static void test_creature_face_in_bytes(void) {
    dat_view v;
    REQUIRE(open_creature(&v));
    long root = ue_dat_find_root(&v.dat, "scene_data");
    REQUIRE(root >= 0);
    uint32_t set = ptr(&v, ptr(&v, v.dat.roots[root].data_offset));
    uint32_t mj = ptr(&v, ptr(&v, set + 8));
    for (int depth = 0; depth < 3; depth++) {
        CHECK(ptr(&v, mj + 8) == NONE && ptr(&v, mj + 4) == NONE);
        mj = ptr(&v, mj);
    }
    REQUIRE(mj != NONE);
    CHECK(ptr(&v, mj) == NONE && ptr(&v, mj + 4) == NONE); /* no node for the jaw or the arms */
    uint32_t ma_head = ptr(&v, mj + 8), ma_eyes = ptr(&v, ma_head), ma_mouth = ptr(&v, ma_eyes);
    REQUIRE(ma_mouth != NONE);
    CHECK(ptr(&v, ma_mouth) == NONE);
    CHECK(ptr(&v, ma_head + 8) == NONE && ptr(&v, ma_eyes + 4) == NONE);
    uint32_t ta_eyes = ptr(&v, ma_eyes + 8), ta_mouth = ptr(&v, ma_mouth + 8);
    REQUIRE(ta_eyes != NONE && ta_mouth != NONE);
    CHECK_EQ_U(u32(&v, ta_mouth + 4), 0); /* GXTexMapID 0, the mouth TObj's id */
    CHECK_EQ_U(u32(&v, ta_mouth + 0x14), 0x00030000u); /* 3 images, 0 palettes */
    uint32_t table = ptr(&v, ta_mouth + 0x0C);
    CHECK(ptr(&v, ta_mouth + 0x10) == NONE);
    /* the mouth TObj: root → hips → chest → head (JObj +0x08 child), its DObj list (+0x10) head,
     * eyes, mouth (+0x04 next) → MObj (+0x08) → TObj (+0x08) → ImageDesc (+0x4C) */
    uint32_t head_joint = ptr(&v, ptr(&v, ptr(&v, ptr(&v, set) + 8) + 8) + 8);
    uint32_t mouth_dobj = ptr(&v, ptr(&v, ptr(&v, head_joint + 0x10) + 4) + 4);
    uint32_t mouth_image = ptr(&v, ptr(&v, ptr(&v, mouth_dobj + 8) + 8) + 0x4C);
    CHECK_EQ_U(ptr(&v, table), mouth_image);
    for (uint32_t k = 1; k < 3; k++) {
        uint32_t im = ptr(&v, table + 4 * k);
        CHECK(im != NONE && im != mouth_image);
        CHECK_EQ_U(u32(&v, im + 4), u32(&v, mouth_image + 4)); /* 8 × 8 like the static one */
        CHECK_EQ_U(u32(&v, im + 8), u32(&v, mouth_image + 8)); /* RGB5A3 */
    }
    /* the eye TexAnim's two tracks: TRAU (2) then TRAV (3), S16 with 8 fraction bits */
    uint32_t trau = ptr(&v, ptr(&v, ta_eyes + 8) + 8), trav = ptr(&v, trau);
    CHECK_EQ_U(u32(&v, trau + 0x0C) >> 8, 0x022800u);
    CHECK_EQ_U(u32(&v, trav + 0x0C) >> 8, 0x032800u);
    CHECK(!v.bad);
    close_view(&v);
}

static bool eval_track(const ue_hsd_model *m, const ue_hsd_track *t, float frame, float *value) {
    return ue_hsd_keys_eval(m->anims.keys + t->first_key, t->key_count, t->start_frame, frame, value);
}

/* Read back: the tables the sample was built from, and values of its curves (docs). */
static void test_creature_read_back(void) {
    dat_view v;
    REQUIRE(open_creature(&v));
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    REQUIRE(ue_hsd_model_read(&v.dat, UE_MODE_STRICT, &m, NULL) == UE_OK);
    const ue_hsd_anims *a = &m.anims;
    REQUIRE(a->clip_count == 3);
    CHECK(!a->clips[0].material && a->clips[0].index == 0 && a->clips[0].end_frame == 60.0f);
    CHECK(!a->clips[1].material && a->clips[1].index == 1 && a->clips[1].end_frame == 40.0f);
    CHECK(a->clips[2].material && a->clips[2].index == 0 && a->clips[2].end_frame == 60.0f);
    CHECK_EQ_U(a->clips[0].target_count, 7);
    CHECK_EQ_U(a->clips[1].target_count, 7);
    CHECK_EQ_U(a->clips[2].target_count, 5);
    CHECK_EQ_U(a->aobj_count, 15);
    CHECK_EQ_U(a->track_count, 20);
    for (uint32_t k = 0; k < a->clips[0].target_count; k++)
        CHECK(a->targets[a->clips[0].first_target + k].joint != 7); /* tail: no row */
    float value = 0;
    const ue_hsd_track *hips = &a->tracks[a->aobjs[a->targets[1].aobj].first_track];
    CHECK(eval_track(&m, hips, 30, &value) && fabsf(value - 3.15f) < 1e-6f);
    const ue_hsd_track *chest = &a->tracks[a->aobjs[a->targets[2].aobj].first_track];
    CHECK(!eval_track(&m, chest, 5, &value)); /* before its first key: the rest pitch stays */
    CHECK(eval_track(&m, chest, 30, &value) && fabsf(value - 0.3f) < 1e-6f);
    /* the eye TexAnim (face row 2): TRAV −1 (closed cell) on frames 43–46, 0 again at 47 */
    const ue_hsd_anim_target *eye = &a->targets[a->clips[2].first_target + 2];
    CHECK(eye->kind == UE_HSD_ANIM_TEXTURE && eye->tobj == 2);
    const ue_hsd_track *trav = &a->tracks[a->aobjs[eye->aobj].first_track + 1];
    CHECK(eval_track(&m, trav, 45, &value) && value == -1.0f);
    CHECK(eval_track(&m, trav, 47, &value) && value == 0.0f);
    /* the mouth TexAnim's table names three image rows, the first the TObj's own */
    const ue_hsd_anim_target *mouth = &a->targets[a->clips[2].first_target + 4];
    REQUIRE(mouth->image_count == 3);
    CHECK(a->images[mouth->first_image] == m.tobjs[mouth->tobj].image);
    ue_hsd_model_free(&m);
    close_view(&v);
}

/* Read → write → read: the anim tables come back the same, row for row (offsets aside). */
static void same_anims(const ue_hsd_anims *a, const ue_hsd_anims *b) {
    CHECK_EQ_U(a->clip_count, b->clip_count);
    CHECK_EQ_U(a->target_count, b->target_count);
    CHECK_EQ_U(a->aobj_count, b->aobj_count);
    CHECK_EQ_U(a->track_count, b->track_count);
    CHECK_EQ_U(a->key_count, b->key_count);
    CHECK_EQ_U(a->image_count, b->image_count);
    if (a->clip_count != b->clip_count || a->target_count != b->target_count ||
        a->aobj_count != b->aobj_count || a->track_count != b->track_count)
        return;
    for (size_t i = 0; i < a->clip_count; i++) {
        const ue_hsd_clip *x = &a->clips[i], *y = &b->clips[i];
        CHECK(x->set == y->set && x->index == y->index && x->material == y->material &&
              x->end_frame == y->end_frame && x->first_target == y->first_target &&
              x->target_count == y->target_count && !x->root_name && !y->root_name);
    }
    for (size_t i = 0; i < a->target_count; i++) {
        const ue_hsd_anim_target *x = &a->targets[i], *y = &b->targets[i];
        CHECK(x->kind == y->kind && x->joint == y->joint && x->dobj == y->dobj && x->tobj == y->tobj &&
              x->aobj == y->aobj && x->flags == y->flags && x->first_image == y->first_image &&
              x->image_count == y->image_count && x->tlut_count == y->tlut_count);
    }
    for (size_t i = 0; i < a->aobj_count; i++)
        CHECK(a->aobjs[i].flags == b->aobjs[i].flags && a->aobjs[i].end_frame == b->aobjs[i].end_frame &&
              a->aobjs[i].first_track == b->aobjs[i].first_track &&
              a->aobjs[i].track_count == b->aobjs[i].track_count);
    for (size_t i = 0; i < a->track_count; i++) {
        const ue_hsd_track *x = &a->tracks[i], *y = &b->tracks[i];
        CHECK(x->type == y->type && x->value_format == y->value_format &&
              x->slope_format == y->slope_format && x->start_frame == y->start_frame &&
              x->length == y->length && x->key_count == y->key_count);
        if (x->length == y->length) CHECK_MEM(x->data, y->data, x->length);
    }
    for (size_t i = 0; i < a->image_count && i < b->image_count; i++) CHECK(a->images[i] == b->images[i]);
}

static void test_tables_round_trip(void) {
    dat_view v;
    REQUIRE(open_creature(&v));
    ue_hsd_model m, again;
    memset(&m, 0, sizeof m);
    memset(&again, 0, sizeof again);
    REQUIRE(ue_hsd_model_read(&v.dat, UE_MODE_STRICT, &m, NULL) == UE_OK);
    ue_buf out = {0};
    REQUIRE(ue_hsd_model_write(&m, &out, NULL) == UE_OK);
    ue_dat dat2;
    REQUIRE(ue_dat_parse(out.data, out.size, UE_MODE_STRICT, &dat2, NULL) == UE_OK);
    REQUIRE(ue_hsd_model_read(&dat2, UE_MODE_STRICT, &again, NULL) == UE_OK);
    same_anims(&m.anims, &again.anims);
    ue_hsd_model_free(&again);
    ue_dat_free(&dat2);
    ue_buf_free(&out);
    ue_hsd_model_free(&m);
    close_view(&v);
}

/* A clip with a root name leaves the ModelSet array and becomes a public root of that name. */
static void test_standalone_root(void) {
    dat_view v;
    REQUIRE(open_creature(&v));
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    REQUIRE(ue_hsd_model_read(&v.dat, UE_MODE_STRICT, &m, NULL) == UE_OK);
    m.anims.clips[1].root_name = "creature_animjoint"; /* the attack */
    ue_buf out = {0};
    REQUIRE(ue_hsd_model_write(&m, &out, NULL) == UE_OK);
    dat_view w;
    memset(&w, 0, sizeof w);
    REQUIRE(ue_dat_parse(out.data, out.size, UE_MODE_STRICT, &w.dat, NULL) == UE_OK);
    long root = ue_dat_find_root(&w.dat, "creature_animjoint"), scene = ue_dat_find_root(&w.dat, "scene_data");
    REQUIRE(root >= 0 && scene >= 0);
    uint32_t set = ptr(&w, ptr(&w, w.dat.roots[scene].data_offset));
    uint32_t anims = ptr(&w, set + 4);
    CHECK(ptr(&w, anims) != NONE && ptr(&w, anims + 4) == NONE); /* idle only */
    /* the root is the attack's AnimJoint of the root joint: its AObj ends at frame 40 */
    CHECK(f32(&w, ptr(&w, w.dat.roots[root].data_offset + 8) + 4) == 40.0f);
    CHECK(!w.bad);
    ue_dat_free(&w.dat);
    ue_buf_free(&out);
    m.anims.clips[1].root_name = NULL;
    ue_hsd_model_free(&m);
    close_view(&v);
}

/* A change to a read model's anim rows that the writer must refuse with "hsd.write.anim". */
static void expect_refused(ue_hsd_model *m, const char *what) {
    ue_buf out = {0};
    ue_diag d = {0};
    ue_result r = ue_hsd_model_write(m, &out, &d);
    bool named = d.count > 0 && strcmp(d.items[0].code, "hsd.write.anim") == 0;
    if (r != UE_ERR_USAGE || !named) fprintf(stderr, "not refused: %s\n", what);
    CHECK(r == UE_ERR_USAGE && named);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

static void test_refused(void) {
    dat_view v;
    REQUIRE(open_creature(&v));
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    REQUIRE(ue_hsd_model_read(&v.dat, UE_MODE_STRICT, &m, NULL) == UE_OK);
    ue_hsd_anims *a = &m.anims;
    a->clips[1].index = 2; /* anims[] = {idle, —, attack} */
    expect_refused(&m, "a hole in the indices");
    a->clips[1].index = 0;
    expect_refused(&m, "two clips on one index");
    a->clips[1].index = 1;
    ue_hsd_anim_target *hips = &a->targets[a->clips[0].first_target + 1];
    hips->joint = 7; /* hips' row moved to the tail: chest's row is no longer reachable */
    expect_refused(&m, "an unreachable AnimJoint row");
    hips->joint = 1;
    ue_hsd_anim_target *eyes = &a->targets[a->clips[2].first_target + 1];
    eyes->kind = UE_HSD_ANIM_JOINT;
    expect_refused(&m, "a joint row in a material clip");
    eyes->kind = UE_HSD_ANIM_MATERIAL;
    a->clips[2].first_target += 1; /* the head DObj's MatAnim dropped: eyes, mouth are no prefix */
    a->clips[2].target_count -= 1;
    expect_refused(&m, "MatAnims not parallel to the DObj list");
    a->clips[2].first_target -= 1;
    a->clips[2].target_count += 1;
    a->images[0] = (int32_t)m.image_count;
    expect_refused(&m, "a TexAnim image outside the table");
    ue_hsd_model_free(&m);
    close_view(&v);
}

int main(void) {
    RUN(test_creature_trees_in_bytes);
    RUN(test_creature_face_in_bytes);
    RUN(test_creature_read_back);
    RUN(test_tables_round_trip);
    RUN(test_standalone_root);
    RUN(test_refused);
    return TEST_SUMMARY();
}
