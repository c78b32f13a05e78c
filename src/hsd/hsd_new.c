/* unearth — a new HSD model from any glTF scene (docs/hsd-import.md#new-models): a joint per node,
 * meshes, skins and materials built by hsd_new_mesh.c / hsd_new_skin.c / hsd_new_material.c, written as a DAT. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_new.h"
#include "hsd/hsd_pose.h"

int32_t hsd_new_row(void **p, size_t *n, size_t *cap, size_t elem) {
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 16;
        void *q = realloc(*p, c * elem);
        if (!q) return -1;
        *p = q, *cap = c;
    }
    memset((char *)*p + *n * elem, 0, elem);
    return (int32_t)(*n)++;
}

ue_buf *hsd_new_buf(hsd_new *b) {
    ue_buf *nb = calloc(1, sizeof *nb);
    size_t at = b->buf_count;
    if (!nb || hsd_new_row((void **)&b->bufs, &b->buf_count, &b->buf_cap, sizeof *b->bufs) < 0) {
        free(nb);
        return NULL;
    }
    b->bufs[at] = nb;
    return nb;
}

static void hsd_new_free(hsd_new *b) {
    ue_hsd_model *m = &b->m;
    free(m->joints), free(m->dobjs), free(m->pobjs), free(m->attrs), free(m->mobjs), free(m->tobjs);
    free(m->images), free(m->envelopes), free(m->weights), free(b->joint_of_node), free(b->mobj_of_material);
    free(b->image_of_texture), free(b->node_world);
    free(b->material_colours);
    hsd_new_skin_free(&b->sk);
    for (size_t i = 0; i < b->buf_count; i++) ue_buf_free(b->bufs[i]), free(b->bufs[i]);
    free(b->bufs);
}

/* ---- the joint tree ------------------------------------------------------------------------- */

static bool identity_rotation(const ue_scene_node *n) {
    return fabsf(n->rotation[0]) < 1e-6f && fabsf(n->rotation[1]) < 1e-6f && fabsf(n->rotation[2]) < 1e-6f;
}

static int32_t add_joint(hsd_new *b, const char *name, int32_t parent, int32_t *last_child) {
    int32_t j = hsd_new_row((void **)&b->m.joints, &b->m.joint_count, &b->joint_cap, sizeof *b->m.joints);
    if (j < 0) return -1;
    ue_hsd_joint *jt = &b->m.joints[j];
    jt->class_name = name;
    jt->parent = parent;
    jt->first_child = jt->next_sibling = jt->first_dobj = UE_HSD_NONE;
    jt->scale[0] = jt->scale[1] = jt->scale[2] = 1;
    if (parent >= 0) {
        if (last_child[parent] < 0) b->m.joints[parent].first_child = j;
        else b->m.joints[last_child[parent]].next_sibling = j;
        last_child[parent] = j;
        jt->depth = b->m.joints[parent].depth + 1;
    }
    return j;
}

/* Each node's children in node order as linked lists (first_child, next_sibling by node). */
static void child_lists(const ue_scene *s, int32_t *first_child, int32_t *next_sibling) {
    for (size_t i = 0; i < s->node_count; i++) first_child[i] = next_sibling[i] = -1;
    for (size_t i = s->node_count; i-- > 0;) {
        int32_t p = s->nodes[i].parent;
        if (p < 0 || (size_t)p >= s->node_count) continue;
        next_sibling[i] = first_child[p];
        first_child[p] = (int32_t)i;
    }
}

/* Node `node` and its subtree in depth-first pre-order (children in node order), without
 * recursion: `stack` holds up to node_count entries. */
static ue_result add_subtree(hsd_new *b, int32_t node, int32_t parent, int32_t *stack, int32_t *last_child,
                             const int32_t *first_child, const int32_t *next_sibling) {
    const ue_scene *s = b->s;
    size_t top = 0;
    stack[top++] = node;
    b->joint_of_node[node] = -2; /* pending: its parent joint is `parent` */
    int32_t root_parent = parent;
    while (top) {
        int32_t n = stack[--top];
        const ue_scene_node *sn = &s->nodes[n];
        int32_t pj = sn->parent >= 0 && n != node ? b->joint_of_node[sn->parent] : root_parent;
        int32_t j = add_joint(b, sn->name, pj, last_child);
        if (j < 0) return UE_ERR_NOMEM;
        b->joint_of_node[n] = j;
        ue_hsd_joint *jt = &b->m.joints[j];
        if (jt->depth >= HSD_NEW_MAX_DEPTH) {
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.limit", UE_NO_OFFSET, "/nodes", "node %d is %u levels deep; the runtime's reader takes %d",
                        (int)n, (unsigned)jt->depth, HSD_NEW_MAX_DEPTH);
            return UE_ERR_INVALID;
        }
        hsd_euler_from_quaternion(sn->rotation, jt->rotation);
        memcpy(jt->scale, sn->scale, sizeof jt->scale);
        memcpy(jt->translation, sn->translation, sizeof jt->translation);
        /* Children pushed, then that run reversed, so they come out in node order. */
        size_t run = top;
        for (int32_t c = first_child[n]; c >= 0; c = next_sibling[c])
            if (b->joint_of_node[c] == -1) {
                if (top >= s->node_count) return UE_ERR_INVALID;
                b->joint_of_node[c] = -2;
                stack[top++] = c;
            }
        for (size_t i = run, k = top; i + 1 < k; i++, k--) {
            int32_t t = stack[i];
            stack[i] = stack[k - 1], stack[k - 1] = t;
        }
    }
    return UE_OK;
}

static ue_result build_joints(hsd_new *b) {
    const ue_scene *s = b->s;
    size_t roots = 0;
    int32_t first_root = -1;
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent < 0) roots++, first_root = first_root < 0 ? (int32_t)i : first_root;
    b->joint_of_node = malloc((s->node_count + 1) * sizeof *b->joint_of_node);
    int32_t *stack = malloc((s->node_count + 1) * sizeof *stack);
    int32_t *last_child = malloc((s->node_count + 2) * sizeof *last_child);
    int32_t *first_child = malloc((s->node_count + 1) * sizeof *first_child);
    int32_t *next_sibling = malloc((s->node_count + 1) * sizeof *next_sibling);
    ue_result r = b->joint_of_node && stack && last_child && first_child && next_sibling ? UE_OK : UE_ERR_NOMEM;
    if (r == UE_OK) child_lists(s, first_child, next_sibling);
    for (size_t i = 0; r == UE_OK && i < s->node_count + 2; i++) last_child[i] = -1;
    for (size_t i = 0; r == UE_OK && i < s->node_count; i++) b->joint_of_node[i] = -1;
    /* The runtime needs one root joint with no rotation, and a skinned mesh's owner (the root)
     * must not be one of its weight joints: a root is added when the scene lacks such a one. */
    int32_t top = -1;
    if (r == UE_OK && (roots != 1 || !identity_rotation(&s->nodes[first_root]) ||
                       (b->sk.owner >= 0 && hsd_new_skin_joint(s, first_root))))
        top = add_joint(b, "root", -1, last_child), r = top < 0 ? UE_ERR_NOMEM : UE_OK;
    for (size_t i = 0; r == UE_OK && i < s->node_count; i++)
        if (s->nodes[i].parent < 0) r = add_subtree(b, (int32_t)i, top, stack, last_child, first_child, next_sibling);
    for (size_t i = 0; r == UE_OK && i < s->node_count; i++)
        if (b->joint_of_node[i] < 0) { /* a parent cycle the reader let through */
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.joint", UE_NO_OFFSET, "/nodes", "node %zu is in no tree (a parent cycle)", i);
            r = UE_ERR_INVALID;
        }
    free(stack);
    free(last_child);
    free(first_child);
    free(next_sibling);
    b->st.joints = b->m.joint_count;
    /* The owner of skinned meshes: the root, a skeleton root (no R: vertices of several joints in
     * bind space, of one joint in that joint's space). */
    if (r == UE_OK && b->sk.owner >= 0)
        b->m.joints[0].flags |= UE_JOBJ_SKELETON_ROOT | UE_JOBJ_ENVELOPE_MODEL | UE_JOBJ_LIGHTING;
    return r;
}

/* ---- meshes --------------------------------------------------------------------------------- */

static bool has_rigid(const ue_scene *s, int32_t node) {
    const ue_scene_mesh *mesh = &s->meshes[s->nodes[node].mesh];
    for (size_t p = 0; p < mesh->primitive_count; p++)
        if (!mesh->primitives[p].joints) return true;
    return false;
}

/* Each mesh node's primitives under its joint, brought from the node's glTF world into the
 * joint's HSD world (the same matrix unless parents scale non-uniformly). */
static ue_result build_meshes(hsd_new *b) {
    hsd_pose pose;
    ue_result r = hsd_pose_compute(&b->m, UE_MODE_STRICT, &pose, b->d);
    b->node_world = r == UE_OK ? malloc((b->s->node_count + 1) * 16 * sizeof *b->node_world) : NULL;
    if (r == UE_OK) r = b->node_world ? hsd_scene_worlds(b->s, false, b->node_world) : UE_ERR_NOMEM;
    if (r == UE_OK && b->sk.owner >= 0) r = hsd_new_skin_binds(b, &pose);
    for (size_t n = 0; r == UE_OK && n < b->s->node_count; n++) {
        if (b->s->nodes[n].mesh < 0) continue;
        if (hsd_new_skinned(b->s, (int32_t)n)) r = hsd_new_skinned_mesh(b, (int32_t)n);
        if (r != UE_OK || !has_rigid(b->s, (int32_t)n)) continue;
        int32_t j = b->joint_of_node[n];
        double inv[16], to_joint[16];
        if (!hsd_mat_invert(&pose.world[16 * (size_t)j], inv)) {
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.joint", UE_NO_OFFSET, "/nodes", "node %zu (%s) has no inverse (a zero scale on it or a parent)",
                        n, b->s->nodes[n].name);
            r = UE_ERR_INVALID;
        }
        if (r == UE_OK) hsd_mat_mul(inv, &b->node_world[16 * n], to_joint);
        if (r == UE_OK) r = hsd_new_mesh(b, (int32_t)n, j, to_joint);
    }
    hsd_pose_free(&pose);
    return r;
}

/* Which materials (+1: 0 is the default) draw vertex colours (bit 1) with some alpha below 1 (bit 2),
 * in one pass over every primitive. */
static ue_result material_colours(hsd_new *b) {
    const ue_scene *s = b->s;
    b->material_colours = calloc(s->material_count + 1, 1);
    if (!b->material_colours) return UE_ERR_NOMEM;
    for (size_t m = 0; m < s->mesh_count; m++)
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++) {
            const ue_scene_primitive *pr = &s->meshes[m].primitives[p];
            if (!pr->colors[0]) continue;
            size_t at = pr->material >= 0 && (size_t)pr->material < s->material_count ? (size_t)pr->material + 1 : 0;
            b->material_colours[at] |= 1;
            for (uint32_t i = 0; i < pr->vertex_count && !(b->material_colours[at] & 2); i++)
                if (pr->colors[0][4 * i + 3] < 1) b->material_colours[at] |= 2;
        }
    return UE_OK;
}

/* ---- checks before any work ----------------------------------------------------------------- */

/* A primitive with joints needs its node's skin; a scene with one gets an owner joint. */
static ue_result check_skins(hsd_new *b) {
    b->sk.owner = -1;
    for (size_t n = 0; n < b->s->node_count; n++) {
        const ue_scene_node *sn = &b->s->nodes[n];
        if (!hsd_new_skinned(b->s, (int32_t)n)) continue;
        if (sn->skin < 0 || (size_t)sn->skin >= b->s->skin_count) {
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.skin", UE_NO_OFFSET, "/nodes",
                        "node %zu (%s) draws a mesh with joints but has no skin", n, sn->name);
            return UE_ERR_INVALID;
        }
        b->sk.owner = 0; /* the tree root, once the tree is built */
    }
    return UE_OK;
}

static ue_result check_result(hsd_new *b) {
    if (!b->st.triangles) {
        ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.empty", UE_NO_OFFSET, "/meshes", "the scene has no triangles to draw");
        return UE_ERR_INVALID;
    }
    return UE_OK;
}

/* The DAT written and read back as validate --strict reads it. */
static ue_result write_checked(hsd_new *b, ue_buf *out) {
    ue_hsd_model_set set = {0, "scene_data", 0, 0, 0, 0};
    b->m.sets = &set;
    b->m.set_count = 1;
    ue_buf tmp = {0};
    ue_result r = ue_hsd_model_write(&b->m, &tmp, b->d);
    ue_dat dat;
    memset(&dat, 0, sizeof dat);
    ue_hsd_model back;
    memset(&back, 0, sizeof back);
    if (r == UE_OK) r = ue_dat_parse(tmp.data, tmp.size, UE_MODE_STRICT, &dat, b->d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &back, b->d);
    ue_hsd_model_free(&back);
    ue_dat_free(&dat);
    b->m.sets = NULL;
    b->m.set_count = 0;
    if (r == UE_OK) {
        ue_buf_free(out);
        *out = tmp;
    } else {
        ue_buf_free(&tmp);
    }
    return r;
}

ue_result ue_hsd_from_scene(const ue_scene *s, const ue_hsd_new_options *o, ue_buf *out, ue_hsd_new_stats *stats,
                            ue_diag *d) {
    static const ue_hsd_new_options defaults = {UE_HSD_TEXTURE_AUTO, 0};
    hsd_new b;
    memset(&b, 0, sizeof b);
    b.s = s, b.o = o ? o : &defaults, b.d = d;
    ue_result r = check_skins(&b);
    if (r == UE_OK) {
        b.mobj_of_material = malloc((s->material_count + 1) * sizeof *b.mobj_of_material);
        b.image_of_texture = malloc((s->texture_count + 1) * sizeof *b.image_of_texture);
        if (!b.mobj_of_material || !b.image_of_texture) r = UE_ERR_NOMEM;
        for (size_t i = 0; r == UE_OK && i <= s->material_count; i++) b.mobj_of_material[i] = -1;
        for (size_t i = 0; r == UE_OK && i <= s->texture_count; i++) b.image_of_texture[i] = -1;
    }
    if (r == UE_OK) r = material_colours(&b);
    if (r == UE_OK) r = build_joints(&b);
    if (r == UE_OK) r = build_meshes(&b);
    if (r == UE_OK) r = check_result(&b);
    hsd_clip_plan clips = {0};
    if (r == UE_OK) r = hsd_new_clips(&b, &clips);
    if (r == UE_OK) r = write_checked(&b, out);
    if (r == UE_OK) r = hsd_new_clips_check(&clips, out, d);
    if (r == UE_OK && b.sk.cut_vertices)
        ue_diag_add(d, UE_SEV_WARNING, "import.hsd.new.influences", UE_NO_OFFSET, "/meshes",
                    "%zu vertices had more than %d joint influences: the %d largest kept, their weights renormalised",
                    b.sk.cut_vertices, HSD_NEW_MAX_INFLUENCES, HSD_NEW_MAX_INFLUENCES);
    b.st.envelopes = b.sk.set.count;
    if (r == UE_OK && stats) {
        int32_t *anim_index = stats->anim_index; /* the caller's room, kept */
        *stats = b.st;
        stats->anim_index = anim_index;
        for (size_t a = 0; anim_index && a < s->animation_count; a++)
            anim_index[a] = clips.anim_index ? clips.anim_index[a] : -1;
    }
    hsd_new_clips_free(&b, &clips);
    hsd_new_free(&b);
    return r;
}
