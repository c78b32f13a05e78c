/* unearth — what the glTF writer's three files share: the exporter state (the binary buffer, its
 * views and accessors, the channel plans) and the steps export.c calls in turn. */
#ifndef UE_GLTF_EXPORTER_H
#define UE_GLTF_EXPORTER_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "export/gltf_int.h"
#include "common/json_writer.h"

/* glTF enums */
#define GL_FLOAT 5126u
#define GL_UNSIGNED_BYTE 5121u
#define GL_UNSIGNED_SHORT 5123u
#define GL_UNSIGNED_INT 5125u
#define GL_ARRAY_BUFFER 34962u
#define GL_ELEMENT_ARRAY_BUFFER 34963u

typedef struct accessor {
    uint32_t view;
    uint32_t component_type;
    uint32_t count;
    uint32_t ncomp;          /* components per element (16 for MAT4) */
    bool minmax;
    float min[4], max[4];    /* only for ≤ 4 components (POSITION, animation input) */
} accessor;

typedef struct view {
    size_t offset, length;
    uint32_t stride;         /* 0 = omitted */
    uint32_t target;         /* 0 = omitted */
} view;

typedef struct prim_acc {
    int32_t pos, nrm, tan, jnt, wgt, idx;
    int32_t uv[UE_MAX_UV_SETS];
    int32_t col[UE_MAX_COLOR_SETS];
} prim_acc;

typedef struct sampler_acc {
    int32_t input, output;
} sampler_acc;

/* How one IR channel is written: its form, its pointer, its sampler index within the written
 * animation (-1 when not written) and, for a base colour channel, the alpha folded into it. */
typedef struct chan_plan {
    ue_gltf_channel_form form;
    int32_t sampler;
    int32_t alpha;
    char pointer[192];
} chan_plan;

typedef struct gl_sampler {
    ue_wrap wrap_s, wrap_t;
    bool nearest;
} gl_sampler;

typedef struct exporter {
    const ue_scene *s;
    const ue_gltf_options *o;
    ue_diag *d;
    ue_buf bin;
    accessor *acc;
    size_t nacc, cap_acc;
    view *views;
    size_t nviews, cap_views;
    prim_acc *prims;          /* flattened over meshes, in mesh then primitive order */
    size_t *prim_base;        /* first flattened primitive of each mesh */
    int32_t *skin_ibm;
    sampler_acc *samplers;    /* flattened over animations, one per channel */
    chan_plan *plans;         /* flattened like samplers */
    bool *node_visibility;    /* per node: gets a KHR_node_visibility object */
    size_t *chan_base;
    int32_t *image_view;      /* per texture: its PNG's view; -1 when it shares an earlier image or is a file */
    int32_t *texture_image;   /* per texture: the glTF image it reads (identical pixels share) */
    int32_t *texture_sampler;
    size_t *child_start;      /* children of node i: child_list[child_start[i] .. [i + 1]) */
    size_t *child_list;
    gl_sampler *gl_samplers;
    size_t ngl_samplers;
    const ue_scene_material *extra_slots_of; /* while its extras are written */
    bool nomem;
} exporter;

static inline void normalize4(const float *in, float *out) {
    double x = in[0], y = in[1], z = in[2], w = in[3], l = sqrt(x * x + y * y + z * z + w * w);
    out[0] = (float)(x / l);
    out[1] = (float)(y / l);
    out[2] = (float)(z / l);
    out[3] = (float)(w / l);
}

/* The file image t is read from (a .gltf whose caller writes its PNGs), or NULL when the image
 * is a PNG inside the buffer (always in a GLB). */
static inline const char *image_uri(const exporter *e, size_t t) {
    return e->o->format == UE_GLTF_SEPARATE && e->o->image_uris ? e->o->image_uris[t] : NULL;
}

/* gltf_buffers.c: lays every primitive, skin, animation sampler and image into e->bin. */
void ue_gltf_write_binary(exporter *e);

/* gltf_json.c: the whole glTF JSON, one top-level property after another. */
void ue_gltf_write_json(exporter *e, ue_json *j);

#endif
