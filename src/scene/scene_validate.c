/* unearth — scene IR validation: the reporters, names, extras, the node forest, animations,
 * materials and textures, and ue_scene_validate, which also runs the mesh checks. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "common/parse.h"
#include "common/text.h"
#include "common/write_pool.h"
#include "scene/scene_int.h"
#include "unearth/scene.h"
#include "unearth/advanced/buffers.h"

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void ue_scene_verr(vctx *v, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(v->d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
    v->errors++;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void ue_scene_vwarn(vctx *v, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(v->d, UE_SEV_WARNING, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
}

/* Reports the first non-finite value of an array (and how many there are), rather than
 * one diagnostic per value: a corrupt mesh would otherwise flood the list. */
void ue_scene_check_finite(vctx *v, const char *base, const char *what, const float *a, size_t n) {
    size_t bad = 0, first = 0;
    if (ue_floats_finite(a, n)) return;
    for (size_t i = 0; i < n; i++)
        if (!isfinite(a[i]) && bad++ == 0) first = i;
    if (bad) {
        char path[160];
        snprintf(path, sizeof path, "%s/%s[%zu]", base, what, first);
        ue_scene_verr(v, "scene.value.nonfinite", path, "%zu non-finite value(s) in %s", bad, what);
    }
}

bool ue_scene_name_ok(const char *name) { return memchr(name, 0, 64) != NULL; }

static void validate_extras(vctx *v, const ue_extras *x, const char *base) {
    if (x->count && !x->items) {
        ue_scene_verr(v, "scene.extras", base, "extras array is NULL while its count is not zero");
        return;
    }
    for (size_t i = 0; i < x->count; i++) {
        const ue_extra *e = &x->items[i];
        char path[200];
        snprintf(path, sizeof path, "%s/extras[%zu]", base, i);
        bool key_ok = memchr(e->key, 0, sizeof e->key) && e->key[0] &&
                      strcmp(e->key, "unearth_source") != 0 && strcmp(e->key, "unearth_clip") != 0 &&
                      strcmp(e->key, "fps") != 0 && strcmp(e->key, "unearth_textures") != 0;
        if (!key_ok) {
            ue_scene_verr(v, "scene.extras.key", path, "empty, unterminated or reserved key");
            continue;
        }
        if ((unsigned)e->kind > UE_EXTRA_STRING ||
            (e->kind == UE_EXTRA_NUMBER && !isfinite(e->number)) ||
            (e->kind == UE_EXTRA_STRING && !memchr(e->text, 0, sizeof e->text)))
            ue_scene_verr(v, "scene.extras.value", path, "unknown kind, non-finite number or "
                 "unterminated string");
        for (size_t k = 0; k < i; k++)
            if (strncmp(x->items[k].key, e->key, sizeof e->key) == 0) {
                ue_scene_verr(v, "scene.extras.key", path, "key \"%s\" given twice", e->key);
                break;
            }
    }
}


static void validate_nodes(vctx *v, const ue_scene *s) {
    /* 0 = unvisited, 1 = on the current parent walk, 2 = known to reach a root */
    uint8_t *state = ue_calloc_items(s->node_count, 1);
    if (!state) {
        ue_scene_verr(v, "scene.nomem", "scene/nodes", "out of memory while validating");
        return;
    }
    for (size_t i = 0; i < s->node_count; i++) {
        const ue_scene_node *n = &s->nodes[i];
        char path[160];
        snprintf(path, sizeof path, "scene/nodes[%zu]", i);
        if (!ue_scene_name_ok(n->name)) ue_scene_verr(v, "scene.name", path, "name is not NUL-terminated");
        validate_extras(v, &n->extras, path);
        if (n->parent < -1 || n->parent >= (int64_t)s->node_count) {
            ue_scene_verr(v, "scene.node.parent", path, "parent %d out of range (%zu nodes)",
                 (int)n->parent, s->node_count);
            state[i] = 2; /* do not walk through it */
            v->forest_ok = false;
        }
        if (n->mesh < -1 || n->mesh >= (int64_t)s->mesh_count)
            ue_scene_verr(v, "scene.node.mesh", path, "mesh %d out of range (%zu meshes)", (int)n->mesh,
                 s->mesh_count);
        if (n->skin < -1 || n->skin >= (int64_t)s->skin_count)
            ue_scene_verr(v, "scene.node.skin", path, "skin %d out of range (%zu skins)", (int)n->skin,
                 s->skin_count);
        float trs[10];
        memcpy(trs, n->translation, 12);
        memcpy(trs + 3, n->rotation, 16);
        memcpy(trs + 7, n->scale, 12);
        ue_scene_check_finite(v, path, "trs", trs, 10);
        double q = 0;
        for (int k = 0; k < 4; k++) q += (double)n->rotation[k] * n->rotation[k];
        if (isfinite(q) && q < 1e-12)
            ue_scene_verr(v, "scene.node.rotation", path, "rotation quaternion has zero length");
    }
    /* Cycle detection: walk each parent chain, marking the walk; meeting a node of the current
     * walk is a cycle, meeting a finished node ends the walk early (linear overall). */
    for (size_t i = 0; i < s->node_count; i++) {
        if (state[i]) continue;
        size_t cur = i;
        bool cycle = false;
        for (;;) {
            if (state[cur] == 2) break;
            if (state[cur] == 1) {
                cycle = true;
                break;
            }
            state[cur] = 1;
            int32_t p = s->nodes[cur].parent;
            if (p < 0) break;
            cur = (size_t)p;
        }
        if (cycle) {
            char path[160];
            snprintf(path, sizeof path, "scene/nodes[%zu]/parent", cur);
            ue_scene_verr(v, "scene.node.cycle", path, "parent links form a cycle through node %zu", cur);
            v->forest_ok = false;
        }
        for (size_t k = i;;) { /* mark the walk finished; a cycle is reported only once */
            if (state[k] == 2) break;
            state[k] = 2;
            int32_t p = s->nodes[k].parent;
            if (p < 0) break;
            k = (size_t)p;
        }
    }
    free(state);
}

/* The object a channel drives exists: a node for node targets, a material (and one of its
 * slots for UV and texture-index targets) for the others. */
static void validate_channel_target(vctx *v, const ue_scene *s, const ue_anim_channel *ch,
                                    const char *base) {
    bool node_target = ch->target <= UE_TARGET_VISIBILITY;
    bool slot_target = ch->target >= UE_TARGET_UV_OFFSET;
    if (node_target) {
        if (ch->node < 0 || ch->node >= (int64_t)s->node_count)
            ue_scene_verr(v, "scene.anim.node", base, "target node %d out of range", (int)ch->node);
        else if (s->nodes[ch->node].skin >= 0 && ch->target != UE_TARGET_VISIBILITY)
            ue_scene_vwarn(v, "scene.anim.skinned_node", base,
                  "animating the skinned mesh node %d has no effect in glTF", (int)ch->node);
        return;
    }
    if (ch->material < 0 || ch->material >= (int64_t)s->material_count) {
        ue_scene_verr(v, "scene.anim.material", base, "target material %d out of range",
             (int)ch->material);
        return;
    }
    const ue_scene_material *m = &s->materials[ch->material];
    if (slot_target && (ch->slot < 0 || (size_t)ch->slot >= m->slot_count))
        ue_scene_verr(v, "scene.anim.slot", base, "material %d has no texture slot %d",
             (int)ch->material, (int)ch->slot);
}

/* Key times: finite, non-negative, strictly increasing. */
static void validate_times(vctx *v, const ue_anim_channel *ch, const char *base) {
    char path[160];
    ue_scene_check_finite(v, base, "times", ch->times, ch->key_count);
    for (size_t k = 0; k < ch->key_count; k++) {
        if (ch->times[k] < 0) {
            snprintf(path, sizeof path, "%s/times[%zu]", base, k);
            ue_scene_verr(v, "scene.anim.time", path, "negative time %g", (double)ch->times[k]);
            return;
        }
        if (k && !(ch->times[k] > ch->times[k - 1])) {
            snprintf(path, sizeof path, "%s/times[%zu]", base, k);
            ue_scene_verr(v, "scene.anim.time", path, "times not strictly increasing (%g after %g)",
                 (double)ch->times[k], (double)ch->times[k - 1]);
            return;
        }
    }
}

/* Values: finite, non-zero rotation keys, whole texture indices in range. */
static void validate_values(vctx *v, const ue_scene *s, const ue_anim_channel *ch,
                            const char *base) {
    char path[160];
    size_t per = ch->interpolation == UE_INTERP_CUBIC ? 3 : 1;
    size_t nv = (size_t)ch->key_count * ch->components * per;
    ue_scene_check_finite(v, base, "values", ch->values, nv);
    if (ch->target == UE_TARGET_ROTATION)
        for (size_t k = 0; k < ch->key_count; k++) {
            const float *q = ch->values + (k * per + (per == 3 ? 1 : 0)) * 4;
            double l = (double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                       (double)q[3] * q[3];
            if (isfinite(l) && l < 1e-12) {
                snprintf(path, sizeof path, "%s/values[%zu]", base, k);
                ue_scene_verr(v, "scene.anim.rotation", path, "zero-length rotation key");
                return;
            }
        }
    if (ch->target == UE_TARGET_TEXTURE_INDEX)
        for (size_t k = 0; k < ch->key_count; k++) {
            float t = ch->values[k];
            if (!(t >= 0 && t < (float)s->texture_count && t == floorf(t))) {
                snprintf(path, sizeof path, "%s/values[%zu]", base, k);
                ue_scene_verr(v, "scene.anim.texture", path, "texture index %g is not one of %zu textures",
                     (double)t, s->texture_count);
                return;
            }
        }
}

static bool same_target(const ue_anim_channel *a, const ue_anim_channel *b) {
    return a->target == b->target && a->node == b->node && a->material == b->material &&
           a->slot == b->slot;
}

/* A channel's target (what same_target compares), hashed. */
static uint64_t target_hash(const ue_anim_channel *ch) {
    uint64_t h = (uint64_t)(uint32_t)ch->target * 0x9E3779B97F4A7C15u;
    h ^= (uint64_t)(uint32_t)ch->node * 0xC2B2AE3D27D4EB4Fu;
    h ^= (uint64_t)(uint32_t)ch->material * 0x165667B19E3779F9u;
    h ^= (uint64_t)(uint32_t)ch->slot * 0x27D4EB2F165667C5u;
    return h ^ (h >> 29);
}

/* The first channel of the animation with each channel's target: first[c] == c for the first
 * of its target, else the earlier one glTF's rule against two channels on one property names.
 * A hash table of the targets seen, so a clip of thousands of channels is checked in linear
 * time; NULL for no memory (validate_channel then walks the earlier channels). */
static size_t *first_same_targets(const ue_scene_animation *an) {
    size_t n = an->channel_count, cap = 16;
    if (n > SIZE_MAX / 4) return NULL;
    while (cap < 2 * n) cap *= 2;
    size_t *first = ue_malloc_items(n ? n : 1, sizeof *first);
    size_t *slot = ue_malloc_items(cap, sizeof *slot); /* channel index + 1, 0: empty */
    if (!first || !slot) {
        free(first), free(slot);
        return NULL;
    }
    memset(slot, 0, cap * sizeof *slot);
    for (size_t c = 0; c < n; c++) {
        size_t at = (size_t)target_hash(&an->channels[c]) & (cap - 1);
        while (slot[at] && !same_target(&an->channels[slot[at] - 1], &an->channels[c])) at = (at + 1) & (cap - 1);
        if (!slot[at]) slot[at] = c + 1;
        first[c] = slot[at] - 1;
    }
    free(slot);
    return first;
}

static void validate_channel(vctx *v, const ue_scene *s, const ue_scene_animation *an,
                             size_t c, const size_t *first_same, const char *base) {
    const ue_anim_channel *ch = &an->channels[c];
    uint32_t want = ue_anim_target_components(ch->target);
    if (want == 0) {
        ue_scene_verr(v, "scene.anim.target", base, "unknown target %d", (int)ch->target);
        return;
    }
    if ((unsigned)ch->interpolation > UE_INTERP_CUBIC) {
        ue_scene_verr(v, "scene.anim.interp", base, "unknown interpolation %d", (int)ch->interpolation);
        return;
    }
    bool discrete = ch->target == UE_TARGET_VISIBILITY || ch->target == UE_TARGET_TEXTURE_INDEX;
    if (discrete && ch->interpolation != UE_INTERP_STEP)
        ue_scene_verr(v, "scene.anim.interp", base, "visibility and texture-index keys must be STEP");
    validate_channel_target(v, s, ch, base);
    if (ch->components != want) {
        ue_scene_verr(v, "scene.anim.components", base, "%u components, the target needs %u",
             (unsigned)ch->components, (unsigned)want);
        return;
    }
    if (ch->key_count == 0 || !ch->times || !ch->values) {
        ue_scene_verr(v, "scene.anim.keys", base, "channel has no keys");
        return;
    }
    if (ch->key_count > UE_SCENE_MAX_VERTICES) {
        ue_scene_verr(v, "scene.anim.keys", base, "%u keys exceed the cap", (unsigned)ch->key_count);
        return;
    }
    if (ch->interpolation == UE_INTERP_CUBIC && ch->key_count < 2)
        ue_scene_verr(v, "scene.anim.keys", base, "cubic spline needs at least 2 keys");
    validate_times(v, ch, base);
    validate_values(v, s, ch, base);
    /* glTF forbids two channels of one animation driving the same property. */
    size_t c2 = 0;
    if (first_same) c2 = first_same[c];
    else
        while (c2 < c && !same_target(&an->channels[c2], ch)) c2++;
    if (c2 < c) ue_scene_verr(v, "scene.anim.duplicate", base, "same target as channel %zu", c2);
}

static void validate_clip(vctx *v, const ue_scene_animation *an, const char *base) {
    if (!ue_scene_name_ok(an->name)) ue_scene_verr(v, "scene.name", base, "name is not NUL-terminated");
    float meta[3] = {an->fps, an->start_frame, an->end_frame};
    ue_scene_check_finite(v, base, "clip", meta, 3);
    if (an->fps < 0) ue_scene_verr(v, "scene.anim.fps", base, "negative frame rate %g", (double)an->fps);
    if (an->end_frame < an->start_frame)
        ue_scene_verr(v, "scene.anim.range", base, "end frame %g before start frame %g",
             (double)an->end_frame, (double)an->start_frame);
}

static void validate_animation(vctx *v, const ue_scene *s, size_t a) {
    const ue_scene_animation *an = &s->animations[a];
    char base[160];
    snprintf(base, sizeof base, "scene/animations[%zu]", a);
    validate_clip(v, an, base);
    validate_extras(v, &an->extras, base);
    if (an->channel_count && !an->channels) {
        ue_scene_verr(v, "scene.array", base, "channels NULL while the count is not zero");
        return;
    }
    size_t *first_same = first_same_targets(an);
    for (size_t c = 0; c < an->channel_count; c++) {
        ue_text_indexed(base, sizeof base, "scene/animations[", a, "]/channels[", c, "]");
        validate_channel(v, s, an, c, first_same, base);
    }
    free(first_same);
}

/* A scene of many clips (each key checked) has them checked on every processor, each clip's
 * reports apart, then added in clip order: the report does not depend on the threads. */
#define CHANNELS_APART 512u

typedef struct clip_checks {
    const ue_scene *s;
    ue_diag *diag;  /* one per animation */
    size_t *errors;
} clip_checks;

static void check_one_clip(void *ctx, size_t a) {
    clip_checks *cc = ctx;
    vctx v = {&cc->diag[a], 0, true};
    validate_animation(&v, cc->s, a);
    cc->errors[a] = v.errors;
}

static bool validate_animations_apart(vctx *v, const ue_scene *s) {
    size_t channels = 0, n = s->animation_count;
    for (size_t a = 0; a < n; a++) channels += s->animations[a].channel_count;
    if (channels < CHANNELS_APART || n < 2 || ue_cpu_count() < 2 || !v->d) return false;
    clip_checks cc = {s, ue_calloc_items(n, sizeof *cc.diag), ue_calloc_items(n, sizeof *cc.errors)};
    bool ok = cc.diag && cc.errors;
    if (ok) {
        ue_parallel_for(n, ue_cpu_count(), check_one_clip, &cc);
        for (size_t a = 0; a < n; a++) ue_diag_replay(v->d, &cc.diag[a]), v->errors += cc.errors[a];
    }
    for (size_t a = 0; cc.diag && a < n; a++) ue_diag_free(&cc.diag[a]);
    free(cc.diag), free(cc.errors);
    return ok;
}

static void validate_animations(vctx *v, const ue_scene *s) {
    if (validate_animations_apart(v, s)) return;
    for (size_t a = 0; a < s->animation_count; a++) validate_animation(v, s, a);
}

static void validate_slot(vctx *v, const ue_scene *s, const ue_texture_slot *sl,
                          const char *path) {
    if ((unsigned)sl->role > UE_TEX_OTHER)
        ue_scene_verr(v, "scene.material.role", path, "unknown texture role %d", (int)sl->role);
    if (sl->texture < 0 || sl->texture >= (int64_t)s->texture_count)
        ue_scene_verr(v, "scene.material.texture", path, "texture %d out of range (%zu textures)",
             (int)sl->texture, s->texture_count);
    if (sl->uv_set >= UE_MAX_UV_SETS)
        ue_scene_verr(v, "scene.material.uv_set", path, "uv set %u out of range (%d sets)",
             (unsigned)sl->uv_set, UE_MAX_UV_SETS);
    validate_extras(v, &sl->extras, path);
    const ue_uv_transform *t = &sl->transform;
    float f[6] = {sl->strength, t->offset[0], t->offset[1], t->rotation, t->scale[0], t->scale[1]};
    ue_scene_check_finite(v, path, "transform", f, 6);
}

static void validate_material(vctx *v, const ue_scene *s, size_t i) {
    const ue_scene_material *m = &s->materials[i];
    char path[160];
    snprintf(path, sizeof path, "scene/materials[%zu]", i);
    if (!ue_scene_name_ok(m->name)) ue_scene_verr(v, "scene.name", path, "name is not NUL-terminated");
    float f[10] = {m->base_color[0], m->base_color[1], m->base_color[2], m->base_color[3],
                   m->metallic,      m->roughness,     m->emissive[0],   m->emissive[1],
                   m->emissive[2],   m->alpha_cutoff};
    ue_scene_check_finite(v, path, "factors", f, 10);
    for (int k = 0; k < 9; k++)
        if (f[k] < 0.0f || f[k] > 1.0f) {
            ue_scene_verr(v, "scene.material.range", path,
                 "base colour / metallic / roughness / emissive factors must lie in [0, 1]");
            break;
        }
    if (m->alpha_cutoff < 0.0f)
        ue_scene_verr(v, "scene.material.cutoff", path, "alpha cutoff is negative");
    if ((unsigned)m->alpha_mode > UE_ALPHA_BLEND)
        ue_scene_verr(v, "scene.material.alpha", path, "unknown alpha mode %d", (int)m->alpha_mode);
    if (m->slot_count > UE_MAX_TEXTURE_SLOTS) {
        ue_scene_verr(v, "scene.material.slots", path, "%zu texture slots (at most %d)", m->slot_count,
             UE_MAX_TEXTURE_SLOTS);
        return;
    }
    for (size_t k = 0; k < m->slot_count; k++) {
        char sp[200];
        snprintf(sp, sizeof sp, "%s/slots[%zu]", path, k);
        validate_slot(v, s, &m->slots[k], sp);
    }
    validate_extras(v, &m->extras, path);
}

ue_result ue_scene_validate(const ue_scene *s, ue_diag *d) {
    vctx v = {d, 0, true};
    if (!s) return UE_ERR_USAGE;
    if ((s->node_count && !s->nodes) || (s->mesh_count && !s->meshes) ||
        (s->material_count && !s->materials) || (s->texture_count && !s->textures) ||
        (s->skin_count && !s->skins) || (s->animation_count && !s->animations)) {
        ue_scene_verr(&v, "scene.array", "scene", "an array is NULL while its count is not zero");
        return UE_ERR_INVALID;
    }
    if (!ue_scene_name_ok(s->name)) ue_scene_verr(&v, "scene.name", "scene", "name is not NUL-terminated");
    validate_nodes(&v, s);
    for (size_t i = 0; i < s->mesh_count; i++) {
        const ue_scene_mesh *m = &s->meshes[i];
        char path[160];
        snprintf(path, sizeof path, "scene/meshes[%zu]", i);
        if (!ue_scene_name_ok(m->name)) ue_scene_verr(&v, "scene.name", path, "name is not NUL-terminated");
        validate_extras(&v, &m->extras, path);
        if (m->primitive_count == 0 || !m->primitives) {
            ue_scene_verr(&v, "scene.mesh.empty", path, "mesh has no primitives");
            continue;
        }
        for (size_t p = 0; p < m->primitive_count; p++) ue_scene_validate_primitive(&v, s, i, p);
    }
    for (size_t i = 0; i < s->material_count; i++) validate_material(&v, s, i);
    for (size_t i = 0; i < s->texture_count; i++) {
        const ue_scene_texture *t = &s->textures[i];
        char path[160];
        snprintf(path, sizeof path, "scene/textures[%zu]", i);
        if (!ue_scene_name_ok(t->name)) ue_scene_verr(&v, "scene.name", path, "name is not NUL-terminated");
        if (!t->rgba || t->width == 0 || t->height == 0 || t->width > UE_SCENE_MAX_TEXTURE_SIDE ||
            t->height > UE_SCENE_MAX_TEXTURE_SIDE)
            ue_scene_verr(&v, "scene.texture.size", path, "texture %ux%u has no pixels or is too large",
                 (unsigned)t->width, (unsigned)t->height);
        if ((unsigned)t->wrap_s > UE_WRAP_MIRROR || (unsigned)t->wrap_t > UE_WRAP_MIRROR)
            ue_scene_verr(&v, "scene.texture.wrap", path, "unknown wrap mode");
    }
    ue_scene_validate_skins(&v, s);
    ue_scene_validate_instancing(&v, s);
    validate_animations(&v, s);
    return v.errors ? UE_ERR_INVALID : UE_OK;
}
