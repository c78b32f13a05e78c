/* unearth tests — the HSD DAT builder and model writer: small models written, parsed back with
 * ue_dat_parse and read field by field at the offsets of docs/formats/hsd-model.md; the sample creature. */
#include <math.h>
#include <stdlib.h>

#include "test.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"
#include "hsd/dat_builder.h"
#include "samples/samples.h"

/* ---- reading helpers: every pointer followed is remembered, to compare with the relocations */

typedef struct walk {
    ue_dat dat;
    uint32_t fields[256];
    size_t n;
    bool bad;
} walk;

static bool parse(walk *w, const ue_buf *b) {
    memset(w, 0, sizeof *w);
    ue_diag d = {0};
    ue_result r = ue_dat_parse(b->data, b->size, UE_MODE_STRICT, &w->dat, &d);
    bool ok = r == UE_OK && d.count == 0;
    ue_diag_free(&d);
    return ok;
}

static uint32_t u32(walk *w, uint32_t off) {
    uint32_t v = 0;
    if (!ue_dat_read_u32(&w->dat, off, &v)) w->bad = true;
    return v;
}
static float f32(walk *w, uint32_t off) {
    float v = 0;
    if (!ue_dat_read_f32(&w->dat, off, &v)) w->bad = true;
    return v;
}
static uint8_t u8(walk *w, uint32_t off) { return (uint8_t)(u32(w, off & ~3u) >> (24 - 8 * (off & 3))); }
static uint16_t u16(walk *w, uint32_t off) {
    return (uint16_t)(u32(w, off & ~3u) >> (16 - 8 * (off & 2)));
}

/* The pointer at `field` (NOWHERE for NULL); a present one joins the walk's field list. */
#define NOWHERE UINT32_MAX
static uint32_t ptr(walk *w, uint32_t field) {
    bool present = false;
    uint32_t target = 0;
    if (ue_dat_read_pointer(&w->dat, field, &present, &target) != UE_OK) w->bad = true;
    if (!present) return NOWHERE;
    for (size_t i = 0; i < w->n; i++)
        if (w->fields[i] == field) return target; /* read twice: counted once */
    if (w->n < 256) w->fields[w->n++] = field;
    return target;
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The relocation set is exactly the pointer fields the walk followed. */
static bool relocs_are_fields(walk *w) {
    qsort(w->fields, w->n, sizeof w->fields[0], cmp_u32);
    return w->dat.reloc_count == w->n &&
           (w->n == 0 || memcmp(w->dat.relocs, w->fields, w->n * sizeof w->fields[0]) == 0);
}

/* ---- the builder ------------------------------------------------------------------------- */

static void test_builder_layout(void) {
    ue_dat_builder b;
    ue_datb_init(&b);
    uint32_t s = ue_datb_alloc(&b, 8, UE_DATB_STRUCT_ALIGN);   /* d+0x00 */
    uint32_t name = ue_datb_cstring(&b, "abc");                   /* d+0x08 */
    uint32_t t = ue_datb_alloc(&b, 4, UE_DATB_STRUCT_ALIGN);   /* d+0x0C */
    static const uint8_t gx[3] = {1, 2, 3};
    uint32_t g = ue_datb_put(&b, gx, 3, 0, UE_DATB_GX_ALIGN);  /* d+0x20 */
    ue_datb_pointer(&b, s, g);
    ue_datb_pointer(&b, s + 4, 0); /* a pointer to data offset 0: value 0, relocated */
    ue_datb_pointer(&b, t, name);
    ue_datb_root(&b, s, "a_joint");
    ue_datb_root(&b, t, "bound_box");
    CHECK_EQ_U(s, 0);
    CHECK_EQ_U(name, 8);
    CHECK_EQ_U(t, 0x0C);
    CHECK_EQ_U(g, 0x20);
    ue_buf out = {0};
    REQUIRE(ue_datb_finish(&b, &out) == UE_OK);
    ue_datb_free(&b);
    /* header 0x20 + data 0x30 (0x23 padded to 16) + 3 relocs + 2 roots + "a_joint\0bound_box\0" */
    CHECK_EQ_U(out.size, 0x20 + 0x30 + 12 + 16 + 18);
    walk w;
    REQUIRE(parse(&w, &out));
    CHECK_EQ_U(w.dat.file_size, out.size);
    CHECK_EQ_U(w.dat.data_size, 0x30);
    CHECK_EQ_U(w.dat.nb_extern, 0);
    CHECK_EQ_U(ptr(&w, 0), 0x20);
    CHECK_EQ_U(ptr(&w, 4), 0);
    CHECK_EQ_U(u32(&w, 4), 0);
    CHECK_EQ_U(ptr(&w, 0x0C), 8);
    CHECK(relocs_are_fields(&w));
    /* tools write the relocation table ascending */
    CHECK_EQ_U(out.data[0x50 + 3], 0x00);
    CHECK_EQ_U(out.data[0x54 + 3], 0x04);
    CHECK_EQ_U(out.data[0x58 + 3], 0x0C);
    REQUIRE(w.dat.root_count == 2);
    CHECK_STR(w.dat.roots[0].name, "a_joint");
    CHECK_EQ_U(w.dat.roots[1].data_offset, 0x0C);
    CHECK_STR(w.dat.roots[1].name, "bound_box");
    CHECK_MEM(out.data + out.size - 10, "bound_box", 10); /* no padding after the last NUL */
    CHECK(!w.bad);
    ue_dat_free(&w.dat);
    ue_buf_free(&out);
}

/* ---- a small model, every table used ------------------------------------------------------- */

static const uint8_t POS[24] = {0x3F, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0, 0x3F, 0x80, 0, 0, 0xBF, 0x80, 0, 0};
/* A triangle (POS index8, TEX0 direct S16 s, t) and a one-vertex strip, then GX_NOP padding. */
static const uint8_t DL[40] = {0x90, 0, 3, 0, 0, 0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0};
static const uint8_t DL2[10] = {0x98, 0, 1, 1, 0, 0x80, 0, 0x80};
static uint8_t PIXELS[32], PALETTE[6] = {0x80, 0, 0xFF, 0xFF, 0x7C, 0x00};

typedef struct small {
    ue_hsd_model m;
    ue_hsd_model_set set;
    ue_hsd_joint j[3];
    ue_hsd_dobj o[2];
    ue_hsd_mobj mo[2];
    ue_hsd_tobj t;
    ue_hsd_image im;
    ue_hsd_tlut tl;
    ue_hsd_pobj p[2];
    ue_hsd_vtx_attr a[2];
    ue_hsd_envelope e[2];
    ue_hsd_weight wt[3];
} small;

static void small_joints(small *s) {
    static const char *names[3] = {"root", "mid", "leaf"};
    for (int i = 0; i < 3; i++) {
        ue_hsd_joint *j = &s->j[i];
        j->class_name = names[i];
        j->parent = i - 1;
        j->first_child = i < 2 ? i + 1 : -1;
        j->next_sibling = -1;
        j->first_dobj = i == 2 ? 0 : -1;
        j->scale[0] = j->scale[1] = j->scale[2] = 1;
        j->translation[1] = (float)i;
    }
    s->j[0].flags = UE_JOBJ_SKELETON_ROOT;
    s->j[2].flags = UE_JOBJ_SKELETON;
    s->j[2].rotation[2] = 0.5f;
    s->j[2].has_inverse_bind = true;
    for (int k = 0; k < 12; k++) s->j[2].inverse_bind[k] = (float)(k + 1);
}

static void small_meshes(small *s) {
    s->o[0] = (ue_hsd_dobj){0, NULL, 1, 0, 0, 2};
    s->o[1] = (ue_hsd_dobj){0, "second", -1, 1, 1, 2};
    s->a[0] = (ue_hsd_vtx_attr){0, UE_GX_VA_POS, UE_GX_INDEX8, 1, 4, 0, 12, 0, true, POS, 24};
    s->a[1] = (ue_hsd_vtx_attr){0, UE_GX_VA_TEX0, UE_GX_DIRECT, 1, 3, 8, 0, 0, false, NULL, 0};
    ue_hsd_pobj *p = s->p;
    p[0].name = "skin";
    p[0].next = -1;
    p[0].flags = UE_POBJ_SKIN | UE_POBJ_CULL_BACK;
    p[0].attr_count = 2;
    p[0].dl = DL;
    p[0].dl_size = sizeof DL;
    p[0].skin_joint = 1;
    p[1] = p[0];
    p[1].name = NULL;
    p[1].flags = UE_POBJ_ENVELOPE;
    p[1].dl = DL2;
    p[1].dl_size = sizeof DL2;
    p[1].skin_joint = -1;
    p[1].env_count = 2;
    s->e[0] = (ue_hsd_envelope){0, 0, 1};
    s->e[1] = (ue_hsd_envelope){0, 1, 2};
    s->wt[0] = (ue_hsd_weight){0, 1.0f};
    s->wt[1] = (ue_hsd_weight){1, 0.25f};
    s->wt[2] = (ue_hsd_weight){2, 0.75f};
}

static void small_materials(small *s) {
    s->mo[0].name = "glass";
    s->mo[0].render_mode = 0x60000000u | 0x14u; /* XLU|NO_ZUPDATE: translucent */
    s->mo[0].first_tobj = 0;
    s->mo[1].render_mode = 0x4u;
    s->mo[1].first_tobj = -1;
    s->mo[1].has_material = true;
    s->mo[1].material = (ue_hsd_material){{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, 0.5f, 2.0f};
    s->mo[1].has_pe = true;
    s->mo[1].pe = (ue_hsd_pe){0x33, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    s->t.next = -1;
    s->t.src = 4;
    s->t.scale[0] = 2;
    s->t.scale[1] = 2;
    s->t.scale[2] = 1;
    s->t.wrap_s = 1;
    s->t.repeat_s = s->t.repeat_t = 1;
    s->t.image = 0;
    s->t.tlut = 0;
    for (int i = 0; i < 32; i++) PIXELS[i] = (uint8_t)(i % 3);
    s->im = (ue_hsd_image){0, 0, PIXELS, 32, 8, 4, 0x9, false, 0, 0, 1};
    s->tl = (ue_hsd_tlut){0, 0, PALETTE, 2, 0, 3};
}

static void small_model(small *s, const char *root) {
    memset(s, 0, sizeof *s);
    small_joints(s);
    small_meshes(s);
    small_materials(s);
    s->set = (ue_hsd_model_set){0, root, 0, 0, 0, 0};
    ue_hsd_model *m = &s->m;
    m->sets = &s->set, m->set_count = 1;
    m->joints = s->j, m->joint_count = 3;
    m->dobjs = s->o, m->dobj_count = 2;
    m->mobjs = s->mo, m->mobj_count = 2;
    m->tobjs = &s->t, m->tobj_count = 1;
    m->images = &s->im, m->image_count = 1;
    m->tluts = &s->tl, m->tlut_count = 1;
    m->pobjs = s->p, m->pobj_count = 2;
    m->attrs = s->a, m->attr_count = 2;
    m->envelopes = s->e, m->envelope_count = 2;
    m->weights = s->wt, m->weight_count = 3;
}

static bool aligned32(uint32_t off) { return off != NOWHERE && off % 32 == 0; }

/* JObj (docs/formats/hsd-model.md#joint): the tree, names, draw bits and the inverse bind matrix. */
static void check_small_joints(walk *w, uint32_t root, uint32_t *leaf_out) {
    const uint32_t ROOTS = UE_JOBJ_ROOT_OPA | UE_JOBJ_ROOT_XLU;
    CHECK_EQ_U(root, 0); /* joints come first in a plain-root DAT */
    CHECK_STR((const char *)w->dat.data + ptr(w, root), "root");
    CHECK_EQ_U(u32(w, root + 4), UE_JOBJ_SKELETON_ROOT | ROOTS);
    uint32_t mid = ptr(w, root + 8);
    CHECK_EQ_U(ptr(w, root + 0x0C), NOWHERE);
    CHECK_EQ_U(ptr(w, root + 0x10), NOWHERE);
    CHECK_STR((const char *)w->dat.data + ptr(w, mid), "mid");
    CHECK_EQ_U(u32(w, mid + 4), ROOTS);
    CHECK(f32(w, mid + 0x30) == 1.0f); /* translation.y */
    CHECK(f32(w, mid + 0x20) == 1.0f); /* scale.x */
    uint32_t leaf = ptr(w, mid + 8);
    CHECK_STR((const char *)w->dat.data + ptr(w, leaf), "leaf");
    CHECK_EQ_U(u32(w, leaf + 4), UE_JOBJ_SKELETON | UE_JOBJ_OPA | UE_JOBJ_XLU | ROOTS);
    CHECK(f32(w, leaf + 0x1C) == 0.5f); /* rotation.z */
    uint32_t ibm = ptr(w, leaf + 0x38);
    for (uint32_t k = 0; k < 12; k++) CHECK(f32(w, ibm + 4 * k) == (float)(k + 1));
    CHECK_EQ_U(ptr(w, leaf + 0x3C), NOWHERE);
    CHECK_EQ_U(ptr(w, mid + 0x38), NOWHERE);
    *leaf_out = leaf;
}

/* MObj, Material, PE, TObj, Image, TLUT (docs/formats/hsd-materials.md#mobj, docs/formats/hsd-materials.md#tobj). */
static void check_small_materials(walk *w, uint32_t mobj0, uint32_t mobj1) {
    CHECK_STR((const char *)w->dat.data + ptr(w, mobj0), "glass");
    CHECK_EQ_U(u32(w, mobj0 + 4), 0x60000014u);
    CHECK_EQ_U(ptr(w, mobj0 + 0x0C), NOWHERE);
    uint32_t tobj = ptr(w, mobj0 + 8);
    CHECK_EQ_U(ptr(w, tobj + 4), NOWHERE);
    CHECK_EQ_U(u32(w, tobj + 0x0C), 4);
    CHECK(f32(w, tobj + 0x1C) == 2.0f);
    CHECK_EQ_U(u32(w, tobj + 0x34), 1);
    CHECK_EQ_U(u8(w, tobj + 0x3C), 1);
    uint32_t img = ptr(w, tobj + 0x4C), tl = ptr(w, tobj + 0x50);
    uint32_t pixels = ptr(w, img), palette = ptr(w, tl);
    CHECK(aligned32(pixels));
    CHECK(aligned32(palette));
    CHECK_MEM(w->dat.data + pixels, PIXELS, 32);
    CHECK_EQ_U(u16(w, img + 4), 8);
    CHECK_EQ_U(u16(w, img + 6), 4);
    CHECK_EQ_U(u32(w, img + 8), 0x9);
    CHECK_MEM(w->dat.data + palette, PALETTE, 6);
    CHECK_EQ_U(u32(w, tl + 4), 2);
    CHECK_EQ_U(u16(w, tl + 0x0C), 3);
    CHECK_EQ_U(ptr(w, mobj1), NOWHERE);
    uint32_t mat = ptr(w, mobj1 + 0x0C), pe = ptr(w, mobj1 + 0x14);
    CHECK_EQ_U(u32(w, mat), 0x01020304u);
    CHECK_EQ_U(u32(w, mat + 8), 0x090A0B0Cu);
    CHECK(f32(w, mat + 0x0C) == 0.5f);
    CHECK_EQ_U(u32(w, pe), 0x33010203u);
    CHECK_EQ_U(u32(w, pe + 8), 0x08090A0Bu);
}

/* PObj, VtxDesc with its terminator, arrays, display lists, envelopes (docs/formats/hsd-model.md#pobj). */
static void check_small_pobjs(walk *w, uint32_t p0, uint32_t p1, uint32_t mid, uint32_t leaf) {
    CHECK_STR((const char *)w->dat.data + ptr(w, p0), "skin");
    CHECK_EQ_U(ptr(w, p0 + 4), NOWHERE);
    uint32_t vtx = ptr(w, p0 + 8);
    CHECK_EQ_U(ptr(w, p1 + 8), vtx); /* same attribute rows: one descriptor array */
    CHECK_EQ_U(u32(w, vtx), UE_GX_VA_POS);
    CHECK_EQ_U(u32(w, vtx + 4), UE_GX_INDEX8);
    CHECK_EQ_U(u32(w, vtx + 0x0C), 4);
    CHECK_EQ_U(u16(w, vtx + 0x12), 12);
    uint32_t arr = ptr(w, vtx + 0x14);
    CHECK(aligned32(arr));
    CHECK_MEM(w->dat.data + arr, POS, 24);
    CHECK_EQ_U(u32(w, vtx + 0x18), UE_GX_VA_TEX0);
    CHECK_EQ_U(u8(w, vtx + 0x18 + 0x10), 8);
    CHECK_EQ_U(ptr(w, vtx + 0x18 + 0x14), NOWHERE);
    uint32_t term = vtx + 0x30;
    CHECK_EQ_U(u32(w, term), 0xFF);
    CHECK_EQ_U(u32(w, term + 4), 2);
    CHECK_EQ_U(u32(w, term + 0x0C), 4);
    CHECK_EQ_U(u32(w, p0 + 0x0C), (uint32_t)(UE_POBJ_CULL_BACK << 16) | 2u); /* flags, 2 × 32 */
    uint32_t dl = ptr(w, p0 + 0x10);
    CHECK(aligned32(dl));
    CHECK_MEM(w->dat.data + dl, DL, 40);
    static const uint8_t zeros[24] = {0};
    CHECK_MEM(w->dat.data + dl + 40, zeros, 24); /* padded with GX_NOP to 64 */
    CHECK_EQ_U(ptr(w, p0 + 0x14), mid);
    CHECK_EQ_U(u32(w, p1 + 0x0C), ((uint32_t)UE_POBJ_ENVELOPE << 16) | 1u);
    uint32_t dl2 = ptr(w, p1 + 0x10);
    CHECK(aligned32(dl2));
    CHECK_MEM(w->dat.data + dl2, DL2, 10);
    uint32_t list = ptr(w, p1 + 0x14);
    uint32_t e0 = ptr(w, list), e1 = ptr(w, list + 4);
    CHECK_EQ_U(ptr(w, list + 8), NOWHERE);
    CHECK_EQ_U(ptr(w, e0), 0); /* the root joint at data offset 0: relocated value 0 */
    CHECK(ue_dat_is_relocated(&w->dat, e0));
    CHECK_EQ_U(u32(w, e0), 0);
    CHECK(f32(w, e0 + 4) == 1.0f);
    CHECK_EQ_U(ptr(w, e0 + 8), NOWHERE);
    CHECK_EQ_U(ptr(w, e1), mid);
    CHECK(f32(w, e1 + 4) == 0.25f);
    CHECK_EQ_U(ptr(w, e1 + 8), leaf);
    CHECK(f32(w, e1 + 12) == 0.75f);
    CHECK_EQ_U(u32(w, e1 + 16), 0);
    CHECK_EQ_U(u32(w, e1 + 20), 0);
}

static void test_small_model(void) {
    small s;
    small_model(&s, "t_joint");
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_hsd_model_write(&s.m, &out, &d) == UE_OK);
    walk w;
    REQUIRE(parse(&w, &out));
    CHECK_EQ_U(w.dat.file_size, out.size);
    CHECK_EQ_U(w.dat.data_size % 16, 0);
    REQUIRE(w.dat.root_count == 1);
    CHECK_STR(w.dat.roots[0].name, "t_joint");
    uint32_t leaf = 0;
    check_small_joints(&w, w.dat.roots[0].data_offset, &leaf);
    uint32_t mid = ptr(&w, 8);
    uint32_t dobj0 = ptr(&w, leaf + 0x10), dobj1 = ptr(&w, dobj0 + 4);
    CHECK_EQ_U(ptr(&w, dobj0), NOWHERE);
    CHECK_STR((const char *)w.dat.data + ptr(&w, dobj1), "second");
    CHECK_EQ_U(ptr(&w, dobj1 + 4), NOWHERE);
    check_small_materials(&w, ptr(&w, dobj0 + 8), ptr(&w, dobj1 + 8));
    check_small_pobjs(&w, ptr(&w, dobj0 + 0x0C), ptr(&w, dobj1 + 0x0C), mid, leaf);
    CHECK(relocs_are_fields(&w));
    CHECK(!w.bad);
    ue_dat_free(&w.dat);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

/* "scene_data": SceneDesc → NULL-terminated ModelSet* array → ModelSet → root joint (docs/formats/hsd-model.md#scene-data). */
static void test_scene_data(void) {
    small s;
    small_model(&s, "scene_data");
    ue_buf out = {0};
    REQUIRE(ue_hsd_model_write(&s.m, &out, NULL) == UE_OK);
    walk w;
    REQUIRE(parse(&w, &out));
    REQUIRE(w.dat.root_count == 1);
    CHECK_STR(w.dat.roots[0].name, "scene_data");
    uint32_t scene = w.dat.roots[0].data_offset;
    CHECK_EQ_U(scene, 0);
    uint32_t list = ptr(&w, scene);
    for (uint32_t k = 4; k < 16; k += 4) CHECK_EQ_U(ptr(&w, scene + k), NOWHERE);
    uint32_t set = ptr(&w, list);
    CHECK_EQ_U(ptr(&w, list + 4), NOWHERE);
    uint32_t root = ptr(&w, set);
    for (uint32_t k = 4; k < 16; k += 4) CHECK_EQ_U(ptr(&w, set + k), NOWHERE);
    CHECK_STR((const char *)w.dat.data + ptr(&w, root), "root");
    CHECK_EQ_U(u32(&w, root + 4), UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ROOT_OPA | UE_JOBJ_ROOT_XLU);
    CHECK(!w.bad);
    ue_dat_free(&w.dat);
    ue_buf_free(&out);
}

/* Two DObjs naming one MObj share one struct; TEXEDGE (XLU alone) reaches the ancestors. */
static void test_shared_rows(void) {
    small s;
    small_model(&s, "t_joint");
    s.o[1].mobj = 0;
    s.mo[0].render_mode = 0x40000000u;
    ue_buf out = {0};
    REQUIRE(ue_hsd_model_write(&s.m, &out, NULL) == UE_OK);
    walk w;
    REQUIRE(parse(&w, &out));
    uint32_t leaf = ptr(&w, ptr(&w, 8) + 8);
    uint32_t dobj0 = ptr(&w, leaf + 0x10), dobj1 = ptr(&w, dobj0 + 4);
    CHECK_EQ_U(ptr(&w, dobj0 + 8), ptr(&w, dobj1 + 8));
    CHECK_EQ_U(u32(&w, leaf + 4), UE_JOBJ_SKELETON | UE_JOBJ_TEXEDGE | UE_JOBJ_ROOT_TEXEDGE);
    CHECK_EQ_U(u32(&w, 4), UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ROOT_TEXEDGE);
    /* 2 MObjs in the tables, one referenced: both are written (every row is), once each */
    CHECK(!w.bad);
    ue_dat_free(&w.dat);
    ue_buf_free(&out);
}

static void test_refused(void) {
    small s;
    ue_buf out = {0};
    ue_diag d = {0};
    small_model(&s, "t_joint");
    s.o[0].next = 7;
    CHECK(ue_hsd_model_write(&s.m, &out, &d) == UE_ERR_USAGE);
    CHECK(diag_find(&d, "hsd.write.model", "model/dobj") != NULL);
    small_model(&s, "t_joint");
    s.mo[0].render_mode = 0x20000000u; /* NO_ZUPDATE alone: the runtime panics */
    CHECK(ue_hsd_model_write(&s.m, &out, &d) == UE_ERR_USAGE);
    small_model(&s, "t_joint");
    s.j[1].parent = 2; /* a parent after its child: not pre-order */
    CHECK(ue_hsd_model_write(&s.m, &out, &d) == UE_ERR_USAGE);
    small_model(&s, "t_joint");
    s.wt[1].joint = -1; /* NULL would end the envelope early */
    CHECK(ue_hsd_model_write(&s.m, &out, &d) == UE_ERR_USAGE);
    small_model(&s, "t_joint");
    s.p[1].env_count = 3;
    CHECK(ue_hsd_model_write(&s.m, &out, &d) == UE_ERR_USAGE);
    CHECK_EQ_U(out.size, 0);
    ue_buf_free(&out);
    ue_diag_free(&d);
}

/* ---- the sample creature ------------------------------------------------------------------- */

typedef struct m3 {
    double a[3][3];
} m3;

static m3 mul3(m3 x, m3 y) {
    m3 o;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            o.a[i][j] = 0;
            for (int k = 0; k < 3; k++) o.a[i][j] += x.a[i][k] * y.a[k][j];
        }
    return o;
}
static m3 rot_x(double t) { return (m3){{{1, 0, 0}, {0, cos(t), -sin(t)}, {0, sin(t), cos(t)}}}; }
static m3 rot_y(double t) { return (m3){{{cos(t), 0, sin(t)}, {0, 1, 0}, {-sin(t), 0, cos(t)}}}; }
static m3 diag3(double x, double y, double z) { return (m3){{{x, 0, 0}, {0, y, 0}, {0, 0, z}}}; }
static m3 transpose(m3 x) {
    m3 o;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) o.a[i][j] = x.a[j][i];
    return o;
}

/* The stored 3×4 inverse bind at `ibm` equals [L | −L·t] for a world matrix [L⁻¹ | t]. */
static bool ibm_is(walk *w, uint32_t ibm, m3 inv_linear, const double t[3]) {
    bool ok = true;
    for (int r = 0; r < 3; r++) {
        double tr = 0;
        for (int c = 0; c < 3; c++) {
            ok = ok && fabs(f32(w, ibm + (uint32_t)(16 * r + 4 * c)) - inv_linear.a[r][c]) < 1e-6;
            tr -= inv_linear.a[r][c] * t[c];
        }
        ok = ok && fabs(f32(w, ibm + (uint32_t)(16 * r + 12)) - tr) < 1e-5;
    }
    return ok;
}

/* Bind worlds by the closed form of docs/formats/hsd-model.md#joint-matrices for non-classical chains: linear = R_chain · diag(scl). */
static void check_creature_ibms(walk *w, uint32_t hips, uint32_t chest, uint32_t head,
                                uint32_t jaw) {
    const double hips_t[3] = {0, 3, 0};
    CHECK(ibm_is(w, ptr(w, hips + 0x38), diag3(1, 1, 1), hips_t));
    m3 rc = mul3(rot_y((double)0.3f), rot_x((double)0.15f)); /* Rz(0)·Ry·Rx */
    const double chest_t[3] = {0, 5, 0};
    CHECK(ibm_is(w, ptr(w, chest + 0x38), transpose(rc), chest_t));
    /* head: world = [Rc·S | (0,5,0) + Rc·(0,1.5,0)], S = diag(1.5, 1, 0.8) */
    const double sx = 1.5, sy = 1, sz = (double)0.8f;
    double head_t[3];
    for (int r = 0; r < 3; r++) head_t[r] = chest_t[r] + rc.a[r][1] * 1.5;
    CHECK(ibm_is(w, ptr(w, head + 0x38), mul3(diag3(1 / sx, 1 / sy, 1 / sz), transpose(rc)),
                 head_t));
    /* jaw: linear = Rc·Rx(0.3)·diag(scl), scl = the head's scale (compensated, not sheared);
     * translation = head_t + Rc·S·(0, 0.1, 0.45) */
    m3 rj = mul3(rc, rot_x((double)0.3f));
    double jaw_t[3];
    for (int r = 0; r < 3; r++)
        jaw_t[r] = head_t[r] + rc.a[r][1] * sy * (double)0.1f + rc.a[r][2] * sz * (double)0.45f;
    CHECK(ibm_is(w, ptr(w, jaw + 0x38), mul3(diag3(1 / sx, 1 / sy, 1 / sz), transpose(rj)),
                 jaw_t));
}

static void test_creature(void) {
    ue_buf out = {0};
    REQUIRE(ue_sample_creature_dat(&out) == UE_OK);
    walk w;
    REQUIRE(parse(&w, &out));
    CHECK_EQ_U(w.dat.file_size, out.size);
    REQUIRE(w.dat.root_count == 1);
    CHECK_STR(w.dat.roots[0].name, "scene_data");
    uint32_t root = ptr(&w, ptr(&w, ptr(&w, w.dat.roots[0].data_offset)));
    uint32_t hips = ptr(&w, root + 8), chest = ptr(&w, hips + 8), tail = ptr(&w, chest + 0x0C);
    uint32_t head = ptr(&w, chest + 8), jaw = ptr(&w, head + 8);
    uint32_t arm_l = ptr(&w, head + 0x0C), arm_r = ptr(&w, arm_l + 0x0C);
    CHECK_STR((const char *)w.dat.data + ptr(&w, arm_r), "arm_r");
    CHECK_STR((const char *)w.dat.data + ptr(&w, tail), "tail");
    const uint32_t RB = UE_JOBJ_ROOT_OPA | UE_JOBJ_ROOT_TEXEDGE;
    CHECK_EQ_U(u32(&w, root + 4), UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ENVELOPE_MODEL |
                                      UE_JOBJ_LIGHTING | UE_JOBJ_OPA | RB);
    CHECK_EQ_U(u32(&w, hips + 4), UE_JOBJ_SKELETON | RB);
    CHECK_EQ_U(u32(&w, head + 4), UE_JOBJ_SKELETON | UE_JOBJ_LIGHTING | UE_JOBJ_OPA |
                                      UE_JOBJ_TEXEDGE | RB);
    CHECK_EQ_U(u32(&w, tail + 4), UE_JOBJ_SKELETON);
    CHECK(f32(&w, head + 0x20) == 1.5f && f32(&w, head + 0x28) == 0.8f);
    check_creature_ibms(&w, hips, chest, head, jaw);
    /* the eyes: second DObj of the head, RGB5A3 16×16 atlas seen through a 2× TObj scale */
    uint32_t eyes = ptr(&w, ptr(&w, head + 0x10) + 4);
    uint32_t tobj = ptr(&w, ptr(&w, eyes + 8) + 8), img = ptr(&w, tobj + 0x4C);
    CHECK(f32(&w, tobj + 0x1C) == 2.0f && f32(&w, tobj + 0x20) == 2.0f);
    CHECK_EQ_U(u32(&w, img + 8), 0x5);
    CHECK_EQ_U(u16(&w, img + 4), 16);
    CHECK(aligned32(ptr(&w, img)));
    /* the body: CMPR; the torso PObj is ENVELOPE with 3 envelopes, the second one mixed */
    uint32_t body = ptr(&w, root + 0x10);
    CHECK_EQ_U(u32(&w, ptr(&w, ptr(&w, ptr(&w, body + 8) + 8) + 0x4C) + 8), 0xE);
    uint32_t torso = ptr(&w, body + 0x0C);
    CHECK_EQ_U(u16(&w, torso + 0x0C), UE_POBJ_ENVELOPE | UE_POBJ_CULL_BACK);
    uint32_t envs = ptr(&w, torso + 0x14), mixed = ptr(&w, envs + 4);
    CHECK_EQ_U(ptr(&w, mixed), hips);
    CHECK_EQ_U(ptr(&w, mixed + 8), chest);
    CHECK(f32(&w, mixed + 4) == 0.5f && f32(&w, mixed + 12) == 0.5f);
    CHECK_EQ_U(ptr(&w, envs + 12), NOWHERE);
    CHECK(!w.bad);
    ue_dat_free(&w.dat);
    ue_buf_free(&out);
}


/* ---- round trip through the reader ----------------------------------------------------------- */

/* Writes `m`, reads the DAT back strictly (no diagnostic at all) into *back, and writes that
 * again: the second DAT must equal the first byte for byte (write ∘ read is the identity on
 * what the writer makes). */
static bool reread(const ue_hsd_model *m, ue_dat *dat, ue_hsd_model *back, ue_buf *first) {
    ue_buf second = {0};
    ue_diag d = {0};
    bool ok = ue_hsd_model_write(m, first, NULL) == UE_OK &&
              ue_dat_parse(first->data, first->size, UE_MODE_STRICT, dat, &d) == UE_OK &&
              ue_hsd_model_read(dat, UE_MODE_STRICT, back, &d) == UE_OK && d.count == 0 &&
              ue_hsd_model_write(back, &second, NULL) == UE_OK && second.size == first->size &&
              memcmp(second.data, first->data, first->size) == 0;
    for (size_t i = 0; i < d.count; i++) {
        char line[600];
        ue_diag_format(&d.items[i], line, sizeof line);
        fprintf(stderr, "  %s\n", line);
    }
    ue_buf_free(&second);
    ue_diag_free(&d);
    return ok;
}

static bool same3(const float a[3], const float b[3]) { return memcmp(a, b, 3 * sizeof(float)) == 0; }

/* Joint and mesh rows come back as written (the reader's rows are in the writer's order here:
 * pre-order joints, DObjs and PObjs in list order). */
static void compare_small(const small *s, const ue_hsd_model *b) {
    REQUIRE(b->joint_count == 3 && b->dobj_count == 2 && b->mobj_count == 2);
    REQUIRE(b->pobj_count == 2 && b->tobj_count == 1 && b->envelope_count == 2);
    const uint32_t drawn = UE_JOBJ_OPA | UE_JOBJ_XLU | UE_JOBJ_ROOT_OPA | UE_JOBJ_ROOT_XLU;
    for (int i = 0; i < 3; i++) {
        const ue_hsd_joint *x = &s->j[i], *y = &b->joints[i];
        CHECK_STR(y->class_name, x->class_name);
        CHECK_EQ_U(y->flags & ~drawn, x->flags);
        CHECK_EQ_U(y->parent, x->parent);
        CHECK_EQ_U(y->first_child, x->first_child);
        CHECK(same3(y->rotation, x->rotation) && same3(y->scale, x->scale) &&
              same3(y->translation, x->translation));
        CHECK(y->has_inverse_bind == x->has_inverse_bind);
    }
    CHECK_MEM(b->joints[2].inverse_bind, s->j[2].inverse_bind, sizeof s->j[2].inverse_bind);
    CHECK_EQ_U(b->dobjs[0].mobj, 0);
    CHECK_EQ_U(b->dobjs[1].joint, 2);
    CHECK_EQ_U(b->mobjs[0].render_mode, s->mo[0].render_mode);
    CHECK_MEM(&b->mobjs[1].pe, &s->mo[1].pe, sizeof s->mo[1].pe);
    CHECK(b->mobjs[1].material.shininess == 2.0f);
    CHECK_EQ_U(b->images[0].format, 0x9);
    CHECK_MEM(b->images[0].data, PIXELS, 32);
    CHECK_EQ_U(b->tluts[0].n_entries, 3);
    CHECK_MEM(b->tluts[0].data, PALETTE, 6);
    CHECK_EQ_U(b->pobjs[0].skin_joint, 1);
    CHECK_EQ_U(b->pobjs[0].n_display, 2);
    CHECK_MEM(b->pobjs[0].dl, DL, sizeof DL);
    CHECK_EQ_U(b->pobjs[1].flags, UE_POBJ_ENVELOPE);
    CHECK_EQ_U(b->pobjs[1].env_count, 2);
    CHECK_EQ_U(b->pobjs[0].attr_count, 2);
    const ue_hsd_vtx_attr *a = &b->attrs[b->pobjs[0].attr_first];
    CHECK_EQ_U(a[0].attr, UE_GX_VA_POS);
    CHECK(a[0].has_array && a[0].array_size >= 24);
    CHECK_MEM(a[0].array, POS, 24);
    CHECK_EQ_U(a[1].frac, 8);
    const ue_hsd_envelope *e = &b->envelopes[b->pobjs[1].env_first + 1];
    REQUIRE(e->weight_count == 2);
    CHECK_EQ_U(b->weights[e->first_weight].joint, 1);
    CHECK(b->weights[e->first_weight + 1].weight == 0.75f);
}

static void test_roundtrip_small(void) {
    const char *roots[2] = {"t_joint", "scene_data"};
    for (int k = 0; k < 2; k++) {
        small s;
        small_model(&s, roots[k]);
        ue_dat dat;
        ue_hsd_model back;
        memset(&dat, 0, sizeof dat);
        memset(&back, 0, sizeof back);
        ue_buf first = {0};
        CHECK(reread(&s.m, &dat, &back, &first));
        REQUIRE(back.set_count == 1);
        CHECK_STR(back.sets[0].root_name, roots[k]);
        compare_small(&s, &back);
        ue_hsd_model_free(&back);
        ue_dat_free(&dat);
        ue_buf_free(&first);
    }
}

/* The creature: DAT → model → DAT gives the same bytes; the tables hold what docs/hsd.md lists. */
static void test_roundtrip_creature(void) {
    ue_buf dat_bytes = {0}, again = {0};
    REQUIRE(ue_sample_creature_dat(&dat_bytes) == UE_OK);
    ue_dat dat;
    ue_hsd_model m;
    memset(&dat, 0, sizeof dat);
    memset(&m, 0, sizeof m);
    ue_diag d = {0};
    REQUIRE(ue_dat_parse(dat_bytes.data, dat_bytes.size, UE_MODE_STRICT, &dat, &d) == UE_OK);
    CHECK(ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, &d) == UE_OK);
    CHECK_EQ_U(d.count, 0);
    CHECK_EQ_U(m.joint_count, 8);
    CHECK_EQ_U(m.dobj_count, 5);
    CHECK_EQ_U(m.mobj_count, 4);
    CHECK_EQ_U(m.pobj_count, 6);
    CHECK_EQ_U(m.image_count, 6); /* 4 TObj images and the mouth table's other 2 */
    CHECK_EQ_U(m.envelope_count, 8);
    CHECK_EQ_U(m.weight_count, 10);
    CHECK(ue_hsd_model_write(&m, &again, NULL) == UE_OK);
    CHECK(again.size == dat_bytes.size && memcmp(again.data, dat_bytes.data, again.size) == 0);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    ue_buf_free(&dat_bytes);
    ue_buf_free(&again);
    ue_diag_free(&d);
}

int main(void) {
    RUN(test_builder_layout);
    RUN(test_small_model);
    RUN(test_scene_data);
    RUN(test_shared_rows);
    RUN(test_refused);
    RUN(test_creature);
    RUN(test_roundtrip_small);
    RUN(test_roundtrip_creature);
    return TEST_SUMMARY();
}
