/* unearth — the cache of companion lookups: a hash table from keys to values made once (the
 * table behind one mutex, each value made outside it), so threads converting models of one run
 * share each companion file read. */
#define _DEFAULT_SOURCE /* strdup */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/cache.h"

/* An item is filed before its value is made, so that a second caller of the same key waits for
 * it instead of making it again. */
typedef enum item_state {
    ITEM_MAKING, /* one caller makes the value, without the lock; others wait on `made` */
    ITEM_KEPT,   /* the value is the cache's */
    ITEM_TOO_BIG /* the value did not fit under UE_CACHE_MAX_BYTES: every caller makes its own */
} item_state;

typedef struct cache_item {
    char *key;
    void *value;
    ue_cache_drop_fn drop;
    item_state state;
} cache_item;

struct ue_cache {
    pthread_mutex_t lock;
    pthread_cond_t made; /* an item left ITEM_MAKING */
    cache_item *items;   /* in the order they were made */
    size_t count, cap;
    size_t *slots;       /* open addressing: item index + 1, 0 when free; size a power of two */
    size_t slot_count;
    size_t bytes;        /* what the kept values say they hold */
};

ue_cache *ue_cache_new(void) {
    ue_cache *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    if (pthread_mutex_init(&c->lock, NULL) != 0) {
        free(c);
        return NULL;
    }
    if (pthread_cond_init(&c->made, NULL) != 0) {
        pthread_mutex_destroy(&c->lock);
        free(c);
        return NULL;
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
    pthread_cond_destroy(&c->made);
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

/* Files `key` as being made; the item's index + 1, 0 (nothing filed) when out of memory. */
static size_t file_making(ue_cache *c, const char *key) {
    if (!grow_slots(c)) return 0;
    if (c->count == c->cap) {
        size_t n = c->cap ? 2 * c->cap : 32;
        cache_item *grown = realloc(c->items, n * sizeof *grown);
        if (!grown) return 0;
        c->items = grown, c->cap = n;
    }
    char *copy = strdup(key);
    if (!copy) return 0;
    c->items[c->count] = (cache_item){copy, NULL, NULL, ITEM_MAKING};
    c->slots[slot_of(c, key)] = ++c->count;
    return c->count;
}

/* The value made for item `at` (its index + 1) is kept when it fits under the cap; false when
 * it does not and stays the maker's. */
static bool settle(ue_cache *c, size_t at, void *value, ue_cache_drop_fn drop, size_t bytes) {
    cache_item *it = &c->items[at - 1];
    bool fits = bytes <= UE_CACHE_MAX_BYTES - c->bytes; /* c->bytes never passes the cap */
    it->state = fits ? ITEM_KEPT : ITEM_TOO_BIG;
    if (fits) {
        it->value = value, it->drop = drop;
        c->bytes += bytes;
    }
    pthread_cond_broadcast(&c->made);
    return fits;
}

void *ue_cache_get(ue_cache *c, const char *key, ue_cache_make_fn make, ue_cache_drop_fn drop, void *arg,
                   bool *owned) {
    size_t bytes = 0;
    *owned = true;
    if (!c) return make(key, arg, false, &bytes);
    pthread_mutex_lock(&c->lock);
    size_t at = c->slot_count ? c->slots[slot_of(c, key)] : 0;
    while (at && c->items[at - 1].state == ITEM_MAKING) pthread_cond_wait(&c->made, &c->lock);
    if (at && c->items[at - 1].state == ITEM_KEPT) {
        void *v = c->items[at - 1].value;
        pthread_mutex_unlock(&c->lock);
        *owned = false;
        return v;
    }
    /* A new key is filed as being made while the cache has room; a key whose value did not fit,
     * or any key once the cache is full, is made for this caller alone. */
    size_t mine = !at && c->bytes < UE_CACHE_MAX_BYTES ? file_making(c, key) : 0;
    pthread_mutex_unlock(&c->lock);
    void *v = make(key, arg, mine != 0, &bytes);
    if (!mine) return v;
    pthread_mutex_lock(&c->lock);
    *owned = !settle(c, mine, v, drop, bytes);
    pthread_mutex_unlock(&c->lock);
    return v;
}
