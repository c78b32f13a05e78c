/* libFuzzer target: PKX layout detection and location in both modes, the JSON views, re-wrap
 * identity (an unchanged DAT must give the input back) and re-wrap with a different DAT. */
#include <stdlib.h>
#include <string.h>

#include "archive/container.h"
#include "gamecube/gamecube_int.h"
#include "unearth/archive.h"
#include "unearth/gamecube.h"
#include "fuzz_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_pkx_info info;
        ue_diag d = {0};
        if (ue_pkx_parse(data, size, (ue_mode)mode, &info, &d) == UE_OK) {
            ue_buf out = {0};
            if (ue_pkx_rewrap(data, size, &info, data + info.dat_offset, info.dat_size,
                              data + info.gpt1_offset, info.gpt1_length, &out, &d) != UE_OK ||
                out.size != size || memcmp(out.data, data, size) != 0)
                abort();
            ue_buf_free(&out);
            static const uint8_t dat[37] = {0, 0, 0, 37};
            if (ue_pkx_rewrap(data, size, &info, dat, sizeof dat, NULL, 0, &out, &d) == UE_OK) {
                /* Not asserted: a new size word may collide with XD preamble bytes at 0x40. */
                ue_pkx_info again;
                ue_pkx_parse(out.data, out.size, UE_MODE_TOLERANT, &again, NULL);
            }
            ue_buf_free(&out);
        }
        ue_diag_free(&d);
    }
    if (size >= 0x44 && ue_pkx_ops.probe(data, size, size)) {
        ue_source src = ue_source_memory(data, size);
        void *s;
        if (ue_pkx_ops.open(&src, UE_MODE_TOLERANT, &s, NULL) == UE_OK) {
            fuzz_container_json(&ue_pkx_ops, s, 0);
            ue_pkx_ops.close(s);
        }
    }
    return 0;
}
