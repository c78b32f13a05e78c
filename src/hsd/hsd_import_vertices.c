/* unearth — edit-mode import of HSD models: the vertex values of one matched primitive, attribute by attribute,
 * and the glTF's new vertices (docs/hsd-import.md#new-vertices) as records and elements of their own. */
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
static int stored_position(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, uint32_t v, double st[3]) {
    const float *gpos = &q->gp->positions[3 * (size_t)v];
    size_t k;
    slot_of(q, v, &k);
    if (!q->inv_ok[k]) {
        hsd_edit_error(x, "import.hsd.singular", UE_DAT_HEADER + (uint64_t)t->po->offset, t->gpath,
                   "vertex %u: PObj %zu places it with a matrix that has no inverse (envelope %zu: its joints' "
                   "blend flattens space), so the edited position cannot be taken back into its stored space",
                   v, t->pobj, k);
        return -1;
    }
    const double *a = q->inv[k];
    for (int r = 0; r < 3; r++) st[r] = a[r] * gpos[0] + a[4 + r] * gpos[1] + a[8 + r] * gpos[2] + a[12 + r];
    if (t->lay.comps == 2 && fabs(st[2]) > POS_TOLERANCE * (1 + fabs(st[0]) + fabs(st[1]))) {
        hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "vertex %u: PObj %zu stores positions as X and Y only, and the edit gives Z = %g in its "
                   "stored space", v, t->pobj, st[2]);
        return 0;
    }
    return 1;
}

/* A re-weighted vertex keeps its drawn place: its stored position and normal are taken back
 * through its new envelope's matrix. */
static void edit_positions(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q) {
    for (uint32_t v = 0; v < q->base && !t->stopped; v++) {
        const float *gpos = &q->gp->positions[3 * (size_t)v];
        if (!reweighted(q, v) && hsd_close_to(gpos, &q->rp->positions[3 * (size_t)v], 3, POS_TOLERANCE, POS_TOLERANCE)) {
            hsd_mark_kept(x, t, v);
            continue;
        }
        double st[3];
        int got = stored_position(x, t, q, v, st);
        if (got < 0) return;
        if (got) hsd_store_value(x, t, v, st, t->lay.comps, "POSITION", &x->stats.positions);
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

static void edit_normals(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q) {
    if (!q->gp->normals || !q->rp->normals || !q->g->normals) return;
    for (uint32_t v = 0; v < q->base && !t->stopped; v++) {
        const float *gn = &q->gp->normals[3 * (size_t)v];
        if (!reweighted(q, v) && hsd_close_to(gn, &q->rp->normals[3 * (size_t)v], 3, 0, NORMAL_TOLERANCE)) {
            hsd_mark_kept(x, t, v);
            continue;
        }
        if (t->lay.comps != 3) {
            hsd_edit_error(x, "import.hsd.nbt", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: PObj %zu stores normals with binormals and tangents (NBT), which are not "
                       "rewritten yet", v, t->pobj);
            return;
        }
        double dir[3], stored_len = 0;
        for (int r = 0; r < 3; r++) stored_len += q->g->normals[3 * (size_t)v + (size_t)r] * q->g->normals[3 * (size_t)v + (size_t)r];
        stored_normal(q, v, sqrt(stored_len), dir);
        hsd_store_value(x, t, v, dir, 3, "NORMAL", &x->stats.normals);
    }
}

static void edit_uvs(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, int set) {
    if (!q->gp->uv[set] || !q->rp->uv[set]) return;
    for (uint32_t v = 0; v < q->base && !t->stopped; v++) {
        const float *guv = &q->gp->uv[set][2 * (size_t)v];
        if (hsd_close_to(guv, &q->rp->uv[set][2 * (size_t)v], 2, VALUE_TOLERANCE, VALUE_TOLERANCE)) {
            hsd_mark_kept(x, t, v);
            continue;
        }
        double st[2] = {guv[0], guv[1]};
        if (t->lay.comps == 1 && guv[1] != 0.0f) {
            hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: PObj %zu stores one texture coordinate (s), and the edit gives t = %g", v,
                       t->pobj, st[1]);
            continue;
        }
        hsd_store_value(x, t, v, st, t->lay.comps, "TEXCOORD", &x->stats.uvs);
    }
}

static void edit_colors(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, int set) {
    if (!q->gp->colors[set] || !q->rp->colors[set]) return;
    for (uint32_t v = 0; v < q->base; v++) {
        const float *gc = &q->gp->colors[set][4 * (size_t)v];
        if (hsd_close_to(gc, &q->rp->colors[set][4 * (size_t)v], 4, VALUE_TOLERANCE, VALUE_TOLERANCE)) {
            hsd_mark_kept(x, t, v);
            continue;
        }
        uint8_t val[4];
        memcpy(val, hsd_element_bytes(x, t, v), t->lay.elem_bytes); /* RGBX8 keeps its fourth byte */
        const char *why = "";
        if (hsd_encode_vertex_color(gc, t->a->comp_type, val, &why)) hsd_put_element(x, t, v, val, &x->stats.colors);
        else
            hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "vertex %u: colour (%g, %g, %g, %g) does not fit PObj %zu's colour format %u: %s", v, gc[0],
                       gc[1], gc[2], gc[3], t->pobj, t->a->comp_type, why);
    }
}

/* A UV set the material samples but the PObj lacks is exported as zeros: it can stay zeros. */
static void check_missing_uvs(hsd_edit_ctx *x, const prim_pair *q, const char *gpath, size_t pobj) {
    for (int k = 0; k < 2; k++) {
        if (q->g->uv[k] || !q->gp->uv[k] || !q->rp->uv[k]) continue;
        for (uint32_t v = 0; v < q->gp->vertex_count; v++)
            if (q->gp->uv[k][2 * (size_t)v] != 0.0f || q->gp->uv[k][2 * (size_t)v + 1] != 0.0f) {
                hsd_edit_error(x, "import.hsd.attribute", UE_DAT_HEADER + (uint64_t)x->m->pobjs[pobj].offset, gpath,
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
static void edit_matrix_indices(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q) {
    for (uint32_t v = 0; v < q->base; v++)
        if (reweighted(q, v)) {
            uint8_t idx = (uint8_t)(3 * q->new_slot[v]);
            hsd_put_element(x, t, v, &idx, &x->stats.reweighted);
        }
}

static void run_edit(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q) {
    uint32_t attr = t->a->attr;
    if (attr == UE_GX_VA_POS) edit_positions(x, t, q);
    else if (attr == UE_GX_VA_NRM || attr == UE_GX_VA_NBT) edit_normals(x, t, q);
    else if (attr == UE_GX_VA_CLR0 || attr == UE_GX_VA_CLR1) edit_colors(x, t, q, (int)(attr - UE_GX_VA_CLR0));
    else edit_uvs(x, t, q, (int)(attr - UE_GX_VA_TEX0));
}

/* A first pass without writing or reporting: does some value not fit the attribute's format? */
static bool overflows(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q) {
    ue_diag scratch = {0}, *d = x->d;
    size_t errors = x->errors;
    ue_hsd_edit_stats stats = x->stats;
    x->d = &scratch, t->mode = HSD_SITE_PROBE, t->overflow = false;
    run_edit(x, t, q);
    x->d = d, x->errors = errors, x->stats = stats, t->mode = HSD_SITE_WRITE;
    ue_diag_free(&scratch);
    return t->overflow;
}

/* ---- new vertices (docs/hsd-import.md#new-vertices) ----------------------------------------- */

#define COLOUR_SCAN_LIMIT (1u << 26) /* element comparisons finding new vertices' colours */

/* The element of indexed colour attribute t whose bytes are `val` (among those the PObj's
 * vertices use), or -1: colour arrays are not widened, so a new vertex reuses a colour. */
static int64_t colour_element(hsd_edit_ctx *x, const hsd_attr_site *t, const prim_pair *q, const float rgba[4], size_t *work) {
    for (uint32_t u = 0; u < q->base && (*work)++ < COLOUR_SCAN_LIMIT; u++) {
        const uint8_t *have = hsd_element_bytes(x, t, u);
        uint8_t val[4];
        const char *why;
        memcpy(val, have, t->lay.elem_bytes);
        if (hsd_encode_vertex_color(rgba, t->a->comp_type, val, &why) && !memcmp(val, have, t->lay.elem_bytes))
            return (int64_t)((hsd_element_at(t, u) - t->a->array_offset) / t->a->stride);
    }
    return -1;
}

/* New vertex v's colour into its record (direct) or as an element the PObj has (indexed). */
static void new_colour(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, uint32_t v, uint8_t *field, uint32_t *index,
                       size_t *work) {
    int set = (int)(t->a->attr - UE_GX_VA_CLR0);
    static const float white[4] = {1, 1, 1, 1};
    const float *c = q->gp->colors[set] ? &q->gp->colors[set][4 * (size_t)v] : white;
    const char *why = "";
    if (t->a->type == UE_GX_DIRECT) {
        if (!hsd_encode_vertex_color(c, t->a->comp_type, field, &why))
            hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "new vertex %u: colour (%g, %g, %g, %g) does not fit PObj %zu's colour format %u: %s", v, c[0],
                       c[1], c[2], c[3], t->pobj, t->a->comp_type, why);
        return;
    }
    int64_t k = colour_element(x, t, q, c, work);
    if (k >= 0) *index = (uint32_t)k;
    else
        hsd_edit_error(x, *work > COLOUR_SCAN_LIMIT ? "import.hsd.limit" : "import.hsd.attribute",
                   UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "new vertex %u: colour (%g, %g, %g, %g) is none that PObj %zu's vertices have; a new element in "
                   "an indexed colour array is not written yet", v, c[0], c[1], c[2], c[3], t->pobj);
}

/* New vertex v's value of position, normal or UV attribute t in the stored space; false after a
 * refusal. */
static bool new_value(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, uint32_t v, double *val) {
    uint32_t attr = t->a->attr;
    if (attr == UE_GX_VA_POS) return stored_position(x, t, q, v, val) > 0;
    if (attr == UE_GX_VA_NRM || attr == UE_GX_VA_NBT) {
        if (t->lay.comps != 3 || !q->gp->normals) {
            hsd_edit_error(x, t->lay.comps != 3 ? "import.hsd.nbt" : "import.hsd.attribute",
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
        hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                   "new vertex %u: PObj %zu stores one texture coordinate (s), and the glTF gives t = %g", v, t->pobj,
                   val[1]);
        return false;
    }
    return true;
}

/* The glTF's new vertices (from q->base on) in attribute t (the PObj's descriptor attr_index):
 * an element appended to the PObj's own array (HSD_SITE_WIDE), values in their records (direct), the
 * matrix index of their envelope, or a colour element the PObj has. */
static void add_new_vertices(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, uint32_t attr_index) {
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
        } else if (t->mode == HSD_SITE_WIDE) {
            int64_t at = hsd_wide_append(t->wide, val);
            if (at < 0) x->nomem = true;
            else if (at > 65535)
                hsd_edit_error(x, "import.hsd.limit", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                           "new vertex %u: PObj %zu's array would pass 65536 elements, what 16-bit indices reach", v,
                           t->pobj);
            else *index = (uint32_t)at;
        } else if (t->a->type == UE_GX_DIRECT) {
            hsd_quantise_value(x, t, v, val, t->lay.comps, field, what);
        } else {
            hsd_edit_error(x, "import.hsd.nbt", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
                       "new vertex %u: PObj %zu indexes normals, binormals and tangents separately (NBT3); a new "
                       "vertex there is not written yet", v, t->pobj);
        }
        if (x->nomem) return;
    }
}

/* The elements the PObj's list indexes in attribute t: the largest index + 1. */
static uint32_t elements_used(const hsd_attr_site *t, uint32_t vertices) {
    uint32_t n = 0;
    for (uint32_t v = 0; v < vertices; v++) {
        uint32_t i = (uint32_t)((hsd_element_at(t, v) - t->a->array_offset) / t->a->stride);
        if (i + 1 > n) n = i + 1;
    }
    return n;
}

/* Attribute t of this PObj as a new array of its own, in a wider format when a value does not fit
 * (docs/hsd-import.md#widening), with new elements for re-weighted vertices; the old array stays
 * for the PObjs that share it. */
static ue_result widen(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, uint32_t attr_index) {
    hsd_layout_edits *e = &x->layout;
    hsd_wide_attr *grown = realloc(e->wide, (e->wide_count + 1) * sizeof *grown);
    if (!grown) return UE_ERR_NOMEM;
    e->wide = grown;
    hsd_wide_attr *w = &grown[e->wide_count++];
    ue_result r = hsd_wide_init(w, t->pobj, attr_index, t->a, t->lay.comps, elements_used(t, q->base), x->bytes,
                                x->size);
    if (r != UE_OK) return r;
    t->mode = HSD_SITE_WIDE, t->wide = w, t->own = q->new_slot;
    run_edit(x, t, q);
    add_new_vertices(x, t, q, attr_index);
    t->mode = HSD_SITE_WRITE, t->wide = NULL, t->own = NULL;
    if (x->nomem) return UE_ERR_NOMEM;
    if (x->errors) return UE_OK;
    if (!hsd_wide_finish(w)) {
        hsd_edit_error(x, "import.hsd.range", UE_DAT_HEADER + (uint64_t)t->a->offset, t->gpath,
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

static ue_result edit_attributes(hsd_edit_ctx *x, hsd_attr_site *t, const prim_pair *q, int mesh, size_t prim) {
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
ue_result hsd_apply_primitive(hsd_edit_ctx *x, const ue_scene_primitive *gp, const ue_scene_primitive *rp, int mesh,
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
        hsd_edit_error(x, "import.hsd.internal", UE_DAT_HEADER + (uint64_t)x->m->pobjs[pobj].offset, gpath,
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
        hsd_attr_site t = {.po = &x->m->pobjs[pobj], .rec = &rec, .head = head, .next = next, .pobj = pobj};
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
