/* libFuzzer target: the RsLi reader in both modes, rsFind, every entry's decoder, the lossless
 * writer (output must equal the input) and an edit + rebuild that must keep decodes intact. */
#include <stdlib.h>
#include <string.h>

#include "unearth/archive.h"
#include "unearth/rsli.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ENTRIES_READ 16
#define MAX_UNPACKED ((size_t)1 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const ue_rsli_limits limits = {4096, MAX_UNPACKED};
    for (int mode = 0; mode < 2; mode++) {
        ue_source src = ue_source_memory(data, size);
        ue_rsli l;
        ue_diag d = {0};
        d.max_items = 200;
        if (ue_rsli_parse(&src, (ue_mode)mode, &limits, &l, &d) != UE_OK) {
            ue_diag_free(&d);
            continue;
        }
        size_t idx;
        for (size_t i = 0; i < l.count && i < 64; i++) {
            char name[16];
            ue_rsli_entry_name(&l.entries[i], name, sizeof name);
            if (ue_rsli_find(&l, name, &idx) && idx >= l.count) abort();
        }
        ue_rsli_find(&l, "a-query-longer-than-fifteen-bytes", &idx);

        /* Lossless: the parsed model must re-emit the input byte for byte. */
        ue_buf out = {0};
        out.limit = 64u << 20;
        if (ue_rsli_write(&l, &out, &d) == UE_OK) {
            if (out.size != size || memcmp(out.data, data, size) != 0) abort();
        }
        ue_buf_free(&out);

        /* Decode a few entries, then edit and rebuild: what decoded before decodes the same. */
        size_t nread = l.count < MAX_ENTRIES_READ ? l.count : MAX_ENTRIES_READ;
        uint8_t *before[MAX_ENTRIES_READ] = {0};
        size_t before_n[MAX_ENTRIES_READ] = {0};
        for (size_t i = 0; i < nread; i++)
            if (ue_rsli_read(&l, i, &before[i], &before_n[i], &d) != UE_OK) before[i] = NULL;
        if (l.count > 0 && ue_rsli_replace(&l, 0, "edit", 4, NULL) == UE_OK) {
            free(before[0]);
            before[0] = malloc(4);
            if (before[0]) memcpy(before[0], "edit", 4);
            before_n[0] = 4;
            ue_buf re = {0};
            re.limit = 64u << 20;
            if (ue_rsli_write(&l, &re, NULL) == UE_OK) {
                ue_source s2 = ue_source_memory(re.data, re.size);
                ue_rsli l2;
                if (ue_rsli_parse(&s2, UE_MODE_TOLERANT, &limits, &l2, NULL) != UE_OK) abort();
                if (l2.count != l.count) abort();
                for (size_t i = 0; i < nread; i++) {
                    if (!before[i]) continue;
                    uint8_t *p;
                    size_t n;
                    if (ue_rsli_read(&l2, i, &p, &n, NULL) != UE_OK) abort();
                    if (n != before_n[i] || memcmp(p, before[i], n) != 0) abort();
                    free(p);
                }
                ue_rsli_free(&l2);
            }
            ue_buf_free(&re);
        }
        for (size_t i = 0; i < nread; i++) free(before[i]);
        ue_rsli_free(&l);
        ue_diag_free(&d);
    }
    ue_archive *a;
    if (ue_archive_open_memory(data, size, "fuzz", UE_MODE_TOLERANT, &a, NULL) == UE_OK) {
        ue_diag d = {0};
        d.max_items = 200;
        if (ue_archive_count(a) <= 64) ue_archive_validate(a, &d);
        ue_diag_free(&d);
        ue_archive_close(a);
    }
    return 0;
}
