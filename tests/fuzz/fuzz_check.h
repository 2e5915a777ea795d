/* FUZZ_CHECK: an assertion the fuzz targets keep in every build type (assert() vanishes under
 * NDEBUG, which RelWithDebInfo defines). A broken promise aborts, and libFuzzer keeps the input. */
#ifndef KILN_FUZZ_CHECK_H
#define KILN_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond)                                                                         \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);             \
            abort();                                                                             \
        }                                                                                        \
    } while (0)

#endif
