/* Progress lines for long loads (load_progress.h). */
#include "load_progress.h"

void load_progress_start(load_progress *p, FILE *out, const char *what, double now) {
    *p = (load_progress){.out = out, .what = what, .start = now, .last = now};
}

void load_progress_report(load_progress *p, const char *stage, uint32_t done, uint32_t total, double now) {
    if (now - p->start < LOAD_PROGRESS_QUIET_SECONDS) return;
    if (p->reported && now - p->last < LOAD_PROGRESS_QUIET_SECONDS) return;
    fprintf(p->out, "kiln-render: loading %s: %s %u/%u (%.1f s)\n", p->what, stage, done, total, now - p->start);
    fflush(p->out);
    p->last = now;
    p->reported = true;
}

void load_progress_finish(load_progress *p, double now) {
    if (now - p->start < LOAD_PROGRESS_QUIET_SECONDS) return;
    fprintf(p->out, "kiln-render: loaded %s in %.1f s\n", p->what, now - p->start);
    fflush(p->out);
}
