/* unearth — internal: Melee's FigaTree clips (docs/formats/hsd-animation.md#figatree) read from any DAT and bound by
 * joint index to a model's joints, as skeletal clips of its anims (docs/hsd-animation.md). */
#ifndef UE_HSD_FIGATREE_H
#define UE_HSD_FIGATREE_H

#include "common/json_writer.h"

#include "common/parse.h"
#include "unearth/hsd_model.h"
#include "unearth/model_format.h"

/* The FigaTree struct (0x14): u32 type, u32 (unused), f32 frame count, P u8 track counts (one per
 * joint in depth-first order, 0xFF-terminated), P tracks (0x0C each, node by node). */
#define HSD_FIGATREE_SIZE 0x14u
#define HSD_FIGATREE_TRACK 0x0Cu

typedef struct hsd_figatree_head {
    uint32_t offset;        /* the struct's data offset */
    uint32_t type;
    float frame_count;
    uint32_t joint_count, track_count;
    uint32_t counts_offset, tracks_offset; /* data offsets (0 when absent) */
} hsd_figatree_head;

/* What one DAT's FigaTrees may still cost: key-stream bytes decoded, count-table bytes scanned,
 * track rows read. FigaTrees that share no table fit; tables shared past it are refused
 * (hsd.anim.budget), so work stays linear in the file. A struct named by several roots is read
 * once by every caller, which keys FigaTrees by data offset. */
typedef struct hsd_figatree_budget {
    uint64_t key_bytes, count_bytes, rows;
} hsd_figatree_budget;
hsd_figatree_budget hsd_figatree_budget_of(const ue_dat *dat);

/* The header at data offset `off` of `dat` and its count table; a broken one is a violation at
 * `path` (offsets absolute in the DAT) and false. The count scan is charged to `b`. */
bool hsd_figatree_head_read(const ue_dat *dat, uint32_t off, ue_parse_ctx *c, const char *path,
                            hsd_figatree_budget *b, hsd_figatree_head *h);

/* validate: the FigaTree at `off` read whole (header, tracks, key streams) in c's mode, nothing
 * kept; every defect reported once, under hsd.figatree.* (hsd.anim.budget past `b`). The one
 * checker of FigaTrees: `validate` of any DAT and `convert` read them with the same code. False
 * only when memory ran out. */
bool hsd_figatree_check(const ue_dat *dat, uint32_t off, ue_parse_ctx *c, hsd_figatree_budget *b,
                        const char *path);

/* "PlyMario5K_Share_ACTION_Wait1_figatree" → "Wait1": what follows the last "_ACTION_", without
 * "_figatree"; a name without "_ACTION_" loses only the suffix. */
void hsd_figatree_clip_name(const char *root_name, char *out, size_t cap);

/* `info`: one record per FigaTree root {clip, frames, joints, root}, written as items of the
 * array the caller opened in `w` (with "entry": bank_entry first when that is >= 0), and the
 * same as text lines ("  clip Wait1: 50 frames, 61 joints"). */
void hsd_figatree_write_clips(const ue_dat *dat, int64_t bank_entry, ue_json *w);
void hsd_figatree_clips_text(const ue_dat *dat, ue_buf *b);

/* The DATs whose clips a model was given: they hold the names and key bytes the clips point at,
 * so they live until the scene is built. */
typedef struct hsd_figatree_files {
    ue_dat *dats;
    size_t count;
} hsd_figatree_files;

/* Every FigaTree clip of the model's own DAT and of each "anims" option (a file or ARCHIVE:ENTRY
 * holding a bank of DATs or one DAT), appended to m->anims as skeletal clips of the first
 * `*_joint` set (else the first set): node k drives the set's joint k in depth-first order.
 * A clip whose joint count is not the set's is left out with a warning; a file none of whose
 * clips fits is an error naming both counts (hsd.figatree.joints), and so is one with no clip. */
ue_result hsd_figatree_attach_all(ue_hsd_model *m, const ue_model_options *opts, ue_mode mode,
                                  hsd_figatree_files *files, ue_diag *d);
void hsd_figatree_files_free(hsd_figatree_files *files);

#endif
