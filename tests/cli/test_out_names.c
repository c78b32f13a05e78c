/* unearth tests — the one naming rule of outputs (src/cli/out_names.c): the exact names of
 * small cases, and naming that stays linear (candidate names counted) for 20,000 equal names. */
#include <stdio.h>
#include <string.h>

#include "cli/out_names.h"
#include "test.h"

static void place(out_names *n, const char *dir, const char *stem, const char *ext, const char *want,
                  const char *want_companion) {
    char out[1024], companion[1024];
    CHECK(out_names_place_file(n, dir, stem, ext, out, sizeof out, companion, sizeof companion) == UE_OK);
    CHECK_STR(out, want);
    CHECK_STR(companion, want_companion);
}

/* docs/text.md "Outputs of one run": the first free ~N in order, compared ignoring case. */
static void small_cases_keep_their_names(void) {
    out_names n;
    REQUIRE(out_names_init(&n) == UE_OK);
    place(&n, "", "robot~3", "glb", "robot~3.glb", ""); /* a stem that looks numbered */
    place(&n, "", "ROBOT", "glb", "ROBOT.glb", "");
    place(&n, "", "robot", "glb", "robot~2.glb", "");
    place(&n, "", "rOBOT", "glb", "rOBOT~4.glb", ""); /* ~3 was given out as itself */
    place(&n, "", "robot", "glb", "robot~5.glb", "");
    place(&n, "", "robot", "gltf", "robot.gltf", "robot.bin"); /* another extension: its own names */
    place(&n, "", "Robot", "gltf", "Robot~2.gltf", "Robot~2.bin");
    place(&n, "", "robot~2", "gltf", "robot~2~2.gltf", "robot~2~2.bin"); /* Robot~2.gltf is taken */
    place(&n, "", "robot", "gltf", "robot~3.gltf", "robot~3.bin");
    place(&n, "", "a b", "obj", "a b.obj", "a_b.mtl");
    place(&n, "", "a_b", "obj", "a_b~2.obj", "a_b~2.mtl"); /* a_b.mtl is the other OBJ's */
    place(&n, "out", "robot", "glb", "out/robot.glb", ""); /* another folder */
    place(&n, "OUT", "robot", "glb", "OUT/robot~2.glb", ""); /* the same folder, in any case */
    out_names_free(&n);
}

enum { MANY = 20000 };

static void equal_names_cost_one_try_each(void) {
    out_names n;
    REQUIRE(out_names_init(&n) == UE_OK);
    char out[64], companion[64], want[64];
    size_t wrong = 0;
    for (int i = 1; i <= MANY; i++) {
        REQUIRE(out_names_place_file(&n, "d", "Robot", "gltf", out, sizeof out, companion, sizeof companion) == UE_OK);
        if (i == 1) snprintf(want, sizeof want, "d/Robot.gltf");
        else snprintf(want, sizeof want, "d/Robot~%d.gltf", i);
        wrong += strcmp(out, want) != 0;
    }
    CHECK_EQ_U(wrong, 0);
    CHECK_EQ_U(n.tries, MANY); /* was MANY * (MANY + 1) / 2 when each name started at ~1 */
    out_names_free(&n);
}

typedef struct made {
    size_t count;
    char last[256];
    bool fail;
} made;

static ue_result record_dir(const char *dir, void *ctx) {
    made *m = ctx;
    if (m->fail) return UE_ERR_IO;
    m->count++;
    snprintf(m->last, sizeof m->last, "%s", dir);
    return UE_OK;
}

static void enter(out_names *n, const char *parent, const char *part, made *m, const char *want) {
    char dir[256];
    snprintf(dir, sizeof dir, "%s", parent);
    CHECK(out_names_place_dir(n, dir, sizeof dir, part, record_dir, m) == UE_OK);
    CHECK_STR(dir, want);
}

static void folders_are_shared_by_spelling(void) {
    out_names n;
    REQUIRE(out_names_init(&n) == UE_OK);
    made m = {0, "", false};
    enter(&n, "", "Models", &m, "Models");
    enter(&n, "", "models", &m, "models~2"); /* another input's folder, differing by case */
    enter(&n, "", "Models", &m, "Models");   /* shared */
    enter(&n, "", "models", &m, "models~2"); /* shared */
    enter(&n, "Models", "a", &m, "Models/a");
    CHECK_EQ_U(m.count, 3);
    CHECK_STR(m.last, "Models/a");
    REQUIRE(out_names_add(&n, "x.rlb", OUT_NAME_FILE) == UE_OK);
    enter(&n, "", "X.rlb", &m, "X.rlb~2"); /* a file holds the name */
    /* A folder that cannot be made leaves its name free. */
    char dir[256] = "";
    m.fail = true;
    CHECK(out_names_place_dir(&n, dir, sizeof dir, "new", record_dir, &m) == UE_ERR_IO);
    m.fail = false;
    enter(&n, "", "new", &m, "new");
    /* A path that does not fit. */
    char small[8] = "";
    CHECK(out_names_place_dir(&n, small, sizeof small, "too_long", record_dir, &m) == UE_ERR_USAGE);
    out_names_free(&n);
}

/* MANY spellings of one folder name (15 letters: 32,768 ways to case them), each a folder of
 * its own, then each asked for again: 2 tries a new spelling, none to find it again. */
static void case_spellings_cost_constant_tries(void) {
    out_names n;
    REQUIRE(out_names_init(&n) == UE_OK);
    made m = {0, "", false};
    static const char base[] = "textureslibrary";
    char part[16], dir[64], want[64];
    size_t wrong = 0;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < MANY; i++) {
            for (int k = 0; k < 15; k++) part[k] = (char)(i >> k & 1 ? base[k] - 32 : base[k]);
            part[15] = 0;
            dir[0] = 0;
            REQUIRE(out_names_place_dir(&n, dir, sizeof dir, part, record_dir, &m) == UE_OK);
            if (i == 0) snprintf(want, sizeof want, "%s", part);
            else snprintf(want, sizeof want, "%s~%d", part, i + 1);
            wrong += strcmp(dir, want) != 0;
            if (round == 0 && i == MANY - 1) CHECK_EQ_U(n.tries, 1 + 2 * (size_t)(MANY - 1));
        }
    CHECK_EQ_U(wrong, 0);
    CHECK_EQ_U(m.count, MANY);
    CHECK_EQ_U(n.tries, 2 + 2 * (size_t)(MANY - 1)); /* again: the first one's own name, once */
    out_names_free(&n);
}

int main(void) {
    RUN(small_cases_keep_their_names);
    RUN(equal_names_cost_one_try_each);
    RUN(folders_are_shared_by_spelling);
    RUN(case_spellings_cost_constant_tries);
    return TEST_SUMMARY();
}
