/* unearth — a real-sized HSD model from tables (bench/hsd_big_model.h): joints in chains, one
 * textured grid mesh per material, skeletal clips with hermite keys on every joint. */
#include "hsd_big_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/gx.h"
#include "unearth/hsd_model.h"

#define CHAIN 6u           /* joints per limb chain under the root */
#define KEY_STEP 10u       /* frames between keys */
#define TRACKS_PER_JOINT 3 /* ROTX, ROTY, ROTZ */
#define GX_STRIP 0x98

typedef struct big {
    ue_hsd_model m;
    ue_hsd_model_set set;
    ue_hsd_joint *joints;
    ue_hsd_dobj *dobjs;
    ue_hsd_mobj *mobjs;
    ue_hsd_tobj *tobjs;
    ue_hsd_image *images;
    ue_hsd_pobj *pobjs;
    ue_hsd_vtx_attr attrs[2];
    ue_buf *dl, *tex, *keys;
    ue_hsd_clip *clips;
    ue_hsd_anim_target *targets;
    ue_hsd_aobj *aobjs;
    ue_hsd_track *tracks;
    size_t key_streams;
} big;

/* Pre-order: 0 the root, then chains of CHAIN joints whose heads are the root's children. */
static void fill_joints(big *b, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        ue_hsd_joint *j = &b->joints[i];
        uint32_t link = i == 0 ? 0 : (i - 1) % CHAIN; /* place in its chain */
        j->flags = 0;
        j->parent = i == 0 ? -1 : link == 0 ? 0 : (int32_t)i - 1;
        j->first_child = i == 0 ? (n > 1 ? 1 : -1) : (link + 1 < CHAIN && i + 1 < n ? (int32_t)i + 1 : -1);
        j->next_sibling = i != 0 && link == 0 && i + CHAIN < n ? (int32_t)(i + CHAIN) : -1;
        j->first_dobj = UE_HSD_NONE;
        j->rotation[2] = i == 0 ? 0 : 0.1f * (float)link;
        j->scale[0] = j->scale[1] = j->scale[2] = 1;
        j->translation[0] = link == 0 && i ? (float)((i / CHAIN) % 5) - 2.0f : 0;
        j->translation[1] = i == 0 ? 0 : 1;
    }
}

static void put_f32(ue_buf *b, float v) {
    uint32_t w;
    memcpy(&w, &v, sizeof w);
    ue_buf_put_u32be(b, w);
}

/* A wavy grid of side × side vertices (POS, TEX0 direct F32) as side − 1 triangle strips. */
static void grid_dl(ue_buf *dl, uint32_t side, uint32_t seed) {
    for (uint32_t r = 0; r + 1 < side; r++) {
        ue_buf_put_u8(dl, GX_STRIP);
        ue_buf_put_u16be(dl, (uint16_t)(2 * side));
        for (uint32_t c = 0; c < side; c++)
            for (uint32_t k = 0; k < 2; k++) {
                float u = (float)c / (float)(side - 1), v = (float)(r + k) / (float)(side - 1);
                put_f32(dl, u - 0.5f);
                put_f32(dl, 0.1f * sinf(6.0f * u + (float)seed) * cosf(5.0f * v));
                put_f32(dl, v - 0.5f);
                put_f32(dl, u);
                put_f32(dl, v);
            }
    }
}

/* RGB5A3 opaque texels (top bit set, RGB555): smooth bands that differ per material. */
static void texture(ue_buf *t, uint32_t side, uint32_t seed) {
    for (uint32_t i = 0; i < side * side; i++) {
        uint32_t x = i % side, y = i / side;
        uint32_t r = (x + seed) & 31, g = (y * 3 + seed * 7) & 31, bl = ((x ^ y) + seed) & 31;
        ue_buf_put_u16be(t, (uint16_t)(0x8000u | r << 10 | g << 5 | bl));
    }
}

static void fill_meshes(big *b, const hsd_big_shape *s) {
    b->attrs[0] = (ue_hsd_vtx_attr){0, UE_GX_VA_POS, UE_GX_DIRECT, 1, 4, 0, 0, 0, false, NULL, 0};
    b->attrs[1] = (ue_hsd_vtx_attr){0, UE_GX_VA_TEX0, UE_GX_DIRECT, 1, 4, 0, 0, 0, false, NULL, 0};
    for (uint32_t i = 0; i < s->materials; i++) {
        grid_dl(&b->dl[i], s->grid, i);
        texture(&b->tex[i], s->texture_side, i);
        ue_hsd_pobj *p = &b->pobjs[i];
        p->name = "grid";
        p->next = -1;
        p->flags = UE_POBJ_SKIN | UE_POBJ_CULL_BACK;
        p->attr_first = 0, p->attr_count = 2;
        p->dl = b->dl[i].data, p->dl_size = b->dl[i].size;
        p->n_display = (uint16_t)((b->dl[i].size + 31) / 32);
        p->skin_joint = UE_HSD_NONE;
        ue_hsd_image *im = &b->images[i];
        im->data = b->tex[i].data, im->size = b->tex[i].size;
        im->width = im->height = (uint16_t)s->texture_side;
        im->format = UE_GX_RGB5A3, im->levels = 1;
        ue_hsd_tobj *t = &b->tobjs[i];
        t->name = "tex", t->next = UE_HSD_NONE, t->src = 4; /* UV set 0 */
        t->scale[0] = t->scale[1] = t->scale[2] = 1;
        t->wrap_s = t->wrap_t = 1, t->repeat_s = t->repeat_t = 1;
        t->flags = 0x10u | (4u << 16); /* diffuse light map, MODULATE */
        t->blending = 1, t->mag_filter = 1, t->image = (int32_t)i, t->tlut = -1;
        ue_hsd_mobj *m = &b->mobjs[i];
        m->name = "mat", m->render_mode = 0x2u | 0x4u | 0x10u | 0x2000u, m->first_tobj = (int32_t)i;
        m->has_material = true;
        m->material = (ue_hsd_material){{128, 128, 128, 255}, {200, 200, 200, 255}, {255, 255, 255, 255}, 1, 50};
        /* DObjs of one joint are consecutive rows, so each list links to the next row */
        int32_t joint = (int32_t)(i % s->joints);
        b->dobjs[i] = (ue_hsd_dobj){0, "grid", i + s->joints < s->materials ? (int32_t)(i + s->joints) : -1,
                                    (int32_t)i, (int32_t)i, joint};
        if (b->joints[joint].first_dobj < 0) b->joints[joint].first_dobj = (int32_t)i;
    }
}

/* One rotation track: hermite keys (SPL0) every KEY_STEP frames, a swing that differs per joint,
 * axis and clip; the last key on the end frame. */
static ue_result add_track(big *b, uint32_t axis, uint32_t joint, uint32_t clip, uint32_t frames) {
    ue_hsd_key keys[256];
    size_t n = 0;
    for (uint32_t f = 0; n < 256; f += KEY_STEP) {
        uint32_t at = f < frames ? f : frames, wait = f < frames ? (at + KEY_STEP < frames ? KEY_STEP : frames - at) : 0;
        float v = 0.3f * sinf(0.05f * (float)(at * (axis + 1)) + (float)(joint + 3 * clip));
        keys[n++] = (ue_hsd_key){UE_HSD_KEY_SPL0, 0, v, 0, wait};
        if (at == frames) break;
    }
    ue_buf *kb = &b->keys[b->key_streams];
    ue_result r = ue_hsd_keys_encode(keys, n, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, kb);
    ue_hsd_track *t = &b->tracks[b->key_streams++];
    memset(t, 0, sizeof *t);
    t->type = (uint8_t)(UE_HSD_JT_ROTX + axis);
    t->value_format = t->slope_format = UE_HSD_FMT_FLOAT;
    t->data = kb->data, t->length = (uint32_t)kb->size;
    return r;
}

static ue_result fill_clips(big *b, const hsd_big_shape *s) {
    ue_hsd_anims *a = &b->m.anims;
    ue_result r = UE_OK;
    for (uint32_t c = 0; c < s->clips && r == UE_OK; c++) {
        b->clips[c] = (ue_hsd_clip){0, c, false, NULL, 0, (float)s->frames, c * s->joints, s->joints, false};
        for (uint32_t j = 0; j < s->joints && r == UE_OK; j++) {
            uint32_t row = c * s->joints + j;
            b->aobjs[row] = (ue_hsd_aobj){0, 0, (float)s->frames, row * TRACKS_PER_JOINT, TRACKS_PER_JOINT, 0};
            ue_hsd_anim_target *t = &b->targets[row];
            memset(t, 0, sizeof *t);
            t->kind = UE_HSD_ANIM_JOINT, t->joint = (int32_t)j, t->dobj = t->tobj = -1, t->aobj = (int32_t)row;
            for (uint32_t axis = 0; axis < TRACKS_PER_JOINT && r == UE_OK; axis++) r = add_track(b, axis, j, c, s->frames);
        }
    }
    a->clips = b->clips, a->clip_count = s->clips;
    a->targets = b->targets, a->target_count = (size_t)s->clips * s->joints;
    a->aobjs = b->aobjs, a->aobj_count = a->target_count;
    a->tracks = b->tracks, a->track_count = b->key_streams;
    return r;
}

static void link_model(big *b, const hsd_big_shape *s) {
    ue_hsd_model *m = &b->m;
    b->set = (ue_hsd_model_set){0, "scene_data", 0, 0, 0, 0};
    m->sets = &b->set, m->set_count = 1;
    m->joints = b->joints, m->joint_count = s->joints;
    m->dobjs = b->dobjs, m->dobj_count = s->materials;
    m->mobjs = b->mobjs, m->mobj_count = s->materials;
    m->tobjs = b->tobjs, m->tobj_count = s->materials;
    m->images = b->images, m->image_count = s->materials;
    m->pobjs = b->pobjs, m->pobj_count = s->materials;
    m->attrs = b->attrs, m->attr_count = 2;
}

static void big_free(big *b, const hsd_big_shape *s) {
    for (uint32_t i = 0; b->dl && b->tex && i < s->materials; i++) ue_buf_free(&b->dl[i]), ue_buf_free(&b->tex[i]);
    for (size_t i = 0; b->keys && i < b->key_streams; i++) ue_buf_free(&b->keys[i]);
    free(b->joints), free(b->dobjs), free(b->mobjs), free(b->tobjs), free(b->images), free(b->pobjs);
    free(b->dl), free(b->tex), free(b->keys);
    free(b->clips), free(b->targets), free(b->aobjs), free(b->tracks);
}

ue_result hsd_big_model_dat(const hsd_big_shape *s, ue_buf *out) {
    if (s->joints < 2 || s->materials == 0 || s->texture_side % 4 || s->grid < 2 || s->frames == 0 ||
        s->frames / KEY_STEP > 250)
        return UE_ERR_USAGE;
    big b;
    memset(&b, 0, sizeof b);
    size_t M = s->materials, rows = (size_t)s->clips * s->joints, streams = rows * TRACKS_PER_JOINT;
    b.joints = calloc(s->joints, sizeof *b.joints);
    b.dobjs = calloc(M, sizeof *b.dobjs), b.mobjs = calloc(M, sizeof *b.mobjs);
    b.tobjs = calloc(M, sizeof *b.tobjs), b.images = calloc(M, sizeof *b.images);
    b.pobjs = calloc(M, sizeof *b.pobjs), b.dl = calloc(M, sizeof *b.dl), b.tex = calloc(M, sizeof *b.tex);
    b.keys = calloc(streams + 1, sizeof *b.keys), b.tracks = calloc(streams + 1, sizeof *b.tracks);
    b.clips = calloc(s->clips + 1, sizeof *b.clips);
    b.targets = calloc(rows + 1, sizeof *b.targets), b.aobjs = calloc(rows + 1, sizeof *b.aobjs);
    ue_result r = UE_ERR_NOMEM;
    if (b.joints && b.dobjs && b.mobjs && b.tobjs && b.images && b.pobjs && b.dl && b.tex && b.keys && b.tracks &&
        b.clips && b.targets && b.aobjs) {
        fill_joints(&b, s->joints);
        fill_meshes(&b, s);
        r = fill_clips(&b, s);
        for (uint32_t i = 0; i < M && r == UE_OK; i++)
            if (b.dl[i].failed || b.tex[i].failed) r = UE_ERR_NOMEM;
        link_model(&b, s);
        if (r == UE_OK) r = ue_hsd_model_write(&b.m, out, NULL);
    }
    big_free(&b, s);
    return r;
}
