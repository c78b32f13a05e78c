/* unearth tests — the root structure checks of src/hsd/hsd_roots.c on DATs laid out with the
 * project's builder: each kind's shape confirms its name, hostile shapes (cycles, lists without
 * their end, broken key streams, misplaced roots) are reported and never loop. */
#include <math.h>
#include <string.h>

#include "hsd/dat_builder.h"
#include "hsd/hsd_roots.h"
#include "test.h"
#include "unearth/hsd.h"

static ue_buf image_of(ue_dat_builder *b) {
    ue_buf out = {0};
    CHECK(ue_datb_finish(b, &out) == UE_OK);
    ue_datb_free(b);
    return out;
}

static size_t count_code(const ue_diag *d, const char *code) {
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) n += !strcmp(d->items[i].code, code);
    return n;
}

/* Parses `img`, classifies its roots into kinds[], and checks them in `mode` into *d. */
static ue_result check(const ue_buf *img, ue_mode mode, ue_hsd_root_kind *kinds, ue_diag *d) {
    ue_dat dat;
    CHECK(ue_dat_parse(img->data, img->size, UE_MODE_STRICT, &dat, NULL) == UE_OK);
    CHECK(hsd_roots_classify(&dat, kinds) == UE_OK);
    ue_result r = hsd_roots_check(&dat, mode, false, d);
    ue_dat_free(&dat);
    return r;
}

static void stems_name_the_model(void) {
    CHECK_EQ_U(hsd_root_stem_len("PlyFox_matanim_joint"), 6);
    CHECK_EQ_U(hsd_root_stem_len("PlyFox_shapeanim_joint"), 6);
    CHECK_EQ_U(hsd_root_stem_len("PlyFox_animjoint"), 6);
    CHECK_EQ_U(hsd_root_stem_len("PlyFox_joint"), 6);
    CHECK_EQ_U(hsd_root_stem_len("scene_data"), 10);   /* exact: the whole name */
    CHECK_EQ_U(hsd_root_stem_len("ftDataFox"), 9);     /* prefix: the whole name */
    CHECK_EQ_U(hsd_root_stem_len("mystery"), 7);
    CHECK_EQ_U(hsd_root_stem_len(NULL), 0);
}

/* An AObj with one FObj whose key stream is `keys` (n bytes, float values). */
static uint32_t aobj_with(ue_dat_builder *b, const uint8_t *keys, size_t n) {
    uint32_t data = ue_datb_put(b, keys, n, 0, 1);
    uint32_t f = ue_datb_alloc(b, 0x14, 4);
    ue_datb_u32(b, f + 4, (uint32_t)n);
    ue_datb_u8(b, f + 0x0C, 1);
    ue_datb_pointer(b, f + 0x10, data);
    uint32_t a = ue_datb_alloc(b, 0x10, 4);
    ue_datb_f32(b, a + 4, 10.0f);
    ue_datb_pointer(b, a + 8, f);
    return a;
}

/* An AnimJoint whose child is itself: reported once as shared, the walk ends. */
static void cyclic_tree_is_reported_and_ends(void) {
    ue_dat_builder b;
    ue_datb_init(&b);
    static const uint8_t con[] = {0x01, 0, 0, 0x80, 0x3F, 0}; /* CON 1.0f (little-endian), wait 0 */
    uint32_t node = ue_datb_alloc(&b, 0x14, 4);
    ue_datb_pointer(&b, node, node);
    ue_datb_pointer(&b, node + 8, aobj_with(&b, con, sizeof con));
    ue_datb_root(&b, node, "x_animjoint");
    ue_buf img = image_of(&b);
    ue_hsd_root_kind kinds[1];
    ue_diag d = {0};
    CHECK(check(&img, UE_MODE_TOLERANT, kinds, &d) == UE_OK);
    CHECK(kinds[0] == UE_HSD_ROOT_UNKNOWN); /* strictly, a cycle is no AnimJoint tree */
    CHECK_EQ_U(count_code(&d, "hsd.anim.shared"), 1);
    CHECK(d.items[0].severity == UE_SEV_WARNING);
    ue_diag_free(&d);
    ue_buf_free(&img);
}

/* A FigaTree whose track counts have no 0xFF end, a fog of no GX type, a key stream with an
 * unknown opcode: each root unknown, each reported at its place. */
static void broken_values_make_unknown_roots(void) {
    ue_dat_builder b;
    ue_datb_init(&b);
    static const uint8_t bad_op[] = {0x07, 0, 0, 0, 0, 0}; /* opcode 7 does not exist */
    uint32_t anim = ue_datb_alloc(&b, 0x14, 4);
    ue_datb_pointer(&b, anim + 8, aobj_with(&b, bad_op, sizeof bad_op));
    uint32_t fog = ue_datb_alloc(&b, 0x14, 4);
    ue_datb_u32(&b, fog, 3);
    uint32_t fig = ue_datb_alloc(&b, 0x14, 4);
    ue_datb_f32(&b, fig + 8, 10.0f);
    uint32_t counts = ue_datb_alloc(&b, 4, 4); /* 0 0 0 0 to the block's end: no 0xFF */
    ue_datb_pointer(&b, fig + 0x0C, counts);
    ue_datb_root(&b, anim, "x_animjoint");
    ue_datb_root(&b, fog, "x_fog");
    ue_datb_root(&b, fig, "x_figatree");
    ue_buf img = image_of(&b);
    ue_hsd_root_kind kinds[3];
    ue_diag d = {0};
    CHECK(check(&img, UE_MODE_TOLERANT, kinds, &d) == UE_OK);
    CHECK(kinds[0] == UE_HSD_ROOT_UNKNOWN && kinds[1] == UE_HSD_ROOT_UNKNOWN && kinds[2] == UE_HSD_ROOT_UNKNOWN);
    CHECK_EQ_U(count_code(&d, "hsd.root.value"), 1);       /* the fog type */
    CHECK_EQ_U(count_code(&d, "hsd.figatree.counts"), 1);  /* the counts' end: the FigaTree checker's */
    CHECK(d.count >= 3);                             /* and the key decoder's own report */
    ue_diag_free(&d);
    ue_diag strict = {0};
    CHECK(check(&img, UE_MODE_STRICT, kinds, &strict) == UE_ERR_INVALID);
    ue_diag_free(&strict);
    ue_buf_free(&img);
}

/* A camera root at a misaligned offset, and a light set array running to the data block's end
 * without its NULL: reported, unknown; a well-formed camera beside them stays a camera. */
static void arrays_and_roots_must_fit(void) {
    ue_dat_builder b;
    ue_datb_init(&b);
    uint32_t cam = ue_datb_alloc(&b, 0x40, 4);
    ue_datb_u16(&b, cam + 6, 1);
    ue_datb_f32(&b, cam + 0x2C, 100.0f);
    uint32_t sets[4];
    for (size_t i = 0; i < 4; i++) {
        sets[i] = ue_datb_alloc(&b, 8, 4);
        ue_datb_pointer(&b, sets[i], ue_datb_alloc(&b, 0x1C, 4));
    }
    /* the array ends the 16-aligned block: every slot is a pointer, none NULL */
    ue_datb_alloc(&b, (16 - b.data.size % 16) % 16, 4);
    uint32_t array = ue_datb_alloc(&b, 16, 4);
    for (size_t i = 0; i < 4; i++) ue_datb_pointer(&b, array + 4 * (uint32_t)i, sets[i]);
    ue_datb_root(&b, cam, "ok_camera");
    ue_datb_root(&b, cam + 2, "odd_camera");
    ue_datb_root(&b, array, "x_lights");
    ue_buf img = image_of(&b);
    ue_hsd_root_kind kinds[3];
    ue_diag d = {0};
    CHECK(check(&img, UE_MODE_TOLERANT, kinds, &d) == UE_OK);
    CHECK(kinds[0] == UE_HSD_ROOT_CAMERA);
    CHECK(kinds[1] == UE_HSD_ROOT_UNKNOWN && kinds[2] == UE_HSD_ROOT_UNKNOWN);
    CHECK_EQ_U(count_code(&d, "hsd.root"), 1);
    CHECK_EQ_U(count_code(&d, "hsd.struct.truncated"), 1);
    CHECK_EQ_U(d.count, 2);
    ue_diag_free(&d);
    ue_buf_free(&img);
}

int main(void) {
    RUN(stems_name_the_model);
    RUN(cyclic_tree_is_reported_and_ends);
    RUN(broken_values_make_unknown_roots);
    RUN(arrays_and_roots_must_fit);
    return TEST_SUMMARY();
}
