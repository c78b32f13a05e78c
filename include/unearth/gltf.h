/* unearth — glTF 2.0 export of the scene IR: .glb (one file) or .gltf + .bin, deterministic,
 * validator-clean, with source ids in extras and KHR_animation_pointer targets checked here. */
#ifndef UNEARTH_GLTF_H
#define UNEARTH_GLTF_H

#include "unearth/common.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ue_gltf_format {
    UE_GLTF_GLB = 0,      /* binary container: JSON + BIN chunk in main_out */
    UE_GLTF_SEPARATE = 1  /* .gltf JSON in main_out, the buffer (incl. PNG images) in bin_out */
} ue_gltf_format;

/* Zero-initialised options give a compact .glb with extras. */
typedef struct ue_gltf_options {
    ue_gltf_format format;
    const char *bin_uri;  /* UE_GLTF_SEPARATE: the .bin's URI relative to the .gltf
                             (percent-encoded as needed); NULL → "buffer.bin" */
    bool pretty;          /* indent the JSON by two spaces */
    bool no_extras;       /* leave out the "unearth_source" extras */
    bool no_animation_pointer; /* leave out every KHR_animation_pointer channel (material, UV and
                                  visibility animation) for viewers without the extension; node
                                  TRS channels stay. One info diagnostic says what was left out */
    const char *const *image_uris; /* UE_GLTF_SEPARATE: per scene texture, the PNG file its image
                                      is read from, relative to the .gltf (percent-encoded as
                                      needed); the caller writes ue_png_encode_rgba of the texture
                                      there. NULL: every image is a PNG inside the buffer. Ignored
                                      for GLB, whose images always stay inside */
} ue_gltf_options;

/* Validates the scene (ue_scene_validate + ue_gltf_check_pointers) and, if it has no errors,
 * appends the output to main_out (and bin_out in UE_GLTF_SEPARATE mode; bin_out may be NULL
 * for GLB). Nothing is appended on failure. UE_ERR_INVALID for a scene with errors,
 * UE_ERR_NOMEM on allocation failure or if the GLB would pass 4 GiB. What the IR holds but glTF
 * cannot express (flipbook channels, texture roles without a glTF slot) is left out with a
 * warning in *d naming it (docs/gltf-output.md). */
UE_API ue_result ue_gltf_export(const ue_scene *s, const ue_gltf_options *o, ue_buf *main_out,
                                ue_buf *bin_out, ue_diag *d);

/* The buffer file ue_gltf_write_file writes beside a ".gltf" path ("a/x.gltf" → "a/x.bin");
 * false when `gltf_path` does not end in .gltf or `out` is too small. */
UE_API bool ue_gltf_bin_path(const char *gltf_path, char *out, size_t cap);

/* Writes `path` (".glb" → GLB; ".gltf" → JSON plus "<stem>.bin" beside it) atomically. */
UE_API ue_result ue_gltf_write_file(const ue_scene *s, const char *path, bool pretty, bool overwrite,
                                    ue_diag *d);

/* The same with every export option (`o` NULL: the defaults); o->format is taken from the name. */
UE_API ue_result ue_gltf_write_file_opts(const ue_scene *s, const char *path, const ue_gltf_options *o,
                                         bool overwrite, ue_diag *d);

/* The exporter's reduce-to-4 step for one vertex of n (1..8) joint influences: rows with more
 * than 4 keep their 4 largest weights (an earlier influence wins a tie) in their original
 * order; shorter rows are padded with joint 0, weight 0. The exporter then renormalises the
 * 4 weights to sum to 1. */
UE_API void ue_gltf_reduce_influences(const uint16_t *joints, const float *weights, uint32_t n,
                                      uint16_t out_joints[4], float out_weights[4]);

/* How ue_gltf_export writes one animation channel (the IR's typed target). */
typedef enum ue_gltf_channel_form {
    UE_GLTF_CHANNEL_NODE_PATH = 0,   /* core target: node + translation / rotation / scale */
    UE_GLTF_CHANNEL_POINTER = 1,     /* KHR_animation_pointer */
    UE_GLTF_CHANNEL_MERGED = 2,      /* alpha folded into the base colour channel of its clip */
    UE_GLTF_CHANNEL_UNSUPPORTED = 3  /* left out, with a warning naming it and *why */
} ue_gltf_channel_form;

/* The form of channel `channel` of animation `animation`, and the JSON pointer of the property
 * it drives in `pointer` (for node paths too, e.g. "/nodes/2/rotation"; empty when
 * unsupported). Alpha is written as the whole baseColorFactor; visibility as
 * "/nodes/N/extensions/KHR_node_visibility/visible"; UV targets as the KHR_texture_transform
 * of the slot's glTF texture. The indices must be in range. */
UE_API ue_gltf_channel_form ue_gltf_channel_pointer(const ue_scene *s, size_t animation,
                                                    size_t channel, char *pointer, size_t cap,
                                                    const char **why);

/* Resolves one KHR_animation_pointer JSON pointer against what ue_gltf_export writes for `s`:
 * UE_OK when it names an existing animatable property, with its component count (1–4) and
 * whether it is a quaternion; UE_ERR_INVALID otherwise, with the reason in *d (at `path`). */
UE_API ue_result ue_gltf_resolve_pointer(const ue_scene *s, const char *pointer, uint32_t *components,
                                         bool *quaternion, ue_diag *d, const char *path);
/* Resolves the pointer of every channel the exporter writes as KHR_animation_pointer and
 * checks that it names a property we write, with the component count the exporter gives. */
UE_API ue_result ue_gltf_check_pointers(const ue_scene *s, ue_diag *d);

#ifdef __cplusplus
}
#endif
#endif
