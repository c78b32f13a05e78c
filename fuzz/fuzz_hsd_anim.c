/* libFuzzer target: HSD key streams (docs/formats/hsd-animation.md#key-streams) — decoding in both modes, evaluation
 * at edge frames and encode → decode of what decoded. Input: value format, slope format, start. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/hsd_anim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What every accepted stream must satisfy, whatever the bytes. */
static void check_keys(const ue_hsd_key *k, size_t n, size_t length) {
    if (n > length) abort(); /* at least one byte per entry */
    double last = 0;
    for (size_t i = 0; i < n; i++) {
        if (k[i].op < UE_HSD_KEY_CON || k[i].op > UE_HSD_KEY_KEY) abort();
        if (!isfinite(k[i].value) || !isfinite(k[i].slope)) abort();
        if (k[i].time < last || k[i].time > (float)UE_HSD_MAX_FRAMES) abort();
        if (k[i].wait > UE_HSD_MAX_FRAMES) abort();
        if (k[i].op == UE_HSD_KEY_SLP && k[i].wait != 0) abort();
        last = k[i].time;
    }
}

/* The last key's value: what every frame past the last key must give. */
static bool last_key_value(const ue_hsd_key *k, size_t n, float *v) {
    for (size_t i = n; i-- > 0;)
        if (k[i].op != UE_HSD_KEY_SLP) return *v = k[i].value, true;
    return false;
}

static void evaluate(const ue_hsd_key *k, size_t n, float start, bool integer_values) {
    static const float frames[] = {-1e30f, -129.0f, -1.0f, 0.0f, 0.5f, 1.0f, 2.75f, 17.25f,
                                   255.0f, 1e4f, 1e6f, 3e6f, 1e30f, INFINITY, -INFINITY, NAN};
    float tail;
    bool has_key = last_key_value(k, n, &tail);
    for (size_t f = 0; f < sizeof frames / sizeof frames[0]; f++) {
        float v = 0;
        bool ok = ue_hsd_keys_eval(k, n, start, frames[f], &v);
        double local = (double)frames[f] + (double)start;
        if (ok && (!has_key || !(local >= 0))) abort(); /* nothing before the first key */
        if (!ok && has_key && local >= 0) abort();
        /* integer formats bound values and slopes, so hermite stays finite */
        if (ok && integer_values && !isfinite(v)) abort();
        if (ok && local >= (double)UE_HSD_MAX_FRAMES + 1 && v != tail) abort(); /* hold */
    }
}

/* Encoding what decoded must succeed and decode to the same entries. */
static void round_trip(const ue_hsd_key *k, size_t n, uint8_t vf, uint8_t sf) {
    ue_buf out = {0};
    if (ue_hsd_keys_encode(k, n, vf, sf, &out) != UE_OK) abort();
    ue_hsd_key *back = NULL;
    size_t m = 0;
    if (ue_hsd_keys_decode(out.data, out.size, vf, sf, UE_MODE_STRICT, &back, &m, NULL, "fuzz",
                           0) != UE_OK ||
        m != n)
        abort();
    for (size_t i = 0; i < n; i++)
        if (back[i].op != k[i].op || back[i].time != k[i].time || back[i].wait != k[i].wait ||
            back[i].value != k[i].value || back[i].slope != k[i].slope)
            abort();
    free(back);
    ue_buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 3) return 0;
    uint8_t vf = data[0], sf = data[1];
    float start = (float)(int8_t)data[2];
    const uint8_t *stream = data + 3;
    size_t length = size - 3;
    size_t counts[2] = {0, 0};
    for (int mode = 0; mode < 2; mode++) {
        ue_hsd_key *k = NULL;
        size_t n = 0;
        ue_diag d = {0};
        d.max_items = 20;
        ue_result r = ue_hsd_keys_decode(stream, length, vf, sf, (ue_mode)mode, &k, &n, &d,
                                         "fuzz", 0x20);
        if (r != UE_OK && ue_diag_count(&d, UE_SEV_ERROR) == 0) abort(); /* a refusal says why */
        if (r == UE_OK) {
            check_keys(k, n, length);
            counts[mode] = n;
            bool integer_values = UE_HSD_FMT_TYPE(vf) != UE_HSD_FMT_FLOAT &&
                                  UE_HSD_FMT_TYPE(sf) != UE_HSD_FMT_FLOAT;
            evaluate(k, n, start, integer_values);
            round_trip(k, n, vf, sf);
            if (mode == 1 && r == UE_OK && d.count == 0 && counts[0] != n) abort();
        }
        free(k);
        ue_diag_free(&d);
    }
    return 0;
}
