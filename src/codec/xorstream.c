/* unearth — the RsLi XOR keystream: a 16-bit shift/xor generator (lo/hi byte halves) that
 * obfuscates the RsLi entry table and the payloads of the XOR packing methods. */
#include "unearth/codec.h"

void ue_xor_init(ue_xor_state *s, uint16_t key) {
    s->lo = (uint8_t)(key & 0xFFu);
    s->hi = (uint8_t)(key >> 8);
}

void ue_xor_apply(ue_xor_state *s, uint8_t *data, size_t n) {
    /* Locals let the compiler keep the state in registers across the loop. */
    unsigned lo = s->lo, hi = s->hi;
    for (size_t i = 0; i < n; i++) {
        lo = (hi ^ (lo << 1)) & 0xFFu;
        data[i] = (uint8_t)(data[i] ^ lo);
        hi = (lo ^ (hi >> 1)) & 0xFFu;
    }
    s->lo = (uint8_t)lo;
    s->hi = (uint8_t)hi;
}

void ue_xor_buffer(uint16_t key, uint8_t *data, size_t n) {
    ue_xor_state s;
    ue_xor_init(&s, key);
    ue_xor_apply(&s, data, n);
}
