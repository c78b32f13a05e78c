/* unearth — an HSD model shaped like a real game's (many joints, materials, textured meshes and
 * long skeletal clips), built as tables and written by ue_hsd_model_write: bench and fuzz seed. */
#ifndef UNEARTH_BENCH_HSD_BIG_MODEL_H
#define UNEARTH_BENCH_HSD_BIG_MODEL_H

#include <stdint.h>

#include "unearth/common.h"

typedef struct hsd_big_shape {
    uint32_t joints;        /* ≥ 2: a root and chains of 6 under it */
    uint32_t materials;     /* one mesh, one texture each, on joint (m mod joints) */
    uint32_t texture_side;  /* RGB5A3, a multiple of 4 */
    uint32_t grid;          /* each mesh: a grid of grid × grid vertices in triangle strips */
    uint32_t clips, frames; /* skeletal clips over every joint, hermite keys every 10 frames */
} hsd_big_shape;

/* Real fighter- and creature-sized: 48 joints, 50 materials of 64×64, 24 clips of 120 frames. */
#define HSD_BIG_REAL ((hsd_big_shape){48, 50, 64, 10, 24, 120})

/* The DAT bytes into *out (appended). UE_ERR_NOMEM, or the writer's result. */
ue_result hsd_big_model_dat(const hsd_big_shape *shape, ue_buf *out);

#endif
