/* kiln-render --batch (kiln_render_batch.h): the command line, the shard, --resume, the report
 * and the progress; the rendering itself is batch_renderer.c's. */
#include "kiln_render_batch.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch_manifest.h"
#include "batch_output.h"
#include "batch_renderer.h"

typedef struct batch_options {
    const char *manifest, *report;
    uint32_t shard, shards;
    bool resume;
} batch_options;

bool kiln_render_batch_requested(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--batch")) return true;
    return false;
}

void kiln_render_batch_shard_range(uint32_t items, uint32_t index, uint32_t count, uint32_t *first, uint32_t *end) {
    *first = (uint32_t)((uint64_t)items * index / count);
    *end = (uint32_t)((uint64_t)items * (index + 1) / count);
}

static int batch_usage(FILE *out, int status) {
    fprintf(out, "usage: kiln-render --batch MANIFEST.jsonl [--shard I/N] [--resume] [--jobs 1] [--report FILE]\n"
                 "Renders shard I of N (0 <= I < N, default 0/1: all of it), a contiguous range of the\n"
                 "manifest's lines, on one device. Settings go in the manifest (docs/guides/batch.md).\n");
    return status;
}

/* A decimal number in 0..UINT32_MAX, nothing else. */
static bool parse_count(const char *text, const char *end_at, uint32_t *out) {
    if (text == end_at || *text < '0' || *text > '9') return false;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno || end != end_at || n > UINT32_MAX) return false;
    *out = (uint32_t)n;
    return true;
}

static int parse_options(int argc, char **argv, batch_options *o) {
    *o = (batch_options){.shards = 1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes_value = !strcmp(a, "--batch") || !strcmp(a, "--shard") || !strcmp(a, "--jobs") || !strcmp(a, "--report");
        if (takes_value && !v) return fprintf(stderr, "kiln-render: %s needs a value\n", a), 2;
        if (!strcmp(a, "--batch")) o->manifest = v, i++;
        else if (!strcmp(a, "--report")) o->report = v, i++;
        else if (!strcmp(a, "--resume")) o->resume = true;
        else if (!strcmp(a, "--shard")) {
            const char *slash = strchr(v, '/');
            if (!slash || !parse_count(v, slash, &o->shard) || !parse_count(slash + 1, slash + 1 + strlen(slash + 1), &o->shards) ||
                o->shards == 0 || o->shard >= o->shards)
                return fprintf(stderr, "kiln-render: --shard wants I/N with 0 <= I < N, got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--jobs")) {
            /* One process drives one device; more devices or machines are more shards. */
            if (strcmp(v, "1"))
                return fprintf(stderr, "kiln-render: --jobs wants 1 (one process renders on one device: run more shards "
                                       "for more devices), got '%s'\n", v), 2;
            i++;
        } else {
            fprintf(stderr, "kiln-render: --batch takes no '%s': per-item settings go in the manifest\n", a);
            return batch_usage(stderr, 2);
        }
    }
    return 0;
}

/* MANIFEST without .jsonl, then .report-I-of-N.jsonl. */
static void default_report_path(const batch_options *o, char *out, size_t size) {
    size_t n = strlen(o->manifest);
    if (n > 6 && !strcmp(o->manifest + n - 6, ".jsonl")) n -= 6;
    snprintf(out, size, "%.*s.report-%u-of-%u.jsonl", (int)n, o->manifest, o->shard, o->shards);
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One line of the report, flushed at once so a killed job's report holds every item it finished. */
static void report_item(FILE *report, uint32_t line, const char *status, double ms, const char *error) {
    json_t *o = json_pack("{s:i, s:s, s:f}", "line", (json_int_t)line, "status", status, "ms", round(ms * 1000.0) / 1000.0);
    if (error) json_object_set_new(o, "error", json_string(error));
    char *text = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)) : NULL;
    if (text) fprintf(report, "%s\n", text), fflush(report);
    free(text);
    json_decref(o);
}

/* Every output of the item is a whole PNG of its size: what a killed or finished job left done. */
static bool item_is_done(const batch_item *item) {
    static const unsigned outputs[] = {BATCH_OUTPUT_COLOR, BATCH_OUTPUT_NORMALS};
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        char path[BATCH_PATH_MAX + 32];
        if (!(item->outputs & outputs[i])) continue;
        if (!batch_item_output_path(item, outputs[i], path, sizeof path) || !batch_png_is_complete(path, item->width, item->height))
            return false;
    }
    return true;
}

/* Done, failed and the rate, at most once a second and always for the last item. */
typedef struct progress {
    uint32_t total, done, failed, skipped;
    double start, last_print;
} progress;

static void progress_print(progress *p, bool last) {
    double now = now_seconds();
    if (!last && now - p->last_print < 1.0) return;
    p->last_print = now;
    double elapsed = now - p->start, rate = elapsed > 0.0 ? (p->done - p->skipped) / elapsed : 0.0;
    fprintf(stderr, "kiln-render: batch: %u/%u items (%u failed, %u already done), %.2f items/s", p->done, p->total, p->failed,
            p->skipped, rate);
    if (!last && rate > 0.0) fprintf(stderr, ", ETA %.0f s", (p->total - p->done) / rate);
    fputc('\n', stderr);
}

int kiln_render_batch_main(int argc, char **argv) {
    batch_options o;
    int rc = parse_options(argc, argv, &o);
    if (rc) return rc;
    char why[1024];
    batch_manifest m;
    if (!batch_manifest_load(&m, o.manifest, why, sizeof why)) return fprintf(stderr, "kiln-render: %s\n", why), 2;
    char report_path[BATCH_PATH_MAX + 64];
    if (o.report) snprintf(report_path, sizeof report_path, "%s", o.report);
    else default_report_path(&o, report_path, sizeof report_path);
    FILE *report = fopen(report_path, "w");
    if (!report) {
        fprintf(stderr, "kiln-render: %s: cannot write the report: %s\n", report_path, strerror(errno));
        batch_manifest_free(&m);
        return 2;
    }
    uint32_t first, end;
    kiln_render_batch_shard_range(m.line_count, o.shard, o.shards, &first, &end);
    uint32_t *earlier = malloc((m.line_count ? m.line_count : 1) * sizeof *earlier);
    if (!earlier || !batch_manifest_find_repeated_outputs(&m, earlier, why, sizeof why)) {
        fprintf(stderr, "kiln-render: %s: %s\n", o.manifest, earlier ? why : "out of memory");
        free(earlier);
        fclose(report);
        batch_manifest_free(&m);
        return 1;
    }
    kiln_error err = {0};
    batch_renderer *b = end > first ? batch_renderer_create(&err) : NULL;
    if (end > first && !b) {
        fprintf(stderr, "kiln-render: %s\n", err.message);
        fclose(report);
        free(earlier);
        batch_manifest_free(&m);
        return 1;
    }
    progress p = {.total = end - first, .start = now_seconds()};
    p.last_print = p.start;
    static batch_item item;
    for (uint32_t i = first; i < end; i++) {
        const batch_line *line = &m.lines[i];
        double t0 = now_seconds();
        bool ok = batch_item_parse(line, m.dir, &item, why, sizeof why);
        if (ok && earlier[i])
            ok = false, snprintf(why, sizeof why, "line %u: out: %s is line %u's output too", line->number, item.out, earlier[i]);
        if (ok && o.resume && item_is_done(&item)) {
            report_item(report, line->number, "skipped", 0.0, NULL);
            p.skipped++;
        } else {
            if (ok && !(ok = batch_renderer_render(b, &item, &err))) snprintf(why, sizeof why, "line %u: %s", line->number, err.message);
            report_item(report, line->number, ok ? "ok" : "error", (now_seconds() - t0) * 1e3, ok ? NULL : why);
            if (!ok) fprintf(stderr, "kiln-render: %s\n", why), p.failed++;
        }
        p.done++;
        if (b && batch_renderer_lost(b)) {
            fprintf(stderr, "kiln-render: the device was lost after line %u; %u items not rendered\n", line->number, end - i - 1);
            p.failed += end - i - 1;
            break;
        }
        progress_print(&p, i + 1 == end);
    }
    if (b) {
        batch_renderer_print_diagnostics(b);
        batch_renderer_counts c = batch_renderer_counts_of(b);
        fprintf(stderr, "kiln-render: batch: shard %u/%u of %s: %u items, %u failed, %u already done, %u model reads, "
                        "%u model imports, %u environment loads, %u environment bakes, on %s; report %s\n",
                o.shard, o.shards, o.manifest, p.total, p.failed, p.skipped, c.model_reads, c.model_imports, c.environment_loads,
                c.environment_bakes, batch_renderer_adapter(b), report_path);
    } else {
        fprintf(stderr, "kiln-render: batch: shard %u/%u of %s has no items; report %s\n", o.shard, o.shards, o.manifest, report_path);
    }
    bool report_ok = !ferror(report);
    if (fclose(report) || !report_ok) {
        fprintf(stderr, "kiln-render: %s: cannot write the report\n", report_path);
        p.failed++;
    }
    batch_renderer_destroy(b);
    free(earlier);
    batch_manifest_free(&m);
    return p.failed ? 1 : 0;
}
