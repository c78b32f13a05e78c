/* unearth CLI — one converted model as the files of its output: exported in memory with the names
 * of its .bin/.mtl and PNG files, so single and batch convert write the same bytes. */
#include <stdio.h>
#include <string.h>

#include "cli/output_parts.h"
#include "unearth/gltf.h"
#include "unearth/obj.h"

static const char *file_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

bool output_parts_beside(const char *path, const char *name, char *out, size_t cap) {
    int w = snprintf(out, cap, "%.*s%s", (int)(file_name(path) - path), path, name);
    return w >= 0 && (size_t)w < cap;
}

/* A file's name without its directory and extension: what texture files are named after. */
static void stem_of(const char *path, char *stem, size_t cap) {
    const char *name = file_name(path), *dot = strrchr(name, '.');
    snprintf(stem, cap, "%.*s", (int)(dot && dot != name ? (size_t)(dot - name) : strlen(name)), name);
}

ue_result output_parts_export(const ue_scene *s, const char *path, const char *type, bool no_animation_pointer,
                              output_parts *p, ue_diag *d) {
    memset(p, 0, sizeof *p);
    bool obj = !strcmp(type, "obj"), gltf = !strcmp(type, "gltf");
    char side[1024] = "", stem[1024];
    out_names_companion(file_name(path), type, side, sizeof side); /* the one rule of .bin and .mtl names */
    if ((obj || gltf) && (!side[0] || !output_parts_beside(path, side, p->side_path, sizeof p->side_path))) {
        ue_diag_add(d, UE_SEV_ERROR, "io.output.name", UE_NO_OFFSET, path, "no name for the file beside it");
        return UE_ERR_USAGE;
    }
    if (obj || gltf) {
        stem_of(obj ? side : path, stem, sizeof stem);
        ue_result r = texture_files_make(s, stem, obj, &p->textures);
        if (r != UE_OK) return r;
    }
    if (obj) {
        ue_obj_options oo = {side, NULL, p->textures.of_texture};
        return ue_obj_export(s, &oo, &p->main, &p->side, d);
    }
    ue_gltf_options go = {gltf ? UE_GLTF_SEPARATE : UE_GLTF_GLB, gltf ? side : NULL, false, false,
                          no_animation_pointer, gltf ? p->textures.of_texture : NULL};
    return ue_gltf_export(s, &go, &p->main, gltf ? &p->side : NULL, d);
}

void output_parts_free(output_parts *p) {
    ue_buf_free(&p->main);
    ue_buf_free(&p->side);
    texture_files_free(&p->textures);
}
