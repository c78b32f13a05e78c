/* unearth CLI — internal: the state of a running batch shared by its threads (the job queue,
 * the private output directory, the counters the progress bar shows). */
#ifndef UE_CLI_BATCH_RUN_H
#define UE_CLI_BATCH_RUN_H

#include <pthread.h>

#include "cli/batch.h"
#include "common/io.h"
#include "unearth/model.h"

/* One model to convert; its bytes are freed once it is converted. */
typedef struct batch_job {
    batch_record *rec;
    batch_record *file;  /* the file it came from */
    ue_model_found model;
    uint64_t folder;  /* which output folder it writes into (a hash; never 0) */
    bool taken;
} batch_job;

typedef struct batch_run {
    const cli_opts *o;
    const ue_model_options *format_opts;
    const char *type;            /* "glb", "gltf" or "obj" */
    const ue_outdir *out;        /* files are put into out->temp_path */
    /* the queue: jobs[next..count) that are not taken wait; guarded by lock */
    batch_job *jobs;
    size_t count, next, running, waiting;
    size_t waiting_bytes;
    size_t threads;     /* slots in busy: the reading thread is 0 */
    uint64_t busy[64];  /* the folder each thread writes into now, 0 when idle */
    bool closed;
    pthread_mutex_t lock;
    pthread_cond_t more;
    /* what the progress bar and -v show; guarded by lock */
    cli_progress progress;
    size_t files_done, files_total, models_done;
    const char *current;
} batch_run;

/* Converts and writes one model (any thread); sets rec's status, output and reason. */
void batch_convert_one(const batch_run *run, batch_record *rec, ue_model_found *model);

#endif
