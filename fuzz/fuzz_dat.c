/* libFuzzer target: the HSD DAT container in both modes, its accessors over every data offset a
 * table names, the writer (a strict parse must re-serialise to the input byte for byte), the
 * struct reader and the display-list decoder of every PObj (links and indices must stay in range),
 * the kind and structures of every root (FigaTree clips, fighter data, camera, lights, fog), the
 * FigaTree clips of the DAT bound to its model, the whole model pipeline to the scene IR (bind pose,
 * skinning, meshes, clips) and a small preview of it, and a bank of DATs (the chain, each DAT as above, the re-encoding). */
#include <stdlib.h>
#include <string.h>


#include "archive/container.h"
#include "unearth/advanced/buffers.h"
#include "hsd/dat_bank.h"
#include "hsd/hsd_figatree.h"
#include "hsd/hsd_roots.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"
#include "fuzz_json.h"
#include "fuzz_preview.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void touch(const ue_dat *dat) {
    for (size_t i = 0; i < dat->reloc_count; i++) {
        bool present;
        uint32_t target;
        /* A member of the relocation set is a readable word; it reads as a pointer exactly when
         * its value lies inside the data block (the parse only notes one that does not). */
        uint32_t word = 0;
        if (!ue_dat_is_relocated(dat, dat->relocs[i]) || !ue_dat_read_u32(dat, dat->relocs[i], &word))
            abort();
        ue_result r = ue_dat_read_pointer(dat, dat->relocs[i], &present, &target);
        if (word < dat->data_size ? r != UE_OK || !present || target != word : r != UE_ERR_INVALID)
            abort();
    }
    for (size_t i = 0; i < dat->root_count; i++) {
        float f;
        ue_dat_read_f32(dat, dat->roots[i].data_offset, &f);
        if (dat->roots[i].name && strlen(dat->roots[i].name) != dat->roots[i].name_len) abort();
        (void)ue_hsd_root_kind_name(ue_hsd_root_kind_of(dat->roots[i].name));
    }
}

/* The model as a scene: whatever the conversion accepts must be a valid scene, and draw. */
static void to_scene(const ue_hsd_model *m, ue_mode mode) {
    ue_scene s;
    ue_diag d = {0};
    ue_scene_init(&s);
    if (hsd_model_to_scene(m, "fuzz", mode, &s, &d) == UE_OK) {
        if (ue_scene_validate(&s, NULL) != UE_OK) abort();
        fuzz_preview(&s);
    }
    ue_scene_free(&s);
    ue_diag_free(&d);
}

/* A link is NONE or a row of its table. */
static void in_table(int32_t link, size_t count) {
    if (link != UE_HSD_NONE && (link < 0 || (size_t)link >= count)) abort();
}

static void check_links(const ue_hsd_model *m) {
    for (size_t i = 0; i < m->set_count; i++) in_table(m->sets[i].root_joint, m->joint_count);
    for (size_t i = 0; i < m->joint_count; i++) {
        const ue_hsd_joint *j = &m->joints[i];
        in_table(j->parent, m->joint_count);
        in_table(j->first_child, m->joint_count);
        in_table(j->next_sibling, m->joint_count);
        in_table(j->first_dobj, m->dobj_count);
        /* pre-order: a child and a next sibling come after the joint */
        if ((j->first_child >= 0 && (size_t)j->first_child <= i) ||
            (j->next_sibling >= 0 && (size_t)j->next_sibling <= i))
            abort();
    }
    for (size_t i = 0; i < m->pobj_count; i++) {
        const ue_hsd_pobj *p = &m->pobjs[i];
        in_table(p->next, m->pobj_count);
        in_table(p->skin_joint, m->joint_count);
        if (p->attr_first + (size_t)p->attr_count > m->attr_count ||
            p->env_first + (size_t)p->env_count > m->envelope_count)
            abort();
    }
    for (size_t i = 0; i < m->envelope_count; i++)
        if (m->envelopes[i].first_weight + (size_t)m->envelopes[i].weight_count > m->weight_count)
            abort();
    for (size_t i = 0; i < m->weight_count; i++) in_table(m->weights[i].joint, m->joint_count);
}

/* A run first..first+n lies inside a table of `count` rows. */
static void in_run(uint32_t first, uint32_t n, size_t count) {
    if ((uint64_t)first + n > count) abort();
}

/* The animation rows: every index within its table (clips → targets → AObjs → tracks → keys,
 * TexAnim tables → model images / tluts). */
static void check_anim_links(const ue_hsd_model *m) {
    const ue_hsd_anims *a = &m->anims;
    for (size_t i = 0; i < a->clip_count; i++) {
        if (a->clips[i].set >= m->set_count) abort();
        in_run(a->clips[i].first_target, a->clips[i].target_count, a->target_count);
    }
    for (size_t i = 0; i < a->target_count; i++) {
        const ue_hsd_anim_target *t = &a->targets[i];
        in_table(t->joint, m->joint_count);
        in_table(t->dobj, m->dobj_count);
        in_table(t->tobj, m->tobj_count);
        in_table(t->aobj, a->aobj_count);
        in_run(t->first_image, t->image_count, a->image_count);
        in_run(t->first_tlut, t->tlut_count, a->tlut_count);
    }
    for (size_t i = 0; i < a->aobj_count; i++) in_run(a->aobjs[i].first_track, a->aobjs[i].track_count, a->track_count);
    for (size_t i = 0; i < a->track_count; i++) in_run(a->tracks[i].first_key, a->tracks[i].key_count, a->key_count);
    for (size_t i = 0; i < a->image_count; i++) in_table(a->images[i], m->image_count);
    for (size_t i = 0; i < a->tlut_count; i++) in_table(a->tluts[i], m->tlut_count);
}

static void check_geometry(const ue_hsd_geometry *g) {
    if (g->index_count % 3 != 0) abort();
    for (size_t i = 0; i < g->index_count; i++)
        if (g->indices[i] >= g->vertex_count) abort();
}

/* The struct reader in `mode`, then every PObj's display list, then the DAT's own FigaTree clips
 * bound to the model (as convert does) and the scene. True when the model was read. */
static bool read_models(const ue_dat *dat, ue_mode mode) {
    ue_hsd_model m;
    ue_diag d = {0};
    bool read = ue_hsd_model_read(dat, mode, &m, &d) == UE_OK;
    if (read) {
        check_links(&m);
        check_anim_links(&m);
        for (size_t i = 0; i < m.pobj_count; i++) {
            ue_hsd_geometry g;
            if (ue_hsd_pobj_decode(&m, i, mode, &g, &d) == UE_OK) check_geometry(&g);
            ue_hsd_geometry_free(&g);
        }
        hsd_figatree_files clips;
        if (hsd_figatree_attach_all(&m, NULL, mode, &clips, &d) == UE_OK) {
            check_anim_links(&m);
            to_scene(&m, mode);
        }
        hsd_figatree_files_free(&clips);
    }
    ue_hsd_model_free(&m);
    ue_diag_free(&d);
    return read;
}

/* Every root's kind is the one its name announces or unknown; the structures of the roots the
 * model reader did not walk are checked (a refusal says why); the FigaTree clips are listed. */
static void check_roots(const ue_dat *dat, ue_mode mode, bool model_read) {
    ue_hsd_root_kind *kinds = ue_malloc_items(dat->root_count, sizeof *kinds);
    if (kinds && hsd_roots_classify(dat, kinds) == UE_OK)
        for (size_t i = 0; i < dat->root_count; i++)
            if (kinds[i] != UE_HSD_ROOT_UNKNOWN && kinds[i] != ue_hsd_root_kind_of(dat->roots[i].name)) abort();
    free(kinds);
    ue_diag d = {0};
    if (hsd_roots_check(dat, mode, model_read, &d) == UE_ERR_INVALID && ue_diag_count(&d, UE_SEV_ERROR) == 0)
        abort();
    ue_diag_free(&d);
    ue_buf text = {0};
    ue_json w;
    ue_json_init(&w, &text, 0);
    ue_json_array_begin(&w);
    hsd_figatree_write_clips(dat, -1, &w);
    ue_json_array_end(&w);
    ue_json_finish(&w, NULL);
    ue_buf_free(&text);
    hsd_figatree_clips_text(dat, &text);
    ue_buf_free(&text);
}

/* One DAT, in both modes. */
static void check_dat(const uint8_t *data, size_t size) {
    for (int mode = 0; mode < 2; mode++) {
        ue_dat dat;
        ue_diag d = {0};
        if (ue_dat_parse(data, size, (ue_mode)mode, &dat, &d) == UE_OK) {
            touch(&dat);
            check_roots(&dat, (ue_mode)mode, read_models(&dat, (ue_mode)mode));
            ue_buf out = {0};
            if (ue_dat_write(&dat, &out) != UE_OK) abort();
            if (mode == UE_MODE_STRICT && (out.size != size || memcmp(out.data, data, size) != 0))
                abort();
            ue_buf_free(&out);
        }
        ue_dat_free(&dat);
        ue_diag_free(&d);
    }
}

/* The chain of a bank: DATs one after another from offset 0, each 32-aligned, its padding
 * reaching the next one and the last reaching the end of the file; each DAT checked alone. */
static void check_chain(const uint8_t *data, size_t size) {
    ue_source src = ue_source_memory(data, size);
    ue_dat_bank_entry *e = NULL;
    size_t n = 0;
    if (ue_dat_bank_scan(&src, UE_MODE_TOLERANT, &e, &n, NULL) == UE_OK) {
        uint64_t at = 0;
        for (size_t i = 0; i < n; i++) {
            if (e[i].offset != at || at % UE_DAT_BANK_ALIGN || (uint64_t)e[i].size + e[i].padding > size - at) abort();
            check_dat(data + at, e[i].size);
            at += (uint64_t)e[i].size + e[i].padding;
        }
        if (n < 2 || at != size) abort();
    }
    free(e);
}

/* The bank as a container in both modes: listing, info, and a strict bank re-encodes to itself. */
static void check_bank(const uint8_t *data, size_t size) {
    if (!ue_datbank_ops.probe(data, size < 256 ? size : 256, size)) return;
    check_chain(data, size);
    for (int mode = 0; mode < 2; mode++) {
        ue_source src = ue_source_memory(data, size);
        void *s = NULL;
        if (ue_datbank_ops.open(&src, (ue_mode)mode, &s, NULL) != UE_OK) continue;
        fuzz_container_json(&ue_datbank_ops, s, ue_datbank_ops.count(s));
        ue_buf out = {0};
        if (ue_datbank_ops.reencode(s, &out, NULL) == UE_OK && mode == UE_MODE_STRICT &&
            (out.size != size || memcmp(out.data, data, size) != 0))
            abort();
        ue_buf_free(&out);
        ue_datbank_ops.close(s);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    check_dat(data, size);
    check_bank(data, size);
    return 0;
}
