/* unearth — HSD model → scene IR: the joint tree as nodes (TRS from the local matrices of docs/formats/hsd-model.md#joint-matrices),
 * one skin per model set with inverse binds matching those nodes, each joint's meshes, the clips. */
#include "hsd/hsd_to_scene.h"

#include <errno.h>
#include <iconv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/text.h"
#include "hsd/hsd_anim_scene.h"

ue_source_id hsd_source_id(uint32_t kind, uint32_t data_offset, size_t index) {
    ue_source_id id;
    memset(&id, 0, sizeof id);
    memcpy(id.format, "hsd", 4);
    id.type = kind;
    id.offset = data_offset;
    id.index = (uint32_t)index;
    return id;
}

/* ---- names -------------------------------------------------------------------------------- */

static bool plain_ascii(const char *s) {
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7F) return false;
    return true;
}

/* Converts as much as iconv takes; a byte it refuses becomes "\xNN" and the rest goes on. */
static void sjis_convert(iconv_t cd, const char *raw, char *buf, size_t cap) {
    char *in = (char *)(uintptr_t)raw, *out = buf;
    size_t in_left = strlen(raw), out_left = cap - 1;
    while (in_left > 0 && out_left > 4) {
        if (iconv(cd, &in, &in_left, &out, &out_left) != (size_t)-1) break;
        if (errno == E2BIG) break;
        int w = snprintf(out, out_left + 1, "\\x%02X", (unsigned char)*in);
        if (w < 0 || (size_t)w > out_left) break;
        out += w, out_left -= (size_t)w;
        in++, in_left--;
        iconv(cd, NULL, NULL, NULL, NULL);
    }
    *out = 0;
}

void hsd_name_utf8(const char *raw, char *out, size_t cap) {
    if (!cap) return;
    if (plain_ascii(raw)) {
        ue_utf8_copy(raw, out, cap);
        return;
    }
    char buf[512];
    iconv_t cd = iconv_open("UTF-8", "SHIFT_JIS");
    if (cd == (iconv_t)-1) {
        /* No converter on this system: every byte outside ASCII is escaped. */
        size_t o = 0;
        for (const unsigned char *p = (const unsigned char *)raw; *p && o + 5 < sizeof buf; p++) {
            if (*p >= 0x20 && *p < 0x7F) buf[o++] = (char)*p;
            else o += (size_t)snprintf(buf + o, sizeof buf - o, "\\x%02X", *p);
        }
        buf[o] = 0;
    } else {
        sjis_convert(cd, raw, buf, sizeof buf);
        iconv_close(cd);
    }
    ue_utf8_copy(buf, out, cap);
}

static void joint_name(const ue_hsd_model *m, size_t j, char out[64]) {
    const char *raw = m->joints[j].class_name;
    if (raw && raw[0]) hsd_name_utf8(raw, out, 64);
    else snprintf(out, 64, "joint_%03zu", j);
}

/* ---- joint transforms ----------------------------------------------------------------------- */

static double dot3(const double a[3], const double b[3]) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

static double normalise3(double v[3]) {
    double len = sqrt(dot3(v, v));
    if (len > 1e-12)
        for (int i = 0; i < 3; i++) v[i] /= len;
    return len;
}

/* A unit vector orthogonal to the unit vector `a`. */
static void any_orthogonal(const double a[3], double out[3]) {
    double axis[3] = {fabs(a[0]) < 0.9 ? 1.0 : 0.0, fabs(a[0]) < 0.9 ? 0.0 : 1.0, 0.0};
    double k = dot3(a, axis);
    for (int i = 0; i < 3; i++) out[i] = axis[i] - k * a[i];
    normalise3(out);
}

static void quat_from_basis(const double q0[3], const double q1[3], const double q2[3], float out[4]) {
    /* Columns q0 q1 q2 form R; Shepperd's method picks the largest of w, x, y, z first. */
    double m00 = q0[0], m11 = q1[1], m22 = q2[2], tr = m00 + m11 + m22, x, y, z, w;
    if (tr > 0) {
        double k = 0.5 / sqrt(tr + 1.0);
        w = 0.25 / k, x = (q1[2] - q2[1]) * k, y = (q2[0] - q0[2]) * k, z = (q0[1] - q1[0]) * k;
    } else if (m00 > m11 && m00 > m22) {
        double k = 2.0 * sqrt(1.0 + m00 - m11 - m22);
        w = (q1[2] - q2[1]) / k, x = 0.25 * k, y = (q1[0] + q0[1]) / k, z = (q2[0] + q0[2]) / k;
    } else if (m11 > m22) {
        double k = 2.0 * sqrt(1.0 + m11 - m00 - m22);
        w = (q2[0] - q0[2]) / k, x = (q1[0] + q0[1]) / k, y = 0.25 * k, z = (q2[1] + q1[2]) / k;
    } else {
        double k = 2.0 * sqrt(1.0 + m22 - m00 - m11);
        w = (q0[1] - q1[0]) / k, x = (q2[0] + q0[2]) / k, y = (q2[1] + q1[2]) / k, z = 0.25 * k;
    }
    double len = sqrt(x * x + y * y + z * z + w * w);
    out[0] = (float)(x / len), out[1] = (float)(y / len), out[2] = (float)(z / len), out[3] = (float)(w / len);
}

/* Gram–Schmidt: L = Q·U; the node takes R = Q and S = diag(U), exact when U is diagonal. The
 * third axis is q0 × q1 so R stays a rotation; a mirror shows as a negative scale. b receives Q's
 * columns, u the diagonal of U and u[3] its first off-diagonal element (hsd_local_to_trs's check). */
static void gram_schmidt_trs(double c[3][3], const double local[16], double b[3][3], double u[4], float t[3],
                             float q[4], float s[3]) {
    for (int k = 0; k < 3; k++) t[k] = (float)local[12 + k];
    double s0 = sqrt(dot3(c[0], c[0])); /* normalise3's length, taken once */
    if (s0 > 1e-12)
        for (int i = 0; i < 3; i++) b[0][i] = c[0][i] / s0;
    else if (s0 <= 1e-12)
        b[0][0] = 1, b[0][1] = 0, b[0][2] = 0;
    else
        memcpy(b[0], c[0], sizeof b[0]); /* NaN: kept, as normalise3 keeps it */
    double k01 = dot3(b[0], c[1]);
    for (int i = 0; i < 3; i++) b[1][i] = c[1][i] - k01 * b[0][i];
    double s1 = normalise3(b[1]);
    if (s1 <= 1e-12) any_orthogonal(b[0], b[1]);
    b[2][0] = b[0][1] * b[1][2] - b[0][2] * b[1][1];
    b[2][1] = b[0][2] * b[1][0] - b[0][0] * b[1][2];
    b[2][2] = b[0][0] * b[1][1] - b[0][1] * b[1][0];
    double s2 = dot3(b[2], c[2]);
    s[0] = (float)s0, s[1] = (float)s1, s[2] = (float)s2;
    quat_from_basis(b[0], b[1], b[2], q);
    u[0] = s0, u[1] = s1, u[2] = s2, u[3] = k01;
}

static void columns_of(const double local[16], double c[3][3]) {
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++) c[k][i] = local[k * 4 + i];
}

bool hsd_local_to_trs(const double local[16], float t[3], float q[4], float s[3]) {
    double c[3][3], b[3][3], u[4];
    columns_of(local, c);
    gram_schmidt_trs(c, local, b, u, t, q, s);
    double scale = fmax(fmax(u[0], u[1]), fmax(fabs(u[2]), 1e-30));
    double off = fabs(u[3]) + fabs(dot3(b[0], c[2])) + fabs(dot3(b[1], c[2]));
    return off <= 1e-6 * scale;
}

void hsd_local_to_trs_unchecked(const double local[16], float t[3], float q[4], float s[3]) {
    double c[3][3], b[3][3], u[4];
    columns_of(local, c);
    gram_schmidt_trs(c, local, b, u, t, q, s);
}

/* R = Rz·Ry·Rx as qz ⊗ qy ⊗ qx from the half angles, signed as quat_from_basis signs it: w
 * positive while the trace 4w² − 1 is, else the largest of x, y, z (first wins a tie, as there). */
static void quat_zyx(const float euler[3], double q[4]) {
    double sx = sin(0.5 * euler[0]), cx = cos(0.5 * euler[0]);
    double sy = sin(0.5 * euler[1]), cy = cos(0.5 * euler[1]);
    double sz = sin(0.5 * euler[2]), cz = cos(0.5 * euler[2]);
    q[0] = sx * cy * cz - cx * sy * sz;
    q[1] = cx * sy * cz + sx * cy * sz;
    q[2] = cx * cy * sz - sx * sy * cz;
    q[3] = cx * cy * cz + sx * sy * sz;
    double xx = q[0] * q[0], yy = q[1] * q[1], zz = q[2] * q[2];
    int lead = q[3] * q[3] > 0.25 ? 3 : xx > yy && xx > zz ? 0 : yy > zz ? 1 : 2;
    if (q[lead] < 0)
        for (int k = 0; k < 4; k++) q[k] = -q[k];
}

bool hsd_srt_to_trs(const float rot[3], const float scale[3], const float trans[3], float t[3], float q[4],
                    float s[3]) {
    if (!ue_floats_finite(rot, 3) || !ue_floats_finite(scale, 3) || !ue_floats_finite(trans, 3)) return false;
    if (!(scale[0] > 1e-11f && scale[1] > 1e-11f && scale[2] != 0)) return false;
    double d[4];
    quat_zyx(rot, d);
    for (int k = 0; k < 4; k++) q[k] = (float)d[k];
    memcpy(t, trans, 3 * sizeof *t);
    memcpy(s, scale, 3 * sizeof *s);
    return true;
}

/* The node's local matrix from the floats it carries (what a glTF reader rebuilds). */
static void node_matrix(const ue_scene_node *n, double out[16]) {
    double x = n->rotation[0], y = n->rotation[1], z = n->rotation[2], w = n->rotation[3];
    double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
                   2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
                   2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)};
    hsd_mat_identity(out);
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < 3; i++) out[c * 4 + i] = r[c * 3 + i] * n->scale[c];
    for (int i = 0; i < 3; i++) out[12 + i] = n->translation[i];
}

/* ---- joints and skins ----------------------------------------------------------------------- */

/* The set's joints in depth-first pre-order (child before next sibling; an INSTANCE joint's
 * child is another tree and is not walked). Each joint is taken once, so the walk is linear. */
static size_t set_joints(const ue_hsd_model *m, int32_t root, uint8_t *taken, int32_t *order, int32_t *stack) {
    size_t n = 0, top = 0;
    if (root < 0 || (size_t)root >= m->joint_count) return 0;
    stack[top++] = root;
    while (top > 0) {
        int32_t j = stack[--top];
        if (j < 0 || (size_t)j >= m->joint_count || taken[j]) continue;
        taken[j] = 1;
        order[n++] = j;
        const ue_hsd_joint *jt = &m->joints[j];
        if (jt->next_sibling >= 0 && top < m->joint_count) stack[top++] = jt->next_sibling;
        if (jt->first_child >= 0 && !(jt->flags & UE_JOBJ_INSTANCE) && top < m->joint_count)
            stack[top++] = jt->first_child;
    }
    return n;
}

static bool trs_finite(const ue_scene_node *n) {
    for (int k = 0; k < 3; k++)
        if (!isfinite(n->translation[k]) || !isfinite(n->scale[k]) || !isfinite(n->rotation[k])) return false;
    return isfinite(n->rotation[3]);
}

/* The inverse of a joint node's world, as the floats a skin stores; false when there is none. */
static bool inverse_bind_floats(const double world[16], float out[16]) {
    double inv[16];
    if (!hsd_mat_invert(world, inv)) return false;
    for (int k = 0; k < 16; k++) {
        out[k] = (float)inv[k];
        if (!isfinite(out[k])) return false;
    }
    return true;
}

static ue_result add_joint_node(hsd_scene_ctx *x, int32_t j, double *world_out) {
    const ue_hsd_model *m = x->m;
    int32_t parent = m->joints[j].parent;
    bool has_parent = parent >= 0 && x->joint_node[parent] >= 0;
    char name[64];
    joint_name(m, (size_t)j, name);
    int32_t node = ue_scene_add_node(x->s, name, has_parent ? x->joint_node[parent] : x->root);
    if (node < 0) return UE_ERR_NOMEM;
    x->joint_node[j] = node;
    ue_scene_node *n = &x->s->nodes[node];
    n->source = hsd_source_id(HSD_KIND_JOBJ, m->joints[j].offset, (size_t)j);
    if (!hsd_local_to_trs(&x->pose.local[16 * (size_t)j], n->translation, n->rotation, n->scale))
        x->sheared_joints++;
    if (!trs_finite(n)) {
        char path[48];
        snprintf(path, sizeof path, "dat/joint[%d]", (int)j);
        ue_violation(&x->c, "hsd.pose.nan", (uint64_t)m->joints[j].offset + UE_DAT_HEADER, path,
                     "the joint's transform overflows a float; identity used");
        memset(n->translation, 0, sizeof n->translation);
        n->rotation[0] = n->rotation[1] = n->rotation[2] = 0, n->rotation[3] = 1;
        n->scale[0] = n->scale[1] = n->scale[2] = 1;
    }
    /* The world the glTF node gets (relative to the model root) from the floats it carries. */
    double local[16];
    node_matrix(n, local);
    if (has_parent) hsd_mat_mul(&world_out[16 * (size_t)parent], local, &world_out[16 * (size_t)j]);
    else memcpy(&world_out[16 * (size_t)j], local, sizeof local);
    return UE_OK;
}

/* One skin per set: its joints in pre-order, inverse binds = inverse of each joint node's world
 * (so in bind pose every joint matrix is the identity and the baked vertices stay put). */
static ue_result add_set(hsd_scene_ctx *x, size_t set, int32_t *order, int32_t *stack, uint8_t *taken,
                         double *node_world) {
    const ue_hsd_model *m = x->m;
    size_t n = set_joints(m, m->sets[set].root_joint, taken, order, stack);
    if (n == 0) return UE_OK;
    for (size_t i = 0; i < n; i++)
        if (add_joint_node(x, order[i], node_world) != UE_OK) return UE_ERR_NOMEM;
    char name[64];
    snprintf(name, sizeof name, "skin_%zu", set);
    int32_t skin = ue_scene_add_skin(x->s, name, n);
    if (skin < 0) return UE_ERR_NOMEM;
    ue_scene_skin *sk = &x->s->skins[skin];
    /* The set's root joint, unless it has siblings (more tree roots): then the model root. */
    size_t tree_roots = 0;
    for (size_t i = 0; i < n; i++) tree_roots += x->s->nodes[x->joint_node[order[i]]].parent == x->root;
    sk->skeleton = tree_roots == 1 ? x->joint_node[order[0]] : x->root;
    for (size_t i = 0; i < n; i++) {
        int32_t j = order[i];
        sk->joints[i] = x->joint_node[j];
        x->joint_skin[j] = skin;
        x->skin_index[j] = (int32_t)i;
        float *ib = &sk->inverse_bind[16 * i];
        if (!inverse_bind_floats(&node_world[16 * (size_t)j], ib)) {
            char path[48];
            snprintf(path, sizeof path, "dat/joint[%d]", (int)j);
            ue_violation(&x->c, "hsd.pose.singular", (uint64_t)m->joints[j].offset + UE_DAT_HEADER, path,
                         "the joint's world matrix has no inverse (a zero scale); identity bind used");
            memset(ib, 0, 16 * sizeof *ib);
            ib[0] = ib[5] = ib[10] = ib[15] = 1;
        }
    }
    return UE_OK;
}

static ue_result add_joints_and_skins(hsd_scene_ctx *x) {
    size_t n = x->m->joint_count ? x->m->joint_count : 1;
    int32_t *order = malloc(n * sizeof *order), *stack = malloc(n * sizeof *stack);
    uint8_t *taken = calloc(n, 1);
    double *node_world = malloc(n * 16 * sizeof *node_world);
    ue_result r = order && stack && taken && node_world ? UE_OK : UE_ERR_NOMEM;
    for (size_t set = 0; set < x->m->set_count && r == UE_OK; set++)
        r = add_set(x, set, order, stack, taken, node_world);
    free(order);
    free(stack);
    free(taken);
    free(node_world);
    return r;
}

/* ---- the whole model ------------------------------------------------------------------------ */

static ue_result ctx_init(hsd_scene_ctx *x, const ue_hsd_model *m, ue_scene *s, ue_mode mode, ue_diag *d) {
    memset(x, 0, sizeof *x);
    x->m = m;
    x->s = s;
    x->c = ue_parse_begin(mode, d);
    size_t n = m->joint_count ? m->joint_count : 1;
    x->joint_node = malloc(n * sizeof *x->joint_node);
    x->joint_skin = malloc(n * sizeof *x->joint_skin);
    x->skin_index = malloc(n * sizeof *x->skin_index);
    x->drawn = calloc(m->dobj_count + m->pobj_count + 1, 1);
    if (!x->joint_node || !x->joint_skin || !x->skin_index || !x->drawn) return UE_ERR_NOMEM;
    for (size_t j = 0; j < n; j++) x->joint_node[j] = x->joint_skin[j] = x->skin_index[j] = -1;
    if (hsd_material_map_init(&x->materials, m) != UE_OK) return UE_ERR_NOMEM;
    return UE_OK;
}

static void ctx_free(hsd_scene_ctx *x) {
    hsd_pose_free(&x->pose);
    hsd_material_map_free(&x->materials);
    free(x->joint_node);
    free(x->joint_skin);
    free(x->skin_index);
    free(x->drawn);
}

static void report_totals(hsd_scene_ctx *x) {
    if (x->sheared_joints)
        ue_diag_add(x->c.d, UE_SEV_INFO, "hsd.scene.shear", UE_NO_OFFSET, "dat",
                    "%zu joints have a sheared local matrix (compensated non-uniform scale): their nodes "
                    "carry the nearest TRS and the bind pose is kept exact by the inverse binds",
                    x->sheared_joints);
    if (x->zero_uv_primitives)
        ue_diag_add(x->c.d, UE_SEV_WARNING, "hsd.scene.uv_missing", UE_NO_OFFSET, "dat",
                    "%zu PObjs lack a UV set their material samples: zeros written (what GX feeds)",
                    x->zero_uv_primitives);
    if (x->zero_normals)
        ue_diag_add(x->c.d, UE_SEV_WARNING, "hsd.scene.zero_normal", UE_NO_OFFSET, "dat",
                    "%zu normals had no length after skinning and were exported as +Y", x->zero_normals);
}

/* Every joint's meshes; a model with nothing to draw is refused here, before any clip is added. */
static ue_result all_meshes(hsd_scene_ctx *x, void *diag) {
    const ue_hsd_model *m = x->m;
    ue_result r = UE_OK;
    for (size_t j = 0; j < m->joint_count && r == UE_OK; j++)
        if (x->joint_node[j] >= 0) r = hsd_scene_joint_meshes(x, j);
    if (r == UE_OK && x->primitives == 0) {
        ue_diag_add(diag, UE_SEV_ERROR, "hsd.export.empty", UE_NO_OFFSET, "dat",
                    "nothing to draw: %zu joints, %zu DObjs, %zu PObjs and no triangle among them", m->joint_count,
                    m->dobj_count, m->pobj_count);
        r = UE_ERR_INVALID;
    }
    return r;
}

ue_result hsd_model_to_scene(const ue_hsd_model *m, const char *name, ue_mode mode, ue_scene *s, ue_diag *d) {
    hsd_scene_ctx x;
    ue_result r = ctx_init(&x, m, s, mode, d);
    /* Tolerant, the pose only fails for memory; strict, a broken joint ends the conversion. */
    if (r == UE_OK) r = hsd_pose_compute(m, mode, &x.pose, d);
    x.root = r == UE_OK ? ue_scene_add_node(s, name && name[0] ? name : "model", -1) : -1;
    if (r == UE_OK && x.root < 0) r = UE_ERR_NOMEM;
    if (r == UE_OK) r = add_joints_and_skins(&x);
    /* Clips after the meshes: they bind to the nodes, mesh nodes and materials made there. */
    if (r == UE_OK) r = hsd_meshes_and_anims(&x, all_meshes, d);
    if (r == UE_OK) {
        report_totals(&x);
        r = x.c.failure;
    }
    ctx_free(&x);
    return r;
}
