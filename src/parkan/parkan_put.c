/* unearth — ue_archive_put for the Parkan containers: entries of an NRes or RsLi archive
 * replaced where they are, or added last, in one rebuild, in the layout the engine's own writer gives (docs/formats/nres.md#data-region). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "parkan/parkan_put.h"
#include "unearth/msh.h"
#include "unearth/nres.h"
#include "unearth/parkan_material.h"
#include "unearth/rsli.h"
#include "unearth/texm.h"
#include "common/bytes.h"

/* The entry name as the archive stores it: UTF-8 → Windows-1251, 1..cap bytes, no NUL. */
static ue_result stored_name(const char *name, const char *format, char *out, size_t cap, ue_diag *d) {
    size_t len = 0;
    ue_diag scratch = {0};
    ue_result r = ue_cp1251_name_parse(name, (uint8_t *)out, cap, &len, format, &scratch);
    bool text = r == UE_OK && len > 0 && memchr(out, 0, len) == NULL;
    if (!text) {
        ue_diag_add(d, UE_SEV_ERROR, "archive.put.name", UE_NO_OFFSET, format,
                    "entry name '%s' is not Windows-1251 text of 1 to %zu bytes (%s)%s%s", name, cap,
                    !strcmp(format, "rsli") ? "an RsLi name" : "an NRes name",
                    scratch.count ? ": " : "", scratch.count ? scratch.items[0].message : "");
        ue_diag_free(&scratch);
        return UE_ERR_USAGE;
    }
    out[len] = 0;
    return UE_OK;
}

/* The NRes type the game's archives give an entry holding these bytes (objects.rlb keeps its
 * models as 'MESH', Textures.lib its textures as 'Texm'); 0 when the bytes say nothing. */
static uint32_t nres_type_of(const uint8_t *data, size_t size) {
    if (ue_msh_probe(data, size)) return UE_MSH_ENTRY_TYPE;
    if (size >= 4 && ue_load_u32le(data) == UE_TEXM_MAGIC) return UE_TEXM_MAGIC;
    return 0;
}

static bool same_bytes(const uint8_t *a, size_t a_size, const uint8_t *b, size_t b_size) {
    return a_size == b_size && (a_size == 0 || !memcmp(a, b, a_size));
}

/* Entry i of `n` already holds exactly `data`. */
static bool nres_unchanged(const ue_nres *n, size_t i, const uint8_t *data, size_t size) {
    const uint8_t *old;
    uint8_t *to_free = NULL;
    bool same = !n->entries[i].damaged && ue_nres_payload(n, i, &old, &to_free, NULL) == UE_OK &&
                same_bytes(old, n->entries[i].size, data, size);
    free(to_free);
    return same;
}

/* What bytes of the kind nres_type_of tells are, for messages. */
static const char *kind_text(uint32_t kind) {
    if (kind == UE_MSH_ENTRY_TYPE) return "a Parkan model";
    if (kind == UE_TEXM_MAGIC) return "a Texm texture";
    return "bytes that are neither a Parkan model nor a Texm texture";
}

/* The types validate checks (nres_archive.c's typed entries) and what each must hold: bytes of
 * kind `kind` (nres_type_of) can go into an entry of type `type` unless they certainly are not
 * what the type says; NULL when they can. */
static const char *type_refuses(uint32_t type, uint32_t kind, const uint8_t *data, size_t size) {
    switch (type) {
    case UE_MSH_ENTRY_TYPE: return kind == type ? NULL : "a model";
    case UE_TEXM_MAGIC: return kind == type ? NULL : "a Texm texture";
    case UE_WEAR_TYPE: return kind ? "a WEAR table" : NULL;
    case UE_MAT0_TYPE: return kind ? "a MAT0 material" : NULL;
    case UE_NRES_ENTRY_TYPE: return size >= 4 && !memcmp(data, "NRes", 4) ? NULL : "an NRes archive";
    default: return NULL;
    }
}

/* A replaced entry keeps its type: bytes that are not what the type says are the caller's
 * mistake (a usage error), not damage of the archive. */
static ue_result check_entry_type(const ue_nres_entry *e, const char *name, const uint8_t *data,
                                  size_t size, ue_diag *d) {
    uint32_t kind = nres_type_of(data, size);
    const char *holds = type_refuses(e->type_id, kind, data, size);
    if (!holds) return UE_OK;
    char type[5];
    for (int k = 0; k < 4; k++) type[k] = (char)(e->type_id >> (8 * k));
    type[4] = 0;
    ue_diag_add(d, UE_SEV_ERROR, "archive.put.entry_type", UE_NO_OFFSET, "nres",
                "entry '%s' is typed %s (%s), and what is put is %s; put it into an entry of its "
                "kind or under a new name", name, type, holds, kind_text(kind));
    return UE_ERR_USAGE;
}

static ue_result nres_put_parsed(ue_nres *n, const char *name, const uint8_t *data, size_t size,
                                 bool *added, ue_diag *d) {
    /* Its tables reference each other by type: the MSH editing API keeps them consistent. */
    if (ue_msh_is_model(n)) {
        ue_diag_add(d, UE_SEV_ERROR, "archive.put.model", UE_NO_OFFSET, "nres",
                    "the archive is a Parkan MSH model, not an archive of models");
        return UE_ERR_USAGE;
    }
    size_t i;
    if (ue_nres_find(n, name, &i)) {
        if (nres_unchanged(n, i, data, size)) return UE_OK;
        ue_result r = check_entry_type(&n->entries[i], name, data, size, d);
        if (r != UE_OK) return r;
        /* A changed archive is written in directory order (docs/formats/nres.md#data-region), whatever its sizes. */
        n->layout_dirty = true;
        return ue_nres_replace(n, i, data, size);
    }
    uint32_t type = nres_type_of(data, size);
    if (!type) {
        ue_diag_add(d, UE_SEV_ERROR, "archive.put.type", UE_NO_OFFSET, "nres",
                    "cannot tell which NRes type a new entry '%s' takes: its bytes are neither a "
                    "Parkan model nor a Texm texture; add it to an extracted manifest, then pack", name);
        return UE_ERR_UNSUPPORTED;
    }
    *added = true;
    return ue_nres_add(n, type, 0, 0, 0, name, data, size);
}

ue_result ue_parkan_nres_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count,
                             ue_buf *out, size_t *added, ue_diag *d) {
    ue_nres n;
    ue_result r = ue_nres_parse(src, UE_MODE_STRICT, &n, d);
    for (size_t e = 0; r == UE_OK && e < count; e++) {
        char stored[UE_NRES_NAME_SIZE];
        bool one_added = false;
        r = stored_name(entries[e].name, "nres", stored, UE_NRES_NAME_SIZE - 1, d);
        if (r == UE_OK) r = nres_put_parsed(&n, stored, entries[e].data, entries[e].size, &one_added, d);
        *added += one_added;
    }
    if (r == UE_OK) r = ue_nres_write(&n, UE_NRES_LOSSLESS, out, d);
    ue_nres_free(&n);
    return r;
}

static bool rsli_unchanged(const ue_rsli *l, size_t i, const uint8_t *data, size_t size) {
    uint8_t *old = NULL;
    size_t old_size = 0;
    bool same = ue_rsli_read(l, i, &old, &old_size, NULL) == UE_OK && same_bytes(old, old_size, data, size);
    free(old);
    return same;
}

/* The rebuilt RsLi (table order, back to back) has no place for bytes outside every entry:
 * refused when any of them is not zero, rather than dropped. */
static ue_result rsli_check_unindexed(const ue_rsli *l, ue_diag *d) {
    for (size_t g = 0; g < l->gap_count; g++)
        for (size_t k = 0; k < l->gaps[g].size; k++)
            if (l->gaps[g].bytes[k]) {
                ue_diag_add(d, UE_SEV_ERROR, "archive.put.unindexed", l->gaps[g].offset, "rsli",
                            "%zu bytes outside every entry hold non-zero data; rewriting the "
                            "library would drop them, so it is not rewritten", l->gaps[g].size);
                return UE_ERR_UNSUPPORTED;
            }
    return UE_OK;
}

/* One entry into the parsed library: replaced where it is, or added (upper case) last. */
static ue_result rsli_put_parsed(ue_rsli *l, const ue_archive_put_entry *e, size_t *added, ue_diag *d) {
    char stored[UE_RSLI_NAME_SIZE + 1];
    ue_result r = stored_name(e->name, "rsli", stored, UE_RSLI_NAME_SIZE, d);
    size_t i;
    bool found = r == UE_OK && ue_rsli_find(l, stored, &i);
    if (r != UE_OK || (found && rsli_unchanged(l, i, e->data, e->size))) return r;
    if ((r = rsli_check_unindexed(l, d)) != UE_OK) return r;
    if (found) return ue_rsli_replace(l, i, e->data, e->size, d);
    /* The engine looks names up in upper case (rsFind), so that is how they are stored. */
    for (char *c = stored; *c; c++)
        if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 'a' + 'A');
    (*added)++;
    return ue_rsli_add(l, stored, UE_RSLI_STORED, e->data, e->size, d);
}

ue_result ue_parkan_rsli_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count,
                             ue_buf *out, size_t *added, ue_diag *d) {
    ue_rsli l;
    ue_result r = ue_rsli_parse(src, UE_MODE_STRICT, NULL, &l, d);
    for (size_t e = 0; r == UE_OK && e < count; e++) r = rsli_put_parsed(&l, &entries[e], added, d);
    if (r == UE_OK) r = ue_rsli_write(&l, out, d);
    ue_rsli_free(&l);
    return r;
}
