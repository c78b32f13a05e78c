/* unearth advanced API — the project's one JSON reader (a read-only document parsed into an
 * arena, lookups that accept NULL) and its one writer (streaming into a ue_buf, keys in order,
 * or its calls as events for a function of the caller, or recorded to be made again). */
#ifndef UNEARTH_ADVANCED_JSON_H
#define UNEARTH_ADVANCED_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reader ------------------------------------------------------------------------------ */

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
UE_API ue_result ue_jdoc_parse(const char *text, size_t size, ue_jdoc *doc, ue_jdoc_error *err);
UE_API void ue_jdoc_free(ue_jdoc *doc);

/* Lookups that accept NULL and values of the wrong kind (they then return NULL/false/0), so
 * chains like ue_jv_string(ue_jv_get(o, "name")) need no checks in between. The values are
 * read-only: an object of 16 members or more is looked up through a key index that
 * ue_jdoc_parse lays out behind its members, so only objects of a parsed document, unchanged,
 * may be given to ue_jv_get. */
UE_API const ue_jv *ue_jv_get(const ue_jv *object, const char *key);
UE_API const ue_jv *ue_jv_at(const ue_jv *array, size_t i);
UE_API size_t ue_jv_size(const ue_jv *array_or_object);
/* An array's item count; 0 for anything else (an object too). */
UE_API size_t ue_jv_items(const ue_jv *array);
UE_API const char *ue_jv_string(const ue_jv *v);
UE_API bool ue_jv_is(const ue_jv *v, ue_jv_kind kind);
/* An integer or a real; its value as a double (0 for anything else). */
UE_API bool ue_jv_is_number(const ue_jv *v);
UE_API double ue_jv_number(const ue_jv *v);
/* An integer's value (0 for anything else). */
UE_API int64_t ue_jv_integer(const ue_jv *v);
UE_API bool ue_jv_is_bool(const ue_jv *v);

/* Every member of an object in document order (none for anything else): m is a const ue_jmember *. */
#define UE_JV_FOR_MEMBERS(object, m)                                                                    \
    for (const ue_jmember *m = ue_jv_is((object), UE_JV_OBJECT) ? (object)->u.members : NULL,           \
                          *m##_end = m ? m + (object)->count : NULL;                                    \
         m != m##_end; m++)

/* ---- writer ------------------------------------------------------------------------------ */

#define UE_JSON_MAX_DEPTH 64

/* One call made on a writer, and what receives such calls (ue_json_init_sink, below). */
typedef struct ue_json_event ue_json_event;
typedef void (*ue_json_sink)(void *ctx, const ue_json_event *e);

/* Misuse (a value where a key is due, NaN, unbalanced nesting, depth over the cap) sets
 * `error` and later calls do nothing, so writers check once in ue_json_finish. */
typedef struct ue_json {
    ue_buf *out;
    int indent;                          /* 0 = compact; n = pretty with n spaces per level */
    bool lines;                          /* every array item on its own line (ue_json_init_lines) */
    int depth;
    bool in_object[UE_JSON_MAX_DEPTH];   /* per level: object (true) or array (false) */
    bool has_items[UE_JSON_MAX_DEPTH];   /* per level: a comma is due before the next item */
    bool multiline[UE_JSON_MAX_DEPTH];   /* per level: an array item went on its own line */
    bool key_pending;                    /* a key was written; its value comes next */
    bool done;                           /* the top-level value is complete */
    const char *error;                   /* first misuse, static text; NULL while fine */
    const char *const *skip_keys;        /* ue_json_skip_keys: keys dropped at depth skip_depth */
    int skip_depth;
    bool skipping;                       /* inside a dropped member's value */
    int skip_nest;                       /* containers open inside it */
    ue_json_sink sink;                   /* ue_json_init_sink: the calls go here, not to text */
    void *sink_ctx;
} ue_json;

/* glTF's layout: with an indent, scalars inside arrays stay on one line ("[1, 2, 3]"). */
UE_API void ue_json_init(ue_json *j, ue_buf *out, int indent);
/* The layout of manifest.json (and of jansson's JSON_INDENT(2), which wrote the first ones):
 * two spaces a level, every array item on a line of its own, control characters as \u00XX in
 * upper case, DEL as it is. */
UE_API void ue_json_init_lines(ue_json *j, ue_buf *out);
/* The next object opened drops its members whose key is in the NULL-terminated `keys`, value
 * and all (the CLI's "extra" of `list`: a format's entry fields less the ones every container
 * shares); NULL stops dropping. `keys` must live until then. */
UE_API void ue_json_skip_keys(ue_json *j, const char *const *keys);
UE_API void ue_json_object_begin(ue_json *j);
UE_API void ue_json_object_end(ue_json *j);
UE_API void ue_json_array_begin(ue_json *j);
UE_API void ue_json_array_end(ue_json *j);
UE_API void ue_json_key(ue_json *j, const char *key);
UE_API void ue_json_string(ue_json *j, const char *s);
/* n bytes, NUL bytes included (escaped as \u0000). */
UE_API void ue_json_string_n(ue_json *j, const char *s, size_t n);
UE_API void ue_json_int(ue_json *j, int64_t v);
UE_API void ue_json_uint(ue_json *j, uint64_t v);
/* %.9g; NaN and ±Inf are refused (they have no JSON form) and set `error`. */
UE_API void ue_json_float(ue_json *j, double v);
/* A real as jansson printed it (the statistics and PKX metadata were first written with it, and
 * the CLI's output stays byte-identical): %.17g, ".0" after an integral value, the exponent
 * without '+' or leading zeros ("1e20", "1e-5"), -0 as "-0.0". NaN and ±Inf set `error`. */
UE_API void ue_json_real(ue_json *j, double v);
UE_API void ue_json_bool(ue_json *j, bool v);
UE_API void ue_json_null(ue_json *j);
/* True when NUL-terminated `s` is UTF-8 (strict decoding, as the reader's): text that is not
 * has no JSON string. */
UE_API bool ue_json_is_utf8(const char *s);
/* Key and value in one call. A string that is not UTF-8 is left out with its key (the
 * manifests' rule since jansson, which refused such text; a path still gives what it gave). */
UE_API void ue_json_key_string(ue_json *j, const char *key, const char *s);
/* ue_json_key_string, or the key with null when `s` is NULL. */
UE_API void ue_json_key_string_or_null(ue_json *j, const char *key, const char *s);
UE_API void ue_json_key_int(ue_json *j, const char *key, int64_t v);
/* Key and ue_json_real; a NaN or infinity is left out with its key (jansson's rule too). */
UE_API void ue_json_key_real(ue_json *j, const char *key, double v);
UE_API void ue_json_key_bool(ue_json *j, const char *key, bool v);
/* A value read by the reader (common/json_doc.h) written again: members in their order,
 * integers as integers, reals as ue_json_real (so text jansson or this writer made comes back
 * the same). NULL writes nothing. */
UE_API void ue_json_value(ue_json *j, const ue_jv *v);
/* True after a misuse or when the buffer could not grow. */
UE_API bool ue_json_failed(const ue_json *j);
/* UE_OK when exactly one complete value was written and the buffer did not fail;
 * UE_ERR_NOMEM on a buffer failure, UE_ERR_USAGE on misuse (with the reason in *d). */
UE_API ue_result ue_json_finish(ue_json *j, ue_diag *d);

/* ---- events: the writer's calls without text --------------------------------------------- */

/* One call made on a writer. A writer set up by ue_json_init_sink checks each call as a text
 * writer does (nesting, a key before every member, ue_json_skip_keys) and hands it to a
 * function instead of writing text, so what the library writes can be printed for people, or
 * kept and written later, without JSON text made and parsed again. */
typedef enum ue_json_event_kind {
    UE_JSON_OBJECT_BEGIN,
    UE_JSON_OBJECT_END,
    UE_JSON_ARRAY_BEGIN,
    UE_JSON_ARRAY_END,
    UE_JSON_KEY,    /* text (NUL-terminated), size */
    UE_JSON_STRING, /* text, size: the bytes as given, NUL bytes included */
    UE_JSON_INT,    /* v.integer (ue_json_int) */
    UE_JSON_UINT,   /* v.uinteger (ue_json_uint) */
    UE_JSON_FLOAT,  /* v.real (ue_json_float, written with %.9g) */
    UE_JSON_REAL,   /* v.real (ue_json_real, written as jansson did) */
    UE_JSON_BOOL,   /* v.boolean */
    UE_JSON_NULL,
} ue_json_event_kind;

struct ue_json_event {
    ue_json_event_kind kind;
    const char *text; /* KEY and STRING: lent for the duration of the call */
    size_t size;
    union {
        int64_t integer;
        uint64_t uinteger;
        double real;
        bool boolean;
    } v;
};

/* A writer whose calls go to `sink` (with `ctx`) instead of into a buffer. ue_json_failed and
 * ue_json_finish work as for text, but know nothing of what the sink does with the calls. */
UE_API void ue_json_init_sink(ue_json *j, ue_json_sink sink, void *ctx);
/* Makes on `j` the call `e` stands for. */
UE_API void ue_json_put_event(ue_json *j, const ue_json_event *e);
/* A writer that appends its calls to `calls` (a recording only ue_json_replay reads), for a
 * value whose place in the output comes after the moment it is known: a model's statistics,
 * written by its validate before the verdict they follow. ue_json_finish reports a buffer that
 * could not grow. */
UE_API void ue_json_init_record(ue_json *j, ue_buf *calls);
/* Makes the recorded calls on `w` again, as they were made: the output is that of the calls
 * made on `w` directly. A recording cut short stops where it is cut. */
UE_API void ue_json_replay(const ue_buf *calls, ue_json *w);
/* The members of a recorded object, into the object open in `w` (nothing when `calls` is
 * empty or does not hold an object). */
UE_API void ue_json_replay_members(const ue_buf *calls, ue_json *w);

#ifdef __cplusplus
}
#endif
#endif
