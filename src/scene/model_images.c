/* unearth — the images list of the model interface (model_format.h): what a format's `images`
 * hook appends to and the caller frees; the scene layer's, as the interface it belongs to. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/model_format.h"

ue_model_image *ue_model_images_add(ue_model_images *l, const char *name, uint32_t level_count) {
    if (!l || level_count == 0 || level_count > UE_MODEL_MAX_LEVELS) return NULL;
    ue_model_image *grown = realloc(l->items, (l->count + 1) * sizeof *grown);
    if (!grown) return NULL;
    l->items = grown;
    ue_model_image *img = &l->items[l->count++];
    memset(img, 0, sizeof *img);
    snprintf(img->name, sizeof img->name, "%s", name ? name : "");
    img->level_count = level_count;
    img->source.offset = UINT64_MAX;
    return img;
}

void ue_model_images_free(ue_model_images *l) {
    if (!l) return;
    for (size_t i = 0; i < l->count; i++)
        for (uint32_t k = 0; k < l->items[i].level_count && k < UE_MODEL_MAX_LEVELS; k++)
            free(l->items[i].levels[k].rgba);
    free(l->items);
    l->items = NULL;
    l->count = 0;
}
