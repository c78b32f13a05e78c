/* unearth render layer — what its files share: the posed scene (nodes and materials at a clip's
 * frame) and the triangle rasteriser's framebuffer and vertex form. */
#ifndef UE_RENDER_INT_H
#define UE_RENDER_INT_H

#include "unearth/preview.h"

/* ---- pose (pose.c): the scene at a clip's frame ------------------------------------------ */

/* What a frame changes of one material: its colour and each slot's transform and texture. */
typedef struct render_material {
    float base_color[4];
    ue_uv_transform transforms[UE_MAX_TEXTURE_SLOTS];
    int32_t textures[UE_MAX_TEXTURE_SLOTS];
} render_material;

typedef struct render_pose {
    float *world;              /* 16 × node_count, column-major world matrices */
    bool *visible;             /* per node: shown, its ancestors too */
    render_material *materials;/* per scene material */
} render_pose;

/* The scene posed at `clip` (NULL: the rest pose) and `frame`. UE_ERR_USAGE for an unknown clip
 * or a frame outside it (said in `d`), UE_ERR_INVALID for a parent cycle, UE_ERR_NOMEM. */
ue_result render_pose_build(const ue_scene *s, const char *clip, double frame, render_pose *p, ue_diag *d);
void render_pose_free(render_pose *p);

/* ---- the rasteriser (raster.c) ----------------------------------------------------------- */

/* The pixels a picture can draw: the rectangle of the image (x0, y0, width × height) that holds the
 * model's projected bounds; the rest of the image is background and costs nothing. */
typedef struct render_rect {
    uint32_t x0, y0, width, height;
} render_rect;

typedef struct render_target {
    uint32_t size;             /* the image's side */
    render_rect rect;          /* the only pixels drawn; color and depth cover just these */
    float *color;              /* 4 × rect pixels, straight-alpha RGBA in 0..1, row by row */
    float *depth;              /* rect pixels, smaller is nearer */
} render_target;

/* A vertex after projection: pixel coordinates, depth, 1/w, and its attributes divided by w
 * (the rasteriser interpolates them linearly in screen space and divides by the interpolated
 * 1/w, which is what makes texture coordinates perspective-correct). */
typedef struct render_vertex {
    double x, y;               /* pixels, y down */
    float z;                   /* depth, interpolated linearly in screen space */
    float inv_w;
    float uv_w[2];             /* u/w, v/w */
    float shade_w[2][4];       /* (vertex colour × light) / w: [0] lit as a front face, [1] as a back face */
} render_vertex;

/* How a triangle's pixels are coloured. */
typedef struct render_paint {
    const ue_scene_texture *texture; /* NULL: no texture */
    float base_color[4];
    ue_alpha_mode alpha_mode;
    float alpha_cutoff;
    bool depth_write;
} render_paint;

/* A target of a size × size image drawing only in `rect` (inside the image): colour cleared to
 * transparent, depth to infinity. */
ue_result render_target_init(render_target *t, uint32_t size, render_rect rect);
void render_target_free(render_target *t);
/* Draws one triangle (already culled or not by the caller): `back` picks the shade set. */
void render_triangle(render_target *t, const render_vertex *v0, const render_vertex *v1,
                     const render_vertex *v2, bool back, const render_paint *paint);
/* The texture's bilinear (or nearest, as its sampler says) sample at (u, v), wrap modes applied;
 * out in 0..1. */
void render_sample(const ue_scene_texture *tex, float u, float v, float out[4]);

#endif
