/* unearth CLI — internal: `convert -r --gallery` (docs/gallery.md): a thumbnail and the counts of
 * each model as it is converted, then OUT/index.html and the viewer page with its script files. */
#ifndef UE_CLI_GALLERY_H
#define UE_CLI_GALLERY_H

#include "cli/batch.h"
#include "cli/output_parts.h"

/* The page and the viewer's folder in OUT: names no output takes. */
#define GALLERY_INDEX "index.html"
#define GALLERY_VIEWER_DIR "unearth-viewer"

/* The thumbnail of a model as PNG bytes into `png`; left empty when none is made (the page then
 * shows a box saying so). */
ue_result gallery_thumbnail(const ue_scene *s, ue_buf *png, ue_diag *d);

/* One converted model's part (any thread): its counts and warnings into rec->gallery, and its
 * thumbnail, when one is made, added to the PNG files beside its output as STEM.preview.png. */
ue_result gallery_model(const ue_scene *s, batch_record *rec, output_parts *out);

/* Kept models take what the earlier run's report (OUT/unearth-batch.json, still the earlier one)
 * says of them; their report records are formatted again. */
void gallery_take_earlier(const char *root, batch_records *l);

/* OUT/index.html for the models of `l` in their order; `viewer`: each links to the viewer page
 * (else to its output file). NULL when out of memory. */
char *gallery_index_html(const batch_records *l, bool viewer);

/* Writes the page and the viewer's files into OUT; a missing viewer is said once, with how to
 * install it, and the page is written without it. */
void gallery_write(batch_outdir *od, const batch_records *l);

#endif
