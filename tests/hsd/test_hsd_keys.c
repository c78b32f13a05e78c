/* unearth tests — HSD key streams (hsd-formats §6.4–§6.5): decoding of hand-built bytes for every
 * opcode and format, evaluation against values worked out by hand, encode → decode, bad input. */
#include <math.h>

#include "test.h"
#include "unearth/hsd_anim.h"

/* IEEE little-endian bytes of a few floats */
#define F0 0x00, 0x00, 0x00, 0x00
#define F0_5 0x00, 0x00, 0x00, 0x3F
#define F1 0x00, 0x00, 0x80, 0x3F
#define F2 0x00, 0x00, 0x00, 0x40
#define F3 0x00, 0x00, 0x40, 0x40
#define FNAN 0x00, 0x00, 0xC0, 0x7F

#define BASE 0x1000u

static int near(double a, double b) { return fabs(a - b) < 1e-5; }
#define CHECK_NEAR(a, b)                                                                      \
    do {                                                                                      \
        double x_ = (a), y_ = (b);                                                            \
        if (!near(x_, y_)) {                                                                  \
            fprintf(stderr, "%s:%d: %s = %.9g, expected %.9g\n", __FILE__, __LINE__, #a, x_, y_); \
            ue_test_failed_checks++;                                                          \
        }                                                                                     \
    } while (0)

static ue_hsd_key *keys;
static size_t nkeys;
static ue_diag diag;

static ue_result decode_mode(const uint8_t *b, size_t n, uint8_t vf, uint8_t sf, ue_mode mode) {
    free(keys);
    keys = NULL;
    nkeys = 0;
    ue_diag_free(&diag);
    memset(&diag, 0, sizeof diag);
    return ue_hsd_keys_decode(b, n, vf, sf, mode, &keys, &nkeys, &diag, "dat/track", BASE);
}
static ue_result decode(const uint8_t *b, size_t n, uint8_t vf, uint8_t sf) {
    return decode_mode(b, n, vf, sf, UE_MODE_STRICT);
}

static void check_key(size_t i, uint8_t op, double time, double value, double slope, uint32_t wait) {
    if (i >= nkeys) {
        fprintf(stderr, "key %zu missing (%zu decoded)\n", i, nkeys);
        ue_test_failed_checks++;
        return;
    }
    CHECK_EQ_U(keys[i].op, op);
    CHECK_NEAR(keys[i].time, time);
    CHECK_NEAR(keys[i].value, value);
    CHECK_NEAR(keys[i].slope, slope);
    CHECK_EQ_U(keys[i].wait, wait);
}

/* Encodes what was decoded and checks that the bytes come back exactly. */
static void check_reencode(const uint8_t *b, size_t n, uint8_t vf, uint8_t sf) {
    ue_buf out = {0};
    CHECK_EQ_U(ue_hsd_keys_encode(keys, nkeys, vf, sf, &out), UE_OK);
    CHECK_EQ_U(out.size, n);
    if (out.size == n) CHECK_MEM(out.data, b, n);
    ue_buf_free(&out);
}

/* ---- decoding ----------------------------------------------------------------------------- */

static void test_con_float(void) {
    /* run of 2 CON: header 0x11 (n − 1 = 1 in bits 4–6) */
    const uint8_t b[] = {0x11, F1, 10, F2, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_FLOAT, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 2);
    check_key(0, UE_HSD_KEY_CON, 0, 1.0, 0, 10);
    check_key(1, UE_HSD_KEY_CON, 10, 2.0, 0, 0);
    CHECK_EQ_U(diag.count, 0);
    check_reencode(b, sizeof b, UE_HSD_FMT_FLOAT, 0);
}

static void test_integer_formats(void) {
    /* S16 frac 8: 0x0180 = 384 / 256 = 1.5; 0xFF80 = −128 / 256 = −0.5 */
    const uint8_t s16[] = {0x12, 0x80, 0x01, 2, 0x80, 0xFF, 0};
    REQUIRE(decode(s16, sizeof s16, UE_HSD_FMT_S16 | 8, 0) == UE_OK);
    check_key(0, UE_HSD_KEY_LIN, 0, 1.5, 0, 2);
    check_key(1, UE_HSD_KEY_LIN, 2, -0.5, 0, 0);
    check_reencode(s16, sizeof s16, UE_HSD_FMT_S16 | 8, 0);
    /* U16 frac 4: 0x0028 = 40 / 16 = 2.5; 0xFFF0 = 65520 / 16 = 4095 */
    const uint8_t u16[] = {0x13, 0x28, 0x00, 1, 0xF0, 0xFF, 0};
    REQUIRE(decode(u16, sizeof u16, UE_HSD_FMT_U16 | 4, 0) == UE_OK);
    check_key(0, UE_HSD_KEY_SPL0, 0, 2.5, 0, 1);
    check_key(1, UE_HSD_KEY_SPL0, 1, 4095.0, 0, 0);
    check_reencode(u16, sizeof u16, UE_HSD_FMT_U16 | 4, 0);
    /* S8 frac 1: 0xFD = −3 / 2 = −1.5; U8 frac 2: 0xFF = 255 / 4 = 63.75 */
    const uint8_t s8[] = {0x01, 0xFD, 7};
    REQUIRE(decode(s8, sizeof s8, UE_HSD_FMT_S8 | 1, 0) == UE_OK);
    check_key(0, UE_HSD_KEY_CON, 0, -1.5, 0, 7);
    check_reencode(s8, sizeof s8, UE_HSD_FMT_S8 | 1, 0);
    const uint8_t u8[] = {0x06, 0xFF, 3};
    REQUIRE(decode(u8, sizeof u8, UE_HSD_FMT_U8 | 2, 0) == UE_OK);
    check_key(0, UE_HSD_KEY_KEY, 0, 63.75, 0, 3);
    check_reencode(u8, sizeof u8, UE_HSD_FMT_U8 | 2, 0);
}

static void test_spl_slope_formats(void) {
    /* SPL value S16 frac 8 (0x0100 = 1), slope S8 frac 4 (0xF8 = −8 / 16 = −0.5), wait 4;
     * then SLP (slope only, no wait) 0x10 = 16 / 16 = 1; then SPL0 0x0200 = 2, wait 0 */
    const uint8_t b[] = {0x04, 0x00, 0x01, 0xF8, 4, 0x05, 0x10, 0x03, 0x00, 0x02, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_S16 | 8, UE_HSD_FMT_S8 | 4) == UE_OK);
    CHECK_EQ_U(nkeys, 3);
    check_key(0, UE_HSD_KEY_SPL, 0, 1.0, -0.5, 4);
    check_key(1, UE_HSD_KEY_SLP, 0, 0, 1.0, 0); /* the time of the key before it */
    check_key(2, UE_HSD_KEY_SPL0, 4, 2.0, 0, 0);
    check_reencode(b, sizeof b, UE_HSD_FMT_S16 | 8, UE_HSD_FMT_S8 | 4);
}

static void test_multibyte_wait(void) {
    /* wait 300 = 0x2C | 0x80, then 300 >> 7 = 2; wait 16384 = 0x80 0x80 0x01 */
    const uint8_t b[] = {0x21, 1, 0xAC, 0x02, 2, 0x80, 0x80, 0x01, 3, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 3);
    check_key(0, UE_HSD_KEY_CON, 0, 1, 0, 300);
    check_key(1, UE_HSD_KEY_CON, 300, 2, 0, 16384);
    check_key(2, UE_HSD_KEY_CON, 16684, 3, 0, 0);
    check_reencode(b, sizeof b, UE_HSD_FMT_U8, 0);
}

static void test_pack_continuation(void) {
    /* 10 LIN entries: n − 1 = 9 → low 3 bits 1 in the header (0x92 = 0x80 | 1 << 4 | 2),
     * 9 >> 3 = 1 in the continuation byte */
    uint8_t b[2 + 20];
    b[0] = 0x92, b[1] = 0x01;
    for (int i = 0; i < 10; i++) b[2 + 2 * i] = (uint8_t)(10 * i), b[3 + 2 * i] = 1;
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 10);
    for (size_t i = 0; i < 10; i++) check_key(i, UE_HSD_KEY_LIN, (double)i, 10.0 * (double)i, 0, 1);
    check_reencode(b, sizeof b, UE_HSD_FMT_U8, 0);
    /* 200 entries: n − 1 = 199 = 0b11000111 → header 0xF2 (low bits 7), 199 >> 3 = 24 */
    uint8_t big[2 + 400];
    big[0] = 0xF2, big[1] = 24;
    for (int i = 0; i < 200; i++) big[2 + 2 * i] = 5, big[3 + 2 * i] = 0;
    REQUIRE(decode(big, sizeof big, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 200);
    check_reencode(big, sizeof big, UE_HSD_FMT_U8, 0);
}

static void test_key_reads_its_wait(void) {
    /* KEY 5 wait 3, KEY 7 wait 0: the runtime reads a wait after KEY (HSDLIB would take the 3
     * for the next value) */
    const uint8_t b[] = {0x16, 5, 3, 7, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 2);
    check_key(0, UE_HSD_KEY_KEY, 0, 5, 0, 3);
    check_key(1, UE_HSD_KEY_KEY, 3, 7, 0, 0);
}

static void test_stops_at_none(void) {
    /* an opcode 0 ends the stream: the 0x07 after it is never read */
    const uint8_t b[] = {0x01, 4, 1, 0x00, 0x07, 0xFF};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 1);
    CHECK_EQ_U(diag.count, 0);
    const uint8_t empty[] = {0x00};
    REQUIRE(decode(empty, 1, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EQ_U(nkeys, 0);
    CHECK(keys == NULL);
}

/* ---- evaluation --------------------------------------------------------------------------- */

static float eval_at(float start, float frame, bool *ok) {
    float v = -999;
    *ok = ue_hsd_keys_eval(keys, nkeys, start, frame, &v);
    return v;
}
#define CHECK_EVAL(start, frame, expected)                                                    \
    do {                                                                                      \
        bool ok_;                                                                             \
        float v_ = eval_at(start, frame, &ok_);                                               \
        CHECK(ok_);                                                                           \
        CHECK_NEAR(v_, expected);                                                             \
    } while (0)

static void test_eval_con_step_and_hold(void) {
    const uint8_t b[] = {0x11, F1, 10, F2, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_FLOAT, 0) == UE_OK);
    CHECK_EVAL(0, 0, 1.0);
    CHECK_EVAL(0, 9.5f, 1.0); /* steps at the next key */
    CHECK_EVAL(0, 10, 2.0);
    CHECK_EVAL(0, 500, 2.0); /* after the last key: hold */
    bool ok;
    eval_at(0, -0.5f, &ok);
    CHECK(!ok); /* before the first key */
}

static void test_eval_lin(void) {
    /* LIN 0 → 10 over 10 frames */
    const uint8_t b[] = {0x12, 0, 10, 10, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EVAL(0, 5, 5.0);
    CHECK_EVAL(0, 2.5f, 2.5);
    CHECK_EVAL(0, 10, 10.0);
}

static void test_eval_spl0(void) {
    /* SPL0 0 → 1 over 4 frames: h(u) = −2u³ + 3u²; u = 0.25: 0.15625, u = 0.5: 0.5 */
    const uint8_t b[] = {0x13, F0, 4, F1, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_FLOAT, 0) == UE_OK);
    CHECK_EVAL(0, 1, 0.15625);
    CHECK_EVAL(0, 2, 0.5);
    CHECK_EVAL(0, 3, 0.84375);
}

static void test_eval_spl(void) {
    /* SPL 0 slope 1 wait 4, SPL 2 slope 0: p0 0, p1 2, d0 1, d1 0, T 4.
     * u = 0.5: 2·0.5 + 4·1·(0.125 − 0.5 + 0.5) = 1.5
     * u = 0.25: 2·0.15625 + 4·(0.015625 − 0.125 + 0.25) = 0.3125 + 0.5625 = 0.875 */
    const uint8_t b[] = {0x14, F0, F1, 4, F2, F0, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT) == UE_OK);
    CHECK_EVAL(0, 2, 1.5);
    CHECK_EVAL(0, 1, 0.875);
}

static void test_eval_slp_override(void) {
    /* SPL 0 slope 1 wait 4, SLP 2, SPL 2 slope 0: the SLP replaces the outgoing tangent,
     * d0 = 2: u = 0.5: 1 + 4·2·0.125 = 2.0 */
    const uint8_t b[] = {0x04, F0, F1, 4, 0x05, F2, 0x04, F2, F0, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT) == UE_OK);
    CHECK_EVAL(0, 2, 2.0);
    /* SLP then LIN (the exotic case): d0 stays K_a's slope 1, d1 = SLP 3, hermite:
     * u = 0.25: 2·0.15625 + 4·1·0.140625 + 4·3·(1/64 − 1/16) = 0.3125 + 0.5625 − 0.5625 */
    const uint8_t e[] = {0x04, F0, F1, 4, 0x05, F3, 0x02, F2, 0};
    REQUIRE(decode(e, sizeof e, UE_HSD_FMT_FLOAT, UE_HSD_FMT_FLOAT) == UE_OK);
    CHECK_EVAL(0, 1, 0.3125);
    CHECK_EVAL(0, 4, 2.0);
}

static void test_eval_key_and_lin_into_key(void) {
    /* LIN 0 wait 4, KEY 8 wait 2, CON 1: the segment before the KEY is linear (op of the
     * earlier key), the segment after it steps (KEY) */
    const uint8_t b[] = {0x02, 0, 4, 0x06, 8, 2, 0x01, 1, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    CHECK_EVAL(0, 1, 2.0);
    CHECK_EVAL(0, 5, 8.0);
    CHECK_EVAL(0, 6, 1.0);
}

static void test_eval_start_frame(void) {
    /* start −10: key 0 at clip frame 10; CON 1 wait 5, CON 2 */
    const uint8_t b[] = {0x11, 1, 5, 2, 0};
    REQUIRE(decode(b, sizeof b, UE_HSD_FMT_U8, 0) == UE_OK);
    bool ok;
    eval_at(-10, 9, &ok);
    CHECK(!ok);
    CHECK_EVAL(-10, 10, 1.0);
    CHECK_EVAL(-10, 14.9f, 1.0);
    CHECK_EVAL(-10, 15, 2.0);
    /* start 3: clip frame 0 is local time 3 */
    CHECK_EVAL(3, 0, 1.0);
    CHECK_EVAL(3, 2, 2.0);
    eval_at(0, NAN, &ok);
    CHECK(!ok);
    float v = 0;
    CHECK(!ue_hsd_keys_eval(keys, 0, 0, 0, &v));
}

/* ---- encoding ----------------------------------------------------------------------------- */

static void test_encode_decode_identity(void) {
    static const uint8_t formats[] = {UE_HSD_FMT_FLOAT, UE_HSD_FMT_S16 | 7, UE_HSD_FMT_U16 | 3,
                                      UE_HSD_FMT_S8 | 2, UE_HSD_FMT_U8 | 1};
    /* values every format holds exactly: multiples of 0.5 in 0..10 */
    const ue_hsd_key in[] = {{UE_HSD_KEY_SPL, 0, 1.5f, 0.5f, 3}, {UE_HSD_KEY_SLP, 0, 0, 2.0f, 0},
                             {UE_HSD_KEY_LIN, 0, 10.0f, 0, 200}, {UE_HSD_KEY_LIN, 0, 0.5f, 0, 1},
                             {UE_HSD_KEY_KEY, 0, 3.0f, 0, 2}, {UE_HSD_KEY_CON, 0, 7.5f, 0, 0}};
    const double times[] = {0, 0, 3, 203, 204, 206};
    for (size_t f = 0; f < sizeof formats; f++) {
        ue_buf out = {0};
        REQUIRE(ue_hsd_keys_encode(in, 6, formats[f], formats[f], &out) == UE_OK);
        REQUIRE(decode(out.data, out.size, formats[f], formats[f]) == UE_OK);
        CHECK_EQ_U(nkeys, 6);
        for (size_t i = 0; i < 6 && i < nkeys; i++)
            check_key(i, in[i].op, times[i], in[i].value, in[i].slope, in[i].wait);
        ue_buf_free(&out);
    }
}

static void test_encode_refuses(void) {
    ue_buf out = {0};
    ue_buf_put_u8(&out, 0xAA);
    const ue_hsd_key big = {UE_HSD_KEY_CON, 0, 300.0f, 0, 0};
    CHECK_EQ_U(ue_hsd_keys_encode(&big, 1, UE_HSD_FMT_U8, 0, &out), UE_ERR_USAGE);
    const ue_hsd_key neg = {UE_HSD_KEY_CON, 0, -1.0f, 0, 0};
    CHECK_EQ_U(ue_hsd_keys_encode(&neg, 1, UE_HSD_FMT_U16, 0, &out), UE_ERR_USAGE);
    const ue_hsd_key nan = {UE_HSD_KEY_CON, 0, NAN, 0, 0};
    CHECK_EQ_U(ue_hsd_keys_encode(&nan, 1, UE_HSD_FMT_FLOAT, 0, &out), UE_ERR_USAGE);
    const ue_hsd_key none = {UE_HSD_KEY_NONE, 0, 1.0f, 0, 0};
    CHECK_EQ_U(ue_hsd_keys_encode(&none, 1, UE_HSD_FMT_FLOAT, 0, &out), UE_ERR_USAGE);
    const ue_hsd_key ok = {UE_HSD_KEY_CON, 0, 1.0f, 0, UE_HSD_MAX_FRAMES + 1};
    CHECK_EQ_U(ue_hsd_keys_encode(&ok, 1, UE_HSD_FMT_FLOAT, 0, &out), UE_ERR_USAGE);
    const ue_hsd_key plain = {UE_HSD_KEY_CON, 0, 1.0f, 0, 0};
    CHECK_EQ_U(ue_hsd_keys_encode(&plain, 1, 0xA0, 0, &out), UE_ERR_USAGE);
    CHECK_EQ_U(out.size, 1); /* nothing half-written */
    /* S16 frac 8 rounds to the nearest 1/256: 1.5 + 0.001 → 0x0180 */
    const ue_hsd_key r = {UE_HSD_KEY_CON, 0, 1.501f, 0, 0};
    out.size = 0;
    CHECK_EQ_U(ue_hsd_keys_encode(&r, 1, UE_HSD_FMT_S16 | 8, 0, &out), UE_OK);
    const uint8_t want[] = {0x01, 0x80, 0x01, 0};
    CHECK_EQ_U(out.size, 4);
    if (out.size == 4) CHECK_MEM(out.data, want, 4);
    ue_buf_free(&out);
}

/* ---- bad input ---------------------------------------------------------------------------- */

/* Strict refuses with `code` at `offset`; tolerant keeps `kept` entries with a warning. */
static void check_bad(const uint8_t *b, size_t n, uint8_t vf, const char *code, uint64_t offset,
                      size_t kept, int line) {
    int before = ue_test_failed_checks;
    CHECK_EQ_U(decode(b, n, vf, vf), UE_ERR_INVALID);
    CHECK_EQ_U(nkeys, 0);
    const ue_diag_item *it = diag_find(&diag, code, "dat/track");
    CHECK(it != NULL);
    if (it) CHECK_EQ_U(it->offset, offset);
    if (it) CHECK_EQ_U(it->severity, UE_SEV_ERROR);
    CHECK_EQ_U(decode_mode(b, n, vf, vf, UE_MODE_TOLERANT), UE_OK);
    CHECK_EQ_U(nkeys, kept);
    it = diag_find(&diag, code, "dat/track");
    CHECK(it != NULL && it->severity == UE_SEV_WARNING);
    if (ue_test_failed_checks != before) fprintf(stderr, "  (check_bad at line %d)\n", line);
}
#define BAD(bytes, vf, code, off, kept) check_bad(bytes, sizeof bytes, vf, code, off, kept, __LINE__)

static void test_bad_input(void) {
    /* a run of 2 with one entry: cut at byte 3 */
    const uint8_t short_run[] = {0x11, 1, 2};
    BAD(short_run, UE_HSD_FMT_U8, "hsd.key.truncated", BASE + 3, 1);
    /* a float cut in the middle (second entry starts at byte 6) */
    const uint8_t short_value[] = {0x11, F1, 1, 0x00, 0x00};
    BAD(short_value, UE_HSD_FMT_FLOAT, "hsd.key.truncated", BASE + 6, 1);
    /* a wait whose continuation byte is missing */
    const uint8_t short_wait[] = {0x11, 1, 2, 3, 0x80};
    BAD(short_wait, UE_HSD_FMT_U8, "hsd.key.truncated", BASE + 3, 1);
    /* a pack header whose continuation is missing */
    const uint8_t short_header[] = {0x01, 1, 2, 0x81};
    BAD(short_header, UE_HSD_FMT_U8, "hsd.key.truncated", BASE + 3, 1);
    /* opcodes 7 and 15 */
    const uint8_t op7[] = {0x01, 1, 2, 0x07, 1, 2};
    BAD(op7, UE_HSD_FMT_U8, "hsd.key.opcode", BASE + 3, 1);
    const uint8_t op15[] = {0x0F};
    BAD(op15, UE_HSD_FMT_U8, "hsd.key.opcode", BASE + 0, 0);
    /* value format types 5..7 */
    const uint8_t fmt[] = {0x01, 1, 2};
    BAD(fmt, 0xA0, "hsd.key.format", BASE + 1, 0);
    BAD(fmt, 0xE3, "hsd.key.format", BASE + 1, 0);
    /* wait 1000001 = 0x41 | 0x80, 4 | 0x80, 61 */
    const uint8_t wait[] = {0x11, 1, 2, 1, 0xC1, 0x84, 0x3D};
    BAD(wait, UE_HSD_FMT_U8, "hsd.key.wait", BASE + 4, 1);
    /* waits of 600000 (0xC0 0xCF 0x24) twice: the total passes 1000000 */
    const uint8_t total[] = {0x21, 1, 0xC0, 0xCF, 0x24, 2, 0xC0, 0xCF, 0x24, 3, 0};
    BAD(total, UE_HSD_FMT_U8, "hsd.key.wait", BASE + 6, 1);
    /* NaN and infinity */
    const uint8_t nan[] = {0x11, F1, 1, FNAN, 0};
    BAD(nan, UE_HSD_FMT_FLOAT, "hsd.key.nan", BASE + 6, 1);
    const uint8_t inf[] = {0x05, 0x00, 0x00, 0x80, 0xFF};
    BAD(inf, UE_HSD_FMT_FLOAT, "hsd.key.nan", BASE + 1, 0);
    /* a run claiming billions of entries with one present: cut at the bytes */
    const uint8_t huge[] = {0xF1, 0xFF, 0xFF, 0xFF, 0x7F, 9, 0};
    BAD(huge, UE_HSD_FMT_U8, "hsd.key.truncated", BASE + 7, 1);
}

int main(void) {
    RUN(test_con_float);
    RUN(test_integer_formats);
    RUN(test_spl_slope_formats);
    RUN(test_multibyte_wait);
    RUN(test_pack_continuation);
    RUN(test_key_reads_its_wait);
    RUN(test_stops_at_none);
    RUN(test_eval_con_step_and_hold);
    RUN(test_eval_lin);
    RUN(test_eval_spl0);
    RUN(test_eval_spl);
    RUN(test_eval_slp_override);
    RUN(test_eval_key_and_lin_into_key);
    RUN(test_eval_start_frame);
    RUN(test_encode_decode_identity);
    RUN(test_encode_refuses);
    RUN(test_bad_input);
    free(keys);
    ue_diag_free(&diag);
    return TEST_SUMMARY();
}
