/* unearth CLI — usage hints for the slips a new user makes: a file named before its verb, an
 * output without -o, a --data folder that is not there, `pack` given an archive, -o x.fbx. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"

static bool path_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* ---- a command the user can paste --------------------------------------------------------- */

typedef struct command_text {
    char text[1024];
    size_t used;
    bool cut; /* too long: ends with " ..." */
} command_text;

static void append(command_text *c, const char *s, size_t n) {
    if (c->cut || c->used + n + 5 > sizeof c->text) {
        c->cut = true;
        return;
    }
    memcpy(c->text + c->used, s, n);
    c->used += n;
    c->text[c->used] = 0;
}

/* One word, in single quotes when the shell would split or expand it. */
static void append_word(command_text *c, const char *word) {
    if (c->used) append(c, " ", 1);
    bool plain = *word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789-_./:=,+@%") == strlen(word);
    if (plain) {
        append(c, word, strlen(word));
        return;
    }
    append(c, "'", 1);
    for (const char *p = word; *p; p++) {
        if (*p == '\'') append(c, "'\\''", 4);
        else append(c, p, 1);
    }
    append(c, "'", 1);
}

static const char *finished(command_text *c) {
    if (c->cut) memcpy(c->text + c->used, " ...", 5);
    return c->text;
}

/* ---- unearth FILE VERB --------------------------------------------------------------------- */

/* The index of the first later word that is a verb (option values skipped), or 0. */
static int later_verb(int argc, char **argv) {
    size_t count;
    const cli_option_def *opts = cli_options(&count);
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
        if (cli_verb_find(argv[i])) return i;
        for (size_t k = 0; k < count; k++) {
            bool named = (opts[k].short_name && !strcmp(argv[i], opts[k].short_name)) ||
                         !strcmp(argv[i], opts[k].long_name);
            if (named) i += opts[k].value_count;
        }
    }
    return 0;
}

int cli_hint_file_first(int argc, char **argv) {
    struct stat st;
    if (argc < 2 || stat(argv[1], &st) != 0) return 0;
    int verb_at = later_verb(argc, argv);
    /* A lone file is most likely a question about it; a lone directory has no obvious verb. */
    if (!verb_at && !S_ISREG(st.st_mode)) return 0;
    command_text c = {.used = 0};
    append_word(&c, "unearth");
    append_word(&c, verb_at ? argv[verb_at] : "info");
    for (int i = 1; i < argc; i++)
        if (i != verb_at) append_word(&c, argv[i]);
    return cli_usage_error(NULL, "%s is %s, not a verb; the verb comes first (did you mean '%s'?)",
                           argv[1], S_ISDIR(st.st_mode) ? "a directory" : "a file", finished(&c));
}

/* ---- options whose value names something on disk -------------------------------------------- */

int cli_hint_data_dir(const char *verb, const char *data) {
    struct stat st;
    if (!data) return 0;
    if (stat(data, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return cli_usage_error(verb, "--data %s: no such directory", data[0] ? data : "''");
        return cli_usage_error(verb, "--data %s: %s", data, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error(verb, "--data %s: not a directory (the game folder holding Material.lib)", data);
    return 0;
}

/* ---- an output given without -o ------------------------------------------------------------ */

int cli_hint_missing_output(const cli_verb_def *v, const cli_opts *o) {
    if (!v->output || o->output || o->input_count <= v->min_inputs) return 0;
    const char *last = o->inputs[o->input_count - 1];
    /* One word too many can only be the output; otherwise a word naming nothing may be. */
    bool surplus = !v->inputs || (v->max_inputs && o->input_count > v->max_inputs);
    if (!surplus && path_exists(last)) return 0;
    command_text c = {.used = 0};
    append_word(&c, last);
    return cli_usage_error(v->name, "-o %s is required (did you mean -o %s?)", v->output, finished(&c));
}

/* ---- pack given an archive ------------------------------------------------------------------ */

int cli_hint_pack_input(const char *input, const char *output) {
    struct stat st;
    if (stat(input, &st) != 0 || S_ISDIR(st.st_mode)) return 0;
    const char *format = cli_sniff_format(input);
    if (!strcmp(format, "unknown"))
        return cli_usage_error("pack", "%s is a file, not a directory: pack takes the directory that "
                               "`extract` writes (manifest.json and entries/)", input);
    command_text extract = {.used = 0}, pack = {.used = 0};
    const char *extract_words[] = {"unearth", "extract", input, "-o", "DIR"};
    const char *pack_words[] = {"unearth", "pack", "DIR", "-o", output};
    for (size_t i = 0; i < 5; i++) append_word(&extract, extract_words[i]), append_word(&pack, pack_words[i]);
    return cli_usage_error("pack", "%s is an archive (%s), not a directory: pack takes the directory that "
                           "`extract` writes; run '%s' first, then '%s'", input, format,
                           finished(&extract), finished(&pack));
}

/* ---- convert -o in a type it does not write ------------------------------------------------- */

static bool in_list(const char *ext, const char *const *list, size_t count) {
    for (size_t i = 0; i < count; i++) {
        size_t k = 0;
        while (list[i][k] && cli_ascii_lower(ext[k]) == list[i][k]) k++;
        if (!list[i][k] && !ext[k]) return true;
    }
    return false;
}

int cli_hint_output_type(const char *verb, const char *output) {
    /* Without this, convert takes -o robot.fbx for a directory to write robot.glb into. */
    static const char *const models[] = {"fbx", "dae", "stl", "ply", "3ds", "blend", "usd", "usda", "usdc",
                                         "usdz", "x3d", "abc", "dxf"};
    static const char *const images[] = {"png", "jpg", "jpeg", "tga", "bmp", "dds", "webp"};
    const char *base = strrchr(output, '/'), *dot = strrchr(base ? base : output, '.');
    struct stat st;
    if (!dot || (stat(output, &st) == 0 && S_ISDIR(st.st_mode))) return 0;
    const char *ext = dot + 1;
    const char *ends = ".glb, .gltf or .obj (or, for several models, a directory)";
    if (in_list(ext, models, sizeof models / sizeof *models))
        return cli_usage_error(verb, "-o %s: convert writes %s; Blender and other tools take a glTF further",
                               output, ends);
    if (in_list(ext, images, sizeof images / sizeof *images))
        return cli_usage_error(verb, "-o %s: convert writes models as %s; textures become PNG files with "
                               "'unearth textures IN -o DIR'", output, ends);
    return 0;
}
