/* unearth — the Parkan family as the registry sees it: NRes and RsLi containers, MSH models and
 * Texm textures, and the rules by which a name alone makes a model (.msh, bare .mat0 and .wea). */
#include <string.h>

#include "common/text.h"
#include "parkan/mat0_model.h"
#include "parkan/parkan_containers.h"
#include "registry/family.h"
#include "unearth/msh.h"
#include "unearth/texm.h"

static const ue_container_ops *const containers[] = {&ue_nres_ops, &ue_rsli_ops, NULL};

/* MSH first of all formats: a model that is itself an NRes must be recognised before the walk
 * opens it as a container. Texm: a texture, no geometry (`textures`, validate, info, roundtrip). */
static const ue_model_format *const formats[] = {&ue_msh_model_format, &ue_texm_model_format, NULL};

/* An NRes named *.msh is a model, so that one lacking a required resource is reported as a
 * broken model rather than walked as a valid archive (docs/parkan-msh.md). */
static const ue_model_format *named(const char *name, const uint8_t *data, size_t size) {
    return ue_name_has_ext(name, ".msh") && ue_msh_probe_named(name, data, size) ? &ue_msh_model_format
                                                                                 : NULL;
}

/* Bare MAT0 and WEAR files have no magic number: only their name claims them, and only for a
 * file that is no container; inside an NRes they are entries that its deep check validates
 * (docs/parkan-materials.md). */
static const ue_model_format *plain_named(const char *name, const uint8_t *data, size_t size) {
    (void)data, (void)size;
    if (ue_name_has_ext(name, ".mat0")) return &ue_mat0_model_format;
    if (ue_name_has_ext(name, ".wea")) return &ue_wear_model_format;
    return NULL;
}

/* A Texm entry is no container: the walk reads it to meet the texture. */
static bool walk_entry(const ue_entry_info *info) { return !strcmp(info->type, "Texm"); }

const ue_family ue_parkan_family = {
    .name = "parkan",
    .description = "Parkan: Iron Strategy (Nikita engine, PC, 1998)",
    .docs = "docs/parkan-containers.md",
    .containers = containers,
    .formats = formats,
    .named = named,
    .plain_named = plain_named,
    .walk_entry = walk_entry,
};
