/* unearth — internal: a new HSD model from any glTF (hsd_new*.c, docs/hsd-import.md#new-models):
 * the pure choices (Euler angles, attribute formats, texture sides) shared with their unit tests. */
#ifndef UNEARTH_HSD_NEW_INT_H
#define UNEARTH_HSD_NEW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unearth/hsd_import.h"
#include "unearth/hsd_model.h"
#include "unearth/scene.h"

/* The joint Euler angles (radians, applied X, then Y, then Z: R = Rz·Ry·Rx) of a quaternion x, y, z, w
 * (normalised here): hsd_quat_to_euler_near's solution nearest (0, 0, 0), so each angle lies in
 * −π … π; at gimbal lock (cos y = 0) x is 0 and z takes the rest. */
void hsd_euler_from_quaternion(const float q[4], float euler[3]);

/* A GX component format for `n` values: the first of U8, S8, U16, S16 (in that order, each with
 * the largest fractional shift 0…31 whose range holds every value) whose largest error
 * |q / 2^frac − v| is within `tolerance`, else F32. `normal`: only S8 with shift 6 and S16 with
 * shift 14 (the scales the hardware uses for normals). */
typedef struct hsd_comp_choice {
    uint32_t comp_type;            /* HSD_COMP_* */
    uint32_t frac;
    double max_error;              /* 0 for F32 */
} hsd_comp_choice;
hsd_comp_choice hsd_choose_component(const float *v, size_t n, double tolerance, bool normal);

/* The smallest GX vertex colour format (RGB565, RGBA4, RGB8, RGBA6, RGBA8; 0…5 as the descriptor
 * numbers them) whose decoded channels (bit replication) are within 0.5/255 of every value;
 * formats without alpha only when every alpha is 1. `rgba` holds n colours. */
uint32_t hsd_choose_color_format(const float *rgba, size_t n);

/* A texture side for GX: the largest power of two not above the side, capped at 512. */
uint32_t hsd_texture_side(uint32_t side);
/* Area-average resampling of an RGBA8 image to a side each not larger than the source's: every
 * target texel the mean of the source texels under it, each weighted by the part it covers. */
void hsd_resample_rgba(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh);

#endif
