/* unearth CLI — internal: the one rule by which every verb that writes several outputs names
 * them (docs/text.md#outputs-of-one-run): a set of the names given out, compared ignoring case. */
#ifndef UE_CLI_OUT_NAMES_H
#define UE_CLI_OUT_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "unearth/common.h"
#include "unearth/model.h"

/* What a name was given out as; 0 for a name not given out. */
enum { OUT_NAME_FILE = 1, OUT_NAME_DIR = 2 };

typedef struct out_name_slot {
    char *key;  /* the name folded (ue_file_name_fold): how file systems that ignore case see it */
    char *path; /* the name as given out */
    int kind;
} out_name_slot;

/* Strings to slots, open addressing, doubled at half full. */
typedef struct out_name_table {
    out_name_slot *slots;
    size_t cap, count;
} out_name_table;

/* Relative paths given out in one run (linear in the names). Two names that differ only by
 * case are the same name here. Zeroed is not valid: use out_names_init. */
typedef struct out_names {
    out_name_table given; /* key: the folded path; path: as given out; kind: OUT_NAME_* */
    /* Where each "~N" sequence goes on (key: the sequence's folded first name; kind: the next N
     * to try, every smaller one being taken for good), and the folder each spelling of a folder
     * got (key: that spelling; path: its folder), so N equal names cost N tries, not N²/2. */
    out_name_table next;
    size_t tries; /* candidate names looked up, for the tests that keep naming linear */
} out_names;

ue_result out_names_init(out_names *n);
void out_names_free(out_names *n);
/* The kind `path` (or a name that differs from it only by case) was given out as, and, in
 * *given when not NULL, that name as given out; 0 and NULL when it is free. */
int out_names_kind(const out_names *n, const char *path, const char **given);
/* Gives `path` out (nothing happens when it, or a name differing only by case, already is). */
ue_result out_names_add(out_names *n, const char *path, int kind);

/* The companion file a writer puts beside `file` (a name, no folder): NAME.bin beside
 * NAME.gltf, the MTL the OBJ writer names beside NAME.obj; "" for every other `ext`. */
void out_names_companion(const char *file, const char *ext, char *out, size_t cap);

/* Gives out DIR/STEM.EXT and its companion, both free: STEM, else STEM~2, STEM~3, ...
 * (`dir` "" for the top level). UE_ERR_USAGE when the path does not fit. */
ue_result out_names_place_file(out_names *n, const char *dir, const char *stem, const char *ext,
                               char *out, size_t out_cap, char *companion, size_t companion_cap);

/* Makes folder `dir` (a relative path) when a new one is given out; anything but UE_OK leaves
 * the name free. */
typedef ue_result (*out_names_make_dir_fn)(const char *dir, void *ctx);
/* Appends folder `part` to `dir` (cap bytes): the folder this very path got before (shared:
 * two models of one archive land in one folder), else PART when it is free or was given out as
 * a folder of exactly that spelling, else the first free PART~2, PART~3, ... (a file of that
 * name, or a folder whose name differs only by case, is passed). `make` runs for a new one.
 * UE_ERR_USAGE when the path does not fit. */
ue_result out_names_place_dir(out_names *n, char *dir, size_t cap, const char *part,
                              out_names_make_dir_fn make, void *ctx);

/* A model's name: the last component of the part of its address that names it
 * (ue_model_title_length), cut between characters to fit: "d/objects.rlb:ROBOT.msh" →
 * "ROBOT.msh", "a.fsys:creature.pkx:model.dat" (PKX's made-up entry) → "creature.pkx". */
void out_names_model_title(const ue_model_found *m, char *out, size_t cap);
/* The part of a model's address that names it (ue_model_title_length), its last component
 * without the extension, made a safe file name; "model" when nothing usable is left:
 * "d/objects.rlb:РОБОТ.msh" → "РОБОТ", "a.fsys:creature.pkx:model.dat" → "creature". */
void out_names_model_stem(const ue_model_found *m, char *stem, size_t cap);

#endif
