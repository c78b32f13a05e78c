/* unearth render layer — the scene at a clip's frame: every channel sampled as glTF plays it
 * (LINEAR, rotations slerped, STEP, CUBICSPLINE), then world matrices and inherited visibility. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "render/render_int.h"

#define DEFAULT_FPS 30.0

static void set_floats(float *dst, const double *src, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) dst[i] = (float)src[i];
}

/* Applies one channel at t to the posed nodes and materials; channels the scene's validation
 * would refuse (a target out of range) are passed over. */
static void apply_channel(const ue_scene *s, const ue_anim_channel *c, double t, ue_scene_node *nodes,
                          render_pose *p) {
    if (!c->key_count || !c->times || !c->values || c->components != ue_anim_target_components(c->target))
        return;
    double v[4];
    ue_anim_channel_sample(c, t, v); /* glTF's sampling, shared with the HSD clip import */
    bool on_node = c->node >= 0 && (size_t)c->node < s->node_count;
    bool on_material = c->material >= 0 && (size_t)c->material < s->material_count;
    bool on_slot = on_material && c->slot >= 0 && c->slot < UE_MAX_TEXTURE_SLOTS;
    render_material *m = on_material ? &p->materials[c->material] : NULL;
    switch (c->target) {
    case UE_TARGET_TRANSLATION: if (on_node) set_floats(nodes[c->node].translation, v, 3); break;
    case UE_TARGET_ROTATION: if (on_node) set_floats(nodes[c->node].rotation, v, 4); break;
    case UE_TARGET_SCALE: if (on_node) set_floats(nodes[c->node].scale, v, 3); break;
    case UE_TARGET_VISIBILITY: if (on_node) nodes[c->node].hidden = !(v[0] > 0.5); break;
    case UE_TARGET_BASE_COLOR: if (m) set_floats(m->base_color, v, 4); break;
    case UE_TARGET_ALPHA: if (m) m->base_color[3] = (float)v[0]; break;
    case UE_TARGET_UV_OFFSET: if (on_slot) set_floats(m->transforms[c->slot].offset, v, 2); break;
    case UE_TARGET_UV_SCALE: if (on_slot) set_floats(m->transforms[c->slot].scale, v, 2); break;
    case UE_TARGET_UV_ROTATION: if (on_slot) m->transforms[c->slot].rotation = (float)v[0]; break;
    case UE_TARGET_TEXTURE_INDEX:
        if (on_slot && v[0] >= 0 && v[0] < (double)s->texture_count) m->textures[c->slot] = (int32_t)v[0];
        break;
    }
}

/* The clip's last frame: its recorded end, else its last key. */
static double clip_end_frame(const ue_scene_animation *a, double fps) {
    if (a->end_frame > a->start_frame) return (double)a->end_frame - a->start_frame;
    double last = 0;
    for (size_t i = 0; i < a->channel_count; i++)
        if (a->channels[i].key_count && a->channels[i].times)
            last = fmax(last, a->channels[i].times[a->channels[i].key_count - 1]);
    return last * fps;
}

static ue_result find_clip(const ue_scene *s, const char *clip, double frame, const ue_scene_animation **out,
                           double *seconds, ue_diag *d) {
    for (size_t i = 0; i < s->animation_count; i++) {
        const ue_scene_animation *a = &s->animations[i];
        if (strcmp(a->name, clip) != 0) continue;
        double fps = a->fps > 0 ? a->fps : DEFAULT_FPS, end = clip_end_frame(a, fps);
        if (!(frame >= 0 && frame <= end + 1e-9)) {
            ue_diag_add(d, UE_SEV_ERROR, "preview.frame", UE_NO_OFFSET, "animations",
                        "frame %g is outside the clip %s: it has frames 0 to %g (at %g fps)", frame, clip, end, fps);
            return UE_ERR_USAGE;
        }
        *out = a;
        *seconds = frame / fps;
        return UE_OK;
    }
    char names[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < s->animation_count && used + 80 < sizeof names; i++) {
        int n = snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "", s->animations[i].name);
        if (n > 0) used += (size_t)n;
    }
    ue_diag_add(d, UE_SEV_ERROR, "preview.clip", UE_NO_OFFSET, "animations", "no clip named '%s'; %s%s", clip,
                s->animation_count ? "the clips: " : "the model has no clip", names);
    return UE_ERR_USAGE;
}

/* World matrices and visibility of every node, each parent before its children whatever the
 * order of the table: a node is finished after its chain of unfinished ancestors. */
static ue_result finish_nodes(const ue_scene *s, const ue_scene_node *nodes, render_pose *p) {
    size_t n = s->node_count;
    uint8_t *done = calloc(n ? n : 1, 1);
    int32_t *chain = malloc((n ? n : 1) * sizeof *chain);
    ue_result r = done && chain ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < n; i++) {
        size_t len = 0;
        for (int32_t k = (int32_t)i; k >= 0; k = nodes[k].parent) {
            if ((size_t)k >= n || len == n) {
                r = UE_ERR_INVALID; /* a link out of range or a parent cycle: checked before indexing */
                break;
            }
            if (done[k]) break;
            chain[len++] = k;
        }
        while (r == UE_OK && len) {
            int32_t k = chain[--len], parent = nodes[k].parent;
            float local[16];
            ue_scene_local_matrix(&nodes[k], local);
            if (parent >= 0) ue_mat4_mul(p->world + 16 * (size_t)parent, local, p->world + 16 * (size_t)k);
            else memcpy(p->world + 16 * (size_t)k, local, sizeof local);
            p->visible[k] = !nodes[k].hidden && (parent < 0 || p->visible[parent]);
            done[k] = 1;
        }
    }
    free(done);
    free(chain);
    return r;
}

static void rest_materials(const ue_scene *s, render_material *out) {
    for (size_t i = 0; i < s->material_count; i++) {
        const ue_scene_material *m = &s->materials[i];
        memcpy(out[i].base_color, m->base_color, sizeof out[i].base_color);
        for (size_t k = 0; k < UE_MAX_TEXTURE_SLOTS; k++) {
            out[i].transforms[k] = m->slots[k].transform;
            out[i].textures[k] = k < m->slot_count ? m->slots[k].texture : -1;
        }
    }
}

ue_result render_pose_build(const ue_scene *s, const char *clip, double frame, render_pose *p, ue_diag *d) {
    memset(p, 0, sizeof *p);
    const ue_scene_animation *anim = NULL;
    double seconds = 0;
    if (clip) {
        ue_result r = find_clip(s, clip, frame, &anim, &seconds, d);
        if (r != UE_OK) return r;
    }
    size_t n = s->node_count ? s->node_count : 1;
    p->world = malloc(n * 16 * sizeof *p->world);
    p->visible = calloc(n, sizeof *p->visible);
    p->materials = calloc(s->material_count ? s->material_count : 1, sizeof *p->materials);
    ue_scene_node *nodes = malloc(n * sizeof *nodes);
    ue_result r = p->world && p->visible && p->materials && nodes ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) {
        if (s->node_count) memcpy(nodes, s->nodes, s->node_count * sizeof *nodes);
        rest_materials(s, p->materials);
        for (size_t i = 0; anim && i < anim->channel_count; i++) apply_channel(s, &anim->channels[i], seconds, nodes, p);
        r = finish_nodes(s, nodes, p);
        if (r == UE_ERR_INVALID)
            ue_diag_add(d, UE_SEV_ERROR, "preview.nodes", UE_NO_OFFSET, "nodes",
                        "a node's parent chain is a cycle or names a node out of range");
    }
    free(nodes);
    if (r != UE_OK) render_pose_free(p);
    return r;
}

void render_pose_free(render_pose *p) {
    free(p->world);
    free(p->visible);
    free(p->materials);
    memset(p, 0, sizeof *p);
}
