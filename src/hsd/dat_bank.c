/* unearth — a bank of DATs (Melee's Pl??AJ.dat: one FigaTree DAT after another) as a container:
 * the chain of headers, list/extract/pack byte for byte, and each DAT re-serialised by roundtrip. */
#include "hsd/dat_bank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "common/bytes.h"
#include "common/collections.h"
#include "common/parse.h"
#include "hsd/hsd_figatree.h"
#include "unearth/hsd.h"

#define MAX_ROOTS 0x10000u /* roots and references a plausible bank header declares */

static uint64_t align_up(uint64_t v) { return (v + UE_DAT_BANK_ALIGN - 1) & ~(uint64_t)(UE_DAT_BANK_ALIGN - 1); }

/* A DAT header whose regions fit in its file_size, which fits in `room`, with at least one root. */
static bool header_ok(const uint8_t *h, uint64_t room) {
    uint32_t file_size = ue_load_u32be(h), data_size = ue_load_u32be(h + 4), nb_reloc = ue_load_u32be(h + 8);
    uint32_t nb_public = ue_load_u32be(h + 12), nb_extern = ue_load_u32be(h + 16);
    if (nb_public == 0 || nb_public > MAX_ROOTS || nb_extern > MAX_ROOTS || file_size > room) return false;
    uint64_t strings = (uint64_t)UE_DAT_HEADER + data_size + 4ull * nb_reloc + 8ull * (nb_public + (uint64_t)nb_extern);
    return strings < file_size; /* the string table holds at least the first name's NUL */
}

bool ue_dat_bank_probe(const uint8_t *head, size_t n, uint64_t total) {
    if (n < UE_DAT_HEADER || !header_ok(head, total)) return false;
    uint64_t next = align_up(ue_load_u32be(head));
    if (next + UE_DAT_HEADER > total) return false;
    return next + UE_DAT_HEADER > n || header_ok(head + next, total - next);
}

/* ---- the chain ------------------------------------------------------------------------------- */

/* The first root's name of the DAT at `e->offset`, when its bytes read as a short string. */
static void read_first_name(const ue_source *src, ue_dat_bank_entry *e, const uint8_t *h) {
    uint64_t roots = e->offset + UE_DAT_HEADER + ue_load_u32be(h + 4) + 4ull * ue_load_u32be(h + 8);
    uint64_t strings = roots + 8ull * ((uint64_t)ue_load_u32be(h + 12) + ue_load_u32be(h + 16));
    uint8_t entry[8];
    e->name[0] = 0;
    if (ue_source_read(src, roots, entry, 8) != UE_OK) return;
    uint64_t at = strings + ue_load_u32be(entry + 4), end = e->offset + e->size;
    if (at >= end) return;
    size_t take = end - at < sizeof e->name ? (size_t)(end - at) : sizeof e->name;
    char name[sizeof e->name];
    if (ue_source_read(src, at, name, take) != UE_OK || !memchr(name, 0, take)) return;
    memcpy(e->name, name, take);
}

/* The gap after entry `e` up to `next`: its length and whether it is the rule's 0xFF fill. */
static ue_result read_gap(const ue_source *src, ue_dat_bank_entry *e, uint64_t next) {
    uint64_t end = e->offset + e->size;
    e->padding = (uint32_t)(next - end);
    e->plain_fill = next == align_up(end) || next == src->size;
    uint8_t gap[UE_DAT_BANK_ALIGN];
    if (e->padding >= UE_DAT_BANK_ALIGN) {
        e->plain_fill = false;
        return UE_OK;
    }
    ue_result r = ue_source_read(src, end, gap, e->padding);
    for (uint32_t i = 0; r == UE_OK && i < e->padding; i++) e->plain_fill = e->plain_fill && gap[i] == UE_DAT_BANK_FILL;
    return r;
}

/* True when the `n` bytes at `at` are all the 0xFF fill (read in blocks: linear work). */
static bool all_fill(const ue_source *src, uint64_t at, uint64_t n) {
    uint8_t block[4096];
    for (uint64_t done = 0; done < n;) {
        size_t take = n - done < sizeof block ? (size_t)(n - done) : sizeof block;
        if (ue_source_read(src, at + done, block, take) != UE_OK) return false;
        for (size_t i = 0; i < take; i++)
            if (block[i] != UE_DAT_BANK_FILL) return false;
        done += take;
    }
    return true;
}

/* One DAT and then no second header: said as what it is (a padded single DAT), not as a broken
 * chain, so the user is not sent looking for a bank's second entry. */
static ue_result single_dat(const ue_source *src, const ue_dat_bank_entry *first, ue_parse_ctx *c) {
    uint64_t end = first->offset + first->size, rest = src->size - end;
    bool fill = all_fill(src, end, rest);
    ue_parse_error(c, "bank.single", end, "bank",
                   "a single DAT of %u bytes followed by %llu bytes %s, not a bank of DATs; a DAT is read "
                   "at its own file_size, so cut the file to its first %u bytes to open it as a model",
                   first->size, (unsigned long long)rest, fill ? "of 0xFF padding" : "that are no DAT",
                   first->size);
    return c->failure;
}

ue_result ue_dat_bank_scan(const ue_source *src, ue_mode mode, ue_dat_bank_entry **entries, size_t *count,
                           ue_diag *d) {
    *entries = NULL;
    *count = 0;
    ue_parse_ctx c = ue_parse_begin(mode, d);
    ue_dat_bank_entry *e = NULL;
    size_t n = 0, cap = 0;
    uint64_t off = 0;
    ue_result r = UE_OK;
    while (r == UE_OK && src->size - off >= UE_DAT_HEADER) {
        uint8_t h[UE_DAT_HEADER];
        if ((r = ue_source_read(src, off, h, sizeof h)) != UE_OK) break;
        if (!header_ok(h, src->size - off)) {
            if (n == 1) {
                r = single_dat(src, &e[0], &c);
            } else if (n == 0) {
                ue_parse_error(&c, "bank.header", off, "bank/entry", "no DAT header at 0x%llx (entry %zu): a "
                               "bank is DATs one after another, each header's regions inside its file_size",
                               (unsigned long long)off, n);
                r = c.failure;
            }
            break;
        }
        if (ue_array_reserve((void **)&e, &cap, n + 1, sizeof *e, UE_CAP_TABLE_ENTRIES) != UE_OK) {
            r = UE_ERR_NOMEM;
            break;
        }
        e[n] = (ue_dat_bank_entry){off, ue_load_u32be(h), 0, true, ""};
        read_first_name(src, &e[n], h);
        uint64_t next = align_up(off + e[n].size);
        off = next < src->size ? next : src->size;
        r = read_gap(src, &e[n++], off);
    }
    if (r == UE_OK && n > 0 && off < src->size) {
        ue_violation(&c, "bank.tail", off, "bank/tail", "%llu bytes after the last DAT are no DAT (kept as "
                     "its padding)", (unsigned long long)(src->size - off));
        r = read_gap(src, &e[n - 1], src->size);
    }
    if (r == UE_OK && n < 2)
        ue_parse_error(&c, "bank.single", 0, "bank", "%zu DAT%s: a bank holds two or more", n, n == 1 ? "" : "s");
    if (r == UE_OK) r = c.failure;
    if (r != UE_OK) {
        free(e);
        return r;
    }
    *entries = e;
    *count = n;
    return UE_OK;
}

/* ---- the container --------------------------------------------------------------------------- */

typedef struct bank_state {
    const ue_source *src;
    ue_mode mode;
    ue_dat_bank_entry *e;
    size_t count;
} bank_state;

static bool bank_probe(const uint8_t *head, size_t n, uint64_t total) { return ue_dat_bank_probe(head, n, total); }

static ue_result bank_open(const ue_source *src, ue_mode mode, void **state, ue_diag *d) {
    bank_state *s = calloc(1, sizeof *s);
    if (!s) return UE_ERR_NOMEM;
    s->src = src;
    s->mode = mode;
    ue_result r = ue_dat_bank_scan(src, mode, &s->e, &s->count, d);
    if (r != UE_OK) {
        free(s);
        return r;
    }
    *state = s;
    return UE_OK;
}

static void bank_close(void *state) {
    bank_state *s = state;
    if (!s) return;
    free(s->e);
    free(s);
}

static size_t bank_count(const void *state) { return ((const bank_state *)state)->count; }

static void bank_entry(const void *state, size_t i, ue_entry_info *info) {
    const ue_dat_bank_entry *e = &((const bank_state *)state)->e[i];
    memset(info, 0, sizeof *info);
    info->index = i;
    if (e->name[0]) snprintf(info->name, sizeof info->name, "%s.dat", e->name);
    else snprintf(info->name, sizeof info->name, "entry_%04zu.dat", i);
    snprintf(info->type, sizeof info->type, "dat");
    snprintf(info->method, sizeof info->method, "stored");
    info->offset = e->offset;
    info->size = info->stored_size = e->size;
}

static ue_result bank_read(void *state, size_t i, uint8_t **data, size_t *size, ue_diag *d) {
    (void)d;
    bank_state *s = state;
    *size = s->e[i].size;
    return ue_source_read_alloc(s->src, s->e[i].offset, s->e[i].size, UE_CAP_ENTRY_BYTES, data);
}

static ue_result bank_borrow(void *state, size_t i, const uint8_t **data, size_t *size, uint8_t **to_free,
                             ue_diag *d) {
    bank_state *s = state;
    if (!s->src->memory) {
        ue_result r = bank_read(state, i, to_free, size, d);
        *data = *to_free;
        return r;
    }
    *data = s->src->memory + s->e[i].offset;
    *size = s->e[i].size;
    return UE_OK;
}

/* The FigaTree clips of every DAT: {entry, clip, frames, joints, root}, for `info`. */
static void write_clips(const bank_state *s, ue_json *w) {
    ue_json_array_begin(w);
    for (size_t i = 0; i < s->count; i++) {
        uint8_t *p = NULL;
        size_t n = 0;
        ue_dat dat;
        if (bank_read((void *)s, i, &p, &n, NULL) == UE_OK && ue_dat_parse(p, n, UE_MODE_TOLERANT, &dat, NULL) == UE_OK) {
            hsd_figatree_write_clips(&dat, (int64_t)i, w);
            ue_dat_free(&dat);
        }
        free(p);
    }
    ue_json_array_end(w);
}

static void bank_info_json(const void *state, ue_json *w) {
    const bank_state *s = state;
    ue_json_object_begin(w);
    ue_json_key_int(w, "dats", (int64_t)s->count);
    ue_json_key_int(w, "alignment", UE_DAT_BANK_ALIGN);
    size_t odd = 0;
    for (size_t i = 0; i < s->count; i++) odd += !s->e[i].plain_fill;
    ue_json_key_int(w, "other_padding", (int64_t)odd);
    ue_json_key(w, "clips");
    write_clips(s, w);
    ue_json_object_end(w);
}

static void bank_entry_json(const void *state, size_t i, ue_json *w) {
    const bank_state *s = state;
    ue_entry_info e;
    bank_entry(state, i, &e);
    ue_json_object_begin(w);
    ue_json_key_int(w, "index", (int64_t)i);
    ue_json_key_string(w, "name", e.name);
    ue_json_key_int(w, "offset", (int64_t)e.offset);
    ue_json_key_int(w, "size", (int64_t)e.size);
    ue_json_key_int(w, "padding", s->e[i].padding);
    ue_json_object_end(w);
}

/* Entry i's padding bytes as stored (they are the rule's 0xFF fill when plain_fill). */
static ue_result padding_bytes(const bank_state *s, size_t i, uint8_t **out) {
    const ue_dat_bank_entry *e = &s->e[i];
    return ue_source_read_alloc(s->src, e->offset + e->size, e->padding, UE_CAP_ENTRY_BYTES, out);
}

/* Per entry {name, file, xxh64, offset, padding} and, when the gap is not the rule's, its bytes. */
static ue_result bank_extract(void *state, ue_outdir *o, ue_json *w, ue_diag *d) {
    bank_state *s = state;
    ue_json_key_int(w, "alignment", UE_DAT_BANK_ALIGN);
    ue_json_key(w, "entries");
    ue_json_array_begin(w);
    ue_result r = UE_OK;
    for (size_t i = 0; i < s->count && r == UE_OK; i++) {
        ue_entry_info e;
        bank_entry(state, i, &e);
        char file[200], rel[220], hex[17];
        ue_entry_file_name(i, e.name, ".dat", file, sizeof file);
        snprintf(rel, sizeof rel, "entries/%s", file);
        uint64_t hash = 0;
        r = ue_outdir_copy(o, rel, s->src, s->e[i].offset, s->e[i].size, &hash, d);
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash);
        ue_json_object_begin(w);
        ue_json_key_string(w, "name", e.name);
        ue_json_key_string(w, "file", rel);
        ue_json_key_string(w, "xxh64", hex);
        ue_json_key_int(w, "offset", (int64_t)s->e[i].offset);
        ue_json_key_int(w, "padding", s->e[i].padding);
        uint8_t *pad = NULL;
        if (r == UE_OK && !s->e[i].plain_fill && (r = padding_bytes(s, i, &pad)) == UE_OK) {
            ue_json_key(w, "padding_hex");
            ue_json_hex(w, pad, s->e[i].padding);
        }
        free(pad);
        ue_json_object_end(w);
    }
    ue_json_array_end(w);
    return r;
}

static const char *const bank_manifest_keys[] = {"unearth_manifest", "format", "source", "alignment", "entries", NULL};
static const char *const bank_entry_keys[] = {"name", "file", "xxh64", "offset", "padding", "padding_hex", NULL};

/* The rule's padding after a DAT: 0xFF up to the next 32-byte boundary of `out`. */
static void fill_to_boundary(ue_buf *out) {
    for (size_t k = (size_t)(align_up(out->size) - out->size); k > 0; k--) ue_buf_put_u8(out, UE_DAT_BANK_FILL);
}

ue_result ue_dat_bank_append(ue_buf *bank, const uint8_t *dat, size_t size) {
    ue_buf_put(bank, dat, size);
    fill_to_boundary(bank);
    return bank->failed ? UE_ERR_NOMEM : UE_OK;
}

/* After an entry: its recorded padding while the DAT is unchanged and still starts where it did,
 * else the rule's 0xFF up to the next 32-byte boundary. `extract` records a gap of 32 bytes or
 * more only with its bytes (padding_hex), so a longer plain padding is refused: a hand-edited
 * manifest must not make pack write gigabytes of fill. */
static ue_result put_padding(const ue_jv *ej, bool changed, uint64_t start, ue_buf *out, const char *where,
                             ue_diag *d) {
    uint64_t offset = 0;
    uint32_t padding = 0;
    bool keep = !changed && ue_jv_u64(ej, "offset", &offset, NULL, NULL) && offset == start &&
                ue_jv_u32(ej, "padding", &padding, where, d);
    uint8_t *given = NULL;
    size_t given_n = 0;
    bool hex = keep && ue_jv_hex_alloc(ej, "padding_hex", UE_CAP_ENTRY_BYTES, &given, &given_n) && given_n == padding;
    if (keep && !hex && padding >= UE_DAT_BANK_ALIGN) {
        free(given);
        ue_diag_add(d, UE_SEV_ERROR, "manifest.padding", UE_NO_OFFSET, where,
                    "\"padding\": %u bytes of 0xFF fill; a gap of %u bytes or more is packed only from its "
                    "\"padding_hex\" bytes, as extract records it", padding, UE_DAT_BANK_ALIGN);
        return UE_ERR_INVALID;
    }
    if (hex) {
        ue_buf_put(out, given, given_n);
    } else if (keep) {
        for (size_t k = 0; k < padding; k++) ue_buf_put_u8(out, UE_DAT_BANK_FILL);
    } else {
        fill_to_boundary(out);
    }
    free(given);
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

static ue_result bank_pack(const ue_jv *manifest, const char *dir, const ue_pack_options *opt, ue_buf *out,
                           ue_diag *d) {
    (void)opt; /* nothing is compressed */
    ue_manifest_unknown_keys_jv(manifest, bank_manifest_keys, "manifest", NULL, d);
    const ue_jv *entries = ue_jv_get(manifest, "entries");
    size_t n = ue_jv_size(entries), base = out->size;
    if (!ue_jv_is(entries, UE_JV_ARRAY) || n < 2) {
        ue_diag_add(d, UE_SEV_ERROR, "manifest.shape", UE_NO_OFFSET, "manifest/entries",
                    "\"entries\" must list the bank's DATs, two or more");
        return UE_ERR_INVALID;
    }
    ue_result r = UE_OK;
    for (size_t i = 0; i < n && r == UE_OK; i++) {
        const ue_jv *ej = ue_jv_at(entries, i);
        char where[48];
        snprintf(where, sizeof where, "manifest/entries[%zu]", i);
        ue_manifest_unknown_keys_jv(ej, bank_entry_keys, where, ue_jv_string(ue_jv_get(ej, "name")), d);
        uint8_t *data = NULL;
        size_t size = 0;
        bool changed = true;
        uint64_t start = out->size - base;
        r = ue_manifest_load_file_jv(dir, ej, "file", UE_CAP_ENTRY_BYTES, &data, &size, &changed, d);
        if (r == UE_OK) ue_buf_put(out, data, size);
        free(data);
        if (r == UE_OK) r = put_padding(ej, changed, start, out, where, d);
    }
    if (r != UE_OK) out->size = base;
    return r;
}

/* Each DAT parsed and written again by the DAT writer, then its padding as stored. */
static ue_result bank_reencode(void *state, ue_buf *out, ue_diag *d) {
    bank_state *s = state;
    ue_result r = UE_OK;
    for (size_t i = 0; i < s->count && r == UE_OK; i++) {
        uint8_t *p = NULL, *pad = NULL;
        size_t n = 0;
        ue_dat dat;
        r = bank_read(s, i, &p, &n, d);
        if (r == UE_OK && (r = ue_dat_parse(p, n, s->mode, &dat, d)) == UE_OK) {
            r = ue_dat_write(&dat, out);
            ue_dat_free(&dat);
        }
        if (r == UE_OK) r = padding_bytes(s, i, &pad);
        if (r == UE_OK) ue_buf_put(out, pad, s->e[i].padding);
        free(p);
        free(pad);
    }
    return r == UE_OK && out->failed ? UE_ERR_NOMEM : r;
}

const ue_container_ops ue_datbank_ops = {
    .name = "datbank",
    .description = "HAL DAT bank (DATs one after another)",
    .probe = bank_probe,
    .open = bank_open,
    .close = bank_close,
    .count = bank_count,
    .entry = bank_entry,
    .read = bank_read,
    .borrow = bank_borrow,
    .info_json = bank_info_json,
    .entry_json = bank_entry_json,
    .extract = bank_extract,
    .pack = bank_pack,
    .reencode = bank_reencode,
    .validate = NULL, /* each DAT is a model of its own: validate checks it through the model walk */
};
