/* unearth CLI — `convert -r DIR... -o OUT`: every model below the folders, converted on -j threads
 * into a private copy of OUT that mirrors the sources and is renamed into place at the end, with a
 * summary, a JSON report, and nothing left behind by a failure or an interrupt (docs/batch.md). */
#define _DEFAULT_SOURCE
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/batch_run.h"

/* Set by SIGINT: no new file or model is started, the private directory is removed. A
 * lock-free atomic, so the handler may set it and every thread may read it. */
static atomic_int interrupted;

static void on_interrupt(int sig) {
    (void)sig;
    interrupted = 1;
}

/* The reading thread reads ahead of the converting ones by up to this many models or bytes,
 * so that jobs of several output folders wait at once (see pick_job). */
enum { READ_AHEAD_JOBS = 1024, READ_AHEAD_BYTES = 64 << 20, PICK_WINDOW = 256 };

/* ---- the queue --------------------------------------------------------------------------- */

/* A file counts as done for the progress bar once it is read and all its models are. */
static void file_progress(batch_run *run, batch_record *file) {
    if (file->read_done && file->unfinished == 0) run->files_done++;
}

static void note_done(batch_run *run, const batch_record *rec, batch_record *file) {
    run->running--;
    run->models_done++;
    file->unfinished--;
    file_progress(run, file);
    if (!run->o->verbose) return;
    cli_progress_clear(&run->progress);
    if (rec->status == BATCH_CONVERTED) fprintf(stderr, "%s -> %s/%s\n", rec->input, run->o->output, rec->output);
    else fprintf(stderr, "%s: not converted: %s\n", rec->input, rec->reason);
}

/* Whether another thread is writing into folder `key` now. */
static bool folder_busy(const batch_run *run, size_t self, uint64_t key) {
    for (size_t t = 0; t < run->threads; t++)
        if (t != self && run->busy[t] == key) return true;
    return false;
}

/* The first waiting job whose folder no other thread is writing into (else the first one):
 * a file is created under its folder's lock, so two threads in one folder would take turns.
 * Which thread converts a model never changes its bytes or its name. */
static size_t pick_job(batch_run *run, size_t self) {
    size_t end = run->count - run->next > PICK_WINDOW ? run->next + PICK_WINDOW : run->count;
    for (size_t i = run->next; i < end; i++)
        if (!run->jobs[i].taken && !folder_busy(run, self, run->jobs[i].folder)) return i;
    return run->next;
}

/* Takes a job and converts it; false when none waits (or after SIGINT). Called with the lock
 * held; returns with it held. */
static bool run_next(batch_run *run, size_t self) {
    if (run->next >= run->count || interrupted) return false;
    size_t i = pick_job(run, self);
    batch_job job = run->jobs[i];
    run->jobs[i].taken = true;
    while (run->next < run->count && run->jobs[run->next].taken) run->next++;
    run->waiting--;
    run->waiting_bytes -= job.model.size;
    run->running++;
    run->busy[self] = job.folder;
    run->current = job.rec->input;
    pthread_mutex_unlock(&run->lock);
    batch_convert_one(run, job.rec, &job.model);
    pthread_mutex_lock(&run->lock);
    run->busy[self] = 0;
    note_done(run, job.rec, job.file);
    return true;
}

typedef struct worker_arg {
    batch_run *run;
    size_t self;
} worker_arg;

static void *worker(void *arg) {
    batch_run *run = ((worker_arg *)arg)->run;
    size_t self = ((worker_arg *)arg)->self;
    pthread_mutex_lock(&run->lock);
    for (;;) {
        if (run_next(run, self)) continue;
        if (run->closed || interrupted) break;
        pthread_cond_wait(&run->more, &run->lock);
    }
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* The reading thread (slot 0) converts too while more than `limit` jobs (or too many bytes)
 * wait, so memory stays bounded and -j N means N threads at work. */
static void help_while(batch_run *run, size_t limit) {
    pthread_mutex_lock(&run->lock);
    cli_progress_update(&run->progress, run->files_done, run->files_total, run->models_done, run->current);
    while (run->waiting > limit || run->waiting_bytes > READ_AHEAD_BYTES) {
        if (!run_next(run, 0)) break;
        cli_progress_update(&run->progress, run->files_done, run->files_total, run->models_done, run->current);
    }
    pthread_mutex_unlock(&run->lock);
}

/* Folders are told apart by a hash of their path below OUT. */
static uint64_t folder_key(const char *output) {
    const char *slash = strrchr(output, '/');
    size_t n = slash ? (size_t)(slash - output) : 0;
    uint64_t key = ue_xxh64(output, n, 0);
    return key ? key : 1; /* 0 marks an idle thread */
}

static ue_result push_job(batch_run *run, batch_record *file, batch_record *rec, ue_model_found *m) {
    pthread_mutex_lock(&run->lock);
    batch_job *grown = realloc(run->jobs, (run->count + 1) * sizeof *grown);
    if (grown) {
        run->jobs = grown;
        run->jobs[run->count++] = (batch_job){rec, file, *m, folder_key(rec->output), false};
        file->unfinished++;
        run->waiting++;
        run->waiting_bytes += m->size;
        pthread_cond_signal(&run->more);
    }
    pthread_mutex_unlock(&run->lock);
    return grown ? UE_OK : UE_ERR_NOMEM;
}

/* ---- reading one file --------------------------------------------------------------------- */

/* A file that no container format or model format claims is passed over (a game folder holds
 * sounds and texts); one that is claimed but cannot be read is a failure. */
static bool unknown_kind(ue_result r, const ue_diag *d) {
    return r == UE_ERR_UNSUPPORTED || (d->count > 0 && !strcmp(d->items[0].code, "archive.unknown"));
}

static void file_failed(batch_record *rec, ue_result r) {
    if (unknown_kind(r, &rec->diag)) {
        ue_diag_free(&rec->diag);
        batch_record_set(rec, BATCH_SKIPPED, "neither a container nor a model unearth knows");
        return;
    }
    batch_record_fail(rec, r);
}

/* One model found: its record, its mirrored name, its job. */
static ue_result add_model(batch_run *run, batch_names *names, batch_records *out, batch_record *file,
                           ue_model_found *m) {
    batch_record *rec = batch_record_add(out, BATCH_MODEL, m->name);
    if (!rec) return UE_ERR_NOMEM;
    rec->format = m->format->name;
    ue_result r = batch_names_place(names, run->out->temp_path, file->rel, file->input, m->name, run->type,
                                    rec->output, sizeof rec->output, rec->companion, sizeof rec->companion,
                                    &rec->diag);
    if (r == UE_OK) return push_job(run, file, rec, m);
    rec->status = BATCH_FAILED;
    snprintf(rec->reason, sizeof rec->reason, "no output name: %s", ue_result_name(r));
    rec->output[0] = rec->companion[0] = 0;
    free(m->data);
    return r == UE_ERR_NOMEM ? r : UE_OK;
}

/* Files up to this size are read with one read call and walked in memory; bigger ones are
 * opened where they lie, so memory holds no more than one such file's models. */
enum { READ_WHOLE_MAX = 16 << 20 };

static ue_result collect(const batch_run *run, batch_record *file, ue_model_found **found, size_t *count) {
    if (file->size > READ_WHOLE_MAX) return ue_model_collect(file->input, run->o->mode, found, count, &file->diag);
    uint8_t *data;
    size_t size;
    ue_result r = ue_file_read(file->input, READ_WHOLE_MAX, &data, &size, &file->diag);
    if (r == UE_OK) r = ue_model_collect_memory(data, size, file->input, run->o->mode, found, count, &file->diag);
    free(data);
    return r;
}

static ue_result read_file(batch_run *run, batch_names *names, batch_records *out, batch_record *file) {
    ue_model_found *found;
    size_t count;
    ue_result r = collect(run, file, &found, &count);
    if (r != UE_OK) {
        file_failed(file, r);
        return UE_OK;
    }
    file->models = count;
    if (count == 0) batch_record_set(file, BATCH_SKIPPED, "holds no model");
    else file->status = BATCH_READ;
    ue_result fatal = UE_OK;
    for (size_t i = 0; i < count; i++) {
        if (fatal == UE_OK) fatal = add_model(run, names, out, file, &found[i]);
        else free(found[i].data);
    }
    free(found);
    return fatal;
}

/* Walk records in order; each file is read and its models queued right after it. */
static ue_result read_all(batch_run *run, batch_names *names, batch_records *walked, batch_records *out,
                          size_t workers) {
    ue_result r = UE_OK;
    for (size_t i = 0; i < walked->count; i++) {
        batch_record *rec = walked->items[i];
        batch_record **grown = realloc(out->items, (out->count + 1) * sizeof *grown);
        if (!grown) return UE_ERR_NOMEM;
        out->items = grown;
        out->items[out->count++] = rec;
        walked->items[i] = NULL;
        if (rec->kind != BATCH_FILE || rec->status != BATCH_PENDING || interrupted || r != UE_OK) continue;
        pthread_mutex_lock(&run->lock);
        run->current = rec->input;
        pthread_mutex_unlock(&run->lock);
        r = read_file(run, names, out, rec);
        pthread_mutex_lock(&run->lock);
        rec->read_done = true;
        file_progress(run, rec);
        pthread_mutex_unlock(&run->lock);
        help_while(run, workers ? READ_AHEAD_JOBS : 0);
    }
    return r;
}

/* ---- the run ----------------------------------------------------------------------------- */

static size_t pending_files(const batch_records *walked) {
    size_t n = 0;
    for (size_t i = 0; i < walked->count; i++)
        n += walked->items[i]->kind == BATCH_FILE && walked->items[i]->status == BATCH_PENDING;
    return n;
}

/* -j N: N - 1 workers and this thread, which reads the files in order and converts as well. */
static ue_result run_batch(batch_run *run, batch_records *walked, batch_records *out) {
    batch_names *names = batch_names_new();
    if (!names || batch_names_reserve(names, BATCH_MARKER) != UE_OK) {
        batch_names_free(names);
        return UE_ERR_NOMEM;
    }
    size_t workers = (size_t)(run->o->jobs > 1 ? run->o->jobs - 1 : 0);
    pthread_t tids[64];
    worker_arg args[64];
    size_t started = 0;
    if (workers > 63) workers = 63;
    run->threads = workers + 1; /* set before any thread reads it; unused slots stay idle */
    for (size_t t = 0; t < workers; t++) {
        args[started] = (worker_arg){run, started + 1};
        if (pthread_create(&tids[started], NULL, worker, &args[started]) == 0) started++;
    }
    run->files_total = pending_files(walked);
    ue_result r = read_all(run, names, walked, out, started);
    help_while(run, 0);
    pthread_mutex_lock(&run->lock);
    run->closed = true;
    pthread_cond_broadcast(&run->more);
    pthread_mutex_unlock(&run->lock);
    for (size_t t = 0; t < started; t++) pthread_join(tids[t], NULL);
    for (size_t i = run->next; i < run->count; i++)
        if (!run->jobs[i].taken) free(run->jobs[i].model.data); /* after SIGINT */
    cli_progress_clear(&run->progress);
    batch_names_prune(names, run->out->temp_path);
    batch_names_free(names);
    return r;
}

/* ---- checks before anything is written ----------------------------------------------------- */

static bool names_a_file(const char *path) {
    static const char *const exts[] = {".glb", ".gltf", ".obj"};
    size_t n = strlen(path);
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(exts[i]);
        if (n >= k && !strcasecmp(path + n - k, exts[i])) return true;
    }
    return false;
}

static int check_report_path(const cli_opts *o) {
    if (!o->report) return 0;
    int rc = cli_check_output(o->verb, o->report, o->inputs, o->input_count);
    if (rc) return rc;
    ue_diag d = {0};
    ue_result r = ue_output_check_input(o->report, o->output, &d);
    ue_diag_free(&d);
    if (r != UE_OK) {
        cli_error("convert: --report %s lies inside the output directory %s; put it elsewhere", o->report, o->output);
        return EXIT_USAGE;
    }
    if (!o->force && ue_path_exists(o->report)) {
        cli_error("convert: --report %s exists (use -f to replace it)", o->report);
        return EXIT_USAGE;
    }
    return 0;
}

static int check_batch_options(const cli_opts *o) {
    if (names_a_file(o->output)) {
        cli_error("convert: with -r, -o names a directory, not %s (use --format for the file type)", o->output);
        return EXIT_USAGE;
    }
    int rc = cli_check_output(o->verb, o->output, o->inputs, o->input_count);
    return rc ? rc : check_report_path(o);
}

/* ---- the end: report, summary, exit code ------------------------------------------------------ */

static int interrupted_exit(const batch_run *run, ue_outdir *out) {
    ue_outdir_abort(out);
    fprintf(stderr, "unearth: convert: interrupted after %zu of %zu files and %zu of %zu models; nothing "
            "written (%s is left as it was)\n", run->files_done, run->files_total, run->models_done,
            run->count, run->o->output);
    return 130; /* 128 + SIGINT, as shells report it */
}

static int write_report(const cli_opts *o, const char *text, ue_outdir *out) {
    ue_diag d = {0};
    ue_result r = ue_outdir_put(out, BATCH_MARKER, text, strlen(text), &d);
    if (r == UE_OK) r = ue_outdir_commit(out, &d);
    else ue_outdir_abort(out);
    if (r == UE_OK && o->report) r = ue_file_write_atomic(o->report, text, strlen(text), o->force, &d);
    if (r != UE_OK) cli_print_diags(&d, 5);
    ue_diag_free(&d);
    return r == UE_OK ? 0 : cli_exit_code(r);
}

static int finish(const batch_run *run, const batch_records *records, ue_outdir *out, double start) {
    const cli_opts *o = run->o;
    batch_summary s;
    batch_summarise(records, &s);
    if (s.models == 0 && s.failed == 0) {
        ue_outdir_abort(out);
        cli_error("convert: no models found in the input");
        return EXIT_INVALID;
    }
    char *text = batch_report_json(o, run->type, records, &s);
    int rc = text ? write_report(o, text, out) : EXIT_IO;
    if (!text) ue_outdir_abort(out);
    free(text);
    if (!o->quiet || s.failed) batch_print_summary(&s, records, cli_now() - start);
    if (rc) return rc;
    return s.failed ? EXIT_INVALID : 0;
}

/* ---- the verb -------------------------------------------------------------------------------- */

static int walk_inputs(const cli_opts *o, batch_records *walked) {
    if (batch_walk(o->inputs, o->input_count, o->follow_links, walked) == UE_OK) return 0;
    cli_error("convert: out of memory while listing the inputs");
    return EXIT_IO;
}

static int begin_output(const cli_opts *o, ue_outdir *out) {
    ue_outdir_owner owner = {"an unearth convert -r output", batch_owns, NULL};
    ue_diag d = {0};
    ue_result r = ue_outdir_begin(out, o->output, o->force, &owner, &d);
    if (r != UE_OK) cli_print_diags(&d, 1);
    ue_diag_free(&d);
    return r == UE_OK ? 0 : cli_exit_code(r);
}

static int convert_batch(batch_run *run, batch_records *walked, batch_records *records, ue_outdir *out) {
    double start = cli_now();
    cli_progress_begin(&run->progress, run->o->quiet);
    struct sigaction on = {0}, before;
    on.sa_handler = on_interrupt;
    sigemptyset(&on.sa_mask);
    interrupted = 0;
    sigaction(SIGINT, &on, &before);
    ue_result r = run_batch(run, walked, records);
    sigaction(SIGINT, &before, NULL);
    if (interrupted) return interrupted_exit(run, out);
    if (r != UE_OK) {
        ue_outdir_abort(out);
        cli_error("convert: %s", ue_result_name(r));
        return cli_exit_code(r);
    }
    return finish(run, records, out, start);
}

int cmd_convert_batch(const cli_opts *o, const char *type, const ue_model_options *format_opts) {
    int rc = check_batch_options(o);
    batch_records walked = {NULL, 0}, records = {NULL, 0};
    if (!rc) rc = walk_inputs(o, &walked);
    ue_outdir out;
    if (!rc) rc = begin_output(o, &out);
    if (!rc) {
        batch_run run;
        memset(&run, 0, sizeof run);
        run.o = o, run.format_opts = format_opts, run.type = type, run.out = &out;
        pthread_mutex_init(&run.lock, NULL);
        pthread_cond_init(&run.more, NULL);
        rc = convert_batch(&run, &walked, &records, &out);
        free(run.jobs);
        pthread_mutex_destroy(&run.lock);
        pthread_cond_destroy(&run.more);
    }
    /* The walk's records moved into `records` as they were read (NULL left behind). */
    batch_records_free(&walked);
    batch_records_free(&records);
    return rc;
}
