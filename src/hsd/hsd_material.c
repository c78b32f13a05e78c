/* unearth — HSD materials → scene IR, minimal stand-in: one material per MObj with the base
 * colour from Material.diffuse and alpha; textures come with the hsd-material branch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_scene.h"

ue_result hsd_material_map_init(hsd_material_map *map, const ue_hsd_model *m) {
    size_t nm = m->mobj_count ? m->mobj_count : 1, nt = m->tobj_count ? m->tobj_count : 1;
    map->scene_material = malloc(nm * sizeof *map->scene_material);
    map->scene_texture = malloc(nt * sizeof *map->scene_texture);
    if (!map->scene_material || !map->scene_texture) return UE_ERR_NOMEM;
    for (size_t i = 0; i < nm; i++) map->scene_material[i] = -1;
    for (size_t i = 0; i < nt; i++) map->scene_texture[i] = -1;
    return UE_OK;
}

void hsd_material_map_free(hsd_material_map *map) {
    free(map->scene_material);
    free(map->scene_texture);
    map->scene_material = map->scene_texture = NULL;
}

ue_result hsd_scene_material(const ue_hsd_model *m, size_t mobj, ue_mode mode, ue_scene *s,
                             hsd_material_map *map, int32_t *material, ue_diag *d) {
    (void)mode, (void)d;
    if (mobj >= m->mobj_count) return UE_ERR_USAGE;
    if (map->scene_material[mobj] >= 0) return *material = map->scene_material[mobj], UE_OK;
    const ue_hsd_mobj *mo = &m->mobjs[mobj];
    char name[64];
    snprintf(name, sizeof name, "material_%zu", mobj);
    int32_t mi = ue_scene_add_material(s, name);
    if (mi < 0) return UE_ERR_NOMEM;
    ue_scene_material *mat = &s->materials[mi];
    if (mo->has_material) {
        for (int c = 0; c < 3; c++) mat->base_color[c] = mo->material.diffuse[c] / 255.0f;
        float a = mo->material.alpha;
        mat->base_color[3] = a >= 0 && a <= 1 ? a : 1.0f;
    }
    memset(&mat->source, 0, sizeof mat->source);
    memcpy(mat->source.format, "hsd", 4);
    mat->source.type = 4; /* HSD_KIND_MOBJ */
    mat->source.offset = mo->offset;
    mat->source.index = (uint32_t)mobj;
    map->scene_material[mobj] = mi;
    *material = mi;
    return UE_OK;
}
