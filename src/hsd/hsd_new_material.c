/* unearth — a new model's materials (docs/hsd-import.md#new-models): a MObj per glTF material from its
 * base colour factor, alpha mode and base colour texture (a TObj and a GX image, sides made powers of two). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamecube/gx_encode.h"
#include "hsd/hsd_new.h"

/* Render mode bits (docs/formats/hsd-materials.md#render-mode). */
#define RM_DIFFUSE_MAT 0x1u
#define RM_DIFFUSE_BOTH 0x3u
#define RM_LIT 0x4u
#define RM_TEX0 0x10u
#define RM_ALPHA_MAT (1u << 13)
#define RM_ALPHA_BOTH (3u << 13)
#define RM_NO_ZUPDATE 0x20000000u
#define RM_XLU 0x40000000u

static uint8_t srgb_byte(float linear) {
    double c = linear > 1 ? 1 : linear >= 0 ? linear : 0;
    double s = c <= 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055;
    return (uint8_t)lround(255 * s);
}

/* The GX image of scene texture `t` in the chosen format, its sides powers of two up to 512. */
static int32_t texture_image(hsd_new *b, int32_t t) {
    if (b->image_of_texture[t] >= 0) return b->image_of_texture[t];
    const ue_scene_texture *tex = &b->s->textures[t];
    uint32_t w = hsd_texture_side(tex->width), h = hsd_texture_side(tex->height);
    bool alpha = false;
    for (size_t i = 0; i < (size_t)tex->width * tex->height; i++) alpha |= tex->rgba[4 * i + 3] != 255;
    uint32_t format = b->o->texture_format != UE_HSD_TEXTURE_AUTO ? b->o->texture_format
                      : alpha                                       ? UE_GX_RGB5A3
                                                                    : UE_GX_CMPR;
    uint8_t *scaled = NULL;
    const uint8_t *pixels = tex->rgba;
    if (w != tex->width || h != tex->height) {
        scaled = malloc((size_t)w * h * 4);
        if (!scaled) return -1;
        hsd_resample_rgba(tex->rgba, tex->width, tex->height, scaled, w, h);
        pixels = scaled;
        b->st.resized_images++;
    }
    ue_buf *bytes = hsd_new_buf(b);
    ue_result r = bytes ? ue_gx_encode_rgba(format, pixels, w, h, bytes) : UE_ERR_NOMEM;
    free(scaled);
    int32_t i = r == UE_OK ? hsd_new_row((void **)&b->m.images, &b->m.image_count, &b->image_cap, sizeof *b->m.images) : -1;
    if (i < 0) return -1;
    ue_hsd_image *im = &b->m.images[i];
    im->data = bytes->data, im->size = bytes->size;
    im->width = (uint16_t)w, im->height = (uint16_t)h;
    im->format = format;
    im->levels = 1;
    b->image_of_texture[t] = i;
    b->st.images++;
    return i;
}

static int32_t add_tobj(hsd_new *b, const ue_scene_material *mat, const ue_texture_slot *slot, int32_t image) {
    int32_t i = hsd_new_row((void **)&b->m.tobjs, &b->m.tobj_count, &b->tobj_cap, sizeof *b->m.tobjs);
    if (i < 0) return -1;
    const ue_scene_texture *tex = &b->s->textures[slot->texture];
    static const uint32_t wrap[3] = {1, 0, 2}; /* ue_wrap → GX: REPEAT 1, CLAMP 0, MIRROR 2 */
    ue_hsd_tobj *t = &b->m.tobjs[i];
    t->next = UE_HSD_NONE;
    t->src = 4 + slot->uv_set; /* GX_TG_TEXn */
    t->scale[0] = t->scale[1] = t->scale[2] = 1;
    t->wrap_s = wrap[tex->wrap_s <= UE_WRAP_MIRROR ? tex->wrap_s : 0];
    t->wrap_t = wrap[tex->wrap_t <= UE_WRAP_MIRROR ? tex->wrap_t : 0];
    t->repeat_s = t->repeat_t = 1;
    /* Colour op MODULATE on the diffuse light map; alpha op MODULATE when alpha counts. */
    t->flags = 0x10u | (4u << 16) | (mat && mat->alpha_mode != UE_ALPHA_OPAQUE ? 3u << 20 : 0);
    t->blending = 1;
    t->mag_filter = tex->nearest ? 0 : 1;
    t->image = image;
    t->tlut = UE_HSD_NONE;
    return i;
}

/* The PE block of a MASK (alpha ≥ ⌈255·cutoff⌉ passes) or a BLEND (source alpha over the frame). */
static ue_hsd_pe pe_for(const ue_scene_material *mat) {
    if (mat->alpha_mode == UE_ALPHA_MASK) {
        double c = mat->alpha_cutoff > 1 ? 1 : mat->alpha_cutoff >= 0 ? mat->alpha_cutoff : 0;
        uint8_t k = (uint8_t)ceil(255 * c);
        return (ue_hsd_pe){0x33, k, 0, 255, 0, 1, 0, 3, 3, 6, 0, 7};
    }
    return (ue_hsd_pe){0x13, 0, 0, 255, 1, 4, 5, 3, 3, 7, 0, 7};
}

int32_t hsd_new_material(hsd_new *b, int32_t material) {
    if (material < -1 || (material >= 0 && (size_t)material >= b->s->material_count)) material = -1;
    if (b->mobj_of_material[material + 1] >= 0) return b->mobj_of_material[material + 1];
    const ue_scene_material *mat = material >= 0 ? &b->s->materials[material] : NULL;
    int32_t i = hsd_new_row((void **)&b->m.mobjs, &b->m.mobj_count, &b->mobj_cap, sizeof *b->m.mobjs);
    if (i < 0) return -1;
    bool colours = b->material_colours[material + 1] & 1, colour_alpha = b->material_colours[material + 1] & 2;
    uint32_t rm = (colours ? RM_DIFFUSE_BOTH : RM_DIFFUSE_MAT) | (colour_alpha ? RM_ALPHA_BOTH : RM_ALPHA_MAT);
    if (!mat || !mat->unlit) rm |= RM_LIT;
    float base[4] = {1, 1, 1, 1};
    if (mat) memcpy(base, mat->base_color, sizeof base);
    int32_t first_tobj = UE_HSD_NONE;
    int32_t tex = mat ? ue_scene_material_texture(mat, UE_TEX_BASE_COLOR) : -1;
    if (tex >= 0 && (size_t)tex < b->s->texture_count && b->s->textures[tex].rgba && b->s->textures[tex].width &&
        b->s->textures[tex].height) {
        const ue_texture_slot *slot = NULL;
        for (size_t k = 0; k < mat->slot_count && !slot; k++)
            if (mat->slots[k].role == UE_TEX_BASE_COLOR) slot = &mat->slots[k];
        int32_t image = slot->uv_set < 2 ? texture_image(b, tex) : -1;
        if (slot->uv_set < 2 && image < 0) return -1;
        if (image >= 0) {
            first_tobj = add_tobj(b, mat, slot, image);
            if (first_tobj < 0) return -1;
            rm |= RM_TEX0;
        }
    }
    ue_hsd_mobj *mo = &b->m.mobjs[i];
    mo->first_tobj = first_tobj;
    mo->has_material = true;
    mo->material = (ue_hsd_material){{128, 128, 128, 255},
                                     {srgb_byte(base[0]), srgb_byte(base[1]), srgb_byte(base[2]), 255},
                                     {255, 255, 255, 255}, base[3], 50.0f};
    if (mat && mat->alpha_mode != UE_ALPHA_OPAQUE) {
        mo->has_pe = true;
        mo->pe = pe_for(mat);
        if (mat->alpha_mode == UE_ALPHA_BLEND) rm |= RM_XLU | RM_NO_ZUPDATE;
    }
    mo->render_mode = rm;
    b->mobj_of_material[material + 1] = i;
    b->st.materials++;
    return i;
}
