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
#include "vulkan_driver_pin.h"

/* ---- main ------------------------------------------------------------------------------------- */

/* The usage on out (stdout for --help, stderr for a bad command line); returns status. */
static int usage(FILE *out, int status) {
    fprintf(out, "usage: kiln-run SCRIPT.json [--out DIR] [--allow-outside-paths]\n"
                 "       kiln-run --help | --version\n"
                 "wgsl_path files are read from the script's directory or below it, and save_texture\n"
                 "writes under --out (default .), symbolic links included; --allow-outside-paths lifts both.\n");
    return status;
}

/* Long GPU work (a large frame on a software rasteriser) shows it is alive rather than hung. */
static void report_wait(void *user, const char *what, double seconds) {
    (void)user;
    fprintf(stderr, "kiln-run: still waiting for %s: %.0f s\n", what, seconds);
}

int main(int argc, char **argv) {
    const char *script_path = NULL, *out_dir = ".";
    bool allow_outside_paths = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0) return usage(stdout, 0);
        if (strcmp(argv[i], "--version") == 0) return printf("kiln-run %s\n", kiln_version()), 0;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) out_dir = argv[++i];
        else if (strcmp(argv[i], "--allow-outside-paths") == 0) allow_outside_paths = true;
        else if (argv[i][0] != '-' && !script_path) script_path = argv[i];
        else {
            fprintf(stderr, "kiln-run: unknown argument '%s'\n", argv[i]);
            return usage(stderr, 2);
        }
    }
    if (!script_path) return usage(stderr, 2);
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
