/* unearth tests — PKX: hand-built Colosseum and XD images from docs/formats/pkx.md, layout
 * detection, the DAT-size fallback, bad sizes, re-wrapping a new DAT, and manifest round trips. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "test.h"
#include "unearth/archive.h"
#include "unearth/gamecube.h"
#include "common/bytes.h"
#include "common/io.h"

static void put32(uint8_t *p, size_t off, uint32_t v) { ue_store_u32be(p + off, v); }

static void fake_dat(uint8_t *p, uint32_t size, uint8_t fill) {
    memset(p, fill, size);
    put32(p, 0, size); /* an HSD DAT's first word is its own size */
}

/* Colosseum: header 0x40 | DAT 0x30 (+0x10 pad) @0x40 | GPT1 0x24 (+0x1C pad) @0x80 |
 * 2 anims @0xC0 | shiny 20 bytes @0x260. */
enum { COLO = 0x274 };
static void colo_image(uint8_t *p) {
    memset(p, 0, COLO);
    put32(p, 0x00, 0x30);
    put32(p, 0x04, 0x24);
    put32(p, 0x08, 2);
    put32(p, 0x10, 5);
    fake_dat(p + 0x40, 0x30, 0xD1);
    memcpy(p + 0x80, "GPT1", 4);
    memset(p + 0x84, 0x66, 0x20);
    for (int a = 0; a < 2; a++) {
        uint8_t *e = p + 0xC0 + 0xD0 * a;
        put32(e, 0x00, 2u + (uint32_t)a);
        put32(e, 0x04, 1);
        put32(e, 0x10, 30);
        put32(e, 0x90, (uint32_t)a);
        put32(e, 0xCC, 1);
    }
    for (uint32_t c = 0; c < 4; c++) put32(p, 0x260 + 4 * c, c);
    put32(p, 0x270, 0x7F7F7F7F);
}

/* XD: preamble 0x84 | 1 anim @0x84 (to 0x154, pad to 0x160) | GPT1 0x24 @0x160 (pad to 0x1A0) |
 * DAT 0x30 @0x1A0 | trailer 8 bytes. */
enum { XD = 0x1D8 };
static void xd_image(uint8_t *p) {
    memset(p, 0, XD);
    put32(p, 0x00, 0x30);
    put32(p, 0x08, 0x24);
    put32(p, 0x10, 1);
    ue_store_u16be(p + 0x18, 151);
    ue_store_u16be(p + 0x1A, 0x000C);
    put32(p, 0x84, 2);
    put32(p, 0x84 + 0xCC, 3);
    memcpy(p + 0x160, "GPT1", 4);
    fake_dat(p + 0x1A0, 0x30, 0xD2);
    memcpy(p + 0x1D0, "TRAILER!", 8);
}

/* Whether `code` was reported, and at which byte offset. */
static bool has_code_at(const ue_diag *d, const char *code, uint64_t *off) {
    const ue_diag_item *it = diag_find(d, code, NULL);
    if (it && off) *off = it->offset;
    return it != NULL;
}

static void parses_colosseum(void) {
    uint8_t p[COLO];
    colo_image(p);
    ue_pkx_info i;
    ue_diag d = {0};
    REQUIRE(ue_pkx_parse(p, COLO, UE_MODE_STRICT, &i, &d) == UE_OK);
    CHECK(i.layout == UE_PKX_COLOSSEUM);
    CHECK_EQ_U(i.dat_offset, 0x40);
    CHECK_EQ_U(i.dat_size, 0x30);
    CHECK_EQ_U(i.gpt1_offset, 0x80);
    CHECK_EQ_U(i.gpt1_length, 0x24);
    CHECK_EQ_U(i.anim_offset, 0xC0);
    CHECK_EQ_U(i.anim_count, 2);
    CHECK_EQ_U(i.tail_offset, 0x260);
    CHECK(!i.dat_size_fallback);
    CHECK_EQ_U(ue_diag_count(&d, UE_SEV_WARNING), 0);
    ue_diag_free(&d);
}

static void parses_xd(void) {
    uint8_t p[XD];
    xd_image(p);
    ue_pkx_info i;
    REQUIRE(ue_pkx_parse(p, XD, UE_MODE_STRICT, &i, NULL) == UE_OK);
    CHECK(i.layout == UE_PKX_XD);
    /* Rule 8: align32(0x84 + 1*0xD0) + align32(0x24) = 0x160 + 0x40. */
    CHECK_EQ_U(i.gpt1_offset, 0x160);
    CHECK_EQ_U(i.dat_offset, 0x1A0);
    CHECK_EQ_U(i.dat_size, 0x30);
    CHECK_EQ_U(i.anim_offset, 0x84);
    CHECK_EQ_U(i.tail_offset, 0x1D0);
}

static void xd_godtool_offset(void) {
    /* The DAT 4 bytes later than ADDON's formula: only the +4 word equals the declared size. */
    uint8_t p[XD + 4];
    xd_image(p);
    memmove(p + 0x1A4, p + 0x1A0, 0x38);
    memset(p + 0x1A0, 0, 4);
    ue_pkx_info i;
    ue_diag d = {0};
    REQUIRE(ue_pkx_parse(p, sizeof p, UE_MODE_STRICT, &i, &d) == UE_OK);
    CHECK_EQ_U(i.dat_offset, 0x1A4);
    CHECK(has_code_at(&d, "pkx.dat_offset_plus4", NULL));
    ue_buf b = {0};
    REQUIRE(ue_pkx_rewrap(p, sizeof p, &i, p + i.dat_offset, i.dat_size, NULL, 0, &b, NULL) == UE_OK);
    CHECK(b.size == sizeof p && memcmp(b.data, p, sizeof p) == 0);
    ue_buf_free(&b);
    ue_diag_free(&d);
}

static void dat_size_fallback(void) {
    /* Rule 7: a declared size that does not fit falls back to the DAT's own first word. */
    uint8_t p[XD];
    xd_image(p);
    put32(p, 0x00, 0x1000);
    ue_pkx_info i;
    ue_diag d = {0};
    REQUIRE(ue_pkx_parse(p, XD, UE_MODE_STRICT, &i, &d) == UE_OK);
    CHECK(i.dat_size_fallback);
    CHECK_EQ_U(i.dat_size, 0x30);
    CHECK(has_code_at(&d, "pkx.dat_size_fallback", NULL));
    ue_diag_free(&d);
    /* Neither fits: a diagnostic at the size field, no result. */
    put32(p, 0x1A0, 0x2000);
    CHECK(ue_pkx_parse(p, XD, UE_MODE_TOLERANT, &i, &d) == UE_ERR_INVALID);
    uint64_t at = 99;
    CHECK(has_code_at(&d, "pkx.dat_size", &at) && at == 0);
    ue_diag_free(&d);
}

static void bad_sizes(void) {
    uint8_t p[COLO];
    ue_pkx_info i;
    ue_diag d = {0};
    uint64_t at = 99;
    colo_image(p);
    CHECK(ue_pkx_parse(p, 0x40, UE_MODE_STRICT, &i, &d) == UE_ERR_INVALID);
    CHECK(has_code_at(&d, "pkx.truncated", NULL));
    colo_image(p);
    put32(p, 0x08, 0x7FFFFFFF);
    CHECK(ue_pkx_parse(p, COLO, UE_MODE_STRICT, &i, &d) == UE_ERR_INVALID);
    CHECK(has_code_at(&d, "pkx.anim_count", &at) && at == 0x08);
    colo_image(p);
    put32(p, 0x08, 3); /* a third table entry would pass the end */
    CHECK(ue_pkx_parse(p, COLO, UE_MODE_STRICT, &i, &d) == UE_ERR_INVALID);
    CHECK(has_code_at(&d, "pkx.anim_range", NULL));
    colo_image(p);
    put32(p, 0x04, 0x10000);
    CHECK(ue_pkx_parse(p, COLO, UE_MODE_STRICT, &i, &d) == UE_ERR_INVALID);
    CHECK(has_code_at(&d, "pkx.gpt1_range", NULL));
    uint8_t x[XD];
    xd_image(x);
    put32(x, 0x10, 2); /* two anims move the DAT past the end */
    ue_diag_free(&d);
    CHECK(ue_pkx_parse(x, XD, UE_MODE_STRICT, &i, &d) == UE_ERR_INVALID);
    CHECK(d.count > 0);
    ue_diag_free(&d);
}

static void rewrap_new_dat(void) {
    uint8_t dat[0x55];
    fake_dat(dat, sizeof dat, 0xEE);
    for (int layout = 0; layout < 2; layout++) {
        uint8_t img[COLO > XD ? COLO : XD];
        size_t n = layout ? XD : COLO;
        if (layout) xd_image(img);
        else colo_image(img);
        ue_pkx_info i, j;
        REQUIRE(ue_pkx_parse(img, n, UE_MODE_STRICT, &i, NULL) == UE_OK);
        ue_buf same = {0}, b = {0};
        REQUIRE(ue_pkx_rewrap(img, n, &i, img + i.dat_offset, i.dat_size, NULL, 0, &same, NULL) == UE_OK);
        CHECK(same.size == n && memcmp(same.data, img, n) == 0);
        REQUIRE(ue_pkx_rewrap(img, n, &i, dat, sizeof dat, NULL, 0, &b, NULL) == UE_OK);
        REQUIRE(ue_pkx_parse(b.data, b.size, UE_MODE_STRICT, &j, NULL) == UE_OK);
        CHECK(j.layout == i.layout);
        CHECK_EQ_U(j.dat_size, sizeof dat);
        CHECK(memcmp(b.data + j.dat_offset, dat, sizeof dat) == 0);
        CHECK_EQ_U(j.anim_count, i.anim_count);
        CHECK(memcmp(b.data + j.anim_offset, img + i.anim_offset, i.anim_count * 0xD0u) == 0);
        CHECK(memcmp(b.data + j.gpt1_offset, img + i.gpt1_offset, i.gpt1_length) == 0);
        CHECK(memcmp(b.data + j.tail_offset, img + i.tail_offset, n - i.tail_offset) == 0);
        ue_buf_free(&same);
        ue_buf_free(&b);
    }
}

static void build_roundtrip(void) {
    uint8_t dat[0x41], anims[3 * 0xD0];
    fake_dat(dat, sizeof dat, 0x11);
    memset(anims, 0x5A, sizeof anims);
    const uint8_t gpt1[5] = {'G', 'P', 'T', '1', 0};
    for (int layout = 0; layout < 2; layout++) {
        for (int g = 0; g < 2; g++) {
            ue_buf b = {0};
            REQUIRE(ue_pkx_build((ue_pkx_layout)layout, dat, sizeof dat, g ? gpt1 : NULL,
                                 g ? sizeof gpt1 : 0, anims, 3, 7, &b) == UE_OK);
            ue_pkx_info i;
            REQUIRE(ue_pkx_parse(b.data, b.size, UE_MODE_STRICT, &i, NULL) == UE_OK);
            CHECK((int)i.layout == layout);
            CHECK_EQ_U(i.dat_size, sizeof dat);
            CHECK(memcmp(b.data + i.dat_offset, dat, sizeof dat) == 0);
            CHECK_EQ_U(i.gpt1_length, g ? sizeof gpt1 : 0);
            CHECK(memcmp(b.data + i.anim_offset, anims, sizeof anims) == 0);
            ue_buf_free(&b);
        }
    }
}

static char tmp_root[256];

static void manifest_rewrap(void) {
    uint8_t img[XD];
    xd_image(img);
    ue_archive *a;
    ue_diag d = {0};
    REQUIRE(ue_archive_open_memory(img, XD, "x.pkx", UE_MODE_STRICT, &a, &d) == UE_OK);
    CHECK_STR(ue_archive_format(a), "pkx");
    CHECK_EQ_U(ue_archive_count(a), 2);
    char dir[300], path[400];
    snprintf(dir, sizeof dir, "%s/xd", tmp_root);
    REQUIRE(ue_archive_extract(a, dir, true, &d) == UE_OK);
    ue_archive_close(a);
    ue_buf b = {0};
    REQUIRE(ue_archive_pack(dir, &b, &d) == UE_OK);
    CHECK(b.size == XD && memcmp(b.data, img, XD) == 0);
    ue_buf_free(&b);
    uint8_t dat[0x77];
    fake_dat(dat, sizeof dat, 0x42);
    snprintf(path, sizeof path, "%s/entries/0000_model.dat", dir);
    REQUIRE(ue_file_write_atomic(path, dat, sizeof dat, true, NULL) == UE_OK);
    REQUIRE(ue_archive_pack(dir, &b, &d) == UE_OK);
    ue_pkx_info i;
    REQUIRE(ue_pkx_parse(b.data, b.size, UE_MODE_STRICT, &i, NULL) == UE_OK);
    CHECK(i.dat_size == sizeof dat && memcmp(b.data + i.dat_offset, dat, sizeof dat) == 0);
    CHECK(memcmp(b.data + b.size - 8, "TRAILER!", 8) == 0);
    ue_buf_free(&b);
    ue_diag_free(&d);
}

int main(void) {
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ue_test_pkx_XXXXXX");
    if (!mkdtemp(tmp_root)) return 3;
    RUN(parses_colosseum);
    RUN(parses_xd);
    RUN(xd_godtool_offset);
    RUN(dat_size_fallback);
    RUN(bad_sizes);
    RUN(rewrap_new_dat);
    RUN(build_roundtrip);
    RUN(manifest_rewrap);
    ue_remove_tree(tmp_root);
    return TEST_SUMMARY();
}
