/* unearth advanced API — the model walk of the registry as a visit: each model's bytes are lent
 * to a callback (no copy per model) instead of collected, as validate and its verdicts use it. */
#ifndef UNEARTH_ADVANCED_MODEL_WALK_H
#define UNEARTH_ADVANCED_MODEL_WALK_H

#include "unearth/archive.h"
#include "unearth/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One model met by the walk. `data` is lent: read-only, valid only during the visit (it lies
 * in the input's mapping, or in a decoded entry freed after the visit). */
typedef struct ue_model_seen {
    const char *name;              /* "archive.rlb:ROBOT.msh" or the file path, UTF-8 */
    const ue_model_format *format;
    const uint8_t *data;
    size_t size;
    size_t title_length;           /* as in ue_model_found */
} ue_model_seen;

/* Called once per model, in the order ue_model_collect lists them; anything but UE_OK stops
 * the walk and is returned by it. */
typedef ue_result (*ue_model_visit_fn)(const ue_model_seen *m, void *ctx);

/* Visits every model ue_model_collect would return for `path`, with the same failures and
 * diagnostics. The input is mapped once and stored entries are lent where they lie; a
 * compressed entry is decoded into a buffer that lives for its own visit (and those of the
 * models nested in it), so memory stays at the largest decoded entry per nesting level plus
 * the mapping. */
UE_API ue_result ue_model_walk(const char *path, ue_mode mode, ue_model_visit_fn fn, void *ctx,
                        ue_diag *d);

/* The walk of `a`, a container the caller opened from `name` (with ue_archive_open_mapped,
 * so that its models are lent where they lie) and still owns: the models ue_model_walk would
 * visit for that path, without opening, mapping and parsing the file a second time. */
UE_API ue_result ue_model_walk_archive(ue_archive *a, const char *name, ue_mode mode,
                                ue_model_visit_fn fn, void *ctx, ue_diag *d);

/* ue_archive_validate(a) and the walk of `a` in one pass (docs/architecture.md#one-read-per-
 * input): each entry validation reads is lent to the walk too, so that an input is opened,
 * decoded and parsed once for its verdict and its models. *checked is ue_archive_validate's
 * result, its diagnostics go to `d`; the visits are ue_model_walk_archive's, in its order,
 * and the result is theirs. *walked_all is false when validation stopped before an entry the
 * walk would have read (a limit): the models visited are then not all there are. */
UE_API ue_result ue_model_walk_validated(ue_archive *a, const char *name, ue_mode mode, ue_model_visit_fn fn,
                                  void *ctx, ue_result *checked, bool *walked_all, ue_diag *d);

/* Says that ue_archive_extract of `a`, in strict mode, follows its validation and model walk
 * (the CLI's strict extract): validation then keeps decoded (up to a bound) the entries
 * that hold a container or that the walk reads, for the walk and the extract, and leaves to
 * the extract the LZSS streams of the others, which it decodes anyway and fails on with the
 * same diagnostics, so that each entry is decoded once (docs/gamecube-containers.md). A
 * validation that passes is then not the whole verdict until the extract has passed too. */
UE_API void ue_archive_extract_follows(ue_archive *a);

#ifdef __cplusplus
}
#endif
#endif
