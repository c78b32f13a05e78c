/* unearth — raw Deflate (RsLi method 0x100) through zlib with windowBits -15, held to the
 * container's declared unpacked size: no more, no less, and no zlib wrapper. */
#include <limits.h>
#include <string.h>
#include <zlib.h>

#include "unearth/codec.h"

bool ue_deflate_looks_zlib(const uint8_t *in, size_t in_size) {
    if (in_size < 2) return false;
    unsigned cmf = in[0], flg = in[1];
    /* CM = 8 (deflate), CINFO <= 7, and the FCHECK condition of RFC 1950. */
    return (cmf & 0x0Fu) == 8u && (cmf >> 4) <= 7u && ((cmf << 8) | flg) % 31u == 0u;
}

/* zlib counts in uInt; feed huge buffers in slices so size_t never truncates. */
#define SLICE ((size_t)1 << 30)

/* Deflate's best case: length code 285 (258 bytes, no extra bits) and a distance code, each
 * one bit long, so 2 bits per 258 bytes; literals and headers only cost more. */
#define MAX_BYTES_PER_INPUT_BYTE 1032u

uint64_t ue_deflate_max_output(size_t in_size) {
    if ((uint64_t)in_size > UINT64_MAX / MAX_BYTES_PER_INPUT_BYTE) return UINT64_MAX;
    return (uint64_t)in_size * MAX_BYTES_PER_INPUT_BYTE;
}

/* zlib's input pointer at `pos`: zlib's API is not const-correct, and an empty input may be NULL,
 * on which even + 0 is undefined behaviour (clang's UBSan reports it). */
static Bytef *z_input(const uint8_t *in, size_t pos) { return in ? (Bytef *)(uintptr_t)(in + pos) : Z_NULL; }

ue_result ue_deflate_raw_decode(const uint8_t *in, size_t in_size, uint8_t *out, size_t out_size,
                                ue_codec_stats *stats, ue_diag *d, uint64_t diag_base,
                                const char *diag_path) {
    if (stats) stats->consumed = stats->produced = 0;
    if ((uint64_t)out_size > ue_deflate_max_output(in_size)) {
        ue_diag_add(d, UE_SEV_ERROR, "deflate.size_limit", diag_base, diag_path,
                    "declared size %zu cannot come from %zu Deflate bytes (at most %llu)",
                    out_size, in_size, (unsigned long long)ue_deflate_max_output(in_size));
        return UE_ERR_INVALID;
    }
    /* A zlib header parses as a non-final stored block in raw mode and could slip through when
     * its bogus LEN/NLEN happened to agree, so the wrapper is refused up front. A genuine raw
     * stream only starts like this if its first block is stored with non-zero padding bits,
     * which no known encoder writes. */
    if (ue_deflate_looks_zlib(in, in_size)) {
        ue_diag_add(d, UE_SEV_ERROR, "deflate.zlib_wrapped", diag_base, diag_path,
                    "stream starts with a zlib header (%02X %02X); raw Deflate expected", in[0],
                    in[1]);
        return UE_ERR_INVALID;
    }
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, -15) != Z_OK) return UE_ERR_NOMEM;
    size_t in_pos = 0, out_pos = 0;
    ue_result result = UE_OK;
    int zr = Z_OK;
    for (;;) {
        size_t in_left = in_size - in_pos, out_left = out_size - out_pos;
        z.next_in = z_input(in, in_pos);
        z.avail_in = (uInt)(in_left < SLICE ? in_left : SLICE);
        uint8_t spare;
        /* Once the declared size is reached, one spare byte of room tells a finished stream
         * (Z_STREAM_END, nothing written) from one that wants to overflow. */
        if (out_left) {
            z.next_out = out + out_pos;
            z.avail_out = (uInt)(out_left < SLICE ? out_left : SLICE);
        } else {
            z.next_out = &spare;
            z.avail_out = 1;
        }
        uInt in_before = z.avail_in, out_before = z.avail_out;
        zr = inflate(&z, Z_NO_FLUSH);
        in_pos += in_before - z.avail_in;
        size_t wrote = out_before - z.avail_out;
        if (!out_left && wrote) {
            ue_diag_add(d, UE_SEV_ERROR, "deflate.overflow", diag_base + in_pos, diag_path,
                        "stream produces more than the declared %zu bytes", out_size);
            result = UE_ERR_INVALID;
            break;
        }
        out_pos += wrote;
        if (zr == Z_STREAM_END) {
            if (out_pos != out_size) {
                ue_diag_add(d, UE_SEV_ERROR, "deflate.short", diag_base + in_pos, diag_path,
                            "stream ends after %zu of the declared %zu bytes", out_pos, out_size);
                result = UE_ERR_INVALID;
            }
            break;
        }
        if (zr == Z_DATA_ERROR || zr == Z_NEED_DICT || zr == Z_STREAM_ERROR) {
            ue_diag_add(d, UE_SEV_ERROR, "deflate.corrupt", diag_base + in_pos, diag_path,
                        "corrupt Deflate stream after %zu input bytes: %s", in_pos,
                        z.msg ? z.msg : "invalid data");
            result = UE_ERR_INVALID;
            break;
        }
        if (zr == Z_MEM_ERROR) {
            result = UE_ERR_NOMEM;
            break;
        }
        if (in_before == z.avail_in && wrote == 0) {
            /* zlib made no progress: with room to write, only missing input explains that. */
            ue_diag_add(d, UE_SEV_ERROR, "deflate.truncated", diag_base + in_pos, diag_path,
                        "input ends after %zu bytes before the final block, %zu of %zu bytes "
                        "produced",
                        in_pos, out_pos, out_size);
            result = UE_ERR_INVALID;
            break;
        }
    }
    inflateEnd(&z);
    if (stats) {
        stats->consumed = in_pos;
        stats->produced = out_pos;
    }
    return result;
}

ue_result ue_deflate_raw_encode(int level, const uint8_t *in, size_t in_size, ue_buf *out) {
    if (level < -1 || level > 9) level = -1;
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return UE_ERR_NOMEM;
    size_t in_pos = 0;
    ue_result result = UE_OK;
    for (;;) {
        size_t in_left = in_size - in_pos;
        z.next_in = z_input(in, in_pos);
        z.avail_in = (uInt)(in_left < SLICE ? in_left : SLICE);
        int flush = in_left <= SLICE ? Z_FINISH : Z_NO_FLUSH;
        if (!ue_buf_reserve(out, 1u << 16)) {
            result = UE_ERR_NOMEM;
            break;
        }
        size_t room = out->capacity - out->size;
        if (room > SLICE) room = SLICE;
        z.next_out = out->data + out->size;
        z.avail_out = (uInt)room;
        uInt in_before = z.avail_in;
        int zr = deflate(&z, flush);
        in_pos += in_before - z.avail_in;
        out->size += room - z.avail_out;
        if (zr == Z_STREAM_END) break;
        if (zr != Z_OK && zr != Z_BUF_ERROR) {
            result = UE_ERR_NOMEM;
            break;
        }
    }
    deflateEnd(&z);
    return result;
}
