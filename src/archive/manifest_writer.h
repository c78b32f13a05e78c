/* unearth internal — manifest.json written as it is produced, byte for byte what jansson's
 * json_dumps(JSON_INDENT(2) | JSON_PRESERVE_ORDER) printed, without building a tree first. */
#ifndef UE_ARCHIVE_MANIFEST_WRITER_H
#define UE_ARCHIVE_MANIFEST_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "unearth/common.h"

#define UE_MW_MAX_DEPTH 32

/* The caller balances begin/end and writes a key before each object member (the manifests are
 * the project's own fixed shapes, so misuse is a programming error, not input); ue_buf
 * failures are found once, through ue_mw_failed. */
typedef struct ue_mw {
    ue_buf *out;
    int depth;
    bool empty[UE_MW_MAX_DEPTH]; /* per open container: nothing written in it yet */
    bool after_key;              /* a key was written; its value comes next */
} ue_mw;

void ue_mw_init(ue_mw *w, ue_buf *out);
void ue_mw_object_begin(ue_mw *w);
void ue_mw_object_end(ue_mw *w);
void ue_mw_array_begin(ue_mw *w);
void ue_mw_array_end(ue_mw *w);
void ue_mw_key(ue_mw *w, const char *key);
/* UTF-8 text; escaped as jansson does (", \, \b \f \n \r \t, other controls as \u00XX). */
void ue_mw_string(ue_mw *w, const char *s);
void ue_mw_int(ue_mw *w, int64_t v);
void ue_mw_bool(ue_mw *w, bool v);
/* Key and value in one call, the common case; a string that is not UTF-8 is left out with its
 * key, as jansson's tree left it out. */
void ue_mw_key_string(ue_mw *w, const char *key, const char *s);
void ue_mw_key_int(ue_mw *w, const char *key, int64_t v);
/* True when the buffer could not grow (out of memory) or the nesting went beyond the cap. */
bool ue_mw_failed(const ue_mw *w);

#endif
