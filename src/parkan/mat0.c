/* unearth — Parkan MAT0 materials (docs/formats/materials.md#mat0): the payload read with every count checked
 * against the bytes that are there, and written back byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/parkan_material.h"
#include "common/bytes.h"
#include "common/parse.h"

#define PHASE_SIZE (UE_MAT0_PARAM_BYTES + UE_MAT0_NAME_BYTES) /* 34 */
#define KEY_SIZE 6
#define ANIM_HEADER_SIZE 6
#define MAX_VERSION 6

/* Header size by version: counts, then metaA/metaB (v2+), metaC (v3+), metaD (v4+). */
static size_t header_size(uint32_t version) {
    return 4 + (version >= 2 ? 2u : 0u) + (version >= 3 ? 4u : 0u) + (version >= 4 ? 4u : 0u);
}

static void read_header(const uint8_t *p, ue_mat0 *m) {
    m->phase_count = ue_load_u16le(p);
    m->anim_count = ue_load_u16le(p + 2);
    m->meta_a = m->meta_b = 255;
    m->meta_c = 0x3F800000u;
    m->meta_d = 0;
    size_t o = 4;
    if (m->version >= 2) m->meta_a = p[o], m->meta_b = p[o + 1], o += 2;
    if (m->version >= 3) m->meta_c = ue_load_u32le(p + o), o += 4;
    if (m->version >= 4) m->meta_d = ue_load_u32le(p + o);
}

/* Phases that fit in the bytes left; fewer than claimed is a violation. */
static size_t read_phases(ue_parse_ctx *c, const uint8_t *data, size_t size, size_t *pos, uint64_t base,
                          ue_mat0 *m) {
    size_t fit = (size - *pos) / PHASE_SIZE;
    size_t n = m->phase_count;
    if (n > fit) {
        ue_violation(c, "mat0.phase.past_end", base + *pos + fit * PHASE_SIZE, "mat0/phases",
                     "%u phases of 34 bytes claimed, %zu fit in the %zu bytes left", m->phase_count, fit,
                     size - *pos);
        n = fit;
    }
    if (n) {
        m->phases = calloc(n, sizeof *m->phases);
        if (!m->phases) return SIZE_MAX;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(m->phases[i].params, data + *pos, UE_MAT0_PARAM_BYTES);
        memcpy(m->phases[i].texture, data + *pos + UE_MAT0_PARAM_BYTES, UE_MAT0_NAME_BYTES);
        *pos += PHASE_SIZE;
    }
    return n;
}

/* Keys must name an existing phase (the engine indexes its phase array with k0) and must not
 * go back in time (the cycle is the last key's time; the engine's segment search assumes
 * order). `at` is the offset of the first key. */
static void check_keys(ue_parse_ctx *c, const ue_mat0_anim *a, uint16_t phases, uint64_t at, const char *path) {
    for (size_t k = 0; k < a->key_count; k++) {
        uint64_t off = at + k * KEY_SIZE;
        if (a->keys[k].k0 >= phases)
            ue_violation(c, "mat0.anim.phase", off, path, "key %zu names phase %u of %u", k, a->keys[k].k0, phases);
        if (k && a->keys[k].k1 < a->keys[k - 1].k1)
            ue_violation(c, "mat0.anim.key_order", off + 2, path, "key %zu at time %u comes before key %zu at %u", k,
                         a->keys[k].k1, k - 1, a->keys[k - 1].k1);
    }
}

/* One animation block; false when it does not fit (reported). */
static bool read_anim(ue_parse_ctx *c, const uint8_t *data, size_t size, size_t *pos, uint64_t base, size_t i,
                      uint16_t phases, ue_mat0_anim *a) {
    char path[32];
    snprintf(path, sizeof path, "mat0/anim[%zu]", i);
    if (size - *pos < ANIM_HEADER_SIZE) {
        ue_violation(c, "mat0.anim.past_end", base + *pos, path, "animation block header needs 6 bytes, %zu left",
                     size - *pos);
        return false;
    }
    a->header = ue_load_u32le(data + *pos);
    a->key_count = ue_load_u16le(data + *pos + 4);
    *pos += ANIM_HEADER_SIZE;
    if ((size - *pos) / KEY_SIZE < a->key_count) {
        ue_violation(c, "mat0.anim.keys_past_end", base + *pos, path, "%u keys of 6 bytes claimed, %zu bytes left",
                     a->key_count, size - *pos);
        return false;
    }
    if (a->key_count == 0)
        ue_violation(c, "mat0.anim.no_keys", base + *pos - 2, path, "an animation block without keys has no cycle");
    if (a->key_count) {
        a->keys = calloc(a->key_count, sizeof *a->keys);
        if (!a->keys) return false;
    }
    uint64_t first_key = base + *pos;
    for (size_t k = 0; k < a->key_count; k++, *pos += KEY_SIZE) {
        a->keys[k].k0 = ue_load_u16le(data + *pos);
        a->keys[k].k1 = ue_load_u16le(data + *pos + 2);
        a->keys[k].k2 = ue_load_u16le(data + *pos + 4);
    }
    check_keys(c, a, phases, first_key, path);
    return true;
}

static void read_anims(ue_parse_ctx *c, const uint8_t *data, size_t size, size_t *pos, uint64_t base,
                       ue_mat0 *m, size_t *kept) {
    size_t n = m->anim_count;
    if (n > UE_MAT0_MAX_ANIMS) {
        ue_violation(c, "mat0.anim.count", base + 2, "mat0/anim_block_count",
                     "%zu animation blocks; the engine takes at most %d", n, UE_MAT0_MAX_ANIMS);
        n = UE_MAT0_MAX_ANIMS;
    }
    *kept = 0;
    if (!n) return;
    m->anims = calloc(n, sizeof *m->anims);
    if (!m->anims) return;
    for (size_t i = 0; i < n; i++) {
        if (!read_anim(c, data, size, pos, base, i, m->phase_count, &m->anims[i])) break;
        *kept = i + 1;
    }
}

static bool version_ok(ue_parse_ctx *c, uint32_t version, uint64_t base) {
    if (version <= MAX_VERSION) return true;
    ue_violation(c, "mat0.version", base, "mat0", "payload version (attr2) %u is above 6; read as version 6",
                 version);
    return !ue_parse_failed(c);
}

ue_result ue_mat0_parse(const uint8_t *data, size_t size, uint32_t version, uint64_t base, ue_mode mode,
                        ue_mat0 *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    ue_parse_ctx c = ue_parse_begin(mode, d);
    if (!version_ok(&c, version, base)) return c.failure;
    out->version = version > MAX_VERSION ? MAX_VERSION : version;
    size_t pos = header_size(out->version);
    if (size < pos) {
        ue_damage(&c, "mat0.header.truncated", base, "mat0", "header of version %u needs %zu bytes, have %zu",
                  out->version, pos, size);
        return UE_ERR_INVALID;
    }
    read_header(data, out);
    out->version = version; /* kept as given, written back as given */
    if (out->phase_count == 0)
        ue_violation(&c, "mat0.phase.none", base, "mat0/phase_count", "a material needs at least one phase");
    size_t phases = read_phases(&c, data, size, &pos, base, out);
    if (phases == SIZE_MAX) return ue_mat0_free(out), UE_ERR_NOMEM;
    size_t anims = 0;
    if (phases == out->phase_count) read_anims(&c, data, size, &pos, base, out, &anims);
    else if (out->anim_count)
        ue_violation(&c, "mat0.anim.skipped", base + pos, "mat0/anims", "%u animation blocks not read after the cut phases",
                     out->anim_count);
    if (!ue_parse_failed(&c) && anims == out->anim_count && pos != size)
        ue_violation(&c, "mat0.trailing", base + pos, "mat0", "%zu bytes after the last animation block", size - pos);
    out->phase_count = (uint16_t)phases;
    out->anim_count = (uint16_t)anims;
    if (ue_parse_failed(&c)) ue_mat0_free(out);
    return c.failure;
}

ue_result ue_mat0_write(const ue_mat0 *m, ue_buf *out, ue_diag *d) {
    if ((m->phase_count && !m->phases) || (m->anim_count && !m->anims) || m->anim_count > UE_MAT0_MAX_ANIMS) {
        ue_diag_add(d, UE_SEV_ERROR, "mat0.write.usage", UE_NO_OFFSET, "mat0",
                    "phase or animation arrays missing, or more than %d animation blocks", UE_MAT0_MAX_ANIMS);
        return UE_ERR_USAGE;
    }
    ue_buf_put_u16le(out, m->phase_count);
    ue_buf_put_u16le(out, m->anim_count);
    if (m->version >= 2) ue_buf_put_u8(out, m->meta_a), ue_buf_put_u8(out, m->meta_b);
    if (m->version >= 3) ue_buf_put_u32le(out, m->meta_c);
    if (m->version >= 4) ue_buf_put_u32le(out, m->meta_d);
    for (size_t i = 0; i < m->phase_count; i++) {
        ue_buf_put(out, m->phases[i].params, UE_MAT0_PARAM_BYTES);
        ue_buf_put(out, m->phases[i].texture, UE_MAT0_NAME_BYTES);
    }
    for (size_t i = 0; i < m->anim_count; i++) {
        const ue_mat0_anim *a = &m->anims[i];
        ue_buf_put_u32le(out, a->header);
        ue_buf_put_u16le(out, a->key_count);
        for (size_t k = 0; k < a->key_count && a->keys; k++) {
            ue_buf_put_u16le(out, a->keys[k].k0);
            ue_buf_put_u16le(out, a->keys[k].k1);
            ue_buf_put_u16le(out, a->keys[k].k2);
        }
    }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
}

void ue_mat0_free(ue_mat0 *m) {
    if (!m) return;
    for (size_t i = 0; m->anims && i < m->anim_count; i++) free(m->anims[i].keys);
    free(m->anims);
    free(m->phases);
    m->anims = NULL;
    m->phases = NULL;
    m->phase_count = m->anim_count = 0;
}

void ue_mat0_texture_name(const ue_mat0_phase *p, char out[UE_MAT0_NAME_BYTES + 1]) {
    size_t n = 0;
    while (n < UE_MAT0_NAME_BYTES && p->texture[n]) n++;
    memcpy(out, p->texture, n);
    out[n] = 0;
}
