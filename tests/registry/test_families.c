/* Tests of the table of families (src/registry/families.c): every family's containers and model
 * formats reach the archive layer and the model registry in probe order, and each descriptor is
 * complete. scripts/check_families.py checks that nothing else registers a family. */
#define _DEFAULT_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "archive/container.h"
#include "registry/families.h"
#include "test.h"
#include "unearth/hsd_model.h"
#include "unearth/model.h"
#include "unearth/msh.h"
#include "unearth/texm.h"

/* What `info` has always named, in the order the archive layer probes: Parkan's two
 * containers, the GameCube's three (PKX, without magic, last of them), HSD's DAT banks last. */
static void containers_reach_the_archive_layer_in_order(void) {
    static const char *const expected[] = {"nres", "rsli", "fsys", "lzss", "pkx", "datbank"};
    size_t n = 0;
    for (const ue_container_ops *ops; (ops = ue_container_format(n)); n++) {
        REQUIRE(n < sizeof expected / sizeof expected[0]);
        CHECK_STR(ops->name, expected[n]);
    }
    CHECK_EQ_U(n, sizeof expected / sizeof expected[0]);
    /* The archive layer's detection reads the same list: an NRes header is an NRes. */
    CHECK_STR(ue_detect_format((const uint8_t *)"NRes", 4, 4), "nres");
}

/* The model registry's list is the families' lists one after another, and every family's list
 * is found in it at the place the table gives. */
static void formats_are_the_families_lists_in_order(void) {
    static const char *const expected[] = {"msh", "texm", "hsd", "hsd_data"};
    size_t count;
    const ue_model_format *const *all = ue_model_formats(&count);
    REQUIRE(all != NULL);
    CHECK_EQ_U(count, sizeof expected / sizeof expected[0]);
    for (size_t i = 0; i < count && i < sizeof expected / sizeof expected[0]; i++) {
        CHECK_STR(all[i]->name, expected[i]);
        CHECK(ue_family_format(i) == all[i]);
    }
    CHECK(ue_family_format(count) == NULL);
    size_t families_count, at = 0;
    const ue_family *const *families = ue_families(&families_count);
    for (size_t f = 0; f < families_count; f++)
        for (size_t k = 0; families[f]->formats && families[f]->formats[k]; k++, at++)
            CHECK(at < count && all[at] == families[f]->formats[k]);
    CHECK_EQ_U(at, count);
    CHECK(all[0] == &ue_msh_model_format && all[1] == &ue_texm_model_format);
    CHECK(all[2] == &ue_hsd_model_format && all[3] == &ue_hsd_data_format);
}

/* Each descriptor names its folder, says what it is, points at a page of docs/ that exists, and
 * brings at least a container or a format. */
static void every_descriptor_is_complete(void) {
    static const char *const expected[] = {"parkan", "gamecube", "hsd"};
    const char *source = getenv("UE_SOURCE_DIR");
    REQUIRE(source && *source);
    size_t count;
    const ue_family *const *families = ue_families(&count);
    CHECK_EQ_U(count, sizeof expected / sizeof expected[0]);
    for (size_t f = 0; f < count && f < sizeof expected / sizeof expected[0]; f++) {
        const ue_family *fam = families[f];
        CHECK_STR(fam->name, expected[f]);
        CHECK(fam->description && fam->description[0]);
        CHECK(fam->containers || fam->formats);
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", source, fam->docs ? fam->docs : "");
        CHECK(fam->docs && strncmp(fam->docs, "docs/", 5) == 0 && access(path, R_OK) == 0);
    }
}

/* The name rules moved into the descriptors answer as the registry did: an NRes named *.msh is
 * MSH before any probe; a cut-short *.dat and bare *.mat0 / *.wea files only as plain files;
 * the walk reads entries typed Texm or dat and those named *.dat. */
static void name_rules_answer_from_their_family(void) {
    size_t count;
    const ue_family *const *families = ue_families(&count);
    REQUIRE(count == 3);
    const ue_family *parkan = families[0], *gamecube = families[1], *hsd = families[2];
    const uint8_t nres[16] = "NRes";
    CHECK(parkan->named("a.rlb:ROBOT.MSH", nres, sizeof nres) == &ue_msh_model_format);
    CHECK(parkan->named("robot.lib", nres, sizeof nres) == NULL);
    CHECK(parkan->named("robot.msh", (const uint8_t *)"Texm", 4) == NULL);
    CHECK_STR(parkan->plain_named("x/CRATE.MAT0", NULL, 0)->name, "mat0");
    CHECK_STR(parkan->plain_named("robot.wea", NULL, 0)->name, "wear");
    CHECK(parkan->plain_named("robot.msh", NULL, 0) == NULL);
    CHECK(gamecube->named == NULL && gamecube->plain_named == NULL && gamecube->walk_entry == NULL);
    CHECK(hsd->named == NULL && hsd->plain_named("a.dat", nres, sizeof nres) == NULL);
    ue_entry_info info = {0};
    snprintf(info.name, sizeof info.name, "robot.msh");
    snprintf(info.type, sizeof info.type, "Texm");
    CHECK(parkan->walk_entry(&info) && !hsd->walk_entry(&info));
    snprintf(info.type, sizeof info.type, "dat");
    CHECK(!parkan->walk_entry(&info) && hsd->walk_entry(&info));
    info.type[0] = 0;
    snprintf(info.name, sizeof info.name, "PlMrNr.DAT");
    CHECK(hsd->walk_entry(&info));
    snprintf(info.name, sizeof info.name, ".dat"); /* a name that is only the extension */
    CHECK(!hsd->walk_entry(&info));
}

int main(void) {
    RUN(containers_reach_the_archive_layer_in_order);
    RUN(formats_are_the_families_lists_in_order);
    RUN(every_descriptor_is_complete);
    RUN(name_rules_answer_from_their_family);
    return TEST_SUMMARY();
}
