/* Tests of the export layer: scene IR helpers and validation, the JSON emitter, the PNG
 * encoder, glTF (.glb and .gltf + .bin, parsed back with the project's JSON reader), pointer checks and OBJ. */
#include <locale.h>
#include <math.h>
#include <zlib.h>

#include "gltf_scenes.h"
#include "test.h"
#include "common/json_doc.h"
#include "unearth/gltf.h"
#include "unearth/image.h"
#include "common/json_writer.h"
#include "unearth/obj.h"
#include "common/bytes.h"

/* ---- helpers ------------------------------------------------------------------------------ */

static bool memmem_ok(const char *hay, size_t n, const char *needle) {
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0) return true;
    return false;
}

static float rd_f32(const uint8_t *p) {
    uint32_t u = ue_load_u32le(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* A parsed .glb: the JSON document (root in doc) and a pointer into the BIN chunk. */
typedef struct glb {
    ue_jdoc doc;
    const ue_jv *root;
    const uint8_t *bin;
    size_t bin_len;
} glb;

static bool parse_glb(const ue_buf *b, glb *g) {
    memset(g, 0, sizeof *g);
    if (b->size < 20 || memcmp(b->data, "glTF", 4) != 0) return false;
    if (ue_load_u32le(b->data + 4) != 2 || ue_load_u32le(b->data + 8) != b->size) return false;
    uint32_t jlen = ue_load_u32le(b->data + 12);
    if (memcmp(b->data + 16, "JSON", 4) != 0 || jlen % 4 != 0 || 20 + (size_t)jlen > b->size)
        return false;
    ue_jdoc_error err;
    if (ue_jdoc_parse((const char *)b->data + 20, jlen, &g->doc, &err) != UE_OK) {
        fprintf(stderr, "JSON parse error: %s (line %zu)\n", err.text, err.line);
        ue_jdoc_free(&g->doc);
        return false;
    }
    g->root = &g->doc.root;
    size_t off = 20 + (size_t)jlen;
    if (off == b->size) return true;
    if (off + 8 > b->size) return false;
    uint32_t blen = ue_load_u32le(b->data + off);
    if (memcmp(b->data + off + 4, "BIN\0", 4) != 0 || blen % 4 != 0 || off + 8 + blen != b->size)
        return false;
    g->bin = b->data + off + 8;
    g->bin_len = blen;
    return true;
}

static const ue_jv *at(const ue_jv *root, const char *arr, size_t i) {
    return ue_jv_at(ue_jv_get(root, arr), i);
}
static long long geti(const ue_jv *obj, const char *key) {
    return ue_jv_integer(ue_jv_get(obj, key));
}
static double getf(const ue_jv *arr, size_t i) { return ue_jv_number(ue_jv_at(arr, i)); }

/* Pointer to accessor `ai`'s first byte in `bin`, after checking it lies inside its view. */
static const uint8_t *accessor_data(const ue_jv *root, const uint8_t *bin, size_t bin_len, long long ai,
                                    size_t elem_size) {
    const ue_jv *a = at(root, "accessors", (size_t)ai);
    const ue_jv *v = at(root, "bufferViews", (size_t)geti(a, "bufferView"));
    size_t off = (size_t)geti(v, "byteOffset"), len = (size_t)geti(v, "byteLength");
    size_t count = (size_t)geti(a, "count");
    if (!a || !v || off + len > bin_len || count * elem_size > len) return NULL;
    return bin + off;
}

/* Structural checks every export must pass: views 4-aligned and inside the buffer, byteStride
 * only on vertex views, buffer length equal to the binary we got. */
static void check_layout(const ue_jv *root, size_t bin_len) {
    const ue_jv *views = ue_jv_get(root, "bufferViews");
    size_t i;
    const ue_jv *v;
    CHECK_EQ_U(geti(at(root, "buffers", 0), "byteLength"), bin_len);
    for (i = 0; (v = ue_jv_at(views, i)) != NULL; i++) {
        long long off = geti(v, "byteOffset"), len = geti(v, "byteLength");
        CHECK_EQ_U(off % 4, 0);
        CHECK((size_t)(off + len) <= bin_len);
        if (ue_jv_get(v, "byteStride")) CHECK_EQ_U(geti(v, "target"), 34962);
    }
    const ue_jv *a;
    for (i = 0; (a = ue_jv_at(ue_jv_get(root, "accessors"), i)) != NULL; i++) {
        CHECK(geti(a, "bufferView") < (long long)ue_jv_items(views));
        CHECK(geti(a, "count") > 0);
    }
}

/* ---- JSON emitter ------------------------------------------------------------------------- */

static void json_escapes_and_numbers(void) {
    ue_buf b = {0};
    ue_json j;
    ue_json_init(&j, &b, 0);
    ue_json_object_begin(&j);
    ue_json_key(&j, "s");
    ue_json_string_n(&j, "a\"b\\c\n\t\x01\x7f\xc3\xa9\xff\xe2\x82\0", 15);
    ue_json_key(&j, "n");
    ue_json_array_begin(&j);
    ue_json_float(&j, 0.1f);
    ue_json_float(&j, -0.0);
    ue_json_float(&j, 1e20);
    ue_json_int(&j, INT64_MIN);
    ue_json_uint(&j, 9007199254740993ULL);
    ue_json_bool(&j, true);
    ue_json_null(&j);
    ue_json_array_end(&j);
    ue_json_object_end(&j);
    CHECK_EQ_U(ue_json_finish(&j, NULL), UE_OK);
    const char *want = "{\"s\":\"a\\\"b\\\\c\\n\\t\\u0001\\u007f\xc3\xa9\\u00ff\\u00e2\\u0082\\u0000\","
                       "\"n\":[0.100000001,0,1e+20,-9223372036854775808,9007199254740993,true,null]}";
    CHECK_EQ_U(b.size, strlen(want));
    CHECK(b.size == strlen(want) && memcmp(b.data, want, b.size) == 0);
    /* The reader takes the numbers back (the string holds \u0000, which it refuses by design). */
    const char *numbers = strstr((const char *)b.data, "[0.1");
    ue_jdoc doc;
    ue_jdoc_error err;
    REQUIRE(numbers && ue_jdoc_parse(numbers, b.size - (size_t)(numbers - (const char *)b.data) - 1, &doc, &err) == UE_OK);
    CHECK((float)getf(&doc.root, 0) == 0.1f);
    CHECK(ue_jv_integer(ue_jv_at(&doc.root, 4)) == 9007199254740993LL);
    ue_jdoc_free(&doc);
    ue_buf_free(&b);
}

static void json_refuses_misuse(void) {
    ue_buf b = {0};
    ue_json j;
    ue_diag d = {0};
    ue_json_init(&j, &b, 0);
    ue_json_array_begin(&j);
    ue_json_float(&j, NAN);
    ue_json_array_end(&j);
    CHECK_EQ_U(ue_json_finish(&j, &d), UE_ERR_USAGE);
    CHECK(diag_has(&d, "json.usage", NULL));
    ue_diag_free(&d);
    b.size = 0;
    ue_json_init(&j, &b, 0);
    ue_json_object_begin(&j);
    ue_json_int(&j, 1); /* value without a key */
    ue_json_object_end(&j);
    CHECK_EQ_U(ue_json_finish(&j, NULL), UE_ERR_USAGE);
    b.size = 0;
    ue_json_init(&j, &b, 0);
    ue_json_array_begin(&j);
    CHECK_EQ_U(ue_json_finish(&j, NULL), UE_ERR_USAGE); /* unclosed */
    ue_buf_free(&b);
}

static void json_pretty_and_locale(void) {
    /* A locale with a decimal comma must not leak into the output (if the machine has one). */
    const char *loc = setlocale(LC_NUMERIC, "de_DE.UTF-8");
    ue_buf b = {0};
    ue_json j;
    ue_json_init(&j, &b, 2);
    ue_json_object_begin(&j);
    ue_json_key(&j, "v");
    ue_json_array_begin(&j);
    ue_json_float(&j, 1.5);
    ue_json_float(&j, 2.25);
    ue_json_array_end(&j);
    ue_json_key(&j, "o");
    ue_json_array_begin(&j);
    ue_json_object_begin(&j);
    ue_json_object_end(&j);
    ue_json_array_end(&j);
    ue_json_object_end(&j);
    CHECK_EQ_U(ue_json_finish(&j, NULL), UE_OK);
    const char *want = "{\n  \"v\": [1.5, 2.25],\n  \"o\": [\n    {}\n  ]\n}";
    CHECK(b.size == strlen(want) && memcmp(b.data, want, b.size) == 0);
    if (b.size != strlen(want)) fprintf(stderr, "got: %.*s\n", (int)b.size, (const char *)b.data);
    if (loc) setlocale(LC_NUMERIC, "C");
    ue_buf_free(&b);
}

/* ---- scene IR ------------------------------------------------------------------------------ */

static void scene_helpers_defaults(void) {
    ue_scene s;
    ue_scene_init(&s);
    int32_t a = ue_scene_add_node(&s, "a", -1);
    int32_t b = ue_scene_add_node(&s, "b", a);
    CHECK_EQ_U(a, 0);
    CHECK_EQ_U(b, 1);
    CHECK(s.nodes[1].parent == 0 && s.nodes[1].mesh == -1 && s.nodes[1].skin == -1);
    CHECK(s.nodes[1].rotation[3] == 1.0f && s.nodes[1].scale[2] == 1.0f);
    int32_t m = ue_scene_add_material(&s, "m");
    CHECK(s.materials[m].slot_count == 0 && s.materials[m].base_color[3] == 1.0f);
    CHECK(ue_scene_material_texture(&s.materials[m], UE_TEX_BASE_COLOR) == -1);
    CHECK(s.materials[m].emissive[0] == 0.0f && s.materials[m].metallic == 0.0f);
    int32_t sl = ue_scene_add_texture_slot(&s, m, UE_TEX_NORMAL, 7, 1);
    CHECK_EQ_U(sl, 0);
    CHECK(s.materials[m].slots[0].transform.scale[0] == 1.0f && !s.materials[m].slots[0].transform.enabled);
    CHECK(s.materials[m].slots[0].strength == 1.0f && s.materials[m].slots[0].uv_set == 1);
    CHECK(ue_scene_material_texture(&s.materials[m], UE_TEX_NORMAL) == 7);
    for (int i = 1; i < UE_MAX_TEXTURE_SLOTS; i++)
        CHECK(ue_scene_add_texture_slot(&s, m, UE_TEX_OTHER, 0, 0) == i);
    CHECK(ue_scene_add_texture_slot(&s, m, UE_TEX_OTHER, 0, 0) == -1); /* full */
    CHECK(ue_scene_add_texture_slot(&s, 9, UE_TEX_OTHER, 0, 0) == -1);
    s.materials[m].slot_count = 0;
    CHECK_EQ_U(ue_anim_target_components(UE_TARGET_ALPHA), 1);
    CHECK_EQ_U(ue_anim_target_components(UE_TARGET_BASE_COLOR), 4);
    CHECK_EQ_U(ue_anim_target_components(UE_TARGET_UV_OFFSET), 2);
    CHECK_EQ_U(ue_anim_target_components((ue_anim_target)99), 0);
    CHECK(ue_scene_add_texture(&s, "t", 0, 4) == -1);
    CHECK(ue_scene_add_primitive(&s, 3) == NULL);
    int32_t k = ue_scene_add_skin(&s, "k", 2);
    CHECK(s.skins[k].inverse_bind[16 + 15] == 1.0f && s.skins[k].inverse_bind[16 + 1] == 0);
    s.skins[k].joints[1] = 1;
    CHECK_EQ_U(ue_scene_validate(&s, NULL), UE_OK);
    float w[16];
    s.nodes[0].translation[0] = 1;
    s.nodes[1].translation[1] = 2;
    CHECK_EQ_U(ue_scene_world_matrix(&s, 1, w), UE_OK);
    CHECK(w[12] == 1 && w[13] == 2 && w[14] == 0 && w[15] == 1);
    ue_scene_free(&s);
    CHECK(s.nodes == NULL && s.node_count == 0);
}

static void scene_validate_finds_errors(void) {
    ue_scene s;
    ue_diag d = {0};
    gs_textured_cube(&s);
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_OK);
    CHECK_EQ_U(d.count, 0);
    if (d.count) dump_diag(&d);

    s.meshes[0].primitives[0].indices[15] = 99;
    s.meshes[0].primitives[1].positions[4] = NAN;
    s.nodes[0].parent = 1; /* 0 → 1 → 0 */
    s.materials[0].slots[0].texture = 5;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.index", "scene/meshes[0]/primitives[0]/indices[15]"));
    CHECK(diag_has(&d, "scene.value.nonfinite", "scene/meshes[0]/primitives[1]/positions[4]"));
    CHECK(diag_has(&d, "scene.node.cycle", NULL));
    CHECK(diag_has(&d, "scene.material.texture", "scene/materials[0]/slots[0]"));
    ue_diag_free(&d);
    ue_scene_free(&s);

    gs_textured_cube(&s);
    s.meshes[0].primitives[0].index_count = 29;
    s.nodes[1].parent = 1;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.prim.indices", "scene/meshes[0]/primitives[0]/index_count"));
    CHECK(diag_has(&d, "scene.node.cycle", "scene/nodes[1]/parent"));
    ue_diag_free(&d);
    ue_scene_free(&s);

    gs_skinned(&s);
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_OK);
    CHECK_EQ_U(d.count, 0);
    if (d.count) dump_diag(&d);
    s.animations[0].channels[0].times[2] = 0.5f;  /* equal to the previous key */
    s.meshes[0].primitives[0].weights[3 * 4 + 1] = 0.5f; /* row 3 sums to 0.8 */
    s.animations[0].channels[1].node = 7;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.anim.time", "scene/animations[0]/channels[0]/times[2]"));
    CHECK(diag_has(&d, "scene.prim.weights", "scene/meshes[0]/primitives[0]/weights[3]"));
    CHECK(diag_has(&d, "scene.anim.node", "scene/animations[0]/channels[1]"));
    ue_diag_free(&d);
    ue_scene_free(&s);

    gs_skinned(&s);
    s.skins[0].joints[1] = 0; /* the mesh node: another tree */
    s.nodes[0].translation[0] = 1;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.skin.root", "scene/skins[0]/joints[1]"));
    CHECK(diag_has(&d, "scene.node.skin_transform", "scene/nodes[0]"));
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* ---- PNG -------------------------------------------------------------------------------- */

static uint8_t paeth(int a, int b, int c) {
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

/* An independent PNG reader for our own output (one IDAT, 8-bit RGB/RGBA). */
static bool decode_png(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h, int *ct,
                       uint8_t *out, size_t out_cap) {
    static const uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (n < 8 || memcmp(p, sig, 8) != 0) return false;
    size_t off = 8;
    const uint8_t *idat = NULL;
    uint32_t idat_len = 0;
    while (off + 12 <= n) {
        uint32_t len = ue_load_u32be(p + off);
        if (off + 12 + len > n) return false;
        uint32_t crc = (uint32_t)crc32(0, p + off + 4, len + 4);
        if (crc != ue_load_u32be(p + off + 8 + len)) return false;
        if (memcmp(p + off + 4, "IHDR", 4) == 0) {
            *w = ue_load_u32be(p + off + 8);
            *h = ue_load_u32be(p + off + 12);
            *ct = p[off + 17];
            if (p[off + 16] != 8) return false;
        } else if (memcmp(p + off + 4, "IDAT", 4) == 0) {
            idat = p + off + 8;
            idat_len = len;
        } else if (memcmp(p + off + 4, "IEND", 4) == 0) {
            break;
        }
        off += 12 + len;
    }
    if (!idat) return false;
    size_t bpp = *ct == 6 ? 4 : 3, row = *w * bpp;
    uLongf raw_len = (uLongf)((row + 1) * *h);
    uint8_t *raw = malloc(raw_len);
    if (!raw || uncompress(raw, &raw_len, idat, idat_len) != Z_OK ||
        raw_len != (row + 1) * *h || (size_t)*w * *h * 4 > out_cap) {
        free(raw);
        return false;
    }
    uint8_t *cur = malloc(row), *prev = calloc(row, 1);
    for (uint32_t y = 0; y < *h; y++) {
        const uint8_t *f = raw + y * (row + 1);
        for (size_t i = 0; i < row; i++) {
            int a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            int pred = f[0] == 1 ? a : f[0] == 2 ? b : f[0] == 3 ? (a + b) / 2 : f[0] == 4 ? paeth(a, b, c) : 0;
            cur[i] = (uint8_t)(f[1 + i] + pred);
        }
        for (uint32_t x = 0; x < *w; x++) {
            memcpy(out + ((size_t)y * *w + x) * 4, cur + x * bpp, bpp);
            if (bpp == 3) out[((size_t)y * *w + x) * 4 + 3] = 255;
        }
        memcpy(prev, cur, row);
    }
    free(cur);
    free(prev);
    free(raw);
    return true;
}

/* The filter type byte of each row of our PNG (one IDAT), into types[h]. */
static bool png_row_filters(const uint8_t *p, size_t n, uint32_t h, size_t row, uint8_t *types) {
    size_t off = 8;
    while (off + 12 <= n && memcmp(p + off + 4, "IDAT", 4)) off += 12 + ue_load_u32be(p + off);
    if (off + 12 > n) return false;
    uLongf raw_len = (uLongf)((row + 1) * h);
    uint8_t *raw = malloc(raw_len);
    bool ok = raw && uncompress(raw, &raw_len, p + off + 8, ue_load_u32be(p + off)) == Z_OK;
    for (uint32_t y = 0; ok && y < h; y++) types[y] = raw[y * (row + 1)];
    free(raw);
    return ok;
}

static void png_round_trip(void) {
    uint8_t px[5 * 3 * 4], back[5 * 3 * 4];
    for (size_t i = 0; i < sizeof px; i++) px[i] = (uint8_t)(i * 37 + (i / 7) * 11);
    for (int opaque = 0; opaque < 4; opaque++) {
        bool quick = opaque >= 2; /* ue_png_encode_rgba_quick: the same pixels back, Up on every row */
        if (opaque & 1)
            for (size_t i = 3; i < sizeof px; i += 4) px[i] = 255;
        else
            for (size_t i = 3; i < sizeof px; i += 4) px[i] = (uint8_t)(i * 37 + (i / 7) * 11);
        ue_buf b = {0}, b2 = {0};
        REQUIRE((quick ? ue_png_encode_rgba_quick : ue_png_encode_rgba)(5, 3, px, &b) == UE_OK);
        REQUIRE((quick ? ue_png_encode_rgba_quick : ue_png_encode_rgba)(5, 3, px, &b2) == UE_OK);
        uint8_t types[3] = {0};
        CHECK(png_row_filters(b.data, b.size, 3, 5 * ((opaque & 1) ? 3 : 4), types));
        if (quick) CHECK(types[0] == 2 && types[1] == 2 && types[2] == 2);
        CHECK(b.size == b2.size && memcmp(b.data, b2.data, b.size) == 0);
        uint32_t w = 0, h = 0;
        int ct = 0;
        CHECK(decode_png(b.data, b.size, &w, &h, &ct, back, sizeof back));
        CHECK_EQ_U(w, 5);
        CHECK_EQ_U(h, 3);
        CHECK_EQ_U(ct, (opaque & 1) ? 2 : 6);
        CHECK_MEM(back, px, sizeof px);
        ue_buf_free(&b);
        ue_buf_free(&b2);
    }
    ue_buf b = {0};
    CHECK_EQ_U(ue_png_encode_rgba(0, 3, px, &b), UE_ERR_USAGE);
    CHECK_EQ_U(b.size, 0);
}

/* The quick encoder keeps blank rows (all bytes zero) out of zlib and writes them as runs of
 * zeros itself: rows of 300 pixels (1,201 bytes with the type byte, several 258-byte matches and
 * a remainder) blank at the top, in the middle and at the bottom, runs of 1 and of 3 rows; zlib
 * (uncompress, which checks the Adler-32) must give the pixels back, blank rows filtered None. */
static void png_quick_blank_rows(void) {
    enum { W = 300, H = 9 };
    static const bool blank_row[H] = {true, true, false, true, true, true, false, false, true};
    uint8_t *px = calloc((size_t)W * H * 4, 1), *back = malloc((size_t)W * H * 4);
    REQUIRE(px && back);
    for (uint32_t y = 0; y < H; y++)
        for (size_t i = 0; !blank_row[y] && i < (size_t)W * 4; i++) px[y * W * 4 + i] = (uint8_t)(i * 7 + y * 13 + (i > 600 ? 0 : 1));
    for (int all_blank = 0; all_blank < 2; all_blank++) {
        if (all_blank) memset(px, 0, (size_t)W * H * 4);
        ue_buf b = {0};
        REQUIRE(ue_png_encode_rgba_quick(W, H, px, &b) == UE_OK);
        uint8_t types[H] = {0};
        CHECK(png_row_filters(b.data, b.size, H, (size_t)W * 4, types));
        for (uint32_t y = 0; y < H; y++) CHECK_EQ_U(types[y], all_blank || blank_row[y] ? 0 : 2);
        uint32_t w = 0, h = 0;
        int ct = 0;
        CHECK(decode_png(b.data, b.size, &w, &h, &ct, back, (size_t)W * H * 4));
        CHECK_EQ_U(w, W);
        CHECK_EQ_U(h, H);
        CHECK_MEM(back, px, (size_t)W * H * 4);
        ue_buf_free(&b);
    }
    free(px);
    free(back);
}

/* ---- glTF --------------------------------------------------------------------------------- */

static void glb_textured_cube(void) {
    ue_scene s;
    gs_textured_cube(&s);
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, &d) == UE_OK);
    CHECK_EQ_U(d.count, 0);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    const ue_jv *r = g.root;
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_get(r, "asset"), "version")), "2.0");
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_get(r, "asset"), "generator")), "unearth");
    check_layout(r, g.bin_len);

    /* extensions */
    const ue_jv *used = ue_jv_get(r, "extensionsUsed");
    CHECK_EQ_U(ue_jv_items(used), 2);
    CHECK_STR(ue_jv_string(ue_jv_at(used, 0)), "KHR_materials_unlit");
    CHECK_STR(ue_jv_string(ue_jv_at(used, 1)), "KHR_texture_transform");
    CHECK(ue_jv_get(r, "extensionsRequired") == NULL);

    /* scene and nodes */
    CHECK_EQ_U(geti(r, "scene"), 0);
    const ue_jv *sc = at(r, "scenes", 0);
    CHECK_STR(ue_jv_string(ue_jv_get(sc, "name")), "cube_scene");
    CHECK_EQ_U(ue_jv_items(ue_jv_get(sc, "nodes")), 1);
    const ue_jv *n0 = at(r, "nodes", 0), *n1 = at(r, "nodes", 1);
    CHECK_STR(ue_jv_string(ue_jv_get(n0, "name")), "root");
    CHECK_EQ_U(ue_jv_integer(ue_jv_at(ue_jv_get(n0, "children"), 0)), 1);
    CHECK(getf(ue_jv_get(n0, "translation"), 2) == 3.0);
    CHECK(ue_jv_get(n0, "scale") == NULL);
    CHECK(ue_jv_get(n1, "rotation") == NULL && ue_jv_get(n1, "mesh") != NULL);
    CHECK(getf(ue_jv_get(n1, "scale"), 0) == 2.0);
    const ue_jv *src = ue_jv_get(ue_jv_get(n1, "extras"), "unearth_source");
    CHECK_STR(ue_jv_string(ue_jv_get(src, "format")), "msh");
    CHECK_EQ_U(geti(src, "type"), 1);
    CHECK_EQ_U(geti(src, "offset"), 0x80);
    CHECK_EQ_U(geti(src, "index"), 1);

    /* mesh: POSITION bounds equal to an independent scan of the scene's floats */
    const ue_jv *prim0 = ue_jv_at(ue_jv_get(at(r, "meshes", 0), "primitives"), 0);
    const ue_jv *attrs = ue_jv_get(prim0, "attributes");
    long long pos = geti(attrs, "POSITION");
    const ue_jv *pa = at(r, "accessors", (size_t)pos);
    CHECK_EQ_U(geti(pa, "count"), 20);
    CHECK_STR(ue_jv_string(ue_jv_get(pa, "type")), "VEC3");
    const ue_scene_primitive *p = &s.meshes[0].primitives[0];
    for (int c = 0; c < 3; c++) {
        float mn = p->positions[c], mx = p->positions[c];
        for (uint32_t v = 1; v < p->vertex_count; v++) {
            mn = fminf(mn, p->positions[v * 3 + (uint32_t)c]);
            mx = fmaxf(mx, p->positions[v * 3 + (uint32_t)c]);
        }
        CHECK((float)getf(ue_jv_get(pa, "min"), (size_t)c) == mn);
        CHECK((float)getf(ue_jv_get(pa, "max"), (size_t)c) == mx);
    }
    CHECK((float)getf(ue_jv_get(pa, "max"), 0) == 0.3f);
    const uint8_t *pd = accessor_data(r, g.bin, g.bin_len, pos, 12);
    REQUIRE(pd);
    for (uint32_t i = 0; i < 60; i++) CHECK(rd_f32(pd + i * 4) == p->positions[i]);
    CHECK(geti(attrs, "NORMAL") >= 0 && geti(attrs, "TEXCOORD_0") >= 0);
    const ue_jv *ca = at(r, "accessors", (size_t)geti(attrs, "COLOR_0"));
    CHECK_STR(ue_jv_string(ue_jv_get(ca, "type")), "VEC4");
    CHECK_EQ_U(geti(ca, "componentType"), 5126);
    const ue_jv *ia = at(r, "accessors", (size_t)geti(prim0, "indices"));
    CHECK_EQ_U(geti(ia, "componentType"), 5123);
    CHECK_EQ_U(geti(ia, "count"), 30);
    const ue_jv *iv = at(r, "bufferViews", (size_t)geti(ia, "bufferView"));
    CHECK_EQ_U(geti(iv, "target"), 34963);
    CHECK(ue_jv_get(iv, "byteStride") == NULL);
    CHECK_EQ_U(geti(iv, "byteLength"), 60);
    const ue_jv *pv = at(r, "bufferViews", (size_t)geti(pa, "bufferView"));
    CHECK_EQ_U(geti(pv, "byteStride"), 12);
    CHECK_EQ_U(geti(pv, "target"), 34962);

    /* materials */
    const ue_jv *m0 = at(r, "materials", 0), *m1 = at(r, "materials", 1);
    CHECK_STR(ue_jv_string(ue_jv_get(m0, "name")), "painted \"metal\"");
    const ue_jv *pbr = ue_jv_get(m0, "pbrMetallicRoughness");
    CHECK((float)getf(ue_jv_get(pbr, "baseColorFactor"), 0) == 0.8f);
    CHECK((float)ue_jv_number(ue_jv_get(pbr, "metallicFactor")) == 0.25f);
    const ue_jv *tt = ue_jv_get(ue_jv_get(ue_jv_get(pbr, "baseColorTexture"), "extensions"),
                                 "KHR_texture_transform");
    CHECK(getf(ue_jv_get(tt, "offset"), 0) == 0.5 && getf(ue_jv_get(tt, "scale"), 1) == 2.0);
    CHECK(ue_jv_get(m0, "alphaMode") == NULL);
    CHECK_STR(ue_jv_string(ue_jv_get(m1, "alphaMode")), "MASK");
    CHECK((float)ue_jv_number(ue_jv_get(m1, "alphaCutoff")) == 0.3f);
    CHECK(ue_jv_is(ue_jv_get(m1, "doubleSided"), UE_JV_TRUE));
    CHECK(ue_jv_get(ue_jv_get(m1, "extensions"), "KHR_materials_unlit") != NULL);

    /* texture → image → PNG in the BIN chunk; sampler clamps t only */
    const ue_jv *tex = at(r, "textures", 0);
    const ue_jv *img = at(r, "images", (size_t)geti(tex, "source"));
    CHECK_STR(ue_jv_string(ue_jv_get(img, "mimeType")), "image/png");
    const ue_jv *imv = at(r, "bufferViews", (size_t)geti(img, "bufferView"));
    CHECK(ue_jv_get(imv, "target") == NULL);
    uint8_t px[64];
    uint32_t w = 0, h = 0;
    int ct = 0;
    CHECK(decode_png(g.bin + geti(imv, "byteOffset"), (size_t)geti(imv, "byteLength"), &w, &h, &ct,
                     px, sizeof px));
    CHECK_MEM(px, s.textures[0].rgba, 64);
    const ue_jv *smp = at(r, "samplers", (size_t)geti(tex, "sampler"));
    CHECK_EQ_U(geti(smp, "wrapT"), 33071);
    CHECK(ue_jv_get(smp, "wrapS") == NULL);
    src = ue_jv_get(ue_jv_get(tex, "extras"), "unearth_source");
    CHECK_STR(ue_jv_string(ue_jv_get(src, "format")), "texm");
    CHECK(ue_jv_get(src, "offset") == NULL);

    /* determinism */
    ue_buf again = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &again, NULL, NULL) == UE_OK);
    CHECK(again.size == out.size && memcmp(again.data, out.data, out.size) == 0);
    ue_buf_free(&again);
    /* appended to bytes already there (the GLB then copied behind them, not built in place) */
    ue_buf_put(&again, "xyz", 3);
    REQUIRE(ue_gltf_export(&s, NULL, &again, NULL, NULL) == UE_OK);
    CHECK(again.size == out.size + 3 && memcmp(again.data, "xyz", 3) == 0 &&
          memcmp(again.data + 3, out.data, out.size) == 0);
    ue_buf_free(&again);
    /* an output limit below the GLB's size: refused, nothing written */
    again.limit = out.size - 1;
    CHECK_EQ_U(ue_gltf_export(&s, NULL, &again, NULL, NULL), UE_ERR_NOMEM);
    CHECK_EQ_U(again.size, 0);
    ue_buf_free(&again);

    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void gltf_separate_bin(void) {
    ue_scene s;
    gs_textured_cube(&s);
    ue_gltf_options o = {UE_GLTF_SEPARATE, "my cube.bin", true, false};
    ue_buf js = {0}, bin = {0}, glbuf = {0};
    REQUIRE(ue_gltf_export(&s, &o, &js, &bin, NULL) == UE_OK);
    REQUIRE(ue_gltf_export(&s, NULL, &glbuf, NULL, NULL) == UE_OK);
    ue_jdoc r_doc;
    ue_jdoc_error r_err;
    const ue_jv *r = ue_jdoc_parse((const char *)js.data, js.size, &r_doc, &r_err) == UE_OK ? &r_doc.root : NULL;
    REQUIRE(r);
    const ue_jv *buf0 = at(r, "buffers", 0);
    CHECK_STR(ue_jv_string(ue_jv_get(buf0, "uri")), "my%20cube.bin");
    CHECK_EQ_U(geti(buf0, "byteLength"), bin.size);
    CHECK_EQ_U(bin.size % 4, 0);
    check_layout(r, bin.size);
    /* the same binary as the GLB's BIN chunk: the two modes differ only in packaging */
    glb g;
    REQUIRE(parse_glb(&glbuf, &g));
    CHECK(g.bin_len == bin.size && memcmp(g.bin, bin.data, bin.size) == 0);
    CHECK(js.size > 0 && memchr(js.data, '\n', js.size) != NULL); /* pretty */
    ue_jdoc_free(&g.doc);
    ue_jdoc_free(&r_doc);
    ue_buf_free(&js);
    ue_buf_free(&bin);
    ue_buf_free(&glbuf);
    CHECK_EQ_U(ue_gltf_export(&s, &o, &js, NULL, NULL), UE_ERR_USAGE);
    ue_scene_free(&s);
}

/* image_uris with NULL entries: those images stay inside the buffer, shared by equal pixels;
 * the named ones are shared by file; the two kinds never meet (no crash on a mix). */
static void gltf_image_uris_with_null_entries(void) {
    ue_scene s;
    gs_textured_cube(&s); /* texture 0: the 4 × 4 checker */
    for (int k = 0; k < 3; k++) {
        int32_t t = ue_scene_add_texture(&s, k == 1 ? "same file" : "inside", 2, 2);
        memset(s.textures[t].rgba, 77, 16);
    }
    const char *uris[4] = {"a.png", NULL, "a.png", NULL};
    ue_gltf_options o = {UE_GLTF_SEPARATE, NULL, false, false, .image_uris = uris};
    ue_buf js = {0}, bin = {0};
    REQUIRE(ue_gltf_export(&s, &o, &js, &bin, NULL) == UE_OK);
    ue_jdoc r_doc;
    ue_jdoc_error r_err;
    const ue_jv *r = ue_jdoc_parse((const char *)js.data, js.size, &r_doc, &r_err) == UE_OK ? &r_doc.root : NULL;
    REQUIRE(r);
    CHECK_EQ_U(ue_jv_items(ue_jv_get(r, "images")), 2);
    CHECK_STR(ue_jv_string(ue_jv_get(at(r, "images", 0), "uri")), "a.png");
    CHECK(ue_jv_get(at(r, "images", 1), "bufferView") != NULL);
    long long source[4];
    for (size_t t = 0; t < 4; t++) source[t] = geti(at(r, "textures", t), "source");
    CHECK(source[0] == 0 && source[2] == 0 && source[1] == 1 && source[3] == 1);
    ue_jdoc_free(&r_doc);
    ue_buf_free(&js);
    ue_buf_free(&bin);
    ue_scene_free(&s);
}

/* A URI is percent-encoded whole, however long: 600 two-byte letters are 7200 characters. */
static void gltf_long_uri_whole(void) {
    ue_scene s;
    gs_textured_cube(&s);
    char name[1300] = "";
    for (int k = 0; k < 600; k++) strcat(name, "\xd0\xaf"); /* Я */
    strcat(name, ".bin");
    ue_gltf_options o = {UE_GLTF_SEPARATE, name, false, false};
    ue_buf js = {0}, bin = {0};
    REQUIRE(ue_gltf_export(&s, &o, &js, &bin, NULL) == UE_OK);
    ue_jdoc r_doc;
    ue_jdoc_error r_err;
    const ue_jv *r = ue_jdoc_parse((const char *)js.data, js.size, &r_doc, &r_err) == UE_OK ? &r_doc.root : NULL;
    REQUIRE(r);
    const char *uri = ue_jv_string(ue_jv_get(at(r, "buffers", 0), "uri"));
    REQUIRE(uri);
    CHECK_EQ_U(strlen(uri), 600 * 6 + 4);
    CHECK(!strncmp(uri, "%D0%AF", 6) && !strcmp(uri + 600 * 6, ".bin"));
    ue_jdoc_free(&r_doc);
    ue_buf_free(&js);
    ue_buf_free(&bin);
    ue_scene_free(&s);
}

static void glb_skinned_animation(void) {
    ue_scene s;
    gs_skinned(&s);
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, &d) == UE_OK);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    const ue_jv *r = g.root;
    check_layout(r, g.bin_len);
    const ue_jv *scn = ue_jv_get(at(r, "scenes", 0), "nodes");
    CHECK_EQ_U(ue_jv_items(scn), 2);
    const ue_jv *attrs = ue_jv_get(ue_jv_at(ue_jv_get(at(r, "meshes", 0), "primitives"), 0),
                                    "attributes");
    const ue_jv *ja = at(r, "accessors", (size_t)geti(attrs, "JOINTS_0"));
    CHECK_EQ_U(geti(ja, "componentType"), 5123);
    CHECK_STR(ue_jv_string(ue_jv_get(ja, "type")), "VEC4");
    const uint8_t *jd = accessor_data(r, g.bin, g.bin_len, geti(attrs, "JOINTS_0"), 8);
    const uint8_t *wd = accessor_data(r, g.bin, g.bin_len, geti(attrs, "WEIGHTS_0"), 16);
    REQUIRE(jd && wd);
    CHECK_EQ_U(ue_load_u16le(jd + 4 * 8 + 0), 1);
    CHECK_EQ_U(ue_load_u16le(jd + 4 * 8 + 4), 0); /* zero weight → joint 0 */
    for (int v = 0; v < 6; v++) {
        /* the validator's rule: float32 running sum within 2e-7 per non-zero weight */
        float acc = 0;
        int nz = 0;
        for (int k = 0; k < 4; k++) {
            float wv = rd_f32(wd + v * 16 + k * 4);
            if (wv != 0) {
                acc = (float)(acc + wv);
                nz++;
            }
        }
        CHECK(fabs((double)acc - 1.0) <= nz * 2e-7);
    }
    const ue_jv *skin = at(r, "skins", 0);
    CHECK_EQ_U(ue_jv_items(ue_jv_get(skin, "joints")), 2);
    CHECK_EQ_U(geti(skin, "skeleton"), 1);
    long long ibm = geti(skin, "inverseBindMatrices");
    CHECK_STR(ue_jv_string(ue_jv_get(at(r, "accessors", (size_t)ibm), "type")), "MAT4");
    const uint8_t *id = accessor_data(r, g.bin, g.bin_len, ibm, 64);
    REQUIRE(id);
    CHECK(rd_f32(id + 64 + 13 * 4) == -1.0f);

    const ue_jv *an = at(r, "animations", 0);
    CHECK_STR(ue_jv_string(ue_jv_get(an, "name")), "Animation_0");
    const ue_jv *ch = ue_jv_get(an, "channels"), *sm = ue_jv_get(an, "samplers");
    CHECK_EQ_U(ue_jv_items(ch), 4);
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_get(ue_jv_at(ch, 0), "target"), "path")),
              "rotation");
    CHECK_EQ_U(geti(ue_jv_get(ue_jv_at(ch, 1), "target"), "node"), 2);
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_at(sm, 0), "interpolation")), "LINEAR");
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_at(sm, 1), "interpolation")), "STEP");
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_at(sm, 2), "interpolation")), "CUBICSPLINE");
    /* same key times → one shared input accessor, with exact bounds */
    CHECK_EQ_U(geti(ue_jv_at(sm, 0), "input"), geti(ue_jv_at(sm, 1), "input"));
    const ue_jv *in = at(r, "accessors", (size_t)geti(ue_jv_at(sm, 0), "input"));
    CHECK(getf(ue_jv_get(in, "min"), 0) == 0.0 && getf(ue_jv_get(in, "max"), 0) == 1.25);
    const ue_jv *cub = at(r, "accessors", (size_t)geti(ue_jv_at(sm, 2), "output"));
    CHECK_EQ_U(geti(cub, "count"), 6);
    /* rotation keys normalised: (0,0,0,2) → (0,0,0,1), (0,0,1,1) → (0,0,.7071,.7071) */
    const uint8_t *rd = accessor_data(r, g.bin, g.bin_len, geti(ue_jv_at(sm, 0), "output"), 16);
    REQUIRE(rd);
    CHECK(rd_f32(rd + 12) == 1.0f);
    CHECK(fabsf(rd_f32(rd + 16 + 8) - 0.70710678f) < 1e-6f);
    CHECK(rd_f32(rd + 32 + 8) == 1.0f);
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void glb_pointer_channels(void) {
    ue_scene s;
    gs_pointer(&s);
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, &d) == UE_OK);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    const ue_jv *r = g.root;
    const ue_jv *used = ue_jv_get(r, "extensionsUsed");
    CHECK_STR(ue_jv_string(ue_jv_at(used, 0)), "KHR_animation_pointer");
    CHECK_STR(ue_jv_string(ue_jv_at(used, 1)), "KHR_texture_transform");
    const ue_jv *ch0 = ue_jv_at(ue_jv_get(at(r, "animations", 0), "channels"), 0);
    const ue_jv *tg = ue_jv_get(ch0, "target");
    CHECK_STR(ue_jv_string(ue_jv_get(tg, "path")), "pointer");
    CHECK(ue_jv_get(tg, "node") == NULL);
    CHECK_STR(ue_jv_string(ue_jv_get(
                  ue_jv_get(ue_jv_get(tg, "extensions"), "KHR_animation_pointer"), "pointer")),
              "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/offset");
    /* a typed node rotation is a core channel, not a pointer */
    const ue_jv *tg2 = ue_jv_get(ue_jv_at(ue_jv_get(at(r, "animations", 0), "channels"), 2), "target");
    CHECK_STR(ue_jv_string(ue_jv_get(tg2, "path")), "rotation");
    CHECK_EQ_U(geti(tg2, "node"), 0);
    const ue_jv *sm = ue_jv_get(at(r, "animations", 0), "samplers");
    const ue_jv *o0 = at(r, "accessors", (size_t)geti(ue_jv_at(sm, 0), "output"));
    CHECK_STR(ue_jv_string(ue_jv_get(o0, "type")), "VEC2");
    const uint8_t *rd = accessor_data(r, g.bin, g.bin_len, geti(ue_jv_at(sm, 2), "output"), 16);
    REQUIRE(rd);
    CHECK(fabsf(rd_f32(rd + 24) - 0.6f) < 1e-6f && fabsf(rd_f32(rd + 28) - 0.8f) < 1e-6f);
    const ue_jv *smp = at(r, "samplers", 0);
    CHECK_EQ_U(geti(smp, "magFilter"), 9728);
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* no_animation_pointer: the pointer scene keeps only its node rotation channel (now sampler 0),
 * the extension is no longer declared (KHR_texture_transform stays: the slot is still written),
 * and one info diagnostic counts the two channels left out. */
static void no_animation_pointer_option(void) {
    ue_scene s;
    gs_pointer(&s);
    ue_buf out = {0};
    ue_diag d = {0};
    ue_gltf_options o = {UE_GLTF_GLB, NULL, false, false, true};
    REQUIRE(ue_gltf_export(&s, &o, &out, NULL, &d) == UE_OK);
    REQUIRE(d.count == 1);
    CHECK_STR(d.items[0].code, "gltf.anim.no_pointer");
    CHECK(d.items[0].severity == UE_SEV_INFO);
    CHECK(strstr(d.items[0].message, "2 KHR_animation_pointer channels") != NULL);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    const ue_jv *r = g.root;
    const ue_jv *used = ue_jv_get(r, "extensionsUsed");
    CHECK(ue_jv_items(used) == 1);
    CHECK_STR(ue_jv_string(ue_jv_at(used, 0)), "KHR_texture_transform");
    const ue_jv *chans = ue_jv_get(at(r, "animations", 0), "channels");
    REQUIRE(ue_jv_items(chans) == 1);
    const ue_jv *tg = ue_jv_get(ue_jv_at(chans, 0), "target");
    CHECK_STR(ue_jv_string(ue_jv_get(tg, "path")), "rotation");
    CHECK_EQ_U(geti(ue_jv_at(chans, 0), "sampler"), 0);
    CHECK(ue_jv_items(ue_jv_get(at(r, "animations", 0), "samplers")) == 1);
    CHECK(!memmem_ok((const char *)out.data, out.size, "KHR_animation_pointer"));
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
    /* The layers clip has only pointer channels (visibility, colour, alpha, UV rotation): it is
     * left out whole, without a gltf.anim.empty warning, and no animations array remains. */
    gs_layers(&s);
    REQUIRE(ue_gltf_export(&s, &o, &out, NULL, &d) == UE_OK);
    CHECK(!has_code(&d, "gltf.anim.empty") && has_code(&d, "gltf.anim.no_pointer"));
    REQUIRE(parse_glb(&out, &g));
    CHECK(ue_jv_get(g.root, "animations") == NULL);
    CHECK(!memmem_ok((const char *)out.data, out.size, "KHR_animation_pointer"));
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void pointer_targets_checked(void) {
    ue_scene s;
    gs_pointer(&s);
    uint32_t comps = 0;
    bool quat = false;
    CHECK_EQ_U(ue_gltf_resolve_pointer(&s, "/nodes/0/rotation", &comps, &quat, NULL, NULL), UE_OK);
    CHECK(comps == 4 && quat);
    CHECK_EQ_U(ue_gltf_resolve_pointer(&s, "/materials/0/pbrMetallicRoughness/roughnessFactor", &comps,
                                       &quat, NULL, NULL),
               UE_OK);
    CHECK(comps == 1 && !quat);
    static const char *const bad[] = {
        "/nodes/1/rotation", "/nodes/00/rotation", "/nodes/0/weights", "/materials/0/alphaCutoff",
        "/materials/0/emissiveFactor", "nodes/0/scale", "/meshes/0/weights", "/materials/-1/x",
        "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/texCoord",
        "/materials/0/normalTexture/extensions/KHR_texture_transform/offset",
        "/nodes/0/extensions/KHR_node_visibility/visible",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ue_diag d = {0};
        CHECK_EQ_U(ue_gltf_resolve_pointer(&s, bad[i], NULL, NULL, &d, "p"), UE_ERR_INVALID);
        CHECK(diag_has(&d, "gltf.pointer", "p"));
        ue_diag_free(&d);
    }
    /* a transform that is not written → export refused, naming the channel */
    ue_diag d = {0};
    s.materials[0].slots[0].transform.enabled = false;
    ue_buf out = {0};
    CHECK_EQ_U(ue_gltf_export(&s, NULL, &out, NULL, &d), UE_ERR_INVALID);
    CHECK_EQ_U(out.size, 0);
    CHECK(diag_has(&d, "gltf.pointer", "scene/animations[0]/channels[0]"));
    ue_diag_free(&d);
    s.materials[0].slots[0].transform.enabled = true;
    CHECK_EQ_U(ue_gltf_check_pointers(&s, &d), UE_OK);
    /* a component count that does not fit the target, and two channels on one property */
    s.animations[0].channels[1].components = 3;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.anim.components", "scene/animations[0]/channels[1]"));
    ue_diag_free(&d);
    s.animations[0].channels[1].components = 4;
    ue_anim_channel *c = ue_scene_add_channel(&s, 0, UE_TARGET_ROTATION, UE_INTERP_LINEAR, 1);
    c->node = 0;
    c->values[3] = 1;
    CHECK_EQ_U(ue_scene_validate(&s, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.anim.duplicate", "scene/animations[0]/channels[3]"));
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* The reduce-to-4 step on its own: the 4 largest weights, in their original order. */
static void influences_reduced_to_four(void) {
    static const uint16_t j8[8] = {10, 11, 12, 13, 14, 15, 16, 17};
    uint16_t j[4];
    float w[4];
    ue_gltf_reduce_influences(j8, GS_EIGHT_WEIGHTS, 8, j, w);
    /* weights .05 .1 .3 .05 .2 .1 .15 .05: .3, .2, .15 and the first .1 (slot 1) survive */
    static const uint16_t want_j[4] = {11, 12, 14, 16};
    CHECK_MEM(j, want_j, sizeof want_j);
    CHECK(w[0] == 0.1f && w[1] == 0.3f && w[2] == 0.2f && w[3] == 0.15f);
    static const float w2[2] = {0.25f, 0.75f};
    ue_gltf_reduce_influences(j8, w2, 2, j, w);
    CHECK(j[0] == 10 && j[1] == 11 && j[2] == 0 && j[3] == 0);
    CHECK(w[0] == 0.25f && w[1] == 0.75f && w[2] == 0 && w[3] == 0);
}

static void glb_layers(void) {
    ue_scene s;
    gs_layers(&s);
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, &d) == UE_OK);
    CHECK_EQ_U(d.count, 0);
    if (d.count) dump_diag(&d);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    const ue_jv *r = g.root;
    check_layout(r, g.bin_len);
    const ue_jv *used = ue_jv_get(r, "extensionsUsed");
    CHECK_EQ_U(ue_jv_items(used), 3);
    CHECK_STR(ue_jv_string(ue_jv_at(used, 1)), "KHR_node_visibility");

    /* two UV sets, two colour sets, tangents */
    const ue_jv *attrs = ue_jv_get(ue_jv_at(ue_jv_get(at(r, "meshes", 0), "primitives"), 0), "attributes");
    const uint8_t *uv1 = accessor_data(r, g.bin, g.bin_len, geti(attrs, "TEXCOORD_1"), 8);
    REQUIRE(uv1);
    CHECK(rd_f32(uv1 + 2 * 8) == 2.0f && rd_f32(uv1 + 2 * 8 + 4) == 2.0f);
    const uint8_t *c1 = accessor_data(r, g.bin, g.bin_len, geti(attrs, "COLOR_1"), 16);
    REQUIRE(c1);
    CHECK(rd_f32(c1 + 16 * 3) == 0.25f && rd_f32(c1 + 16 * 3 + 12) == 0.5f);
    CHECK(ue_jv_get(attrs, "TANGENT") != NULL && ue_jv_get(attrs, "TEXCOORD_2") == NULL);

    /* texture roles, UV sets and transforms */
    const ue_jv *m0 = at(r, "materials", 0);
    const ue_jv *pbr = ue_jv_get(m0, "pbrMetallicRoughness");
    CHECK_EQ_U(geti(ue_jv_get(pbr, "baseColorTexture"), "index"), 0);
    CHECK(ue_jv_get(ue_jv_get(pbr, "baseColorTexture"), "texCoord") == NULL);
    CHECK_EQ_U(geti(ue_jv_get(pbr, "metallicRoughnessTexture"), "index"), 1);
    const ue_jv *nt = ue_jv_get(m0, "normalTexture");
    CHECK_EQ_U(geti(nt, "texCoord"), 1);
    CHECK(ue_jv_number(ue_jv_get(nt, "scale")) == 0.5);
    const ue_jv *tt = ue_jv_get(ue_jv_get(nt, "extensions"), "KHR_texture_transform");
    CHECK(ue_jv_number(ue_jv_get(tt, "rotation")) == 0.25);
    CHECK_EQ_U(geti(tt, "texCoord"), 1);
    CHECK(ue_jv_number(ue_jv_get(ue_jv_get(m0, "occlusionTexture"), "strength")) == 0.75);
    CHECK_EQ_U(geti(ue_jv_get(m0, "emissiveTexture"), "index"), 0);
    CHECK(getf(ue_jv_get(m0, "emissiveFactor"), 1) == 0.5);

    /* extras: reader pairs after the source id; clip metadata */
    const ue_jv *nx = ue_jv_get(at(r, "nodes", 0), "extras");
    CHECK_EQ_U(geti(nx, "engine_flags"), 5);
    CHECK_STR(ue_jv_string(ue_jv_get(nx, "original_name")), "\xd0\xb3\xd0\xbe\xd0\xbb\xd0\xbe\xd0\xb2\xd0\xb0");
    CHECK_STR(ue_jv_string(ue_jv_get(ue_jv_get(m0, "extras"), "shader")), "chrome");
    CHECK(ue_jv_number(ue_jv_get(ue_jv_get(at(r, "meshes", 0), "extras"), "lod_distance")) == 12.5);
    const ue_jv *an = at(r, "animations", 0);
    const ue_jv *clip = ue_jv_get(ue_jv_get(an, "extras"), "unearth_clip");
    CHECK(ue_jv_number(ue_jv_get(clip, "fps")) == 30 && ue_jv_number(ue_jv_get(clip, "end_frame")) == 45);
    CHECK(ue_jv_is(ue_jv_get(clip, "loop"), UE_JV_TRUE));
    CHECK_EQ_U(geti(ue_jv_get(ue_jv_get(an, "extras"), "unearth_source"), "offset"), 0x2000);
    CHECK_EQ_U(geti(ue_jv_get(ue_jv_get(an, "extras"), "unearth_source"), "index"), 1);
    CHECK_EQ_U(geti(ue_jv_get(ue_jv_get(an, "extras"), "unearth_source"), "type"), 0x414E4A);
    CHECK_EQ_U(geti(ue_jv_get(an, "extras"), "flags"), 2);

    /* visibility: KHR_node_visibility object and unsigned-byte STEP keys 0 1 0 */
    const ue_jv *lamp = at(r, "nodes", 1);
    CHECK(ue_jv_is(ue_jv_get(ue_jv_get(ue_jv_get(lamp, "extensions"), "KHR_node_visibility"), "visible"), UE_JV_FALSE));
    const ue_jv *chs = ue_jv_get(an, "channels"), *sms = ue_jv_get(an, "samplers");
    CHECK_EQ_U(ue_jv_items(chs), 4); /* the alpha of "layers" is folded into its colour */
    const ue_jv *vs = ue_jv_at(sms, 0);
    CHECK_STR(ue_jv_string(ue_jv_get(vs, "interpolation")), "STEP");
    const ue_jv *va = at(r, "accessors", (size_t)geti(vs, "output"));
    CHECK_EQ_U(geti(va, "componentType"), 5121);
    const uint8_t *vb = accessor_data(r, g.bin, g.bin_len, geti(vs, "output"), 1);
    REQUIRE(vb);
    CHECK(vb[0] == 0 && vb[1] == 1 && vb[2] == 0);
    CHECK_EQ_U(geti(ue_jv_get(ue_jv_get(ue_jv_at(chs, 0), "extras"), "unearth_source"), "offset"), 0x2040);

    /* colour + alpha merged: RGB from the colour channel, A from the alpha channel */
    const uint8_t *cb = accessor_data(r, g.bin, g.bin_len, geti(ue_jv_at(sms, 1), "output"), 16);
    REQUIRE(cb);
    CHECK(rd_f32(cb) == 1.0f && rd_f32(cb + 12) == 0.5f && rd_f32(cb + 16) == 0.25f && rd_f32(cb + 28) == 1.0f);
    /* alpha alone: RGB from the material's factor */
    const uint8_t *ab = accessor_data(r, g.bin, g.bin_len, geti(ue_jv_at(sms, 2), "output"), 16);
    REQUIRE(ab);
    CHECK(rd_f32(ab) == 1.0f && rd_f32(ab + 12) == 1.0f && rd_f32(ab + 16 + 12) == 0.0f);
    CHECK_EQ_U(geti(at(r, "accessors", (size_t)geti(ue_jv_at(sms, 2), "output")), "count"), 2);

    /* 8 influences reduced to 4 and renormalised: vertex 2's joints are (k + 2) % 8 */
    const ue_jv *battrs = ue_jv_get(ue_jv_at(ue_jv_get(at(r, "meshes", 1), "primitives"), 0), "attributes");
    const uint8_t *jb = accessor_data(r, g.bin, g.bin_len, geti(battrs, "JOINTS_0"), 8);
    const uint8_t *wb = accessor_data(r, g.bin, g.bin_len, geti(battrs, "WEIGHTS_0"), 16);
    REQUIRE(jb && wb);
    static const uint16_t want_j[4] = {3, 4, 6, 0};
    static const double want_w[4] = {0.1 / 0.75, 0.3 / 0.75, 0.2 / 0.75, 0.15 / 0.75};
    float sum = 0;
    for (int k = 0; k < 4; k++) {
        CHECK_EQ_U(ue_load_u16le(jb + 2 * 8 + 2 * k), want_j[k]);
        CHECK(fabs(rd_f32(wb + 2 * 16 + 4 * k) - want_w[k]) < 1e-6);
        sum = (float)(sum + rd_f32(wb + 2 * 16 + 4 * k));
    }
    CHECK(fabsf(sum - 1.0f) < 1e-6f);
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

/* What glTF cannot express yet is reported, by name, and the rest still exports. */
static void unsupported_targets_warned(void) {
    ue_scene s;
    gs_layers(&s);
    int32_t spec = ue_scene_add_texture_slot(&s, 0, UE_TEX_SPECULAR, 1, 0);
    ue_anim_channel *fb = ue_scene_add_channel(&s, 0, UE_TARGET_TEXTURE_INDEX, UE_INTERP_STEP, 2);
    fb->material = 0;
    fb->slot = 0;
    fb->times[1] = 0.5f;
    fb->values[1] = 1;
    ue_anim_channel *uv = ue_scene_add_channel(&s, 0, UE_TARGET_UV_OFFSET, UE_INTERP_LINEAR, 1);
    uv->material = 0;
    uv->slot = spec;
    /* alpha of "fade" keyed differently from a colour channel of "fade" */
    ue_anim_channel *col = ue_scene_add_channel(&s, 0, UE_TARGET_BASE_COLOR, UE_INTERP_LINEAR, 1);
    col->material = 1;
    col->values[3] = 1;
    int32_t only = ue_scene_add_animation(&s, "flipbook only");
    ue_anim_channel *fb2 = ue_scene_add_channel(&s, only, UE_TARGET_TEXTURE_INDEX, UE_INTERP_STEP, 1);
    fb2->material = 0;
    fb2->slot = 0;
    ue_buf out = {0};
    ue_diag d = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, &d) == UE_OK);
    CHECK(diag_has(&d, "gltf.anim.unsupported", "scene/animations[0]/channels[5]"));
    CHECK(diag_has(&d, "gltf.anim.unsupported", "scene/animations[0]/channels[6]"));
    CHECK(diag_has(&d, "gltf.anim.unsupported", "scene/animations[0]/channels[3]"));
    CHECK(diag_has(&d, "gltf.anim.unsupported", "scene/animations[1]/channels[0]"));
    CHECK(diag_has(&d, "gltf.anim.empty", "scene/animations[1]"));
    CHECK(diag_has(&d, "gltf.material.slot", "scene/materials[0]/slots[5]"));
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    bool named = false;
    for (size_t i = 0; i < d.count; i++)
        named = named || (strcmp(d.items[i].path, "scene/animations[0]/channels[5]") == 0 &&
                          strstr(d.items[i].message, "texture index") != NULL);
    CHECK(named);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    CHECK_EQ_U(ue_jv_items(ue_jv_get(g.root, "animations")), 1);
    /* written: visibility, colour of "layers" (alpha folded in), UV rotation, colour of "fade" */
    CHECK_EQ_U(ue_jv_items(ue_jv_get(at(g.root, "animations", 0), "channels")), 4);
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void channel_forms(void) {
    ue_scene s;
    gs_layers(&s);
    char p[192];
    const char *why = NULL;
    CHECK_EQ_U(ue_gltf_channel_pointer(&s, 0, 0, p, sizeof p, &why), UE_GLTF_CHANNEL_POINTER);
    CHECK_STR(p, "/nodes/1/extensions/KHR_node_visibility/visible");
    CHECK_EQ_U(ue_gltf_channel_pointer(&s, 0, 2, p, sizeof p, &why), UE_GLTF_CHANNEL_MERGED);
    CHECK_STR(p, "/materials/0/pbrMetallicRoughness/baseColorFactor");
    CHECK_EQ_U(ue_gltf_channel_pointer(&s, 0, 3, p, sizeof p, &why), UE_GLTF_CHANNEL_POINTER);
    CHECK_STR(p, "/materials/1/pbrMetallicRoughness/baseColorFactor");
    CHECK_EQ_U(ue_gltf_channel_pointer(&s, 0, 4, p, sizeof p, &why), UE_GLTF_CHANNEL_POINTER);
    CHECK_STR(p, "/materials/0/normalTexture/extensions/KHR_texture_transform/rotation");
    uint32_t comps = 0;
    CHECK_EQ_U(ue_gltf_resolve_pointer(&s, p, &comps, NULL, NULL, NULL), UE_OK);
    CHECK_EQ_U(comps, 1);
    CHECK_EQ_U(ue_gltf_resolve_pointer(&s, "/nodes/1/extensions/KHR_node_visibility/visible", &comps,
                                       NULL, NULL, NULL), UE_OK);
    CHECK_EQ_U(ue_gltf_resolve_pointer(&s, "/nodes/0/extensions/KHR_node_visibility/visible", NULL,
                                       NULL, NULL, NULL), UE_ERR_INVALID);
    CHECK_EQ_U(ue_gltf_resolve_pointer(&s, "/materials/0/occlusionTexture/extensions/KHR_texture_transform/offset",
                                       NULL, NULL, NULL, NULL), UE_ERR_INVALID); /* not enabled */
    CHECK_EQ_U(ue_gltf_check_pointers(&s, NULL), UE_OK);
    /* out-of-range targets are refused, not read */
    s.animations[0].channels[4].slot = 40;
    CHECK_EQ_U(ue_gltf_channel_pointer(&s, 0, 4, p, sizeof p, &why), UE_GLTF_CHANNEL_UNSUPPORTED);
    CHECK(why != NULL && p[0] == 0);
    ue_scene_free(&s);
}

static void invalid_scene_refused(void) {
    ue_scene s;
    gs_skinned(&s);
    s.meshes[0].primitives[0].positions[7] = INFINITY;
    ue_buf out = {0}, bin = {0};
    ue_diag d = {0};
    ue_gltf_options o = {UE_GLTF_SEPARATE, NULL, false, false};
    CHECK_EQ_U(ue_gltf_export(&s, &o, &out, &bin, &d), UE_ERR_INVALID);
    CHECK_EQ_U(out.size, 0);
    CHECK_EQ_U(bin.size, 0);
    CHECK(diag_has(&d, "scene.value.nonfinite", "scene/meshes[0]/primitives[0]/positions[7]"));
    ue_diag_free(&d);
    ue_scene_free(&s);
    /* a skinned mesh on a node without a skin is something glTF cannot express */
    gs_skinned(&s);
    s.nodes[0].skin = -1;
    CHECK_EQ_U(ue_gltf_export(&s, NULL, &out, NULL, &d), UE_ERR_INVALID);
    CHECK(diag_has(&d, "scene.node.skin", "scene/nodes[0]"));
    ue_diag_free(&d);
    ue_scene_free(&s);
}

static void big_mesh_uses_32bit_indices(void) {
    ue_scene s;
    gs_big(&s);
    ue_buf out = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, NULL) == UE_OK);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    const ue_jv *prim = ue_jv_at(ue_jv_get(at(g.root, "meshes", 0), "primitives"), 0);
    const ue_jv *ia = at(g.root, "accessors", (size_t)geti(prim, "indices"));
    CHECK_EQ_U(geti(ia, "componentType"), 5125);
    CHECK_EQ_U(geti(ia, "count"), 255 * 256 * 6);
    const ue_jv *pa = at(g.root, "accessors", (size_t)geti(ue_jv_get(prim, "attributes"), "POSITION"));
    CHECK((float)getf(ue_jv_get(pa, "max"), 0) == 255.0f * 0.01f);
    CHECK((float)getf(ue_jv_get(pa, "min"), 2) == 256.0f * -0.01f);
    check_layout(g.root, g.bin_len);
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_scene_free(&s);
}

static void misc_and_empty_scenes(void) {
    ue_scene s;
    gs_misc(&s);
    ue_buf out = {0};
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, NULL) == UE_OK);
    glb g;
    REQUIRE(parse_glb(&out, &g));
    /* the raw JSON keeps UTF-8 as is and escapes the stray byte */
    const char *raw = (const char *)out.data + 20;
    size_t rawlen = ue_load_u32le(out.data + 12);
    CHECK(memmem_ok(raw, rawlen, "\"\xd1\x83\xd0\xb7\xd0\xb5\xd0\xbb\""));
    CHECK(memmem_ok(raw, rawlen, "\"bad\\u00c0name\""));
    CHECK(ue_jv_get(at(g.root, "nodes", 1), "name") == NULL);
    const ue_jv *prim = ue_jv_at(ue_jv_get(at(g.root, "meshes", 0), "primitives"), 0);
    CHECK(ue_jv_get(prim, "indices") == NULL && ue_jv_get(prim, "material") == NULL);
    const uint8_t *nd =
        accessor_data(g.root, g.bin, g.bin_len, geti(ue_jv_get(prim, "attributes"), "NORMAL"), 12);
    REQUIRE(nd);
    CHECK(rd_f32(nd + 8) == 1.0f);
    CHECK_EQ_U(ue_jv_items(ue_jv_get(at(g.root, "scenes", 0), "nodes")), 2);
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_scene_free(&s);

    gs_empty(&s);
    REQUIRE(ue_gltf_export(&s, NULL, &out, NULL, NULL) == UE_OK);
    REQUIRE(parse_glb(&out, &g));
    CHECK(g.bin == NULL && ue_jv_get(g.root, "buffers") == NULL);
    CHECK_EQ_U(out.size, 20 + ue_load_u32le(out.data + 12));
    ue_jdoc_free(&g.doc);
    ue_buf_free(&out);
    ue_scene_free(&s);
}

/* ---- OBJ ---------------------------------------------------------------------------------- */

static size_t count_lines(const ue_buf *b, const char *prefix) {
    size_t n = 0, pl = strlen(prefix);
    for (size_t i = 0; i < b->size; i++)
        if ((i == 0 || b->data[i - 1] == '\n') && i + pl <= b->size && memcmp(b->data + i, prefix, pl) == 0)
            n++;
    return n;
}

static void obj_textured_cube(void) {
    ue_scene s;
    gs_textured_cube(&s);
    ue_obj_options o = {"cube.mtl", "textures/"};
    ue_buf obj = {0}, mtl = {0};
    REQUIRE(ue_obj_export(&s, &o, &obj, &mtl, NULL) == UE_OK);
    CHECK_EQ_U(count_lines(&obj, "v "), 24);
    CHECK_EQ_U(count_lines(&obj, "vn "), 24);
    CHECK_EQ_U(count_lines(&obj, "vt "), 24);
    CHECK_EQ_U(count_lines(&obj, "f "), 12);
    CHECK_EQ_U(count_lines(&obj, "o cube"), 1);
    CHECK_EQ_U(count_lines(&obj, "usemtl m0_painted_\"metal\""), 1);
    CHECK_EQ_U(count_lines(&obj, "usemtl m1_glow"), 1);
    CHECK_EQ_U(count_lines(&obj, "mtllib cube.mtl"), 1);
    /* First vertex (0.3,-0.3,0.3) in cube space: scale 2 → (0.6,-0.6,0.6), +0.5 y →
     * (0.6,-0.1,0.6), rotate 90° about Y → (0.6,-0.1,-0.6), + (1,2,3) → (1.6,1.9,2.4). */
    char *text = malloc(obj.size + 1);
    memcpy(text, obj.data, obj.size);
    text[obj.size] = 0;
    char *v = strstr(text, "\nv ");
    REQUIRE(v);
    double x, y, z;
    REQUIRE(sscanf(v + 3, "%lf %lf %lf", &x, &y, &z) == 3);
    CHECK(fabs(x - 1.6) < 1e-5 && fabs(y - 1.9) < 1e-5 && fabs(z - 2.4) < 1e-5);
    char *vt = strstr(text, "\nvt ");
    REQUIRE(vt);
    double tu, tv;
    REQUIRE(sscanf(vt + 4, "%lf %lf", &tu, &tv) == 2);
    CHECK(tu == 0.0 && tv == 0.0); /* glTF (0, 1) → OBJ (0, 0) */
    CHECK(strstr(text, "\nf 1/1/1 2/2/2 3/3/3\n") != NULL);
    CHECK(strstr(text, "\nf 21/21/21 22/22/22 23/23/23\n") != NULL);
    free(text);
    CHECK_EQ_U(count_lines(&mtl, "newmtl "), 2);
    CHECK_EQ_U(count_lines(&mtl, "map_Kd textures/0_checker.png"), 1);
    char name[64];
    ue_obj_texture_file_name(&s, 0, name, sizeof name);
    CHECK_STR(name, "0_checker.png");
    /* MTL file names that mtllib can carry; UTF-8 letters stay, a short buffer cuts between them. */
    ue_obj_mtl_file_name("my robot.obj", name, sizeof name);
    CHECK_STR(name, "my_robot.mtl");
    ue_obj_mtl_file_name("a#b\xD0\x96.OBJ", name, sizeof name);
    CHECK_STR(name, "a_b\xD0\x96.mtl");
    ue_obj_mtl_file_name("\xD0\x96\xD0\x96.obj", name, 8); /* 3 bytes left for the stem: one letter */
    CHECK_STR(name, "\xD0\x96.mtl");
    ue_obj_options spaced = {"a b.mtl", NULL};
    ue_buf obj3 = {0}, mtl3 = {0};
    CHECK_EQ_U(ue_obj_export(&s, &spaced, &obj3, &mtl3, NULL), UE_ERR_USAGE);
    CHECK_EQ_U(obj3.size + mtl3.size, 0);
    ue_buf obj2 = {0};
    REQUIRE(ue_obj_export(&s, &o, &obj2, NULL, NULL) == UE_OK);
    CHECK_EQ_U(count_lines(&obj2, "usemtl"), 0);
    CHECK_EQ_U(count_lines(&obj2, "mtllib"), 0);
    ue_buf_free(&obj);
    ue_buf_free(&obj2);
    ue_buf_free(&mtl);
    ue_scene_free(&s);
}

static void obj_skinned_rest_pose(void) {
    ue_scene s;
    gs_skinned(&s);
    s.nodes[1].translation[0] = 5; /* moving the armature moves the skinned vertices */
    ue_buf obj = {0};
    REQUIRE(ue_obj_export(&s, NULL, &obj, NULL, NULL) == UE_OK);
    char *text = malloc(obj.size + 1);
    memcpy(text, obj.data, obj.size);
    text[obj.size] = 0;
    char *v = strstr(text, "\nv ");
    REQUIRE(v);
    double x, y, z;
    REQUIRE(sscanf(v + 3, "%lf %lf %lf", &x, &y, &z) == 3);
    CHECK(fabs(x - 4.75) < 1e-6 && y == 0 && z == 0);
    free(text);
    ue_buf_free(&obj);
    ue_scene_free(&s);
}

int main(void) {
    RUN(gltf_image_uris_with_null_entries);
    RUN(gltf_long_uri_whole);
    RUN(json_escapes_and_numbers);
    RUN(json_refuses_misuse);
    RUN(json_pretty_and_locale);
    RUN(scene_helpers_defaults);
    RUN(scene_validate_finds_errors);
    RUN(png_round_trip);
    RUN(png_quick_blank_rows);
    RUN(glb_textured_cube);
    RUN(gltf_separate_bin);
    RUN(glb_skinned_animation);
    RUN(glb_pointer_channels);
    RUN(no_animation_pointer_option);
    RUN(pointer_targets_checked);
    RUN(influences_reduced_to_four);
    RUN(glb_layers);
    RUN(unsupported_targets_warned);
    RUN(channel_forms);
    RUN(invalid_scene_refused);
    RUN(big_mesh_uses_32bit_indices);
    RUN(misc_and_empty_scenes);
    RUN(obj_textured_cube);
    RUN(obj_skinned_rest_pose);
    return TEST_SUMMARY();
}
