/* unearth — the sample creature as Melee keeps a fighter: its model as a bare DAT, an animation bank
 * of FigaTree clips (one DAT each, 32-aligned, 0xFF between) and a DAT of non-model roots. */
#include <stdlib.h>

#include "samples/samples.h"
#include "common/bytes.h"
#include "samples/gamecube_creature.h"
#include "hsd/dat_bank.h"
#include "hsd/dat_builder.h"
#include "hsd/hsd_write_figatree.h"

/* ---- the animation bank: three clips of the creature's 8 joints (docs/hsd-animation.md) -------- */

#define CON UE_HSD_KEY_CON
#define LIN UE_HSD_KEY_LIN
#define SPL0 UE_HSD_KEY_SPL0
#define F32 UE_HSD_FMT_FLOAT
#define S16_12 (UE_HSD_FMT_S16 | 12) /* s16 with 12 fraction bits, as Melee packs rotations */
#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TRACK(type, fmt, keys) {type, fmt, F32, 0, keys, N(keys)}

/* Key fields: opcode, time (unused by the writer), value, slope, frames to the next key. Each
 * track ends on its clip's last frame; values are the joint's own, rest values included. */

/* Wait1, 60 frames: the hips breathe, the head looks about, the tail sways. */
static const ue_hsd_key WAIT_HIPS_TY[] = {{SPL0, 0, 3, 0, 30}, {SPL0, 0, 3.2f, 0, 30}, {SPL0, 0, 3, 0, 0}};
static const ue_hsd_key WAIT_HEAD_RY[] = {{LIN, 0, 0, 0, 30}, {LIN, 0, 0.3f, 0, 30}, {LIN, 0, 0, 0, 0}};
static const ue_hsd_key WAIT_TAIL_RY[] = {{LIN, 0, 0, 0, 30}, {LIN, 0, 0.5f, 0, 30}, {LIN, 0, 0, 0, 0}};
static const uint8_t WAIT_COUNTS[JOINTS] = {[J_HIPS] = 1, [J_HEAD] = 1, [J_TAIL] = 1};
static const hsd_figatree_track_def WAIT_TRACKS[] = {
    TRACK(UE_HSD_JT_TRAY, F32, WAIT_HIPS_TY), TRACK(UE_HSD_JT_ROTY, F32, WAIT_HEAD_RY),
    TRACK(UE_HSD_JT_ROTY, F32, WAIT_TAIL_RY)};

/* Wave, 30 frames: the right arm swings up to 2 rad and back, the jaw opens, the arm does not
 * twist (a constant track). */
static const ue_hsd_key WAVE_JAW_RX[] = {{LIN, 0, 0.3f, 0, 15}, {LIN, 0, 0.6f, 0, 15}, {LIN, 0, 0.3f, 0, 0}};
static const ue_hsd_key WAVE_ARM_RX[] = {{CON, 0, 0, 0, 30}, {CON, 0, 0, 0, 0}};
static const ue_hsd_key WAVE_ARM_RZ[] = {{SPL0, 0, 0.5f, 0, 15}, {SPL0, 0, 2, 0, 15}, {SPL0, 0, 0.5f, 0, 0}};
static const uint8_t WAVE_COUNTS[JOINTS] = {[J_JAW] = 1, [J_ARM_R] = 2};
static const hsd_figatree_track_def WAVE_TRACKS[] = {
    TRACK(UE_HSD_JT_ROTX, F32, WAVE_JAW_RX), TRACK(UE_HSD_JT_ROTX, F32, WAVE_ARM_RX),
    TRACK(UE_HSD_JT_ROTZ, F32, WAVE_ARM_RZ)};

/* Jump, 40 frames: the root rises 2 and lands, both arms fly up (s16 keys), the tail lifts. */
static const ue_hsd_key JUMP_ROOT_TY[] = {{SPL0, 0, 0, 0, 20}, {SPL0, 0, 2, 0, 20}, {SPL0, 0, 0, 0, 0}};
static const ue_hsd_key JUMP_ARM_L_RZ[] = {{LIN, 0, -0.5f, 0, 20}, {LIN, 0, -1.5f, 0, 20}, {LIN, 0, -0.5f, 0, 0}};
static const ue_hsd_key JUMP_ARM_R_RZ[] = {{LIN, 0, 0.5f, 0, 20}, {LIN, 0, 1.5f, 0, 20}, {LIN, 0, 0.5f, 0, 0}};
static const ue_hsd_key JUMP_TAIL_RX[] = {{LIN, 0, -0.8f, 0, 20}, {LIN, 0, -0.2f, 0, 20}, {LIN, 0, -0.8f, 0, 0}};
static const uint8_t JUMP_COUNTS[JOINTS] = {[J_ROOT] = 1, [J_ARM_L] = 1, [J_ARM_R] = 1, [J_TAIL] = 1};
static const hsd_figatree_track_def JUMP_TRACKS[] = {
    TRACK(UE_HSD_JT_TRAY, F32, JUMP_ROOT_TY), TRACK(UE_HSD_JT_ROTZ, S16_12, JUMP_ARM_L_RZ),
    TRACK(UE_HSD_JT_ROTZ, S16_12, JUMP_ARM_R_RZ), TRACK(UE_HSD_JT_ROTX, F32, JUMP_TAIL_RX)};

typedef struct bank_clip {
    const char *root; /* the clip is what follows "_ACTION_" */
    hsd_figatree_def def;
} bank_clip;

static const bank_clip BANK_CLIPS[] = {
    {"PlyCreature_Share_ACTION_Wait1_figatree", {60, WAIT_COUNTS, JOINTS, WAIT_TRACKS}},
    {"PlyCreature_Share_ACTION_Wave_figatree", {30, WAVE_COUNTS, JOINTS, WAVE_TRACKS}},
    {"PlyCreature_Share_ACTION_Jump_figatree", {40, JUMP_COUNTS, JOINTS, JUMP_TRACKS}},
};

static ue_result creature_bank(ue_buf *bank) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < N(BANK_CLIPS) && r == UE_OK; i++) {
        ue_buf dat = {0};
        r = hsd_figatree_dat(BANK_CLIPS[i].root, &BANK_CLIPS[i].def, &dat);
        if (r == UE_OK) r = ue_dat_bank_append(bank, dat.data, dat.size);
        ue_buf_free(&dat);
    }
    return r;
}

/* ---- a DAT without a model: fighter data naming the bank's clips, a camera, lights, fog -------- */

static uint32_t put_floats(ue_dat_builder *b, const float *v, size_t n) {
    uint32_t at = ue_datb_alloc(b, 4 * n, UE_DATB_STRUCT_ALIGN);
    for (size_t k = 0; k < n; k++) ue_datb_f32(b, at + 4 * (uint32_t)k, v[k]);
    return at;
}

/* A WObjDesc (0x14): class name (none), position, no RObj. */
static uint32_t wobj(ue_dat_builder *b, float x, float y, float z) {
    const float p[5] = {0, x, y, z, 0};
    return put_floats(b, p, 5);
}

/* 0x60 bytes of pointer fields (HSDLib's SBM_FighterData): +0x00 the attributes (walk speed, run
 * speed, jump height, weight), +0x0C the action table, one 0x18-byte record per clip of the bank
 * as the game finds it (name, offset in the bank, size = the DAT's file_size, no script, flags);
 * the other 22 fields are NULL. */
static void fighter_data(ue_dat_builder *b, const ue_buf *bank) {
    static const float attributes[4] = {1.1f, 1.8f, 34, 90};
    uint32_t attr = put_floats(b, attributes, 4);
    uint32_t names[N(BANK_CLIPS)];
    for (size_t i = 0; i < N(BANK_CLIPS); i++) names[i] = ue_datb_cstring(b, BANK_CLIPS[i].root);
    uint32_t actions = ue_datb_alloc(b, 0x18 * N(BANK_CLIPS), UE_DATB_STRUCT_ALIGN);
    for (size_t i = 0, at = 0; i < N(BANK_CLIPS) && at + 0x20 <= bank->size; i++) {
        uint32_t rec = actions + 0x18 * (uint32_t)i, size = ue_load_u32be(bank->data + at);
        ue_datb_pointer(b, rec, names[i]);
        ue_datb_u32(b, rec + 4, (uint32_t)at);
        ue_datb_u32(b, rec + 8, size);
        at = (at + size + UE_DAT_BANK_ALIGN - 1) / UE_DAT_BANK_ALIGN * UE_DAT_BANK_ALIGN;
    }
    uint32_t ft = ue_datb_alloc(b, 0x60, UE_DATB_STRUCT_ALIGN);
    ue_datb_pointer(b, ft, attr);
    ue_datb_pointer(b, ft + 0x0C, actions);
    ue_datb_root(b, ft, "ftDataCreature");
}

/* A perspective CObjDesc (0x38) looking at the creature's chest from the front. */
static void camera(ue_dat_builder *b) {
    static const float up[3] = {0, 1, 0};
    uint32_t eye = wobj(b, 0, 5, 20), interest = wobj(b, 0, 4, 0), up_at = put_floats(b, up, 3);
    uint32_t c = ue_datb_alloc(b, 0x38, UE_DATB_STRUCT_ALIGN);
    ue_datb_u16(b, c + 6, 1); /* projection: perspective */
    ue_datb_u16(b, c + 0x0A, 640), ue_datb_u16(b, c + 0x0E, 480);  /* viewport right, bottom */
    ue_datb_u16(b, c + 0x12, 640), ue_datb_u16(b, c + 0x16, 480);  /* scissor right, bottom */
    ue_datb_pointer(b, c + 0x18, eye);
    ue_datb_pointer(b, c + 0x1C, interest);
    ue_datb_pointer(b, c + 0x24, up_at);
    ue_datb_f32(b, c + 0x28, 0.1f);    /* near */
    ue_datb_f32(b, c + 0x2C, 1000.0f); /* far */
    ue_datb_f32(b, c + 0x30, 30.0f);   /* field of view, degrees */
    ue_datb_f32(b, c + 0x34, 640.0f / 480.0f);
    ue_datb_root(b, c, "creature_camera");
}

/* One LightSet of two LightDescs (0x1C: class, next, flags, attenuation flags, RGBA, position,
 * interest, parameters): a grey ambient light, then a white infinite one from above. */
static void lights(ue_dat_builder *b) {
    uint32_t sun_at = wobj(b, 10, 30, 20);
    uint32_t sun = ue_datb_alloc(b, 0x1C, UE_DATB_STRUCT_ALIGN);
    ue_datb_u16(b, sun + 8, 1); /* infinite */
    ue_datb_u32(b, sun + 0x0C, 0xFFFFFFFFu);
    ue_datb_pointer(b, sun + 0x10, sun_at);
    uint32_t ambient = ue_datb_alloc(b, 0x1C, UE_DATB_STRUCT_ALIGN);
    ue_datb_pointer(b, ambient + 4, sun);
    ue_datb_u32(b, ambient + 0x0C, 0x4C4C4CFFu);
    uint32_t set = ue_datb_alloc(b, 8, UE_DATB_STRUCT_ALIGN); /* {LightDesc*, LightAnim** NULL} */
    ue_datb_pointer(b, set, ambient);
    uint32_t array = ue_datb_alloc(b, 8, UE_DATB_STRUCT_ALIGN); /* {set, NULL} */
    ue_datb_pointer(b, array, set);
    ue_datb_root(b, array, "creature_lights");
}

/* A FogDesc (0x14): GX_FOG_PERSP_LIN from 50 to 400, a pale blue. */
static void fog(ue_dat_builder *b) {
    uint32_t f = ue_datb_alloc(b, 0x14, UE_DATB_STRUCT_ALIGN);
    ue_datb_u32(b, f, 2);
    ue_datb_f32(b, f + 8, 50);
    ue_datb_f32(b, f + 0x0C, 400);
    ue_datb_u32(b, f + 0x10, 0xB0C8E0FFu);
    ue_datb_root(b, f, "creature_fog");
}

static ue_result creature_data(const ue_buf *bank, ue_buf *out) {
    ue_dat_builder b;
    ue_datb_init(&b);
    fighter_data(&b, bank);
    camera(&b);
    lights(&b);
    fog(&b);
    ue_result r = ue_datb_finish(&b, out);
    ue_datb_free(&b);
    return r;
}

/* ---- the three files ----------------------------------------------------------------------------- */

static ue_result add(ue_sample_list *out, const char *path, ue_result built, ue_buf *b) {
    size_t n = 0;
    uint8_t *p = built == UE_OK ? ue_buf_take(b, &n) : NULL;
    ue_buf_free(b);
    if (built != UE_OK) return built;
    return p ? ue_sample_list_add(out, path, p, n) : UE_ERR_NOMEM;
}

ue_result ue_samples_gamecube_dats(ue_sample_list *out) {
    ue_buf model = {0}, bank = {0}, data = {0};
    ue_result r = add(out, "gamecube/dat/creature.dat", ue_sample_creature_dat(&model), &model);
    ue_result built = r == UE_OK ? creature_bank(&bank) : r;
    if (r == UE_OK) r = add(out, "gamecube/dat/creature_data.dat", built == UE_OK ? creature_data(&bank, &data) : built, &data);
    if (r == UE_OK) r = add(out, "gamecube/dat/creature_anims.dat", built, &bank);
    ue_buf_free(&bank);
    ue_buf_free(&data);
    return r;
}
