/* unearth — edited vertex values back into their GX formats (docs/hsd-import.md#quantisation):
 * integer components with their fractional shift, F32, and the six vertex colour formats. */
#include <math.h>
#include <string.h>

#include "hsd/hsd_import_int.h"

uint32_t hsd_component_bytes(uint32_t comp_type) {
    static const uint32_t bytes[5] = {1, 1, 2, 2, 4};
    return comp_type <= HSD_COMP_F32 ? bytes[comp_type] : 0;
}

static void put_be(uint8_t *out, uint32_t v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) out[i] = (uint8_t)(v >> (8 * (n - 1 - i)));
}

bool hsd_quantise_component(double v, uint32_t comp_type, uint32_t frac, uint8_t *out, double *lo, double *hi) {
    static const double min[4] = {0, -128, 0, -32768}, max[4] = {255, 127, 65535, 32767};
    if (comp_type == HSD_COMP_F32) {
        float f = (float)v;
        uint32_t bits;
        memcpy(&bits, &f, sizeof bits);
        *lo = -(double)3.4028234663852886e38, *hi = (double)3.4028234663852886e38;
        if (!isfinite(f)) return false;
        put_be(out, bits, 4);
        return true;
    }
    if (comp_type > HSD_COMP_S16 || frac > 31) return *lo = *hi = 0, false;
    double scale = ldexp(1.0, (int)frac);
    *lo = min[comp_type] / scale, *hi = max[comp_type] / scale;
    double q = round(v * scale); /* C's round: halves away from zero */
    if (!(q >= min[comp_type] && q <= max[comp_type])) return false;
    put_be(out, (uint32_t)(int32_t)q, hsd_component_bytes(comp_type));
    return true;
}

/* round(c · (2^bits − 1)) of a channel already checked to lie in 0..1. */
static uint32_t channel(float c, unsigned bits) { return (uint32_t)lround((double)c * (double)((1u << bits) - 1)); }

bool hsd_encode_vertex_color(const float rgba[4], uint32_t format, uint8_t *out, const char **why) {
    for (int i = 0; i < 4; i++)
        if (!(rgba[i] >= 0.0f && rgba[i] <= 1.0f)) {
            *why = "a channel lies outside 0..1";
            return false;
        }
    bool has_alpha = format == 3 || format == 4 || format == 5;
    if (!has_alpha && channel(rgba[3], 8) != 255) {
        *why = "the format stores no alpha (it is always 1)";
        return false;
    }
    switch (format) {
    case 0: put_be(out, channel(rgba[0], 5) << 11 | channel(rgba[1], 6) << 5 | channel(rgba[2], 5), 2); return true;
    case 3:
        put_be(out, channel(rgba[0], 4) << 12 | channel(rgba[1], 4) << 8 | channel(rgba[2], 4) << 4 | channel(rgba[3], 4), 2);
        return true;
    case 4:
        put_be(out, channel(rgba[0], 6) << 18 | channel(rgba[1], 6) << 12 | channel(rgba[2], 6) << 6 | channel(rgba[3], 6), 3);
        return true;
    case 1: case 2: case 5:
        for (int i = 0; i < 3; i++) out[i] = (uint8_t)channel(rgba[i], 8);
        if (format == 5) out[3] = (uint8_t)channel(rgba[3], 8);
        return true;
    default: *why = "unknown colour format"; return false;
    }
}
