/* unearth CLI — internal: one converted model as the files of its output (the .glb, .gltf or .obj,
 * its .bin or .mtl, the PNG files beside a .gltf or .obj), shared by single and batch convert. */
#ifndef UE_CLI_OUTPUT_PARTS_H
#define UE_CLI_OUTPUT_PARTS_H

#include "cli/texture_files.h"

typedef struct output_parts {
    ue_buf main, side;      /* the output; its .bin or .mtl (empty for a GLB) */
    char side_path[4096];   /* the .bin or .mtl beside the output; "" for a GLB */
    texture_files textures; /* the PNG files beside an .obj or .gltf */
} output_parts;

/* The scene exported as the output `path` of `type` ("glb", "gltf" or "obj"): a GLB holds
 * everything; a .gltf names its .bin and its PNG files, an .obj its .mtl, which names the PNG
 * files of the materials' base colours. Texture files are named after the file that names them
 * (the .gltf, the .mtl). Free *p with output_parts_free, also on failure. */
ue_result output_parts_export(const ue_scene *s, const char *path, const char *type, bool no_animation_pointer,
                              output_parts *p, ue_diag *d);
void output_parts_free(output_parts *p);
/* The path of a texture file: beside `path` (its directory, then the file's name). False when
 * it does not fit. */
bool output_parts_beside(const char *path, const char *name, char *out, size_t cap);

#endif
