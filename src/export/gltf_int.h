/* unearth — what the glTF writer (export.c, gltf_json.c) and its pointer checks (pointer.c)
 * must agree on: where each texture slot is written and which nodes get a KHR_node_visibility
 * object. */
#ifndef UE_GLTF_INT_H
#define UE_GLTF_INT_H

#include "unearth/gltf.h"

/* The JSON path, below the material, of the textureInfo the exporter writes for slot `k`
 * ("pbrMetallicRoughness/baseColorTexture", "normalTexture", ...), or NULL when the slot is
 * not written: its role has no glTF slot, or an earlier slot already took the role. */
const char *ue_gltf_slot_location(const ue_scene_material *m, size_t k);

/* Whether node `n` gets a KHR_node_visibility object: it starts hidden, or a channel the
 * exporter keeps animates its visibility (the pointer needs the object to exist). */
bool ue_gltf_node_has_visibility(const ue_scene *s, size_t n);

#endif
