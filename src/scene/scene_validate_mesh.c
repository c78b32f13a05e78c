/* unearth — scene IR validation of meshes and skins: vertex sets, skinning weights, primitives,
 * skin joints and the node/mesh/skin cross-checks that glTF imposes on skinned meshes. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scene/scene_int.h"
#include "unearth/scene.h"

/* Scratch of the skin checks, one slot per node, so that each is linear in joints and nodes
 * (a skin may list tens of thousands of joints). */
typedef struct skin_scratch {
    size_t *listed;   /* the skin (index + 1) that last listed the node as a joint */
    size_t *root;     /* the node's topmost ancestor, SIZE_MAX until known */
    size_t *under;    /* 2·(skin + 1) when the node is known under the skin's skeleton, that + 1 when not */
    size_t *chain;    /* a walk's nodes */
} skin_scratch;

/* The topmost ancestor of node n (itself for a root), remembered for every node walked; assumes
 * no cycles. */
static size_t root_of(const ue_scene *s, skin_scratch *x, size_t n) {
    size_t len = 0;
    while (x->root[n] == SIZE_MAX && s->nodes[n].parent >= 0 && len < s->node_count) {
        x->chain[len++] = n;
        n = (size_t)s->nodes[n].parent;
    }
    size_t top = x->root[n] != SIZE_MAX ? x->root[n] : n;
    x->root[n] = top;
    while (len) x->root[x->chain[--len]] = top;
    return top;
}

/* Whether node anc is n or one of its ancestors, the answer remembered for every node walked
 * (tag: 2·(skin + 1), new for each skin); assumes no cycles. */
static bool is_ancestor_or_self(const ue_scene *s, skin_scratch *x, size_t tag, size_t anc, size_t n) {
    size_t len = 0;
    bool yes = false;
    for (;;) {
        if (x->under[n] == tag || x->under[n] == tag + 1) {
            yes = x->under[n] == tag;
            break;
        }
        x->chain[len++] = n;
        if (n == anc) {
            yes = true;
            break;
        }
        if (s->nodes[n].parent < 0 || len >= s->node_count) break;
        n = (size_t)s->nodes[n].parent;
    }
    while (len) x->under[x->chain[--len]] = yes ? tag : tag + 1;
    return yes;
}

/* UV and colour sets: finite, colours in [0, 1], and used in order (glTF numbers them
 * TEXCOORD_0, _1 … without gaps). */
static void validate_vertex_sets(vctx *v, const ue_scene_primitive *p, const char *base) {
    char path[160], what[16];
    size_t vc = p->vertex_count;
    for (int k = 0; k < UE_MAX_UV_SETS; k++) {
        if (!p->uv[k]) continue;
        snprintf(what, sizeof what, "uv%d", k);
        ue_scene_check_finite(v, base, what, p->uv[k], vc * 2);
        if (k > 0 && !p->uv[k - 1])
            ue_scene_verr(v, "scene.prim.uv", base, "uv set %d is given but set %d is not", k, k - 1);
    }
    for (int k = 0; k < UE_MAX_COLOR_SETS; k++) {
        const float *c = p->colors[k];
        if (!c) continue;
        snprintf(what, sizeof what, "colors%d", k);
        ue_scene_check_finite(v, base, what, c, vc * 4);
        if (k > 0 && !p->colors[k - 1])
            ue_scene_verr(v, "scene.prim.color", base, "colour set %d is given but set %d is not", k,
                 k - 1);
        for (size_t i = 0; i < vc * 4; i++)
            if (c[i] < 0.0f || c[i] > 1.0f) {
                snprintf(path, sizeof path, "%s/%s[%zu]", base, what, i);
                ue_scene_verr(v, "scene.prim.color", path, "colour component %g outside [0, 1]",
                     (double)c[i]);
                break;
            }
    }
}

/* Joint influences: 1..8 per vertex, weights non-negative summing to 1, no joint twice. */
static void validate_skinning(vctx *v, const ue_scene_primitive *p, const char *base) {
    char path[160];
    if (!p->joints != !p->weights)
        ue_scene_verr(v, "scene.prim.skin", base, "joints and weights must be given together");
    if (!p->weights) return;
    size_t n = p->influences;
    if (n == 0 || n > UE_MAX_INFLUENCES) {
        ue_scene_verr(v, "scene.prim.influences", base, "%zu influences per vertex (1..%d allowed)", n,
             UE_MAX_INFLUENCES);
        return;
    }
    ue_scene_check_finite(v, base, "weights", p->weights, (size_t)p->vertex_count * n);
    for (size_t i = 0; i < p->vertex_count; i++) {
        const float *w = p->weights + i * n;
        double sum = 0;
        bool neg = false;
        for (size_t k = 0; k < n; k++) {
            sum += w[k];
            if (w[k] < 0) neg = true;
        }
        if (neg || !(fabs(sum - 1.0) <= 1e-3)) {
            snprintf(path, sizeof path, "%s/weights[%zu]", base, i);
            ue_scene_verr(v, "scene.prim.weights", path,
                 "weights must be non-negative and sum to 1 (sum %.6g)", sum);
            return;
        }
        if (!p->joints) continue;
        const uint16_t *j = p->joints + i * n;
        for (size_t a = 0; a < n; a++)
            for (size_t b = a + 1; b < n; b++)
                if (w[a] != 0 && w[b] != 0 && j[a] == j[b]) {
                    snprintf(path, sizeof path, "%s/joints[%zu]", base, i);
                    ue_scene_verr(v, "scene.prim.joints", path,
                         "a joint appears twice with non-zero weights");
                    return;
                }
    }
}

void ue_scene_validate_primitive(vctx *v, const ue_scene *s, size_t mi, size_t pi) {
    const ue_scene_primitive *p = &s->meshes[mi].primitives[pi];
    char base[160], path[160];
    snprintf(base, sizeof base, "scene/meshes[%zu]/primitives[%zu]", mi, pi);
    if (p->vertex_count == 0 || !p->positions) {
        ue_scene_verr(v, "scene.prim.empty", base, "primitive has no vertices/positions");
        return;
    }
    if (p->vertex_count > UE_SCENE_MAX_VERTICES) {
        ue_scene_verr(v, "scene.prim.cap", base, "%u vertices exceed the cap", (unsigned)p->vertex_count);
        return;
    }
    size_t vc = p->vertex_count;
    ue_scene_check_finite(v, base, "positions", p->positions, vc * 3);
    if (p->normals) {
        ue_scene_check_finite(v, base, "normals", p->normals, vc * 3);
        for (size_t i = 0; i < vc; i++) {
            const float *nv = p->normals + i * 3;
            double l = sqrt((double)nv[0] * nv[0] + (double)nv[1] * nv[1] + (double)nv[2] * nv[2]);
            if (isfinite(l) && l < 1e-6) {
                snprintf(path, sizeof path, "%s/normals[%zu]", base, i);
                ue_scene_verr(v, "scene.prim.normal", path, "zero-length normal");
                break;
            }
        }
    }
    if (p->tangents) {
        ue_scene_check_finite(v, base, "tangents", p->tangents, vc * 4);
        for (size_t i = 0; i < vc; i++) {
            const float *t = p->tangents + i * 4;
            double l = sqrt((double)t[0] * t[0] + (double)t[1] * t[1] + (double)t[2] * t[2]);
            if (isfinite(l) && (l < 1e-6 || (t[3] != 1.0f && t[3] != -1.0f))) {
                snprintf(path, sizeof path, "%s/tangents[%zu]", base, i);
                ue_scene_verr(v, "scene.prim.tangent", path, "zero-length tangent or w not ±1");
                break;
            }
        }
    }
    validate_vertex_sets(v, p, base);
    validate_skinning(v, p, base);
    if (p->index_count % 3 != 0) {
        snprintf(path, sizeof path, "%s/index_count", base);
        ue_scene_verr(v, "scene.prim.indices", path, "index count %u is not a multiple of 3",
             (unsigned)p->index_count);
    }
    if (p->index_count && !p->indices) {
        ue_scene_verr(v, "scene.prim.indices", base, "index_count %u but no index array",
             (unsigned)p->index_count);
    } else {
        for (size_t i = 0; i < p->index_count; i++)
            if (p->indices[i] >= p->vertex_count) {
                snprintf(path, sizeof path, "%s/indices[%zu]", base, i);
                ue_scene_verr(v, "scene.prim.index", path, "index %u >= vertex count %u",
                     (unsigned)p->indices[i], (unsigned)p->vertex_count);
                break;
            }
    }
    if (p->index_count == 0 && p->vertex_count % 3 != 0)
        ue_scene_verr(v, "scene.prim.indices", base,
             "non-indexed primitive needs a vertex count that is a multiple of 3");
    if (p->material < -1 || p->material >= (int64_t)s->material_count) {
        snprintf(path, sizeof path, "%s/material", base);
        ue_scene_verr(v, "scene.prim.material", path, "material %d out of range (%zu materials)",
             (int)p->material, s->material_count);
    } else if (p->material >= 0) {
        const ue_scene_material *m = &s->materials[p->material];
        for (size_t k = 0; k < m->slot_count && k < UE_MAX_TEXTURE_SLOTS; k++) {
            uint32_t set = m->slots[k].uv_set;
            if (!m->slots[k].generated && set < UE_MAX_UV_SETS && !p->uv[set]) {
                ue_scene_verr(v, "scene.prim.uv", base,
                     "material %d slot %zu reads uv set %u, which the primitive lacks",
                     (int)p->material, k, (unsigned)set);
                break;
            }
        }
    }
}

static void skin_checks(vctx *v, const ue_scene *s, skin_scratch *x);

void ue_scene_validate_skins(vctx *v, const ue_scene *s) {
    if (!s->skin_count) return;
    size_t n = s->node_count + 1;
    skin_scratch x = {calloc(n, sizeof(size_t)), malloc(n * sizeof(size_t)), calloc(n, sizeof(size_t)),
                      malloc(n * sizeof(size_t))};
    if (x.listed && x.root && x.under && x.chain) {
        for (size_t i = 0; i < n; i++) x.root[i] = SIZE_MAX;
        skin_checks(v, s, &x);
    } else {
        ue_scene_verr(v, "scene.nomem", "scene/skins", "out of memory while validating");
    }
    free(x.listed);
    free(x.root);
    free(x.under);
    free(x.chain);
}

static void skin_checks(vctx *v, const ue_scene *s, skin_scratch *x) {
    for (size_t i = 0; i < s->skin_count; i++) {
        const ue_scene_skin *k = &s->skins[i];
        char base[160], path[160];
        snprintf(base, sizeof base, "scene/skins[%zu]", i);
        if (!ue_scene_name_ok(k->name)) ue_scene_verr(v, "scene.name", base, "name is not NUL-terminated");
        if (k->joint_count == 0 || !k->joints) {
            ue_scene_verr(v, "scene.skin.joints", base, "skin has no joints");
            continue;
        }
        bool range_ok = true;
        for (size_t j = 0; j < k->joint_count; j++) {
            if (k->joints[j] < 0 || k->joints[j] >= (int64_t)s->node_count) {
                snprintf(path, sizeof path, "%s/joints[%zu]", base, j);
                ue_scene_verr(v, "scene.skin.joint", path, "joint node %d out of range", (int)k->joints[j]);
                range_ok = false;
                continue;
            }
            if (x->listed[k->joints[j]] == i + 1) {
                snprintf(path, sizeof path, "%s/joints[%zu]", base, j);
                ue_scene_verr(v, "scene.skin.joint", path, "joint node %d listed twice",
                     (int)k->joints[j]);
            }
            x->listed[k->joints[j]] = i + 1;
        }
        if (k->inverse_bind) {
            ue_scene_check_finite(v, base, "inverse_bind", k->inverse_bind, k->joint_count * 16);
            for (size_t j = 0; j < k->joint_count; j++) {
                const float *m = k->inverse_bind + j * 16;
                if (fabsf(m[3]) > 1e-4f || fabsf(m[7]) > 1e-4f || fabsf(m[11]) > 1e-4f ||
                    fabsf(m[15] - 1.0f) > 1e-4f) {
                    snprintf(path, sizeof path, "%s/inverse_bind[%zu]", base, j);
                    ue_scene_verr(v, "scene.skin.ibm", path,
                         "inverse bind matrix is not affine (last row must be 0 0 0 1)");
                    break;
                }
            }
        }
        if (k->skeleton < -1 || k->skeleton >= (int64_t)s->node_count) {
            snprintf(path, sizeof path, "%s/skeleton", base);
            ue_scene_verr(v, "scene.skin.skeleton", path, "skeleton node %d out of range", (int)k->skeleton);
        }
        if (!range_ok || !v->forest_ok) continue; /* ancestry needs a sound node forest */
        size_t root = root_of(s, x, (size_t)k->joints[0]);
        for (size_t j = 1; j < k->joint_count; j++)
            if (root_of(s, x, (size_t)k->joints[j]) != root) {
                snprintf(path, sizeof path, "%s/joints[%zu]", base, j);
                ue_scene_verr(v, "scene.skin.root", path, "joints do not share a common root");
                break;
            }
        if (k->skeleton >= 0)
            for (size_t j = 0; j < k->joint_count; j++)
                if (!is_ancestor_or_self(s, x, 2 * (i + 1), (size_t)k->skeleton, (size_t)k->joints[j])) {
                    snprintf(path, sizeof path, "%s/skeleton", base);
                    ue_scene_verr(v, "scene.skin.skeleton", path,
                         "skeleton node %d is not an ancestor of joint node %d",
                         (int)k->skeleton, (int)k->joints[j]);
                    break;
                }
    }
}

/* Cross-checks between nodes, meshes and skins that glTF imposes on skinned meshes. */
void ue_scene_validate_instancing(vctx *v, const ue_scene *s) {
    for (size_t i = 0; i < s->node_count; i++) {
        const ue_scene_node *n = &s->nodes[i];
        if (n->mesh < 0 || n->mesh >= (int64_t)s->mesh_count) continue;
        if (n->skin >= (int64_t)s->skin_count) continue;
        const ue_scene_mesh *m = &s->meshes[n->mesh];
        if (!m->primitives) continue;
        char path[160];
        snprintf(path, sizeof path, "scene/nodes[%zu]", i);
        for (size_t p = 0; p < m->primitive_count; p++) {
            const ue_scene_primitive *pr = &m->primitives[p];
            if (n->skin < 0 && pr->joints) {
                ue_scene_verr(v, "scene.node.skin", path,
                     "mesh %d has joints/weights but the node has no skin", (int)n->mesh);
                break;
            }
            if (n->skin >= 0 && !pr->joints) {
                ue_scene_verr(v, "scene.node.skin", path,
                     "node has a skin but mesh %d primitive %zu has no joints/weights",
                     (int)n->mesh, p);
                break;
            }
            if (n->skin >= 0 && pr->joints && pr->positions && pr->weights &&
                pr->vertex_count <= UE_SCENE_MAX_VERTICES) {
                size_t jc = s->skins[n->skin].joint_count, per = pr->influences;
                if (per == 0 || per > UE_MAX_INFLUENCES) continue; /* reported per primitive */
                for (size_t e = 0; e < (size_t)pr->vertex_count * per; e++)
                    if (pr->weights[e] != 0 && pr->joints[e] >= jc) {
                        char jp[160];
                        snprintf(jp, sizeof jp, "scene/meshes[%d]/primitives[%zu]/joints[%zu]",
                                 (int)n->mesh, p, e / per);
                        ue_scene_verr(v, "scene.prim.joint", jp, "joint %u >= skin %d joint count %zu",
                             (unsigned)pr->joints[e], (int)n->skin, jc);
                        break;
                    }
            }
        }
        if (n->skin >= 0) {
            /* glTF ignores these transforms for skinned meshes; viewers differ in the warning
             * they show, so the format readers should place skinned meshes at the root. */
            if (n->parent >= 0)
                ue_scene_vwarn(v, "scene.node.skin_nonroot", path, "skinned mesh node is not a root");
            const float *t = n->translation, *r = n->rotation, *sc = n->scale;
            if (t[0] != 0 || t[1] != 0 || t[2] != 0 || r[0] != 0 || r[1] != 0 || r[2] != 0 ||
                sc[0] != 1 || sc[1] != 1 || sc[2] != 1)
                ue_scene_vwarn(v, "scene.node.skin_transform", path,
                      "skinned mesh node has local transforms that glTF ignores");
        }
    }
}
