/* unearth — the sample pack registry: collects each family's synthetic assets in a fixed
 * order so `unearth demo`, tests and fuzz seeds all see the same bytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "samples/samples.h"

ue_result ue_sample_list_add(ue_sample_list *l, const char *path, uint8_t *data, size_t size) {
    ue_sample_file *grown = realloc(l->items, (l->count + 1) * sizeof *grown);
    if (!grown) {
        free(data);
        return UE_ERR_NOMEM;
    }
    l->items = grown;
    ue_sample_file *f = &l->items[l->count++];
    snprintf(f->path, sizeof f->path, "%s", path);
    f->data = data;
    f->size = size;
    return UE_OK;
}

void ue_sample_list_free(ue_sample_list *l) {
    for (size_t i = 0; i < l->count; i++) free(l->items[i].data);
    free(l->items);
    l->items = NULL;
    l->count = 0;
}

ue_result ue_samples_build(ue_sample_list *out) {
    memset(out, 0, sizeof *out);
    ue_result r = ue_samples_parkan(out);
    if (r == UE_OK) r = ue_samples_gamecube(out);
    if (r != UE_OK) ue_sample_list_free(out);
    return r;
}
