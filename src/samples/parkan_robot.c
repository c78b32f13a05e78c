/* unearth — the sample Parkan robot, built with the MSH writer: a six-node hierarchy (one node
 * unnamed), two LODs, two groups, vertex colours, a short animation, and distinctive values in
 * the unknown fields. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/msh.h"
#include "samples/samples.h"

/* A box as 24 vertices (flat faces) whose triangles face outward under the engine's winding
 * (the cross product (b − a) × (c − a) points out of the box). */
static void box(const float c[3], const float h[3], float *pos, float *nrm, float *uv, uint16_t *idx) {
    static const int axes[6][3] = {{0, 1, 2}, {0, 1, 2}, {1, 2, 0}, {1, 2, 0}, {2, 0, 1}, {2, 0, 1}};
    for (int f = 0; f < 6; f++) {
        int a = axes[f][0], u = axes[f][1], v = axes[f][2];
        float s = (f % 2) ? -1.0f : 1.0f;
        static const float cu[4] = {-1, 1, 1, -1}, cv[4] = {-1, -1, 1, 1};
        for (int k = 0; k < 4; k++) {
            float *p = &pos[3 * (4 * f + k)], *n = &nrm[3 * (4 * f + k)];
            p[a] = c[a] + s * h[a];
            p[u] = c[u] + cu[k] * h[u];
            p[v] = c[v] + cv[k] * h[v];
            n[0] = n[1] = n[2] = 0;
            n[a] = s;
            uv[2 * (4 * f + k)] = cu[k] > 0 ? 1.0f : 0.0f;
            uv[2 * (4 * f + k) + 1] = cv[k] > 0 ? 0.0f : 1.0f;
        }
        /* Corners run counter-clockwise around +axis a; flip the order on the negative side. */
        static const uint16_t pos_side[6] = {0, 1, 2, 0, 2, 3}, neg_side[6] = {0, 2, 1, 0, 3, 2};
        for (int k = 0; k < 6; k++) idx[6 * f + k] = (uint16_t)(4 * f + (s > 0 ? pos_side[k] : neg_side[k]));
    }
}

/* A square pyramid (the low-detail LOD): 5 corners, 6 triangles, face normals per vertex. */
static size_t pyramid(const float c[3], const float h[3], float *pos, float *nrm, float *uv, uint16_t *idx) {
    const float apex[3] = {c[0], c[1], c[2] + h[2]};
    const float base[4][3] = {{c[0] - h[0], c[1] - h[1], c[2] - h[2]},
                              {c[0] + h[0], c[1] - h[1], c[2] - h[2]},
                              {c[0] + h[0], c[1] + h[1], c[2] - h[2]},
                              {c[0] - h[0], c[1] + h[1], c[2] - h[2]}};
    size_t nv = 0, ni = 0;
    /* Four sides (base edge i → i+1, then apex) and the base as two triangles. */
    for (int i = 0; i < 4; i++) {
        const float *a = base[i], *b = base[(i + 1) % 4];
        float e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++) e1[k] = b[k] - a[k], e2[k] = apex[k] - a[k];
        n[0] = e1[1] * e2[2] - e1[2] * e2[1];
        n[1] = e1[2] * e2[0] - e1[0] * e2[2];
        n[2] = e1[0] * e2[1] - e1[1] * e2[0];
        float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        const float *tri[3] = {a, b, apex};
        for (int k = 0; k < 3; k++) {
            memcpy(&pos[3 * nv], tri[k], 3 * sizeof(float));
            for (int j = 0; j < 3; j++) nrm[3 * nv + (size_t)j] = n[j] / len;
            uv[2 * nv] = k == 1 ? 1.0f : 0.0f;
            uv[2 * nv + 1] = k == 2 ? 0.0f : 1.0f;
            idx[ni++] = (uint16_t)nv++;
        }
    }
    static const int base_tris[6] = {0, 2, 1, 0, 3, 2}; /* outward = −Z */
    size_t first = nv;
    for (int k = 0; k < 4; k++) {
        memcpy(&pos[3 * nv], base[k], 3 * sizeof(float));
        nrm[3 * nv] = nrm[3 * nv + 1] = 0;
        nrm[3 * nv + 2] = -1;
        uv[2 * nv] = (k == 1 || k == 2) ? 1.0f : 0.0f;
        uv[2 * nv + 1] = k >= 2 ? 0.0f : 1.0f;
        nv++;
    }
    for (int k = 0; k < 6; k++) idx[ni++] = (uint16_t)(first + (size_t)base_tris[k]);
    return nv;
}

typedef struct part {
    float center[3], half[3];
    uint8_t bgra[4];
    uint16_t material;
} part;

static ue_result add_geometry(ue_msh *m, size_t node, int lod, int group, const part *p, bool low) {
    float pos[3 * 24], nrm[3 * 24], uv[2 * 24];
    uint16_t idx[36];
    uint8_t col[4 * 24];
    size_t nv = 24, ni = 36;
    if (low) {
        nv = pyramid(p->center, p->half, pos, nrm, uv, idx);
        ni = 18;
    } else {
        box(p->center, p->half, pos, nrm, uv, idx);
    }
    for (size_t v = 0; v < nv; v++) memcpy(&col[4 * v], p->bgra, 4);
    size_t slot;
    ue_result r = ue_msh_add_slot(m, node, lod, group, &slot);
    if (r != UE_OK) return r;
    ue_msh_geometry g = {pos, nrm, uv, col, nv, idx, ni, p->material};
    return ue_msh_replace_slot_geometry(m, slot, &g, NULL);
}

/* One key: time, translation, and a rotation of `degrees` about engine axis `axis` applied on
 * top of the rest rotation `rest` (x, y, z, w). */
static ue_msh_key robot_key(float time, const float t[3], const float rest[4], int axis, float degrees) {
    ue_msh_key k;
    memset(&k, 0, sizeof k);
    k.time = time;
    memcpy(k.position, t, sizeof k.position);
    float half = degrees * 3.14159265f / 360.0f, turn[4] = {0, 0, 0, cosf(half)}, q[4];
    turn[axis] = sinf(half);
    /* q = turn · rest (the turn about the parent's axes, after the rest rotation) */
    q[0] = turn[3] * rest[0] + turn[0] * rest[3] + turn[1] * rest[2] - turn[2] * rest[1];
    q[1] = turn[3] * rest[1] - turn[0] * rest[2] + turn[1] * rest[3] + turn[2] * rest[0];
    q[2] = turn[3] * rest[2] + turn[0] * rest[1] - turn[1] * rest[0] + turn[2] * rest[3];
    q[3] = turn[3] * rest[3] - turn[0] * rest[0] - turn[1] * rest[1] - turn[2] * rest[2];
    ue_msh_encode_quat(q, k.quat);
    return k;
}

/* A nine-frame clip (frames 0..8): the head turns, the arms swing, the right arm also bobs.
 * Keys at odd frames (1, 3, 5) are where the engine's round-half-even frame choice matters;
 * every track ends on the rest pose, which stays each node's fallback key. */
static ue_result animate(ue_msh *m, const float poses[6][7]) {
    const float *head = poses[1], *left = poses[3], *right = poses[4];
    const float up[3] = {right[0], right[1], right[2] + 0.05f}, down[3] = {right[0], right[1], right[2] - 0.05f};
    const ue_msh_key head_keys[3] = {robot_key(0, head, head + 3, 2, 0), robot_key(3, head, head + 3, 2, 45),
                                     robot_key(6, head, head + 3, 2, 0)};
    const ue_msh_key left_keys[4] = {robot_key(0, left, left + 3, 0, 0), robot_key(2, left, left + 3, 0, 40),
                                     robot_key(5, left, left + 3, 0, -40), robot_key(8, left, left + 3, 0, 0)};
    const ue_msh_key right_keys[4] = {robot_key(0, right, right + 3, 0, 0), robot_key(1, up, right + 3, 0, -40),
                                      robot_key(4, down, right + 3, 0, 40), robot_key(8, right, right + 3, 0, 0)};
    ue_result r = ue_msh_set_track(m, 1, head_keys, 3, NULL);
    if (r == UE_OK) r = ue_msh_set_track(m, 3, left_keys, 4, NULL);
    if (r == UE_OK) r = ue_msh_set_track(m, 4, right_keys, 4, NULL);
    return r;
}

ue_result ue_sample_robot(ue_buf *out) {
    static const uint16_t parents[6] = {UE_MSH_NONE, 0, 1, 0, 0, 0};
    static const char *const names[6] = {"body", "head", NULL, "arm_left", "arm_right", "legs"};
    ue_msh m;
    ue_result r = ue_msh_new(&m, 6, parents, names);
    if (r != UE_OK) return r;
    r = ue_msh_enable_colors(&m);
    /* Parts in node-local engine space (Z up); colours as stored (B, G, R, A). */
    static const part parts[6] = {
        {{0, 0, 0}, {0.35f, 0.25f, 0.45f}, {0x40, 0x40, 0xC0, 0xFF}, 0},
        {{0, 0, 0.15f}, {0.2f, 0.2f, 0.15f}, {0xC0, 0x80, 0x40, 0xFF}, 1},
        {{0, 0, 0.15f}, {0.02f, 0.02f, 0.15f}, {0x00, 0xFF, 0xFF, 0xFF}, 1},
        {{0, 0, -0.3f}, {0.08f, 0.08f, 0.3f}, {0x80, 0xC0, 0x40, 0xFF}, 2},
        {{0, 0, -0.3f}, {0.08f, 0.08f, 0.3f}, {0x80, 0xC0, 0x40, 0xFF}, 2},
        {{0, 0, -0.35f}, {0.3f, 0.2f, 0.35f}, {0x30, 0x30, 0x30, 0xFF}, 3},
    };
    for (size_t n = 0; n < 6 && r == UE_OK; n++) r = add_geometry(&m, n, 0, 0, &parts[n], false);
    /* LOD 1: pyramids for body, head and legs (arms and antenna vanish at distance). */
    static const size_t lod1_nodes[3] = {0, 1, 5};
    for (size_t k = 0; k < 3 && r == UE_OK; k++)
        r = add_geometry(&m, lod1_nodes[k], 1, 0, &parts[lod1_nodes[k]], true);
    /* Group 1: a dented body (an alternative the game switches to). */
    part dented = parts[0];
    dented.half[2] = 0.3f;
    dented.bgra[0] = 0x20;
    if (r == UE_OK) r = add_geometry(&m, 0, 0, 1, &dented, false);

    /* Rest poses: the head turned 90° about the up axis, the antenna tilted. */
    const float s45 = 0.70710678f;
    const float poses[6][7] = {
        {0, 0, 1.0f, 0, 0, 0, 1},      {0, 0, 0.45f, 0, 0, s45, s45}, {0.1f, 0, 0.3f, s45 * 0.5f, 0, 0, 0.93541435f},
        {0.5f, 0, 0.3f, 0, 0, 0, 1},   {-0.5f, 0, 0.3f, 0, 0, 0, 1},  {0, 0, -0.45f, 0, 0, 0, 1},
    };
    for (size_t n = 0; n < 6 && r == UE_OK; n++) r = ue_msh_set_rest_pose(&m, n, poses[n], poses[n] + 3);
    if (r == UE_OK) r = animate(&m, poses);

    if (r == UE_OK) {
        /* Values in fields whose meaning is unknown, so round trips prove they survive. */
        m.nodes[1].flags = 0x0040;
        m.nodes[2].flags = 0x0800;
        for (size_t s = 0; s < m.slot_count; s++) {
            m.slots[s].opaque[0] = 0xA5A5A5A5u;
            m.slots[s].opaque[1] = (uint32_t)s;
            m.slots[s].opaque[4] = 0xDEADBEEFu;
        }
        for (size_t b = 0; b < m.batch_count; b++) {
            m.batches[b].flags = (uint16_t)(0x0100 | b);
            m.batches[b].opaque4 = 0x1111;
            m.batches[b].opaque6 = (uint16_t)(0x2200 + b);
            m.batches[b].opaque14 = 0x3333;
        }
        for (size_t t = 0; t < m.tri_count; t += 5) m.tris[t].flags = 0x0001;
        for (size_t v = 0; v < m.normal_count; v++) m.normals[4 * v + 3] = (int8_t)(v & 0x7F);
        m.dirty[UE_MSH_NODES] = m.dirty[UE_MSH_HEADER] = m.dirty[UE_MSH_BATCHES] = true;
        m.dirty[UE_MSH_TRIS] = m.dirty[UE_MSH_NORMALS] = true;
        r = ue_msh_write(&m, out, NULL);
    }
    ue_msh_free(&m);
    return r;
}
