/* unearth — the HSD family as the registry sees it: HAL SysDolphin .dat models and DATs without
 * a model root, banks of DATs as a container, and the .dat name rules of the model walk. */
#include <string.h>

#include "common/text.h"
#include "hsd/dat_bank.h"
#include "registry/family.h"
#include "unearth/hsd_model.h"

/* A chain of DAT headers has no magic number: probed after every other family's containers. */
static const ue_container_ops *const containers[] = {&ue_datbank_ops, NULL};

/* A DAT header (big-endian file_size first) is never an NRes or a Texm, so the order against
 * Parkan's formats does not matter; a DAT with no model root comes last: described, never
 * converted. */
static const ue_model_format *const formats[] = {&ue_hsd_model_format, &ue_hsd_data_format, NULL};

/* A file named *.dat whose header is a DAT's cut short is read as one, so that it fails with
 * the DAT's own diagnostic rather than "not a container" (docs/models.md). */
static const ue_model_format *plain_named(const char *name, const uint8_t *data, size_t size) {
    return ue_hsd_probe_named(name, data, size) ? &ue_hsd_model_format : NULL;
}

/* A DAT is no container: the walk reads the entries typed or named dat (FSYS, PKX) to probe. */
static bool walk_entry(const ue_entry_info *info) {
    return (strlen(info->name) > 4 && ue_name_has_ext(info->name, ".dat")) || !strcmp(info->type, "dat");
}

const ue_family ue_hsd_family = {
    .name = "hsd",
    .description = "HAL SysDolphin .dat models (Melee, Pokémon Colosseum and XD)",
    .docs = "docs/hsd.md",
    .containers = containers,
    .formats = formats,
    .plain_named = plain_named,
    .walk_entry = walk_entry,
};
