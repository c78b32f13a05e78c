/* unearth — glTF nodes and skins into the IR, index for index: the children lists become parent
 * links (two parents or a cycle is an error), matrices are decomposed into TRS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/gltf_read_int.h"
#include "unearth/advanced/buffers.h"

/* Parent links from every node's children; a node listed twice or its own child is refused. */
static bool link_children(gr_ctx *c, const ue_jv *nodes, int32_t *parent) {
    size_t n = ue_jv_items(nodes);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        char path[48];
        snprintf(path, sizeof path, "/nodes/%zu", i);
        const ue_jv *node = ue_jv_at(nodes, i), *kids;
        if (!ue_jv_is(node, UE_JV_OBJECT))
            return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
        kids = gr_array(c, node, "children", path, &ok);
        for (size_t ki = 0; ki < ue_jv_items(kids); ki++) {
            const ue_jv *k = ue_jv_at(kids, ki);
            char kp[80];
            snprintf(kp, sizeof kp, "%s/children/%zu", path, ki);
            if (!ue_jv_is(k, UE_JV_INTEGER) || ue_jv_integer(k) < 0 ||
                (size_t)ue_jv_integer(k) >= n)
                return gr_fail(c, "gltf.index.range", UE_NO_OFFSET, kp, "not a node index");
            size_t child = (size_t)ue_jv_integer(k);
            if (child == i || parent[child] >= 0)
                return gr_fail(c, "gltf.node.parent", UE_NO_OFFSET, kp,
                               "node %zu already has a parent (%d): a node has at most one",
                               child, child == i ? (int)i : (int)parent[child]);
            parent[child] = (int32_t)i;
        }
    }
    return ok;
}

/* With one parent per node, a cycle is a parent walk that meets itself; each node is walked
 * once (state 1 while on the current walk, 2 when known to reach a root). */
static bool check_cycles(gr_ctx *c, const int32_t *parent, size_t n) {
    uint8_t *state = ue_calloc_items(n, 1);
    if (!state) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        int32_t at = (int32_t)i;
        while (at >= 0 && state[at] == 0) {
            state[at] = 1;
            at = parent[at];
        }
        if (at >= 0 && state[at] == 1) {
            char path[48];
            snprintf(path, sizeof path, "/nodes/%d", (int)at);
            ok = gr_fail(c, "gltf.node.cycle", UE_NO_OFFSET, path, "the node hierarchy has a cycle");
        }
        for (at = (int32_t)i; at >= 0 && state[at] == 1; at = parent[at]) state[at] = 2;
    }
    free(state);
    return ok;
}

/* Rotation matrix (columns r0 r1 r2) to a unit quaternion x y z w. */
static void quat_from_rotation(double r[3][3], float q[4]) {
    double t = r[0][0] + r[1][1] + r[2][2], x, y, z, w;
    if (t > 0) {
        double s = sqrt(t + 1.0) * 2;
        w = 0.25 * s, x = (r[1][2] - r[2][1]) / s, y = (r[2][0] - r[0][2]) / s,
        z = (r[0][1] - r[1][0]) / s;
    } else if (r[0][0] > r[1][1] && r[0][0] > r[2][2]) {
        double s = sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]) * 2;
        w = (r[1][2] - r[2][1]) / s, x = 0.25 * s, y = (r[1][0] + r[0][1]) / s,
        z = (r[2][0] + r[0][2]) / s;
    } else if (r[1][1] > r[2][2]) {
        double s = sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]) * 2;
        w = (r[2][0] - r[0][2]) / s, x = (r[1][0] + r[0][1]) / s, y = 0.25 * s,
        z = (r[2][1] + r[1][2]) / s;
    } else {
        double s = sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]) * 2;
        w = (r[0][1] - r[1][0]) / s, x = (r[2][0] + r[0][2]) / s, y = (r[2][1] + r[1][2]) / s,
        z = 0.25 * s;
    }
    double len = sqrt(x * x + y * y + z * z + w * w);
    q[0] = (float)(x / len), q[1] = (float)(y / len), q[2] = (float)(z / len);
    q[3] = (float)(w / len);
}

/* A column-major matrix into TRS: projective or singular matrices are refused, a sheared one
 * becomes the nearest TRS (its rotation from the normalised columns) with a warning. */
static bool decompose(gr_ctx *c, const float m[16], const char *path, ue_scene_node *n) {
    if (m[3] != 0 || m[7] != 0 || m[11] != 0 || m[15] != 1)
        return gr_fail(c, "gltf.node.matrix", UE_NO_OFFSET, path,
                       "last row is not 0 0 0 1: not an affine transform");
    double r[3][3], s[3];
    for (int k = 0; k < 3; k++) {
        s[k] = sqrt((double)m[k * 4] * m[k * 4] + (double)m[k * 4 + 1] * m[k * 4 + 1] +
                    (double)m[k * 4 + 2] * m[k * 4 + 2]);
        if (!(s[k] > 1e-30))
            return gr_fail(c, "gltf.node.matrix", UE_NO_OFFSET, path,
                           "column %d is zero: the matrix is not invertible", k);
        for (int e = 0; e < 3; e++) r[k][e] = m[k * 4 + e] / s[k];
    }
    double det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) -
                 r[1][0] * (r[0][1] * r[2][2] - r[0][2] * r[2][1]) +
                 r[2][0] * (r[0][1] * r[1][2] - r[0][2] * r[1][1]);
    if (det < 0) { /* a mirror: negative X scale, the rest a rotation */
        s[0] = -s[0];
        for (int e = 0; e < 3; e++) r[0][e] = -r[0][e];
    }
    double shear = fabs(r[0][0] * r[1][0] + r[0][1] * r[1][1] + r[0][2] * r[1][2]) +
                   fabs(r[0][0] * r[2][0] + r[0][1] * r[2][1] + r[0][2] * r[2][2]) +
                   fabs(r[1][0] * r[2][0] + r[1][1] * r[2][1] + r[1][2] * r[2][2]);
    if (shear > 1e-4)
        gr_warn(c, "gltf.node.shear", path,
                "sheared matrix (column dot products sum to %.3g): read as the nearest TRS", shear);
    for (int k = 0; k < 3; k++) {
        n->translation[k] = m[12 + k];
        n->scale[k] = (float)s[k];
    }
    quat_from_rotation(r, n->rotation);
    return true;
}

static bool read_transform(gr_ctx *c, const ue_jv *node, const char *path, ue_scene_node *n) {
    float m[16];
    bool has_m, has_t, has_r, has_s;
    if (!gr_floats(c, node, "matrix", 16, path, m, &has_m) ||
        !gr_floats(c, node, "translation", 3, path, n->translation, &has_t) ||
        !gr_floats(c, node, "rotation", 4, path, n->rotation, &has_r) ||
        !gr_floats(c, node, "scale", 3, path, n->scale, &has_s))
        return false;
    if (has_m && (has_t || has_r || has_s))
        return gr_fail(c, "gltf.node.matrix", UE_NO_OFFSET, path, "both a matrix and TRS");
    if (has_r && !(fabsf(n->rotation[0]) + fabsf(n->rotation[1]) + fabsf(n->rotation[2]) +
                       fabsf(n->rotation[3]) > 0))
        return gr_fail(c, "gltf.node.rotation", UE_NO_OFFSET, path, "zero quaternion");
    return !has_m || decompose(c, m, path, n);
}

static bool read_visibility(gr_ctx *c, const ue_jv *node, const char *path, ue_scene_node *n) {
    bool ok = true, visible;
    char ep[80];
    snprintf(ep, sizeof ep, "%s/extensions", path);
    const ue_jv *ext = gr_object(c, node, "extensions", path, &ok);
    const ue_jv *vis = ext ? gr_object(c, ext, "KHR_node_visibility", ep, &ok) : NULL;
    if (!ok) return false;
    if (!vis) return true;
    snprintf(ep, sizeof ep, "%s/extensions/KHR_node_visibility", path);
    if (!gr_bool(c, vis, "visible", true, ep, &visible)) return false;
    n->hidden = !visible;
    return true;
}

static bool read_node(gr_ctx *c, const ue_jv *node, size_t i, int32_t parent, size_t skins) {
    char path[48], name[64];
    snprintf(path, sizeof path, "/nodes/%zu", i);
    if (!gr_name(c, node, path, name)) return false;
    int32_t ni = ue_scene_add_node(c->s, name, parent);
    if (ni < 0) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    ue_scene_node *n = &c->s->nodes[ni];
    if (ue_jv_get(node, "camera"))
        gr_warn(c, "gltf.node.camera", path, "camera left out (the IR has none)");
    if (ue_jv_get(node, "weights"))
        return gr_fail(c, "gltf.node.weights", UE_NO_OFFSET, path,
                       "morph weights: the IR cannot hold morph targets");
    return read_transform(c, node, path, n) &&
           gr_index(c, node, "mesh", c->s->mesh_count, false, path, &n->mesh) &&
           gr_index(c, node, "skin", skins, false, path, &n->skin) &&
           read_visibility(c, node, path, n) &&
           gr_other_extensions(c, node, path, "KHR_node_visibility") &&
           gr_extras(c, node, path, &n->source, &n->extras, NULL);
}

bool gr_read_nodes(gr_ctx *c) {
    bool ok = true;
    const ue_jv *nodes = gr_array(c, c->root, "nodes", "", &ok);
    size_t n = ue_jv_items(nodes);
    size_t skins = ue_jv_items(ue_jv_get(c->root, "skins"));
    if (!ok || n == 0) return ok;
    int32_t *parent = malloc(n * sizeof *parent);
    if (!parent) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    for (size_t i = 0; i < n; i++) parent[i] = -1;
    ok = link_children(c, nodes, parent) && check_cycles(c, parent, n);
    for (size_t i = 0; i < n && ok; i++) ok = read_node(c, ue_jv_at(nodes, i), i, parent[i], skins);
    free(parent);
    return ok;
}

static bool read_skin(gr_ctx *c, const ue_jv *skin, size_t k) {
    char path[48], name[64], jp[64];
    snprintf(path, sizeof path, "/skins/%zu", k);
    snprintf(jp, sizeof jp, "%s/joints", path);
    bool ok = true;
    if (!ue_jv_is(skin, UE_JV_OBJECT)) return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    const ue_jv *joints = gr_array(c, skin, "joints", path, &ok);
    if (!ok || !gr_name(c, skin, path, name)) return false;
    size_t n = ue_jv_items(joints);
    if (n == 0 || n > 65536)
        return gr_fail(c, "gltf.skin.joints", UE_NO_OFFSET, jp, "%zu joints (1..65536)", n);
    int32_t si = ue_scene_add_skin(c->s, name, n);
    if (si < 0) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    ue_scene_skin *s = &c->s->skins[si];
    for (size_t j = 0; j < n; j++) {
        const ue_jv *v = ue_jv_at(joints, j);
        if (!ue_jv_is(v, UE_JV_INTEGER) || ue_jv_integer(v) < 0 ||
            (size_t)ue_jv_integer(v) >= c->s->node_count)
            return gr_fail(c, "gltf.index.range", UE_NO_OFFSET, jp, "joint %zu is not a node", j);
        s->joints[j] = (int32_t)ue_jv_integer(v);
    }
    int32_t ibm;
    if (!gr_index(c, skin, "skeleton", c->s->node_count, false, path, &s->skeleton) ||
        !gr_index(c, skin, "inverseBindMatrices", gr_accessor_count(c), false, path, &ibm))
        return false;
    if (ibm < 0) return true;
    char ip[80];
    snprintf(ip, sizeof ip, "%s/inverseBindMatrices", path);
    gr_acc_rule rule = {1u << 16, GR_CT(GR_FLOAT), false, false};
    gr_acc a;
    if (!gr_accessor(c, ibm, ip, &rule, &a)) return false;
    if (a.count < n) {
        free(a.f);
        return gr_fail(c, "gltf.skin.ibm", UE_NO_OFFSET, ip, "%u matrices for %zu joints", a.count, n);
    }
    memcpy(s->inverse_bind, a.f, n * 16 * sizeof *a.f);
    free(a.f);
    return true;
}

bool gr_read_skins(gr_ctx *c) {
    bool ok = true;
    const ue_jv *skins = gr_array(c, c->root, "skins", "", &ok);
    for (size_t k = 0; ok && k < ue_jv_items(skins); k++) ok = read_skin(c, ue_jv_at(skins, k), k);
    return ok;
}
