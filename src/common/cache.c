/* unearth — the cache of companion lookups: a hash table from keys to values made once, behind
 * one mutex, so threads converting models of one run share each companion file read. */
#define _DEFAULT_SOURCE /* strdup */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/cache.h"

typedef struct cache_item {
    char *key;
    void *value;
    ue_cache_drop_fn drop;
} cache_item;

struct ue_cache {
    pthread_mutex_t lock;
    cache_item *items;   /* in the order they were made */
    size_t count, cap;
    size_t *slots;       /* open addressing: item index + 1, 0 when free; size a power of two */
    size_t slot_count;
    size_t bytes;        /* what the kept values say they hold */
};

ue_cache *ue_cache_new(void) {
    ue_cache *c = calloc(1, sizeof *c);
    if (c && pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        c = NULL;
    }
    return c;
}

void ue_cache_free(ue_cache *c) {
    if (!c) return;
    for (size_t i = 0; i < c->count; i++) {
        if (c->items[i].value && c->items[i].drop) c->items[i].drop(c->items[i].value);
        free(c->items[i].key);
    }
    free(c->items);
    free(c->slots);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static size_t slot_of(const ue_cache *c, const char *key) {
    size_t mask = c->slot_count - 1, s = (size_t)ue_xxh64(key, strlen(key), 0) & mask;
    while (c->slots[s] && strcmp(c->items[c->slots[s] - 1].key, key) != 0) s = (s + 1) & mask;
    return s;
}

/* Keeps the table at most half full; false when out of memory. */
static bool grow_slots(ue_cache *c) {
    if (2 * (c->count + 1) <= c->slot_count) return true;
    size_t n = c->slot_count ? 2 * c->slot_count : 64;
    size_t *old = c->slots, old_count = c->slot_count;
    c->slots = calloc(n, sizeof *c->slots);
    if (!c->slots) {
        c->slots = old;
        return false;
    }
    c->slot_count = n;
    for (size_t s = 0; s < old_count; s++)
        if (old[s]) c->slots[slot_of(c, c->items[old[s] - 1].key)] = old[s];
    free(old);
    return true;
}

/* Files `value` under `key`; false (nothing kept) when out of memory. */
static bool keep(ue_cache *c, const char *key, void *value, ue_cache_drop_fn drop, size_t bytes) {
    if (!grow_slots(c)) return false;
    if (c->count == c->cap) {
        size_t n = c->cap ? 2 * c->cap : 32;
        cache_item *grown = realloc(c->items, n * sizeof *grown);
        if (!grown) return false;
        c->items = grown, c->cap = n;
    }
    char *copy = strdup(key);
    if (!copy) return false;
    c->items[c->count] = (cache_item){copy, value, drop};
    c->slots[slot_of(c, key)] = ++c->count;
    c->bytes += bytes;
    return true;
}

void *ue_cache_get(ue_cache *c, const char *key, ue_cache_make_fn make, ue_cache_drop_fn drop, void *arg,
                   bool *owned) {
    size_t bytes = 0;
    *owned = true;
    if (!c) return make(key, arg, false, &bytes);
    pthread_mutex_lock(&c->lock);
    if (c->slot_count) {
        size_t s = slot_of(c, key);
        if (c->slots[s]) {
            void *v = c->items[c->slots[s] - 1].value;
            pthread_mutex_unlock(&c->lock);
            *owned = false;
            return v;
        }
    }
    bool room = c->bytes < UE_CACHE_MAX_BYTES;
    void *v = make(key, arg, room, &bytes);
    if (room && keep(c, key, v, drop, bytes)) *owned = false;
    pthread_mutex_unlock(&c->lock);
    return v;
}
