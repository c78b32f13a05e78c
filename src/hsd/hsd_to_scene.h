/* unearth — internal: an HSD model (ue_hsd_model) as scene IR — joint nodes, one skin per model
 * set, meshes baked to the bind pose by the rule of docs/formats/hsd-model.md#skinning — and the Shift-JIS names of the DAT. */
#ifndef UNEARTH_HSD_TO_SCENE_H
#define UNEARTH_HSD_TO_SCENE_H

#include <string.h>

#include "common/math3d.h"
#include "common/parse.h"
#include "hsd/hsd_pose.h"
#include "hsd/hsd_scene.h"
#include "unearth/hsd_model.h"
#include "unearth/scene.h"

/* Struct kinds in the `type` of an HSD source id ("hsd", kind, data offset, table index). */
enum {
    HSD_KIND_JOBJ = 1,
    HSD_KIND_DOBJ = 2,
    HSD_KIND_POBJ = 3,
    HSD_KIND_MOBJ = 4,
    HSD_KIND_TOBJ = 5,
    HSD_KIND_ANIMJOINT = 6, /* an AnimJoint node (skeletal channels, skeletal clips) */
    HSD_KIND_MATANIM = 7,   /* a MatAnim (colour channels) or a MatAnimJoint root (material clips) */
    HSD_KIND_TEXANIM = 8    /* a TexAnim (UV and texture-swap channels) */
};
ue_source_id hsd_source_id(uint32_t kind, uint32_t data_offset, size_t index);

/* A DAT name (Shift-JIS, as the game's class names are) as UTF-8 cut to `cap` bytes on a
 * character boundary: ASCII is copied, the rest converted by iconv, and bytes that are no
 * Shift-JIS become "\xNN". */
void hsd_name_utf8(const char *raw, char *out, size_t cap);

/* Appends the model under a root node `name`: docs/hsd.md "glTF mapping". Strict mode fails on
 * any violation; tolerant mode leaves out what is damaged and says so. */
ue_result hsd_model_to_scene(const ue_hsd_model *m, const char *name, ue_mode mode, ue_scene *s, ue_diag *d);

/* A joint's glTF node transform: the local matrix (docs/formats/hsd-model.md#joint-matrices) as translation, rotation (x y z w) and
 * scale. Exact when the matrix has orthogonal columns; otherwise (shear from compensated
 * scale) the nearest T·R·S by Gram–Schmidt, and false. */
bool hsd_local_to_trs(const double local[16], float t[3], float q[4], float s[3]);
/* The same TRS, bit for bit, without the exactness check (a clip's frames do not report it). */
void hsd_local_to_trs_unchecked(const double local[16], float t[3], float q[4], float s[3]);
/* The TRS of a local matrix that is exactly T·R·diag(scale) (no scale compensation), straight
 * from the SRT without the matrix: t and s bit for bit hsd_local_to_trs's, the quaternion from
 * the Euler angles' halves (as exact as the decomposition's or more: within the last bit of a
 * float) with the sign hsd_local_to_trs picks. False, nothing written, where the decomposition
 * would turn axes or fall back: a value not finite, scale x or y not above 1e-11, scale z 0. */
bool hsd_srt_to_trs(const float rot[3], const float scale[3], const float trans[3], float t[3], float q[4],
                    float s[3]);

/* ---- shared by hsd_to_scene.c (joints, skins) and hsd_scene_mesh.c (meshes) ---------------- */

typedef struct hsd_scene_ctx {
    const ue_hsd_model *m;
    ue_scene *s;
    ue_parse_ctx c;
    hsd_pose pose;
    int32_t root;            /* the model's root node */
    int32_t *joint_node;     /* per model joint: its scene node, -1 when in no set */
    int32_t *joint_skin;     /* per model joint: its set's skin index, -1 when in no set */
    int32_t *skin_index;     /* per model joint: its position in that skin's joint list */
    uint8_t *drawn;          /* per dobj / pobj: already converted (shared rows are drawn once) */
    hsd_material_map materials;
    size_t zero_normals, sheared_joints, primitives, zero_uv_primitives;
    uint64_t samples_left;   /* the sample budget all clips of the model share (hsd_anim_scene.c) */
} hsd_scene_ctx;

/* The meshes of joint `j` (its DObj list → one primitive per (DObj, PObj)), on one skinned mesh
 * node that is a scene root (glTF ignores its transform); hidden when the joint is HIDDEN. */
ue_result hsd_scene_joint_meshes(hsd_scene_ctx *x, size_t j);

#endif
