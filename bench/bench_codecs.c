/* Benchmark: LZSS (Parkan parameters), LZHUF and raw Deflate on one core over a generated mixed
 * corpus (~64 MiB by default); prints encode MB/s of input, ratio, and decode MB/s of output. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "unearth/codec.h"
#include "unearth/lzss.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state = 0x243F6A8885A308D3ull;
static uint64_t rng(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* Chunks of the kinds game libraries hold: text/config, sprite-like runs, 16-bit texels with
 * gradients, small structured records, and incompressible noise. */
static void fill_chunk(uint8_t *p, size_t n) {
    static const char *words[] = {"sprite", "font", "glyph", "turret", "robot", "camera",
                                  "center", "mission", "0", "1", "=", ";", "\r\n", " ", "texture"};
    unsigned kind = (unsigned)(rng() % 5);
    size_t i = 0;
    switch (kind) {
    case 0:
        while (i < n) {
            const char *w = words[rng() % (sizeof words / sizeof words[0])];
            for (size_t k = 0; w[k] && i < n; k++) p[i++] = (uint8_t)w[k];
        }
        break;
    case 1:
        while (i < n) {
            uint8_t v = (uint8_t)rng();
            size_t run = 1 + rng() % 40;
            for (size_t k = 0; k < run && i < n; k++) p[i++] = v;
        }
        break;
    case 2:
        for (; i + 1 < n; i += 2) {
            unsigned x = (unsigned)((i / 2) % 64), y = (unsigned)(i / 128);
            unsigned c = ((x * 31 / 63) << 11) | (((y * 7) & 63) << 5) | ((x ^ y) & 31);
            if (rng() % 16 == 0) c ^= (unsigned)(rng() & 0x0421);
            p[i] = (uint8_t)c;
            p[i + 1] = (uint8_t)(c >> 8);
        }
        if (i < n) p[i] = 0;
        break;
    case 3:
        for (; i < n; i++) {
            size_t f = i % 24;
            p[i] = f < 4 ? (uint8_t)(i / 24) : f < 12 ? (uint8_t)(rng() % 4) : 0;
        }
        break;
    default:
        for (; i < n; i++) p[i] = (uint8_t)rng();
        break;
    }
}

typedef struct chunk {
    size_t off, size;
    size_t enc_off, enc_size;
} chunk;

typedef ue_result (*encode_fn)(const uint8_t *in, size_t n, ue_buf *out);
typedef ue_result (*decode_fn)(const uint8_t *in, size_t n, uint8_t *out, size_t out_size);

static ue_result lzss_enc(const uint8_t *in, size_t n, ue_buf *out) {
    return ue_lzss_encode(&UE_LZSS_PARKAN, UE_LZSS_LEVEL_DEFAULT, in, n, out);
}
static ue_result lzss_dec(const uint8_t *in, size_t n, uint8_t *out, size_t out_size) {
    return ue_lzss_decode(&UE_LZSS_PARKAN, in, n, out, out_size, NULL, NULL, 0, NULL);
}
static ue_result lzhuf_enc(const uint8_t *in, size_t n, ue_buf *out) {
    return ue_lzhuf_encode(UE_LZHUF_LEVEL_DEFAULT, in, n, out);
}
static ue_result lzhuf_dec(const uint8_t *in, size_t n, uint8_t *out, size_t out_size) {
    return ue_lzhuf_decode(in, n, out, out_size, NULL, NULL, 0, NULL);
}
static ue_result deflate_enc(const uint8_t *in, size_t n, ue_buf *out) {
    return ue_deflate_raw_encode(6, in, n, out);
}
static ue_result deflate_dec(const uint8_t *in, size_t n, uint8_t *out, size_t out_size) {
    return ue_deflate_raw_decode(in, n, out, out_size, NULL, NULL, 0, NULL);
}

static int run(const char *name, encode_fn enc, decode_fn dec, const uint8_t *corpus,
               size_t total, chunk *chunks, size_t nchunks, uint8_t *scratch) {
    ue_buf packed = {0};
    double t0 = now();
    for (size_t c = 0; c < nchunks; c++) {
        chunks[c].enc_off = packed.size;
        if (enc(corpus + chunks[c].off, chunks[c].size, &packed) != UE_OK) {
            fprintf(stderr, "%s: encode failed\n", name);
            return 1;
        }
        chunks[c].enc_size = packed.size - chunks[c].enc_off;
    }
    double t1 = now();
    for (size_t c = 0; c < nchunks; c++) {
        if (dec(packed.data + chunks[c].enc_off, chunks[c].enc_size, scratch + chunks[c].off,
                chunks[c].size) != UE_OK) {
            fprintf(stderr, "%s: decode failed\n", name);
            return 1;
        }
    }
    double t2 = now();
    if (memcmp(scratch, corpus, total) != 0) {
        fprintf(stderr, "%s: round trip differs\n", name);
        return 1;
    }
    double mb = (double)total / 1e6;
    printf("%-8s encode %8.1f MB/s  ratio %6.3f  (%zu -> %zu bytes)   decode %8.1f MB/s\n", name,
           mb / (t1 - t0), (double)packed.size / (double)total, total, packed.size,
           mb / (t2 - t1));
    ue_buf_free(&packed);
    return 0;
}

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 64;
    if (mib == 0) mib = 64;
    size_t total = mib << 20;
    uint8_t *corpus = malloc(total), *scratch = malloc(total);
    size_t max_chunks = total / 4096 + 1;
    chunk *chunks = malloc(max_chunks * sizeof *chunks);
    if (!corpus || !scratch || !chunks) {
        fprintf(stderr, "out of memory\n");
        return 3;
    }
    /* Entry-sized chunks from 4 KiB to 1 MiB, as in real libraries. */
    size_t nchunks = 0, off = 0;
    while (off < total && nchunks < max_chunks) {
        size_t n = (size_t)4096 << (rng() % 9);
        if (n > total - off) n = total - off;
        fill_chunk(corpus + off, n);
        chunks[nchunks++] = (chunk){off, n, 0, 0};
        off += n;
    }
    printf("corpus: %zu MiB in %zu chunks (mixed text, runs, texels, records, noise), 1 core\n",
           mib, nchunks);
    int rc = 0;
    rc |= run("lzss", lzss_enc, lzss_dec, corpus, off, chunks, nchunks, scratch);
    rc |= run("lzhuf", lzhuf_enc, lzhuf_dec, corpus, off, chunks, nchunks, scratch);
    rc |= run("deflate", deflate_enc, deflate_dec, corpus, off, chunks, nchunks, scratch);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak RSS %.1f MiB\n", (double)ru.ru_maxrss / 1024.0);
    free(corpus);
    free(scratch);
    free(chunks);
    return rc ? 3 : 0;
}
