/* unearth CLI — the ownership marker's text, written and read (docs/batch.md#output-safety): its
 * lines, and the table of the paths it lists, keyed by the exact bytes of each path. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch_marker.h"

/* ---- the table ------------------------------------------------------------------------------ */

/* Open addressing, doubled at half full: memory and work linear in the paths listed. */
struct marker_table {
    marker_entry *slots;
    size_t cap, count;
};

marker_table *marker_table_new(void) {
    marker_table *t = calloc(1, sizeof *t);
    if (t && !(t->slots = calloc(t->cap = 256, sizeof *t->slots))) {
        free(t);
        return NULL;
    }
    return t;
}

static void entry_clear_model(marker_entry *e) {
    for (size_t i = 0; i < e->image_count; i++) free(e->images[i]);
    free(e->images);
    e->images = NULL;
    e->image_count = e->image_cap = 0;
    free(e->companion);
    free(e->input);
    free(e->source.path);
    e->companion = e->input = e->source.path = NULL;
    e->model = false;
}

void marker_table_free(marker_table *t) {
    if (!t) return;
    for (size_t i = 0; i < t->cap; i++) {
        free(t->slots[i].path);
        entry_clear_model(&t->slots[i]);
    }
    free(t->slots);
    free(t);
}

static marker_entry *slot_of(marker_entry *slots, size_t cap, const char *path) {
    size_t i = (size_t)ue_xxh64(path, strlen(path), 0) & (cap - 1);
    while (slots[i].path && strcmp(slots[i].path, path)) i = (i + 1) & (cap - 1);
    return &slots[i];
}

marker_entry *marker_table_get(const marker_table *t, const char *path) {
    marker_entry *e = slot_of(t->slots, t->cap, path);
    return e->path ? e : NULL;
}

bool marker_table_at(const marker_table *t, size_t i, marker_entry **e) {
    if (i >= t->cap) return false;
    *e = t->slots[i].path ? &t->slots[i] : NULL;
    return true;
}

marker_entry *marker_table_add(marker_table *t, const char *path) {
    if ((t->count + 1) * 2 > t->cap) {
        size_t cap = t->cap * 2;
        marker_entry *slots = calloc(cap, sizeof *slots);
        if (!slots) return NULL;
        for (size_t i = 0; i < t->cap; i++)
            if (t->slots[i].path) *slot_of(slots, cap, t->slots[i].path) = t->slots[i];
        free(t->slots);
        t->slots = slots, t->cap = cap;
    }
    marker_entry *e = slot_of(t->slots, t->cap, path);
    if (e->path) return e;
    if (!(e->path = strdup(path))) return NULL;
    t->count++;
    return e;
}

/* ---- fields --------------------------------------------------------------------------------- */

static void put_escaped(ue_buf *b, const char *s) {
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f || c == '%') ue_buf_printf(b, "%%%02X", c);
        else ue_buf_put(b, s, 1);
    }
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* In place; false on a malformed escape. */
static bool unescape(char *s) {
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r != '%') {
            *w++ = *r;
            continue;
        }
        int hi = hex_digit(r[1]), lo = hi < 0 ? -1 : hex_digit(r[2]);
        if (lo < 0) return false;
        *w++ = (char)(hi * 16 + lo);
        r += 2;
    }
    *w = 0;
    return true;
}

/* A decimal field, all of it: false on anything else. */
static bool number(const char *s, uint64_t *out) {
    if (*s < '0' || *s > '9') return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    *out = v;
    return !*end && errno == 0;
}

/* A marker is read as hostile input: its paths are removed by --fresh, so one leading out of OUT
 * is never taken. */
bool batch_path_inside(const char *path) {
    if (path[0] == '/') return false;
    for (const char *part = path;;) {
        size_t n = strcspn(part, "/");
        if (n == 0 || (n == 1 && part[0] == '.') || (n == 2 && !strncmp(part, "..", 2))) return false;
        if (!part[n]) return true;
        part += n + 1;
    }
}

/* ---- writing ---------------------------------------------------------------------------------- */

void batch_marker_option(ue_buf *b, const char *name, const char *value) {
    ue_buf_printf(b, "option\t%s\t", name);
    put_escaped(b, value ? value : "-");
    ue_buf_put(b, "\n", 1);
}

/* Appends `line` (built in a scratch buffer) when it is short enough to be read back. */
static bool put_line(ue_buf *b, ue_buf *line) {
    bool fits = !line->failed && line->size <= BATCH_MARKER_LINE_MAX;
    if (fits) ue_buf_put(b, line->data, line->size);
    ue_buf_free(line);
    return fits;
}

bool batch_marker_file_line(ue_buf *b, const char *output, const char *companion, const char *input,
                            const batch_source *source) {
    ue_buf line = {0};
    const char *fields[] = {"file", output, companion ? companion : "", input,
                            source->path ? source->path : ""};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        if (i) ue_buf_put(&line, "\t", 1);
        put_escaped(&line, fields[i]);
    }
    ue_buf_printf(&line, "\t%llu\t%lld\n", (unsigned long long)source->size, (long long)source->mtime_ns);
    return put_line(b, &line);
}

bool batch_marker_image_line(ue_buf *b, const char *output, const char *path) {
    ue_buf line = {0};
    ue_buf_put(&line, "image\t", 6);
    put_escaped(&line, output);
    ue_buf_put(&line, "\t", 1);
    put_escaped(&line, path);
    ue_buf_put(&line, "\n", 1);
    return put_line(b, &line);
}

bool batch_marker_placed_line(ue_buf *b, const char *path, const batch_file_id *id) {
    ue_buf line = {0};
    ue_buf_put(&line, "placed\t", 7);
    put_escaped(&line, path);
    ue_buf_printf(&line, "\t%llu\t%lld\t%llu\n", (unsigned long long)id->size, (long long)id->mtime_ns,
                  (unsigned long long)id->ino);
    return put_line(b, &line);
}

bool batch_marker_left_line(ue_buf *b, const char *path) {
    ue_buf line = {0};
    ue_buf_put(&line, "left\t", 5);
    put_escaped(&line, path);
    ue_buf_put(&line, "\n", 1);
    return put_line(b, &line);
}

/* ---- reading ---------------------------------------------------------------------------------- */

enum { FIELDS_MAX = 7 };

/* Splits `line` at tabs, unescaping each field; the count, or 0 when malformed. */
static size_t split(char *line, char **f) {
    size_t n = 0;
    for (char *p = line; n < FIELDS_MAX;) {
        f[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = 0;
        p = tab + 1;
        if (n == FIELDS_MAX) return 0; /* more fields than any line has */
    }
    for (size_t i = 0; i < n; i++)
        if (!unescape(f[i])) return 0;
    return n;
}

/* "file OUTPUT COMPANION INPUT SOURCE SIZE MTIME": the model whose main output OUTPUT is; its
 * companion is listed too. A later line of the same output overrides the earlier one. */
static bool read_file_line(marker_table *t, char **f) {
    uint64_t size, mtime;
    if (!f[1][0] || !batch_path_inside(f[1]) || (f[2][0] && !batch_path_inside(f[2])) || !number(f[5], &size) ||
        !number(f[6], &mtime))
        return true;
    marker_entry *e = marker_table_add(t, f[1]);
    if (!e) return false;
    entry_clear_model(e);
    e->companion = strdup(f[2]);
    e->input = strdup(f[3]);
    e->source.path = f[4][0] ? strdup(f[4]) : NULL;
    e->source.size = size;
    e->source.mtime_ns = (int64_t)mtime;
    e->model = e->companion && e->input && (!f[4][0] || e->source.path);
    e->current = false; /* the file there, if placed, is of an older input until confirmed */
    if (!e->model) return false;
    marker_entry *side = f[2][0] ? marker_table_add(t, f[2]) : NULL;
    if (side) side->current = false;
    return !f[2][0] || side;
}

/* "image OUTPUT PATH": a PNG file of the model whose main output OUTPUT is (its "file" line
 * came first); the file there is of an older input until a "placed" line confirms it. */
static bool read_image_line(marker_table *t, char **f) {
    const marker_entry *owner = marker_table_get(t, f[1]);
    if (!owner || !owner->model || !batch_path_inside(f[2]) || !strcmp(f[1], f[2])) return true;
    marker_entry *side = marker_table_add(t, f[2]); /* may move the entries: owner is found again */
    if (!side) return false;
    side->current = false;
    marker_entry *e = marker_table_get(t, f[1]);
    if (e->image_count == e->image_cap) { /* doubled: linear in the lines however many */
        size_t cap = e->image_cap ? e->image_cap * 2 : 4;
        char **grown = realloc(e->images, cap * sizeof *grown);
        if (!grown) return false;
        e->images = grown;
        e->image_cap = cap;
    }
    return (e->images[e->image_count] = strdup(f[2])) != NULL && ++e->image_count;
}

/* "placed PATH SIZE MTIME INODE": what the file was once renamed into place. */
static bool read_placed_line(marker_table *t, char **f) {
    uint64_t size, mtime, ino;
    if (!batch_path_inside(f[1]) || !number(f[2], &size) || !number(f[3], &mtime) || !number(f[4], &ino)) return true;
    marker_entry *e = marker_table_add(t, f[1]);
    if (!e) return false;
    e->placed = e->current = true;
    e->id = (batch_file_id){ino, size, (int64_t)mtime};
    return true;
}

/* One line after the header; false only when out of memory. */
static bool read_line(marker_table *t, char *line) {
    char *f[FIELDS_MAX];
    size_t n = split(line, f);
    if (n == 7 && !strcmp(f[0], "file")) return read_file_line(t, f);
    if (n == 5 && !strcmp(f[0], "placed")) return read_placed_line(t, f);
    if (n == 3 && !strcmp(f[0], "image")) return read_image_line(t, f);
    if (n == 2 && !strcmp(f[0], "left") && batch_path_inside(f[1])) return marker_table_add(t, f[1]) != NULL;
    return true; /* a line this version does not know, or one a full disk cut short */
}

/* The next line of `h` into `line` (its newline removed): 1 a whole line, 0 the end, -1 a line
 * too long or cut short (passed over). Memory stays at one line however long the file is. */
static int next_line(FILE *h, char *line, size_t cap) {
    if (!fgets(line, (int)cap, h)) return 0;
    size_t n = strlen(line);
    if (n && line[n - 1] == '\n') {
        line[n - 1] = 0;
        return strlen(line) + 1 == n ? 1 : -1; /* a NUL byte inside: no line of ours */
    }
    int c;
    while ((c = fgetc(h)) != EOF && c != '\n') {} /* the rest of a long line */
    return -1;
}

/* The marker as a stream: a regular file no bigger than the cap, or NULL. */
static FILE *open_marker(const char *path, bool *ends_with_newline) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) return NULL;
    FILE *h = NULL;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= BATCH_MARKER_MAX) {
        char last = '\n';
        *ends_with_newline = st.st_size == 0 || (pread(fd, &last, 1, st.st_size - 1) == 1 && last == '\n');
        h = fdopen(fd, "r");
    }
    if (!h) close(fd);
    return h;
}

bool batch_marker_read(const char *path, ue_buf *header, marker_table *t, bool *ends_with_newline) {
    FILE *h = open_marker(path, ends_with_newline);
    if (!h) return false;
    char *line = malloc(BATCH_MARKER_LINE_MAX + 2);
    bool ok = line && next_line(h, line, BATCH_MARKER_LINE_MAX + 2) == 1 &&
              !strncmp(line, BATCH_MARKER_MAGIC, strlen(BATCH_MARKER_MAGIC) - 1) &&
              strlen(line) == strlen(BATCH_MARKER_MAGIC) - 1;
    if (ok) ue_buf_put(header, BATCH_MARKER_MAGIC, strlen(BATCH_MARKER_MAGIC));
    bool in_header = true;
    for (int got; ok && (got = next_line(h, line, BATCH_MARKER_LINE_MAX + 2)) != 0;) {
        if (got < 0) continue;
        if (in_header && !strncmp(line, "option\t", 7)) {
            ue_buf_put(header, line, strlen(line));
            ue_buf_put(header, "\n", 1);
            continue;
        }
        in_header = false;
        ok = read_line(t, line);
    }
    ok = ok && !ferror(h) && !header->failed;
    free(line);
    fclose(h);
    return ok;
}

/* ---- identity ----------------------------------------------------------------------------------- */

bool batch_file_id_of(int dir_fd, const char *path, batch_file_id *id) {
    struct stat st;
    if (fstatat(dir_fd, path, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) return false;
    *id = (batch_file_id){(uint64_t)st.st_ino, (uint64_t)st.st_size,
                          (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec};
    return true;
}

bool batch_file_id_equal(const batch_file_id *a, const batch_file_id *b) {
    return a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns;
}
