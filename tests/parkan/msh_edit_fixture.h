/* unearth tests — the fixture of the edit-mode import tests: a base model's bytes, the model
 * parsed to be edited, the scene a client hands back, and the edited model written. */
#ifndef UE_TEST_MSH_EDIT_FIXTURE_H
#define UE_TEST_MSH_EDIT_FIXTURE_H

#include <string.h>

#include "unearth/msh.h"
#include "unearth/msh_import.h"
#include "unearth/scene.h"

typedef struct fixture {
    ue_buf original; /* the base model's bytes */
    ue_msh m;        /* parsed, to be edited */
    ue_scene s;      /* what convert exports, then what the client changed */
    ue_buf out;      /* the edited model written */
    ue_diag d;
} fixture;

static inline void teardown(fixture *f) {
    ue_buf_free(&f->original);
    ue_buf_free(&f->out);
    ue_msh_free(&f->m);
    ue_scene_free(&f->s);
    ue_diag_free(&f->d);
}

static inline ue_result apply_and_write(fixture *f) {
    ue_result r = ue_msh_apply_scene(&f->m, &f->s, NULL, &f->d);
    if (r == UE_OK) r = ue_msh_write(&f->m, &f->out, &f->d);
    return r;
}

/* The edited model is the base, byte for byte. */
static inline bool identical(const fixture *f) {
    return f->out.size == f->original.size && memcmp(f->out.data, f->original.data, f->out.size) == 0;
}

#endif
