/* unearth CLI — internal: the whole-folder batch of `convert -r` (docs/batch.md): the records it
 * keeps per input and model, the directory walk, the mirrored output names, the report. */
#ifndef UE_CLI_BATCH_H
#define UE_CLI_BATCH_H

#include <stdint.h>

#include "cli/cli.h"
#include "unearth/model.h"
#include "unearth/model_format.h"

/* What a record describes; every input the walk meets that is not simply descended into gets
 * one (a file, an unreadable directory, a link not followed), and every model found one. */
typedef enum batch_kind { BATCH_FILE, BATCH_DIRECTORY, BATCH_LINK, BATCH_MODEL } batch_kind;

/* read: a file whose models were collected (their own records follow it). kept: a model whose
 * output an earlier run of the same command left as it placed it, made from its input as it is
 * now. left: a model not converted because a file that is not the batch's stands at its output
 * path (changed since the batch placed it, or put there by somebody else). A record still pending
 * when the batch ends was not done (it stopped or was interrupted). */
typedef enum batch_status {
    BATCH_PENDING, BATCH_READ, BATCH_CONVERTED, BATCH_SKIPPED, BATCH_FAILED, BATCH_KEPT, BATCH_LEFT
} batch_status;

/* The file on disk a model is read from, as it was when read: its real path (NULL when it could
 * not be resolved), size and time in ns. An earlier output of it is kept only while all three
 * are the same. */
typedef struct batch_source {
    char *path;
    uint64_t size;
    int64_t mtime_ns;
} batch_source;

/* What a file in OUT is: inode, size, time in ns. An output is the batch's own only while the
 * file at its path is the one it placed there. */
typedef struct batch_file_id {
    uint64_t ino, size;
    int64_t mtime_ns;
} batch_file_id;

/* convert -r --gallery: what the gallery page says of a model (docs/gallery.md). */
typedef struct batch_gallery {
    bool counted;     /* the counts are known: converted now, or read from the earlier report */
    uint64_t triangles, joints, clips, textures;
    char *thumbnail;  /* its thumbnail below OUT (also one of its images); NULL when none */
    char **warnings;  /* its warnings, each "code: message" */
    size_t warning_count;
} batch_gallery;

typedef struct batch_record {
    batch_kind kind;
    batch_status status;
    char *input;       /* the path on disk, or the model's address (ARCHIVE:ENTRY) */
    size_t title_length; /* models: how much of `input` names it (ue_model_title_length: not the
                          * entries a container made up, a PKX's model.dat); 0: all of it */
    char *rel;         /* files: the mirrored path below OUT ("models/robot.msh") */
    const char *format;/* models: the registry's format name */
    char *output;      /* models: the file written, relative to OUT (NULL when none) */
    char *companion;   /* the .bin/.mtl written beside it (NULL when none) */
    char **images;     /* the PNG files beside a .gltf or .obj (docs/text.md#texture-files) */
    size_t image_count;
    char reason[320];  /* the first reason of a skip or failure, one line */
    size_t models;     /* files: models found in it */
    uint64_t size;     /* files: bytes as the walk saw them; 0 when it did not stat the file */
    size_t unfinished; /* files: models queued and not yet converted (progress) */
    bool read_done;    /* files: every model of it is queued */
    ue_diag diag;
    char *json;        /* the record as the report prints it, once final (batch_record_freeze) */
    batch_source source;        /* files: as read (models take their file's) */
    struct batch_record *file;  /* models: the file record they came from */
    batch_file_id output_id, companion_id; /* models converted or kept: their files as placed */
    batch_file_id *image_ids;                /* ... and each of its images */
    batch_gallery gallery;      /* models, with --gallery */
} batch_record;

/* Records in input order; each is its own allocation, so a worker may hold one while the
 * list grows. */
typedef struct batch_records {
    batch_record **items;
    size_t count, cap;
    /* where every record's reason can be read in full ("all of them in the report"), for the
     * summary's "... and N more"; NULL: nowhere else, and the summary says nothing of it */
    const char *rest_in;
} batch_records;

batch_record *batch_record_add(batch_records *l, batch_kind kind, const char *input);
/* Appends an existing record (false when out of memory). */
bool batch_records_push(batch_records *l, batch_record *r);
/* Forgets a model record's output names (it was not written). */
void batch_record_unname(batch_record *r);
/* Gives a model record the names of its images (paths below OUT; copied), each with a zero
 * identity until placed. False when out of memory (then it has none). */
bool batch_record_set_images(batch_record *r, const char *const *paths, size_t count);
/* The files beside a model's output, in writing order: its images, then its companion. Index
 * i < batch_record_side_count(r); *id (may be NULL) is the file's identity as placed. */
size_t batch_record_side_count(const batch_record *r);
const char *batch_record_side(const batch_record *r, size_t i, const batch_file_id **id);
/* Marks a model left: a file not the batch's stands at `path` (below `root`, OUT); its output
 * names stay, the reason and a warning name the file. */
void batch_record_left(batch_record *r, const char *root, const char *path);
/* Frees every record and the list; NULL items (records moved elsewhere) are passed over. */
void batch_records_free(batch_records *l);
/* Marks a record failed; its reason is the first error of its diagnostics (or the result). */
void batch_record_fail(batch_record *r, ue_result result);
/* Sets status and a one-line reason (printf-style). */
void batch_record_set(batch_record *r, batch_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ---- the walk (batch_walk.c) ---- */

/* Every root in order, directories descended in byte order of their names (names starting
 * with '.' left out); a record per file, per unreadable directory, per link not followed.
 * Symbolic links to directories are followed only with `follow_links`, and then each
 * directory (device and inode) is entered once. Returns UE_ERR_NOMEM only. */
ue_result batch_walk(const char *const *roots, size_t root_count, bool follow_links,
                     batch_records *out);

/* ---- output names (batch_names.c) ---- */

/* A hash set of strings: the relative paths a batch has given out, as files or directories
 * (and, for the walk, the "DEVICE:INODE" of every directory entered). */
typedef struct batch_names batch_names;
batch_names *batch_names_new(void);
void batch_names_free(batch_names *n);
/* The output of one model under OUT, mirrored from its file's `rel` and its address inside
 * the file: `rel` for a bare model file (extension replaced), `rel/ENTRY/.../STEM.EXT` for a
 * model inside a container. Each component is made a safe file name; a name already given
 * out gets "~2", "~3", ... Directories new to the set are created below `root` (OUT;
 * errno tells why one could not be). Fills out/companion (companion "" when the type has none). */
ue_result batch_names_place(batch_names *n, const char *root, const char *rel, const char *file,
                            const ue_model_found *model, const char *ext, char *out, size_t out_cap,
                            char *companion, size_t companion_cap, ue_diag *d);
/* Reserves a name so no output takes it (the report, the marker, the staging folder; the
 * walk's keys of files already seen). */
ue_result batch_names_reserve(batch_names *n, const char *rel);
bool batch_names_has(const batch_names *n, const char *rel);
/* Removes the folders made below `root` that stayed empty (every model in them failed or was
 * not done), so OUT holds only what the report lists. */
void batch_names_prune(const batch_names *n, const char *root);

/* ---- report (batch_report.c) ---- */

#define BATCH_REPORT "unearth-batch.json"

/* not_done: models found but neither converted nor failed, and files not read, because the
 * batch stopped (a full disk, an interrupt); kept: outputs an earlier run left (resume); left:
 * models not converted because a file not the batch's stands at their output path. */
typedef struct batch_summary {
    size_t files, models, converted, kept, skipped, failed, left, not_done_models, not_done_files;
} batch_summary;

void batch_summarise(const batch_records *l, batch_summary *s);
/* Formats a record that will not change any more for the report (any thread, a record at a
 * time), so that the report at the end only joins texts: the threads format records as they
 * finish instead of one thread formatting them all after the last model. */
void batch_record_freeze(batch_record *r);
/* The report as JSON text (OUT/unearth-batch.json and the --report file hold the same);
 * `stopped` is why the batch ended early, NULL when it ran to its end; `format_opts` says which
 * options were passed over for which formats (its ignored table). */
char *batch_report_json(const cli_opts *o, const char *type, const batch_records *l,
                        const batch_summary *s, const char *stopped, const cli_format_opts *format_opts);
/* The closing summary on stderr, with the first reasons of what failed or was skipped. */
void batch_print_summary(const batch_summary *s, const batch_records *l, double seconds);
/* The warnings of the models converted, grouped by code after the summary: a line per code
 * with the number of models, the first few of them, and "... and N more" (-v prints each
 * model's own, so the caller leaves this out then). */
void batch_print_warnings(const batch_records *l);

/* Whether the file at `path` is a batch report written for the output directory `output` (a
 * --report FILE an earlier run of the batch wrote, which a resumed run may replace). */
bool batch_report_is_for(const char *path, const char *output);
/* A report read back: only a regular file of at most BATCH_REPORT_READ_MAX bytes, never a FIFO
 * or a device (which could block); its root object, in `doc` (free it with ue_jdoc_free in any
 * case), or NULL when it is none or not a JSON object. */
#define BATCH_REPORT_READ_MAX ((size_t)512 << 20)
const ue_jv *batch_report_load(const char *path, ue_jdoc *doc);

/* ---- OUTDIR: the marker, in-place outputs, resuming (batch_outdir.c) ---- */

/* The ownership marker: which command wrote OUT and every output it put there, a line before
 * the output is renamed into place and one with its identity after (docs/batch.md). */
#define BATCH_MARKER "unearth-batch.marker"
/* Each output is written here first, then renamed to its place: complete or absent. */
#define BATCH_STAGING "unearth-batch.partial"

typedef struct batch_outdir batch_outdir;

/* Opens OUT for a batch: a new or empty directory, an earlier run of the same command (resumed
 * unless --fresh), or an earlier batch output of other options (redone with --fresh or -f);
 * anything else is refused. Prints why and returns the exit code when it cannot; 0 on success. */
int batch_outdir_open(const cli_opts *o, const char *type, batch_outdir **out);
const char *batch_outdir_root(const batch_outdir *od);
/* What an earlier run left for a model: nothing to keep (it is converted), its output, placed by
 * the batch, unchanged since and made from its input as that is now (kept: not converted again),
 * or a file that is not the batch's at one of its paths (left: that path goes to `left`). Sets
 * the kept model's output_id and companion_id. */
typedef enum batch_earlier { BATCH_EARLIER_NONE, BATCH_EARLIER_KEPT, BATCH_EARLIER_LEFT } batch_earlier;
batch_earlier batch_outdir_earlier(const batch_outdir *od, batch_record *model, char *left, size_t cap);
/* Puts a model's output and the files beside it (batch_record_side: its images, its companion;
 * `side_data` the bytes of each, in that order) in place: staged, listed in the marker, renamed
 * (the main file last), confirmed in the marker with the identity each file has now. 0, or the
 * errno of what failed, with its path in `failed` (EEXIST: a file that is not the batch's stands
 * there, left as it is); then none of them is left in place. */
int batch_outdir_put(batch_outdir *od, batch_record *rec, const void *main, size_t main_size,
                     const ue_buf *side_data, char *failed, size_t failed_cap);
/* Whether a write error means no later output can be written either (a full disk, a
 * read-only or vanished OUT): the batch stops instead of trying every model. */
bool batch_write_error_stops(int err);
/* Whether OUT itself is gone (removed while the batch ran). */
bool batch_outdir_gone(const batch_outdir *od);
/* Whether a converted or kept model's files are in OUT as it placed or kept them: 0, ENOENT (one
 * is gone) or EEXIST (one was changed or replaced since). */
int batch_outdir_holds(const batch_outdir *od, const batch_record *rec);
/* One more file of the batch's own besides the outputs (the gallery's pages and viewer files),
 * at `rel` below OUT: its folders made, staged, placed (a file that is not the batch's standing
 * there is left: EEXIST), listed in the marker and kept listed when the batch settles. 0 or the
 * errno. */
int batch_outdir_put_extra(batch_outdir *od, const char *rel, const void *data, size_t size);
/* Writes OUT/unearth-batch.json (staged and renamed); 0 or the errno. */
int batch_outdir_put_report(batch_outdir *od, const char *text);
/* Ends the batch in OUT: after a complete run, outputs an earlier run listed that this one did
 * not keep or write are removed and the marker is rewritten to list exactly what OUT holds;
 * after a stop, the marker is left as it was appended. The staging folder goes either way. */
void batch_outdir_close(batch_outdir *od, const batch_records *l, bool complete);
/* Found nothing to convert: OUT is left as it was (a new OUT is removed again); frees od. */
void batch_outdir_discard(batch_outdir *od);

/* `convert -r`: type is "glb", "gltf" or "obj"; format_opts the --lod/--group/--fps/--data
 * options, each given to the models whose format has it, and the cache the run shares
 * (format_opts.h). */
int cmd_convert_batch(const cli_opts *o, const char *type, cli_format_opts *format_opts);

/* ---- progress (progress.c) ---- */

typedef struct cli_progress {
    bool enabled;      /* stderr is a terminal and -q was not given */
    double start, last_draw;
    bool drawn;
    bool per_model;    /* done/total count models (convert without -r), not files */
} cli_progress;

void cli_progress_begin(cli_progress *p, bool quiet);
/* Redraws at most ~6 times a second: done/total, rate, ETA and the current file. */
void cli_progress_update(cli_progress *p, size_t done, size_t total, size_t models,
                         const char *current);
/* Erases the bar so that other lines can be printed. */
void cli_progress_clear(cli_progress *p);
double cli_now(void);

#endif
