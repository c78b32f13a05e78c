/* unearth — internal: what the two halves of the animation-tree reader share (hsd_read_anim.c:
 * clips, AnimJoint trees, AObj and FObj rows; hsd_read_matanim.c: MatAnimJoint → MatAnim → TexAnim). */
#ifndef UNEARTH_HSD_READ_ANIM_H
#define UNEARTH_HSD_READ_ANIM_H

#include "common/json_writer.h"

#include "hsd/hsd_int.h"

#define HSD_ANIM_PATH 192u /* bytes of a diagnostic path */

/* One animation read in progress: the model reader, the capacities of the anims arrays (their
 * counts live in the model) and the budgets that keep work linear in the DAT's size whatever
 * the counts in it claim. */
/* Per AObj row that a TexAnim used: its largest TIMG and TCLT key (-1: none), so a shared AObj
 * is checked against every TexAnim's table sizes in O(1) (hsd_read_matanim.c). */
typedef struct hsd_table_keys {
    bool known;
    float max[2]; /* TIMG, TCLT */
} hsd_table_keys;

typedef struct hsd_anim_reader {
    hsd_reader *r;
    size_t cap_targets, cap_aobjs, cap_tracks, cap_keys, cap_images, cap_tluts;
    uint64_t key_bytes_left;   /* key-stream bytes still to decode (shared streams count again) */
    uint64_t table_slots_left; /* TIMG/TCLT table entries still to read */
    int32_t (*tobj_by_id)[8];  /* per TObj row: the first TObj of its chain with id k, made on
                                  first use (hsd_read_matanim.c); freed by hsd_read_anims */
    hsd_table_keys *table_keys; /* per AObj row, grown on use; freed by hsd_read_anims */
    size_t cap_table_keys;
} hsd_anim_reader;

/* The AObjDesc named by the pointer field at `field` (path "<node>/aobj"): its row in
 * anims.aobjs (a shared AObj is one row), -1 for NULL or a broken one. *fresh is true when this
 * call read it (so per-row checks run once). */
int32_t hsd_anim_read_aobj(hsd_anim_reader *ar, uint32_t field, const char *path, bool *fresh);

/* Appends a target row; its index, or -1 when memory ran out. */
int32_t hsd_anim_add_target(hsd_anim_reader *ar, const ue_hsd_anim_target *t);

/* One kind of animation tree that mirrors the JObj tree (AnimJoint, MatAnimJoint): the reader's
 * struct kind (one visit per data offset), the node size, the offsets of its child and next
 * links, the name diagnostics use, and what to do at a node bound to joint `joint` (its path
 * "<clip>/joint[j]" in `node`); false stops the walk (out of memory). */
typedef struct hsd_anim_tree_kind {
    hsd_kind map_kind;
    uint32_t node_size, child_field, next_field;
    const char *name;
    bool (*visit)(hsd_anim_reader *ar, uint32_t off, int32_t joint, const char *node);
} hsd_anim_tree_kind;

/* Binds the tree whose root node sits at `off` (reached through the field at `from`) to joint
 * `joint`, walking both trees in lock-step (child ↔ child, next ↔ next; docs/formats/hsd-animation.md#tree-shapes) and
 * calling the kind's visit in pre-order. A NULL node leaves the joint and its subtree
 * unanimated; a node reached twice (a cycle or a shared subtree) or one where the JObj tree has
 * no joint is a violation and dropped with what hangs below and after it. An INSTANCE joint's
 * child is not descended, as the runtime does not. `clip` names the clip
 * ("dat/scene/model[0]/anims[1]"), `where` the link to the node. Recursion follows children
 * only, so its depth is bounded by the joint tree's (HSD_MAX_DEPTH). */
void hsd_anim_walk_tree(hsd_anim_reader *ar, const hsd_anim_tree_kind *k, uint32_t off,
                        uint32_t from, int32_t joint, const char *clip, const char *where);

/* The MatAnimJoint kind (hsd_read_matanim.c): its visit appends the MATERIAL and TEXTURE targets
 * of the joint's MatAnim list. */
extern const hsd_anim_tree_kind hsd_matanim_tree;

/* `info` (hsd_anim_info.c): one JSON object per clip, and the same as text lines. */
void hsd_anims_write(const ue_hsd_model *m, ue_json *w);
void hsd_anims_text(const ue_hsd_model *m, ue_buf *b);

/* The file offset of a data offset, for diagnostics. */
static inline uint64_t hsd_anim_file_at(uint32_t data_offset) {
    return UE_DAT_HEADER + (uint64_t)data_offset;
}

#endif
