/* unearth — glTF accessors into float or integer arrays: every component type, normalized
 * integers, byte strides, matrix column padding and sparse substitution, each byte range checked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "import/gltf_read_int.h"

/* A bounded byte range of one buffer view, for diagnostics with file offsets. */
typedef struct gr_view {
    const uint8_t *data;
    size_t size;
    uint32_t stride;     /* byteStride, 0 when absent */
    uint64_t file_base;  /* offset of data[0] in the input, UE_NO_OFFSET if elsewhere */
} gr_view;

static uint64_t file_off(const gr_view *v, size_t off) {
    return v->file_base == UE_NO_OFFSET ? UE_NO_OFFSET : v->file_base + off;
}

size_t gr_accessor_count(gr_ctx *c) {
    return ue_jv_items(ue_jv_get(c->root, "accessors"));
}

static bool load_view(gr_ctx *c, int32_t index, gr_view *v) {
    char path[48];
    snprintf(path, sizeof path, "/bufferViews/%d", (int)index);
    const ue_jv *bv = ue_jv_at(ue_jv_get(c->root, "bufferViews"), (size_t)index);
    int32_t buffer;
    uint64_t off, len, stride;
    if (!ue_jv_is(bv, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, path, "expected an object");
    if (!gr_index(c, bv, "buffer", c->buffer_count, true, path, &buffer) ||
        !gr_uint(c, bv, "byteOffset", SIZE_MAX / 2, 0, false, path, &off) ||
        !gr_uint(c, bv, "byteLength", SIZE_MAX / 2, 0, true, path, &len) ||
        !gr_uint(c, bv, "byteStride", 252, 0, false, path, &stride))
        return false;
    const gr_buffer *b = &c->buffers[buffer];
    if (!ue_range_ok(off, len, b->size))
        return gr_fail(c, "gltf.view.range", b->file_base, path,
                       "bytes %llu..%llu pass the end of buffer %d (%zu bytes)",
                       (unsigned long long)off, (unsigned long long)(off + len), (int)buffer,
                       b->size);
    if (stride && (stride < 4 || stride % 4))
        return gr_fail(c, "gltf.view.stride", UE_NO_OFFSET, path,
                       "byteStride %llu (4..252, a multiple of 4)", (unsigned long long)stride);
    v->data = b->data + off;
    v->size = (size_t)len;
    v->stride = (uint32_t)stride;
    v->file_base = b->file_base == UE_NO_OFFSET ? UE_NO_OFFSET : b->file_base + off;
    return true;
}

bool gr_view_bytes(gr_ctx *c, int32_t view, const char *path, const uint8_t **data, size_t *size) {
    size_t n = ue_jv_items(ue_jv_get(c->root, "bufferViews"));
    if (view < 0 || (size_t)view >= n)
        return gr_fail(c, "gltf.index.range", UE_NO_OFFSET, path, "no buffer view %d", (int)view);
    gr_view v;
    if (!load_view(c, view, &v)) return false;
    *data = v.data;
    *size = v.size;
    return true;
}

static uint32_t comp_size(int ctype) {
    switch (ctype) {
    case GR_BYTE: case GR_UBYTE: return 1;
    case GR_SHORT: case GR_USHORT: return 2;
    case GR_UINT: case GR_FLOAT: return 4;
    default: return 0;
    }
}

static uint32_t type_comps(const char *type, uint32_t *columns) {
    static const struct { const char *name; uint32_t comps, cols; } types[] = {
        {"SCALAR", 1, 1}, {"VEC2", 2, 1}, {"VEC3", 3, 1}, {"VEC4", 4, 1},
        {"MAT2", 4, 2}, {"MAT3", 9, 3}, {"MAT4", 16, 4}};
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(type, types[i].name) == 0) {
            *columns = types[i].cols;
            return types[i].comps;
        }
    return 0;
}

/* One component as a number: normalized integers mapped to [0,1] / [-1,1] as glTF says. */
static double load_comp(const uint8_t *p, int ctype, bool norm) {
    switch (ctype) {
    case GR_BYTE: {
        double v = (int8_t)p[0];
        return norm ? fmax(v / 127.0, -1.0) : v;
    }
    case GR_UBYTE: return norm ? p[0] / 255.0 : p[0];
    case GR_SHORT: {
        double v = (int16_t)ue_load_u16le(p);
        return norm ? fmax(v / 32767.0, -1.0) : v;
    }
    case GR_USHORT: return norm ? ue_load_u16le(p) / 65535.0 : ue_load_u16le(p);
    case GR_UINT: return ue_load_u32le(p);
    default: {
        float f;
        uint32_t bits = ue_load_u32le(p);
        memcpy(&f, &bits, sizeof f);
        return f;
    }
    }
}

/* The layout of one accessor: element size with column padding (MAT2/MAT3 of small types). */
typedef struct gr_layout {
    uint32_t count, comps, columns, csize, col_stride, elem_size;
    int ctype;
    bool normalized;
} gr_layout;

static bool read_layout(gr_ctx *c, const ue_jv *a, const char *ap, const gr_acc_rule *rule,
                        const char *use, gr_layout *l) {
    uint64_t count, ctype;
    const char *type;
    bool norm;
    if (!gr_uint(c, a, "componentType", GR_FLOAT, 0, true, ap, &ctype) ||
        !gr_uint(c, a, "count", UINT32_MAX, 0, true, ap, &count) ||
        !gr_string(c, a, "type", "", ap, &type) || !gr_bool(c, a, "normalized", false, ap, &norm))
        return false;
    l->ctype = (int)ctype;
    l->csize = comp_size(l->ctype);
    l->comps = type_comps(type, &l->columns);
    if (!l->csize || !l->comps || count == 0)
        return gr_fail(c, "gltf.accessor.type", UE_NO_OFFSET, ap,
                       "componentType %d, type \"%s\", count %llu: not a valid accessor",
                       l->ctype, type, (unsigned long long)count);
    if (norm && (l->ctype == GR_FLOAT || l->ctype == GR_UINT))
        return gr_fail(c, "gltf.accessor.type", UE_NO_OFFSET, ap, "normalized %s",
                       l->ctype == GR_FLOAT ? "floats" : "32-bit integers");
    bool int_ok = !rule->ints_normalized || norm || l->ctype == GR_FLOAT;
    if (!(rule->comps & (1u << l->comps)) || !(rule->ctypes & GR_CT(l->ctype)) || !int_ok ||
        (rule->as_uint && norm))
        return gr_fail(c, "gltf.accessor.type", UE_NO_OFFSET, use,
                       "accessor %s (%s of componentType %d%s) cannot be used here", ap, type,
                       l->ctype, norm ? ", normalized" : "");
    uint32_t rows = l->comps / l->columns;
    l->col_stride = l->columns > 1 ? (rows * l->csize + 3u) & ~3u : rows * l->csize;
    l->elem_size = l->col_stride * l->columns;
    l->count = (uint32_t)count;
    l->normalized = norm;
    return true;
}

/* Decodes element i at p into out[0..comps). */
static void load_element(const gr_layout *l, const uint8_t *p, double *out) {
    uint32_t rows = l->comps / l->columns, k = 0;
    for (uint32_t col = 0; col < l->columns; col++)
        for (uint32_t r = 0; r < rows; r++)
            out[k++] = load_comp(p + col * l->col_stride + r * l->csize, l->ctype, l->normalized);
}

static void store(gr_acc *out, size_t i, uint32_t comps, const double *v) {
    for (uint32_t k = 0; k < comps; k++) {
        if (out->u) out->u[i * comps + k] = (uint32_t)v[k];
        else out->f[i * comps + k] = (float)v[k];
    }
}

/* Where the dense part lives: a buffer view, range checked before anything is allocated, or
 * nowhere (zeros). */
typedef struct gr_dense {
    const uint8_t *p;  /* first element, NULL for zeros */
    uint64_t stride;
} gr_dense;

static bool locate_dense(gr_ctx *c, const ue_jv *a, const char *ap, const gr_layout *l, gr_dense *out) {
    int32_t view;
    uint64_t off;
    out->p = NULL;
    if (!gr_index(c, a, "bufferView", ue_jv_items(ue_jv_get(c->root, "bufferViews")),
                  false, ap, &view) ||
        !gr_uint(c, a, "byteOffset", SIZE_MAX / 2, 0, false, ap, &off))
        return false;
    if (view < 0) return true;
    gr_view v;
    if (!load_view(c, view, &v)) return false;
    uint64_t stride = v.stride ? v.stride : l->elem_size;
    if (v.stride && v.stride < l->elem_size)
        return gr_fail(c, "gltf.accessor.stride", UE_NO_OFFSET, ap,
                       "byteStride %u is less than the element size %u", v.stride, l->elem_size);
    /* count < 2^32 and stride ≤ 252, so this cannot overflow 64 bits */
    uint64_t need = off + stride * (uint64_t)(l->count - 1) + l->elem_size;
    if (need > v.size)
        return gr_fail(c, "gltf.accessor.range", file_off(&v, 0), ap,
                       "%u elements of %u bytes (stride %llu) from byte %llu need %llu bytes; "
                       "bufferView %d has %zu", l->count, l->elem_size, (unsigned long long)stride,
                       (unsigned long long)off, (unsigned long long)need, (int)view, v.size);
    out->p = v.data + off;
    out->stride = stride;
    return true;
}

/* The common layouts without the per-component conversion through double: floats (positions,
 * normals, UVs) and unsigned integer indices. Same values as load_comp gives. */
static bool decode_plain(const gr_layout *l, const gr_dense *dn, gr_acc *out) {
    bool floats = l->ctype == GR_FLOAT && out->f, uints = !l->normalized && out->u &&
                  (l->ctype == GR_UBYTE || l->ctype == GR_USHORT || l->ctype == GR_UINT);
    if (l->columns != 1 || !(floats || uints)) return false;
    for (uint32_t i = 0; i < l->count; i++) {
        const uint8_t *p = dn->p + dn->stride * i;
        size_t at = (size_t)i * l->comps;
        for (uint32_t k = 0; k < l->comps; k++, p += l->csize) {
            if (floats) {
                uint32_t bits = ue_load_u32le(p);
                memcpy(&out->f[at + k], &bits, sizeof bits);
            } else {
                out->u[at + k] = l->csize == 1 ? p[0] : l->csize == 2 ? ue_load_u16le(p) : ue_load_u32le(p);
            }
        }
    }
    return true;
}

static void decode_dense(const gr_layout *l, const gr_dense *dn, gr_acc *out) {
    if (dn->p && decode_plain(l, dn, out)) return;
    double e[16];
    for (uint32_t i = 0; dn->p && i < l->count; i++) {
        load_element(l, dn->p + dn->stride * i, e);
        store(out, i, l->comps, e);
    }
}

/* A tightly packed range of a view for sparse indices or values. */
static bool sparse_part(gr_ctx *c, const ue_jv *part, const char *pp, uint64_t bytes, gr_view *v,
                        const uint8_t **p) {
    int32_t view;
    uint64_t off;
    if (!ue_jv_is(part, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, pp, "expected an object");
    if (!gr_index(c, part, "bufferView", ue_jv_items(ue_jv_get(c->root, "bufferViews")),
                  true, pp, &view) ||
        !gr_uint(c, part, "byteOffset", SIZE_MAX / 2, 0, false, pp, &off) || !load_view(c, view, v))
        return false;
    if (!ue_range_ok(off, bytes, v->size))
        return gr_fail(c, "gltf.sparse.range", file_off(v, 0), pp,
                       "%llu bytes from byte %llu pass the end of bufferView %d (%zu bytes)",
                       (unsigned long long)bytes, (unsigned long long)off, (int)view, v->size);
    *p = v->data + off;
    return true;
}

/* Sparse substitution: strictly increasing indices below count, then their values. */
static bool read_sparse(gr_ctx *c, const ue_jv *sp, const char *ap, const gr_layout *l, gr_acc *out) {
    char sp_path[160], ip[160], vp[160];
    uint64_t n, ictype;
    snprintf(sp_path, sizeof sp_path, "%s/sparse", ap);
    snprintf(ip, sizeof ip, "%s/indices", sp_path);
    snprintf(vp, sizeof vp, "%s/values", sp_path);
    const ue_jv *idx = ue_jv_get(sp, "indices"), *val = ue_jv_get(sp, "values");
    if (!gr_uint(c, sp, "count", l->count, 0, true, sp_path, &n)) return false;
    if (n == 0) return gr_fail(c, "gltf.sparse.count", UE_NO_OFFSET, sp_path, "count 0");
    if (!ue_jv_is(idx, UE_JV_OBJECT) ||
        !gr_uint(c, idx, "componentType", GR_UINT, 0, true, ip, &ictype))
        return gr_fail(c, "gltf.json.missing", UE_NO_OFFSET, ip, "indices with a componentType");
    uint32_t isize = comp_size((int)ictype);
    if (ictype != GR_UBYTE && ictype != GR_USHORT && ictype != GR_UINT)
        return gr_fail(c, "gltf.sparse.type", UE_NO_OFFSET, ip, "componentType %d",
                       (int)ictype);
    gr_view iv, vv;
    const uint8_t *ib, *vb;
    if (!sparse_part(c, idx, ip, n * isize, &iv, &ib) ||
        !sparse_part(c, val, vp, n * l->elem_size, &vv, &vb))
        return false;
    double e[16];
    uint64_t prev = 0;
    for (uint64_t k = 0; k < n; k++) {
        uint64_t at = (uint64_t)load_comp(ib + k * isize, (int)ictype, false);
        if (at >= l->count || (k > 0 && at <= prev))
            return gr_fail(c, "gltf.sparse.index", file_off(&iv, 0), ip,
                           "index %llu at position %llu (below %u, increasing)",
                           (unsigned long long)at, (unsigned long long)k, l->count);
        prev = at;
        load_element(l, vb + k * l->elem_size, e);
        store(out, (size_t)at, l->comps, e);
    }
    return true;
}

static bool check_finite(gr_ctx *c, const char *ap, const gr_acc *out) {
    size_t n = (size_t)out->count * out->comps;
    for (size_t i = 0; out->f && i < n; i++)
        if (!isfinite(out->f[i]))
            return gr_fail(c, "gltf.accessor.nonfinite", UE_NO_OFFSET, ap,
                           "element %zu component %zu is not a finite number", i / out->comps,
                           i % out->comps);
    return true;
}

bool gr_accessor(gr_ctx *c, int32_t index, const char *path, const gr_acc_rule *rule, gr_acc *out) {
    char ap[48];
    memset(out, 0, sizeof *out);
    snprintf(ap, sizeof ap, "/accessors/%d", (int)index);
    const ue_jv *a = ue_jv_at(ue_jv_get(c->root, "accessors"), (size_t)index);
    gr_layout l = {0};
    if (!ue_jv_is(a, UE_JV_OBJECT))
        return gr_fail(c, "gltf.json.type", UE_NO_OFFSET, ap, "expected an object");
    gr_dense dense = {NULL, 0};
    if (!read_layout(c, a, ap, rule, path, &l) || !locate_dense(c, a, ap, &l, &dense)) return false;
    size_t bytes = (size_t)l.count * l.comps * 4u;
    if (!gr_charge(c, bytes, ap)) return false;
    out->count = l.count;
    out->comps = l.comps;
    out->ctype = l.ctype;
    if (rule->as_uint) out->u = calloc((size_t)l.count * l.comps, sizeof *out->u);
    else out->f = calloc((size_t)l.count * l.comps, sizeof *out->f);
    if (!out->u && !out->f) {
        ue_parse_fail(&c->pc, UE_ERR_NOMEM);
        return false;
    }
    bool ok = true;
    const ue_jv *sp = gr_object(c, a, "sparse", ap, &ok);
    decode_dense(&l, &dense, out);
    ok = ok && (!sp || read_sparse(c, sp, ap, &l, out)) &&
         check_finite(c, ap, out);
    if (!ok) {
        free(out->f);
        free(out->u);
        memset(out, 0, sizeof *out);
    }
    return ok;
}
