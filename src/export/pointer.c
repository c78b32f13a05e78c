/* unearth — typed animation targets → glTF targets and KHR_animation_pointer checks: the
 * Khronos validator does not resolve pointers, so we resolve each one against what we write. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "common/text.h"
#include "export/gltf_int.h"

#define MAX_TOKENS 8
#define TOKEN_LEN 64

/* Splits "/a/b~1c" into unescaped tokens (RFC 6901: ~1 → '/', ~0 → '~'). */
static bool split_pointer(const char *p, char tok[MAX_TOKENS][TOKEN_LEN], size_t *count,
                          const char **why) {
    *count = 0;
    if (p[0] != '/') {
        *why = "a JSON pointer starts with '/'";
        return false;
    }
    while (*p == '/') {
        p++;
        if (*count == MAX_TOKENS) {
            *why = "too many pointer segments";
            return false;
        }
        size_t n = 0;
        while (*p && *p != '/') {
            char c = *p++;
            if (c == '~') {
                if (*p == '0') c = '~';
                else if (*p == '1') c = '/';
                else {
                    *why = "'~' not followed by 0 or 1";
                    return false;
                }
                p++;
            }
            if (n + 1 >= TOKEN_LEN) {
                *why = "pointer segment too long";
                return false;
            }
            tok[*count][n++] = c;
        }
        tok[*count][n] = 0;
        (*count)++;
    }
    return true;
}

/* A JSON pointer array index: decimal, no sign, no leading zeros, below `limit`. */
static bool parse_index(const char *t, size_t limit, size_t *out) {
    if (!t[0] || (t[0] == '0' && t[1])) return false;
    size_t v = 0;
    for (const char *c = t; *c; c++) {
        if (*c < '0' || *c > '9') return false;
        if (v > (SIZE_MAX - 9) / 10) return false;
        v = v * 10 + (size_t)(*c - '0');
    }
    if (v >= limit) return false;
    *out = v;
    return true;
}

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static ue_result bad(ue_diag *d, const char *path, const char *pointer, const char *fmt, ...) {
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ue_diag_add(d, UE_SEV_ERROR, "gltf.pointer", UE_NO_OFFSET, path, "pointer \"%.100s\": %s",
                pointer, msg);
    return UE_ERR_INVALID;
}

/* ---- where the exporter writes things ---------------------------------------------------- */

static const char *role_location(ue_texture_role role) {
    switch (role) {
    case UE_TEX_BASE_COLOR: return "pbrMetallicRoughness/baseColorTexture";
    case UE_TEX_METALLIC_ROUGHNESS: return "pbrMetallicRoughness/metallicRoughnessTexture";
    case UE_TEX_NORMAL: return "normalTexture";
    case UE_TEX_OCCLUSION: return "occlusionTexture";
    case UE_TEX_EMISSIVE: return "emissiveTexture";
    default: return NULL; /* specular, reflection, other: no core glTF slot */
    }
}

/* A slot with generated coordinates has no glTF place; the first UV slot of a role takes it. */
const char *ue_gltf_slot_location(const ue_scene_material *m, size_t k) {
    if (k >= m->slot_count || k >= UE_MAX_TEXTURE_SLOTS || m->slots[k].generated) return NULL;
    for (size_t i = 0; i < k; i++)
        if (m->slots[i].role == m->slots[k].role && !m->slots[i].generated) return NULL;
    return role_location(m->slots[k].role);
}

bool ue_gltf_node_has_visibility(const ue_scene *s, size_t n) {
    if (s->nodes[n].hidden) return true;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            const ue_anim_channel *ch = &s->animations[a].channels[c];
            if (ch->target == UE_TARGET_VISIBILITY && ch->node == (int64_t)n) return true;
        }
    return false;
}

/* An alpha channel folds into its clip's base colour channel for the same material when both
 * have the same keys; without such a channel it is written alone, as the whole factor. */
static ue_gltf_channel_form alpha_form(const ue_scene_animation *an, const ue_anim_channel *ch,
                                       const char **why) {
    for (size_t c = 0; c < an->channel_count; c++) {
        const ue_anim_channel *o = &an->channels[c];
        if (o->target != UE_TARGET_BASE_COLOR || o->material != ch->material) continue;
        if (o->key_count == ch->key_count && o->interpolation == ch->interpolation &&
            o->times && ch->times &&
            memcmp(o->times, ch->times, ch->key_count * sizeof *ch->times) == 0)
            return UE_GLTF_CHANNEL_MERGED;
        *why = "alpha keyed at other times or with another interpolation than the base "
               "colour channel of the same material (both would drive baseColorFactor)";
        return UE_GLTF_CHANNEL_UNSUPPORTED;
    }
    return UE_GLTF_CHANNEL_POINTER;
}

ue_gltf_channel_form ue_gltf_channel_pointer(const ue_scene *s, size_t animation,
                                             size_t channel, char *pointer, size_t cap,
                                             const char **why) {
    static const char *const trs[] = {"/translation", "/rotation", "/scale"};
    static const char visible[] = "/extensions/KHR_node_visibility/visible";
    static const char *const uv[] = {"offset", "scale", "rotation"};
    const ue_scene_animation *an = &s->animations[animation];
    const ue_anim_channel *ch = &an->channels[channel];
    const char *dummy;
    if (!why) why = &dummy;
    *why = NULL;
    if (cap) pointer[0] = 0;
    bool material_target = ch->target >= UE_TARGET_BASE_COLOR;
    bool slot_target = ch->target >= UE_TARGET_UV_OFFSET;
    if ((material_target && (ch->material < 0 || (size_t)ch->material >= s->material_count)) ||
        (slot_target && (ch->slot < 0 || (size_t)ch->slot >= s->materials[ch->material].slot_count))) {
        *why = "the target material or slot does not exist";
        return UE_GLTF_CHANNEL_UNSUPPORTED;
    }
    bool plain_node = ch->node >= 0 && ch->node <= INT_MAX; /* "%d" of a node index, spelt by hand */
    switch (ch->target) {
    case UE_TARGET_TRANSLATION:
    case UE_TARGET_ROTATION:
    case UE_TARGET_SCALE:
        if (plain_node) ue_text_indexed(pointer, cap, "/nodes/", (uint64_t)ch->node, trs[ch->target], 0, NULL);
        else snprintf(pointer, cap, "/nodes/%d%s", (int)ch->node, trs[ch->target]);
        return UE_GLTF_CHANNEL_NODE_PATH;
    case UE_TARGET_VISIBILITY:
        if (plain_node) ue_text_indexed(pointer, cap, "/nodes/", (uint64_t)ch->node, visible, 0, NULL);
        else snprintf(pointer, cap, "/nodes/%d%s", (int)ch->node, visible);
        return UE_GLTF_CHANNEL_POINTER;
    case UE_TARGET_BASE_COLOR:
    case UE_TARGET_ALPHA: {
        snprintf(pointer, cap, "/materials/%d/pbrMetallicRoughness/baseColorFactor",
                 (int)ch->material);
        ue_gltf_channel_form f =
            ch->target == UE_TARGET_ALPHA ? alpha_form(an, ch, why) : UE_GLTF_CHANNEL_POINTER;
        if (f == UE_GLTF_CHANNEL_UNSUPPORTED && cap) pointer[0] = 0;
        return f;
    }
    case UE_TARGET_UV_OFFSET:
    case UE_TARGET_UV_SCALE:
    case UE_TARGET_UV_ROTATION: {
        const ue_scene_material *m = &s->materials[ch->material];
        const char *loc = ue_gltf_slot_location(m, (size_t)ch->slot);
        if (!loc) {
            *why = "the slot is not written to glTF (its role has no glTF texture, or an "
                   "earlier slot has the same role)";
            return UE_GLTF_CHANNEL_UNSUPPORTED;
        }
        snprintf(pointer, cap, "/materials/%d/%s/extensions/KHR_texture_transform/%s",
                 (int)ch->material, loc, uv[ch->target - UE_TARGET_UV_OFFSET]);
        return UE_GLTF_CHANNEL_POINTER;
    }
    case UE_TARGET_TEXTURE_INDEX:
    default:
        *why = "texture-index (flipbook) targets have no glTF form yet";
        return UE_GLTF_CHANNEL_UNSUPPORTED;
    }
}

/* ---- resolving pointers ----------------------------------------------------------------- */

/* "/materials/M/<location>/extensions/KHR_texture_transform/<property>": the slot written at
 * <location> must exist and carry an enabled transform. */
static ue_result resolve_texture_transform(const ue_scene_material *m, size_t mi,
                                           char tok[MAX_TOKENS][TOKEN_LEN], size_t n,
                                           uint32_t *comps, ue_diag *d, const char *path,
                                           const char *pointer) {
    if (n < 6 || strcmp(tok[n - 3], "extensions") != 0 ||
        strcmp(tok[n - 2], "KHR_texture_transform") != 0)
        return bad(d, path, pointer, "not an animatable material property we write");
    char loc[2 * TOKEN_LEN + 2] = "";
    for (size_t i = 2; i < n - 3; i++) {
        if (i > 2) strcat(loc, "/");
        if (strlen(loc) + strlen(tok[i]) + 2 > sizeof loc)
            return bad(d, path, pointer, "not an animatable material property we write");
        strcat(loc, tok[i]);
    }
    const ue_texture_slot *slot = NULL;
    for (size_t k = 0; k < m->slot_count && k < UE_MAX_TEXTURE_SLOTS; k++) {
        const char *at = ue_gltf_slot_location(m, k);
        if (at && strcmp(at, loc) == 0) slot = &m->slots[k];
    }
    if (!slot) return bad(d, path, pointer, "material %zu writes no texture at %s", mi, loc);
    if (!slot->transform.enabled)
        return bad(d, path, pointer,
                   "material %zu has no KHR_texture_transform at %s (set transform.enabled)", mi,
                   loc);
    const char *prop = tok[n - 1];
    if (strcmp(prop, "offset") == 0 || strcmp(prop, "scale") == 0) *comps = 2;
    else if (strcmp(prop, "rotation") == 0) *comps = 1;
    else return bad(d, path, pointer, "not an animatable KHR_texture_transform property");
    return UE_OK;
}

static ue_result resolve_node(const ue_scene *s, char tok[MAX_TOKENS][TOKEN_LEN], size_t n,
                              uint32_t *comps, bool *quat, ue_diag *d, const char *path,
                              const char *pointer) {
    size_t idx = 0;
    if (!parse_index(tok[1], s->node_count, &idx))
        return bad(d, path, pointer, "no node \"%s\" (%zu nodes)", tok[1], s->node_count);
    if (n == 3 && strcmp(tok[2], "translation") == 0) *comps = 3;
    else if (n == 3 && strcmp(tok[2], "scale") == 0) *comps = 3;
    else if (n == 3 && strcmp(tok[2], "rotation") == 0) *comps = 4, *quat = true;
    else if (n == 5 && strcmp(tok[2], "extensions") == 0 &&
             strcmp(tok[3], "KHR_node_visibility") == 0 && strcmp(tok[4], "visible") == 0) {
        if (!ue_gltf_node_has_visibility(s, idx))
            return bad(d, path, pointer, "node %zu has no KHR_node_visibility object", idx);
        *comps = 1;
    } else return bad(d, path, pointer, "not an animatable node property we write");
    return UE_OK;
}

static ue_result resolve_material(const ue_scene *s, char tok[MAX_TOKENS][TOKEN_LEN], size_t n,
                                  uint32_t *comps, ue_diag *d, const char *path,
                                  const char *pointer) {
    size_t idx = 0;
    if (!parse_index(tok[1], s->material_count, &idx))
        return bad(d, path, pointer, "no material \"%s\" (%zu materials)", tok[1],
                   s->material_count);
    const ue_scene_material *m = &s->materials[idx];
    if (n == 3 && strcmp(tok[2], "alphaCutoff") == 0) {
        if (m->alpha_mode != UE_ALPHA_MASK)
            return bad(d, path, pointer, "alphaCutoff is written only for alpha mode MASK");
        *comps = 1;
    } else if (n == 4 && strcmp(tok[2], "pbrMetallicRoughness") == 0) {
        if (strcmp(tok[3], "baseColorFactor") == 0) *comps = 4;
        else if (strcmp(tok[3], "metallicFactor") == 0) *comps = 1;
        else if (strcmp(tok[3], "roughnessFactor") == 0) *comps = 1;
        else return bad(d, path, pointer, "not an animatable pbrMetallicRoughness property");
    } else {
        return resolve_texture_transform(m, idx, tok, n, comps, d, path, pointer);
    }
    return UE_OK;
}

ue_result ue_gltf_resolve_pointer(const ue_scene *s, const char *pointer, uint32_t *components,
                                  bool *quaternion, ue_diag *d, const char *path) {
    char tok[MAX_TOKENS][TOKEN_LEN];
    size_t n = 0;
    const char *why = NULL;
    uint32_t comps = 0;
    bool quat = false;
    if (!pointer || !split_pointer(pointer, tok, &n, &why))
        return bad(d, path, pointer ? pointer : "", "%s", why ? why : "missing");
    ue_result r;
    if (n >= 3 && strcmp(tok[0], "nodes") == 0)
        r = resolve_node(s, tok, n, &comps, &quat, d, path, pointer);
    else if (n >= 3 && strcmp(tok[0], "materials") == 0)
        r = resolve_material(s, tok, n, &comps, d, path, pointer);
    else
        return bad(d, path, pointer, "target is not a node or material property we write");
    if (r != UE_OK) return r;
    if (components) *components = comps;
    if (quaternion) *quaternion = quat;
    return UE_OK;
}

ue_result ue_gltf_check_pointers(const ue_scene *s, ue_diag *d) {
    ue_result rc = UE_OK;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            char pointer[192], path[160];
            if (ue_gltf_channel_pointer(s, a, c, pointer, sizeof pointer, NULL) !=
                UE_GLTF_CHANNEL_POINTER)
                continue;
            snprintf(path, sizeof path, "scene/animations[%zu]/channels[%zu]", a, c);
            uint32_t comps = 0;
            if (ue_gltf_resolve_pointer(s, pointer, &comps, NULL, d, path) != UE_OK) {
                rc = UE_ERR_INVALID;
                continue;
            }
            /* Alpha is written as the whole factor, so only the other targets must match. */
            const ue_anim_channel *ch = &s->animations[a].channels[c];
            uint32_t given = ch->target == UE_TARGET_ALPHA ? 4 : ch->components;
            if (comps != given) {
                ue_diag_add(d, UE_SEV_ERROR, "gltf.pointer.components", UE_NO_OFFSET, path,
                            "pointer \"%.120s\" has %u components, the channel gives %u",
                            pointer, (unsigned)comps, (unsigned)given);
                rc = UE_ERR_INVALID;
            }
        }
    return rc;
}
