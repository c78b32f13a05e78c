/* unearth CLI — internal: the text of a batch's ownership marker (docs/batch.md#output-safety) and
 * the table of the paths an earlier run's marker lists, compared as exact bytes. */
#ifndef UE_CLI_BATCH_MARKER_H
#define UE_CLI_BATCH_MARKER_H

#include "cli/batch.h"
#include "unearth/advanced/buffers.h"

#define BATCH_MARKER_MAGIC "unearth-batch-marker 2\n"
/* A line names at most an output, its companion, the model's address and its file's real path;
 * a longer one is no line of ours (never written, passed over when read). */
#define BATCH_MARKER_LINE_MAX (3 * 4096)
/* About 300 bytes per output in practice: a million outputs fit several times over. */
#define BATCH_MARKER_MAX ((uint64_t)256 << 20)

/* One path the marker lists. A "file" line (written before the output is renamed into place)
 * lists a model's output with what it was made from; a "placed" line (written after the rename)
 * gives the identity the file had then. A path is the batch's own only while a file with that
 * identity stands there; a "left" line lists a path that holds somebody else's file, so that OUT
 * is still recognised, and never makes it ours. */
typedef struct marker_entry {
    char *path;          /* relative to OUT, below it (no "..", not absolute) */
    bool model;          /* a "file" line names it as a model's main output: */
    char *companion;     /*   its companion ("" when none), */
    char **images;       /*   the PNG files beside it ("image" lines after the "file" line), */
    size_t image_count, image_cap;
    char *input;         /*   the model's address, */
    batch_source source; /*   and the input file as it was read */
    bool placed;         /* a "placed" line gave its identity: the file with it is ours */
    batch_file_id id;
    bool current;        /* ... placed after the last "file" line naming the path (made from
                          * the input that line gives, not an older one) */
    bool reported;       /* said once already (a file left as it is) */
} marker_entry;

typedef struct marker_table marker_table;

marker_table *marker_table_new(void);
void marker_table_free(marker_table *t);
/* The entry of `path` (exact bytes), NULL when the marker does not list it. */
marker_entry *marker_table_get(const marker_table *t, const char *path);
/* The entry of `path`, added (zeroed but for its path) when new; NULL when out of memory. */
marker_entry *marker_table_add(marker_table *t, const char *path);
/* Every entry in turn: i from 0 while it returns true; *e NULL for an empty slot. */
bool marker_table_at(const marker_table *t, size_t i, marker_entry **e);

/* Reads OUT's marker at `path`: its header (the magic and option lines) into `header`, every
 * line after it into `t` (a later line of a path overrides an earlier one). Only a regular file
 * up to BATCH_MARKER_MAX is read; a line that is malformed, too long, leads out of OUT or is cut
 * short (no newline) is passed over. False when there is no marker this version reads. */
bool batch_marker_read(const char *path, ue_buf *header, marker_table *t, bool *ends_with_newline);

/* The marker's lines. Fields escape control bytes and '%' as %XX. False (nothing appended) when
 * the line would be longer than BATCH_MARKER_LINE_MAX. */
void batch_marker_option(ue_buf *b, const char *name, const char *value);
bool batch_marker_file_line(ue_buf *b, const char *output, const char *companion, const char *input,
                            const batch_source *source);
/* "image OUTPUT PATH": one more file beside OUTPUT (its PNG files), after OUTPUT's file line. */
bool batch_marker_image_line(ue_buf *b, const char *output, const char *path);
bool batch_marker_placed_line(ue_buf *b, const char *path, const batch_file_id *id);
bool batch_marker_left_line(ue_buf *b, const char *path);

/* A path a batch could have written: relative, below OUT, no "." or ".." part. */
bool batch_path_inside(const char *path);

/* The identity of the file at `path` now (not following a link); false when no regular file is
 * there. */
bool batch_file_id_of(int dir_fd, const char *path, batch_file_id *id);
bool batch_file_id_equal(const batch_file_id *a, const batch_file_id *b);

#endif
