/* unearth — Wavefront OBJ import: one OBJ file read as a triangle list, the geometry source of
 * `edit --replace-slot`. */
#ifndef UNEARTH_OBJ_READ_H
#define UNEARTH_OBJ_READ_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One OBJ file read as a single triangle list: every distinct v/vt/vn triple becomes a vertex;
 * polygons are fanned into triangles; groups, objects and materials are ignored. */
typedef struct ue_obj_mesh {
    float *positions;     /* 3 × vertex_count */
    float *normals;       /* 3 × vertex_count, or NULL when no face uses vn */
    float *uvs;           /* 2 × vertex_count (as in the file, v up), or NULL when no face uses vt */
    size_t vertex_count;
    uint32_t *indices;
    size_t index_count;
} ue_obj_mesh;

/* Parses OBJ text (`text` is only read during the call; it need not end in NUL). Errors (bad
 * numbers, indices out of range) give UE_ERR_INVALID and more than `max_vertices` vertices
 * UE_ERR_LIMIT, each with a diagnostic naming the line. `out` owns its arrays: free it with
 * ue_obj_mesh_free whatever the result. */
UE_API ue_result ue_obj_read(const char *text, size_t size, size_t max_vertices, ue_obj_mesh *out,
                             ue_diag *d);
UE_API void ue_obj_mesh_free(ue_obj_mesh *m);

#ifdef __cplusplus
}
#endif
#endif
