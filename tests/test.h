/* unearth tests — a minimal harness: each test file is one executable with several cases;
 * failures print file:line and the values compared, and the program ends with a summary. */
#ifndef UE_TEST_H
#define UE_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unearth/common.h"

static int ue_test_failed_checks;
static int ue_test_cases_passed, ue_test_cases_failed;

#define CHECK(cond)                                                                           \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);           \
            ue_test_failed_checks++;                                                          \
        }                                                                                     \
    } while (0)

#define CHECK_EQ_U(a, b)                                                                      \
    do {                                                                                      \
        unsigned long long ue_a_ = (unsigned long long)(a), ue_b_ = (unsigned long long)(b);   \
        if (ue_a_ != ue_b_) {                                                                 \
            fprintf(stderr, "%s:%d: %s == %s failed: 0x%llx (%llu) != 0x%llx (%llu)\n",        \
                    __FILE__, __LINE__, #a, #b, ue_a_, ue_a_, ue_b_, ue_b_);                  \
            ue_test_failed_checks++;                                                          \
        }                                                                                     \
    } while (0)

#define CHECK_STR(a, b)                                                                       \
    do {                                                                                      \
        const char *ue_a_ = (a), *ue_b_ = (b);                                                \
        if (!ue_a_ || !ue_b_ || strcmp(ue_a_, ue_b_) != 0) {                                  \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
                    #a, #b, ue_a_ ? ue_a_ : "(null)", ue_b_ ? ue_b_ : "(null)");              \
            ue_test_failed_checks++;                                                          \
        }                                                                                     \
    } while (0)

#define CHECK_MEM(a, b, n)                                                                    \
    do {                                                                                      \
        if (memcmp((a), (b), (n)) != 0) {                                                     \
            fprintf(stderr, "%s:%d: %s and %s differ in their first %zu bytes\n", __FILE__,   \
                    __LINE__, #a, #b, (size_t)(n));                                           \
            ue_test_failed_checks++;                                                          \
        }                                                                                     \
    } while (0)

/* A fatal check: stops the current case (use inside a TEST body only). */
#define REQUIRE(cond)                                                                         \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            fprintf(stderr, "%s:%d: REQUIRE failed: %s\n", __FILE__, __LINE__, #cond);         \
            ue_test_failed_checks++;                                                          \
            return;                                                                           \
        }                                                                                     \
    } while (0)

#define RUN(fn)                                                                               \
    do {                                                                                      \
        int ue_before_ = ue_test_failed_checks;                                               \
        fn();                                                                                 \
        if (ue_test_failed_checks == ue_before_) {                                            \
            ue_test_cases_passed++;                                                           \
        } else {                                                                              \
            ue_test_cases_failed++;                                                           \
            fprintf(stderr, "FAIL %s\n", #fn);                                                \
        }                                                                                     \
    } while (0)

/* ---- diagnostics ---------------------------------------------------------------------------- */

/* The first diagnostic with `code` and `path` (NULL: any), or NULL. */
static inline const ue_diag_item *diag_find(const ue_diag *d, const char *code, const char *path) {
    for (size_t i = 0; i < d->count; i++)
        if ((!code || strcmp(d->items[i].code, code) == 0) &&
            (!path || strcmp(d->items[i].path, path) == 0))
            return &d->items[i];
    return NULL;
}

static inline bool diag_has(const ue_diag *d, const char *code, const char *path) {
    return diag_find(d, code, path) != NULL;
}

static inline bool has_code(const ue_diag *d, const char *code) {
    return diag_find(d, code, NULL) != NULL;
}

/* Prints every diagnostic, to see why a check failed. */
static inline void dump_diag(const ue_diag *d) {
    for (size_t i = 0; i < d->count; i++) {
        char line[600];
        ue_diag_format(&d->items[i], line, sizeof line);
        fprintf(stderr, "  %s\n", line);
    }
}

#define TEST_SUMMARY()                                                                        \
    (printf("%d passed, %d failed\n", ue_test_cases_passed, ue_test_cases_failed),            \
     ue_test_cases_failed ? 1 : 0)

#endif
