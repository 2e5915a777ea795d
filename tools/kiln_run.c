/* kiln-run: runs a script of JSON messages through the JSON surface on a headless device.
 *
 *   kiln-run SCRIPT.json [--out DIR] [--allow-outside-paths]
 *   kiln-run --help | --version
 *
 * The script is a JSON array of messages (docs/guides/programs.md, "The JSON surface"). Each one's
 * reply is printed on its own line as compact JSON, in order. Besides the library's kinds a script
 * may use "wgsl_path", "as" / "$name", typed blobs and save_texture (under --out, default "."),
 * all of them tools/program_script.c, the script runner kiln-view shares.
 * An Err reply is printed and the script goes on. The exit status is non-zero only when the script
 * (or a file it names) cannot be read or is not JSON, with the reason on stderr. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include <kiln/core.h>
#include <kiln/program_json.h>

#include "program_script.h"
#include "tool_options.h"
#include "vulkan_driver_pin.h"

/* ---- main ------------------------------------------------------------------------------------- */

static const tool_flag flags[] = {
    {"--out", "DIR", "where save_texture writes (default .)"},
    {"--allow-outside-paths", NULL, "lets wgsl_path and save_texture leave their directories"},
    {NULL, NULL, NULL},
};

static const tool_cli cli = {
    .tool = "kiln-run",
    .synopsis = "kiln-run SCRIPT.json [--out DIR] [--allow-outside-paths]\nkiln-run --help | --version",
    .flags = flags,
    .notes = "wgsl_path files are read from the script's directory or below it, and save_texture\n"
             "writes under --out, symbolic links included; --allow-outside-paths lifts both.\n",
};

typedef struct run_options {
    const char *script_path, *out_dir;
    bool allow_outside_paths;
} run_options;

/* The script, or one of the flags; false after refusing it. */
static bool read_flag(tool_args *a, void *user) {
    run_options *o = user;
    if (!a->flag && o->script_path) return tool_args_unexpected(a), false;
    if (!a->flag) o->script_path = a->value;
    else if (tool_args_is(a, "--out")) o->out_dir = a->value;
    else o->allow_outside_paths = true;
    return true;
}

/* Long GPU work (a large frame on a software rasteriser) shows it is alive rather than hung. */
static void report_wait(void *user, const char *what, double seconds) {
    (void)user;
    fprintf(stderr, "kiln-run: still waiting for %s: %.0f s\n", what, seconds);
}

int main(int argc, char **argv) {
    run_options o = {.out_dir = "."};
    tool_args a = tool_args_begin(&cli, argc, argv, NULL, stdout, stderr);
    int parsed = tool_args_run(&a, read_flag, &o);
    if (parsed != TOOL_RUN) return parsed;
    if (!o.script_path) return tool_cli_usage(&cli, stderr, 2);
    const char *script_path = o.script_path, *out_dir = o.out_dir;
    bool allow_outside_paths = o.allow_outside_paths;
    char why[2048];
    json_t *script = program_script_load(script_path, why, sizeof why);
    if (!script) {
        fprintf(stderr, "kiln-run: %s\n", why);
        return 1;
    }

    kiln_error err = {0};
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-run"}, &err);
    if (gfx) gfx->wait_observer = report_wait;
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, &err) : NULL;
    kiln_json_runtime *rt = res ? kiln_json_runtime_create(gfx, res, &err) : NULL;
    int status = 0;
    if (!rt) {
        fprintf(stderr, "kiln-run: no runtime: %s\n", err.message);
        status = 1;
    }
    program_script run;
    program_script_init(&run, rt, script_path, "kiln-run", out_dir, allow_outside_paths);
    for (size_t i = 0; rt && i < json_array_size(script); i++) {
        program_script_reply reply;
        if (!program_script_step(&run, json_array_get(script, i), i, &reply)) {
            fprintf(stderr, "kiln-run: %s: %s\n", script_path, run.fatal);
            status = 1;
            break;
        }
        puts(reply.text);
        fflush(stdout);
        program_script_reply_free(&reply);
    }
    kiln_json_runtime_destroy(rt);
    if (gfx) kiln_gfx_pump(gfx, true);
    if (gfx && gfx->error_count)
        fprintf(stderr, "kiln-run: %llu uncaptured GPU errors\n", (unsigned long long)gfx->error_count);
    kiln_resources_destroy(res);
    kiln_gfx_destroy(gfx);
    program_script_free(&run);
    json_decref(script);
    return status;
}
