/* unearth — FSYS pack's informational keys: what extract recorded of the archive but pack does
 * not read, compared with the packed result and warned about when edited. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/fsys_int.h"
#include "gamecube/gamecube_int.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "common/bytes.h"
#include "common/io.h"
#include "common/write_pool.h"
#include "common/text.h"

/* ---- informational keys: what extract recorded of the archive, not read by pack ------------ */

/* Header keys pack reads, and those a new layout recomputes (not compared then). */
static const char *const fsys_header_read[] = {"version", "group_id", "full_names", NULL};
static const char *const fsys_header_layout[] = {
    "version", "group_id", "full_names", "record_size", "entry_count", "flags", "offsets_table",
    "data_start", "total_size", "entry_list_offset", "names_offset", "data_offset", "footer_ok",
    NULL};

/* Warns when the integer `key` was edited (differs from `original`, what extract recorded in
 * "record_hex", when the entry has one) and differs from what pack wrote. */
static void check_number_key(const ue_jv *ej, const char *key, const uint32_t *original,
                             uint32_t written, const char *advice, const char *where,
                             const char *entry, ue_diag *d) {
    const ue_jv *v = ue_jv_get(ej, key);
    bool is_int = ue_jv_is(v, UE_JV_INTEGER);
    if (!v || (is_int && (v->u.integer == written || (original && v->u.integer == *original))))
        return;
    char given[128], wrote[32];
    ue_jv_show(v, given, sizeof given);
    snprintf(wrote, sizeof wrote, "%u", written);
    ue_manifest_informational(where, entry, key, given, wrote, advice, d);
}

/* The same for a text key; NULL `written` or `original` stands for "no such key". */
static void check_text_key(const ue_jv *ej, const char *key, bool have_original,
                           const char *original, const char *written, const char *advice,
                           const char *where, const char *entry, ue_diag *d) {
    const ue_jv *v = ue_jv_get(ej, key);
    const char *t = ue_jv_string(v);
    if (!v || (t && written && !strcmp(t, written)) ||
        (have_original && t && original && !strcmp(t, original)))
        return;
    char given[128], wrote[64], shown[60] = "";
    ue_jv_show(v, given, sizeof given);
    if (written) ue_text_printable(written, shown, sizeof shown);
    snprintf(wrote, sizeof wrote, written ? "\"%s\"" : "nothing", shown);
    ue_manifest_informational(where, entry, key, given, wrote, advice, d);
}

static void type_text(uint8_t code, char *out, size_t size) {
    const char *tn = ue_fsys_type_name(code);
    if (tn) snprintf(out, size, "%s", tn);
    else snprintf(out, size, "0x%02X", code);
}

/* Entry i's informational keys against entry i of the packed archive `s`. */
static void check_entry_facts(const ue_jv *ej, const pack_entry *pe, const fsys_state *s, size_t i,
                              bool layout_kept, const char *where, ue_diag *d) {
    const fsys_entry *e = &s->e[i];
    const char *entry = ue_jv_string(ue_jv_get(ej, "name"));
    const uint8_t *rec = pe->record && pe->record_size >= 0x28 ? pe->record : NULL;
    uint32_t orig[5] = {0};
    static const uint8_t at[5] = {0x04, 0x08, 0x0C, 0x14, 0x20};
    for (size_t k = 0; rec && k < 5; k++) orig[k] = ue_load_u32be(rec + at[k]);
    const char *sizes = "pack takes sizes from the payload files";
    const char *place = "pack lays the archive out itself";
    char wrote[32], was[32];
    type_text(e->type_code, wrote, sizeof wrote);
    type_text(rec ? rec[2] : 0, was, sizeof was);
    check_text_key(ej, "type", rec != NULL, was, wrote,
                   "change \"type_code\" instead", where,
                   entry, d);
    check_text_key(ej, "nested", rec != NULL, rec && rec[2] == 0x1E ? "pkx" : NULL,
                   e->type_code == 0x1E ? "pkx" : NULL,
                   "a nested PKX follows from \"type_code\" 30", where, entry, d);
    check_number_key(ej, "type_index", rec ? &orig[4] : NULL, e->type_index,
                     "change \"type_code\" instead (pack writes type_code / 2 when it "
                     "changes, docs/formats/fsys.md#entry-record)",
                     where, entry, d);
    check_number_key(ej, "flags", rec ? &orig[2] : NULL, e->flags,
                     "change \"compressed\" (bit 31) or bytes 12..15 of \"record_hex\" "
                     "instead", where, entry, d);
    check_number_key(ej, "size", rec ? &orig[1] : NULL, e->usize, sizes, where, entry, d);
    check_number_key(ej, "stored_size", rec ? &orig[3] : NULL, e->stored_size, sizes, where, entry,
                     d);
    check_number_key(ej, "data_offset", rec ? &orig[0] : NULL, e->data_off, place, where, entry, d);
    if (layout_kept) /* the record's own place is not in it: only a kept layout tells an edit */
        check_number_key(ej, "record_offset", NULL, e->rec_off, place, where, entry, d);
}

void fsys_check_informational(const ue_jv *manifest, const pack_entry *pes, size_t count,
                              bool layout_kept, const uint8_t *packed, size_t size, ue_diag *d) {
    ue_manifest_check_info(&ue_fsys_ops, packed, size, ue_jv_get(manifest, "header"), "header",
                           layout_kept ? fsys_header_read : fsys_header_layout,
                           "pack writes it from \"version\", \"group_id\", \"full_names\", "
                           "\"header_hex\" and the entries", d);
    fsys_state *s = NULL;
    ue_source src = ue_source_memory(packed, size);
    if (ue_fsys_parse(&src, UE_MODE_TOLERANT, "fsys", &s, NULL) == UE_OK && s->count == count) {
        const ue_jv *entries = ue_jv_get(manifest, "entries");
        char where[64];
        for (size_t i = 0; i < count; i++) {
            snprintf(where, sizeof where, "manifest/entries[%zu]", i);
            check_entry_facts(ue_jv_at(entries, i), &pes[i], s, i, layout_kept, where, d);
        }
    }
    ue_fsys_free(s);
}
