/* unearth — the table of game families: the one place a family is registered, one line each.
 * The archive layer's container detection and the model registry read every list from here. */
#include <pthread.h>
#include <stdlib.h>

#include "registry/families.h"
#include "unearth/model.h"
#include "unearth/advanced/buffers.h"

/* One line per family, in probe order; ue_NAME_family is defined in src/NAME/NAME_family.c.
 * PKX (gamecube) and DAT banks (hsd) have no magic number: their containers come last. */
#define UE_FAMILY_TABLE(X) \
    X(parkan)              \
    X(gamecube)            \
    X(hsd)

#define UE_DECLARE_FAMILY(name) extern const ue_family ue_##name##_family;
UE_FAMILY_TABLE(UE_DECLARE_FAMILY)
#define UE_LIST_FAMILY(name) &ue_##name##_family,
static const ue_family *const families[] = {UE_FAMILY_TABLE(UE_LIST_FAMILY)};
#define FAMILY_COUNT (sizeof families / sizeof families[0])

const ue_family *const *ue_families(size_t *count) {
    *count = FAMILY_COUNT;
    return families;
}

/* Declared by the archive layer (archive/container.h), which so reads the containers of every
 * family without naming one: the i-th in probe order, or NULL past the last. */
const ue_container_ops *ue_container_format(size_t i) {
    for (size_t f = 0; f < FAMILY_COUNT; f++)
        for (const ue_container_ops *const *c = families[f]->containers; c && *c; c++)
            if (i-- == 0) return *c;
    return NULL;
}

const ue_model_format *ue_family_format(size_t i) {
    for (size_t f = 0; f < FAMILY_COUNT; f++)
        for (const ue_model_format *const *m = families[f]->formats; m && *m; m++)
            if (i-- == 0) return *m;
    return NULL;
}

/* ---- the public list of model formats (model.h): built once, read-only afterwards ----------- */

static const ue_model_format **format_list;
static size_t format_count;
static pthread_once_t format_list_once = PTHREAD_ONCE_INIT;

static void build_format_list(void) {
    size_t n = 0;
    while (ue_family_format(n)) n++;
    format_list = ue_malloc_items(n, sizeof *format_list);
    if (!format_list) return; /* the list stays empty: ue_model_formats says 0 */
    for (size_t i = 0; i < n; i++) format_list[i] = ue_family_format(i);
    format_count = n;
}

const ue_model_format *const *ue_model_formats(size_t *count) {
    pthread_once(&format_list_once, build_format_list);
    *count = format_count;
    return format_list;
}
