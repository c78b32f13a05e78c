/* unearth — glTF animations into IR clips: node TRS channels and the KHR_animation_pointer
 * targets the IR has (base colour, visibility, UV transform); LINEAR, STEP and CUBICSPLINE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/gltf_read_int.h"

/* What one channel drives, once its target is resolved. */
typedef struct anim_target {
    ue_anim_target target;
    int32_t node, material, slot;
} anim_target;

/* A decimal index with no leading zeros (RFC 6901) at *p, below limit; advances *p. */
static bool pointer_index(const char **p, size_t limit, int32_t *out) {
    const char *q = *p;
    uint64_t v = 0;
    if (*q < '0' || *q > '9' || (q[0] == '0' && q[1] >= '0' && q[1] <= '9')) return false;
    while (*q >= '0' && *q <= '9' && v < limit) v = v * 10 + (uint64_t)(*q++ - '0');
    if (v >= limit || (*q && *q != '/')) return false;
    *out = (int32_t)v;
    *p = q;
    return true;
}

static bool node_pointer(const char *p, size_t nodes, anim_target *t) {
    static const char *const trs[] = {"/translation", "/rotation", "/scale"};
    if (!pointer_index(&p, nodes, &t->node)) return false;
    for (int k = 0; k < 3; k++)
        if (strcmp(p, trs[k]) == 0) {
            t->target = (ue_anim_target)k;
            return true;
        }
    t->target = UE_TARGET_VISIBILITY;
    return strcmp(p, "/extensions/KHR_node_visibility/visible") == 0;
}

/* "/materials/M/<place>/extensions/KHR_texture_transform/<prop>" or the base colour factor. */
static bool material_pointer(const ue_scene *s, const char *p, anim_target *t) {
    static const struct { const char *place; ue_texture_role role; } places[] = {
        {"/pbrMetallicRoughness/baseColorTexture", UE_TEX_BASE_COLOR},
        {"/pbrMetallicRoughness/metallicRoughnessTexture", UE_TEX_METALLIC_ROUGHNESS},
        {"/normalTexture", UE_TEX_NORMAL}, {"/occlusionTexture", UE_TEX_OCCLUSION},
        {"/emissiveTexture", UE_TEX_EMISSIVE}};
    static const struct { const char *prop; ue_anim_target target; } props[] = {
        {"/extensions/KHR_texture_transform/offset", UE_TARGET_UV_OFFSET},
        {"/extensions/KHR_texture_transform/scale", UE_TARGET_UV_SCALE},
        {"/extensions/KHR_texture_transform/rotation", UE_TARGET_UV_ROTATION}};
    if (!pointer_index(&p, s->material_count, &t->material)) return false;
    t->target = UE_TARGET_BASE_COLOR;
    if (strcmp(p, "/pbrMetallicRoughness/baseColorFactor") == 0) return true;
    const ue_scene_material *m = &s->materials[t->material];
    for (size_t i = 0; i < sizeof places / sizeof *places; i++) {
        size_t n = strlen(places[i].place);
        if (strncmp(p, places[i].place, n) != 0) continue;
        for (size_t k = 0; k < sizeof props / sizeof *props; k++)
            if (strcmp(p + n, props[k].prop) == 0) {
                t->target = props[k].target;
                for (size_t sl = 0; sl < m->slot_count; sl++)
                    if (m->slots[sl].role == places[i].role) {
                        t->slot = (int32_t)sl;
                        return m->slots[sl].transform.enabled;
                    }
            }
    }
    return false;
}

/* The channel's target; false (with a warning, the channel left out) for one the IR lacks. */
static bool read_target(gr_ctx *c, const ue_jv *ch, const char *path, anim_target *t, bool *skip) {
    bool ok = true;
    char tp[96];
    snprintf(tp, sizeof tp, "%s/target", path);
    const ue_jv *tg = gr_object(c, ch, "target", path, &ok);
    const char *p, *ptr = NULL;
    *t = (anim_target){UE_TARGET_TRANSLATION, -1, -1, -1};
    if (!ok || !tg) return gr_fail(c, "gltf.json.missing", UE_NO_OFFSET, tp, "required");
    if (!gr_string(c, tg, "path", "", tp, &p) ||
        !gr_index(c, tg, "node", c->s->node_count, false, tp, &t->node))
        return false;
    if (strcmp(p, "weights") == 0)
        return gr_fail(c, "gltf.anim.weights", UE_NO_OFFSET, tp, "morph weights: not in the IR");
    if (strcmp(p, "pointer") == 0) {
        const ue_jv *ext = ue_jv_get(ue_jv_get(tg, "extensions"), "KHR_animation_pointer");
        ptr = ue_jv_string(ue_jv_get(ext, "pointer"));
        /* A tool that does not know the extension keeps the path and drops the pointer (gltf-transform):
         * a channel the client could not carry, left out like one with no IR target. */
        bool known = ptr && (strncmp(ptr, "/nodes/", 7) == 0 ? node_pointer(ptr + 7, c->s->node_count, t)
                             : strncmp(ptr, "/materials/", 11) == 0 && material_pointer(c->s, ptr + 11, t));
        if (!ptr)
            gr_warn(c, "gltf.anim.pointer", path, "pointer target without its KHR_animation_pointer pointer "
                    "(written by a tool that does not know the extension): channel left out");
        else if (!known)
            gr_warn(c, "gltf.anim.pointer", path, "pointer \"%.100s\" has no IR target: channel left out", ptr);
        *skip = !known;
        return true;
    }
    static const char *const trs[] = {"translation", "rotation", "scale"};
    if (t->node < 0) { /* glTF: a channel without a node is ignored */
        gr_warn(c, "gltf.anim.target", path, "a \"%.40s\" channel without a node (as a tool writes it after "
                "deleting the node) animates nothing: channel left out", p);
        *skip = true;
        return true;
    }
    for (int k = 0; k < 3; k++)
        if (strcmp(p, trs[k]) == 0 && t->node >= 0) {
            t->target = (ue_anim_target)k;
            return true;
        }
    return gr_fail(c, "gltf.anim.target", UE_NO_OFFSET, tp, "path \"%.40s\" with node %d", p, (int)t->node);
}

static bool check_times(gr_ctx *c, const gr_acc *in, const char *path) {
    for (uint32_t i = 0; i < in->count; i++)
        if (in->f[i] < 0 || (i > 0 && in->f[i] <= in->f[i - 1]))
            return gr_fail(c, "gltf.anim.times", UE_NO_OFFSET, path,
                           "key %u at %.9g s: times must be non-negative and strictly increasing",
                           i, (double)in->f[i]);
    return true;
}

static bool read_interp(gr_ctx *c, const ue_jv *smp, const char *sp, ue_interp *out) {
    const char *interp;
    if (!gr_string(c, smp, "interpolation", "LINEAR", sp, &interp)) return false;
    if (strcmp(interp, "LINEAR") == 0) *out = UE_INTERP_LINEAR;
    else if (strcmp(interp, "STEP") == 0) *out = UE_INTERP_STEP;
    else if (strcmp(interp, "CUBICSPLINE") == 0) *out = UE_INTERP_CUBIC;
    else return gr_fail(c, "gltf.anim.interpolation", UE_NO_OFFSET, sp, "\"%.40s\"", interp);
    return true;
}

/* The sampler's keys (input) and values (output), checked against the target's layout. */
static bool read_keys(gr_ctx *c, const ue_jv *smp, const char *sp, const anim_target *t, ue_interp ip,
                      gr_acc *in, gr_acc *out) {
    char ipath[96], opath[96];
    snprintf(ipath, sizeof ipath, "%s/input", sp);
    snprintf(opath, sizeof opath, "%s/output", sp);
    uint32_t comps = ue_anim_target_components(t->target), mult = ip == UE_INTERP_CUBIC ? 3 : 1;
    gr_acc_rule in_rule = {1u << 1, GR_CT(GR_FLOAT), false, false};
    gr_acc_rule out_rule = {1u << comps, GR_CT(GR_FLOAT) | GR_CT(GR_BYTE) | GR_CT(GR_UBYTE) |
                                              GR_CT(GR_SHORT) | GR_CT(GR_USHORT),
                            t->target != UE_TARGET_VISIBILITY, false};
    int32_t ia, oa;
    if (!gr_index(c, smp, "input", gr_accessor_count(c), true, sp, &ia) ||
        !gr_index(c, smp, "output", gr_accessor_count(c), true, sp, &oa) ||
        !gr_accessor(c, ia, ipath, &in_rule, in))
        return false;
    if (!check_times(c, in, ipath) || !gr_accessor(c, oa, opath, &out_rule, out)) return false;
    if (out->count != in->count * mult)
        return gr_fail(c, "gltf.anim.count", UE_NO_OFFSET, opath,
                       "%u output elements for %u keys (%u expected)", out->count, in->count,
                       in->count * mult);
    if (ip == UE_INTERP_CUBIC && in->count < 2)
        return gr_fail(c, "gltf.anim.count", UE_NO_OFFSET, ipath, "CUBICSPLINE with one key");
    if (t->target == UE_TARGET_VISIBILITY && ip != UE_INTERP_STEP)
        return gr_fail(c, "gltf.anim.interpolation", UE_NO_OFFSET, sp, "visibility must be STEP");
    return true;
}

static bool read_channel(gr_ctx *c, const ue_jv *anim, size_t a, int32_t ai, const ue_jv *ch, size_t k) {
    char path[96], sp[96];
    snprintf(path, sizeof path, "/animations/%zu/channels/%zu", a, k);
    anim_target t;
    bool skip = false;
    int32_t si;
    ue_interp ip = UE_INTERP_LINEAR;
    const ue_jv *samplers = ue_jv_get(anim, "samplers");
    if (!ue_jv_is(ch, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_index(c, ch, "sampler", ue_jv_items(samplers), true, path, &si) ||
        !read_target(c, ch, path, &t, &skip))
        return false;
    if (skip) return true;
    snprintf(sp, sizeof sp, "/animations/%zu/samplers/%d", a, (int)si);
    const ue_jv *smp = ue_jv_at(samplers, (size_t)si);
    if (!ue_jv_is(smp, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, sp, "expected an object");
    gr_acc in = {0}, out = {0};
    bool ok = read_interp(c, smp, sp, &ip) && read_keys(c, smp, sp, &t, ip, &in, &out);
    ue_anim_channel *dst = ok ? ue_scene_add_channel(c->s, ai, t.target, ip, in.count) : NULL;
    if (ok && !dst) ue_parse_fail(&c->pc, UE_ERR_NOMEM);
    if (dst) {
        memcpy(dst->times, in.f, (size_t)in.count * sizeof *in.f);
        memcpy(dst->values, out.f, (size_t)out.count * out.comps * sizeof *out.f);
        dst->node = t.node;
        dst->material = t.material;
        dst->slot = t.slot;
        ok = gr_extras(c, ch, path, &dst->source, NULL, NULL);
    }
    free(in.f);
    free(out.f);
    return ok && dst;
}

static bool read_animation(gr_ctx *c, const ue_jv *anim, size_t a) {
    char path[48], name[64];
    snprintf(path, sizeof path, "/animations/%zu", a);
    bool ok = true;
    if (!ue_jv_is(anim, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    const ue_jv *chans = gr_array(c, anim, "channels", path, &ok);
    gr_array(c, anim, "samplers", path, &ok);
    if (!ok || !gr_name(c, anim, path, name)) return false;
    int32_t ai = ue_scene_add_animation(c->s, name);
    if (ai < 0) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    ue_scene_animation *an = &c->s->animations[ai];
    if (!gr_extras(c, anim, path, &an->source, &an->extras, an)) return false;
    for (size_t k = 0; ok && k < ue_jv_items(chans); k++)
        ok = read_channel(c, anim, a, ai, ue_jv_at(chans, k), k);
    return ok;
}

bool gr_read_animations(gr_ctx *c) {
    bool ok = true;
    const ue_jv *anims = gr_array(c, c->root, "animations", "", &ok);
    for (size_t a = 0; ok && a < ue_jv_items(anims); a++)
        ok = read_animation(c, ue_jv_at(anims, a), a);
    return ok;
}
