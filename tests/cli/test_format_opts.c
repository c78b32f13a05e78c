/* unearth tests — the command line's options of model formats (src/cli/format_opts.c): a list of
 * any length, kept whole for one model and split per format in a run of several. */
#include <stdio.h>
#include <string.h>

#include "cli/format_opts.h"
#include "test.h"

/* A format that takes a sixth option besides the five single-valued ones the CLI knows. */
static const ue_model_option_def six_options[] = {
    {"lod", ""}, {"group", ""}, {"fps", ""}, {"data", ""}, {"wear", ""}, {"sixth", ""}, {"anims", ""},
};
static const ue_model_format six = {.name = "six", .description = "format of six options", .options = six_options, .option_count = 7};
static const ue_model_option_def lod_only[] = {{"lod", ""}};
static const ue_model_format one = {.name = "one", .description = "format of one option", .options = lod_only, .option_count = 1};

static cli_opts every_option(const char **anims, size_t anims_count) {
    cli_opts o;
    memset(&o, 0, sizeof o);
    o.lod = "1", o.group = "all", o.fps = "24", o.data = "game", o.wear = "robot.wea";
    o.anims = anims, o.anims_count = anims_count;
    return o;
}

/* Every option given is kept, in order: the five, every --anims, then one added after them. */
static void a_sixth_option_is_kept(void) {
    const char *anims[CLI_ANIMS_MAX];
    char names[CLI_ANIMS_MAX][16];
    for (size_t i = 0; i < CLI_ANIMS_MAX; i++) snprintf(names[i], sizeof names[i], "bank%zu.dat", i), anims[i] = names[i];
    cli_opts o = every_option(anims, CLI_ANIMS_MAX);
    cli_format_opts f;
    cli_format_opts_init(&f, &o);
    CHECK_EQ_U(f.count, 5 + CLI_ANIMS_MAX);
    CHECK(cli_format_opts_add(&f, "sixth", "6"));
    size_t n;
    ue_model_option *given = cli_format_opts_for(&f, &six, &n);
    REQUIRE(given != NULL);
    CHECK_EQ_U(n, 5 + CLI_ANIMS_MAX + 1);
    static const char *const keys[] = {"lod", "group", "fps", "data", "wear"};
    for (size_t i = 0; i < 5 && i < n; i++) CHECK_STR(given[i].key, keys[i]);
    for (size_t i = 0; i < CLI_ANIMS_MAX && 5 + i < n; i++) CHECK_STR(given[5 + i].value, names[i]);
    CHECK_STR(given[n - 1].key, "sixth");
    CHECK_STR(given[n - 1].value, "6");
    given[n] = (ue_model_option){"origin", "robot.msh"}; /* the room for one more it promises */
    free(given);
    cli_format_opts_destroy(&f);
}

/* Many options at once: none dropped, whatever the count. */
static void options_have_no_fixed_count(void) {
    cli_opts o = every_option(NULL, 0);
    cli_format_opts f;
    cli_format_opts_init(&f, &o);
    char values[200][8];
    for (size_t i = 0; i < 200; i++) {
        snprintf(values[i], sizeof values[i], "%zu", i);
        CHECK(cli_format_opts_add(&f, "sixth", values[i]));
    }
    size_t n;
    ue_model_option *given = cli_format_opts_for(&f, &six, &n);
    REQUIRE(given != NULL);
    CHECK_EQ_U(n, 205);
    CHECK_STR(given[204].value, "199");
    CHECK(ue_model_option_get(&(ue_model_options){given, n, NULL}, "sixth") == given[204].value);
    free(given);
    cli_format_opts_destroy(&f);
}

/* In a run of several models a format gets only its own options, and the others are counted
 * per option and format, each option once, in the order given. */
static void per_format_keeps_only_a_formats_own(void) {
    cli_opts o = every_option(NULL, 0);
    cli_format_opts f;
    cli_format_opts_init(&f, &o);
    CHECK(cli_format_opts_add(&f, "sixth", "6"));
    f.per_format = true;
    size_t n;
    for (int model = 0; model < 2; model++) {
        ue_model_option *given = cli_format_opts_for(&f, &one, &n);
        REQUIRE(given != NULL);
        CHECK_EQ_U(n, 1);
        CHECK_STR(given[0].key, "lod");
        free(given);
    }
    REQUIRE(f.ignored_count == 5);
    static const char *const ignored[] = {"group", "fps", "data", "wear", "sixth"};
    for (size_t i = 0; i < 5; i++) {
        CHECK_STR(f.ignored[i].key, ignored[i]);
        CHECK_EQ_U(f.ignored[i].models, 2);
        CHECK(f.ignored[i].format == &one);
    }
    cli_format_opts_destroy(&f);
}

int main(void) {
    RUN(a_sixth_option_is_kept);
    RUN(options_have_no_fixed_count);
    RUN(per_format_keeps_only_a_formats_own);
    return TEST_SUMMARY();
}
