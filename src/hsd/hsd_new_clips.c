/* unearth — a new HSD model's clips (docs/hsd-import.md#new-models): each glTF animation on the joints
 * becomes an AnimJoint tree in the ModelSet's anims[], encoded as edit mode encodes a new clip. */
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_import_int.h"
#include "hsd/hsd_new.h"

ue_result hsd_new_clips(hsd_new *b, hsd_clip_plan *plan) {
    memset(plan, 0, sizeof *plan);
    if (!b->s->animation_count) return UE_OK;
    ue_hsd_model_set set = {0, "scene_data", 0, 0, 0, 0}; /* the one set write_checked writes */
    b->m.sets = &set;
    b->m.set_count = 1;
    ue_result r = hsd_plan_new_clips(&b->m, b->s, b->joint_of_node, plan, b->d);
    if (r == UE_OK) r = hsd_apply_clip_plan(&b->m, plan);
    b->m.sets = NULL;
    b->m.set_count = 0;
    b->st.clips = plan->count;
    return r;
}

ue_result hsd_new_clips_check(const hsd_clip_plan *plan, ue_buf *out, ue_diag *d) {
    ue_result r = plan->count ? hsd_verify_written_clips(out->data, out->size, plan, d) : UE_OK;
    if (r != UE_OK) ue_buf_free(out); /* nothing is returned that failed its check */
    return r;
}

void hsd_new_clips_free(hsd_new *b, hsd_clip_plan *plan) {
    ue_hsd_anims *a = &b->m.anims;
    free(a->clips), free(a->targets), free(a->aobjs), free(a->tracks);
    memset(a, 0, sizeof *a);
    hsd_clip_plan_free(plan); /* after the tables: their track rows pointed into its key bytes */
}
