/* unearth — HSD root kinds (docs/formats/dat.md#root-names): what a .dat root's name announces, so that `info`
 * can name every root and the scene reader can pick the ones it walks. */
#include <string.h>

#include "hsd/hsd_roots.h"
#include "unearth/hsd.h"

typedef enum root_match { MATCH_EXACT, MATCH_SUFFIX, MATCH_PREFIX } root_match;

typedef struct root_rule {
    const char *text;
    root_match match;
    ue_hsd_root_kind kind;
} root_rule;

/* Longer suffixes come before the suffixes they end with ("_matanim_joint" before "_joint"). */
static const root_rule RULES[] = {
    {"scene_data", MATCH_EXACT, UE_HSD_ROOT_SCENE_DATA},
    {"bound_box", MATCH_EXACT, UE_HSD_ROOT_BOUND_BOX},
    {"_matanim_joint", MATCH_SUFFIX, UE_HSD_ROOT_MATANIM_JOINT},
    {"_shapeanim_joint", MATCH_SUFFIX, UE_HSD_ROOT_SHAPEANIM_JOINT},
    {"_animjoint", MATCH_SUFFIX, UE_HSD_ROOT_ANIMJOINT},
    {"_joint", MATCH_SUFFIX, UE_HSD_ROOT_JOINT},
    {"_scene_data", MATCH_SUFFIX, UE_HSD_ROOT_SCENE_DATA},
    {"_scene_models", MATCH_SUFFIX, UE_HSD_ROOT_SCENE_MODELS},
    {"_camera", MATCH_SUFFIX, UE_HSD_ROOT_CAMERA},
    {"_lights", MATCH_SUFFIX, UE_HSD_ROOT_LIGHTS},
    {"_figatree", MATCH_SUFFIX, UE_HSD_ROOT_FIGATREE},
    {"_image", MATCH_SUFFIX, UE_HSD_ROOT_IMAGE},
    {"_tlut", MATCH_SUFFIX, UE_HSD_ROOT_TLUT},
    {"_fog", MATCH_SUFFIX, UE_HSD_ROOT_FOG},
    {"ftData", MATCH_PREFIX, UE_HSD_ROOT_FIGHTER_DATA}, /* Melee's ftDataMario, ftDataPeach … */
};

/* A suffix or prefix alone ("_joint", "ftData") names nothing: it needs a stem. */
static bool rule_matches(const root_rule *r, const char *name, size_t len) {
    size_t t = strlen(r->text);
    switch (r->match) {
    case MATCH_EXACT: return len == t && memcmp(name, r->text, t) == 0;
    case MATCH_SUFFIX: return len > t && memcmp(name + len - t, r->text, t) == 0;
    case MATCH_PREFIX: return len > t && memcmp(name, r->text, t) == 0;
    }
    return false;
}

static const root_rule *rule_of(const char *name) {
    if (!name) return NULL;
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (rule_matches(&RULES[i], name, len)) return &RULES[i];
    return NULL;
}

ue_hsd_root_kind ue_hsd_root_kind_of(const char *name) {
    const root_rule *r = rule_of(name);
    return r ? r->kind : UE_HSD_ROOT_UNKNOWN;
}

size_t hsd_root_stem_len(const char *name) {
    if (!name) return 0;
    const root_rule *r = rule_of(name);
    size_t len = strlen(name);
    return r && r->match == MATCH_SUFFIX ? len - strlen(r->text) : len;
}

const char *ue_hsd_root_kind_name(ue_hsd_root_kind kind) {
    switch (kind) {
    case UE_HSD_ROOT_SCENE_DATA: return "scene_data";
    case UE_HSD_ROOT_SCENE_MODELS: return "scene_models";
    case UE_HSD_ROOT_BOUND_BOX: return "bound_box";
    case UE_HSD_ROOT_JOINT: return "joint";
    case UE_HSD_ROOT_ANIMJOINT: return "animjoint";
    case UE_HSD_ROOT_MATANIM_JOINT: return "matanim_joint";
    case UE_HSD_ROOT_SHAPEANIM_JOINT: return "shapeanim_joint";
    case UE_HSD_ROOT_CAMERA: return "camera";
    case UE_HSD_ROOT_LIGHTS: return "lights";
    case UE_HSD_ROOT_FIGATREE: return "figatree";
    case UE_HSD_ROOT_IMAGE: return "image";
    case UE_HSD_ROOT_TLUT: return "tlut";
    case UE_HSD_ROOT_FIGHTER_DATA: return "fighter_data";
    case UE_HSD_ROOT_FOG: return "fog";
    case UE_HSD_ROOT_UNKNOWN: break;
    }
    return "unknown";
}
