/* unearth — Parkan WEAR tables (docs/formats/materials.md#wear): the text that names a model's materials by row and,
 * after LIGHTMAPS, its lightmaps; read with the counts checked, written in the canonical layout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/parkan_material.h"
#include "common/parse.h"
#include "unearth/advanced/buffers.h"

typedef struct line {
    size_t off, len; /* without the line end */
} line;

typedef struct wear_reader {
    const uint8_t *data;
    line *lines;
    size_t size, count, next;
    uint64_t base;
    ue_parse_ctx c;
} wear_reader;

/* Lines split at LF, a CR before it dropped: at most size + 1 lines, found in one pass. */
static line *split_lines(const uint8_t *data, size_t size, size_t *count, bool *crlf) {
    line *l = malloc((size + 1) * sizeof *l);
    if (!l) return NULL;
    size_t n = 0, start = 0;
    *crlf = false;
    for (size_t i = 0; i <= size; i++) {
        if (i < size && data[i] != '\n') continue;
        size_t end = i;
        if (i < size && end > start && data[end - 1] == '\r') end--, *crlf = true;
        if (i < size || end > start) l[n++] = (line){start, end - start};
        start = i + 1;
    }
    *count = n;
    return l;
}

static bool is_space(uint8_t ch) { return ch == ' ' || ch == '\t' || ch == '\r'; }

/* The k-th whitespace-separated token of a line (k = 0, 1); false when there is none. */
static bool token(const wear_reader *r, const line *ln, int k, size_t *off, size_t *len) {
    size_t i = ln->off, end = ln->off + ln->len;
    for (int t = 0;; t++) {
        while (i < end && is_space(r->data[i])) i++;
        if (i == end) return false;
        size_t s = i;
        while (i < end && !is_space(r->data[i])) i++;
        if (t == k) return *off = s, *len = i - s, true;
    }
}

static bool blank(const wear_reader *r, const line *ln) {
    size_t o, n;
    return !token(r, ln, 0, &o, &n);
}

static bool is_word(const wear_reader *r, const line *ln, const char *word) {
    size_t o, n;
    return token(r, ln, 0, &o, &n) && n == strlen(word) && memcmp(r->data + o, word, n) == 0;
}

/* A positive decimal count on its own line; 0 when missing or not positive (reported). */
static size_t read_count(wear_reader *r, const char *path, const char *what) {
    size_t o, n;
    uint64_t at = r->next < r->count ? r->base + r->lines[r->next].off : r->base;
    if (r->next >= r->count || !token(r, &r->lines[r->next], 0, &o, &n)) {
        ue_violation(&r->c, "wear.count.missing", at, path, "the %s count is missing", what);
        return 0;
    }
    size_t v = 0;
    bool ok = n <= 9;
    for (size_t i = 0; i < n && ok; i++) {
        ok = r->data[o + i] >= '0' && r->data[o + i] <= '9';
        v = v * 10 + (size_t)(r->data[o + i] - '0');
    }
    r->next++;
    if (!ok || v == 0) {
        ue_violation(&r->c, "wear.count.value", at, path, "the %s count must be a positive number", what);
        return 0;
    }
    return v;
}

static void copy_token(const wear_reader *r, size_t off, size_t len, char *out, size_t cap) {
    if (len >= cap) len = cap - 1;
    memcpy(out, r->data + off, len);
    out[len] = 0;
}

/* Rows until `want` are read or a blank / LIGHTMAPS line; fewer is a violation. A lightmap
 * name needs a '.' in its first 16 bytes. */
static ue_wear_row *read_rows(wear_reader *r, size_t want, const char *path, bool lightmaps, size_t *got) {
    /* Never more rows than lines left, whatever the count claims. */
    size_t cap = want < r->count - r->next ? want : r->count - r->next;
    ue_wear_row *rows = ue_calloc_items(cap, sizeof *rows);
    *got = 0;
    if (!rows) return NULL;
    while (*got < want && r->next < r->count) {
        const line *ln = &r->lines[r->next];
        size_t io, il, no, nl;
        if (blank(r, ln) || is_word(r, ln, "LIGHTMAPS")) break;
        if (!token(r, ln, 1, &no, &nl)) {
            ue_violation(&r->c, "wear.row.name", r->base + ln->off, path, "row %zu has no name", *got);
            no = ln->off, nl = 0;
        }
        token(r, ln, 0, &io, &il);
        if (nl >= UE_WEAR_NAME_MAX)
            ue_violation(&r->c, "wear.row.long", r->base + no, path, "row %zu: a name of %zu bytes (at most %d kept)",
                         *got, nl, UE_WEAR_NAME_MAX - 1);
        if (lightmaps && !memchr(r->data + no, '.', nl < 16 ? nl : 16))
            ue_violation(&r->c, "wear.lightmap.name", r->base + no, path,
                         "lightmap %zu has no '.' in its first 16 bytes (the engine's \"Bad texture name.\")", *got);
        copy_token(r, io, il, rows[*got].legacy_id, sizeof rows[*got].legacy_id);
        copy_token(r, no, nl, rows[*got].name, sizeof rows[*got].name);
        (*got)++, r->next++;
    }
    if (*got < want)
        ue_violation(&r->c, "wear.count.mismatch", r->base + (r->next < r->count ? r->lines[r->next].off : r->size), path,
                     "%zu rows announced, %zu found", want, *got);
    return rows;
}

/* After the material rows: nothing but blank lines, or a blank line, LIGHTMAPS and its rows. */
static ue_result read_lightmaps(wear_reader *r, ue_wear *w) {
    size_t first = r->next;
    while (r->next < r->count && blank(r, &r->lines[r->next])) r->next++;
    if (r->next == r->count) return UE_OK;
    const line *ln = &r->lines[r->next];
    if (!is_word(r, ln, "LIGHTMAPS")) {
        ue_violation(&r->c, "wear.count.mismatch", r->base + ln->off, "wear/materials",
                     "more rows than the %zu announced", w->material_count);
        return UE_OK;
    }
    if (r->next == first)
        ue_violation(&r->c, "wear.lightmaps.blank", r->base + ln->off, "wear/LIGHTMAPS",
                     "LIGHTMAPS needs a blank line before it (the engine's buffer reader skips one)");
    r->next++;
    w->has_lightmaps = true;
    size_t want = read_count(r, "wear/lightmaps", "lightmap");
    w->lightmaps = read_rows(r, want, "wear/lightmaps", true, &w->lightmap_count);
    if (!w->lightmaps) return UE_ERR_NOMEM;
    while (r->next < r->count && blank(r, &r->lines[r->next])) r->next++;
    if (r->next < r->count)
        ue_violation(&r->c, "wear.count.mismatch", r->base + r->lines[r->next].off, "wear/lightmaps",
                     "more rows than the %zu announced", want);
    return UE_OK;
}

static void mark_canonical(const uint8_t *data, size_t size, ue_wear *w) {
    ue_buf b = {0};
    w->canonical = false;
    if (ue_wear_write(w, &b, NULL) == UE_OK) w->canonical = b.size == size && memcmp(b.data, data, size) == 0;
    ue_buf_free(&b);
}

ue_result ue_wear_parse(const uint8_t *data, size_t size, uint64_t base, ue_mode mode, ue_wear *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    wear_reader r = {data, NULL, size, 0, 0, base, ue_parse_begin(mode, d)};
    r.lines = split_lines(data, size, &r.count, &out->crlf);
    if (!r.lines) return UE_ERR_NOMEM;
    ue_result res = UE_OK;
    size_t want = read_count(&r, "wear/materials", "material");
    out->materials = read_rows(&r, want, "wear/materials", false, &out->material_count);
    if (!out->materials) res = UE_ERR_NOMEM;
    if (res == UE_OK) res = read_lightmaps(&r, out);
    free(r.lines);
    if (res == UE_OK) res = r.c.failure;
    if (res == UE_OK) mark_canonical(data, size, out);
    else ue_wear_free(out);
    return res;
}

static void put_line(ue_buf *b, const ue_wear *w, const char *text) {
    ue_buf_put(b, text, strlen(text));
    ue_buf_put(b, w->crlf ? "\r\n" : "\n", w->crlf ? 2 : 1);
}

static void put_rows(ue_buf *b, const ue_wear *w, const ue_wear_row *rows, size_t n) {
    char text[UE_WEAR_NAME_MAX + 40];
    snprintf(text, sizeof text, "%zu", n);
    put_line(b, w, text);
    for (size_t i = 0; i < n; i++) {
        snprintf(text, sizeof text, "%s %s", rows[i].legacy_id[0] ? rows[i].legacy_id : "0", rows[i].name);
        put_line(b, w, text);
    }
}

ue_result ue_wear_write(const ue_wear *w, ue_buf *out, ue_diag *d) {
    if (!w->material_count || !w->materials || (w->has_lightmaps && (!w->lightmap_count || !w->lightmaps))) {
        ue_diag_add(d, UE_SEV_ERROR, "wear.write.usage", UE_NO_OFFSET, "wear",
                    "a WEAR table needs at least one material row (and one lightmap row with LIGHTMAPS)");
        return UE_ERR_USAGE;
    }
    put_rows(out, w, w->materials, w->material_count);
    if (w->has_lightmaps) {
        put_line(out, w, "");
        put_line(out, w, "LIGHTMAPS");
        put_rows(out, w, w->lightmaps, w->lightmap_count);
    }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

void ue_wear_free(ue_wear *w) {
    if (!w) return;
    free(w->materials);
    free(w->lightmaps);
    memset(w, 0, sizeof *w);
}
