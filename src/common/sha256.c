/* unearth — SHA-256 (FIPS 180-4), used by manifests to tell changed payloads from untouched
 * ones. Written from the standard; small and fast enough for payload hashing. */
#include <string.h>

#include "unearth/common.h"

static const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void compress(uint32_t st[8], const uint8_t *blk) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++) w[i] = ue_load_u32be(blk + 4 * i);
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    st[0] += a; st[1] += b; st[2] += c; st[3] += d; st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

void ue_sha256_init(ue_sha256 *h) {
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(h->state, iv, sizeof iv);
    h->length = 0;
    h->fill = 0;
}

void ue_sha256_update(ue_sha256 *h, const void *data, size_t n) {
    const uint8_t *p = data;
    h->length += n;
    if (h->fill) {
        size_t take = 64 - h->fill < n ? 64 - h->fill : n;
        memcpy(h->block + h->fill, p, take);
        h->fill += take;
        p += take;
        n -= take;
        if (h->fill < 64) return;
        compress(h->state, h->block);
        h->fill = 0;
    }
    for (; n >= 64; n -= 64, p += 64) compress(h->state, p);
    if (n) memcpy(h->block, p, n);
    h->fill = n;
}

void ue_sha256_final(ue_sha256 *h, uint8_t out[32]) {
    uint64_t bits = h->length * 8;
    uint8_t pad = 0x80;
    ue_sha256_update(h, &pad, 1);
    pad = 0;
    while (h->fill != 56) ue_sha256_update(h, &pad, 1);
    uint8_t len[8];
    for (int i = 0; i < 8; i++) len[i] = (uint8_t)(bits >> (56 - 8 * i));
    ue_sha256_update(h, len, 8);
    for (int i = 0; i < 8; i++) ue_store_u32be(out + 4 * i, h->state[i]);
}

void ue_sha256_hex(const void *data, size_t n, char out[65]) {
    ue_sha256 h;
    uint8_t dig[32];
    ue_sha256_init(&h);
    ue_sha256_update(&h, data, n);
    ue_sha256_final(&h, dig);
    ue_hex_encode(dig, 32, out);
}
