/* unearth CLI — shared declarations of the command-line front end: parsed options, the verbs,
 * and how library results become messages and exit codes. */
#ifndef UE_CLI_H
#define UE_CLI_H

#include "unearth/advanced/json.h"
#include "unearth/archive.h"
#include "unearth/common.h"
#include "unearth/gamecube.h"
#include "unearth/model.h"
#include "unearth/msh_import.h"

struct ue_model_seen; /* one model met by the registry's walk (src/registry/model_walk.h) */

/* Exit codes of the CLI contract. */
enum { EXIT_OK_ = 0, EXIT_INVALID = 1, EXIT_USAGE = 2, EXIT_IO = 3 };

typedef struct cli_opts {
    const char *verb;
    const char **inputs;
    size_t input_count;
    const char *output;
    bool force;
    bool add; /* import --add: --into's FSYS ENTRY is a new entry */
    bool json;
    ue_mode mode;
    bool mode_given;
    bool quiet;
    bool verbose;           /* -v: also show informational notes */
    const char *lod;        /* --lod N as given, NULL if absent: MSH's option "lod" */
    const char *group;      /* --group G as given, NULL if absent: MSH's option "group" */
    const char *fps;        /* --fps N as given, NULL if absent: the model formats' option "fps" */
    const char *data;       /* --data DIR, NULL if absent: MSH's option "data" (material libraries) */
    const char *wear;       /* --wear FILE|ARCHIVE:ENTRY, NULL if absent: MSH's option "wear" */
    const char **anims;     /* each --anims FILE|ARCHIVE:ENTRY in order: HSD's option "anims" */
    size_t anims_count;
    bool recursive;         /* -r: walk directories given as inputs */
    int jobs;               /* -j N: models converted in parallel */
    const char *format;     /* --format glb|gltf|obj for directory outputs */
    bool mips;              /* textures --mips: every mip level, not only level 0 */
    const char *report;     /* convert -r --report FILE.json */
    bool follow_links;      /* convert -r --follow-links: enter linked directories (once each) */
    bool no_animation_pointer; /* convert --no-animation-pointer: glTF without pointer channels */
    bool fresh, resume;     /* convert -r --fresh / --resume: redo or continue an earlier batch */
    bool gallery;           /* convert -r --gallery: thumbnails, index.html and the viewer page */
    const char *like;       /* texm --like FILE: the Texm whose format and flags are copied */
    const char *pixel_format; /* texm --pixel-format F, a checked choice, NULL if absent */
    long mip_levels;        /* texm --mip-levels N (0 = full chain) when mip_levels_given */
    bool mip_levels_given;
    const char *base;       /* import --base ORIG: the model an import edits, NULL for a new one */
    const char *into;       /* import/edit --into ARCHIVE:ENTRY: the archive entry the model goes to */
    const char *textures_into; /* import --textures-into ARCHIVE: the texture archive edited images go back to */
    const char *textures_out;  /* import --textures-out NEW_ARCHIVE: its copy with them */
    const char *textures_dir;  /* import --textures-dir DIR: edited textures as DIR/ENTRY.tex */
    const char *texture_format; /* import --texture-format F of a new HSD model, a checked choice */
    const char *weight_step; /* import --weight-step S of a new HSD model: 0 or 1/N, checked there */
    const char **anim_slots; /* import --anim-slot N NAME, repeatable: N, NAME, N, NAME, ... as given */
    size_t anim_slot_count;  /* pairs */
    long level;             /* pack --level N (0..9) when level_given */
    bool level_given;
    long size;              /* preview --size N when size_given */
    bool size_given;
    const char *view;       /* preview --view V (a checked choice), NULL if absent */
    const char *background; /* preview, textures --sheet: --background transparent|#rrggbb */
    const char *clip;       /* preview --clip NAME: the clip to pose the model at */
    const char *frame;      /* preview --frame F as given (checked by the verb) */
    bool sheet;             /* textures --sheet: one contact sheet PNG instead of a directory */
    const char **ops;       /* edit: operation names (long form) and their values, in order */
    size_t op_count;
} cli_opts;

/* ---- interrupts (src/cli/interrupt.c) ---- */
/* SIGINT, SIGTERM and SIGHUP (unless ignored from the start, as under nohup) end `verb` at once: the
 * temporary files and directories in flight are deleted, a line says whether its one output
 * `output` (NULL: none, or several that the verb reports itself) is complete, left as it was
 * or not written, and the exit code is 128 + N (130 for SIGINT). */
void cli_interrupt_install(const char *verb, const char *output);
/* While deferring, a first signal is only recorded (cli_interrupted returns it, 0 if none): a verb
 * that stops between steps by itself (convert of several models, the -r batch) keeps what it
 * finished. A second signal ends the process at once, temporaries removed, exit 128 + N. */
void cli_interrupt_defer(bool defer);
int cli_interrupted(void);
/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *cli_signal_name(int sig);
/* Ignores SIGXFSZ (true) or puts back what was before (false): a file over RLIMIT_FSIZE is then
 * a write error (EFBIG) that stops the verb with a message. */
void cli_ignore_fsize(bool ignore);

/* ---- reporting (src/cli/report.c) ---- */
int cli_exit_code(ue_result r);
/* -q shows only errors, -v adds informational notes; the default is warnings and errors.
 * Applies to every diagnostic printed as text (never to --json). */
void cli_set_verbosity(bool quiet, bool verbose);
bool cli_shows(ue_severity s);
/* Prints every diagnostic cli_shows to stderr (at most `limit`, 0 = all) and a count of the rest. */
void cli_print_diags(const ue_diag *d, size_t limit);
/* The same, each line prefixed with "PREFIX: " (the model or file the list belongs to). */
void cli_print_diags_as(const char *prefix, const ue_diag *d, size_t limit);
/* `one` when n is 1, else `many`: "1 file", "2 files", "0 entries". */
const char *cli_plural(size_t n, const char *one, const char *many);
/* Whether item i of a list belongs to a listing; when `line` is not NULL, its line too. */
typedef bool (*cli_listed_fn)(size_t i, const void *arg, char *line, size_t cap);
/* One listing on stderr: "TITLE:", the first `most` of the `count` items `listed` takes, then
 * "... and N more (REST_IN)" (REST_IN may be NULL). The grouped warnings of a batch and of
 * textures, and the reasons of a batch's summary, are printed by this. */
void cli_print_listing(size_t count, cli_listed_fn listed, const void *arg, const char *title,
                       size_t most, const char *rest_in);
/* Drops repeats of a diagnostic already in the list (one line per problem). */
void cli_diag_dedupe(ue_diag *d);
/* Diagnostics as a JSON array of {severity, code, offset, path, message} written into `w`. */
void cli_diags_write(ue_json *w, const ue_diag *d);
void cli_error(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The format a file's magic names ("unknown" if none or not a plain file): named even when
 * the file is too damaged to open. */
const char *cli_sniff_format(const char *path);

/* What a verb found in one file. Errors make a file invalid in either mode; in tolerant mode
 * they become warnings, and `dropped` counts what the output had to leave out (damaged entries,
 * models or model parts), which makes the exit code 1 as well. */
typedef struct cli_tally {
    size_t errors;
    size_t warnings;
    size_t dropped;
} cli_tally;
void cli_tally_add(cli_tally *t, const ue_diag *d);
size_t cli_damaged_entries(const ue_archive *a);
/* 0 valid, 1 invalid or something dropped, 2/3 for usage and I/O failures. */
int cli_verdict_code(ue_result r, const cli_tally *t);
/* "valid", "INVALID" (errors), "DAMAGED" (no errors but something dropped) or "FAILED". */
const char *cli_verdict_word(ue_result r, const cli_tally *t);
/* "2 errors, 1 warning" or, when only drops explain the verdict, "1 part dropped, 1 warning". */
void cli_verdict_counts(const cli_tally *t, char *out, size_t out_size);
/* A --json report on stdout: written into `collect` when it is not NULL (one item of the array
 * of several files' reports), else a document of its own in jansson's JSON_INDENT(2) layout,
 * which the first reports had, printed with a newline by cli_json_end. */
typedef struct cli_json_out {
    ue_buf buf;
    ue_json own;
    ue_json *w;
} cli_json_out;
ue_json *cli_json_begin(cli_json_out *out, ue_json *collect);
void cli_json_end(cli_json_out *out);
/* The --json answer of a verb that failed on `path`, {file, format, error, diagnostics}. */
void cli_json_failure(ue_json *w, const char *verb, const char *path, ue_result r, const ue_diag *d);
/* cli_json_failure as a report of its own or into `collect`. */
void cli_emit_failure(ue_json *collect, const char *verb, const char *path, ue_result r, const ue_diag *d);
/* Reads the JSON text of a user's file (an earlier run's unearth-batch.json) into `doc` (free
 * it with ue_jdoc_free in any case); its root, or NULL when the text is not a JSON object. */
const ue_jv *cli_json_object(const void *text, size_t n, ue_jdoc *doc);
/* A container's info for people (src/cli/info_text.c): "PATH: DESCRIPTION, SIZE bytes, N
 * entries" and a line per header field (a table of records a line per record), appended to
 * `out` from the calls ue_archive_write_info makes; UE_ERR_NOMEM when memory ran out. */
ue_result cli_archive_info_text(const ue_archive *a, const char *path, ue_buf *out);

/* Output safety (src/cli/outputs.c). The diagnostic form: UE_ERR_USAGE when `output`, or the
 * `companion` file written beside it (x.gltf → x.bin, "my x.obj" → "my_x.mtl", named by the
 * writer's own rule; NULL for none), is, contains or lies inside any input. */
ue_result cli_output_conflict(const char *output, const char *companion,
                              const char *const *inputs, size_t input_count, ue_diag *d);
/* One file of an output that is written as a unit: the main file and what it names. */
typedef struct cli_out_file {
    const char *path;
    const void *data;
    size_t size;
} cli_out_file;
/* Writes files[0..count) as one output, the main file last (companions first, so no file ever
 * names a missing one): every path is checked against the inputs and (without `force`) for an
 * existing file before any is written; each is written whole (ue_file_write_atomic), and when
 * one cannot be, those this call placed are removed again, so a failed write leaves none. */
ue_result cli_write_outputs(const cli_out_file *files, size_t count, bool force, const char *const *inputs,
                            size_t input_count, ue_diag *d);
/* The printing form: 0 when `output` is safe; otherwise prints why and returns exit code 2. */
int cli_check_output(const char *verb, const char *output, const char *const *inputs,
                     size_t input_count);
/* For verbs that write one file: 0 when `output` may be written; a directory (never replaced)
 * or, without `force`, an existing file prints why and returns exit code 2. */
int cli_refuse_existing(const char *verb, const char *output, bool force);

/* The new archive `b` (to be written as `output`) passes what `unearth validate --strict`
 * checks: the container and every model and texture in it; failures go to `d` (into.c). */
ue_result cli_check_archive_copy(const cli_opts *o, const char *output, const ue_buf *b, ue_diag *d);
/* A copy that fails that check: its diagnostics under the output's name (offsets are the
 * copy's), then why nothing is written. */
void cli_say_copy_refused(const char *verb, const char *output, ue_diag *copy);
/* import's texture edits (src/cli/import_textures.c): --textures-into/-out/-dir checked before
 * any work; computed, the archive copy validated and the .tex files named (out_names) and
 * checked, before anything is written; then written with the model as one output. Without a
 * texture option, the same comparison only warns of what is not written back. */
typedef struct cli_texture_work {
    char library[4096];        /* the texture archive the originals come from */
    ue_texture_edits edits;
    ue_buf archive;            /* --textures-out: the new archive */
    char **tex_paths;          /* --textures-dir: per edit, DIR/NAME.tex */
    bool active;
} cli_texture_work;
int cli_import_textures_check(const cli_opts *o);
int cli_import_textures_check_inputs(const cli_opts *o, const char *const *inputs, size_t count);
/* `ref`: the base from ue_msh_texture_reference; `gltf_files`: the files the glTF opened. */
int cli_import_textures_prepare(const cli_opts *o, const ue_scene *s, const ue_scene *ref,
                                const char *const *gltf_files, size_t gltf_file_count, cli_texture_work *w);
/* The folders the texture files go into, made before anything is written. */
int cli_import_textures_make_dirs(const cli_opts *o, const cli_texture_work *w);
/* Appends the texture files to files[*count] (room for w->edits.count + 1 more). */
void cli_import_textures_files(const cli_opts *o, const cli_texture_work *w, cli_out_file *files, size_t *count);
/* What was written, after the write succeeded. */
void cli_import_textures_tell(const cli_opts *o, const cli_texture_work *w);
void cli_import_textures_free(cli_texture_work *w);

/* --into ARCHIVE:ENTRY of import and edit (src/cli/into.c). Before any work: the output is
 * not the archive (nor inside it) and not named *.msh, ARCHIVE is an NRes or RsLi file and
 * ENTRY fits its names (0 when there is no --into; else an exit code). */
int cli_into_check(const char *verb, const cli_opts *o);
/* The ARCHIVE of --into (NULL: none) into `archive`, read by the address rule for an address that
 * must name an entry (UE_ADDRESS_NAMES_ENTRY); false when there is none or it does not fit. */
bool cli_into_archive(const char *into, char *archive, size_t cap);
/* The archive's kind as the library detects it (ue_detect_format): 'N' NRes, 'L' RsLi, 0
 * neither (or unreadable). */
char cli_parkan_archive_kind(const char *archive);
/* Whether a copy of an NRes or RsLi archive may be named `output`: it keeps the archive's
 * extension (any case; none if the archive has none) or takes .rlb or .lib, the game's. */
bool cli_archive_copy_name_suits(const char *output, const char *archive);
/* The model into a copy of the archive (ue_archive_put: replaced in place or added last), which
 * must validate strictly, written to -o; *added tells which, `written` the entry as the copy
 * names it ("ARCHIVE:ROBOT.msh" for ":robot.msh" or ":#6"). Returns an exit code. */
int cli_into_write(const char *verb, const cli_opts *o, const ue_buf *model, bool *added,
                   char *written, size_t written_cap);
/* The same copy, made and checked but not written: its bytes in *copy (the caller writes them
 * with the rest of a multi-file output, cli_write_outputs). Returns an exit code. */
int cli_into_build(const char *verb, const cli_opts *o, const ue_buf *model, bool *added,
                   char *written, size_t written_cap, ue_buf *copy);

int cmd_info(const cli_opts *o);
int cmd_list(const cli_opts *o);
int cmd_extract(const cli_opts *o);
int cmd_pack(const cli_opts *o);
int cmd_validate(const cli_opts *o);
int cmd_roundtrip(const cli_opts *o);
int cmd_demo(const cli_opts *o);
int cmd_convert(const cli_opts *o);
int cmd_textures(const cli_opts *o); /* src/cli/cmd_textures.c */
int cmd_texm(const cli_opts *o);     /* src/cli/cmd_texm.c */
int cmd_edit(const cli_opts *o); /* runs o->ops, an ordered list of operations */
int cmd_import(const cli_opts *o); /* src/cli/cmd_import.c */
/* import with an HSD --base (src/cli/import_hsd.c): a FSYS or PKX file, a name ending .dat or
 * .pkx, or a file whose first word is its size (a DAT header). */
bool cli_import_base_is_hsd(const char *base);
int cmd_import_hsd(const cli_opts *o);
/* import with no --base and a .dat output: a new HSD model from the glTF (src/cli/import_hsd_new.c). */
int cmd_import_hsd_new(const cli_opts *o);
/* An HSD edit put back into a PKX or FSYS (src/cli/into_hsd.c): the copy of `container` (a
 * file, or with from_base a level of the --base address) whose entry chain holds the DAT. */
typedef struct cli_hsd_into {
    bool active;          /* --into, or -o named .pkx/.fsys */
    bool from_base;       /* no --into: the container is a level of --base */
    char container[4096]; /* what the output is a copy of: "a.fsys", or "a.fsys:c.pkx" */
    char file[4096];      /* the file that holds it (no output may be it) */
    char chain[4096];     /* the entries inside it, outermost first ("" for a PKX's model.dat) */
    const uint32_t *slots, *slot_clips; /* --anim-slot: PKX animation slot k plays anims[slot_clips[k]] */
    const bool *slot_loops;             /* ... a clip that loops (the glTF's extras.unearth_clip.loop) */
    size_t slot_count;
    bool new_model;             /* a new model's DAT: the PKX's indices are fitted to its clips and joints */
    size_t new_clips, new_joints;
    bool added;                 /* out: --add made the DAT a new FSYS entry, given these */
    ue_fsys_added added_info;
} cli_hsd_into;
/* Before any work: the target of --into (or of -o named .pkx or .fsys), the output's name and
 * safety. 0, or an exit code after a message. */
int cli_into_hsd_plan(const cli_opts *o, cli_hsd_into *t);
/* With the base's own container, the chain is the model's address below it. */
void cli_into_hsd_chain_from_model(cli_hsd_into *t, const char *model_address);
/* The DAT into a copy of the container (each nested level re-wrapped, innermost first), checked
 * as `validate --strict` checks it; `written` names the entry as the archives do. Exit code.
 * Without `dat` only the target is checked (a model DAT whose name no other entry shares). */
int cli_into_hsd_build(const cli_opts *o, cli_hsd_into *t, const ue_buf *dat, ue_buf *copy, char *written,
                       size_t written_cap);
struct ue_gltf_files;
/* Shared by both (import_hsd.c): a failure's diagnostics under `who` and its exit code; the glTF
 * read with the output checked against every file it opened; the DAT (or with `into` active, its
 * container's copy) written to -o, never over IN, --base, the container or the glTF's files. */
int cli_import_hsd_fail(const char *who, ue_diag *d, ue_result r);
/* --anim-slot N NAME: N a slot number, and a PKX among the containers the output is a copy of
 * (before any work); then each NAME as its clip's index in the written DAT's anims[] (anim_index
 * from the import's stats) into slots[k], clips[k], loops[k] whether it loops. A clip of a ModelSet
 * other than scene_data's models[0] (anim_model[a] != 0; NULL: a new model, one set) is refused:
 * the PKX plays that one. 0, or an exit code after a message. */
int cli_import_hsd_check_slots(const cli_opts *o, const cli_hsd_into *into);
int cli_import_hsd_resolve_slots(const cli_opts *o, const ue_scene *s, const int32_t *anim_index,
                                 const int32_t *anim_model, uint32_t *slots, uint32_t *clips, bool *loops);
/* The first line an HSD import tells: where the DAT went (replaced or, with --add, added as a new
 * FSYS entry with its type code, file id and storage), or the file written. */
void cli_import_hsd_tell_written(const cli_opts *o, const ue_buf *out, const char *written, const cli_hsd_into *into);
/* --anim-slot's outcome on one line ("anim slots: 3 → clip 2 \"Wave\""), names made printable. */
void cli_import_hsd_tell_slots(const cli_opts *o, const cli_hsd_into *into);
int cli_import_hsd_read_gltf(const cli_opts *o, ue_scene *s, struct ue_gltf_files *opened, ue_diag *d);
int cli_import_hsd_write(const cli_opts *o, const ue_buf *out, const cli_hsd_into *into, const struct ue_gltf_files *opened);
int cmd_cat(const cli_opts *o);    /* one entry's bytes: src/cli/cmd_archive.c */
int cmd_preview(const cli_opts *o); /* src/cli/cmd_preview.c */

/* Model-aware parts of the generic verbs (src/cli/cmd_model.c; convert's in cmd_convert.c). */
/* Prints model statistics when `path` is (or addresses) one model; returns -1 if it is not.
 * With --json the report is appended to `collect` when it is not NULL (info of several files),
 * else printed. */
int model_info(const cli_opts *o, const char *path, ue_json *collect);
/* The one-line summary the model's format gives when it validates it ("6 nodes, 10 batches, 216
 * vertices, 102 triangles"), in `mode`, into `out`; its result (the summary is "" on failure). */
ue_result cli_model_summary(const struct ue_model_seen *m, ue_mode mode, char *out, size_t cap);
/* Validates every model reachable from `path`; adds per-model summaries (JSON array `models`
 * when json is not NULL) and their counts to `sum`. Returns the worst exit code. `a` is the
 * container already opened from `path` with ue_archive_open_mapped (walked in place, not
 * opened again), or NULL. */
int models_validate(const cli_opts *o, const char *path, ue_archive *a, ue_json *json_models,
                    cli_tally *sum);
/* Checks every model reachable from `path` as validate does (in the mode of `o`), printing
 * only the diagnostics of models that fail when `print`; adds their counts to `sum` (may be
 * NULL); returns the worst exit code. `a` as for models_validate. */
int models_check(const cli_opts *o, const char *path, ue_archive *a, bool print, cli_tally *sum);
/* validate's verdict on one file (container and models), without its report: diagnostics of
 * what fails are printed when `print`. Fills the tally; returns the exit code. */
int file_verdict(const cli_opts *o, const char *path, bool print, cli_tally *t);
/* One model → the scene convert exports: named after its address, told its origin, given the
 * format options that are its format's (format_opts.h), --scale applied; the same for single
 * and batch convert. */
typedef struct cli_format_opts cli_format_opts;
ue_result cli_convert_scene(const cli_opts *o, cli_format_opts *format_opts, ue_model_found *m,
                            ue_scene *s, ue_diag *d);
/* Proves decode → encode of every model's tables; prints a line per model. */
int models_roundtrip(const cli_opts *o, const char *path);
/* Textures (formats without geometry, docs/models.md) are not converted: they leave the list,
 * which keeps its order (their bytes are freed); returns how many left. */
size_t cli_drop_textures(ue_model_found *found, size_t *count);

/* ---- a Parkan model's WEAR table (src/cli/wear.c) ---- */
/* --wear, when given: refused (exit 2) for more than one model, else read and parsed in the
 * run's mode before any work; 0, or the exit code after the reader's diagnostics under its name. */
int cli_check_wear(const cli_opts *o, size_t models);
/* How many of the models take the option "wear" (Parkan MSH models). */
size_t cli_count_wearers(const ue_model_found *found, size_t count);
/* After import or edit wrote a model from `base` (NULL: none) under another stem, whether as
 * -o or as the --into entry `written` ("ARCHIVE:ENTRY"): one line (not with -q) saying where the
 * game will look for its WEAR table, when the base has one that the new name would not find. */
void cli_note_materials(const cli_opts *o, const char *base, const char *written);

/* ---- options and help (src/cli/options.c, src/cli/help.c) ---- */

/* Every option the CLI knows; each verb accepts a subset of them (cli_verb_def.options). */
typedef enum {
    OPT_HELP, OPT_OUTPUT, OPT_FORCE, OPT_JSON, OPT_STRICT, OPT_TOLERANT, OPT_QUIET, OPT_VERBOSE,
    OPT_RECURSIVE, OPT_LOD, OPT_GROUP, OPT_JOBS, OPT_FORMAT, OPT_FPS, OPT_MIPS, OPT_REPORT,
    OPT_FOLLOW_LINKS, OPT_DATA, OPT_NO_ANIMATION_POINTER,
    OPT_WEAR, /* convert, textures */
    OPT_ANIMS, /* convert, repeatable */
    OPT_FRESH, OPT_RESUME, OPT_GALLERY, /* convert -r */
    OPT_LIKE, OPT_PIXEL_FORMAT, OPT_MIP_LEVELS, /* texm */
    OPT_BASE, OPT_INTO, /* import */
    OPT_TEXTURES_INTO, OPT_TEXTURES_OUT, OPT_TEXTURES_DIR, /* import --base */
    OPT_TEXTURE_FORMAT, /* import of a new HSD model */
    OPT_WEIGHT_STEP, /* import of a new HSD model */
    OPT_ANIM_SLOT, /* import --base of an HSD model into a PKX, repeatable */
    OPT_ADD, /* import --into ARCHIVE.fsys:NEW: a new FSYS entry */
    OPT_LEVEL, /* pack */
    OPT_SIZE, OPT_VIEW, OPT_BACKGROUND, OPT_CLIP, OPT_FRAME, /* preview */
    OPT_SHEET, /* textures */
    /* edit operations: kept in order in cli_opts.ops */
    OPT_RENAME_NODE, OPT_VERTICES, OPT_TRANSLATE, OPT_SCALE, OPT_REPLACE_SLOT, OPT_MATERIAL,
    OPT_COUNT_
} cli_opt_id;

typedef struct cli_option_def {
    cli_opt_id id;
    const char *short_name; /* "-o", or NULL */
    const char *long_name;  /* "--output" */
    int value_count;        /* values that follow the option (0 for a flag) */
    const char *metavar;    /* how the help names the values: "N", "X Y Z" */
    long min, max;          /* integer range of a numeric value (min > max: not checked here) */
    const char *choices;    /* "glb|gltf|obj": the only values allowed, or NULL */
    const char *help;       /* what it does, its range and default ('\n' continues the line) */
} cli_option_def;

typedef struct cli_verb_def {
    const char *name;
    int (*run)(const cli_opts *);
    unsigned long options;  /* bit (1ul << cli_opt_id) per accepted option */
    const char *inputs;     /* how the synopsis names the inputs: "FILE", "IN..."; NULL: none */
    size_t min_inputs, max_inputs; /* max 0: no limit */
    const char *output;     /* what -o names ("DIR") when the verb requires it, else NULL */
    const char *output_help;
    const char *synopsis, *summary, *details, *examples;
} cli_verb_def;

/* Result of cli_parse when the verb should run (any other value is the exit code). */
enum { CLI_RUN = -1 };

const cli_verb_def *cli_verbs(size_t *count);
const cli_verb_def *cli_verb_find(const char *name);
const cli_option_def *cli_options(size_t *count);
const cli_option_def *cli_option_by_id(cli_opt_id id);
bool cli_verb_accepts(const cli_verb_def *v, cli_opt_id id);
/* Whether `id` is one of the ordered operations of `v` (edit's), rather than a plain option:
 * convert takes --scale as a plain option, once. */
bool cli_is_operation(const cli_verb_def *v, cli_opt_id id);
/* The options of `v` in the order help and man page show them, operations last; returns how
 * many (at most OPT_COUNT_). */
size_t cli_verb_options(const cli_verb_def *v, const cli_option_def **out);
/* The exit codes of the CLI contract with what each means, for the help and the man page. */
typedef struct cli_exit_code_def {
    int code;
    const char *meaning;
} cli_exit_code_def;
const cli_exit_code_def *cli_exit_codes(size_t *count);
char cli_ascii_lower(char c);
/* --scale S of convert and edit: a number of size 1e-30 to 1e30, negative to mirror, never 0
 * (nor inf or nan); false otherwise, and the message says CLI_SCALE_RANGE. */
bool cli_parse_scale(const char *text, double *scale);
#define CLI_SCALE_RANGE "want a number from 1e-30 to 1e30 in size, negative to mirror (not 0)"

/* A name from the command line or an input as a message shows it: a newline, a control byte or a
 * byte that is no text would break the message's one line or reach the terminal (common/text.h). */
typedef struct cli_shown_name {
    char text[4096];
} cli_shown_name;
const char *cli_shown(cli_shown_name *s, const char *name);

/* Usage hints (src/cli/hints.c): each returns 0 when it does not apply, else prints the one-line
 * usage error with its hint and returns EXIT_USAGE. */
/* `unearth FILE VERB ...` (the verb maybe misspelled) or a lone `unearth FILE` (info): the command
 * with the verb first; any other command line starting with a file: that the verb comes first. */
int cli_hint_file_first(int argc, char **argv);
/* A required -o missing while there are more words than inputs: the last word is offered as -o
 * only when it names nothing on disk, no archive entry, and reads as the verb's output. */
int cli_hint_missing_output(const cli_verb_def *v, const cli_opts *o);
/* --data naming no directory. */
int cli_hint_data_dir(const char *verb, const char *data);
/* pack given a file (an archive: extract it first). */
int cli_hint_pack_input(const char *input, const char *output);
/* convert -o robot.fbx / robot.png / robot.msh (or another game file): a type convert does not write. */
int cli_hint_output_type(const char *verb, const char *output);
/* How many words after `word` are its values when it names an option ("-o" 1, "--translate" 3,
 * "--lod=1" and non-options 0): the command-line walks outside the parser skip them. */
int cli_values_after(const char *word);
/* The closest of `candidates` to `word` when it is a plausible typo of it, else NULL. */
const char *cli_closest(const char *word, const char *const *candidates, size_t count);
/* Prints "unearth: VERB: MESSAGE; see 'unearth VERB --help'" (one line) and returns EXIT_USAGE;
 * verb NULL points at the overview instead. */
int cli_usage_error(const char *verb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* cli_closest among the verbs' names. */
const char *cli_closest_verb(const char *word);
/* The usage error for a verb that does not exist, with the nearest verb when there is one. */
int cli_unknown_verb(const char *name);
/* Parses the whole command line into `o` (free with cli_opts_free) and picks the verb. */
int cli_parse(int argc, char **argv, cli_opts *o, const cli_verb_def **verb);
void cli_opts_free(cli_opts *o);
void cli_help_overview(void);
void cli_help_verb(const cli_verb_def *v);
/* The manual page in roff, from the same tables (man.c). */
void cli_print_man_page(void);
/* `unearth help [VERB]`; `help --options [VERB]` lists the option table for the tests;
 * `help --man` prints the manual page. */
int cli_help_command(int argc, char **argv);

#endif
