/* unearth — what `info` says of an HSD model's animations: per clip its name (Animation_N), kind,
 * end frame and duration at 60 fps, and how many joints, materials and textures it animates with what. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hsd/hsd_read_anim.h"
#include "hsd/hsd_to_scene.h"

/* Track kinds, one bit each, in the order info lists them. */
enum {
    TK_ROTATION = 1 << 0, TK_TRANSLATION = 1 << 1, TK_SCALE = 1 << 2, TK_VISIBILITY = 1 << 3,
    TK_PATH = 1 << 4, TK_COLOUR = 1 << 5, TK_ALPHA = 1 << 6, TK_UV = 1 << 7,
    TK_IMAGE_SWAP = 1 << 8, TK_BLEND = 1 << 9, TK_OTHER = 1 << 10
};
static const char *const TK_NAMES[] = {"rotation", "translation", "scale", "visibility", "path",
                                       "colour", "alpha", "UV", "image swap", "blend", "other"};
#define TK_COUNT (sizeof TK_NAMES / sizeof TK_NAMES[0])

/* The kind of a track type code, read with the meaning its target gives it (docs/formats/hsd-animation.md#track-types). */
static unsigned track_kind(ue_hsd_anim_kind target, uint8_t type) {
    if (target == UE_HSD_ANIM_JOINT) {
        if (type >= UE_HSD_JT_ROTX && type <= UE_HSD_JT_ROTZ) return TK_ROTATION;
        if (type == UE_HSD_JT_PATH) return TK_PATH;
        if (type >= UE_HSD_JT_TRAX && type <= UE_HSD_JT_TRAZ) return TK_TRANSLATION;
        if (type >= UE_HSD_JT_SCAX && type <= UE_HSD_JT_SCAZ) return TK_SCALE;
        if (type == UE_HSD_JT_NODE || type == UE_HSD_JT_BRANCH) return TK_VISIBILITY;
    } else if (target == UE_HSD_ANIM_MATERIAL) {
        if (type >= UE_HSD_MT_AMBIENT_R && type <= 9) return TK_COLOUR; /* ambient … specular B */
        if (type == UE_HSD_MT_ALPHA) return TK_ALPHA;
    } else {
        if (type == UE_HSD_TT_TIMG || type == UE_HSD_TT_TCLT) return TK_IMAGE_SWAP;
        if (type >= UE_HSD_TT_TRAU && type <= UE_HSD_TT_ROTZ) return TK_UV;
        if (type == UE_HSD_TT_BLEND) return TK_BLEND;
    }
    return TK_OTHER;
}

typedef struct clip_summary {
    size_t joints, materials, textures; /* targets with at least one track */
    unsigned kinds;
} clip_summary;

/* The track kinds of one AObj read for one kind of target, each (AObj, target kind) worked out
 * once: an AObj shared by many targets costs its track count once, not once per target. */
typedef struct kind_cache {
    unsigned *kinds; /* 3 per AObj; UINT_MAX until computed */
} kind_cache;

static unsigned aobj_kinds(const ue_hsd_anims *a, kind_cache *kc, int32_t aobj,
                           ue_hsd_anim_kind target) {
    unsigned *slot = &kc->kinds[3 * (size_t)aobj + (size_t)target];
    if (*slot != UINT_MAX) return *slot;
    const ue_hsd_aobj *ao = &a->aobjs[aobj];
    unsigned kinds = 0;
    for (uint32_t k = ao->first_track; k < ao->first_track + ao->track_count; k++)
        kinds |= track_kind(target, a->tracks[k].type);
    return *slot = kinds;
}

static clip_summary summarise(const ue_hsd_anims *a, kind_cache *kc, const ue_hsd_clip *c) {
    clip_summary s = {0, 0, 0, 0};
    for (uint32_t i = c->first_target; i < c->first_target + c->target_count; i++) {
        const ue_hsd_anim_target *t = &a->targets[i];
        if (t->aobj < 0 || a->aobjs[t->aobj].track_count == 0) continue;
        s.kinds |= aobj_kinds(a, kc, t->aobj, t->kind);
        if (t->kind == UE_HSD_ANIM_JOINT) s.joints++;
        else if (t->kind == UE_HSD_ANIM_MATERIAL) s.materials++;
        else s.textures++;
    }
    return s;
}

/* One summary per clip. Clips that share a tree (one root named twice) share their target range,
 * so a range is summarised once whatever number of clips name it: work stays linear. */
static clip_summary *summaries(const ue_hsd_anims *a) {
    clip_summary *s = ue_calloc_items(a->clip_count, sizeof *s);
    size_t *first_clip = malloc((a->target_count + 1) * sizeof *first_clip);
    kind_cache kc = {malloc((3 * a->aobj_count + 1) * sizeof *kc.kinds)};
    if (!s || !first_clip || !kc.kinds) {
        free(s);
        free(first_clip);
        free(kc.kinds);
        return NULL;
    }
    for (size_t i = 0; i < 3 * a->aobj_count; i++) kc.kinds[i] = UINT_MAX;
    for (size_t i = 0; i <= a->target_count; i++) first_clip[i] = SIZE_MAX;
    for (size_t c = 0; c < a->clip_count; c++) {
        const ue_hsd_clip *cl = &a->clips[c];
        size_t *seen = &first_clip[cl->first_target];
        if (cl->target_count && *seen != SIZE_MAX &&
            a->clips[*seen].target_count == cl->target_count) {
            s[c] = s[*seen];
            continue;
        }
        if (cl->target_count) *seen = c;
        s[c] = summarise(a, &kc, cl);
    }
    free(first_clip);
    free(kc.kinds);
    return s;
}

static void write_kinds(ue_json *w, unsigned kinds) {
    ue_json_array_begin(w);
    for (size_t k = 0; k < TK_COUNT; k++)
        if (kinds & (1u << k)) ue_json_string(w, TK_NAMES[k]);
    ue_json_array_end(w);
}

void hsd_anims_write(const ue_hsd_model *m, ue_json *w) {
    const ue_hsd_anims *a = &m->anims;
    clip_summary *s = summaries(a);
    ue_json_array_begin(w);
    for (size_t c = 0; s && c < a->clip_count; c++) {
        const ue_hsd_clip *cl = &a->clips[c];
        char name[32];
        snprintf(name, sizeof name, "Animation_%u", cl->index);
        ue_json_object_begin(w);
        ue_json_key_string(w, "name", name);
        ue_json_key_int(w, "index", cl->index);
        ue_json_key_string(w, "kind", cl->material ? "material" : "skeletal");
        ue_json_key_int(w, "model", cl->set);
        ue_json_key_string_or_null(w, "root", cl->root_name);
        ue_json_key_real(w, "end_frame", cl->end_frame);
        ue_json_key_real(w, "seconds", cl->end_frame / 60.0);
        ue_json_key_int(w, "joints", (int64_t)s[c].joints);
        ue_json_key_int(w, "materials", (int64_t)s[c].materials);
        ue_json_key_int(w, "textures", (int64_t)s[c].textures);
        ue_json_key(w, "tracks");
        write_kinds(w, s[c].kinds);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    free(s);
}

void hsd_anims_text(const ue_hsd_model *m, ue_buf *b) {
    const ue_hsd_anims *a = &m->anims;
    clip_summary *s = summaries(a);
    for (size_t c = 0; s && c < a->clip_count; c++) {
        const ue_hsd_clip *cl = &a->clips[c];
        ue_buf_printf(b, "  Animation_%u: %s, end frame %g, %.3f s at 60 fps, %zu joints, %zu "
                         "materials, %zu textures", cl->index, cl->material ? "material" : "skeletal",
                      (double)cl->end_frame, cl->end_frame / 60.0, s[c].joints, s[c].materials,
                      s[c].textures);
        const char *sep = " (";
        for (size_t k = 0; k < TK_COUNT; k++)
            if (s[c].kinds & (1u << k)) {
                ue_buf_printf(b, "%s%s", sep, TK_NAMES[k]);
                sep = ", ";
            }
        char root[128] = "";
        if (cl->root_name) hsd_name_utf8(cl->root_name, root, sizeof root);
        ue_buf_printf(b, "%s%s%s\n", s[c].kinds ? ")" : "", cl->root_name ? ", root " : "", root);
    }
    free(s);
}
