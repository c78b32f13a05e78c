/* Benchmark: the project's arena JSON reader (common/json_doc) on the two large documents unearth
 * reads, a 20,000-entry NRes manifest and the glTF JSON of a big HSD model, next to jansson when
 * it is installed (UE_BENCH_JANSSON: the comparison behind the choice; unearth does not use it). */
#define _DEFAULT_SOURCE
#ifdef UE_BENCH_JANSSON
#include <jansson.h>
#endif
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/json_doc.h"
#include "common/json_writer.h"
#include "unearth/gltf.h"
#include "unearth/model.h"

#include "hsd_big_model.h"

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define ENTRIES 20000

/* The entries' text, made once so that writing the manifest times the writer alone. */
static char names[ENTRIES][24], hexes[ENTRIES][40], files[ENTRIES][48];

static void make_strings(void) {
    for (size_t i = 0; i < ENTRIES; i++) {
        snprintf(names[i], sizeof names[i], "entry_%05zu.tex", i);
        for (size_t k = 0; k < 18; k++) snprintf(hexes[i] + 2 * k, 3, "%02x", (unsigned)names[i][k % 15]);
        snprintf(files[i], sizeof files[i], "entries/%05zu_%s", i, names[i]);
    }
}

/* A manifest of the shape NRes extract writes: 13 keys per entry. */
static void make_manifest(ue_buf *out, size_t entries) {
    ue_json w;
    ue_json_init_lines(&w, out);
    ue_json_object_begin(&w);
    ue_json_key_int(&w, "unearth_manifest", 1);
    ue_json_key_string(&w, "format", "nres");
    ue_json_key(&w, "entries");
    ue_json_array_begin(&w);
    for (size_t i = 0; i < entries; i++) {
        ue_json_object_begin(&w);
        ue_json_key_int(&w, "index", (int64_t)i);
        ue_json_key_string(&w, "name", names[i]);
        ue_json_key_string(&w, "name_hex", hexes[i]);
        ue_json_key_string(&w, "type", "Texm");
        ue_json_key_int(&w, "type_id", 1836344660);
        ue_json_key_int(&w, "attr1", 0);
        ue_json_key_int(&w, "attr2", 0);
        ue_json_key_int(&w, "attr3", 1);
        ue_json_key_int(&w, "size", 5000);
        ue_json_key_int(&w, "data_offset", (int64_t)(16 + i * 5000));
        ue_json_key_int(&w, "sort_index", (int64_t)i);
        ue_json_key_string(&w, "file", files[i]);
        ue_json_key_string(&w, "xxh64", "0123456789abcdef");
        ue_json_object_end(&w);
    }
    ue_json_array_end(&w);
    ue_json_object_end(&w);
}

/* The JSON part of a .gltf of a big HSD model (many joints, meshes and clips). */
static int make_gltf(ue_buf *out) {
    hsd_big_shape shape = {480, 200, 8, 4, 48, 120};
    ue_buf dat = {0}, bin = {0};
    if (hsd_big_model_dat(&shape, &dat) != UE_OK) return 1;
    ue_model_found *found = NULL;
    size_t count = 0;
    ue_scene s;
    ue_scene_init(&s);
    ue_gltf_options o = {0};
    o.format = UE_GLTF_SEPARATE;
    int rc = ue_model_collect_memory(dat.data, dat.size, "big.dat", UE_MODE_STRICT, &found, &count, NULL) != UE_OK ||
             count == 0 || ue_model_to_scene(&found[0], "big", UE_MODE_STRICT, NULL, &s, NULL) != UE_OK ||
             ue_gltf_export(&s, &o, out, &bin, NULL) != UE_OK;
    ue_scene_free(&s);
    ue_model_found_free(found, count);
    ue_buf_free(&dat);
    ue_buf_free(&bin);
    return rc;
}

/* Every number and string length summed, so both readers' trees are walked fully. */
static double walk_doc(const ue_jv *v) {
    double sum = 0;
    switch (v->kind) {
    case UE_JV_INTEGER: return (double)v->u.integer;
    case UE_JV_REAL: return v->u.real;
    case UE_JV_STRING: return (double)v->count;
    case UE_JV_ARRAY:
        for (size_t i = 0; i < v->count; i++) sum += walk_doc(&v->u.items[i]);
        return sum;
    case UE_JV_OBJECT:
        for (size_t i = 0; i < v->count; i++) sum += walk_doc(&v->u.members[i].value);
        return sum;
    default: return 0;
    }
}

#ifdef UE_BENCH_JANSSON
static double walk_jansson(json_t *v) {
    double sum = 0;
    size_t i;
    const char *k;
    json_t *x;
    switch (json_typeof(v)) {
    case JSON_INTEGER: return (double)json_integer_value(v);
    case JSON_REAL: return json_real_value(v);
    case JSON_STRING: return (double)json_string_length(v);
    case JSON_ARRAY: json_array_foreach(v, i, x) sum += walk_jansson(x); return sum;
    case JSON_OBJECT: json_object_foreach(v, k, x) sum += walk_jansson(x); return sum;
    default: return 0;
    }
}
#endif

static int compare(const char *what, const ue_buf *text, int rounds) {
    double t_doc = 0, t_jan = 0, s_doc = 0, s_jan = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        ue_jdoc doc;
        if (ue_jdoc_parse((const char *)text->data, text->size, &doc, NULL) != UE_OK) return 1;
        s_doc = walk_doc(&doc.root);
        ue_jdoc_free(&doc);
        double t1 = now();
#ifdef UE_BENCH_JANSSON
        json_t *j = json_loadb((const char *)text->data, text->size, JSON_REJECT_DUPLICATES, NULL);
        if (!j) return 1;
        s_jan = walk_jansson(j);
        json_decref(j);
#else
        s_jan = s_doc;
#endif
        double t2 = now();
        t_doc += t1 - t0;
        t_jan += t2 - t1;
    }
    double mb = (double)text->size * rounds / 1e6;
#ifdef UE_BENCH_JANSSON
    printf("%-22s %8.2f MB  json_doc %7.1f MB/s  jansson %7.1f MB/s  jansson/json_doc %.2fx%s\n", what,
           (double)text->size / 1e6, mb / t_doc, mb / t_jan, t_jan / t_doc,
           s_doc == s_jan ? "" : "  (walks differ!)");
#else
    (void)t_jan, (void)s_jan;
    printf("%-22s %8.2f MB  json_doc %7.1f MB/s\n", what, (double)text->size / 1e6, mb / t_doc);
#endif
    return 0;
}

#ifdef UE_BENCH_JANSSON
/* Writing the manifest: the project's writer (ue_json_init_lines) next to jansson printing the
 * same document from its tree (tree already built, as extract used to have it). */
static int compare_writers(int rounds) {
    double t_ours = 0, t_jan = 0;
    size_t bytes = 0;
    for (int r = 0; r < rounds; r++) {
        ue_buf text = {0};
        double t0 = now();
        make_manifest(&text, ENTRIES);
        double t1 = now();
        json_t *tree = json_loadb((const char *)text.data, text.size, 0, NULL);
        if (!tree) return 1;
        double t2 = now();
        char *dumped = json_dumps(tree, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        double t3 = now();
        bool same = dumped && strlen(dumped) == text.size && !memcmp(dumped, text.data, text.size);
        free(dumped);
        json_decref(tree);
        bytes = text.size;
        ue_buf_free(&text);
        if (!same) return 1;
        t_ours += t1 - t0;
        t_jan += t3 - t2;
    }
    double mb = (double)bytes * rounds / 1e6;
    printf("%-22s %8.2f MB  writer   %7.1f MB/s  jansson %7.1f MB/s  (same bytes)\n", "manifest written",
           (double)bytes / 1e6, mb / t_ours, mb / t_jan);
    return 0;
}
#else
static int compare_writers(int rounds) {
    double t = 0;
    size_t bytes = 0;
    for (int r = 0; r < rounds; r++) {
        ue_buf text = {0};
        double t0 = now();
        make_manifest(&text, ENTRIES);
        t += now() - t0;
        bytes = text.size;
        ue_buf_free(&text);
    }
    printf("%-22s %8.2f MB  writer   %7.1f MB/s\n", "manifest written", (double)bytes / 1e6,
           (double)bytes * rounds / 1e6 / t);
    return 0;
}
#endif

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 5;
    if (rounds < 1) rounds = 1;
    ue_buf manifest = {0}, gltf = {0};
    make_strings();
    make_manifest(&manifest, ENTRIES);
    if (make_gltf(&gltf) != 0) {
        fprintf(stderr, "bench_json: could not build the glTF\n");
        return 1;
    }
    printf("parse + walk every value, %d rounds, CPU time of this process\n", rounds);
    int rc = compare("manifest (20,000 NRes)", &manifest, rounds) | compare("glTF JSON (big HSD)", &gltf, rounds) |
             compare_writers(rounds);
    ue_buf_free(&manifest);
    ue_buf_free(&gltf);
    return rc;
}
