/* unearth — glTF textures (PNG images through png_read, samplers) and materials (PBR factors,
 * texture slots with KHR_texture_transform, alpha mode, double sided, KHR_materials_unlit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "import/gltf_read_int.h"
#include "import/png_read.h"

/* An image's bytes: a buffer view, a file or a data: URI (*owned is what the caller frees:
 * only a decoded data: URI). */
static bool image_bytes(gr_ctx *c, const ue_jv *img, const char *path, const uint8_t **data,
                        size_t *size, uint8_t **owned) {
    const char *uri, *mime;
    int32_t view;
    char uri_mime[64] = "";
    *owned = NULL;
    if (!ue_jv_is(img, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_string(c, img, "uri", NULL, path, &uri) || !gr_string(c, img, "mimeType", "", path, &mime) ||
        !gr_index(c, img, "bufferView", ue_jv_items(ue_jv_get(c->root, "bufferViews")),
                  false, path, &view))
        return false;
    if (view >= 0) return gr_view_bytes(c, view, path, data, size);
    if (!uri) return gr_fail(c, "gltf.image.source", UE_NO_OFFSET, path, "neither uri nor bufferView");
    if (strncmp(uri, "data:", 5) != 0) return gr_external_uri(c, uri, path, data, size); /* shared */
    bool ok = gr_data_uri(c, uri, path, owned, size, uri_mime, sizeof uri_mime);
    *data = *owned;
    return ok;
}

/* A side IHDR claims, capped where png_read refuses it anyway (so the product cannot overflow). */
static uint32_t side(const uint8_t *p) {
    uint32_t v = ue_load_u32be(p);
    return v < 16384u ? v : 16384u;
}

/* Decodes image `index` into texture `t` (PNG only: the signature decides, not the name). */
static bool decode_image(gr_ctx *c, int32_t index, ue_scene_texture *t) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    char path[48];
    snprintf(path, sizeof path, "/images/%d", (int)index);
    const uint8_t *data;
    size_t size;
    uint8_t *owned;
    const ue_jv *img = ue_jv_at(ue_jv_get(c->root, "images"), (size_t)index);
    if (!image_bytes(c, img, path, &data, &size, &owned)) {
        free(owned);
        return false;
    }
    bool ok = true;
    uint32_t w = 0, h = 0;
    uint8_t *rgba = NULL;
    if (size < 24 || memcmp(data, sig, 8) != 0)
        ok = gr_fail(c, "gltf.image.format", UE_NO_OFFSET, path,
                     "not a PNG image (only PNG textures are imported; convert JPEG and others)");
    else if (!gr_charge(c, size + (size_t)side(data + 16) * side(data + 20) * 4, path))
        ok = false; /* the bytes read and the size IHDR claims, paid before decoding, so many
                       textures naming one image cost what decoding each of them costs */
    else if (ue_png_decode_rgba(data, size, &w, &h, &rgba, c->pc.d) != UE_OK)
        ok = gr_fail(c, "gltf.image.png", UE_NO_OFFSET, path, "the PNG cannot be decoded (above)");
    free(owned);
    if (!ok) return false;
    free(t->rgba);
    t->rgba = rgba;
    t->width = w;
    t->height = h;
    return true;
}

static bool read_sampler(gr_ctx *c, int32_t index, ue_scene_texture *t) {
    char path[48];
    snprintf(path, sizeof path, "/samplers/%d", (int)index);
    const ue_jv *s = ue_jv_at(ue_jv_get(c->root, "samplers"), (size_t)index);
    uint64_t mag, ws, wt;
    if (!ue_jv_is(s, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_uint(c, s, "magFilter", 0xFFFF, 9729, false, path, &mag) ||
        !gr_uint(c, s, "wrapS", 0xFFFF, 10497, false, path, &ws) ||
        !gr_uint(c, s, "wrapT", 0xFFFF, 10497, false, path, &wt))
        return false;
    t->nearest = mag == 9728;
    t->wrap_s = ws == 33071 ? UE_WRAP_CLAMP : ws == 33648 ? UE_WRAP_MIRROR : UE_WRAP_REPEAT;
    t->wrap_t = wt == 33071 ? UE_WRAP_CLAMP : wt == 33648 ? UE_WRAP_MIRROR : UE_WRAP_REPEAT;
    return true;
}

static bool read_texture(gr_ctx *c, const ue_jv *tex, size_t i) {
    char path[48], name[64];
    snprintf(path, sizeof path, "/textures/%zu", i);
    int32_t source, sampler;
    if (!ue_jv_is(tex, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_name(c, tex, path, name) ||
        !gr_index(c, tex, "source", ue_jv_items(ue_jv_get(c->root, "images")), true, path,
                  &source) ||
        !gr_index(c, tex, "sampler", ue_jv_items(ue_jv_get(c->root, "samplers")), false,
                  path, &sampler))
        return false;
    if (!name[0]) {
        char ip[48];
        snprintf(ip, sizeof ip, "/images/%d", (int)source);
        const ue_jv *img = ue_jv_at(ue_jv_get(c->root, "images"), (size_t)source);
        if (ue_jv_is(img, UE_JV_OBJECT) && !gr_name(c, img, ip, name)) return false;
    }
    int32_t ti = ue_scene_add_texture(c->s, name, 1, 1); /* pixels replaced by the image's */
    if (ti < 0) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    ue_scene_texture *t = &c->s->textures[ti];
    return decode_image(c, source, t) && (sampler < 0 || read_sampler(c, sampler, t)) &&
           gr_other_extensions(c, tex, path, NULL) &&
           gr_extras(c, tex, path, &t->source, NULL, NULL);
}

/* KHR_texture_transform of a textureInfo, its texCoord overriding the textureInfo's. */
static bool read_transform(gr_ctx *c, const ue_jv *info, const char *path, ue_texture_slot *sl) {
    bool ok = true;
    char ep[160];
    snprintf(ep, sizeof ep, "%s/extensions", path);
    const ue_jv *ext = gr_object(c, info, "extensions", path, &ok);
    const ue_jv *tt = ext ? gr_object(c, ext, "KHR_texture_transform", ep, &ok) : NULL;
    if (!ok || !tt) return ok;
    snprintf(ep, sizeof ep, "%s/extensions/KHR_texture_transform", path);
    double rot;
    uint64_t uv;
    if (!gr_floats(c, tt, "offset", 2, ep, sl->transform.offset, NULL) ||
        !gr_floats(c, tt, "scale", 2, ep, sl->transform.scale, NULL) ||
        !gr_number(c, tt, "rotation", 0, ep, &rot) ||
        !gr_uint(c, tt, "texCoord", UE_MAX_UV_SETS - 1, sl->uv_set, false, ep, &uv))
        return false;
    sl->transform.enabled = true;
    sl->transform.rotation = (float)rot;
    sl->uv_set = (uint32_t)uv;
    return true;
}

/* One textureInfo (`key` of `obj`) into a new slot of material mi. */
static bool read_slot(gr_ctx *c, const ue_jv *obj, const char *key, const char *base, int32_t mi,
                      ue_texture_role role, const char *strength_key) {
    bool ok = true;
    const ue_jv *info = gr_object(c, obj, key, base, &ok);
    if (!ok || !info) return ok;
    char path[160];
    snprintf(path, sizeof path, "%s/%s", base, key);
    int32_t tex;
    uint64_t uv;
    double strength = 1;
    if (!gr_index(c, info, "index", c->s->texture_count, true, path, &tex) ||
        !gr_uint(c, info, "texCoord", UE_MAX_UV_SETS - 1, 0, false, path, &uv) ||
        (strength_key && !gr_number(c, info, strength_key, 1, path, &strength)))
        return false;
    int32_t k = ue_scene_add_texture_slot(c->s, mi, role, tex, (uint32_t)uv);
    if (k < 0) return gr_fail(c, "gltf.material.slots", UE_NO_OFFSET, path, "too many slots");
    ue_texture_slot *sl = &c->s->materials[mi].slots[k];
    sl->strength = (float)strength;
    return read_transform(c, info, path, sl) &&
           gr_other_extensions(c, info, path, "KHR_texture_transform");
}

static bool read_pbr(gr_ctx *c, const ue_jv *mat, const char *path, int32_t mi) {
    bool ok = true;
    const ue_jv *pbr = gr_object(c, mat, "pbrMetallicRoughness", path, &ok);
    ue_scene_material *m = &c->s->materials[mi];
    double metallic = 1, roughness = 1;
    char pp[96];
    snprintf(pp, sizeof pp, "%s/pbrMetallicRoughness", path);
    if (!ok) return false;
    if (pbr && (!gr_floats(c, pbr, "baseColorFactor", 4, pp, m->base_color, NULL) ||
                !gr_number(c, pbr, "metallicFactor", 1, pp, &metallic) ||
                !gr_number(c, pbr, "roughnessFactor", 1, pp, &roughness)))
        return false;
    m->metallic = (float)metallic; /* glTF's default of 1 when absent, as the document means */
    m->roughness = (float)roughness;
    /* slots in the order of the roles, so an exported material reads back slot for slot */
    return (!pbr || read_slot(c, pbr, "baseColorTexture", pp, mi, UE_TEX_BASE_COLOR, NULL)) &&
           read_slot(c, mat, "normalTexture", path, mi, UE_TEX_NORMAL, "scale") &&
           read_slot(c, mat, "emissiveTexture", path, mi, UE_TEX_EMISSIVE, NULL) &&
           read_slot(c, mat, "occlusionTexture", path, mi, UE_TEX_OCCLUSION, "strength") &&
           (!pbr || read_slot(c, pbr, "metallicRoughnessTexture", pp, mi,
                              UE_TEX_METALLIC_ROUGHNESS, NULL));
}

static bool read_alpha(gr_ctx *c, const ue_jv *mat, const char *path, ue_scene_material *m) {
    const char *mode;
    double cutoff;
    if (!gr_string(c, mat, "alphaMode", "OPAQUE", path, &mode) ||
        !gr_number(c, mat, "alphaCutoff", 0.5, path, &cutoff) ||
        !gr_bool(c, mat, "doubleSided", false, path, &m->double_sided) ||
        !gr_floats(c, mat, "emissiveFactor", 3, path, m->emissive, NULL))
        return false;
    if (strcmp(mode, "OPAQUE") == 0) m->alpha_mode = UE_ALPHA_OPAQUE;
    else if (strcmp(mode, "MASK") == 0) m->alpha_mode = UE_ALPHA_MASK;
    else if (strcmp(mode, "BLEND") == 0) m->alpha_mode = UE_ALPHA_BLEND;
    else return gr_fail(c, "gltf.material.alpha", UE_NO_OFFSET, path, "alphaMode \"%s\"", mode);
    m->alpha_cutoff = (float)cutoff;
    bool ok = true;
    const ue_jv *ext = gr_object(c, mat, "extensions", path, &ok);
    m->unlit = ext && ue_jv_get(ext, "KHR_materials_unlit") != NULL;
    return ok;
}

static bool read_material(gr_ctx *c, const ue_jv *mat, size_t i) {
    char path[48], name[64];
    snprintf(path, sizeof path, "/materials/%zu", i);
    if (!ue_jv_is(mat, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_name(c, mat, path, name)) return false;
    int32_t mi = ue_scene_add_material(c->s, name);
    if (mi < 0) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    ue_scene_material *m = &c->s->materials[mi];
    return read_pbr(c, mat, path, mi) && read_alpha(c, mat, path, m) &&
           gr_other_extensions(c, mat, path, "KHR_materials_unlit") &&
           gr_extras(c, mat, path, &m->source, &m->extras, NULL);
}

bool gr_read_materials(gr_ctx *c) {
    bool ok = true;
    const ue_jv *texs = gr_array(c, c->root, "textures", "", &ok);
    const ue_jv *mats = gr_array(c, c->root, "materials", "", &ok);
    gr_array(c, c->root, "images", "", &ok); /* type checks; indices are checked per use */
    gr_array(c, c->root, "samplers", "", &ok);
    for (size_t i = 0; ok && i < ue_jv_items(texs); i++) ok = read_texture(c, ue_jv_at(texs, i), i);
    for (size_t i = 0; ok && i < ue_jv_items(mats); i++) ok = read_material(c, ue_jv_at(mats, i), i);
    return ok;
}
