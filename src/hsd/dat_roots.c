/* unearth — HSD root kinds (hsd-formats §1.4): what a .dat root's name announces, so that `info`
 * can name every root and the scene reader can pick the ones it walks. */
#include <string.h>

#include "unearth/hsd.h"

typedef struct root_rule {
    const char *text;
    bool exact; /* the whole name, else a suffix */
    ue_hsd_root_kind kind;
} root_rule;

/* Longer suffixes come before the suffixes they end with ("_matanim_joint" before "_joint"). */
static const root_rule RULES[] = {
    {"scene_data", true, UE_HSD_ROOT_SCENE_DATA},
    {"bound_box", true, UE_HSD_ROOT_BOUND_BOX},
    {"_matanim_joint", false, UE_HSD_ROOT_MATANIM_JOINT},
    {"_shapeanim_joint", false, UE_HSD_ROOT_SHAPEANIM_JOINT},
    {"_animjoint", false, UE_HSD_ROOT_ANIMJOINT},
    {"_joint", false, UE_HSD_ROOT_JOINT},
    {"_scene_data", false, UE_HSD_ROOT_SCENE_DATA},
    {"_scene_models", false, UE_HSD_ROOT_SCENE_MODELS},
    {"_camera", false, UE_HSD_ROOT_CAMERA},
    {"_lights", false, UE_HSD_ROOT_LIGHTS},
    {"_figatree", false, UE_HSD_ROOT_FIGATREE},
    {"_image", false, UE_HSD_ROOT_IMAGE},
    {"_tlut", false, UE_HSD_ROOT_TLUT},
};

static bool rule_matches(const root_rule *r, const char *name, size_t len) {
    size_t t = strlen(r->text);
    if (r->exact) return len == t && memcmp(name, r->text, t) == 0;
    return len > t && memcmp(name + len - t, r->text, t) == 0; /* a bare "_joint" has no prefix */
}

ue_hsd_root_kind ue_hsd_root_kind_of(const char *name) {
    if (!name) return UE_HSD_ROOT_UNKNOWN;
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (rule_matches(&RULES[i], name, len)) return RULES[i].kind;
    return UE_HSD_ROOT_UNKNOWN;
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
    case UE_HSD_ROOT_UNKNOWN: break;
    }
    return "unknown";
}
