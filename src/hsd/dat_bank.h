/* unearth — internal: a file of DATs one after another (Melee's animation banks, Pl??AJ.dat), as
 * the chain of DAT headers delimits it: each DAT starts 32-aligned, the gap before it is 0xFF. */
#ifndef UE_HSD_DAT_BANK_H
#define UE_HSD_DAT_BANK_H

#include "unearth/common.h"

#define UE_DAT_BANK_ALIGN 32u   /* every DAT of a bank starts at a multiple of this */
#define UE_DAT_BANK_FILL 0xFFu  /* the byte the gaps (and the file's end) are padded with */

typedef struct ue_dat_bank_entry {
    uint64_t offset;   /* of the DAT in the file */
    uint32_t size;     /* its header's file_size */
    uint32_t padding;  /* bytes after it, up to the next DAT or the end of the file */
    bool plain_fill;   /* those bytes are the alignment's worth of 0xFF (the rule) */
    char name[128];    /* the first root's name ("" when it has none that reads) */
} ue_dat_bank_entry;

/* Whether `head` (n bytes of a file of `total`) opens with a DAT header whose regions fit in its
 * own file_size, which is smaller than the file and leaves room for a second DAT header at the
 * next 32-byte boundary (and, when head reaches it, that header is one too). A single DAT,
 * padded or not, is no bank. */
bool ue_dat_bank_probe(const uint8_t *head, size_t n, uint64_t total);

/* Walks the chain of `src`: *entries (malloc'd, *count ≥ 2) in file order. A header whose regions
 * do not fit, or fewer than two DATs, fail the walk (nothing delimits the rest); bytes after the
 * last DAT that are more than its padding are a violation (tolerant: kept as that padding).
 * Work is linear in the number of DATs, at most size / 32. */
ue_result ue_dat_bank_scan(const ue_source *src, ue_mode mode, ue_dat_bank_entry **entries,
                           size_t *count, ue_diag *d);

/* Appends one DAT to a bank being built, then the rule's 0xFF up to the next 32-byte boundary
 * (the layout of Melee's banks, which the container reads back). UE_ERR_NOMEM. */
ue_result ue_dat_bank_append(ue_buf *bank, const uint8_t *dat, size_t size);

/* A bank as a container (archive/container.h), listed by the family's descriptor (hsd_family.c). */
extern const struct ue_container_ops ue_datbank_ops;

#endif
