/* unearth internal — the family descriptor: everything one game family adds to the library (its
 * containers, model formats, name rules, user docs), filled in by the family in its own folder. */
#ifndef UE_REGISTRY_FAMILY_H
#define UE_REGISTRY_FAMILY_H

#include "archive/container.h"
#include "unearth/archive.h"
#include "unearth/model_format.h"

/* A family defines one `const ue_family ue_NAME_family` in src/NAME/NAME_family.c and joins the
 * library by one line in the table of src/registry/families.c (docs/architecture.md, "Adding a
 * family"). This header holds types only: a family includes it and nothing else of the registry.
 * The options a format takes are its own (ue_model_format.options, a list of any length). */
typedef struct ue_family {
    const char *name;        /* "parkan": its folder, src/parkan/ */
    const char *description; /* one line for people: "Parkan: Iron Strategy (PC, 1998)" */
    const char *docs;        /* the user's page, from the repository's root: "docs/parkan-msh.md" */

    /* Its containers and its model formats, each in probe order and NULL-terminated (NULL:
     * none). The families' lists are probed one family after another, in the table's order. */
    const ue_container_ops *const *containers;
    const ue_model_format *const *formats;

    /* Name rules, each optional (NULL), asked in the table's order; the first answer counts.
     *
     * `named`: a format that `name` settles for these bytes before any format probes them;
     * cheap (the name and a magic number, no parse). It holds unless another format's probe
     * claims the bytes: an NRes named *.msh is an MSH model even when it lacks the resources
     * MSH's probe looks for, so that its parse says what is missing. Asked for files and for
     * the entries the walk meets. */
    const ue_model_format *(*named)(const char *name, const uint8_t *data, size_t size);
    /* `plain_named`: for a file (or the last entry of ARCHIVE:ENTRY) that opens as no container
     * and that no probe claims, the format its name gives it (a cut-short *.dat, a bare *.mat0);
     * never asked for the entries the walk meets, which their container already checks. */
    const ue_model_format *(*plain_named)(const char *name, const uint8_t *data, size_t size);
    /* `walk_entry`: whether the model walk reads an entry that holds no container to probe it,
     * because it may be one of this family's models that is no container (an entry typed or
     * named dat, an NRes entry typed Texm). */
    bool (*walk_entry)(const ue_entry_info *info);
} ue_family;

#endif
