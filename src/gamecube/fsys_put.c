/* unearth — ue_archive_put for FSYS: entries replaced where they are (LZSS again when they were
 * compressed), the archive written by the canonical writer as `pack` writes a changed manifest. */
#include <stdlib.h>
#include <string.h>

#include "gamecube/fsys_int.h"
#include "common/io.h"
#include "unearth/advanced/buffers.h"
#include "unearth/lzss.h"

/* What the writer needs of one parsed entry, with the buffers it owns. */
typedef struct put_entry {
    ue_fsys_write_entry w;
    uint8_t *stored;
    uint8_t record[0x70];
    char short_name[256], full_name[256];
} put_entry;

/* Raw name bytes as a C string; false when the entry has no such name. */
static bool name_text(const fsys_state *s, size_t i, bool full, char out[256]) {
    uint8_t raw[256];
    size_t n = 0;
    bool has = ue_fsys_raw_name(s, i, full, raw, &n) && n < 256;
    memcpy(out, raw, has ? n : 0);
    out[has ? n : 0] = 0;
    return has;
}

/* Entry i as it stands: its id, type, names, record and stored bytes (re-emitted as they are). */
static ue_result load_entry(fsys_state *s, size_t i, put_entry *pe, ue_diag *d) {
    const fsys_entry *e = &s->e[i];
    size_t n = 0;
    ue_result r = ue_fsys_read_stored(s, i, &pe->stored, &n, d);
    if (r == UE_OK && e->rec_len <= sizeof pe->record)
        r = ue_source_read(&s->src, e->rec_off, pe->record, e->rec_len);
    if (r != UE_OK) return r;
    name_text(s, i, false, pe->short_name); /* a nameless entry stays nameless, as pack keeps it */
    bool has_full = name_text(s, i, true, pe->full_name);
    pe->w = (ue_fsys_write_entry){
        .short_name = pe->short_name,
        .full_name = has_full ? pe->full_name : NULL,
        .type_code = e->type_code,
        .file_id = e->file_id,
        .compressed = e->compressed,
        .stored = pe->stored,
        .stored_size = n,
        .record = pe->record,
        .record_size = e->rec_len,
    };
    if (!e->compressed) pe->w.data = pe->stored, pe->w.size = n;
    return UE_OK;
}

static bool entry_holds(fsys_state *s, size_t i, const uint8_t *data, size_t size) {
    uint8_t *old = NULL;
    size_t n = 0;
    bool same = ue_fsys_read_entry(s, i, &old, &n, NULL) == UE_OK && n == size && (!n || !memcmp(old, data, n));
    free(old);
    return same;
}

/* The new payload of one named entry: compressed by the writer when the entry was. An FSYS
 * entry carries an id and a type code no bytes tell, so a name that is not there is refused. */
static ue_result replace(fsys_state *s, put_entry *pes, const ue_archive_put_entry *e, bool *changed, ue_diag *d) {
    size_t i;
    if (!ue_fsys_find_entry(s, e->name, &i)) {
        ue_diag_add(d, UE_SEV_ERROR, "archive.put.absent", UE_NO_OFFSET, "fsys",
                    "no entry named \"%s\": an FSYS takes a replaced entry, not a new one (its file "
                    "id and type code say where the game looks); add one to an extracted manifest, then pack",
                    e->name);
        return UE_ERR_USAGE;
    }
    if (entry_holds(s, i, e->data, e->size)) return UE_OK;
    *changed = true;
    pes[i].w.data = e->data;
    pes[i].w.size = e->size;
    pes[i].w.stored = NULL;
    pes[i].w.stored_size = 0;
    return UE_OK;
}

static ue_result write_all(const fsys_state *s, const put_entry *pes, ue_buf *out, ue_diag *d) {
    ue_fsys_write_entry *w = ue_calloc_items(s->count, sizeof *w);
    if (!w) return UE_ERR_NOMEM;
    for (size_t i = 0; i < s->count; i++) w[i] = pes[i].w;
    ue_fsys_write_options opt = {
        .version = s->version,
        .group_id = s->group_id,
        .full_names = (s->hflags & 1u) != 0,
        .header = s->header,
        .header_size = s->header_len,
        .level = UE_LZSS_LEVEL_DEFAULT,
    };
    ue_result r = ue_fsys_write(&opt, w, s->count, out, d);
    free(w);
    return r;
}

static ue_result copy_source(const ue_source *src, ue_buf *out) {
    const uint8_t *view = NULL;
    ue_result r = ue_source_view(src, &view);
    if (r != UE_OK) return r;
    ue_buf_put(out, view, (size_t)src->size);
    ue_source_unview(src, view);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

ue_result ue_fsys_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count, ue_buf *out,
                      size_t *added, ue_diag *d) {
    *added = 0;
    fsys_state *s = NULL;
    ue_result r = ue_fsys_parse(src, UE_MODE_STRICT, "fsys", &s, d);
    put_entry *pes = r == UE_OK ? (put_entry *)ue_calloc_items(s->count, sizeof *pes) : NULL;
    if (r == UE_OK && !pes) r = UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < s->count; i++) r = load_entry(s, i, &pes[i], d);
    bool changed = false;
    for (size_t e = 0; r == UE_OK && e < count; e++) r = replace(s, pes, &entries[e], &changed, d);
    /* Nothing changed: the archive byte for byte, its own layout kept. */
    if (r == UE_OK && !changed) r = copy_source(src, out);
    else if (r == UE_OK) r = write_all(s, pes, out, d);
    for (size_t i = 0; pes && i < s->count; i++) free(pes[i].stored);
    free(pes);
    ue_fsys_free(s);
    return r;
}
