/* unearth CLI — `convert`: any registered format → glTF/OBJ, files or directories, in parallel;
 * `cli_convert_scene`, the one step from a loaded model to its scene that single and batch
 * convert share. No format is named here. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/batch.h"
#include "cli/format_opts.h"
#include "cli/out_names.h"
#include "cli/output_parts.h"
#include "cli/convert_scan.h"
#include "unearth/archive.h"
#include "unearth/gltf.h"
#include "unearth/model.h"
#include "unearth/obj.h"
#include "unearth/advanced/archive.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/files.h"
#include "unearth/advanced/text.h"
#include "unearth/advanced/model_walk.h"

/* ---- --scale (the format options are format_opts.c's) ------------------------------------ */

/* --scale S of convert: not a format option but a scene one, the same for every family. The
 * root nodes take the factor, so everything below them scales with it, skinned meshes too
 * (their inverse binds are relative to the model's root). False for a bad number; *scale is 1
 * without the option. */
static bool convert_scale(const cli_opts *o, double *scale) {
    *scale = 1.0;
    for (size_t i = 0; i + 1 < o->op_count; i++) {
        if (strcmp(o->ops[i], "--scale") == 0 && !cli_parse_scale(o->ops[i + 1], scale)) return false;
    }
    return true;
}

/* The value of --scale as given (convert takes it once). */
static const char *convert_scale_text(const cli_opts *o) {
    for (size_t i = 0; i + 1 < o->op_count; i++)
        if (strcmp(o->ops[i], "--scale") == 0) return o->ops[i + 1];
    return "";
}

static void scale_scene(ue_scene *s, double scale) {
    /* A skinned node's own transform is ignored by glTF: its joints carry the scale. */
    for (size_t i = 0; i < s->node_count; i++)
        if (s->nodes[i].parent < 0 && s->nodes[i].skin < 0)
            for (int k = 0; k < 3; k++) s->nodes[i].scale[k] = (float)(s->nodes[i].scale[k] * scale);
}

/* ---- convert ----------------------------------------------------------------------------- */

/* What an output is: a name ending in .glb, .gltf or .obj, in any case, is one file of that
 * format ("X.GLB" too); anything else, or a name ending in '/', is a directory. */
typedef enum out_kind { OUT_DIR, OUT_GLB, OUT_GLTF, OUT_OBJ } out_kind;
static const char *const kind_ext[] = {"", "glb", "gltf", "obj"};

typedef struct job {
    ue_model_found model;    /* name (the model's address in UTF-8), format and bytes */
    ue_model_kept *kept;     /* the model as its verdict read it, or NULL; model.data is then NULL */
    out_kind kind;
    char out_path[4096];
    ue_diag diag;
    ue_result result;
    bool ran;                /* false: an interrupt or a stop came before it was started */
    int write_err;           /* errno of its failed write (0: none), which may stop the run */
    bool undone;             /* of several, its write stopped the run: not done, not failed */
    bool written;            /* converted, and its output is there at the end */
    batch_record *record;    /* its line in the run's summary */
} job;

typedef struct job_queue {
    job *jobs;
    size_t count;
    size_t done;
    pthread_mutex_t lock;
    const cli_opts *opts;
    cli_format_opts *format_opts;
    cli_progress *progress;
    bool into_dir;           /* the outputs go into OUT, made before the first job */
    const job *stop;         /* the first job whose write no later one escapes, NULL if none */
} job_queue;

static out_kind kind_of_path(const char *path) {
    for (int k = OUT_GLB; k <= OUT_OBJ; k++) {
        char dotted[8];
        snprintf(dotted, sizeof dotted, ".%s", kind_ext[k]);
        if (ue_name_has_ext(path, dotted)) return (out_kind)k;
    }
    return OUT_DIR;
}

static out_kind kind_of_format(const char *format) {
    for (int k = OUT_GLB; k <= OUT_OBJ; k++)
        if (!strcmp(format, kind_ext[k])) return (out_kind)k;
    return OUT_DIR;
}


/* The selection's source (asset.extras.unearth_selection): the outer file's name without its
 * folder, which is not the model's business and would make the output depend on where it ran,
 * and the entry chain inside it ("ROBOT.msh" of "dir/objects.rlb:ROBOT.msh"). Only where the
 * format recorded a selection (a model import --base reads back): elsewhere one model gives
 * the same bytes by whatever chain of containers it was reached. */
static void record_source(const ue_model_found *m, double scale, ue_scene_selection *sel) {
    if (!sel->recorded) return;
    ue_address at;
    ue_address_split(m->name, 0, &at);
    const char *slash = strrchr(at.file, '/');
    ue_utf8_copy(slash ? slash + 1 : at.file, sel->file, sizeof sel->file);
    ue_utf8_copy(at.entries, sel->entry, sizeof sel->entry);
    sel->scale = scale;
}

/* The model as a scene named after it; the format checks its options (--lod/--group). A
 * format that finds companion files (Parkan: the WEAR and material libraries, and --data's
 * folder, which is searched only for a model with an origin) declares the option "origin"
 * and is told where the model was found. Batch and single convert share this, so a model
 * converts to the same bytes either way. From what the model's verdict kept of it (consumed)
 * when `kept` is not NULL, without reading its bytes again. */
static ue_result cli_convert_scene_kept(const cli_opts *o, cli_format_opts *format_opts, ue_model_found *m,
                                        ue_model_kept *kept, ue_scene *s, ue_diag *d) {
    char base[sizeof s->name]; /* scene names hold 63 bytes: cut between characters, not inside one */
    out_names_model_title(m, base, sizeof base); /* "creature.pkx", not its "model.dat" */
    memcpy(s->name, base, sizeof base);
    size_t n;
    ue_model_option *items = cli_format_opts_for(format_opts, m->format, &n);
    if (!items) {
        ue_model_kept_free(m->format, kept);
        return UE_ERR_NOMEM;
    }
    for (size_t i = 0; i < m->format->option_count; i++)
        if (strcmp(m->format->options[i].key, "origin") == 0) items[n++] = (ue_model_option){"origin", m->name};
    ue_model_options with = {items, n, format_opts->cache};
    ue_result r = ue_model_to_scene_kept(m, kept, base, o->mode, &with, s, d);
    free(items);
    double scale;
    if (r == UE_OK && convert_scale(o, &scale) && scale != 1.0) scale_scene(s, scale);
    if (r == UE_OK) record_source(m, convert_scale(o, &scale) ? scale : 1.0, &s->selection);
    return r;
}

ue_result cli_convert_scene(const cli_opts *o, cli_format_opts *format_opts, ue_model_found *m,
                            ue_scene *s, ue_diag *d) {
    return cli_convert_scene_kept(o, format_opts, m, NULL, s, d);
}

/* The job's files in writing order: the PNGs, the .bin/.mtl, the output itself. */
static ue_result write_parts(const job *j, const cli_opts *o, const output_parts *p, ue_diag *d) {
    size_t n = 0, cap = p->textures.count + 2;
    cli_out_file *files = calloc(cap, sizeof *files);
    char (*paths)[4096] = ue_calloc_items(p->textures.count, sizeof *paths);
    ue_result r = files && paths ? UE_OK : UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < p->textures.count; i++) {
        const texture_file *f = &p->textures.files[i];
        if (!output_parts_beside(j->out_path, f->name, paths[i], sizeof paths[i])) r = UE_ERR_USAGE;
        files[n++] = (cli_out_file){paths[i], f->png.data, f->png.size};
    }
    if (p->side_path[0] && (j->kind == OUT_OBJ || p->side.size)) files[n++] = (cli_out_file){p->side_path, p->side.data, p->side.size};
    files[n++] = (cli_out_file){j->out_path, p->main.data, p->main.size};
    if (r == UE_OK) r = cli_write_outputs(files, n, o->force, o->inputs, o->input_count, d);
    free(files);
    free(paths);
    return r;
}

/* Writes the job's output; a failed write leaves its errno in j->write_err. Into OUT, no folder
 * is made: OUT exists from the start, and one removed meanwhile is not made again. */
static ue_result job_write(job *j, const cli_opts *o, bool into_dir, const ue_scene *s) {
    output_parts p;
    ue_result r = output_parts_export(s, j->out_path, kind_ext[j->kind], o->no_animation_pointer, &p, &j->diag);
    /* Checked before a folder is made for it; the PNGs are checked with the writes. */
    if (r == UE_OK) r = cli_output_conflict(j->out_path, p.side_path[0] ? p.side_path : NULL, o->inputs,
                                            o->input_count, &j->diag);
    if (r == UE_OK) /* an --anims bank is read as well: never written over */
        r = cli_output_conflict(j->out_path, p.side_path[0] ? p.side_path : NULL, o->anims, o->anims_count,
                                &j->diag);
    /* Like extract and pack, convert makes the directories an output file lives in. */
    if (r == UE_OK && !into_dir) r = ue_make_parent_dirs(j->out_path, &j->diag);
    if (r == UE_OK) r = write_parts(j, o, &p, &j->diag);
    if (r == UE_ERR_IO) j->write_err = errno; /* the file writers leave it saying why (common/io.h) */
    output_parts_free(&p);
    return r;
}

static void run_job(job *j, const job_queue *q) {
    ue_scene s;
    ue_scene_init(&s);
    j->ran = true;
    j->result = cli_convert_scene_kept(q->opts, q->format_opts, &j->model, j->kept, &s, &j->diag);
    j->kept = NULL; /* consumed */
    if (j->result == UE_OK) j->result = job_write(j, q->opts, q->into_dir, &s);
    ue_scene_free(&s);
}

/* A write no later output escapes (a full disk, a read-only or vanished OUT: the batch's rule)
 * stops a run of several models; the job is then not done rather than failed. */
static bool job_stops(const job *j) { return j->write_err && batch_write_error_stops(j->write_err); }

/* Job i on one of the loop's threads: started unless an interrupt or a stop came first (those
 * being converted finish and are written, where they can be); the bar and the stop are kept
 * under the queue's lock. */
static void job_step(void *arg, size_t i) {
    job_queue *q = arg;
    pthread_mutex_lock(&q->lock);
    bool start = !cli_interrupted() && !q->stop;
    pthread_mutex_unlock(&q->lock);
    if (!start) return;
    run_job(&q->jobs[i], q);
    pthread_mutex_lock(&q->lock);
    q->done++;
    if (q->count > 1 && job_stops(&q->jobs[i])) {
        q->jobs[i].undone = true;
        if (!q->stop) q->stop = &q->jobs[i];
    }
    cli_progress_update(q->progress, q->done, q->count, q->done, q->jobs[i].model.name);
    pthread_mutex_unlock(&q->lock);
}

/* Input files: the paths given, and with -r every regular file below given directories. */
static int gather_inputs(const char *path, bool recursive, char ***list, size_t *n) {
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!recursive) {
            cli_error("convert: %s is a directory (use -r)", path);
            return EXIT_USAGE;
        }
        struct dirent **names;
        int k = scandir(path, &names, NULL, alphasort);
        if (k < 0) return EXIT_IO;
        int rc = 0;
        for (int i = 0; i < k; i++) {
            if (names[i]->d_name[0] != '.' && !rc) {
                char child[4096];
                snprintf(child, sizeof child, "%s/%s", path, names[i]->d_name);
                rc = gather_inputs(child, recursive, list, n);
            }
            free(names[i]);
        }
        free(names);
        return rc;
    }
    char **grown = realloc(*list, (*n + 1) * sizeof *grown);
    if (!grown) return EXIT_IO;
    *list = grown;
    (*list)[*n] = strdup(path);
    if (!(*list)[*n]) return EXIT_IO;
    (*n)++;
    return 0;
}

/* The output's kind from its name and --format; a --format that contradicts the name's
 * extension is a usage error rather than a file whose name lies about its contents. */
static int choose_output_kind(const cli_opts *o, bool *to_file, out_kind *kind) {
    out_kind by_name = kind_of_path(o->output);
    int foreign = by_name == OUT_DIR ? cli_hint_output_type(o->verb, o->output) : 0;
    if (foreign) return foreign;
    out_kind by_option = o->format ? kind_of_format(o->format) : OUT_DIR;
    if (o->format && by_option == OUT_DIR) {
        cli_error("convert: --format takes glb, gltf or obj, not %s", o->format);
        return EXIT_USAGE;
    }
    *to_file = by_name != OUT_DIR;
    if (*to_file && o->format && by_option != by_name) {
        cli_error("convert: --format %s contradicts the output name %s (a .%s file); drop --format "
                  "or change the extension", o->format, o->output, kind_ext[by_name]);
        return EXIT_USAGE;
    }
    *kind = *to_file ? by_name : (o->format ? by_option : OUT_GLB);
    return 0;
}

/* OUT/NAME.EXT for job i, by the naming rule every verb shares (out_names.h): the model's own
 * name, "~2", "~3", ... when an earlier job took that name (or its .mtl/.bin) in any case. */
static int name_batch_output(const char *dir, out_kind kind, out_names *names, job *j) {
    char stem[200], rel[1024], companion[1024];
    out_names_model_stem(&j->model, stem, sizeof stem);
    size_t dir_len = strlen(dir);
    while (dir_len > 1 && dir[dir_len - 1] == '/') dir_len--; /* "out/" → "out/x.glb", not "out//x.glb" */
    j->kind = kind;
    ue_result r = out_names_place_file(names, "", stem, kind_ext[kind], rel, sizeof rel, companion,
                                       sizeof companion);
    int n = r == UE_OK ? snprintf(j->out_path, sizeof j->out_path, "%.*s/%s", (int)dir_len, dir, rel) : -1;
    if (r == UE_ERR_NOMEM) return EXIT_IO;
    if (n < 0 || (size_t)n >= sizeof j->out_path) {
        cli_error("convert: output path for %s is too long", j->model.name);
        return EXIT_USAGE;
    }
    return 0;
}

/* validate's verdict on one convert input, with one summary line when it is not valid (and the
 * same words as the file's reason in the run's summary); from the pass when there was one. */
static int input_verdict(const cli_opts *o, const char *path, input_scan *sc, batch_record *file) {
    cli_tally t = {0};
    bool strict = o->mode == UE_MODE_STRICT;
    int code = sc->scanned ? scan_verdict(o, path, sc, strict, &t) : file_verdict(o, path, strict, &t);
    if (code) {
        char counts[96];
        cli_verdict_counts(&t, counts, sizeof counts);
        batch_record_set(file, strict ? BATCH_FAILED : BATCH_READ, "%s (%s): %s", t.errors ? "INVALID" : "DAMAGED",
                         counts, strict ? "not converted" : "converting what is intact");
        fprintf(stderr, "%s: %s\n", path, file->reason);
    }
    return code;
}

/* The jobs of a run: every model found in the inputs, in order, and the records of the
 * run's summary (docs/batch.md): each input file followed by its models. */
typedef struct job_list {
    job *items;
    size_t count;
    batch_records records;
} job_list;

/* Takes the models (their bytes, or what their checks kept, move into the jobs; `kept` may be
 * NULL), each with its record. */
static int add_jobs(job_list *l, ue_model_found *found, ue_model_kept **kept, size_t count) {
    job *grown = realloc(l->items, (l->count + count) * sizeof *grown);
    size_t k = 0;
    if (grown) l->items = grown;
    for (; grown && k < count; k++) {
        batch_record *rec = batch_record_add(&l->records, BATCH_MODEL, found[k].name);
        if (!rec) break;
        rec->format = found[k].format->name;
        job *j = &l->items[l->count++];
        memset(j, 0, sizeof *j);
        j->model = found[k];
        j->kept = kept ? kept[k] : NULL;
        j->record = rec;
    }
    bool all = k == count;
    for (; k < count; k++) { /* what did not become a job */
        free(found[k].data);
        if (kept) ue_model_kept_free(found[k].format, kept[k]);
    }
    free(found);
    free(kept);
    return all ? 0 : EXIT_IO;
}

/* A named input that holds no container or model is an error; a directory walk meets files
 * that are neither and passes over them quietly (but not over an unreadable one). */
static int report_collect_failure(const cli_opts *o, const char *file, ue_result r, const ue_diag *d) {
    if (o->recursive && r != UE_ERR_IO) return 0;
    cli_print_diags_as(file, d, 20);
    if (!ue_diag_count(d, UE_SEV_ERROR)) cli_error("convert: %s: %s", file, ue_result_name(r));
    return cli_exit_code(r);
}

size_t cli_drop_textures(ue_model_found *found, size_t *count) {
    size_t kept = 0, dropped = 0;
    for (size_t i = 0; i < *count; i++) {
        if (found[i].format->to_scene) {
            found[kept++] = found[i];
        } else {
            free(found[i].data);
            dropped++;
        }
    }
    *count = kept;
    return dropped;
}

/* cli_drop_textures with what the checks kept of each model (`kept` may be NULL) in step. */
static void drop_textures_kept(ue_model_found *found, ue_model_kept **kept, size_t *count) {
    if (!kept) {
        cli_drop_textures(found, count);
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < *count; i++) {
        if (found[i].format->to_scene) {
            found[k] = found[i];
            kept[k++] = kept[i];
        } else {
            free(found[i].data);
            ue_model_kept_free(found[i].format, kept[i]);
        }
    }
    *count = k;
}

/* Whether any of the models found has geometry (textures, MAT0/WEAR tables and DATs with no
 * model root have none). */
static bool any_geometry(const ue_model_found *found, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (found[i].format->to_scene) return true;
    return false;
}

/* Says what a file without geometry holds instead: textures are pointed to `textures`;
 * anything else (a bare MAT0 or WEAR, a DAT with no model root) is named with its format and
 * summary, up to three of them. */
static void say_no_geometry(const cli_opts *o, const char *file, const ue_model_found *found, size_t count) {
    bool images_only = true;
    for (size_t i = 0; i < count; i++) images_only = images_only && found[i].format->images;
    if (images_only) {
        cli_error("convert: %s: holds textures only, no model to convert (write them as PNG "
                  "with `unearth textures`)", file);
        return;
    }
    enum { SHOWN = 3 };
    for (size_t i = 0; i < count && i < SHOWN; i++) {
        char summary[160];
        ue_model_seen m = {found[i].name, found[i].format, found[i].data, found[i].size, found[i].title_length};
        cli_model_summary(&m, o->mode, summary, sizeof summary);
        if (!strcmp(found[i].name, file)) {
            cli_error("convert: %s: a %s, no model to convert (%s%s`unearth info` shows it)", file,
                      found[i].format->description, summary, summary[0] ? "; " : "");
            return;
        }
        cli_error("convert: %s: holds %s, a %s%s%s%s", file, found[i].name, found[i].format->description,
                  summary[0] ? " (" : "", summary, summary[0] ? ")" : "");
    }
    if (count > SHOWN) cli_error("convert: %s: and %zu more without a model", file, count - SHOWN);
    cli_error("convert: %s: no model to convert (`unearth info %s` lists what it holds)", file, file);
}

/* The models of one input file become jobs, unless the file's verdict forbids it: strict
 * skips an invalid input, tolerant converts what is intact (and still exits 1). Returns the
 * file's exit code; *fatal is set when the run must stop (out of memory). */
static int collect_models(const cli_opts *o, const char *file, input_scan *sc, batch_record *rec, job_list *jobs,
                          int *fatal) {
    ue_model_found *found;
    ue_model_kept **kept = NULL;
    size_t count;
    ue_result r = UE_OK;
    if (sc->scanned) scan_take_models(sc, &found, &kept, &count);
    else r = ue_model_collect(file, o->mode, &found, &count, &rec->diag);
    if (r != UE_OK) {
        batch_record_fail(rec, r);
        return report_collect_failure(o, file, r, &rec->diag);
    }
    if (count > 0 && !o->recursive && !any_geometry(found, count)) {
        /* An invalid input is reported as such; a valid one says what it holds instead. */
        int verdict = input_verdict(o, file, sc, rec);
        if (!verdict) {
            batch_record_set(rec, BATCH_FAILED, "no model to convert");
            say_no_geometry(o, file, found, count);
        }
        found_kept_free(found, kept, count);
        return verdict ? verdict : EXIT_INVALID;
    }
    drop_textures_kept(found, kept, &count);
    rec->status = BATCH_READ;
    rec->models = count;
    /* A directory walk judges only the files it converts from, as it skips the others. */
    int verdict = o->recursive && count == 0 ? 0 : input_verdict(o, file, sc, rec);
    if ((verdict && o->mode == UE_MODE_STRICT) || count == 0) {
        found_kept_free(found, kept, count);
        return verdict;
    }
    *fatal = add_jobs(jobs, found, kept, count);
    return verdict;
}

static int collect_file(const cli_opts *o, const char *file, job_list *jobs, int *fatal) {
    batch_record *rec = batch_record_add(&jobs->records, BATCH_FILE, file);
    if (!rec) return *fatal = EXIT_IO;
    input_scan sc;
    /* One pass gives the models and the verdict; an input it cannot take is read as before. */
    bool scanned = scan_input(o, file, &sc, fatal);
    int code = scanned || !*fatal ? collect_models(o, file, &sc, rec, jobs, fatal) : *fatal;
    scan_free(&sc);
    return code;
}

/* Every input (directories walked with -r) to jobs; returns the worst exit code so far, and
 * *fatal for a failure that ends the run. */
static int collect_jobs(const cli_opts *o, job_list *jobs, int *fatal) {
    char **files = NULL;
    size_t nfiles = 0;
    for (size_t i = 0; i < o->input_count && !*fatal; i++)
        *fatal = gather_inputs(o->inputs[i], o->recursive, &files, &nfiles);
    int worst = *fatal;
    for (size_t f = 0; f < nfiles && !*fatal; f++) {
        int code = collect_file(o, files[f], jobs, fatal);
        if (code > worst) worst = code;
    }
    for (size_t f = 0; f < nfiles; f++) free(files[f]);
    free(files);
    return worst;
}

/* Output paths: OUT itself for one model into a file, DIR/NAME.EXT per model otherwise. */
static int assign_outputs(const cli_opts *o, bool to_file, out_kind kind, job_list *jobs) {
    if (to_file && jobs->count > 1) {
        cli_error("convert: %zu models found; give a directory as -o to write one file each", jobs->count);
        return EXIT_USAGE;
    }
    if (to_file) {
        jobs->items[0].kind = kind;
        snprintf(jobs->items[0].out_path, sizeof jobs->items[0].out_path, "%s", o->output);
        return 0;
    }
    ue_diag d = {0};
    int rc = 0;
    if (ue_mkdirs(o->output, &d) != UE_OK) {
        cli_print_diags_as(o->output, &d, 0);
        cli_error("convert: cannot create %s", o->output);
        rc = EXIT_IO;
    }
    ue_diag_free(&d);
    out_names names = {0};
    if (!rc && out_names_init(&names) != UE_OK) rc = EXIT_IO;
    for (size_t i = 0; i < jobs->count && !rc; i++) rc = name_batch_output(o->output, kind, &names, &jobs->items[i]);
    out_names_free(&names);
    return rc;
}

/* -j N threads over the job list (ue_parallel_for); the calling thread is one of them. The bar counts models.
 * Returns the job whose write stopped the run, NULL if none. */
static const job *run_jobs(const cli_opts *o, bool into_dir, cli_format_opts *format_opts, job_list *jobs) {
    cli_progress progress;
    cli_progress_begin(&progress, o->quiet || jobs->count < 2);
    progress.per_model = true;
    job_queue q = {jobs->items, jobs->count, 0, PTHREAD_MUTEX_INITIALIZER, o, format_opts, &progress, into_dir,
                   NULL};
    ue_parallel_for(jobs->count, (size_t)(o->jobs > 1 ? o->jobs : 1), job_step, &q);
    cli_progress_clear(&progress);
    return q.stop;
}

/* Above this many models a convert names each output, and prints each model's warnings, only
 * with -v: the summary counts them and groups the warnings by code (docs/batch.md). */
enum { MANY_MODELS = 10 };

static bool each_model_said(const cli_opts *o, const job_list *jobs) {
    return jobs->count <= MANY_MODELS || o->verbose;
}

/* What the summary may count: a model converted whose output is still there at the end. */
static void settle_jobs(job_list *jobs) {
    for (size_t i = 0; i < jobs->count; i++) {
        job *j = &jobs->items[i];
        j->written = j->ran && j->result == UE_OK && ue_path_exists(j->out_path);
    }
}

/* Messages in input order, whatever order the threads finished in; returns the worst code. A
 * job the stop left undone says nothing: the stop's one line says why. */
static int report_jobs(const cli_opts *o, const job_list *jobs) {
    bool each = each_model_said(o, jobs);
    int worst = 0;
    for (size_t i = 0; i < jobs->count; i++) {
        const job *j = &jobs->items[i];
        if (!j->ran || j->undone) continue;
        if (j->result == UE_OK) {
            if (!each || o->quiet) continue;
            cli_print_diags_as(j->model.name, &j->diag, 0);
            if (j->written) fprintf(stderr, "%s -> %s\n", j->model.name, j->out_path);
            continue;
        }
        cli_print_diags_as(j->model.name, &j->diag, 0);
        if (!ue_diag_count(&j->diag, UE_SEV_ERROR)) cli_error("convert: %s: %s", j->model.name, ue_result_name(j->result));
        if (cli_exit_code(j->result) > worst) worst = cli_exit_code(j->result);
    }
    return worst;
}

/* The one line of a stop: the cause and the file, or that OUT is gone (the batch's words). */
static void say_stop(const cli_opts *o, const job *stop) {
    struct stat st;
    if ((stop->write_err == ENOENT || stop->write_err == ENOTDIR) && stat(o->output, &st) != 0)
        cli_error("convert: stopped: %s no longer exists (removed while the convert ran); no further model "
                  "was tried", o->output);
    else
        cli_error("convert: stopped: %s: cannot write: %s; no further model was tried", stop->out_path,
                  strerror(stop->write_err));
}

/* The batch's closing summary (docs/batch.md) when the run wrote more than one model: each
 * model's record takes its outcome and its diagnostics (a failure's first error is its reason;
 * a converted model's warnings are grouped after the summary when not said model by model). A
 * model not written because the run ended early, or whose output is gone, stays pending. */
static void summarise_jobs(const cli_opts *o, job_list *jobs, double start, bool early) {
    if (jobs->count < 2) return;
    for (size_t i = 0; i < jobs->count; i++) {
        job *j = &jobs->items[i];
        if (!j->ran || j->undone) continue;
        if (j->result == UE_OK && !j->written) {
            snprintf(j->record->reason, sizeof j->record->reason, "not done: its output is no longer in %s", o->output);
            continue;
        }
        ue_diag_free(&j->record->diag); /* the record takes the job's list */
        j->record->diag = j->diag;
        memset(&j->diag, 0, sizeof j->diag);
        if (j->result == UE_OK) j->record->status = BATCH_CONVERTED;
        else batch_record_fail(j->record, j->result);
    }
    jobs->records.rest_in = "each one above"; /* a failure's diagnostics are printed as it ends */
    batch_summary s;
    batch_summarise(&jobs->records, &s);
    if (o->quiet && !s.failed && !early) return;
    batch_print_summary(&s, &jobs->records, cli_now() - start);
    if (!each_model_said(o, jobs)) batch_print_warnings(&jobs->records);
}

/* After an interrupt or a stop: what was written and what was not; the exit code is 128 + N
 * after signal N (130 for SIGINT), 3 after a stop. */
static int say_what_exists(const cli_opts *o, const job_list *jobs) {
    size_t written = 0, started = 0, failed = 0;
    for (size_t i = 0; i < jobs->count; i++) {
        const job *j = &jobs->items[i];
        started += j->ran;
        written += j->written;
        failed += j->ran && j->result != UE_OK && !j->undone;
    }
    const char *listed = written && !o->quiet && each_model_said(o, jobs) ? " (listed above)" : "";
    int sig = cli_interrupted();
    if (sig) {
        cli_error("convert: interrupted (%s): %zu of %zu models written to %s%s, %zu not started; no "
                  "temporary file is left", cli_signal_name(sig), written, jobs->count, o->output, listed,
                  jobs->count - started);
        return 128 + sig;
    }
    cli_error("convert: %zu of %zu models written to %s%s, %zu not done; no temporary file is left", written,
              jobs->count, o->output, listed, jobs->count - written - failed);
    return EXIT_IO;
}

static void free_jobs(job_list *jobs) {
    for (size_t i = 0; i < jobs->count; i++) {
        free(jobs->items[i].model.data);
        ue_model_kept_free(jobs->items[i].model.format, jobs->items[i].kept);
        ue_diag_free(&jobs->items[i].diag);
    }
    free(jobs->items);
    batch_records_free(&jobs->records);
}

/* The jobs run with SIGXFSZ ignored, as in the batch (cli_ignore_fsize). */
static const job *run_jobs_fsize_checked(const cli_opts *o, bool into_dir, cli_format_opts *format_opts,
                                         job_list *jobs) {
    cli_ignore_fsize(true);
    const job *stop = run_jobs(o, into_dir, format_opts, jobs);
    cli_ignore_fsize(false);
    return stop;
}

/* Collected models → outputs → conversion in parallel → one message per model, and the
 * summary when there were several. Several models take only the format options their formats
 * have (the rest noted once); a single model given one its format lacks fails as a usage error.
 * A full disk, a read-only or vanished OUT stops the run at once (one line, exit 3). */
static int convert_all(const cli_opts *o, bool to_file, out_kind kind, cli_format_opts *format_opts,
                       job_list *jobs) {
    double start = cli_now();
    int fatal = 0;
    int worst = collect_jobs(o, jobs, &fatal);
    if (fatal) return fatal;
    if (jobs->count == 0) {
        /* After a failed input its own messages say why; "no models" would contradict them. */
        if (!worst) cli_error("convert: no models found in the input");
        return worst ? worst : EXIT_INVALID;
    }
    int rc = cli_check_wear(o, jobs->count);
    if (rc) return rc;
    /* From here an interrupt stops a run of several models between models: finished outputs
     * stay, and are said. One model has nothing to finish first: a signal ends it at once. */
    cli_interrupt_defer(jobs->count > 1);
    rc = assign_outputs(o, to_file, kind, jobs);
    if (rc) return rc;
    format_opts->per_format = jobs->count > 1;
    const job *stop = run_jobs_fsize_checked(o, !to_file, format_opts, jobs);
    settle_jobs(jobs);
    int converted = report_jobs(o, jobs);
    if (stop) say_stop(o, stop);
    bool early = stop || cli_interrupted();
    summarise_jobs(o, jobs, start, early);
    cli_format_opts_report(format_opts);
    if (early) return say_what_exists(o, jobs);
    return converted > worst ? converted : worst;
}

int cmd_convert(const cli_opts *o) {
    bool to_file;
    out_kind kind;
    double scale;
    if (!convert_scale(o, &scale)) return cli_usage_error(o->verb, "--scale %s: " CLI_SCALE_RANGE, convert_scale_text(o));
    int rc = choose_output_kind(o, &to_file, &kind);
    if (rc) return rc;
    if (o->recursive && o->wear)
        return cli_usage_error(o->verb, "--wear %s: the WEAR table of one model, and -r converts many", o->wear);
    if (o->recursive && o->anims_count)
        return cli_usage_error(o->verb, "--anims %s: the clips of one skeleton, and -r converts many", o->anims[0]);
    if (o->anims_count > CLI_ANIMS_MAX)
        return cli_usage_error(o->verb, "--anims given %zu times; at most %d", o->anims_count, CLI_ANIMS_MAX);
    if (!o->recursive && (o->report || o->follow_links || o->fresh || o->resume || o->gallery))
        return cli_usage_error(o->verb, "%s works with -r only", o->report ? "--report" : o->follow_links ? "--follow-links"
                               : o->fresh ? "--fresh" : o->resume ? "--resume" : "--gallery");
    if (o->gallery && kind == OUT_OBJ)
        return cli_usage_error(o->verb, "--gallery shows glTF in the browser: use --format glb or gltf");
    /* Several outputs, which convert names itself when interrupted (say_what_exists here and in
     * batch.c). */
    cli_interrupt_install(o->verb, NULL);
    cli_format_opts format_opts;
    cli_format_opts_init(&format_opts, o);
    /* One cache for the whole run: a model's companions are read once, not once per model. */
    format_opts.cache = ue_cache_new();
    if (o->recursive) {
        /* A whole-folder batch: mirrored names, summary and report (src/cli/batch.c). */
        format_opts.per_format = true;
        rc = cmd_convert_batch(o, kind_ext[kind], &format_opts);
        cli_format_opts_report(&format_opts);
    } else {
        job_list jobs = {NULL, 0, {NULL, 0, 0, NULL}};
        rc = convert_all(o, to_file, kind, &format_opts, &jobs);
        free_jobs(&jobs);
    }
    ue_cache_free(format_opts.cache);
    cli_format_opts_destroy(&format_opts);
    cli_interrupt_defer(false); /* from here a signal ends the process at once again */
    return rc;
}
