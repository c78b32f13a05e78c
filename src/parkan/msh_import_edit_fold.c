/* unearth — edit mode's folding: the offset and scale a quantising client (gltf-transform
 * `quantize`) put between a node and its mesh, turned back into a geometry transform. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "parkan/msh_import_edit_int.h"

/* A quantised mesh's offset and scale are folded when the linear part is a positive scale per
 * axis: off-diagonal terms within this fraction of the largest diagonal one. */
#define FOLD_SHEAR_TOL 1e-5

/* ---- 4×4 affine matrices, column-major as glTF --------------------------------------------- */

static void trs_matrix(const float t[3], const float q[4], const float s[3], double m[16]) {
    double x = q[0], y = q[1], z = q[2], w = q[3], len = sqrt(x * x + y * y + z * z + w * w);
    if (len > 0) x /= len, y /= len, z /= len, w /= len;
    const double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                            {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                            {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
    memset(m, 0, 16 * sizeof *m);
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) m[4 * c + row] = r[row][c] * s[c];
        m[12 + c] = t[c];
    }
    m[15] = 1;
}

/* The inverse of T·R·S (S without a zero): S⁻¹·Rᵀ, and the translation through it. */
static void trs_inverse(const float t[3], const float q[4], const float s[3], double m[16]) {
    const float one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
    double r[16];
    trs_matrix(zero, q, one, r);
    memset(m, 0, 16 * sizeof *m);
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++) m[4 * c + row] = r[4 * row + c] / s[row];
    for (int row = 0; row < 3; row++)
        for (int c = 0; c < 3; c++) m[12 + row] -= m[4 * c + row] * t[c];
    m[15] = 1;
}

static void multiply(const double a[16], const double b[16], double out[16]) {
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            double v = 0;
            for (int k = 0; k < 4; k++) v += a[4 * k + row] * b[4 * c + k];
            out[4 * c + row] = v;
        }
}

/* A translation and a positive scale per axis: what a quantising client's offset and scale
 * are; a rotation, shear or mirror is an edit, not a fold. */
static bool scale_and_offset(const double m[16]) {
    double big = 0;
    for (int k = 0; k < 3; k++) {
        if (!(m[5 * k] > 0)) return false;
        big = fmax(big, m[5 * k]);
    }
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++)
            if (c != row && !(fabs(m[4 * c + row]) <= FOLD_SHEAR_TOL * big)) return false;
    return isfinite(m[12]) && isfinite(m[13]) && isfinite(m[14]);
}

/* ---- which nodes hold a fold ------------------------------------------------------------------ */

static bool quantised_mesh(const ue_scene *s, int32_t mesh) {
    if (mesh < 0 || (size_t)mesh >= s->mesh_count || !s->meshes[mesh].primitive_count) return false;
    for (size_t p = 0; p < s->meshes[mesh].primitive_count; p++)
        if (!s->meshes[mesh].primitives[p].positions_quantized) return false;
    return true;
}

/* Per scene node: its children and whether any channel drives it (the client keeps a fold off
 * an animated node, whose transform the clip owns, and off a node with children). */
typedef struct node_facts { uint32_t *children; bool *animated; } node_facts;

static bool node_facts_build(const ue_scene *s, node_facts *nf) {
    nf->children = calloc(s->node_count + 1, sizeof *nf->children);
    nf->animated = calloc(s->node_count + 1, sizeof *nf->animated);
    if (!nf->children || !nf->animated) return false;
    for (size_t i = 0; i < s->node_count; i++) {
        int32_t p = s->nodes[i].parent;
        if (p >= 0 && (size_t)p < s->node_count) nf->children[p]++;
    }
    for (size_t a = 0; a < s->animation_count; a++)
        for (size_t c = 0; c < s->animations[a].channel_count; c++) {
            int32_t n = s->animations[a].channels[c].node;
            if (n >= 0 && (size_t)n < s->node_count) nf->animated[n] = true;
        }
    return true;
}

static void node_facts_free(node_facts *nf) {
    free(nf->children);
    free(nf->animated);
}

/* Node i alone holds its parent's quantised mesh: a leaf the base lacks (no name, or one no
 * base node has) with a mesh and nothing else, under a node without a mesh of its own, with
 * an offset and a positive scale. */
static bool is_carrier(const edit_ctx *x, const node_facts *nf, const bool *passed, size_t i, double xf[16]) {
    const ue_scene *s = x->s;
    const ue_scene_node *nd = &s->nodes[i];
    int32_t p = nd->parent;
    if (x->b_of_s[i] >= 0 || passed[i] || p < 0 || (size_t)p >= s->node_count || passed[p] || s->nodes[p].mesh >= 0 ||
        x->fold[p].carrier >= 0 || nd->skin >= 0 || nf->children[i] || nf->animated[i] || !quantised_mesh(s, nd->mesh))
        return false;
    trs_matrix(nd->translation, nd->rotation, nd->scale, xf);
    return scale_and_offset(xf);
}

ue_result ue_msh_edit_find_carriers(edit_ctx *x, bool *passed) {
    const ue_scene *s = x->s;
    node_facts nf = {0};
    x->fold = calloc(s->node_count + 1, sizeof *x->fold);
    bool ok = x->fold && node_facts_build(s, &nf);
    for (size_t i = 0; ok && i < s->node_count; i++) x->fold[i] = (node_fold){s->nodes[i].mesh, -1, false, false, {0}};
    for (size_t i = 0; ok && i < s->node_count; i++) {
        double xf[16];
        if (!is_carrier(x, &nf, passed, i, xf)) continue;
        node_fold *f = &x->fold[s->nodes[i].parent];
        f->mesh = s->nodes[i].mesh, f->carrier = (int32_t)i, f->geom = true;
        memcpy(f->xf, xf, sizeof xf);
        passed[i] = true;
    }
    node_facts_free(&nf);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

/* The base's transform and the scene's differ: by the translation, or by a scale. */
static bool pose_differs(const ue_scene_node *sn, const ue_scene_node *bn) {
    for (int k = 0; k < 3; k++)
        if (fabsf(sn->scale[k] - bn->scale[k]) > SCALE_TOL) return true;
    return ue_msh_edit_translation_differs(sn->translation, bn->translation);
}

ue_result ue_msh_edit_fold_poses(edit_ctx *x) {
    const ue_scene *s = x->s;
    node_facts nf = {0};
    bool ok = x->fold && node_facts_build(s, &nf);
    for (size_t i = 0; ok && i < s->node_count; i++) {
        const ue_scene_node *sn = &s->nodes[i];
        int32_t b = x->b_of_s[i];
        if (b < 0 || x->fold[i].carrier >= 0 || nf.children[i] || nf.animated[i] || !quantised_mesh(s, sn->mesh))
            continue;
        const ue_scene_node *bn = &x->base->nodes[b];
        if (!pose_differs(sn, bn) || ue_msh_edit_quat_differs(sn->rotation, bn->rotation)) continue;
        double inv[16], local[16], xf[16];
        trs_inverse(bn->translation, bn->rotation, bn->scale, inv);
        trs_matrix(sn->translation, sn->rotation, sn->scale, local);
        multiply(inv, local, xf);
        if (!scale_and_offset(xf)) continue;
        x->fold[i].pose_folded = x->fold[i].geom = true;
        memcpy(x->fold[i].xf, xf, sizeof xf);
    }
    node_facts_free(&nf);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

int32_t ue_msh_edit_node_mesh(const edit_ctx *x, size_t si) {
    return x->fold ? x->fold[si].mesh : x->s->nodes[si].mesh;
}

bool ue_msh_edit_pose_folded(const edit_ctx *x, size_t si) { return x->fold && x->fold[si].pose_folded; }

/* ---- the geometry through the fold -------------------------------------------------------- */

/* Positions through xf; normals through its inverse transpose (the cofactors of the linear
 * part, which only a positive scale reaches: no sign to mind), each kept at its own length so
 * that a uniform scale leaves them exactly as they were. */
static bool fold_primitive(const double xf[16], const ue_scene_primitive *in, ue_scene_primitive *out) {
    size_t n = 3 * (size_t)in->vertex_count;
    *out = *in;
    out->positions = ue_malloc_items(n, sizeof *out->positions);
    out->normals = in->normals ? ue_malloc_items(n, sizeof *out->normals) : NULL;
    if (!out->positions || (in->normals && !out->normals)) return false;
    const double *a = xf; /* A[r][c] = a[4c + r] */
    double cof[9];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
            cof[3 * r + c] = a[4 * c1 + r1] * a[4 * c2 + r2] - a[4 * c2 + r1] * a[4 * c1 + r2];
        }
    for (size_t v = 0; v < n; v += 3) {
        const float *p = &in->positions[v];
        for (int r = 0; r < 3; r++)
            out->positions[v + (size_t)r] = (float)(a[r] * p[0] + a[4 + r] * p[1] + a[8 + r] * p[2] + a[12 + r]);
        if (!in->normals) continue;
        const float *nm = &in->normals[v];
        double t[3], len_in = 0, len_out = 0;
        for (int r = 0; r < 3; r++) {
            t[r] = cof[3 * r] * nm[0] + cof[3 * r + 1] * nm[1] + cof[3 * r + 2] * nm[2];
            len_in += (double)nm[r] * nm[r], len_out += t[r] * t[r];
        }
        double k = len_out > 0 ? sqrt(len_in / len_out) : 0;
        for (int r = 0; r < 3; r++) out->normals[v + (size_t)r] = k > 0 ? (float)(t[r] * k) : nm[r];
    }
    return true;
}

ue_result ue_msh_edit_folded_mesh(const edit_ctx *x, size_t si, int32_t sm, ue_scene_mesh *out, bool *folded) {
    *folded = x->fold && x->fold[si].geom;
    if (!*folded) return UE_OK;
    const ue_scene_mesh *in = &x->s->meshes[sm];
    *out = *in;
    out->primitives = calloc(in->primitive_count + 1, sizeof *out->primitives);
    bool ok = out->primitives != NULL;
    for (size_t p = 0; ok && p < in->primitive_count; p++)
        ok = fold_primitive(x->fold[si].xf, &in->primitives[p], &out->primitives[p]);
    if (!ok) ue_msh_edit_folded_mesh_free(out);
    return ok ? UE_OK : UE_ERR_NOMEM;
}

void ue_msh_edit_folded_mesh_free(ue_scene_mesh *me) {
    for (size_t p = 0; me->primitives && p < me->primitive_count; p++) {
        free(me->primitives[p].positions);
        free(me->primitives[p].normals);
    }
    free(me->primitives);
    me->primitives = NULL;
}
