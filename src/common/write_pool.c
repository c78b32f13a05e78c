/* unearth — a bounded queue of whole-file writes served by a few threads (see write_pool.h),
 * keeping the first failure for the caller; and a parallel loop over independent indices. */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/write_pool.h"

#define QUEUE_SLOTS 64
#define QUEUE_BYTES ((size_t)8 << 20) /* pending payload bytes before put() waits */
#define MAX_THREADS 4

typedef struct job {
    char *path;
    uint8_t *data;
    size_t n;
} job;

struct ue_write_pool {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    job queue[QUEUE_SLOTS];
    size_t head, count, bytes;
    bool closing;
    int error;
    char failed[4096];
    pthread_t threads[MAX_THREADS];
    size_t started;
};

/* Starts a thread with every signal blocked: the library's threads never run the program's
 * signal handlers, so a handler always interrupts the thread that called the library and sees
 * its outputs in a known state (docs/output-safety.md, "Interrupts"). */
static int start_thread(pthread_t *t, void *(*fn)(void *), void *arg) {
    sigset_t all, before;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &before);
    int err = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &before, NULL);
    return err;
}

static int write_file(const job *j) {
    int fd = open(j->path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd < 0) return errno;
    const uint8_t *p = j->data;
    size_t left = j->n;
    int err = 0;
    while (left > 0 && !err) {
        ssize_t w = write(fd, p, left);
        if (w < 0 && errno != EINTR) err = errno;
        if (w > 0) p += w, left -= (size_t)w;
    }
    if (close(fd) != 0 && !err) err = errno;
    return err;
}

static void *worker(void *arg) {
    ue_write_pool *p = arg;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->count == 0 && !p->closing) pthread_cond_wait(&p->changed, &p->lock);
        if (p->count == 0) break;
        job j = p->queue[p->head];
        p->head = (p->head + 1) % QUEUE_SLOTS;
        p->count--;
        bool skip = p->error != 0;
        pthread_mutex_unlock(&p->lock);
        int err = skip ? 0 : write_file(&j);
        pthread_mutex_lock(&p->lock);
        if (err && !p->error) {
            p->error = err;
            snprintf(p->failed, sizeof p->failed, "%s", j.path);
        }
        p->bytes -= j.n;
        pthread_cond_broadcast(&p->changed);
        free(j.path);
        free(j.data);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

ue_write_pool *ue_write_pool_start(size_t threads) {
    ue_write_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->changed, NULL);
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    for (size_t t = 0; t < threads; t++)
        if (start_thread(&p->threads[p->started], worker, p) == 0) p->started++;
    if (p->started == 0) {
        ue_write_pool_finish(p, NULL, 0);
        return NULL;
    }
    return p;
}

bool ue_write_pool_put(ue_write_pool *p, char *path, uint8_t *data, size_t n) {
    pthread_mutex_lock(&p->lock);
    /* One payload bigger than the byte bound still goes, alone. */
    while (!p->error && (p->count == QUEUE_SLOTS || (p->bytes && p->bytes + n > QUEUE_BYTES)))
        pthread_cond_wait(&p->changed, &p->lock);
    bool ok = p->error == 0;
    if (ok) {
        p->queue[(p->head + p->count) % QUEUE_SLOTS] = (job){path, data, n};
        p->count++;
        p->bytes += n;
        pthread_cond_broadcast(&p->changed);
    }
    pthread_mutex_unlock(&p->lock);
    if (!ok) free(path), free(data);
    return ok;
}

int ue_write_pool_finish(ue_write_pool *p, char *failed, size_t cap) {
    pthread_mutex_lock(&p->lock);
    p->closing = true;
    pthread_cond_broadcast(&p->changed);
    pthread_mutex_unlock(&p->lock);
    for (size_t t = 0; t < p->started; t++) pthread_join(p->threads[t], NULL);
    int err = p->error;
    if (err && failed && cap) snprintf(failed, cap, "%s", p->failed);
    pthread_cond_destroy(&p->changed);
    pthread_mutex_destroy(&p->lock);
    free(p);
    return err;
}

typedef struct loop {
    pthread_mutex_t lock;
    size_t next, n, workers;
    bool parallel; /* more than one thread takes indices */
    void (*fn)(void *ctx, size_t worker, size_t i);
    void *ctx;
} loop;

/* Set on every thread of a loop that runs on several: a loop started there runs on one. */
static _Thread_local bool in_parallel_loop;

static void *loop_worker(void *arg) {
    loop *l = arg;
    pthread_mutex_lock(&l->lock);
    size_t worker = l->workers++;
    pthread_mutex_unlock(&l->lock);
    bool was = in_parallel_loop;
    in_parallel_loop = in_parallel_loop || l->parallel;
    for (;;) {
        pthread_mutex_lock(&l->lock);
        size_t i = l->next < l->n ? l->next++ : l->n;
        pthread_mutex_unlock(&l->lock);
        if (i == l->n) break;
        l->fn(l->ctx, worker, i);
    }
    in_parallel_loop = was;
    return NULL;
}

void ue_parallel_for_workers(size_t n, size_t threads,
                             void (*fn)(void *ctx, size_t worker, size_t i), void *ctx) {
    loop l = {.next = 0, .n = n, .fn = fn, .ctx = ctx};
    pthread_mutex_init(&l.lock, NULL);
    pthread_t extra[UE_PARALLEL_MAX_THREADS];
    size_t started = 0;
    if (threads > n) threads = n;
    if (threads > UE_PARALLEL_MAX_THREADS) threads = UE_PARALLEL_MAX_THREADS;
    if (in_parallel_loop) threads = 1;
    l.parallel = threads > 1;
    /* Threads that fail to start leave their share to the others: the loop still ends. */
    while (started + 1 < threads && start_thread(&extra[started], loop_worker, &l) == 0)
        started++;
    loop_worker(&l);
    for (size_t t = 0; t < started; t++) pthread_join(extra[t], NULL);
    pthread_mutex_destroy(&l.lock);
}

typedef struct plain_loop {
    void (*fn)(void *ctx, size_t i);
    void *ctx;
} plain_loop;

static void plain_one(void *ctx, size_t worker, size_t i) {
    (void)worker;
    plain_loop *p = ctx;
    p->fn(p->ctx, i);
}

void ue_parallel_for(size_t n, size_t threads, void (*fn)(void *ctx, size_t i), void *ctx) {
    plain_loop p = {fn, ctx};
    ue_parallel_for_workers(n, threads, plain_one, &p);
}

size_t ue_cpu_count(void) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (size_t)n : 1;
}
