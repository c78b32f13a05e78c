/* unearth — the parse context's reports (parse.h): each kind of problem picks its severity from
 * the mode and records whether the parse fails, so parsers never spell the rule out again. */
#include "common/parse.h"

void ue_parse_fail(ue_parse_ctx *c, ue_result r) {
    if (c->failure == UE_OK) c->failure = r;
}

/* Adds the diagnostic and, when `fails`, records `result` as the parse's failure. */
static void report(ue_parse_ctx *c, ue_severity sev, bool fails, ue_result result,
                   const char *code, uint64_t offset, const char *path, const char *fmt,
                   va_list ap) UE_PARSE_PRINTF(8, 0);
static void report(ue_parse_ctx *c, ue_severity sev, bool fails, ue_result result,
                   const char *code, uint64_t offset, const char *path, const char *fmt,
                   va_list ap) {
    ue_diag_addv(c->d, sev, code, offset, path, fmt, ap);
    if (fails) ue_parse_fail(c, result);
}

void ue_violation(ue_parse_ctx *c, const char *code, uint64_t offset, const char *path,
                  const char *fmt, ...) {
    bool strict = ue_parse_strict(c);
    va_list ap;
    va_start(ap, fmt);
    report(c, strict ? UE_SEV_ERROR : UE_SEV_WARNING, strict, UE_ERR_INVALID, code, offset, path,
           fmt, ap);
    va_end(ap);
}

void ue_violation_as(ue_parse_ctx *c, ue_result result, const char *code, uint64_t offset,
                     const char *path, const char *fmt, ...) {
    bool strict = ue_parse_strict(c);
    va_list ap;
    va_start(ap, fmt);
    report(c, strict ? UE_SEV_ERROR : UE_SEV_WARNING, strict, result, code, offset, path, fmt, ap);
    va_end(ap);
}

void ue_damage(ue_parse_ctx *c, const char *code, uint64_t offset, const char *path,
               const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(c, UE_SEV_ERROR, ue_parse_strict(c), UE_ERR_INVALID, code, offset, path, fmt, ap);
    va_end(ap);
}

void ue_damage_reported(ue_parse_ctx *c) {
    if (ue_parse_strict(c)) ue_parse_fail(c, UE_ERR_INVALID);
}

void ue_parse_error(ue_parse_ctx *c, const char *code, uint64_t offset, const char *path,
                    const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    report(c, UE_SEV_ERROR, true, UE_ERR_INVALID, code, offset, path, fmt, ap);
    va_end(ap);
}

ue_diag_mark ue_diag_mark_at(const ue_diag *d) {
    ue_diag_mark m = {d, d ? d->count : 0, d ? d->dropped : 0};
    return m;
}

bool ue_diag_warned_since(ue_diag_mark m) {
    if (!m.d) return true; /* nothing was recorded: nothing is known */
    if (m.d->dropped != m.dropped) return true;
    for (size_t i = m.count; i < m.d->count; i++)
        if (m.d->items[i].severity >= UE_SEV_WARNING) return true;
    return false;
}

void ue_diag_replay(ue_diag *d, const ue_diag *from) {
    ue_diag_append(d, from, UE_SEV_INFO);
    if (d) d->dropped += from->dropped;
}
