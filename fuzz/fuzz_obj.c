/* libFuzzer target: the Wavefront OBJ reader behind `edit --vertices` on arbitrary text; a mesh
 * it accepts must be internally consistent (every index names a vertex, arrays match). */
#include <stdlib.h>
#include <string.h>

#include "unearth/obj_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The CLI's limit (MSH vertex indices are 16-bit), so the fuzzer sees the same refusals. */
#define MAX_VERTICES 65535u

static void check_mesh(const ue_obj_mesh *m) {
    if (m->vertex_count > MAX_VERTICES) abort();
    if (m->vertex_count && !m->positions) abort();
    for (size_t i = 0; i < m->index_count; i++)
        if (m->indices[i] >= m->vertex_count) abort();
    if (m->index_count % 3 != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    ue_obj_mesh m;
    ue_diag d = {0};
    d.max_items = 50;
    ue_result r = ue_obj_read((const char *)data, size, MAX_VERTICES, &m, &d);
    if (r == UE_OK) {
        check_mesh(&m);
        ue_obj_mesh_free(&m);
    } else if (r == UE_ERR_INVALID && ue_diag_count(&d, UE_SEV_ERROR) == 0) {
        abort(); /* a refusal always says why */
    }
    ue_diag_free(&d);
    return 0;
}
