/* Tests of the OBJ reader used by `edit --replace-slot`: vertex sharing by v/vt/vn triple,
 * polygon fans, negative indices, missing attributes, and errors naming the line. */
#include <locale.h>

#include "test.h"
#include "unearth/obj_read.h"

static void reads_shared_corners_and_fans(void) {
    const char *text =
        "# quad and a triangle\n"
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
        "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\n"
        "vn 0 0 1\n"
        "o thing\ng part\nusemtl x\n"
        "f 1/1/1 2/2/1 3/3/1 4/4/1\n"
        "f -4/-4/-1 -2/-2/-1 -1/-1/-1\r\n";
    ue_obj_mesh m;
    ue_diag d = {0};
    REQUIRE(ue_obj_read(text, strlen(text), 100, &m, &d) == UE_OK);
    CHECK_EQ_U(m.vertex_count, 4);     /* the second face reuses corners 1, 3, 4 */
    CHECK_EQ_U(m.index_count, 9);      /* quad → 2 triangles, + 1 */
    const uint32_t want[9] = {0, 1, 2, 0, 2, 3, 0, 2, 3};
    for (int i = 0; i < 9; i++) CHECK_EQ_U(m.indices[i], want[i]);
    REQUIRE(m.normals && m.uvs);
    CHECK(m.positions[3 * 2] == 1.0f && m.positions[3 * 2 + 1] == 1.0f);
    CHECK(m.uvs[2 * 3 + 1] == 1.0f);
    CHECK(m.normals[2] == 1.0f);
    ue_obj_mesh_free(&m);
    ue_diag_free(&d);
}

static void positions_only(void) {
    const char *text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    ue_obj_mesh m;
    REQUIRE(ue_obj_read(text, strlen(text), 100, &m, NULL) == UE_OK);
    CHECK_EQ_U(m.vertex_count, 3);
    CHECK(m.normals == NULL && m.uvs == NULL);
    ue_obj_mesh_free(&m);
}

static void errors_name_the_line(void) {
    struct {
        const char *text;
        const char *code;
        const char *path;
        ue_result result;
    } cases[] = {
        {"v 0 0 0\nv 1 0 0\nf 1 2 3\n", "obj.index", "obj/line[3]", UE_ERR_INVALID},
        {"v 0 0\n", "obj.number", "obj/line[1]", UE_ERR_INVALID},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n", "obj.face", "obj/line[4]", UE_ERR_INVALID},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1/9 2 3\n", "obj.index", "obj/line[4]", UE_ERR_INVALID},
        /* strtol saturates to LONG_MIN; found by fuzz_obj (UBSan: negating it overflowed). */
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -99999999999999999999 2 3\n", "obj.index", "obj/line[4]",
         UE_ERR_INVALID},
        {"v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nf 1 2 3\nf 2 3 4\n", "obj.limit", "obj/line[6]",
         UE_ERR_LIMIT},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ue_obj_mesh m;
        ue_diag d = {0};
        CHECK_EQ_U(ue_obj_read(cases[c].text, strlen(cases[c].text), 3, &m, &d), cases[c].result);
        REQUIRE(d.count == 1);
        CHECK_STR(d.items[0].code, cases[c].code);
        CHECK_STR(d.items[0].path, cases[c].path);
        ue_diag_free(&d);
    }
}

/* "0.5" is a half in every locale: a host that set LC_NUMERIC to a comma locale (de_DE) must
 * not make the reader stop at the '.'. Without such a locale on the machine, the C.UTF-8 half
 * still runs and the comma half says it is skipped. */
static void reads_numbers_whatever_the_locale(void) {
    static const char *const locales[] = {"C.UTF-8", "de_DE.UTF-8", "de_DE.utf8", "ru_RU.UTF-8", "fr_FR.UTF-8"};
    const char *text = "v 0.5 -1.25 2e-1\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
    bool comma_seen = false;
    for (size_t i = 0; i < sizeof locales / sizeof locales[0]; i++) {
        if (!setlocale(LC_NUMERIC, locales[i])) continue;
        comma_seen |= !strcmp(localeconv()->decimal_point, ",");
        ue_obj_mesh m;
        REQUIRE(ue_obj_read(text, strlen(text), 100, &m, NULL) == UE_OK);
        CHECK(m.positions[0] == 0.5f && m.positions[1] == -1.25f && m.positions[2] == 0.2f);
        ue_obj_mesh_free(&m);
    }
    if (!comma_seen) printf("  (no comma-decimal locale installed: the de_DE half is skipped)\n");
    setlocale(LC_NUMERIC, "C");
}

int main(void) {
    RUN(reads_numbers_whatever_the_locale);
    RUN(reads_shared_corners_and_fans);
    RUN(positions_only);
    RUN(errors_name_the_line);
    return TEST_SUMMARY();
}
