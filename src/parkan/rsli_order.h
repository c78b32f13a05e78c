/* unearth internal — RsLi packed ranges in file order, shared by the reader's overlap check
 * (rsli.c) and pack's check of the manifest's recorded layout (rsli_archive.c). */
#ifndef UE_PARKAN_RSLI_ORDER_H
#define UE_PARKAN_RSLI_ORDER_H

#include "unearth/rsli.h"

/* Indices of the entries whose packed bytes are in range and not empty, sorted by file offset
 * (ties by index), *n of them; free() the array. NULL when out of memory. */
uint64_t *ue_rsli_packed_order(const ue_rsli *l, size_t *n);

#endif
