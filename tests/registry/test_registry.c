/* Tests of the model registry (unearth/model.h) on the sample pack: probe order, collecting
 * models through containers, conversion with MSH's options, refusal of unknown options, and
 * validate/roundtrip through the format table. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "common/io.h"
#include "common/json_doc.h"
#include "test.h"
#include "unearth/gamecube.h"
#include "unearth/hsd_model.h"
#include "unearth/model.h"
#include "unearth/msh.h"
#include "unearth/nres.h"
#include "unearth/texm.h"
#include "samples/samples.h"

static char pack_dir[256];

/* The sample pack on disk, as `unearth demo` writes it (collect works on paths). */
static bool write_pack(void) {
    const char *tmp = getenv("UE_TEST_TMP");
    snprintf(pack_dir, sizeof pack_dir, "%s/registryXXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (tmp && *tmp) ue_mkdirs(tmp, NULL);
    if (!mkdtemp(pack_dir)) return false;
    ue_sample_list l = {0};
    if (ue_samples_build(&l) != UE_OK) return false;
    bool ok = true;
    for (size_t i = 0; i < l.count && ok; i++) {
        char path[512], dir[512];
        snprintf(path, sizeof path, "%s/%s", pack_dir, l.items[i].path);
        snprintf(dir, sizeof dir, "%s", path);
        *strrchr(dir, '/') = 0;
        ok = ue_mkdirs(dir, NULL) == UE_OK &&
             ue_file_write_atomic(path, l.items[i].data, l.items[i].size, true, NULL) == UE_OK;
    }
    ue_sample_list_free(&l);
    return ok;
}

static void pack_path(const char *rel, char *out, size_t cap) { snprintf(out, cap, "%s/%s", pack_dir, rel); }

static const char *dirname_of(const char *path, char *out, size_t cap) {
    snprintf(out, cap, "%s", path);
    char *slash = strrchr(out, '/');
    if (slash) *slash = 0;
    return out;
}

static size_t scene_triangles(const ue_scene *s) {
    size_t tris = 0;
    for (size_t m = 0; m < s->mesh_count; m++)
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++) tris += s->meshes[m].primitives[p].index_count / 3;
    return tris;
}

static void the_table_names_msh_first(void) {
    size_t count = 0;
    const ue_model_format *const *all = ue_model_formats(&count);
    REQUIRE(count >= 1);
    CHECK_STR(all[0]->name, "msh");
    CHECK(ue_model_format_find("msh") == &ue_msh_model_format);
    CHECK(ue_model_format_find("dat") == NULL);
    /* every format probes, describes and checks; only the DAT without a model root has neither
     * geometry nor images (it is there to be described, docs/models.md) */
    for (size_t i = 0; i < count; i++) {
        CHECK(all[i]->probe && all[i]->info && all[i]->validate);
        CHECK(all[i]->to_scene || all[i]->images || all[i] == &ue_hsd_data_format);
    }
}

static void probe_knows_a_model_from_a_container(void) {
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    CHECK(ue_model_probe(robot.data, robot.size) == &ue_msh_model_format);
    /* An NRes that is not a model (the archive around it) and bytes that are nothing. */
    uint8_t *rlb;
    size_t rlb_size;
    char path[512];
    pack_path("parkan/objects.rlb", path, sizeof path);
    REQUIRE(ue_file_read(path, 1 << 24, &rlb, &rlb_size, NULL) == UE_OK);
    CHECK(ue_model_probe(rlb, rlb_size) == NULL);
    CHECK(ue_model_probe((const uint8_t *)"NRes", 4) == NULL);
    CHECK(ue_model_probe(robot.data, 15) == NULL); /* cut short */
    free(rlb);
    ue_buf_free(&robot);
}

/* HSD: the creature's DAT is claimed by "hsd" (after Parkan's formats); none of the containers around it,
 * the MSH robot, a DAT cut short, or one whose only root is no model root. */
static void probe_claims_a_dat_and_no_container(void) {
    size_t count = 0;
    const ue_model_format *const *all = ue_model_formats(&count);
    REQUIRE(count >= 3);
    CHECK(all[2] == &ue_hsd_model_format && ue_model_format_find("hsd") == &ue_hsd_model_format);
    ue_buf dat = {0};
    REQUIRE(ue_sample_creature_dat(&dat) == UE_OK);
    CHECK(ue_model_probe(dat.data, dat.size) == &ue_hsd_model_format);
    CHECK(ue_model_probe(dat.data, dat.size - 1) == NULL);
    const char *containers[] = {"gamecube/creature.fsys", "gamecube/creature.pkx", "gamecube/demo_model.lzss",
                                "parkan/objects.rlb", "parkan/robot.msh"};
    for (size_t i = 0; i < sizeof containers / sizeof containers[0]; i++) {
        char path[512];
        uint8_t *bytes;
        size_t n;
        pack_path(containers[i], path, sizeof path);
        REQUIRE(ue_file_read(path, 1 << 24, &bytes, &n, NULL) == UE_OK);
        CHECK(!ue_hsd_probe(bytes, n));
        free(bytes);
    }
    /* The root's name renamed to a non-model kind ("scene_data" → "scene_dat_"). */
    uint8_t *copy = malloc(dat.size);
    REQUIRE(copy);
    memcpy(copy, dat.data, dat.size);
    uint8_t *name = NULL;
    for (size_t i = 0; i + 10 <= dat.size && !name; i++)
        if (!memcmp(copy + i, "scene_data", 10)) name = copy + i;
    REQUIRE(name);
    name[9] = '_';
    CHECK(!ue_hsd_probe(copy, dat.size));
    free(copy);
    ue_buf_free(&dat);
}

/* The DAT inside the PKX inside the FSYS is found by the walk, and by OUTER:ENTRY. */
/* A DAT written byte by byte from docs/formats/dat.md#file-layout: 0x20-byte header, an 8-byte data block
 * whose word 0 points at word 1 (one relocation), one root at data offset 0 named `root`. */
static size_t hand_dat(uint8_t *p, const char *root, uint32_t reloc) {
    size_t name_len = strlen(root) + 1, size = 0x20 + 8 + 4 + 8 + name_len;
    memset(p, 0, size);
    const uint32_t header[5] = {(uint32_t)size, 8, 1, 1, 0};
    for (int i = 0; i < 5; i++)
        for (int b = 0; b < 4; b++) p[4 * i + b] = (uint8_t)(header[i] >> (24 - 8 * b));
    p[0x20 + 3] = 4;             /* data word 0: a pointer to data offset 4 */
    p[0x28 + 3] = (uint8_t)reloc; /* the relocation: where that pointer lies */
    memcpy(p + 0x34, root, name_len); /* root {data 0, string 0} lies at 0x2C, zeroed */
    return size;
}

/* A DAT without a model root is claimed by the data-only format, never by HSD; a model root
 * name hands it to HSD; a relocation outside the data block makes it no DAT at all. */
static void probe_tells_a_dat_without_a_model(void) {
    uint8_t p[96];
    size_t n = hand_dat(p, "stage_lights", 0);
    CHECK(!ue_hsd_probe(p, n) && ue_hsd_data_probe(p, n));
    CHECK(ue_model_probe(p, n) == &ue_hsd_data_format);
    n = hand_dat(p, "body_joint", 0);
    CHECK(ue_hsd_probe(p, n) && !ue_hsd_data_probe(p, n));
    n = hand_dat(p, "stage_lights", 8); /* the relocated word would be past the 8-byte block */
    CHECK(!ue_hsd_data_probe(p, n) && ue_model_probe(p, n) == NULL);
    n = hand_dat(p, "stage_lights", 0); /* one byte short of the file_size the header gives */
    CHECK(!ue_hsd_data_probe(p, n - 1));
}

static void collect_finds_the_dat_in_fsys_and_pkx(void) {
    char path[512];
    ue_model_found *items;
    size_t count;
    pack_path("gamecube/creature.fsys", path, sizeof path);
    REQUIRE(ue_model_collect(path, UE_MODE_STRICT, &items, &count, NULL) == UE_OK);
    CHECK(count == 1 && items[0].format == &ue_hsd_model_format);
    if (count == 1) CHECK(strstr(items[0].name, "creature.fsys:creature.pkx:model.dat") != NULL);
    ue_model_found_free(items, count);
    pack_path("gamecube/creature.pkx:model.dat", path, sizeof path);
    ue_model_found one;
    REQUIRE(ue_model_load(path, UE_MODE_STRICT, &one, NULL) == UE_OK);
    CHECK(one.format == &ue_hsd_model_format);
    ue_scene s;
    ue_scene_init(&s);
    CHECK(ue_model_to_scene(&one, "creature", UE_MODE_STRICT, NULL, &s, NULL) == UE_OK);
    CHECK(scene_triangles(&s) == 52 && s.skin_count == 1 && s.skins[0].joint_count == 8);
    ue_scene_free(&s);
    free(one.data);
}

/* The part of each collected model's address that names it (ue_model_title_length). */
static void check_titles(const char *path, size_t want_count, const char *const *addresses,
                         const char *const *titles) {
    ue_model_found *found = NULL;
    size_t count = 0;
    REQUIRE(ue_model_collect(path, UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    CHECK_EQ_U(count, want_count);
    for (size_t i = 0; i < count && i < want_count; i++) {
        char address[600], title[600];
        snprintf(address, sizeof address, "%s%s", path, addresses[i]);
        snprintf(title, sizeof title, "%s%s", path, titles[i]);
        CHECK_STR(found[i].name, address);
        CHECK_EQ_U(ue_model_title_length(&found[i]), strlen(title));
    }
    ue_model_found_free(found, count);
}

static void check_load_title(const char *path, const char *title) {
    ue_model_found one;
    REQUIRE(ue_model_load(path, UE_MODE_STRICT, &one, NULL) == UE_OK);
    CHECK_EQ_U(ue_model_title_length(&one), strlen(title));
    free(one.data);
}

/* A model is named by its address without the entries a container made up because its file
 * stores no names (a PKX's model.dat, a standalone LZSS file's decoded.EXT), at any depth; an
 * entry that a file names "model.dat" or "decoded.msh" keeps its name. */
static void title_skips_made_up_entries(void) {
    char pkx_path[512], lzss_path[512], rlb_path[512], path[600];
    pack_path("gamecube/creature.pkx", pkx_path, sizeof pkx_path);
    check_titles(pkx_path, 1, (const char *const[]){":model.dat"}, (const char *const[]){""});
    pack_path("gamecube/creature.fsys", path, sizeof path);
    check_titles(path, 1, (const char *const[]){":creature.pkx:model.dat"},
                 (const char *const[]){":creature.pkx"});
    /* LZSS → PKX → DAT: both inner names are made up */
    uint8_t *pkx;
    size_t pkx_size;
    REQUIRE(ue_file_read(pkx_path, (size_t)1 << 24, &pkx, &pkx_size, NULL) == UE_OK);
    ue_buf lzss = {0};
    REQUIRE(ue_gclzss_encode(pkx, pkx_size, 9, 0, &lzss) == UE_OK);
    pack_path("t/c.lzss", lzss_path, sizeof lzss_path);
    REQUIRE(ue_mkdirs(dirname_of(lzss_path, path, sizeof path), NULL) == UE_OK);
    REQUIRE(ue_file_write_atomic(lzss_path, lzss.data, lzss.size, true, NULL) == UE_OK);
    check_titles(lzss_path, 1, (const char *const[]){":decoded.pkx:model.dat"}, (const char *const[]){""});
    snprintf(path, sizeof path, "%s:decoded.pkx:model.dat", lzss_path);
    check_load_title(path, lzss_path);
    /* An NRes whose entries are called what PKX and LZSS make up: those are real names. */
    ue_buf robot = {0}, dat = {0}, rlb = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK && ue_sample_creature_dat(&dat) == UE_OK);
    ue_nres n;
    ue_nres_init(&n);
    REQUIRE(ue_nres_add(&n, 0, 0, 0, 0, "decoded.msh", robot.data, robot.size) == UE_OK);
    REQUIRE(ue_nres_add(&n, 0, 0, 0, 0, "model.dat", dat.data, dat.size) == UE_OK);
    REQUIRE(ue_nres_add(&n, 0, 0, 0, 0, "c.lzss", lzss.data, lzss.size) == UE_OK);
    REQUIRE(ue_nres_write(&n, UE_NRES_CANONICAL, &rlb, NULL) == UE_OK);
    pack_path("t/named.rlb", rlb_path, sizeof rlb_path);
    REQUIRE(ue_file_write_atomic(rlb_path, rlb.data, rlb.size, true, NULL) == UE_OK);
    check_titles(rlb_path, 3, (const char *const[]){":decoded.msh", ":model.dat", ":c.lzss:decoded.pkx:model.dat"},
                 (const char *const[]){":decoded.msh", ":model.dat", ":c.lzss"});
    snprintf(path, sizeof path, "%s:decoded.msh", rlb_path);
    check_load_title(path, path);
    snprintf(path, sizeof path, "%s:model.dat", rlb_path);
    check_load_title(path, path);
    /* A struct filled by hand (title_length 0) is named by all of its name. */
    ue_model_found hand = {.name = "x.pkx:model.dat"};
    CHECK_EQ_U(ue_model_title_length(&hand), strlen("x.pkx:model.dat"));
    ue_nres_free(&n);
    ue_buf_free(&robot);
    ue_buf_free(&dat);
    ue_buf_free(&rlb);
    ue_buf_free(&lzss);
    free(pkx);
}

static void collect_walks_containers(void) {
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    char path[512], want[600];
    pack_path("parkan/objects.rlb", path, sizeof path);
    ue_model_found *found;
    size_t count;
    REQUIRE(ue_model_collect(path, UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    /* In directory order: the Texm entry, the two Texm of the nested library, the model. */
    static const char *const inside[] = {"Robot_Skin.tex", "textures_inner.lib:GRID_01",
                                         "textures_inner.lib:grid_00", "ROBOT.msh"};
    CHECK_EQ_U(count, 4);
    for (size_t i = 0; i < count && i < 4; i++) {
        snprintf(want, sizeof want, "%s:%s", path, inside[i]);
        CHECK_STR(found[i].name, want);
        CHECK(found[i].format == (i < 3 ? &ue_texm_model_format : &ue_msh_model_format));
    }
    if (count == 4)
        CHECK(found[3].size == robot.size && !memcmp(found[3].data, robot.data, robot.size));
    ue_model_found_free(found, count);
    snprintf(want, sizeof want, "%s:ROBOT.msh", path);
    /* ARCHIVE:ENTRY names the model itself; load does not look inside an archive. */
    REQUIRE(ue_model_collect(want, UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    CHECK_EQ_U(count, 1);
    ue_model_found_free(found, count);
    ue_model_found one;
    CHECK_EQ_U(ue_model_load(path, UE_MODE_STRICT, &one, NULL), UE_ERR_UNSUPPORTED);
    REQUIRE(ue_model_load(want, UE_MODE_STRICT, &one, NULL) == UE_OK);
    CHECK(one.format == &ue_msh_model_format && one.size == robot.size);
    free(one.data);
    /* A container without models: an RsLi library of text entries. */
    pack_path("parkan/sprites_demo.lib", path, sizeof path);
    CHECK_EQ_U(ue_model_collect(path, UE_MODE_STRICT, &found, &count, NULL), UE_OK);
    CHECK_EQ_U(count, 0);
    ue_model_found_free(found, count);
    /* The demo FSYS holds placeholder DATs (one root each, none a model root): found as DATs
     * without a model, the PKX's, then the FSYS entries typed or named dat, in entry order. */
    pack_path("gamecube/demo_colo.fsys", path, sizeof path);
    CHECK_EQ_U(ue_model_collect(path, UE_MODE_STRICT, &found, &count, NULL), UE_OK);
    REQUIRE(count == 3);
    static const char *const placeholders[] = {"demo_colo.pkx:model.dat", "demo_model.dat", "demo_room.dat"};
    for (size_t i = 0; i < count; i++) {
        CHECK(found[i].format == &ue_hsd_data_format);
        CHECK(strstr(found[i].name, placeholders[i]) != NULL);
        CHECK(!ue_hsd_probe(found[i].data, found[i].size) && ue_hsd_data_probe(found[i].data, found[i].size));
    }
    ue_model_found_free(found, count);
    ue_buf_free(&robot);
}

/* The same walk over bytes in memory: addresses start with the name given, the caller keeps
 * its bytes, and bytes that are no container fail as they do from a file. */
static void collect_memory_walks_bytes(void) {
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    char path[512];
    pack_path("parkan/objects.rlb", path, sizeof path);
    uint8_t *rlb;
    size_t rlb_size;
    REQUIRE(ue_file_read(path, 1 << 24, &rlb, &rlb_size, NULL) == UE_OK);
    ue_model_found *found;
    size_t count;
    REQUIRE(ue_model_collect_memory(rlb, rlb_size, "mem.rlb", UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    CHECK_EQ_U(count, 4); /* three textures, then the model (collect_walks_containers) */
    if (count == 4) {
        CHECK_STR(found[3].name, "mem.rlb:ROBOT.msh");
        CHECK(found[3].size == robot.size && !memcmp(found[3].data, robot.data, robot.size));
        CHECK(found[3].data < rlb || found[3].data >= rlb + rlb_size); /* a copy, not a view */
    }
    ue_model_found_free(found, count);
    /* A bare model is itself the one model, under the name given. */
    REQUIRE(ue_model_collect_memory(robot.data, robot.size, "r.msh", UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    CHECK_EQ_U(count, 1);
    if (count == 1) CHECK_STR(found[0].name, "r.msh");
    ue_model_found_free(found, count);
    /* Text is no container: the same failure and code as a file of it. */
    ue_diag d = {0};
    static const uint8_t text[] = "not an asset\n";
    CHECK(ue_model_collect_memory(text, sizeof text - 1, "t.txt", UE_MODE_STRICT, &found, &count, &d) != UE_OK);
    CHECK(d.count >= 1 && !strcmp(d.items[0].code, "archive.unknown"));
    CHECK(found == NULL && count == 0);
    ue_diag_free(&d);
    free(rlb);
    ue_buf_free(&robot);
}

/* The robot through the registry with options, against what its info says per LOD. A root and
 * the robot's 6 nodes; with group=all also one child per exported slot. */
static ue_result convert_nodes(const ue_model_found *m, const ue_model_option *opts, size_t n, size_t *tris,
                               size_t nodes, ue_diag *d) {
    ue_model_options list = {opts, n};
    ue_scene s;
    ue_scene_init(&s);
    ue_result r = ue_model_to_scene(m, "robot", UE_MODE_STRICT, &list, &s, d);
    *tris = scene_triangles(&s);
    if (r == UE_OK) CHECK_EQ_U(s.node_count, nodes);
    ue_scene_free(&s);
    return r;
}

static ue_result convert(const ue_model_found *m, const ue_model_option *opts, size_t n, size_t *tris, ue_diag *d) {
    return convert_nodes(m, opts, n, tris, 7, d);
}

/* Statistics a format recorded (ue_json_init_record), as JSON text read back: what a client
 * that wants text makes of them. */
static ue_result stats_doc(const ue_buf *calls, ue_jdoc *doc) {
    ue_buf text = {0};
    ue_json w;
    ue_json_init(&w, &text, 0);
    ue_json_replay(calls, &w);
    ue_result r = ue_json_finish(&w, NULL);
    if (r == UE_OK) r = ue_jdoc_parse((const char *)text.data, text.size, doc, NULL);
    ue_buf_free(&text);
    return r;
}

static void to_scene_takes_msh_options(void) {
    char path[512];
    pack_path("parkan/robot.msh", path, sizeof path);
    ue_model_found m;
    REQUIRE(ue_model_load(path, UE_MODE_STRICT, &m, NULL) == UE_OK);
    ue_buf stats = {0};
    ue_jdoc doc;
    REQUIRE(m.format->info(m.data, m.size, UE_MODE_STRICT, &stats, NULL, NULL) == UE_OK);
    REQUIRE(stats_doc(&stats, &doc) == UE_OK);
    const ue_jv *per_lod = ue_jv_get(&doc.root, "triangles_per_lod");
    size_t tris = 0, g0 = 0, g1 = 0;
    /* Default: group 0, what the game draws (the dented body of group 1 left out). */
    CHECK_EQ_U(convert(&m, NULL, 0, &tris, NULL), UE_OK);
    CHECK_EQ_U(tris, 72);
    /* Every group: all of LOD 0, the 7 slots under 7 group child nodes. */
    ue_model_option all[] = {{"group", "all"}}, minus1[] = {{"group", "-1"}};
    CHECK_EQ_U(convert_nodes(&m, all, 1, &tris, 14, NULL), UE_OK);
    CHECK_EQ_U(tris, ue_jv_integer(ue_jv_at(per_lod, 0)));
    CHECK_EQ_U(tris, 84);
    CHECK_EQ_U(convert_nodes(&m, minus1, 1, &tris, 14, NULL), UE_OK);
    CHECK_EQ_U(tris, 84);
    ue_model_option lod1[] = {{"lod", "1"}};
    CHECK_EQ_U(convert(&m, lod1, 1, &tris, NULL), UE_OK);
    CHECK_EQ_U(tris, ue_jv_integer(ue_jv_at(per_lod, 1)));
    CHECK_EQ_U(tris, 18);
    /* Groups split LOD 0 between them: the two selections add up to the whole. */
    ue_model_option group0[] = {{"group", "0"}}, group1[] = {{"lod", "0"}, {"group", "1"}};
    CHECK_EQ_U(convert(&m, group0, 1, &g0, NULL), UE_OK);
    CHECK_EQ_U(convert(&m, group1, 2, &g1, NULL), UE_OK);
    CHECK(g0 == 72 && g1 == 12 && g0 + g1 == 84);
    ue_jdoc_free(&doc);
    ue_buf_free(&stats);

    ue_diag d = {0};
    ue_model_option lod2[] = {{"lod", "2"}};
    CHECK_EQ_U(convert(&m, lod2, 1, &tris, &d), UE_ERR_INVALID); /* LOD 2 has no geometry */
    CHECK(d.count == 1 && !strcmp(d.items[0].code, "msh.export.empty"));
    ue_diag_free(&d);
    ue_model_option bad[] = {{"lod", "3"}}, word[] = {{"group", "every"}};
    CHECK_EQ_U(convert(&m, bad, 1, &tris, &d), UE_ERR_USAGE);
    CHECK_EQ_U(convert(&m, word, 1, &tris, &d), UE_ERR_USAGE);
    CHECK(d.count == 2 && !strcmp(d.items[0].code, "model.option.value") && strstr(d.items[1].message, "0..4 or all"));
    ue_diag_free(&d);
    ue_model_option unknown[] = {{"frame", "3"}};
    CHECK_EQ_U(convert(&m, unknown, 1, &tris, &d), UE_ERR_USAGE);
    CHECK(d.count == 1 && !strcmp(d.items[0].code, "model.option.unknown") &&
          !strcmp(d.items[0].path, "msh") && strstr(d.items[0].message, "MSH") && strstr(d.items[0].message, "lod, group"));
    ue_diag_free(&d);
    free(m.data);
}

/* A format that takes no options refuses MSH's, naming itself. */
static bool never(const uint8_t *data, size_t size) {
    (void)data, (void)size;
    return false;
}
static void options_belong_to_their_format(void) {
    ue_model_format plain = {"plain", "a format without options", NULL, 0, never, NULL, NULL, NULL, NULL, NULL, NULL};
    ue_model_option lod[] = {{"lod", "1"}};
    ue_model_options list = {lod, 1};
    ue_diag d = {0};
    CHECK_EQ_U(ue_model_options_check(&plain, &list, &d), UE_ERR_USAGE);
    CHECK(d.count == 1 && !strcmp(d.items[0].path, "plain") && strstr(d.items[0].message, "a format without options has no option lod") && strstr(d.items[0].message, "no option lod"));
    ue_diag_free(&d);
    CHECK_EQ_U(ue_model_options_check(&ue_msh_model_format, &list, NULL), UE_OK);
    CHECK_EQ_U(ue_model_options_check(&plain, NULL, NULL), UE_OK);
    ue_model_option twice[] = {{"lod", "1"}, {"lod", "2"}};
    ue_model_options last = {twice, 2};
    CHECK_STR(ue_model_option_get(&last, "lod"), "2");
    CHECK(ue_model_option_get(&last, "group") == NULL);
}

static void validate_and_roundtrip_through_the_table(void) {
    ue_buf robot = {0};
    REQUIRE(ue_sample_robot(&robot) == UE_OK);
    const ue_model_format *f = ue_model_probe(robot.data, robot.size);
    REQUIRE(f != NULL);
    ue_model_check c;
    ue_diag d = {0};
    CHECK_EQ_U(f->validate(robot.data, robot.size, UE_MODE_TOLERANT, &c, &d), UE_OK);
    CHECK(!c.lost_parts && d.count == 0);
    CHECK_STR(c.summary, "6 nodes, 10 batches, 216 vertices, 102 triangles");
    ue_jdoc doc;
    REQUIRE(stats_doc(&c.stats, &doc) == UE_OK);
    CHECK_EQ_U(ue_jv_integer(ue_jv_get(&doc.root, "vertices")), 216);
    ue_jdoc_free(&doc);
    ue_buf_free(&c.stats);
    REQUIRE(f->roundtrip != NULL);
    CHECK_EQ_U(f->roundtrip(robot.data, robot.size, UE_MODE_STRICT, &c, &d), UE_OK);
    CHECK(strstr(c.summary, "tables decoded and re-encoded") != NULL);
    /* A model cut short is no model: validate says so with an error. */
    CHECK(f->validate(robot.data, robot.size / 2, UE_MODE_STRICT, &c, &d) != UE_OK);
    CHECK(ue_diag_count(&d, UE_SEV_ERROR) > 0 && c.summary[0] == 0);
    ue_buf_free(&c.stats);
    ue_diag_free(&d);
    ue_buf_free(&robot);
}

int main(void) {
    if (!write_pack()) {
        fprintf(stderr, "cannot write the sample pack\n");
        return 3;
    }
    RUN(the_table_names_msh_first);
    RUN(probe_knows_a_model_from_a_container);
    RUN(collect_walks_containers);
    RUN(probe_claims_a_dat_and_no_container);
    RUN(collect_finds_the_dat_in_fsys_and_pkx);
    RUN(probe_tells_a_dat_without_a_model);
    RUN(title_skips_made_up_entries);
    RUN(collect_memory_walks_bytes);
    RUN(to_scene_takes_msh_options);
    RUN(options_belong_to_their_format);
    RUN(validate_and_roundtrip_through_the_table);
    return TEST_SUMMARY();
}
