/* unearth CLI — the command-line parser: every argument is checked against the verb's row of the
 * option table (help.c), and a usage error is one line with a hint ("did you mean", --help). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/version.h"
#include "unearth/advanced/text.h"

int cli_usage_error(const char *verb, const char *fmt, ...) {
    va_list ap;
    fputs("unearth: ", stderr);
    if (verb) fprintf(stderr, "%s: ", verb);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    if (verb) fprintf(stderr, "; see 'unearth %s --help'\n", verb);
    else fputs("; see 'unearth --help'\n", stderr);
    return EXIT_USAGE;
}

/* ---- did you mean ---- */

enum { MAX_WORD = 64 }; /* the longest option a usage message spells back */

static const char *undashed(const char *s) {
    while (*s == '-') s++;
    return s;
}

/* Dashes do not count ("-lod" means --lod); a miss must be small next to the word (one edit in
 * three letters), or the word the unique start of a candidate ("--out" for --output). */
const char *cli_closest(const char *word, const char *const *candidates, size_t count) {
    const char *w = undashed(word), *best = NULL, *extended = NULL;
    size_t best_distance = SIZE_MAX, extensions = 0, len = strlen(w);
    for (size_t i = 0; i < count; i++) {
        const char *c = undashed(candidates[i]);
        size_t d = ue_edit_distance(w, c, false, SIZE_MAX);
        if (d < best_distance) best_distance = d, best = candidates[i];
        if (len >= 3 && !strncmp(c, w, len)) extensions++, extended = candidates[i];
    }
    if (best && best_distance <= 2 && best_distance * 3 <= strlen(undashed(best))) return best;
    return extensions == 1 ? extended : NULL;
}

const char *cli_closest_verb(const char *word) {
    size_t count;
    const cli_verb_def *verbs = cli_verbs(&count);
    const char *names[16];
    size_t n = 0;
    for (size_t i = 0; i < count && n < sizeof names / sizeof names[0]; i++) names[n++] = verbs[i].name;
    return cli_closest(word, names, n);
}

int cli_unknown_verb(const char *name) {
    const char *near = cli_closest_verb(name);
    if (near) return cli_usage_error(NULL, "unknown verb %s (did you mean %s?)", name, near);
    return cli_usage_error(NULL, "unknown verb %s", name);
}

/* ---- one option ---- */

/* The option spelled exactly `name[0..len)` in its short or long form, or NULL. */
static const cli_option_def *find_option(const char *name, size_t len) {
    size_t count;
    const cli_option_def *opts = cli_options(&count);
    for (size_t i = 0; i < count; i++) {
        const char *s = opts[i].short_name, *l = opts[i].long_name;
        if ((s && strlen(s) == len && !strncmp(s, name, len)) || (strlen(l) == len && !strncmp(l, name, len)))
            return &opts[i];
    }
    return NULL;
}

static int unknown_option(const cli_verb_def *v, const char *spelled) {
    size_t count, n = 0;
    const cli_option_def *opts = cli_options(&count);
    const char *names[32];
    for (size_t i = 0; i < count && n < sizeof names / sizeof names[0]; i++)
        if (cli_verb_accepts(v, opts[i].id)) names[n++] = opts[i].long_name;
    const char *near = cli_closest(spelled, names, n);
    if (near) return cli_usage_error(v->name, "unknown option %s (did you mean %s?)", spelled, near);
    return cli_usage_error(v->name, "unknown option %s", spelled);
}

/* A known option on the wrong verb is an error that names the verbs it belongs to. */
static int inapplicable_option(const cli_verb_def *v, const char *spelled, cli_opt_id id) {
    char owners[128] = "";
    size_t count, used = 0;
    const cli_verb_def *verbs = cli_verbs(&count);
    for (size_t i = 0; i < count; i++) {
        if (!cli_verb_accepts(&verbs[i], id) || used >= sizeof owners) continue;
        int w = snprintf(owners + used, sizeof owners - used, "%s%s", used ? ", " : "", verbs[i].name);
        if (w > 0) used += (size_t)w;
    }
    return cli_usage_error(v->name, "%s does not apply to %s (accepted by %s)", spelled, v->name, owners);
}

static bool parse_long(const char *s, long *out) {
    char *end;
    errno = 0;
    *out = strtol(s, &end, 10);
    return end != s && !*end && errno == 0;
}

char cli_ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

bool cli_parse_scale(const char *text, double *scale) {
    char *end;
    double v = ue_parse_double(text, &end);
    if (end == text || *end || !isfinite(v) || fabs(v) > 1e30 || fabs(v) < 1e-30) return false;
    *scale = v;
    return true;
}

/* Choices match in any letter case, as output extensions do ("--format OBJ" as "-o X.OBJ"). */
static bool is_choice(const char *choices, const char *value) {
    size_t len = strlen(value);
    for (const char *c = choices; *c;) {
        size_t n = strcspn(c, "|"), k = 0;
        while (k < n && k < len && cli_ascii_lower(value[k]) == c[k]) k++;
        if (n == len && k == len) return true;
        c += n + (c[n] == '|');
    }
    return false;
}

/* Range and choice checks that the table states, before the value is stored. */
static int check_value(const cli_verb_def *v, const cli_option_def *opt, const char *spelled,
                       const char *value, long *number) {
    if (opt->min <= opt->max &&
        (!parse_long(value, number) || *number < opt->min || *number > opt->max))
        return cli_usage_error(v->name, "%s takes an integer from %ld to %ld, not '%s'", spelled,
                               opt->min, opt->max, value);
    if (opt->choices && !is_choice(opt->choices, value))
        return cli_usage_error(v->name, "%s takes one of %s, not '%s'", spelled, opt->choices, value);
    return 0;
}

/* An accepted choice is stored in the table's (lower) case, so the verbs compare it exactly;
 * the value lies in argv, which C lets a program change. */
static void lower_choice(char *value) {
    for (char *p = value; *p; p++) *p = cli_ascii_lower(*p);
}

static void store_option(cli_opts *o, const cli_option_def *opt, const char *const *values, long number) {
    switch (opt->id) {
    case OPT_HELP: break;
    case OPT_OUTPUT: o->output = values[0]; break;
    case OPT_FORCE: o->force = true; break;
    case OPT_JSON: o->json = true; break;
    case OPT_STRICT: o->mode = UE_MODE_STRICT, o->mode_given = true; break;
    case OPT_TOLERANT: o->mode = UE_MODE_TOLERANT, o->mode_given = true; break;
    case OPT_QUIET: o->quiet = true; break;
    case OPT_VERBOSE: o->verbose = true; break;
    case OPT_RECURSIVE: o->recursive = true; break;
    case OPT_LOD: o->lod = values[0]; break; /* range-checked above; the model's format parses it */
    case OPT_GROUP: o->group = values[0]; break;
    case OPT_FPS: o->fps = values[0]; break;
    case OPT_DATA: o->data = values[0]; break;
    case OPT_WEAR: o->wear = values[0]; break;
    case OPT_ANIMS: o->anims[o->anims_count++] = values[0]; break;
    case OPT_JOBS: o->jobs = (int)number; break;
    case OPT_FORMAT: o->format = values[0]; break;
    case OPT_MIPS: o->mips = true; break;
    case OPT_REPORT: o->report = values[0]; break;
    case OPT_FOLLOW_LINKS: o->follow_links = true; break;
    case OPT_FRESH: o->fresh = true; break;
    case OPT_RESUME: o->resume = true; break;
    case OPT_GALLERY: o->gallery = true; break;
    case OPT_NO_ANIMATION_POINTER: o->no_animation_pointer = true; break;
    case OPT_LIKE: o->like = values[0]; break;
    case OPT_PIXEL_FORMAT: o->pixel_format = values[0]; break;
    case OPT_MIP_LEVELS: o->mip_levels = number, o->mip_levels_given = true; break;
    case OPT_BASE: o->base = values[0]; break;
    case OPT_INTO: o->into = values[0]; break;
    case OPT_TEXTURES_INTO: o->textures_into = values[0]; break;
    case OPT_TEXTURES_OUT: o->textures_out = values[0]; break;
    case OPT_TEXTURES_DIR: o->textures_dir = values[0]; break;
    case OPT_TEXTURE_FORMAT: o->texture_format = values[0]; break;
    case OPT_WEIGHT_STEP: o->weight_step = values[0]; break;
    case OPT_ANIM_SLOT:
        o->anim_slots[2 * o->anim_slot_count] = values[0], o->anim_slots[2 * o->anim_slot_count + 1] = values[1];
        o->anim_slot_count++;
        break;
    case OPT_ADD: o->add = true; break;
    case OPT_LEVEL: o->level = number, o->level_given = true; break;
    case OPT_SIZE: o->size = number, o->size_given = true; break;
    case OPT_VIEW: o->view = values[0]; break;
    case OPT_BACKGROUND: o->background = values[0]; break;
    case OPT_CLIP: o->clip = values[0]; break;
    case OPT_FRAME: o->frame = values[0]; break;
    case OPT_SHEET: o->sheet = true; break;
    default: /* an edit operation: kept in order, in its long form, for cmd_edit */
        o->ops[o->op_count++] = opt->long_name;
        for (int k = 0; k < opt->value_count; k++) o->ops[o->op_count++] = values[k];
        break;
    }
}

typedef struct parse_state {
    const cli_verb_def *verb;
    cli_opts *o;
    unsigned long seen; /* bit per option already given */
} parse_state;

/* Takes the option at argv[*i] with its values (after it, or after '=' for one value). */
static int take_option(parse_state *ps, int argc, char **argv, int *i) {
    const cli_verb_def *v = ps->verb;
    const char *arg = argv[*i], *eq = strncmp(arg, "--", 2) ? NULL : strchr(arg, '=');
    char spelled[MAX_WORD + 1];
    snprintf(spelled, sizeof spelled, "%.*s", eq ? (int)(eq - arg) : (int)strlen(arg), arg);
    const cli_option_def *opt = find_option(arg, eq ? (size_t)(eq - arg) : strlen(arg));
    if (!opt) return unknown_option(v, spelled);
    if (!cli_verb_accepts(v, opt->id)) return inapplicable_option(v, spelled, opt->id);
    int n = opt->value_count;
    bool operation = cli_is_operation(v, opt->id);
    if (eq && n == 0) return cli_usage_error(v->name, "%s takes no value", spelled);
    if (eq && n > 1)
        return cli_usage_error(v->name, "%s takes %d values: %s %s", spelled, n, spelled, opt->metavar);
    char *values[3] = {eq ? argv[*i] + (eq - arg) + 1 : NULL, NULL, NULL};
    if (!eq && n > argc - 1 - *i)
        return cli_usage_error(v->name, "%s needs %s: %s %s", spelled, n > 1 ? "values" : "a value",
                               spelled, opt->id == OPT_OUTPUT ? v->output : opt->metavar);
    for (int k = 0; !eq && k < n; k++) values[k] = argv[*i + 1 + k];
    if (!eq) *i += n;
    if (n && !operation && opt->id != OPT_ANIMS && opt->id != OPT_ANIM_SLOT && (ps->seen >> opt->id & 1ul))
        return cli_usage_error(v->name, "%s given twice", spelled);
    ps->seen |= 1ul << opt->id;
    long number = 0;
    int rc = n == 1 ? check_value(v, opt, spelled, values[0], &number) : 0;
    if (!rc && opt->choices) lower_choice(values[0]);
    if (!rc) store_option(ps->o, opt, (const char *const *)values, number);
    return rc;
}

/* ---- the whole command line ---- */

/* The option `word` names ("--lod" or "--lod=1"), or NULL; *inline_value: its value follows '='. */
static const cli_option_def *option_word(const char *word, bool *inline_value) {
    const char *eq = strchr(word, '=');
    *inline_value = eq != NULL;
    return find_option(word, eq ? (size_t)(eq - word) : strlen(word));
}

int cli_values_after(const char *word) {
    bool inline_value;
    const cli_option_def *opt = option_word(word, &inline_value);
    return opt && !inline_value ? opt->value_count : 0;
}

/* -h/--help anywhere before `--` (values of other options skipped) asks for the verb's help. */
static bool wants_help(int argc, char **argv) {
    for (int i = 2; i < argc && strcmp(argv[i], "--"); i += 1 + cli_values_after(argv[i])) {
        bool inline_value;
        const cli_option_def *opt = option_word(argv[i], &inline_value);
        if (opt && opt->id == OPT_HELP) return true;
    }
    return false;
}

/* `-o -` is stdout for cat alone; every other verb writes files or directories of its own, and
 * one named "-" would surprise whoever reads "-" as stdout (`./-` still names it). */
static int refuse_stdout_output(const cli_verb_def *v, const cli_opts *o) {
    if (!o->output || strcmp(o->output, "-") != 0 || !strcmp(v->name, "cat")) return 0;
    if (!strcmp(v->name, "convert"))
        return cli_usage_error(v->name, "-o -: glTF to stdout is not supported; name a file (.glb, .gltf, "
                               ".obj) or a directory");
    return cli_usage_error(v->name, "-o -: %s does not write to stdout; give the output a name (./- "
                           "names one called -)", v->name);
}

/* Combinations the table cannot express: exclusive flags, input counts, a required -o. */
static int check_complete(const parse_state *ps) {
    const cli_verb_def *v = ps->verb;
    const cli_opts *o = ps->o;
    unsigned long both = (1ul << OPT_STRICT) | (1ul << OPT_TOLERANT);
    if ((ps->seen & both) == both) return cli_usage_error(v->name, "--strict and --tolerant exclude each other");
    both = (1ul << OPT_QUIET) | (1ul << OPT_VERBOSE);
    if ((ps->seen & both) == both) return cli_usage_error(v->name, "-q and -v exclude each other");
    both = (1ul << OPT_FRESH) | (1ul << OPT_RESUME);
    if ((ps->seen & both) == both) return cli_usage_error(v->name, "--fresh and --resume exclude each other");
    int hint = cli_hint_missing_output(v, o);
    if (hint) return hint;
    if (!v->inputs && o->input_count)
        return cli_usage_error(v->name, "unexpected argument %s (%s takes no inputs)", o->inputs[0], v->name);
    int name_len = v->inputs ? (int)strcspn(v->inputs, ".") : 0;
    if (o->input_count < v->min_inputs)
        return cli_usage_error(v->name, "missing %.*s", name_len, v->inputs);
    if (v->max_inputs && o->input_count > v->max_inputs)
        return cli_usage_error(v->name, "takes one %.*s, not %zu (unexpected %s)", name_len, v->inputs,
                               o->input_count, o->inputs[v->max_inputs]);
    if (v->output && !o->output) return cli_usage_error(v->name, "-o %s is required", v->output);
    int dash = refuse_stdout_output(v, o);
    return dash ? dash : cli_hint_data_dir(v->name, o->data);
}

static int parse_verb_arguments(const cli_verb_def *v, int argc, char **argv, cli_opts *o) {
    o->inputs = calloc((size_t)argc, sizeof *o->inputs);
    o->ops = calloc((size_t)argc, sizeof *o->ops);
    o->anims = calloc((size_t)argc, sizeof *o->anims);
    o->anim_slots = calloc((size_t)argc, sizeof *o->anim_slots);
    if (!o->inputs || !o->ops || !o->anims || !o->anim_slots) {
        cli_error("out of memory");
        return EXIT_IO;
    }
    parse_state ps = {v, o, 0};
    bool options_ended = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (!options_ended && !strcmp(a, "--")) options_ended = true;
        else if (!options_ended && a[0] == '-' && a[1]) rc = take_option(&ps, argc, argv, &i);
        else o->inputs[o->input_count++] = a;
        if (rc) return rc;
    }
    return check_complete(&ps);
}

int cli_parse(int argc, char **argv, cli_opts *o, const cli_verb_def **verb) {
    memset(o, 0, sizeof *o);
    o->mode = UE_MODE_STRICT;
    o->jobs = 1;
    if (argc < 2) return cli_usage_error(NULL, "no verb given");
    const char *first = argv[1];
    if (!strcmp(first, "help") || !strcmp(first, "--help") || !strcmp(first, "-h"))
        return cli_help_command(argc - 2, argv + 2);
    if (!strcmp(first, "--version")) {
        printf("unearth %s\n", ue_version());
        return EXIT_OK_;
    }
    if (first[0] == '-') {
        static const char *const global[] = {"--help", "--version"};
        const char *near = cli_closest(first, global, 2);
        if (near) return cli_usage_error(NULL, "unknown option %s (did you mean %s?)", first, near);
        return cli_usage_error(NULL, "%s: expected a verb first (unearth VERB [options] INPUT...)", first);
    }
    const cli_verb_def *v = cli_verb_find(first);
    int swapped = v ? 0 : cli_hint_file_first(argc, argv);
    if (swapped) return swapped;
    if (!v) return cli_unknown_verb(first);
    o->verb = v->name;
    *verb = v;
    if (wants_help(argc, argv)) {
        cli_help_verb(v);
        return EXIT_OK_;
    }
    int rc = parse_verb_arguments(v, argc, argv, o);
    return rc ? rc : CLI_RUN;
}

void cli_opts_free(cli_opts *o) {
    free(o->inputs);
    free(o->ops);
    free(o->anims);
    free(o->anim_slots);
    o->inputs = NULL;
    o->ops = NULL;
    o->anims = NULL;
    o->anim_slots = NULL;
}
