/* unearth internal — how parsers report what they find: a parse context and one call per kind
 * of problem, so "strict: an error, the parse fails; tolerant: a warning" is written once. */
#ifndef UE_COMMON_PARSE_H
#define UE_COMMON_PARSE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "unearth/common.h"

#if defined(__GNUC__)
#define UE_PARSE_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define UE_PARSE_PRINTF(fmt_index, first_arg)
#endif

/* True when `d` keeps no further item (NULL, or its cap is reached): work done only to word a
 * diagnostic (a "did you mean" search) can be skipped. */
bool ue_diag_full(const ue_diag *d);

/* One parse in progress: its mode, where its diagnostics go, and whether it has failed. */
typedef struct ue_parse_ctx {
    ue_mode mode;
    ue_diag *d;        /* may be NULL: nothing is recorded, the verdict still is */
    ue_result failure; /* UE_OK until a report fails the parse; then the first such result */
} ue_parse_ctx;

static inline ue_parse_ctx ue_parse_begin(ue_mode mode, ue_diag *d) {
    ue_parse_ctx c = {mode, d, UE_OK};
    return c;
}
static inline bool ue_parse_strict(const ue_parse_ctx *c) { return c->mode == UE_MODE_STRICT; }
static inline bool ue_parse_failed(const ue_parse_ctx *c) { return c->failure != UE_OK; }

/* Records that the parse fails with `r` (UE_OK is ignored); the first reason is kept, so the
 * result names the first problem found. */
void ue_parse_fail(ue_parse_ctx *c, ue_result r);

/* A breach of a format rule that tolerant reading can step over: an error in strict mode (the
 * parse fails with UE_ERR_INVALID), a warning in tolerant mode, where the caller skips or marks
 * the damaged part and keeps going. */
void ue_violation(ue_parse_ctx *c, const char *code, uint64_t offset, const char *path,
                  const char *fmt, ...) UE_PARSE_PRINTF(5, 6);

/* The same, but strict mode fails with `result` (e.g. UE_ERR_UNSUPPORTED for a packing method
 * this build cannot decode). */
void ue_violation_as(ue_parse_ctx *c, ue_result result, const char *code, uint64_t offset,
                     const char *path, const char *fmt, ...) UE_PARSE_PRINTF(6, 7);

/* Damage: bytes that cannot be used in either mode (a pointer outside the file). An error in
 * both modes; strict mode fails with UE_ERR_INVALID, tolerant mode keeps the rest. */
void ue_damage(ue_parse_ctx *c, const char *code, uint64_t offset, const char *path,
               const char *fmt, ...) UE_PARSE_PRINTF(5, 6);

/* Damage whose diagnostic is already in the list (a nested parser reported it) or that has
 * none to give (a read that failed): fails the parse in strict mode only, like ue_damage. */
void ue_damage_reported(ue_parse_ctx *c);

/* An error that fails the parse (UE_ERR_INVALID) in both modes: without this part nothing
 * can be read safely (a required resource is missing). */
void ue_parse_error(ue_parse_ctx *c, const char *code, uint64_t offset, const char *path,
                    const char *fmt, ...) UE_PARSE_PRINTF(5, 6);

/* Where a diagnostic list stands before a tolerant read, to ask after it whether the read
 * stepped over anything: every report that fails a strict parse (ue_violation, ue_damage,
 * ue_parse_error, and the nested report ue_damage_reported relies on) leaves at least a
 * warning in tolerant mode, so a read that left none would pass in strict mode too, and need
 * not be repeated to tell (validate's lost parts). */
typedef struct ue_diag_mark {
    const ue_diag *d;
    size_t count, dropped;
} ue_diag_mark;

ue_diag_mark ue_diag_mark_at(const ue_diag *d);
/* True when a warning or an error was added since `m`, or an item was dropped at the cap. */
bool ue_diag_warned_since(ue_diag_mark m);

/* Every report of `from` added to `d` again, with the count of those dropped at the cap: the
 * reports of a parse kept for a later step, said again where that step reports (NULL d: none). */
void ue_diag_replay(ue_diag *d, const ue_diag *from);

#endif
