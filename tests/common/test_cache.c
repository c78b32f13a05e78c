/* unearth tests — the cache of companion lookups (src/common/cache.c): each key made once, a
 * "not found" (NULL) kept like any answer, values owned by the caller without a cache or past
 * its cap (which the kept values never pass), values made outside the lock, and four threads
 * asking for the same keys at once still make each one once. */
#define _DEFAULT_SOURCE /* strdup */
#include <pthread.h>
#include <unistd.h>

#include "common/cache.h"
#include "test.h"

typedef struct maker {
    int made[600];   /* how often each key number was made */
    bool shared_seen;
    pthread_mutex_t lock;
} maker;

static int key_number(const char *key) { return atoi(key + 1); }

/* "kN" → a malloc'd int N (N divisible by 5: NULL, the answer "absent"). */
static void *make_number(const char *key, void *arg, bool shared, size_t *bytes) {
    maker *m = arg;
    int n = key_number(key);
    pthread_mutex_lock(&m->lock);
    m->made[n]++;
    m->shared_seen = shared;
    pthread_mutex_unlock(&m->lock);
    if (n % 5 == 0) return NULL;
    int *v = malloc(sizeof *v);
    if (v) *v = n;
    *bytes = sizeof *v;
    return v;
}

static void key_of(int n, char *key) { snprintf(key, 16, "k%d", n); }

static void each_key_made_once(void) {
    maker m = {{0}, false, PTHREAD_MUTEX_INITIALIZER};
    ue_cache *c = ue_cache_new();
    REQUIRE(c != NULL);
    for (int round = 0; round < 3; round++)
        for (int n = 0; n < 600; n++) { /* past the first growth of the table (64 slots) */
            char key[16];
            key_of(n, key);
            bool owned = true;
            int *v = ue_cache_get(c, key, make_number, free, &m, &owned);
            CHECK(!owned);
            if (n % 5 == 0) CHECK(v == NULL);
            else if (v) CHECK_EQ_U(*v, n);
            else CHECK(v != NULL);
        }
    for (int n = 0; n < 600; n++) CHECK_EQ_U(m.made[n], 1);
    CHECK(m.shared_seen);
    ue_cache_free(c);
}

static void without_a_cache_the_caller_owns(void) {
    maker m = {{0}, true, PTHREAD_MUTEX_INITIALIZER};
    for (int round = 0; round < 2; round++) {
        bool owned = false;
        int *v = ue_cache_get(NULL, "k7", make_number, free, &m, &owned);
        CHECK(owned);
        REQUIRE(v != NULL);
        CHECK_EQ_U(*v, 7);
        free(v);
    }
    CHECK_EQ_U(m.made[7], 2); /* made for each call */
    CHECK(!m.shared_seen);
}

typedef struct asker {
    ue_cache *c;
    maker *m;
    int wrong;
} asker;

static void *ask_all(void *arg) {
    asker *a = arg;
    for (int n = 0; n < 600; n++) {
        char key[16];
        key_of((n * 7) % 600, key);
        bool owned;
        int *v = ue_cache_get(a->c, key, make_number, free, a->m, &owned);
        int want = (n * 7) % 600;
        if (owned || (want % 5 == 0 ? v != NULL : (!v || *v != want))) a->wrong++;
    }
    return NULL;
}

static void threads_share_one_answer(void) {
    maker m = {{0}, false, PTHREAD_MUTEX_INITIALIZER};
    ue_cache *c = ue_cache_new();
    REQUIRE(c != NULL);
    asker a[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        a[i] = (asker){c, &m, 0};
        REQUIRE(pthread_create(&t[i], NULL, ask_all, &a[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK_EQ_U(a[i].wrong, 0);
    }
    for (int n = 0; n < 600; n++) CHECK_EQ_U(m.made[n], 1);
    ue_cache_free(c);
}

/* A value that says it holds `bytes` (its own size does not matter to the cache). */
typedef struct sized {
    size_t bytes;
    int made;
    bool shared;
    ue_cache *ask; /* when set, make asks this cache for "inner" while it runs */
    bool inner_owned;
} sized;

static void *make_sized(const char *key, void *arg, bool shared, size_t *bytes) {
    sized *s = arg;
    s->made++;
    s->shared = shared;
    *bytes = s->bytes;
    if (s->ask) {
        sized inner = {1, 0, false, NULL, false};
        void *v = ue_cache_get(s->ask, "inner", make_sized, free, &inner, &s->inner_owned);
        if (s->inner_owned) free(v);
    }
    return strdup(key);
}

static bool ask_sized(ue_cache *c, const char *key, sized *s) {
    bool owned = false;
    char *v = ue_cache_get(c, key, make_sized, free, s, &owned);
    CHECK(v && !strcmp(v, key));
    if (owned) free(v);
    return owned;
}

/* Past the cap: a value that would take the kept bytes over it stays the caller's (the total
 * never passes the cap), is made again for each call, and `make` is told so once it is full. */
static void a_full_cache_hands_values_over(void) {
    ue_cache *c = ue_cache_new();
    REQUIRE(c != NULL);
    sized big = {UE_CACHE_MAX_BYTES - 1, 0, false, NULL, false};
    CHECK(!ask_sized(c, "big", &big));
    CHECK(!ask_sized(c, "big", &big));
    CHECK_EQ_U(big.made, 1);
    sized two = {2, 0, false, NULL, false}; /* one byte too many */
    CHECK(ask_sized(c, "two", &two));
    CHECK(two.shared); /* it might have been kept: the cap is checked once the size is known */
    CHECK(ask_sized(c, "two", &two));
    CHECK_EQ_U(two.made, 2);
    CHECK(!two.shared); /* known not to fit: made for the caller alone */
    sized one = {1, 0, false, NULL, false}; /* fits exactly */
    CHECK(!ask_sized(c, "one", &one));
    CHECK(!ask_sized(c, "one", &one));
    CHECK_EQ_U(one.made, 1);
    sized none = {0, 0, false, NULL, false}; /* full: even a value of no size is the caller's */
    CHECK(ask_sized(c, "none", &none));
    CHECK(ask_sized(c, "none", &none));
    CHECK_EQ_U(none.made, 2);
    CHECK(!none.shared);
    ue_cache_free(c);
}

/* `make` runs without the lock: a make that asks the same cache for another key gets its
 * answer (under the lock it deadlocked; the alarm ends the test instead of hanging). */
static void make_runs_outside_the_lock(void) {
    ue_cache *c = ue_cache_new();
    REQUIRE(c != NULL);
    alarm(60);
    sized outer = {1, 0, false, c, true};
    CHECK(!ask_sized(c, "outer", &outer));
    CHECK(!outer.inner_owned); /* "inner" (1 byte) was kept */
    sized rest = {UE_CACHE_MAX_BYTES - 2, 0, false, NULL, false};
    CHECK(!ask_sized(c, "rest", &rest)); /* the cache is full now */
    sized late = {1, 0, false, c, true};
    CHECK(ask_sized(c, "late", &late)); /* made for the caller, and its make asked the cache */
    CHECK(!late.shared);
    CHECK(!late.inner_owned);
    alarm(0);
    ue_cache_free(c);
}

int main(void) {
    RUN(each_key_made_once);
    RUN(without_a_cache_the_caller_owns);
    RUN(a_full_cache_hands_values_over);
    RUN(make_runs_outside_the_lock);
    RUN(threads_share_one_answer);
    ue_cache_free(NULL);
    return TEST_SUMMARY();
}
