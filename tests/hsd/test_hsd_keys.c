/* unearth tests — HSD key streams (docs/formats/hsd-animation.md#key-streams): decoding of hand-built bytes for every
 * opcode and format, evaluation against values worked out by hand, encode → decode, bad input. */
#include <math.h>
#include <string.h>

#include "hsd/hsd_anim_eval.h"
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

/* The cursor (resumed key walk) gives, frame after frame, the value a walk from the first key
 * gives: increasing frames, a repeat, a jump back, frames before the first key and a NaN. */
static void test_eval_cursor_matches_fresh_walk(void) {
    const ue_hsd_key mixed[] = {
        {UE_HSD_KEY_SPL, 2, 1.0f, 0.5f, 3},  {UE_HSD_KEY_SLP, 5, 0, -2.0f, 0}, {UE_HSD_KEY_SPL0, 5, 4.0f, 0, 4},
        {UE_HSD_KEY_LIN, 9, -1.0f, 0, 2},    {UE_HSD_KEY_NONE, 11, 7.0f, 0, 0}, {UE_HSD_KEY_KEY, 11, 3.0f, 0, 5},
        {UE_HSD_KEY_CON, 16, 6.0f, 0, 1},    {UE_HSD_KEY_LIN, 17, 2.0f, 0, 0},
    };
    const float frames[] = {-3, 0, 1.5f, 2, 2, 3.25f, 5, 7.5f, 9, 10, 10.5f, 11, 13, 16, 16.5f, 17, 30,
                            4, 4.5f, 12, NAN, 0.5f, 2.5f, 30};
    const size_t n = sizeof mixed / sizeof *mixed;
    hsd_key_cursor c;
    hsd_key_cursor_reset(&c);
    for (size_t i = 0; i < sizeof frames / sizeof *frames; i++) {
        float fresh = -999, resumed = -999;
        bool ok_fresh = ue_hsd_keys_eval(mixed, n, -1.0f, frames[i], &fresh);
        bool ok_resumed = hsd_keys_eval_at(&c, mixed, n, -1.0f, frames[i], &resumed);
        CHECK(ok_fresh == ok_resumed);
        if (ok_fresh && ok_resumed) CHECK(memcmp(&fresh, &resumed, sizeof fresh) == 0);
    }
    /* values by hand: the LIN key governs the segment to the next key, -1 (local 9) to 3 (local
     * 11, the NONE entry between is no key), so local 10 is half way; the CON key holds 6 */
    float v = 0;
    hsd_key_cursor_reset(&c);
    CHECK(!hsd_keys_eval_at(&c, mixed, n, 0, 1.0f, &v));
    CHECK(hsd_keys_eval_at(&c, mixed, n, 0, 10.0f, &v));
    CHECK_NEAR(v, 1.0);
    CHECK(hsd_keys_eval_at(&c, mixed, n, 0, 16.5f, &v));
    CHECK_NEAR(v, 6.0);
    CHECK(hsd_keys_eval_at(&c, mixed, n, 0, 40.0f, &v));
    CHECK_NEAR(v, 2.0);
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
    /* a slope format of type 6 is reported at the first entry that has a slope */
    const uint8_t slope_fmt[] = {0x01, 1, 2, 0x04, 1, 1, 0};
    CHECK_EQ_U(decode(slope_fmt, sizeof slope_fmt, UE_HSD_FMT_U8, 0xC0), UE_ERR_INVALID);
    const ue_diag_item *it = diag_find(&diag, "hsd.key.format", "dat/track");
    CHECK(it != NULL && it->offset == BASE + 4);
    /* exactly UE_HSD_MAX_FRAMES (0x40 | 0x80, 0x84 | 0x80, 0x3D) is allowed */
    const uint8_t at_limit[] = {0x11, 1, 0xC0, 0x84, 0x3D, 2, 0};
    CHECK_EQ_U(decode(at_limit, sizeof at_limit, UE_HSD_FMT_U8, 0), UE_OK);
    check_key(1, UE_HSD_KEY_CON, 1000000.0, 2, 0, 0);
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


/* ---- a whole clip on a model (hsd_anim_eval) ------------------------------------------------ */

/* Joints: 0 root, 1 its child, 2 the child of 1 (pre-order, depths 0, 1, 2). */
static ue_hsd_joint mj[3];
static ue_hsd_dobj mdobj[1];
static ue_hsd_mobj mmobj[1];
static ue_hsd_tobj mtobj[1];
static ue_hsd_image mimages[3];
static ue_hsd_model mm;

/* Keys by track (time = local time, as the decoder gives them). */
static const ue_hsd_key k_rotz[] = {{UE_HSD_KEY_LIN, 0, 0, 0, 10}, {UE_HSD_KEY_LIN, 10, 1, 0, 0}};
static const ue_hsd_key k_trax[] = {{UE_HSD_KEY_CON, 0, 3, 0, 0}};
static const ue_hsd_key k_scay[] = {{UE_HSD_KEY_CON, 0, 0, 0, 0}};
static const ue_hsd_key k_scaz[] = {{UE_HSD_KEY_CON, 0, -0.0001f, 0, 0}};
static const ue_hsd_key k_zero[] = {{UE_HSD_KEY_CON, 0, 0, 0, 0}};
static const ue_hsd_key k_one[] = {{UE_HSD_KEY_CON, 0, 1, 0, 0}};
static const ue_hsd_key k_alpha[] = {{UE_HSD_KEY_CON, 0, 0.25f, 0, 0}};
static const ue_hsd_key k_diff_g[] = {{UE_HSD_KEY_LIN, 0, 0, 0, 4}, {UE_HSD_KEY_LIN, 4, 1, 0, 0}};
static const ue_hsd_key k_timg[] = {{UE_HSD_KEY_KEY, 0, 0, 0, 5}, {UE_HSD_KEY_KEY, 5, 2, 0, 5},
                                    {UE_HSD_KEY_KEY, 10, 1, 0, 5}, {UE_HSD_KEY_KEY, 15, 7, 0, 0}};
static const ue_hsd_key k_trav[] = {{UE_HSD_KEY_CON, 0, 0.125f, 0, 0}};

static ue_hsd_key mkeys[32];
static ue_hsd_track mtracks[16];
static ue_hsd_aobj maobjs[8];
static ue_hsd_anim_target mtargets[8];
static ue_hsd_clip mclips[2];
static int32_t mtable[3] = {1, 2, -1};

/* The fixed tables above are large enough for the model below; a test that outgrows them stops. */
static void room_for(size_t used, size_t extra, size_t size) {
    if (used + extra > size) {
        fprintf(stderr, "test tables too small\n");
        exit(1);
    }
}

static void add_track(uint8_t type, const ue_hsd_key *k, size_t n, float start) {
    room_for(mm.anims.track_count, 1, sizeof mtracks / sizeof mtracks[0]);
    room_for(mm.anims.key_count, n, sizeof mkeys / sizeof mkeys[0]);
    ue_hsd_track *t = &mtracks[mm.anims.track_count++];
    memset(t, 0, sizeof *t);
    t->type = type;
    t->start_frame = start;
    t->first_key = (uint32_t)mm.anims.key_count;
    t->key_count = (uint32_t)n;
    memcpy(mkeys + mm.anims.key_count, k, n * sizeof *k);
    mm.anims.key_count += n;
}
static int32_t add_aobj(void) {
    room_for(mm.anims.aobj_count, 1, sizeof maobjs / sizeof maobjs[0]);
    ue_hsd_aobj *a = &maobjs[mm.anims.aobj_count];
    memset(a, 0, sizeof *a);
    a->end_frame = 20;
    a->first_track = (uint32_t)mm.anims.track_count;
    return (int32_t)mm.anims.aobj_count++;
}
static void end_aobj(int32_t a) {
    maobjs[a].track_count = (uint32_t)mm.anims.track_count - maobjs[a].first_track;
}
static size_t add_target(ue_hsd_anim_kind kind, int32_t joint, int32_t aobj, uint32_t flags) {
    room_for(mm.anims.target_count, 1, sizeof mtargets / sizeof mtargets[0]);
    ue_hsd_anim_target *t = &mtargets[mm.anims.target_count];
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->joint = joint;
    t->dobj = t->tobj = -1;
    t->aobj = aobj;
    t->flags = flags;
    return mm.anims.target_count++;
}

static size_t t_material, t_texture;

/* The model's joints, material and texture, and empty animation tables. */
static void build_tables(void) {
    memset(&mm, 0, sizeof mm);
    memset(mj, 0, sizeof mj);
    for (int j = 0; j < 3; j++) {
        mj[j].parent = j - 1;
        mj[j].first_child = j < 2 ? j + 1 : -1;
        mj[j].next_sibling = -1;
        mj[j].first_dobj = -1;
        mj[j].depth = (uint32_t)j;
        for (int k = 0; k < 3; k++) {
            mj[j].rotation[k] = 0.1f * (float)(j + 1);
            mj[j].scale[k] = 1.0f + (float)j;
            mj[j].translation[k] = 10.0f * (float)(j + 1) + (float)k;
        }
    }
    mj[0].flags = UE_JOBJ_CLASSICAL_SCALE;
    mj[2].flags = UE_JOBJ_CLASSICAL_SCALE | UE_JOBJ_HIDDEN;
    mm.joints = mj, mm.joint_count = 3;
    memset(mdobj, 0, sizeof mdobj);
    mdobj[0].mobj = 0, mdobj[0].joint = 1, mdobj[0].next = -1, mdobj[0].first_pobj = -1;
    mm.dobjs = mdobj, mm.dobj_count = 1;
    memset(mmobj, 0, sizeof mmobj);
    mmobj[0].has_material = true;
    mmobj[0].first_tobj = 0;
    const uint8_t amb[4] = {51, 102, 153, 255}, dif[4] = {255, 51, 0, 255}, spe[4] = {0, 0, 255, 255};
    memcpy(mmobj[0].material.ambient, amb, 4);
    memcpy(mmobj[0].material.diffuse, dif, 4);
    memcpy(mmobj[0].material.specular, spe, 4);
    mmobj[0].material.alpha = 0.8f;
    mm.mobjs = mmobj, mm.mobj_count = 1;
    memset(mtobj, 0, sizeof mtobj);
    mtobj[0].next = -1, mtobj[0].image = 0, mtobj[0].tlut = -1;
    mtobj[0].translation[0] = 0.5f, mtobj[0].translation[1] = 0.25f;
    mtobj[0].scale[0] = 2, mtobj[0].scale[1] = 3, mtobj[0].scale[2] = 1;
    mm.tobjs = mtobj, mm.tobj_count = 1;
    mm.images = mimages, mm.image_count = 3;
    mm.anims.keys = mkeys, mm.anims.tracks = mtracks, mm.anims.aobjs = maobjs;
    mm.anims.targets = mtargets, mm.anims.clips = mclips;
    mm.anims.images = mtable, mm.anims.image_count = 3;
}

static void build_model(void) {
    build_tables();
    /* clip 0: ROTZ, TRAX (start −2: its key plays at frame 2), SCAY, SCAZ on joint 1 */
    int32_t a = add_aobj();
    add_track(UE_HSD_JT_ROTZ, k_rotz, 2, 0);
    add_track(UE_HSD_JT_TRAX, k_trax, 1, -2);
    add_track(UE_HSD_JT_SCAY, k_scay, 1, 0);
    add_track(UE_HSD_JT_SCAZ, k_scaz, 1, 0);
    end_aobj(a);
    memset(mclips, 0, sizeof mclips);
    mclips[0].first_target = (uint32_t)add_target(UE_HSD_ANIM_JOINT, 1, a, 1);
    add_target(UE_HSD_ANIM_JOINT, 2, -1, 0);
    mclips[0].target_count = 2;
    /* clip 1: BRANCH 0 on the root hides everything, then NODE 1 on joint 2 shows it again */
    int32_t hide = add_aobj();
    add_track(UE_HSD_JT_BRANCH, k_zero, 1, 0);
    end_aobj(hide);
    int32_t show = add_aobj();
    add_track(UE_HSD_JT_NODE, k_one, 1, 0);
    end_aobj(show);
    mclips[1].first_target = (uint32_t)add_target(UE_HSD_ANIM_JOINT, 0, hide, 0);
    add_target(UE_HSD_ANIM_JOINT, 1, -1, 0);
    add_target(UE_HSD_ANIM_JOINT, 2, show, 0);
    mclips[1].target_count = 3;
    mm.anims.clip_count = 2;
}

static void build_material_texture(void) {
    int32_t a = add_aobj();
    add_track(UE_HSD_MT_ALPHA, k_alpha, 1, 0);
    add_track(UE_HSD_MT_DIFFUSE_G, k_diff_g, 2, 0);
    end_aobj(a);
    t_material = add_target(UE_HSD_ANIM_MATERIAL, 1, a, 0);
    mtargets[t_material].dobj = 0;
    int32_t b = add_aobj();
    add_track(UE_HSD_TT_TIMG, k_timg, 4, 0);
    add_track(UE_HSD_TT_TRAV, k_trav, 1, 0);
    end_aobj(b);
    t_texture = add_target(UE_HSD_ANIM_TEXTURE, 1, b, 0);
    mtargets[t_texture].dobj = 0, mtargets[t_texture].tobj = 0;
    mtargets[t_texture].first_image = 0, mtargets[t_texture].image_count = 3;
}

static void check_vec(const float *v, float x, float y, float z, int line) {
    if (!near(v[0], x) || !near(v[1], y) || !near(v[2], z)) {
        fprintf(stderr, "line %d: (%.9g %.9g %.9g), expected (%.9g %.9g %.9g)\n", line, v[0], v[1],
                v[2], x, y, z);
        ue_test_failed_checks++;
    }
}
#define CHECK_VEC(v, x, y, z) check_vec(v, x, y, z, __LINE__)

static void test_model_joint_clip(void) {
    build_model();
    hsd_joint_state s[3];
    hsd_anim_joint_states(&mm, 0, 5, s);
    /* joint 1: ROTZ halfway 0 → 1; TRAX 3 (key at frame 2); SCAY 0 → 1e-3, SCAZ −1e-4 → −1e-3 */
    CHECK_VEC(s[1].rotation, 0.2f, 0.2f, 0.5f);
    CHECK_VEC(s[1].translation, 3.0f, 21.0f, 22.0f);
    CHECK_VEC(s[1].scale, 2.0f, 1e-3f, -1e-3f);
    CHECK(s[1].classical_scale); /* AnimJoint flag bit 0 */
    CHECK(s[1].visible);
    /* joints 0 and 2 keep their rest values */
    CHECK_VEC(s[0].rotation, 0.1f, 0.1f, 0.1f);
    CHECK_VEC(s[0].scale, 1, 1, 1);
    CHECK_VEC(s[0].translation, 10, 11, 12);
    CHECK_VEC(s[2].rotation, 0.3f, 0.3f, 0.3f);
    CHECK_VEC(s[2].scale, 3, 3, 3);
    CHECK_VEC(s[2].translation, 30, 31, 32);
    CHECK(s[0].classical_scale);  /* no AnimJoint: its own flag */
    CHECK(!s[2].classical_scale); /* an AnimJoint without bit 0 clears it */
    CHECK(!s[2].visible);         /* HIDDEN at rest */
    /* frame 1: TRAX's local time is −1, before its key: the rest translation stays */
    hsd_anim_joint_states(&mm, 0, 1, s);
    CHECK_VEC(s[1].translation, 20, 21, 22);
    CHECK_VEC(s[1].rotation, 0.2f, 0.2f, 0.1f);
    /* past the end of the keys: hold */
    hsd_anim_joint_states(&mm, 0, 50, s);
    CHECK_VEC(s[1].rotation, 0.2f, 0.2f, 1.0f);
    /* clip 1: the root's BRANCH hides 0 and 1, joint 2's NODE (later in pre-order) shows it */
    hsd_anim_joint_states(&mm, 1, 0, s);
    CHECK(!s[0].visible);
    CHECK(!s[1].visible);
    CHECK(s[2].visible);
    /* a clip index past the table: rest values */
    hsd_anim_joint_states(&mm, 9, 0, s);
    CHECK_VEC(s[1].rotation, 0.2f, 0.2f, 0.2f);
}

static void test_model_material_texture(void) {
    build_model();
    build_material_texture();
    hsd_material_state ms;
    hsd_anim_material_state(&mm, t_material, 1, &ms);
    CHECK_NEAR(ms.alpha, 0.75); /* ALPHA is transparency: 1 − 0.25 */
    CHECK_VEC(ms.diffuse, 1.0f, 0.25f, 0.0f); /* G animated to 0.25, R and B from 255, 0 */
    CHECK_VEC(ms.ambient, 0.2f, 0.4f, 0.6f);  /* 51, 102, 153 / 255 */
    CHECK_VEC(ms.specular, 0, 0, 1);
    CHECK_EQ_U(ms.animated, (1u << UE_HSD_MT_ALPHA) | (1u << UE_HSD_MT_DIFFUSE_G));
    /* the material target asked as a texture: nothing applies */
    hsd_texture_state ts;
    hsd_anim_texture_state(&mm, t_material, 0, &ts);
    CHECK_EQ_U(ts.animated, 0);
    CHECK_EQ_U((uint32_t)ts.image, (uint32_t)-1);
    /* TIMG 0 → table[0] = image row 1 */
    hsd_anim_texture_state(&mm, t_texture, 0, &ts);
    CHECK_EQ_U(ts.image, 1);
    CHECK_VEC(ts.translation, 0.5f, 0.125f, 0);
    CHECK_VEC(ts.scale, 2, 3, 1);
    CHECK_EQ_U(ts.animated, (1u << UE_HSD_TT_TIMG) | (1u << UE_HSD_TT_TRAV));
    hsd_anim_texture_state(&mm, t_texture, 7, &ts);
    CHECK_EQ_U(ts.image, 0); /* TIMG 2 → a NULL entry: the TObj's image stays */
    hsd_anim_texture_state(&mm, t_texture, 12, &ts);
    CHECK_EQ_U(ts.image, 2); /* TIMG 1 → table[1] = row 2 */
    hsd_anim_texture_state(&mm, t_texture, 15, &ts);
    CHECK_EQ_U(ts.image, 0); /* TIMG 7: past the table */
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
    RUN(test_eval_cursor_matches_fresh_walk);
    RUN(test_encode_decode_identity);
    RUN(test_encode_refuses);
    RUN(test_bad_input);
    RUN(test_model_joint_clip);
    RUN(test_model_material_texture);
    free(keys);
    ue_diag_free(&diag);
    return TEST_SUMMARY();
}
