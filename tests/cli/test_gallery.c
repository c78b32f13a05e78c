/* unearth tests — the gallery's part of one converted model (src/cli/gallery.c, gallery_model):
 * what its record and card say when the thumbnail cannot be drawn, and of a warning of two lines. */
#include <stdlib.h>
#include <string.h>

#include "cli/gallery.h"
#include "test.h"

static size_t count_severity(const ue_diag *d, ue_severity sev, const char *code) {
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += d->items[i].severity == sev && (!code || !strcmp(d->items[i].code, code));
    return n;
}

static void free_record(batch_record *rec) {
    for (size_t i = 0; i < rec->gallery.warning_count; i++) free(rec->gallery.warnings[i]);
    free(rec->gallery.warnings);
    free(rec->gallery.thumbnail);
    ue_diag_free(&rec->diag);
}

/* How often `needle` occurs in `hay`. */
static size_t occurrences(const char *hay, const char *needle) {
    size_t n = 0;
    for (const char *at = hay; (at = strstr(at, needle)) != NULL; at += strlen(needle)) n++;
    return n;
}

/* A warning whose message spans lines is one warning: one item of the record, one entry of the
 * card's list (its line break kept inside it), and the model's thumbnail drawn beside it. */
static void warning_of_two_lines_is_one(void) {
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(ue_scene_add_node(&s, "only", -1) == 0);
    char input[] = "two.dat", output[] = "two.glb";
    batch_record rec = {.kind = BATCH_MODEL, .status = BATCH_CONVERTED, .input = input, .output = output};
    ue_diag_add(&rec.diag, UE_SEV_WARNING, "x.lines", UE_NO_OFFSET, "two.dat", "first line\nsecond line");
    ue_diag_add(&rec.diag, UE_SEV_INFO, "x.info", UE_NO_OFFSET, "two.dat", "not a warning");
    output_parts out = {0};
    CHECK(gallery_model(&s, &rec, &out) == UE_OK);
    REQUIRE(rec.gallery.warning_count == 1);
    CHECK_STR(rec.gallery.warnings[0], "x.lines: first line\nsecond line");
    CHECK_STR(rec.gallery.thumbnail ? rec.gallery.thumbnail : "", "two.preview.png");
    CHECK(out.textures.count == 1 && !strcmp(out.textures.files[0].name, "two.preview.png"));
    batch_record *items[] = {&rec};
    batch_records list = {.items = items, .count = 1, .cap = 1};
    char *page = gallery_index_html(&list, false);
    REQUIRE(page != NULL);
    CHECK_EQ_U(occurrences(page, "<ul class=\"warnings\"><li>x.lines: first line\nsecond line</li></ul>"), 1);
    CHECK_EQ_U(occurrences(page, "<li>second line"), 0);
    free(page);
    free_record(&rec);
    output_parts_free(&out);
    ue_scene_free(&s);
}

/* A model the renderer refuses (a parent chain that is a cycle): the record stays a converted
 * model's, with no error; the preview's error is one of its warnings, and so is the
 * gallery.thumbnail warning that says the card has no thumbnail, both in the page's list. */
static void refused_thumbnail_is_a_warning(void) {
    ue_scene s;
    ue_scene_init(&s);
    REQUIRE(ue_scene_add_node(&s, "a", -1) == 0 && ue_scene_add_node(&s, "b", 0) == 1);
    s.nodes[0].parent = 1;
    char input[] = "cycle.dat", output[] = "cycle.glb";
    batch_record rec = {.kind = BATCH_MODEL, .status = BATCH_CONVERTED, .input = input, .output = output};
    ue_diag_add(&rec.diag, UE_SEV_WARNING, "convert.earlier", UE_NO_OFFSET, "cycle.dat", "said while converting");
    output_parts out = {0};
    CHECK(gallery_model(&s, &rec, &out) == UE_OK);
    CHECK_EQ_U(count_severity(&rec.diag, UE_SEV_ERROR, NULL), 0);
    CHECK_EQ_U(count_severity(&rec.diag, UE_SEV_WARNING, "preview.nodes"), 1);
    CHECK_EQ_U(count_severity(&rec.diag, UE_SEV_WARNING, "gallery.thumbnail"), 1);
    CHECK(rec.gallery.thumbnail == NULL && out.textures.count == 0);
    REQUIRE(rec.gallery.warning_count == 3);
    CHECK_STR(rec.gallery.warnings[0], "convert.earlier: said while converting");
    CHECK_STR(rec.gallery.warnings[1], "preview.nodes: a node's parent chain is a cycle or names a node out of range");
    CHECK_STR(rec.gallery.warnings[2], "gallery.thumbnail: no thumbnail: invalid input");
    free_record(&rec);
    ue_diag_free(&rec.diag);
    output_parts_free(&out);
    ue_scene_free(&s);
}

int main(void) {
    RUN(refused_thumbnail_is_a_warning);
    RUN(warning_of_two_lines_is_one);
    return TEST_SUMMARY();
}
