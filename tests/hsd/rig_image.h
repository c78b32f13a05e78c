/* unearth tests — a structure-rich skinned model laid out with dat_image.h (docs/formats/hsd-model.md, docs/formats/hsd-animation.md):
 * a joint chain, ENVELOPE PObjs with long envelope lists, MatAnim lists longer than the DObj lists.
 * The tests check validation and skinning on it; fuzz/make_corpus.c seeds fuzz_dat with it. */
#ifndef UE_TEST_RIG_IMAGE_H
#define UE_TEST_RIG_IMAGE_H

#include "dat_image.h"

#define RIG_MAX_POBJS 16u
#define RIG_MAX_ENVS 16u
#define RIG_VERTS 10u /* one strip; vertex v selects matrix slot v (PNMTXIDX 3v) */

/* What to build. Joint i is the only child of joint i−1 (table row i). Joint i < pobjs holds one
 * DObj (MObj + Material) with one ENVELOPE PObj whose list has `envelopes` entries; envelope k of
 * PObj p weighs joint (p + k) % joints by 0.75 and joint (p + k + 1) % joints by 0.25. The
 * MatAnimJoint tree mirrors the joints; each node carries `matanims` MatAnims (a DIFFUSE_R
 * track), so joints with one DObj get matanims − 1 surplus ones. `stray_word`: a relocated word
 * nothing points at, holding a value past the data block. */
typedef struct rig_shape {
    uint32_t joints, pobjs, envelopes, matanims;
    int stray_word;
} rig_shape;

typedef struct rig_layout {
    uint32_t scene, joint[64], pobj[RIG_MAX_POBJS], envlist[RIG_MAX_POBJS], stray;
} rig_layout;

static inline uint32_t rig_weight_joint(const rig_shape *s, uint32_t p, uint32_t k, uint32_t w) {
    return (p + k + w) % s->joints;
}

static inline void rig_joints(dat_image *b, const rig_shape *s, rig_layout *o) {
    for (uint32_t i = 0; i < s->joints; i++) {
        uint32_t j = o->joint[i] = di_alloc(b, 0x40, 4);
        for (uint32_t c = 0; c < 3; c++) di_f32(b, j + 0x20 + 4 * c, 1.0f); /* scale */
        di_f32(b, j + 0x30, 1.0f);                                          /* translation y */
        di_f32(b, j + 0x18, 0.1f * (float)(i % 5));                        /* rotation y */
        if (i > 0) di_ptr(b, o->joint[i - 1] + 8, j);
    }
}

/* PNMTXIDX direct, POS index8 F32 XYZ (stride 12), then the 0xFF terminator. */
static inline uint32_t rig_attrs(dat_image *b, uint32_t positions) {
    uint32_t a = di_alloc(b, 3 * 0x18, 4);
    di_u32(b, a + 4, 1); /* attr 0 PNMTXIDX, DIRECT */
    di_u32(b, a + 0x18, 9);
    di_u32(b, a + 0x18 + 4, 2); /* INDEX8 */
    di_u32(b, a + 0x18 + 8, 1); /* XYZ */
    di_u32(b, a + 0x18 + 12, 4); /* F32 */
    di_u16(b, a + 0x18 + 18, 12);
    di_ptr(b, a + 0x18 + 20, positions);
    di_u32(b, a + 0x30, 0xFF);
    return a;
}

static inline uint32_t rig_display_list(dat_image *b) {
    uint32_t dl = di_alloc(b, 32, 32);
    di_u8(b, dl, 0x98); /* TRIANGLE_STRIP */
    di_u16(b, dl + 1, RIG_VERTS);
    for (uint32_t v = 0; v < RIG_VERTS; v++) {
        di_u8(b, dl + 3 + 2 * v, (uint8_t)(3 * v));
        di_u8(b, dl + 4 + 2 * v, (uint8_t)v);
    }
    return dl;
}

static inline uint32_t rig_envelope_list(dat_image *b, const rig_shape *s, const rig_layout *o,
                                         uint32_t p) {
    uint32_t list = di_alloc(b, 4 * (s->envelopes + 1), 4);
    for (uint32_t k = 0; k < s->envelopes; k++) {
        uint32_t e = di_alloc(b, 24, 4);
        di_ptr(b, e, o->joint[rig_weight_joint(s, p, k, 0)]);
        di_f32(b, e + 4, 0.75f);
        di_ptr(b, e + 8, o->joint[rig_weight_joint(s, p, k, 1)]);
        di_f32(b, e + 12, 0.25f);
        di_ptr(b, list + 4 * k, e);
    }
    return list;
}

static inline void rig_meshes(dat_image *b, const rig_shape *s, rig_layout *o) {
    uint32_t positions = di_alloc(b, 12 * RIG_VERTS, 32);
    for (uint32_t v = 0; v < RIG_VERTS; v++) {
        di_f32(b, positions + 12 * v, (float)(v / 2));
        di_f32(b, positions + 12 * v + 4, (float)(v % 2));
    }
    uint32_t attrs = rig_attrs(b, positions), dl = rig_display_list(b);
    for (uint32_t p = 0; p < s->pobjs; p++) {
        uint32_t dobj = di_alloc(b, 0x10, 4), mobj = di_alloc(b, 0x18, 4), mat = di_alloc(b, 0x14, 4);
        uint32_t pobj = o->pobj[p] = di_alloc(b, 0x18, 4);
        di_u32(b, mobj + 4, 0x4); /* diffuse from the material */
        di_ptr(b, mobj + 0x0C, mat);
        di_u32(b, mat + 4, 0x80C0FFFFu - 0x1000u * p);
        di_f32(b, mat + 0x0C, 1.0f);
        di_ptr(b, dobj + 8, mobj);
        di_ptr(b, dobj + 0x0C, pobj);
        di_ptr(b, o->joint[p] + 0x10, dobj);
        di_ptr(b, pobj + 8, attrs);
        di_u16(b, pobj + 0x0C, 0x2000); /* ENVELOPE */
        di_u16(b, pobj + 0x0E, 1);
        di_ptr(b, pobj + 0x10, dl);
        o->envlist[p] = rig_envelope_list(b, s, o, p);
        di_ptr(b, pobj + 0x14, o->envlist[p]);
    }
}

/* MatAnimJoint (0x0C: child, next, MatAnim list); MatAnim (0x10: next, AObj, TexAnim, render). */
static inline uint32_t rig_matanims(dat_image *b, const rig_shape *s) {
    static const uint8_t keys[] = {0x02, 0x00, 0x00, 0x80, 0x3F, 0x00}; /* KEY 1.0f (LE) */
    uint32_t data = di_alloc(b, sizeof keys, 4), fobj = di_alloc(b, 0x14, 4);
    uint32_t aobj = di_alloc(b, 0x10, 4), root = 0, prev = 0;
    memcpy(b->data + data, keys, sizeof keys);
    di_u32(b, fobj + 4, sizeof keys);
    di_u8(b, fobj + 0x0C, 4); /* DIFFUSE_R */
    di_ptr(b, fobj + 0x10, data);
    di_f32(b, aobj + 4, 20.0f);
    di_ptr(b, aobj + 8, fobj);
    for (uint32_t i = 0; i < s->joints; i++) {
        uint32_t node = di_alloc(b, 0x0C, 4), last = 0;
        for (uint32_t k = 0; k < s->matanims; k++) {
            uint32_t ma = di_alloc(b, 0x10, 4);
            di_ptr(b, ma + 4, aobj);
            di_ptr(b, k ? last : node + 8, ma);
            last = ma;
        }
        if (i == 0) root = node;
        else di_ptr(b, prev, node);
        prev = node;
    }
    return root;
}

/* scene_data → SceneDesc → [ModelSet {joint, anims NULL, matanims [root]}]. */
static inline void rig_build(dat_image *b, const rig_shape *s, rig_layout *o) {
    if (s->joints < 2 || s->joints > 64 || s->pobjs > RIG_MAX_POBJS || s->pobjs > s->joints) abort();
    memset(o, 0, sizeof *o);
    di_init(b);
    uint32_t scene = o->scene = di_alloc(b, 0x10, 4), sets = di_alloc(b, 8, 4);
    uint32_t ms = di_alloc(b, 0x10, 4), matanims = di_alloc(b, 8, 4);
    rig_joints(b, s, o);
    rig_meshes(b, s, o);
    di_ptr(b, matanims, rig_matanims(b, s));
    di_ptr(b, scene, sets);
    di_ptr(b, sets, ms);
    di_ptr(b, ms, o->joint[0]);
    di_ptr(b, ms + 8, matanims);
    if (s->stray_word) {
        o->stray = di_alloc(b, 4, 4);
        di_ptr(b, o->stray, 0);
        di_u32(b, o->stray, 0xFFFFCC7Fu); /* relocated, past any data block, reached by nothing */
    }
    di_root(b, scene, "scene_data");
}

#endif
