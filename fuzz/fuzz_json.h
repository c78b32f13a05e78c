/* Shared by the container fuzz targets: a container's info and entry JSON, written on fuzzed
 * state and thrown away (the writers must not crash or leak whatever the state holds). */
#ifndef UE_FUZZ_JSON_H
#define UE_FUZZ_JSON_H

#include "archive/container.h"
#include "common/json_writer.h"

/* ops->info_json and ops->entry_json of the first `entries` entries, into one array. */
static inline void fuzz_container_json(const ue_container_ops *ops, const void *state, size_t entries) {
    ue_buf text = {0};
    ue_json w;
    ue_json_init(&w, &text, 0);
    ue_json_array_begin(&w);
    ops->info_json(state, &w);
    for (size_t i = 0; i < entries; i++) ops->entry_json(state, i, &w);
    ue_json_array_end(&w);
    ue_json_finish(&w, NULL);
    ue_buf_free(&text);
}

#endif
