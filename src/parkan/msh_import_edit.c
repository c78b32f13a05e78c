/* unearth — glTF edit mode (`import --base`): a scene compared with what the base model itself
 * exports to, and only what differs written back, by the dependency matrix of docs/formats/msh.md#edit-dependencies:
 * names and poses here, geometry in msh_import_edit_mesh.c. */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parkan/msh_import_edit_int.h"
#include "parkan/parkan_axes.h"
ue_result ue_msh_edit_fail(edit_ctx *x, const char *code, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(x->d, UE_SEV_ERROR, code, UE_NO_OFFSET, path, fmt, ap);
    va_end(ap);
    return UE_ERR_INVALID;
}

/* ---- nodes: names and rest poses --------------------------------------------------------- */

static ue_result apply_name(edit_ctx *x, size_t si, size_t n) {
    const char *want = x->s->nodes[si].name, *had = x->base->nodes[x->b_of_s[si]].name;
    if (ue_msh_edit_same_name(want, had)) return UE_OK;
    char stored[sizeof x->s->nodes[0].name];
    size_t len = 0, at = 0;
    uint32_t bad = 0;
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu/name", si);
    if (ue_utf8_to_cp1251(want, stored, sizeof stored, &len, &bad, &at) != UE_OK)
        return ue_msh_edit_fail(x, "import.name.cp1251", path,
                "\"%s\" has a character Windows-1251 lacks (at byte %zu); Parkan names are stored in it",
                want, at);
    return ue_msh_rename_node(x->m, n, stored);
}

/* The same code and path as a new model's refusal (msh_import.c): MSH nodes have no scale. */
static ue_result check_scale(edit_ctx *x, size_t si) {
    const ue_scene_node *sn = &x->s->nodes[si];
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu/scale", si);
    for (int k = 0; k < 3; k++)
        if (fabsf(sn->scale[k] - 1.0f) > SCALE_TOL)
            return ue_msh_edit_fail(x, "msh.import.scale", path,
                                    "node '%s' has scale (%g, %g, %g); MSH nodes have translation and rotation only "
                                    "(apply the scale to the mesh)", sn->name, sn->scale[0], sn->scale[1], sn->scale[2]);
    return UE_OK;
}

/* A node with no model node behind it (the wrapper root convert adds, a group's child) has no
 * key to hold a transform; moving every model node under it would also rewrite their tracks,
 * so a changed transform there is refused rather than dropped. */
static ue_result check_unmapped_pose(edit_ctx *x, size_t si) {
    const ue_scene_node *sn = &x->s->nodes[si], *bn = &x->base->nodes[x->b_of_s[si]];
    char path[48];
    bool moved = ue_msh_edit_translation_differs(sn->translation, bn->translation);
    snprintf(path, sizeof path, "/nodes/%zu/%s", si, moved ? "translation" : "rotation");
    if (moved || ue_msh_edit_quat_differs(sn->rotation, bn->rotation))
        return ue_msh_edit_fail(x, "import.node.transform", path,
                                "node '%s' is no MSH node (convert adds it to hold the model) and has no transform "
                                "of its own; move the model's nodes instead", sn->name);
    return UE_OK;
}

/* A static node's rest pose is its one key; an animated node's is its last key, owned by the
 * animation, so a differing node transform there is reported and the animation decides. */
static ue_result apply_rest_pose(edit_ctx *x, size_t si, size_t n) {
    const ue_scene_node *sn = &x->s->nodes[si], *bn = &x->base->nodes[x->b_of_s[si]];
    char path[48];
    snprintf(path, sizeof path, "/nodes/%zu", si);
    bool moved = ue_msh_edit_translation_differs(sn->translation, bn->translation);
    if (!moved && !ue_msh_edit_quat_differs(sn->rotation, bn->rotation)) return UE_OK;
    if (x->m->nodes[n].anim_map_start != UE_MSH_NONE && ue_msh_is_animated(x->m)) {
        ue_diag_add(x->d, UE_SEV_WARNING, "import.node.animated", UE_NO_OFFSET, path,
                    "the node is animated: its rest pose is its last animation key, so the changed "
                    "transform is not used (edit the animation instead)");
        return UE_OK;
    }
    float t[3], q[4];
    ue_parkan_vec_from_gltf(sn->translation, t);
    ue_parkan_quat_from_gltf(sn->rotation, q);
    x->bounds_dirty = true;
    return ue_msh_set_rest_pose(x->m, n, t, q);
}

/* ---- nodes the glTF deleted ---------------------------------------------------------------- */

/* Appends ", \"name\"" to a list of names, or "…" once it is full. */
static void list_name(char *list, size_t cap, const char *name) {
    size_t at = strlen(list);
    if (at + strlen(name) + 8 >= cap) {
        if (at + 4 < cap && !strstr(list, "…")) snprintf(list + at, cap - at, ", …");
        return;
    }
    snprintf(list + at, cap - at, "%s\"%s\"", at ? ", " : "", name);
}

/* The model nodes no scene node matched are a subtree the client deleted (the matcher let
 * nothing else through): removed with their slots and tracks, and named in one warning, since
 * every node after them changes its index. */
static ue_result remove_deleted_nodes(edit_ctx *x) {
    size_t nb = x->base->node_count, count = 0;
    bool *matched = calloc(nb + 1, sizeof *matched), *doomed = calloc(x->m->node_count + 1, sizeof *doomed);
    char names[200] = "";
    if (!matched || !doomed) return free(matched), free(doomed), UE_ERR_NOMEM;
    for (size_t si = 0; si < x->s->node_count; si++)
        if (x->b_of_s[si] >= 0) matched[x->b_of_s[si]] = true;
    for (size_t b = 0; b < nb; b++)
        if (!matched[b] && x->msh_of_b[b] >= 0) {
            doomed[x->msh_of_b[b]] = true;
            count++;
            list_name(names, sizeof names, x->base->nodes[b].name);
        }
    ue_result r = UE_OK;
    if (count == x->m->node_count)
        r = ue_msh_edit_fail(x, "import.base.tree", "/nodes",
                             "the glTF deletes every node of the base model; import it without --base");
    else if (count)
        r = ue_msh_remove_nodes(x->m, doomed, x->d);
    if (count && r == UE_OK)
        ue_diag_add(x->d, UE_SEV_WARNING, "import.node.removed", UE_NO_OFFSET, "/nodes",
                    "the glTF deletes %zu node%s of the base model, removed with their slots and tracks (the nodes "
                    "after them are renumbered): %s", count, count == 1 ? "" : "s", names);
    free(matched);
    free(doomed);
    return r;
}

/* ---- the entry point ------------------------------------------------------------------------ */

/* Times compare only at the rate the glTF was written with: the option, else the clip's. */
float ue_msh_edit_fps(const ue_scene *s, const ue_msh_import_options *o) {
    if (o && o->fps > 0) return o->fps;
    size_t others = 0;
    int32_t clip = ue_msh_import_node_clip(s, &others);
    if (clip >= 0 && s->animations[clip].fps > 0 && s->animations[clip].fps <= 1000) return s->animations[clip].fps;
    return UE_MSH_DEFAULT_FPS;
}

static ue_result edit_alloc(edit_ctx *x) {
    size_t nodes = x->s->node_count + 1, verts = x->m->vertex_count + 1, slots = x->m->slot_count + 1;
    x->b_of_s = calloc(nodes, sizeof *x->b_of_s);
    x->moved = calloc(verts, 1);
    x->mesh_done = calloc(x->s->mesh_count + 1, 1);
    x->slot_touched = calloc(slots, sizeof *x->slot_touched);
    x->saved = calloc(slots, sizeof *x->saved);
    x->material_row = calloc(x->s->material_count + 1, sizeof *x->material_row);
    x->slot_count0 = x->m->slot_count;
    x->vertex_count0 = x->m->vertex_count;
    return x->b_of_s && x->moved && x->mesh_done && x->slot_touched && x->saved && x->material_row ? UE_OK
                                                                                    : UE_ERR_NOMEM;
}

static void edit_free(edit_ctx *x) {
    ue_msh_edit_match_free(x);
    ue_scene_free(&x->own_base);
    free(x->b_of_s);
    free(x->msh_of_b);
    free(x->moved);
    free(x->mesh_done);
    free(x->slot_touched);
    free(x->saved);
    free(x->material_row);
}

static ue_result apply_nodes(edit_ctx *x) {
    ue_result r = UE_OK;
    for (size_t si = 0; si < x->s->node_count && r == UE_OK; si++) {
        if (x->b_of_s[si] < 0) continue; /* a client's identity wrapper above the model, or carrier */
        int32_t n = x->msh_of_b[x->b_of_s[si]];
        bool pose = !ue_msh_edit_pose_folded(x, si); /* else the node's pose is the base's */
        r = pose ? check_scale(x, si) : UE_OK;
        if (r == UE_OK && pose && n < 0) r = check_unmapped_pose(x, si);
        if (r == UE_OK && n >= 0) r = apply_name(x, si, (size_t)n);
        if (r == UE_OK && pose && n >= 0) r = apply_rest_pose(x, si, (size_t)n);
        if (r == UE_OK) r = ue_msh_edit_apply_mesh(x, si);
    }
    return r;
}

/* MSH has no skins, so the base's export has none and a glTF skin is always a client's addition.
 * Refused before the node matching, whose first complaint would otherwise be the skin's new
 * joint nodes. Same code as a new model's skin that cannot be made rigid (msh_import_mesh.c). */
static ue_result refuse_skins(edit_ctx *x) {
    if (x->s->skin_count == 0) return UE_OK;
    const char *user = NULL;
    for (size_t i = 0; i < x->s->node_count && !user; i++)
        if (x->s->nodes[i].skin == 0) user = x->s->nodes[i].name;
    return ue_msh_edit_fail(x, "msh.import.skin", "/skins/0",
                            "the glTF has %zu skin%s (the first on node '%s'); MSH has no skins: parts move "
                            "rigidly with their nodes (remove the skin and make each part a mesh of the node "
                            "it moves with)", x->s->skin_count, x->s->skin_count == 1 ? "" : "s",
                            user ? user : "none");
}

ue_result ue_msh_apply_scene(ue_msh *base, const ue_scene *s, const ue_msh_import_options *o, ue_diag *d) {
    if (!base || !s) return UE_ERR_USAGE;
    if (base->legacy_nodes || !base->nodes) {
        ue_diag_add(d, UE_SEV_ERROR, "import.base.nodes", UE_NO_OFFSET, "msh/res1",
                    "the base model has no decodable node table (legacy stride-24 models are copy-through only)");
        return UE_ERR_UNSUPPORTED;
    }
    edit_ctx x;
    memset(&x, 0, sizeof x);
    x.m = base, x.s = s, x.d = d;
    x.fps = ue_msh_edit_fps(s, o);
    x.reference = o ? o->reference : NULL;
    x.base_exports = o ? o->base_exports : NULL;
    ue_scene_init(&x.own_base);
    ue_result r = edit_alloc(&x);
    if (r == UE_OK && ue_scene_validate(s, d) != UE_OK)
        r = ue_msh_edit_fail(&x, "import.scene", "/", "the glTF scene is not consistent (see the messages above)");
    if (r == UE_OK) r = refuse_skins(&x);
    if (r == UE_OK) r = ue_msh_edit_match_selection(&x);
    if (r == UE_OK) {
        ue_msh_edit_material_rows(&x);
        x.pos_tol = ue_msh_edit_position_tolerance(x.base);
        ue_msh_edit_save_bounds(&x);
        r = apply_nodes(&x);
    }
    if (r == UE_OK) r = ue_msh_edit_apply_animation(&x);
    if (r == UE_OK) ue_msh_edit_finish_bounds(&x);
    if (r == UE_OK) r = remove_deleted_nodes(&x); /* last: it renumbers the nodes the steps above use */
    edit_free(&x);
    return r;
}
