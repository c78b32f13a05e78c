/* libFuzzer target: the HSD DAT container in both modes, its accessors over every data offset a
 * table names, the writer (a strict parse must re-serialise to the input byte for byte), and the
 * whole model pipeline: struct reader, bind pose, skinning and display lists to the scene IR. */
#include <stdlib.h>
#include <string.h>

#include "hsd/hsd_to_scene.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void touch(const ue_dat *dat) {
    for (size_t i = 0; i < dat->reloc_count; i++) {
        bool present;
        uint32_t target;
        /* A member of the relocation set is, by the parse's checks, a readable in-range pointer. */
        if (!ue_dat_is_relocated(dat, dat->relocs[i]) ||
            ue_dat_read_pointer(dat, dat->relocs[i], &present, &target) != UE_OK || !present)
            abort();
    }
    for (size_t i = 0; i < dat->root_count; i++) {
        float f;
        ue_dat_read_f32(dat, dat->roots[i].data_offset, &f);
        if (dat->roots[i].name && strlen(dat->roots[i].name) != dat->roots[i].name_len) abort();
        (void)ue_hsd_root_kind_name(ue_hsd_root_kind_of(dat->roots[i].name));
    }
}

/* The models of the DAT as a scene: whatever the conversion accepts must be a valid scene. */
static void to_scene(const ue_dat *dat, ue_mode mode) {
    ue_hsd_model m;
    ue_diag d = {0};
    if (ue_hsd_model_read(dat, mode, &m, &d) == UE_OK) {
        ue_scene s;
        ue_scene_init(&s);
        if (hsd_model_to_scene(&m, "fuzz", mode, &s, &d) == UE_OK && ue_scene_validate(&s, NULL) != UE_OK) abort();
        ue_scene_free(&s);
    }
    ue_hsd_model_free(&m);
    ue_diag_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_dat dat;
        ue_diag d = {0};
        if (ue_dat_parse(data, size, (ue_mode)mode, &dat, &d) == UE_OK) {
            touch(&dat);
            to_scene(&dat, (ue_mode)mode);
            ue_buf out = {0};
            if (ue_dat_write(&dat, &out) != UE_OK) abort();
            if (mode == UE_MODE_STRICT && (out.size != size || memcmp(out.data, data, size) != 0))
                abort();
            ue_buf_free(&out);
        }
        ue_dat_free(&dat);
        ue_diag_free(&d);
    }
    return 0;
}
