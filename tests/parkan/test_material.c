/* Tests of Parkan materials: WEAR text and MAT0 payloads built by hand from docs/formats/materials.md,
 * their byte-exact writers, every class of bad input, and the model → texture resolution. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "test.h"
#include "unearth/archive.h"
#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "unearth/scene.h"
#include "common/bytes.h"
#include "parkan/msh_materials.h"

/* ---- WEAR ------------------------------------------------------------------------------------ */

static const char wear_text[] = "2\r\n0 ROBOT_BODY\r\n1 ROBOT_EYE\r\n\r\nLIGHTMAPS\r\n1\r\n0 LM_ROBOT.0\r\n";

static void wear_parses_rows_and_lightmaps(void) {
    ue_wear w;
    ue_diag d = {0};
    REQUIRE(ue_wear_parse((const uint8_t *)wear_text, sizeof wear_text - 1, 100, UE_MODE_STRICT, &w, &d) == UE_OK);
    CHECK_EQ_U(w.material_count, 2);
    CHECK_STR(w.materials[0].name, "ROBOT_BODY");
    CHECK_STR(w.materials[1].name, "ROBOT_EYE");
    CHECK_STR(w.materials[1].legacy_id, "1");
    CHECK(w.has_lightmaps);
    CHECK_EQ_U(w.lightmap_count, 1);
    CHECK_STR(w.lightmaps[0].name, "LM_ROBOT.0");
    CHECK(w.crlf);
    CHECK(w.canonical);
    CHECK_EQ_U(d.count, 0);
    ue_buf b = {0};
    REQUIRE(ue_wear_write(&w, &b, &d) == UE_OK);
    CHECK_EQ_U(b.size, sizeof wear_text - 1);
    CHECK_MEM(b.data, wear_text, sizeof wear_text - 1);
    ue_buf_free(&b);
    ue_wear_free(&w);
    ue_diag_free(&d);
}

static void wear_without_lightmaps_lf(void) {
    static const char t[] = "1\n7 DEFAULT\n";
    ue_wear w;
    REQUIRE(ue_wear_parse((const uint8_t *)t, sizeof t - 1, 0, UE_MODE_STRICT, &w, NULL) == UE_OK);
    CHECK_EQ_U(w.material_count, 1);
    CHECK(!w.has_lightmaps);
    CHECK(!w.crlf);
    CHECK(w.canonical);
    ue_buf b = {0};
    REQUIRE(ue_wear_write(&w, &b, NULL) == UE_OK);
    CHECK_MEM(b.data, t, sizeof t - 1);
    ue_buf_free(&b);
    ue_wear_free(&w);
    /* Extra spaces are read but are not the canonical layout. */
    static const char spaced[] = "1\n7   DEFAULT  \n";
    REQUIRE(ue_wear_parse((const uint8_t *)spaced, sizeof spaced - 1, 0, UE_MODE_STRICT, &w, NULL) == UE_OK);
    CHECK_STR(w.materials[0].name, "DEFAULT");
    CHECK(!w.canonical);
    ue_wear_free(&w);
}

/* Strict: an error with the code, path and offset; tolerant: a warning and the rows found. */
static void wear_bad(const char *text, const char *code, uint64_t offset, size_t tolerant_rows) {
    ue_wear w;
    ue_diag d = {0};
    CHECK(ue_wear_parse((const uint8_t *)text, strlen(text), 1000, UE_MODE_STRICT, &w, &d) == UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, code, NULL);
    CHECK(it != NULL);
    if (it) CHECK_EQ_U(it->offset, offset);
    if (it) CHECK_EQ_U(it->severity, UE_SEV_ERROR);
    ue_diag_free(&d);
    CHECK(ue_wear_parse((const uint8_t *)text, strlen(text), 1000, UE_MODE_TOLERANT, &w, &d) == UE_OK);
    CHECK(has_code(&d, code));
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    CHECK_EQ_U(w.material_count, tolerant_rows);
    ue_wear_free(&w);
    ue_diag_free(&d);
}

static void wear_bad_inputs(void) {
    wear_bad("3\n0 A\n1 B\n", "wear.count.mismatch", 1010, 2);           /* fewer rows than announced */
    wear_bad("1\n0 A\n1 B\n", "wear.count.mismatch", 1006, 1);          /* more rows: "1 B" at byte 6 */
    wear_bad("0\n", "wear.count.value", 1000, 0);                       /* "Illegal wear length." */
    wear_bad("x\n0 A\n", "wear.count.value", 1000, 0);
    wear_bad("", "wear.count.missing", 1000, 0);
    wear_bad("1\n0 A\nLIGHTMAPS\n1\n0 LM.0\n", "wear.lightmaps.blank", 1006, 1);
    wear_bad("1\n0 A\n\nLIGHTMAPS\n0\n", "wear.count.value", 1017, 1);  /* "Illegal lightmaps length." */
    wear_bad("1\n0 A\n\nLIGHTMAPS\n1\n0 LIGHTMAP\n", "wear.lightmap.name", 1021, 1); /* no '.' */
    wear_bad("1\n0\n", "wear.row.name", 1002, 1);
}

/* A count of a billion rows in a few bytes costs no more than the bytes. */
static void wear_huge_count_is_bounded(void) {
    static const char t[] = "999999999\n0 A\n";
    ue_wear w;
    CHECK(ue_wear_parse((const uint8_t *)t, sizeof t - 1, 0, UE_MODE_TOLERANT, &w, NULL) == UE_OK);
    CHECK_EQ_U(w.material_count, 1);
    ue_wear_free(&w);
}

/* ---- MAT0 ------------------------------------------------------------------------------------ */

/* A version-6 payload: 2 phases, 1 animation block (mode 1 = ping-pong, mask 0x03) of 2 keys. */
static size_t build_mat0(uint8_t *p) {
    size_t o = 0;
    ue_store_u16le(p + o, 2), o += 2;
    ue_store_u16le(p + o, 1), o += 2;
    p[o++] = 0x11, p[o++] = 0x22;                       /* metaA, metaB */
    ue_store_u32le(p + o, 0x3F800000u), o += 4;         /* metaC = 1.0f */
    ue_store_u32le(p + o, 0xDEADBEEFu), o += 4;         /* metaD, kept raw */
    for (int ph = 0; ph < 2; ph++) {
        for (int i = 0; i < 18; i++) p[o++] = (uint8_t)(ph * 100 + i);
        memset(p + o, 0, 16);
        memcpy(p + o, ph ? "ROBOT_EYE.0" : "ROBOT_BODY.0", ph ? 11 : 12);
        o += 16;
    }
    ue_store_u32le(p + o, (0x03u << 3) | 1u), o += 4;
    ue_store_u16le(p + o, 2), o += 2;
    const uint16_t keys[6] = {0, 0, 7, 1, 500, 9};
    for (int i = 0; i < 6; i++) ue_store_u16le(p + o, keys[i]), o += 2;
    return o; /* 14 + 68 + 6 + 12 = 100 */
}

static void mat0_parses_and_writes_back(void) {
    uint8_t p[128];
    size_t n = build_mat0(p);
    CHECK_EQ_U(n, 100);
    ue_mat0 m;
    ue_diag d = {0};
    REQUIRE(ue_mat0_parse(p, n, 6, 0, UE_MODE_STRICT, &m, &d) == UE_OK);
    CHECK_EQ_U(m.phase_count, 2);
    CHECK_EQ_U(m.anim_count, 1);
    CHECK_EQ_U(m.meta_a, 0x11);
    CHECK_EQ_U(m.meta_b, 0x22);
    CHECK_EQ_U(m.meta_c, 0x3F800000u);
    CHECK_EQ_U(m.meta_d, 0xDEADBEEFu);
    CHECK_EQ_U(m.phases[1].params[3], 103);
    char name[17];
    ue_mat0_texture_name(&m.phases[0], name);
    CHECK_STR(name, "ROBOT_BODY.0");
    CHECK_EQ_U(m.anims[0].header & 7, 1);
    CHECK_EQ_U(m.anims[0].header >> 3, 3);
    CHECK_EQ_U(m.anims[0].key_count, 2);
    CHECK_EQ_U(m.anims[0].keys[1].k1, 500);
    CHECK_EQ_U(m.anims[0].keys[1].k2, 9);
    ue_buf b = {0};
    REQUIRE(ue_mat0_write(&m, &b, &d) == UE_OK);
    CHECK_EQ_U(b.size, n);
    CHECK_MEM(b.data, p, n);
    ue_buf_free(&b);
    ue_mat0_free(&m);
    ue_diag_free(&d);
}

/* Version 1 has no meta fields (defaults), version 3 no metaD: the layout follows attr2. */
static void mat0_versions(void) {
    uint8_t p[4 + 34];
    memset(p, 0, sizeof p);
    ue_store_u16le(p, 1);
    ue_mat0 m;
    REQUIRE(ue_mat0_parse(p, sizeof p, 1, 0, UE_MODE_STRICT, &m, NULL) == UE_OK);
    CHECK_EQ_U(m.meta_a, 255);
    CHECK_EQ_U(m.meta_c, 0x3F800000u);
    char name[17];
    ue_mat0_texture_name(&m.phases[0], name);
    CHECK_STR(name, ""); /* untextured */
    ue_buf b = {0};
    REQUIRE(ue_mat0_write(&m, &b, NULL) == UE_OK);
    CHECK_EQ_U(b.size, sizeof p);
    ue_buf_free(&b);
    ue_mat0_free(&m);
    CHECK(ue_mat0_parse(p, sizeof p, 3, 0, UE_MODE_STRICT, &m, NULL) == UE_ERR_INVALID); /* 6 header bytes more */
}

static void mat0_bad(const uint8_t *p, size_t n, const char *code, uint64_t offset, size_t phases, size_t anims) {
    ue_mat0 m;
    ue_diag d = {0};
    CHECK(ue_mat0_parse(p, n, 6, 500, UE_MODE_STRICT, &m, &d) == UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&d, code, NULL);
    CHECK(it != NULL);
    if (it) CHECK_EQ_U(it->offset, offset);
    ue_diag_free(&d);
    CHECK(ue_mat0_parse(p, n, 6, 500, UE_MODE_TOLERANT, &m, &d) == UE_OK);
    CHECK(has_code(&d, code));
    CHECK_EQ_U(m.phase_count, phases);
    CHECK_EQ_U(m.anim_count, anims);
    ue_mat0_free(&m);
    ue_diag_free(&d);
}

static void mat0_bad_inputs(void) {
    uint8_t p[128], q[128];
    size_t n = build_mat0(p);
    /* Phase records past the end: 3 claimed, 2 fit before the block at byte 82 (+500). */
    memcpy(q, p, n);
    ue_store_u16le(q, 3);
    mat0_bad(q, 82, "mat0.phase.past_end", 500 + 14 + 68, 2, 0);
    /* An impossible phase count: 65535 phases in 100 bytes. */
    ue_store_u16le(q, 65535);
    mat0_bad(q, n, "mat0.phase.past_end", 500 + 14 + 68, 2, 0);
    /* No phase at all. */
    memcpy(q, p, n);
    ue_store_u16le(q, 0);
    ue_store_u16le(q + 2, 0);
    mat0_bad(q, 14, "mat0.phase.none", 500, 0, 0);
    /* 20 animation blocks: the engine's "Too many animations for material." */
    memcpy(q, p, n);
    ue_store_u16le(q + 2, 20);
    mat0_bad(q, n, "mat0.anim.count", 502, 2, 1);
    /* Keys past the end: the block claims 3 keys, 2 are there. */
    memcpy(q, p, n);
    ue_store_u16le(q + 86, 3);
    mat0_bad(q, n, "mat0.anim.keys_past_end", 500 + 88, 2, 0);
    /* Bytes after the last block. */
    memcpy(q, p, n);
    q[n] = 0;
    mat0_bad(q, n + 1, "mat0.trailing", 600, 2, 1);
    /* A truncated header fails in both modes. */
    ue_mat0 m;
    CHECK(ue_mat0_parse(p, 9, 6, 0, UE_MODE_TOLERANT, &m, NULL) == UE_ERR_INVALID);
}

/* ---- the resolution chain ------------------------------------------------------------------ */

#define FOURCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

static void write_file(const char *dir, const char *name, const void *data, size_t size) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    REQUIRE(fwrite(data, 1, size, f) == size);
    fclose(f);
}

static void write_nres(const char *dir, const char *name, ue_nres *n) {
    ue_buf b = {0};
    REQUIRE(ue_nres_write(n, UE_NRES_CANONICAL, &b, NULL) == UE_OK);
    write_file(dir, name, b.data, b.size);
    ue_buf_free(&b);
    ue_nres_free(n);
}

/* A one-phase version-6 MAT0 naming `texture`. */
static void add_mat0(ue_nres *n, const char *name, const char *texture) {
    uint8_t p[14 + 34];
    memset(p, 0, sizeof p);
    ue_store_u16le(p, 1);
    memcpy(p + 14 + 18, texture, strlen(texture));
    REQUIRE(ue_nres_add(n, UE_MAT0_TYPE, 0, 6, 0, name, p, sizeof p) == UE_OK);
}

/* A 2×1 Texm 565: pure red, then pure blue (R = bits 15–11, B = bits 4–0). */
static void add_texm(ue_nres *n, const char *name) {
    uint8_t t[32 + 4];
    memset(t, 0, sizeof t);
    ue_store_u32le(t, FOURCC('T', 'e', 'x', 'm'));
    ue_store_u32le(t + 4, 2);
    ue_store_u32le(t + 8, 1);
    ue_store_u32le(t + 12, 1);
    ue_store_u32le(t + 28, 565);
    ue_store_u16le(t + 32, 0xF800);
    ue_store_u16le(t + 34, 0x001F);
    REQUIRE(ue_nres_add(n, FOURCC('T', 'e', 'x', 'm'), 0, 0, 0, name, t, sizeof t) == UE_OK);
}

/* A scene with one material per WEAR row, as msh_scene.c makes them. */
static void scene_with_rows(ue_scene *s, int rows) {
    ue_scene_init(s);
    for (int r = 0; r < rows; r++) {
        int32_t mi = ue_scene_add_material(s, "placeholder");
        REQUIRE(mi >= 0);
        for (int c = 0; c < 3; c++) s->materials[mi].base_color[c] = 0.8f;
        s->materials[mi].base_color[3] = 1;
        REQUIRE(ue_extras_set_number(&s->materials[mi].extras, UE_MSH_WEAR_ROW_KEY, r) == UE_OK);
    }
}

/* root/material.lib and root/TEXTURES.LIB, the model root/game/MODEL.msh beside game/model.WEA:
 * every name in another letter case than the one looked for. */
static void make_game(char *root) {
    strcpy(root, "/tmp/ue_mat_XXXXXX");
    REQUIRE(mkdtemp(root) != NULL);
    char game[300];
    snprintf(game, sizeof game, "%s/game", root);
    REQUIRE(mkdir(game, 0755) == 0);
    static const char wear[] = "3\n0 Robot_Body\n1 NOPE\n2 PLAIN\n";
    write_file(game, "model.WEA", wear, sizeof wear - 1);
    ue_nres n;
    ue_nres_init(&n);
    add_mat0(&n, "ROBOT_BODY", "skin.0");
    add_mat0(&n, "DEFAULT", "");
    add_mat0(&n, "PLAIN", "MISSING.0");
    write_nres(root, "material.lib", &n);
    ue_nres_init(&n);
    add_texm(&n, "SKIN.0");
    write_nres(root, "TEXTURES.LIB", &n);
}

static void chain_resolves_case_insensitively(void) {
    char root[64], origin[300];
    make_game(root);
    snprintf(origin, sizeof origin, "%s/game/MODEL.msh", root);
    ue_scene s;
    scene_with_rows(&s, 3);
    ue_diag d = {0};
    ue_parkan_search where = {origin, NULL};
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, &d) == UE_OK);
    /* Row 0: Robot_Body → MAT0 ROBOT_BODY → skin.0 → SKIN.0 in TEXTURES.LIB of the parent. */
    CHECK_STR(s.materials[0].name, "Robot_Body");
    REQUIRE(s.texture_count == 1);
    CHECK_EQ_U(s.materials[0].slot_count, 1);
    CHECK_EQ_U(s.materials[0].slots[0].texture, 0);
    CHECK_EQ_U(s.textures[0].width, 2);
    static const uint8_t red_blue[8] = {255, 0, 0, 255, 0, 0, 255, 255};
    CHECK_MEM(s.textures[0].rgba, red_blue, 8);
    CHECK(s.materials[0].base_color[0] == 1.0f);
    CHECK_EQ_U(s.materials[0].alpha_mode, UE_ALPHA_OPAQUE);
    /* Row 1: NOPE is not in the library: DEFAULT (untextured), with a warning naming both. */
    const ue_diag_item *w = diag_find(&d, "msh.material.missing", NULL);
    CHECK(w != NULL);
    if (w) CHECK(strstr(w->message, "NOPE") && strstr(w->message, "material.lib") && strstr(w->message, "DEFAULT"));
    CHECK_EQ_U(s.materials[1].slot_count, 0);
    /* Row 2: PLAIN names a texture Textures.lib lacks: grey, no slot, a warning. */
    w = diag_find(&d, "msh.texture.missing", NULL);
    CHECK(w != NULL);
    if (w) CHECK(strstr(w->message, "MISSING.0") && strstr(w->message, "PLAIN"));
    CHECK_EQ_U(s.materials[2].slot_count, 0);
    CHECK(s.materials[2].base_color[0] == 0.8f);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_ERROR), 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static void chain_without_material_lib_warns(void) {
    char root[64], origin[300], lib[300];
    make_game(root);
    snprintf(lib, sizeof lib, "%s/material.lib", root);
    REQUIRE(remove(lib) == 0);
    snprintf(origin, sizeof origin, "%s/game/model.msh", root);
    ue_scene s;
    scene_with_rows(&s, 1);
    ue_diag d = {0};
    ue_parkan_search where = {origin, NULL};
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, &d) == UE_OK);
    const ue_diag_item *w = diag_find(&d, "msh.material.library", NULL);
    CHECK(w != NULL);
    if (w) CHECK(strstr(w->message, "Material.lib not found") != NULL);
    CHECK_EQ_U(s.materials[0].slot_count, 0);
    CHECK(s.materials[0].base_color[0] == 0.8f); /* the placeholder */
    CHECK_EQ_U(s.texture_count, 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
    /* --data pointing at a folder with the library is searched first. */
    char data[300];
    snprintf(data, sizeof data, "%s/game", root);
    ue_nres n;
    ue_nres_init(&n);
    add_mat0(&n, "ROBOT_BODY", "skin.0");
    write_nres(data, "MATERIAL.LIB", &n);
    scene_with_rows(&s, 1);
    where.data_dir = data;
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, &d) == UE_OK);
    CHECK_EQ_U(s.materials[0].slot_count, 1);
    CHECK_EQ_U(d.count, 0);
    ue_scene_free(&s);
    ue_diag_free(&d);
}

static void chain_without_wear_warns(void) {
    ue_scene s;
    scene_with_rows(&s, 1);
    ue_diag d = {0};
    ue_parkan_search where = {"/nonexistent_dir_ue/robot.msh", NULL};
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, &d) == UE_OK);
    const ue_diag_item *w = diag_find(&d, "msh.material.wear", NULL);
    CHECK(w != NULL);
    if (w) CHECK(strstr(w->message, "robot.wea") != NULL);
    CHECK_STR(s.materials[0].name, "placeholder");
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* ---- validate: MAT0 and WEAR entries inside an NRes ---------------------------------------- */

static void validate_checks_material_entries(void) {
    uint8_t p[128];
    size_t n = build_mat0(p);
    ue_store_u16le(p, 3); /* three phases claimed, two there */
    static const char wear_bad_count[] = "2\r\n0 A\r\n";
    ue_nres nr;
    ue_nres_init(&nr);
    REQUIRE(ue_nres_add(&nr, UE_WEAR_TYPE, 0, 0, 1, "x.wea", wear_bad_count, sizeof wear_bad_count - 1) == UE_OK);
    REQUIRE(ue_nres_add(&nr, UE_MAT0_TYPE, 0, 6, 0, "M", p, n) == UE_OK);
    ue_buf b = {0};
    REQUIRE(ue_nres_write(&nr, UE_NRES_CANONICAL, &b, NULL) == UE_OK);
    ue_nres_free(&nr);
    /* Where the writer put the MAT0 payload: the header's 16 bytes, then the 8-byte WEAR. */
    ue_source src = ue_source_memory(b.data, b.size);
    REQUIRE(ue_nres_parse(&src, UE_MODE_STRICT, &nr, NULL) == UE_OK);
    uint32_t mat0_at = nr.entries[1].data_offset;
    CHECK_EQ_U(mat0_at, 24);
    ue_nres_free(&nr);
    for (int mode = 0; mode < 2; mode++) {
        ue_archive *a;
        ue_diag d = {0};
        REQUIRE(ue_archive_open_memory(b.data, b.size, "m.lib", (ue_mode)mode, &a, &d) == UE_OK);
        ue_result r = ue_archive_validate(a, &d);
        CHECK(r == (mode == UE_MODE_STRICT ? UE_ERR_INVALID : UE_OK));
        const ue_diag_item *it = diag_find(&d, "mat0.phase.past_end", "nres/entry[1]/mat0/phases");
        CHECK(it != NULL);
        if (it) CHECK_EQ_U(it->offset, mat0_at + 14 + 68); /* in the file */
        if (it) CHECK_EQ_U(it->severity, mode == UE_MODE_STRICT ? UE_SEV_ERROR : UE_SEV_WARNING);
        CHECK(diag_has(&d, "wear.count.mismatch", "nres/entry[0]/wear/materials"));
        ue_archive_close(a);
        ue_diag_free(&d);
    }
    ue_buf_free(&b);
}

/* The alpha mode follows the texture: 4444 with alpha 0 and 15 only is a cut-out, a middle
 * value blends. */
static void alpha_mode_from_texture(void) {
    char root[64], origin[300];
    strcpy(root, "/tmp/ue_alpha_XXXXXX");
    REQUIRE(mkdtemp(root) != NULL);
    static const char wear[] = "2\n0 CUT\n1 GLASS\n";
    write_file(root, "m.wea", wear, sizeof wear - 1);
    ue_nres n;
    ue_nres_init(&n);
    add_mat0(&n, "CUT", "cut.0");
    add_mat0(&n, "GLASS", "glass.0");
    write_nres(root, "Material.lib", &n);
    ue_nres_init(&n);
    static const uint16_t texels[2][2] = {{0xF123, 0x0123}, {0xF123, 0x8123}}; /* A = top nibble */
    const char *names[2] = {"cut.0", "glass.0"};
    for (int t = 0; t < 2; t++) {
        uint8_t x[36];
        memset(x, 0, sizeof x);
        ue_store_u32le(x, FOURCC('T', 'e', 'x', 'm'));
        ue_store_u32le(x + 4, 2);
        ue_store_u32le(x + 8, 1);
        ue_store_u32le(x + 12, 1);
        ue_store_u32le(x + 28, 4444);
        ue_store_u16le(x + 32, texels[t][0]);
        ue_store_u16le(x + 34, texels[t][1]);
        REQUIRE(ue_nres_add(&n, FOURCC('T', 'e', 'x', 'm'), 0, 0, 0, names[t], x, sizeof x) == UE_OK);
    }
    write_nres(root, "Textures.lib", &n);
    snprintf(origin, sizeof origin, "%s/m.msh", root);
    ue_scene s;
    scene_with_rows(&s, 2);
    ue_parkan_search where = {origin, NULL};
    REQUIRE(ue_msh_resolve_materials(&s, 0, &where, UE_MODE_STRICT, NULL) == UE_OK);
    CHECK_EQ_U(s.materials[0].alpha_mode, UE_ALPHA_MASK);
    CHECK(s.materials[0].alpha_cutoff == 0.5f);
    CHECK_EQ_U(s.materials[1].alpha_mode, UE_ALPHA_BLEND);
    REQUIRE(s.texture_count == 2);
    CHECK_EQ_U(s.textures[1].rgba[7], 0x88); /* 8 × 17 */
    ue_scene_free(&s);
}

int main(void) {
    RUN(validate_checks_material_entries);
    RUN(alpha_mode_from_texture);
    RUN(chain_resolves_case_insensitively);
    RUN(chain_without_material_lib_warns);
    RUN(chain_without_wear_warns);
    RUN(wear_parses_rows_and_lightmaps);
    RUN(wear_without_lightmaps_lf);
    RUN(wear_bad_inputs);
    RUN(wear_huge_count_is_bounded);
    RUN(mat0_parses_and_writes_back);
    RUN(mat0_versions);
    RUN(mat0_bad_inputs);
    return TEST_SUMMARY();
}
