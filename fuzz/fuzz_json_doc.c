/* libFuzzer target: the arena JSON document reader (manifest.json for pack, glTF) and the
 * writer: accepted documents hold what JSON allows, and written back they parse to the same. */
#include <stdlib.h>
#include <string.h>

#include "common/json_writer.h"
#include "common/json_doc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Invariants of an accepted value; false when it holds a real or null (no writer form). */
static bool check(const ue_jv *v, bool *writable) {
    switch (v->kind) {
    case UE_JV_STRING:
        if (strlen(v->u.string) != v->count) abort(); /* no NUL inside a string */
        return true;
    case UE_JV_ARRAY:
        for (size_t i = 0; i < v->count; i++) check(&v->u.items[i], writable);
        return true;
    case UE_JV_OBJECT:
        for (size_t i = 0; i < v->count; i++) {
            const ue_jmember *m = &v->u.members[i];
            if (ue_jv_get(v, m->key) != &m->value) abort(); /* keys are unique */
            check(&m->value, writable);
        }
        return true;
    case UE_JV_REAL:
    case UE_JV_NULL: *writable = false; return true;
    default: return true;
    }
}

static void write_value(ue_json *w, const ue_jv *v) {
    switch (v->kind) {
    case UE_JV_STRING: ue_json_string(w, v->u.string); break;
    case UE_JV_INTEGER: ue_json_int(w, v->u.integer); break;
    case UE_JV_TRUE:
    case UE_JV_FALSE: ue_json_bool(w, v->kind == UE_JV_TRUE); break;
    case UE_JV_ARRAY:
        ue_json_array_begin(w);
        for (size_t i = 0; i < v->count; i++) write_value(w, &v->u.items[i]);
        ue_json_array_end(w);
        break;
    case UE_JV_OBJECT:
        ue_json_object_begin(w);
        for (size_t i = 0; i < v->count; i++) {
            ue_json_key(w, v->u.members[i].key);
            write_value(w, &v->u.members[i].value);
        }
        ue_json_object_end(w);
        break;
    default: break;
    }
}

static bool same(const ue_jv *a, const ue_jv *b) {
    if (a->kind != b->kind || a->count != b->count) return false;
    switch (a->kind) {
    case UE_JV_STRING: return memcmp(a->u.string, b->u.string, a->count) == 0;
    case UE_JV_INTEGER: return a->u.integer == b->u.integer;
    case UE_JV_ARRAY:
        for (size_t i = 0; i < a->count; i++)
            if (!same(&a->u.items[i], &b->u.items[i])) return false;
        return true;
    case UE_JV_OBJECT:
        for (size_t i = 0; i < a->count; i++)
            if (strcmp(a->u.members[i].key, b->u.members[i].key) ||
                !same(&a->u.members[i].value, &b->u.members[i].value))
                return false;
        return true;
    default: return true;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ue_jdoc doc;
    ue_jdoc_error err;
    if (ue_jdoc_parse((const char *)data, size, &doc, &err) != UE_OK) {
        if (err.offset > size || !err.text[0]) abort(); /* a refusal says where and why */
        ue_jdoc_free(&doc);
        return 0;
    }
    bool writable = true;
    check(&doc.root, &writable);
    if (writable && doc.root.kind >= UE_JV_ARRAY) {
        /* The writer nests at most UE_JSON_MAX_DEPTH levels; deeper documents fail it cleanly. */
        ue_buf text = {0};
        ue_json w;
        ue_json_init_lines(&w, &text);
        write_value(&w, &doc.root);
        if (!ue_json_failed(&w)) {
            ue_jdoc again;
            if (ue_jdoc_parse((const char *)text.data, text.size, &again, NULL) != UE_OK ||
                !same(&doc.root, &again.root))
                abort();
            ue_jdoc_free(&again);
        }
        ue_buf_free(&text);
    }
    ue_jdoc_free(&doc);
    return 0;
}
