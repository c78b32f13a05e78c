/* unearth — internal: Melee's FigaTree clip (docs/formats/hsd-animation.md#figatree) laid out in a new DAT: header,
 * per-joint track counts, tracks and their key streams; for the sample pack's bank and the tests. */
#ifndef UE_HSD_WRITE_FIGATREE_H
#define UE_HSD_WRITE_FIGATREE_H

#include "hsd/dat_builder.h"
#include "unearth/hsd_anim.h"

/* One track of a node: what it drives (UE_HSD_JT_*), its key formats (UE_HSD_FMT_*), the s16
 * start frame (docs/formats/hsd-animation.md#evaluation) and its keys, encoded by ue_hsd_keys_encode. */
typedef struct hsd_figatree_track_def {
    uint8_t type, value_format, slope_format;
    int16_t start_frame;
    const ue_hsd_key *keys;
    size_t key_count;
} hsd_figatree_track_def;

/* A clip of `joint_count` nodes (the model's joints in depth-first order): node k has
 * track_counts[k] tracks (0–254), taken from `tracks` in node order. */
typedef struct hsd_figatree_def {
    float frame_count;
    const uint8_t *track_counts;
    size_t joint_count;
    const hsd_figatree_track_def *tracks;
} hsd_figatree_def;

/* Places the clip in `b` and sets *head to its 0x14-byte header's data offset (a root names it).
 * UE_ERR_USAGE for a count the table cannot hold (a node of 255 tracks would read as its end)
 * or keys the format cannot hold; UE_ERR_NOMEM. */
ue_result hsd_figatree_write(ue_dat_builder *b, const hsd_figatree_def *f, uint32_t *head);

/* A whole DAT whose only root, `root_name` (Melee's "…_ACTION_Wait1_figatree"), is the clip. */
ue_result hsd_figatree_dat(const char *root_name, const hsd_figatree_def *f, ue_buf *out);

#endif
