/* unearth CLI — a container's info for people (`info` without --json), made from the calls the
 * library's JSON writer makes for `info --json`, received as events: no JSON text, no parse. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "unearth/advanced/archive.h"
#include "unearth/advanced/buffers.h"

/* What a value open in the event stream is shown as: nothing yet (the bottom of the stack), the
 * info object, its "header", a list (a header's list of objects is a table, a record a line),
 * a record of a table, an object shown by its values, or something not shown at all. */
typedef enum shown_as { AS_NOTHING, AS_INFO, AS_HEADER, AS_LIST, AS_RECORD, AS_VALUES, AS_HIDDEN } shown_as;

typedef struct shown {
    shown_as as;
    ue_buf key;      /* the member being written, NUL-terminated */
    ue_buf text;     /* list: its items; record: its first line; values: the values */
    ue_buf more;     /* list: the keys of its first record; record: its long lists, a line each */
    size_t items;    /* list: items shown; record: fields on its first line; values: values */
    bool started;    /* list: its first item came */
    bool records;    /* list: its first item is an object */
    bool table;      /* list: a header field of records, shown one record a line */
    bool keys_above; /* values: a list's first record, whose keys head the list */
} shown;

typedef struct info_text {
    shown stack[UE_JSON_MAX_DEPTH + 1];
    int depth;
    ue_buf header;      /* the header's lines */
    ue_buf description; /* NUL-terminated */
    long long size;
} info_text;

static void put_text(ue_buf *b, const char *s) { ue_buf_put(b, s, strlen(s)); }

/* A scalar as text: a string as it is, numbers as numbers, null as "-". */
static void scalar_text(const ue_json_event *e, ue_buf *out) {
    switch (e->kind) {
    case UE_JSON_STRING: ue_buf_put(out, e->text, e->size); break;
    case UE_JSON_INT: ue_buf_printf(out, "%lld", (long long)e->v.integer); break;
    case UE_JSON_UINT: ue_buf_printf(out, "%llu", (unsigned long long)e->v.uinteger); break;
    case UE_JSON_FLOAT:
    case UE_JSON_REAL: ue_buf_printf(out, "%g", e->v.real); break;
    case UE_JSON_BOOL: put_text(out, e->v.boolean ? "true" : "false"); break;
    default: put_text(out, "-"); break;
    }
}

/* The text of a value of `s` (its current member or item) put where `s` shows it: a header
 * field on a line of its own, a list's item after a space (", " between records), a record's
 * field on its first line, or below it when `own_line` (a list longer than 4 or of records). */
static void place(info_text *t, shown *s, const void *v, size_t n, bool own_line) {
    const char *key = (const char *)s->key.data;
    switch (s->as) {
    case AS_HEADER:
        ue_buf_printf(&t->header, "  %-20s ", key);
        ue_buf_put(&t->header, v, n);
        put_text(&t->header, "\n");
        return;
    case AS_LIST:
        put_text(&s->text, s->records ? (s->items ? ", " : " ") : (s->items ? " " : ""));
        ue_buf_put(&s->text, v, n);
        s->items++;
        return;
    case AS_VALUES:
        put_text(&s->text, s->items++ ? " " : "");
        ue_buf_put(&s->text, v, n);
        return;
    case AS_RECORD: {
        ue_buf *to = own_line ? &s->more : &s->text;
        put_text(to, own_line ? "        " : s->items++ ? ", " : " ");
        put_text(to, key);
        put_text(to, " ");
        ue_buf_put(to, v, n);
        if (own_line) put_text(to, "\n");
        return;
    }
    default: return;
    }
}

static shown *open_value(info_text *t, shown_as as) {
    shown *s = &t->stack[++t->depth];
    s->as = as;
    s->key.size = s->text.size = s->more.size = s->items = 0;
    s->started = s->records = s->table = s->keys_above = false;
    return s;
}

/* A list's first item sets how it is shown: a header field whose first item is an object is a
 * table; an item of a table that is no object is only its index. True when the item is done. */
static bool list_item(info_text *t, shown *list, bool object) {
    if (!list->started) {
        list->started = true;
        list->records = object;
        list->table = object && t->stack[t->depth - 1].as == AS_HEADER;
    }
    if (!list->table || object) return false;
    ue_buf_printf(&list->text, "    [%zu]\n", list->items++);
    return true;
}

/* An object or array begins as the value of the innermost open one. */
static void value_begins(info_text *t, bool object) {
    shown *s = &t->stack[t->depth];
    if (s->as == AS_NOTHING) {
        open_value(t, object ? AS_INFO : AS_HIDDEN);
    } else if (s->as == AS_INFO) {
        open_value(t, object && !strcmp((const char *)s->key.data, "header") ? AS_HEADER : AS_HIDDEN);
    } else if (s->as == AS_LIST) {
        if (list_item(t, s, object)) open_value(t, AS_HIDDEN);
        else if (s->table) open_value(t, AS_RECORD);
        else open_value(t, object ? AS_VALUES : AS_LIST)->keys_above = object && s->records && !s->items;
    } else if (s->as == AS_HIDDEN) {
        open_value(t, AS_HIDDEN);
    } else if (object) { /* an object inside a header, record or values is shown as "-" */
        place(t, s, "-", 1, false);
        open_value(t, AS_HIDDEN);
    } else {
        open_value(t, AS_LIST);
    }
}

/* The innermost open value is complete: its text goes into the value it is part of. */
static void value_ends(info_text *t) {
    shown *done = &t->stack[t->depth--], *in = &t->stack[t->depth];
    if (done->as == AS_RECORD) {
        ue_buf_printf(&in->text, "    [%zu]", in->items++);
        ue_buf_put(&in->text, done->text.data, done->text.size);
        put_text(&in->text, "\n");
        ue_buf_put(&in->text, done->more.data, done->more.size);
    } else if (done->as == AS_VALUES) {
        place(t, in, done->text.data, done->text.size, false);
    } else if (done->as == AS_LIST && done->table) {
        ue_buf_printf(&t->header, "  %s (%zu)\n", (const char *)in->key.data, done->items);
        ue_buf_put(&t->header, done->text.data, done->text.size);
    } else if (done->as == AS_LIST) {
        ue_buf v = {0};
        if (done->records) { /* "(motion_type anim_index) 2 0, 0 0" */
            put_text(&v, "(");
            ue_buf_put(&v, done->more.data, done->more.size);
            put_text(&v, ")");
        }
        if (!done->items) put_text(&v, "none");
        ue_buf_put(&v, done->text.data, done->text.size);
        place(t, in, v.data, v.size, done->items > 4 || done->records);
        ue_buf_free(&v);
    }
}

static void member_key(info_text *t, shown *s, const ue_json_event *e) {
    s->key.size = 0;
    ue_buf_put(&s->key, e->text, e->size + 1);
    if (s->as != AS_VALUES || !s->keys_above) return;
    shown *list = &t->stack[t->depth - 1];
    put_text(&list->more, list->more.size ? " " : "");
    put_text(&list->more, e->text);
}

static void scalar(info_text *t, shown *s, const ue_json_event *e) {
    const char *key = s->key.size ? (const char *)s->key.data : "";
    if (s->as == AS_INFO && e->kind == UE_JSON_STRING && !strcmp(key, "description")) {
        ue_buf_put(&t->description, e->text, e->size);
    } else if (s->as == AS_INFO && e->kind == UE_JSON_INT && !strcmp(key, "size")) {
        t->size = (long long)e->v.integer;
    } else if (s->as != AS_LIST || !list_item(t, s, false)) {
        ue_buf v = {0};
        scalar_text(e, &v);
        place(t, s, v.data, v.size, false);
        ue_buf_free(&v);
    }
}

static void info_event(void *ctx, const ue_json_event *e) {
    info_text *t = ctx;
    shown *s = &t->stack[t->depth];
    switch (e->kind) {
    case UE_JSON_OBJECT_BEGIN:
    case UE_JSON_ARRAY_BEGIN: value_begins(t, e->kind == UE_JSON_OBJECT_BEGIN); break;
    case UE_JSON_OBJECT_END:
    case UE_JSON_ARRAY_END: value_ends(t); break;
    case UE_JSON_KEY: member_key(t, s, e); break;
    default: scalar(t, s, e); break;
    }
}

static bool info_text_free(info_text *t) {
    bool failed = t->header.failed || t->description.failed;
    for (size_t i = 0; i < sizeof t->stack / sizeof t->stack[0]; i++) {
        shown *s = &t->stack[i];
        failed |= s->key.failed || s->text.failed || s->more.failed;
        ue_buf_free(&s->key);
        ue_buf_free(&s->text);
        ue_buf_free(&s->more);
    }
    ue_buf_free(&t->header);
    ue_buf_free(&t->description);
    return !failed;
}

ue_result cli_archive_info_text(const ue_archive *a, const char *path, ue_buf *out) {
    info_text t;
    memset(&t, 0, sizeof t);
    ue_json w;
    ue_json_init_sink(&w, info_event, &t);
    ue_archive_write_info(a, &w);
    ue_result r = ue_json_finish(&w, NULL);
    size_t entries = ue_archive_count(a);
    ue_buf_put_u8(&t.description, 0);
    put_text(out, path);
    put_text(out, ": ");
    put_text(out, (const char *)t.description.data);
    ue_buf_printf(out, ", %lld bytes, %zu %s\n", t.size, entries, cli_plural(entries, "entry", "entries"));
    ue_buf_put(out, t.header.data, t.header.size);
    if (!info_text_free(&t) && r == UE_OK) r = UE_ERR_NOMEM;
    return r == UE_OK && out->failed ? UE_ERR_NOMEM : r;
}
