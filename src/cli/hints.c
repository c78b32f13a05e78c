/* unearth CLI — usage hints for the slips a new user makes: a file named before its verb, an
 * output without -o, a --data folder that is not there, `pack` given an archive, -o x.fbx. */
#define _DEFAULT_SOURCE /* lstat */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "unearth/advanced/text.h"

const char *cli_shown(cli_shown_name *s, const char *name) {
    ue_text_printable(name, s->text, sizeof s->text);
    return s->text;
}

/* ---- a command the user can paste --------------------------------------------------------- */

/* Whole words only: a command that does not fit, or holds a word that is no printable text
 * (it could not be pasted as one line), is dropped rather than shown cut or broken. */
typedef struct command_text {
    char text[1024];
    size_t used;
    bool dropped;
} command_text;

static void append(command_text *c, const char *s, size_t n) {
    if (c->dropped || c->used + n >= sizeof c->text) {
        c->dropped = true;
        return;
    }
    memcpy(c->text + c->used, s, n);
    c->used += n;
    c->text[c->used] = 0;
}

/* One word, in single quotes when the shell would split or expand it. */
static void append_word(command_text *c, const char *word) {
    cli_shown_name printable;
    if (strcmp(cli_shown(&printable, word), word)) c->dropped = true;
    bool plain = *word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                       "0123456789-_./:=,+@%") == strlen(word);
    if (c->used) append(c, " ", 1);
    if (!plain) append(c, "'", 1);
    for (const char *p = word; *p && !c->dropped; p++) {
        if (*p == '\'') append(c, "'\\''", 4);
        else append(c, p, 1);
    }
    if (!plain) append(c, "'", 1);
}

/* The command, or NULL when it was dropped. */
static const char *finished(const command_text *c) { return c->dropped ? NULL : c->text; }

/* ---- unearth FILE VERB --------------------------------------------------------------------- */

/* Index of the first later word (option values skipped, up to `--`) that `matches`, or 0. */
static int later_word(int argc, char **argv, const char *(*matches)(const char *word)) {
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i += 1 + cli_values_after(argv[i]))
        if (matches(argv[i])) return i;
    return 0;
}

static const char *exact_verb(const char *word) {
    const cli_verb_def *v = cli_verb_find(word);
    return v ? v->name : NULL;
}

/* A verb misspelled ("convrt"); a word that names a file is an input, not a slip. */
static const char *near_verb(const char *word) {
    struct stat st;
    return word[0] == '-' || lstat(word, &st) == 0 ? NULL : cli_closest_verb(word);
}

/* `unearth VERB FILE...`: the words in their order, the one at verb_at (if any) left out. */
static const char *verb_first(command_text *c, int argc, char **argv, const char *verb, int verb_at) {
    append_word(c, "unearth");
    append_word(c, verb);
    for (int i = 1; i < argc; i++)
        if (i != verb_at) append_word(c, argv[i]);
    return finished(c);
}

/* `unearth FILE ... VERB ...` (or a verb misspelled there): the command with the verb first. A
 * lone file is most likely a question about it (info); anything else gets no guess. */
int cli_hint_file_first(int argc, char **argv) {
    struct stat st;
    if (argc < 2 || stat(argv[1], &st) != 0) return 0;
    int verb_at = later_word(argc, argv, exact_verb);
    if (!verb_at) verb_at = later_word(argc, argv, near_verb);
    const char *verb = verb_at ? exact_verb(argv[verb_at]) : NULL;
    if (verb_at && !verb) verb = near_verb(argv[verb_at]);
    if (!verb && argc == 2 && S_ISREG(st.st_mode)) verb = "info";
    command_text c = {.used = 0};
    const char *command = verb ? verb_first(&c, argc, argv, verb, verb_at) : NULL;
    const char *kind = S_ISDIR(st.st_mode) ? "a directory" : "a file";
    cli_shown_name name;
    if (command)
        return cli_usage_error(NULL, "%s is %s, not a verb; the verb comes first (did you mean '%s'?)",
                               cli_shown(&name, argv[1]), kind, command);
    return cli_usage_error(NULL, "%s is %s, not a verb; the verb comes first (unearth VERB [options] "
                           "INPUT...)", cli_shown(&name, argv[1]), kind);
}

/* ---- options whose value names something on disk -------------------------------------------- */

int cli_hint_data_dir(const char *verb, const char *data) {
    struct stat st;
    cli_shown_name name;
    if (!data) return 0;
    if (stat(data, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return cli_usage_error(verb, "--data %s: no such directory", data[0] ? cli_shown(&name, data) : "''");
        return cli_usage_error(verb, "--data %s: %s", cli_shown(&name, data), strerror(errno));
    }
    if (!S_ISDIR(st.st_mode))
        return cli_usage_error(verb, "--data %s: not a directory (the game folder holding Material.lib)",
                               cli_shown(&name, data));
    return 0;
}

/* ---- an output given without -o ------------------------------------------------------------ */

static bool in_list(const char *ext, const char *const *list, size_t count) {
    for (size_t i = 0; i < count; i++) {
        size_t k = 0;
        while (list[i][k] && cli_ascii_lower(ext[k]) == list[i][k]) k++;
        if (!list[i][k] && !ext[k]) return true;
    }
    return false;
}

/* The extension of the name's last component ("a/b.GLB" → "GLB"), NULL for none ("out",
 * "out/", ".hidden"). */
static const char *extension(const char *name) {
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    const char *dot = strrchr(base, '.');
    return dot && dot > base ? dot + 1 : NULL;
}

/* "a.rlb:robot.msh" or "c.fsys#0" whose archive exists: an input, whatever follows. */
static bool is_entry_address(const char *word) {
    struct stat st;
    ue_address at;
    if (ue_address_split(word, 0, &at) == UE_OK && at.last_entry && stat(at.file, &st) == 0 && S_ISREG(st.st_mode))
        return true;
    char archive[4096];
    for (const char *p = word; *p; p++) {
        size_t n = (size_t)(p - word);
        if (*p != '#' || n == 0 || n >= sizeof archive) continue;
        memcpy(archive, word, n);
        archive[n] = 0;
        if (stat(archive, &st) == 0 && S_ISREG(st.st_mode)) return true;
    }
    return false;
}

/* Whether `word` reads as what the verb writes: a directory name for a directory, a model file
 * (or a directory) for convert, an .msh for edit and import (whose --into archives are not
 * guessed); other files may be named anyhow. */
static bool output_like(const cli_verb_def *v, const char *word) {
    static const char *const models[] = {"glb", "gltf", "obj"};
    const char *ext = extension(word);
    if (!strcmp(v->output, "DIR")) return !ext;
    if (!strcmp(v->name, "convert")) return !ext || in_list(ext, models, sizeof models / sizeof *models);
    if (!strcmp(v->name, "edit") || !strcmp(v->name, "import")) return ue_name_has_ext(word, ".msh");
    return true;
}

/* The last word is taken for the output only when it can be nothing else: it names nothing on
 * disk (not even an entry of an archive) and reads as the verb's output. */
int cli_hint_missing_output(const cli_verb_def *v, const cli_opts *o) {
    if (!v->output || o->output || o->input_count <= v->min_inputs) return 0;
    const char *last = o->inputs[o->input_count - 1];
    struct stat st;
    bool guess = lstat(last, &st) != 0 && errno == ENOENT && !is_entry_address(last) && output_like(v, last);
    command_text c = {.used = 0};
    if (guess) append_word(&c, last);
    const char *output = guess ? finished(&c) : NULL;
    if (output) return cli_usage_error(v->name, "-o %s is required (did you mean -o %s?)", v->output, output);
    return cli_usage_error(v->name, "-o %s is required", v->output);
}

/* ---- pack given an archive ------------------------------------------------------------------ */

int cli_hint_pack_input(const char *input, const char *output) {
    struct stat st;
    cli_shown_name name;
    if (stat(input, &st) != 0 || S_ISDIR(st.st_mode)) return 0;
    const char *format = cli_sniff_format(input);
    if (!strcmp(format, "unknown"))
        return cli_usage_error("pack", "%s is a file, not a directory: pack takes the directory that "
                               "`extract` writes (manifest.json and entries/)", cli_shown(&name, input));
    command_text extract = {.used = 0}, pack = {.used = 0};
    const char *extract_words[] = {"unearth", "extract", input, "-o", "DIR"};
    const char *pack_words[] = {"unearth", "pack", "DIR", "-o", output};
    for (size_t i = 0; i < 5; i++) append_word(&extract, extract_words[i]), append_word(&pack, pack_words[i]);
    bool whole = finished(&extract) && finished(&pack);
    return cli_usage_error("pack", "%s is an archive (%s), not a directory: pack takes the directory that "
                           "`extract` writes; run '%s' first, then '%s'", cli_shown(&name, input), format,
                           whole ? extract.text : "unearth extract ARCHIVE -o DIR",
                           whole ? pack.text : "unearth pack DIR -o ARCHIVE");
}

/* ---- convert -o in a type it does not write ------------------------------------------------- */

int cli_hint_output_type(const char *verb, const char *output) {
    /* Without this, convert takes -o robot.fbx for a directory to write robot.glb into. */
    static const char *const models[] = {"fbx", "dae", "stl", "ply", "3ds", "blend", "usd", "usda", "usdc",
                                         "usdz", "x3d", "abc", "dxf"};
    static const char *const images[] = {"png", "jpg", "jpeg", "tga", "bmp", "dds", "webp"};
    /* What unearth reads: the games' own files go back through import or edit, not convert. */
    static const char *const games[] = {"msh", "dat", "pkx", "fsys", "lzss", "rlb", "lib", "tex", "texm",
                                        "wea", "mat"};
    const char *ext = extension(output);
    struct stat st;
    if (!ext || (stat(output, &st) == 0 && S_ISDIR(st.st_mode))) return 0;
    const char *ends = ".glb, .gltf or .obj (or, for several models, a directory)";
    cli_shown_name name;
    if (in_list(ext, models, sizeof models / sizeof *models))
        return cli_usage_error(verb, "-o %s: convert writes %s; Blender and other tools take a glTF further",
                               cli_shown(&name, output), ends);
    if (in_list(ext, images, sizeof images / sizeof *images))
        return cli_usage_error(verb, "-o %s: convert writes models as %s; textures become PNG files with "
                               "'unearth textures IN -o DIR'", cli_shown(&name, output), ends);
    if (in_list(ext, games, sizeof games / sizeof *games))
        return cli_usage_error(verb, "-o %s: convert writes %s, not game files; a glTF becomes a Parkan "
                               "model with 'unearth import IN.glb -o OUT.msh', and 'unearth edit' changes "
                               "one", cli_shown(&name, output), ends);
    return 0;
}
