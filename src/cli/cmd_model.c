/* unearth CLI — model verbs on the model registry (unearth/model.h): `convert` (any registered
 * format → glTF/OBJ, files or directories, in parallel) and the model parts of info, validate
 * and roundtrip. No format is named here; each one reports its own statistics. */
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

/* ---- info -------------------------------------------------------------------------------- */

static void print_info_json(const char *path, const ue_model_format *f, const ue_jv *stats, const ue_jv *slots,
                            const ue_diag *d, ue_json *collect) {
    cli_json_out out;
    ue_json *w = cli_json_begin(&out, collect);
    ue_json_object_begin(w);
    ue_json_key_string(w, "file", path);
    ue_json_key_string(w, "format", f->name);
    cli_json_put_members(w, stats);
    if (slots) {
        ue_json_key(w, "animation_slots");
        ue_json_value(w, slots);
    }
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
    ue_json_object_end(w);
    cli_json_end(&out);
}

static int report_info_failure(const cli_opts *o, const char *path, const ue_model_format *f, ue_result r,
                               const ue_diag *d, ue_json *collect) {
    if (o->json) cli_emit_failure(collect, o->verb, path, r, d);
    else cli_print_diags_as(path, d, 50);
    if (!o->json && !ue_diag_count(d, UE_SEV_ERROR)) cli_error("%s: %s (%s)", path, ue_result_name(r), f->name);
    return cli_exit_code(r);
}

/* The animation slots of the container a model is read through ("x.pkx:model.dat"): the
 * "slots" its header reports (a PKX's entry table: slot name → animation indices), or NULL.
 * Any container whose header has them qualifies, so no format is named here either. They live
 * in `doc` (free it with ue_jdoc_free in any case). */
static const ue_jv *container_slots(const char *path, ue_mode mode, ue_jdoc *doc) {
    ue_address at;
    memset(doc, 0, sizeof *doc);
    if (ue_address_split(path, 0, &at) == UE_ERR_USAGE || !at.last_entry) return NULL;
    size_t n = at.parent_length;
    char *parent = malloc(n + 1);
    if (!parent) return NULL;
    memcpy(parent, path, n);
    parent[n] = 0;
    ue_archive *a = NULL;
    const ue_jv *slots = NULL;
    if (ue_archive_open(parent, mode, &a, NULL) == UE_OK) {
        char *text = ue_archive_info_json(a);
        slots = ue_jv_get(ue_jv_get(cli_json_object(text, text ? strlen(text) : 0, doc), "header"), "slots");
        if (!ue_jv_is(slots, UE_JV_ARRAY)) slots = NULL;
        free(text);
        ue_archive_close(a);
    }
    free(parent);
    return slots;
}

static void print_slots_text(const ue_jv *slots) {
    for (size_t i = 0; i < ue_jv_items(slots); i++) {
        const ue_jv *slot = ue_jv_at(slots, i), *anims = ue_jv_get(slot, "anims");
        const char *name = ue_jv_string(ue_jv_get(slot, "name"));
        printf("  animation slot %zu (%s):", i, name ? name : "no known meaning");
        for (size_t k = 0; k < ue_jv_items(anims); k++)
            printf("%s Animation_%lld", k ? "," : "", (long long)ue_jv_integer(ue_jv_at(anims, k)));
        printf("\n");
    }
}

int model_info(const cli_opts *o, const char *path, ue_json *collect) {
    ue_model_found found;
    if (ue_model_load(path, o->mode, &found, NULL) != UE_OK) return -1;
    const ue_model_format *f = found.format;
    ue_diag d = {0};
    ue_buf stats_text = {0}, text = {0};
    ue_jdoc stats_doc = {0}, slots_doc;
    ue_result r = f->info(found.data, found.size, o->mode, o->json ? &stats_text : NULL, o->json ? NULL : &text, &d);
    const ue_jv *stats = r == UE_OK && o->json ? cli_json_object(stats_text.data, stats_text.size, &stats_doc) : NULL;
    ue_buf_free(&stats_text);
    if (r == UE_OK && o->json && !stats) r = UE_ERR_NOMEM;
    free(found.data);
    int rc = 0;
    const ue_jv *slots = r == UE_OK ? container_slots(path, o->mode, &slots_doc) : NULL;
    if (r != UE_OK) {
        rc = report_info_failure(o, path, f, r, &d, collect);
    } else if (o->json) {
        print_info_json(path, f, stats, slots, &d, collect);
    } else {
        printf("%s: %s\n", path, f->description);
        fwrite(text.data, 1, text.size, stdout);
        print_slots_text(slots);
        if (d.count && !o->quiet) cli_print_diags_as(path, &d, 50);
    }
    if (r == UE_OK) ue_jdoc_free(&slots_doc);
    ue_jdoc_free(&stats_doc);
    ue_buf_free(&text);
    ue_diag_free(&d);
    return rc;
}

ue_result cli_model_summary(const ue_model_seen *m, ue_mode mode, char *out, size_t cap) {
    ue_model_check check;
    memset(&check, 0, sizeof check);
    ue_result r = m->format->validate(m->data, m->size, mode, &check, NULL);
    ue_buf_free(&check.stats);
    snprintf(out, cap, "%s", r == UE_OK ? check.summary : "");
    return r;
}

/* ---- validate and roundtrip -------------------------------------------------------------- */

/* One model's verdict by its format's validate; `check` keeps the summary and statistics.
 * With `kept`, the model as validate read it is handed back for its scene (where the format
 * reads once). */
static int validate_one(const cli_opts *o, const ue_model_seen *m, ue_model_check *check, ue_diag *d,
                        cli_tally *t, ue_result *r, ue_model_kept **kept) {
    memset(check, 0, sizeof *check);
    *r = ue_model_validate_kept(m->format, m->data, m->size, o->mode, check, d, kept);
    cli_tally_add(t, d);
    t->dropped = check->lost_parts;
    return cli_verdict_code(*r, t);
}

static void tally_sum(cli_tally *sum, const cli_tally *t) {
    sum->errors += t->errors;
    sum->warnings += t->warnings;
    sum->dropped += t->dropped;
}

static void write_model_verdict(ue_json *w, const ue_model_seen *m, int code, ue_result r, const cli_tally *t,
                                const ue_model_check *check, const ue_diag *d) {
    ue_jdoc stats;
    ue_json_object_begin(w);
    ue_json_key_string(w, "model", m->name);
    ue_json_key_bool(w, "valid", code == 0);
    ue_json_key_string(w, "verdict", cli_verdict_word(r, t));
    cli_json_put_members(w, cli_json_object(check->stats.data, check->stats.size, &stats));
    ue_jdoc_free(&stats);
    ue_json_key_int(w, "errors", (int64_t)t->errors);
    ue_json_key_int(w, "warnings", (int64_t)t->warnings);
    ue_json_key_int(w, "dropped", (int64_t)t->dropped);
    ue_json_key(w, "diagnostics");
    cli_diags_write(w, d);
    ue_json_object_end(w);
}

static void print_model_verdict(const ue_model_seen *m, ue_result r, const cli_tally *t,
                                const ue_model_check *check, const ue_diag *d) {
    char counts[96];
    cli_verdict_counts(t, counts, sizeof counts);
    /* Offsets in model diagnostics are relative to the model's own bytes. */
    cli_print_diags_as(m->name, d, 0);
    /* A model that does not parse has no statistics to show. */
    if (r == UE_OK && check->summary[0])
        printf("  model %s: %s (%s, %s)\n", m->name, cli_verdict_word(r, t), check->summary, counts);
    else
        printf("  model %s: %s (%s)\n", m->name, cli_verdict_word(r, t), counts);
}

/* What the visits of validate and of a file's verdict share: the options, the worst exit code
 * so far, the file's running tally, and where the per-model lines go. */
typedef struct model_visits {
    const cli_opts *o;
    int worst;
    cli_tally *sum;
    ue_json *json_models; /* validate --json: one record per model */
    bool print;          /* the verdict: print an invalid model's diagnostics */
} model_visits;

/* validate: each model is checked on bytes lent by the walk (no copy per model). */
static ue_result validate_visit(const ue_model_seen *m, void *ctx) {
    model_visits *v = ctx;
    ue_diag d = {0};
    ue_model_check check;
    cli_tally t = {0};
    ue_result r;
    int code = validate_one(v->o, m, &check, &d, &t, &r, NULL);
    if (code > v->worst) v->worst = code;
    tally_sum(v->sum, &t);
    if (v->json_models) write_model_verdict(v->json_models, m, code, r, &t, &check, &d);
    else print_model_verdict(m, r, &t, &check, &d);
    ue_buf_free(&check.stats);
    ue_diag_free(&d);
    return UE_OK;
}

/* The models of `path`, walked in `a` when the caller has it open already. */
static void walk_models(const cli_opts *o, const char *path, ue_archive *a, ue_model_visit_fn fn,
                        model_visits *v) {
    if (a) ue_model_walk_archive(a, path, o->mode, fn, v, NULL);
    else ue_model_walk(path, o->mode, fn, v, NULL);
}

int models_validate(const cli_opts *o, const char *path, ue_archive *a, ue_json *json_models,
                    cli_tally *sum) {
    model_visits v = {o, 0, sum, json_models, false};
    walk_models(o, path, a, validate_visit, &v);
    return v.worst;
}

/* One model's part of a file's verdict: its exit code, counts and diagnostics. */
typedef struct model_verdict {
    int code;
    cli_tally t;
    ue_diag d;
} model_verdict;

static void model_verdict_check(const cli_opts *o, const ue_model_seen *m, model_verdict *mv,
                                ue_model_kept **kept) {
    ue_model_check check;
    ue_result r;
    memset(mv, 0, sizeof *mv);
    mv->code = validate_one(o, m, &check, &mv->d, &mv->t, &r, kept);
    ue_buf_free(&check.stats);
}

/* Only an invalid model's diagnostics are shown; the file's tally takes the model's. */
static void model_verdict_apply(model_visits *v, const char *name, const model_verdict *mv) {
    if (mv->code && v->print) cli_print_diags_as(name, &mv->d, 50);
    if (v->sum) {
        v->sum->errors += mv->t.errors;
        v->sum->warnings += mv->t.warnings;
        v->sum->dropped += mv->t.dropped || (mv->code && !mv->t.errors);
    }
    if (mv->code > v->worst) v->worst = mv->code;
}

/* A file's verdict (extract, convert): the same checks, only failures are shown. */
static ue_result check_visit(const ue_model_seen *m, void *ctx) {
    model_verdict mv;
    model_verdict_check(((model_visits *)ctx)->o, m, &mv, NULL);
    model_verdict_apply(ctx, m->name, &mv);
    ue_diag_free(&mv.d);
    return UE_OK;
}

int models_check(const cli_opts *o, const char *path, ue_archive *a, bool print, cli_tally *sum) {
    model_visits v = {o, 0, sum, NULL, print};
    walk_models(o, path, a, check_visit, &v);
    return v.worst;
}

/* Decode → encode → compare by the model's format; a format without a writer says so. */
static int roundtrip_one(const cli_opts *o, const ue_model_found *m) {
    if (!m->format->roundtrip) {
        printf("  model %s: not round-tripped (unearth has no %s writer)\n", m->name, m->format->name);
        return 0;
    }
    ue_diag d = {0};
    ue_model_check check;
    memset(&check, 0, sizeof check);
    ue_result r = m->format->roundtrip(m->data, m->size, o->mode, &check, &d);
    ue_buf_free(&check.stats);
    if (r == UE_OK) {
        printf("  model %s: identical (%s)\n", m->name, check.summary);
    } else {
        cli_print_diags_as(m->name, &d, 20);
        printf("  model %s: MISMATCH\n", m->name);
    }
    ue_diag_free(&d);
    return r == UE_OK ? 0 : EXIT_INVALID;
}

int models_roundtrip(const cli_opts *o, const char *path) {
    ue_model_found *found;
    size_t count;
    if (ue_model_collect(path, o->mode, &found, &count, NULL) != UE_OK) return 0;
    int worst = 0;
    for (size_t i = 0; i < count; i++) {
        int code = roundtrip_one(o, &found[i]);
        if (code > worst) worst = code;
    }
    ue_model_found_free(found, count);
    return worst;
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

/* ---- one pass over a convert input: its verdict and its models together ------------------ */

/* A model met by the pass: its name and its part of the file's verdict. */
typedef struct scanned_model {
    char name[sizeof ((ue_model_found *)0)->name];
    model_verdict verdict;
} scanned_model;

/* What convert's one pass over an input gives (docs/architecture.md#one-read-per-input): the
 * container opened once, mapped, and checked as validate checks it, and each model met on the
 * way, checked by its format then and there, on the bytes the check of its container read.
 * A format that reads once keeps the model as its check read it, for the job; the bytes of
 * any other model are copied for its job. A bare model (no container) is one such model. */
typedef struct input_scan {
    const cli_opts *o;
    bool scanned;             /* the pass took the input: its verdict and models are here */
    ue_archive *a;            /* the container, NULL for a bare model */
    ue_diag container;        /* opening and validation, as the file's verdict has them */
    ue_result checked;        /* validation's result */
    ue_model_found *found;    /* the models, until the jobs take them; data NULL where kept */
    ue_model_kept **kept;     /* what each model's check kept of it, or NULL, until the jobs take it */
    scanned_model *models;
    size_t count, cap;
} input_scan;

/* Room for one more model in both lists, doubled when full (an archive may hold thousands). */
static bool scan_reserve(input_scan *sc) {
    if (sc->count < sc->cap) return true;
    size_t cap = sc->cap ? 2 * sc->cap : 8;
    ue_model_found *found = realloc(sc->found, cap * sizeof *found);
    if (found) sc->found = found;
    scanned_model *models = found ? realloc(sc->models, cap * sizeof *models) : NULL;
    if (models) sc->models = models;
    ue_model_kept **kept = models ? realloc(sc->kept, cap * sizeof *kept) : NULL;
    if (kept) sc->kept = kept;
    if (kept) sc->cap = cap;
    return kept != NULL;
}

static ue_result scan_visit(const ue_model_seen *m, void *ctx) {
    input_scan *sc = ctx;
    if (!scan_reserve(sc)) return UE_ERR_NOMEM;
    ue_model_kept *kept = NULL;
    model_verdict_check(sc->o, m, &sc->models[sc->count].verdict, &kept);
    uint8_t *copy = kept ? NULL : ue_malloc_items(m->size, 1);
    if (!kept && !copy) {
        ue_diag_free(&sc->models[sc->count].verdict.d);
        return UE_ERR_NOMEM;
    }
    if (copy && m->size) memcpy(copy, m->data, m->size);
    ue_model_found *item = &sc->found[sc->count];
    memset(item, 0, sizeof *item);
    snprintf(item->name, sizeof item->name, "%s", m->name);
    item->format = m->format, item->data = copy, item->size = m->size, item->title_length = m->title_length;
    memcpy(sc->models[sc->count].name, item->name, sizeof item->name);
    sc->kept[sc->count++] = kept;
    return UE_OK;
}

/* Frees the models and what was kept of them (`kept` may be NULL). */
static void found_kept_free(ue_model_found *found, ue_model_kept **kept, size_t count) {
    for (size_t i = 0; kept && i < count; i++) ue_model_kept_free(found[i].format, kept[i]);
    free(kept);
    ue_model_found_free(found, count);
}

static void scan_free(input_scan *sc) {
    if (sc->found) found_kept_free(sc->found, sc->kept, sc->count);
    else free(sc->kept);
    for (size_t i = 0; sc->models && i < sc->count; i++) ue_diag_free(&sc->models[i].verdict.d);
    free(sc->models);
    ue_diag_free(&sc->container);
    ue_archive_close(sc->a);
    memset(sc, 0, sizeof *sc);
}

/* The pass over an input; false when `file` is neither a container nor a model (a missing
 * file) or the pass could not see every model (a limit stopped validation): collect and the
 * verdict then read it their own way, as before. A bare model's verdict is its own check, as
 * file_verdict has it. *fatal: out of memory. */
static bool scan_input(const cli_opts *o, const char *file, input_scan *sc, int *fatal) {
    memset(sc, 0, sizeof *sc);
    sc->o = o;
    ue_result r;
    bool walked_all = true;
    if (ue_archive_open_mapped(file, o->mode, &sc->a, &sc->container) != UE_OK) {
        ue_diag_free(&sc->container);
        sc->a = NULL;
        r = ue_model_walk(file, o->mode, scan_visit, sc, NULL); /* no container: a model, or nothing */
    } else {
        r = ue_model_walk_validated(sc->a, file, o->mode, scan_visit, sc, &sc->checked, &walked_all, &sc->container);
    }
    sc->scanned = r == UE_OK && walked_all;
    if (sc->scanned) return true;
    if (r == UE_ERR_NOMEM) *fatal = EXIT_IO;
    scan_free(sc);
    return false;
}

/* The models the pass found and what their checks kept of them, handed over. */
static void scan_take_models(input_scan *sc, ue_model_found **found, ue_model_kept ***kept, size_t *count) {
    *found = sc->found;
    *kept = sc->kept;
    *count = sc->count;
    sc->found = NULL;
    sc->kept = NULL;
}

/* file_verdict's verdict from what the pass read: the container's checks, then its models'. */
static int scan_verdict(const cli_opts *o, const char *path, input_scan *sc, bool print, cli_tally *t) {
    cli_diag_dedupe(&sc->container);
    cli_tally_add(t, &sc->container);
    t->dropped += cli_damaged_entries(sc->a);
    int code = cli_verdict_code(sc->checked, t);
    if (code && print) cli_print_diags_as(path, &sc->container, 50);
    if (code > EXIT_INVALID) return code;
    model_visits v = {o, 0, t, NULL, print};
    for (size_t i = 0; i < sc->count; i++) model_verdict_apply(&v, sc->models[i].name, &sc->models[i].verdict);
    return v.worst > code ? v.worst : code;
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
    if (!o->recursive && (o->report || o->follow_links || o->fresh || o->resume))
        return cli_usage_error(o->verb, "%s works with -r only", o->report ? "--report" : o->follow_links ? "--follow-links"
                               : o->fresh ? "--fresh" : "--resume");
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
