/* libFuzzer target: the MSH reader in both modes, then every consumer of a parsed model —
 * table re-encoding, the writer, statistics, traversal and conversion to the scene IR. */
#include <stdlib.h>
#include <string.h>

#include "unearth/msh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool count_vertex(void *user, size_t node, size_t batch, size_t i, uint32_t vertex) {
    (void)node, (void)batch, (void)i, (void)vertex;
    return ++*(size_t *)user < 100000;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_msh m;
        ue_diag d = {0};
        if (ue_msh_parse(data, size, (ue_mode)mode, &m, &d) == UE_OK) {
            size_t tables;
            ue_result verified = ue_msh_verify_tables(&m, &tables, &d);
            ue_buf out = {0};
            out.limit = 64u << 20;
            /* A strictly valid model whose tables re-encode exactly must write back unchanged. */
            if (ue_msh_write(&m, &out, &d) == UE_OK && mode == UE_MODE_STRICT && verified == UE_OK &&
                (out.size != size || memcmp(out.data, data, size) != 0))
                abort();
            ue_buf_free(&out);
            ue_msh_stats st;
            ue_msh_stats_compute(&m, &st);
            size_t visited = 0;
            ue_msh_traverse(&m, 0, 0, count_vertex, &visited);
            ue_scene s;
            ue_scene_init(&s);
            ue_msh_export_options o = {size % 3 == 0 ? 1 : 0, -1, 0};
            ue_msh_to_scene(&m, "fuzz", &o, &s, &d);
            ue_scene_validate(&s, &d);
            ue_scene_free(&s);
            ue_msh_free(&m);
        }
        ue_diag_free(&d);
    }
    return 0;
}
