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
        p->uv[0][*vi * 2] = (corner[c][0] + 1) * 0.5f;
        p->uv[0][*vi * 2 + 1] = 1.0f - (corner[c][1] + 1) * 0.5f;
        if (p->colors[0])
            for (int k = 0; k < 4; k++) p->colors[0][*vi * 4 + (uint32_t)k] = k == 3 ? 1.0f : 0.1f * (float)(c + 1);
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
    int32_t slot = ue_scene_add_texture_slot(s, m0, UE_TEX_BASE_COLOR, tex, 0);
    s->materials[m0].base_color[0] = 0.8f;
    s->materials[m0].metallic = 0.25f;
    s->materials[m0].roughness = 0.75f;
    s->materials[m0].slots[slot].transform.enabled = true;
    s->materials[m0].slots[slot].transform.offset[0] = 0.5f;
    s->materials[m0].slots[slot].transform.scale[1] = 2.0f;
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
    ue_anim_channel *rot = ue_scene_add_channel(s, an, UE_TARGET_ROTATION, UE_INTERP_LINEAR, 3);
    rot->node = b1;
    static const float t3[3] = {0.0f, 0.5f, 1.25f};
    memcpy(rot->times, t3, sizeof t3);
    static const float q[12] = {0, 0, 0, 2, 0, 0, 1, 1, 0, 0, 0.5f, 0};
    memcpy(rot->values, q, sizeof q);
    ue_anim_channel *tr = ue_scene_add_channel(s, an, UE_TARGET_TRANSLATION, UE_INTERP_STEP, 3);
    tr->node = b0;
    memcpy(tr->times, t3, sizeof t3);
    static const float tv[9] = {0, 0, 0, 0.1f, 0, 0, 0.2f, 0, 0};
    memcpy(tr->values, tv, sizeof tv);
    ue_anim_channel *sc = ue_scene_add_channel(s, an, UE_TARGET_SCALE, UE_INTERP_CUBIC, 2);
    sc->node = arm;
    sc->times[0] = 0.0f;
    sc->times[1] = 2.0f;
    static const float sv[18] = {0, 0, 0, 1, 1, 1, 0.5f, 0.5f, 0.5f,
                                 0, 0, 0, 2, 2, 2, 0, 0, 0};
    memcpy(sc->values, sv, sizeof sv);
    /* Cubic-spline rotation: only the middle (value) element of each key is a quaternion. */
    ue_anim_channel *cr = ue_scene_add_channel(s, an, UE_TARGET_ROTATION, UE_INTERP_CUBIC, 2);
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
    int32_t slot = ue_scene_add_texture_slot(s, m, UE_TEX_BASE_COLOR, tex, 0);
    s->materials[m].slots[slot].transform.enabled = true;
    s->materials[m].slots[slot].transform.scale[0] = 0.5f;
    int32_t mesh = ue_scene_add_mesh(s, "quad");
    s->nodes[n].mesh = mesh;
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 4, 6, UE_ATTR_UV0);
    static const float pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const float uv[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(p->positions, pos, sizeof pos);
    memcpy(p->uv[0], uv, sizeof uv);
    memcpy(p->indices, idx, sizeof idx);
    p->material = m;

    int32_t an = ue_scene_add_animation(s, "uv_scroll");
    ue_anim_channel *off = ue_scene_add_channel(s, an, UE_TARGET_UV_OFFSET, UE_INTERP_STEP, 2);
    off->material = m;
    off->slot = slot;
    off->times[1] = 0.5f;
    off->values[2] = 0.5f;
    ue_anim_channel *col = ue_scene_add_channel(s, an, UE_TARGET_BASE_COLOR, UE_INTERP_LINEAR, 2);
    col->material = m;
    col->times[1] = 1.0f;
    for (int k = 0; k < 8; k++) col->values[k] = k < 4 ? 1.0f : 0.5f;
    ue_anim_channel *rot = ue_scene_add_channel(s, an, UE_TARGET_ROTATION, UE_INTERP_LINEAR, 2);
    rot->node = n;
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
        p->colors[0][v * 4 + v] = 1.0f;
        p->colors[0][v * 4 + 3] = 1.0f;
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

/* A quad with two UV and two colour sets whose material fills five glTF texture roles. */
static void layered_quad(ue_scene *s, int32_t mesh, int32_t material, int32_t plain) {
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 4, 6, UE_ATTR_NORMAL | UE_ATTR_TANGENT | UE_ATTR_UV1 | UE_ATTR_COLOR1);
    static const float pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const float uv0[8] = {0, 1, 1, 1, 1, 0, 0, 0};
    static const float uv1[8] = {0, 0, 2, 0, 2, 2, 0, 2};
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(p->positions, pos, sizeof pos);
    memcpy(p->uv[0], uv0, sizeof uv0);
    memcpy(p->uv[1], uv1, sizeof uv1);
    memcpy(p->indices, idx, sizeof idx);
    for (uint32_t v = 0; v < 4; v++) {
        p->normals[v * 3 + 2] = 1.0f;
        p->tangents[v * 4] = 1.0f;
        p->tangents[v * 4 + 3] = -1.0f;
        for (uint32_t k = 0; k < 4; k++) {
            p->colors[0][v * 4 + k] = k == 3 ? 1.0f : 0.25f * (float)v;
            p->colors[1][v * 4 + k] = k == 3 ? 0.5f : 1.0f - 0.25f * (float)v;
        }
    }
    p->material = material;
    p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 3, 0, 0);
    memcpy(p->positions, pos, 9 * sizeof(float));
    p->material = plain;
}

/* Eight joints under "rig" and a quad whose vertices each have 8 influences. */
static void eight_influence_blob(ue_scene *s) {
    int32_t blob = ue_scene_add_node(s, "blob", -1);
    int32_t rig = ue_scene_add_node(s, "rig", -1);
    int32_t skin = ue_scene_add_skin(s, "rig_skin", 8);
    for (int j = 0; j < 8; j++) {
        char name[8] = "j0";
        name[1] = (char)('0' + j);
        int32_t n = ue_scene_add_node(s, name, rig);
        s->nodes[n].translation[0] = 0.1f * (float)j;
        s->skins[skin].joints[j] = n;
        s->skins[skin].inverse_bind[j * 16 + 12] = -0.1f * (float)j;
    }
    s->skins[skin].skeleton = rig;
    int32_t mesh = ue_scene_add_mesh(s, "blob");
    s->nodes[blob].mesh = mesh;
    s->nodes[blob].skin = skin;
    ue_scene_primitive *p = ue_scene_add_primitive(s, mesh);
    ue_scene_primitive_alloc(p, 4, 6, UE_ATTR_SKIN8);
    static const float pos[12] = {0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0};
    static const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(p->positions, pos, sizeof pos);
    memcpy(p->indices, idx, sizeof idx);
    for (uint32_t v = 0; v < 4; v++)
        for (uint32_t k = 0; k < 8; k++) {
            p->joints[v * 8 + k] = (uint16_t)((k + v) % 8);
            p->weights[v * 8 + k] = GS_EIGHT_WEIGHTS[k];
        }
}

const float GS_EIGHT_WEIGHTS[8] = {0.05f, 0.1f, 0.3f, 0.05f, 0.2f, 0.1f, 0.15f, 0.05f};

void gs_layers(ue_scene *s) {
    ue_scene_init(s);
    memcpy(s->name, "layers", 7);
    int32_t quad = ue_scene_add_node(s, "layered", -1);
    int32_t lamp = ue_scene_add_node(s, "lamp", quad);
    s->nodes[lamp].hidden = true;
    ue_extras_set_number(&s->nodes[quad].extras, "engine_flags", 5);
    ue_extras_set_string(&s->nodes[quad].extras, "original_name", "\xd0\xb3\xd0\xbe\xd0\xbb\xd0\xbe\xd0\xb2\xd0\xb0");
    int32_t t0 = ue_scene_add_texture(s, "albedo", 2, 2);
    int32_t t1 = ue_scene_add_texture(s, "detail", 2, 2);
    memset(s->textures[t0].rgba, 180, 16);
    memset(s->textures[t1].rgba, 90, 16);
    int32_t m0 = ue_scene_add_material(s, "layers");
    ue_scene_material *m = &s->materials[m0];
    ue_scene_add_texture_slot(s, m0, UE_TEX_BASE_COLOR, t0, 0);
    int32_t nrm = ue_scene_add_texture_slot(s, m0, UE_TEX_NORMAL, t1, 1);
    ue_scene_add_texture_slot(s, m0, UE_TEX_EMISSIVE, t0, 0);
    int32_t occ = ue_scene_add_texture_slot(s, m0, UE_TEX_OCCLUSION, t1, 1);
    ue_scene_add_texture_slot(s, m0, UE_TEX_METALLIC_ROUGHNESS, t1, 0);
    m->slots[nrm].strength = 0.5f;
    m->slots[nrm].transform.enabled = true;
    m->slots[nrm].transform.rotation = 0.25f;
    m->slots[occ].strength = 0.75f;
    m->emissive[0] = 1.0f;
    m->emissive[1] = 0.5f;
    ue_extras_set_number(&m->extras, "wear_row", 3);
    ue_extras_set_string(&m->extras, "shader", "chrome");
    int32_t m1 = ue_scene_add_material(s, "fade");
    s->materials[m1].alpha_mode = UE_ALPHA_BLEND;
    int32_t mesh = ue_scene_add_mesh(s, "layered");
    ue_extras_set_number(&s->meshes[mesh].extras, "lod_distance", 12.5);
    s->nodes[quad].mesh = mesh;
    layered_quad(s, mesh, m0, m1);
    eight_influence_blob(s);

    int32_t an = ue_scene_add_animation(s, "clip");
    ue_scene_animation *clip = &s->animations[an];
    clip->fps = 30;
    clip->start_frame = 0;
    clip->end_frame = 45;
    clip->loop = true;
    set_source(&clip->source, "hsd", 0x414E4A, 0x2000, 1);
    ue_extras_set_number(&clip->extras, "flags", 2);
    ue_anim_channel *vis = ue_scene_add_channel(s, an, UE_TARGET_VISIBILITY, UE_INTERP_STEP, 3);
    vis->node = lamp;
    vis->times[1] = 0.5f;
    vis->times[2] = 1.0f;
    vis->values[1] = 1.0f;
    set_source(&vis->source, "hsd", 0x56495342, 0x2040, 0);
    ue_anim_channel *col = ue_scene_add_channel(s, an, UE_TARGET_BASE_COLOR, UE_INTERP_LINEAR, 2);
    col->material = m0;
    col->times[1] = 1.0f;
    for (int k = 0; k < 8; k++) col->values[k] = k < 4 ? 1.0f : 0.25f;
    ue_anim_channel *alpha = ue_scene_add_channel(s, an, UE_TARGET_ALPHA, UE_INTERP_LINEAR, 2);
    alpha->material = m0;
    alpha->times[1] = 1.0f;
    alpha->values[0] = 0.5f;
    alpha->values[1] = 1.0f;
    ue_anim_channel *fade = ue_scene_add_channel(s, an, UE_TARGET_ALPHA, UE_INTERP_STEP, 2);
    fade->material = m1;
    fade->times[1] = 0.5f;
    fade->values[0] = 1.0f;
    fade->values[1] = 0.0f;
    ue_anim_channel *rot = ue_scene_add_channel(s, an, UE_TARGET_UV_ROTATION, UE_INTERP_LINEAR, 2);
    rot->material = m0;
    rot->slot = nrm;
    rot->times[1] = 1.0f;
    rot->values[1] = 1.5f;
}
