/* unearth CLI — `convert -r DIR... -o OUT`: every model below the folders, converted on -j threads
 * into OUT, which mirrors the sources; each output lands whole and is listed in OUT's marker, so an
 * interrupt or a full disk keeps what is finished and the same command continues (docs/batch.md). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch_run.h"
#include "cli/format_opts.h"
#include "cli/gallery.h"
#include "unearth/advanced/text.h"

/* No new file or model is started once interrupted or stopped. */
static bool halted(batch_run *run) { return cli_interrupted() || atomic_load(&run->stopped); }

void batch_stop(batch_run *run, const char *fmt, ...) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&run->stopped, &expected, 1)) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(run->stop_reason, sizeof run->stop_reason, fmt, ap);
    va_end(ap);
}

/* The reading thread reads ahead of the converting ones by up to this many models or bytes:
 * enough that a worker never waits for the reader, few enough that the models' buffers are
 * reused by malloc instead of faulted in fresh (1,024 cost a page fault per 4 KiB read). */
enum { READ_AHEAD_JOBS = 64, READ_AHEAD_BYTES = 64 << 20 };

/* ---- the queues -------------------------------------------------------------------------- */

/* A file counts as done for the progress bar once it is read and all its models are. */
static void file_progress(batch_run *run, batch_record *file) {
    if (file->read_done && file->unfinished == 0) run->files_done++;
}

/* A model is done once written (or failed); called with the lock held. */
static void note_done(batch_run *run, const batch_record *rec, batch_record *file) {
    run->models_done++;
    file->unfinished--;
    file_progress(run, file);
    if (!run->o->verbose) return;
    cli_progress_clear(&run->progress);
    if (rec->status == BATCH_CONVERTED) fprintf(stderr, "%s -> %s/%s\n", rec->input, run->o->output, rec->output);
    else fprintf(stderr, "%s: not converted: %s\n", rec->input, rec->reason);
}

/* Hands a converted model to the writing thread, waiting while the queue is full. Called with
 * the lock held. */
static void queue_write(batch_run *run, batch_record *rec, batch_record *file, batch_output *out) {
    while (run->queued_count == BATCH_WRITE_DEPTH) pthread_cond_wait(&run->write_space, &run->lock);
    size_t slot = (run->queued_head + run->queued_count) % BATCH_WRITE_DEPTH;
    run->queued[slot] = (batch_write){rec, file, *out};
    /* it sleeps only when the queue is empty, and wakes once a few wait */
    if (++run->queued_count == BATCH_WRITE_WAKE) pthread_cond_signal(&run->write_ready);
}

/* The writing thread: every output file is created here, one at a time. On ext4 the files of a
 * batch share one block group, and two threads creating files at once contend for it in the
 * kernel (docs/batch.md); one creator leaves both cores to the conversions. */
static void *writer(void *arg) {
    batch_run *run = arg;
    pthread_mutex_lock(&run->lock);
    for (;;) {
        while (run->queued_count == 0 && !run->writes_closed) pthread_cond_wait(&run->write_ready, &run->lock);
        if (run->queued_count == 0) break;
        batch_write w = run->queued[run->queued_head];
        run->queued_head = (run->queued_head + 1) % BATCH_WRITE_DEPTH;
        if (run->queued_count-- == BATCH_WRITE_DEPTH) pthread_cond_broadcast(&run->write_space);
        pthread_mutex_unlock(&run->lock);
        batch_write_model(run, w.rec, &w.out);
        batch_record_freeze(w.rec);
        pthread_mutex_lock(&run->lock);
        note_done(run, w.rec, w.file);
    }
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* Takes the next job in input order and converts it; false when none waits (or once halted).
 * Called with the lock held; returns with it held. */
static bool run_next(batch_run *run) {
    if (run->next >= run->count || halted(run)) return false;
    batch_job job = run->jobs[run->next++];
    run->waiting--;
    run->waiting_bytes -= job.model.size;
    run->current = job.rec->input;
    pthread_mutex_unlock(&run->lock);
    batch_output out;
    bool converted = batch_convert_model(run, job.rec, &job.model, &out);
    if (converted && !run->writer_on) batch_write_model(run, job.rec, &out);
    if (!converted || !run->writer_on) batch_record_freeze(job.rec); /* final: format it here */
    pthread_mutex_lock(&run->lock);
    if (converted && run->writer_on) queue_write(run, job.rec, job.file, &out);
    else note_done(run, job.rec, job.file);
    return true;
}

static void *worker(void *arg) {
    batch_run *run = arg;
    pthread_mutex_lock(&run->lock);
    for (;;) {
        if (run_next(run)) continue;
        if (run->closed || halted(run)) break;
        pthread_cond_wait(&run->more, &run->lock);
    }
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* The reading thread converts too while more than `limit` jobs (or too many bytes) wait, so
 * memory stays bounded and -j N means N threads converting. */
static void help_while(batch_run *run, size_t limit) {
    pthread_mutex_lock(&run->lock);
    cli_progress_update(&run->progress, run->files_done, run->files_total, run->models_done, run->current);
    while (run->waiting > limit || run->waiting_bytes > READ_AHEAD_BYTES) {
        if (!run_next(run)) break;
        cli_progress_update(&run->progress, run->files_done, run->files_total, run->models_done, run->current);
    }
    pthread_mutex_unlock(&run->lock);
}

static ue_result push_job(batch_run *run, batch_record *file, batch_record *rec, ue_model_found *m) {
    pthread_mutex_lock(&run->lock);
    batch_job *grown = run->jobs;
    if (run->count == run->jobs_cap) {
        size_t cap = run->jobs_cap ? 2 * run->jobs_cap : 64;
        if ((grown = realloc(run->jobs, cap * sizeof *grown)) != NULL) run->jobs = grown, run->jobs_cap = cap;
    }
    if (grown) {
        run->jobs[run->count++] = (batch_job){rec, file, *m};
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

/* A model whose output an earlier run of the command left is not converted again; nor is one
 * whose output path holds a file that is not the batch's (it is left as it is). */
static bool keep_earlier(batch_run *run, batch_record *rec, ue_model_found *m) {
    char left[4096];
    batch_earlier e = batch_outdir_earlier(run->od, rec, left, sizeof left);
    if (e == BATCH_EARLIER_NONE) return false;
    if (e == BATCH_EARLIER_KEPT) {
        rec->status = BATCH_KEPT;
        /* Made by the same options, so without those its format lacks: counted as a converted model is. */
        size_t given;
        free(cli_format_opts_for(run->format_opts, m->format, &given));
    } else {
        batch_record_left(rec, batch_outdir_root(run->od), left);
    }
    free(m->data);
    batch_record_freeze(rec);
    if (run->o->verbose) {
        pthread_mutex_lock(&run->lock);
        cli_progress_clear(&run->progress);
        if (e == BATCH_EARLIER_KEPT) fprintf(stderr, "%s = %s/%s (kept)\n", rec->input, run->o->output, rec->output);
        else fprintf(stderr, "%s: not converted: %s\n", rec->input, rec->reason);
        pthread_mutex_unlock(&run->lock);
    }
    return true;
}

/* One model found: its record, its mirrored name, its job (unless an earlier run's output is kept). */
static ue_result add_model(batch_run *run, batch_names *names, batch_records *out, batch_record *file,
                           ue_model_found *m) {
    batch_record *rec = batch_record_add(out, BATCH_MODEL, m->name);
    if (!rec) return UE_ERR_NOMEM;
    rec->format = m->format->name;
    rec->title_length = ue_model_title_length(m);
    rec->file = file;
    char output[4096], companion[4096];
    ue_result r = batch_names_place(names, batch_outdir_root(run->od), file->rel, file->input, m, run->type,
                                    output, sizeof output, companion, sizeof companion, &rec->diag);
    int err = errno; /* a folder that could not be made */
    if (r == UE_OK) {
        rec->output = strdup(output);
        rec->companion = companion[0] ? strdup(companion) : NULL;
        if (!rec->output || (companion[0] && !rec->companion)) r = UE_ERR_NOMEM;
    }
    if (r == UE_OK && keep_earlier(run, rec, m)) return UE_OK;
    if (r == UE_OK) return push_job(run, file, rec, m);
    if (r == UE_ERR_IO && batch_write_error_stops(err)) {
        batch_stop(run, "%s: cannot make a folder: %s", batch_outdir_root(run->od), strerror(err));
        batch_record_unname(rec);
        free(m->data);
        return UE_OK;
    }
    batch_record_fail(rec, r); /* the diagnostic's words (a link where a folder goes, a path too long) */
    if (!rec->diag.count) snprintf(rec->reason, sizeof rec->reason, "no output name: %s", ue_result_name(r));
    batch_record_unname(rec);
    free(m->data);
    return r == UE_ERR_NOMEM ? r : UE_OK;
}

/* Files up to this size are read with one read call and walked in memory; bigger ones are
 * opened where they lie, so memory holds no more than one such file's models. */
enum { READ_WHOLE_MAX = 16 << 20 };

/* One open, fstat, read and close for a small file (the walk did not stat it: its size is
 * learnt here); a big one, or an ARCHIVE:ENTRY root, goes through the archive layer. */
static ue_result collect(const batch_run *run, batch_record *file, ue_model_found **found, size_t *count) {
    if (file->size > READ_WHOLE_MAX) return ue_model_collect(file->input, run->o->mode, found, count, &file->diag);
    ue_source src;
    ue_result r = ue_source_open_file(file->input, &src, &file->diag);
    if (r != UE_OK) return r;
    if (src.size > READ_WHOLE_MAX) {
        ue_source_close(&src);
        return ue_model_collect(file->input, run->o->mode, found, count, &file->diag);
    }
    uint8_t *data;
    r = ue_source_read_alloc(&src, 0, (size_t)src.size, READ_WHOLE_MAX, &data);
    size_t size = (size_t)src.size;
    ue_source_close(&src);
    if (r != UE_OK) {
        ue_diag_add(&file->diag, UE_SEV_ERROR, "io.read", UE_NO_OFFSET, file->input, "read failed");
        return r;
    }
    r = ue_model_collect_memory(data, size, file->input, run->o->mode, found, count, &file->diag);
    free(data);
    return r;
}

/* The file on disk that `input` names (for ARCHIVE:ENTRY, the archive), as it is before it is
 * read: a change after this makes its outputs older than it, never newer. */
static void note_source(batch_record *file) {
    ue_address at;
    struct stat st;
    if (ue_address_split(file->input, 0, &at) != UE_OK || stat(at.file, &st) != 0) return;
    file->source.path = realpath(at.file, NULL);
    file->source.size = (uint64_t)st.st_size;
    file->source.mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static ue_result read_file(batch_run *run, batch_names *names, batch_records *out, batch_record *file) {
    ue_model_found *found;
    size_t count;
    note_source(file);
    ue_result r = collect(run, file, &found, &count);
    if (r != UE_OK) {
        file_failed(file, r);
        return UE_OK;
    }
    cli_drop_textures(found, &count); /* a texture is no model: such a file is passed over */
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
        if (!batch_records_push(out, rec)) return UE_ERR_NOMEM;
        walked->items[i] = NULL;
        if (rec->kind != BATCH_FILE || rec->status != BATCH_PENDING || halted(run) || r != UE_OK) continue;
        pthread_mutex_lock(&run->lock);
        run->current = rec->input;
        pthread_mutex_unlock(&run->lock);
        r = read_file(run, names, out, rec);
        batch_record_freeze(rec);
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

/* Starts the threads of -j N: N - 1 converting workers besides this one, and the writing
 * thread; returns how many workers run. */
static size_t start_threads(batch_run *run, pthread_t *tids, size_t max, pthread_t *writer_tid) {
    size_t workers = (size_t)(run->o->jobs > 1 ? run->o->jobs - 1 : 0), started = 0;
    if (workers > max) workers = max;
    /* set before any thread starts, never changed while they run */
    run->writer_on = workers > 0 && pthread_create(writer_tid, NULL, writer, run) == 0;
    for (size_t t = 0; t < workers; t++)
        if (pthread_create(&tids[started], NULL, worker, run) == 0) started++;
    return started;
}

/* Every model converted and written: the workers end once the queue is closed and empty,
 * then the writing thread once it has written what they handed it. */
static void stop_threads(batch_run *run, pthread_t *tids, size_t started, pthread_t writer_tid) {
    pthread_mutex_lock(&run->lock);
    run->closed = true;
    pthread_cond_broadcast(&run->more);
    pthread_mutex_unlock(&run->lock);
    for (size_t t = 0; t < started; t++) pthread_join(tids[t], NULL);
    if (!run->writer_on) return;
    pthread_mutex_lock(&run->lock);
    run->writes_closed = true;
    pthread_cond_signal(&run->write_ready);
    pthread_mutex_unlock(&run->lock);
    pthread_join(writer_tid, NULL);
}

/* -j N: N - 1 workers and this thread, which reads the files in order and converts as well. */
static ue_result run_batch(batch_run *run, batch_records *walked, batch_records *out) {
    batch_names *names = batch_names_new();
    /* OUT's own files: no output takes their names */
    if (!names || batch_names_reserve(names, BATCH_REPORT) != UE_OK || batch_names_reserve(names, BATCH_MARKER) != UE_OK ||
        batch_names_reserve(names, BATCH_STAGING) != UE_OK ||
        (run->o->gallery && (batch_names_reserve(names, GALLERY_INDEX) != UE_OK ||
                             batch_names_reserve(names, GALLERY_VIEWER_DIR) != UE_OK))) {
        batch_names_free(names);
        return UE_ERR_NOMEM;
    }
    pthread_t tids[63], writer_tid;
    size_t started = start_threads(run, tids, 63, &writer_tid);
    run->files_total = pending_files(walked);
    ue_result r = read_all(run, names, walked, out, started);
    help_while(run, 0);
    stop_threads(run, tids, started, writer_tid);
    for (size_t i = run->next; i < run->count; i++) free(run->jobs[i].model.data); /* interrupted or stopped */
    cli_progress_clear(&run->progress);
    batch_names_prune(names, batch_outdir_root(run->od));
    batch_names_free(names);
    return r;
}

/* ---- checks before anything is written ----------------------------------------------------- */

static bool names_a_file(const char *path) {
    return ue_name_has_ext(path, ".glb") || ue_name_has_ext(path, ".gltf") || ue_name_has_ext(path, ".obj");
}

/* The report's folders are made at the end; one that cannot be (a file stands in the way) is
 * said now, before the work rather than after it. */
static bool report_parent_ok(const char *report) {
    char path[4096];
    snprintf(path, sizeof path, "%s", report);
    for (char *slash; (slash = strrchr(path, '/')) != NULL && slash != path;) {
        *slash = 0;
        struct stat st;
        if (stat(path, &st) == 0) return S_ISDIR(st.st_mode);
    }
    return true; /* the current directory, or "/" */
}

static int check_report_path(const cli_opts *o) {
    if (!o->report) return 0;
    int rc = cli_check_output(o->verb, o->report, o->inputs, o->input_count);
    if (rc) return rc;
    /* OUTDIR does not exist yet on a first run, so the check is by path, not by inode: a
     * report inside it would make it hold a file the marker does not list (a foreign OUTDIR). */
    if (ue_path_within(o->report, o->output)) {
        cli_error("convert: --report %s lies inside the output directory %s; put it elsewhere", o->report, o->output);
        return EXIT_USAGE;
    }
    if (!report_parent_ok(o->report)) {
        cli_error("convert: --report %s: a file stands where its folder would be made", o->report);
        return EXIT_IO;
    }
    /* a FIFO or a device (/dev/stdout) is never read nor replaced: a report is a file */
    struct stat st;
    if (stat(o->report, &st) == 0 && !S_ISREG(st.st_mode)) {
        cli_error("convert: --report %s is not a regular file; give the path of a file to write", o->report);
        return EXIT_USAGE;
    }
    if (!o->force && ue_path_exists(o->report) && !batch_report_is_for(o->report, o->output)) {
        cli_error("convert: --report %s exists (use -f to replace it)", o->report);
        return EXIT_USAGE;
    }
    return 0;
}

/* A root that is not there (or cannot be read) is an input error of the command, not a record
 * of the batch: it is said before OUTDIR is made, as single convert says it (exit 3). For
 * ARCHIVE:ENTRY the file-system part is what must exist; the entry is the archive layer's. */
static int check_root(const char *root) {
    ue_address at;
    struct stat st;
    ue_result split = ue_address_split(root, 0, &at);
    if (split == UE_ERR_USAGE) errno = ENAMETOOLONG;
    int found = split == UE_OK ? stat(at.file, &st) : -1;
    if (found == 0) found = access(at.file, S_ISDIR(st.st_mode) ? R_OK | X_OK : R_OK);
    if (found == 0) return 0;
    ue_diag d = {0};
    ue_diag_add(&d, UE_SEV_ERROR, "io.open", UE_NO_OFFSET, root, "cannot open: %s", strerror(errno));
    cli_print_diags(&d, 1);
    ue_diag_free(&d);
    return EXIT_IO;
}

static int check_batch_options(const cli_opts *o) {
    for (size_t i = 0; i < o->input_count; i++) {
        int rc = check_root(o->inputs[i]);
        if (rc) return rc;
    }
    if (names_a_file(o->output)) {
        cli_error("convert: with -r, -o names a directory, not %s (use --format for the file type)", o->output);
        return EXIT_USAGE;
    }
    int rc = cli_check_output(o->verb, o->output, o->inputs, o->input_count);
    return rc ? rc : check_report_path(o);
}

/* ---- the end: what OUT holds, the report, the summary, the exit code -------------------------- */

/* Records still pending were not done; an output no longer in OUT (removed while the batch ran)
 * is not counted as one, and one changed meanwhile is somebody else's now (left). Each is
 * formatted again with its final status. */
static void settle_records(const batch_run *run, batch_records *l, int sig) {
    const char *why = sig ? "not done: the batch was interrupted" : "not done: the batch stopped";
    for (size_t i = 0; i < l->count; i++) {
        batch_record *r = l->items[i];
        int held = r->status == BATCH_CONVERTED || r->status == BATCH_KEPT ? batch_outdir_holds(run->od, r) : 0;
        if (held == EEXIST) {
            batch_record_left(r, batch_outdir_root(run->od), r->output);
            free(r->json);
            r->json = NULL;
        } else if (held) {
            r->status = BATCH_PENDING;
            batch_record_unname(r);
            snprintf(r->reason, sizeof r->reason, "not done: its output is no longer in %s", run->o->output);
        }
        if (r->status != BATCH_PENDING) continue;
        batch_record_unname(r); /* a model queued, never written */
        if (!r->reason[0]) snprintf(r->reason, sizeof r->reason, "%s", why);
        free(r->json);
        r->json = NULL;
    }
}

/* Like every output, the --report file gets the folders it names. It replaces an existing file
 * with -f, or when that file is this batch's own report from an earlier run. */
static ue_result write_report_file(const cli_opts *o, const char *text, ue_diag *d) {
    ue_result r = ue_make_parent_dirs(o->report, d);
    bool replace = o->force || batch_report_is_for(o->report, o->output);
    return r == UE_OK ? ue_file_write_atomic(o->report, text, strlen(text), replace, d) : r;
}

/* The report goes to OUT and to --report, each as far as it can; false when either failed,
 * which is said, with where the report is after all. */
static bool write_reports(const batch_run *run, const char *text) {
    const cli_opts *o = run->o;
    int err = text ? batch_outdir_put_report(run->od, text) : ENOMEM;
    bool elsewhere = false;
    if (o->report && text) {
        ue_diag d = {0};
        elsewhere = write_report_file(o, text, &d) == UE_OK;
        if (!elsewhere) cli_print_diags(&d, 5);
        ue_diag_free(&d);
    }
    if (err)
        cli_error("convert: %s/%s: cannot write the report: %s; %s", batch_outdir_root(run->od), BATCH_REPORT,
                  strerror(err), elsewhere ? "it is in the --report file" : "no report was written");
    return !err && (elsewhere || !o->report);
}

/* After an interrupt or a stop: exactly what OUT holds and what is left to do. */
static void say_what_exists(const batch_run *run, const batch_summary *s) {
    size_t held = s->converted + s->kept;
    cli_error("convert: %s holds %zu converted %s (%zu now, %zu kept from before); not done: %zu %s "
              "and %zu %s not read; the same command continues the batch", run->o->output, held,
              cli_plural(held, "model", "models"), s->converted, s->kept, s->not_done_models,
              cli_plural(s->not_done_models, "model", "models"), s->not_done_files,
              cli_plural(s->not_done_files, "file", "files"));
}

static int finish(batch_run *run, batch_records *records, double start, ue_result r) {
    const cli_opts *o = run->o;
    if (r != UE_OK) batch_stop(run, "%s", ue_result_name(r));
    /* read once, so every part of the ending tells the same; a signal after this is too late to
     * change it (and a second one ends the process) */
    int sig = cli_interrupted();
    bool early = sig || atomic_load(&run->stopped);
    settle_records(run, records, sig);
    batch_summary s;
    batch_summarise(records, &s);
    if (!early && s.models == 0 && s.failed == 0) {
        batch_outdir_discard(run->od);
        run->od = NULL;
        cli_error("convert: no models found in the input");
        return EXIT_INVALID;
    }
    if (sig) cli_error("convert: interrupted (%s)", cli_signal_name(sig));
    else if (early) cli_error("convert: stopped: %s; no further model was tried", run->stop_reason);
    const char *stopped = sig ? "interrupted" : early ? run->stop_reason : NULL;
    if (o->gallery) gallery_take_earlier(batch_outdir_root(run->od), records); /* before the report is replaced */
    char *text = batch_report_json(o, run->type, records, &s, stopped, run->format_opts);
    bool reported = write_reports(run, text);
    free(text);
    if (o->gallery && !batch_outdir_gone(run->od)) gallery_write(run->od, records);
    batch_outdir_close(run->od, records, !early);
    run->od = NULL;
    records->rest_in = reported ? "all of them in the report" : NULL;
    if (!o->quiet || s.failed || s.left || early || !reported) batch_print_summary(&s, records, cli_now() - start);
    if (early) say_what_exists(run, &s);
    if (sig) return 128 + sig; /* as shells report it: 130 for SIGINT */
    if (early || !reported) return EXIT_IO;
    return s.failed || s.left ? EXIT_INVALID : 0;
}

/* ---- the verb -------------------------------------------------------------------------------- */

static int walk_inputs(const cli_opts *o, batch_records *walked) {
    if (batch_walk(o->inputs, o->input_count, o->follow_links, walked) == UE_OK) return 0;
    cli_error("convert: out of memory while listing the inputs");
    return EXIT_IO;
}

/* SIGINT, SIGTERM and SIGHUP end the batch with its finished work kept (src/cli/interrupt.c
 * defers them; a second one ends the process at once); a file over RLIMIT_FSIZE stops it. */
static int convert_batch(batch_run *run, batch_records *walked, batch_records *records) {
    double start = cli_now();
    cli_progress_begin(&run->progress, run->o->quiet);
    cli_interrupt_defer(true);
    cli_ignore_fsize(true);
    ue_result r = run_batch(run, walked, records);
    int rc = finish(run, records, start, r);
    cli_ignore_fsize(false);
    cli_interrupt_defer(false);
    return rc;
}

int cmd_convert_batch(const cli_opts *o, const char *type, cli_format_opts *format_opts) {
    int rc = check_batch_options(o);
    batch_records walked = {NULL, 0, 0, NULL}, records = {NULL, 0, 0, NULL};
    if (!rc) rc = walk_inputs(o, &walked);
    batch_outdir *od = NULL;
    if (!rc) rc = batch_outdir_open(o, type, &od);
    if (!rc) {
        batch_run run;
        memset(&run, 0, sizeof run);
        run.o = o, run.format_opts = format_opts, run.type = type, run.od = od;
        pthread_mutex_init(&run.lock, NULL);
        pthread_cond_init(&run.more, NULL);
        pthread_cond_init(&run.write_ready, NULL);
        pthread_cond_init(&run.write_space, NULL);
        rc = convert_batch(&run, &walked, &records);
        od = run.od; /* NULL: finish closed it */
        free(run.jobs);
        pthread_mutex_destroy(&run.lock);
        pthread_cond_destroy(&run.more);
        pthread_cond_destroy(&run.write_ready);
        pthread_cond_destroy(&run.write_space);
    }
    batch_outdir_close(od, NULL, false);
    /* The walk's records moved into `records` as they were read (NULL left behind). */
    batch_records_free(&walked);
    batch_records_free(&records);
    return rc;
}
