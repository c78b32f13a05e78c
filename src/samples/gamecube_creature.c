/* unearth — the GameCube sample creature: an HSD model built as tables and written with
 * ue_hsd_model_write (8 joints, envelope and rigid meshes, CMPR/C4/RGB5A3 textures, animations). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/hsd_model.h"
#include "gamecube/gx_encode.h"
#include "samples/samples.h"
#include "samples/gamecube_creature.h"
#include "common/bytes.h"

/* Every value below is listed in docs/hsd.md ("The sample creature") so that a test can
 * compute the bind pose by hand. */

typedef struct joint_def {
    const char *name;
    int parent, child, sibling;
    uint32_t flags;
    float r[3], s[3], t[3];
} joint_def;

#define SK UE_JOBJ_SKELETON
static const joint_def JOINT_DEFS[JOINTS] = {
    {"root", -1, J_HIPS, -1, UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ENVELOPE_MODEL | UE_JOBJ_LIGHTING,
     {0, 0, 0}, {1, 1, 1}, {0, 0, 0}},
    {"hips", J_ROOT, J_CHEST, -1, SK, {0, 0, 0}, {1, 1, 1}, {0, 3, 0}},
    {"chest", J_HIPS, J_HEAD, J_TAIL, SK, {0.15f, 0.3f, 0}, {1, 1, 1}, {0, 2, 0}},
    {"head", J_CHEST, J_JAW, J_ARM_L, SK | UE_JOBJ_LIGHTING, {0, 0, 0}, {1.5f, 1, 0.8f},
     {0, 1.5f, 0}},
    {"jaw", J_HEAD, -1, -1, SK, {0.3f, 0, 0}, {1, 1, 1}, {0, 0.1f, 0.45f}},
    {"arm_l", J_CHEST, -1, J_ARM_R, SK, {0, 0, -0.5f}, {1, 1, 1}, {1.1f, 0.6f, 0}},
    {"arm_r", J_CHEST, -1, -1, SK, {0, 0, 0.5f}, {1, 1, 1}, {-1.1f, 0.6f, 0}},
    {"tail", J_HIPS, -1, -1, SK, {-0.8f, 0, 0}, {1, 1, 1}, {0, -0.5f, -1}},
};

/* ---- bind pose (docs/formats/hsd-model.md#joint-matrices) ------------------------------------ */

/* The runtime rule, column vectors, R = Rz·Ry·Rx (X applied first). With P = diag(scl(parent)),
 * Local = [P⁻¹·R·diag(scale)·P | translation], World = World(parent)·Local, and the accumulated
 * scale scl = scale ⊙ scl(parent) (CLASSICAL_SCALE: scl(parent)); a root has Local = T·R·S.
 * An inverse bind matrix is the exact inverse of its joint's bind world matrix. */
typedef struct affine {
    double m[3][4];
} affine;

static void rotation(const float r[3], double R[3][3]) {
    double cx = cos(r[0]), sx = sin(r[0]), cy = cos(r[1]), sy = sin(r[1]);
    double cz = cos(r[2]), sz = sin(r[2]);
    double v[3][3] = {{cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx},
                      {sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - sx * cz},
                      {-sy, cy * sx, cy * cx}};
    memcpy(R, v, sizeof v);
}

static affine mul(const affine *a, const affine *b) {
    affine o;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
            double s = j == 3 ? a->m[i][3] : 0;
            for (int k = 0; k < 3; k++) s += a->m[i][k] * b->m[k][j];
            o.m[i][j] = s;
        }
    return o;
}

static void bind_worlds(affine world[JOINTS]) {
    double scl[JOINTS][3];
    for (int i = 0; i < JOINTS; i++) {
        const joint_def *j = &JOINT_DEFS[i];
        double R[3][3], p[3] = {1, 1, 1};
        rotation(j->r, R);
        if (j->parent >= 0) memcpy(p, scl[j->parent], sizeof p);
        affine local;
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++) local.m[r][c] = R[r][c] * j->s[c] * p[c] / p[r];
            local.m[r][3] = j->t[r];
            scl[i][r] = (j->flags & UE_JOBJ_CLASSICAL_SCALE) ? p[r] : j->s[r] * p[r];
        }
        world[i] = j->parent >= 0 ? mul(&world[j->parent], &local) : local;
    }
}

static void invert(const affine *a, float out[12]) {
    const double(*m)[4] = a->m;
    double c[3][3] = {{m[1][1] * m[2][2] - m[1][2] * m[2][1], m[0][2] * m[2][1] - m[0][1] * m[2][2],
                       m[0][1] * m[1][2] - m[0][2] * m[1][1]},
                      {m[1][2] * m[2][0] - m[1][0] * m[2][2], m[0][0] * m[2][2] - m[0][2] * m[2][0],
                       m[0][2] * m[1][0] - m[0][0] * m[1][2]},
                      {m[1][0] * m[2][1] - m[1][1] * m[2][0], m[0][1] * m[2][0] - m[0][0] * m[2][1],
                       m[0][0] * m[1][1] - m[0][1] * m[1][0]}};
    double det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
    for (int r = 0; r < 3; r++) {
        double t = 0;
        for (int k = 0; k < 3; k++) {
            out[r * 4 + k] = (float)(c[r][k] / det);
            t -= c[r][k] / det * m[k][3];
        }
        out[r * 4 + 3] = (float)t;
    }
}

static void fill_joints(ue_hsd_joint *joints) {
    affine world[JOINTS];
    bind_worlds(world);
    for (int i = 0; i < JOINTS; i++) {
        const joint_def *d = &JOINT_DEFS[i];
        ue_hsd_joint *j = &joints[i];
        j->flags = d->flags;
        j->class_name = d->name;
        j->parent = d->parent;
        j->first_child = d->child;
        j->next_sibling = d->sibling;
        j->first_dobj = UE_HSD_NONE;
        memcpy(j->rotation, d->r, sizeof d->r);
        memcpy(j->scale, d->s, sizeof d->s);
        memcpy(j->translation, d->t, sizeof d->t);
        j->has_inverse_bind = (d->flags & UE_JOBJ_SKELETON) != 0;
        if (j->has_inverse_bind) invert(&world[i], j->inverse_bind);
    }
}

/* ---- the envelope meshes (owner: root) -------------------------------------------------------- */

/* Positions, F32 (index16). Single-weight vertices are in their joint's space (a SKELETON_ROOT
 * owner draws them with W(joint) alone, docs/formats/hsd-model.md#skinning); multi-weight ones in model space. */
static const float BODY_POS[30][3] = {
    {-1, -1, 1},     {1, -1, 1},      {1, -1, -1},     {-1, -1, -1},    /* 0–3 hips */
    {-1.1f, 4, 1.1f}, {1.1f, 4, 1.1f}, {1.1f, 4, -1.1f}, {-1.1f, 4, -1.1f}, /* 4–7 model */
    {-0.9f, 1, 0.9f}, {0.9f, 1, 0.9f}, {0.9f, 1, -0.9f}, {-0.9f, 1, -0.9f}, /* 8–11 chest */
    {0, -1.3f, 0},   {0, 1.2f, 0},                                        /* 12 hips, 13 chest */
    {-0.4f, 2.4f, -1}, {0.4f, 2.4f, -1}, {0, 2.9f, -1}, {0, 0, -2.5f},     /* 14–16 model, 17 tail */
    {0, -0.3f, 0},   {1.5f, -0.3f, 0}, {1.5f, 0.3f, 0}, {0, 0.3f, 0},      /* 18–21 arm_l */
    {0, -0.3f, 0},   {0, 0.3f, 0},    {-1.5f, 0.3f, 0}, {-1.5f, -0.3f, 0}, /* 22–25 arm_r */
    {-0.4f, 0, 0},   {0.4f, 0, 0},    {0.4f, 0, 0.5f}, {-0.4f, 0, 0.5f},  /* 26–29 jaw */
};
/* Normals, S8 with frac 6 (64 = 1.0), index8. */
static const int8_t BODY_NRM[8][3] = {{-45, 0, 45}, {45, 0, 45}, {45, 0, -45}, {-45, 0, -45},
                                      {0, -64, 0},  {0, 64, 0},  {0, 0, 64},   {0, 0, -64}};
/* Colours (CLR0 direct RGBA8). */
static const uint8_t BODY_CLR[4][4] = {
    {255, 230, 200, 255}, {255, 255, 255, 255}, {230, 240, 255, 255}, {255, 200, 160, 255}};

/* One vertex record of the body attribute set: PNMTXIDX, POS, NRM, CLR0 (palette index above),
 * TEX0 (u = 0.25·(uv % 5), v = 0.5·(uv / 5); 15 = the centre). */
typedef struct body_vtx {
    uint8_t mtx;
    uint16_t pos;
    uint8_t nrm, clr, uv;
} body_vtx;

static void put_body_vtx(ue_buf *dl, const body_vtx *v) {
    ue_buf_put_u8(dl, v->mtx);
    ue_buf_put_u16be(dl, v->pos);
    ue_buf_put_u8(dl, v->nrm);
    ue_buf_put(dl, BODY_CLR[v->clr], 4);
    ue_buf_put_u8(dl, v->uv);
}

static void put_prim(ue_buf *dl, uint8_t op, const body_vtx *v, size_t n) {
    ue_buf_put_u8(dl, op);
    ue_buf_put_u16be(dl, (uint16_t)n);
    for (size_t i = 0; i < n; i++) put_body_vtx(dl, &v[i]);
}

#define GX_QUADS 0x80
#define GX_TRIANGLES 0x90
#define GX_STRIP 0x98
#define GX_FAN 0xA0

/* Torso: envelopes 0 hips (PNMTXIDX 0), 1 hips+chest (3), 2 chest (6). Two strips (sides, GX
 * clockwise seen from outside) and two fans (caps). */
static void torso_dl(ue_buf *dl) {
    body_vtx band[2][10], fan_lo[6], fan_hi[6];
    for (int b = 0; b < 2; b++)
        for (int k = 0; k < 5; k++) {
            int c = k % 4;
            uint8_t lo_m = b == 0 ? 0 : 3, hi_m = b == 0 ? 3 : 6;
            band[b][2 * k] = (body_vtx){lo_m, (uint16_t)(4 * b + c), (uint8_t)c, (uint8_t)b,
                                        (uint8_t)(10 - 5 * b + k)};
            band[b][2 * k + 1] = (body_vtx){hi_m, (uint16_t)(4 * b + 4 + c), (uint8_t)c,
                                            (uint8_t)(b + 1), (uint8_t)(5 - 5 * b + k)};
        }
    static const uint16_t lo_ring[5] = {0, 1, 2, 3, 0}, hi_ring[5] = {8, 11, 10, 9, 8};
    fan_lo[0] = (body_vtx){0, 12, 4, 0, 15};
    fan_hi[0] = (body_vtx){6, 13, 5, 2, 15};
    for (int k = 0; k < 5; k++) {
        fan_lo[k + 1] = (body_vtx){0, lo_ring[k], 4, 0, (uint8_t)(10 + k)};
        fan_hi[k + 1] = (body_vtx){6, hi_ring[k], 5, 2, (uint8_t)k};
    }
    put_prim(dl, GX_STRIP, band[0], 10);
    put_prim(dl, GX_STRIP, band[1], 10);
    put_prim(dl, GX_FAN, fan_lo, 6);
    put_prim(dl, GX_FAN, fan_hi, 6);
}

/* Tail: envelopes 0 tail (PNMTXIDX 0), 1 hips 0.6 + tail 0.4 (3); a tetrahedron as a list. */
static void tail_dl(ue_buf *dl) {
    const body_vtx a = {3, 14, 6, 3, 5}, b = {3, 15, 6, 3, 6}, c = {3, 16, 6, 3, 1},
                   tip = {0, 17, 7, 3, 12};
    body_vtx tri[12] = {a, c, b, c, a, tip, b, c, tip, a, b, tip};
    tri[11].nrm = 4;
    put_prim(dl, GX_TRIANGLES, tri, 12);
}

/* Limbs: envelopes 0 arm_l (0), 1 arm_r (3), 2 jaw (6); one quad each. */
static void limbs_dl(ue_buf *dl) {
    const body_vtx q[12] = {
        {0, 18, 6, 1, 10}, {0, 21, 6, 1, 0},  {0, 20, 6, 1, 4},  {0, 19, 6, 1, 14},
        {3, 25, 6, 1, 10}, {3, 24, 6, 1, 0},  {3, 23, 6, 1, 4},  {3, 22, 6, 1, 14},
        {6, 26, 4, 3, 10}, {6, 29, 4, 3, 0},  {6, 28, 4, 3, 4},  {6, 27, 4, 3, 14},
    };
    put_prim(dl, GX_QUADS, q, 12);
}

/* ---- the head (rigid, head space) ----------------------------------------------------------- */

/* Positions S16 with frac 4 (16 = 1.0), index8: a box x ±0.625, y 0..1.25, z ±0.625. */
static const int16_t HEAD_POS[8][3] = {{-10, 0, 10},  {10, 0, 10},  {10, 0, -10},  {-10, 0, -10},
                                       {-10, 20, 10}, {10, 20, 10}, {10, 20, -10}, {-10, 20, -10}};
static const float HEAD_NRM[6][3] = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0},
                                     {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}};
/* Each face's corners clockwise seen from outside: bottom-left, top-left, top-right, bottom-right. */
static const uint8_t HEAD_FACES[6][4] = {{0, 4, 5, 1}, {2, 6, 7, 3}, {1, 5, 6, 2},
                                         {3, 7, 4, 0}, {4, 7, 6, 5}, {3, 0, 1, 2}};

/* 12 triangles: POS index8, NRM index8, TEX0 direct U8 with frac 7 (128 = 1.0). */
static void head_dl(ue_buf *dl) {
    static const uint8_t corner_uv[4][2] = {{0, 128}, {0, 0}, {128, 0}, {128, 128}};
    static const int tri_corners[6] = {0, 1, 2, 0, 2, 3};
    ue_buf_put_u8(dl, GX_TRIANGLES);
    ue_buf_put_u16be(dl, 36);
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 6; k++) {
            int c = tri_corners[k];
            ue_buf_put_u8(dl, HEAD_FACES[f][c]);
            ue_buf_put_u8(dl, (uint8_t)f);
            ue_buf_put(dl, corner_uv[c], 2);
        }
}

/* Eyes: POS direct F32 and TEX0 direct F32, two fans on the front of the head (z = 0.6875). */
static void put_f32(ue_buf *b, float v) {
    uint32_t w;
    memcpy(&w, &v, sizeof w);
    ue_buf_put_u32be(b, w);
}

static void eyes_dl(ue_buf *dl) {
    static const float corner[4][2] = {{0, 0.625f}, {0, 1}, {0.375f, 1}, {0.375f, 0.625f}};
    static const float uv[4][2] = {{0, 1}, {0, 0}, {1, 0}, {1, 1}};
    for (int e = 0; e < 2; e++) {
        ue_buf_put_u8(dl, GX_FAN);
        ue_buf_put_u16be(dl, 4);
        for (int k = 0; k < 4; k++) {
            put_f32(dl, (e ? 0.125f : -0.5f) + corner[k][0]);
            put_f32(dl, corner[k][1]);
            put_f32(dl, 0.6875f);
            put_f32(dl, uv[k][0]);
            put_f32(dl, uv[k][1]);
        }
    }
}

/* The mouth: one fan of 4 below the eyes (x ±0.25, y 0.25…0.5, z = 0.6875), same attributes. */
static void mouth_dl(ue_buf *dl) {
    static const float corner[4][2] = {{-0.25f, 0.25f}, {-0.25f, 0.5f}, {0.25f, 0.5f}, {0.25f, 0.25f}};
    static const float uv[4][2] = {{0, 1}, {0, 0}, {1, 0}, {1, 1}};
    ue_buf_put_u8(dl, GX_FAN);
    ue_buf_put_u16be(dl, 4);
    for (int k = 0; k < 4; k++) {
        put_f32(dl, corner[k][0]);
        put_f32(dl, corner[k][1]);
        put_f32(dl, 0.6875f);
        put_f32(dl, uv[k][0]);
        put_f32(dl, uv[k][1]);
    }
}

/* ---- textures ---------------------------------------------------------------------------------- */

/* Skin, CMPR 16×16: diagonal bands of two colours exactly representable in RGB565. */
static ue_result skin_texture(ue_buf *out) {
    uint8_t rgba[16 * 16 * 4];
    static const uint8_t a[4] = {255, 170, 66, 255}, b[4] = {255, 235, 206, 255};
    uint8_t ca[4], cb[4];
    uint16_t pa = ue_gx_pack_rgb565(a), pb = ue_gx_pack_rgb565(b);
    /* Snap both to what RGB565 expands back to, so the texture is lossless. */
    const uint16_t packed[2] = {pa, pb};
    uint8_t *dst[2] = {ca, cb};
    for (int k = 0; k < 2; k++) {
        unsigned r = packed[k] >> 11, g = (packed[k] >> 5) & 63u, bl = packed[k] & 31u;
        dst[k][0] = (uint8_t)((r << 3) | (r >> 2));
        dst[k][1] = (uint8_t)((g << 2) | (g >> 4));
        dst[k][2] = (uint8_t)((bl << 3) | (bl >> 2));
        dst[k][3] = 255;
    }
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) memcpy(rgba + 4 * (y * 16 + x), ((x + y) / 4) % 2 ? cb : ca, 4);
    return ue_gx_encode_rgba(UE_GX_CMPR, rgba, 16, 16, out);
}

/* Head, C4 8×8 with a 4-entry RGB5A3 palette: stripes and a darker crown. */
static const uint8_t HEAD_PALETTE[4][4] = {
    {255, 170, 66, 255}, {255, 238, 204, 255}, {136, 68, 34, 255}, {255, 119, 119, 255}};

static ue_result head_texture(ue_buf *pixels, ue_buf *palette) {
    uint8_t idx[64];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++)
            idx[y * 8 + x] = (uint8_t)(y < 2 ? 2 : (y == 6 && (x == 1 || x == 6)) ? 3 : (x / 2) % 2);
    ue_result r = ue_gx_encode_indices(UE_GX_C4, idx, 8, 8, pixels);
    return r == UE_OK ? ue_gx_encode_palette(UE_GX_TLUT_RGB5A3, &HEAD_PALETTE[0][0], 4, palette) : r;
}

/* Eyes, RGB5A3 16×16: a 2×2 atlas of 8×8 states (open, half, closed, angry), transparent
 * around the eye; the TObj's scale 2×2 selects the top-left cell (open). */
static uint8_t eye_texel(int cell, int x, int y) {
    int dx = 2 * x - 7, dy = 2 * y - 7; /* twice the distance from the cell's centre */
    bool inside = dx * dx + dy * dy <= 49;
    if (!inside) return 0;                       /* transparent */
    if (cell == 2) return y == 4 ? 2 : 0;        /* closed: a lash line */
    if (cell == 1 && y < 4) return 3;            /* half: upper lid */
    if (cell == 3 && y < 3 && x >= y) return 3;  /* angry: slanted lid */
    return (dx * dx + dy * dy <= 9) ? 2 : 1;     /* pupil, white */
}

static ue_result eye_texture(ue_buf *out) {
    static const uint8_t colours[4][4] = {{0, 0, 0, 0}, {255, 255, 255, 255}, {16, 16, 16, 255},
                                          {255, 170, 66, 255}};
    uint8_t rgba[16 * 16 * 4];
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            int cell = (y / 8) * 2 + x / 8;
            memcpy(rgba + 4 * (y * 16 + x), colours[eye_texel(cell, x % 8, y % 8)], 4);
        }
    return ue_gx_encode_rgba(UE_GX_RGB5A3, rgba, 16, 16, out);
}

/* Mouths, RGB5A3 8×8 (the TexAnim's image table; `closed` is also the static image): a dark red
 * shape on transparency — closed a 6×1 line, open a 4×4 box, wide a 6×3 box. */
static ue_result mouth_texture(int shape, ue_buf *out) {
    static const uint8_t clear[4] = {0, 0, 0, 0}, lip[4] = {136, 34, 34, 255};
    static const int half_w[3] = {3, 2, 3}, top[3] = {4, 2, 3}, bottom[3] = {5, 6, 6};
    uint8_t rgba[8 * 8 * 4];
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
            bool in = x >= 4 - half_w[shape] && x < 4 + half_w[shape] && y >= top[shape] &&
                      y < bottom[shape];
            memcpy(rgba + 4 * (y * 8 + x), in ? lip : clear, 4);
        }
    return ue_gx_encode_rgba(UE_GX_RGB5A3, rgba, 8, 8, out);
}

/* ---- tables -------------------------------------------------------------------------------------- */

enum { ATTR_BODY = 0, ATTR_HEAD = 5, ATTR_EYES = 8, ATTRS = 10 };
enum { P_TORSO, P_TAIL, P_LIMBS, P_HEAD, P_EYES, P_MOUTH, POBJS };

typedef struct creature {
    ue_hsd_model m;
    ue_hsd_model_set set;
    ue_hsd_joint joints[JOINTS];
    ue_hsd_dobj dobjs[DOBJS];
    ue_hsd_mobj mobjs[4];
    ue_hsd_tobj tobjs[TOBJS];
    ue_hsd_image images[IMAGES];
    ue_hsd_tlut tlut;
    ue_hsd_pobj pobjs[POBJS];
    ue_hsd_vtx_attr attrs[ATTRS];
    ue_hsd_envelope envs[8];
    ue_hsd_weight weights[10];
    ue_buf dl[POBJS], tex[IMAGES], palette;
    creature_anims anims;
    uint8_t pos[30 * 12], uv[16 * 4], head_nrm[6 * 12], head_pos[8 * 6];
} creature;

static ue_hsd_vtx_attr attr(uint32_t a, uint32_t type, uint32_t cnt, uint32_t ct, uint8_t frac,
                            uint16_t stride, const void *array, size_t size) {
    ue_hsd_vtx_attr v = {0};
    v.attr = a;
    v.type = type;
    v.comp_count = cnt;
    v.comp_type = ct;
    v.frac = frac;
    v.stride = stride;
    v.has_array = array != NULL;
    v.array = array;
    v.array_size = array ? size : 0;
    return v;
}

static void store_f32s(uint8_t *dst, const float *v, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint32_t w;
        memcpy(&w, &v[i], sizeof w);
        ue_store_u32be(dst + 4 * i, w);
    }
}

/* Vertex arrays in file form (big-endian). */
static void fill_arrays(creature *c) {
    store_f32s(c->pos, &BODY_POS[0][0], 90);
    for (int i = 0; i < 16; i++) {
        uint16_t u = (uint16_t)(i == 15 ? 128 : 64 * (i % 5)), v = (uint16_t)(i == 15 ? 128 : 128 * (i / 5));
        ue_store_u16be(c->uv + 4 * i, u); /* S16, frac 8: 256 = 1.0 */
        ue_store_u16be(c->uv + 4 * i + 2, v);
    }
    store_f32s(c->head_nrm, &HEAD_NRM[0][0], 18);
}

static void fill_attrs(creature *c) {
    uint8_t *head_pos = c->head_pos;
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 3; k++) ue_store_u16be(head_pos + 6 * i + 2 * k, (uint16_t)HEAD_POS[i][k]);
    ue_hsd_vtx_attr *a = c->attrs;
    a[0] = attr(UE_GX_VA_PNMTXIDX, UE_GX_DIRECT, 0, 0, 0, 0, NULL, 0);
    a[1] = attr(UE_GX_VA_POS, UE_GX_INDEX16, 1, 4, 0, 12, c->pos, sizeof c->pos);
    a[2] = attr(UE_GX_VA_NRM, UE_GX_INDEX8, 0, 1, 6, 3, BODY_NRM, sizeof BODY_NRM);
    a[3] = attr(UE_GX_VA_CLR0, UE_GX_DIRECT, 1, 5, 0, 0, NULL, 0);
    a[4] = attr(UE_GX_VA_TEX0, UE_GX_INDEX8, 1, 3, 8, 4, c->uv, sizeof c->uv);
    a[5] = attr(UE_GX_VA_POS, UE_GX_INDEX8, 1, 3, 4, 6, head_pos, sizeof c->head_pos);
    a[6] = attr(UE_GX_VA_NRM, UE_GX_INDEX8, 0, 4, 0, 12, c->head_nrm, sizeof c->head_nrm);
    a[7] = attr(UE_GX_VA_TEX0, UE_GX_DIRECT, 1, 0, 7, 0, NULL, 0);
    a[8] = attr(UE_GX_VA_POS, UE_GX_DIRECT, 1, 4, 0, 0, NULL, 0);
    a[9] = attr(UE_GX_VA_TEX0, UE_GX_DIRECT, 1, 4, 0, 0, NULL, 0);
}

/* Envelopes: torso 0 hips, 1 hips+chest, 2 chest; tail 3 tail, 4 hips+tail; limbs 5 arm_l,
 * 6 arm_r, 7 jaw. */
static void fill_envelopes(creature *c) {
    static const struct { int joint; float w; } W[10] = {
        {J_HIPS, 1}, {J_HIPS, 0.5f}, {J_CHEST, 0.5f}, {J_CHEST, 1}, {J_TAIL, 1},
        {J_HIPS, 0.6f}, {J_TAIL, 0.4f}, {J_ARM_L, 1}, {J_ARM_R, 1}, {J_JAW, 1}};
    static const uint32_t first[8] = {0, 1, 3, 4, 5, 7, 8, 9}, count[8] = {1, 2, 1, 1, 2, 1, 1, 1};
    for (int i = 0; i < 10; i++) c->weights[i] = (ue_hsd_weight){W[i].joint, W[i].w};
    for (int i = 0; i < 8; i++) c->envs[i] = (ue_hsd_envelope){0, first[i], count[i]};
}

static ue_hsd_pobj pobj(const char *name, int32_t next, uint16_t flags, uint32_t attr_first,
                        uint32_t attr_count, uint32_t env_first, uint32_t env_count,
                        const ue_buf *dl) {
    ue_hsd_pobj p = {0};
    p.name = name;
    p.next = next;
    p.flags = flags;
    p.attr_first = attr_first;
    p.attr_count = attr_count;
    p.env_first = env_first;
    p.env_count = env_count;
    p.dl = dl->data;
    p.dl_size = dl->size;
    p.n_display = (uint16_t)((dl->size + 31) / 32);
    p.skin_joint = UE_HSD_NONE;
    return p;
}

static void fill_meshes(creature *c) {
    const uint16_t env = UE_POBJ_ENVELOPE, skin = UE_POBJ_SKIN, back = UE_POBJ_CULL_BACK;
    c->pobjs[P_TORSO] = pobj("torso", P_TAIL, env | back, ATTR_BODY, 5, 0, 3, &c->dl[P_TORSO]);
    c->pobjs[P_TAIL] = pobj("tail", -1, env | back, ATTR_BODY, 5, 3, 2, &c->dl[P_TAIL]);
    c->pobjs[P_LIMBS] = pobj("limbs", -1, env, ATTR_BODY, 5, 5, 3, &c->dl[P_LIMBS]);
    c->pobjs[P_HEAD] = pobj("head", -1, skin | back, ATTR_HEAD, 3, 0, 0, &c->dl[P_HEAD]);
    c->pobjs[P_EYES] = pobj("eyes", -1, skin | back, ATTR_EYES, 2, 0, 0, &c->dl[P_EYES]);
    c->pobjs[P_MOUTH] = pobj("mouth", -1, skin | back, ATTR_EYES, 2, 0, 0, &c->dl[P_MOUTH]);
    /* body and limbs share one MObj (one row, written once); both hang on the root. */
    c->dobjs[D_BODY] = (ue_hsd_dobj){0, "body", D_LIMBS, 0, P_TORSO, J_ROOT};
    c->dobjs[D_LIMBS] = (ue_hsd_dobj){0, "limbs", -1, 0, P_LIMBS, J_ROOT};
    c->dobjs[D_HEAD] = (ue_hsd_dobj){0, "head", D_EYES, 1, P_HEAD, J_HEAD};
    c->dobjs[D_EYES] = (ue_hsd_dobj){0, "eyes", D_MOUTH, 2, P_EYES, J_HEAD};
    c->dobjs[D_MOUTH] = (ue_hsd_dobj){0, "mouth", -1, 3, P_MOUTH, J_HEAD};
    c->joints[J_ROOT].first_dobj = D_BODY;
    c->joints[J_HEAD].first_dobj = D_HEAD;
}

static ue_hsd_mobj mobj(const char *name, uint32_t render_mode, int32_t tobj,
                        uint8_t diffuse_grey) {
    ue_hsd_mobj m = {0};
    m.name = name;
    m.render_mode = render_mode;
    m.first_tobj = tobj;
    m.has_material = true;
    m.material = (ue_hsd_material){{128, 128, 128, 255},
                                   {diffuse_grey, diffuse_grey, diffuse_grey, 255},
                                   {255, 255, 255, 255}, 1.0f, 50.0f};
    return m;
}

static ue_hsd_tobj tobj(const char *name, int32_t image, int32_t tlut, uint32_t wrap,
                        uint32_t flags, float scale) {
    ue_hsd_tobj t = {0};
    t.name = name;
    t.next = UE_HSD_NONE;
    t.id = 0;  /* TEXMAP0 */
    t.src = 4; /* GX_TG_TEX0: UV set 0 */
    t.scale[0] = t.scale[1] = scale;
    t.scale[2] = 1;
    t.wrap_s = t.wrap_t = wrap;
    t.repeat_s = t.repeat_t = 1;
    t.flags = flags;
    t.blending = 1;
    t.mag_filter = 1; /* LINEAR */
    t.image = image;
    t.tlut = tlut;
    return t;
}

static ue_hsd_image image(const ue_buf *b, uint16_t side, uint32_t format) {
    ue_hsd_image im = {0};
    im.data = b->data;
    im.size = b->size;
    im.width = im.height = side;
    im.format = format;
    im.levels = 1;
    return im;
}

/* Render modes (docs/formats/hsd-materials.md#render-mode): diffuse source | DIFFUSE (lit) | TEX0 | alpha source MAT (1 << 13);
 * the eyes add XLU alone, which the runtime draws as TEXEDGE (alpha-tested). */
static void fill_materials(creature *c) {
    c->mobjs[0] = mobj("body_mat", 0x2u | 0x4u | 0x10u | 0x2000u, 0, 255);
    c->mobjs[1] = mobj("head_mat", 0x1u | 0x4u | 0x10u | 0x2000u, 1, 255);
    c->mobjs[2] = mobj("eye_mat", 0x1u | 0x4u | 0x10u | 0x2000u | 0x40000000u, 2, 255);
    c->mobjs[2].has_pe = true;
    /* COLOR|ALPHA_UPDATE|COMPARE|ZUPDATE, alpha ≥ 128 passes, blended SRCALPHA/INVSRCALPHA. */
    c->mobjs[2].pe = (ue_hsd_pe){0x33, 128, 0, 255, 1, 4, 5, 3, 3, 6, 0, 7};
    c->mobjs[3] = c->mobjs[2]; /* the mouth is drawn like the eyes */
    c->mobjs[3].name = "mouth_mat";
    c->mobjs[3].first_tobj = T_MOUTH;
    /* colour op MODULATE (4 << 16) on the diffuse light map (0x10); the eyes REPLACE. */
    c->tobjs[0] = tobj("skin", 0, -1, 1, 0x10u | (4u << 16), 1);
    c->tobjs[1] = tobj("head_skin", 1, 0, 0, 0x10u | (4u << 16), 1);
    c->tobjs[2] = tobj("eye_atlas", 2, -1, 0, 0x10u | (5u << 16) | (4u << 20), 2);
    /* alpha op MODULATE (3 << 20): the material's animated alpha fades the mouth (REPLACE, as
     * the eyes have, would leave only the texture's alpha) */
    c->tobjs[3] = tobj("mouth", IM_MOUTH_CLOSED, -1, 0, 0x10u | (5u << 16) | (3u << 20), 1);
    c->images[IM_SKIN] = image(&c->tex[IM_SKIN], 16, UE_GX_CMPR);
    c->images[IM_HEAD] = image(&c->tex[IM_HEAD], 8, UE_GX_C4);
    c->images[IM_EYES] = image(&c->tex[IM_EYES], 16, UE_GX_RGB5A3);
    for (int i = IM_MOUTH_CLOSED; i < IMAGES; i++) c->images[i] = image(&c->tex[i], 8, UE_GX_RGB5A3);
    c->tlut = (ue_hsd_tlut){0, 0, c->palette.data, UE_GX_TLUT_RGB5A3, 0, 4};
}

static void link_model(creature *c) {
    ue_hsd_model *m = &c->m;
    c->set = (ue_hsd_model_set){J_ROOT, "scene_data", 0, 0, 0, 0};
    m->sets = &c->set;
    m->set_count = 1;
    m->joints = c->joints;
    m->joint_count = JOINTS;
    m->dobjs = c->dobjs;
    m->dobj_count = DOBJS;
    m->mobjs = c->mobjs;
    m->mobj_count = 4;
    m->tobjs = c->tobjs;
    m->tobj_count = TOBJS;
    m->images = c->images;
    m->image_count = IMAGES;
    m->tluts = &c->tlut;
    m->tlut_count = 1;
    m->pobjs = c->pobjs;
    m->pobj_count = POBJS;
    m->attrs = c->attrs;
    m->attr_count = ATTRS;
    m->envelopes = c->envs;
    m->envelope_count = 8;
    m->weights = c->weights;
    m->weight_count = 10;
}

static ue_result build(creature *c) {
    fill_joints(c->joints);
    fill_arrays(c);
    fill_attrs(c);
    fill_envelopes(c);
    torso_dl(&c->dl[P_TORSO]);
    tail_dl(&c->dl[P_TAIL]);
    limbs_dl(&c->dl[P_LIMBS]);
    head_dl(&c->dl[P_HEAD]);
    eyes_dl(&c->dl[P_EYES]);
    mouth_dl(&c->dl[P_MOUTH]);
    ue_result r = skin_texture(&c->tex[IM_SKIN]);
    if (r == UE_OK) r = head_texture(&c->tex[IM_HEAD], &c->palette);
    if (r == UE_OK) r = eye_texture(&c->tex[IM_EYES]);
    for (int i = 0; i < 3 && r == UE_OK; i++) r = mouth_texture(i, &c->tex[IM_MOUTH_CLOSED + i]);
    if (r == UE_OK) r = creature_anims_build(&c->anims, &c->m.anims);
    for (int i = 0; i < POBJS; i++)
        if (c->dl[i].failed) r = UE_ERR_NOMEM;
    fill_meshes(c);
    fill_materials(c);
    link_model(c);
    return r;
}

ue_result ue_sample_creature_dat(ue_buf *out) {
    creature *c = calloc(1, sizeof *c);
    if (!c) return UE_ERR_NOMEM;
    ue_result r = build(c);
    if (r == UE_OK) r = ue_hsd_model_write(&c->m, out, NULL);
    for (int i = 0; i < POBJS; i++) ue_buf_free(&c->dl[i]);
    for (int i = 0; i < IMAGES; i++) ue_buf_free(&c->tex[i]);
    ue_buf_free(&c->palette);
    creature_anims_free(&c->anims);
    free(c);
    return r;
}
