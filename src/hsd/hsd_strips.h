/* unearth — internal: triangles into GX triangle strips (hsd_strips.c), the greedy stripifier of
 * edit mode's rebuilt display lists (docs/hsd-import.md#triangles), and their display list. */
#ifndef UNEARTH_HSD_STRIPS_H
#define UNEARTH_HSD_STRIPS_H

#include <stddef.h>
#include <stdint.h>

#include "unearth/common.h"

/* GX primitive opcodes (docs/formats/hsd-model.md#display-lists). */
#define HSD_GX_TRIANGLES 0x90u
#define HSD_GX_TRIANGLE_STRIP 0x98u
#define HSD_GX_MAX_CHUNK 65535u /* vertices one primitive's u16 count holds */

/* Strips over vertex ids: strip i is verts[strip_first[i] … strip_first[i] + strip_len[i]), at
 * least two triangles each; then list_count triangles (three ids each, at verts[list_first])
 * drawn as GX_DRAW_TRIANGLES. Every triangle keeps the winding it was given (GX order). */
typedef struct hsd_strips {
    uint32_t *verts;
    size_t *strip_first, *strip_len;
    size_t strip_count;
    size_t list_first, list_count;
} hsd_strips;

/* Greedy and deterministic: triangles are taken as seeds in input order; a seed starts in the
 * first rotation whose second triangle exists, and the strip grows forward while some unused
 * triangle shares its last edge with the winding the strip's parity needs (the first such
 * triangle in input order). A strip of one triangle, and a triangle with a repeated vertex, goes
 * to the triangle list instead (same bytes per triangle, one primitive header for all). Each
 * input triangle comes out exactly once. Work O(n log n) for n triangles. UE_ERR_NOMEM only. */
ue_result hsd_strips_build(const uint32_t *tris, size_t tri_count, hsd_strips *out);
void hsd_strips_free(hsd_strips *s);

/* The display list of `s`: each strip as GX_DRAW_TRIANGLE_STRIP (a strip past 65535 vertices cut
 * after an even number of triangles, the next piece repeating the cut edge's two vertices, so
 * the winding holds), the list as GX_DRAW_TRIANGLES in pieces of at most 21845 triangles;
 * vertex v's record is the record_bytes at records + record_at[v]. `vat` (0–7) is ORed into
 * each opcode. Padding is the writer's (whole 32-byte units of GX_NOP). UE_ERR_NOMEM only. */
ue_result hsd_strips_display_list(const hsd_strips *s, const uint8_t *records, const uint32_t *record_at,
                                  uint32_t record_bytes, uint8_t vat, ue_buf *out);

#endif
