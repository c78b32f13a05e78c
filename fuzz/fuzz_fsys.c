/* libFuzzer target: the FSYS reader in both modes, every entry read (LZSS included), lookups,
 * parallel validation, and the lossless re-encoder (output = input when strict parsing succeeds). */
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "fuzz_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_source src = ue_source_memory(data, size);
        fsys_state *s;
        ue_diag d = {0};
        d.max_items = 200;
        if (ue_fsys_parse(&src, (ue_mode)mode, "fuzz", &s, &d) == UE_OK) {
            for (size_t i = 0; i < s->count && i < 64; i++) {
                uint8_t *p;
                size_t n, idx;
                if (ue_fsys_read_entry(s, i, &p, &n, &d) == UE_OK) free(p);
                ue_entry_info info;
                ue_fsys_ops.entry(s, i, &info);
                ue_fsys_ops.find(s, info.name, &idx);
            }
            fuzz_container_json(&ue_fsys_ops, s, s->count < 64 ? s->count : 64);
            /* validate decodes every entry on several threads (extract's parallel path) */
            ue_fsys_ops.validate(s, &d);
            ue_buf out = {0};
            out.limit = 64u << 20;
            if (ue_fsys_ops.reencode(s, &out, &d) == UE_OK && mode == UE_MODE_STRICT &&
                (out.size != size || memcmp(out.data, data, size) != 0))
                abort();
            ue_buf_free(&out);
            ue_fsys_free(s);
        }
        ue_diag_free(&d);
    }
    return 0;
}
