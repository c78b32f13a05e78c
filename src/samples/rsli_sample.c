/* unearth — the RsLi sample: one entry per packing method (stored, XOR, LZSS, XOR+LZSS, LZHUF,
 * XOR+LZHUF, Deflate) built by our own writer, with readable, compressible contents. */
#include <stdio.h>
#include <string.h>

#include "unearth/rsli.h"
#include "samples/samples.h"

/* Text with repeats (so every compressor has matches) and a per-entry tag (so a mixed-up key
 * or entry order shows in the decoded bytes). */
static size_t sample_text(char *out, size_t cap, const char *tag, unsigned lines) {
    size_t n = 0;
    for (unsigned i = 0; i < lines && n < cap; i++) {
        int w = snprintf(out + n, cap - n, "%s line %02u: the quick brown fox jumps over the "
                         "lazy dog; RsLi sample payload.\n", tag, i);
        if (w < 0) break;
        n += (size_t)w < cap - n ? (size_t)w : cap - n - 1;
    }
    return n;
}

ue_result ue_sample_rsli(ue_buf *out) {
    static const struct {
        const char *name;
        uint16_t method;
        unsigned lines;
    } items[] = {
        {"STORED.TXT", UE_RSLI_STORED, 3},     {"XOR.TXT", UE_RSLI_XOR, 4},
        {"LZSS.TXT", UE_RSLI_LZSS, 12},        {"XORLZSS.TXT", UE_RSLI_XOR_LZSS, 10},
        {"LZHUF.TXT", UE_RSLI_LZHUF, 14},      {"XORLZHUF.TXT", UE_RSLI_XOR_LZHUF, 9},
        {"DEFLATE.TXT", UE_RSLI_DEFLATE, 16},
    };
    ue_rsli l;
    ue_rsli_init(&l);
    /* A non-zero table seed so the sample exercises the table keystream. */
    l.header[0x14] = 0x34;
    l.header[0x15] = 0x12;
    ue_result r = UE_OK;
    char text[4096];
    for (size_t i = 0; i < sizeof items / sizeof items[0] && r == UE_OK; i++) {
        size_t n = sample_text(text, sizeof text, items[i].name, items[i].lines);
        r = ue_rsli_add(&l, items[i].name, items[i].method, text, n, NULL);
    }
    if (r == UE_OK) r = ue_rsli_write(&l, out, NULL);
    ue_rsli_free(&l);
    return r;
}
