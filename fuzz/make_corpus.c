/* unearth fuzzing — writes the seed corpus of every libFuzzer target (fuzz/corpus/<target>/)
 * from the sample pack and our own encoders, deterministically, so the committed seeds can be
 * rebuilt and checked (the `fuzz_corpus_fresh` test diffs them). Usage: make_corpus OUT_DIR;
 * make_corpus --real-size OUT_DIR writes only OUT_DIR/dat/real_size.dat, for long runs by hand. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/codec.h"
#include "unearth/gamecube.h"
#include "unearth/gltf.h"
#include "unearth/gx.h"
#include "unearth/hsd_anim.h"
#include "unearth/hsd_model.h"
#include "unearth/lzss.h"
#include "unearth/model.h"
#include "unearth/msh.h"
#include "unearth/nres.h"
#include "unearth/obj.h"
#include "samples/samples.h"
#include "../bench/hsd_big_model.h"
#include "unearth/scene.h"
#include "unearth/texm.h"
#include "common/bytes.h"
#include "common/io.h"
#include "hsd/dat_builder.h"
#include "hsd/hsd_write_figatree.h"
#include "../tests/hsd/dat_image.h" /* the tests' hand layout helper for DAT byte images */
#include "../tests/hsd/rig_image.h" /* the strict-validation tests' structure-rich rig */
#include "../tests/export/gltf_scenes.h" /* the exporter tests' fixture scenes */

/* Seeds stay far below the -max_len scripts/fuzz.sh gives each target; only --real-size writes
 * a larger one, for long runs by hand (docs/fuzzing.md). */
#define MAX_SEED 12000u
#define MAX_HSD_IMPORT_SEED 49152u /* the sample creature's glb, its images inside: fuzz.sh's -max_len is 64 KiB */
#define MAX_REAL_SIZE_SEED 1048576u

static const char *g_root;
static int g_failures;
static size_t g_max_seed = MAX_SEED;

static void write_seed(const char *target, const char *name, const void *data, size_t n) {
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/%s", g_root, target);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t max = strcmp(target, "hsd_import") ? g_max_seed : MAX_HSD_IMPORT_SEED;
    if (n > max || ue_mkdirs(dir, NULL) != UE_OK ||
        ue_file_write_atomic(path, data, n, true, NULL) != UE_OK) {
        fprintf(stderr, "make_corpus: cannot write %s (%zu bytes)\n", path, n);
        g_failures++;
    }
}

/* Plain data the codec seeds compress: text, a zero run, and binary from the sample model. */
typedef struct plain {
    const char *name;
    const uint8_t *data;
    size_t size;
} plain;

static size_t make_plains(const ue_sample_list *pack, plain *out, uint8_t *zeros, size_t nz) {
    static const char text[] =
        "Parkan NRes RsLi LZSS: the ring starts at 0xFEE; the ring starts at 0xFEE again. "
        "abcabcabcabcabcabcabcabcabcabc 0123456789 0123456789 0123456789";
    size_t n = 0;
    out[n++] = (plain){"text", (const uint8_t *)text, sizeof text - 1};
    memset(zeros, 0, nz);
    out[n++] = (plain){"zeros", zeros, nz};
    for (size_t i = 0; i < pack->count; i++) {
        if (strcmp(pack->items[i].path, "parkan/robot.msh") != 0) continue;
        size_t take = pack->items[i].size < 1024 ? pack->items[i].size : 1024;
        out[n++] = (plain){"model", pack->items[i].data, take};
    }
    return n;
}

/* The fuzz_lzss / fuzz_lzhuf input layout: a little-endian 16-bit declared size, then a stream. */
static void write_sized_stream(const char *target, const char *name, size_t declared,
                               const ue_buf *stream) {
    ue_buf seed = {0};
    ue_buf_put_u8(&seed, (uint8_t)(declared & 0xFF));
    ue_buf_put_u8(&seed, (uint8_t)(declared >> 8));
    ue_buf_put(&seed, stream->data, stream->size);
    if (!seed.failed) write_seed(target, name, seed.data, seed.size);
    ue_buf_free(&seed);
}

static void codec_seeds(const plain *plains, size_t count) {
    char name[64];
    for (size_t i = 0; i < count; i++) {
        const plain *p = &plains[i];
        ue_buf b = {0};
        if (ue_lzss_encode(&UE_LZSS_PARKAN, 6, p->data, p->size, &b) == UE_OK) {
            snprintf(name, sizeof name, "parkan_%s.lzss", p->name);
            write_sized_stream("lzss", name, p->size, &b);
        }
        ue_buf_free(&b);
        if (ue_lzss_encode(&UE_LZSS_GAMECUBE, 9, p->data, p->size, &b) == UE_OK) {
            snprintf(name, sizeof name, "gamecube_%s.lzss", p->name);
            write_sized_stream("lzss", name, p->size, &b);
        }
        ue_buf_free(&b);
        if (ue_lzhuf_encode(6, p->data, p->size, &b) == UE_OK) {
            snprintf(name, sizeof name, "%s.lzhuf", p->name);
            write_sized_stream("lzhuf", name, p->size, &b);
        }
        ue_buf_free(&b);
        if (ue_deflate_raw_encode(9, p->data, p->size, &b) == UE_OK) {
            snprintf(name, sizeof name, "%s.deflate", p->name);
            write_sized_stream("lzhuf", name, p->size, &b);
        }
        ue_buf_free(&b);
        if (ue_gclzss_encode(p->data, p->size, 6, 0, &b) == UE_OK) {
            snprintf(name, sizeof name, "%s.lzss", p->name);
            write_seed("gc_lzss", name, b.data, b.size);
        }
        ue_buf_free(&b);
    }
    ue_buf empty = {0};
    if (ue_gclzss_encode(NULL, 0, 0, 0, &empty) == UE_OK)
        write_seed("gc_lzss", "empty.lzss", empty.data, empty.size);
    ue_buf_free(&empty);
}

/* The sample at `path` of the pack; NULL (and a failure) when the pack has none. */
static const ue_sample_file *pack_file(const ue_sample_list *pack, const char *path) {
    for (size_t i = 0; i < pack->count; i++)
        if (strcmp(pack->items[i].path, path) == 0) return &pack->items[i];
    fprintf(stderr, "make_corpus: the sample pack has no %s\n", path);
    g_failures++;
    return NULL;
}

/* Which targets a sample of the pack seeds, by its path in the pack. */
static void pack_seeds(const ue_sample_list *pack) {
    static const struct {
        const char *path, *target, *name;
    } routes[] = {
        {"parkan/objects.rlb", "nres", "objects.rlb"},
        {"parkan/textures_demo.lib", "nres", "textures_demo.lib"},
        {"parkan/robot.msh", "nres", "robot.msh"},
        {"parkan/robot.msh", "msh", "robot.msh"},
        {"parkan/robot.msh", "msh_anim", "robot.msh"},
        {"parkan/sprites_demo.lib", "rsli", "sprites_demo.lib"},
        {"gamecube/demo_colo.fsys", "fsys", "demo_colo.fsys"},
        {"gamecube/demo_xd.fsys", "fsys", "demo_xd.fsys"},
        {"gamecube/demo_colo.pkx", "pkx", "demo_colo.pkx"},
        {"gamecube/demo_xd.pkx", "pkx", "demo_xd.pkx"},
        {"gamecube/demo_model.lzss", "gc_lzss", "demo_model.lzss"},
        {"gamecube/creature.pkx", "pkx", "creature.pkx"},
        {"gamecube/dat/creature_data.dat", "dat", "fighter_data.dat"},
        {"gamecube/dat/creature_anims.dat", "dat", "anim_bank.dat"},
    };
    for (size_t r = 0; r < sizeof routes / sizeof routes[0]; r++) {
        const ue_sample_file *f = pack_file(pack, routes[r].path);
        if (f) write_seed(routes[r].target, routes[r].name, f->data, f->size);
    }
}

/* MSH animation seeds besides the robot: a three-node chain built by our writer whose tracks
 * have keys at odd and even frames (the engine's rounding edges). */
static void anim_seeds(void) {
    static const uint16_t parents[3] = {UE_MSH_NONE, 0, 1};
    ue_msh m;
    ue_buf out = {0};
    if (ue_msh_new(&m, 3, parents, NULL) != UE_OK) {
        g_failures++;
        return;
    }
    ue_msh_key a[3] = {{{0, 0, 0}, 0, {0, 0, 0, 32767}}, {{1, 0, 0}, 1, {0, 0, 23170, 23170}},
                       {{0, 2, 0}, 3, {0, 0, 0, -32767}}};
    ue_msh_key b[2] = {{{0, 0, 1}, 0, {32767, 0, 0, 0}}, {{0, 0, 2}, 2, {0, 32767, 0, 0}}};
    if (ue_msh_set_track(&m, 1, a, 3, NULL) == UE_OK && ue_msh_set_track(&m, 2, b, 2, NULL) == UE_OK &&
        ue_msh_write(&m, &out, NULL) == UE_OK)
        write_seed("msh_anim", "chain.msh", out.data, out.size);
    else
        g_failures++;
    ue_buf_free(&out);
    ue_msh_free(&m);
}

/* OBJ seeds: hand-written records the reader handles (slashes, negative indices, polygons),
 * and the sample robot exported by our OBJ writer. */
static void obj_seeds(const ue_sample_list *pack) {
    static const char triangle[] = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    static const char quad[] =
        "# quad with uvs and normals\no quad\nv -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\n"
        "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\nusemtl m\ns off\n"
        "f 1/1/1 2/2/1 3/3/1 4/4/1\nf -4//-1 -3//-1 -2//-1\n";
    write_seed("obj", "triangle.obj", triangle, sizeof triangle - 1);
    write_seed("obj", "quad.obj", quad, sizeof quad - 1);
    for (size_t i = 0; i < pack->count; i++) {
        if (strcmp(pack->items[i].path, "parkan/robot.msh") != 0) continue;
        ue_msh m;
        if (ue_msh_parse(pack->items[i].data, pack->items[i].size, UE_MODE_STRICT, &m, NULL) !=
            UE_OK)
            break;
        ue_scene s;
        ue_scene_init(&s);
        ue_msh_export_options o = {0, 0, 0}; /* LOD 0, group 0: a small but real mesh */
        ue_buf text = {0};
        if (ue_msh_to_scene(&m, "robot", &o, &s, NULL) == UE_OK &&
            ue_obj_export(&s, NULL, &text, NULL, NULL) == UE_OK)
            write_seed("obj", "robot_lod0.obj", text.data, text.size);
        ue_buf_free(&text);
        ue_scene_free(&s);
        ue_msh_free(&m);
    }
}

/* glTF import seeds: GLBs our exporter writes for small fixture scenes (skinning and CUBICSPLINE,
 * pointer channels, vertex colours, a textured cube with its PNG), and a .gltf whose buffer is a
 * data: URI (a triangle, u16 indices, a matrix node). The sample robot's GLB (18 KB) is larger
 * than the fuzzer's input limit. */
static void gltf_seed(const char *name, const ue_scene *s) {
    ue_gltf_options o = {.format = UE_GLTF_GLB};
    ue_buf glb = {0};
    if (ue_gltf_export(s, &o, &glb, NULL, NULL) == UE_OK) write_seed("gltf_import", name, glb.data, glb.size);
    else g_failures++;
    ue_buf_free(&glb);
}

static void gltf_seeds(void) {
    static const char json[] =
        "{\"asset\":{\"version\":\"2.0\"},\"nodes\":[{\"mesh\":0,\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,"
        "1,2,3,1]}],\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
        "{\"bufferView\":1,\"componentType\":5123,\"count\":3,\"type\":\"SCALAR\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,"
        "\"byteLength\":6}],\"buffers\":[{\"byteLength\":42,\"uri\":\"data:application/octet-stream;"
        "base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAABAAIA\"}]}";
    write_seed("gltf_import", "triangle_data_uri.gltf", json, sizeof json - 1);
    void (*const scenes[])(ue_scene *) = {gs_skinned, gs_pointer, gs_misc, gs_textured_cube};
    static const char *const names[] = {"skinned.glb", "pointer.glb", "misc.glb", "cube.glb"};
    for (size_t i = 0; i < 4; i++) {
        ue_scene s;
        scenes[i](&s);
        gltf_seed(names[i], &s);
        ue_scene_free(&s);
    }
}

/* glTF → DAT seeds: the sample creature's DAT as convert exports it (the edit path against the same
 * DAT gives it back byte for byte), and fixture scenes a new model takes (a rigid quad with a node
 * clip and a texture, a textured cube, a triangle with vertex colours). */
static void hsd_import_seeds(void) {
    ue_buf dat = {0}, glb = {0};
    ue_model_found *found = NULL;
    size_t count = 0;
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_options o = {.format = UE_GLTF_GLB};
    ue_result r = ue_sample_creature_dat(&dat);
    if (r == UE_OK) r = ue_model_collect_memory(dat.data, dat.size, "creature.dat", UE_MODE_STRICT, &found, &count, NULL);
    if (r == UE_OK && count == 1) r = ue_model_to_scene(&found[0], "creature", UE_MODE_STRICT, NULL, &s, NULL);
    if (r == UE_OK && count == 1) r = ue_gltf_export(&s, &o, &glb, NULL, NULL);
    if (r == UE_OK && count == 1) write_seed("hsd_import", "creature.glb", glb.data, glb.size);
    else g_failures++;
    ue_buf_free(&glb), ue_buf_free(&dat);
    ue_scene_free(&s);
    ue_model_found_free(found, count);
    void (*const scenes[])(ue_scene *) = {gs_pointer, gs_textured_cube, gs_misc};
    static const char *const names[] = {"quad_clip.glb", "cube.glb", "triangle.glb"};
    for (size_t i = 0; i < 3; i++) {
        scenes[i](&s);
        glb = (ue_buf){0};
        if (ue_gltf_export(&s, &o, &glb, NULL, NULL) == UE_OK) write_seed("hsd_import", names[i], glb.data, glb.size);
        else g_failures++;
        ue_buf_free(&glb);
        ue_scene_free(&s);
    }
}

/* A one-mesh model laid out by hand from docs/formats/hsd-model.md (seeds the struct reader and the
 * display-list decoder): joint d+0x00 → DObj d+0x40 → MObj d+0x50 and PObj d+0x68, whose
 * descriptors (d+0x80: POS direct S16 XYZ, then the 0xFF terminator) drive a 32-byte list at
 * d+0xC0 holding one strip of 4 vertices. Root "x_joint". */
static void dat_model_seed(void) {
    static const uint32_t relocs[] = {0x10, 0x48, 0x4C, 0x70, 0x78};
    static const int16_t strip[12] = {0, 0, 0, 256, 0, 0, 0, 256, 0, 256, 256, 0};
    uint8_t data[0xE0] = {0};
    const uint32_t words[][2] = {
        {0x10, 0x40}, {0x20, 0x3F800000}, {0x24, 0x3F800000}, {0x28, 0x3F800000}, /* joint */
        {0x48, 0x50}, {0x4C, 0x68},                                                /* DObj */
        {0x70, 0x80}, {0x74, 0x00000001}, {0x78, 0xC0},                            /* PObj */
        {0x80, 9}, {0x84, 1}, {0x88, 1}, {0x8C, 3}, {0x98, 0xFF},                  /* attrs */
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        for (uint32_t k = 0; k < 4; k++)
            data[words[i][0] + k] = (uint8_t)(words[i][1] >> (24 - 8 * k));
    data[0xC0] = 0x98; /* TRIANGLE_STRIP, 4 vertices */
    data[0xC2] = 4;
    for (int i = 0; i < 12; i++) {
        data[0xC3 + 2 * i] = (uint8_t)((uint16_t)strip[i] >> 8);
        data[0xC4 + 2 * i] = (uint8_t)strip[i];
    }
    static const char name[] = "x_joint";
    uint32_t n = 0x20 + sizeof data + sizeof relocs + 8 + sizeof name;
    ue_buf b = {0};
    const uint32_t header[8] = {n, sizeof data, 5, 1, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++) ue_buf_put_u32be(&b, header[i]);
    ue_buf_put(&b, data, sizeof data);
    for (size_t i = 0; i < 5; i++) ue_buf_put_u32be(&b, relocs[i]);
    ue_buf_put_u32be(&b, 0);
    ue_buf_put_u32be(&b, 0);
    ue_buf_put(&b, name, sizeof name);
    if (!b.failed) write_seed("dat", "one_mesh.dat", b.data, b.size);
    ue_buf_free(&b);
}

/* A skinned, textured model laid out with the tests' helper (docs/formats/hsd-model.md): scene_data →
 * ModelSet → joints J0 (child J1, whose sibling J2 is an INSTANCE); J1 → DObj → MObj (Material,
 * PE, TObj → C8 image + RGB5A3 palette) → an ENVELOPE PObj (PNMTXIDX, POS index16 S16, NRM
 * index8 S8, CLR0 RGBA6, TEX0 index8 U8; a fan, a quad and a strip) with envelopes over J0, J1. */
static uint32_t seed_attr(dat_image *b, uint32_t at, const uint32_t v[6], uint32_t array) {
    for (uint32_t k = 0; k < 4; k++) di_u32(b, at + 4 * k, v[k]);
    di_u8(b, at + 16, (uint8_t)v[4]);
    di_u16(b, at + 18, (uint16_t)v[5]);
    if (array) di_ptr(b, at + 20, array);
    return at + 0x18;
}

static void seed_skinned_mesh(dat_image *b, uint32_t j0, uint32_t j1, uint32_t pobj) {
    uint32_t pos = di_alloc(b, 6 * 4, 32), nrm = di_alloc(b, 3 * 2, 32), uv = di_alloc(b, 8, 32);
    for (uint32_t i = 0; i < 24; i++) di_u8(b, pos + i, (uint8_t)(i * 29));
    di_u8(b, nrm + 2, 64);
    di_u8(b, uv + 1, 16);
    uint32_t attrs = di_alloc(b, 6 * 0x18, 4), at = attrs;
    const uint32_t a[5][6] = {{0, 1, 0, 0, 0, 0}, {9, 3, 1, 3, 8, 6}, {10, 2, 0, 1, 6, 3},
                              {11, 1, 1, 4, 0, 0}, {13, 2, 1, 0, 4, 2}};
    const uint32_t arrays[5] = {0, pos, nrm, 0, uv};
    for (int k = 0; k < 5; k++) at = seed_attr(b, at, a[k], arrays[k]);
    di_u32(b, at, 0xFF);
    /* a fan of 3, a quad, a strip of 4; records: PNMTXIDX, POS u16, NRM u8, RGBA6, TEX0 u8 */
    const uint8_t prims[3][2] = {{0xA0, 3}, {0x80, 4}, {0x98, 4}};
    const uint8_t first_pos[3] = {0, 0, 3};
    uint32_t dl = di_alloc(b, 128, 32), w = dl;
    for (int p = 0; p < 3; p++) {
        di_u8(b, w, prims[p][0]);
        di_u16(b, w + 1, prims[p][1]);
        w += 3;
        for (uint8_t v = 0; v < prims[p][1]; v++, w += 8) {
            uint8_t e = (uint8_t)(p == 2 ? first_pos[p] - v : v); /* the array entry */
            const uint8_t rec[8] = {(uint8_t)(3 * (e & 1)), 0, e, (uint8_t)(e & 1),
                                    (uint8_t)(0x40 * e), 0x12, 0x3F, (uint8_t)(e & 3)};
            memcpy(b->data + w, rec, sizeof rec);
        }
    }
    uint32_t e0 = di_alloc(b, 16, 4), e1 = di_alloc(b, 24, 4), envs = di_alloc(b, 12, 4);
    di_ptr(b, e0, j0);
    di_f32(b, e0 + 4, 1.0f);
    di_ptr(b, e1, j0);
    di_f32(b, e1 + 4, 0.5f);
    di_ptr(b, e1 + 8, j1);
    di_f32(b, e1 + 12, 0.5f);
    di_ptr(b, envs, e0);
    di_ptr(b, envs + 4, e1);
    di_ptr(b, pobj + 8, attrs);
    di_u16(b, pobj + 0x0C, 0x2000);
    di_u16(b, pobj + 0x0E, 4);
    di_ptr(b, pobj + 0x10, dl);
    di_ptr(b, pobj + 0x14, envs);
}

static void seed_material(dat_image *b, uint32_t mobj) {
    uint32_t mat = di_alloc(b, 0x14, 4), pe = di_alloc(b, 0x0C, 4), t = di_alloc(b, 0x5C, 4);
    uint32_t im = di_alloc(b, 0x18, 4), tl = di_alloc(b, 0x10, 4);
    uint32_t px = di_alloc(b, 32, 32), lut = di_alloc(b, 8, 32);
    di_u32(b, mat + 4, 0xFF8040FF);
    di_f32(b, mat + 0x0C, 1.0f);
    di_u8(b, pe + 4, 1);
    di_u32(b, mobj + 4, 0x00000016);
    di_ptr(b, mobj + 8, t);
    di_ptr(b, mobj + 0x0C, mat);
    di_ptr(b, mobj + 0x14, pe);
    di_u32(b, t + 0x0C, 4);
    di_f32(b, t + 0x1C, 1.0f);
    di_f32(b, t + 0x20, 1.0f);
    di_u32(b, t + 0x34, 1);
    di_u32(b, t + 0x38, 1);
    di_u8(b, t + 0x3C, 1);
    di_u8(b, t + 0x3D, 1);
    di_ptr(b, t + 0x4C, im);
    di_ptr(b, t + 0x50, tl);
    di_ptr(b, im, px);
    di_u16(b, im + 4, 8);
    di_u16(b, im + 6, 4);
    di_u32(b, im + 8, UE_GX_C8);
    di_ptr(b, tl, lut);
    di_u32(b, tl + 4, UE_GX_TLUT_RGB5A3);
    di_u16(b, tl + 12, 4);
}

static void dat_skinned_seed(void) {
    static dat_image b;
    di_init(&b);
    uint32_t scene = di_alloc(&b, 0x10, 4), sets = di_alloc(&b, 8, 4), ms = di_alloc(&b, 0x10, 4);
    uint32_t j[3], dobj, mobj, pobj;
    for (int k = 0; k < 3; k++) {
        j[k] = di_alloc(&b, 0x40, 4);
        for (uint32_t c = 0; c < 3; c++) di_f32(&b, j[k] + 0x20 + 4 * c, 1.0f);
    }
    dobj = di_alloc(&b, 0x10, 4), mobj = di_alloc(&b, 0x18, 4), pobj = di_alloc(&b, 0x18, 4);
    di_ptr(&b, scene, sets);
    di_ptr(&b, sets, ms);
    di_ptr(&b, ms, j[0]);
    di_u32(&b, j[0] + 4, 0x6);
    di_ptr(&b, j[0] + 8, j[1]);
    di_u32(&b, j[1] + 4, 0x1);
    di_ptr(&b, j[1] + 0x0C, j[2]);
    di_u32(&b, j[2] + 4, 0x1000);
    di_ptr(&b, j[2] + 8, j[0]); /* INSTANCE: a raw link, not a child */
    di_ptr(&b, j[1] + 0x10, dobj);
    di_ptr(&b, dobj + 8, mobj);
    di_ptr(&b, dobj + 0x0C, pobj);
    uint32_t ib = di_alloc(&b, 48, 4);
    for (uint32_t k = 0; k < 3; k++) di_f32(&b, ib + 20 * k, 1.0f);
    di_ptr(&b, j[1] + 0x38, ib);
    seed_material(&b, mobj);
    seed_skinned_mesh(&b, j[0], j[1], pobj);
    di_root(&b, scene, "scene_data");
    size_t n = 0;
    uint8_t *file = di_file(&b, &n);
    write_seed("dat", "skinned.dat", file, n);
    free(file);
}

/* Rigs of the kinds real fighter and prop models show (tests/hsd/rig_image.h): a joint chain,
 * ENVELOPE PObjs with full (10) and over-long (12) envelope lists, MatAnim lists longer than
 * the DObj lists, a relocated word nothing follows. */
static void dat_rig_seeds(void) {
    static const struct {
        const char *name;
        rig_shape shape;
    } rigs[] = {
        {"rig_ten_envelopes.dat", {40, 10, 10, 1, 0}},
        {"rig_long_lists.dat", {28, 8, 12, 2, 1}},
    };
    static dat_image b;
    for (size_t i = 0; i < sizeof rigs / sizeof rigs[0]; i++) {
        rig_layout o;
        rig_build(&b, &rigs[i].shape, &o);
        size_t n = 0;
        uint8_t *file = di_file(&b, &n);
        write_seed("dat", rigs[i].name, file, n);
        free(file);
    }
}

/* Joint `joint` draws one strip of 4 vertices: DObj → MObj (zeros) and PObj → POS direct S16 XYZ. */
static void datb_strip_mesh(ue_dat_builder *b, uint32_t joint) {
    static const int16_t strip[12] = {0, 0, 0, 256, 0, 0, 0, 256, 0, 256, 256, 0};
    uint32_t dobj = ue_datb_alloc(b, 0x10, UE_DATB_STRUCT_ALIGN), mobj = ue_datb_alloc(b, 0x18, UE_DATB_STRUCT_ALIGN);
    uint32_t pobj = ue_datb_alloc(b, 0x18, UE_DATB_STRUCT_ALIGN), attrs = ue_datb_alloc(b, 0x1C, UE_DATB_STRUCT_ALIGN);
    uint32_t dl = ue_datb_alloc(b, 32, UE_DATB_GX_ALIGN);
    const uint32_t pos[4] = {9, 1, 1, 3}; /* POS, DIRECT, XYZ, S16 */
    for (uint32_t k = 0; k < 4; k++) ue_datb_u32(b, attrs + 4 * k, pos[k]);
    ue_datb_u32(b, attrs + 0x18, 0xFF);
    ue_datb_u8(b, dl, 0x98); /* TRIANGLE_STRIP */
    ue_datb_u16(b, dl + 1, 4);
    for (uint32_t i = 0; i < 12; i++) ue_datb_u16(b, dl + 3 + 2 * i, (uint16_t)strip[i]);
    ue_datb_pointer(b, joint + 0x10, dobj);
    ue_datb_pointer(b, dobj + 8, mobj);
    ue_datb_pointer(b, dobj + 0x0C, pobj);
    ue_datb_pointer(b, pobj + 8, attrs);
    ue_datb_u16(b, pobj + 0x0E, 1); /* one 32-byte display-list block */
    ue_datb_pointer(b, pobj + 0x10, dl);
}

/* A model of three joints in a chain (root "PlyFuzz_Share_joint", one strip on the last) and, in
 * the same DAT, two FigaTree clips (docs/formats/hsd-animation.md#figatree): Walk drives all three joints with float,
 * s16 and u8 keys of every interpolation, and binds; Other has two nodes and is left out (joint
 * count). The clips of a model's own DAT go through the same binding as `convert --anims`. */
static void dat_figatree_model_seed(void) {
    static const ue_hsd_key turn[] = {{UE_HSD_KEY_LIN, 0, 0, 0, 10}, {UE_HSD_KEY_SPL0, 0, 1.5f, 0, 10},
                                      {UE_HSD_KEY_SPL, 0, 0.5f, -0.1f, 10}, {UE_HSD_KEY_CON, 0, 0, 0, 0}};
    static const ue_hsd_key lift[] = {{UE_HSD_KEY_KEY, 0, 1, 0, 15}, {UE_HSD_KEY_LIN, 0, 3, 0, 15},
                                      {UE_HSD_KEY_LIN, 0, 1, 0, 0}};
    static const ue_hsd_key hold[] = {{UE_HSD_KEY_CON, 0, 2, 0, 30}, {UE_HSD_KEY_CON, 0, 2, 0, 0}};
    static const hsd_figatree_track_def walk[] = {
        {UE_HSD_JT_TRAY, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, 0, lift, 3},
        {UE_HSD_JT_ROTZ, UE_HSD_FMT_S16 | 12, UE_HSD_FMT_S16 | 12, -2, turn, 4},
        {UE_HSD_JT_ROTX, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, 0, turn, 4},
        {UE_HSD_JT_SCAX, UE_HSD_FMT_U8 | 4, UE_HSD_FMT_U8, 0, hold, 2},
    };
    static const uint8_t walk_counts[3] = {1, 2, 1}, other_counts[2] = {0, 1};
    const hsd_figatree_def clips[2] = {{30, walk_counts, 3, walk}, {30, other_counts, 2, walk + 2}};
    static const char *const names[2] = {"PlyFuzz_Share_ACTION_Walk_figatree", "PlyFuzz_Share_ACTION_Other_figatree"};
    ue_dat_builder b;
    ue_datb_init(&b);
    uint32_t joints[3];
    for (uint32_t j = 0; j < 3; j++) {
        joints[j] = ue_datb_alloc(&b, 0x40, UE_DATB_STRUCT_ALIGN);
        for (uint32_t k = 0; k < 3; k++) ue_datb_f32(&b, joints[j] + 0x20 + 4 * k, 1.0f); /* scale */
        ue_datb_f32(&b, joints[j] + 0x2C, j ? 1.0f : 0.0f);                               /* x */
        if (j) ue_datb_pointer(&b, joints[j - 1] + 8, joints[j]);                        /* child */
    }
    datb_strip_mesh(&b, joints[2]);
    ue_datb_root(&b, joints[0], "PlyFuzz_Share_joint");
    ue_result r = UE_OK;
    for (size_t i = 0; i < 2 && r == UE_OK; i++) {
        uint32_t head = 0;
        r = hsd_figatree_write(&b, &clips[i], &head);
        ue_datb_root(&b, head, names[i]);
    }
    ue_buf out = {0};
    if (r == UE_OK) r = ue_datb_finish(&b, &out);
    if (r == UE_OK) write_seed("dat", "joints_and_figatree.dat", out.data, out.size);
    else g_failures++;
    ue_buf_free(&out);
    ue_datb_free(&b);
}

/* The sample creature as a multi-root model (docs/formats/hsd-animation.md#root-naming): its joint tree under
 * "creature_joint" and its first skeletal and its material clip as the sibling roots
 * "creature_animjoint" and "creature_matanim_joint", which bind to it by their common stem;
 * the other skeletal clip stays a standalone tree of another stem ("creature_2_animjoint"). */
static void dat_multi_root_seed(const ue_buf *creature) {
    static const char *const skeletal[] = {"creature_animjoint", "creature_2_animjoint"};
    ue_dat dat;
    ue_hsd_model m;
    memset(&m, 0, sizeof m);
    ue_buf out = {0};
    ue_result r = ue_dat_parse(creature->data, creature->size, UE_MODE_STRICT, &dat, NULL);
    if (r == UE_OK) r = ue_hsd_model_read(&dat, UE_MODE_STRICT, &m, NULL);
    if (r == UE_OK && m.set_count == 1) {
        m.sets[0].root_name = "creature_joint";
        size_t skeletal_seen = 0;
        for (size_t i = 0; i < m.anims.clip_count; i++) {
            ue_hsd_clip *c = &m.anims.clips[i];
            c->root_name = c->material ? "creature_matanim_joint" : skeletal[skeletal_seen++ % 2];
        }
        r = ue_hsd_model_write(&m, &out, NULL);
    }
    if (r == UE_OK && out.size) write_seed("dat", "multi_root.dat", out.data, out.size);
    else g_failures++;
    ue_buf_free(&out);
    ue_hsd_model_free(&m);
    ue_dat_free(&dat);
}

/* The kinds of DAT Melee keeps a fighter in (the pack's gamecube/dat/, docs/hsd.md): the bank's
 * first DAT alone, a FigaTree clip file, besides the bank and the fighter data themselves. */
static void dat_clip_seed(const ue_sample_list *pack) {
    const ue_sample_file *bank = pack_file(pack, "gamecube/dat/creature_anims.dat");
    uint32_t first = bank && bank->size >= 4 ? ue_load_u32be(bank->data) : 0;
    if (first && first < bank->size) write_seed("dat", "figatree_clip.dat", bank->data, first);
    else g_failures++;
}

/* --real-size: a real-size model (bench/hsd_big_model.c, the bench's HSD_BIG_REAL: 48 joints, 50
 * meshes with 64×64 textures) with one of its 24 clips of 120 frames, 625 KB. Not in the committed
 * corpus: one run of it takes about 0.5 s under the fuzz build's sanitizers (the whole bench model
 * 6 s) and it reaches no more code than the small seeds (docs/fuzzing.md has the figures). */
static void dat_real_size_seed(void) {
    ue_buf big = {0};
    hsd_big_shape real = HSD_BIG_REAL;
    real.clips = 1;
    if (hsd_big_model_dat(&real, &big) == UE_OK) write_seed("dat", "real_size.dat", big.data, big.size);
    else g_failures++;
    ue_buf_free(&big);
}

/* A DAT laid out by hand from docs/formats/dat.md:
 * a 0x20-byte data block with a pointer to d+0x10 and a relocated 0, two relocations, roots
 * "scene_data" and "x_joint", a reference "ext_sym" whose chain ends at once. */
static void dat_seeds(const ue_sample_list *pack) {
    static const char strings[] = "scene_data\0x_joint\0ext_sym"; /* + its NUL: 0x1B bytes */
    static const uint32_t words[] = {
        0x7B, 0x20, 2, 2, 1, 0, 0, 0,                                      /* header */
        0x10, 0x3FC00000, 0xDEADBEEF, 0, 7, 0xC0000000, 0, 0xFFFFFFFF,     /* data */
        0x0C, 0x00,                                                        /* relocations */
        0x00, 0x00, 0x10, 0x0B,                                            /* roots */
        0x1C, 0x13,                                                        /* reference */
    };
    ue_buf b = {0};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) ue_buf_put_u32be(&b, words[i]);
    ue_buf_put(&b, strings, sizeof strings);
    if (!b.failed) write_seed("dat", "two_roots.dat", b.data, b.size);
    ue_buf_free(&b);
    dat_model_seed();
    dat_skinned_seed();
    dat_rig_seeds();
    /* the sample creature, written by ue_hsd_model_write: every struct kind the reader knows */
    ue_buf c = {0};
    if (ue_sample_creature_dat(&c) == UE_OK) {
        write_seed("dat", "creature.dat", c.data, c.size);
        dat_multi_root_seed(&c);
    } else {
        g_failures++;
    }
    ue_buf_free(&c);
    /* a real model's structure in little (bench/hsd_big_model.c): joint chains, textured meshes,
     * hermite clips on every joint */
    ue_buf big = {0};
    hsd_big_shape small = {8, 4, 8, 3, 2, 30};
    if (hsd_big_model_dat(&small, &big) == UE_OK) write_seed("dat", "chains_and_clips.dat", big.data, big.size);
    else g_failures++;
    ue_buf_free(&big);
    dat_figatree_model_seed();
    dat_clip_seed(pack);
}

/* GX textures (fuzz_gx): an 8-byte header (format, palette format, width and height BE,
 * palette entries, extra mip levels), the palette, then patterned texel data. */
static void gx_seed(const char *name, uint8_t format, uint8_t tlut_format, uint16_t w, uint16_t h,
                    uint8_t entries, uint8_t levels) {
    uint8_t seed[8 + 512 + 2048];
    size_t data = 0;
    for (unsigned l = 0; l <= levels; l++) {
        size_t bytes = 0;
        if (ue_gx_level_size(format, w, h, l, NULL, NULL, &bytes, NULL) != UE_OK) g_failures++;
        data += bytes;
    }
    size_t n = 8 + (size_t)entries * 2 + data;
    if (n > sizeof seed) {
        g_failures++;
        return;
    }
    seed[0] = format, seed[1] = tlut_format, seed[6] = entries, seed[7] = levels;
    seed[2] = (uint8_t)(w >> 8), seed[3] = (uint8_t)w, seed[4] = (uint8_t)(h >> 8), seed[5] = (uint8_t)h;
    for (size_t i = 8; i < n; i++) seed[i] = (uint8_t)(i * 37 + 11);
    write_seed("gx", name, seed, n);
}

static void gx_seeds(void) {
    gx_seed("cmpr_16x16_mips", UE_GX_CMPR, 0, 16, 16, 0, 4);
    gx_seed("rgb5a3_8x8_mips", UE_GX_RGB5A3, 0, 8, 8, 0, 3);
    gx_seed("rgba8_4x4", UE_GX_RGBA8, 0, 4, 4, 0, 0);
    gx_seed("i4_3x10", UE_GX_I4, 0, 3, 10, 0, 0);
    gx_seed("c4_rgb565", UE_GX_C4, UE_GX_TLUT_RGB565, 8, 8, 16, 0);
    gx_seed("c8_ia8", UE_GX_C8, UE_GX_TLUT_IA8, 16, 4, 255, 0);
    gx_seed("c14x2_rgb5a3", UE_GX_C14X2, UE_GX_TLUT_RGB5A3, 4, 4, 20, 0);
}

/* MAT0 entries of the sample Material.lib (a version byte, then the payload) and the robot's
 * WEAR (0x80, then the text) for fuzz_mat0_wear. */
static void material_seeds(const ue_sample_list *pack) {
    for (size_t i = 0; i < pack->count; i++) {
        const ue_sample_file *f = &pack->items[i];
        uint8_t seed[4096];
        if (strcmp(f->path, "parkan/robot.wea") == 0 && f->size < sizeof seed) {
            seed[0] = 0x80;
            memcpy(seed + 1, f->data, f->size);
            write_seed("mat0_wear", "robot.wea", seed, f->size + 1);
        }
        if (strcmp(f->path, "parkan/Material.lib") != 0) continue;
        ue_source src = ue_source_memory(f->data, f->size);
        ue_nres n;
        if (ue_nres_parse(&src, UE_MODE_STRICT, &n, NULL) != UE_OK) {
            g_failures++;
            continue;
        }
        for (size_t e = 0; e < n.count; e++) {
            const uint8_t *payload;
            uint8_t *to_free = NULL;
            char name[64];
            if (n.entries[e].size >= sizeof seed || ue_nres_payload(&n, e, &payload, &to_free, NULL) != UE_OK) continue;
            seed[0] = (uint8_t)(n.entries[e].attr2 & 7u);
            memcpy(seed + 1, payload, n.entries[e].size);
            ue_nres_entry_name(&n.entries[e], name, sizeof name);
            write_seed("mat0_wear", name, seed, n.entries[e].size + 1);
            free(to_free);
        }
        ue_nres_free(&n);
    }
}

/* Texm seeds (`texm`): every pixel format from a patterned picture by our builder, a mip chain
 * with a Page chunk, and a chain cut short (tolerant reading keeps the complete levels). */
static void texm_seeds(void) {
    static const struct {
        const char *name;
        uint32_t format, side, mips;
    } kinds[] = {
        {"8888_chain_page.texm", 8888, 8, 0}, {"565.texm", 565, 4, 1},  {"556.texm", 556, 2, 1},
        {"4444_two.texm", 4444, 4, 2},        {"88.texm", 88, 2, 1},    {"888.texm", 888, 4, 1},
        {"indexed.texm", 0, 4, 3},
    };
    uint8_t rgba[8 * 8 * 4];
    for (size_t i = 0; i < sizeof rgba; i++) rgba[i] = (uint8_t)(i * 29 + (i >> 5) * 64);
    static const ue_texm_rect rects[] = {{0, 4, 0, 8}, {4, 4, 0, 8}};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        bool page = kinds[k].mips == 0;
        ue_texm_build how = {kinds[k].format, kinds[k].mips, 0x20, 0, 0, page ? rects : NULL, page ? 2u : 0u, false};
        ue_buf b = {0};
        if (ue_texm_build_rgba(kinds[k].side, kinds[k].side, rgba, &how, &b, NULL) == UE_OK) {
            write_seed("texm", kinds[k].name, b.data, b.size);
            if (page && b.size > 40) write_seed("texm", "8888_cut.texm", b.data, b.size - 40);
        } else {
            fprintf(stderr, "make_corpus: cannot build %s\n", kinds[k].name);
            g_failures++;
        }
        ue_buf_free(&b);
    }
}

/* HSD key streams (fuzz_hsd_anim): value format, slope format, start frame (s8), then the key
 * bytes our encoder writes — every opcode, every format, a run past 8 entries, long waits. */
static void hsd_anim_seed(const char *name, uint8_t vf, uint8_t sf, int8_t start,
                          const ue_hsd_key *keys, size_t count) {
    ue_buf b = {0};
    ue_buf_put_u8(&b, vf);
    ue_buf_put_u8(&b, sf);
    ue_buf_put_u8(&b, (uint8_t)start);
    if (ue_hsd_keys_encode(keys, count, vf, sf, &b) != UE_OK || b.failed) {
        fprintf(stderr, "make_corpus: cannot encode the key stream %s\n", name);
        g_failures++;
    } else {
        write_seed("hsd_anim", name, b.data, b.size);
    }
    ue_buf_free(&b);
}

static void hsd_anim_seeds(void) {
    const ue_hsd_key every_op[] = {
        {UE_HSD_KEY_SPL, 0, 0.5f, 1.0f, 4},  {UE_HSD_KEY_SLP, 0, 0, -2.0f, 0},
        {UE_HSD_KEY_SPL, 0, 2.0f, 0.25f, 6}, {UE_HSD_KEY_SPL0, 0, 1.0f, 0, 3},
        {UE_HSD_KEY_LIN, 0, -3.0f, 0, 2},    {UE_HSD_KEY_KEY, 0, 7.0f, 0, 1},
        {UE_HSD_KEY_CON, 0, 1.5f, 0, 0}};
    hsd_anim_seed("float_every_op", UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT, 0, every_op, 7);
    hsd_anim_seed("s16_u8_every_op", UE_HSD_FMT_S16 | 8, UE_HSD_FMT_S8 | 4, -10, every_op, 7);
    /* s16 with 12 fraction bits: how Melee's FigaTree banks pack rotations */
    hsd_anim_seed("s16_12_every_op", UE_HSD_FMT_S16 | 12, UE_HSD_FMT_S16 | 12, 0, every_op, 7);
    ue_hsd_key run[12];
    for (int i = 0; i < 12; i++)
        run[i] = (ue_hsd_key){UE_HSD_KEY_LIN, 0, (float)(i * 3), 0, (uint32_t)(i * 100)};
    hsd_anim_seed("u16_long_run", UE_HSD_FMT_U16 | 2, 0, 5, run, 12);
    const ue_hsd_key steps[] = {{UE_HSD_KEY_KEY, 0, 0, 0, 10}, {UE_HSD_KEY_KEY, 0, 2, 0, 10},
                                {UE_HSD_KEY_KEY, 0, 1, 0, 10}, {UE_HSD_KEY_CON, 0, 0, 0, 0}};
    hsd_anim_seed("u8_atlas_steps", UE_HSD_FMT_U8, UE_HSD_FMT_U8, 0, steps, 4);
}

/* manifest.json as extract writes it (an NRes with one entry and one unindexed range), and
 * the syntax a hand edit may bring: escapes, a surrogate pair, reals, null, nesting. */
static void json_doc_seeds(void) {
    static const char manifest[] =
        "{\n  \"unearth_manifest\": 1,\n  \"format\": \"nres\",\n  \"source\": {\n"
        "    \"file\": \"objects.rlb\",\n    \"size\": 11808\n  },\n  \"header\": {\n"
        "    \"magic\": \"NRes\",\n    \"version\": 256,\n    \"entry_count\": 1,\n"
        "    \"sort_table_valid\": true\n  },\n  \"entries\": [\n    {\n"
        "      \"index\": 0,\n      \"name\": \"robot.wea\",\n"
        "      \"name_hex\": \"726f626f742e776561\",\n      \"type_id\": 1380009303,\n"
        "      \"file\": \"entries/0000_robot.wea\",\n"
        "      \"xxh64\": \"2f4a5cd9a1b2c3d4\"\n    }\n  ],\n  \"unindexed\": [\n"
        "    {\n      \"offset\": 21,\n      \"size\": 3,\n"
        "      \"file\": \"unindexed/00000015.bin\"\n    }\n  ]\n}\n";
    static const char escapes[] =
        "[\"q\\\"b\\\\s\\/\\b\\f\\n\\r\\t\", \"\\u00e9\\u20AC\\ud83d\\ude00\", "
        "\"\xD0\x96\", {\"k\": [[], {}, null, false]}]";
    static const char numbers[] = "{\"i\": -9223372036854775808, \"r\": 1.5e-3, \"z\": -0, "
                                  "\"e\": 2E+10, \"big\": 9223372036854775807}";
    write_seed("json_doc", "manifest.json", manifest, sizeof manifest - 1);
    write_seed("json_doc", "escapes.json", escapes, sizeof escapes - 1);
    write_seed("json_doc", "numbers.json", numbers, sizeof numbers - 1);
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--real-size") == 0) {
        g_root = argv[2];
        g_max_seed = MAX_REAL_SIZE_SEED;
        dat_real_size_seed();
        return g_failures ? 1 : 0;
    }
    if (argc != 2) {
        fprintf(stderr, "usage: make_corpus OUT_DIR | make_corpus --real-size OUT_DIR\n");
        return 2;
    }
    g_root = argv[1];
    ue_sample_list pack = {0};
    if (ue_samples_build(&pack) != UE_OK) {
        fprintf(stderr, "make_corpus: cannot build the sample pack\n");
        return 3;
    }
    static uint8_t zeros[2048];
    plain plains[4];
    size_t n = make_plains(&pack, plains, zeros, sizeof zeros);
    pack_seeds(&pack);
    codec_seeds(plains, n);
    obj_seeds(&pack);
    anim_seeds();
    material_seeds(&pack);
    dat_seeds(&pack);
    gx_seeds();
    texm_seeds();
    hsd_anim_seeds();
    gltf_seeds();
    hsd_import_seeds();
    json_doc_seeds();
    ue_sample_list_free(&pack);
    return g_failures ? 1 : 0;
}
