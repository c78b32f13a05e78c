/* unearth — a new model's meshes (docs/hsd-import.md#new-models): each glTF primitive a DObj whose
 * PObjs hold its triangles in chunks, attributes quantised to their smallest format, lists as strips. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_new.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_strips.h"

#define MAX_CHUNK_VERTS 65535u
#define MAX_DL_BYTES (65535u * 32u) /* the PObj's u16 count of 32-byte units */

/* A primitive's vertex values in the joint's space, ready to quantise (owned copies). */
typedef struct prim_values {
    uint32_t n;
    float *pos, *nrm, *uv[2], *clr[2];
} prim_values;

/* The attributes a PObj stores, in GX descriptor order. */
enum { A_POS, A_NRM, A_CLR0, A_CLR1, A_TEX0, A_TEX1, A_COUNT };
static const uint32_t GX_ATTR[A_COUNT] = {UE_GX_VA_POS, UE_GX_VA_NRM, UE_GX_VA_CLR0, UE_GX_VA_CLR1, UE_GX_VA_TEX0,
                                          UE_GX_VA_TEX0 + 1};
static const uint32_t COMPS[A_COUNT] = {3, 3, 4, 4, 2, 2};

static float *values_of(const prim_values *v, int a) {
    switch (a) {
    case A_POS: return v->pos;
    case A_NRM: return v->nrm;
    case A_CLR0: case A_CLR1: return v->clr[a - A_CLR0];
    default: return v->uv[a - A_TEX0];
    }
}

static void values_free(prim_values *v) {
    free(v->pos), free(v->nrm), free(v->uv[0]), free(v->uv[1]), free(v->clr[0]), free(v->clr[1]);
}

static float *copy_floats(const float *src, size_t n) {
    float *p = src ? malloc(n * sizeof *p) : NULL;
    if (p) memcpy(p, src, n * sizeof *p);
    return p;
}

static bool is_identity(const double m[16]) {
    for (int i = 0; i < 16; i++)
        if (fabs(m[i] - HSD_MAT_IDENTITY[i]) > 1e-9) return false;
    return true;
}

/* Vertex i's position by M, its normal by the inverse transpose of M's 3×3 (`inv`: M⁻¹, or NULL
 * without normals), renormalised. */
static void transform_vertex(prim_values *v, uint32_t i, const double m[16], const double *inv) {
    float *p = v->pos + 3 * (size_t)i;
    double x = p[0], y = p[1], z = p[2];
    for (int r = 0; r < 3; r++) p[r] = (float)(m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r]);
    if (inv) hsd_mat_normal(inv, true, v->nrm + 3 * (size_t)i, v->nrm + 3 * (size_t)i);
}

static void transform(prim_values *v, const double m[16]) {
    double inv[16];
    bool normals = v->nrm && hsd_mat_invert(m, inv);
    for (uint32_t i = 0; i < v->n; i++) transform_vertex(v, i, m, normals ? inv : NULL);
}

/* Skinned vertices as the runtime draws them from an owner without R (docs/formats/hsd-model.md#skinning):
 * a one-joint envelope draws with W(j) alone, so its vertex goes into the joint's space by the
 * inverse bind; a vertex of several joints stays in the glTF's bind space (Σ w·W·IB applies). */
static void skin_values(hsd_new *b, prim_values *v, const hsd_env_set *set, const uint32_t *env_of_vertex) {
    for (uint32_t i = 0; i < v->n; i++) {
        const hsd_influences *e = &set->envs[env_of_vertex[i]];
        if (e->count != 1) continue;
        const double *ib = &b->sk.bind[16 * (size_t)e->joint[0]];
        double inv[16];
        transform_vertex(v, i, ib, v->nrm && hsd_mat_invert(ib, inv) ? inv : NULL);
    }
}

/* KHR_texture_transform of the base colour slot baked into its UV set: u' = offset + R·(scale ⊙ uv). */
static void bake_uv_transform(prim_values *v, const ue_texture_slot *slot) {
    float *uv = slot->uv_set < 2 ? v->uv[slot->uv_set] : NULL;
    if (!uv || !slot->transform.enabled) return;
    double c = cos(slot->transform.rotation), s = sin(slot->transform.rotation);
    for (uint32_t i = 0; i < v->n; i++) {
        double u = uv[2 * i] * slot->transform.scale[0], w = uv[2 * i + 1] * slot->transform.scale[1];
        uv[2 * i] = (float)(c * u + s * w + slot->transform.offset[0]);
        uv[2 * i + 1] = (float)(-s * u + c * w + slot->transform.offset[1]);
    }
}

static ue_result prepare_values(hsd_new *b, const ue_scene_primitive *p, const double to_joint[16], prim_values *v) {
    memset(v, 0, sizeof *v);
    v->n = p->vertex_count;
    v->pos = copy_floats(p->positions, 3 * (size_t)v->n);
    v->nrm = copy_floats(p->normals, 3 * (size_t)v->n);
    bool ok = v->pos && (!p->normals || v->nrm);
    for (int k = 0; k < 2; k++) {
        v->uv[k] = copy_floats(p->uv[k], 2 * (size_t)v->n);
        v->clr[k] = copy_floats(p->colors[k], 4 * (size_t)v->n);
        ok = ok && (!p->uv[k] || v->uv[k]) && (!p->colors[k] || v->clr[k]);
    }
    if (!ok) return UE_ERR_NOMEM;
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; v->clr[k] && i < 4 * (size_t)v->n; i++) {
            float c = v->clr[k][i];
            v->clr[k][i] = c > 1 ? 1 : c >= 0 ? c : 0;
        }
    if (!is_identity(to_joint)) transform(v, to_joint);
    if (p->material >= 0 && (size_t)p->material < b->s->material_count) {
        const ue_scene_material *mat = &b->s->materials[p->material];
        for (size_t k = 0; k < mat->slot_count; k++)
            if (mat->slots[k].role == UE_TEX_BASE_COLOR) {
                bake_uv_transform(v, &mat->slots[k]);
                break;
            }
    }
    return UE_OK;
}

/* ---- one PObj ------------------------------------------------------------------------------- */

typedef struct chunk {
    const uint32_t *tris;         /* glTF triangles (primitive vertex ids) */
    size_t tri_count;
    uint32_t *verts;              /* local vertex → primitive vertex */
    uint32_t vert_count;
    int32_t *local;               /* primitive vertex → local, -1 when not in the chunk */
    const uint32_t *env_of_vertex; /* skinned: primitive vertex → envelope id in `set`, else NULL */
    const hsd_env_set *set;       /* skinned: the primitive's distinct envelopes */
    const uint32_t *env;          /* skinned: the PObj's envelope ids, slot order */
    uint32_t env_count;
} chunk;

/* A skinned vertex's PNMTXIDX in its chunk: 3 × the slot of its envelope; -1 when the PObj's
 * list lacks it (the split placed the vertex's triangle without its envelope: a fault here). */
static int pnmtx_of(const chunk *c, uint32_t local) {
    uint32_t e = c->env_of_vertex[c->verts[local]];
    for (uint32_t k = 0; k < c->env_count && k < HSD_NEW_MAX_SLOTS; k++)
        if (c->env[k] == e) return (int)(3 * k);
    return -1;
}

/* The element bytes of attribute `a` over the chunk's vertices, in its chosen format. */
static ue_result encode_attr(hsd_new *b, const prim_values *v, int a, const chunk *c, ue_hsd_vtx_attr *out,
                             const char *path) {
    uint32_t comps = COMPS[a], n = c->vert_count;
    float *vals = malloc((size_t)n * comps * sizeof *vals);
    ue_buf *bytes = hsd_new_buf(b);
    if (!vals || !bytes) {
        free(vals);
        return UE_ERR_NOMEM;
    }
    const float *src = values_of(v, a);
    double largest = 0;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < comps; k++) {
            float x = src[(size_t)c->verts[i] * comps + k];
            vals[(size_t)i * comps + k] = x;
            largest = fabs(x) > largest ? fabs(x) : largest;
        }
    ue_result r = UE_OK;
    out->attr = GX_ATTR[a];
    out->type = n <= 255 ? UE_GX_INDEX8 : UE_GX_INDEX16;
    out->has_array = true;
    if (a == A_CLR0 || a == A_CLR1) {
        static const uint16_t size[6] = {2, 3, 4, 2, 3, 4};
        out->comp_type = hsd_choose_color_format(vals, n);
        out->comp_count = out->comp_type <= 2 ? 0 : 1;
        out->stride = size[out->comp_type];
        uint8_t el[4] = {0, 0, 0, 255};
        const char *why = NULL;
        for (uint32_t i = 0; i < n; i++) {
            if (!hsd_encode_vertex_color(vals + 4 * (size_t)i, out->comp_type, el, &why)) r = UE_ERR_INVALID;
            ue_buf_put(bytes, el, out->stride);
        }
    } else {
        /* Stated errors: positions 1/16384 of the chunk's largest coordinate, normals and UVs 2^-12. */
        double tol = a == A_POS ? largest / 16384 : 1.0 / 4096;
        hsd_comp_choice ch = hsd_choose_component(vals, (size_t)n * comps, tol, a == A_NRM);
        out->comp_type = ch.comp_type, out->frac = (uint8_t)ch.frac;
        out->comp_count = a == A_NRM ? 0 : 1;
        out->stride = (uint16_t)(comps * hsd_component_bytes(ch.comp_type));
        if (ch.comp_type == HSD_COMP_F32) b->st.f32_attributes++;
        uint8_t el[4];
        double lo, hi;
        for (size_t i = 0; i < (size_t)n * comps; i++) {
            if (!hsd_quantise_component(vals[i], ch.comp_type, ch.frac, el, &lo, &hi)) r = UE_ERR_INVALID;
            ue_buf_put(bytes, el, hsd_component_bytes(ch.comp_type));
        }
    }
    free(vals);
    if (r != UE_OK)
        ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.attribute", UE_NO_OFFSET, path,
                    "a value of attribute %u is not finite or cannot be stored", (unsigned)GX_ATTR[a]);
    if (r == UE_OK && bytes->failed) r = UE_ERR_NOMEM;
    out->array = bytes->data;
    out->array_size = bytes->size;
    return r;
}

/* The display list: strips over one record per local vertex (each attribute's index). */
static ue_result chunk_list(hsd_new *b, const chunk *c, uint32_t attr_count, bool wide, ue_buf **out,
                            const char *path) {
    uint32_t lead = c->env_of_vertex ? 1 : 0; /* the direct PNMTXIDX byte */
    uint32_t rec = lead + attr_count * (wide ? 2 : 1);
    uint32_t *gx = malloc(c->tri_count * 3 * sizeof *gx);
    uint8_t *records = malloc((size_t)c->vert_count * rec);
    uint32_t *record_at = malloc((size_t)c->vert_count * sizeof *record_at);
    *out = hsd_new_buf(b);
    ue_result r = gx && records && record_at && *out ? UE_OK : UE_ERR_NOMEM;
    for (size_t t = 0; r == UE_OK && t < c->tri_count; t++) { /* GX winding: each glTF triangle reversed */
        gx[3 * t] = (uint32_t)c->local[c->tris[3 * t]];
        gx[3 * t + 1] = (uint32_t)c->local[c->tris[3 * t + 2]];
        gx[3 * t + 2] = (uint32_t)c->local[c->tris[3 * t + 1]];
    }
    for (uint32_t i = 0; r == UE_OK && i < c->vert_count; i++) {
        record_at[i] = i * rec;
        int pnmtx = lead ? pnmtx_of(c, i) : 0;
        if (pnmtx < 0) {
            ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.internal", UE_NO_OFFSET, path,
                        "vertex %u's envelope is not in its PObj's list", (unsigned)c->verts[i]);
            r = UE_ERR_MISMATCH;
            break;
        }
        if (lead) records[(size_t)i * rec] = (uint8_t)pnmtx;
        for (uint32_t a = 0; a < attr_count; a++) {
            uint8_t *at = records + (size_t)i * rec + lead + a * (wide ? 2 : 1);
            if (wide) at[0] = (uint8_t)(i >> 8), at[1] = (uint8_t)i;
            else at[0] = (uint8_t)i;
        }
    }
    hsd_strips strips;
    memset(&strips, 0, sizeof strips);
    if (r == UE_OK) r = hsd_strips_build(gx, c->tri_count, &strips);
    if (r == UE_OK) r = hsd_strips_display_list(&strips, records, record_at, rec, 0, *out);
    hsd_strips_free(&strips);
    free(gx), free(records), free(record_at);
    return r;
}

static ue_result refuse_pobj_limit(hsd_new *b, const char *path) {
    ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.limit", UE_NO_OFFSET, path,
                "the model needs more than %d PObjs; the runtime draws about %d per model (merge primitives or meshes%s)",
                HSD_NEW_MAX_POBJS, HSD_NEW_MAX_POBJS, b->sk.owner >= 0 ? ", or use fewer distinct skin weights" : "");
    return UE_ERR_INVALID;
}

static ue_result emit_pobj(hsd_new *b, const prim_values *v, const chunk *c, bool cull, int32_t *prev_pobj,
                           int32_t *first_pobj, const char *path) {
    uint32_t attr_first = (uint32_t)b->m.attr_count, attr_count = 0;
    ue_result r = UE_OK;
    if (c->env_of_vertex) { /* PNMTXIDX first (GX order), direct: one byte in each record */
        int32_t row = hsd_new_row((void **)&b->m.attrs, &b->m.attr_count, &b->attr_cap, sizeof *b->m.attrs);
        if (row < 0) return UE_ERR_NOMEM;
        b->m.attrs[row].attr = UE_GX_VA_PNMTXIDX, b->m.attrs[row].type = UE_GX_DIRECT;
    }
    for (int a = 0; r == UE_OK && a < A_COUNT; a++) {
        if (!values_of(v, a)) continue;
        int32_t row = hsd_new_row((void **)&b->m.attrs, &b->m.attr_count, &b->attr_cap, sizeof *b->m.attrs);
        r = row < 0 ? UE_ERR_NOMEM : encode_attr(b, v, a, c, &b->m.attrs[row], path);
        attr_count++;
    }
    ue_buf *dl = NULL;
    if (r == UE_OK) r = chunk_list(b, c, attr_count, c->vert_count > 255, &dl, path);
    if (r == UE_OK && dl->failed) r = UE_ERR_NOMEM;
    if (r == UE_OK && dl->size > MAX_DL_BYTES) { /* unreachable by the chunk bound; kept as the limit's guard */
        ue_diag_add(b->d, UE_SEV_ERROR, "import.hsd.new.limit", UE_NO_OFFSET, path, "a display list past 65535 × 32 bytes");
        r = UE_ERR_INVALID;
    }
    if (r == UE_OK && b->m.pobj_count >= HSD_NEW_MAX_POBJS) r = refuse_pobj_limit(b, path);
    int32_t env_first = r == UE_OK && c->env_of_vertex ? hsd_new_envelope_rows(b, c->set, c->env, c->env_count) : 0;
    if (env_first < 0) r = UE_ERR_NOMEM;
    int32_t p = r == UE_OK ? hsd_new_row((void **)&b->m.pobjs, &b->m.pobj_count, &b->pobj_cap, sizeof *b->m.pobjs) : -1;
    if (r == UE_OK && p < 0) r = UE_ERR_NOMEM;
    if (r != UE_OK) return r;
    ue_hsd_pobj *po = &b->m.pobjs[p];
    po->next = UE_HSD_NONE;
    po->flags = (uint16_t)(UE_POBJ_SKIN | (cull ? UE_POBJ_CULL_BACK : 0));
    po->attr_first = attr_first, po->attr_count = attr_count + (c->env_of_vertex ? 1 : 0);
    if (c->env_of_vertex) {
        po->flags = (uint16_t)(po->flags | UE_POBJ_ENVELOPE);
        po->env_first = (uint32_t)env_first, po->env_count = c->env_count;
    }
    po->dl = dl->data, po->dl_size = dl->size;
    po->n_display = (uint16_t)((dl->size + 31) / 32);
    po->skin_joint = UE_HSD_NONE;
    if (*prev_pobj >= 0) b->m.pobjs[*prev_pobj].next = p;
    else *first_pobj = p;
    *prev_pobj = p;
    b->st.pobjs++;
    b->st.triangles += c->tri_count;
    return UE_OK;
}

/* ---- one primitive -------------------------------------------------------------------------- */

/* The chunk's local vertices: each corner of c->tris[0 … c->tri_count) numbered on first use. */
static void number_vertices(chunk *c) {
    c->vert_count = 0;
    for (size_t t = 0; t < 3 * c->tri_count; t++)
        if (c->local[c->tris[t]] < 0) c->local[c->tris[t]] = (int32_t)c->vert_count, c->verts[c->vert_count++] = c->tris[t];
}

static void forget_vertices(chunk *c) {
    for (uint32_t i = 0; i < c->vert_count; i++) c->local[c->verts[i]] = -1;
}

/* Rigid: triangles in input order, a PObj closed before it would pass the vertex or list bound. */
static ue_result rigid_pobjs(hsd_new *b, const ue_scene_primitive *p, const prim_values *v, chunk *c, size_t max_tris,
                             bool cull, int32_t *prev, int32_t *first, const char *path) {
    size_t tri_total = p->index_count / 3, t = 0;
    ue_result r = UE_OK;
    while (r == UE_OK && t < tri_total) {
        c->tris = p->indices + 3 * t, c->tri_count = 0;
        uint32_t verts = 0;
        while (t + c->tri_count < tri_total && c->tri_count < max_tris) {
            const uint32_t *tri = c->tris + 3 * c->tri_count;
            uint32_t fresh = 0; /* corners new to the chunk, a repeated corner once */
            for (int k = 0; k < 3; k++)
                fresh += c->local[tri[k]] < 0 && (k < 1 || tri[k] != tri[0]) && (k < 2 || tri[k] != tri[1]);
            if (verts + fresh > MAX_CHUNK_VERTS) break;
            for (int k = 0; k < 3; k++)
                if (c->local[tri[k]] < 0) c->local[tri[k]] = 0, verts++;
            c->tri_count++;
        }
        for (size_t i = 0; i < 3 * c->tri_count; i++) c->local[c->tris[i]] = -1;
        number_vertices(c);
        r = emit_pobj(b, v, c, cull, prev, first, path);
        forget_vertices(c);
        t += c->tri_count;
    }
    return r;
}

/* Skinned: the PObjs of the envelope split (hsd_new_skin_fit made it). */
static ue_result skinned_pobjs(hsd_new *b, const ue_scene_primitive *p, const prim_values *v, chunk *c,
                               const hsd_env_split *split, bool cull, int32_t *prev, int32_t *first, const char *path) {
    size_t tri_total = p->index_count / 3;
    uint32_t *ordered = malloc((3 * tri_total + 1) * sizeof *ordered);
    if (!ordered) return UE_ERR_NOMEM;
    for (size_t i = 0; i < tri_total; i++) memcpy(ordered + 3 * i, p->indices + 3 * (size_t)split->order[i], 3 * sizeof *ordered);
    ue_result r = UE_OK;
    for (size_t k = 0, t0 = 0, e0 = 0; r == UE_OK && k < split->count; k++) {
        c->tris = ordered + 3 * t0, c->tri_count = split->tri_end[k] - t0;
        c->env = split->env + e0, c->env_count = (uint32_t)(split->env_end[k] - e0);
        number_vertices(c);
        r = emit_pobj(b, v, c, cull, prev, first, path);
        forget_vertices(c);
        t0 = split->tri_end[k], e0 = split->env_end[k];
    }
    free(ordered);
    return r;
}

/* Appends DObj `dn` to joint `joint`'s list (its tail found by the walk: lists are short). */
static void link_dobj(hsd_new *b, int32_t joint, int32_t dn) {
    int32_t *at = &b->m.joints[joint].first_dobj;
    while (*at >= 0) at = &b->m.dobjs[*at].next;
    *at = dn;
}

/* Primitive `p` as a DObj of joint `joint`: rigid (vertices by to_joint) when skin < 0, else
 * skinned with skin `skin` (joint: the owner). */
static ue_result add_primitive(hsd_new *b, const ue_scene_primitive *p, int32_t joint, const double to_joint[16],
                               int32_t skin, const char *path) {
    if (p->index_count < 3) return UE_OK;
    int32_t mobj = hsd_new_material(b, p->material);
    if (mobj < 0) return UE_ERR_NOMEM;
    prim_values v;
    ue_result r = prepare_values(b, p, to_joint, &v);
    chunk c = {0};
    size_t nv = p->vertex_count ? p->vertex_count : 1;
    uint32_t *env_of_vertex = skin >= 0 ? malloc(nv * sizeof *env_of_vertex) : NULL;
    hsd_env_set set = {0};
    hsd_env_split split = {0};
    c.local = malloc(nv * sizeof *c.local);
    c.verts = malloc((size_t)(MAX_CHUNK_VERTS + 3) * sizeof *c.verts);
    if (r == UE_OK && (!c.local || !c.verts || (skin >= 0 && !env_of_vertex))) r = UE_ERR_NOMEM;
    for (uint32_t i = 0; r == UE_OK && i < p->vertex_count; i++) c.local[i] = -1;
    int attrs = 0;
    for (int a = 0; a < A_COUNT; a++) attrs += values_of(&v, a) != NULL;
    /* Worst case 3 records of 2-byte indices (and the PNMTXIDX byte) and a 3-byte header per triangle;
     * a skinned PObj's 3 × 21845 corners keep its vertices within 65535. */
    size_t max_tris = (MAX_DL_BYTES - 64) / (3u * (2u * (unsigned)attrs + (skin >= 0)) + 3u);
    if (r == UE_OK && skin >= 0)
        r = hsd_new_skin_fit(b, p, skin, max_tris < 21845 ? max_tris : 21845, &set, env_of_vertex, &split, path);
    if (r == UE_OK && skin >= 0) {
        skin_values(b, &v, &set, env_of_vertex);
        c.env_of_vertex = env_of_vertex;
        c.set = &set;
    }
    bool cull = !(p->material >= 0 && (size_t)p->material < b->s->material_count && b->s->materials[p->material].double_sided);
    int32_t first_pobj = -1, prev = -1;
    if (r == UE_OK)
        r = skin >= 0 ? skinned_pobjs(b, p, &v, &c, &split, cull, &prev, &first_pobj, path)
                      : rigid_pobjs(b, p, &v, &c, max_tris, cull, &prev, &first_pobj, path);
    if (r == UE_OK) {
        int32_t dn = hsd_new_row((void **)&b->m.dobjs, &b->m.dobj_count, &b->dobj_cap, sizeof *b->m.dobjs);
        if (dn < 0) r = UE_ERR_NOMEM;
        else {
            b->m.dobjs[dn] = (ue_hsd_dobj){0, NULL, UE_HSD_NONE, mobj, first_pobj, joint};
            link_dobj(b, joint, dn);
            b->st.dobjs++;
        }
    }
    free(c.local), free(c.verts), free(env_of_vertex);
    hsd_env_split_free(&split);
    hsd_env_set_free(&set);
    values_free(&v);
    return r;
}

/* The primitives of node `node`'s mesh with joints (`skinned`) or without. */
static ue_result mesh_primitives(hsd_new *b, int32_t node, int32_t joint, const double to_joint[16], bool skinned) {
    const ue_scene_node *sn = &b->s->nodes[node];
    const ue_scene_mesh *mesh = &b->s->meshes[sn->mesh];
    ue_result r = UE_OK;
    for (size_t i = 0; r == UE_OK && i < mesh->primitive_count; i++) {
        if ((mesh->primitives[i].joints != NULL) != skinned) continue;
        char path[96];
        snprintf(path, sizeof path, "/meshes/%d/primitives/%zu", (int)sn->mesh, i);
        r = add_primitive(b, &mesh->primitives[i], joint, to_joint, skinned ? sn->skin : -1, path);
    }
    return r;
}

ue_result hsd_new_mesh(hsd_new *b, int32_t node, int32_t joint, const double to_joint[16]) {
    return mesh_primitives(b, node, joint, to_joint, false);
}

ue_result hsd_new_skinned_mesh(hsd_new *b, int32_t node) {
    return mesh_primitives(b, node, b->sk.owner, HSD_MAT_IDENTITY, true);
}
