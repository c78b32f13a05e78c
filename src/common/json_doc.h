/* unearth internal — a read-only JSON document parsed into one arena (no allocation per value):
 * what pack reads manifest.json with, since a tree of 20,000 entries × 13 keys made of separate
 * heap objects cost more than copying the payloads. */
#ifndef UE_COMMON_JSON_DOC_H
#define UE_COMMON_JSON_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/common.h"

/* Deeper nesting is refused: the parser recurses once per level. */
#define UE_JDOC_MAX_DEPTH 256

typedef enum ue_jv_kind {
    UE_JV_NULL,
    UE_JV_FALSE,
    UE_JV_TRUE,
    UE_JV_INTEGER, /* a number written without fraction or exponent that fits int64 */
    UE_JV_REAL,    /* any other number */
    UE_JV_STRING,
    UE_JV_ARRAY,
    UE_JV_OBJECT,
} ue_jv_kind;

typedef struct ue_jv ue_jv;
struct ue_jv {
    ue_jv_kind kind;
    size_t count;     /* string: bytes (no NUL inside); array: items; object: members */
    union {
        int64_t integer;
        double real;
        const char *string; /* UTF-8, NUL-terminated */
        ue_jv *items;       /* array: count values */
        struct ue_jmember *members; /* object: count members in the document's order */
    } u;
};

typedef struct ue_jmember {
    const char *key; /* UTF-8, NUL-terminated, unique within its object */
    ue_jv value;
} ue_jmember;

/* Where and why a parse failed: byte offset, 1-based line and column (in bytes). */
typedef struct ue_jdoc_error {
    size_t offset, line, column;
    char text[120];
} ue_jdoc_error;

typedef struct ue_jdoc {
    ue_jv root;
    struct ue_jdoc_block *blocks; /* the arena every value, key and string lives in */
    size_t block_size;            /* of the next block */
} ue_jdoc;

/* Parses `size` bytes of JSON (RFC 8259: any value at the top, whitespace around it). Refused
 * with UE_ERR_INVALID and *err filled: bad syntax, strings that are not UTF-8 or hold \u0000,
 * unpaired surrogates, duplicate keys, integers beyond int64 written without fraction, numbers
 * that overflow a double, nesting deeper than UE_JDOC_MAX_DEPTH. Memory is linear in `size`.
 * Free with ue_jdoc_free (also after a failure). */
ue_result ue_jdoc_parse(const char *text, size_t size, ue_jdoc *doc, ue_jdoc_error *err);
void ue_jdoc_free(ue_jdoc *doc);

/* Lookups that accept NULL and values of the wrong kind (they then return NULL/false/0), so
 * chains like ue_jv_string(ue_jv_get(o, "name")) need no checks in between. */
const ue_jv *ue_jv_get(const ue_jv *object, const char *key);
const ue_jv *ue_jv_at(const ue_jv *array, size_t i);
size_t ue_jv_size(const ue_jv *array_or_object);
/* An array's item count; 0 for anything else (an object too). */
size_t ue_jv_items(const ue_jv *array);
const char *ue_jv_string(const ue_jv *v);
bool ue_jv_is(const ue_jv *v, ue_jv_kind kind);
/* An integer or a real; its value as a double (0 for anything else). */
bool ue_jv_is_number(const ue_jv *v);
double ue_jv_number(const ue_jv *v);
/* An integer's value (0 for anything else). */
int64_t ue_jv_integer(const ue_jv *v);
bool ue_jv_is_bool(const ue_jv *v);

/* Every member of an object in document order (none for anything else): m is a const ue_jmember *. */
#define UE_JV_FOR_MEMBERS(object, m)                                                                    \
    for (const ue_jmember *m = ue_jv_is((object), UE_JV_OBJECT) ? (object)->u.members : NULL,           \
                          *m##_end = m ? m + (object)->count : NULL;                                    \
         m != m##_end; m++)

#endif
