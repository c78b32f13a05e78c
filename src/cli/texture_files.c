/* unearth CLI — texture files: the one naming rule (STEM.IMAGE.png) of `textures` and of the PNG
 * files beside a .obj or .gltf, and the distinct images of one output, encoded once each. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/texture_files.h"
#include "unearth/advanced/text.h"
#include "unearth/image.h"
#include "unearth/advanced/buffers.h"

/* Beyond ASCII only letters and signs stay: not C1 controls, not the Unicode spaces that a
 * language's split() would cut an MTL statement at. */
static bool keeps_wide(uint32_t cp) {
    if (cp <= 0xA0) return false;
    return cp != 0x1680 && !(cp >= 0x2000 && cp <= 0x200A) && cp != 0x2028 && cp != 0x2029 &&
           cp != 0x202F && cp != 0x205F && cp != 0x3000 && cp != 0xFEFF;
}

static bool keeps_ascii(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

void texture_file_part(const char *image, char *out, size_t cap) {
    size_t w = 0, n = strlen(image);
    for (size_t i = 0; i < n && w + 1 < cap;) {
        uint32_t cp = 0;
        size_t len = ue_utf8_decode(image + i, n - i, &cp);
        bool keep = len == 1 ? keeps_ascii(image[i]) : len > 1 && keeps_wide(cp);
        if (keep && w + len >= cap) break; /* cut between characters */
        if (keep) memcpy(out + w, image + i, len);
        else out[w] = '_';
        w += keep ? len : 1;
        i += len ? len : 1;
    }
    out[w] = 0;
    if (!w) snprintf(out, cap, "image");
}

ue_result texture_file_place(out_names *names, const char *stem, const char *image, char *out, size_t cap) {
    char part[256], base[600], none[8];
    texture_file_part(image, part, sizeof part);
    int n = snprintf(base, sizeof base, "%s.%s", stem, part);
    if (n < 0 || (size_t)n >= sizeof base) return UE_ERR_USAGE;
    return out_names_place_file(names, "", base, "png", out, cap, none, sizeof none);
}

/* ---- the files of one output ---------------------------------------------------------------- */

/* A texture as the search for equal images sorts it: by its pixels' hash, size and name. */
typedef struct image_key {
    uint64_t hash;
    uint32_t width, height;
    const char *name;
    size_t index;
} image_key;

static int key_order(const void *pa, const void *pb) {
    const image_key *a = pa, *b = pb;
    if (a->hash != b->hash) return a->hash < b->hash ? -1 : 1;
    if (a->width != b->width) return a->width < b->width ? -1 : 1;
    if (a->height != b->height) return a->height < b->height ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c) return c;
    return a->index < b->index ? -1 : a->index > b->index;
}

static bool same_image(const ue_scene *s, const image_key *a, const image_key *b) {
    return a->hash == b->hash && a->width == b->width && a->height == b->height && !strcmp(a->name, b->name) &&
           !memcmp(s->textures[a->index].rgba, s->textures[b->index].rgba, (size_t)a->width * a->height * 4);
}

/* Which textures get a file: every one, or the base colour of each material (what map_Kd names). */
static void mark_wanted(const ue_scene *s, bool map_kd_only, bool *wanted) {
    for (size_t t = 0; t < s->texture_count; t++) wanted[t] = !map_kd_only;
    for (size_t m = 0; map_kd_only && m < s->material_count; m++) {
        int32_t t = ue_scene_material_texture(&s->materials[m], UE_TEX_BASE_COLOR);
        if (t >= 0 && (size_t)t < s->texture_count) wanted[t] = true;
    }
}

/* first[t]: the lowest-numbered wanted texture with t's name and pixels (t itself when none
 * comes before it). Sorting keeps this n log n, whatever the count. */
static ue_result find_first_equal(const ue_scene *s, const bool *wanted, size_t *first) {
    image_key *keys = ue_malloc_items(s->texture_count, sizeof *keys);
    if (!keys) return UE_ERR_NOMEM;
    size_t n = 0;
    for (size_t t = 0; t < s->texture_count; t++) {
        first[t] = t;
        if (!wanted[t]) continue;
        const ue_scene_texture *tx = &s->textures[t];
        keys[n++] = (image_key){ue_xxh64(tx->rgba, (size_t)tx->width * tx->height * 4, 0), tx->width, tx->height,
                                tx->name, t};
    }
    qsort(keys, n, sizeof *keys, key_order);
    for (size_t i = 1; i < n; i++) {
        size_t run = i - 1; /* the run of equal images starts with its lowest index */
        if (same_image(s, &keys[run], &keys[i])) {
            first[keys[i].index] = first[keys[run].index];
            keys[i].index = first[keys[run].index];
        }
    }
    free(keys);
    return UE_OK;
}

/* Names and encodes texture t as the next file. */
static ue_result add_file(const ue_scene *s, size_t t, const char *stem, out_names *names, texture_files *out) {
    char name[600];
    ue_result r = texture_file_place(names, stem, s->textures[t].name, name, sizeof name);
    texture_file *f = &out->files[out->count];
    memset(f, 0, sizeof *f);
    if (r == UE_OK && !(f->name = strdup(name))) r = UE_ERR_NOMEM;
    if (r != UE_OK) return r;
    out->count++;
    out->of_texture[t] = f->name;
    const ue_scene_texture *tx = &s->textures[t];
    return ue_png_encode_rgba(tx->width, tx->height, tx->rgba, &f->png);
}

ue_result texture_files_make(const ue_scene *s, const char *stem, bool map_kd_only, texture_files *out) {
    memset(out, 0, sizeof *out);
    size_t n = s->texture_count ? s->texture_count : 1;
    out->of_texture = calloc(n, sizeof *out->of_texture);
    out->files = calloc(n, sizeof *out->files);
    bool *wanted = calloc(n, sizeof *wanted);
    size_t *first = calloc(n, sizeof *first);
    out_names names;
    ue_result r = out->of_texture && out->files && wanted && first ? out_names_init(&names) : UE_ERR_NOMEM;
    if (r == UE_OK) {
        mark_wanted(s, map_kd_only, wanted);
        r = find_first_equal(s, wanted, first);
        for (size_t t = 0; r == UE_OK && t < s->texture_count; t++) {
            if (!wanted[t]) continue;
            if (first[t] != t) out->of_texture[t] = out->of_texture[first[t]];
            else r = add_file(s, t, stem, &names, out);
        }
        out_names_free(&names);
    }
    free(wanted);
    free(first);
    return r;
}

void texture_files_free(texture_files *t) {
    for (size_t i = 0; t->files && i < t->count; i++) {
        free(t->files[i].name);
        ue_buf_free(&t->files[i].png);
    }
    free(t->files);
    free(t->of_texture);
    memset(t, 0, sizeof *t);
}
