/* unearth — internal: a small pool of threads that create and write whole files, so that an
 * extract of thousands of small entries lets the kernel create several files at once; and a
 * parallel loop for independent work such as compressing the entries of one archive. */
#ifndef UE_COMMON_WRITE_POOL_H
#define UE_COMMON_WRITE_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/common.h"

typedef struct ue_write_pool ue_write_pool;

/* NULL when threads cannot be started: the caller then writes the files itself. */
ue_write_pool *ue_write_pool_start(size_t threads);
/* Queues a new file (created with O_EXCL, mode 0644) holding `data`; the pool takes both
 * malloc'd blocks. Blocks while the queue is full, so pending bytes stay bounded. False when
 * an earlier file already failed (the blocks are freed). */
bool ue_write_pool_put(ue_write_pool *p, char *path, uint8_t *data, size_t n);
/* Waits for every queued file, stops the threads and frees the pool. Returns 0, or the errno
 * of the first file that failed, whose path goes to `failed` (cap bytes). */
int ue_write_pool_finish(ue_write_pool *p, char *failed, size_t cap);

/* ue_parallel_for (the parallel loop) is public: unearth/common.h. */
/* Calls fn(ctx, worker, i) for every i below n, as ue_parallel_for does, fn also told which of the
 * threads runs it (0 .. threads - 1, each index on one thread at a time), so that each thread can
 * reuse a buffer of its own. */
void ue_parallel_for_workers(size_t n, size_t threads,
                             void (*fn)(void *ctx, size_t worker, size_t i), void *ctx);
/* Processors online, at least 1: how many threads parallel work may use. */
size_t ue_cpu_count(void);

#endif
