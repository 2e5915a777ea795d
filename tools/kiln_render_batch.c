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
#include "tool_options.h"

typedef struct batch_options {
    const char *manifest, *report;
    uint32_t shard, shards;
    bool resume;
    uint32_t lose_device_at;   /* testing: the manifest line before which the device is lost; 0: never */
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

static const tool_flag batch_flags[] = {
    {"--batch", "MANIFEST.jsonl", "the manifest: one render per line (docs/guides/batch.md)"},
    {"--shard", "I/N", "renders shard I of N, a contiguous range of the lines (default 0/1: all)"},
    {"--resume", NULL, "skips the items the report already lists as done"},
    {"--jobs", "1", "processes per device: 1 (more devices or machines are more shards)"},
    {"--report", "FILE", "the report's path (default MANIFEST.report-I-of-N.jsonl)"},
    {"--lose-device-at", "LINE", "testing: loses the device before that line, to test the recovery"},
    {NULL, NULL, NULL},
};

static const tool_cli batch_cli = {
    .tool = "kiln-render",
    .synopsis = "kiln-render --batch MANIFEST.jsonl [--shard I/N] [--resume] [--jobs 1] [--report FILE] [--lose-device-at LINE]",
    .flags = batch_flags,
    .notes = "Renders shard I of N (0 <= I < N) of the manifest's lines on one device. Per-item settings\n"
             "go in the manifest, not on the command line. A lost device is replaced and the item rendered\n"
             "again.\n",
};

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

static bool read_shard(tool_args *a, batch_options *o) {
    const char *v = a->value, *slash = strchr(v, '/');
    if (!slash || !parse_count(v, slash, &o->shard) || !parse_count(slash + 1, slash + 1 + strlen(slash + 1), &o->shards) ||
        o->shards == 0 || o->shard >= o->shards)
        return tool_args_bad_value(a, "I/N with 0 <= I < N"), false;
    return true;
}

/* One of the batch's flags; false after refusing it. */
static bool read_batch_flag(tool_args *a, void *user) {
    batch_options *o = user;
    uint64_t line;
    if (!a->flag) return tool_args_unexpected(a), false;
    if (tool_args_is(a, "--batch")) return o->manifest = a->value, true;
    if (tool_args_is(a, "--report")) return o->report = a->value, true;
    if (tool_args_is(a, "--resume")) return o->resume = true;
    if (tool_args_is(a, "--shard")) return read_shard(a, o);
    if (tool_args_is(a, "--lose-device-at"))
        return tool_args_uint(a, 1, UINT32_MAX, &line) && (o->lose_device_at = (uint32_t)line, true);
    /* --jobs: one process drives one device; more devices or machines are more shards. */
    if (strcmp(a->value, "1"))
        return tool_args_bad_value(a, "1 (one process renders on one device: run more shards for more devices)"), false;
    return true;
}

static int parse_options(int argc, char **argv, batch_options *o) {
    *o = (batch_options){.shards = 1};
    tool_args a = tool_args_begin(&batch_cli, argc, argv, NULL, stdout, stderr);
    return tool_args_run(&a, read_batch_flag, o);
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

/* Every output of the item is a whole file of its size: what a killed or finished job left done. */
static bool item_is_done(const batch_item *item) {
    for (size_t i = 0; i < BATCH_OUTPUT_KINDS; i++) {
        unsigned output = batch_outputs[i];
        char path[BATCH_PATH_MAX + 32];
        if (!(item->outputs & output)) continue;
        if (!batch_item_output_path(item, output, path, sizeof path)) return false;
        bool whole = output == BATCH_OUTPUT_DEPTH ? batch_pfm_is_complete(path, item->width, item->height)
                                                  : batch_png_is_complete(path, item->width, item->height);
        if (!whole) return false;
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

/* What one shard's run holds: its manifest, its range, the repeated outputs, the report, the
 * renderer (NULL for a shard without items) and the counts. */
typedef struct batch_run {
    batch_options options;
    batch_manifest manifest;
    uint32_t first, end;
    uint32_t *earlier;               /* batch_manifest_find_repeated_outputs, per item */
    char report_path[BATCH_PATH_MAX + 64];
    FILE *report;
    batch_renderer *renderer;
    progress progress;
} batch_run;

/* Everything before the first item; 0, else the exit status with the reason on stderr. */
static int batch_run_open(batch_run *run) {
    const batch_options *o = &run->options;
    char why[1024];
    if (!batch_manifest_load(&run->manifest, o->manifest, why, sizeof why)) return fprintf(stderr, "kiln-render: %s\n", why), 2;
    if (o->report) snprintf(run->report_path, sizeof run->report_path, "%s", o->report);
    else default_report_path(o, run->report_path, sizeof run->report_path);
    if (!(run->report = fopen(run->report_path, "w")))
        return fprintf(stderr, "kiln-render: %s: cannot write the report: %s\n", run->report_path, strerror(errno)), 2;
    kiln_render_batch_shard_range(run->manifest.line_count, o->shard, o->shards, &run->first, &run->end);
    run->earlier = malloc((run->manifest.line_count ? run->manifest.line_count : 1) * sizeof *run->earlier);
    if (!run->earlier) return fprintf(stderr, "kiln-render: %s: out of memory\n", o->manifest), 1;
    if (!batch_manifest_find_repeated_outputs(&run->manifest, run->earlier, why, sizeof why))
        return fprintf(stderr, "kiln-render: %s: %s\n", o->manifest, why), 1;
    kiln_error err = {0};
    if (run->end > run->first && !(run->renderer = batch_renderer_create(&err)))
        return fprintf(stderr, "kiln-render: %s\n", err.message), 1;
    return 0;
}

/* Renders the item; when the device is lost under it (a driver reset, a GPU fault), makes a new
 * device, carries the renderer and its model over (batch_renderer_recover) and renders the item
 * once more, so a loss costs one item's time rather than the rest of the shard. */
static bool render_recovering(batch_run *run, uint32_t line, const batch_item *item, kiln_error *err) {
    if (batch_renderer_render(run->renderer, item, err)) return true;
    if (!batch_renderer_lost(run->renderer)) return false;
    fprintf(stderr, "kiln-render: line %u: the device was lost (%s); recovering on a new device\n", line, err->message);
    *err = (kiln_error){0};
    if (!batch_renderer_recover(run->renderer, err)) return false;
    return batch_renderer_render(run->renderer, item, err);
}

/* Item i of the manifest: parsed, skipped as done with --resume, or rendered; one report line,
 * and one stderr line when it fails. */
static void batch_run_item(batch_run *run, uint32_t i) {
    static batch_item item;
    char why[1024];
    kiln_error err = {0};
    const batch_line *line = &run->manifest.lines[i];
    double t0 = now_seconds();
    bool ok = batch_item_parse(line, run->manifest.dir, &item, why, sizeof why);
    if (ok && run->earlier[i])
        ok = false, snprintf(why, sizeof why, "line %u: out: %s is line %u's output too", line->number, item.out, run->earlier[i]);
    if (ok && run->options.resume && item_is_done(&item)) {
        report_item(run->report, line->number, "skipped", 0.0, NULL);
        run->progress.skipped++;
        return;
    }
    if (ok && line->number == run->options.lose_device_at) batch_renderer_force_loss(run->renderer);
    if (ok) ok = render_recovering(run, line->number, &item, &err);
    if (!ok && err.message[0]) snprintf(why, sizeof why, "line %u: %s", line->number, err.message);
    report_item(run->report, line->number, ok ? "ok" : "error", (now_seconds() - t0) * 1e3, ok ? NULL : why);
    if (!ok) fprintf(stderr, "kiln-render: %s\n", why), run->progress.failed++;
}

static void batch_run_summary(const batch_run *run) {
    const batch_options *o = &run->options;
    const progress *p = &run->progress;
    if (!run->renderer) {
        fprintf(stderr, "kiln-render: batch: shard %u/%u of %s has no items; report %s\n", o->shard, o->shards, o->manifest,
                run->report_path);
        return;
    }
    batch_renderer_counts c = batch_renderer_counts_of(run->renderer);
    fprintf(stderr, "kiln-render: batch: shard %u/%u of %s: %u items, %u failed, %u already done, %u model reads, "
                    "%u model imports, %u environment loads, %u environment bakes, %u device recoveries, on %s; report %s\n",
            o->shard, o->shards, o->manifest, p->total, p->failed, p->skipped, c.model_reads, c.model_imports,
            c.environment_loads, c.environment_bakes, c.recoveries, batch_renderer_adapter(run->renderer), run->report_path);
}

/* Closes the report (a failed close fails the run) and frees the rest; returns whether the
 * report was written whole. */
static bool batch_run_close(batch_run *run) {
    bool report_ok = true;
    if (run->report) {
        report_ok = !ferror(run->report);
        report_ok = !fclose(run->report) && report_ok;
        if (!report_ok) fprintf(stderr, "kiln-render: %s: cannot write the report\n", run->report_path);
    }
    batch_renderer_destroy(run->renderer);
    free(run->earlier);
    batch_manifest_free(&run->manifest);
    return report_ok;
}

int kiln_render_batch_main(int argc, char **argv) {
    static batch_run run;
    int rc = parse_options(argc, argv, &run.options);
    if (rc != TOOL_RUN) return rc;
    if ((rc = batch_run_open(&run))) {
        batch_run_close(&run);
        return rc;
    }
    progress *p = &run.progress;
    *p = (progress){.total = run.end - run.first, .start = now_seconds()};
    p->last_print = p->start;
    for (uint32_t i = run.first; i < run.end; i++) {
        batch_run_item(&run, i);
        p->done++;
        if (batch_renderer_lost(run.renderer)) {
            fprintf(stderr, "kiln-render: the device was lost after line %u and no new one could be made; %u items not rendered\n",
                    run.manifest.lines[i].number, run.end - i - 1);
            p->failed += run.end - i - 1;
            break;
        }
        progress_print(p, i + 1 == run.end);
    }
    if (run.renderer) batch_renderer_print_diagnostics(run.renderer);
    batch_run_summary(&run);
    bool report_ok = batch_run_close(&run);
    return p->failed || !report_ok ? 1 : 0;
}
