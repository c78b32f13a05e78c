/* libFuzzer target: the NRes reader in both modes, lookups, the lossless writer (whose output
 * must equal the input when strict parsing succeeds), and the generic archive layer. */
#include <stdlib.h>
#include <string.h>

#include "unearth/archive.h"
#include "unearth/nres.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_source src = ue_source_memory(data, size);
        ue_nres n;
        ue_diag d = {0};
        if (ue_nres_parse(&src, (ue_mode)mode, &n, &d) == UE_OK) {
            size_t idx;
            for (size_t i = 0; i < n.count && i < 64; i++) {
                char name[64];
                ue_nres_entry_name(&n.entries[i], name, sizeof name);
                ue_nres_find(&n, name, &idx);
            }
            ue_buf out = {0};
            out.limit = 64u << 20;
            if (ue_nres_write(&n, UE_NRES_LOSSLESS, &out, &d) == UE_OK && mode == UE_MODE_STRICT) {
                /* Strictly valid input must survive a lossless write unchanged. */
                if (out.size != size || memcmp(out.data, data, size) != 0) abort();
            }
            ue_buf_free(&out);
            ue_nres_free(&n);
        }
        ue_diag_free(&d);
    }
    ue_archive *a;
    if (ue_archive_open_memory(data, size, "fuzz", UE_MODE_TOLERANT, &a, NULL) == UE_OK) {
        ue_diag d = {0};
        ue_archive_validate(a, &d);
        ue_diag_free(&d);
        ue_archive_close(a);
    }
    return 0;
}
