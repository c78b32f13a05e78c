/* unearth tests — strict validation follows what the HSD runtime loads and draws (docs/hsd.md,
 * "What strict means"): long envelope lists, surplus MatAnims, unreached relocated words, on a rig. */
#include <math.h>

#include "test.h"
#include "rig_image.h"
#include "common/bytes.h"
#include "hsd/hsd_to_scene.h"
#include "unearth/hsd.h"
#include "unearth/hsd_model.h"

typedef struct read_result {
    ue_dat dat;
    ue_hsd_model m;
    ue_diag d;
    ue_result read, scene;
    ue_scene s;
} read_result;

/* DAT parse, struct read and conversion to the scene IR, all in `mode`. */
static void read_rig(const dat_image *b, ue_mode mode, read_result *x) {
    memset(x, 0, sizeof *x);
    ue_scene_init(&x->s);
    size_t n = 0;
    uint8_t *file = di_file(b, &n);
    x->read = ue_dat_parse(file, n, mode, &x->dat, &x->d);
    free(file);
    if (x->read == UE_OK) x->read = ue_hsd_model_read(&x->dat, mode, &x->m, &x->d);
    x->scene = x->read == UE_OK ? hsd_model_to_scene(&x->m, "rig", mode, &x->s, &x->d) : UE_ERR_INVALID;
}

static void done(read_result *x) {
    ue_scene_free(&x->s);
    ue_hsd_model_free(&x->m);
    ue_dat_free(&x->dat);
    ue_diag_free(&x->d);
}

static const ue_diag_item *find_at(const ue_diag *d, const char *code, uint64_t offset) {
    for (size_t i = 0; i < d->count; i++)
        if (strcmp(d->items[i].code, code) == 0 && d->items[i].offset == offset) return &d->items[i];
    return NULL;
}

static size_t count_code(const ue_diag *d, const char *code) {
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) n += strcmp(d->items[i].code, code) == 0;
    return n;
}

static uint64_t file_at(uint32_t data_offset) { return UE_DAT_HEADER + (uint64_t)data_offset; }

static const ue_scene_primitive *primitive_of(const ue_scene *s, uint32_t pobj) {
    for (size_t m = 0; m < s->mesh_count; m++)
        for (size_t p = 0; p < s->meshes[m].primitive_count; p++)
            if (s->meshes[m].primitives[p].source.offset == pobj ||
                s->meshes[m].primitives[p].source.offset == file_at(pobj))
                return &s->meshes[m].primitives[p];
    return NULL;
}

/* Vertex v selects slot v, which holds envelope v: joint (p + v) weighs 0.75, (p + v + 1) 0.25.
 * The set is one chain, so a joint's index in the skin is its row. */
static void check_weights(const rig_shape *sh, const rig_layout *o, const ue_scene *s, uint32_t p) {
    const ue_scene_primitive *pr = primitive_of(s, o->pobj[p]);
    REQUIRE(pr && pr->vertex_count == RIG_VERTS && pr->joints && pr->weights);
    for (uint32_t v = 0; v < RIG_VERTS; v++) {
        float want[64] = {0}, got[64] = {0};
        want[rig_weight_joint(sh, p, v, 0)] += 0.75f;
        want[rig_weight_joint(sh, p, v, 1)] += 0.25f;
        for (uint32_t i = 0; i < pr->influences; i++) {
            uint16_t j = pr->joints[pr->influences * v + i];
            REQUIRE(j < 64);
            got[j] += pr->weights[pr->influences * v + i];
        }
        for (uint32_t j = 0; j < sh->joints; j++) CHECK(fabsf(want[j] - got[j]) < 1e-6f);
    }
}

/* Builds the rig `sh` and reads it in strict mode, which must accept and convert it. */
static void read_valid_rig(const rig_shape *sh, rig_layout *o, read_result *x) {
    static dat_image b;
    rig_build(&b, sh, o);
    read_rig(&b, UE_MODE_STRICT, x);
    CHECK_EQ_U(x->read, UE_OK);
    CHECK_EQ_U(x->scene, UE_OK);
}

/* Twelve envelopes per PObj: the runtime loads all and draws with the first ten; two MatAnims
 * per joint (one or two surplus); a stray relocated word. Valid in strict mode, and converted
 * with every vertex weighted by its slot's envelope. */
static void test_rig_is_valid(void) {
    rig_layout o;
    const rig_shape sh = {24, 6, 12, 2, 1};
    read_result x;
    read_valid_rig(&sh, &o, &x);
    CHECK_EQ_U(ue_diag_count(&x.d, UE_SEV_ERROR), 0);
    for (uint32_t p = 0; p < sh.pobjs; p++) {
        const ue_diag_item *it = find_at(&x.d, "hsd.envelope.count", file_at(o.envlist[p] + 40));
        CHECK(it && it->severity == UE_SEV_WARNING && strstr(it->message, "12 entries"));
        REQUIRE(x.m.pobj_count == sh.pobjs);
        CHECK_EQ_U(x.m.pobjs[p].env_count, 12); /* kept whole: the writer emits them again */
        check_weights(&sh, &o, &x.s, p);
    }
    CHECK_EQ_U(count_code(&x.d, "hsd.envelope.count"), sh.pobjs);
    const ue_diag_item *it = find_at(&x.d, "dat.reloc_target", file_at(o.stray));
    CHECK(it && it->severity == UE_SEV_INFO);
    /* one info per joint: its surplus MatAnim, or its whole list where it has no DObj */
    CHECK_EQ_U(count_code(&x.d, "hsd.anim.mismatch"), sh.joints);
    for (size_t i = 0; i < x.d.count; i++)
        if (strcmp(x.d.items[i].code, "hsd.anim.mismatch") == 0) CHECK(x.d.items[i].severity == UE_SEV_INFO);
    CHECK_EQ_U(x.m.anims.clip_count, 1);
    done(&x);
}

/* Exactly ten envelopes (the fighters' case): no diagnostic at all about the list. */
static void test_ten_envelopes(void) {
    rig_layout o;
    const rig_shape sh = {12, 3, 10, 1, 0};
    read_result x;
    read_valid_rig(&sh, &o, &x);
    CHECK_EQ_U(count_code(&x.d, "hsd.envelope.count"), 0);
    CHECK_EQ_U(ue_diag_count(&x.d, UE_SEV_WARNING), 0);
    for (uint32_t p = 0; p < sh.pobjs; p++) check_weights(&sh, &o, &x.s, p);
    done(&x);
}

/* What the runtime crashes on, or what has no defined value, stays an error in strict mode. */
static void test_errors_stay(void) {
    const rig_shape sh = {16, 2, 12, 1, 1};
    static dat_image b;
    rig_layout o;
    read_result x;

    /* A vertex selecting slot 10 (PNMTXIDX 30): the runtime loads no matrix there, even with a
     * twelve-entry list. The display list is shared: record 9 of the strip is byte 3 + 18. */
    rig_build(&b, &sh, &o);
    uint32_t dl = ue_load_u32be(b.data + o.pobj[0] + 0x10);
    di_u8(&b, dl + 3 + 18, 30);
    read_rig(&b, UE_MODE_STRICT, &x);
    CHECK_EQ_U(x.read, UE_OK);
    CHECK_EQ_U(x.scene, UE_ERR_INVALID);
    CHECK(count_code(&x.d, "hsd.skin.pnmtx") >= 1);
    done(&x);

    /* Envelope 3 without weights: the runtime asserts on it when it fills slot 3. The same
     * empty envelope at 11, past the ten slots, is never touched: valid. */
    for (int at = 0; at < 2; at++) {
        rig_build(&b, &sh, &o);
        uint32_t empty = di_alloc(&b, 8, 4), k = at ? 11 : 3;
        di_u32(&b, o.envlist[0] + 4 * k, empty); /* the field is relocated already */
        read_rig(&b, UE_MODE_STRICT, &x);
        CHECK_EQ_U(x.read, UE_OK);
        CHECK_EQ_U(x.scene, at ? UE_OK : UE_ERR_INVALID);
        CHECK_EQ_U(count_code(&x.d, "hsd.skin.envelope"), at ? 0u : 1u);
        done(&x);
    }

    /* The out-of-range relocated word reached by a structure (the PObj's display-list field):
     * the pointer is followed, so it is an error there, at the field. */
    rig_build(&b, &sh, &o);
    di_u32(&b, o.pobj[1] + 0x10, 0xFFFFCC7Fu);
    read_rig(&b, UE_MODE_STRICT, &x);
    CHECK_EQ_U(x.read, UE_ERR_INVALID);
    const ue_diag_item *it = find_at(&x.d, "hsd.pointer.outside", file_at(o.pobj[1] + 0x10));
    CHECK(it && it->severity == UE_SEV_ERROR);
    CHECK(find_at(&x.d, "dat.reloc_target", file_at(o.pobj[1] + 0x10)) != NULL);
    done(&x);
}

/* Joints 0 and 1 share one DObj, and each has a MatAnim for it: the runtime's MObj keeps the
 * last one bound (HSD_MObjAddAnim replaces it), and glTF allows one channel per property. */
static void test_shared_dobj_animated_twice(void) {
    static dat_image b;
    rig_layout o;
    const rig_shape sh = {4, 2, 10, 1, 0};
    rig_build(&b, &sh, &o);
    di_u32(&b, o.joint[1] + 0x10, ue_load_u32be(b.data + o.joint[0] + 0x10)); /* relocated field */
    read_result x;
    read_rig(&b, UE_MODE_STRICT, &x);
    CHECK_EQ_U(x.scene, UE_OK);
    CHECK_EQ_U(ue_scene_validate(&x.s, NULL), UE_OK);
    REQUIRE(x.s.animation_count == 1);
    size_t colour = 0;
    for (size_t c = 0; c < x.s.animations[0].channel_count; c++)
        colour += x.s.animations[0].channels[c].target == UE_TARGET_BASE_COLOR;
    CHECK_EQ_U(colour, 1);
    CHECK_EQ_U(count_code(&x.d, "hsd.anim.rebound"), 1);
    done(&x);
}

int main(void) {
    RUN(test_rig_is_valid);
    RUN(test_ten_envelopes);
    RUN(test_errors_stay);
    RUN(test_shared_dobj_animated_twice);
    return TEST_SUMMARY();
}
