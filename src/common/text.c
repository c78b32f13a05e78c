/* unearth — text conversions: Parkan stores names in Windows-1251 (Cyrillic), everything unearth
 * prints or writes is UTF-8. Never splits a multi-byte sequence when the output is full. */
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/common.h"
#include "common/text.h"

/* Code points of bytes 0x80–0xBF; 0xC0–0xFF are U+0410–U+044F in order. 0x98 is unassigned. */
static const uint16_t cp1251_high[64] = {
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409,
    0x2039, 0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0,
    0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB,
    0x00AC, 0x00AD, 0x00AE, 0x0407, 0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6,
    0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457};

static unsigned cp1251_code_point(unsigned char byte) {
    if (byte < 0x80) return byte;
    return byte >= 0xC0 ? 0x0410u + (byte - 0xC0u) : cp1251_high[byte - 0x80];
}

/* The CP1251 byte of a code point, or -1 when the code page lacks it. U+FFFD stands for the
 * unassigned 0x98 when decoding, so it has no byte to go back to. */
static int cp1251_byte(uint32_t cp) {
    if (cp < 0x80) return (int)cp;
    if (cp >= 0x0410 && cp <= 0x044F) return (int)(0xC0 + (cp - 0x0410));
    if (cp == 0xFFFD) return -1;
    for (int i = 0; i < 64; i++)
        if (cp1251_high[i] == cp) return 0x80 + i;
    return -1;
}

size_t ue_utf8_encode(uint32_t cp, char seq[4]) {
    if (cp < 0x80) {
        seq[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        seq[0] = (char)(0xC0 | (cp >> 6));
        seq[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        seq[0] = (char)(0xE0 | (cp >> 12));
        seq[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        seq[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    seq[0] = (char)(0xF0 | (cp >> 18));
    seq[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    seq[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    seq[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Appends len bytes if they fit with room for the NUL; false (and nothing written) if not. */
static bool put_whole(char *out, size_t out_size, size_t *o, const char *seq, size_t len) {
    if (*o + len >= out_size) return false;
    memcpy(out + *o, seq, len);
    *o += len;
    return true;
}

size_t ue_cp1251_to_utf8(const char *in, char *out, size_t out_size) {
    size_t o = 0;
    if (out_size == 0) return 0;
    for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
        char seq[4];
        size_t len = ue_utf8_encode(cp1251_code_point(*p), seq);
        if (!put_whole(out, out_size, &o, seq, len)) break;
    }
    out[o] = 0;
    return o;
}

size_t ue_utf8_decode(const char *s, size_t n, uint32_t *cp) {
    const unsigned char *p = (const unsigned char *)s;
    if (n == 0) return 0;
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    /* Lead byte → length and the smallest code point that length may carry (no overlongs). */
    size_t len;
    uint32_t v, min;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) len = 2, v = p[0] & 0x1Fu, min = 0x80;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF) len = 3, v = p[0] & 0x0Fu, min = 0x800;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4) len = 4, v = p[0] & 0x07u, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3Fu);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

ue_result ue_utf8_to_cp1251(const char *in, char *out, size_t out_size, size_t *out_len,
                            uint32_t *bad_char, size_t *bad_offset) {
    size_t n = strlen(in), o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = ue_utf8_decode(in + i, n - i, &cp);
        int byte = len ? cp1251_byte(cp) : -1;
        if (byte < 0) {
            if (bad_char) *bad_char = len ? cp : UINT32_MAX;
            if (bad_offset) *bad_offset = i;
            return UE_ERR_INVALID;
        }
        if (o + 1 >= out_size) return UE_ERR_USAGE;
        out[o++] = (char)byte;
        i += len;
    }
    if (out_size == 0) return UE_ERR_USAGE;
    out[o] = 0;
    if (out_len) *out_len = o;
    return UE_OK;
}

size_t ue_utf8_copy(const char *in, char *out, size_t out_size) {
    size_t n = strlen(in), o = 0;
    if (out_size == 0) return 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        size_t len = ue_utf8_decode(in + i, n - i, &cp);
        if (len == 0) len = 1; /* not UTF-8: copy the byte, the caller's text was already so */
        if (!put_whole(out, out_size, &o, in + i, len)) break;
        i += len;
    }
    out[o] = 0;
    return o;
}

/* Control bytes (C0, DEL, the two bytes of a C1 control) and bytes that are no UTF-8 become
 * \xNN: text of hostile origin (a key of a damaged file or manifest, a file name from the
 * command line) then stays on its one line of a message and moves no terminal. */
size_t ue_text_printable(const char *in, char *out, size_t out_size) {
    size_t o = 0, len = strlen(in);
    if (out_size == 0) return 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)in[i];
        uint32_t cp;
        size_t n = c < 0x80 ? 1 : ue_utf8_decode(in + i, len - i, &cp);
        /* C1 controls (U+0080..U+009F) too: some terminals act on them as on ESC sequences. */
        bool plain = n > 0 && c >= 0x20 && c != 0x7F && !(n == 2 && cp <= 0x9F);
        char seq[5];
        if (!plain) snprintf(seq, sizeof seq, "\\x%02X", c);
        if (!put_whole(out, out_size, &o, plain ? in + i : seq, plain ? n : 4)) break;
        i += plain ? n : 1;
    }
    out[o] = 0;
    return o;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

size_t ue_entry_name_to_utf8(const char *shown, char *out, size_t out_size) {
    size_t o = 0;
    if (out_size == 0) return 0;
    for (const char *p = shown; *p;) {
        char seq[4];
        size_t len, used;
        int hi = p[0] == '\\' && p[1] == 'x' ? hex_digit(p[2]) : -1;
        int lo = hi >= 0 ? hex_digit(p[3]) : -1;
        if (lo >= 0 && hi >= 8) {
            /* An escaped byte of the upper half is a CP1251 letter or sign. */
            len = ue_utf8_encode(cp1251_code_point((unsigned char)(hi * 16 + lo)), seq);
            used = 4;
        } else {
            /* Control-byte escapes and "\\" stay escaped: they are not text. */
            bool escape = p[0] == '\\' && (p[1] == '\\' || lo >= 0);
            used = escape ? (p[1] == '\\' ? 2 : 4) : 1;
            memcpy(seq, p, used);
            len = used;
        }
        if (!put_whole(out, out_size, &o, seq, len)) break;
        p += used;
    }
    out[o] = 0;
    return o;
}

/* Characters that may not appear in one file-name component on the systems people unpack
 * game assets on: the separators, controls (C0, DEL, C1) and what Windows forbids. */
static bool bad_in_file_name(uint32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp < 0x80 && strchr("/\\<>:\"|?*", (int)cp));
}

/* Copies `name` a character at a time as `map` writes each into seq (len 0: a byte that is not
 * UTF-8), cutting between characters; returns the output length. */
static size_t map_chars(const char *name, char *out, size_t out_size,
                        size_t (*map)(const char *at, size_t len, uint32_t cp, char seq[4])) {
    size_t n = strlen(name), o = 0;
    for (size_t i = 0; i < n;) {
        uint32_t cp = 0;
        size_t len = ue_utf8_decode(name + i, n - i, &cp);
        char seq[4];
        if (!put_whole(out, out_size, &o, seq, map(name + i, len, cp, seq))) break;
        i += len ? len : 1;
    }
    out[o] = 0;
    return o;
}

static size_t file_name_char(const char *at, size_t len, uint32_t cp, char seq[4]) {
    if (len == 0 || bad_in_file_name(cp)) {
        seq[0] = '_';
        return 1;
    }
    memcpy(seq, at, len);
    return len;
}

size_t ue_file_name_component(const char *name, char *out, size_t out_size) {
    if (out_size == 0) return 0;
    size_t o = map_chars(name, out, out_size, file_name_char);
    /* "", "." and ".." would name the directory itself or its parent. */
    if (strspn(out, ".") == o) o = 0, out[0] = 0;
    return o;
}

/* The small letter of capital `cp` in the scripts ue_file_name_fold covers, else `cp`. Pairs
 * are laid out by ranges: +0x20 or +0x50 apart, or capital and small letter side by side. */
static uint32_t small_letter(uint32_t cp) {
    if (cp >= 'A' && cp <= 'Z') return cp + 0x20;
    if (cp < 0xC0) return cp;
    if (cp <= 0xDE) return cp == 0xD7 ? cp : cp + 0x20; /* Latin-1; U+00D7 is the sign × */
    if (cp == 0x178) return 0xFF;                       /* Ÿ → ÿ */
    bool even_capital = (cp >= 0x100 && cp <= 0x12F) || (cp >= 0x132 && cp <= 0x137) ||
                        (cp >= 0x14A && cp <= 0x177) || (cp >= 0x460 && cp <= 0x481) ||
                        (cp >= 0x48A && cp <= 0x4BF) || (cp >= 0x4D0 && cp <= 0x4FF);
    bool odd_capital = (cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E) ||
                       (cp >= 0x4C1 && cp <= 0x4CE);
    if (even_capital) return cp | 1;
    if (odd_capital) return cp & 1 ? cp + 1 : cp;
    if (cp == 0x386) return 0x3AC; /* Greek capitals with tonos */
    if (cp >= 0x388 && cp <= 0x38A) return cp + 0x25;
    if (cp == 0x38C) return 0x3CC;
    if (cp == 0x38E || cp == 0x38F) return cp + 0x3F;
    if ((cp >= 0x391 && cp <= 0x3A1) || (cp >= 0x3A3 && cp <= 0x3AB)) return cp + 0x20;
    if (cp >= 0x400 && cp <= 0x40F) return cp + 0x50; /* Ѐ..Џ (Ё, Ђ, Ў ...) */
    if (cp >= 0x410 && cp <= 0x42F) return cp + 0x20; /* А..Я */
    if (cp == 0x4C0) return 0x4CF;
    return cp;
}

static size_t folded_char(const char *at, size_t len, uint32_t cp, char seq[4]) {
    if (len == 0) { /* a byte that is not UTF-8 meets only itself */
        seq[0] = at[0];
        return 1;
    }
    return ue_utf8_encode(small_letter(cp), seq);
}

size_t ue_file_name_fold(const char *name, char *out, size_t out_size) {
    return out_size ? map_chars(name, out, out_size, folded_char) : 0;
}

/* Numbers in files and on the command line always use '.', whatever LC_NUMERIC the program
 * (or its host application) has set: strtod reads them in the "C" locale, switched for this
 * thread only, so other threads and the caller's locale are untouched. The "C" locale object
 * is built in (glibc hands out a static one), so this costs no allocation per number. */
double ue_parse_double(const char *s, char **end) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c == (locale_t)0) return strtod(s, end); /* no locale object: the best we can do */
    locale_t previous = uselocale(c);
    double v = strtod(s, end);
    uselocale(previous);
    freelocale(c);
    return v;
}

float ue_parse_float(const char *s, char **end) {
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (c == (locale_t)0) return strtof(s, end);
    locale_t previous = uselocale(c);
    float v = strtof(s, end);
    uselocale(previous);
    freelocale(c);
    return v;
}

bool ue_name_has_ext(const char *name, const char *ext) {
    size_t n = name ? strlen(name) : 0, k = strlen(ext);
    if (n < k) return false;
    for (size_t i = 0; i < k; i++) {
        unsigned char a = (unsigned char)name[n - k + i], b = (unsigned char)ext[i];
        if (a >= 'A' && a <= 'Z') a = (unsigned char)(a + 32);
        if (b >= 'A' && b <= 'Z') b = (unsigned char)(b + 32);
        if (a != b) return false;
    }
    return true;
}

static unsigned char fold_ascii(unsigned char c, bool fold) {
    return fold && c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

size_t ue_edit_distance(const char *a, const char *b, bool fold_case, size_t limit) {
    size_t n = strlen(a), m = strlen(b);
    size_t over = limit == SIZE_MAX ? SIZE_MAX : limit + 1;
    if (n > UE_EDIT_MAX_WORD || m > UE_EDIT_MAX_WORD) return over;
    if ((n > m ? n - m : m - n) > limit) return over; /* the length difference alone is too much */
    size_t before[UE_EDIT_MAX_WORD + 1] = {0}, prev[UE_EDIT_MAX_WORD + 1], cur[UE_EDIT_MAX_WORD + 1];
    for (size_t j = 0; j <= m; j++) prev[j] = j;
    for (size_t i = 1; i <= n; i++) {
        unsigned char ai = fold_ascii((unsigned char)a[i - 1], fold_case);
        size_t row_min = cur[0] = i;
        for (size_t j = 1; j <= m; j++) {
            unsigned char bj = fold_ascii((unsigned char)b[j - 1], fold_case);
            size_t best = prev[j - 1] + (ai != bj);
            if (prev[j] + 1 < best) best = prev[j] + 1;
            if (cur[j - 1] + 1 < best) best = cur[j - 1] + 1;
            bool swapped = i > 1 && j > 1 && ai == fold_ascii((unsigned char)b[j - 2], fold_case) &&
                           fold_ascii((unsigned char)a[i - 2], fold_case) == bj;
            if (swapped && before[j - 2] + 1 < best) best = before[j - 2] + 1;
            cur[j] = best;
            if (best < row_min) row_min = best;
        }
        if (row_min > limit) return over; /* every later row is at least this far */
        memcpy(before, prev, (m + 1) * sizeof prev[0]);
        memcpy(prev, cur, (m + 1) * sizeof cur[0]);
    }
    return prev[m] > limit ? over : prev[m];
}

static size_t put_text(char *out, size_t cap, size_t at, const char *s) {
    for (; *s; s++, at++)
        if (at + 1 < cap) out[at] = *s;
    return at;
}

static size_t put_decimal(char *out, size_t cap, size_t at, uint64_t v) {
    char t[24], *p = t + sizeof t;
    *--p = 0;
    do *--p = (char)('0' + v % 10); while ((v /= 10) != 0);
    return put_text(out, cap, at, p);
}

void ue_text_indexed(char *out, size_t cap, const char *a, uint64_t i, const char *b, uint64_t j, const char *c) {
    size_t at = put_decimal(out, cap, put_text(out, cap, 0, a), i);
    at = put_text(out, cap, at, b);
    if (c) at = put_text(out, cap, put_decimal(out, cap, at, j), c);
    if (cap) out[at < cap ? at : cap - 1] = 0;
}
