/* unearth — the JSON side of the glTF writer: materials, animations and extras, then the
 * document streamed one top-level property per function in a fixed key order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/gltf_exporter.h"
#include "unearth/image.h"
#include "common/json_writer.h"
#include "common/io.h"
#include "common/write_pool.h"
#include "unearth/advanced/buffers.h"

/* strnlen is POSIX, not C11: the length of a fixed-size name field that may lack its NUL. */
static size_t bounded_len(const char *s, size_t max) {
    const char *z = memchr(s, 0, max);
    return z ? (size_t)(z - s) : max;
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void key_int(ue_json *j, const char *k, int64_t v) {
    ue_json_key(j, k);
    ue_json_int(j, v);
}
static void key_str(ue_json *j, const char *k, const char *v) {
    ue_json_key(j, k);
    ue_json_string(j, v);
}
static void key_floats(ue_json *j, const char *k, const float *v, size_t n) {
    ue_json_key(j, k);
    ue_json_array_begin(j);
    for (size_t i = 0; i < n; i++) ue_json_float(j, v[i]);
    ue_json_array_end(j);
}
static void key_name(ue_json *j, const char *name) {
    size_t n = bounded_len(name, 64);
    if (n == 0) return;
    ue_json_key(j, "name");
    ue_json_string_n(j, name, n);
}

static bool clip_has_meta(const ue_scene_animation *an) {
    return an->fps > 0 || an->loop || an->end_frame > an->start_frame;
}

static void write_source(ue_json *j, const ue_source_id *src) {
    ue_json_key(j, "unearth_source");
    ue_json_object_begin(j);
    ue_json_key(j, "format");
    ue_json_string_n(j, src->format, bounded_len(src->format, sizeof src->format));
    key_int(j, "type", src->type);
    if (src->offset != UINT64_MAX) {
        ue_json_key(j, "offset");
        ue_json_uint(j, src->offset);
    }
    key_int(j, "index", src->index);
    ue_json_object_end(j);
}

static void write_clip(ue_json *j, const ue_scene_animation *an) {
    ue_json_key(j, "unearth_clip");
    ue_json_object_begin(j);
    if (an->fps > 0) {
        ue_json_key(j, "fps");
        ue_json_float(j, an->fps);
    }
    ue_json_key(j, "start_frame");
    ue_json_float(j, an->start_frame);
    ue_json_key(j, "end_frame");
    ue_json_float(j, an->end_frame);
    ue_json_key(j, "loop");
    ue_json_bool(j, an->loop);
    ue_json_object_end(j);
}

/* Whole numbers below 2^53 are written as integers, so ids and flags keep every digit. */
static void write_user_extras(ue_json *j, const ue_extras *x) {
    for (size_t i = 0; i < x->count; i++) {
        const ue_extra *it = &x->items[i];
        ue_json_key(j, it->key);
        if (it->kind == UE_EXTRA_STRING) ue_json_string(j, it->text);
        else if (it->number == floor(it->number) && fabs(it->number) < 9007199254740992.0)
            ue_json_int(j, (int64_t)it->number);
        else ue_json_float(j, it->number);
    }
}

static void write_transform(ue_json *j, const char *key, const ue_texture_slot *sl) {
    const ue_uv_transform *t = &sl->transform;
    ue_json_key(j, key);
    ue_json_object_begin(j);
    key_floats(j, "offset", t->offset, 2);
    ue_json_key(j, "rotation");
    ue_json_float(j, t->rotation);
    key_floats(j, "scale", t->scale, 2);
    if (sl->uv_set && !sl->generated) key_int(j, "texCoord", sl->uv_set);
    ue_json_object_end(j);
}

/* extras.unearth_textures: the slots glTF has no place for (docs/gltf-output.md), each with its
 * texture, role, UV set or "generated", transform and the reader's notes, for a script to wire. */
static void write_extra_slots(ue_json *j, const ue_scene_material *m) {
    static const char *const roles[] = {"baseColor", "normal",     "emissive", "occlusion",
                                        "metallicRoughness", "specular", "reflection", "other"};
    ue_json_key(j, "unearth_textures");
    ue_json_array_begin(j);
    for (size_t k = 0; k < m->slot_count && k < UE_MAX_TEXTURE_SLOTS; k++) {
        const ue_texture_slot *sl = &m->slots[k];
        if (ue_gltf_slot_location(m, k)) continue;
        ue_json_object_begin(j);
        key_int(j, "index", sl->texture);
        key_str(j, "role", (unsigned)sl->role <= UE_TEX_OTHER ? roles[sl->role] : "other");
        if (sl->generated) {
            ue_json_key(j, "generated");
            ue_json_bool(j, true);
        } else {
            key_int(j, "texCoord", sl->uv_set);
        }
        if (sl->transform.enabled) write_transform(j, "transform", sl);
        write_user_extras(j, &sl->extras);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

/* "extras": the source id (unless no_extras), clip metadata, a material's slots without a glTF
 * place (e->extra_slots_of), then the reader's own pairs. */
static void write_extras_full(exporter *e, ue_json *j, const ue_source_id *src,
                              const ue_extras *x, const ue_scene_animation *clip) {
    bool source = !e->o->no_extras && src && src->format[0] != 0;
    bool meta = clip && clip_has_meta(clip);
    bool user = x && x->count;
    bool slots = e->extra_slots_of != NULL;
    if (!source && !meta && !user && !slots) return;
    ue_json_key(j, "extras");
    ue_json_object_begin(j);
    if (source) write_source(j, src);
    if (meta) write_clip(j, clip);
    if (slots) write_extra_slots(j, e->extra_slots_of);
    if (meta && clip->fps > 0) { /* the clip's frame rate where every reader looks: extras.fps */
        ue_json_key(j, "fps");
        ue_json_float(j, clip->fps);
    }
    if (user) write_user_extras(j, x);
    ue_json_object_end(j);
}

static void write_extras(exporter *e, ue_json *j, const ue_source_id *src) {
    write_extras_full(e, j, src, NULL, NULL);
}

static bool material_has_transform(const ue_scene_material *m) {
    for (size_t k = 0; k < m->slot_count; k++)
        if (m->slots[k].transform.enabled && ue_gltf_slot_location(m, k)) return true;
    return false;
}

static bool material_has_extra_slots(const ue_scene_material *m) {
    for (size_t k = 0; k < m->slot_count && k < UE_MAX_TEXTURE_SLOTS; k++)
        if (!ue_gltf_slot_location(m, k)) return true;
    return false;
}

static bool animation_written(const exporter *e, size_t a) {
    for (size_t c = 0; c < e->s->animations[a].channel_count; c++)
        if (e->plans[e->chan_base[a] + c].sampler >= 0) return true;
    return false;
}

/* Percent-encodes everything outside RFC 3986 unreserved/sub-delims and '/', so a file name
 * with spaces or non-ASCII bytes is still a valid relative URI reference. `out` holds
 * 3 * strlen(in) + 1 bytes: every byte fits, however long the name. */
static void uri_encode(const char *in, char *out) {
    static const char hex[] = "0123456789ABCDEF";
    size_t w = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        unsigned char c = *p;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            strchr("-._~!$&'()*+,;=@/", c)) {
            out[w++] = (char)c;
        } else {
            out[w++] = '%';
            out[w++] = hex[c >> 4];
            out[w++] = hex[c & 15];
        }
    }
    out[w] = 0;
}

/* "uri": the file name percent-encoded whole (out of memory, the JSON is marked failed). */
static void key_uri(ue_json *j, const char *file) {
    size_t len = strlen(file);
    char *uri = len < SIZE_MAX / 3 ? malloc(3 * len + 1) : NULL;
    if (!uri) {
        j->error = "out of memory";
        return;
    }
    uri_encode(file, uri);
    key_str(j, "uri", uri);
    free(uri);
}

static const char *type_name(uint32_t ncomp) {
    switch (ncomp) {
    case 1: return "SCALAR";
    case 2: return "VEC2";
    case 3: return "VEC3";
    case 4: return "VEC4";
    case 16: return "MAT4";
    default: return "SCALAR";
    }
}

/* A slot's textureInfo; the UV set goes to texCoord, and to KHR_texture_transform's own
 * texCoord as well, since that one overrides the textureInfo's when present. */
static void write_texture_info(ue_json *j, const char *key, const ue_texture_slot *sl) {
    ue_json_key(j, key);
    ue_json_object_begin(j);
    key_int(j, "index", sl->texture);
    if (sl->uv_set) key_int(j, "texCoord", sl->uv_set);
    if (sl->role == UE_TEX_NORMAL && sl->strength != 1.0f) {
        ue_json_key(j, "scale");
        ue_json_float(j, sl->strength);
    }
    if (sl->role == UE_TEX_OCCLUSION && sl->strength != 1.0f) {
        ue_json_key(j, "strength");
        ue_json_float(j, sl->strength);
    }
    if (sl->transform.enabled) {
        ue_json_key(j, "extensions");
        ue_json_object_begin(j);
        write_transform(j, "KHR_texture_transform", sl);
        ue_json_object_end(j);
    }
    if (sl->extras.count) {
        ue_json_key(j, "extras");
        ue_json_object_begin(j);
        write_user_extras(j, &sl->extras);
        ue_json_object_end(j);
    }
    ue_json_object_end(j);
}

/* The slot the exporter writes for `role` (the first one of that role), or NULL. */
static const ue_texture_slot *slot_for(const ue_scene_material *m, ue_texture_role role) {
    for (size_t k = 0; k < m->slot_count; k++)
        if (m->slots[k].role == role) return ue_gltf_slot_location(m, k) ? &m->slots[k] : NULL;
    return NULL;
}

static void write_material(exporter *e, ue_json *j, const ue_scene_material *m) {
    ue_json_object_begin(j);
    key_name(j, m->name);
    ue_json_key(j, "pbrMetallicRoughness");
    ue_json_object_begin(j);
    /* All factors are written even at their defaults: animation pointers target them
     * and readers should not need to know glTF's defaults to see the material. */
    key_floats(j, "baseColorFactor", m->base_color, 4);
    const ue_texture_slot *sl = slot_for(m, UE_TEX_BASE_COLOR);
    if (sl) write_texture_info(j, "baseColorTexture", sl);
    sl = slot_for(m, UE_TEX_METALLIC_ROUGHNESS);
    if (sl) write_texture_info(j, "metallicRoughnessTexture", sl);
    ue_json_key(j, "metallicFactor");
    ue_json_float(j, m->metallic);
    ue_json_key(j, "roughnessFactor");
    ue_json_float(j, m->roughness);
    ue_json_object_end(j);
    if ((sl = slot_for(m, UE_TEX_NORMAL))) write_texture_info(j, "normalTexture", sl);
    if ((sl = slot_for(m, UE_TEX_OCCLUSION))) write_texture_info(j, "occlusionTexture", sl);
    if ((sl = slot_for(m, UE_TEX_EMISSIVE))) write_texture_info(j, "emissiveTexture", sl);
    if (m->emissive[0] != 0 || m->emissive[1] != 0 || m->emissive[2] != 0)
        key_floats(j, "emissiveFactor", m->emissive, 3);
    if (m->alpha_mode == UE_ALPHA_MASK) {
        key_str(j, "alphaMode", "MASK");
        ue_json_key(j, "alphaCutoff");
        ue_json_float(j, m->alpha_cutoff);
    } else if (m->alpha_mode == UE_ALPHA_BLEND) {
        key_str(j, "alphaMode", "BLEND");
    }
    if (m->double_sided) {
        ue_json_key(j, "doubleSided");
        ue_json_bool(j, true);
    }
    if (m->unlit) {
        ue_json_key(j, "extensions");
        ue_json_object_begin(j);
        ue_json_key(j, "KHR_materials_unlit");
        ue_json_object_begin(j);
        ue_json_object_end(j);
        ue_json_object_end(j);
    }
    e->extra_slots_of = material_has_extra_slots(m) ? m : NULL;
    write_extras_full(e, j, &m->source, &m->extras, NULL);
    e->extra_slots_of = NULL;
    ue_json_object_end(j);
}

static void write_channel_target(ue_json *j, const ue_anim_channel *ch, const chan_plan *pl) {
    static const char *const paths[] = {"translation", "rotation", "scale"};
    ue_json_key(j, "target");
    ue_json_object_begin(j);
    if (pl->form == UE_GLTF_CHANNEL_POINTER) {
        key_str(j, "path", "pointer");
        ue_json_key(j, "extensions");
        ue_json_object_begin(j);
        ue_json_key(j, "KHR_animation_pointer");
        ue_json_object_begin(j);
        key_str(j, "pointer", pl->pointer);
        ue_json_object_end(j);
        ue_json_object_end(j);
    } else {
        key_int(j, "node", ch->node);
        key_str(j, "path", paths[ch->target]);
    }
    ue_json_object_end(j);
}

static void write_animation(exporter *e, ue_json *j, size_t a) {
    static const char *const interp[] = {"LINEAR", "STEP", "CUBICSPLINE"};
    const ue_scene_animation *an = &e->s->animations[a];
    const chan_plan *plans = &e->plans[e->chan_base[a]];
    ue_json_object_begin(j);
    key_name(j, an->name);
    ue_json_key(j, "channels");
    ue_json_array_begin(j);
    for (size_t c = 0; c < an->channel_count; c++) {
        if (plans[c].sampler < 0) continue;
        ue_json_object_begin(j);
        key_int(j, "sampler", plans[c].sampler);
        write_channel_target(j, &an->channels[c], &plans[c]);
        write_extras(e, j, &an->channels[c].source);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    ue_json_key(j, "samplers");
    ue_json_array_begin(j);
    for (size_t c = 0; c < an->channel_count; c++) {
        if (plans[c].sampler < 0) continue;
        const sampler_acc *sa = &e->samplers[e->chan_base[a] + c];
        ue_json_object_begin(j);
        key_int(j, "input", sa->input);
        key_str(j, "interpolation", interp[an->channels[c].interpolation]);
        key_int(j, "output", sa->output);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    write_extras_full(e, j, &an->source, &an->extras, an);
    ue_json_object_end(j);
}

/* ---- the glTF JSON, one top-level property per function, in the order they are written ---- */

/* "key": [ — every top-level list and most nested ones open this way. */
static void key_array_begin(ue_json *j, const char *k) {
    ue_json_key(j, k);
    ue_json_array_begin(j);
}

/* A LOD or group: its number, or "all". */
static void key_choice(ue_json *j, const char *k, int v) {
    if (v == UE_SELECTION_ALL) key_str(j, k, "all");
    else key_int(j, k, v);
}

/* asset.extras.unearth_selection: what the scene was converted from and with which options,
 * so that `import --base` need not guess (docs/gltf-output.md#asset). */
static void write_selection(ue_json *j, const ue_scene_selection *sel) {
    ue_json_key(j, "extras");
    ue_json_object_begin(j);
    ue_json_key(j, "unearth_selection");
    ue_json_object_begin(j);
    if (sel->format[0]) key_str(j, "format", sel->format);
    if (sel->file[0]) key_str(j, "file", sel->file);
    if (sel->entry[0]) key_str(j, "entry", sel->entry);
    if (sel->has_lod) {
        key_choice(j, "lod", sel->lod);
        key_choice(j, "group", sel->group);
    }
    if (sel->fps > 0) {
        ue_json_key(j, "fps");
        ue_json_float(j, sel->fps);
    }
    if (sel->scale > 0) {
        ue_json_key(j, "scale");
        ue_json_float(j, sel->scale);
    }
    ue_json_object_end(j);
    ue_json_object_end(j);
}

static void write_asset(const exporter *e, ue_json *j) {
    ue_json_key(j, "asset");
    ue_json_object_begin(j);
    key_str(j, "generator", "unearth");
    key_str(j, "version", "2.0");
    if (e->s->selection.recorded) write_selection(j, &e->s->selection);
    ue_json_object_end(j);
}

static bool uses_pointer_channels(const exporter *e) {
    const ue_scene *s = e->s;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++)
            if (e->plans[e->chan_base[a] + c].form == UE_GLTF_CHANNEL_POINTER) return true;
    return false;
}

static void write_extensions_used(const exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    bool unlit = false, texform = false, visibility = false;
    bool pointer = uses_pointer_channels(e);
    for (size_t i = 0; i < s->material_count; i++) {
        unlit = unlit || s->materials[i].unlit;
        texform = texform || material_has_transform(&s->materials[i]);
    }
    for (size_t i = 0; i < s->node_count; i++) visibility = visibility || e->node_visibility[i];
    if (!(unlit || texform || pointer || visibility)) return;
    /* Alphabetical; none is required, since a viewer without them still shows the model. */
    key_array_begin(j, "extensionsUsed");
    if (pointer) ue_json_string(j, "KHR_animation_pointer");
    if (unlit) ue_json_string(j, "KHR_materials_unlit");
    if (visibility) ue_json_string(j, "KHR_node_visibility");
    if (texform) ue_json_string(j, "KHR_texture_transform");
    ue_json_array_end(j);
}

/* One scene holding the root nodes. */
static void write_scenes(const exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    key_int(j, "scene", 0);
    key_array_begin(j, "scenes");
    ue_json_object_begin(j);
    key_name(j, s->name);
    if (s->node_count) {
        key_array_begin(j, "nodes");
        for (size_t i = 0; i < s->node_count; i++)
            if (s->nodes[i].parent < 0) ue_json_int(j, (int64_t)i);
        ue_json_array_end(j);
    }
    ue_json_object_end(j);
    ue_json_array_end(j);
}

/* TRS, each only when it is not the identity (the rotation normalised, -0 written as 0). */
static void write_node_transform(ue_json *j, const ue_scene_node *n) {
    const float *t = n->translation, *sc = n->scale;
    float q[4];
    normalize4(n->rotation, q);
    if (t[0] != 0 || t[1] != 0 || t[2] != 0) key_floats(j, "translation", t, 3);
    if (q[0] != 0 || q[1] != 0 || q[2] != 0 || q[3] != 1) {
        for (int k = 0; k < 4; k++) q[k] = q[k] == 0 ? 0.0f : q[k];
        key_floats(j, "rotation", q, 4);
    }
    if (sc[0] != 1 || sc[1] != 1 || sc[2] != 1) key_floats(j, "scale", sc, 3);
}

static void write_node_visibility(ue_json *j, const ue_scene_node *n) {
    ue_json_key(j, "extensions");
    ue_json_object_begin(j);
    ue_json_key(j, "KHR_node_visibility");
    ue_json_object_begin(j);
    ue_json_key(j, "visible");
    ue_json_bool(j, !n->hidden);
    ue_json_object_end(j);
    ue_json_object_end(j);
}

static void write_node(exporter *e, ue_json *j, size_t i) {
    const ue_scene_node *n = &e->s->nodes[i];
    ue_json_object_begin(j);
    key_name(j, n->name);
    if (e->child_start[i + 1] > e->child_start[i]) {
        key_array_begin(j, "children");
        for (size_t c = e->child_start[i]; c < e->child_start[i + 1]; c++)
            ue_json_int(j, (int64_t)e->child_list[c]);
        ue_json_array_end(j);
    }
    write_node_transform(j, n);
    if (n->mesh >= 0) key_int(j, "mesh", n->mesh);
    if (n->skin >= 0) key_int(j, "skin", n->skin);
    if (e->node_visibility[i]) write_node_visibility(j, n);
    write_extras_full(e, j, &n->source, &n->extras, NULL);
    ue_json_object_end(j);
}

static void write_nodes(exporter *e, ue_json *j) {
    if (!e->s->node_count) return;
    key_array_begin(j, "nodes");
    for (size_t i = 0; i < e->s->node_count; i++) write_node(e, j, i);
    ue_json_array_end(j);
}

/* "PREFIX_k": accessor for each set k in use; the sets in use come first, so -1 ends them. */
static void write_attribute_sets(ue_json *j, const char *prefix, const int32_t *acc, int max) {
    for (int k = 0; k < max && acc[k] >= 0; k++) {
        char name[16];
        snprintf(name, sizeof name, "%s_%d", prefix, k);
        key_int(j, name, acc[k]);
    }
}

static void write_attributes(ue_json *j, const prim_acc *pa) {
    ue_json_key(j, "attributes");
    ue_json_object_begin(j);
    key_int(j, "POSITION", pa->pos);
    if (pa->nrm >= 0) key_int(j, "NORMAL", pa->nrm);
    if (pa->tan >= 0) key_int(j, "TANGENT", pa->tan);
    write_attribute_sets(j, "TEXCOORD", pa->uv, UE_MAX_UV_SETS);
    write_attribute_sets(j, "COLOR", pa->col, UE_MAX_COLOR_SETS);
    if (pa->jnt >= 0) key_int(j, "JOINTS_0", pa->jnt);
    if (pa->wgt >= 0) key_int(j, "WEIGHTS_0", pa->wgt);
    ue_json_object_end(j);
}

static void write_mesh(exporter *e, ue_json *j, size_t m) {
    const ue_scene_mesh *me = &e->s->meshes[m];
    ue_json_object_begin(j);
    key_name(j, me->name);
    key_array_begin(j, "primitives");
    for (size_t p = 0; p < me->primitive_count; p++) {
        const prim_acc *pa = &e->prims[e->prim_base[m] + p];
        ue_json_object_begin(j);
        write_attributes(j, pa);
        if (pa->idx >= 0) key_int(j, "indices", pa->idx);
        if (me->primitives[p].material >= 0) key_int(j, "material", me->primitives[p].material);
        write_extras(e, j, &me->primitives[p].source);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    write_extras_full(e, j, &me->source, &me->extras, NULL);
    ue_json_object_end(j);
}

static void write_meshes(exporter *e, ue_json *j) {
    if (!e->s->mesh_count) return;
    key_array_begin(j, "meshes");
    for (size_t m = 0; m < e->s->mesh_count; m++) write_mesh(e, j, m);
    ue_json_array_end(j);
}

static void write_materials(exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    if (!s->material_count) return;
    key_array_begin(j, "materials");
    for (size_t i = 0; i < s->material_count; i++) write_material(e, j, &s->materials[i]);
    ue_json_array_end(j);
}

/* Texture t reads image texture_image[t] (a PNG in a buffer view, or a PNG file beside a .gltf)
 * through its sampler; textures with the same image share it, named after the first of them. */
static void write_textures_and_images(exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    key_array_begin(j, "textures");
    for (size_t t = 0; t < s->texture_count; t++) {
        ue_json_object_begin(j);
        key_name(j, s->textures[t].name);
        key_int(j, "sampler", e->texture_sampler[t]);
        key_int(j, "source", e->texture_image[t]);
        write_extras(e, j, &s->textures[t].source);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
    key_array_begin(j, "images");
    for (size_t t = 0, images = 0; t < s->texture_count; t++) {
        if ((size_t)e->texture_image[t] != images) continue; /* another texture's image */
        images++;
        ue_json_object_begin(j);
        key_name(j, s->textures[t].name);
        const char *file = image_uri(e, t);
        if (file) {
            key_uri(j, file);
        } else {
            key_int(j, "bufferView", e->image_view[t]);
        }
        key_str(j, "mimeType", "image/png");
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

/* GL enums: NEAREST/LINEAR, their mipmap forms, and REPEAT (the default, left out) /
 * CLAMP_TO_EDGE / MIRRORED_REPEAT. */
static void write_samplers(const exporter *e, ue_json *j) {
    static const int64_t wrap_gl[] = {10497, 33071, 33648};
    key_array_begin(j, "samplers");
    for (size_t i = 0; i < e->ngl_samplers; i++) {
        const gl_sampler *g = &e->gl_samplers[i];
        ue_json_object_begin(j);
        key_int(j, "magFilter", g->nearest ? 9728 : 9729);
        key_int(j, "minFilter", g->nearest ? 9984 : 9987);
        if (g->wrap_s != UE_WRAP_REPEAT) key_int(j, "wrapS", wrap_gl[g->wrap_s]);
        if (g->wrap_t != UE_WRAP_REPEAT) key_int(j, "wrapT", wrap_gl[g->wrap_t]);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

static void write_skins(const exporter *e, ue_json *j) {
    const ue_scene *s = e->s;
    if (!s->skin_count) return;
    key_array_begin(j, "skins");
    for (size_t k = 0; k < s->skin_count; k++) {
        const ue_scene_skin *sk = &s->skins[k];
        ue_json_object_begin(j);
        key_name(j, sk->name);
        if (e->skin_ibm[k] >= 0) key_int(j, "inverseBindMatrices", e->skin_ibm[k]);
        key_array_begin(j, "joints");
        for (size_t i = 0; i < sk->joint_count; i++) ue_json_int(j, sk->joints[i]);
        ue_json_array_end(j);
        if (sk->skeleton >= 0) key_int(j, "skeleton", sk->skeleton);
        ue_json_object_end(j);
    }
    ue_json_array_end(j);
}

static void write_accessor(const exporter *e, ue_json *j, size_t i) {
    const accessor *a = &e->acc[i];
    ue_json_object_begin(j);
    key_int(j, "bufferView", a->view);
    key_int(j, "componentType", a->component_type);
    key_int(j, "count", a->count);
    key_str(j, "type", type_name(a->ncomp));
    if (a->minmax) {
        key_floats(j, "min", a->min, a->ncomp);
        key_floats(j, "max", a->max, a->ncomp);
    }
    ue_json_object_end(j);
}

static void write_buffer_view(const exporter *e, ue_json *j, size_t i) {
    const view *v = &e->views[i];
    ue_json_object_begin(j);
    key_int(j, "buffer", 0);
    if (v->offset) key_int(j, "byteOffset", (int64_t)v->offset);
    key_int(j, "byteLength", (int64_t)v->length);
    if (v->stride) key_int(j, "byteStride", v->stride);
    if (v->target) key_int(j, "target", v->target);
    ue_json_object_end(j);
}

/* ---- the long lists: animations, accessors, buffer views -------------------------------- */

/* A model with many clips has thousands of each (most of its JSON): their items are written on
 * every processor, a part at a time, each part into its own text, then appended in order, so the
 * bytes do not depend on the threads. */
typedef enum list_kind { LIST_ANIMATIONS, LIST_ACCESSORS, LIST_VIEWS, LIST_KINDS } list_kind;

#define PART_ITEMS 256u        /* accessors or buffer views per part; an animation is a part */
#define ITEMS_APART 1024u      /* below this many items in all, the lists are written in line */

typedef struct list_part {
    list_kind kind;
    size_t first, end;         /* its items */
    ue_buf text;
    ue_json j;
} list_part;

typedef struct list_parts {
    exporter *e;
    list_part *part;
    size_t count;
} list_parts;

static size_t list_items(const exporter *e, list_kind k) {
    return k == LIST_ANIMATIONS ? e->s->animation_count : k == LIST_ACCESSORS ? e->nacc : e->nviews;
}

/* Only clips with at least one channel written (glTF forbids empty animations). */
static void write_list_items(exporter *e, ue_json *j, list_kind k, size_t first, size_t end) {
    for (size_t i = first; i < end; i++) {
        if (k == LIST_ANIMATIONS) {
            if (animation_written(e, i)) write_animation(e, j, i);
        } else if (k == LIST_ACCESSORS) {
            write_accessor(e, j, i);
        } else {
            write_buffer_view(e, j, i);
        }
    }
}

static bool list_written(const exporter *e, list_kind k) {
    if (k != LIST_ANIMATIONS) return list_items(e, k) != 0;
    for (size_t a = 0; a < e->s->animation_count; a++)
        if (animation_written(e, a)) return true;
    return false;
}

static void write_part(void *ctx, size_t i) {
    list_parts *ps = ctx;
    list_part *p = &ps->part[i];
    write_list_items(ps->e, &p->j, p->kind, p->first, p->end);
}

static void parts_free(list_parts *ps) {
    for (size_t i = 0; ps->part && i < ps->count; i++) ue_buf_free(&ps->part[i].text);
    free(ps->part);
    ps->part = NULL, ps->count = 0;
}

/* The parts of every long list written apart, ready to append (j: the open top-level object);
 * false (nothing held) when the lists are short, one processor serves, or memory is short. */
static bool write_parts(exporter *e, const ue_json *j, list_parts *ps) {
    memset(ps, 0, sizeof *ps);
    ps->e = e;
    size_t items = 0, parts = 0; /* (a channel counts as an item) */
    for (size_t a = 0; a < e->s->animation_count; a++) items += e->s->animations[a].channel_count;
    for (list_kind k = 0; k < LIST_KINDS; k++) {
        size_t n = list_items(e, k);
        items += k == LIST_ANIMATIONS ? 0 : n;
        parts += k == LIST_ANIMATIONS ? n : (n + PART_ITEMS - 1) / PART_ITEMS;
    }
    if (items < ITEMS_APART || ue_cpu_count() < 2) return false;
    ps->part = ue_calloc_items(parts, sizeof *ps->part);
    if (!ps->part) return false;
    for (list_kind k = 0; k < LIST_KINDS; k++) {
        size_t n = list_items(e, k), step = k == LIST_ANIMATIONS ? 1 : PART_ITEMS;
        bool before = false;
        for (size_t first = 0; first < n; first += step) {
            list_part *p = &ps->part[ps->count++];
            p->kind = k, p->first = first, p->end = first + step < n ? first + step : n;
            ue_json_init_items(&p->j, &p->text, j, before);
            before = before || k != LIST_ANIMATIONS || animation_written(e, first);
        }
    }
    ue_parallel_for(ps->count, ue_cpu_count(), write_part, ps);
    return true;
}

/* "key": [items] of one list: its parts appended, or its items written in line. */
static void write_list(exporter *e, ue_json *j, const char *key, list_kind k, const list_parts *ps) {
    if (!list_written(e, k)) return;
    key_array_begin(j, key);
    if (ps->part) {
        for (size_t i = 0; i < ps->count; i++)
            if (ps->part[i].kind == k) ue_json_append_items(j, &ps->part[i].j);
    } else {
        write_list_items(e, j, k, 0, list_items(e, k));
    }
    ue_json_array_end(j);
}

/* One buffer: the GLB's BIN chunk (no uri) or the .bin file beside a .gltf. */
static void write_buffers(const exporter *e, ue_json *j) {
    if (!e->bin.size) return;
    key_array_begin(j, "buffers");
    ue_json_object_begin(j);
    if (e->o->format == UE_GLTF_SEPARATE) {
        key_uri(j, e->o->bin_uri ? e->o->bin_uri : "buffer.bin");
    }
    key_int(j, "byteLength", (int64_t)e->bin.size);
    ue_json_object_end(j);
    ue_json_array_end(j);
}

/* The key order is fixed (and pinned by tests/cli/golden): the output is deterministic. */
void ue_gltf_write_json(exporter *e, ue_json *j) {
    ue_json_object_begin(j);
    write_asset(e, j);
    write_extensions_used(e, j);
    write_scenes(e, j);
    write_nodes(e, j);
    write_meshes(e, j);
    write_materials(e, j);
    if (e->s->texture_count) {
        write_textures_and_images(e, j);
        write_samplers(e, j);
    }
    write_skins(e, j);
    list_parts parts;
    write_parts(e, j, &parts);
    write_list(e, j, "animations", LIST_ANIMATIONS, &parts);
    write_list(e, j, "accessors", LIST_ACCESSORS, &parts);
    write_list(e, j, "bufferViews", LIST_VIEWS, &parts);
    parts_free(&parts);
    write_buffers(e, j);
    ue_json_object_end(j);
}
