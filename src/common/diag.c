/* unearth — diagnostics as data: a capped list of {severity, code, offset, path, message}.
 * The library never prints; the CLI formats these items. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/common.h"
#include "common/parse.h"

const char *ue_result_name(ue_result r) {
    switch (r) {
    case UE_OK: return "ok";
    case UE_ERR_INVALID: return "invalid input";
    case UE_ERR_USAGE: return "usage error";
    case UE_ERR_IO: return "I/O error";
    case UE_ERR_NOMEM: return "out of memory";
    case UE_ERR_UNSUPPORTED: return "unsupported";
    case UE_ERR_MISMATCH: return "round-trip mismatch";
    case UE_ERR_LIMIT: return "over a size limit";
    }
    return "unknown";
}

void ue_diag_free(ue_diag *d) {
    if (!d) return;
    free(d->items);
    d->items = NULL;
    d->count = d->capacity = d->dropped = 0;
}

/* After a cut by snprintf: drops a UTF-8 character left incomplete at the end of `s`, so a
 * truncated message never ends in half a character. Text that was not cut is left alone. */
static void trim_cut_character(char *s) {
    size_t n = strlen(s), start = n;
    while (start > 0 && n - start < 4 && ((unsigned char)s[start - 1] & 0xC0) == 0x80) start--;
    if (start == 0) return;
    unsigned char lead = (unsigned char)s[start - 1];
    size_t want = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (want > 1 && n - (start - 1) < want) s[start - 1] = 0;
}

static size_t diag_cap(const ue_diag *d) { return d->max_items ? d->max_items : 10000; }

bool ue_diag_full(const ue_diag *d) { return !d || d->count >= diag_cap(d); }

/* The next free item, or NULL (counted as dropped) when the cap or memory says no. */
static ue_diag_item *next_item(ue_diag *d) {
    size_t cap = diag_cap(d);
    if (d->count >= cap) {
        d->dropped++;
        return NULL;
    }
    if (d->count == d->capacity) {
        size_t nc = d->capacity ? d->capacity * 2 : 16;
        if (nc > cap) nc = cap;
        ue_diag_item *n = realloc(d->items, nc * sizeof *n);
        if (!n) {
            d->dropped++;
            return NULL;
        }
        d->items = n;
        d->capacity = nc;
    }
    ue_diag_item *it = &d->items[d->count++];
    memset(it, 0, sizeof *it);
    return it;
}

void ue_diag_addv(ue_diag *d, ue_severity sev, const char *code, uint64_t offset,
                  const char *path, const char *fmt, va_list ap) {
    if (!d) return;
    ue_diag_item *it = next_item(d);
    if (!it) return;
    it->severity = sev;
    snprintf(it->code, sizeof it->code, "%s", code ? code : "");
    it->offset = offset == UE_NO_OFFSET ? UE_NO_OFFSET : offset + d->base_offset;
    int n;
    if (d->path_prefix[0] && path && path[0])
        n = snprintf(it->path, sizeof it->path, "%s/%s", d->path_prefix, path);
    else
        n = snprintf(it->path, sizeof it->path, "%s", path && path[0] ? path : d->path_prefix);
    if (n >= (int)sizeof it->path) trim_cut_character(it->path);
    n = vsnprintf(it->message, sizeof it->message, fmt, ap);
    if (n >= (int)sizeof it->message) trim_cut_character(it->message);
}

void ue_diag_add(ue_diag *d, ue_severity sev, const char *code, uint64_t offset,
                 const char *path, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    ue_diag_addv(d, sev, code, offset, path, fmt, ap);
    va_end(ap);
}

void ue_diag_append(ue_diag *d, const ue_diag *from, ue_severity at_least) {
    if (!d || !from) return;
    for (size_t i = 0; i < from->count; i++) {
        const ue_diag_item *it = &from->items[i];
        if (it->severity >= at_least)
            ue_diag_add(d, it->severity, it->code, it->offset, it->path, "%s", it->message);
    }
}

size_t ue_diag_count(const ue_diag *d, ue_severity at_least) {
    size_t n = 0;
    if (!d) return 0;
    for (size_t i = 0; i < d->count; i++)
        if (d->items[i].severity >= at_least) n++;
    return n;
}

void ue_diag_format(const ue_diag_item *it, char *out, size_t out_size) {
    static const char *const names[] = {"info", "warning", "error"};
    const char *sev = it->severity <= UE_SEV_ERROR ? names[it->severity] : "?";
    if (it->offset != UE_NO_OFFSET)
        snprintf(out, out_size, "%s: %s @0x%llx: %s [%s]", sev, it->path[0] ? it->path : "-",
                 (unsigned long long)it->offset, it->message, it->code);
    else
        snprintf(out, out_size, "%s: %s: %s [%s]", sev, it->path[0] ? it->path : "-",
                 it->message, it->code);
}
