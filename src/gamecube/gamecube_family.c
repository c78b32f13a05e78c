/* unearth — the GameCube family as the registry sees it: the containers of Pokémon Colosseum and
 * XD (FSYS archives, standalone LZSS files, PKX wrappers); their models are the HSD family's. */
#include "gamecube/gamecube_int.h"
#include "registry/family.h"

/* PKX has no magic number: it is probed after the others. */
static const ue_container_ops *const containers[] = {&ue_fsys_ops, &ue_gclzss_ops, &ue_pkx_ops, NULL};

const ue_family ue_gamecube_family = {
    .name = "gamecube",
    .description = "GameCube containers of Pokémon Colosseum and XD (FSYS, LZSS, PKX)",
    .docs = "docs/gamecube-containers.md",
    .containers = containers,
};
