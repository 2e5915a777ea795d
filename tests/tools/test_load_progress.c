/* kiln-render's progress lines (tools/load_progress.c) on a made-up clock: a load under a second
 * prints nothing, a long one a line at most once a second after its first second, with the stage
 * and count, and a closing line with its time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_progress.h"
#include "test.h"

#define CHECK_STR_EQ(got, want)                                                          \
    do {                                                                                 \
        const char *got_ = (got);                                                        \
        CHECK_MSG(got_ && strcmp(got_, (want)) == 0, "got \"%s\"", got_ ? got_ : "(null)"); \
    } while (0)

/* Runs `reports` (stage items at the given times) then finishes at `end`; returns what was written. */
static char *run(const double *times, int count, double end) {
    static char text[4096];
    FILE *f = fmemopen(text, sizeof text, "w");
    if (!f) return NULL;
    load_progress p;
    load_progress_start(&p, f, "Sponza.gltf", 100.0);
    for (int i = 0; i < count; i++) load_progress_report(&p, "images", (uint32_t)i + 1, (uint32_t)count, 100.0 + times[i]);
    load_progress_finish(&p, 100.0 + end);
    fclose(f);
    return text;
}

TEST(a_load_under_a_second_prints_nothing) {
    const double t[] = {0.1, 0.5, 0.9};
    CHECK_STR_EQ(run(t, 3, 0.95), "");
}

TEST(a_long_load_reports_once_a_second_after_the_first) {
    const double t[] = {0.5, 1.2, 1.5, 2.1, 2.3, 4.0};
    CHECK_STR_EQ(run(t, 6, 4.5), "kiln-render: loading Sponza.gltf: images 2/6 (1.2 s)\n"
                                 "kiln-render: loading Sponza.gltf: images 5/6 (2.3 s)\n"
                                 "kiln-render: loading Sponza.gltf: images 6/6 (4.0 s)\n"
                                 "kiln-render: loaded Sponza.gltf in 4.5 s\n");
}

TEST(a_load_slow_only_at_its_end_still_says_how_long_it_took) {
    const double t[] = {0.2};
    CHECK_STR_EQ(run(t, 1, 1.7), "kiln-render: loaded Sponza.gltf in 1.7 s\n");
}

TEST_MAIN(T(a_load_under_a_second_prints_nothing), T(a_long_load_reports_once_a_second_after_the_first),
          T(a_load_slow_only_at_its_end_still_says_how_long_it_took))
