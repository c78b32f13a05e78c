/* unearth internal — the Parkan family's containers, NRes and RsLi, as the archive layer's
 * ue_container_ops (nres_archive.c, rsli_archive.c), listed by its descriptor (parkan_family.c). */
#ifndef UE_PARKAN_CONTAINERS_H
#define UE_PARKAN_CONTAINERS_H

struct ue_container_ops;

extern const struct ue_container_ops ue_nres_ops;
extern const struct ue_container_ops ue_rsli_ops;

#endif
