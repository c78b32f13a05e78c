/* unearth — internal declarations shared by the MSH animation files: the layout (docs/formats/msh-anim.md#canonical-layout) invariant
 * checks (called by ue_msh_check) and the clip export (called by ue_msh_to_scene). */
#ifndef UE_PARKAN_MSH_ANIM_H
#define UE_PARKAN_MSH_ANIM_H

#include "common/parse.h"
#include "unearth/msh.h"

/* Res8/Res19 invariants of docs/formats/msh-anim.md#canonical-layout: frame count, track layout, key times, map layout and
 * values. Each violation names the Res1/Res8/Res19 record and its byte offset. */
void ue_msh_check_animation(const ue_msh *m, ue_parse_ctx *c);

/* Appends the model's clip (if it is animated) to `s`: scene_node[i] is the scene node of
 * model node i. Nodes whose curves cannot be exported (non-finite poses, more work than the
 * input's size allows) are left out with a warning. */
ue_result ue_msh_anim_to_scene(const ue_msh *m, const int32_t *scene_node, const char *name, float fps,
                               ue_scene *s, ue_diag *d);

/* UE_OK when the model's tracks sit where the canonical layout of docs/formats/msh-anim.md#canonical-layout puts them (node i's
 * keys after node i − 1's, up to its fallback key), so that they can be read back one by one;
 * else UE_ERR_INVALID with the violations as errors. ue_msh_set_track and ue_msh_remove_nodes
 * refuse a model that fails it. */
ue_result ue_msh_tracks_readable(const ue_msh *m, ue_diag *d);

/* Every node's track at once (keys[n], counts[n]; the rules of ue_msh_set_track for each),
 * laid out in one pass by docs/formats/msh-anim.md#canonical-layout, whatever the model's current animation: for writers that
 * build the whole clip (the glTF importer), where one ue_msh_set_track per node would lay the
 * tables out once per node. Bounds are not recomputed. */
ue_result ue_msh_set_all_tracks(ue_msh *m, const ue_msh_key *const *keys, const size_t *counts, ue_diag *d);

#endif
