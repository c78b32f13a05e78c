/* unearth — KHR_animation_pointer target checks: the Khronos validator does not resolve
 * pointers, so we resolve each one against exactly the properties our exporter writes. */
#include <stdio.h>
#include <string.h>

#include "unearth/gltf.h"

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

ue_result ue_gltf_resolve_pointer(const ue_scene *s, const char *pointer, uint32_t *components,
                                  bool *quaternion, ue_diag *d, const char *path) {
    char tok[MAX_TOKENS][TOKEN_LEN];
    size_t n = 0, idx = 0;
    const char *why = NULL;
    uint32_t comps = 0;
    bool quat = false;
    if (!pointer || !split_pointer(pointer, tok, &n, &why))
        return bad(d, path, pointer ? pointer : "", "%s", why ? why : "missing");
    if (n >= 3 && strcmp(tok[0], "nodes") == 0) {
        if (!parse_index(tok[1], s->node_count, &idx))
            return bad(d, path, pointer, "no node \"%s\" (%zu nodes)", tok[1], s->node_count);
        if (n == 3 && strcmp(tok[2], "translation") == 0) comps = 3;
        else if (n == 3 && strcmp(tok[2], "scale") == 0) comps = 3;
        else if (n == 3 && strcmp(tok[2], "rotation") == 0) comps = 4, quat = true;
        else return bad(d, path, pointer, "not an animatable node property we write");
    } else if (n >= 3 && strcmp(tok[0], "materials") == 0) {
        if (!parse_index(tok[1], s->material_count, &idx))
            return bad(d, path, pointer, "no material \"%s\" (%zu materials)", tok[1],
                       s->material_count);
        const ue_scene_material *m = &s->materials[idx];
        if (n == 3 && strcmp(tok[2], "alphaCutoff") == 0) {
            if (m->alpha_mode != UE_ALPHA_MASK)
                return bad(d, path, pointer, "alphaCutoff is written only for alpha mode MASK");
            comps = 1;
        } else if (n == 4 && strcmp(tok[2], "pbrMetallicRoughness") == 0) {
            if (strcmp(tok[3], "baseColorFactor") == 0) comps = 4;
            else if (strcmp(tok[3], "metallicFactor") == 0) comps = 1;
            else if (strcmp(tok[3], "roughnessFactor") == 0) comps = 1;
            else return bad(d, path, pointer, "not an animatable pbrMetallicRoughness property");
        } else if (n == 7 && strcmp(tok[2], "pbrMetallicRoughness") == 0 &&
                   strcmp(tok[3], "baseColorTexture") == 0 && strcmp(tok[4], "extensions") == 0 &&
                   strcmp(tok[5], "KHR_texture_transform") == 0) {
            if (m->base_color_texture < 0)
                return bad(d, path, pointer, "material %zu has no base colour texture", idx);
            if (!m->uv_transform)
                return bad(d, path, pointer,
                           "material %zu has no KHR_texture_transform (set uv_transform)", idx);
            if (strcmp(tok[6], "offset") == 0) comps = 2;
            else if (strcmp(tok[6], "scale") == 0) comps = 2;
            else if (strcmp(tok[6], "rotation") == 0) comps = 1;
            else return bad(d, path, pointer, "not an animatable KHR_texture_transform property");
        } else {
            return bad(d, path, pointer, "not an animatable material property we write");
        }
    } else {
        return bad(d, path, pointer, "target is not a node or material property we write");
    }
    if (components) *components = comps;
    if (quaternion) *quaternion = quat;
    return UE_OK;
}

ue_result ue_gltf_check_pointers(const ue_scene *s, ue_diag *d) {
    ue_result rc = UE_OK;
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            const ue_anim_channel *ch = &s->animations[a].channels[c];
            if (ch->path != UE_PATH_POINTER) continue;
            char path[160];
            snprintf(path, sizeof path, "scene/animations[%zu]/channels[%zu]/pointer", a, c);
            if (!memchr(ch->pointer, 0, sizeof ch->pointer)) {
                ue_diag_add(d, UE_SEV_ERROR, "gltf.pointer", UE_NO_OFFSET, path,
                            "pointer is not NUL-terminated");
                rc = UE_ERR_INVALID;
                continue;
            }
            uint32_t comps = 0;
            if (ue_gltf_resolve_pointer(s, ch->pointer, &comps, NULL, d, path) != UE_OK) {
                rc = UE_ERR_INVALID;
                continue;
            }
            if (comps != ch->components) {
                ue_diag_add(d, UE_SEV_ERROR, "gltf.pointer.components", UE_NO_OFFSET, path,
                            "pointer \"%.100s\" has %u components, the channel gives %u",
                            ch->pointer, (unsigned)comps, (unsigned)ch->components);
                rc = UE_ERR_INVALID;
            }
            /* A pointer to a node's TRS and a TRS channel on the same node and path would be
             * two channels driving one property, which glTF forbids. */
            static const char *const trs[] = {"translation", "rotation", "scale"};
            for (size_t c2 = 0; c2 < s->animations[a].channel_count; c2++) {
                const ue_anim_channel *o = &s->animations[a].channels[c2];
                if (o->path == UE_PATH_POINTER || (unsigned)o->path > (unsigned)UE_PATH_SCALE)
                    continue;
                char canon[96];
                snprintf(canon, sizeof canon, "/nodes/%d/%s", (int)o->node, trs[o->path]);
                if (strcmp(canon, ch->pointer) == 0) {
                    ue_diag_add(d, UE_SEV_ERROR, "gltf.pointer.duplicate", UE_NO_OFFSET, path,
                                "pointer \"%.100s\" duplicates the target of channel %zu",
                                ch->pointer, c2);
                    rc = UE_ERR_INVALID;
                }
            }
        }
    return rc;
}
