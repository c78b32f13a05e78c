/* unearth tests — GameCube LZSS: hand-computed streams through the shared codec with the zero
 * ring, the 16-byte container (sizes, docs/formats/lzss.md#size-fallback, bad input) and encoder round trips. */
#include "peak_rss.h" /* first: it sets the feature macros */
#include <fcntl.h>

#include "test.h"
#include "unearth/archive.h"
#include "unearth/gamecube.h"
#include "unearth/lzss.h"
#include "common/bytes.h"

static ue_result dec(const uint8_t *s, size_t n, uint8_t *out, size_t out_n, bool strict,
                     ue_diag *d) {
    ue_lzss_params p = UE_LZSS_GAMECUBE;
    p.forbid_prefill = strict;
    p.prefill_reach = 18;
    return ue_lzss_decode(&p, s, n, out, out_n, NULL, d, 0, "t");
}

static void literals(void) {
    /* Flag bits LSB first: 0xFF = eight literals, then 0x01 = one more. */
    const uint8_t s[] = {0xFF, 'A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 0x01, 'I'};
    uint8_t out[9];
    REQUIRE(dec(s, sizeof s, out, 9, true, NULL) == UE_OK);
    CHECK_MEM(out, "ABCDEFGHI", 9);
}

static void overlapping_match(void) {
    /* "AB", then a reference to ring 0xFEE (where 'A' went) of length 6: copies overlap.
     * b0 = 0xEE, b1 = (0xFEE >> 4 & 0xF0) | (6 - 3) = 0xF3; flags = 0b011. */
    const uint8_t s[] = {0x03, 'A', 'B', 0xEE, 0xF3};
    uint8_t out[8];
    REQUIRE(dec(s, sizeof s, out, 8, true, NULL) == UE_OK);
    CHECK_MEM(out, "ABABABAB", 8);
}

static void ring_initial_zeros(void) {
    /* At output 0 a reference to ring 0xFEA (4 bytes before r) reads the zero fill. */
    const uint8_t s[] = {0x02, 0xEA, 0xF1, 'Z'};
    uint8_t out[5] = {9, 9, 9, 9, 9};
    REQUIRE(dec(s, sizeof s, out, 5, true, NULL) == UE_OK);
    const uint8_t want[5] = {0, 0, 0, 0, 'Z'};
    CHECK_MEM(out, want, 5);
}

static void ring_wraps(void) {
    /* 20 literals: r runs 0xFEE..0xFFF then 0x000, 0x001. A reference to 0xFFE of length 4
     * reads outputs 16..19 across the wrap. */
    uint8_t s[32];
    size_t n = 0;
    const char *lit = "abcdefghijklmnopqrst";
    s[n++] = 0xFF;
    for (int i = 0; i < 8; i++) s[n++] = (uint8_t)lit[i];
    s[n++] = 0xFF;
    for (int i = 8; i < 16; i++) s[n++] = (uint8_t)lit[i];
    s[n++] = 0x0F; /* four literals, then a reference */
    for (int i = 16; i < 20; i++) s[n++] = (uint8_t)lit[i];
    s[n++] = 0xFE;
    s[n++] = 0xF1;
    uint8_t out[24];
    REQUIRE(dec(s, n, out, 24, true, NULL) == UE_OK);
    CHECK_MEM(out, "abcdefghijklmnopqrstqrst", 24);
}

static void before_start(void) {
    /* Ring position 0 at output 0 is 0xFEE bytes before the start. */
    const uint8_t s[] = {0x00, 0x00, 0x00};
    uint8_t out[3];
    ue_diag d = {0};
    CHECK(dec(s, sizeof s, out, 3, true, &d) == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.before_start"));
    CHECK(d.count && d.items[0].offset == 1);
    ue_diag_free(&d);
    CHECK(dec(s, sizeof s, out, 3, false, NULL) == UE_OK);
    CHECK(out[0] == 0 && out[2] == 0);
}

/* Wraps a raw stream in the 16-byte header. */
static size_t wrap(const uint8_t *s, size_t n, uint32_t usize, uint32_t csize, uint8_t *out) {
    memcpy(out, "LZSS", 4);
    ue_store_u32be(out + 4, usize);
    ue_store_u32be(out + 8, csize);
    ue_store_u32be(out + 12, 0);
    memcpy(out + 16, s, n);
    return n + 16;
}

static void container_header(void) {
    const uint8_t s[] = {0x03, 'A', 'B', 0xEE, 0xF3};
    uint8_t blob[64], *out;
    size_t n = wrap(s, sizeof s, 8, 16 + sizeof s, blob), out_n;
    ue_diag d = {0};
    REQUIRE(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_OK);
    CHECK_EQ_U(out_n, 8);
    CHECK_MEM(out, "ABABABAB", 8);
    CHECK_EQ_U(d.count, 0);
    free(out);
    /* docs/formats/lzss.md#size-fallback: an unusable compressed size (too big, or below the header) → whole slice. */
    uint32_t bad_sizes[2] = {0xFFFFFFFFu, 4};
    for (int k = 0; k < 2; k++) {
        ue_diag d2 = {0};
        ue_gclzss_header h;
        n = wrap(s, sizeof s, 8, bad_sizes[k], blob);
        CHECK(ue_gclzss_parse_header(blob, n, &h, &d2, 0, "t") == UE_OK);
        CHECK(h.size_fallback && h.stream_end == n);
        CHECK(has_code(&d2, "lzss.size_fallback"));
        REQUIRE(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d2, 0, "t") == UE_OK);
        CHECK_MEM(out, "ABABABAB", 8);
        free(out);
        ue_diag_free(&d2);
    }
    ue_diag_free(&d);
}

static void container_bad(void) {
    uint8_t blob[64], *out = NULL;
    size_t out_n;
    const uint8_t s[] = {0x03, 'A', 'B', 0xEE, 0xF3};
    ue_diag d = {0};
    /* Missing magic. */
    size_t n = wrap(s, sizeof s, 8, 21, blob);
    blob[0] = 'X';
    CHECK(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0x100, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.magic") && d.items[0].offset == 0x100);
    CHECK(out == NULL);
    /* Too short for the header. */
    CHECK(ue_gclzss_decode(blob, 10, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.header.truncated"));
    /* Declared size larger than the data: stream ends first, offset names the input end. */
    n = wrap(s, sizeof s, 12, 21, blob);
    ue_diag_free(&d);
    CHECK(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.truncated"));
    CHECK(d.count && d.items[0].offset == 21);
    /* A size no stream of this length can produce is refused before allocating. */
    n = wrap(s, sizeof s, 0x7FFFFFFFu, 21, blob);
    CHECK(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.size_impossible"));
    /* Reference before the start: strict fails, tolerant decodes zeros with a warning. */
    const uint8_t deep[] = {0x00, 0x00, 0x00};
    n = wrap(deep, sizeof deep, 3, 19, blob);
    ue_diag_free(&d);
    CHECK(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.before_start") && d.items[0].offset == 17);
    ue_diag_free(&d);
    REQUIRE(ue_gclzss_decode(blob, n, UE_MODE_TOLERANT, &out, &out_n, &d, 0, "t") == UE_OK);
    CHECK(out_n == 3 && out[0] == 0);
    CHECK(ue_diag_count(&d, UE_SEV_ERROR) == 0 && ue_diag_count(&d, UE_SEV_WARNING) == 1);
    free(out);
    ue_diag_free(&d);
}

/* Child work: a 21-byte file declaring `*declared` bytes must be refused as impossible by the
 * decoder and by the container view `info`/`extract` open, without allocating for it. */
static int refuse_claim(void *arg) {
    const uint32_t declared = *(const uint32_t *)arg;
    const uint8_t s[] = {0x03, 'A', 'B', 0xEE, 0xF3};
    uint8_t blob[64], *out = NULL;
    size_t n = wrap(s, sizeof s, declared, 21, blob), out_n;
    ue_diag d = {0};
    bool ok = ue_gclzss_decode(blob, n, UE_MODE_TOLERANT, &out, &out_n, &d, 0, "t") ==
                  UE_ERR_INVALID &&
              has_code(&d, "lzss.size_impossible") && out == NULL;
    ue_diag_free(&d);
    ue_archive *a = NULL;
    ok = ok && ue_archive_open_memory(blob, n, "claim.lzss", UE_MODE_TOLERANT, &a, NULL) != UE_OK;
    return ok ? 0 : 1;
}

static int nothing(void *arg) {
    (void)arg;
    return 0;
}

/* The bound is exact: 5 stream bytes (flag + 2 references) give at most 36 bytes, so 36 is
 * decoded (and found short) while 37, or 2 GiB, is refused; peak memory stays flat. */
static void small_file_claiming_a_lot(void) {
    const uint8_t s[] = {0x03, 'A', 'B', 0xEE, 0xF3};
    uint8_t blob[64], *out = NULL;
    size_t out_n;
    ue_diag d = {0};
    size_t n = wrap(s, sizeof s, 36, 21, blob);
    CHECK(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.truncated") && !has_code(&d, "lzss.size_impossible"));
    ue_diag_free(&d);
    n = wrap(s, sizeof s, 37, 21, blob);
    CHECK(ue_gclzss_decode(blob, n, UE_MODE_STRICT, &out, &out_n, &d, 0, "t") == UE_ERR_INVALID);
    CHECK(has_code(&d, "lzss.size_impossible"));
    ue_diag_free(&d);

    long base_kib, claim_kib;
    uint32_t declared = 0xFFFFFFFFu;
    REQUIRE(ue_run_measured(nothing, NULL, &base_kib));
    CHECK(ue_run_measured(refuse_claim, &declared, &claim_kib));
    /* 4 GiB claimed; allow 8 MiB of noise over the child that does nothing. */
    CHECK(claim_kib - base_kib < 8 * 1024);
    if (claim_kib - base_kib >= 8 * 1024)
        fprintf(stderr, "  peak %ld KiB vs %ld KiB at rest\n", claim_kib, base_kib);
}

/* Child work: open a sparse LZSS file just over the 2 GiB cap; it must be refused from its size
 * (lzss.file_cap), never read into memory. */
static int refuse_big_file(void *arg) {
    const char *path = arg;
    ue_archive *a = NULL;
    ue_diag d = {0};
    bool ok = ue_archive_open(path, UE_MODE_TOLERANT, &a, &d) == UE_ERR_LIMIT &&
              has_code(&d, "lzss.file_cap");
    ue_diag_free(&d);
    return ok ? 0 : 1;
}

static void file_over_the_cap(void) {
    char path[] = "/tmp/unearth_test_big_XXXXXX";
    int fd = mkstemp(path);
    REQUIRE(fd >= 0);
    const uint8_t s[] = {0x03, 'A', 'B', 0xEE, 0xF3};
    uint8_t blob[64];
    size_t n = wrap(s, sizeof s, 8, 21, blob);
    bool made = write(fd, blob, n) == (ssize_t)n &&
                ftruncate(fd, (off_t)UE_CAP_ENTRY_BYTES + 1) == 0;
    close(fd);
    long base_kib, big_kib;
    if (made) {
        REQUIRE(ue_run_measured(nothing, NULL, &base_kib));
        CHECK(ue_run_measured(refuse_big_file, path, &big_kib));
        CHECK(big_kib - base_kib < 8 * 1024);
    }
    unlink(path);
    CHECK(made);
}

static uint32_t rng = 12345;
static uint8_t rnd(void) {
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return (uint8_t)rng;
}

static void fill_case(int kind, uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) {
        switch (kind) {
        case 0: p[i] = 0; break;
        case 1: p[i] = rnd(); break;
        case 2: p[i] = (uint8_t)"the quick brown fox jumps over the lazy dog "[i % 44]; break;
        case 3: p[i] = (uint8_t)((i / 7) % 5 == 0 ? rnd() : (uint8_t)(i & 0xF0)); break;
        default: p[i] = (uint8_t)(i < 64 ? 0 : (i % 300 < 20 ? rnd() % 4 : 'x')); break;
        }
    }
}

static void roundtrips(void) {
    const size_t sizes[] = {0, 1, 2, 3, 17, 18, 19, 4095, 4096, 4097, 70000};
    for (int kind = 0; kind < 5; kind++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            uint8_t *in = malloc(n + 1);
            REQUIRE(in);
            fill_case(kind, in, n);
            for (int level = 0; level <= 9; level += 3) {
                ue_buf b = {0};
                REQUIRE(ue_gclzss_encode(in, n, level, 0, &b) == UE_OK);
                CHECK_EQ_U(ue_load_u32be(b.data + 8), b.size);
                uint8_t *out;
                size_t out_n;
                ue_diag d = {0};
                /* Strict mode: our streams never reach more than F bytes before the start. */
                ue_result r = ue_gclzss_decode(b.data, b.size, UE_MODE_STRICT, &out, &out_n, &d, 0, "t");
                CHECK(r == UE_OK);
                if (r == UE_OK) {
                    CHECK_EQ_U(out_n, n);
                    CHECK(n == 0 || memcmp(out, in, n) == 0);
                    free(out);
                } else {
                    fprintf(stderr, "kind %d size %zu level %d failed\n", kind, n, level);
                }
                ue_diag_free(&d);
                ue_buf_free(&b);
            }
            free(in);
        }
    }
}

static void lazy_not_worse(void) {
    size_t n = 200000;
    uint8_t *in = malloc(n);
    REQUIRE(in);
    for (int kind = 2; kind < 5; kind++) {
        fill_case(kind, in, n);
        ue_buf g = {0}, l = {0};
        REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 2, in, n, &g) == UE_OK);
        REQUIRE(ue_lzss_encode(&UE_LZSS_GAMECUBE, 9, in, n, &l) == UE_OK);
        CHECK(l.size <= g.size);
        ue_buf_free(&g);
        ue_buf_free(&l);
    }
    free(in);
}

int main(void) {
    RUN(literals);
    RUN(overlapping_match);
    RUN(ring_initial_zeros);
    RUN(ring_wraps);
    RUN(before_start);
    RUN(container_header);
    RUN(container_bad);
    RUN(roundtrips);
    RUN(lazy_not_worse);
    RUN(small_file_claiming_a_lot);
    RUN(file_over_the_cap);
    return TEST_SUMMARY();
}
