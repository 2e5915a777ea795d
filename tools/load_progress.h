/* Progress lines for a load that takes a while: nothing for the first second (most models load
 * faster, and their output stays one line), then at most one line a second naming the stage and
 * how far it is, and a last line with the total time. The clock is the caller's, so the rule is
 * tested without waiting (tests/tools/test_load_progress.c). */
#ifndef KILN_TOOLS_LOAD_PROGRESS_H
#define KILN_TOOLS_LOAD_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define LOAD_PROGRESS_QUIET_SECONDS 1.0 /* no line before this, none closer together than this */

typedef struct load_progress {
    FILE *out;
    const char *what;     /* the file's name, in every line */
    double start, last;   /* seconds on the caller's clock: when the load began, the last line */
    bool reported;        /* a progress line was written, so the load gets its closing line */
} load_progress;

void load_progress_start(load_progress *p, FILE *out, const char *what, double now);
/* `done` of `total` items of `stage` are finished at `now`: a line when one is due. */
void load_progress_report(load_progress *p, const char *stage, uint32_t done, uint32_t total, double now);
/* The load is over: a closing line with the time it took, when it took long enough for one. */
void load_progress_finish(load_progress *p, double now);

#endif
