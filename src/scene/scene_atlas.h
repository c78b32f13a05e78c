/* unearth internal — the one texture-atlas helper of both families: N cell images on a near-square
 * grid, each cell's UV map, and the STEP UV-offset channel that switches cells (docs/scene-ir.md). */
#ifndef UE_SCENE_ATLAS_H
#define UE_SCENE_ATLAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/scene.h"

/* Cells one atlas may hold (HSD: a TObj's image plus its TexAnim tables; MAT0: at most 64). */
#define UE_ATLAS_MAX_CELLS 256u

/* One cell's image: width × height RGBA texels, rows top first. */
typedef struct ue_atlas_image {
    uint32_t width, height;
    const uint8_t *rgba;
} ue_atlas_image;

/* How the cells are laid out; the two families differ (docs/scene-ir.md#atlases). */
typedef struct ue_atlas_style {
    uint32_t gutter;  /* texels on each side of a cell repeating its edge, so linear filtering at
                         a cell's border sees the cell's own texels (0: none) */
    bool fit;         /* an image smaller than the cell is scaled to it by nearest neighbour;
                         false: drawn at its own size in the cell's top-left corner */
    bool pow2;        /* both sides rounded up to a power of two (mipmapped in every viewer) */
    uint32_t max_side; /* a larger side is refused (UE_ERR_LIMIT) */
} ue_atlas_style;

/* The layout: `cols` × `rows` cells of (cell_w + 2·gutter) × (cell_h + 2·gutter) texels from the
 * top left, cell i at column i % cols and row i / cols, cols the smallest c with c² ≥ count, the
 * cell as large as the largest image; texels outside every image stay transparent black. */
typedef struct ue_atlas {
    uint32_t count, cols, rows, cell_w, cell_h, width, height;
    ue_atlas_style style;
    uint32_t *image_size; /* width, height of each cell's image (2 × count) */
} ue_atlas;

/* Lays out `count` images. UE_ERR_USAGE for no image, more than UE_ATLAS_MAX_CELLS or an empty
 * one; UE_ERR_LIMIT when a side exceeds style->max_side (width and height are then still set,
 * saturated at UINT32_MAX, for the caller's message); UE_ERR_NOMEM. Free with ue_atlas_free. */
ue_result ue_atlas_layout(const ue_atlas_image *images, size_t count, const ue_atlas_style *style, ue_atlas *out);
void ue_atlas_free(ue_atlas *a);

/* Paints the images into `rgba` (width × height × 4 bytes, zeroed by the caller). */
void ue_atlas_paint(const ue_atlas *a, const ue_atlas_image *images, uint8_t *rgba);

/* Puts the painted atlas into scene texture `reuse` (its pixels and name replaced) or, with
 * reuse < 0, a new texture named `name`; its index, or -1 out of memory. */
int32_t ue_atlas_texture(ue_scene *s, const ue_atlas *a, const ue_atlas_image *images, const char *name,
                         int32_t reuse);

/* The map of cell `cell` from its image's [0,1]² into the atlas's: uv' = offset + scale ⊙ uv. */
void ue_atlas_cell_map(const ue_atlas *a, size_t cell, double scale[2], double offset[2]);

/* An affine UV map uv → A·uv + b (A row-major 2 × 2) followed by cell `cell`'s map. */
void ue_atlas_compose(const ue_atlas *a, size_t cell, double A[4], double b[2]);

/* A KHR_texture_transform that shows cell `cell` (enabled, no rotation). */
void ue_atlas_cell_transform(const ue_atlas *a, size_t cell, ue_uv_transform *out);

/* One STEP key: from `time` (seconds) on, cell `cell` is shown. */
typedef struct ue_atlas_key {
    float time;
    uint32_t cell;
} ue_atlas_key;

/* Appends to clip `clip` a STEP UV-offset channel on slot `slot` of material `material` with one
 * key per entry of `keys`; NULL out of memory. The caller sets the channel's source. */
ue_anim_channel *ue_atlas_step_channel(ue_scene *s, int32_t clip, int32_t material, int32_t slot,
                                       const ue_atlas *a, const ue_atlas_key *keys, size_t n);

#endif
