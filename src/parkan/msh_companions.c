/* unearth — the files a converted MSH model reads beside it (its WEAR table, Material.lib,
 * Textures.lib), found and read once per ue_cache, so n models of one archive cost n lookups. */
#define _DEFAULT_SOURCE /* opendir, strcasecmp, strdup */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "archive/container.h"
#include "common/cache.h"
#include "common/io.h"
#include "common/text.h"
#include "parkan/msh_materials.h"
#include "unearth/archive.h"
#include "unearth/parkan_material.h"
#include "unearth/advanced/buffers.h"

#define MAX_LIBRARY_BYTES ((size_t)512 << 20)
#define MAX_KEPT_WEAR ((uint64_t)1 << 20)        /* one kept WEAR table; real ones hold a few rows */
#define MAX_KEPT_WEARS ((uint64_t)64 << 20)      /* every WEAR kept from one archive */
#define KEY_CAP 4200

/* "kind\na\nb\nc" into `key`; false when it does not fit (the lookup then goes uncached). */
static bool cache_key(char *key, const char *kind, const char *a, const char *b, const char *c) {
    int n = snprintf(key, KEY_CAP, "%s\n%s\n%s\n%s", kind, a, b, c);
    return n > 0 && n < KEY_CAP;
}

/* Names sorted case-insensitively, equal ones in their original order, so a binary search
 * finds what a scan in that order finds first. */
typedef struct named {
    char *name;
    size_t order;
    uint8_t *data;  /* a WEAR entry's bytes (NULL for a folder's names) */
    size_t size;
    bool unread;    /* a WEAR entry too big to keep: read when asked for */
} named;

typedef struct name_index {
    named *items;
    size_t count;
} name_index;

static int named_compare(const void *a, const void *b) {
    const named *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The first item named `name` in any letter case, or NULL. */
static const named *index_find(const name_index *ix, const char *name) {
    size_t lo = 0, hi = ix ? ix->count : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcasecmp(ix->items[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return ix && lo < ix->count && strcasecmp(ix->items[lo].name, name) == 0 ? &ix->items[lo] : NULL;
}

/* The new last item, zeroed but for its name and order; NULL when out of memory. */
static named *index_add(name_index *ix, size_t *cap, const char *name, size_t order) {
    if (ix->count == *cap) {
        size_t n = *cap ? 2 * *cap : 16;
        named *grown = realloc(ix->items, n * sizeof *grown);
        if (!grown) return NULL;
        ix->items = grown, *cap = n;
    }
    char *copy = strdup(name);
    if (!copy) return NULL;
    ix->items[ix->count] = (named){copy, order, NULL, 0, false};
    return &ix->items[ix->count++];
}

static void index_drop(void *value) {
    name_index *ix = value;
    if (!ix) return;
    for (size_t i = 0; i < ix->count; i++) free(ix->items[i].name), free(ix->items[i].data);
    free(ix->items);
    free(ix);
}

/* The index sorted for index_find when it was built whole (ok), else freed: NULL. */
static name_index *index_finish(name_index *ix, bool ok) {
    if (!ok) {
        index_drop(ix);
        return NULL;
    }
    if (ix->count) qsort(ix->items, ix->count, sizeof *ix->items, named_compare);
    return ix;
}

/* ---- folders ------------------------------------------------------------------------------ */

/* Every name in folder `arg`; NULL when it cannot be listed. */
static void *make_listing(const char *key, void *arg, bool shared, size_t *bytes) {
    (void)key, (void)shared;
    DIR *dp = opendir(arg);
    if (!dp) return NULL;
    name_index *ix = calloc(1, sizeof *ix);
    size_t cap = 0;
    bool ok = ix != NULL;
    for (struct dirent *e; ok && (e = readdir(dp)) != NULL;) {
        ok = index_add(ix, &cap, e->d_name, ix->count) != NULL;
        *bytes += sizeof(named) + strlen(e->d_name) + 1;
    }
    closedir(dp);
    return index_finish(ix, ok);
}

static bool find_file_cached(ue_cache *c, const char *dir, const char *name, char *out, size_t cap) {
    const char *folder = dir && dir[0] ? dir : ".";
    char key[KEY_CAP] = "";
    if (!c || !cache_key(key, "parkan.dir", folder, "", "")) return ue_parkan_find_file(dir, name, out, cap);
    bool owned;
    name_index *ix = ue_cache_get(c, key, make_listing, index_drop, (void *)folder, &owned);
    const named *hit = index_find(ix, name);
    int n = hit ? snprintf(out, cap, "%s/%s", folder, hit->name) : -1;
    if (owned) index_drop(ix);
    return n > 0 && (size_t)n < cap;
}

/* ---- libraries ----------------------------------------------------------------------------- */

typedef struct library_query {
    const char *data_dir, *model_dir, *name;
} library_query;

/* The path of the library `arg` asks for, or NULL when absent. */
static void *make_library_path(const char *key, void *arg, bool shared, size_t *bytes) {
    (void)key, (void)shared;
    const library_query *q = arg;
    char path[1024];
    if (!ue_parkan_find_library(q->data_dir, q->model_dir, q->name, path, sizeof path)) return NULL;
    *bytes = strlen(path) + 1;
    return strdup(path);
}

bool ue_parkan_library_path(ue_cache *c, const char *data_dir, const char *model_dir, const char *name,
                            char *out, size_t cap) {
    library_query q = {data_dir, model_dir, name};
    char key[KEY_CAP] = "";
    /* --data absent and --data "" differ: "" is the current folder. */
    char data[KEY_CAP];
    snprintf(data, sizeof data, "%c%s", data_dir ? '+' : '-', data_dir ? data_dir : "");
    bool owned;
    char *path = ue_cache_get(cache_key(key, "parkan.find", data, model_dir, name) ? c : NULL, key,
                              make_library_path, free, &q, &owned);
    int n = path ? snprintf(out, cap, "%s", path) : -1;
    if (owned) free(path);
    return n > 0 && (size_t)n < cap;
}

void ue_parkan_library_drop(void *value) {
    ue_parkan_library *lib = value;
    if (!lib) return;
    ue_nres_free(&lib->nres);
    free(lib->bytes);
    free(lib);
}

/* The library file `arg` read and its directory parsed; NULL when it is no readable NRes. */
static void *make_library(const char *key, void *arg, bool shared, size_t *bytes) {
    (void)key, (void)shared;
    ue_parkan_library *lib = calloc(1, sizeof *lib);
    size_t size;
    if (!lib || ue_file_read(arg, MAX_LIBRARY_BYTES, &lib->bytes, &size, NULL) != UE_OK) {
        free(lib);
        return NULL;
    }
    lib->src = ue_source_memory(lib->bytes, size);
    if (ue_nres_parse(&lib->src, UE_MODE_TOLERANT, &lib->nres, NULL) != UE_OK) {
        free(lib->bytes);
        free(lib);
        return NULL;
    }
    *bytes = size + lib->nres.count * sizeof *lib->nres.entries;
    return lib;
}

const ue_parkan_library *ue_parkan_library_get(ue_cache *c, const char *path, ue_parkan_library **owned) {
    char key[KEY_CAP] = "";
    bool mine;
    ue_parkan_library *lib = ue_cache_get(cache_key(key, "parkan.library", path, "", "") ? c : NULL, key,
                                          make_library, ue_parkan_library_drop, (void *)path, &mine);
    *owned = mine ? lib : NULL;
    return lib;
}

/* ---- WEAR tables in archives ------------------------------------------------------------ */

typedef struct wear_query {
    const char *archive, *name;
} wear_query;

static bool is_wear_name(const char *name) { return ue_name_has_ext(name, ".wea"); }

/* Shared: every entry of the archive named *.wea, with its bytes when they are small enough to
 * keep; otherwise (one model's lookup) the first readable entry named q->name. NULL when the
 * archive cannot be opened. */
static void *make_wear_index(const char *key, void *arg, bool shared, size_t *bytes) {
    (void)key;
    const wear_query *q = arg;
    ue_archive *a;
    if (ue_archive_open(q->archive, UE_MODE_TOLERANT, &a, NULL) != UE_OK) return NULL;
    name_index *ix = calloc(1, sizeof *ix);
    size_t cap = 0;
    uint64_t kept = 0;
    bool ok = ix != NULL;
    for (size_t i = 0; ok && i < ue_archive_count(a) && (shared || !ix->count); i++) {
        ue_entry_info info;
        ue_archive_entry(a, i, &info);
        if (shared ? !is_wear_name(info.name) : strcasecmp(info.name, q->name) != 0) continue;
        uint8_t *data = NULL;
        size_t size = 0;
        bool keep = !shared || (info.size <= MAX_KEPT_WEAR && kept + info.size <= MAX_KEPT_WEARS);
        /* An unreadable entry is passed over, as the engine's lookup would find the next. */
        if (keep && ue_archive_read(a, i, &data, &size, NULL) != UE_OK) continue;
        kept += size;
        named *item = index_add(ix, &cap, info.name, i);
        ok = item != NULL;
        if (item) item->data = data, item->size = size, item->unread = !keep;
        else free(data);
        *bytes += sizeof(named) + strlen(info.name) + 1 + size;
    }
    ue_archive_close(a);
    return index_finish(ix, ok);
}

/* The WEAR entry `name` of ARCHIVE in origin ARCHIVE:ENTRY, copied to *data. */
static bool wear_in_archive(ue_cache *c, const char *origin, const char *name, uint8_t **data, size_t *size,
                            char *where, size_t cap) {
    ue_address at;
    char archive[1024];
    if (ue_address_split(origin, 0, &at) == UE_ERR_USAGE || !at.last_entry || at.parent_length >= sizeof archive)
        return false;
    snprintf(archive, sizeof archive, "%.*s", (int)at.parent_length, origin);
    snprintf(where, cap, "%s", archive);
    wear_query q = {archive, name};
    char key[KEY_CAP] = "";
    /* The shared index holds *.wea names only. */
    bool cached = is_wear_name(name) && cache_key(key, "parkan.wear", archive, "", "");
    bool owned;
    name_index *ix = ue_cache_get(cached ? c : NULL, key, make_wear_index, index_drop, &q, &owned);
    const named *hit = index_find(ix, name);
    bool found = false;
    if (hit && hit->unread) {
        found = wear_in_archive(NULL, origin, name, data, size, where, cap);
    } else if (hit && (*data = ue_malloc_items(hit->size, 1)) != NULL) {
        if (hit->size) memcpy(*data, hit->data, hit->size);
        *size = hit->size;
        found = true;
    }
    if (owned) index_drop(ix);
    return found;
}

bool ue_parkan_wear_read(ue_cache *c, const char *origin, const char *model_dir, const char *name, uint8_t **data,
                         size_t *size, char *where, size_t cap) {
    ue_address at;
    if (ue_address_split(origin, 0, &at) != UE_ERR_USAGE && at.last_entry)
        return wear_in_archive(c, origin, name, data, size, where, cap);
    char path[1024];
    snprintf(where, cap, "%s", model_dir);
    return find_file_cached(c, model_dir, name, path, sizeof path) &&
           ue_file_read(path, MAX_LIBRARY_BYTES, data, size, NULL) == UE_OK;
}

/* ---- a WEAR table named by the user (convert --wear) ---------------------------------------- */

ue_result ue_wear_load(const char *address, ue_mode mode, ue_wear *out, ue_diag *d) {
    memset(out, 0, sizeof *out);
    uint8_t *data = NULL;
    size_t size = 0;
    ue_result r = ue_archive_read_address(address, mode, MAX_LIBRARY_BYTES, &data, &size, d);
    if (r == UE_OK) r = ue_wear_parse(data, size, 0, mode, out, d);
    free(data);
    if (r == UE_OK && out->material_count == 0) {
        /* Tolerant reading of text that is no WEAR: nothing a batch could name. */
        ue_diag_add(d, UE_SEV_ERROR, "wear.rows.none", 0, "wear", "no material row: this is no WEAR table");
        ue_wear_free(out);
        r = UE_ERR_INVALID;
    }
    return r;
}
