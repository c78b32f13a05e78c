/* unearth tests — the cache of companion lookups (src/common/cache.c): each key made once, a
 * "not found" (NULL) kept like any answer, values owned by the caller without a cache, and
 * four threads asking for the same keys at once still make each one once. */
#include <pthread.h>

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

int main(void) {
    RUN(each_key_made_once);
    RUN(without_a_cache_the_caller_owns);
    RUN(threads_share_one_answer);
    ue_cache_free(NULL);
    return TEST_SUMMARY();
}
