/* unearth internal — the project's one JSON writer, streaming and deterministic: keys appear in
 * the order they are written, floats as %.9g (exact for float32), strings escaped to UTF-8 JSON. */
#ifndef UE_COMMON_JSON_WRITER_H
#define UE_COMMON_JSON_WRITER_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_JSON_MAX_DEPTH 64

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
} ue_json;

/* glTF's layout: with an indent, scalars inside arrays stay on one line ("[1, 2, 3]"). */
void ue_json_init(ue_json *j, ue_buf *out, int indent);
/* The layout of manifest.json (and of jansson's JSON_INDENT(2), which wrote the first ones):
 * two spaces a level, every array item on a line of its own, control characters as \u00XX in
 * upper case, DEL as it is. */
void ue_json_init_lines(ue_json *j, ue_buf *out);
void ue_json_object_begin(ue_json *j);
void ue_json_object_end(ue_json *j);
void ue_json_array_begin(ue_json *j);
void ue_json_array_end(ue_json *j);
void ue_json_key(ue_json *j, const char *key);
void ue_json_string(ue_json *j, const char *s);
/* n bytes, NUL bytes included (escaped as \u0000). */
void ue_json_string_n(ue_json *j, const char *s, size_t n);
void ue_json_int(ue_json *j, int64_t v);
void ue_json_uint(ue_json *j, uint64_t v);
/* %.9g; NaN and ±Inf are refused (they have no JSON form) and set `error`. */
void ue_json_float(ue_json *j, double v);
/* A real as jansson printed it (the statistics and PKX metadata were first written with it, and
 * the CLI's output stays byte-identical): %.17g, ".0" after an integral value, the exponent
 * without '+' or leading zeros ("1e20", "1e-5"), -0 as "-0.0". NaN and ±Inf set `error`. */
void ue_json_real(ue_json *j, double v);
void ue_json_bool(ue_json *j, bool v);
void ue_json_null(ue_json *j);
/* True when NUL-terminated `s` is UTF-8 (strict decoding, as the reader's): text that is not
 * has no JSON string. */
bool ue_json_is_utf8(const char *s);
/* Key and value in one call. A string that is not UTF-8 is left out with its key (the
 * manifests' rule since jansson, which refused such text; a path still gives what it gave). */
void ue_json_key_string(ue_json *j, const char *key, const char *s);
/* ue_json_key_string, or the key with null when `s` is NULL. */
void ue_json_key_string_or_null(ue_json *j, const char *key, const char *s);
void ue_json_key_int(ue_json *j, const char *key, int64_t v);
/* Key and ue_json_real; a NaN or infinity is left out with its key (jansson's rule too). */
void ue_json_key_real(ue_json *j, const char *key, double v);
void ue_json_key_bool(ue_json *j, const char *key, bool v);
/* A value read by the reader (common/json_doc.h) written again: members in their order,
 * integers as integers, reals as ue_json_real (so text jansson or this writer made comes back
 * the same). NULL writes nothing. */
struct ue_jv;
void ue_json_value(ue_json *j, const struct ue_jv *v);
/* True after a misuse or when the buffer could not grow. */
bool ue_json_failed(const ue_json *j);
/* UE_OK when exactly one complete value was written and the buffer did not fail;
 * UE_ERR_NOMEM on a buffer failure, UE_ERR_USAGE on misuse (with the reason in *d). */
ue_result ue_json_finish(ue_json *j, ue_diag *d);

/* Formats a finite number as %.9g with '.' as the decimal point whatever the C locale, and
 * -0 as 0. Returns the length written (< 32), or 0 for NaN/Inf. Shared by the OBJ writer. */
size_t ue_format_float(double v, char out[32]);
/* ue_json_real's spelling; returns the length (< 40), or 0 for NaN/Inf. */
size_t ue_format_real17(double v, char out[40]);

#ifdef __cplusplus
}
#endif
#endif
