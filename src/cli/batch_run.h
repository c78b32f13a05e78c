/* unearth CLI — internal: the state of a running batch shared by its threads (the job queue, the
 * queue of outputs to write, OUT and its marker, the counters the progress bar shows). */
#ifndef UE_CLI_BATCH_RUN_H
#define UE_CLI_BATCH_RUN_H

#include <pthread.h>
#include <stdatomic.h>

#include "cli/batch.h"
#include "cli/output_parts.h"
#include "unearth/advanced/files.h"
#include "unearth/model.h"

/* One model to convert; its bytes are freed once it is converted. */
typedef struct batch_job {
    batch_record *rec;
    batch_record *file;  /* the file it came from */
    ue_model_found model;
} batch_job;

/* A converted model's bytes: the main file, its companion (.bin/.mtl; empty for GLB) and its
 * PNG files, named as single convert names them. */
typedef output_parts batch_output;

/* A converted model waiting for the writing thread. */
typedef struct batch_write {
    batch_record *rec, *file;
    batch_output out;
} batch_write;

/* Converted models wait here for the writing thread; the converting threads wait while it is
 * full, so memory holds at most this many outputs besides those being made. */
enum { BATCH_WRITE_DEPTH = 16 };
/* The writing thread is woken once this many wait (or at the end), not for every model: it
 * writes faster than two threads convert, and a wake-up per model cost four futex calls. */
enum { BATCH_WRITE_WAKE = 8 };

typedef struct batch_run {
    const cli_opts *o;
    cli_format_opts *format_opts;
    const char *type;            /* "glb", "gltf" or "obj" */
    batch_outdir *od;            /* OUT: outputs go in place, listed in its marker */
    /* set once by the first write error that no later output escapes (a full disk, a read-only
     * or vanished OUT): no new model is started, and nothing more is written */
    atomic_int stopped;
    char stop_reason[600];
    /* the jobs: jobs[next..count) wait, in input order; guarded by lock */
    batch_job *jobs;
    size_t count, jobs_cap, next, waiting;
    size_t waiting_bytes;
    bool closed;
    pthread_mutex_t lock;
    pthread_cond_t more;
    /* -j 2 and more: one thread creates and writes every output file (ring of queued[head..
     * head + queued_count)); guarded by lock. Without it each converting thread writes its own. */
    bool writer_on;
    batch_write queued[BATCH_WRITE_DEPTH];
    size_t queued_head, queued_count;
    bool writes_closed;
    pthread_cond_t write_ready, write_space;
    /* what the progress bar and -v show; guarded by lock */
    cli_progress progress;
    size_t files_done, files_total, models_done;
    const char *current;
} batch_run;

/* Converts one model into memory (any thread) and frees its bytes; false when it failed, and
 * then rec is marked failed and `out` holds nothing. */
bool batch_convert_model(const batch_run *run, batch_record *rec, ue_model_found *model, batch_output *out);
/* Puts a converted model's files in place in OUT, sets rec converted, failed, or (after a stop)
 * still pending, and frees `out`. */
void batch_write_model(batch_run *run, batch_record *rec, batch_output *out);
/* Stops the batch (the first call's reason is kept): a write error no later output escapes. */
void batch_stop(batch_run *run, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
