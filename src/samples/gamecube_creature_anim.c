/* unearth — the sample creature's animations (docs/formats/hsd-animation.md): idle and attack skeletal clips, a
 * face clip (blinking eye atlas, mouth image swap, material colour and alpha), PKX entries. */
#include <stdlib.h>
#include <string.h>

#include "samples/gamecube_creature.h"
#include "common/bytes.h"

/* Every key below is listed in docs/hsd-animation.md ("Sample creature animations"). Times are
 * frames at 60 per second; each track's last key sits on its clip's end frame. */

typedef struct key_def {
    uint8_t op;
    float value, slope;
    uint32_t wait;
} key_def;

typedef struct track_def {
    uint8_t type, value_format, slope_format;
    float start_frame;
    const key_def *keys;
    size_t count;
} track_def;

#define CON UE_HSD_KEY_CON
#define LIN UE_HSD_KEY_LIN
#define SPL0 UE_HSD_KEY_SPL0
#define SPL UE_HSD_KEY_SPL
#define SLP UE_HSD_KEY_SLP
#define KEY UE_HSD_KEY_KEY
#define F32 UE_HSD_FMT_FLOAT
#define S16(frac) (UE_HSD_FMT_S16 | (frac))
#define U16(frac) (UE_HSD_FMT_U16 | (frac))
#define U8(frac) (UE_HSD_FMT_U8 | (frac))
#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- Animation_0: idle, 60 frames, looping ------------------------------------------------- */

static const key_def IDLE_HIPS_TY[] = {{SPL0, 3, 0, 30}, {SPL0, 3.15f, 0, 30}, {SPL0, 3, 0, 0}};
/* Start frame −10: local time = frame − 10, so the keys play at frames 10, 30, 60 and the chest
 * keeps its rest pitch (0.15) before frame 10. */
static const key_def IDLE_CHEST_RX[] = {{LIN, 0.15f, 0, 20}, {LIN, 0.3f, 0, 30}, {LIN, 0.15f, 0, 0}};
static const key_def IDLE_HEAD_RY[] = {{SPL, 0, 0.01f, 30}, {SPL, 0.25f, 0, 30}, {SPL, 0, 0.01f, 0}};
static const key_def IDLE_JAW_RX[] = {{KEY, 0.3125f, 0, 20}, {KEY, 0.5f, 0, 10}, {KEY, 0.3125f, 0, 30},
                                      {KEY, 0.3125f, 0, 0}};
/* The SLP entry overrides the first key's outgoing tangent (docs/formats/hsd-animation.md#evaluation). */
static const key_def IDLE_ARM_R_RZ[] = {{SPL, 0.5f, 0, 30}, {SLP, 0, 0.02f, 0}, {SPL, 0.9f, 0, 30},
                                        {SPL, 0.5f, 0, 0}};

/* ---- Animation_1: attack, 40 frames, played once ------------------------------------------- */

static const key_def ATK_ROOT_TZ[] = {{LIN, 0, 0, 12}, {LIN, 1.5f, 0, 10}, {LIN, 1.5f, 0, 18},
                                      {LIN, 0, 0, 0}};
static const key_def ATK_CHEST_RX[] = {{SPL0, 0.15f, 0, 12}, {SPL0, 0.7f, 0, 10}, {SPL0, 0.6f, 0, 18},
                                       {SPL0, 0.15f, 0, 0}};
static const key_def ATK_HEAD_SX[] = {{LIN, 1.5f, 0, 12}, {LIN, 1.75f, 0, 10}, {LIN, 1.5f, 0, 18},
                                      {LIN, 1.5f, 0, 0}};
static const key_def ATK_HEAD_SY[] = {{LIN, 1, 0, 12}, {LIN, 1.25f, 0, 10}, {LIN, 1, 0, 18},
                                      {LIN, 1, 0, 0}};
static const key_def ATK_HEAD_SZ[] = {{LIN, 0.8f, 0, 12}, {LIN, 0.9f, 0, 10}, {LIN, 0.8f, 0, 18},
                                      {LIN, 0.8f, 0, 0}};
static const key_def ATK_JAW_RX[] = {{CON, 0.3f, 0, 12}, {CON, 0.8f, 0, 10}, {CON, 0.3f, 0, 18},
                                     {CON, 0.3f, 0, 0}};
static const key_def ATK_ARM_L_RZ[] = {{SPL0, -0.5f, 0, 12}, {SPL0, -1.4f, 0, 10}, {SPL0, -0.5f, 0, 18},
                                       {SPL0, -0.5f, 0, 0}};
static const key_def ATK_ARM_R_RZ[] = {{SPL0, 0.5f, 0, 12}, {SPL0, 1.4f, 0, 10}, {SPL0, 0.5f, 0, 18},
                                       {SPL0, 0.5f, 0, 0}};

/* ---- matanims[0]: the face, 60 frames, looping ---------------------------------------------- */

/* head_mat's diffuse: a blush (green and blue dip to 0.75 at frame 30). */
static const key_def FACE_R[] = {{CON, 1, 0, 60}, {CON, 1, 0, 0}};
static const key_def FACE_GB[] = {{SPL0, 1, 0, 30}, {SPL0, 0.75f, 0, 30}, {SPL0, 1, 0, 0}};
/* The eye atlas (2×2 cells, TObj scale 2): translate (0,0) open, (−1,0) half, (0,−1) closed
 * (docs/formats/hsd-materials.md#texture-matrix: st' = S·(st − translate)). Stepped: half at 40, closed 43–47, half to 50, open again. */
static const key_def FACE_EYE_U[] = {{CON, 0, 0, 40}, {CON, -1, 0, 3}, {CON, 0, 0, 4}, {CON, -1, 0, 3},
                                     {CON, 0, 0, 10}, {CON, 0, 0, 0}};
static const key_def FACE_EYE_V[] = {{CON, 0, 0, 43}, {CON, -1, 0, 4}, {CON, 0, 0, 13}, {CON, 0, 0, 0}};
/* The mouth: transparency 0 → 0.4 at frame 30 (alpha = 1 − v), and the image table 0 1 2 1 0. */
static const key_def FACE_MOUTH_A[] = {{LIN, 0, 0, 30}, {LIN, 0.4f, 0, 30}, {LIN, 0, 0, 0}};
static const key_def FACE_MOUTH_IMG[] = {{CON, 0, 0, 15}, {CON, 1, 0, 15}, {CON, 2, 0, 15},
                                         {CON, 1, 0, 15}, {CON, 0, 0, 0}};

typedef struct builder {
    creature_anims *a;
    ue_hsd_anims *out;
    ue_result r;
} builder;

static void add_track(builder *b, const track_def *t) {
    size_t i = b->out->track_count++;
    ue_hsd_track *tr = &b->a->tracks[i];
    ue_hsd_key keys[8];
    for (size_t k = 0; k < t->count; k++)
        keys[k] = (ue_hsd_key){t->keys[k].op, 0, t->keys[k].value, t->keys[k].slope, t->keys[k].wait};
    ue_result r = ue_hsd_keys_encode(keys, t->count, t->value_format, t->slope_format, &b->a->keys[i]);
    if (b->r == UE_OK) b->r = r;
    tr->type = t->type;
    tr->value_format = t->value_format;
    tr->slope_format = t->slope_format;
    tr->start_frame = t->start_frame;
    tr->data = b->a->keys[i].data;
    tr->length = (uint32_t)b->a->keys[i].size;
}

/* An AObj over `n` new tracks; returns its row. */
static int32_t add_aobj(builder *b, uint32_t flags, float end, const track_def *t, size_t n) {
    size_t i = b->out->aobj_count++;
    b->a->aobjs[i] = (ue_hsd_aobj){0, flags, end, (uint32_t)b->out->track_count, (uint32_t)n, 0};
    for (size_t k = 0; k < n; k++) add_track(b, &t[k]);
    return (int32_t)i;
}

static void add_target(builder *b, ue_hsd_anim_kind kind, int32_t joint, int32_t dobj, int32_t tobj,
                       int32_t aobj) {
    ue_hsd_anim_target *t = &b->a->targets[b->out->target_count++];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->joint = joint;
    t->dobj = dobj;
    t->tobj = tobj;
    t->aobj = aobj;
}

static void begin_clip(builder *b, uint32_t index, bool material, float end) {
    ue_hsd_clip *c = &b->a->clips[b->out->clip_count++];
    memset(c, 0, sizeof *c);
    c->index = index;
    c->material = material;
    c->end_frame = end;
    c->first_target = (uint32_t)b->out->target_count;
}
static void end_clip(builder *b) {
    ue_hsd_clip *c = &b->a->clips[b->out->clip_count - 1];
    c->target_count = (uint32_t)b->out->target_count - c->first_target;
}

#define JOINT(j, aobj) add_target(b, UE_HSD_ANIM_JOINT, j, -1, -1, aobj)
#define ONE(type, vf, sf, start, keys) (track_def[]){{type, vf, sf, start, keys, N(keys)}}

/* Pre-order rows: tail has no node (a subtree without tracks), arm_l a node without an AObj. */
static void idle_clip(builder *b) {
    const uint32_t loop = UE_AOBJ_LOOP;
    begin_clip(b, 0, false, 60);
    JOINT(J_ROOT, -1);
    JOINT(J_HIPS, add_aobj(b, loop, 60, ONE(UE_HSD_JT_TRAY, F32, F32, 0, IDLE_HIPS_TY), 1));
    JOINT(J_CHEST, add_aobj(b, loop, 60, ONE(UE_HSD_JT_ROTX, F32, F32, -10, IDLE_CHEST_RX), 1));
    JOINT(J_HEAD, add_aobj(b, loop, 60, ONE(UE_HSD_JT_ROTY, S16(12), F32, 0, IDLE_HEAD_RY), 1));
    JOINT(J_JAW, add_aobj(b, loop, 60, ONE(UE_HSD_JT_ROTX, U8(4), F32, 0, IDLE_JAW_RX), 1));
    JOINT(J_ARM_L, -1);
    JOINT(J_ARM_R, add_aobj(b, loop, 60, ONE(UE_HSD_JT_ROTZ, F32, F32, 0, IDLE_ARM_R_RZ), 1));
    end_clip(b);
}

static void attack_clip(builder *b) {
    const track_def head[3] = {{UE_HSD_JT_SCAX, U16(8), F32, 0, ATK_HEAD_SX, N(ATK_HEAD_SX)},
                               {UE_HSD_JT_SCAY, U16(8), F32, 0, ATK_HEAD_SY, N(ATK_HEAD_SY)},
                               {UE_HSD_JT_SCAZ, F32, F32, 0, ATK_HEAD_SZ, N(ATK_HEAD_SZ)}};
    begin_clip(b, 1, false, 40);
    JOINT(J_ROOT, add_aobj(b, 0, 40, ONE(UE_HSD_JT_TRAZ, F32, F32, 0, ATK_ROOT_TZ), 1));
    JOINT(J_HIPS, -1);
    JOINT(J_CHEST, add_aobj(b, 0, 40, ONE(UE_HSD_JT_ROTX, F32, F32, 0, ATK_CHEST_RX), 1));
    JOINT(J_HEAD, add_aobj(b, 0, 40, head, 3));
    JOINT(J_JAW, add_aobj(b, 0, 40, ONE(UE_HSD_JT_ROTX, F32, F32, 0, ATK_JAW_RX), 1));
    JOINT(J_ARM_L, add_aobj(b, 0, 40, ONE(UE_HSD_JT_ROTZ, F32, F32, 0, ATK_ARM_L_RZ), 1));
    JOINT(J_ARM_R, add_aobj(b, 0, 40, ONE(UE_HSD_JT_ROTZ, F32, F32, 0, ATK_ARM_R_RZ), 1));
    end_clip(b);
}

/* MatAnims parallel to the head's DObj list (head, eyes, mouth); TexAnims bind by TObj id 0. */
static void face_clip(builder *b) {
    const uint32_t loop = UE_AOBJ_LOOP;
    const track_def colour[3] = {{UE_HSD_MT_DIFFUSE_R, U8(7), F32, 0, FACE_R, N(FACE_R)},
                                 {UE_HSD_MT_DIFFUSE_G, U16(8), F32, 0, FACE_GB, N(FACE_GB)},
                                 {UE_HSD_MT_DIFFUSE_B, U16(8), F32, 0, FACE_GB, N(FACE_GB)}};
    const track_def eye[2] = {{UE_HSD_TT_TRAU, S16(8), F32, 0, FACE_EYE_U, N(FACE_EYE_U)},
                              {UE_HSD_TT_TRAV, S16(8), F32, 0, FACE_EYE_V, N(FACE_EYE_V)}};
    begin_clip(b, 0, true, 60);
    add_target(b, UE_HSD_ANIM_MATERIAL, J_HEAD, D_HEAD, -1, add_aobj(b, loop, 60, colour, 3));
    add_target(b, UE_HSD_ANIM_MATERIAL, J_HEAD, D_EYES, -1, -1);
    add_target(b, UE_HSD_ANIM_TEXTURE, J_HEAD, D_EYES, T_EYES, add_aobj(b, loop, 60, eye, 2));
    add_target(b, UE_HSD_ANIM_MATERIAL, J_HEAD, D_MOUTH, -1,
               add_aobj(b, loop, 60, ONE(UE_HSD_MT_ALPHA, F32, F32, 0, FACE_MOUTH_A), 1));
    add_target(b, UE_HSD_ANIM_TEXTURE, J_HEAD, D_MOUTH, T_MOUTH,
               add_aobj(b, loop, 60, ONE(UE_HSD_TT_TIMG, U8(0), F32, 0, FACE_MOUTH_IMG), 1));
    ue_hsd_anim_target *mouth = &b->a->targets[b->out->target_count - 1];
    b->a->images[0] = IM_MOUTH_CLOSED; /* the static image is entry 0 of the table, shared */
    b->a->images[1] = IM_MOUTH_OPEN;
    b->a->images[2] = IM_MOUTH_WIDE;
    mouth->first_image = 0;
    mouth->image_count = 3;
    end_clip(b);
}

ue_result creature_anims_build(creature_anims *a, ue_hsd_anims *out) {
    memset(a, 0, sizeof *a);
    memset(out, 0, sizeof *out);
    out->clips = a->clips;
    out->targets = a->targets;
    out->aobjs = a->aobjs;
    out->tracks = a->tracks;
    out->images = a->images;
    out->image_count = 3;
    builder b = {a, out, UE_OK};
    idle_clip(&b);
    attack_clip(&b);
    face_clip(&b);
    return b.r;
}

void creature_anims_free(creature_anims *a) {
    for (size_t i = 0; i < CREATURE_TRACKS; i++) ue_buf_free(&a->keys[i]);
}

/* ---- PKX (docs/formats/pkx.md) --------------------------------------------------------------- */

#define PKX_ENTRIES 17
#define PKX_SLOT_IDLE 0
#define PKX_SLOT_PHYSICAL_A 2

static void store_f32be(uint8_t *p, float v) {
    uint32_t w;
    memcpy(&w, &v, sizeof w);
    ue_store_u32be(p, w);
}

/* Motion kind, one sub-animation {XD motion type, anim index}, timing points in seconds. */
static void pkx_entry(uint8_t *e, uint32_t kind, uint32_t motion, uint32_t anim, float end) {
    ue_store_u32be(e + 0x00, kind);
    ue_store_u32be(e + 0x04, 1);
    for (int k = 0; k < 4; k++) store_f32be(e + 0x10 + 4 * k, end * (float)(k + 1) / 4.0f / 60.0f);
    /* body map: origin root, head, chest, tail, eyes on the head, hands arm_l / arm_r */
    static const int32_t body[16] = {J_ROOT, J_HEAD, J_CHEST, J_TAIL, J_HEAD, J_HEAD, J_ARM_L, J_ARM_R,
                                     -1, -1, -1, -1, -1, -1, J_HIPS, -1};
    for (int k = 0; k < 16; k++) ue_store_u32be(e + 0x4C + 4 * k, (uint32_t)body[k]);
    ue_store_u32be(e + 0x8C, motion);
    ue_store_u32be(e + 0x90, anim);
    ue_store_u32be(e + 0xCC, 3); /* XD terminator */
}

uint8_t *creature_pkx_anim_entries(void) {
    uint8_t *t = calloc(PKX_ENTRIES, 0xD0);
    if (!t) return NULL;
    for (size_t i = 0; i < PKX_ENTRIES; i++) {
        bool attack = i == PKX_SLOT_PHYSICAL_A;
        /* idle loops (kind 2, XD motion 2); the attack is an action played once (4, 1); the
         * slots the creature has no motion for play the idle once */
        pkx_entry(t + i * 0xD0, i == PKX_SLOT_IDLE ? 2u : 4u, i == PKX_SLOT_IDLE ? 2u : 1u,
                  attack ? 1u : 0u, attack ? 40.0f : 60.0f);
    }
    return t;
}

/* XD preamble PartAnimData block 2 (blink / idle extra) at 0x1C + 2·19: type 1 (a whole-model
 * texture animation), no parts, animation index 0 = matanims[0], the face clip. */
void creature_pkx_blink(uint8_t *pkx, size_t size) {
    const size_t at = 0x1C + 2 * 19;
    if (size < at + 19) return;
    pkx[at + 0] = 1;
    pkx[at + 1] = 0;
    memset(pkx + at + 2, 0xFF, 16);
    pkx[at + 18] = 0;
}
