/* unearth — OBJ/MTL writer for the scene IR: bakes node transforms (and skin poses) into world
 * space because OBJ has no hierarchy; output is a pure function of the scene. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "common/math3d.h"
#include "unearth/obj.h"
#include "common/text.h"

/* strnlen is POSIX, not C11: the length of a fixed-size name field that may lack its NUL. */
static size_t bounded_len(const char *s, size_t max) {
    const char *z = memchr(s, 0, max);
    return z ? (size_t)(z - s) : max;
}

static void put_str(ue_buf *b, const char *s) { ue_buf_put(b, s, strlen(s)); }

static void put_num(ue_buf *b, double v) {
    char t[32];
    size_t n = ue_format_float(v, t);
    if (n == 0) { /* validation rules out non-finite input; keep the line well-formed anyway */
        t[0] = '0';
        n = 1;
    }
    ue_buf_put_u8(b, ' ');
    ue_buf_put(b, t, n);
}

static void put_uint(ue_buf *b, uint64_t v) {
    char t[24];
    snprintf(t, sizeof t, "%llu", (unsigned long long)v);
    put_str(b, t);
}

/* OBJ and MTL statements split at whitespace (Unicode spaces too, for readers that use a
 * language's split()) and '#' starts a comment; controls and bytes that are not UTF-8 have no
 * business in a name either. Everything else, letters of every script included, is kept. */
static bool obj_name_char_ok(uint32_t cp) {
    if (cp <= 0x20 || cp == '#' || (cp >= 0x7F && cp <= 0xA0)) return false;
    return cp != 0x1680 && !(cp >= 0x2000 && cp <= 0x200A) && cp != 0x2028 && cp != 0x2029 &&
           cp != 0x202F && cp != 0x205F && cp != 0x3000 && cp != 0xFEFF;
}

/* Appends n bytes of name with every unsafe character as one '_'; returns the bytes written. */
static size_t put_safe(ue_buf *b, const char *name, size_t n) {
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = ue_utf8_decode(name + i, n - i, &cp);
        bool keep = len > 0 && obj_name_char_ok(cp);
        if (keep) ue_buf_put(b, name + i, len);
        else ue_buf_put_u8(b, '_');
        w += keep ? len : 1;
        i += len ? len : 1;
    }
    return w;
}

/* A name, or a generated one when the name is empty. */
static void put_name(ue_buf *b, const char *name, const char *fallback, size_t index) {
    if (put_safe(b, name, bounded_len(name, 64)) == 0) {
        put_str(b, fallback);
        put_uint(b, index);
    }
}

/* True when `name` reaches the file unchanged by put_safe (and so `mtllib` names the file the
 * caller writes). */
static bool survives_put_safe(const char *name) {
    size_t n = strlen(name);
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = ue_utf8_decode(name + i, n - i, &cp);
        if (len == 0 || !obj_name_char_ok(cp)) return false;
        i += len;
    }
    return n > 0;
}

void ue_obj_mtl_file_name(const char *obj_name, char *out, size_t cap) {
    if (!out || cap == 0) return;
    out[0] = 0;
    if (cap < 6) return; /* not even one byte of stem beside ".mtl" */
    size_t n = strlen(obj_name);
    const char *dot = strrchr(obj_name, '.');
    if (dot && dot != obj_name) n = (size_t)(dot - obj_name);
    ue_buf b = {0};
    if (put_safe(&b, obj_name, n) == 0) put_str(&b, "material");
    ue_buf_put_u8(&b, 0);
    if (!b.failed) {
        /* A long stem is cut between characters, leaving room for the extension. */
        size_t len = ue_utf8_copy((const char *)b.data, out, cap - 4);
        memcpy(out + len, ".mtl", 5);
    }
    ue_buf_free(&b);
}

void ue_obj_texture_file_name(const ue_scene *s, size_t index, char *out, size_t cap) {
    if (!out || cap == 0) return;
    char name[64] = "";
    if (index < s->texture_count) {
        ue_buf b = {0};
        put_safe(&b, s->textures[index].name, bounded_len(s->textures[index].name, 63));
        ue_buf_put_u8(&b, 0);
        /* The name becomes a file name too: no separators, and UTF-8 letters stay letters. */
        if (!b.failed) ue_file_name_component((const char *)b.data, name, sizeof name);
        ue_buf_free(&b);
    }
    snprintf(out, cap, name[0] ? "%zu_%s.png" : "%zu.png", index, name);
}

static void mtl_name(ue_buf *b, const ue_scene *s, int32_t m) {
    if (m < 0) {
        put_str(b, "unearth_default");
        return;
    }
    /* Index prefix: game materials often share names, and MTL names must be unique. */
    put_str(b, "m");
    put_uint(b, (uint64_t)m);
    put_str(b, "_");
    put_name(b, s->materials[m].name, "material", (size_t)m);
}

typedef struct counters {
    uint64_t v, vt, vn; /* elements written so far (OBJ indices are 1-based and global) */
} counters;

static ue_result write_node(const ue_scene *s, size_t ni, const float *joint_mats, ue_buf *b,
                            counters *cnt, bool with_mtl) {
    const ue_scene_node *n = &s->nodes[ni];
    const ue_scene_mesh *me = &s->meshes[n->mesh];
    float world[16];
    if (ue_scene_world_matrix(s, (int32_t)ni, world) != UE_OK) return UE_ERR_INVALID;
    bool flip = ue_mat4_det3(world) < 0;
    put_str(b, "o ");
    put_name(b, n->name, "node", ni);
    put_str(b, "\n");
    for (size_t p = 0; p < me->primitive_count; p++) {
        const ue_scene_primitive *pr = &me->primitives[p];
        put_str(b, "g ");
        put_name(b, n->name, "node", ni);
        put_str(b, "_");
        put_uint(b, p);
        put_str(b, "\n");
        if (with_mtl) {
            put_str(b, "usemtl ");
            mtl_name(b, s, pr->material);
            put_str(b, "\n");
        }
        for (size_t v = 0; v < pr->vertex_count; v++) {
            float m[16];
            if (joint_mats && pr->joints && pr->weights) {
                /* glTF ignores the skinned node's own transform: blend joint matrices only. */
                memset(m, 0, sizeof m);
                for (size_t k = 0; k < pr->influences; k++) {
                    float w = pr->weights[v * pr->influences + k];
                    if (w <= 0) continue;
                    const float *jm = joint_mats + (size_t)pr->joints[v * pr->influences + k] * 16;
                    for (int e = 0; e < 16; e++) m[e] += w * jm[e];
                }
            } else {
                memcpy(m, world, sizeof m);
            }
            double o[3];
            ue_mat4_transform_point(m, pr->positions + v * 3, o);
            put_str(b, "v");
            put_num(b, o[0]);
            put_num(b, o[1]);
            put_num(b, o[2]);
            put_str(b, "\n");
            if (pr->normals) {
                ue_mat4_transform_normal(m, pr->normals + v * 3, o);
                put_str(b, "vn");
                put_num(b, o[0]);
                put_num(b, o[1]);
                put_num(b, o[2]);
                put_str(b, "\n");
            }
            if (pr->uv[0]) {
                put_str(b, "vt");
                put_num(b, pr->uv[0][v * 2]);
                put_num(b, 1.0 - (double)pr->uv[0][v * 2 + 1]);
                put_str(b, "\n");
            }
        }
        size_t tris = pr->index_count ? pr->index_count / 3 : pr->vertex_count / 3;
        for (size_t t = 0; t < tris; t++) {
            uint32_t idx[3];
            for (int k = 0; k < 3; k++)
                idx[k] = pr->index_count ? pr->indices[t * 3 + (size_t)k] : (uint32_t)(t * 3 + (size_t)k);
            if (flip && !joint_mats) {
                uint32_t tmp = idx[1];
                idx[1] = idx[2];
                idx[2] = tmp;
            }
            put_str(b, "f");
            for (int k = 0; k < 3; k++) {
                ue_buf_put_u8(b, ' ');
                put_uint(b, cnt->v + idx[k] + 1);
                if (pr->uv[0] || pr->normals) put_str(b, "/");
                if (pr->uv[0]) put_uint(b, cnt->vt + idx[k] + 1);
                if (pr->normals) {
                    put_str(b, "/");
                    put_uint(b, cnt->vn + idx[k] + 1);
                }
            }
            put_str(b, "\n");
        }
        cnt->v += pr->vertex_count;
        if (pr->uv[0]) cnt->vt += pr->vertex_count;
        if (pr->normals) cnt->vn += pr->vertex_count;
    }
    return UE_OK;
}

static void write_mtl(const ue_scene *s, const ue_obj_options *o, ue_buf *b, bool need_default) {
    put_str(b, "# unearth MTL export\n");
    if (need_default) put_str(b, "\nnewmtl unearth_default\nKd 0.8 0.8 0.8\nd 1\nillum 1\n");
    for (size_t i = 0; i < s->material_count; i++) {
        const ue_scene_material *m = &s->materials[i];
        put_str(b, "\nnewmtl ");
        mtl_name(b, s, (int32_t)i);
        put_str(b, "\nKd");
        for (int k = 0; k < 3; k++) put_num(b, m->base_color[k]);
        put_str(b, "\nd");
        put_num(b, m->alpha_mode == UE_ALPHA_OPAQUE ? 1.0 : (double)m->base_color[3]);
        put_str(b, m->unlit ? "\nillum 0\n" : "\nillum 1\n");
        int32_t map_kd = ue_scene_material_texture(m, UE_TEX_BASE_COLOR);
        if (map_kd >= 0) {
            char file[96];
            ue_obj_texture_file_name(s, (size_t)map_kd, file, sizeof file);
            put_str(b, "map_Kd ");
            put_str(b, o && o->texture_dir ? o->texture_dir : "");
            put_str(b, o && o->texture_files && o->texture_files[map_kd] ? o->texture_files[map_kd] : file);
            put_str(b, "\n");
        }
    }
}

ue_result ue_obj_export(const ue_scene *s, const ue_obj_options *o, ue_buf *obj_out,
                        ue_buf *mtl_out, ue_diag *d) {
    if (!s || !obj_out) return UE_ERR_USAGE;
    ue_diag local = {0};
    ue_diag *vd = d ? d : &local;
    size_t before = ue_diag_count(vd, UE_SEV_ERROR);
    ue_result vr = ue_scene_validate(s, vd);
    bool refused = vr != UE_OK || ue_diag_count(vd, UE_SEV_ERROR) > before;
    ue_diag_free(&local);
    if (refused) return UE_ERR_INVALID;

    if (o && o->mtl_name && mtl_out && !survives_put_safe(o->mtl_name)) {
        ue_diag_add(d, UE_SEV_ERROR, "obj.mtl_name", UE_NO_OFFSET, "obj",
                    "MTL name \"%s\" cannot follow mtllib (whitespace, '#', control characters or "
                    "non-UTF-8 bytes); see ue_obj_mtl_file_name", o->mtl_name);
        return UE_ERR_USAGE;
    }
    for (size_t t = 0; o && o->texture_files && mtl_out && t < s->texture_count; t++) {
        if (!o->texture_files[t] || survives_put_safe(o->texture_files[t])) continue;
        ue_diag_add(d, UE_SEV_ERROR, "obj.texture_file", UE_NO_OFFSET, "obj",
                    "texture file name \"%s\" (texture %zu) cannot follow map_Kd (whitespace, '#', control "
                    "characters or non-UTF-8 bytes)", o->texture_files[t], t);
        return UE_ERR_USAGE;
    }
    ue_buf b = {0};
    put_str(&b, "# unearth OBJ export\n");
    if (o && o->mtl_name && mtl_out) {
        put_str(&b, "mtllib ");
        put_str(&b, o->mtl_name);
        put_str(&b, "\n");
    }
    counters cnt = {0, 0, 0};
    bool need_default = false;
    ue_result rc = UE_OK;
    for (size_t i = 0; i < s->node_count && rc == UE_OK; i++) {
        const ue_scene_node *n = &s->nodes[i];
        if (n->mesh < 0) continue;
        const ue_scene_mesh *me = &s->meshes[n->mesh];
        for (size_t p = 0; p < me->primitive_count; p++)
            if (me->primitives[p].material < 0) need_default = true;
        float *joint_mats = NULL;
        if (n->skin >= 0) {
            const ue_scene_skin *sk = &s->skins[n->skin];
            joint_mats = malloc(sk->joint_count * 16 * sizeof *joint_mats);
            if (!joint_mats) {
                rc = UE_ERR_NOMEM;
                break;
            }
            for (size_t j = 0; j < sk->joint_count && rc == UE_OK; j++) {
                float *jm = joint_mats + j * 16;
                rc = ue_scene_world_matrix(s, sk->joints[j], jm);
                if (sk->inverse_bind) ue_mat4_mul(jm, sk->inverse_bind + j * 16, jm);
            }
        }
        if (rc == UE_OK) rc = write_node(s, i, joint_mats, &b, &cnt, mtl_out != NULL);
        free(joint_mats);
    }
    ue_buf m = {0};
    if (rc == UE_OK && mtl_out) write_mtl(s, o, &m, need_default);
    if (rc == UE_OK && (b.failed || m.failed)) rc = UE_ERR_NOMEM;
    if (rc == UE_OK) {
        size_t o0 = obj_out->size, m0 = mtl_out ? mtl_out->size : 0;
        ue_buf_put(obj_out, b.data, b.size);
        if (mtl_out) ue_buf_put(mtl_out, m.data, m.size);
        if (obj_out->failed || (mtl_out && mtl_out->failed)) {
            if (obj_out->size > o0) obj_out->size = o0;
            if (mtl_out && mtl_out->size > m0) mtl_out->size = m0;
            rc = UE_ERR_NOMEM;
        }
    }
    if (rc != UE_OK)
        ue_diag_add(d, UE_SEV_ERROR, rc == UE_ERR_NOMEM ? "obj.nomem" : "obj.internal",
                    UE_NO_OFFSET, "obj", "OBJ export failed: %s", ue_result_name(rc));
    ue_buf_free(&b);
    ue_buf_free(&m);
    return rc;
}
