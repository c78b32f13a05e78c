/* unearth tests — the scene fixtures, written out value by value so the tests can recompute
 * every expected number (bounds, counts, transforms) independently of the exporter. */
#include <math.h>
#include <string.h>

#include "gltf_scenes.h"

static void set_source(ue_source_id *id, const char *fmt, uint32_t type, uint64_t off,
                       uint32_t index) {
    memset(id->format, 0, sizeof id->format);
    memcpy(id->format, fmt, strlen(fmt));
    id->type = type;
    id->offset = off;
    id->index = index;
}

/* Writes the 4 corners of one cube face: normal n, in-face axes u and v. */
static void face(ue_scene_primitive *p, uint32_t *vi, uint32_t *ii, const float n[3],
                 const float u[3], const float v[3], float h) {
    static const float corner[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
    uint32_t base = *vi;
    for (int c = 0; c < 4; c++) {
        for (int k = 0; k < 3; k++) {
            p->positions[*vi * 3 + (uint32_t)k] =
                h * (n[k] + corner[c][0] * u[k] + corner[c][1] * v[k]);
            p->normals[*vi * 3 + (uint32_t)k] = n[k];
        }
        p->uv0[*vi * 2] = (corner[c][0] + 1) * 0.5f;
        p->uv0[*vi * 2 + 1] = 1.0f - (corner[c][1] + 1) * 0.5f;
        if (p->colors)
            for (int k = 0; k < 4; k++) p->colors[*vi * 4 + (uint32_t)k] = k == 3 ? 1.0f : 0.1f * (float)(c + 1);
        (*vi)++;
    }
    static const uint32_t tri[6] = {0, 1, 2, 0, 2, 3};
    for (int t = 0; t < 6; t++) p->indices[(*ii)++] = base + tri[t];
}

void gs_textured_cube(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "cube_scene", 11);
    int32_t root = ue_scene_add_node(s, "root", -1);
    int32_t cube = ue_scene_add_node(s, "cube", root);
    s->nodes[root].translation[0] = 1;
    s->nodes[root].translation[1] = 2;
    s->nodes[root].translation[2] = 3;
    s->nodes[root].rotation[1] = 0.70710678f;
    s->nodes[root].rotation[3] = 0.70710678f;
    set_source(&s->nodes[root].source, "msh", 1, 0x40, 0);
    s->nodes[cube].translation[1] = 0.5f;
    s->nodes[cube].scale[0] = s->nodes[cube].scale[1] = s->nodes[cube].scale[2] = 2;
    set_source(&s->nodes[cube].source, "msh", 1, 0x80, 1);

    int32_t tex = ue_scene_add_texture(s, "checker", 4, 4);
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            uint8_t *px = s->textures[tex].rgba + (y * 4 + x) * 4;
            bool on = ((x ^ y) & 1) != 0;
            px[0] = on ? 255 : 20;
            px[1] = (uint8_t)(x * 60);
            px[2] = (uint8_t)(y * 60);
            px[3] = on ? 255 : 128;
        }
    set_source(&s->textures[tex].source, "texm", 0x6D786554, UINT64_MAX, 7);
    s->textures[tex].wrap_t = UE_WRAP_CLAMP;

    int32_t m0 = ue_scene_add_material(s, "painted \"metal\"");
    s->materials[m0].base_color_texture = tex;
    s->materials[m0].base_color[0] = 0.8f;
    s->materials[m0].metallic = 0.25f;
    s->materials[m0].roughness = 0.75f;
    s->materials[m0].uv_transform = true;
    s->materials[m0].uv_offset[0] = 0.5f;
    s->materials[m0].uv_scale[1] = 2.0f;
    set_source(&s->materials[m0].source, "msh", 4, 0x100, 0);
    int32_t m1 = ue_scene_add_material(s, "glow");
    s->materials[m1].unlit = true;
    s->materials[m1].alpha_mode = UE_ALPHA_MASK;
    s->materials[m1].alpha_cutoff = 0.3f;
    s->materials[m1].double_sided = true;

    int32_t mesh = ue_scene_add_mesh(s, "cube_mesh");
    set_source(&s->meshes[mesh].source, "msh", 2, 0x200, 0);
    s->nodes[cube].mesh = mesh;
    static const float axes[6][3][3] = {
        {{1, 0, 0}, {0, 0, -1}, {0, 1, 0}}, {{-1, 0, 0}, {0, 0, 1}, {0, 1, 0}},
        {{0, 1, 0}, {1, 0, 0}, {0, 0, -1}}, {{0, -1, 0}, {1, 0, 0}, {0, 0, 1}},
        {{0, 0, 1}, {1, 0, 0}, {0, 1, 0}},  {{0, 0, -1}, {-1, 0, 0}, {0, 1, 0}},
    };
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 20, 30, UE_ATTR_NORMAL | UE_ATTR_UV0 | UE_ATTR_COLOR);
    p->material = m0;
    set_source(&p->source, "msh", 2, 0x210, 0);
    uint32_t vi = 0, ii = 0;
    for (int f = 0; f < 5; f++) face(p, &vi, &ii, axes[f][0], axes[f][1], axes[f][2], 0.3f);
    p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 4, 6, UE_ATTR_NORMAL | UE_ATTR_UV0);
    p->material = m1;
    vi = ii = 0;
    face(p, &vi, &ii, axes[5][0], axes[5][1], axes[5][2], 0.3f);
}

void gs_skinned(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "skinned", 8);
    int32_t meshnode = ue_scene_add_node(s, "skinned_mesh", -1);
    int32_t arm = ue_scene_add_node(s, "armature", -1);
    int32_t b0 = ue_scene_add_node(s, "bone0", arm);
    int32_t b1 = ue_scene_add_node(s, "bone1", b0);
    s->nodes[b1].translation[1] = 1.0f;
    set_source(&s->nodes[b0].source, "hsd", 0x4A4F626A, 0x1234, 0);

    int32_t mesh = ue_scene_add_mesh(s, "column");
    s->nodes[meshnode].mesh = mesh;
    int32_t skin = ue_scene_add_skin(s, "skin", 2);
    s->nodes[meshnode].skin = skin;
    s->skins[skin].joints[0] = b0;
    s->skins[skin].joints[1] = b1;
    s->skins[skin].skeleton = arm;
    s->skins[skin].inverse_bind[16 + 13] = -1.0f; /* bone1 sits at y = 1 */

    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 6, 12, UE_ATTR_NORMAL | UE_ATTR_SKIN);
    for (uint32_t r = 0; r < 3; r++)
        for (uint32_t c = 0; c < 2; c++) {
            uint32_t v = r * 2 + c;
            p->positions[v * 3] = c ? 0.25f : -0.25f;
            p->positions[v * 3 + 1] = (float)r;
            p->normals[v * 3 + 2] = 1.0f;
            if (r == 0) {
                p->joints[v * 4] = 0;
                p->weights[v * 4] = 1.0f;
            } else if (r == 1) {
                p->joints[v * 4] = 0;
                p->joints[v * 4 + 1] = 1;
                p->weights[v * 4] = 0.3f;     /* 0.3f + 0.7f is not exactly 1 in float32 */
                p->weights[v * 4 + 1] = 0.7f;
            } else {
                p->joints[v * 4] = 1;
                p->joints[v * 4 + 2] = 1;     /* zero weight: exporter must write joint 0 */
                p->weights[v * 4] = 1.0f;
            }
        }
    static const uint32_t idx[12] = {0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4};
    memcpy(p->indices, idx, sizeof idx);

    int32_t an = ue_scene_add_animation(s, "Animation_0");
    ue_anim_channel *rot = ue_scene_add_channel(s, an, UE_PATH_ROTATION, UE_INTERP_LINEAR, 3, 4);
    rot->node = b1;
    static const float t3[3] = {0.0f, 0.5f, 1.25f};
    memcpy(rot->times, t3, sizeof t3);
    static const float q[12] = {0, 0, 0, 2, 0, 0, 1, 1, 0, 0, 0.5f, 0};
    memcpy(rot->values, q, sizeof q);
    ue_anim_channel *tr = ue_scene_add_channel(s, an, UE_PATH_TRANSLATION, UE_INTERP_STEP, 3, 3);
    tr->node = b0;
    memcpy(tr->times, t3, sizeof t3);
    static const float tv[9] = {0, 0, 0, 0.1f, 0, 0, 0.2f, 0, 0};
    memcpy(tr->values, tv, sizeof tv);
    ue_anim_channel *sc = ue_scene_add_channel(s, an, UE_PATH_SCALE, UE_INTERP_CUBIC, 2, 3);
    sc->node = arm;
    sc->times[0] = 0.0f;
    sc->times[1] = 2.0f;
    static const float sv[18] = {0, 0, 0, 1, 1, 1, 0.5f, 0.5f, 0.5f,
                                 0, 0, 0, 2, 2, 2, 0, 0, 0};
    memcpy(sc->values, sv, sizeof sv);
    /* Cubic-spline rotation: only the middle (value) element of each key is a quaternion. */
    ue_anim_channel *cr = ue_scene_add_channel(s, an, UE_PATH_ROTATION, UE_INTERP_CUBIC, 2, 4);
    cr->node = b0;
    cr->times[0] = 0.0f;
    cr->times[1] = 2.0f;
    static const float cv[24] = {0, 0, 0.2f, 0, 0, 0, 0, 3, 0, 0, 0.2f, 0,
                                 0, 0, -0.1f, 0, 0, 0, 1, 1, 0, 0, 0, 0};
    memcpy(cr->values, cv, sizeof cv);
}

void gs_pointer(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "pointer", 8);
    int32_t n = ue_scene_add_node(s, "quad", -1);
    int32_t tex = ue_scene_add_texture(s, "atlas", 2, 2);
    memset(s->textures[tex].rgba, 200, 16);
    s->textures[tex].nearest = true;
    int32_t m = ue_scene_add_material(s, "eyes");
    s->materials[m].base_color_texture = tex;
    s->materials[m].uv_transform = true;
    s->materials[m].uv_scale[0] = 0.5f;
    int32_t mesh = ue_scene_add_mesh(s, "quad");
    s->nodes[n].mesh = mesh;
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 4, 6, UE_ATTR_UV0);
    static const float pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(p->positions, pos, sizeof pos);
    memcpy(p->uv0, uv, sizeof uv);
    memcpy(p->indices, idx, sizeof idx);
    p->material = m;

    int32_t an = ue_scene_add_animation(s, "uv_scroll");
    ue_anim_channel *off = ue_scene_add_channel(s, an, UE_PATH_POINTER, UE_INTERP_STEP, 2, 2);
    strcpy(off->pointer,
           "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset");
    off->times[1] = 0.5f;
    off->values[2] = 0.5f;
    ue_anim_channel *col = ue_scene_add_channel(s, an, UE_PATH_POINTER, UE_INTERP_LINEAR, 2, 4);
    strcpy(col->pointer, "/materials/0/pbrMetallicRoughness/baseColorFactor");
    col->times[1] = 1.0f;
    for (int k = 0; k < 8; k++) col->values[k] = k < 4 ? 1.0f : 0.5f;
    ue_anim_channel *rot = ue_scene_add_channel(s, an, UE_PATH_POINTER, UE_INTERP_LINEAR, 2, 4);
    strcpy(rot->pointer, "/nodes/0/rotation");
    rot->times[1] = 1.0f;
    rot->values[3] = 1.0f;
    rot->values[6] = 3.0f; /* (0,0,3,4) → normalised (0,0,0.6,0.8) */
    rot->values[7] = 4.0f;
}

void gs_misc(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "misc", 5);
    int32_t a = ue_scene_add_node(s, "\xd1\x83\xd0\xb7\xd0\xb5\xd0\xbb", -1); /* "узел" */
    ue_scene_add_node(s, "", a);
    int32_t c = ue_scene_add_node(s, "bad\xc0name", -1);
    s->nodes[c].translation[0] = -2;
    int32_t mesh = ue_scene_add_mesh(s, "tri");
    s->nodes[a].mesh = mesh;
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 3, 0, UE_ATTR_COLOR | UE_ATTR_NORMAL);
    static const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    memcpy(p->positions, pos, sizeof pos);
    for (int v = 0; v < 3; v++) {
        p->normals[v * 3 + 2] = 2.0f; /* not unit: the exporter normalises */
        p->colors[v * 4 + v] = 1.0f;
        p->colors[v * 4 + 3] = 1.0f;
    }
}

void gs_empty(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "empty", 6);
}

void gs_big(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "big", 4);
    int32_t n = ue_scene_add_node(s, "grid", -1);
    int32_t mesh = ue_scene_add_mesh(s, "grid");
    s->nodes[n].mesh = mesh;
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    const uint32_t W = 256, H = 257;
    ue_scene_primitive_alloc(p, W * H, (W - 1) * (H - 1) * 6, 0);
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            p->positions[(y * W + x) * 3] = (float)x * 0.01f;
            p->positions[(y * W + x) * 3 + 2] = (float)y * -0.01f;
        }
    uint32_t k = 0;
    for (uint32_t y = 0; y + 1 < H; y++)
        for (uint32_t x = 0; x + 1 < W; x++) {
            uint32_t a = y * W + x, b = a + 1, c = a + W, d = c + 1;
            uint32_t t[6] = {a, c, b, b, c, d};
            for (int i = 0; i < 6; i++) p->indices[k++] = t[i];
        }
}
