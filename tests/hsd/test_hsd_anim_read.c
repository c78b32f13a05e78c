/* unearth tests — HSD animation trees read and bound to the model (docs/formats/hsd-animation.md#tree-shapes, docs/formats/hsd-animation.md#root-naming, docs/formats/pkx.md#animation-entry):
 * DAT images laid out by hand from the spec, lock-step binding, tables, bad input, PKX entry tables. */
#include <math.h>

#include "test.h"
#include "dat_image.h"
#include "unearth/gamecube.h"
#include "unearth/gx.h"
#include "unearth/hsd_model.h"

/* IEEE little-endian bytes of a few floats (key values are little-endian, docs/formats/hsd-animation.md#key-streams) */
#define F0 0x00, 0x00, 0x00, 0x00
#define F0_5 0x00, 0x00, 0x00, 0x3F
#define F1 0x00, 0x00, 0x80, 0x3F
#define F2 0x00, 0x00, 0x00, 0x40
#define F3 0x00, 0x00, 0x40, 0x40
#define F5 0x00, 0x00, 0xA0, 0x40

/* ---- struct helpers (offsets from docs/formats/hsd-model.md, docs/formats/hsd-animation.md) ---- */

static uint32_t put_joint(dat_image *b, uint32_t flags) {
    uint32_t j = di_alloc(b, 0x40, 4);
    di_u32(b, j + 4, flags);
    for (uint32_t k = 0; k < 3; k++) di_f32(b, j + 0x20 + 4 * k, 1.0f);
    return j;
}

static uint32_t put_tobj(dat_image *b, uint32_t id, uint32_t image) {
    uint32_t t = di_alloc(b, 0x5C, 4);
    di_u32(b, t + 8, id);
    if (image) di_ptr(b, t + 0x4C, image);
    return t;
}

/* An 8×8 I4 image: 32 bytes of pixels (docs/formats/hsd-materials.md#gx-texel-formats). */
static uint32_t put_image(dat_image *b) {
    uint32_t px = di_alloc(b, 32, 32), im = di_alloc(b, 0x18, 4);
    di_ptr(b, im, px);
    di_u16(b, im + 4, 8);
    di_u16(b, im + 6, 8);
    di_u32(b, im + 8, UE_GX_I4);
    return im;
}

/* A key stream copied into the data block. */
static uint32_t put_keys(dat_image *b, const uint8_t *k, uint32_t n) {
    uint32_t at = di_alloc(b, n, 4);
    memcpy(b->data + at, k, n);
    return at;
}

/* FObjDesc (0x14): next +0, length +4, start frame +8, type +0xC, formats +0xD/+0xE, data +0x10. */
static uint32_t put_fobj(dat_image *b, uint8_t type, uint32_t data, uint32_t length) {
    uint32_t f = di_alloc(b, 0x14, 4);
    di_u32(b, f + 4, length);
    di_u8(b, f + 0x0C, type);
    di_ptr(b, f + 0x10, data);
    return f;
}

/* AObjDesc (0x10): flags, end frame, track list, obj. */
static uint32_t put_aobj(dat_image *b, uint32_t flags, float end, uint32_t first_track) {
    uint32_t a = di_alloc(b, 0x10, 4);
    di_u32(b, a, flags);
    di_f32(b, a + 4, end);
    if (first_track) di_ptr(b, a + 8, first_track);
    return a;
}

/* AnimJoint (0x14): child, next, AObj, RObjAnimJoint, flags. */
static uint32_t put_animjoint(dat_image *b, uint32_t aobj, uint32_t flags) {
    uint32_t n = di_alloc(b, 0x14, 4);
    if (aobj) di_ptr(b, n + 8, aobj);
    di_u32(b, n + 0x10, flags);
    return n;
}

/* MatAnimJoint (0x0C): child, next, MatAnim. */
static uint32_t put_matanimjoint(dat_image *b, uint32_t matanim) {
    uint32_t n = di_alloc(b, 0x0C, 4);
    if (matanim) di_ptr(b, n + 8, matanim);
    return n;
}

/* A NULL-terminated pointer array. */
static uint32_t put_array(dat_image *b, const uint32_t *items, uint32_t n) {
    uint32_t a = di_alloc(b, 4 * (n + 1), 4);
    for (uint32_t i = 0; i < n; i++) di_ptr(b, a + 4 * i, items[i]);
    return a;
}

/* ---- the image ------------------------------------------------------------------------------ */

/* Joints J0 → child J1 (child J3) → next J2 (rows in pre-order: J0 0, J1 1, J3 2, J2 3). J2 holds
 * DObjs D0 (MObj M0: TObjs Ta id 1 → Tb id 0, ids not in chain order) and D1 (MObj M1).
 * anims[0]: A0 ↔ J0 (AObj X, flags 1), A0.child A1 ↔ J1 (no AObj, no child: J3 unanimated),
 * A1.next A2 ↔ J2 (AObj X again). X: TRAX LIN 1 → 3 over 10 frames, ROTZ CON 0.5; end 20.
 * matanims[0]: MJ0 ↔ J0, child MJ1 ↔ J1, next MJ2 ↔ J2: MatAnim MA0 (AObj Z, DIFFUSE_R) → MA1.
 * MA0's TexAnims: TA0 id 0 (image table [Ta's image, NULL, new image], TIMG KEY 0 → 2),
 * TA1 id 1, TA2 id 7 (no TObj). */
typedef struct anim_image {
    dat_image b;
    uint32_t j[4], d0, d1, ta, tb, img_a, img_b, aobj_x, aobj_z, aobj_w, fobj_trax, fobj_timg,
        keys_trax, table,
        a0, a1, a2, mj0, mj1, mj2, ma0, ma1, ta0, ta1, ta2, anims, matanims, ms;
} anim_image;

static void build_model(anim_image *s) {
    dat_image *b = &s->b;
    for (int k = 0; k < 4; k++) s->j[k] = put_joint(b, 0);
    di_ptr(b, s->j[0] + 8, s->j[1]);
    di_ptr(b, s->j[1] + 8, s->j[3]);
    di_ptr(b, s->j[1] + 0x0C, s->j[2]);
    s->img_a = put_image(b);
    s->img_b = put_image(b);
    s->ta = put_tobj(b, 1, s->img_a);
    s->tb = put_tobj(b, 0, 0);
    di_ptr(b, s->ta + 4, s->tb);
    uint32_t m0 = di_alloc(b, 0x18, 4), m1 = di_alloc(b, 0x18, 4);
    di_ptr(b, m0 + 8, s->ta);
    s->d0 = di_alloc(b, 0x10, 4);
    s->d1 = di_alloc(b, 0x10, 4);
    di_ptr(b, s->d0 + 4, s->d1);
    di_ptr(b, s->d0 + 8, m0);
    di_ptr(b, s->d1 + 8, m1);
    di_ptr(b, s->j[2] + 0x10, s->d0);
}

static void build_anims(anim_image *s) {
    dat_image *b = &s->b;
    static const uint8_t lin[] = {0x12, F1, 0x0A, F3, 0x00};
    static const uint8_t con[] = {0x01, F0_5, 0x00};
    s->keys_trax = put_keys(b, lin, sizeof lin);
    s->fobj_trax = put_fobj(b, 5 /* TRAX */, s->keys_trax, sizeof lin);
    uint32_t rotz = put_fobj(b, 3 /* ROTZ */, put_keys(b, con, sizeof con), sizeof con);
    di_ptr(b, s->fobj_trax, rotz);
    s->aobj_x = put_aobj(b, 0x20000000u, 20.0f, s->fobj_trax);
    s->a0 = put_animjoint(b, s->aobj_x, 1);
    s->a1 = put_animjoint(b, 0, 0);
    s->a2 = put_animjoint(b, s->aobj_x, 0);
    di_ptr(b, s->a0, s->a1);
    di_ptr(b, s->a1 + 4, s->a2);
}

static void build_matanims(anim_image *s) {
    dat_image *b = &s->b;
    static const uint8_t diffuse[] = {0x02, F1, 0x00};
    static const uint8_t timg[] = {0x16, F0, 0x05, F2, 0x00};
    s->aobj_z = put_aobj(b, 0, 30.0f, put_fobj(b, 4 /* DIFFUSE_R */,
                                                   put_keys(b, diffuse, sizeof diffuse),
                                                   sizeof diffuse));
    s->fobj_timg = put_fobj(b, 1 /* TIMG */, put_keys(b, timg, sizeof timg), sizeof timg);
    s->aobj_w = put_aobj(b, 0, 10.0f, s->fobj_timg);
    uint32_t table = s->table = di_alloc(b, 12, 4);
    di_ptr(b, table, s->img_a);
    di_ptr(b, table + 8, s->img_b);
    s->ta0 = di_alloc(b, 0x18, 4);
    s->ta1 = di_alloc(b, 0x18, 4);
    s->ta2 = di_alloc(b, 0x18, 4);
    di_ptr(b, s->ta0, s->ta1);
    di_ptr(b, s->ta1, s->ta2);
    di_ptr(b, s->ta0 + 8, s->aobj_w);
    di_ptr(b, s->ta0 + 0x0C, table);
    di_u16(b, s->ta0 + 0x14, 3);
    di_u32(b, s->ta1 + 4, 1);
    di_u32(b, s->ta2 + 4, 7);
    s->ma0 = di_alloc(b, 0x10, 4);
    s->ma1 = di_alloc(b, 0x10, 4);
    di_ptr(b, s->ma0, s->ma1);
    di_ptr(b, s->ma0 + 4, s->aobj_z);
    di_ptr(b, s->ma0 + 8, s->ta0);
    s->mj0 = put_matanimjoint(b, 0);
    s->mj1 = put_matanimjoint(b, 0);
    s->mj2 = put_matanimjoint(b, s->ma0);
    di_ptr(b, s->mj0, s->mj1);
    di_ptr(b, s->mj1 + 4, s->mj2);
}

/* scene_data → SceneDesc → [ModelSet] with anims[] = extra AnimJoint roots after A0. */
static void build_scene(anim_image *s, const uint32_t *more_anims, uint32_t n_more) {
    dat_image *b = &s->b;
    uint32_t roots[4] = {s->a0, 0, 0, 0};
    for (uint32_t i = 0; i < n_more && i < 3; i++) roots[1 + i] = more_anims[i];
    s->anims = put_array(b, roots, 1 + n_more);
    s->matanims = put_array(b, &s->mj0, 1);
    s->ms = di_alloc(b, 0x10, 4);
    di_ptr(b, s->ms, s->j[0]);
    di_ptr(b, s->ms + 4, s->anims);
    di_ptr(b, s->ms + 8, s->matanims);
    uint32_t models = put_array(b, &s->ms, 1), scene = di_alloc(b, 0x10, 4);
    di_ptr(b, scene, models);
    di_root(b, scene, "scene_data");
}

static void build(anim_image *s) {
    di_init(&s->b);
    build_model(s);
    build_anims(s);
    build_matanims(s);
}

typedef struct read_result {
    ue_dat dat;
    ue_hsd_model m;
    ue_diag d;
    ue_result r;
} read_result;

static bool read_image(const dat_image *b, ue_mode mode, read_result *out) {
    size_t n = 0;
    uint8_t *file = di_file(b, &n);
    memset(out, 0, sizeof *out);
    bool ok = ue_dat_parse(file, n, UE_MODE_STRICT, &out->dat, NULL) == UE_OK;
    free(file);
    out->r = ok ? ue_hsd_model_read(&out->dat, mode, &out->m, &out->d) : UE_ERR_INVALID;
    return ok;
}

static void done(read_result *x) {
    ue_hsd_model_free(&x->m);
    ue_dat_free(&x->dat);
    ue_diag_free(&x->d);
}

static const ue_hsd_anim_target *target(const ue_hsd_model *m, const ue_hsd_clip *c, uint32_t i) {
    return &m->anims.targets[c->first_target + i];
}

static int32_t joint_at(const ue_hsd_model *m, uint32_t off) {
    for (size_t j = 0; j < m->joint_count; j++)
        if (m->joints[j].offset == off) return (int32_t)j;
    return -2;
}

/* ---- skeletal binding ----------------------------------------------------------------------- */

static void test_animjoint_binding(void) {
    static anim_image s;
    build(&s);
    build_scene(&s, NULL, 0);
    read_result x;
    REQUIRE(read_image(&s.b, UE_MODE_STRICT, &x));
    if (x.r != UE_OK) dump_diag(&x.d);
    REQUIRE(x.r == UE_OK);
    const ue_hsd_model *m = &x.m;
    REQUIRE(m->anims.clip_count == 2);
    const ue_hsd_clip *c = &m->anims.clips[0];
    CHECK(!c->material && c->set == 0 && c->index == 0 && c->root_name == NULL);
    CHECK_EQ_U(c->offset, s.a0);
    CHECK(c->end_frame == 20.0f);
    REQUIRE(c->target_count == 3);
    /* pre-order rows on the joints at the same place: J0, J1, then J2 (row 3: J3 came first) */
    CHECK(joint_at(m, s.j[0]) == 0 && joint_at(m, s.j[3]) == 2 && joint_at(m, s.j[2]) == 3);
    const ue_hsd_anim_target *t0 = target(m, c, 0), *t1 = target(m, c, 1), *t2 = target(m, c, 2);
    CHECK(t0->kind == UE_HSD_ANIM_JOINT && t0->joint == 0 && t0->offset == s.a0);
    CHECK(t0->flags == 1 && t0->dobj == -1 && t0->tobj == -1);
    CHECK(t1->joint == 1 && t1->aobj == -1 && t1->offset == s.a1);
    CHECK(t2->joint == 3 && t2->offset == s.a2);
    /* the shared AObj is one row, its tracks read once */
    CHECK(t0->aobj >= 0 && t0->aobj == t2->aobj);
    CHECK_EQ_U(m->anims.aobj_count, 3); /* X, Z, W */
    const ue_hsd_aobj *x_ao = &m->anims.aobjs[t0->aobj];
    CHECK(x_ao->offset == s.aobj_x && x_ao->flags == UE_AOBJ_LOOP && x_ao->end_frame == 20.0f);
    REQUIRE(x_ao->track_count == 2);
    const ue_hsd_track *trax = &m->anims.tracks[x_ao->first_track];
    const ue_hsd_track *rotz = trax + 1;
    CHECK(trax->type == UE_HSD_JT_TRAX && trax->offset == s.fobj_trax && trax->length == 11);
    CHECK(rotz->type == UE_HSD_JT_ROTZ && rotz->key_count == 1);
    REQUIRE(trax->key_count == 2);
    const ue_hsd_key *k = &m->anims.keys[trax->first_key];
    CHECK(k[0].op == UE_HSD_KEY_LIN && k[0].value == 1.0f && k[0].time == 0.0f && k[0].wait == 10);
    CHECK(k[1].op == UE_HSD_KEY_LIN && k[1].value == 3.0f && k[1].time == 10.0f);
    CHECK(m->anims.keys[rotz->first_key].value == 0.5f);
    done(&x);
}

/* ---- material binding ----------------------------------------------------------------------- */

static int32_t dobj_at(const ue_hsd_model *m, uint32_t off) {
    for (size_t i = 0; i < m->dobj_count; i++)
        if (m->dobjs[i].offset == off) return (int32_t)i;
    return -2;
}

static int32_t tobj_at(const ue_hsd_model *m, uint32_t off) {
    for (size_t i = 0; i < m->tobj_count; i++)
        if (m->tobjs[i].offset == off) return (int32_t)i;
    return -2;
}

static void test_matanim_binding(void) {
    static anim_image s;
    build(&s);
    build_scene(&s, NULL, 0);
    read_result x;
    REQUIRE(read_image(&s.b, UE_MODE_STRICT, &x));
    REQUIRE(x.r == UE_OK);
    const ue_hsd_model *m = &x.m;
    REQUIRE(m->anims.clip_count == 2);
    const ue_hsd_clip *c = &m->anims.clips[1];
    CHECK(c->material && c->index == 0 && c->offset == s.mj0);
    CHECK(c->end_frame == 30.0f); /* Z's 30 beats W's 10 */
    REQUIRE(c->target_count == 5);
    /* pre-order: MA0, its TexAnims TA0 TA1 TA2, then MA1 */
    const ue_hsd_anim_target *ma0 = target(m, c, 0), *ta0 = target(m, c, 1),
                             *ta1 = target(m, c, 2), *ta2 = target(m, c, 3),
                             *ma1 = target(m, c, 4);
    CHECK(ma0->kind == UE_HSD_ANIM_MATERIAL && ma0->joint == 3 && ma0->offset == s.ma0);
    CHECK(ma0->dobj == dobj_at(m, s.d0) && ma0->tobj == -1);
    CHECK(ma1->kind == UE_HSD_ANIM_MATERIAL && ma1->dobj == dobj_at(m, s.d1) && ma1->aobj == -1);
    /* TexAnims by id: id 0 is the chain's second TObj, id 1 its first */
    CHECK(ta0->kind == UE_HSD_ANIM_TEXTURE && ta0->flags == 0 && ta0->tobj == tobj_at(m, s.tb));
    CHECK(ta1->flags == 1 && ta1->tobj == tobj_at(m, s.ta));
    CHECK(ta2->flags == 7 && ta2->tobj == -1 && ta2->dobj == ma0->dobj);
    CHECK(diag_has(&x.d, "hsd.anim.texanim.tobj", "dat/scene/model[0]/matanims[0]/joint[3]/matanim[0]/texanim[2]"));
    /* the TIMG table: Ta's image row shared, NULL as -1, one new image row */
    REQUIRE(ta0->image_count == 3 && ta0->tlut_count == 0);
    const int32_t *tab = m->anims.images + ta0->first_image;
    int32_t ta_row = tobj_at(m, s.ta);
    REQUIRE(ta_row >= 0);
    CHECK(tab[0] == m->tobjs[ta_row].image && tab[1] == -1 && tab[2] >= 0);
    CHECK_EQ_U(m->image_count, 2);
    CHECK(tab[2] >= 0 && m->images[tab[2]].offset == s.img_b && m->images[tab[2]].width == 8);
    /* the TIMG track's stepped keys */
    REQUIRE(ta0->aobj >= 0);
    const ue_hsd_aobj *w = &m->anims.aobjs[ta0->aobj];
    REQUIRE(w->track_count == 1);
    const ue_hsd_track *tr = &m->anims.tracks[w->first_track];
    REQUIRE(tr->type == UE_HSD_TT_TIMG && tr->key_count == 2);
    CHECK(m->anims.keys[tr->first_key].op == UE_HSD_KEY_KEY);
    CHECK(m->anims.keys[tr->first_key + 1].value == 2.0f);
    done(&x);
}

/* ---- mismatched trees ------------------------------------------------------------------------ */

/* anims[1]: B0 ↔ J0, child B1 ↔ J1, child B3 ↔ J3, child B4: J3 has no child. The runtime
 * walks the JObj tree (HSD_JObjAddAnimAll), so B4 is never read: an info, valid in both modes. */
static void test_mismatch_joint(void) {
    static anim_image s;
    build(&s);
    dat_image *b = &s.b;
    uint32_t aobj = put_aobj(b, 0, 12.0f, 0);
    uint32_t b0 = put_animjoint(b, aobj, 0), b1 = put_animjoint(b, 0, 0),
             b3 = put_animjoint(b, 0, 0), b4 = put_animjoint(b, aobj, 0);
    di_ptr(b, b0, b1);
    di_ptr(b, b1, b3);
    di_ptr(b, b3, b4);
    build_scene(&s, &b0, 1);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(b, (ue_mode)mode, &x));
        const ue_diag_item *it =
            diag_find(&x.d, "hsd.anim.mismatch", "dat/scene/model[0]/anims[1]/joint[2]/child");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)b3 && it->severity == UE_SEV_INFO);
        CHECK_EQ_U(x.r, UE_OK);
        REQUIRE(x.m.anims.clip_count == 3);
        CHECK_EQ_U(x.m.anims.clips[0].target_count, 3); /* the intact clip, whole */
        const ue_hsd_clip *c = &x.m.anims.clips[1];
        CHECK(c->index == 1 && c->target_count == 3 && c->end_frame == 12.0f);
        CHECK(target(&x.m, c, 2)->joint == 2 && target(&x.m, c, 2)->offset == b3);
        done(&x);
    }
}

/* MJ0 (on J0, which has no DObj) gets a MatAnim, and J2's list of two DObjs gets a third
 * MatAnim whose AObj pointer leaves the data block. The runtime pairs MatAnims with DObjs
 * (HSD_DObjAddAnimAll) and never reads a surplus one: infos, valid in both modes. */
static void test_mismatch_matanim(void) {
    static anim_image s;
    build(&s);
    dat_image *b = &s.b;
    uint32_t extra = di_alloc(b, 0x10, 4), surplus = di_alloc(b, 0x10, 4);
    di_ptr(b, s.mj0 + 8, extra);
    di_ptr(b, s.ma1, surplus);
    di_u32(b, surplus + 4, 0x7FFFFFF0u); /* a broken AObj pointer nothing may follow */
    build_scene(&s, NULL, 0);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(b, (ue_mode)mode, &x));
        const ue_diag_item *it = diag_find(&x.d, "hsd.anim.mismatch",
                                           "dat/scene/model[0]/matanims[0]/joint[0]/matanim[0]");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)s.mj0 + 8 && it->severity == UE_SEV_INFO);
        it = diag_find(&x.d, "hsd.anim.mismatch", "dat/scene/model[0]/matanims[0]/joint[3]/matanim[2]");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)s.ma1 && it->severity == UE_SEV_INFO);
        CHECK_EQ_U(ue_diag_count(&x.d, UE_SEV_ERROR), 0);
        CHECK_EQ_U(x.r, UE_OK);
        REQUIRE(x.m.anims.clip_count == 2);
        CHECK_EQ_U(x.m.anims.clips[1].target_count, 5); /* J2's MatAnims still bound */
        done(&x);
    }
}

/* ---- bad streams, tables and frames ---------------------------------------------------------- */

/* A LIN run of two keys whose second value is cut after 2 bytes: tolerant keeps the first key. */
static void test_truncated_stream(void) {
    static anim_image s;
    build(&s);
    static const uint8_t cut[] = {0x12, F1, 0x0A, 0x00, 0x00};
    di_u32(&s.b, s.fobj_trax + 4, sizeof cut);
    memcpy(s.b.data + s.keys_trax, cut, sizeof cut);
    build_scene(&s, NULL, 0);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(&s.b, (ue_mode)mode, &x));
        CHECK(diag_find(&x.d, NULL, "dat/scene/model[0]/anims[0]/joint[0]/aobj/track[0]") != NULL);
        CHECK_EQ_U(x.r, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        if (mode == UE_MODE_TOLERANT) {
            REQUIRE(x.m.anims.clip_count == 2);
            const ue_hsd_aobj *ao = &x.m.anims.aobjs[target(&x.m, &x.m.anims.clips[0], 0)->aobj];
            const ue_hsd_track *tr = &x.m.anims.tracks[ao->first_track];
            CHECK_EQ_U(tr->key_count, 1);
            CHECK(x.m.anims.keys[tr->first_key].value == 1.0f);
            CHECK_EQ_U(tr[1].key_count, 1); /* the next track is intact */
        }
        done(&x);
    }
}

/* A TIMG key of 5 in a 3-entry table, and a table entry whose Image runs past the data block. */
static void test_table_index(void) {
    static anim_image s;
    build(&s);
    static const uint8_t timg[] = {0x16, F0, 0x05, F5, 0x00};
    uint32_t keys = put_keys(&s.b, timg, sizeof timg);
    di_u32(&s.b, s.fobj_timg + 0x10, keys); /* the field is relocated already */
    build_scene(&s, NULL, 0);
    uint32_t tail = di_alloc(&s.b, 4, 4); /* an Image there would run past the data block */
    di_ptr(&s.b, s.table + 4, tail);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(&s.b, (ue_mode)mode, &x));
        const char *path = "dat/scene/model[0]/matanims[0]/joint[3]/matanim[0]/texanim[0]";
        char sub[160];
        snprintf(sub, sizeof sub, "%s/aobj", path);
        const ue_diag_item *it = diag_find(&x.d, "hsd.anim.table_index", sub);
        /* strict stops at the table entry, read before the AObj */
        CHECK(mode == UE_MODE_STRICT ? !it : it && it->offset == UE_DAT_HEADER + (uint64_t)keys);
        snprintf(sub, sizeof sub, "%s/images[1]", path);
        it = diag_find(&x.d, "hsd.struct.truncated", sub);
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)tail);
        CHECK_EQ_U(x.r, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        if (mode == UE_MODE_TOLERANT) {
            const ue_hsd_anim_target *ta0 = target(&x.m, &x.m.anims.clips[1], 1);
            CHECK(ta0->image_count == 3 && x.m.anims.images[ta0->first_image + 1] == -1);
            const ue_hsd_aobj *w = &x.m.anims.aobjs[ta0->aobj];
            CHECK_EQ_U(x.m.anims.tracks[w->first_track].key_count, 0);
        }
        done(&x);
    }
}

/* TA1 shares TA0's AObj W (TIMG 0 → 2) with a 1-entry table: its second use is checked too, so
 * key 2 is hsd.anim.table_index at TA1 (strict fails, tolerant drops the TIMG track's keys). */
static void test_table_index_shared_aobj(void) {
    static anim_image s;
    build(&s);
    uint32_t table = di_alloc(&s.b, 4, 4);
    di_ptr(&s.b, table, s.img_a);
    di_ptr(&s.b, s.ta1 + 8, s.aobj_w);
    di_ptr(&s.b, s.ta1 + 0x0C, table);
    di_u16(&s.b, s.ta1 + 0x14, 1);
    build_scene(&s, NULL, 0);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(&s.b, (ue_mode)mode, &x));
        CHECK(diag_find(&x.d, "hsd.anim.table_index",
                        "dat/scene/model[0]/matanims[0]/joint[3]/matanim[0]/texanim[1]/aobj") != NULL);
        CHECK(diag_find(&x.d, "hsd.anim.table_index",
                        "dat/scene/model[0]/matanims[0]/joint[3]/matanim[0]/texanim[0]/aobj") == NULL);
        CHECK_EQ_U(x.r, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        if (mode == UE_MODE_TOLERANT) {
            const ue_hsd_anim_target *ta1 = target(&x.m, &x.m.anims.clips[1], 2);
            CHECK(ta1->image_count == 1);
            const ue_hsd_aobj *w = &x.m.anims.aobjs[ta1->aobj];
            CHECK_EQ_U(x.m.anims.tracks[w->first_track].key_count, 0);
        }
        done(&x);
    }
}

/* anims[1] with an AObj whose end frame is NaN, anims[2] past UE_HSD_MAX_FRAMES: both dropped
 * in tolerant mode, anims[0] and the material clip kept with their indices. */
static void test_end_frame(void) {
    static anim_image s;
    build(&s);
    dat_image *b = &s.b;
    uint32_t more[2] = {put_animjoint(b, put_aobj(b, 0, NAN, 0), 0),
                        put_animjoint(b, put_aobj(b, 0, 2e6f, 0), 0)};
    build_scene(&s, more, 2);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(b, (ue_mode)mode, &x));
        CHECK(diag_has(&x.d, "hsd.anim.end_frame", "dat/scene/model[0]/anims[1]/joint[0]/aobj"));
        CHECK_EQ_U(x.r, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        if (mode == UE_MODE_TOLERANT) {
            CHECK(diag_has(&x.d, "hsd.anim.end_frame", "dat/scene/model[0]/anims[2]/joint[0]/aobj"));
            REQUIRE(x.m.anims.clip_count == 2);
            CHECK(x.m.anims.clips[0].index == 0 && !x.m.anims.clips[0].material);
            CHECK(x.m.anims.clips[1].material);
            CHECK_EQ_U(x.m.anims.target_count, 3 + 5); /* the dropped clips' rows are gone */
        }
        done(&x);
    }
}

/* anims[1] is a misaligned pointer (reported, skipped: anims[2] keeps index 2); anims[2] names
 * A0 again, so it is the same rows as anims[0] (a root named twice is read once). */
static void test_broken_slot_and_reuse(void) {
    static anim_image s;
    build(&s);
    uint32_t more[2] = {2, 0};
    more[1] = s.a0;
    build_scene(&s, more, 2);
    for (int mode = 0; mode < 2; mode++) {
        read_result x;
        REQUIRE(read_image(&s.b, (ue_mode)mode, &x));
        const ue_diag_item *it =
            diag_find(&x.d, "hsd.pointer.misaligned", "dat/scene/model[0]/anims[1]");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)s.anims + 4);
        CHECK_EQ_U(x.r, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        if (mode == UE_MODE_TOLERANT) {
            REQUIRE(x.m.anims.clip_count == 3);
            const ue_hsd_clip *c0 = &x.m.anims.clips[0], *c2 = &x.m.anims.clips[1];
            CHECK(c2->index == 2 && !c2->material && c2->offset == s.a0);
            CHECK(c2->first_target == c0->first_target && c2->target_count == 3);
            CHECK(c2->end_frame == 20.0f);
            CHECK_EQ_U(x.m.anims.target_count, 3 + 5);
            CHECK(!has_code(&x.d, "hsd.anim.shared"));
        }
        done(&x);
    }
}

/* J1 becomes an INSTANCE (its +0x08 names an instanced tree, not a child): A1's child is not
 * descended, as the runtime does not, and is no mismatch. Shape animations are counted only. */
static void test_instance_and_shapeanims(void) {
    static anim_image s;
    build(&s);
    dat_image *b = &s.b;
    di_u32(b, s.j[1] + 4, UE_JOBJ_INSTANCE);
    uint32_t under = put_animjoint(b, s.aobj_x, 0);
    di_ptr(b, s.a1, under);
    build_scene(&s, NULL, 0);
    uint32_t shapes[2] = {di_alloc(b, 0x0C, 4), di_alloc(b, 0x0C, 4)};
    di_ptr(b, s.ms + 0x0C, put_array(b, shapes, 2));
    read_result x;
    REQUIRE(read_image(b, UE_MODE_STRICT, &x));
    if (x.r != UE_OK) dump_diag(&x.d);
    REQUIRE(x.r == UE_OK);
    CHECK(!has_code(&x.d, "hsd.anim.mismatch"));
    const ue_diag_item *it = diag_find(&x.d, "hsd.anim.shapeanim", "dat/scene/model[0]/shapeanims");
    CHECK(it && it->severity == UE_SEV_INFO && strstr(it->message, "2 shape") != NULL);
    REQUIRE(x.m.anims.clip_count == 2);
    const ue_hsd_clip *c = &x.m.anims.clips[0];
    REQUIRE(c->target_count == 3); /* A0, A1, A2: nothing below the instance */
    CHECK(target(&x.m, c, 1)->offset == s.a1 && target(&x.m, c, 2)->offset == s.a2);
    done(&x);
}

/* An AnimJoint whose next points to itself, and an FObj list returning to its head. */
static void test_cycles(void) {
    static anim_image s;
    build(&s);
    di_ptr(&s.b, s.a2 + 4, s.a2);
    di_u32(&s.b, s.fobj_trax + 0, s.fobj_trax); /* the field is relocated already */
    build_scene(&s, NULL, 0);
    read_result x;
    REQUIRE(read_image(&s.b, UE_MODE_TOLERANT, &x));
    CHECK_EQ_U(x.r, UE_OK);
    CHECK(diag_has(&x.d, "hsd.anim.shared", "dat/scene/model[0]/anims[0]/joint[3]/next"));
    CHECK(diag_has(&x.d, "hsd.anim.track.shared",
                   "dat/scene/model[0]/anims[0]/joint[0]/aobj/track[1]"));
    REQUIRE(x.m.anims.clip_count == 2);
    CHECK_EQ_U(x.m.anims.clips[0].target_count, 3);
    CHECK_EQ_U(x.m.anims.aobjs[target(&x.m, &x.m.anims.clips[0], 0)->aobj].track_count, 1);
    done(&x);
}

/* Many tracks naming one long key stream: decoding stops at the budget (twice the data block
 * plus 64 KiB), so a small file cannot make the reader decode without end. */
static void test_key_budget(void) {
    static anim_image s;
    build(&s);
    dat_image *b = &s.b;
    enum { BYTES = 0x4000, TRACKS = 40 };
    uint32_t stream = di_alloc(b, BYTES, 4);
    for (uint32_t i = 0; i + 6 <= BYTES; i += 6) { /* CON runs of one key, value 0, wait 1 */
        b->data[stream + i] = 0x01;
        b->data[stream + i + 5] = 0x01;
    }
    uint32_t prev = 0, first = 0;
    for (uint32_t i = 0; i < TRACKS; i++) {
        uint32_t f = put_fobj(b, 5, stream, BYTES - BYTES % 6);
        if (prev) di_ptr(b, prev, f);
        else first = f;
        prev = f;
    }
    uint32_t root = put_animjoint(b, put_aobj(b, 0, 5.0f, first), 0);
    build_scene(&s, &root, 1);
    read_result x;
    REQUIRE(read_image(b, UE_MODE_TOLERANT, &x));
    CHECK(has_code(&x.d, "hsd.anim.budget"));
    uint64_t budget = 2ull * x.dat.data_size + 0x10000u;
    size_t decoded = 0;
    for (size_t i = 0; i < x.m.anims.track_count; i++)
        if (x.m.anims.tracks[i].length == BYTES - BYTES % 6 && x.m.anims.tracks[i].key_count)
            decoded++;
    CHECK(decoded > 0 && decoded * (BYTES - BYTES % 6) <= budget + 0x100);
    CHECK(decoded < TRACKS);
    done(&x);
}

/* ---- standalone roots (docs/formats/hsd-animation.md#root-naming) ---------------------------- */

static void test_standalone_roots(void) {
    static anim_image s;
    build(&s);
    dat_image *b = &s.b;
    di_root(b, s.j[0], "body_joint");
    di_root(b, s.a0, "body_animjoint");
    di_root(b, s.mj0, "body_matanim_joint");
    read_result x;
    REQUIRE(read_image(b, UE_MODE_STRICT, &x));
    REQUIRE(x.r == UE_OK);
    REQUIRE(x.m.anims.clip_count == 2);
    const ue_hsd_clip *c0 = &x.m.anims.clips[0], *c1 = &x.m.anims.clips[1];
    CHECK(c0->root_name && strcmp(c0->root_name, "body_animjoint") == 0 && !c0->material);
    CHECK(c1->root_name && strcmp(c1->root_name, "body_matanim_joint") == 0 && c1->material);
    CHECK(c0->index == 0 && c1->index == 0 && c0->set == 0);
    CHECK(c0->target_count == 3 && c1->target_count == 5 && c0->end_frame == 20.0f);
    done(&x);
}

/* ---- PKX animation-entry table (docs/formats/pkx.md#animation-entry) --------------------------- */

static void be32(uint8_t *p, uint32_t v) { di_be32(p, v); }

static void put_entry(uint8_t *e, uint32_t kind, uint32_t subs, uint32_t timing0, uint32_t anim,
                      uint32_t anim2, uint32_t terminator) {
    memset(e, 0, UE_PKX_ANIM_ENTRY);
    be32(e, kind);
    be32(e + 4, subs);
    be32(e + 0x10, timing0);
    for (int k = 0; k < 16; k++) be32(e + 0x4C + 4 * k, 0xFFFFFFFFu);
    be32(e + 0x8C, 2);
    be32(e + 0x90, anim);
    be32(e + 0x94, 1);
    be32(e + 0x98, anim2);
    be32(e + 0xCC, terminator);
}

static void test_pkx_entries(void) {
    /* a tiny DAT: only its size word matters to the PKX layer */
    uint8_t dat[0x40] = {0};
    be32(dat, sizeof dat);
    uint8_t anims[3 * UE_PKX_ANIM_ENTRY];
    float secs = 0.5f;
    uint32_t secs_bits;
    memcpy(&secs_bits, &secs, 4);
    for (int layout = 0; layout < 2; layout++) {
        bool xd = layout == 1;
        put_entry(anims, 2, 1, xd ? secs_bits : 30, 0, 0, xd ? 3 : 1);
        put_entry(anims + UE_PKX_ANIM_ENTRY, 5, 2, xd ? secs_bits : 30, 4, 6, xd ? 3 : 1);
        put_entry(anims + 2 * UE_PKX_ANIM_ENTRY, 4, 12, 0, 1, 0, xd ? 3 : 1);
        ue_buf pkx = {0};
        REQUIRE(ue_pkx_build(xd ? UE_PKX_XD : UE_PKX_COLOSSEUM, dat, sizeof dat, NULL, 0, anims, 3,
                             xd ? 25 : 0, &pkx) == UE_OK);
        ue_pkx_info info;
        ue_diag d = {0};
        REQUIRE(ue_pkx_parse(pkx.data, pkx.size, UE_MODE_STRICT, &info, &d) == UE_OK);
        ue_pkx_anim_entry *e = NULL;
        size_t n = 0;
        ue_result r = ue_pkx_anim_entries(pkx.data, pkx.size, &info, UE_MODE_TOLERANT, &e, &n, &d);
        CHECK_EQ_U(r, UE_OK);
        REQUIRE(n == 3 && e);
        CHECK(e[0].motion_kind == 2 && e[0].sub_anim_count == 1 && e[0].anim_count == 1);
        CHECK(e[0].sub_anim[0] == 0 && e[0].timing_seconds[0] == 0.5f);
        CHECK(e[1].motion_kind == 5 && e[1].anim_count == 2);
        CHECK(e[1].sub_anim[0] == 4 && e[1].sub_anim[1] == 6);
        CHECK(e[1].sub_motion[0] == 2 && e[1].sub_motion[1] == 1);
        CHECK(e[0].body_map[0] == -1);
        /* a count past the 8 slots is cut to 8, with a warning naming the entry */
        CHECK(e[2].anim_count == 8);
        CHECK(diag_has(&d, "pkx.anim.sub_count", "pkx/anims[2]/sub_anim_count"));
        CHECK_STR(ue_pkx_slot_name(0, false), "idle");
        CHECK_STR(ue_pkx_slot_name(3, false), "physical B");
        CHECK_STR(ue_pkx_slot_name(10, false), "faint");
        CHECK_STR(ue_pkx_slot_name(1, true), "ball throw");
        CHECK(ue_pkx_slot_name(40, false) == NULL);
        /* strict refuses the over-long count */
        free(e);
        e = NULL;
        CHECK_EQ_U(ue_pkx_anim_entries(pkx.data, pkx.size, &info, UE_MODE_STRICT, &e, &n, NULL),
                   UE_ERR_INVALID);
        free(e);
        /* a table that claims more entries than the file holds is refused */
        ue_pkx_info bad = info;
        bad.anim_count = 200;
        e = NULL;
        CHECK_EQ_U(ue_pkx_anim_entries(pkx.data, pkx.size, &bad, UE_MODE_TOLERANT, &e, &n, NULL),
                   UE_ERR_INVALID);
        CHECK(e == NULL && n == 0);
        ue_diag_free(&d);
        ue_buf_free(&pkx);
    }
}

int main(void) {
    RUN(test_animjoint_binding);
    RUN(test_matanim_binding);
    RUN(test_mismatch_joint);
    RUN(test_mismatch_matanim);
    RUN(test_truncated_stream);
    RUN(test_table_index);
    RUN(test_table_index_shared_aobj);
    RUN(test_end_frame);
    RUN(test_broken_slot_and_reuse);
    RUN(test_instance_and_shapeanims);
    RUN(test_cycles);
    RUN(test_key_budget);
    RUN(test_standalone_roots);
    RUN(test_pkx_entries);
    return TEST_SUMMARY();
}
