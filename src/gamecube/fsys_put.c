/* unearth — ue_archive_put for FSYS: entries replaced where they are (LZSS again when they were
 * compressed), and ue_fsys_add: a new entry last; the archive written by the canonical writer as
 * `pack` writes a changed manifest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamecube/fsys_int.h"
#include "common/io.h"
#include "unearth/advanced/buffers.h"
#include "unearth/advanced/text.h"
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
                    "no entry named \"%s\": an FSYS takes a replaced entry here, not a new one (its file "
                    "id and type code say where the game looks); ue_fsys_add (import --add) adds one, or add it "
                    "to an extracted manifest, then pack",
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

/* The archive of `count` entries (its own, or one more added last) by the canonical writer. */
static ue_result write_all(const fsys_state *s, const put_entry *pes, size_t count, ue_buf *out, ue_diag *d) {
    ue_fsys_write_entry *w = ue_calloc_items(count, sizeof *w);
    if (!w) return UE_ERR_NOMEM;
    for (size_t i = 0; i < count; i++) w[i] = pes[i].w;
    ue_fsys_write_options opt = {
        .version = s->version,
        .group_id = s->group_id,
        .full_names = (s->hflags & 1u) != 0,
        .header = s->header,
        .header_size = s->header_len,
        .level = UE_LZSS_LEVEL_DEFAULT,
    };
    ue_result r = ue_fsys_write(&opt, w, count, out, d);
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

/* The archive parsed strictly and each entry loaded, with room for `extra` more after them. */
static ue_result load_all(const ue_source *src, size_t extra, fsys_state **s, put_entry **pes, ue_diag *d) {
    *pes = NULL;
    ue_result r = ue_fsys_parse(src, UE_MODE_STRICT, "fsys", s, d);
    if (r == UE_OK) *pes = ue_calloc_items((*s)->count + extra, sizeof **pes);
    if (r == UE_OK && !*pes) r = UE_ERR_NOMEM;
    for (size_t i = 0; r == UE_OK && i < (*s)->count; i++) r = load_entry(*s, i, &(*pes)[i], d);
    return r;
}

static void free_all(fsys_state *s, put_entry *pes) {
    for (size_t i = 0; pes && i < s->count; i++) free(pes[i].stored);
    free(pes);
    ue_fsys_free(s);
}

ue_result ue_fsys_put(const ue_source *src, const ue_archive_put_entry *entries, size_t count, ue_buf *out,
                      size_t *added, ue_diag *d) {
    *added = 0;
    fsys_state *s = NULL;
    put_entry *pes = NULL;
    ue_result r = load_all(src, 0, &s, &pes, d);
    bool changed = false;
    for (size_t e = 0; r == UE_OK && e < count; e++) r = replace(s, pes, &entries[e], &changed, d);
    /* Nothing changed: the archive byte for byte, its own layout kept. */
    if (r == UE_OK && !changed) r = copy_source(src, out);
    else if (r == UE_OK) r = write_all(s, pes, s->count, out, d);
    free_all(s, pes);
    return r;
}

/* ---- a new entry (docs/formats/fsys.md#adding-an-entry) ------------------------------------- */

#define FSYS_TYPE_RDAT 0x02u
#define FSYS_TYPE_DAT 0x04u
#define FSYS_TYPE_PKX 0x1Eu

static ue_result add_refused(ue_diag *d, const char *code, const char *name, const char *fmt, const char *detail) {
    char shown[256 * 4 + 1];
    ue_text_printable(name, shown, sizeof shown);
    ue_diag_add(d, UE_SEV_ERROR, code, UE_NO_OFFSET, "fsys", fmt, shown, detail);
    return UE_ERR_USAGE;
}

/* A name the archive can store and `list` shows back: printable ASCII, no path or address
 * separator, 1 to 255 bytes, an extension, and no entry (full or short name) of it already. */
static ue_result check_new_name(const fsys_state *s, const char *name, ue_diag *d) {
    size_t n = strlen(name);
    bool text = n > 0 && n <= 255;
    for (size_t i = 0; text && i < n; i++)
        text = name[i] > 0x20 && name[i] < 0x7F && !strchr("/\\:", name[i]);
    if (!text)
        return add_refused(d, "archive.add.name", name, "\"%s\" is no FSYS entry name%s", ": printable ASCII "
                           "without spaces, '/', '\\' or ':', 1 to 255 bytes");
    const char *dot = strrchr(name, '.');
    char stem[256];
    snprintf(stem, sizeof stem, "%.*s", dot ? (int)(dot - name) : (int)n, name);
    size_t at;
    if (ue_fsys_find_entry(s, name, &at) || ue_fsys_find_entry(s, stem, &at))
        return add_refused(d, "archive.add.exists", name, "\"%s\" is taken: an entry has that name, or that "
                           "short name (the name without its extension)%s", "; leave --add out to replace it");
    return UE_OK;
}

/* The type code the extension says (.pkx), or for .dat the code the archive's DAT entries share
 * (dat or rdat; dat, the character model, when it has none). */
static ue_result new_type(const fsys_state *s, const char *name, uint8_t *code, ue_diag *d) {
    if (ue_name_has_ext(name, ".pkx")) return *code = FSYS_TYPE_PKX, UE_OK;
    if (!ue_name_has_ext(name, ".dat"))
        return add_refused(d, "archive.add.type", name, "\"%s\": a new FSYS entry is a .pkx or a .dat%s",
                           " (its type code says what the game loads; no other extension names one)");
    bool dat = false, rdat = false;
    for (size_t i = 0; i < s->count; i++)
        dat |= s->e[i].type_code == FSYS_TYPE_DAT, rdat |= s->e[i].type_code == FSYS_TYPE_RDAT;
    if (dat && rdat)
        return add_refused(d, "archive.add.type", name, "\"%s\": the archive holds both dat (0x04) and rdat "
                           "(0x02) entries, so the type of a new .dat is not known%s", "");
    *code = rdat ? FSYS_TYPE_RDAT : FSYS_TYPE_DAT;
    return UE_OK;
}

/* One past the largest file id, within the high byte (the group) that id has. */
static ue_result new_id(const fsys_state *s, const char *name, uint16_t *id, ue_diag *d) {
    if (!s->count)
        return add_refused(d, "archive.add.id", name, "\"%s\": the archive has no entry whose file id "
                           "tells the group a new one belongs to%s", "");
    uint16_t largest = 0;
    for (size_t i = 0; i < s->count; i++)
        if (s->e[i].file_id > largest) largest = s->e[i].file_id;
    char detail[96];
    snprintf(detail, sizeof detail, " (the largest id is 0x%04X; the next, 0x%04X, leaves group 0x%02X)", largest,
             (largest + 1u) & 0xFFFFu, largest >> 8);
    if ((largest & 0xFFu) == 0xFFu)
        return add_refused(d, "archive.add.id", name, "\"%s\": no file id is left in the archive's group%s",
                           detail);
    *id = (uint16_t)(largest + 1u);
    return UE_OK;
}

/* Compressed like the entries of its type, when there are some and all of them are. */
static bool siblings_compressed(const fsys_state *s, uint8_t code) {
    size_t same = 0, compressed = 0;
    for (size_t i = 0; i < s->count; i++)
        if (s->e[i].type_code == code) same++, compressed += s->e[i].compressed;
    return same && compressed == same;
}

ue_result ue_fsys_add(const uint8_t *fsys, size_t n, const char *name, const void *data, size_t size,
                      ue_buf *out, ue_fsys_added *added, ue_diag *d) {
    if (!fsys || !name || (!data && size) || !out) return UE_ERR_USAGE;
    ue_source src = ue_source_memory(fsys, n);
    fsys_state *s = NULL;
    put_entry *pes = NULL;
    ue_result r = load_all(&src, 1, &s, &pes, d);
    ue_fsys_added info = {0};
    if (r == UE_OK) r = check_new_name(s, name, d);
    if (r == UE_OK) r = new_type(s, name, &info.type_code, d);
    if (r == UE_OK) r = new_id(s, name, &info.file_id, d);
    if (r == UE_OK) {
        info.compressed = siblings_compressed(s, info.type_code);
        put_entry *e = &pes[s->count];
        const char *dot = strrchr(name, '.');
        snprintf(e->short_name, sizeof e->short_name, "%.*s", (int)(dot - name), name);
        snprintf(e->full_name, sizeof e->full_name, "%s", name);
        e->w = (ue_fsys_write_entry){.short_name = e->short_name, .full_name = e->full_name,
                                     .type_code = info.type_code, .file_id = info.file_id,
                                     .compressed = info.compressed, .data = data, .size = size};
        size_t base = out->size;
        r = write_all(s, pes, s->count + 1, out, d);
        if (r != UE_OK) out->size = base;
    }
    if (r == UE_OK && added) *added = info;
    free_all(s, pes);
    return r;
}
