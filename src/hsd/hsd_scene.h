/* unearth — internal: how the HSD → scene conversion asks for materials and textures. Each MObj
 * becomes one scene material and each TObj's image one scene texture, made on first use. */
#ifndef UNEARTH_HSD_SCENE_H
#define UNEARTH_HSD_SCENE_H

#include "unearth/hsd_model.h"
#include "unearth/scene.h"

/* Which scene material / texture each MObj / TObj became (-1: not made yet). */
typedef struct hsd_material_map {
    int32_t *scene_material; /* one per model mobj */
    int32_t *scene_texture;  /* one per model tobj */
    /* kept by hsd_material.c: the double-sided variant of each mobj's material (PObjs that cull
     * nothing), the tobjs that made a texture chained per image (one texture per distinct
     * image, palette and sampler), and the RGBA bytes still allowed to be decoded (linear in
     * the DAT's size, whatever number of palettes share one image). */
    int32_t *scene_material_two_sided; /* one per model mobj */
    int32_t *image_first_tobj;         /* one per model image */
    int32_t *next_tobj_same_image;     /* one per model tobj */
    int32_t *base_tobj;                /* one per model mobj: the TObj its base slot came from */
    int32_t *baked_texture;            /* one per model mobj: its base with the layers baked in */
    int32_t *baked_count;              /* one per model mobj: how many layers that texture holds */
    uint64_t rgba_budget;
} hsd_material_map;

ue_result hsd_material_map_init(hsd_material_map *map, const ue_hsd_model *m);
void hsd_material_map_free(hsd_material_map *map);

/* The scene material of MObj `mobj` (docs/formats/hsd-materials.md), made on first use together with the
 * textures it samples; *material is its index in `s`. A texture that cannot be decoded is left
 * out with a warning (tolerant) or fails the conversion (strict). */
ue_result hsd_scene_material(const ue_hsd_model *m, size_t mobj, ue_mode mode, ue_scene *s,
                             hsd_material_map *map, int32_t *material, ue_diag *d);

#endif
