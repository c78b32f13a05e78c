/* unearth — the HSD .dat container (docs/formats/dat.md): parse into a lossless model that keeps
 * every byte, check relocations, roots and references, accessors and the re-serialising writer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/hsd.h"
#include "common/bytes.h"
#include "common/parse.h"

#define NO_NUL UINT32_MAX

/* ---- header and regions ------------------------------------------------------------------ */

/* Cuts a table's declared count to what the remaining bytes hold (tolerant) and moves the
 * cursor past it. Counts are divided, never multiplied, before the check, so none can wrap. */
static uint32_t place_table(ue_parse_ctx *c, size_t *cursor, size_t n, uint32_t count,
                            size_t entry, uint64_t field, const char *path) {
    size_t fits = (n - *cursor) / entry;
    if (count > fits) {
        ue_violation(c, "dat.table_size", field, path,
                     "the header declares %u entries of %zu bytes at 0x%zx, the file holds %zu",
                     count, entry, *cursor, fits);
        count = (uint32_t)fits;
    }
    *cursor += (size_t)count * entry;
    return count;
}

static void place_strings(ue_parse_ctx *c, ue_dat *dat, size_t n) {
    dat->strings_end = n;
    if (dat->file_size == n) return;
    if (dat->file_size > n)
        ue_violation(c, "dat.file_size", 0, "dat/header/file_size",
                     "file_size 0x%x is larger than the 0x%zx bytes present", dat->file_size, n);
    else if (dat->file_size < dat->strings_offset)
        ue_violation(c, "dat.file_size", 0, "dat/header/file_size",
                     "file_size 0x%x ends before the string table at 0x%zx", dat->file_size,
                     dat->strings_offset);
    else {
        /* The runtime refuses a size mismatch; the bytes past file_size are kept as a tail. */
        ue_violation(c, "dat.file_size", 0, "dat/header/file_size",
                     "file_size 0x%x is smaller than the 0x%zx bytes present (a tail of %zu)",
                     dat->file_size, n, n - (size_t)dat->file_size);
        dat->strings_end = dat->file_size;
    }
}

static ue_result parse_header(ue_parse_ctx *c, ue_dat *dat) {
    const uint8_t *p = dat->bytes;
    size_t n = dat->size;
    dat->file_size = ue_load_u32be(p);
    dat->data_size = ue_load_u32be(p + 0x04);
    dat->nb_reloc = ue_load_u32be(p + 0x08);
    dat->nb_public = ue_load_u32be(p + 0x0C);
    dat->nb_extern = ue_load_u32be(p + 0x10);
    if (dat->data_size > n - UE_DAT_HEADER) {
        ue_parse_error(c, "dat.data_size", 0x04, "dat/header/data_size",
                       "data block of 0x%x bytes does not fit the 0x%zx bytes after the header",
                       dat->data_size, n - UE_DAT_HEADER);
        return c->failure;
    }
    dat->data = p + UE_DAT_HEADER;
    size_t cur = UE_DAT_HEADER + (size_t)dat->data_size;
    dat->reloc_offset = cur;
    dat->reloc_raw_count = place_table(c, &cur, n, dat->nb_reloc, 4, 0x08, "dat/header/nb_reloc");
    dat->public_offset = cur;
    dat->root_count = place_table(c, &cur, n, dat->nb_public, 8, 0x0C, "dat/header/nb_public");
    dat->extern_offset = cur;
    dat->ref_count = place_table(c, &cur, n, dat->nb_extern, 8, 0x10, "dat/header/nb_extern");
    dat->strings_offset = cur;
    place_strings(c, dat, n);
    return UE_OK;
}

/* ---- relocation table -------------------------------------------------------------------- */

static bool reloc_entry_ok(ue_parse_ctx *c, const ue_dat *dat, size_t i, uint32_t off) {
    uint64_t at = dat->reloc_offset + 4 * (uint64_t)i;
    if (off % 4 == 0 && dat->data_size >= 4 && off <= dat->data_size - 4) return true;
    char path[48]; /* formatted only for a report: a file has tens of thousands of entries */
    snprintf(path, sizeof path, "dat/reloc[%zu]", i);
    if (off % 4 != 0) {
        ue_violation(c, "dat.reloc_misaligned", at, path,
                     "relocation names data offset 0x%x, which is not 4-aligned", off);
        return false;
    }
    ue_violation(c, "dat.reloc_outside", at, path,
                 "relocation names data offset 0x%x, outside the 0x%x-byte data block", off, dat->data_size);
    return false;
}

/* A relocated word holding a value past the data block: the loader adds the base to it
 * unchecked (archive.c Locate), so it only matters to a structure that follows it, and the
 * struct reader reports that pointer there. Here it is a note: the first few each, then a count. */
#define RELOC_TARGET_NOTES 16u

static void note_reloc_target(ue_parse_ctx *c, const ue_dat *dat, size_t i, uint32_t off,
                              size_t *outside) {
    uint32_t target = ue_load_u32be(dat->data + off);
    if (target < dat->data_size || (*outside)++ >= RELOC_TARGET_NOTES) return;
    char path[48];
    snprintf(path, sizeof path, "dat/reloc[%zu]", i);
    ue_diag_add(c->d, UE_SEV_INFO, "dat.reloc_target", UE_DAT_HEADER + (uint64_t)off, path,
                "relocated word at data offset 0x%x holds 0x%x, outside the 0x%x-byte data "
                "block (harmless unless a structure follows it)", off, target, dat->data_size);
}

static int cmp_u32(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Whether the offsets already ascend (non-strictly), as writers usually emit them. */
static bool relocs_ascend(const ue_dat *dat) {
    for (size_t r = 1; r < dat->reloc_count; r++)
        if (dat->relocs[r] < dat->relocs[r - 1]) return false;
    return true;
}

/* Sorts the valid offsets (a table already in order is left as it is: sorting it would give the
 * same) and drops repeats: a repeated entry would relocate its field twice. */
static void sort_relocs(ue_parse_ctx *c, ue_dat *dat) {
    if (dat->reloc_count == 0) return;
    if (!relocs_ascend(dat)) qsort(dat->relocs, dat->reloc_count, sizeof *dat->relocs, cmp_u32);
    size_t w = 1;
    for (size_t r = 1; r < dat->reloc_count; r++) {
        if (dat->relocs[r] == dat->relocs[w - 1]) {
            ue_violation(c, "dat.reloc_duplicate", UE_DAT_HEADER + (uint64_t)dat->relocs[r],
                         "dat/reloc", "data offset 0x%x is relocated more than once",
                         dat->relocs[r]);
            continue;
        }
        dat->relocs[w++] = dat->relocs[r];
    }
    dat->reloc_count = w;
}

static ue_result parse_relocs(ue_parse_ctx *c, ue_dat *dat) {
    size_t count = dat->reloc_raw_count;
    if (count == 0) return UE_OK;
    dat->reloc_raw = malloc(count * sizeof *dat->reloc_raw);
    dat->relocs = malloc(count * sizeof *dat->relocs);
    if (!dat->reloc_raw || !dat->relocs) return UE_ERR_NOMEM;
    size_t outside = 0;
    for (size_t i = 0; i < count; i++) {
        uint32_t off = ue_load_u32be(dat->bytes + dat->reloc_offset + 4 * i);
        dat->reloc_raw[i] = off;
        if (!reloc_entry_ok(c, dat, i, off)) continue;
        dat->relocs[dat->reloc_count++] = off;
        note_reloc_target(c, dat, i, off, &outside);
    }
    if (outside > RELOC_TARGET_NOTES)
        ue_diag_add(c->d, UE_SEV_INFO, "dat.reloc_target", UE_NO_OFFSET, "dat/reloc",
                    "%zu more relocated words hold values outside the data block",
                    outside - RELOC_TARGET_NOTES);
    sort_relocs(c, dat);
    return UE_OK;
}

/* ---- roots and references ---------------------------------------------------------------- */

/* nul_at[i] = index of the first NUL at or after i in the string table, or NO_NUL: one backward
 * pass, so finding every name's length stays linear however many entries share a string. */
static uint32_t *index_nuls(const ue_dat *dat) {
    size_t len = dat->strings_end - dat->strings_offset;
    uint32_t *nul_at = ue_malloc_items(len, sizeof *nul_at);
    if (!nul_at) return NULL;
    uint32_t next = NO_NUL;
    for (size_t i = len; i-- > 0;) {
        if (dat->bytes[dat->strings_offset + i] == 0) next = (uint32_t)i;
        nul_at[i] = next;
    }
    return nul_at;
}

static void check_symbol(ue_parse_ctx *c, ue_dat *dat, const uint32_t *nul_at, ue_dat_symbol *s,
                         size_t at, bool is_root, const char *path) {
    size_t len = dat->strings_end - dat->strings_offset;
    s->data_offset = ue_load_u32be(dat->bytes + at);
    s->string_offset = ue_load_u32be(dat->bytes + at + 4);
    /* A reference's first use may be 0xFFFFFFFF or any offset ≥ data_size: an empty chain. */
    if (is_root && s->data_offset >= dat->data_size) {
        ue_violation(c, "dat.root_offset", at, path,
                     "root at data offset 0x%x, outside the 0x%x-byte data block", s->data_offset,
                     dat->data_size);
        s->damaged = true;
    }
    if (s->string_offset >= len || nul_at[s->string_offset] == NO_NUL) {
        ue_violation(c, "dat.symbol_name", at + 4, path,
                     "name at string offset 0x%x is not a NUL-terminated string inside the "
                     "0x%zx-byte string table", s->string_offset, len);
        s->damaged = true;
        return;
    }
    s->name = (const char *)dat->bytes + dat->strings_offset + s->string_offset;
    s->name_len = nul_at[s->string_offset] - s->string_offset;
}

static ue_result parse_symbols(ue_parse_ctx *c, ue_dat *dat) {
    if (dat->root_count == 0 && dat->ref_count == 0) return UE_OK;
    uint32_t *nul_at = index_nuls(dat);
    dat->roots = ue_calloc_items(dat->root_count, sizeof *dat->roots);
    dat->refs = ue_calloc_items(dat->ref_count, sizeof *dat->refs);
    if (!nul_at || !dat->roots || !dat->refs) {
        free(nul_at);
        return UE_ERR_NOMEM;
    }
    char path[48];
    for (size_t i = 0; i < dat->root_count; i++) {
        snprintf(path, sizeof path, "dat/root[%zu]", i);
        check_symbol(c, dat, nul_at, &dat->roots[i], dat->public_offset + 8 * i, true, path);
    }
    for (size_t i = 0; i < dat->ref_count; i++) {
        snprintf(path, sizeof path, "dat/ref[%zu]", i);
        check_symbol(c, dat, nul_at, &dat->refs[i], dat->extern_offset + 8 * i, false, path);
    }
    free(nul_at);
    return UE_OK;
}

/* ---- parse / free ------------------------------------------------------------------------ */

ue_result ue_dat_parse(const uint8_t *p, size_t n, ue_mode mode, ue_dat *dat, ue_diag *d) {
    memset(dat, 0, sizeof *dat);
    if (n < UE_DAT_HEADER) {
        ue_diag_add(d, UE_SEV_ERROR, "dat.truncated", 0, "dat/header",
                    "%zu bytes, fewer than the 32-byte header", n);
        return UE_ERR_INVALID;
    }
    if (n > UINT32_MAX) {
        ue_diag_add(d, UE_SEV_ERROR, "dat.too_large", 0, "dat",
                    "%zu bytes; a DAT's sizes and offsets are 32-bit", n);
        return UE_ERR_LIMIT;
    }
    dat->bytes = malloc(n);
    if (!dat->bytes) return UE_ERR_NOMEM;
    memcpy(dat->bytes, p, n);
    dat->size = n;
    ue_parse_ctx c = ue_parse_begin(mode, d);
    ue_result r = parse_header(&c, dat);
    if (r == UE_OK) r = parse_relocs(&c, dat);
    if (r == UE_OK) r = parse_symbols(&c, dat);
    if (r == UE_OK) r = c.failure;
    if (r != UE_OK) ue_dat_free(dat);
    return r;
}

void ue_dat_free(ue_dat *dat) {
    if (!dat) return;
    free(dat->bytes);
    free(dat->reloc_raw);
    free(dat->relocs);
    free(dat->roots);
    free(dat->refs);
    memset(dat, 0, sizeof *dat);
}

/* ---- writer ------------------------------------------------------------------------------ */

static void put_symbols(ue_buf *out, const ue_dat_symbol *s, size_t count) {
    for (size_t i = 0; i < count; i++) {
        ue_buf_put_u32be(out, s[i].data_offset);
        ue_buf_put_u32be(out, s[i].string_offset);
    }
}

ue_result ue_dat_write(const ue_dat *dat, ue_buf *out) {
    if (!dat || !dat->bytes || dat->size < UE_DAT_HEADER) return UE_ERR_USAGE;
    size_t strings = dat->strings_end - dat->strings_offset;
    uint64_t total = (uint64_t)UE_DAT_HEADER + dat->data_size + 4 * (uint64_t)dat->reloc_raw_count +
                     8 * ((uint64_t)dat->root_count + dat->ref_count) + strings;
    if (total > UINT32_MAX) return UE_ERR_LIMIT;
    size_t start = out->size;
    ue_buf_put_u32be(out, (uint32_t)total);
    ue_buf_put_u32be(out, dat->data_size);
    ue_buf_put_u32be(out, (uint32_t)dat->reloc_raw_count);
    ue_buf_put_u32be(out, (uint32_t)dat->root_count);
    ue_buf_put_u32be(out, (uint32_t)dat->ref_count);
    ue_buf_put(out, dat->bytes + 0x14, UE_DAT_HEADER - 0x14); /* version and padding, kept */
    ue_buf_put(out, dat->data, dat->data_size);
    for (size_t i = 0; i < dat->reloc_raw_count; i++) ue_buf_put_u32be(out, dat->reloc_raw[i]);
    put_symbols(out, dat->roots, dat->root_count);
    put_symbols(out, dat->refs, dat->ref_count);
    ue_buf_put(out, dat->bytes + dat->strings_offset, strings);
    ue_buf_put(out, dat->bytes + dat->strings_end, dat->size - dat->strings_end); /* the tail */
    if (out->failed) {
        out->size = start;
        return UE_ERR_NOMEM;
    }
    return UE_OK;
}

/* ---- accessors --------------------------------------------------------------------------- */

long ue_dat_find_root(const ue_dat *dat, const char *name) {
    if (!dat || !name) return -1;
    for (size_t i = 0; i < dat->root_count; i++)
        if (dat->roots[i].name && strcmp(dat->roots[i].name, name) == 0) return (long)i;
    return -1;
}

bool ue_dat_is_relocated(const ue_dat *dat, uint32_t data_offset) {
    if (!dat || dat->reloc_count == 0) return false;
    return bsearch(&data_offset, dat->relocs, dat->reloc_count, sizeof *dat->relocs, cmp_u32) !=
           NULL;
}

bool ue_dat_read_u32(const ue_dat *dat, uint32_t data_offset, uint32_t *out) {
    return dat && dat->data && ue_rd_u32be(dat->data, dat->data_size, data_offset, out);
}

bool ue_dat_read_f32(const ue_dat *dat, uint32_t data_offset, float *out) {
    return dat && dat->data && ue_rd_f32be(dat->data, dat->data_size, data_offset, out);
}

ue_result ue_dat_read_pointer(const ue_dat *dat, uint32_t data_offset, bool *present,
                              uint32_t *target) {
    uint32_t v = 0;
    *present = false;
    *target = 0;
    if (!ue_dat_read_u32(dat, data_offset, &v)) return UE_ERR_INVALID;
    if (v == 0 && !ue_dat_is_relocated(dat, data_offset)) return UE_OK;
    if (v >= dat->data_size) return UE_ERR_INVALID;
    *present = true;
    *target = v;
    return UE_OK;
}
