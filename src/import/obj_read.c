/* unearth — a bounded Wavefront OBJ reader for geometry edits: v, vt, vn and f records (with
 * negative indices and polygon fans) into one indexed triangle list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "unearth/obj_read.h"

typedef struct fvec {
    float *v;
    size_t n, cap; /* in floats */
} fvec;

static bool fvec_push(fvec *a, const float *x, size_t k) {
    if (a->n + k > a->cap) {
        size_t nc = a->cap ? a->cap * 2 : 256;
        while (nc < a->n + k) nc *= 2;
        float *g = realloc(a->v, nc * sizeof *g);
        if (!g) return false;
        a->v = g;
        a->cap = nc;
    }
    memcpy(a->v + a->n, x, k * sizeof *x);
    a->n += k;
    return true;
}

/* Open-addressing map from a (v, vt, vn) triple to its output vertex. */
typedef struct corner_map {
    uint64_t *keys; /* packed triple + 1; 0 = empty */
    uint32_t *values;
    size_t cap, used;
} corner_map;

static uint64_t pack3(uint32_t v, uint32_t t, uint32_t n) {
    return ((uint64_t)v << 42 | (uint64_t)t << 21 | n) + 1;
}

static bool map_grow(corner_map *m) {
    size_t nc = m->cap ? m->cap * 2 : 1024;
    uint64_t *k = calloc(nc, sizeof *k);
    uint32_t *v = malloc(nc * sizeof *v);
    if (!k || !v) {
        free(k);
        free(v);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        size_t h = (size_t)(m->keys[i] * 0x9E3779B97F4A7C15ull) & (nc - 1);
        while (k[h]) h = (h + 1) & (nc - 1);
        k[h] = m->keys[i];
        v[h] = m->values[i];
    }
    free(m->keys);
    free(m->values);
    m->keys = k;
    m->values = v;
    m->cap = nc;
    return true;
}

static bool parse_floats(const char *p, float *out, int want, int *got) {
    *got = 0;
    while (*got < want) {
        char *end;
        errno = 0;
        float f = ue_parse_float(p, &end); /* '.' whatever LC_NUMERIC says */
        if (end == p) break;
        if (errno == ERANGE) return false;
        out[(*got)++] = f;
        p = end;
    }
    return true;
}

/* Resolves a 1-based (or negative, relative) index against `count` elements. */
static bool resolve(long idx, size_t count, uint32_t *out) {
    if (idx > 0 && (size_t)idx <= count) *out = (uint32_t)(idx - 1);
    /* -(idx + 1) + 1 is |idx| without negating LONG_MIN (strtol's answer to a huge "-9…"). */
    else if (idx < 0 && (size_t)(-(idx + 1)) + 1 <= count)
        *out = (uint32_t)(count - ((size_t)(-(idx + 1)) + 1));
    else return false;
    return true;
}

void ue_obj_mesh_free(ue_obj_mesh *m) {
    free(m->positions);
    free(m->normals);
    free(m->uvs);
    free(m->indices);
    memset(m, 0, sizeof *m);
}

ue_result ue_obj_read(const char *text, size_t size, size_t max_vertices, ue_obj_mesh *out,
                      ue_diag *d) {
    memset(out, 0, sizeof *out);
    fvec v = {0}, vt = {0}, vn = {0}, pos = {0}, nrm = {0}, uv = {0};
    corner_map map = {0};
    uint32_t *idx = NULL;
    size_t nidx = 0, cap_idx = 0;
    bool any_vt = false, any_vn = false;
    ue_result r = UE_OK;
    size_t line_no = 0;
    char line[4096], path[48];
    for (size_t at = 0; at < size && r == UE_OK;) {
        size_t len = 0;
        while (at + len < size && text[at + len] != '\n') len++;
        line_no++;
        snprintf(path, sizeof path, "obj/line[%zu]", line_no);
        if (len >= sizeof line) {
            ue_diag_add(d, UE_SEV_ERROR, "obj.line", at, path, "line longer than %zu bytes", sizeof line - 1);
            r = UE_ERR_INVALID;
            break;
        }
        memcpy(line, text + at, len);
        line[len] = 0;
        uint64_t line_at = at;
        at += len + 1;
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        float f[3];
        int got;
        if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t')) {
            if (!parse_floats(p + 2, f, 3, &got) || got != 3) goto bad_number;
            if (!fvec_push(&v, f, 3)) r = UE_ERR_NOMEM;
        } else if (p[0] == 'v' && p[1] == 't' && (p[2] == ' ' || p[2] == '\t')) {
            if (!parse_floats(p + 3, f, 2, &got) || got < 1) goto bad_number;
            if (got == 1) f[1] = 0;
            if (!fvec_push(&vt, f, 2)) r = UE_ERR_NOMEM;
        } else if (p[0] == 'v' && p[1] == 'n' && (p[2] == ' ' || p[2] == '\t')) {
            if (!parse_floats(p + 3, f, 3, &got) || got != 3) goto bad_number;
            if (!fvec_push(&vn, f, 3)) r = UE_ERR_NOMEM;
        } else if (p[0] == 'f' && (p[1] == ' ' || p[1] == '\t')) {
            uint32_t corners[64];
            size_t nc = 0;
            char *q = p + 2;
            while (*q) {
                while (*q == ' ' || *q == '\t' || *q == '\r') q++;
                if (!*q) break;
                long iv = 0, it = 0, in = 0;
                char *end;
                iv = strtol(q, &end, 10);
                if (end == q) goto bad_number;
                q = end;
                if (*q == '/') {
                    q++;
                    if (*q != '/') {
                        it = strtol(q, &end, 10);
                        if (end == q) goto bad_number;
                        q = end;
                    }
                    if (*q == '/') {
                        q++;
                        in = strtol(q, &end, 10);
                        if (end == q) goto bad_number;
                        q = end;
                    }
                }
                uint32_t rv, rt = 0, rn = 0;
                if (!resolve(iv, v.n / 3, &rv) || (it && !resolve(it, vt.n / 2, &rt)) ||
                    (in && !resolve(in, vn.n / 3, &rn)) || rv >= (1u << 21) || rt >= (1u << 21) ||
                    rn >= (1u << 21)) {
                    ue_diag_add(d, UE_SEV_ERROR, "obj.index", line_at, path,
                                "face refers to a vertex, texture or normal that does not exist");
                    r = UE_ERR_INVALID;
                    break;
                }
                any_vt |= it != 0;
                any_vn |= in != 0;
                if (map.used * 2 >= map.cap && !map_grow(&map)) {
                    r = UE_ERR_NOMEM;
                    break;
                }
                uint64_t key = pack3(rv, it ? rt + 1 : 0, in ? rn + 1 : 0);
                size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull) & (map.cap - 1);
                while (map.keys[h] && map.keys[h] != key) h = (h + 1) & (map.cap - 1);
                if (!map.keys[h]) {
                    if (pos.n / 3 >= max_vertices) {
                        ue_diag_add(d, UE_SEV_ERROR, "obj.limit", line_at, path,
                                    "more than %zu distinct vertices", max_vertices);
                        r = UE_ERR_LIMIT;
                        break;
                    }
                    float zero[3] = {0, 0, 0};
                    map.keys[h] = key;
                    map.values[h] = (uint32_t)(pos.n / 3);
                    map.used++;
                    bool ok = fvec_push(&pos, v.v + 3 * rv, 3) &&
                              fvec_push(&uv, it ? vt.v + 2 * rt : zero, 2) &&
                              fvec_push(&nrm, in ? vn.v + 3 * rn : zero, 3);
                    if (!ok) {
                        r = UE_ERR_NOMEM;
                        break;
                    }
                }
                if (nc == sizeof corners / sizeof corners[0]) {
                    ue_diag_add(d, UE_SEV_ERROR, "obj.face", line_at, path, "face with more than 64 corners");
                    r = UE_ERR_INVALID;
                    break;
                }
                corners[nc++] = map.values[h];
            }
            if (r != UE_OK) break;
            if (nc < 3) {
                ue_diag_add(d, UE_SEV_ERROR, "obj.face", line_at, path, "face with fewer than 3 corners");
                r = UE_ERR_INVALID;
                break;
            }
            for (size_t k = 1; k + 1 < nc; k++) {
                if (nidx + 3 > cap_idx) {
                    size_t ncap = cap_idx ? cap_idx * 2 : 768;
                    uint32_t *g = realloc(idx, ncap * sizeof *g);
                    if (!g) {
                        r = UE_ERR_NOMEM;
                        break;
                    }
                    idx = g;
                    cap_idx = ncap;
                }
                idx[nidx++] = corners[0];
                idx[nidx++] = corners[k];
                idx[nidx++] = corners[k + 1];
            }
        }
        continue;
    bad_number:
        ue_diag_add(d, UE_SEV_ERROR, "obj.number", line_at, path, "malformed record \"%.40s\"", p);
        r = UE_ERR_INVALID;
    }
    free(v.v);
    free(vt.v);
    free(vn.v);
    free(map.keys);
    free(map.values);
    if (r != UE_OK) {
        free(pos.v);
        free(nrm.v);
        free(uv.v);
        free(idx);
        return r;
    }
    out->positions = pos.v;
    out->vertex_count = pos.n / 3;
    if (any_vn) out->normals = nrm.v;
    else free(nrm.v);
    if (any_vt) out->uvs = uv.v;
    else free(uv.v);
    out->indices = idx;
    out->index_count = nidx;
    return UE_OK;
}
