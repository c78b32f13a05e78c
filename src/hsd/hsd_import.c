/* unearth — edit-mode import of HSD models (docs/hsd-import.md): the vertex values a glTF changed,
 * written in place into a copy of the base DAT through the inverse skinning, every other byte kept. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "hsd/hsd_import_int.h"
#include "hsd/hsd_int.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/hsd_import.h"

/* How far a glTF value may lie from the base's own export and still be no edit: the float
 * noise of a client that reads and writes the file again (docs/hsd-import.md#what-changed). */
#define POS_TOLERANCE HSD_POS_TOLERANCE
#define NORMAL_TOLERANCE 1e-5
#define VALUE_TOLERANCE 1e-6 /* UVs and colours, relative (at least absolute) */

typedef struct edit_ctx {
    const ue_hsd_model *m;
    const ue_scene *s;     /* the glTF */
    const ue_scene *ref;   /* the base as convert exports it */
    hsd_pose pose;
    uint8_t *bytes;        /* the copy being edited: the whole DAT */
    size_t size;
    uint8_t *written;      /* per byte of `bytes`: changed by an edit */
    uint8_t *kept;         /* per byte: an array element a vertex the glTF left unchanged uses */
    size_t *claim_first;   /* per ref mesh: its first slot in `claimed` */
    bool *claimed;         /* per ref primitive: matched to a glTF primitive */
    int32_t *material_pairs; /* (glTF material, ref material) of each matched primitive */
    size_t material_pair_count;
    hsd_list_rebuild *rebuilds; /* PObjs whose triangles changed, one per matched primitive at most */
    size_t rebuild_count;
    hsd_layout_edits layout;    /* new envelopes and widened attributes: the DAT is laid out anew */
    int32_t *joint_map;         /* the current glTF node's skin joints as base joints (hsd_skin_joint_map) */
    bool nomem;
    size_t joint_map_count;
    ue_hsd_edit_stats stats;
    ue_diag *d;
    size_t errors;
} edit_ctx;

static void edit_error(edit_ctx *x, const char *code, uint64_t offset, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void edit_error(edit_ctx *x, const char *code, uint64_t offset, const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(x->d, UE_SEV_ERROR, code, offset, path, fmt, ap);
    va_end(ap);
    x->errors++;
}

/* ---- matching (docs/hsd-import.md#matching) ------------------------------------------------- */

/* A glTF node name against the base's: equal, or equal once a client's ".NNN" suffix is cut. */
bool hsd_names_match(const char *gltf, const char *ref) {
    if (!strcmp(gltf, ref)) return true;
    size_t n = strlen(ref);
    if (strncmp(gltf, ref, n) || gltf[n] != '.' || !gltf[n + 1]) return false;
    for (const char *p = gltf + n + 1; *p; p++)
        if (*p < '0' || *p > '9') return false;
    return true;
}

static bool same_triangles(const ue_scene_primitive *a, const ue_scene_primitive *b) {
    return a->vertex_count == b->vertex_count && a->index_count == b->index_count &&
           (a->index_count == 0 || !memcmp(a->indices, b->indices, a->index_count * sizeof *a->indices));
}

/* Vertices whose positions are those of the base primitive: ranks candidates of equal triangles. */
static size_t position_score(const ue_scene_primitive *a, const ue_scene_primitive *b) {
    size_t n = 0;
    for (uint32_t v = 0; v < b->vertex_count && v < a->vertex_count; v++)
        n += hsd_close_to(&a->positions[3 * (size_t)v], &b->positions[3 * (size_t)v], 3, POS_TOLERANCE, POS_TOLERANCE);
    return n;
}

typedef struct ref_match {
    int32_t mesh, node;
    size_t prim;
    bool named;       /* some base mesh node has the glTF node's name */
    bool same_counts; /* some unclaimed primitive has the counts but other triangles */
    bool rebuild;     /* matched by its vertices: the triangles differ, the list is rebuilt */
    bool taken;       /* a primitive with the same counts was claimed by an earlier glTF node */
} ref_match;

/* The base primitive for glTF primitive `gp` of node `gnode`: an unclaimed primitive of a base
 * mesh node of the same name with the same triangles; among several, the one with the most
 * unmoved positions. With `rebuild`, one with as many vertices or fewer and other triangles, more
 * than half of its positions unmoved (convert's vertices, triangles added or deleted, new vertices
 * after the base's). */
static ref_match find_ref(const edit_ctx *x, const ue_scene_node *gnode, const ue_scene_primitive *gp, bool rebuild) {
    ref_match best = {-1, -1, 0, false, false, rebuild, false};
    size_t best_score = 0;
    for (size_t n = 0; n < x->ref->node_count; n++) {
        const ue_scene_node *rn = &x->ref->nodes[n];
        if (rn->mesh < 0 || !hsd_names_match(gnode->name, rn->name)) continue;
        best.named = true;
        const ue_scene_mesh *rm = &x->ref->meshes[rn->mesh];
        for (size_t p = 0; p < rm->primitive_count; p++) {
            const ue_scene_primitive *rp = &rm->primitives[p];
            if (x->claimed[x->claim_first[rn->mesh] + p]) {
                best.taken |= gp->vertex_count == rp->vertex_count && gp->index_count == rp->index_count;
                continue;
            }
            bool same = same_triangles(gp, rp);
            if (!same) best.same_counts |= gp->vertex_count == rp->vertex_count && gp->index_count == rp->index_count;
            if (same == rebuild || (rebuild && gp->vertex_count < rp->vertex_count)) continue;
            size_t score = position_score(gp, rp);
            if (rebuild && 2 * score <= rp->vertex_count) continue;
            if (best.mesh < 0 || score > best_score) {
                best.mesh = rn->mesh, best.node = (int32_t)n, best.prim = p;
                best_score = score;
            }
        }
    }
    return best;
}

/* ---- writing one element ------------------------------------------------------------------- */

/* How an attribute's values go: into its bytes; only checked against its format (a first pass
 * that finds whether it must be widened); into the wide copy of its array. */
enum { SITE_WRITE, SITE_PROBE, SITE_WIDE };

/* Where one attribute of one PObj lies: its descriptor, layout, byte position in the vertex
 * record, and the records of the decoded vertices. */
typedef struct attr_site {
    const ue_hsd_pobj *po;
    const ue_hsd_vtx_attr *a;
    hsd_attr_layout lay;
    uint32_t field;
    const hsd_records *rec;
    const int32_t *head, *next; /* per vertex: its drawn records, chained */
    size_t pobj;
    char gpath[160];            /* "/meshes/M/primitives/P/attributes/NAME" */
    int mode;                   /* SITE_* */
    bool overflow;              /* SITE_PROBE: a value its format cannot hold */
    hsd_wide_attr *wide;        /* SITE_WIDE */
    const uint8_t *own;         /* SITE_WIDE: per vertex, != 0xFF: re-weighted, its value goes to an element of its own */
    bool stopped;               /* an index limit was reported: the site's other vertices would repeat it */
} attr_site;

/* Puts `n` bytes at data offset `at`: 0 when they are already there, 1 when written, -1 when an
 * earlier edit put other bytes there (two glTF vertices disagree about one stored element). */
static int write_at(edit_ctx *x, const attr_site *t, uint64_t at, const uint8_t *val, uint32_t n, uint32_t v) {
    uint64_t off = UE_DAT_HEADER + at;
    if (off + n > x->size) return 0; /* the decoder checked every element: not reached */
    if (!memcmp(x->bytes + off, val, n)) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (x->written[off + i]) {
            edit_error(x, "import.hsd.conflict", off, t->gpath,
                       "vertex %u: another vertex of the glTF gave this stored element (PObj %zu, attribute %u) "
                       "a different value; vertices that share one element must be edited alike",
                       v, t->pobj, t->a->attr);
            return -1;
        }
    memcpy(x->bytes + off, val, n);
    memset(x->written + off, 1, n);
    return 1;
}

static uint64_t element_at(const attr_site *t, uint32_t v) {
    const uint8_t *field = t->po->dl + t->rec->first_at[v] + t->field;
    uint32_t idx = t->a->type == UE_GX_INDEX8 ? field[0] : ue_load_u16be(field);
    return (uint64_t)t->a->array_offset + (uint64_t)idx * t->a->stride;
}

/* The current bytes of vertex v's element (its first place). */
static const uint8_t *element_bytes(const edit_ctx *x, const attr_site *t, uint32_t v) {
    uint64_t at = t->a->type == UE_GX_DIRECT ? (uint64_t)t->po->dl_offset + t->rec->first_at[v] + t->field
                                             : element_at(t, v);
    return x->bytes + UE_DAT_HEADER + at;
}

/* Vertex v is unchanged: its array element should stay as it is (a direct value is its own). */
static void mark_kept(edit_ctx *x, const attr_site *t, uint32_t v) {
    if (t->a->type == UE_GX_DIRECT || t->mode != SITE_WRITE) return;
    uint64_t off = UE_DAT_HEADER + element_at(t, v);
    if (off + t->lay.elem_bytes <= x->size) memset(x->kept + off, 1, t->lay.elem_bytes);
}

/* Vertex v's new element bytes into its array element, or into every record of a direct value. */
static void put_element(edit_ctx *x, const attr_site *t, uint32_t v, const uint8_t *val, size_t *counter) {
    int changed = 0;
    if (t->a->type == UE_GX_DIRECT) {
        for (int32_t o = t->head[v]; o >= 0 && changed >= 0; o = t->next[o]) {
            int w = write_at(x, t, (uint64_t)t->po->dl_offset + t->rec->occ_at[o] + t->field, val, t->lay.elem_bytes, v);
            changed = w < 0 ? -1 : changed | w;
        }
    } else {
        changed = write_at(x, t, element_at(t, v), val, t->lay.elem_bytes, v);
    }
    if (changed > 0) (*counter)++;
}

/* An attribute that can take a wider array: indexed, one index per vertex (not NBT3), not F32. */
static bool widenable(const attr_site *t) {
    return t->a->type != UE_GX_DIRECT && t->lay.indices == 1 && t->a->comp_type != HSD_COMP_F32;
}

/* Components into element bytes; false after a range error naming the attribute and the limit
 * (in SITE_PROBE, the overflow is only noted). */
static bool quantise(edit_ctx *x, attr_site *t, uint32_t v, const double *val, uint32_t comps, uint8_t *out,
                     const char *what) {
    for (uint32_t c = 0; c < comps; c++) {
        double lo, hi;
        if (hsd_quantise_component(val[c], t->a->comp_type, t->a->frac, out + c * t->lay.comp_bytes, &lo, &hi))
            continue;
        if (t->mode == SITE_PROBE && widenable(t) && isfinite(val[c])) return t->overflow = true, false;
        edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "vertex %u: %s component %u is %g in the PObj's stored space; PObj %zu stores it as %s with %u "
                   "fractional bits, which holds %g … %g%s",
                   v, what, c, val[c], t->pobj, hsd_comp_type_name(t->a->comp_type), t->a->frac, lo, hi,
                   t->a->type == UE_GX_DIRECT ? " (a direct attribute is not widened)" : "");
        return false;
    }
    return true;
}

/* A re-weighted vertex's value in a new element at the end of the PObj's own copy of the array,
 * and every record of the vertex indexing it: the old element may be shared with vertices that
 * keep their envelope (and their place). */
static void own_element(edit_ctx *x, attr_site *t, uint32_t v, const double *val, size_t *counter) {
    int64_t index = hsd_wide_append(t->wide, val);
    if (index < 0) {
        x->nomem = true;
        return;
    }
    uint32_t width = t->a->type == UE_GX_INDEX8 ? 1 : 2;
    if (index >= (width == 1 ? 256 : 65536)) {
        t->stopped = true;
        edit_error(x, "import.hsd.limit", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "vertex %u: re-weighted, it needs an element of its own in PObj %zu's array, whose %u-bit indices "
                   "reach no further", v, t->pobj, 8 * width);
        return;
    }
    uint8_t idx[2] = {(uint8_t)(width == 1 ? index : index >> 8), (uint8_t)index};
    for (int32_t o = t->head[v]; o >= 0; o = t->next[o])
        if (write_at(x, t, (uint64_t)t->po->dl_offset + t->rec->occ_at[o] + t->field, idx, width, v) < 0) return;
    (*counter)++;
}

/* Vertex v's new value: re-quantised into its element (SITE_WRITE), checked (SITE_PROBE), or into
 * the wide copy of the array (SITE_WIDE). */
static void store(edit_ctx *x, attr_site *t, uint32_t v, const double *val, uint32_t comps, const char *what,
                  size_t *counter) {
    if (t->mode == SITE_WIDE && t->own && t->own[v] != 0xFF) {
        own_element(x, t, v, val, counter);
        return;
    }
    if (t->mode == SITE_WIDE) {
        uint32_t index = (uint32_t)((element_at(t, v) - t->a->array_offset) / t->a->stride);
        int w = hsd_wide_put(t->wide, index, val);
        if (w < 0)
            edit_error(x, "import.hsd.conflict", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: another vertex of the glTF gave its stored element %u (PObj %zu, widened) a "
                       "different value", v, index, t->pobj);
        *counter += w > 0;
        return;
    }
    uint8_t bytes[16];
    if (quantise(x, t, v, val, comps, bytes, what) && t->mode == SITE_WRITE) put_element(x, t, v, bytes, counter);
}

bool hsd_skin_invert(const double m[16], double inv[16]) {
    double det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) +
                 m[8] * (m[1] * m[6] - m[5] * m[2]);
    double lengths = 1;
    for (int c = 0; c < 3; c++) lengths *= sqrt(m[4 * c] * m[4 * c] + m[4 * c + 1] * m[4 * c + 1] + m[4 * c + 2] * m[4 * c + 2]);
    return fabs(det) > 1e-6 * lengths && hsd_mat_invert(m, inv);
}

/* ---- one attribute of one primitive -------------------------------------------------------- */

typedef struct prim_pair {
    const ue_scene_primitive *gp, *rp;
    const ue_hsd_geometry *g;
    const hsd_pobj_skin *sk;
    double inv[HSD_SKIN_SLOTS][16];
    bool inv_ok[HSD_SKIN_SLOTS];
    const uint8_t *new_slot;    /* per vertex: the envelope slot its new weights take, 0xFF: kept */
    bool reweights;             /* some vertex has a new slot */
    uint32_t base;              /* the PObj's vertices; glTF vertices from here on are new */
    hsd_list_rebuild *rb;       /* where new vertices' records go (NULL: none) */
} prim_pair;

static bool reweighted(const prim_pair *q, uint32_t v) { return q->new_slot && q->new_slot[v] != 0xFF; }

/* Vertex v's skinning slot: its new envelope's, its PNMTXIDX's, else 0 (a new vertex of a rigid PObj). */
static const hsd_skin_slot *slot_of(const prim_pair *q, uint32_t v, size_t *k) {
    *k = reweighted(q, v) ? q->new_slot[v] : q->g->pnmtx && v < q->base ? q->g->pnmtx[v] / 3u : 0;
    return &q->sk->slot[*k];
}

/* Vertex v's glTF position in the PObj's stored space, through the inverse of its slot's matrix:
 * 1; after a refusal 0 (a Z the X–Y format cannot hold) or -1 (no inverse: the PObj's other
 * vertices would say the same). */
static int stored_position(edit_ctx *x, attr_site *t, const prim_pair *q, uint32_t v, double st[3]) {
    const float *gpos = &q->gp->positions[3 * (size_t)v];
    size_t k;
    slot_of(q, v, &k);
    if (!q->inv_ok[k]) {
        edit_error(x, "import.hsd.singular", UE_DAT_HEADER + (uint64_t)t->po->offset, t->gpath,
                   "vertex %u: PObj %zu places it with a matrix that has no inverse (envelope %zu: its joints' "
                   "blend flattens space), so the edited position cannot be taken back into its stored space",
                   v, t->pobj, k);
        return -1;
    }
    const double *a = q->inv[k];
    for (int r = 0; r < 3; r++) st[r] = a[r] * gpos[0] + a[4 + r] * gpos[1] + a[8 + r] * gpos[2] + a[12 + r];
    if (t->lay.comps == 2 && fabs(st[2]) > POS_TOLERANCE * (1 + fabs(st[0]) + fabs(st[1]))) {
        edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "vertex %u: PObj %zu stores positions as X and Y only, and the edit gives Z = %g in its "
                   "stored space", v, t->pobj, st[2]);
        return 0;
    }
    return 1;
}

/* A re-weighted vertex keeps its drawn place: its stored position and normal are taken back
 * through its new envelope's matrix. */
static void edit_positions(edit_ctx *x, attr_site *t, const prim_pair *q) {
    for (uint32_t v = 0; v < q->base && !t->stopped; v++) {
        const float *gpos = &q->gp->positions[3 * (size_t)v];
        if (!reweighted(q, v) && hsd_close_to(gpos, &q->rp->positions[3 * (size_t)v], 3, POS_TOLERANCE, POS_TOLERANCE)) {
            mark_kept(x, t, v);
            continue;
        }
        double st[3];
        int got = stored_position(x, t, q, v, st);
        if (got < 0) return;
        if (got) store(x, t, v, st, t->lay.comps, "POSITION", &x->stats.positions);
    }
}

/* Vertex v's glTF normal in the stored space, `length` long (0: unit): the export took n to
 * cof(M)·n, normalised; M^T undoes it up to a length. */
static void stored_normal(const prim_pair *q, uint32_t v, double length, double dir[3]) {
    const float *gn = &q->gp->normals[3 * (size_t)v];
    size_t k;
    const double *a = slot_of(q, v, &k)->matrix;
    double len = 0;
    for (int r = 0; r < 3; r++) {
        dir[r] = a[r * 4 + 0] * gn[0] + a[r * 4 + 1] * gn[1] + a[r * 4 + 2] * gn[2];
        len += dir[r] * dir[r];
    }
    len = sqrt(len);
    double scale = (length > 0 ? length : 1.0) / (len > 0 ? len : 1.0);
    for (int r = 0; r < 3; r++) dir[r] *= scale;
}

static void edit_normals(edit_ctx *x, attr_site *t, const prim_pair *q) {
    if (!q->gp->normals || !q->rp->normals || !q->g->normals) return;
    for (uint32_t v = 0; v < q->base && !t->stopped; v++) {
        const float *gn = &q->gp->normals[3 * (size_t)v];
        if (!reweighted(q, v) && hsd_close_to(gn, &q->rp->normals[3 * (size_t)v], 3, 0, NORMAL_TOLERANCE)) {
            mark_kept(x, t, v);
            continue;
        }
        if (t->lay.comps != 3) {
            edit_error(x, "import.hsd.nbt", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: PObj %zu stores normals with binormals and tangents (NBT), which are not "
                       "rewritten yet", v, t->pobj);
            return;
        }
        double dir[3], stored_len = 0;
        for (int r = 0; r < 3; r++) stored_len += q->g->normals[3 * (size_t)v + (size_t)r] * q->g->normals[3 * (size_t)v + (size_t)r];
        stored_normal(q, v, sqrt(stored_len), dir);
        store(x, t, v, dir, 3, "NORMAL", &x->stats.normals);
    }
}

static void edit_uvs(edit_ctx *x, attr_site *t, const prim_pair *q, int set) {
    if (!q->gp->uv[set] || !q->rp->uv[set]) return;
    for (uint32_t v = 0; v < q->base && !t->stopped; v++) {
        const float *guv = &q->gp->uv[set][2 * (size_t)v];
        if (hsd_close_to(guv, &q->rp->uv[set][2 * (size_t)v], 2, VALUE_TOLERANCE, VALUE_TOLERANCE)) {
            mark_kept(x, t, v);
            continue;
        }
        double st[2] = {guv[0], guv[1]};
        if (t->lay.comps == 1 && guv[1] != 0.0f) {
            edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: PObj %zu stores one texture coordinate (s), and the edit gives t = %g", v,
                       t->pobj, st[1]);
            continue;
        }
        store(x, t, v, st, t->lay.comps, "TEXCOORD", &x->stats.uvs);
    }
}

static void edit_colors(edit_ctx *x, attr_site *t, const prim_pair *q, int set) {
    if (!q->gp->colors[set] || !q->rp->colors[set]) return;
    for (uint32_t v = 0; v < q->base; v++) {
        const float *gc = &q->gp->colors[set][4 * (size_t)v];
        if (hsd_close_to(gc, &q->rp->colors[set][4 * (size_t)v], 4, VALUE_TOLERANCE, VALUE_TOLERANCE)) {
            mark_kept(x, t, v);
            continue;
        }
        uint8_t val[4];
        memcpy(val, element_bytes(x, t, v), t->lay.elem_bytes); /* RGBX8 keeps its fourth byte */
        const char *why = "";
        if (hsd_encode_vertex_color(gc, t->a->comp_type, val, &why)) put_element(x, t, v, val, &x->stats.colors);
        else
            edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: colour (%g, %g, %g, %g) does not fit PObj %zu's colour format %u: %s", v, gc[0],
                       gc[1], gc[2], gc[3], t->pobj, t->a->comp_type, why);
    }
}

/* A UV set the material samples but the PObj lacks is exported as zeros: it can stay zeros. */
static void check_missing_uvs(edit_ctx *x, const prim_pair *q, const char *gpath, size_t pobj) {
    for (int k = 0; k < 2; k++) {
        if (q->g->uv[k] || !q->gp->uv[k] || !q->rp->uv[k]) continue;
        for (uint32_t v = 0; v < q->gp->vertex_count; v++)
            if (q->gp->uv[k][2 * (size_t)v] != 0.0f || q->gp->uv[k][2 * (size_t)v + 1] != 0.0f) {
                edit_error(x, "import.hsd.attribute", UE_DAT_HEADER + (uint64_t)x->m->pobjs[pobj].offset, gpath,
                           "TEXCOORD_%d: PObj %zu has no TEX%d attribute (the export wrote zeros); adding an "
                           "attribute is not written yet", k, pobj, k);
                break;
            }
    }
    for (int k = 0; k < 2; k++)
        if (q->gp->colors[k] && !q->rp->colors[k])
            ue_diag_add(x->d, UE_SEV_WARNING, "import.hsd.attribute", UE_DAT_HEADER + (uint64_t)x->m->pobjs[pobj].offset,
                        gpath, "COLOR_%d is left out: PObj %zu draws no vertex colour set %d", k, pobj, k);
}

/* ---- one primitive ------------------------------------------------------------------------- */

/* Chains each vertex's drawn records: head[v] → next[o] → ... (-1 ends). */
static bool chain_records(const hsd_records *rec, uint32_t vertices, int32_t **head, int32_t **next) {
    *head = malloc(((size_t)vertices + 1) * sizeof **head);
    *next = malloc((rec->occ_count + 1) * sizeof **next);
    if (!*head || !*next || rec->occ_count > INT32_MAX) return false;
    for (uint32_t v = 0; v < vertices; v++) (*head)[v] = -1;
    for (size_t o = rec->occ_count; o-- > 0;) {
        uint32_t v = rec->occ_vertex[o];
        (*next)[o] = v < vertices ? (*head)[v] : -1;
        if (v < vertices) (*head)[v] = (int32_t)o;
    }
    return true;
}

/* The PNMTXIDX of every record of a re-weighted vertex: 3 × its new envelope slot. */
static void edit_matrix_indices(edit_ctx *x, attr_site *t, const prim_pair *q) {
    for (uint32_t v = 0; v < q->base; v++)
        if (reweighted(q, v)) {
            uint8_t idx = (uint8_t)(3 * q->new_slot[v]);
            put_element(x, t, v, &idx, &x->stats.reweighted);
        }
}

static void run_edit(edit_ctx *x, attr_site *t, const prim_pair *q) {
    uint32_t attr = t->a->attr;
    if (attr == UE_GX_VA_POS) edit_positions(x, t, q);
    else if (attr == UE_GX_VA_NRM || attr == UE_GX_VA_NBT) edit_normals(x, t, q);
    else if (attr == UE_GX_VA_CLR0 || attr == UE_GX_VA_CLR1) edit_colors(x, t, q, (int)(attr - UE_GX_VA_CLR0));
    else edit_uvs(x, t, q, (int)(attr - UE_GX_VA_TEX0));
}

/* A first pass without writing or reporting: does some value not fit the attribute's format? */
static bool overflows(edit_ctx *x, attr_site *t, const prim_pair *q) {
    ue_diag scratch = {0}, *d = x->d;
    size_t errors = x->errors;
    ue_hsd_edit_stats stats = x->stats;
    x->d = &scratch, t->mode = SITE_PROBE, t->overflow = false;
    run_edit(x, t, q);
    x->d = d, x->errors = errors, x->stats = stats, t->mode = SITE_WRITE;
    ue_diag_free(&scratch);
    return t->overflow;
}

/* ---- new vertices (docs/hsd-import.md#new-vertices) ----------------------------------------- */

#define COLOUR_SCAN_LIMIT (1u << 26) /* element comparisons finding new vertices' colours */

/* The element of indexed colour attribute t whose bytes are `val` (among those the PObj's
 * vertices use), or -1: colour arrays are not widened, so a new vertex reuses a colour. */
static int64_t colour_element(edit_ctx *x, const attr_site *t, const prim_pair *q, const float rgba[4], size_t *work) {
    for (uint32_t u = 0; u < q->base && (*work)++ < COLOUR_SCAN_LIMIT; u++) {
        const uint8_t *have = element_bytes(x, t, u);
        uint8_t val[4];
        const char *why;
        memcpy(val, have, t->lay.elem_bytes);
        if (hsd_encode_vertex_color(rgba, t->a->comp_type, val, &why) && !memcmp(val, have, t->lay.elem_bytes))
            return (int64_t)((element_at(t, u) - t->a->array_offset) / t->a->stride);
    }
    return -1;
}

/* New vertex v's colour into its record (direct) or as an element the PObj has (indexed). */
static void new_colour(edit_ctx *x, attr_site *t, const prim_pair *q, uint32_t v, uint8_t *field, uint32_t *index,
                       size_t *work) {
    int set = (int)(t->a->attr - UE_GX_VA_CLR0);
    static const float white[4] = {1, 1, 1, 1};
    const float *c = q->gp->colors[set] ? &q->gp->colors[set][4 * (size_t)v] : white;
    const char *why = "";
    if (t->a->type == UE_GX_DIRECT) {
        if (!hsd_encode_vertex_color(c, t->a->comp_type, field, &why))
            edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "new vertex %u: colour (%g, %g, %g, %g) does not fit PObj %zu's colour format %u: %s", v, c[0],
                       c[1], c[2], c[3], t->pobj, t->a->comp_type, why);
        return;
    }
    int64_t k = colour_element(x, t, q, c, work);
    if (k >= 0) *index = (uint32_t)k;
    else
        edit_error(x, *work > COLOUR_SCAN_LIMIT ? "import.hsd.limit" : "import.hsd.attribute",
                   UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "new vertex %u: colour (%g, %g, %g, %g) is none that PObj %zu's vertices have; a new element in "
                   "an indexed colour array is not written yet", v, c[0], c[1], c[2], c[3], t->pobj);
}

/* New vertex v's value of position, normal or UV attribute t in the stored space; false after a
 * refusal. */
static bool new_value(edit_ctx *x, attr_site *t, const prim_pair *q, uint32_t v, double *val) {
    uint32_t attr = t->a->attr;
    if (attr == UE_GX_VA_POS) return stored_position(x, t, q, v, val) > 0;
    if (attr == UE_GX_VA_NRM || attr == UE_GX_VA_NBT) {
        if (t->lay.comps != 3 || !q->gp->normals) {
            edit_error(x, t->lay.comps != 3 ? "import.hsd.nbt" : "import.hsd.attribute",
                       UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "new vertex %u: PObj %zu stores %s; a new vertex needs a NORMAL of three components", v,
                       t->pobj, t->lay.comps != 3 ? "binormals and tangents (NBT)" : "normals the glTF lacks");
            return false;
        }
        stored_normal(q, v, 1.0, val);
        return true;
    }
    int set = (int)(attr - UE_GX_VA_TEX0);
    const float *uv = q->gp->uv[set] ? &q->gp->uv[set][2 * (size_t)v] : NULL;
    val[0] = uv ? uv[0] : 0, val[1] = uv ? uv[1] : 0;
    if (t->lay.comps == 1 && val[1] != 0) {
        edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "new vertex %u: PObj %zu stores one texture coordinate (s), and the glTF gives t = %g", v, t->pobj,
                   val[1]);
        return false;
    }
    return true;
}

/* The glTF's new vertices (from q->base on) in attribute t (the PObj's descriptor attr_index):
 * an element appended to the PObj's own array (SITE_WIDE), values in their records (direct), the
 * matrix index of their envelope, or a colour element the PObj has. */
static void add_new_vertices(edit_ctx *x, attr_site *t, const prim_pair *q, uint32_t attr_index) {
    hsd_list_rebuild *rb = q->rb;
    const char *what = t->a->attr == UE_GX_VA_POS ? "POSITION" : t->a->attr >= UE_GX_VA_TEX0 ? "TEXCOORD" : "NORMAL";
    size_t work = 0;
    for (uint32_t v = q->base; rb && v < q->gp->vertex_count && !x->errors; v++) {
        uint8_t *field = rb->new_records + (size_t)(v - q->base) * t->rec->record_bytes + t->field;
        uint32_t *index = &rb->new_index[(size_t)(v - q->base) * t->po->attr_count + attr_index];
        double val[3];
        size_t k;
        if (t->a->attr == UE_GX_VA_PNMTXIDX) {
            slot_of(q, v, &k);
            *field = (uint8_t)(3 * k);
        } else if (t->a->attr == UE_GX_VA_CLR0 || t->a->attr == UE_GX_VA_CLR1) {
            new_colour(x, t, q, v, field, index, &work);
        } else if (!new_value(x, t, q, v, val)) {
            return;
        } else if (t->mode == SITE_WIDE) {
            int64_t at = hsd_wide_append(t->wide, val);
            if (at < 0) x->nomem = true;
            else if (at > 65535)
                edit_error(x, "import.hsd.limit", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                           "new vertex %u: PObj %zu's array would pass 65536 elements, what 16-bit indices reach", v,
                           t->pobj);
            else *index = (uint32_t)at;
        } else if (t->a->type == UE_GX_DIRECT) {
            quantise(x, t, v, val, t->lay.comps, field, what);
        } else {
            edit_error(x, "import.hsd.nbt", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "new vertex %u: PObj %zu indexes normals, binormals and tangents separately (NBT3); a new "
                       "vertex there is not written yet", v, t->pobj);
        }
        if (x->nomem) return;
    }
}

/* The elements the PObj's list indexes in attribute t: the largest index + 1. */
static uint32_t elements_used(const attr_site *t, uint32_t vertices) {
    uint32_t n = 0;
    for (uint32_t v = 0; v < vertices; v++) {
        uint32_t i = (uint32_t)((element_at(t, v) - t->a->array_offset) / t->a->stride);
        if (i + 1 > n) n = i + 1;
    }
    return n;
}

/* Attribute t of this PObj as a new array of its own, in a wider format when a value does not fit
 * (docs/hsd-import.md#widening), with new elements for re-weighted vertices; the old array stays
 * for the PObjs that share it. */
static ue_result widen(edit_ctx *x, attr_site *t, const prim_pair *q, uint32_t attr_index) {
    hsd_layout_edits *e = &x->layout;
    hsd_wide_attr *grown = realloc(e->wide, (e->wide_count + 1) * sizeof *grown);
    if (!grown) return UE_ERR_NOMEM;
    e->wide = grown;
    hsd_wide_attr *w = &grown[e->wide_count++];
    ue_result r = hsd_wide_init(w, t->pobj, attr_index, t->a, t->lay.comps, elements_used(t, q->base), x->bytes,
                                x->size);
    if (r != UE_OK) return r;
    t->mode = SITE_WIDE, t->wide = w, t->own = q->new_slot;
    run_edit(x, t, q);
    add_new_vertices(x, t, q, attr_index);
    t->mode = SITE_WRITE, t->wide = NULL, t->own = NULL;
    if (x->nomem) return UE_ERR_NOMEM;
    if (x->errors) return UE_OK;
    if (!hsd_wide_finish(w)) {
        edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "PObj %zu: a value is beyond what F32 holds", t->pobj);
        return UE_OK;
    }
    if (!w->array.data) return UE_ERR_NOMEM;
    if (w->comp_type == w->from_type && w->frac == w->from_frac) {
        ue_diag_add(x->d, UE_SEV_INFO, "import.hsd.own_array", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                    "PObj %zu: re-weighted or new vertices take new elements in a copy of the array of its own",
                    t->pobj);
        return UE_OK;
    }
    x->stats.widened++;
    char to[48];
    if (w->comp_type == HSD_COMP_F32) snprintf(to, sizeof to, "F32");
    else snprintf(to, sizeof to, "%s with %u fractional bits", hsd_comp_type_name(w->comp_type), w->frac);
    ue_diag_add(x->d, UE_SEV_WARNING, "import.hsd.widened", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                "PObj %zu: an edited value does not fit %s with %u fractional bits; the attribute is widened to a "
                "new array of %s (%u elements)", t->pobj, hsd_comp_type_name(w->from_type), w->from_frac, to, w->count);
    return UE_OK;
}

static ue_result edit_attributes(edit_ctx *x, attr_site *t, const prim_pair *q, int mesh, size_t prim) {
    const ue_hsd_pobj *po = t->po;
    for (uint32_t i = 0; i < po->attr_count && !x->errors; i++) {
        t->a = &x->m->attrs[po->attr_first + i];
        const char *why;
        if (!hsd_attr_layout_of(t->a, &t->lay, &why)) return UE_OK; /* the decoder accepted them: not reached */
        uint32_t attr = t->a->attr;
        const char *names[] = {"POSITION", "NORMAL", "COLOR_0", "COLOR_1", "TEXCOORD_0", "TEXCOORD_1"};
        int which = attr == UE_GX_VA_NBT ? 1 : attr >= UE_GX_VA_POS && attr <= UE_GX_VA_TEX0 + 1 ? (int)(attr - UE_GX_VA_POS) : -1;
        if (attr == UE_GX_VA_PNMTXIDX && t->a->type == UE_GX_DIRECT) {
            snprintf(t->gpath, sizeof t->gpath, "/meshes/%d/primitives/%zu/attributes/JOINTS_0", mesh, prim);
            edit_matrix_indices(x, t, q);
            add_new_vertices(x, t, q, i);
        } else if (t->a->type != UE_GX_NONE && which >= 0) {
            snprintf(t->gpath, sizeof t->gpath, "/meshes/%d/primitives/%zu/attributes/%s", mesh, prim, names[which]);
            bool colour = attr == UE_GX_VA_CLR0 || attr == UE_GX_VA_CLR1;
            bool one_index = t->a->type != UE_GX_DIRECT && t->lay.indices == 1;
            bool own = !colour && one_index &&
                       ((q->reweights && (attr == UE_GX_VA_POS || attr == UE_GX_VA_NRM)) || q->gp->vertex_count > q->base);
            ue_result r = UE_OK;
            if (own || (!colour && overflows(x, t, q))) r = widen(x, t, q, i);
            else run_edit(x, t, q), add_new_vertices(x, t, q, i);
            if (r != UE_OK) return r;
            if (x->nomem) return UE_ERR_NOMEM;
        }
        t->field += t->lay.record_bytes;
    }
    return UE_OK;
}

/* Room for the new vertices' records in rb (each a copy of the PObj's first record, so a direct
 * field no glTF attribute gives, such as a texture matrix index, is the first vertex's). */
static bool new_records_init(hsd_list_rebuild *rb, const ue_hsd_pobj *po, const hsd_records *rec, uint32_t count) {
    rb->new_count = count;
    rb->new_records = malloc((size_t)count * rec->record_bytes + 1);
    rb->new_index = calloc((size_t)count * po->attr_count + 1, sizeof *rb->new_index);
    if (!rb->new_records || !rb->new_index) return false;
    for (uint32_t v = 0; v < count; v++)
        memcpy(rb->new_records + (size_t)v * rec->record_bytes, po->dl + rec->first_at[0], rec->record_bytes);
    return true;
}

static bool base_records_keep(hsd_list_rebuild *rb, const hsd_records *rec, uint32_t count) {
    rb->base_count = count;
    rb->base_at = malloc(((size_t)count + 1) * sizeof *rb->base_at);
    if (rb->base_at) memcpy(rb->base_at, rec->first_at, (size_t)count * sizeof *rb->base_at);
    return rb->base_at != NULL;
}

/* glTF primitive gp over base primitive rp (PObj `pobj` of joint `owner`); rb, when its triangles
 * changed: its vertices past the PObj's are new, their records go there. */
static ue_result apply_primitive(edit_ctx *x, const ue_scene_primitive *gp, const ue_scene_primitive *rp, int mesh,
                                 size_t prim, size_t pobj, int32_t owner, hsd_list_rebuild *rb) {
    char gpath[96];
    snprintf(gpath, sizeof gpath, "/meshes/%d/primitives/%zu", mesh, prim);
    prim_pair q = {gp, rp, NULL, NULL, {{0}}, {false}, NULL, false, 0, rb};
    hsd_pobj_skin sk;
    ue_hsd_geometry g;
    hsd_records rec;
    memset(&g, 0, sizeof g);
    memset(&rec, 0, sizeof rec);
    ue_result r = hsd_pobj_skin_compute(x->m, &x->pose, pobj, owner, UE_MODE_STRICT, gpath, &sk, x->d);
    if (r == UE_OK) r = hsd_pobj_decode_records(x->m, pobj, NULL, UE_MODE_STRICT, &g, &rec, x->d);
    if (r != UE_OK) return r;
    int32_t *head = NULL, *next = NULL;
    uint8_t *new_slot = NULL;
    uint32_t fresh = gp->vertex_count > g.vertex_count ? gp->vertex_count - g.vertex_count : 0;
    if (g.vertex_count != rp->vertex_count || (fresh && !rb) || !rec.first_at) {
        edit_error(x, "import.hsd.internal", UE_DAT_HEADER + (uint64_t)x->m->pobjs[pobj].offset, gpath,
                   "PObj %zu decodes to %u vertices, its export had %u", pobj, g.vertex_count, rp->vertex_count);
    } else if (!chain_records(&rec, g.vertex_count, &head, &next) || !(new_slot = malloc(gp->vertex_count + 1u)) ||
               (rb && !base_records_keep(rb, &rec, g.vertex_count)) ||
               (fresh && !new_records_init(rb, &x->m->pobjs[pobj], &rec, fresh))) {
        r = UE_ERR_NOMEM;
    } else {
        q.base = g.vertex_count;
        x->stats.new_vertices += fresh;
        hsd_reweight_in in = {x->m, &x->pose, pobj, owner, gp, x->joint_map, x->joint_map_count, &g, gpath, x->d};
        size_t envelopes = x->layout.envelope_count;
        r = hsd_reweight(&in, &sk, new_slot, &x->layout, &x->errors, &x->stats.trimmed);
        x->stats.envelopes += x->layout.envelope_count - envelopes;
        q.g = &g, q.sk = &sk, q.new_slot = new_slot;
        for (uint32_t v = 0; v < g.vertex_count; v++) q.reweights |= new_slot[v] != 0xFF;
        for (int k = 0; k < HSD_SKIN_SLOTS; k++) q.inv_ok[k] = sk.slot[k].used && hsd_skin_invert(sk.slot[k].matrix, q.inv[k]);
        attr_site t = {.po = &x->m->pobjs[pobj], .rec = &rec, .head = head, .next = next, .pobj = pobj};
        ue_hsd_edit_stats before = x->stats;
        if (r == UE_OK && !x->errors) r = edit_attributes(x, &t, &q, mesh, prim);
        check_missing_uvs(x, &q, gpath, pobj);
        x->stats.pobjs += memcmp(&before, &x->stats, sizeof before) != 0;
    }
    free(new_slot);
    free(head);
    free(next);
    hsd_records_free(&rec);
    ue_hsd_geometry_free(&g);
    return r;
}

/* ---- the whole scene ----------------------------------------------------------------------- */

static void report_unmatched(edit_ctx *x, const ue_scene_node *gn, int mesh, size_t p, const ref_match *rm) {
    char gpath[96];
    snprintf(gpath, sizeof gpath, "/meshes/%d/primitives/%zu", mesh, p);
    if (!rm->named)
        edit_error(x, "import.hsd.unmatched", UE_NO_OFFSET, gpath,
                   "node '%s' names no mesh of the base (convert names them <joint>_mesh); new meshes are not "
                   "written in edit mode yet", gn->name);
    else if (rm->taken && !rm->same_counts)
        edit_error(x, "import.hsd.duplicate", UE_NO_OFFSET, gpath,
                   "node '%s': the base's PObj with this primitive's %u vertices and %u triangles is already "
                   "edited by another glTF node of the same name (a duplicated node?); each PObj takes one",
                   gn->name, x->s->meshes[mesh].primitives[p].vertex_count,
                   x->s->meshes[mesh].primitives[p].index_count / 3);
    else if (rm->same_counts)
        edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': the triangles or their vertex order differ from the base's PObj; edit mode keeps "
                   "the base's triangles", gn->name);
    else
        edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': no PObj of the base has this primitive's %u vertices and %u triangles; edit mode "
                   "keeps the base's triangles", gn->name, x->s->meshes[mesh].primitives[p].vertex_count,
                   x->s->meshes[mesh].primitives[p].index_count / 3);
}

/* The materials of a matched primitive pair, once each, for the image and material edits. */
static void note_materials(edit_ctx *x, int32_t gltf, int32_t ref) {
    if (gltf < 0 || ref < 0) return;
    for (size_t i = 0; i < x->material_pair_count; i++)
        if (x->material_pairs[2 * i] == gltf && x->material_pairs[2 * i + 1] == ref) return;
    x->material_pairs[2 * x->material_pair_count] = gltf;
    x->material_pairs[2 * x->material_pair_count++ + 1] = ref;
}

/* Convert's own vertex order: every primitive of the node matched to a base primitive with the
 * same triangle list, then the rest to one with the same vertices (its list rebuilt), claimed in
 * found[]; false, nothing claimed, when one is left. */
static bool match_by_index(edit_ctx *x, const ue_scene_node *gn, ref_match *found, ref_match *first_miss) {
    const ue_scene_mesh *gm = &x->s->meshes[gn->mesh];
    bool all = true;
    for (int rebuild = 0; rebuild < 2; rebuild++)
        for (size_t p = 0; p < gm->primitive_count; p++) {
            if (rebuild && found[p].mesh >= 0) continue;
            found[p] = find_ref(x, gn, &gm->primitives[p], rebuild);
            if (found[p].mesh >= 0) x->claimed[x->claim_first[found[p].mesh] + found[p].prim] = true;
            else if (rebuild && all) *first_miss = found[p], all = false;
        }
    for (size_t p = 0; !all && p < gm->primitive_count; p++)
        if (found[p].mesh >= 0) x->claimed[x->claim_first[found[p].mesh] + found[p].prim] = false;
    return all;
}

static ue_result apply_by_index(edit_ctx *x, const ue_scene_node *gn, const ref_match *found) {
    const ue_scene_mesh *gm = &x->s->meshes[gn->mesh];
    bool nomem;
    free(x->joint_map);
    x->joint_map = hsd_skin_joint_map(x->s, (int32_t)(gn - x->s->nodes), x->ref, &x->joint_map_count, &nomem);
    if (nomem) return UE_ERR_NOMEM;
    for (size_t p = 0; p < gm->primitive_count && !x->errors; p++) {
        const ue_scene_primitive *rp = &x->ref->meshes[found[p].mesh].primitives[found[p].prim];
        note_materials(x, gm->primitives[p].material, rp->material);
        size_t pobjs = x->stats.pobjs;
        hsd_list_rebuild *rb = NULL;
        if (found[p].rebuild) {
            rb = &x->rebuilds[x->rebuild_count++];
            memset(rb, 0, sizeof *rb);
            rb->pobj = rp->source.index, rb->gp = &gm->primitives[p];
            snprintf(rb->gpath, sizeof rb->gpath, "/meshes/%d/primitives/%zu", gn->mesh, p);
        }
        ue_result r = apply_primitive(x, &gm->primitives[p], rp, gn->mesh, p, rp->source.index,
                                      (int32_t)x->ref->nodes[found[p].node].source.index, rb);
        if (r != UE_OK) return r;
        if (rb) x->stats.pobjs = pobjs + 1;
    }
    return UE_OK;
}

/* The base mesh node of gn's name none of whose primitives is claimed yet, or -1. */
static int32_t free_ref_node(const edit_ctx *x, const ue_scene_node *gn) {
    for (size_t n = 0; n < x->ref->node_count; n++) {
        const ue_scene_node *rn = &x->ref->nodes[n];
        if (rn->mesh < 0 || !hsd_names_match(gn->name, rn->name)) continue;
        bool any = false;
        for (size_t p = 0; p < x->ref->meshes[rn->mesh].primitive_count; p++) any |= x->claimed[x->claim_first[rn->mesh] + p];
        if (!any) return (int32_t)n;
    }
    return -1;
}

/* A client's re-export: the node's triangles found on the base mesh's by geometry. */
/* What matching by geometry found, reported: an error for what edit mode cannot take (triangles
 * without partners, too much work, no inverse, conflicting edits), a note when it matched. */
static void report_geometry(edit_ctx *x, const ue_scene_node *gn, const ue_scene_mesh *rm, const hsd_geometry_match *g,
                            const char *gpath) {
    if (g->over_budget)
        edit_error(x, "import.hsd.limit", UE_NO_OFFSET, gpath,
                   "node '%s': matching its triangles by geometry stopped after 50 million comparisons (many "
                   "triangles at one place)", gn->name);
    else if (g->unmatched_ref || g->unmatched_gltf)
        edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': %zu of the base's triangles have no glTF triangle at the same place (corners at "
                   "the same positions or UVs) and %zu glTF triangles are left over; edit mode keeps the base's "
                   "triangles", gn->name, g->unmatched_ref, g->unmatched_gltf);
    else if (!g->conflicts)
        ue_diag_add(x->d, UE_SEV_INFO, "import.hsd.geometry", UE_NO_OFFSET, gpath,
                    "node '%s': vertices matched by their triangles' geometry (the glTF's vertex order or "
                    "primitives differ from the base's)", gn->name);
    if (!x->errors && g->singular)
        edit_error(x, "import.hsd.singular", UE_DAT_HEADER + (uint64_t)rm->primitives[g->singular_prim].source.offset,
                   gpath, "node '%s': %zu edited vertices (the first: vertex %u of PObj %zu) are placed by a matrix "
                   "that has no inverse (an envelope whose joints' blend flattens space), so their positions cannot "
                   "be taken back into the stored space", gn->name, g->singular, g->singular_vertex,
                   (size_t)rm->primitives[g->singular_prim].source.index);
    if (!x->errors && g->conflicts)
        edit_error(x, "import.hsd.conflict", UE_NO_OFFSET, gpath,
                   "node '%s': %zu base vertices are edited differently by the glTF corners drawn there (a split "
                   "vertex given two values)", gn->name, g->conflicts);
}

static ue_result apply_by_geometry(edit_ctx *x, const ue_scene_node *gn, int32_t ref_node) {
    const ue_scene_node *rn = &x->ref->nodes[ref_node];
    const ue_scene_mesh *gm = &x->s->meshes[gn->mesh], *rm = &x->ref->meshes[rn->mesh];
    char gpath[64];
    snprintf(gpath, sizeof gpath, "/meshes/%d", gn->mesh);
    hsd_geometry_match g;
    free(x->joint_map); /* a client's re-export keeps the base's weights */
    x->joint_map = NULL, x->joint_map_count = 0;
    ue_result r = hsd_match_geometry(x->s, (int32_t)(gn - x->s->nodes), x->ref, ref_node, &g);
    if (r == UE_ERR_INVALID) {
        edit_error(x, "import.hsd.topology", UE_NO_OFFSET, gpath,
                   "node '%s': its skin's joints or its node have no world matrix (a parent cycle)", gn->name);
        r = UE_OK, g.over_budget = false, g.unmatched_ref = g.unmatched_gltf = g.conflicts = 0;
    }
    if (r == UE_OK) report_geometry(x, gn, rm, &g, gpath);
    for (size_t p = 0; r == UE_OK && !x->errors && p < rm->primitive_count; p++) {
        const ue_scene_primitive *rp = &rm->primitives[p];
        x->claimed[x->claim_first[rn->mesh] + p] = true;
        int32_t gp = g.gltf_prim[p];
        if (gp >= 0) note_materials(x, gm->primitives[gp].material, rp->material);
        r = apply_primitive(x, &g.virt[p], rp, gn->mesh, gp >= 0 ? (size_t)gp : 0, rp->source.index,
                            (int32_t)rn->source.index, NULL);
    }
    hsd_geometry_match_free(&g);
    return r;
}

static ue_result apply_nodes(edit_ctx *x) {
    for (size_t n = 0; n < x->s->node_count && !x->errors; n++) {
        const ue_scene_node *gn = &x->s->nodes[n];
        if (gn->mesh < 0) continue;
        const ue_scene_mesh *gm = &x->s->meshes[gn->mesh];
        ref_match *found = malloc((gm->primitive_count + 1) * sizeof *found), miss = {-1, -1, 0, false, false, false, false};
        if (!found) return UE_ERR_NOMEM;
        ue_result r = UE_OK;
        int32_t ref_node;
        if (match_by_index(x, gn, found, &miss)) r = apply_by_index(x, gn, found);
        else if ((ref_node = free_ref_node(x, gn)) >= 0) r = apply_by_geometry(x, gn, ref_node);
        else report_unmatched(x, gn, gn->mesh, 0, &miss);
        free(found);
        if (r != UE_OK) return r;
    }
    return UE_OK;
}

/* A rebuilt PObj that another DObj draws too would change that mesh with it: refused (one drawn
 * by two rebuilt primitives hsd_rebuild_lists refuses itself). */
static void check_shared_rebuilds(edit_ctx *x) {
    for (size_t i = 0; i < x->rebuild_count && !x->errors; i++) {
        const hsd_list_rebuild *rb = &x->rebuilds[i];
        size_t users = 0; /* DObjs whose PObj chain holds it (convert draws a shared one once) */
        for (size_t o = 0; o < x->m->dobj_count; o++) {
            size_t steps = 0;
            for (int32_t p = x->m->dobjs[o].first_pobj; p >= 0 && (size_t)p < x->m->pobj_count &&
                                                        steps++ < x->m->pobj_count; p = x->m->pobjs[p].next)
                if ((size_t)p == rb->pobj) {
                    users++;
                    break;
                }
        }
        if (users > 1)
            edit_error(x, "import.hsd.conflict", UE_DAT_HEADER + (uint64_t)x->m->pobjs[rb->pobj].offset, rb->gpath,
                       "PObj %zu, whose triangles this primitive changes, is drawn by %zu DObjs of the base (a shared "
                       "PObj): the others would change with it; rebuilding a shared PObj is a later step",
                       rb->pobj, users);
    }
}

/* Every PObj the base draws must be in the glTF: deleting geometry is a later step. */
static void check_all_claimed(edit_ctx *x) {
    for (size_t n = 0; n < x->ref->node_count && !x->errors; n++) {
        const ue_scene_node *rn = &x->ref->nodes[n];
        if (rn->mesh < 0) continue;
        const ue_scene_mesh *rm = &x->ref->meshes[rn->mesh];
        for (size_t p = 0; p < rm->primitive_count; p++)
            if (!x->claimed[x->claim_first[rn->mesh] + p]) {
                edit_error(x, "import.hsd.missing", UE_DAT_HEADER + (uint64_t)rm->primitives[p].source.offset, "/meshes",
                           "the glTF has no primitive for PObj %zu of mesh node '%s' (%u vertices, %u triangles); "
                           "edit mode does not delete geometry", (size_t)rm->primitives[p].source.index, rn->name,
                           rm->primitives[p].vertex_count, rm->primitives[p].index_count / 3);
                return;
            }
    }
}

/* An edited array element that vertices the glTF left unchanged use too (PObjs sharing an array,
 * or records that share one element): they change with it, and the user is told. */
static void note_shared(edit_ctx *x) {
    size_t bytes = 0, first = 0;
    for (size_t i = 0; i < x->size; i++)
        if (x->written[i] && x->kept[i]) first = bytes++ ? first : i;
    if (bytes)
        ue_diag_add(x->d, UE_SEV_WARNING, "import.hsd.shared", first, "/meshes",
                    "%zu edited bytes of attribute arrays (the first at 0x%zx) are also used by vertices the glTF "
                    "left unchanged (PObjs sharing an array, or vertices sharing an element): those vertices change "
                    "with the edit", bytes, first);
}

/* Images and materials of the matched primitives (hsd_import_images.c, hsd_import_materials.c). */
static ue_result apply_images(edit_ctx *x) {
    hsd_image_edit_in in = {x->m, x->s, x->ref, x->bytes, x->written, x->size, x->material_pairs,
                            x->material_pair_count, x->d};
    size_t errors = 0;
    ue_result r = hsd_edit_images(&in, &x->stats.images, &errors);
    x->errors += errors;
    if (r != UE_OK || x->errors) return r;
    errors = 0;
    r = hsd_edit_materials(&in, &x->stats.materials, &errors);
    x->errors += errors;
    return r;
}

static ue_result ctx_init(edit_ctx *x, const uint8_t *base, size_t size) {
    size_t prims = 0;
    x->claim_first = malloc((x->ref->mesh_count + 1) * sizeof *x->claim_first);
    if (!x->claim_first) return UE_ERR_NOMEM;
    for (size_t i = 0; i < x->ref->mesh_count; i++) x->claim_first[i] = prims, prims += x->ref->meshes[i].primitive_count;
    x->claimed = calloc(prims + 1, sizeof *x->claimed);
    x->material_pairs = malloc((2 * prims + 2) * sizeof *x->material_pairs); /* one pair per claimed primitive */
    x->rebuilds = malloc((prims + 1) * sizeof *x->rebuilds);
    x->bytes = malloc(size ? size : 1);
    x->written = calloc(size ? size : 1, 1);
    x->kept = calloc(size ? size : 1, 1);
    if (!x->claimed || !x->material_pairs || !x->rebuilds || !x->bytes || !x->written || !x->kept) return UE_ERR_NOMEM;
    memcpy(x->bytes, base, size);
    x->size = size;
    return UE_OK;
}

static void ctx_free(edit_ctx *x) {
    free(x->claim_first);
    free(x->claimed);
    free(x->material_pairs);
    for (size_t i = 0; x->rebuilds && i < x->rebuild_count; i++) {
        free(x->rebuilds[i].new_records), free(x->rebuilds[i].new_index);
        free(x->rebuilds[i].base_at);
    }
    free(x->rebuilds);
    free(x->bytes);
    free(x->written);
    free(x->kept);
    free(x->joint_map);
    hsd_layout_edits_free(&x->layout);
    hsd_pose_free(&x->pose);
}

/* The edited bytes read back as the game's loader and unearth's strict reader would. */
static ue_result check_result(const uint8_t *bytes, size_t size, ue_diag *d) {
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(bytes, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}

/* Set `set`'s position among the model's scene_data ModelSets (0: what a PKX plays), -1 for none or
 * a `*_joint` root's set. */
static int32_t scene_model_position(const ue_hsd_model *m, int32_t set) {
    int32_t position = 0;
    for (int32_t i = 0; set >= 0 && (size_t)set < m->set_count && i <= set; i++) {
        bool scene = m->sets[i].root_name && !strcmp(m->sets[i].root_name, "scene_data");
        if (i == set) return scene ? position : -1;
        position += scene;
    }
    return -1;
}

/* The in-place edits of every matched node, then the checks over all of them and the images and
 * materials: x->errors counts the refusals. */
static ue_result apply_edits(edit_ctx *x, const uint8_t *base, size_t size) {
    ue_result r = hsd_pose_compute(x->m, UE_MODE_STRICT, &x->pose, x->d);
    if (r == UE_OK) r = ctx_init(x, base, size);
    if (r == UE_OK) r = apply_nodes(x);
    if (r == UE_OK) check_all_claimed(x);
    if (r == UE_OK) check_shared_rebuilds(x);
    if (r == UE_OK && !x->errors) r = apply_images(x);
    if (r == UE_OK && !x->errors) note_shared(x);
    if (r == UE_OK && x->errors) r = UE_ERR_INVALID;
    return r;
}

/* The edited DAT into `out`: x->bytes as edited in place, or, when the edits change the file's
 * structure (new envelopes or arrays, rebuilt lists, clips), laid out anew in one writer pass. */
static ue_result write_result(edit_ctx *x, const uint8_t *base, size_t size, hsd_clip_plan *clips, ue_buf *out) {
    bool restructured = x->layout.envelope_count || x->layout.wide_count;
    bool relayout = restructured || x->rebuild_count || clips->count;
    ue_buf relaid = {0};
    ue_result r = UE_OK;
    if (restructured) r = hsd_check_layout(x->m, base, size, "a new envelope or a widened attribute", x->d);
    if (r == UE_OK && relayout)
        r = hsd_rebuild_lists(x->bytes, x->size, restructured ? &x->layout : NULL, x->rebuilds, x->rebuild_count,
                              clips, &relaid, &x->stats.triangles, x->d);
    const uint8_t *result = relayout ? relaid.data : x->bytes;
    size_t result_size = relayout ? relaid.size : x->size;
    if (r == UE_OK) r = check_result(result, result_size, x->d);
    if (r == UE_OK && !ue_buf_try_reserve(out, result_size)) r = UE_ERR_NOMEM;
    if (r == UE_OK) ue_buf_put(out, result, result_size);
    ue_buf_free(&relaid);
    return r;
}

static void count_clips(edit_ctx *x, const hsd_clip_plan *clips, const ue_hsd_edit_stats *stats, ue_result r) {
    x->stats.lists = x->rebuild_count;
    x->stats.clips = clips->count - clips->added, x->stats.clips_added = clips->added, x->stats.clips_kept = clips->kept;
    x->stats.anim_index = stats ? stats->anim_index : NULL;
    if (r == UE_OK && x->stats.anim_index && x->s->animation_count)
        memcpy(x->stats.anim_index, clips->anim_index, x->s->animation_count * sizeof *clips->anim_index);
    x->stats.anim_model = stats ? stats->anim_model : NULL;
    for (size_t a = 0; r == UE_OK && x->stats.anim_model && a < x->s->animation_count; a++)
        x->stats.anim_model[a] = scene_model_position(x->m, clips->anim_set[a]);
}

static ue_result edit_model(const ue_hsd_model *m, const uint8_t *base, size_t size, const char *name,
                            const ue_scene *s, ue_buf *out, ue_hsd_edit_stats *stats, ue_diag *d) {
    ue_scene ref;
    ue_scene_init(&ref);
    ue_diag conv = {0};
    ue_result r = hsd_model_to_scene(m, name, UE_MODE_STRICT, &ref, &conv);
    if (r != UE_OK) ue_diag_append(d, &conv, UE_SEV_INFO);
    ue_diag_free(&conv);
    edit_ctx x;
    memset(&x, 0, sizeof x);
    x.m = m, x.s = s, x.ref = &ref, x.d = d;
    if (r == UE_OK) r = apply_edits(&x, base, size);
    hsd_clip_plan clips = {0};
    if (r == UE_OK) r = hsd_plan_clips(m, s, &ref, &clips, d);
    if (r == UE_OK) r = write_result(&x, base, size, &clips, out);
    count_clips(&x, &clips, stats, r);
    hsd_clip_plan_free(&clips);
    if (r == UE_OK && stats) *stats = x.stats;
    ctx_free(&x);
    ue_scene_free(&ref);
    return r;
}

ue_result ue_hsd_apply_scene(const uint8_t *base, size_t size, const char *name, const ue_scene *s, ue_buf *out,
                             ue_hsd_edit_stats *stats, ue_diag *d) {
    if (!base || !s || !out) return UE_ERR_USAGE;
    int32_t *anim_index = stats ? stats->anim_index : NULL, *anim_model = stats ? stats->anim_model : NULL;
    if (stats) memset(stats, 0, sizeof *stats), stats->anim_index = anim_index, stats->anim_model = anim_model;
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_result r = ue_dat_parse(base, size, UE_MODE_STRICT, &dat, d);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, d);
    if (r == UE_OK) r = edit_model(&m, base, size, name, s, out, stats, d);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
    return r;
}
