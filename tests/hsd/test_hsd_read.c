/* unearth tests — the HSD struct reader: DAT images laid out by hand from docs/formats/hsd-model.md (joints,
 * DObj/MObj/TObj/Image/TLUT, PObjs, envelopes, scene_data), every field checked, bad input. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test.h"
#include "dat_image.h"
#include "hsd/hsd_int.h"
#include "unearth/gx.h"
#include "unearth/hsd_model.h"

/* ---- struct helpers (offsets from docs/formats/hsd-model.md) ------------------------------ */

static uint32_t put_joint(dat_image *b, uint32_t flags) {
    uint32_t j = di_alloc(b, 0x40, 4);
    di_u32(b, j + 4, flags);
    for (uint32_t k = 0; k < 3; k++) di_f32(b, j + 0x20 + 4 * k, 1.0f);
    return j;
}

/* A descriptor array: POS direct F32 XYZ, then the 0xFF terminator as tools write it. */
static uint32_t put_pos_attrs(dat_image *b) {
    uint32_t a = di_alloc(b, 0x30, 4);
    di_u32(b, a, UE_GX_VA_POS);
    di_u32(b, a + 4, UE_GX_DIRECT);
    di_u32(b, a + 8, 1);
    di_u32(b, a + 12, 4);
    di_u32(b, a + 0x18, 0xFF);
    di_u32(b, a + 0x1C, 2);
    di_u32(b, a + 0x24, 4);
    return a;
}

static uint32_t put_pobj(dat_image *b, uint16_t flags, uint32_t attrs, uint32_t dl,
                         uint16_t n_display) {
    uint32_t p = di_alloc(b, 0x18, 4);
    di_ptr(b, p + 8, attrs);
    di_u16(b, p + 0x0C, flags);
    di_u16(b, p + 0x0E, n_display);
    if (n_display) di_ptr(b, p + 0x10, dl);
    return p;
}

static bool parse(const dat_image *b, ue_mode mode, ue_dat *dat, ue_hsd_model *m, ue_diag *d,
                  ue_result *r) {
    size_t n = 0;
    uint8_t *file = di_file(b, &n);
    bool ok = ue_dat_parse(file, n, UE_MODE_STRICT, dat, NULL) == UE_OK;
    free(file);
    *r = ok ? ue_hsd_model_read(dat, mode, m, d) : UE_ERR_INVALID;
    return ok;
}

static bool near(float a, float b) { return fabsf(a - b) < 1e-6f; }

/* ---- the full image -------------------------------------------------------------------------- */

/* Joints J0 → child J1 (child J3, sibling J2); J1 holds DObjs D0 → M0, D1 → M1, D2 → M0 (M0's
 * TObj chain T0 → T1, M1's starts at T1); D0 → PObjs P0 (rigid) → P1 (envelope) → P2 (skin). */
typedef struct full_image {
    dat_image b;
    uint32_t j0, j1, j2, j3, ib, robj, spline, d0, m0, m1, mat, pe, t0, t1, img_a, img_b, pix_a,
        pix_b, tl, tl_data, tev, attrs, dl, p0, p1, p2, envlist, e0, e1, name;
} full_image;

static void full_joints(full_image *f) {
    dat_image *b = &f->b;
    f->j0 = put_joint(b, UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ROOT_OPA);
    f->j1 = put_joint(b, UE_JOBJ_SKELETON | UE_JOBJ_OPA);
    f->j2 = put_joint(b, UE_JOBJ_SPLINE);
    f->j3 = put_joint(b, 0);
    f->name = di_str(b, "root");
    di_ptr(b, f->j0, f->name);
    di_ptr(b, f->j0 + 0x08, f->j1);
    di_ptr(b, f->j1 + 0x08, f->j3);
    di_ptr(b, f->j1 + 0x0C, f->j2);
    const float rst[9] = {0.5f, -1.25f, 2.0f, 1.0f, 2.0f, 3.0f, 10.0f, -20.0f, 30.5f};
    for (uint32_t k = 0; k < 9; k++) di_f32(b, f->j0 + 0x14 + 4 * k, rst[k]);
    f->ib = di_alloc(b, 48, 4);
    for (uint32_t k = 0; k < 12; k++) di_f32(b, f->ib + 4 * k, 0.5f * (float)k);
    di_ptr(b, f->j0 + 0x38, f->ib);
    f->robj = di_alloc(b, 0x0C, 4);
    di_ptr(b, f->j0 + 0x3C, f->robj);
    f->spline = di_alloc(b, 0x18, 4);
    di_ptr(b, f->j2 + 0x10, f->spline);
    di_root(b, f->j0, "a_joint");
}

static void full_textures(full_image *f) {
    dat_image *b = &f->b;
    f->pix_a = di_alloc(b, 32, 32); /* I8 8x4: one 8x4 block */
    f->pix_b = di_alloc(b, 128, 32); /* I8 8x8 with 3 levels: 64 + 32 + 32 */
    f->tl_data = di_alloc(b, 8, 32);
    f->img_a = di_alloc(b, 0x18, 4);
    di_ptr(b, f->img_a, f->pix_a);
    di_u16(b, f->img_a + 4, 8);
    di_u16(b, f->img_a + 6, 4);
    di_u32(b, f->img_a + 8, UE_GX_I8);
    f->img_b = di_alloc(b, 0x18, 4);
    di_ptr(b, f->img_b, f->pix_b);
    di_u16(b, f->img_b + 4, 8);
    di_u16(b, f->img_b + 6, 8);
    di_u32(b, f->img_b + 8, UE_GX_I8);
    di_u32(b, f->img_b + 0x0C, 1);
    di_f32(b, f->img_b + 0x10, 0.0f);
    di_f32(b, f->img_b + 0x14, 2.5f);
    f->tl = di_alloc(b, 0x10, 4);
    di_ptr(b, f->tl, f->tl_data);
    di_u32(b, f->tl + 4, UE_GX_TLUT_RGB5A3);
    di_u32(b, f->tl + 8, 0x1234);
    di_u16(b, f->tl + 12, 4);
    f->tev = di_alloc(b, 0x20, 4);
    f->t0 = di_alloc(b, 0x5C, 4);
    f->t1 = di_alloc(b, 0x5C, 4);
    di_ptr(b, f->t0 + 4, f->t1);
    di_u32(b, f->t0 + 0x08, 0);
    di_u32(b, f->t0 + 0x0C, 4);
    const float srt[9] = {0.0f, 0.0f, 0.25f, 2.0f, 4.0f, 1.0f, 0.125f, -0.5f, 0.0f};
    for (uint32_t k = 0; k < 9; k++) di_f32(b, f->t0 + 0x10 + 4 * k, srt[k]);
    di_u32(b, f->t0 + 0x34, 1);
    di_u32(b, f->t0 + 0x38, 2);
    di_u8(b, f->t0 + 0x3C, 2);
    di_u8(b, f->t0 + 0x3D, 3);
    di_u32(b, f->t0 + 0x40, 0x00040010);
    di_f32(b, f->t0 + 0x44, 0.75f);
    di_u32(b, f->t0 + 0x48, 1);
    di_ptr(b, f->t0 + 0x4C, f->img_a);
    di_ptr(b, f->t0 + 0x50, f->tl);
    di_ptr(b, f->t0 + 0x58, f->tev);
    di_u32(b, f->t1 + 0x08, 1);
    di_ptr(b, f->t1 + 0x4C, f->img_b);
}

static void full_materials(full_image *f) {
    dat_image *b = &f->b;
    f->mat = di_alloc(b, 0x14, 4);
    const uint8_t rgba[12] = {1, 2, 3, 4, 10, 20, 30, 40, 100, 110, 120, 130};
    for (uint32_t k = 0; k < 12; k++) di_u8(b, f->mat + k, rgba[k]);
    di_f32(b, f->mat + 0x0C, 0.75f);
    di_f32(b, f->mat + 0x10, 50.0f);
    f->pe = di_alloc(b, 0x0C, 4);
    for (uint32_t k = 0; k < 12; k++) di_u8(b, f->pe + k, (uint8_t)(k + 1));
    f->m0 = di_alloc(b, 0x18, 4);
    di_u32(b, f->m0 + 4, 0x40000014u);
    di_ptr(b, f->m0 + 8, f->t0);
    di_ptr(b, f->m0 + 0x0C, f->mat);
    di_ptr(b, f->m0 + 0x14, f->pe);
    f->m1 = di_alloc(b, 0x18, 4);
    di_ptr(b, f->m1 + 8, f->t1); /* a TObj of M0's chain: the same row */
}

static void full_meshes(full_image *f) {
    dat_image *b = &f->b;
    f->attrs = put_pos_attrs(b);
    f->dl = di_alloc(b, 32, 32);
    f->p0 = put_pobj(b, 0, f->attrs, f->dl, 1);
    f->p1 = put_pobj(b, UE_POBJ_ENVELOPE | UE_POBJ_CULL_BACK, f->attrs, f->dl, 1);
    f->p2 = put_pobj(b, UE_POBJ_SKIN, f->attrs, f->dl, 1);
    di_ptr(b, f->p0 + 4, f->p1);
    di_ptr(b, f->p1 + 4, f->p2);
    f->e0 = di_alloc(b, 16, 4);
    di_ptr(b, f->e0, f->j1);
    di_f32(b, f->e0 + 4, 1.0f);
    f->e1 = di_alloc(b, 24, 4);
    di_ptr(b, f->e1, f->j1);
    di_f32(b, f->e1 + 4, 0.25f);
    di_ptr(b, f->e1 + 8, f->j3);
    di_f32(b, f->e1 + 12, 0.75f);
    f->envlist = di_alloc(b, 12, 4);
    di_ptr(b, f->envlist, f->e0);
    di_ptr(b, f->envlist + 4, f->e1);
    di_ptr(b, f->p1 + 0x14, f->envlist);
    di_ptr(b, f->p2 + 0x14, f->j3);
    uint32_t d[3];
    for (int k = 0; k < 3; k++) d[k] = di_alloc(b, 0x10, 4);
    f->d0 = d[0];
    di_ptr(b, d[0], di_str(b, "mesh"));
    for (int k = 0; k < 2; k++) di_ptr(b, d[k] + 4, d[k + 1]);
    di_ptr(b, d[0] + 8, f->m0);
    di_ptr(b, d[1] + 8, f->m1);
    di_ptr(b, d[2] + 8, f->m0);
    di_ptr(b, d[0] + 0x0C, f->p0);
    di_ptr(b, f->j1 + 0x10, d[0]);
}

static void full_build(full_image *f) {
    memset(f, 0, sizeof *f);
    di_init(&f->b);
    full_joints(f);
    full_textures(f);
    full_materials(f);
    full_meshes(f);
}

static void check_joints(const full_image *f, const ue_hsd_model *m) {
    REQUIRE(m->set_count == 1 && m->joint_count == 4);
    CHECK_EQ_U(m->sets[0].root_joint, 0);
    CHECK_STR(m->sets[0].root_name, "a_joint");
    CHECK_EQ_U(m->sets[0].offset, f->j0);
    /* pre-order, child before next sibling: J0, J1, J3, J2 */
    const uint32_t order[4] = {f->j0, f->j1, f->j3, f->j2};
    const int32_t parent[4] = {-1, 0, 1, 0}, child[4] = {1, 2, -1, -1}, next[4] = {-1, 3, -1, -1};
    const uint32_t depth[4] = {0, 1, 2, 1};
    for (int k = 0; k < 4; k++) {
        CHECK_EQ_U(m->joints[k].offset, order[k]);
        CHECK(m->joints[k].parent == parent[k]);
        CHECK(m->joints[k].first_child == child[k]);
        CHECK(m->joints[k].next_sibling == next[k]);
        CHECK_EQ_U(m->joints[k].depth, depth[k]);
    }
    const ue_hsd_joint *j0 = &m->joints[0];
    CHECK_STR(j0->class_name, "root");
    CHECK_EQ_U(j0->flags, UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ROOT_OPA);
    CHECK(near(j0->rotation[0], 0.5f) && near(j0->rotation[1], -1.25f) &&
          near(j0->rotation[2], 2.0f));
    CHECK(near(j0->scale[0], 1.0f) && near(j0->scale[1], 2.0f) && near(j0->scale[2], 3.0f));
    CHECK(near(j0->translation[0], 10.0f) && near(j0->translation[1], -20.0f) &&
          near(j0->translation[2], 30.5f));
    CHECK(j0->has_inverse_bind);
    for (int k = 0; k < 12; k++) CHECK(near(j0->inverse_bind[k], 0.5f * (float)k));
    CHECK_EQ_U(j0->robj_offset, f->robj);
    CHECK(j0->first_dobj == -1 && !m->joints[1].has_inverse_bind);
    CHECK(m->joints[1].first_dobj == 0);
    CHECK_EQ_U(m->joints[3].extra_offset, f->spline); /* SPLINE: +0x10 kept raw */
    CHECK(m->joints[3].first_dobj == -1);
}

static void check_materials(const full_image *f, const ue_hsd_model *m) {
    REQUIRE(m->dobj_count == 3 && m->mobj_count == 2 && m->tobj_count == 2);
    CHECK(m->dobjs[0].mobj == 0 && m->dobjs[1].mobj == 1 && m->dobjs[2].mobj == 0);
    CHECK(m->dobjs[0].next == 1 && m->dobjs[1].next == 2 && m->dobjs[2].next == -1);
    CHECK(m->dobjs[0].joint == 1 && m->dobjs[0].first_pobj == 0 && m->dobjs[1].first_pobj == -1);
    CHECK_STR(m->dobjs[0].name, "mesh");
    const ue_hsd_mobj *m0 = &m->mobjs[0];
    CHECK_EQ_U(m0->offset, f->m0);
    CHECK_EQ_U(m0->render_mode, 0x40000014u);
    CHECK(m0->has_material && m0->has_pe && m0->first_tobj == 0);
    CHECK(m0->material.ambient[0] == 1 && m0->material.diffuse[3] == 40 &&
          m0->material.specular[2] == 120);
    CHECK(near(m0->material.alpha, 0.75f) && near(m0->material.shininess, 50.0f));
    CHECK(m0->pe.flags == 1 && m0->pe.ref0 == 2 && m0->pe.alpha_comp1 == 12);
    CHECK(m->mobjs[1].first_tobj == 1 && !m->mobjs[1].has_material); /* shared TObj row */
    const ue_hsd_tobj *t0 = &m->tobjs[0];
    CHECK(t0->next == 1 && m->tobjs[1].next == -1);
    CHECK(t0->id == 0 && t0->src == 4 && m->tobjs[1].id == 1);
    CHECK(near(t0->rotation[2], 0.25f) && near(t0->scale[1], 4.0f) &&
          near(t0->translation[0], 0.125f) && near(t0->translation[1], -0.5f));
    CHECK(t0->wrap_s == 1 && t0->wrap_t == 2 && t0->repeat_s == 2 && t0->repeat_t == 3);
    CHECK(t0->flags == 0x00040010u && near(t0->blending, 0.75f) && t0->mag_filter == 1);
    CHECK(t0->lod_offset == 0 && t0->tev_offset == f->tev);
    CHECK(t0->image == 0 && t0->tlut == 0 && m->tobjs[1].image == 1 && m->tobjs[1].tlut == -1);
}

static void check_images(const full_image *f, const ue_hsd_model *m) {
    REQUIRE(m->image_count == 2 && m->tlut_count == 1);
    const ue_hsd_image *a = &m->images[0], *b = &m->images[1];
    CHECK(a->offset == f->img_a && a->data_offset == f->pix_a);
    CHECK(a->width == 8 && a->height == 4 && a->format == UE_GX_I8 && !a->mipmap);
    CHECK(a->levels == 1 && a->size == 32);
    CHECK(a->data == m->dat->data + f->pix_a);
    /* 8x8 I8 (8x4 blocks): 64 + 32 (4x4) + 32 (2x2) bytes for floor(2.5) + 1 levels */
    CHECK(b->mipmap && b->levels == 3 && b->size == 128 && near(b->max_lod, 2.5f));
    const ue_hsd_tlut *t = &m->tluts[0];
    CHECK(t->offset == f->tl && t->data_offset == f->tl_data && t->format == UE_GX_TLUT_RGB5A3);
    CHECK(t->name_word == 0x1234 && t->n_entries == 4);
}

static void check_pobjs(const full_image *f, const ue_hsd_model *m) {
    REQUIRE(m->pobj_count == 3 && m->attr_count == 1); /* one descriptor array, shared */
    for (int k = 0; k < 3; k++) {
        CHECK(m->pobjs[k].attr_first == 0 && m->pobjs[k].attr_count == 1);
        CHECK(m->pobjs[k].dl == m->dat->data + f->dl && m->pobjs[k].dl_size == 32);
        CHECK(m->pobjs[k].attrs_offset == f->attrs && m->pobjs[k].n_display == 1);
    }
    CHECK(m->pobjs[0].next == 1 && m->pobjs[1].next == 2 && m->pobjs[2].next == -1);
    const ue_hsd_vtx_attr *a = &m->attrs[0];
    CHECK(a->attr == UE_GX_VA_POS && a->type == UE_GX_DIRECT && a->comp_count == 1 &&
          a->comp_type == 4 && !a->has_array && a->offset == f->attrs);
    CHECK(m->pobjs[1].flags == (UE_POBJ_ENVELOPE | UE_POBJ_CULL_BACK));
    CHECK(m->pobjs[1].env_first == 0 && m->pobjs[1].env_count == 2);
    CHECK(m->pobjs[1].property_offset == f->envlist);
    REQUIRE(m->envelope_count == 2 && m->weight_count == 3);
    CHECK(m->envelopes[0].offset == f->e0 && m->envelopes[0].first_weight == 0 &&
          m->envelopes[0].weight_count == 1);
    CHECK(m->envelopes[1].offset == f->e1 && m->envelopes[1].first_weight == 1 &&
          m->envelopes[1].weight_count == 2);
    CHECK(m->weights[0].joint == 1 && near(m->weights[0].weight, 1.0f));
    CHECK(m->weights[1].joint == 1 && near(m->weights[1].weight, 0.25f));
    CHECK(m->weights[2].joint == 2 && near(m->weights[2].weight, 0.75f)); /* J3 is row 2 */
    CHECK(m->pobjs[2].skin_joint == 2 && m->pobjs[0].skin_joint == -1);
}

static void test_full_image(void) {
    static full_image f;
    full_build(&f);
    ue_dat dat;
    ue_hsd_model m;
    ue_diag d = {0};
    ue_result r;
    REQUIRE(parse(&f.b, UE_MODE_STRICT, &dat, &m, &d, &r));
    if (r != UE_OK) dump_diag(&d);
    CHECK_EQ_U(r, UE_OK);
    CHECK_EQ_U(d.count, 0);
    check_joints(&f, &m);
    check_materials(&f, &m);
    check_images(&f, &m);
    check_pobjs(&f, &m);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_diag_free(&d);
}

/* scene_data → SceneDesc → {MS0, NULL}; MS0 → joint J (child K), animation arrays kept raw. */
static void test_scene_data(void) {
    static dat_image b;
    di_init(&b);
    uint32_t scene = di_alloc(&b, 0x10, 4), array = di_alloc(&b, 8, 4);
    uint32_t ms = di_alloc(&b, 0x10, 4), anims = di_alloc(&b, 8, 4);
    uint32_t j = put_joint(&b, 0), k = put_joint(&b, 0);
    di_ptr(&b, scene, array);
    di_ptr(&b, array, ms);
    di_ptr(&b, ms, j);
    di_ptr(&b, ms + 4, anims);
    di_ptr(&b, j + 8, k);
    di_root(&b, scene, "scene_data");
    di_root(&b, scene + 0x40, "bound_box"); /* another kind: not a model */
    ue_dat dat;
    ue_hsd_model m;
    ue_diag d = {0};
    ue_result r;
    REQUIRE(parse(&b, UE_MODE_STRICT, &dat, &m, &d, &r));
    CHECK_EQ_U(r, UE_OK);
    REQUIRE(m.set_count == 1 && m.joint_count == 2);
    CHECK_STR(m.sets[0].root_name, "scene_data");
    CHECK(m.sets[0].offset == ms && m.sets[0].root_joint == 0);
    CHECK(m.sets[0].anim_joints_offset == anims && m.sets[0].matanim_joints_offset == 0 &&
          m.sets[0].shapeanim_joints_offset == 0);
    CHECK(m.joints[1].offset == k && m.joints[1].parent == 0);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_diag_free(&d);
}

/* An INSTANCE joint's +0x08 names another tree to draw: kept raw, not read as a child. */
static void test_instance(void) {
    static dat_image b;
    di_init(&b);
    uint32_t j = put_joint(&b, UE_JOBJ_INSTANCE), other = put_joint(&b, 0);
    di_ptr(&b, j + 8, other);
    di_root(&b, j, "x_joint");
    ue_dat dat;
    ue_hsd_model m;
    ue_diag d = {0};
    ue_result r;
    REQUIRE(parse(&b, UE_MODE_STRICT, &dat, &m, &d, &r));
    CHECK_EQ_U(r, UE_OK);
    CHECK_EQ_U(m.joint_count, 1);
    CHECK(m.joint_count == 1 && m.joints[0].first_child == -1);
    CHECK(m.joint_count == 1 && m.joints[0].instance_offset == other);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_diag_free(&d);
}

/* 48 joints where joint i's child and next sibling both name joint i+1: 2^48 paths in a 3 KB
 * DAT. Each joint is read once; the 47 second links are reported and dropped. */
static void test_shared_subtrees_linear(void) {
    static dat_image b;
    di_init(&b);
    uint32_t j[48];
    for (int i = 0; i < 48; i++) j[i] = put_joint(&b, 0);
    for (int i = 0; i + 1 < 48; i++) {
        di_ptr(&b, j[i] + 8, j[i + 1]);
        di_ptr(&b, j[i] + 12, j[i + 1]);
    }
    di_root(&b, j[0], "x_joint");
    size_t n = 0;
    uint8_t *file = di_file(&b, &n);
    CHECK(n < 4096); /* 3 KB of joints, 94 relocations */
    ue_dat dat;
    REQUIRE(ue_dat_parse(file, n, UE_MODE_STRICT, &dat, NULL) == UE_OK);
    for (int mode = 0; mode < 2; mode++) {
        ue_hsd_model m;
        ue_diag d = {0};
        size_t steps = 0;
        ue_result r = hsd_model_read_counted(&dat, (ue_mode)mode, &m, &d, &steps);
        if (mode == UE_MODE_STRICT) {
            CHECK_EQ_U(r, UE_ERR_INVALID);
            /* the first shared link: J1's sibling field (child first: J1 is read via J0's
             * child, then J2 via J1's child ... J47; then J46's next names J47) */
            CHECK(has_code(&d, "hsd.joint.shared"));
        } else {
            CHECK_EQ_U(r, UE_OK);
            CHECK_EQ_U(m.joint_count, 48);
            CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 47);
            /* the deepest sibling link is met first: J46's next names J47 */
            const ue_diag_item *it = diag_find(&d, "hsd.joint.shared", "dat/joint[46]/next");
            CHECK(it && it->offset == 0x20u + j[46] + 12);
            for (int i = 0; i < 48; i++) CHECK_EQ_U(m.joints[i].depth, (uint32_t)i);
        }
        /* a joint: 5 pointer fields (name, inverse bind, robj, 2 links) and its DObj head */
        CHECK(steps <= 48 * 8);
        ue_hsd_model_free(&m);
        ue_diag_free(&d);
    }
    ue_dat_free(&dat);
    free(file);
}

/* ---- bad input ------------------------------------------------------------------------------ */

/* A small intact model: J0 (root "x_joint", child J1) → D0 → MObj M → P0 (POS direct F32 XYZ,
 * one triangle); each case below breaks one thing. */
typedef struct base_image {
    dat_image b;
    uint32_t j0, j1, d0, mo, p0, attrs, dl, im;
} base_image;

static void base_build(base_image *s) {
    memset(s, 0, sizeof *s);
    dat_image *b = &s->b;
    di_init(b);
    s->j0 = put_joint(b, 0);
    s->j1 = put_joint(b, 0);
    di_ptr(b, s->j0 + 8, s->j1);
    s->attrs = put_pos_attrs(b);
    s->dl = di_alloc(b, 64, 32);
    di_u8(b, s->dl, 0x90);
    di_u16(b, s->dl + 1, 3); /* 3 × 12 zero bytes: one degenerate triangle, still a triangle */
    s->p0 = put_pobj(b, 0, s->attrs, s->dl, 2);
    s->mo = di_alloc(b, 0x18, 4);
    s->d0 = di_alloc(b, 0x10, 4);
    di_ptr(b, s->d0 + 8, s->mo);
    di_ptr(b, s->d0 + 0x0C, s->p0);
    di_ptr(b, s->j0 + 0x10, s->d0);
    di_root(b, s->j0, "x_joint");
}

typedef struct bad_case {
    const char *name;
    /* breaks the image; returns the data offset the diagnostic must name */
    uint32_t (*mutate)(base_image *s);
    const char *code, *path;
    size_t joints, pobjs; /* what a tolerant read keeps */
} bad_case;

static uint32_t cut_struct(base_image *s) { /* a joint whose 0x40 bytes pass the block's end */
    dat_image *b = &s->b;
    di_init(b);
    s->j0 = put_joint(b, 0);
    uint32_t tail = di_alloc(b, 0x20, 4);
    di_ptr(b, s->j0 + 8, tail);
    di_root(b, s->j0, "x_joint");
    return tail;
}
static uint32_t pointer_outside(base_image *s) {
    di_u32(&s->b, s->j1 + 0x0C, 0x100000); /* not relocated, non-zero: a pointer by docs/formats/dat.md#null-rule */
    return s->j1 + 0x0C;
}
static uint32_t misaligned(base_image *s) {
    di_ptr(&s->b, s->j1 + 0x0C, s->j0 + 2);
    return s->j1 + 0x0C;
}
static uint32_t cycle(base_image *s) {
    di_ptr(&s->b, s->j1 + 0x08, s->j0); /* J1's child is J0, its own parent */
    return s->j1 + 0x08;
}
static uint32_t self_reference(base_image *s) {
    di_ptr(&s->b, s->j1 + 0x0C, s->j1); /* J1's next sibling is J1 */
    return s->j1 + 0x0C;
}
static uint32_t dobj_cycle(base_image *s) {
    di_ptr(&s->b, s->d0 + 4, s->d0);
    return s->d0 + 4;
}
static uint32_t dl_past_block(base_image *s) {
    di_u16(&s->b, s->p0 + 0x0E, 0xFFFF); /* 2 MiB of list in a small file */
    return s->p0 + 0x0E;
}
static uint32_t unknown_attr(base_image *s) {
    di_u32(&s->b, s->attrs, 22); /* GXAttr 22 is no vertex attribute */
    return s->attrs;
}
static uint32_t no_terminator(base_image *s) {
    uint32_t a = di_alloc(&s->b, 0x18 * HSD_MAX_ATTRS, 4);
    for (uint32_t k = 0; k < HSD_MAX_ATTRS; k++) {
        di_u32(&s->b, a + 0x18 * k, UE_GX_VA_TEX0);
        di_u32(&s->b, a + 0x18 * k + 4, UE_GX_DIRECT);
    }
    di_u32(&s->b, s->p0 + 8, a); /* the field is relocated already */
    return a + 0x18 * HSD_MAX_ATTRS;
}
static uint32_t envelope_stranger(base_image *s) {
    uint32_t stranger = put_joint(&s->b, 0), e = di_alloc(&s->b, 16, 4);
    uint32_t list = di_alloc(&s->b, 8, 4);
    di_ptr(&s->b, e, stranger); /* a JObj that no tree holds */
    di_f32(&s->b, e + 4, 1.0f);
    di_ptr(&s->b, list, e);
    di_u16(&s->b, s->p0 + 0x0C, UE_POBJ_ENVELOPE);
    di_ptr(&s->b, s->p0 + 0x14, list);
    return e;
}
static uint32_t texture_too_big(base_image *s) {
    uint32_t t = di_alloc(&s->b, 0x5C, 4), im = s->im = di_alloc(&s->b, 0x18, 4);
    uint32_t px = di_alloc(&s->b, 32, 32);
    di_ptr(&s->b, im, px);
    di_u16(&s->b, im + 4, 256);
    di_u16(&s->b, im + 6, 256);
    di_u32(&s->b, im + 8, UE_GX_RGBA8); /* needs 256 KiB, 32 bytes + the rest are there */
    di_ptr(&s->b, t + 0x4C, im);
    di_ptr(&s->b, s->mo + 8, t);
    return px;
}
static uint32_t texture_absurd(base_image *s) {
    texture_too_big(s);
    di_u16(&s->b, s->im + 4, 4096); /* past GX's 1024-texel side */
    return s->im + 4;
}

static uint32_t texture_format(base_image *s) {
    texture_too_big(s);
    di_u16(&s->b, s->im + 4, 4);
    di_u16(&s->b, s->im + 6, 4);
    di_u32(&s->b, s->im + 8, 7); /* GXTexFmt 7 does not exist */
    return s->im + 8;
}
static uint32_t colour_format(base_image *s) {
    uint32_t a = di_alloc(&s->b, 0x30, 4);
    di_u32(&s->b, a, UE_GX_VA_CLR0);
    di_u32(&s->b, a + 4, UE_GX_DIRECT);
    di_u32(&s->b, a + 12, 6); /* colour formats end at 5 (RGBA8) */
    di_u32(&s->b, a + 0x18, 0xFF);
    di_u32(&s->b, s->p0 + 8, a);
    return a;
}
static uint32_t tlut_past_block(base_image *s) {
    uint32_t t = di_alloc(&s->b, 0x5C, 4), tl = di_alloc(&s->b, 0x10, 4);
    uint32_t lut = di_alloc(&s->b, 8, 32);
    di_ptr(&s->b, tl, lut);
    di_u16(&s->b, tl + 12, 0x8000); /* 64 KiB of palette in 8 bytes */
    di_ptr(&s->b, t + 0x50, tl);
    di_ptr(&s->b, s->mo + 8, t);
    return lut;
}
static uint32_t name_unterminated(base_image *s) {
    uint32_t at = di_alloc(&s->b, 4, 4);
    memcpy(s->b.data + at, "abcd", 4); /* the data block ends without a NUL */
    di_ptr(&s->b, s->j1, at);
    return at;
}

static const bad_case BAD[] = {
    {"truncated struct", cut_struct, "hsd.struct.truncated", "dat/joint[0]/child", 1, 0},
    {"pointer outside", pointer_outside, "hsd.pointer.outside", "dat/joint[1]/next", 2, 1},
    {"misaligned", misaligned, "hsd.pointer.misaligned", "dat/joint[1]/next", 2, 1},
    {"cycle", cycle, "hsd.joint.shared", "dat/joint[1]/child", 2, 1},
    {"self-reference", self_reference, "hsd.joint.shared", "dat/joint[1]/next", 2, 1},
    {"dobj cycle", dobj_cycle, "hsd.chain.cycle", "dat/joint[0]/dobj[1]", 2, 1},
    {"dl past block", dl_past_block, "hsd.pobj.dl", "dat/joint[0]/dobj[0]/pobj[0]/dl", 2, 1},
    {"unknown attr", unknown_attr, "hsd.pobj.attr", "dat/joint[0]/dobj[0]/pobj[0]/attr[0]", 2,
     1},
    {"no terminator", no_terminator, "hsd.pobj.attr", "dat/joint[0]/dobj[0]/pobj[0]/attr[32]",
     2, 1},
    {"envelope joint", envelope_stranger, "hsd.envelope.joint",
     "dat/joint[0]/dobj[0]/pobj[0]/env[0]/weight[0]", 2, 1},
    {"texture too big", texture_too_big, "hsd.image.size",
     "dat/joint[0]/dobj[0]/mobj/tobj[0]/image", 2, 1},
    {"texture absurd", texture_absurd, "hsd.image.size",
     "dat/joint[0]/dobj[0]/mobj/tobj[0]/image", 2, 1},
    {"texture format", texture_format, "hsd.image.format",
     "dat/joint[0]/dobj[0]/mobj/tobj[0]/image", 2, 1},
    {"colour format", colour_format, "hsd.pobj.attr", "dat/joint[0]/dobj[0]/pobj[0]/attr[0]", 2,
     1},
    {"palette past block", tlut_past_block, "hsd.tlut.size",
     "dat/joint[0]/dobj[0]/mobj/tobj[0]/tlut", 2, 1},
    {"name unterminated", name_unterminated, "hsd.name", "dat/joint[1]/name", 2, 1},
};

static void run_bad(const bad_case *c) {
    static base_image s;
    base_build(&s);
    uint32_t at = c->mutate(&s);
    for (int mode = 0; mode < 2; mode++) {
        ue_dat dat;
        ue_hsd_model m;
        ue_diag d = {0};
        ue_result r;
        if (!parse(&s.b, (ue_mode)mode, &dat, &m, &d, &r)) {
            fprintf(stderr, "%s: the DAT itself does not parse\n", c->name);
            CHECK(false);
            return;
        }
        const ue_diag_item *it = diag_find(&d, c->code, c->path);
        if (!it || it->offset != UE_DAT_HEADER + (uint64_t)at) {
            fprintf(stderr, "%s (mode %d): expected %s at 0x%x %s; got:\n", c->name, mode,
                    c->code, UE_DAT_HEADER + at, c->path);
            dump_diag(&d);
            CHECK(false);
        }
        if (mode == UE_MODE_STRICT) {
            CHECK_EQ_U(r, UE_ERR_INVALID);
            CHECK(it && it->severity == UE_SEV_ERROR);
        } else {
            CHECK_EQ_U(r, UE_OK);
            CHECK(it && it->severity == UE_SEV_WARNING);
            if (m.joint_count != c->joints || m.pobj_count != c->pobjs)
                fprintf(stderr, "%s: %zu joints, %zu pobjs\n", c->name, m.joint_count,
                        m.pobj_count);
            CHECK_EQ_U(m.joint_count, c->joints);
            CHECK_EQ_U(m.pobj_count, c->pobjs);
        }
        ue_hsd_model_free(&m);
        ue_dat_free(&dat);
        ue_diag_free(&d);
    }
}

static void test_bad_input(void) {
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) run_bad(&BAD[i]);
}

/* A chain of 1026 joints, each the child of the one before: depths 0..1025. The link to depth
 * 1025 passes the cap of 1024 and is dropped. */
static void test_depth_cap(void) {
    static dat_image b;
    di_init(&b);
    uint32_t prev = put_joint(&b, 0), root = prev, last_field = 0;
    for (int i = 1; i < 1026; i++) {
        uint32_t j = put_joint(&b, 0);
        di_ptr(&b, prev + 8, j);
        last_field = prev + 8;
        prev = j;
    }
    di_root(&b, root, "deep_joint");
    for (int mode = 0; mode < 2; mode++) {
        ue_dat dat;
        ue_hsd_model m;
        ue_diag d = {0};
        ue_result r;
        REQUIRE(parse(&b, (ue_mode)mode, &dat, &m, &d, &r));
        const ue_diag_item *it = diag_find(&d, "hsd.joint.depth", "dat/joint[1024]/child");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)last_field);
        CHECK_EQ_U(r, mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK);
        if (mode == UE_MODE_TOLERANT) {
            CHECK_EQ_U(m.joint_count, 1025);
            CHECK_EQ_U(m.joints[1024].depth, 1024);
            CHECK(m.joints[1024].first_child == -1);
        }
        ue_hsd_model_free(&m);
        ue_dat_free(&dat);
        ue_diag_free(&d);
    }
}

/* An envelope list of 11 entries: the runtime loads it all and draws with the first ten, so it
 * is valid in both modes with a warning, and every entry is kept. */
static void test_envelope_count(void) {
    static base_image s;
    base_build(&s);
    uint32_t e = di_alloc(&s.b, 16, 4), list = di_alloc(&s.b, 4 * 12, 4);
    di_ptr(&s.b, e, s.j1);
    di_f32(&s.b, e + 4, 1.0f);
    for (uint32_t k = 0; k < 11; k++) di_ptr(&s.b, list + 4 * k, e);
    di_u16(&s.b, s.p0 + 0x0C, UE_POBJ_ENVELOPE);
    di_ptr(&s.b, s.p0 + 0x14, list);
    for (int mode = 0; mode < 2; mode++) {
        ue_dat dat;
        ue_hsd_model m;
        ue_diag d = {0};
        ue_result r;
        REQUIRE(parse(&s.b, (ue_mode)mode, &dat, &m, &d, &r));
        const ue_diag_item *it =
            diag_find(&d, "hsd.envelope.count", "dat/joint[0]/dobj[0]/pobj[0]/env[10]");
        CHECK(it && it->offset == UE_DAT_HEADER + (uint64_t)list + 40 && it->severity == UE_SEV_WARNING);
        CHECK_EQ_U(r, UE_OK);
        REQUIRE(m.pobj_count == 1);
        CHECK_EQ_U(m.pobjs[0].env_count, 11);
        CHECK_EQ_U(m.weight_count, 1); /* the same E eleven times: one weight run, shared */
        CHECK(m.envelopes[10].first_weight == 0 && m.envelopes[10].weight_count == 1);
        CHECK(m.weights[0].joint == 1);
        ue_hsd_model_free(&m);
        ue_dat_free(&dat);
        ue_diag_free(&d);
    }
}

/* A DAT without a model root: nothing to read, in either mode. */
static void test_no_model(void) {
    static dat_image b;
    di_init(&b);
    uint32_t j = put_joint(&b, 0);
    di_root(&b, j, "x_animjoint");
    for (int mode = 0; mode < 2; mode++) {
        ue_dat dat;
        ue_hsd_model m;
        ue_diag d = {0};
        ue_result r;
        REQUIRE(parse(&b, (ue_mode)mode, &dat, &m, &d, &r));
        CHECK_EQ_U(r, UE_ERR_INVALID);
        CHECK(diag_has(&d, "hsd.no_model", "dat"));
        ue_hsd_model_free(&m);
        ue_hsd_model_free(&m); /* safe twice */
        ue_dat_free(&dat);
        ue_diag_free(&d);
    }
}

/* The readers' path builders give snprintf's bytes, cut where it cuts (the checks' independent
 * computation is snprintf itself). */
static void test_path_builders(void) {
    static const char *bases[] = {"", "dat/anim[3]", "dat/root[12]/x_animjoint/joint[47]/child/next"};
    static const size_t indices[] = {0, 7, 10, 4294967295u, (size_t)-1};
    for (size_t cap = 1; cap <= 64; cap++)
        for (size_t b = 0; b < sizeof bases / sizeof *bases; b++) {
            char got[64], want[64];
            memset(got, 'x', sizeof got);
            hsd_path_cat(got, cap, bases[b], "/aobj");
            snprintf(want, cap, "%s/aobj", bases[b]);
            CHECK_STR(got, want);
            for (size_t i = 0; i < sizeof indices / sizeof *indices; i++) {
                memset(got, 'x', sizeof got);
                hsd_path_index(got, cap, bases[b], "/track", indices[i]);
                snprintf(want, cap, "%s/track[%zu]", bases[b], indices[i]);
                CHECK_STR(got, want);
            }
        }
    char exact[12];
    hsd_path_index(exact, sizeof exact, "a", "/joint", 47);
    CHECK_STR(exact, "a/joint[47]");
}

int main(void) {
    RUN(test_full_image);
    RUN(test_scene_data);
    RUN(test_instance);
    RUN(test_shared_subtrees_linear);
    RUN(test_bad_input);
    RUN(test_no_model);
    RUN(test_depth_cap);
    RUN(test_envelope_count);
    RUN(test_path_builders);
    return TEST_SUMMARY();
}
