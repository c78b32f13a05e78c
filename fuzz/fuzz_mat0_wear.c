/* libFuzzer target: the Parkan material readers. The first byte picks the reader (bit 7: WEAR,
 * else MAT0 with payload version = byte & 7); the rest is the entry's payload. */
#include <stdlib.h>
#include <string.h>

#include "unearth/parkan_material.h"
#include "parkan/mat0_phases.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The phase clock's STEP keys (mat0_phases.c) of every block: strictly increasing ticks that
 * end at the clip's span, each naming an existing key. */
static void steps(const ue_mat0 *m) {
    for (size_t i = 0; i < m->anim_count; i++) {
        ue_mat0_step *st;
        size_t n;
        uint32_t span;
        bool loop;
        if (ue_mat0_steps(&m->anims[i], &st, &n, &span, &loop) != UE_OK) continue;
        if (!n || st[n - 1].tick != span) abort();
        for (size_t k = 0; k < n; k++)
            if (st[k].key >= m->anims[i].key_count || (k && st[k].tick <= st[k - 1].tick)) abort();
        free(st);
    }
}

/* Strictly valid entries write back byte for byte (WEAR: when in the canonical layout);
 * whatever tolerant reading keeps can be written. */
static void mat0(const uint8_t *p, size_t n, uint32_t version) {
    for (int mode = 0; mode < 2; mode++) {
        ue_mat0 m;
        ue_diag d = {0};
        ue_result r = ue_mat0_parse(p, n, version, 0, (ue_mode)mode, &m, &d);
        if (r != UE_OK && !ue_diag_count(&d, UE_SEV_ERROR)) abort(); /* a refusal says why */
        if (r == UE_OK) {
            ue_buf out = {0};
            ue_result w = ue_mat0_write(&m, &out, NULL);
            if (w != UE_OK) abort();
            if (mode == UE_MODE_STRICT && (out.size != n || memcmp(out.data, p, n) != 0)) abort();
            steps(&m);
            ue_buf_free(&out);
            ue_mat0_free(&m);
        }
        ue_diag_free(&d);
    }
}

static void wear(const uint8_t *p, size_t n) {
    for (int mode = 0; mode < 2; mode++) {
        ue_wear w;
        ue_diag d = {0};
        ue_result r = ue_wear_parse(p, n, 0, (ue_mode)mode, &w, &d);
        if (r != UE_OK && r != UE_ERR_NOMEM && !ue_diag_count(&d, UE_SEV_ERROR)) abort();
        if (r == UE_OK) {
            ue_buf out = {0};
            bool same = ue_wear_write(&w, &out, NULL) == UE_OK && out.size == n && (n == 0 || memcmp(out.data, p, n) == 0);
            if (mode == UE_MODE_STRICT && same != w.canonical) abort(); /* canonical: written back as read */
            ue_buf_free(&out);
            ue_wear_free(&w);
        }
        ue_diag_free(&d);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    if (data[0] & 0x80) wear(data + 1, size - 1);
    else mat0(data + 1, size - 1, data[0] & 7u);
    return 0;
}
