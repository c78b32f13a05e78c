/* unearth — glTF 2.0 import: a .glb or .gltf (external buffers, data: URIs) read into the scene IR,
 * the source of `unearth import`. Everything the IR cannot hold is an error naming the glTF path. */
#ifndef UNEARTH_GLTF_READ_H
#define UNEARTH_GLTF_READ_H

#include "unearth/common.h"
#include "unearth/scene.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads a glTF document (GLB framing detected by its magic, else JSON) into `out` (initialised
 * by the caller with ue_scene_init): nodes with TRS or matrices, meshes and primitives,
 * materials, skins, TRS animations (LINEAR, STEP, CUBICSPLINE), extras (numbers and strings)
 * on nodes, meshes, materials and animations, and each object's "unearth_source" extras back
 * into its ue_source_id (so an exported model maps back to its source records). `base_dir`
 * resolves relative buffer/image URIs (NULL: only GLB-embedded and data: URIs are allowed;
 * absolute paths, schemes and ".." segments are always refused). glTF indices are kept: IR node
 * i is glTF node i, and so on for meshes (primitives in order), materials, textures, skins and
 * animations. Errors name the glTF path ("/meshes/0/primitives/1/attributes/TEXCOORD_1");
 * UE_ERR_INVALID for malformed or unsupported input (both modes: the reader repairs nothing),
 * UE_ERR_LIMIT when decoding would pass the bounded-work budget, with nothing left in `out`
 * worth using (free it). The scene read passes ue_scene_validate. Work and memory are linear
 * in the input's size plus the files it names (docs/import.md, "Reading glTF"). */
UE_API ue_result ue_gltf_read(const uint8_t *data, size_t size, const char *base_dir, ue_mode mode,
                              ue_scene *out, ue_diag *d);
/* Whether a file's first bytes look like glTF: the GLB magic, or a JSON object (after an
 * optional UTF-8 byte order mark and whitespace). A cheap guess to tell inputs apart (a model
 * given where a glTF is expected); only ue_gltf_read says whether the document is valid. */
UE_API bool ue_gltf_probe(const uint8_t *head, size_t size);
/* Reads the file at `path` (its directory is the base_dir). */
UE_API ue_result ue_gltf_read_file(const char *path, ue_mode mode, ue_scene *out, ue_diag *d);

/* The files a read opened: the document first, then each distinct external buffer or image file
 * once (however many URIs name it), as paths opened (the document's directory + "/" + the URI). */
typedef struct ue_gltf_files {
    char **paths;
    size_t count;
} ue_gltf_files;

/* ue_gltf_read_file that also lists, in `opened` (zeroed by the caller, freed with
 * ue_gltf_files_free), every file it opened, also when the read fails (those opened until then),
 * so a caller can keep its outputs off its inputs. UE_ERR_NOMEM if the list cannot be built. */
UE_API ue_result ue_gltf_read_file_listed(const char *path, ue_mode mode, ue_scene *out,
                                          ue_gltf_files *opened, ue_diag *d);
UE_API void ue_gltf_files_free(ue_gltf_files *files);

#ifdef __cplusplus
}
#endif
#endif
