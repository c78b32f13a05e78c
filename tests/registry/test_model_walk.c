/* Tests of the lending read path of validate: a mapped archive lends stored entries where they
 * lie, decoded ones in their own buffer, the model walk visits what collect returns, and a
 * damaged nested model is still reported at its offset in the outer file. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "archive/container.h"
#include "common/io.h"
#include "registry/model_walk.h"
#include "samples/samples.h"
#include "test.h"
#include "unearth/gltf.h"
#include "unearth/hsd_model.h"
#include "unearth/gamecube.h"
#include "unearth/model.h"
#include "unearth/msh.h"
#include "unearth/nres.h"
#include "unearth/texm.h"

static char dir[256];
static char fsys[512]; /* the sample pack's creature.fsys, written by main */

static bool make_dir(void) {
    const char *tmp = getenv("UE_TEST_TMP");
    snprintf(dir, sizeof dir, "%s/walkXXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (tmp && *tmp) ue_mkdirs(tmp, NULL);
    return mkdtemp(dir) != NULL;
}

static bool write_file(const char *name, const uint8_t *data, size_t size, char *path, size_t cap) {
    snprintf(path, cap, "%s/%s", dir, name);
    return ue_file_write_atomic(path, data, size, true, NULL) == UE_OK;
}

/* outer.rlb: a text entry, then the robot under two names (NRes stores every payload). */
static bool build_outer(const ue_buf *robot, ue_buf *out) {
    ue_nres n;
    ue_nres_init(&n);
    bool ok = ue_nres_add(&n, 0x74786574, 0, 0, 0, "notes.txt", "hello", 5) == UE_OK &&
              ue_nres_add(&n, 0, 0, 0, 0, "ROBOT.msh", robot->data, robot->size) == UE_OK &&
              ue_nres_add(&n, 0, 0, 0, 0, "COPY.msh", robot->data, robot->size) == UE_OK &&
              ue_nres_write(&n, UE_NRES_CANONICAL, out, NULL) == UE_OK;
    ue_nres_free(&n);
    return ok;
}

static uint32_t le32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Entry i's payload offset read straight from the NRes directory (spec: the 64-byte rows end
 * the file, the data offset is the row's word at +56), not through the library. */
static uint32_t payload_offset(const ue_buf *nres, size_t i) {
    uint32_t count = le32(nres->data + 8), total = le32(nres->data + 12);
    return le32(nres->data + total - count * 64 + i * 64 + 56);
}

static void stored_entries_are_lent_where_they_lie(void) {
    ue_buf robot = {0}, outer = {0};
    char path[512];
    REQUIRE(ue_sample_robot(&robot) == UE_OK && build_outer(&robot, &outer));
    REQUIRE(write_file("outer.rlb", outer.data, outer.size, path, sizeof path));
    ue_archive *a;
    REQUIRE(ue_archive_open_mapped(path, UE_MODE_STRICT, &a, NULL) == UE_OK);
    const uint8_t *view, *data;
    size_t size, view_size;
    uint8_t *to_free;
    REQUIRE(ue_archive_view(a, &view, &view_size) == UE_OK);
    CHECK_EQ_U(view_size, outer.size);
    CHECK_EQ_U(ue_archive_borrow(a, 1, &data, &size, &to_free, NULL), UE_OK);
    CHECK(to_free == NULL);                           /* no copy ... */
    CHECK(data == view + payload_offset(&outer, 1)); /* ... the bytes in the file's mapping */
    CHECK(size == robot.size && !memcmp(data, robot.data, robot.size));
    ue_archive_unview(a, view);
    CHECK_EQ_U(ue_archive_borrow(a, 3, &data, &size, &to_free, NULL), UE_ERR_USAGE);
    ue_archive_close(a);
    /* Read with pread, the same bytes come in a buffer of their own. */
    REQUIRE(ue_archive_open(path, UE_MODE_STRICT, &a, NULL) == UE_OK);
    CHECK_EQ_U(ue_archive_borrow(a, 2, &data, &size, &to_free, NULL), UE_OK);
    CHECK(to_free != NULL && data == to_free);
    CHECK(size == robot.size && !memcmp(data, robot.data, robot.size));
    free(to_free);
    ue_archive_close(a);
    ue_buf_free(&outer);
    ue_buf_free(&robot);
}

/* The creature's FSYS holds its PKX LZSS-compressed: borrowed, it is decoded into a buffer the
 * caller frees, byte for byte what ue_archive_read returns. */
static void compressed_entries_are_decoded_once(void) {
    ue_archive *a;
    REQUIRE(ue_archive_open_mapped(fsys, UE_MODE_STRICT, &a, NULL) == UE_OK);
    REQUIRE(ue_archive_count(a) >= 1);
    ue_entry_info info;
    ue_archive_entry(a, 0, &info);
    CHECK(strcmp(info.method, "stored") != 0);
    const uint8_t *data;
    uint8_t *to_free, *read;
    size_t size, read_size;
    CHECK_EQ_U(ue_archive_borrow(a, 0, &data, &size, &to_free, NULL), UE_OK);
    CHECK(to_free != NULL && data == to_free);
    REQUIRE(ue_archive_read(a, 0, &read, &read_size, NULL) == UE_OK);
    CHECK(size == read_size && size == info.size && !memcmp(data, read, size));
    free(read);
    free(to_free);
    ue_archive_close(a);
}

typedef struct seen_list {
    char names[8][512];
    const ue_model_format *formats[8];
    uint8_t *copies[8];
    size_t sizes[8];
    size_t count;
} seen_list;

static ue_result remember(const ue_model_seen *m, void *ctx) {
    seen_list *l = ctx;
    if (l->count == 8) return UE_ERR_LIMIT;
    size_t i = l->count++;
    snprintf(l->names[i], sizeof l->names[i], "%s", m->name);
    l->formats[i] = m->format;
    l->sizes[i] = m->size;
    l->copies[i] = malloc(m->size ? m->size : 1);
    if (l->copies[i] && m->size) memcpy(l->copies[i], m->data, m->size);
    return UE_OK;
}

/* The walk visits, in order, the models ue_model_collect returns, with the same bytes. */
static void walk_matches_collect(const char *path, size_t want) {
    seen_list seen = {0};
    CHECK_EQ_U(ue_model_walk(path, UE_MODE_STRICT, remember, &seen, NULL), UE_OK);
    ue_model_found *found;
    size_t count;
    REQUIRE(ue_model_collect(path, UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    CHECK_EQ_U(count, want);
    CHECK_EQ_U(seen.count, count);
    for (size_t i = 0; i < count && i < seen.count; i++) {
        CHECK_STR(seen.names[i], found[i].name);
        CHECK(seen.formats[i] == found[i].format);
        CHECK(seen.sizes[i] == found[i].size && seen.copies[i] &&
              !memcmp(seen.copies[i], found[i].data, found[i].size));
    }
    for (size_t i = 0; i < seen.count; i++) free(seen.copies[i]);
    ue_model_found_free(found, count);
}

static void walks_lend_what_collect_copies(void) {
    ue_buf robot = {0}, outer = {0};
    char path[512], want[600];
    REQUIRE(ue_sample_robot(&robot) == UE_OK && build_outer(&robot, &outer));
    REQUIRE(write_file("walk.rlb", outer.data, outer.size, path, sizeof path));
    walk_matches_collect(path, 2);
    seen_list seen = {0};
    REQUIRE(ue_model_walk(path, UE_MODE_STRICT, remember, &seen, NULL) == UE_OK);
    snprintf(want, sizeof want, "%s:COPY.msh", path);
    if (seen.count == 2) CHECK_STR(seen.names[1], want);
    CHECK(seen.formats[0] == &ue_msh_model_format);
    for (size_t i = 0; i < seen.count; i++) free(seen.copies[i]);
    walk_matches_collect(fsys, 1); /* model.dat inside the decoded PKX */
    /* A visit that fails stops the walk and is its result. */
    seen.count = 8;
    CHECK_EQ_U(ue_model_walk(path, UE_MODE_STRICT, remember, &seen, NULL), UE_ERR_LIMIT);
    ue_buf_free(&outer);
    ue_buf_free(&robot);
}

/* convert's one pass over the creature's FSYS → LZSS → PKX → DAT chain (ue_model_walk_validated):
 * the FSYS and the PKX are each opened once, the PKX's one LZSS stream decoded once (the FSYS
 * holds one entry, compressed), and the one DAT visited once with the bytes collect returns;
 * validation says what ue_archive_validate says. The checks and the walk run one after the
 * other on the same archive open the PKX twice, and still decode once: the FSYS keeps what
 * its validation decoded for the reads that follow. The counts are the library's own. */
static void convert_reads_each_layer_once(void) {
    ue_archive *a;
    ue_read_stats stats = {0, 0};
    REQUIRE(ue_archive_open_mapped(fsys, UE_MODE_STRICT, &a, NULL) == UE_OK);
    REQUIRE(ue_archive_count(a) == 1);
    ue_entry_info info;
    ue_archive_entry(a, 0, &info);
    CHECK_STR(info.method, "lzss");
    CHECK_STR(info.nested, "pkx");
    ue_archive_count_reads(a, &stats);
    seen_list seen = {0};
    ue_result checked = UE_ERR_IO;
    bool all = false;
    ue_diag d = {0};
    CHECK_EQ_U(ue_model_walk_validated(a, fsys, UE_MODE_STRICT, remember, &seen, &checked, &all, &d), UE_OK);
    ue_archive_close(a);
    CHECK_EQ_U(checked, UE_OK);
    CHECK(all);
    CHECK_EQ_U(d.count, 0);
    CHECK_EQ_U(stats.opened, 2);  /* the FSYS, the PKX */
    CHECK_EQ_U(stats.decoded, 1); /* the PKX's LZSS stream */
    ue_model_found *found;
    size_t count;
    REQUIRE(ue_model_collect(fsys, UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    REQUIRE(count == 1 && seen.count == 1);
    CHECK_STR(seen.names[0], found[0].name);
    CHECK(seen.formats[0] == &ue_hsd_model_format);
    CHECK(seen.sizes[0] == found[0].size && !memcmp(seen.copies[0], found[0].data, found[0].size));
    ue_model_found_free(found, count);
    free(seen.copies[0]);

    /* The same two steps apart: validation, then the walk. */
    ue_read_stats apart = {0, 0};
    REQUIRE(ue_archive_open_mapped(fsys, UE_MODE_STRICT, &a, NULL) == UE_OK);
    ue_archive_count_reads(a, &apart);
    CHECK_EQ_U(ue_archive_validate(a, NULL), UE_OK);
    seen.count = 0;
    CHECK_EQ_U(ue_model_walk_archive(a, fsys, UE_MODE_STRICT, remember, &seen, NULL), UE_OK);
    ue_archive_close(a);
    CHECK_EQ_U(seen.count, 1);
    free(seen.copies[0]);
    CHECK_EQ_U(apart.decoded, 1);
    CHECK_EQ_U(apart.opened, 3); /* the walk opens the PKX again */
    ue_diag_free(&d);
}

/* convert's one read of a model (docs/architecture.md#one-read-per-input): the check of the
 * creature's DAT, made on the bytes the walk lends, parses it once (the count is the format's
 * own, ue_model_check.reads) and keeps what it parsed; the scene is then made from that alone,
 * after the walk has freed the bytes and with none given (data NULL, size 0), and is the scene
 * ue_model_to_scene makes from collect's copy: the same GLB, the same diagnostics. */
typedef struct kept_visit {
    ue_model_check check;
    ue_model_kept *kept;
    ue_diag d;
    size_t visits;
} kept_visit;

static ue_result check_and_keep(const ue_model_seen *m, void *ctx) {
    kept_visit *v = ctx;
    v->visits++;
    ue_result r = ue_model_validate_kept(m->format, m->data, m->size, UE_MODE_STRICT, &v->check, &v->d, &v->kept);
    ue_buf_free(&v->check.stats);
    return r;
}

static bool glb_of(const ue_scene *s, ue_buf *out) {
    ue_gltf_options o = {0};
    o.format = UE_GLTF_GLB;
    return ue_gltf_export(s, &o, out, NULL, NULL) == UE_OK;
}

static void convert_parses_the_dat_once(void) {
    ue_archive *a;
    REQUIRE(ue_archive_open_mapped(fsys, UE_MODE_STRICT, &a, NULL) == UE_OK);
    kept_visit v = {0};
    ue_result checked = UE_ERR_IO;
    bool all = false;
    CHECK_EQ_U(ue_model_walk_validated(a, fsys, UE_MODE_STRICT, check_and_keep, &v, &checked, &all, NULL), UE_OK);
    ue_archive_close(a);
    CHECK_EQ_U(v.visits, 1);
    CHECK_EQ_U(v.check.reads, 1);
    REQUIRE(v.kept != NULL);

    ue_model_found *found;
    size_t count;
    REQUIRE(ue_model_collect(fsys, UE_MODE_STRICT, &found, &count, NULL) == UE_OK && count == 1);
    CHECK(found[0].format == &ue_hsd_model_format);
    ue_model_found bare = found[0];
    bare.data = NULL, bare.size = 0; /* the kept model needs no bytes */
    ue_scene from_kept, from_bytes;
    ue_scene_init(&from_kept);
    ue_scene_init(&from_bytes);
    ue_diag dk = {0}, db = {0};
    CHECK_EQ_U(ue_model_to_scene_kept(&bare, v.kept, "creature", UE_MODE_STRICT, NULL, &from_kept, &dk), UE_OK);
    CHECK_EQ_U(ue_model_to_scene(&found[0], "creature", UE_MODE_STRICT, NULL, &from_bytes, &db), UE_OK);
    ue_buf glb_kept = {0}, glb_bytes = {0};
    CHECK(glb_of(&from_kept, &glb_kept) && glb_of(&from_bytes, &glb_bytes));
    CHECK(glb_kept.size > 0 && glb_kept.size == glb_bytes.size && !memcmp(glb_kept.data, glb_bytes.data, glb_kept.size));
    CHECK_EQ_U(dk.count, db.count);
    for (size_t i = 0; i < dk.count && i < db.count; i++) CHECK_STR(dk.items[i].message, db.items[i].message);
    /* A format that does not read once keeps nothing: its scene is made from its bytes. */
    ue_model_kept *none = (ue_model_kept *)&v; /* overwritten with NULL */
    ue_model_check c;
    memset(&c, 0, sizeof c);
    CHECK(ue_model_validate_kept(&ue_texm_model_format, found[0].data, found[0].size, UE_MODE_STRICT, &c, NULL,
                                 &none) != UE_OK); /* a DAT is no Texm */
    ue_buf_free(&c.stats);
    CHECK(none == NULL);
    ue_buf_free(&glb_kept);
    ue_buf_free(&glb_bytes);
    ue_scene_free(&from_kept);
    ue_scene_free(&from_bytes);
    ue_diag_free(&dk);
    ue_diag_free(&db);
    ue_diag_free(&v.d);
    ue_model_found_free(found, count);
}

/* An NRes holding two MSH models (each a nested NRes): the one pass visits them in collect's
 * order, and validation still checks both nested containers. */
static void one_pass_visits_what_collect_finds(void) {
    ue_buf robot = {0}, outer = {0};
    char path[512];
    REQUIRE(ue_sample_robot(&robot) == UE_OK && build_outer(&robot, &outer));
    REQUIRE(write_file("once.rlb", outer.data, outer.size, path, sizeof path));
    ue_archive *a;
    ue_read_stats stats = {0, 0};
    REQUIRE(ue_archive_open_mapped(path, UE_MODE_STRICT, &a, NULL) == UE_OK);
    ue_archive_count_reads(a, &stats);
    seen_list seen = {0};
    ue_result checked = UE_ERR_IO;
    bool all = false;
    CHECK_EQ_U(ue_model_walk_validated(a, path, UE_MODE_STRICT, remember, &seen, &checked, &all, NULL), UE_OK);
    ue_archive_close(a);
    CHECK_EQ_U(checked, UE_OK);
    CHECK(all);
    CHECK_EQ_U(stats.opened, 3); /* the outer NRes and both models' */
    CHECK_EQ_U(stats.decoded, 0);
    ue_model_found *found;
    size_t count;
    REQUIRE(ue_model_collect(path, UE_MODE_STRICT, &found, &count, NULL) == UE_OK);
    CHECK_EQ_U(seen.count, count);
    for (size_t i = 0; i < count && i < seen.count; i++) {
        CHECK_STR(seen.names[i], found[i].name);
        CHECK(seen.formats[i] == &ue_msh_model_format);
        CHECK(seen.sizes[i] == found[i].size && !memcmp(seen.copies[i], found[i].data, found[i].size));
    }
    for (size_t i = 0; i < seen.count; i++) free(seen.copies[i]);
    ue_model_found_free(found, count);
    ue_buf_free(&outer);
    ue_buf_free(&robot);
}

static const ue_diag_item *find_code(const ue_diag *d, const char *code) {
    for (size_t i = 0; i < d->count; i++)
        if (!strcmp(d->items[i].code, code)) return &d->items[i];
    return NULL;
}

/* A nested model whose NRes version word (its byte 4) is wrong: the deep check opens it where
 * it lies in the mapping and names the byte by its offset in the outer file, under the outer
 * entry's path; read with pread, the diagnostics are the same, item for item. */
static void damaged_nested_model_names_its_outer_offset(void) {
    ue_buf robot = {0}, outer = {0};
    char path[512];
    REQUIRE(ue_sample_robot(&robot) == UE_OK && build_outer(&robot, &outer));
    uint32_t at = payload_offset(&outer, 1);
    REQUIRE(!memcmp(outer.data + at, "NRes", 4));
    outer.data[at + 4] ^= 0x01; /* version 0x100 → 0x101 */
    REQUIRE(write_file("damaged.rlb", outer.data, outer.size, path, sizeof path));
    ue_diag mapped = {0}, plain = {0};
    ue_archive *a;
    REQUIRE(ue_archive_open_mapped(path, UE_MODE_STRICT, &a, &mapped) == UE_OK);
    CHECK_EQ_U(ue_archive_validate(a, &mapped), UE_ERR_INVALID);
    ue_archive_close(a);
    const ue_diag_item *it = find_code(&mapped, "nres.header.version");
    REQUIRE(it != NULL);
    CHECK_EQ_U(it->severity, UE_SEV_ERROR);
    CHECK_EQ_U(it->offset, (uint64_t)at + 4);
    CHECK_STR(it->path, "nres/entry[1]/nres/header/version");
    CHECK_STR(it->message, "version is 0x101, expected 0x100");
    CHECK(find_code(&mapped, "nres.header.version") == &mapped.items[mapped.count - 1]);
    REQUIRE(ue_archive_open(path, UE_MODE_STRICT, &a, &plain) == UE_OK);
    CHECK_EQ_U(ue_archive_validate(a, &plain), UE_ERR_INVALID);
    ue_archive_close(a);
    CHECK_EQ_U(plain.count, mapped.count);
    for (size_t i = 0; i < plain.count && i < mapped.count; i++) {
        CHECK_STR(plain.items[i].code, mapped.items[i].code);
        CHECK_EQ_U(plain.items[i].offset, mapped.items[i].offset);
        CHECK_STR(plain.items[i].path, mapped.items[i].path);
        CHECK_STR(plain.items[i].message, mapped.items[i].message);
    }
    ue_diag_free(&mapped);
    ue_diag_free(&plain);
    ue_buf_free(&outer);
    ue_buf_free(&robot);
}

/* The creature's FSYS written from the sample pack. */
static bool write_creature(char *path, size_t cap) {
    ue_sample_list l = {0};
    if (ue_samples_build(&l) != UE_OK) return false;
    bool ok = false;
    for (size_t i = 0; i < l.count; i++)
        if (!strcmp(l.items[i].path, "gamecube/creature.fsys"))
            ok = write_file("creature.fsys", l.items[i].data, l.items[i].size, path, cap);
    ue_sample_list_free(&l);
    return ok;
}

/* The CLI's strict extract (ue_archive_extract_follows): validation, the model walk and the
 * extract on one archive decode each LZSS stream once, the creature's PKX and, in an FSYS of
 * its own, an entry the walk reads (typed dat) and one it does not (typed samp); the files
 * written are the bytes the FSYS was made from. */
static bool extracted_is(const char *out, const char *rel, const uint8_t *want, size_t n) {
    char path[600];
    snprintf(path, sizeof path, "%s/%s", out, rel);
    uint8_t *got;
    size_t got_n;
    if (ue_file_read(path, (size_t)1 << 20, &got, &got_n, NULL) != UE_OK) return false;
    bool same = got_n == n && !memcmp(got, want, n);
    free(got);
    return same;
}

static size_t strict_extract_decodes(const char *path, const char *out) {
    ue_archive *a;
    ue_read_stats stats = {0, 0};
    if (ue_archive_open_mapped(path, UE_MODE_STRICT, &a, NULL) != UE_OK) return 0;
    ue_archive_count_reads(a, &stats);
    ue_archive_extract_follows(a);
    seen_list seen = {0};
    CHECK_EQ_U(ue_archive_validate(a, NULL), UE_OK);
    CHECK_EQ_U(ue_model_walk_archive(a, path, UE_MODE_STRICT, remember, &seen, NULL), UE_OK);
    for (size_t i = 0; i < seen.count; i++) free(seen.copies[i]);
    CHECK_EQ_U(ue_archive_extract(a, out, false, NULL), UE_OK);
    ue_archive_close(a);
    return stats.decoded;
}

/* Whether the manifest in `out` gives `want`'s one-shot XXH64 as an entry's "xxh64". */
static bool manifest_has_hash(const char *out, const uint8_t *want, size_t n) {
    char path[600], line[64];
    snprintf(path, sizeof path, "%s/manifest.json", out);
    uint8_t *text;
    size_t len;
    if (ue_file_read(path, (size_t)1 << 20, &text, &len, NULL) != UE_OK) return false;
    snprintf(line, sizeof line, "\"xxh64\": \"%016llx\"", (unsigned long long)ue_xxh64(want, n, 0));
    bool found = false;
    for (size_t i = 0; !found && i + strlen(line) <= len; i++) found = !memcmp(text + i, line, strlen(line));
    free(text);
    return found;
}

static void strict_extract_decodes_each_entry_once(void) {
    char out[400], path[512];
    snprintf(out, sizeof out, "%s/x_creature", dir);
    CHECK_EQ_U(strict_extract_decodes(fsys, out), 1); /* the PKX: validation kept it */
    /* The dat entry is kept decoded by validation, and hashed piece by piece as it is decoded
     * (300,000 bytes: several pieces); the samp entry is decoded by the extract. */
    enum { KEPT = 300000, SAMP = 3000 };
    uint8_t *kept = malloc(KEPT), samp[SAMP];
    REQUIRE(kept);
    for (size_t k = 0; k < KEPT; k++) kept[k] = (uint8_t)(k % 7 + k / 5000);
    for (size_t k = 0; k < SAMP; k++) samp[k] = (uint8_t)(k % 11 * 3);
    ue_fsys_write_entry e[2] = {{.short_name = "d", .type_code = 0x04, .compressed = true, .data = kept, .size = KEPT},
                                {.short_name = "s", .type_code = 0x08, .compressed = true, .data = samp, .size = SAMP}};
    ue_fsys_write_options opt = {.version = 0x201};
    ue_buf bytes = {0};
    REQUIRE(ue_fsys_write(&opt, e, 2, &bytes, NULL) == UE_OK);
    REQUIRE(write_file("two.fsys", bytes.data, bytes.size, path, sizeof path));
    ue_buf_free(&bytes);
    snprintf(out, sizeof out, "%s/x_two", dir);
    CHECK_EQ_U(strict_extract_decodes(path, out), 2);
    CHECK(extracted_is(out, "entries/0000_d.dat", kept, KEPT));
    CHECK(extracted_is(out, "entries/0001_s.samp", samp, SAMP));
    CHECK(manifest_has_hash(out, kept, KEPT));
    CHECK(manifest_has_hash(out, samp, SAMP));
    free(kept);
}

int main(void) {
    if (!make_dir() || !write_creature(fsys, sizeof fsys)) {
        fprintf(stderr, "cannot write the fixtures\n");
        return 3;
    }
    RUN(stored_entries_are_lent_where_they_lie);
    RUN(compressed_entries_are_decoded_once);
    RUN(damaged_nested_model_names_its_outer_offset);
    RUN(walks_lend_what_collect_copies);
    RUN(convert_reads_each_layer_once);
    RUN(convert_parses_the_dat_once);
    RUN(one_pass_visits_what_collect_finds);
    RUN(strict_extract_decodes_each_entry_once);
    return TEST_SUMMARY();
}
