/* unearth CLI — internal: the one naming rule of texture files (docs/text.md#texture-files), shared
 * by `textures` and by `convert`'s .obj and .gltf outputs, and the PNG files an output carries. */
#ifndef UE_CLI_TEXTURE_FILES_H
#define UE_CLI_TEXTURE_FILES_H

#include "cli/out_names.h"
#include "unearth/scene.h"

/* The IMAGE part of a texture file name: letters of every script, digits, '-' and '_' are kept,
 * anything else (dots, spaces, punctuation, controls, bytes that are not UTF-8) becomes '_';
 * "image" when nothing is left. Never splits a character. */
void texture_file_part(const char *image, char *out, size_t cap);

/* Gives out the file name STEM.IMAGE.png (IMAGE by texture_file_part; "~2", "~3" ... after it
 * when the name, ignoring case, was given out by `names` before). UE_ERR_USAGE when too long. */
ue_result texture_file_place(out_names *names, const char *stem, const char *image, char *out, size_t cap);

/* The PNG files of one output: one per distinct image (a texture with the name and pixels of an
 * earlier one shares its file), named after `stem`, encoded as a GLB embeds them. */
typedef struct texture_file {
    char *name;   /* the file name, beside the output */
    ue_buf png;
} texture_file;

typedef struct texture_files {
    const char **of_texture; /* per scene texture: its file's name, NULL when it has none */
    texture_file *files;
    size_t count;
} texture_files;

/* Files for every texture of `s` (`map_kd_only`: only those an MTL names, the base colour of
 * a material). Fills *out (freed with texture_files_free, also on failure). */
ue_result texture_files_make(const ue_scene *s, const char *stem, bool map_kd_only, texture_files *out);
void texture_files_free(texture_files *t);

#endif
