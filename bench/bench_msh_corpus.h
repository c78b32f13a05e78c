/* unearth benchmarks — the generated MSH corpus that bench_msh and bench_import share: models of
 * 1–12 nodes, each with wavy grids in LOD 0 and LOD 1, from one fixed pseudo-random sequence. */
#ifndef UNEARTH_BENCH_MSH_CORPUS_H
#define UNEARTH_BENCH_MSH_CORPUS_H

#include <math.h>
#include <stdlib.h>

#include "unearth/msh.h"

static uint32_t rng_state = 12345;
static uint32_t rnd(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* A wavy grid of n × n quads as a new slot of (node, lod). */
static ue_result add_grid(ue_msh *m, size_t node, int lod, size_t n, uint16_t material) {
    size_t nv = (n + 1) * (n + 1), ni = n * n * 6, k = 0;
    float *pos = malloc(nv * 3 * sizeof(float)), *nrm = malloc(nv * 3 * sizeof(float));
    float *uv = malloc(nv * 2 * sizeof(float));
    uint16_t *idx = malloc(ni * sizeof(uint16_t));
    ue_result r = pos && nrm && uv && idx ? UE_OK : UE_ERR_NOMEM;
    for (size_t y = 0, v = 0; r == UE_OK && y <= n; y++)
        for (size_t x = 0; x <= n; x++, v++) {
            pos[3 * v] = (float)x / (float)n, pos[3 * v + 1] = (float)y / (float)n;
            pos[3 * v + 2] = 0.05f * sinf((float)(x + y));
            nrm[3 * v] = 0, nrm[3 * v + 1] = 0, nrm[3 * v + 2] = 1;
            uv[2 * v] = pos[3 * v], uv[2 * v + 1] = pos[3 * v + 1];
        }
    for (size_t y = 0; r == UE_OK && y < n; y++)
        for (size_t x = 0; x < n; x++) {
            uint16_t a = (uint16_t)(y * (n + 1) + x), b = (uint16_t)(a + 1), c = (uint16_t)(a + n + 1), d = (uint16_t)(c + 1);
            idx[k++] = a, idx[k++] = c, idx[k++] = b, idx[k++] = b, idx[k++] = c, idx[k++] = d;
        }
    size_t slot;
    if (r == UE_OK) r = ue_msh_add_slot(m, node, lod, 0, &slot);
    ue_msh_geometry g = {pos, nrm, uv, NULL, nv, idx, ni, material};
    if (r == UE_OK) r = ue_msh_replace_slot_geometry(m, slot, &g, NULL);
    free(pos), free(nrm), free(uv), free(idx);
    return r;
}

/* The next model of the corpus, written into *out (ue_buf_take it). */
static ue_result corpus_model(ue_buf *out) {
    size_t nodes = 1 + rnd() % 12;
    uint16_t parents[16];
    for (size_t k = 0; k < nodes; k++) parents[k] = k ? (uint16_t)(rnd() % k) : 0xFFFF;
    ue_msh m;
    ue_result r = ue_msh_new(&m, nodes, parents, NULL);
    if (r != UE_OK) return r;
    for (size_t k = 0; r == UE_OK && k < nodes; k++) {
        r = add_grid(&m, k, 0, 4 + rnd() % 20, (uint16_t)(k % 4));
        if (r == UE_OK) r = add_grid(&m, k, 1, 2 + rnd() % 4, (uint16_t)(k % 4));
    }
    if (r == UE_OK) r = ue_msh_write(&m, out, NULL);
    ue_msh_free(&m);
    return r;
}

#endif
