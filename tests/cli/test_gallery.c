/* unearth tests — the gallery's part of one converted model (src/cli/gallery.c, gallery_model):
 * what its record says when the thumbnail cannot be drawn, and what it says when it can. */
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
    const char *w = rec.gallery.warnings ? rec.gallery.warnings : "";
    CHECK_STR(w, "convert.earlier: said while converting\n"
                 "preview.nodes: a node's parent chain is a cycle\n"
                 "gallery.thumbnail: no thumbnail: invalid input\n");
    free(rec.gallery.warnings);
    ue_diag_free(&rec.diag);
    output_parts_free(&out);
    ue_scene_free(&s);
}

int main(void) {
    RUN(refused_thumbnail_is_a_warning);
    return TEST_SUMMARY();
}
