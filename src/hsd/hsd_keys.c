/* unearth — HSD key streams (docs/formats/hsd-animation.md#key-streams): the FObj byte encoding of keyframes decoded into
 * entries with their local times, and the writer's inverse that packs entries back into bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/parse.h"
#include "unearth/hsd_anim.h"

/* ---- numbers ------------------------------------------------------------------------------ */

typedef enum num_status { NUM_OK, NUM_SHORT, NUM_FORMAT, NUM_NAN } num_status;

/* Bytes one number of format type `type` (0..4) takes. */
static size_t format_size(uint8_t type) {
    static const size_t sizes[5] = {4, 2, 2, 1, 1};
    return sizes[type];
}

/* Reads one value or slope at *pos (little-endian, integers divided by 2^frac). */
static num_status read_number(const uint8_t *data, size_t length, size_t *pos, uint8_t fmt,
                              float *out) {
    uint8_t type = (uint8_t)(UE_HSD_FMT_TYPE(fmt) >> 5);
    if (type > 4) return NUM_FORMAT;
    size_t n = format_size(type);
    if (n > length - *pos) return NUM_SHORT;
    const uint8_t *p = data + *pos;
    double raw;
    switch (type) {
    case 0: {
        uint32_t bits = ue_load_u32le(p);
        float f;
        memcpy(&f, &bits, sizeof f);
        if (!isfinite(f)) return NUM_NAN;
        raw = f;
        break;
    }
    case 1: raw = (int16_t)ue_load_u16le(p); break;
    case 2: raw = ue_load_u16le(p); break;
    case 3: raw = (int8_t)p[0]; break;
    default: raw = p[0]; break;
    }
    *pos += n;
    /* FLOAT ignores the fraction bits, as the runtime does */
    *out = (float)(type == 0 ? raw : ldexp(raw, -(int)UE_HSD_FMT_FRAC(fmt)));
    return NUM_OK;
}

/* Reads an unsigned LEB128 number; values past 2^35 saturate (they are refused by the caller's
 * limit anyway) so a long chain of continuation bytes cannot overflow the shift. */
static bool read_leb128(const uint8_t *data, size_t length, size_t *pos, uint64_t *out) {
    uint64_t w = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        if (*pos >= length) return false;
        b = data[(*pos)++];
        if (shift < 35) w |= (uint64_t)(b & 0x7Fu) << shift;
        else if (b & 0x7Fu) w = UINT64_MAX;
        if (shift < 63) shift += 7;
    } while (b & 0x80u);
    *out = w;
    return true;
}

/* ---- decoding ----------------------------------------------------------------------------- */

typedef struct key_reader {
    const uint8_t *data;
    size_t length, pos;
    uint8_t value_format, slope_format;
    ue_parse_ctx *pc;
    const char *path;
    uint64_t base;
    double time, last_key_time; /* exact: sums of integer waits */
    ue_hsd_key *keys;
    size_t count, capacity;
    bool nomem;
} key_reader;

static bool push_key(key_reader *r, const ue_hsd_key *k) {
    if (r->count == r->capacity) {
        /* at most one entry per byte, so the array never outgrows the stream */
        size_t cap = r->capacity ? r->capacity * 2 : 16;
        if (cap > r->length) cap = r->length;
        if (cap <= r->count) cap = r->count + 1;
        ue_hsd_key *grown = realloc(r->keys, cap * sizeof *grown);
        if (!grown) {
            r->nomem = true;
            return false;
        }
        r->keys = grown;
        r->capacity = cap;
    }
    r->keys[r->count++] = *k;
    return true;
}

static void report_number(key_reader *r, num_status s, size_t entry_start, size_t at,
                          const char *what, uint8_t fmt) {
    if (s == NUM_SHORT)
        ue_violation(r->pc, "hsd.key.truncated", r->base + entry_start, r->path,
                     "key entry %zu: its %s runs past the stream's end (%zu bytes)", r->count,
                     what, r->length);
    else if (s == NUM_FORMAT)
        ue_violation(r->pc, "hsd.key.format", r->base + entry_start, r->path,
                     "key entry %zu: %s format 0x%02X has unknown type %u (0..4 allowed)",
                     r->count, what, fmt, (unsigned)(fmt >> 5));
    else
        ue_violation(r->pc, "hsd.key.nan", r->base + at, r->path,
                     "key entry %zu: %s is NaN or infinite", r->count, what);
}

/* Reads a key's wait and moves the clock; false (reported) when it is missing or too long. */
static bool read_wait(key_reader *r, size_t entry_start, uint64_t *wait) {
    size_t at = r->pos;
    if (!read_leb128(r->data, r->length, &r->pos, wait)) {
        ue_violation(r->pc, "hsd.key.truncated", r->base + entry_start, r->path,
                     "key entry %zu: its wait runs past the stream's end (%zu bytes)", r->count,
                     r->length);
        return false;
    }
    if (*wait > UE_HSD_MAX_FRAMES || r->time + (double)*wait > (double)UE_HSD_MAX_FRAMES) {
        ue_violation(r->pc, "hsd.key.wait", r->base + at, r->path,
                     "key entry %zu: wait %llu takes the track to frame %.0f, past the limit %u",
                     r->count, (unsigned long long)*wait, r->time + (double)*wait,
                     UE_HSD_MAX_FRAMES);
        return false;
    }
    return true;
}

/* Decodes one entry of opcode `op` (1..6) at r->pos; false when the stream is damaged there. */
static bool read_entry(key_reader *r, uint8_t op) {
    size_t start = r->pos, at = r->pos;
    ue_hsd_key k = {op, 0, 0, 0, 0};
    num_status s;
    if (op != UE_HSD_KEY_SLP) {
        s = read_number(r->data, r->length, &r->pos, r->value_format, &k.value);
        if (s != NUM_OK) return report_number(r, s, start, at, "value", r->value_format), false;
    }
    if (op == UE_HSD_KEY_SPL || op == UE_HSD_KEY_SLP) {
        at = r->pos;
        s = read_number(r->data, r->length, &r->pos, r->slope_format, &k.slope);
        if (s != NUM_OK) return report_number(r, s, start, at, "slope", r->slope_format), false;
    }
    if (op == UE_HSD_KEY_SLP) {
        k.time = (float)r->last_key_time; /* a slope is no key: it keeps the clock */
        return push_key(r, &k);
    }
    uint64_t wait;
    if (!read_wait(r, start, &wait)) return false;
    k.wait = (uint32_t)wait;
    k.time = (float)r->time;
    r->last_key_time = r->time;
    r->time += (double)wait;
    return push_key(r, &k);
}

/* Reads a pack header: the opcode and the run length n (saturated: it is only an upper bound,
 * every entry still needs its bytes). False (reported) when its continuation is cut. */
static bool read_pack_header(key_reader *r, uint8_t *op, uint64_t *n) {
    size_t at = r->pos;
    uint8_t b = r->data[r->pos++];
    *op = (uint8_t)(b & 0x0Fu);
    *n = (uint64_t)((b >> 4) & 7u) + 1;
    if (b & 0x80u) {
        uint64_t more;
        if (!read_leb128(r->data, r->length, &r->pos, &more)) {
            ue_violation(r->pc, "hsd.key.truncated", r->base + at, r->path,
                         "pack header at byte %zu: its run length runs past the stream's end",
                         at);
            return false;
        }
        *n = more > (UINT64_MAX >> 4) ? UINT64_MAX : *n + (more << 3);
    }
    if (*op > UE_HSD_KEY_KEY) {
        ue_violation(r->pc, "hsd.key.opcode", r->base + at, r->path,
                     "pack header at byte %zu: unknown opcode %u (0..6 allowed)", at, *op);
        return false;
    }
    return true;
}

/* Walks the stream until its end, an opcode 0 or the first damage. */
static void read_stream(key_reader *r) {
    while (r->pos < r->length) {
        uint8_t op;
        uint64_t n;
        if (!read_pack_header(r, &op, &n) || op == UE_HSD_KEY_NONE) return;
        for (uint64_t i = 0; i < n; i++) {
            if (r->pos >= r->length) {
                ue_violation(r->pc, "hsd.key.truncated", r->base + r->pos, r->path,
                             "a run of opcode %u claims %llu entries, the stream ends after %llu",
                             op, (unsigned long long)n, (unsigned long long)i);
                return;
            }
            if (!read_entry(r, op)) return;
        }
    }
}

ue_result ue_hsd_keys_decode(const uint8_t *data, size_t length, uint8_t value_format,
                             uint8_t slope_format, ue_mode mode, ue_hsd_key **keys,
                             size_t *count, ue_diag *d, const char *path, uint64_t base_offset) {
    if (!keys || !count || (!data && length)) return UE_ERR_USAGE;
    *keys = NULL;
    *count = 0;
    ue_parse_ctx pc = ue_parse_begin(mode, d);
    key_reader r = {0};
    r.data = data;
    r.length = length;
    r.value_format = value_format;
    r.slope_format = slope_format;
    r.pc = &pc;
    r.path = path ? path : "keys";
    r.base = base_offset;
    read_stream(&r);
    ue_result res = r.nomem ? UE_ERR_NOMEM : pc.failure;
    if (res != UE_OK || r.count == 0) {
        free(r.keys);
        return res;
    }
    *keys = r.keys;
    *count = r.count;
    return UE_OK;
}

/* ---- encoding ----------------------------------------------------------------------------- */

/* Appends one number in format `fmt`; false when the format cannot hold it. */
static bool put_number(ue_buf *out, float v, uint8_t fmt) {
    static const double lo[5] = {0, -32768.0, 0, -128.0, 0};
    static const double hi[5] = {0, 32767.0, 65535.0, 127.0, 255.0};
    uint8_t type = (uint8_t)(UE_HSD_FMT_TYPE(fmt) >> 5);
    if (type > 4 || !isfinite(v)) return false;
    if (type == 0) {
        uint32_t bits;
        memcpy(&bits, &v, sizeof bits);
        ue_buf_put_u32le(out, bits);
        return true;
    }
    double q = nearbyint(ldexp((double)v, (int)UE_HSD_FMT_FRAC(fmt)));
    if (q < lo[type] || q > hi[type]) return false;
    long iq = (long)q;
    if (type <= 2) ue_buf_put_u16le(out, (uint16_t)(iq & 0xFFFF));
    else ue_buf_put_u8(out, (uint8_t)(iq & 0xFF));
    return true;
}

static void put_leb128(ue_buf *out, uint64_t v) {
    do {
        uint8_t b = (uint8_t)(v & 0x7Fu);
        v >>= 7;
        ue_buf_put_u8(out, (uint8_t)(v ? b | 0x80u : b));
    } while (v);
}

/* Pack header for a run of n ≥ 1 entries: 3 bits of n − 1 in the first byte, the rest in
 * 7-bit continuation bytes. */
static void put_pack_header(ue_buf *out, uint8_t op, size_t n) {
    size_t m = n - 1;
    size_t rest = m >> 3;
    ue_buf_put_u8(out, (uint8_t)(op | ((m & 7u) << 4) | (rest ? 0x80u : 0)));
    if (rest) put_leb128(out, rest);
}

static bool put_entry(ue_buf *out, const ue_hsd_key *k, uint8_t vfmt, uint8_t sfmt) {
    if (k->op != UE_HSD_KEY_SLP && !put_number(out, k->value, vfmt)) return false;
    if ((k->op == UE_HSD_KEY_SPL || k->op == UE_HSD_KEY_SLP) && !put_number(out, k->slope, sfmt))
        return false;
    if (k->op != UE_HSD_KEY_SLP) put_leb128(out, k->wait);
    return true;
}

ue_result ue_hsd_keys_encode(const ue_hsd_key *keys, size_t count, uint8_t value_format,
                             uint8_t slope_format, ue_buf *out) {
    if (!out || (!keys && count)) return UE_ERR_USAGE;
    size_t start = out->size;
    uint64_t total = 0;
    for (size_t i = 0; i < count;) {
        uint8_t op = keys[i].op;
        if (op < UE_HSD_KEY_CON || op > UE_HSD_KEY_KEY) goto refuse;
        size_t run = 1;
        while (i + run < count && keys[i + run].op == op) run++;
        put_pack_header(out, op, run);
        for (size_t k = i; k < i + run; k++) {
            if (op != UE_HSD_KEY_SLP) {
                /* what the decoder would refuse is refused here, so encode → decode holds */
                total += keys[k].wait;
                if (keys[k].wait > UE_HSD_MAX_FRAMES || total > UE_HSD_MAX_FRAMES) goto refuse;
            }
            if (!put_entry(out, &keys[k], value_format, slope_format)) goto refuse;
        }
        i += run;
    }
    return out->failed ? UE_ERR_NOMEM : UE_OK;
refuse:
    out->size = start; /* nothing half-written stays behind */
    return UE_ERR_USAGE;
}
