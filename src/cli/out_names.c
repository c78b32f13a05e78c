/* unearth CLI — the one naming rule of outputs (docs/text.md#outputs-of-one-run): names given out
 * once per run, compared ignoring case; a later output that would meet one takes "~2", "~3", ... */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/out_names.h"
#include "common/text.h"
#include "unearth/gltf.h"
#include "unearth/model.h"
#include "unearth/obj.h"

/* ---- the set ----------------------------------------------------------------------------- */

ue_result out_names_init(out_names *n) {
    n->cap = 256;
    n->count = 0;
    n->slots = calloc(n->cap, sizeof *n->slots);
    return n->slots ? UE_OK : UE_ERR_NOMEM;
}

void out_names_free(out_names *n) {
    for (size_t i = 0; n->slots && i < n->cap; i++) {
        free(n->slots[i].key);
        free(n->slots[i].path);
    }
    free(n->slots);
    n->slots = NULL;
}

static out_name_slot *slot_of(out_name_slot *slots, size_t cap, const char *key) {
    size_t i = (size_t)ue_xxh64(key, strlen(key), 0) & (cap - 1);
    while (slots[i].key && strcmp(slots[i].key, key)) i = (i + 1) & (cap - 1);
    return &slots[i];
}

/* The folded key of `path`, malloc'd (as long as the path: ue_file_name_fold keeps lengths). */
static char *key_of(const char *path) {
    size_t len = strlen(path) + 1;
    char *key = malloc(len);
    if (key) ue_file_name_fold(path, key, len);
    return key;
}

int out_names_kind(const out_names *n, const char *path, const char **given) {
    char *key = key_of(path);
    const out_name_slot *s = key ? slot_of(n->slots, n->cap, key) : NULL;
    free(key);
    if (given) *given = s ? s->path : NULL;
    return s ? s->kind : 0;
}

static ue_result grow(out_names *n) {
    size_t cap = n->cap * 2;
    out_name_slot *slots = calloc(cap, sizeof *slots);
    if (!slots) return UE_ERR_NOMEM;
    for (size_t i = 0; i < n->cap; i++)
        if (n->slots[i].key) *slot_of(slots, cap, n->slots[i].key) = n->slots[i];
    free(n->slots);
    n->slots = slots;
    n->cap = cap;
    return UE_OK;
}

ue_result out_names_add(out_names *n, const char *path, int kind) {
    if ((n->count + 1) * 2 > n->cap && grow(n) != UE_OK) return UE_ERR_NOMEM;
    char *key = key_of(path);
    if (!key) return UE_ERR_NOMEM;
    out_name_slot *s = slot_of(n->slots, n->cap, key);
    if (s->key) {
        free(key);
        return UE_OK;
    }
    s->path = strdup(path);
    if (!s->path) {
        free(key);
        return UE_ERR_NOMEM;
    }
    s->key = key;
    s->kind = kind;
    n->count++;
    return UE_OK;
}

/* ---- one file and its companion ---------------------------------------------------------- */

void out_names_companion(const char *file, const char *ext, char *out, size_t cap) {
    out[0] = 0;
    if (!strcmp(ext, "obj")) ue_obj_mtl_file_name(file, out, cap);
    else if (!strcmp(ext, "gltf") && !ue_gltf_bin_path(file, out, cap)) out[0] = 0;
}

static bool is_free(const out_names *n, const char *path) {
    return !path[0] || !out_names_kind(n, path, NULL);
}

ue_result out_names_place_file(out_names *n, const char *dir, const char *stem, const char *ext,
                               char *out, size_t out_cap, char *companion, size_t companion_cap) {
    const char *sep = dir[0] ? "/" : "";
    for (unsigned again = 1; again < 1000000; again++) {
        char file[600], side[600];
        if (again == 1) snprintf(file, sizeof file, "%s.%s", stem, ext);
        else snprintf(file, sizeof file, "%s~%u.%s", stem, again, ext);
        out_names_companion(file, ext, side, sizeof side);
        int a = snprintf(out, out_cap, "%s%s%s", dir, sep, file);
        int b = side[0] ? snprintf(companion, companion_cap, "%s%s%s", dir, sep, side)
                        : snprintf(companion, companion_cap, "%s", "");
        if (a < 0 || b < 0 || (size_t)a >= out_cap || (size_t)b >= companion_cap) return UE_ERR_USAGE;
        if (!is_free(n, out) || !is_free(n, companion)) continue;
        ue_result r = out_names_add(n, out, OUT_NAME_FILE);
        if (r == UE_OK && companion[0]) r = out_names_add(n, companion, OUT_NAME_FILE);
        return r;
    }
    return UE_ERR_USAGE;
}

/* ---- a model's own name ------------------------------------------------------------------ */

void out_names_model_title(const char *address, char *out, size_t cap) {
    size_t end = ue_model_title_length(address), start = end;
    while (start > 0 && address[start - 1] != '/' && address[start - 1] != ':') start--;
    char part[512];
    snprintf(part, sizeof part, "%.*s", (int)(end - start), address + start);
    ue_utf8_copy(part, out, cap);
}

void out_names_model_stem(const char *address, char *stem, size_t cap) {
    char base[512];
    out_names_model_title(address, base, sizeof base);
    char *dot = strrchr(base, '.');
    if (dot && dot != base) *dot = 0;
    if (ue_file_name_component(base, stem, cap) == 0) snprintf(stem, cap, "model");
}
