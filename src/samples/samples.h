/* unearth — the built-in sample pack: synthetic assets built by our own writers, used by
 * `unearth demo`, the README's main command, the tests, and the fuzzers' seed corpora. */
#ifndef UNEARTH_SAMPLES_H
#define UNEARTH_SAMPLES_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ue_sample_file {
    char path[128];   /* relative path inside the demo directory, e.g. "parkan/objects.rlb" */
    uint8_t *data;
    size_t size;
} ue_sample_file;

typedef struct ue_sample_list {
    ue_sample_file *items;
    size_t count;
} ue_sample_list;

/* Takes ownership of data (malloc'd). */
ue_result ue_sample_list_add(ue_sample_list *l, const char *path, uint8_t *data, size_t size);
void ue_sample_list_free(ue_sample_list *l);

/* Every sample of the pack, deterministic: the same bytes on every run. */
ue_result ue_samples_build(ue_sample_list *out);

/* Per-family builders (called by ue_samples_build). */
ue_result ue_samples_parkan(ue_sample_list *out);
ue_result ue_samples_gamecube(ue_sample_list *out);

/* The robot's WEAR table (text), and its robot.wea, Material.lib and Textures.lib files. */
extern const char ue_sample_robot_wear[];
ue_result ue_samples_parkan_materials(ue_sample_list *out);

/* The sample robot model (an MSH model NRes, appended to `out`). */
ue_result ue_sample_robot(ue_buf *out);

/* The GameCube sample creature as a bare HSD DAT (appended to `out`; docs/hsd.md lists its
 * joints, meshes and textures). */
ue_result ue_sample_creature_dat(ue_buf *out);

/* The creature as Melee keeps a fighter, under gamecube/dat/: creature.dat (its model, bare),
 * creature_anims.dat (a bank of three FigaTree clips) and creature_data.dat (fighter data,
 * camera, lights and fog roots); gamecube_dats.c, docs/hsd.md. */
ue_result ue_samples_gamecube_dats(ue_sample_list *out);

/* The sample textures_demo.lib: an NRes of Texm entries in five pixel formats (appended to `out`;
 * docs/parkan-textures.md lists the names). */
ue_result ue_sample_textures_demo(ue_buf *out);

/* A small RsLi library with one entry per packing method (appended to `out`). */
ue_result ue_sample_rsli(ue_buf *out);

#ifdef __cplusplus
}
#endif
#endif
