/* unearth — text conversions: Parkan stores names in Windows-1251 (Cyrillic), glTF wants
 * UTF-8. Never splits a multi-byte sequence when the output is full. */
#include <string.h>

#include "unearth/common.h"

/* Code points of bytes 0x80–0xBF; 0xC0–0xFF are U+0410–U+044F in order. 0x98 is unassigned. */
static const uint16_t cp1251_high[64] = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409,
    0x2039, 0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0,
    0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB,
    0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6,
    0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457};

size_t ue_cp1251_to_utf8(const char *in, char *out, size_t out_size) {
    size_t o = 0;
    if (out_size == 0) return 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        unsigned cp = *p < 0x80 ? *p : (*p >= 0xC0 ? 0x0410u + (*p - 0xC0u) : cp1251_high[*p - 0x80]);
        char seq[3];
        size_t len;
        if (cp < 0x80) {
            seq[0] = (char)cp;
            len = 1;
        } else if (cp < 0x800) {
            seq[0] = (char)(0xC0 | (cp >> 6));
            seq[1] = (char)(0x80 | (cp & 0x3F));
            len = 2;
        } else {
            seq[0] = (char)(0xE0 | (cp >> 12));
            seq[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
            seq[2] = (char)(0x80 | (cp & 0x3F));
            len = 3;
        }
        if (o + len >= out_size) break;
        memcpy(out + o, seq, len);
        o += len;
    }
    out[o] = 0;
    return o;
}
