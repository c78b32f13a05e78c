/* unearth — scene IR transforms: a node's local TRS as a column-major matrix, and its world
 * matrix by walking the parent chain. */
#include <math.h>

#include "common/math3d.h"
#include "unearth/scene.h"

void ue_scene_local_matrix(const ue_scene_node *n, float out[16]) {
    double x = n->rotation[0], y = n->rotation[1], z = n->rotation[2], w = n->rotation[3];
    double len = sqrt(x * x + y * y + z * z + w * w);
    if (len > 0) {
        x /= len; y /= len; z /= len; w /= len;
    } else {
        x = y = z = 0; w = 1;
    }
    double r[9] = {
        1 - 2 * (y * y + z * z), 2 * (x * y + z * w),     2 * (x * z - y * w),
        2 * (x * y - z * w),     1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
        2 * (x * z + y * w),     2 * (y * z - x * w),     1 - 2 * (x * x + y * y),
    };
    for (int c = 0; c < 3; c++) {
        for (int row = 0; row < 3; row++) out[c * 4 + row] = (float)(r[c * 3 + row] * n->scale[c]);
        out[c * 4 + 3] = 0.0f;
    }
    out[12] = n->translation[0];
    out[13] = n->translation[1];
    out[14] = n->translation[2];
    out[15] = 1.0f;
}

ue_result ue_scene_world_matrix(const ue_scene *s, int32_t node, float out[16]) {
    if (node < 0 || (size_t)node >= s->node_count) return UE_ERR_INVALID;
    ue_scene_local_matrix(&s->nodes[node], out);
    int32_t p = s->nodes[node].parent;
    for (size_t steps = 0; p >= 0; steps++) {
        if ((size_t)p >= s->node_count || steps >= s->node_count) return UE_ERR_INVALID;
        float local[16];
        ue_scene_local_matrix(&s->nodes[p], local);
        ue_mat4_mul(local, out, out);
        p = s->nodes[p].parent;
    }
    return UE_OK;
}
