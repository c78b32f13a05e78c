/* unearth advanced API — UTF-8 decoding and copying, safe file-name components, names compared
 * ignoring case, the edit distance of "did you mean", and numbers read with '.' in any locale. */
#ifndef UNEARTH_ADVANCED_TEXT_H
#define UNEARTH_ADVANCED_TEXT_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decodes the UTF-8 character at s (at most n bytes) into *cp and returns its length (1–4),
 * or 0 when the bytes are not well-formed UTF-8 (overlong, surrogate, beyond U+10FFFF, cut). */
UE_API size_t ue_utf8_decode(const char *s, size_t n, uint32_t *cp);
/* The UTF-8 bytes of code point cp (< 0x110000) into seq; their count (1..4). */
UE_API size_t ue_utf8_encode(uint32_t cp, char seq[4]);
/* Copies NUL-terminated text, cutting before a UTF-8 character that would not fit whole.
 * Returns the output length. */
UE_API size_t ue_utf8_copy(const char *in, char *out, size_t out_size);
/* True when `name` ends in `ext` (".dat"), ASCII letters in any case, as the games' Windows
 * file systems compare names; NULL is no match. */
UE_API bool ue_name_has_ext(const char *name, const char *ext);
/* `in` with control bytes (newline included), C1 controls and bytes that are not UTF-8 as \xNN,
 * so that it prints on one line and moves no terminal; cuts before an escape or character that would not fit. Returns the length. */
UE_API size_t ue_text_printable(const char *in, char *out, size_t out_size);
/* A UTF-8 name made safe as one file-name component: letters of every script are kept; '/',
 * '\\', control characters (C0, DEL, C1), the characters Windows forbids (<>:"|?*) and bytes
 * that are not UTF-8 become '_'. A result made only of dots (".", "..") becomes "" so the
 * caller picks a fallback. Never splits a character. Returns the output length. */
UE_API size_t ue_file_name_component(const char *name, char *out, size_t out_size);
/* The key under which two file names meet on a file system that ignores case (Windows, macOS,
 * zip tools): `name` with the capitals of Latin (ASCII, Latin-1, Latin Extended-A), Greek and
 * Cyrillic (every letter of Windows-1251) made small; anything else is copied as it is. Each
 * of those small letters takes as many bytes as its capital, so the key is as long as `name`
 * (cut between characters when out_size is smaller). Returns the output length. */
UE_API size_t ue_file_name_fold(const char *name, char *out, size_t out_size);

/* Edits (insert, delete, substitute, swap two neighbours) that turn a into b, comparing ASCII
 * letters in any case when `fold_case`; `limit` + 1 as soon as more than `limit` edits are
 * certain, and for words over UE_EDIT_MAX_WORD bytes, so a near-miss search stays cheap. */
#define UE_EDIT_MAX_WORD 255
UE_API size_t ue_edit_distance(const char *a, const char *b, bool fold_case, size_t limit);

/* strtod and strtof with '.' as the decimal point whatever LC_NUMERIC says (a host that set a
 * comma locale still reads "1.5" as 1.5); otherwise the full strtod syntax, *end (may be NULL)
 * and errno (ERANGE) exactly as strtod sets them. */
UE_API double ue_parse_double(const char *s, char **end);
UE_API float ue_parse_float(const char *s, char **end);

#ifdef __cplusplus
}
#endif
#endif
