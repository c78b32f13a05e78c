/* unearth render layer — a scene's preview: the model posed, the six orthographic views framed
 * on its bounds, a camera-fixed key light plus ambient, opaque then sorted blended triangles. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/math3d.h"
#include "render/render_int.h"
#include "unearth/advanced/buffers.h"

/* The light (docs/preview.md#light): a key light from the camera's upper left, in camera axes
 * (x right, y up, z toward the viewer), plus ambient; lit = AMBIENT + KEY × max(0, n · l). */
static const double LIGHT_CAMERA[3] = {-1.0 / 3, 2.0 / 3, 2.0 / 3};
#define AMBIENT 0.4
#define KEY 0.6
#define MARGIN 1.1         /* the image side is 1.1 × the larger side of the framed bounds */
/* Posing and drawing work, a vertex or a triangle of a primitive each time a node draws it, is
 * capped relative to the scene's own (each primitive counted once): a small file whose nodes
 * draw one mesh thousands of times is refused (preview.limit), not drawn for minutes. */
#define WORK_FLOOR ((size_t)1 << 20)
#define WORK_PER_STORED 16
/* Blended triangles wait for the sorted pass (216 bytes each): capped the same way, tighter. */
#define BLEND_FLOOR ((size_t)1 << 18)
#define BLEND_PER_STORED 4

/* ---- options and views ------------------------------------------------------------------- */

static const char *const view_names[UE_VIEW_COUNT] = {"front", "back", "left", "right", "top", "iso"};

void ue_preview_options_default(ue_preview_options *o) {
    memset(o, 0, sizeof *o);
    o->size = 256;
    o->view = UE_VIEW_ISO;
    o->transparent = true;
}

const char *ue_preview_view_name(ue_preview_view view) {
    return (unsigned)view < UE_VIEW_COUNT ? view_names[view] : "?";
}

ue_result ue_preview_view_parse(const char *name, ue_preview_view *out) {
    for (int v = 0; name && v < UE_VIEW_COUNT; v++) {
        size_t k = 0;
        while (name[k] && (name[k] | 0x20) == view_names[v][k]) k++;
        if (!name[k] && !view_names[v][k]) {
            *out = (ue_preview_view)v;
            return UE_OK;
        }
    }
    return UE_ERR_USAGE;
}

static void normalize3(double v[3]) {
    double len = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++) v[i] /= len;
}

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/* The view's forward and up (docs/preview.md#views), and right = forward × up. */
static void view_axes(ue_preview_view view, ue_preview_camera *c) {
    static const double dirs[UE_VIEW_COUNT][2][3] = {
        {{0, 0, -1}, {0, 1, 0}},  /* front: the camera on +Z, glTF's front */
        {{0, 0, 1}, {0, 1, 0}},   /* back: on -Z */
        {{-1, 0, 0}, {0, 1, 0}},  /* left: on +X, the model's left */
        {{1, 0, 0}, {0, 1, 0}},   /* right: on -X */
        {{0, -1, 0}, {0, 0, -1}}, /* top: on +Y, the model's front at the bottom of the image */
        {{-1, -1, -1}, {0, 1, 0}},/* iso: on +X +Y +Z, up is +Y made square to forward */
    };
    memcpy(c->forward, dirs[view][0], sizeof c->forward);
    memcpy(c->up, dirs[view][1], sizeof c->up);
    normalize3(c->forward);
    double along = dot3(c->up, c->forward);
    for (int i = 0; i < 3; i++) c->up[i] -= along * c->forward[i];
    normalize3(c->up);
    c->right[0] = c->forward[1] * c->up[2] - c->forward[2] * c->up[1];
    c->right[1] = c->forward[2] * c->up[0] - c->forward[0] * c->up[2];
    c->right[2] = c->forward[0] * c->up[1] - c->forward[1] * c->up[0];
}

static ue_result check_options(const ue_preview_options *o, ue_diag *d) {
    if (o->size < 1 || o->size > UE_PREVIEW_SIZE_MAX) {
        ue_diag_add(d, UE_SEV_ERROR, "preview.size", UE_NO_OFFSET, "options", "size %u: want 1 to %u", o->size,
                    UE_PREVIEW_SIZE_MAX);
        return UE_ERR_USAGE;
    }
    if ((unsigned)o->view >= UE_VIEW_COUNT) {
        ue_diag_add(d, UE_SEV_ERROR, "preview.view", UE_NO_OFFSET, "options", "view %d is none of the six", (int)o->view);
        return UE_ERR_USAGE;
    }
    if (o->clip && !isfinite(o->frame)) {
        ue_diag_add(d, UE_SEV_ERROR, "preview.frame", UE_NO_OFFSET, "options", "the frame is not a finite number");
        return UE_ERR_USAGE;
    }
    return UE_OK;
}

/* ---- the posed geometry ------------------------------------------------------------------ */

typedef struct posed_prim {
    const ue_scene_primitive *prim;
    float *pos;                /* 3 × vertex_count, world */
    float *nrm;                /* 3 × vertex_count, world, unit; NULL when the primitive has none */
    bool mirrored;             /* a transform of negative determinant: the winding turns over */
} posed_prim;

typedef struct posed_scene {
    render_pose pose;
    posed_prim scratch;        /* the primitive instance at hand: one instance is posed at a time */
    float *pos_buf, *nrm_buf;  /* its storage, 3 × the largest primitive's vertex count each */
    size_t instances;          /* primitives drawn, a primitive once per node drawing it */
    size_t stored_work;        /* primitive_work of every primitive of the scene, once each */
    float **skin_matrices;     /* per skin: 16 × joints, world(joint) × inverse bind; built once */
    double min[3], max[3];     /* bounds of every posed vertex of finite coordinates */
    bool any;
    size_t nonfinite;          /* posed vertices left out: a coordinate not finite (an overflowing transform) */
} posed_scene;

static void posed_free(posed_scene *ps, const ue_scene *s) {
    free(ps->pos_buf);
    free(ps->nrm_buf);
    for (size_t i = 0; ps->skin_matrices && i < s->skin_count; i++) free(ps->skin_matrices[i]);
    free(ps->skin_matrices);
    render_pose_free(&ps->pose);
    memset(ps, 0, sizeof *ps);
}

/* World × inverse bind of each joint of skin k (a joint out of range counts as the identity). */
static const float *skin_matrices(const ue_scene *s, posed_scene *ps, int32_t k) {
    if (ps->skin_matrices[k]) return ps->skin_matrices[k];
    const ue_scene_skin *skin = &s->skins[k];
    float *m = ue_malloc_items(skin->joint_count * 16, sizeof *m);
    if (!m) return NULL;
    static const float identity[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (size_t j = 0; j < skin->joint_count; j++) {
        int32_t node = skin->joints[j];
        const float *world = node >= 0 && (size_t)node < s->node_count ? ps->pose.world + 16 * (size_t)node : identity;
        if (skin->inverse_bind) ue_mat4_mul(world, skin->inverse_bind + 16 * j, m + 16 * j);
        else memcpy(m + 16 * j, world, sizeof identity);
    }
    return ps->skin_matrices[k] = m;
}

/* p transformed by the weighted sum of the vertex's joint matrices (normals by their 3×3 part). */
static void skin_vertex(const ue_scene_primitive *p, uint32_t v, const float *mats, size_t joints, const float *in,
                        bool point, float out[3]) {
    double acc[3] = {0, 0, 0};
    for (uint32_t k = 0; k < p->influences; k++) {
        float w = p->weights[(size_t)v * p->influences + k];
        uint16_t j = p->joints[(size_t)v * p->influences + k];
        if (w == 0 || j >= joints) continue;
        const float *m = mats + 16 * (size_t)j;
        for (int r = 0; r < 3; r++)
            acc[r] += w * ((double)m[r] * in[0] + (double)m[4 + r] * in[1] + (double)m[8 + r] * in[2] +
                           (point ? m[12 + r] : 0));
    }
    if (!point) {
        double len = sqrt(acc[0] * acc[0] + acc[1] * acc[1] + acc[2] * acc[2]);
        for (int r = 0; r < 3 && len > 0; r++) acc[r] /= len;
    }
    for (int r = 0; r < 3; r++) out[r] = (float)acc[r];
}

/* Poses primitive p of `node` into ps->scratch (sized for the largest primitive); `bound`: the
 * bounds pass, which adds its vertices to the bounds. */
static ue_result pose_primitive(const ue_scene *s, posed_scene *ps, int32_t node, const ue_scene_primitive *p,
                                bool bound) {
    posed_prim *out = &ps->scratch;
    out->prim = p;
    out->pos = ps->pos_buf;
    out->nrm = p->normals ? ps->nrm_buf : NULL;
    int32_t skin = s->nodes[node].skin;
    bool skinned = skin >= 0 && (size_t)skin < s->skin_count && p->joints && p->weights && p->influences;
    const float *mats = skinned ? skin_matrices(s, ps, skin) : NULL;
    if (skinned && !mats) return UE_ERR_NOMEM;
    const float *world = ps->pose.world + 16 * (size_t)node;
    out->mirrored = !skinned && ue_mat4_det3(world) < 0;
    for (uint32_t v = 0; v < p->vertex_count; v++) {
        float *dst = out->pos + 3 * (size_t)v;
        if (skinned) {
            skin_vertex(p, v, mats, s->skins[skin].joint_count, p->positions + 3 * (size_t)v, true, dst);
            if (out->nrm) skin_vertex(p, v, mats, s->skins[skin].joint_count, p->normals + 3 * (size_t)v, false,
                                      out->nrm + 3 * (size_t)v);
        } else {
            double w[3];
            ue_mat4_transform_point(world, p->positions + 3 * (size_t)v, w);
            for (int i = 0; i < 3; i++) dst[i] = (float)w[i];
            if (out->nrm) {
                ue_mat4_transform_normal(world, p->normals + 3 * (size_t)v, w);
                for (int i = 0; i < 3; i++) out->nrm[3 * (size_t)v + i] = (float)w[i];
            }
        }
        if (!bound) continue;
        if (!(isfinite(dst[0]) && isfinite(dst[1]) && isfinite(dst[2]))) {
            ps->nonfinite++;
            continue;
        }
        for (int i = 0; i < 3; i++) {
            ps->min[i] = ps->any ? fmin(ps->min[i], dst[i]) : dst[i];
            ps->max[i] = ps->any ? fmax(ps->max[i], dst[i]) : dst[i];
        }
        ps->any = true;
    }
    return UE_OK;
}

/* Vertices whose coordinates overflowed are not framed, and their triangles not drawn; with no
 * finite vertex at all there are no bounds to frame: refused (preview.nonfinite). */
static ue_result check_finite(const posed_scene *ps, ue_diag *d) {
    if (!ps->nonfinite) return UE_OK;
    bool none = !ps->any;
    ue_diag_add(d, none ? UE_SEV_ERROR : UE_SEV_WARNING, "preview.nonfinite", UE_NO_OFFSET, "nodes",
                "%zu posed vertices have a coordinate that is not a finite number (node transforms that overflow)%s",
                ps->nonfinite, none ? ": no bounds to frame" : ": left out with their triangles");
    return none ? UE_ERR_INVALID : UE_OK;
}

/* The mesh node n draws, or NULL: none, out of range, or hidden at the frame. */
static const ue_scene_mesh *drawn_mesh(const ue_scene *s, const posed_scene *ps, size_t n) {
    int32_t m = s->nodes[n].mesh;
    return m >= 0 && (size_t)m < s->mesh_count && ps->pose.visible[n] ? &s->meshes[m] : NULL;
}

/* What posing and drawing a primitive once costs: one, and a vertex or a triangle each. */
static size_t primitive_work(const ue_scene_primitive *p) { return 1 + (size_t)p->vertex_count + p->index_count / 3; }

/* Counts the primitive instances, sizes the scratch for the largest, and refuses work past
 * WORK_FLOOR + WORK_PER_STORED × the scene's own (docs/preview.md#limits). */
static ue_result plan_instances(const ue_scene *s, posed_scene *ps, ue_diag *d) {
    size_t stored = 0, work = 0, largest = 0;
    bool normals = false;
    for (size_t m = 0; m < s->mesh_count; m++)
        for (size_t k = 0; k < s->meshes[m].primitive_count; k++) stored += primitive_work(&s->meshes[m].primitives[k]);
    ps->stored_work = stored;
    size_t limit = WORK_FLOOR + WORK_PER_STORED * stored;
    for (size_t n = 0; n < s->node_count && work <= limit; n++) {
        const ue_scene_mesh *mesh = drawn_mesh(s, ps, n);
        for (size_t k = 0; mesh && k < mesh->primitive_count; k++) {
            const ue_scene_primitive *p = &mesh->primitives[k];
            work += primitive_work(p);
            largest = p->vertex_count > largest ? p->vertex_count : largest;
            normals |= p->normals != NULL;
            ps->instances++;
        }
    }
    if (work > limit) {
        ue_diag_add(d, UE_SEV_ERROR, "preview.limit", UE_NO_OFFSET, "nodes",
                    "the nodes draw their meshes so many times that posing them is over %zu vertices and "
                    "triangles (the meshes hold %zu; the limit is %zu + %d times that)",
                    work, stored, WORK_FLOOR, WORK_PER_STORED);
        return UE_ERR_LIMIT;
    }
    ps->pos_buf = ue_malloc_items(largest * 3, sizeof *ps->pos_buf);
    ps->nrm_buf = normals ? ue_malloc_items(largest * 3, sizeof *ps->nrm_buf) : NULL;
    ps->skin_matrices = ue_calloc_items(s->skin_count, sizeof *ps->skin_matrices);
    return ps->pos_buf && (ps->nrm_buf || !normals) && ps->skin_matrices ? UE_OK : UE_ERR_NOMEM;
}

/* The scene posed at the frame and the bounds of every primitive instance, each posed in turn
 * (memory for one instance, whatever the number of nodes drawing a mesh). */
static ue_result pose_scene(const ue_scene *s, const ue_preview_options *o, posed_scene *ps, ue_diag *d) {
    memset(ps, 0, sizeof *ps);
    ue_result r = render_pose_build(s, o->clip, o->frame, &ps->pose, d);
    if (r == UE_OK) r = plan_instances(s, ps, d);
    for (size_t n = 0; r == UE_OK && n < s->node_count; n++) {
        const ue_scene_mesh *mesh = drawn_mesh(s, ps, n);
        for (size_t k = 0; r == UE_OK && mesh && k < mesh->primitive_count; k++)
            r = pose_primitive(s, ps, (int32_t)n, &mesh->primitives[k], true);
    }
    return r == UE_OK ? check_finite(ps, d) : r;
}

/* ---- the camera -------------------------------------------------------------------------- */

/* The extents of the 8 corners of the posed bounds along the camera's right, up and forward axes. */
static void project_bounds(const posed_scene *ps, const ue_preview_camera *c, double lo[3], double hi[3]) {
    const double *axes[3] = {c->right, c->up, c->forward};
    for (int a = 0; a < 3; a++) lo[a] = INFINITY, hi[a] = -INFINITY;
    for (int corner = 0; corner < 8; corner++) {
        double p[3] = {corner & 1 ? ps->max[0] : ps->min[0], corner & 2 ? ps->max[1] : ps->min[1],
                       corner & 4 ? ps->max[2] : ps->min[2]};
        for (int a = 0; a < 3; a++) {
            lo[a] = fmin(lo[a], dot3(p, axes[a]));
            hi[a] = fmax(hi[a], dot3(p, axes[a]));
        }
    }
}

/* The framing rule (docs/preview.md#framing): the 8 corners of the posed bounds projected on the
 * view's right, up and forward axes; the image centred on their extents, its side MARGIN times
 * the larger of width and height. */
static void frame_camera(const posed_scene *ps, ue_preview_view view, ue_preview_camera *c) {
    memset(c, 0, sizeof *c);
    view_axes(view, c);
    c->empty = !ps->any;
    c->extent = 1;
    if (!ps->any) return;
    double lo[3], hi[3];
    project_bounds(ps, c, lo, hi);
    for (int i = 0; i < 3; i++)
        c->center[i] = 0.5 * ((lo[0] + hi[0]) * c->right[i] + (lo[1] + hi[1]) * c->up[i] + (lo[2] + hi[2]) * c->forward[i]);
    double side = fmax(hi[0] - lo[0], hi[1] - lo[1]);
    c->extent = side > 0 ? side * MARGIN : 1;
    c->near_depth = lo[2] - 0.5 * (lo[2] + hi[2]);
    c->far_depth = -c->near_depth;
}

/* The pixels the model can cover: its projected bounds in pixels, one pixel wider on every side
 * (rounding), clipped to the image; nothing for an empty scene. Every vertex lies in the bounds,
 * so no triangle draws outside; the rest of the image is background. */
static render_rect model_rect(const posed_scene *ps, const ue_preview_camera *c, uint32_t size) {
    render_rect r = {0, 0, 0, 0};
    if (c->empty) return r;
    double lo[3], hi[3], center[3] = {c->center[0], c->center[1], c->center[2]};
    project_bounds(ps, c, lo, hi);
    double cx = dot3(center, c->right), cy = dot3(center, c->up), scale = size / c->extent;
    double x0 = floor((lo[0] - cx) * scale + 0.5 * size) - 1, x1 = ceil((hi[0] - cx) * scale + 0.5 * size) + 1;
    double y0 = floor(0.5 * size - (hi[1] - cy) * scale) - 1, y1 = ceil(0.5 * size - (lo[1] - cy) * scale) + 1;
    x0 = x0 >= 0 ? x0 : 0, y0 = y0 >= 0 ? y0 : 0; /* NaN too */
    x1 = x1 <= size ? x1 : size, y1 = y1 <= size ? y1 : size;
    if (!(x0 < x1 && y0 < y1)) return r;
    r.x0 = (uint32_t)x0, r.y0 = (uint32_t)y0, r.width = (uint32_t)(x1 - x0), r.height = (uint32_t)(y1 - y0);
    return r;
}

ue_result ue_preview_camera_get(const ue_scene *scene, const ue_preview_options *o, ue_preview_camera *out,
                                ue_diag *d) {
    ue_result r = check_options(o, d);
    if (r != UE_OK) return r;
    posed_scene ps;
    r = pose_scene(scene, o, &ps, d);
    if (r == UE_OK) frame_camera(&ps, o->view, out);
    posed_free(&ps, scene);
    return r;
}

/* ---- drawing ----------------------------------------------------------------------------- */

typedef struct draw_ctx {
    const ue_scene *s;
    posed_scene *ps;           /* its scratch receives each primitive instance in turn */
    const ue_preview_camera *cam;
    render_target *target;
    double light[3];           /* world direction toward the key light */
    double depth_scale;        /* 1 / (far - near), or 0 for a flat model */
    uint32_t size;
} draw_ctx;

/* One primitive's look: its material (the glTF default when it has none) at the frame. */
typedef struct prim_look {
    render_paint paint;
    const float *uv;           /* the base colour slot's coordinates, or NULL */
    ue_uv_transform transform;
    bool double_sided, unlit;
} prim_look;

static void look_of(const draw_ctx *c, const ue_scene_primitive *p, prim_look *look) {
    memset(look, 0, sizeof *look);
    for (int i = 0; i < 4; i++) look->paint.base_color[i] = 1;
    look->paint.depth_write = true;
    if (p->material < 0 || (size_t)p->material >= c->s->material_count) return;
    const ue_scene_material *m = &c->s->materials[p->material];
    const render_material *posed = &c->ps->pose.materials[p->material];
    memcpy(look->paint.base_color, posed->base_color, sizeof posed->base_color);
    look->paint.alpha_mode = m->alpha_mode;
    look->paint.alpha_cutoff = m->alpha_cutoff;
    look->paint.depth_write = m->alpha_mode != UE_ALPHA_BLEND;
    look->double_sided = m->double_sided;
    look->unlit = m->unlit;
    for (size_t k = 0; k < m->slot_count && k < UE_MAX_TEXTURE_SLOTS; k++) {
        const ue_texture_slot *slot = &m->slots[k];
        int32_t t = posed->textures[k];
        if (slot->role != UE_TEX_BASE_COLOR || slot->generated || slot->uv_set >= UE_MAX_UV_SETS) continue;
        if (t < 0 || (size_t)t >= c->s->texture_count || !c->s->textures[t].rgba || !c->s->textures[t].width ||
            !c->s->textures[t].height || !p->uv[slot->uv_set])
            break;
        look->paint.texture = &c->s->textures[t];
        look->uv = p->uv[slot->uv_set];
        look->transform = posed->transforms[k];
        break;
    }
}

/* A double narrowed to float without overflowing it (huge scales): clamped to ±FLT_MAX, NaN kept. */
static float to_float(double x) {
    return (float)(x < -FLT_MAX ? -FLT_MAX : x > FLT_MAX ? FLT_MAX : x);
}

/* KHR_texture_transform: offset + rotation × scale × uv, rotation counter-clockwise. */
static void transform_uv(const ue_uv_transform *t, const float in[2], float out[2]) {
    if (!t->enabled) {
        out[0] = in[0], out[1] = in[1];
        return;
    }
    double cs = cos(t->rotation), sn = sin(t->rotation), u = in[0] * (double)t->scale[0], v = in[1] * (double)t->scale[1];
    out[0] = to_float(cs * u - sn * v + t->offset[0]);
    out[1] = to_float(sn * u + cs * v + t->offset[1]);
}

static void make_vertex(const draw_ctx *c, const posed_prim *pp, const prim_look *look, uint32_t v,
                        const double face_normal[3], render_vertex *out) {
    const ue_preview_camera *cam = c->cam;
    const float *p = pp->pos + 3 * (size_t)v;
    double rel[3] = {p[0] - cam->center[0], p[1] - cam->center[1], p[2] - cam->center[2]};
    out->x = (dot3(rel, cam->right) / cam->extent + 0.5) * c->size;
    out->y = (0.5 - dot3(rel, cam->up) / cam->extent) * c->size;
    out->z = (float)((dot3(rel, cam->forward) - cam->near_depth) * c->depth_scale);
    out->inv_w = 1; /* orthographic: w = 1, and the attributes below are divided by it */
    float uv[2] = {0, 0};
    if (look->uv) transform_uv(&look->transform, look->uv + 2 * (size_t)v, uv);
    out->uv_w[0] = uv[0] * out->inv_w, out->uv_w[1] = uv[1] * out->inv_w;
    const float *col = pp->prim->colors[0] ? pp->prim->colors[0] + 4 * (size_t)v : NULL;
    double lit[2] = {1, 1};
    if (!look->unlit) {
        double n[3] = {face_normal[0], face_normal[1], face_normal[2]};
        if (pp->nrm) n[0] = pp->nrm[3 * (size_t)v], n[1] = pp->nrm[3 * (size_t)v + 1], n[2] = pp->nrm[3 * (size_t)v + 2];
        double nl = dot3(n, c->light);
        lit[0] = AMBIENT + KEY * fmax(0, nl);
        lit[1] = AMBIENT + KEY * fmax(0, -nl);
    }
    for (int side = 0; side < 2; side++) {
        for (int k = 0; k < 3; k++) out->shade_w[side][k] = (float)((col ? col[k] : 1) * lit[side]) * out->inv_w;
        out->shade_w[side][3] = (col ? col[3] : 1) * out->inv_w;
    }
}

/* The world normal of a triangle's front face (counter-clockwise, turned over when mirrored). */
static void face_normal_of(const posed_prim *pp, const uint32_t idx[3], double n[3]) {
    const float *a = pp->pos + 3 * (size_t)idx[0], *b = pp->pos + 3 * (size_t)idx[1], *e = pp->pos + 3 * (size_t)idx[2];
    double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {e[0] - a[0], e[1] - a[1], e[2] - a[2]};
    n[0] = u[1] * w[2] - u[2] * w[1], n[1] = u[2] * w[0] - u[0] * w[2], n[2] = u[0] * w[1] - u[1] * w[0];
    double len = sqrt(dot3(n, n)) * (pp->mirrored ? -1 : 1);
    for (int i = 0; i < 3; i++) n[i] = len != 0 ? n[i] / len : 0;
}

/* A blended triangle kept for the sorted pass. */
typedef struct blend_tri {
    render_vertex v[3];
    size_t look;               /* index into the looks of the blended primitives */
    size_t order;              /* drawing order, the tie-break of equal depths */
    float depth;
    bool back;
} blend_tri;

typedef struct blend_list {
    blend_tri *items;
    size_t count, cap;
    prim_look *looks;
    size_t look_count, look_cap;
    size_t limit;              /* of count + look_count: BLEND_FLOOR + BLEND_PER_STORED × the scene's work */
} blend_list;

static ue_result blend_add_look(blend_list *b, const prim_look *look) {
    if (b->count + b->look_count >= b->limit) return UE_ERR_LIMIT;
    if (b->look_count == b->look_cap) {
        size_t cap = b->look_cap ? b->look_cap * 2 : 16;
        prim_look *grown = realloc(b->looks, cap * sizeof *grown);
        if (!grown) return UE_ERR_NOMEM;
        b->looks = grown, b->look_cap = cap;
    }
    b->looks[b->look_count++] = *look;
    return UE_OK;
}

static ue_result blend_push(blend_list *b, const render_vertex v[3], bool back) {
    if (b->count + b->look_count >= b->limit) return UE_ERR_LIMIT;
    if (b->count == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        blend_tri *grown = realloc(b->items, cap * sizeof *grown);
        if (!grown) return UE_ERR_NOMEM;
        b->items = grown, b->cap = cap;
    }
    blend_tri *t = &b->items[b->count];
    memcpy(t->v, v, sizeof t->v);
    t->look = b->look_count - 1, t->order = b->count, t->back = back;
    t->depth = (v[0].z + v[1].z + v[2].z) / 3;
    b->count++;
    return UE_OK;
}

/* Draws one posed primitive: its triangles culled (unless two-sided) and drawn, or kept in
 * `blend` when its material blends. */
static ue_result draw_primitive(const draw_ctx *c, const posed_prim *pp, blend_list *blend) {
    const ue_scene_primitive *p = pp->prim;
    prim_look look;
    look_of(c, p, &look);
    bool blended = look.paint.alpha_mode == UE_ALPHA_BLEND;
    ue_result r = blended ? blend_add_look(blend, &look) : UE_OK;
    for (uint32_t t = 0; r == UE_OK && t + 2 < p->index_count; t += 3) {
        uint32_t idx[3] = {p->indices[t], p->indices[t + 1], p->indices[t + 2]};
        if (idx[0] >= p->vertex_count || idx[1] >= p->vertex_count || idx[2] >= p->vertex_count) continue;
        double fn[3] = {0, 0, 0};
        if (!pp->nrm && !look.unlit) face_normal_of(pp, idx, fn);
        render_vertex v[3];
        for (int k = 0; k < 3; k++) make_vertex(c, pp, &look, idx[k], fn, &v[k]);
        /* counter-clockwise in the world is clockwise on the y-down image: a negative area */
        double area = (v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x);
        if (area == 0 || !isfinite(area) || !(isfinite(v[0].z) && isfinite(v[1].z) && isfinite(v[2].z)))
            continue; /* flat, or a corner left out of the bounds (not finite) */
        bool back = (area > 0) != pp->mirrored;
        if (back && !look.double_sided) continue;
        if (!blended) render_triangle(c->target, &v[0], &v[1], &v[2], back, &look.paint);
        else r = blend_push(blend, v, back);
    }
    return r;
}

static int farther_first(const void *a, const void *b) {
    const blend_tri *x = a, *y = b;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Poses and draws each primitive instance in turn, then the blended triangles back to front. */
static ue_result draw_all(const draw_ctx *c, ue_diag *d) {
    blend_list blend = {0};
    blend.limit = BLEND_FLOOR + BLEND_PER_STORED * c->ps->stored_work;
    ue_result r = UE_OK;
    for (size_t n = 0; r == UE_OK && n < c->s->node_count; n++) {
        const ue_scene_mesh *mesh = drawn_mesh(c->s, c->ps, n);
        for (size_t k = 0; r == UE_OK && mesh && k < mesh->primitive_count; k++) {
            r = pose_primitive(c->s, c->ps, (int32_t)n, &mesh->primitives[k], false);
            if (r == UE_OK) r = draw_primitive(c, &c->ps->scratch, &blend);
        }
    }
    if (r == UE_ERR_LIMIT)
        ue_diag_add(d, UE_SEV_ERROR, "preview.limit", UE_NO_OFFSET, "materials",
                    "over %zu blended triangles to sort (meshes drawn by several nodes counted each time)",
                    blend.limit);
    if (r == UE_OK && blend.count) {
        qsort(blend.items, blend.count, sizeof *blend.items, farther_first);
        for (size_t i = 0; i < blend.count; i++) {
            const blend_tri *t = &blend.items[i];
            render_triangle(c->target, &t->v[0], &t->v[1], &t->v[2], t->back, &blend.looks[t->look].paint);
        }
    }
    free(blend.items);
    free(blend.looks);
    return r;
}

/* 0..1 to 0..255; NaN (a NaN vertex colour or normal) gives 0. */
static uint8_t to_byte(float v) {
    return !(v > 0) ? 0 : v >= 1 ? 255 : (uint8_t)(v * 255.0f + 0.5f);
}

/* The background inside the drawn rectangle: transparent (the target starts cleared) or opaque. */
static void fill_background(render_target *t, const ue_preview_options *o) {
    size_t pixels = (size_t)t->rect.width * t->rect.height;
    for (size_t i = 0; !o->transparent && i < pixels; i++) {
        for (int k = 0; k < 3; k++) t->color[i * 4 + k] = o->background_rgb[k] / 255.0f;
        t->color[i * 4 + 3] = 1;
    }
}

static void pixel_bytes(const float c[4], uint8_t out[4]) {
    bool clear = !(c[3] > 0) || to_byte(c[3]) == 0; /* the first test spares the rest for background */
    for (int k = 0; k < 4; k++) out[k] = clear ? 0 : to_byte(c[k]);
}

/* n pixels of one colour; of a transparent background, zeros at memset's speed. */
static void fill_bytes(uint8_t *dst, uint32_t n, const uint8_t rgba[4]) {
    if (!(rgba[0] | rgba[1] | rgba[2] | rgba[3])) memset(dst, 0, (size_t)n * 4);
    else
        for (uint32_t x = 0; x < n; x++) memcpy(dst + (size_t)x * 4, rgba, 4);
}

/* The image: the drawn rectangle converted, every pixel outside it the background's bytes. */
static void write_pixels(const render_target *t, const ue_preview_options *o, uint8_t *rgba) {
    float bg[4] = {0, 0, 0, 0};
    for (int k = 0; !o->transparent && k < 4; k++) bg[k] = k < 3 ? o->background_rgb[k] / 255.0f : 1;
    uint8_t bg_bytes[4];
    pixel_bytes(bg, bg_bytes);
    const render_rect *r = &t->rect;
    for (uint32_t y = 0; y < t->size; y++) {
        uint8_t *row = rgba + (size_t)y * t->size * 4;
        bool inside = y >= r->y0 && y - r->y0 < r->height;
        uint32_t from = inside ? r->x0 : t->size, to = inside ? r->x0 + r->width : t->size;
        fill_bytes(row, from, bg_bytes);
        const float *c = t->color + (size_t)(inside ? y - r->y0 : 0) * r->width * 4;
        for (uint32_t x = from; x < to; x++, c += 4) pixel_bytes(c, row + (size_t)x * 4);
        fill_bytes(row + (size_t)to * 4, t->size - to, bg_bytes);
    }
}

ue_result ue_preview_render(const ue_scene *scene, const ue_preview_options *o, uint8_t *rgba, ue_diag *d) {
    if (!scene || !o || !rgba) return UE_ERR_USAGE;
    ue_result r = check_options(o, d);
    if (r != UE_OK) return r;
    posed_scene ps;
    ue_preview_camera cam;
    render_target target = {0};
    r = pose_scene(scene, o, &ps, d);
    if (r == UE_OK) {
        frame_camera(&ps, o->view, &cam);
        r = render_target_init(&target, o->size, model_rect(&ps, &cam, o->size));
    }
    if (r == UE_OK) {
        draw_ctx c = {scene, &ps, &cam, &target, {0, 0, 0}, 0, o->size};
        for (int i = 0; i < 3; i++)
            c.light[i] = LIGHT_CAMERA[0] * cam.right[i] + LIGHT_CAMERA[1] * cam.up[i] - LIGHT_CAMERA[2] * cam.forward[i];
        double depth = cam.far_depth - cam.near_depth;
        c.depth_scale = depth > 0 ? 1 / depth : 0;
        fill_background(&target, o);
        r = draw_all(&c, d);
    }
    if (r == UE_OK) write_pixels(&target, o, rgba);
    if (r == UE_ERR_NOMEM) ue_diag_add(d, UE_SEV_ERROR, "preview.nomem", UE_NO_OFFSET, "preview", "out of memory");
    render_target_free(&target);
    posed_free(&ps, scene);
    return r;
}
