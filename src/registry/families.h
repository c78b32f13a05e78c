/* unearth internal — the table of families read as lists (src/registry/families.c): the
 * registry's view; the archive layer reads the containers through ue_container_format. */
#ifndef UE_REGISTRY_FAMILIES_H
#define UE_REGISTRY_FAMILIES_H

#include "registry/family.h"

/* Every family, in the table's order. */
const ue_family *const *ue_families(size_t *count);
/* The i-th model format of all families in probe order (the table's order, then each family's
 * own), or NULL past the last. */
const ue_model_format *ue_family_format(size_t i);

#endif
