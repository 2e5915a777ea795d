/* A minimal test harness: each test file is one executable holding several named tests.
 * A failed check prints file:line and the expression, marks the test failed and returns from it.
 * main() runs the tests given on the command line (or all) and prints "N passed, N failed". */
#ifndef KILN_TEST_H
#define KILN_TEST_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*kiln_test_fn)(void);
typedef struct { const char *name; kiln_test_fn fn; } kiln_test_case;

extern bool kiln_test_failed;
extern bool kiln_test_skipped;

#define CHECK(expr)                                                                     \
    do {                                                                                \
        if (!(expr)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #expr);   \
            kiln_test_failed = true;                                                    \
            return;                                                                     \
        }                                                                               \
    } while (0)

#define CHECK_MSG(expr, ...)                                                            \
    do {                                                                                \
        if (!(expr)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #expr);    \
            fprintf(stderr, __VA_ARGS__);                                               \
            fputc('\n', stderr);                                                        \
            kiln_test_failed = true;                                                    \
            return;                                                                     \
        }                                                                               \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                              \
    do {                                                                                \
        long long _a = (long long)(a), _b = (long long)(b);                             \
        if (_a != _b) {                                                                 \
            fprintf(stderr, "%s:%d: check failed: %s == %s (%lld != %lld)\n",           \
                    __FILE__, __LINE__, #a, #b, _a, _b);                                \
            kiln_test_failed = true;                                                    \
            return;                                                                     \
        }                                                                               \
    } while (0)

#define CHECK_NEAR(a, b, eps)                                                           \
    do {                                                                                \
        double _a = (double)(a), _b = (double)(b);                                      \
        if (!(fabs(_a - _b) <= (eps))) {                                                \
            fprintf(stderr, "%s:%d: check failed: %s ~= %s (%.9g vs %.9g, eps %g)\n",   \
                    __FILE__, __LINE__, #a, #b, _a, _b, (double)(eps));                 \
            kiln_test_failed = true;                                                    \
            return;                                                                     \
        }                                                                               \
    } while (0)

#define CHECK_STR_CONTAINS(haystack, needle)                                            \
    do {                                                                                \
        const char *_h = (haystack), *_n = (needle);                                    \
        if (!_h || !strstr(_h, _n)) {                                                   \
            fprintf(stderr, "%s:%d: check failed: \"%s\" does not contain \"%s\"\n",    \
                    __FILE__, __LINE__, _h ? _h : "(null)", _n);                        \
            kiln_test_failed = true;                                                    \
            return;                                                                     \
        }                                                                               \
    } while (0)

/* Marks the running test skipped, with the reason printed, and returns from it. */
#define SKIP(...)                                                                       \
    do {                                                                                \
        fprintf(stderr, "skipped: ");                                                   \
        fprintf(stderr, __VA_ARGS__);                                                   \
        fputc('\n', stderr);                                                            \
        kiln_test_skipped = true;                                                       \
        return;                                                                         \
    } while (0)

#define TEST(name) static void name(void)

/* Exit code 77 when every selected test skipped, so CTest reports the file as skipped. */
#define TEST_MAIN(...)                                                                  \
    bool kiln_test_failed;                                                              \
    bool kiln_test_skipped;                                                             \
    int main(int argc, char **argv) {                                                   \
        static const kiln_test_case cases[] = {__VA_ARGS__};                            \
        int passed = 0, failed = 0, skipped = 0;                                        \
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {                   \
            bool selected = argc < 2;                                                   \
            for (int a = 1; a < argc; a++)                                              \
                if (strcmp(argv[a], cases[i].name) == 0) selected = true;              \
            if (!selected) continue;                                                    \
            kiln_test_failed = false;                                                   \
            kiln_test_skipped = false;                                                  \
            cases[i].fn();                                                              \
            const char *verdict = kiln_test_failed ? "FAIL"                             \
                                : kiln_test_skipped ? "SKIP" : "ok";                    \
            printf("%-4s %s\n", verdict, cases[i].name);                                \
            fflush(stdout);                                                             \
            if (kiln_test_failed) failed++;                                             \
            else if (kiln_test_skipped) skipped++;                                      \
            else passed++;                                                              \
        }                                                                               \
        printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);          \
        if (failed) return 1;                                                           \
        return (passed == 0 && skipped > 0) ? 77 : 0;                                   \
    }

#define T(name) {#name, name}

#endif
