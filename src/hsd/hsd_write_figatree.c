/* unearth — FigaTree writer (docs/formats/hsd-animation.md#figatree): the inverse of hsd_figatree.c's reader, used to
 * build the sample pack's animation bank and the FigaTree tests' clips. */
#include "hsd/hsd_write_figatree.h"

#include "hsd/hsd_figatree.h"

/* A track's 0x0C-byte header: u16 key bytes, s16 start frame, type, value and slope formats,
 * pad, P key bytes. */
static ue_result write_track(ue_dat_builder *b, uint32_t at, const hsd_figatree_track_def *t) {
    ue_buf stream = {0};
    ue_result r = ue_hsd_keys_encode(t->keys, t->key_count, t->value_format, t->slope_format, &stream);
    if (r == UE_OK && stream.size > UINT16_MAX) r = UE_ERR_USAGE;
    if (r == UE_OK) {
        uint32_t data = ue_datb_put(b, stream.data, stream.size, stream.size, UE_DATB_STRUCT_ALIGN);
        ue_datb_u16(b, at, (uint16_t)stream.size);
        ue_datb_u16(b, at + 2, (uint16_t)t->start_frame);
        ue_datb_u8(b, at + 4, t->type);
        ue_datb_u8(b, at + 5, t->value_format);
        ue_datb_u8(b, at + 6, t->slope_format);
        ue_datb_pointer(b, at + 8, data);
    }
    ue_buf_free(&stream);
    return r;
}

ue_result hsd_figatree_write(ue_dat_builder *b, const hsd_figatree_def *f, uint32_t *head) {
    size_t n = 0;
    for (size_t j = 0; j < f->joint_count; j++) {
        if (f->track_counts[j] == 0xFF) return UE_ERR_USAGE; /* the count table's end mark */
        n += f->track_counts[j];
    }
    uint32_t table = ue_datb_alloc(b, n ? n * HSD_FIGATREE_TRACK : 4, UE_DATB_STRUCT_ALIGN);
    ue_result r = UE_OK;
    for (size_t t = 0; t < n && r == UE_OK; t++)
        r = write_track(b, table + (uint32_t)(t * HSD_FIGATREE_TRACK), &f->tracks[t]);
    uint32_t counts = ue_datb_alloc(b, f->joint_count + 1, UE_DATB_STRUCT_ALIGN);
    for (size_t j = 0; j < f->joint_count; j++) ue_datb_u8(b, counts + (uint32_t)j, f->track_counts[j]);
    ue_datb_u8(b, counts + (uint32_t)f->joint_count, 0xFF);
    uint32_t h = ue_datb_alloc(b, HSD_FIGATREE_SIZE, UE_DATB_STRUCT_ALIGN);
    ue_datb_u32(b, h, 1); /* type 1: keyed tracks (the only type the game's banks use) */
    ue_datb_f32(b, h + 8, f->frame_count);
    ue_datb_pointer(b, h + 0x0C, counts);
    ue_datb_pointer(b, h + 0x10, table);
    *head = h;
    return r == UE_OK && b->failed ? UE_ERR_NOMEM : r;
}

ue_result hsd_figatree_dat(const char *root_name, const hsd_figatree_def *f, ue_buf *out) {
    ue_dat_builder b;
    ue_datb_init(&b);
    uint32_t head = 0;
    ue_result r = hsd_figatree_write(&b, f, &head);
    if (r == UE_OK) {
        ue_datb_root(&b, head, root_name);
        r = ue_datb_finish(&b, out);
    }
    ue_datb_free(&b);
    return r;
}
