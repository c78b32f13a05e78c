/* unearth — Okumura-style LZSS (4096-byte ring, matches 3..18) as used by both engine families.
 * Parkan RsLi fills the ring with spaces, GameCube FSYS with zeros; both start writing at 0xFEE. */
#ifndef UNEARTH_LZSS_H
#define UNEARTH_LZSS_H

#include "unearth/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define UE_LZSS_RING 4096u
#define UE_LZSS_MAX_MATCH 18u
#define UE_LZSS_START 0xFEEu

typedef struct ue_lzss_params {
    uint8_t fill;      /* initial ring contents: 0x20 (Parkan) or 0x00 (GameCube) */
    uint16_t start;    /* initial write position, 0xFEE for both */
    /* When set, a back-reference to a ring byte the stream never wrote (the initial fill) is
     * an error. Off by default: encoders of both engines legitimately reference the fill. */
    bool forbid_prefill;
    /* With forbid_prefill: how many fill bytes just before the start a reference may still
     * begin in. Okumura-style encoders index the F (18) fill positions before r, so GameCube
     * streams made by them use 18; 0 forbids every fill reference. */
    uint16_t prefill_reach;
} ue_lzss_params;

UE_API extern const ue_lzss_params UE_LZSS_PARKAN;   /* fill 0x20, start 0xFEE */
UE_API extern const ue_lzss_params UE_LZSS_GAMECUBE; /* fill 0x00, start 0xFEE */

typedef struct ue_lzss_stats {
           size_t consumed;   /* input bytes read */
           size_t produced;   /* output bytes written */
} ue_lzss_stats;

/* Decodes until `out_size` bytes are produced. Fails (UE_ERR_INVALID, with a diagnostic that
 * names the input offset) when the input ends first. Unused trailing input is allowed and is
 * reported through `stats->consumed`. `diag_base` is added to offsets in diagnostics. */
UE_API ue_result ue_lzss_decode(const ue_lzss_params *p, const uint8_t *in, size_t in_size,
                                uint8_t *out, size_t out_size, ue_lzss_stats *stats, ue_diag *d,
                                uint64_t diag_base, const char *diag_path);

/* The most output any stream of `in_size` bytes can decode to: every 17 bytes hold at most a
 * flag byte and 8 two-byte references of 18 bytes each (144 bytes), a shorter tail a flag byte,
 * references and at most one literal. Callers check a declared size against it (and against
 * their own cap) before allocating, so a small input cannot ask for a large buffer. */
UE_API uint64_t ue_lzss_max_output(size_t in_size);

/* Encoder effort: 0 = greedy with a short search, 9 = lazy matching with a deep search. */
#define UE_LZSS_LEVEL_DEFAULT 6
/* Encodes `in` into `out` (appended). Streams are accepted by ue_lzss_decode with the same
 * params and by the original engines' decoders (matches never reach into the lookahead). */
UE_API ue_result ue_lzss_encode(const ue_lzss_params *p, int level, const uint8_t *in, size_t in_size,
                                ue_buf *out);

#ifdef __cplusplus
}
#endif
#endif
