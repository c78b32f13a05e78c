/* unearth — previews: a software rasteriser that draws a scene IR into an RGBA image from one of
 * six orthographic views, and contact sheets of labelled thumbnails (docs/preview.md). */
#ifndef UNEARTH_PREVIEW_H
#define UNEARTH_PREVIEW_H

#include "unearth/common.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The six views; docs/preview.md gives each one's exact direction and up vector. */
typedef enum ue_preview_view {
    UE_VIEW_FRONT, UE_VIEW_BACK, UE_VIEW_LEFT, UE_VIEW_RIGHT, UE_VIEW_TOP, UE_VIEW_ISO
} ue_preview_view;
#define UE_VIEW_COUNT 6

#define UE_PREVIEW_SIZE_MAX 8192 /* largest image side ue_preview_render draws */

typedef struct ue_preview_options {
    uint32_t size;            /* square image side in pixels, 1..UE_PREVIEW_SIZE_MAX; default 256 */
    ue_preview_view view;     /* default UE_VIEW_ISO */
    bool transparent;         /* background alpha 0 (default), else background_rgb, opaque */
    uint8_t background_rgb[3];/* default 0, 0, 0 */
    const char *clip;         /* an animation's name; NULL: the bind pose (nodes at rest) */
    double frame;             /* frame within the clip, in frames at the clip's own rate
                                 (ue_scene_animation.fps, 30 when it is 0), counted from its
                                 start: seconds = frame / fps; 0..the clip's end */
} ue_preview_options;

/* Size 256, the iso view, a transparent background, the bind pose. */
UE_API void ue_preview_options_default(ue_preview_options *o);
/* Draws `scene` into `rgba` (size × size × 4 bytes, rows top to bottom, straight alpha). Every
 * visible node with a mesh is drawn, posed at the clip's frame; the view is framed on the posed
 * model's bounds. Deterministic: the same scene and options give the same bytes. UE_ERR_USAGE
 * for bad options (size, view, a clip the scene has not, a frame outside it), UE_ERR_INVALID
 * for a node whose parent chain is a cycle or leaves the node table (preview.nodes) and for
 * posed geometry of no finite vertex (preview.nonfinite: vertices that are not finite are left
 * out, with a warning, when others are), UE_ERR_LIMIT past the work limits of
 * docs/preview.md#limits (preview.limit), UE_ERR_NOMEM when out of memory. A scene with nothing
 * to draw gives the background alone. */
UE_API ue_result ue_preview_render(const ue_scene *scene, const ue_preview_options *o, uint8_t *rgba,
                                   ue_diag *d);
/* "front", "back", "left", "right", "top", "iso" (any letter case); UE_ERR_USAGE otherwise. */
UE_API ue_result ue_preview_view_parse(const char *name, ue_preview_view *out);
/* The name of a view ("iso"), or "?" for a value out of range. */
UE_API const char *ue_preview_view_name(ue_preview_view view);

/* The camera ue_preview_render uses, for anyone who draws the same view elsewhere (a browser
 * cross-check): world-space, right-handed, orthographic. A world point P lands on the pixel
 * column (dot(P - center, right) / extent + 0.5) × size and row
 * (0.5 - dot(P - center, up) / extent) × size. */
typedef struct ue_preview_camera {
    double forward[3];        /* unit direction the camera looks along */
    double up[3];             /* unit, the image's upward direction */
    double right[3];          /* unit, forward × up */
    double center[3];         /* the world point at the image's centre */
    double extent;            /* world units across the image's side (> 0 and finite when
                                 ue_preview_camera_get returns UE_OK) */
    double near_depth, far_depth; /* dot(P - center, forward) of the nearest and farthest bound */
    bool empty;               /* nothing to draw (the camera is then a unit frame at the origin) */
} ue_preview_camera;
/* The same results as ue_preview_render for the same scene and options. */
UE_API ue_result ue_preview_camera_get(const ue_scene *scene, const ue_preview_options *o,
                                       ue_preview_camera *out, ue_diag *d);

/* ---- contact sheets ---------------------------------------------------------------------- */

/* One thumbnail of a sheet: an RGBA image (any size) and its label (UTF-8; drawn in ASCII, any
 * other character as '?', cut with ".." in front when it does not fit). */
typedef struct ue_sheet_cell {
    const uint8_t *rgba;
    uint32_t width, height;
    const char *label;
} ue_sheet_cell;

typedef struct ue_sheet_options {
    uint32_t cell;            /* side of each thumbnail's square, 16..1024; default 128 */
    uint32_t columns;         /* 0: the smallest n with n × n ≥ count */
    bool transparent;         /* background alpha 0, else background_rgb */
    uint8_t background_rgb[3];
    uint8_t text_rgb[3];      /* label colour; default 255, 255, 255 */
} ue_sheet_options;
UE_API void ue_sheet_options_default(ue_sheet_options *o);
/* The grid of a sheet of `count` cells: columns × rows, and its size in pixels. */
typedef struct ue_sheet_grid {
    uint32_t columns, rows, width, height;
    size_t count;
} ue_sheet_grid;
/* The grid of `count` cells before any is drawn, so a caller refuses a sheet too large before
 * any work: UE_ERR_USAGE for no cells or bad options, UE_ERR_LIMIT past 16384 pixels a side. */
UE_API ue_result ue_sheet_layout(size_t count, const ue_sheet_options *o, ue_sheet_grid *g, ue_diag *d);
/* The sheet's background, g->width × g->height × 4 bytes in *rgba (free it); UE_ERR_NOMEM. */
UE_API ue_result ue_sheet_begin(const ue_sheet_grid *g, const ue_sheet_options *o, uint8_t **rgba);
/* Draws cell `index` (its image scaled and its label) into a sheet from ue_sheet_begin; the
 * cell's pixels may be freed after. */
UE_API void ue_sheet_put(uint8_t *rgba, const ue_sheet_grid *g, const ue_sheet_options *o, size_t index,
                         const ue_sheet_cell *cell);
/* Lays the cells out in a grid, each image scaled (nearest texel, aspect kept) to fit its
 * square and centred, its label under it (docs/preview.md#contact-sheets); *rgba is allocated
 * (free it with free) as *width × *height × 4 bytes. UE_ERR_USAGE for no cells or bad options,
 * UE_ERR_LIMIT past 16384 pixels a side, UE_ERR_NOMEM when out of memory. */
UE_API ue_result ue_sheet_compose(const ue_sheet_cell *cells, size_t count, const ue_sheet_options *o,
                                  uint8_t **rgba, uint32_t *width, uint32_t *height, ue_diag *d);

/* The built-in 5×7 bitmap font of sheet labels (ASCII 32..126, a cell of 6×9 pixels): draws
 * `text` with its top-left corner at (x, y) into an RGBA image, clipped to it. */
#define UE_FONT_ADVANCE 6
#define UE_FONT_LINE 9
UE_API void ue_font_draw(uint8_t *rgba, uint32_t width, uint32_t height, int32_t x, int32_t y,
                         const char *text, const uint8_t rgb[3]);

#ifdef __cplusplus
}
#endif
#endif
