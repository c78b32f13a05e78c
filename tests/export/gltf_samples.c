/* unearth tests — writes every glTF fixture scene as .glb and as .gltf + .bin into a directory,
 * for gltf_validate.sh to run the Khronos validator over (every glTF we write). */
#include <stdio.h>
#include <string.h>

#include "gltf_scenes.h"
#include "unearth/gltf.h"

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: gltf_samples DIR\n");
        return 2;
    }
    static const struct {
        const char *name;
        void (*build)(ue_scene *);
        bool no_pointer; /* written with no_animation_pointer (its info diagnostic expected) */
    } scenes[] = {
        {"cube", gs_textured_cube},
        {"skinned", gs_skinned},
        {"pointer", gs_pointer},
        {"layers", gs_layers},
        {"misc", gs_misc},
        {"empty", gs_empty},
        {"big", gs_big},
        {"pointer_nopointer", gs_pointer, true},
        {"layers_nopointer", gs_layers, true},
    };
    int rc = 0;
    for (size_t i = 0; i < sizeof scenes / sizeof scenes[0]; i++) {
        ue_scene s;
        scenes[i].build(&s);
        for (int mode = 0; mode < 2; mode++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s.%s", argv[1], scenes[i].name, mode ? "gltf" : "glb");
            ue_diag d = {0};
            ue_gltf_options o = {UE_GLTF_GLB, NULL, mode == 1, false, scenes[i].no_pointer};
            if (ue_gltf_write_file_opts(&s, path, &o, true, &d) != UE_OK) {
                fprintf(stderr, "gltf_samples: cannot write %s\n", path);
                rc = 1;
            }
            for (size_t k = 0; k < d.count; k++) {
                if (scenes[i].no_pointer && !strcmp(d.items[k].code, "gltf.anim.no_pointer")) continue;
                char line[600];
                ue_diag_format(&d.items[k], line, sizeof line);
                fprintf(stderr, "%s: %s\n", path, line);
                rc = 1; /* the fixtures are meant to be clean: even a warning is a failure */
            }
            ue_diag_free(&d);
            if (rc == 0) printf("%s\n", path);
        }
        ue_scene_free(&s);
    }
    return rc;
}
