/* libFuzzer target: kiln-render's flag parser (tools/kiln_render_options.c).
 *
 * An input is a command line: its bytes split at NUL into arguments after argv[0], so the
 * mutator can add, drop and splice whole arguments (cli.dict holds the flag names). The parser's
 * refusals go to a stream on /dev/null: they are checked by tests/tools/test_tool_cli.sh, and here
 * they only must not crash. What it accepts must keep the documented ranges. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "kiln_render_options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 64

static FILE *silent(void) {
    static FILE *null_stream;
    if (!null_stream) null_stream = fopen("/dev/null", "w");
    FUZZ_CHECK(null_stream);
    return null_stream;
}

static void check_accepted(const kiln_render_options *o) {
    FUZZ_CHECK(o->out_path && (o->demo || o->model));
    FUZZ_CHECK(o->width >= 1 && o->width <= 8192 && o->height >= 1 && o->height <= 8192);
    FUZZ_CHECK(isfinite(o->env_rotation) && isfinite(o->settings.exposure) && o->settings.exposure >= 0.0f);
    FUZZ_CHECK(o->settings.msaa == 0 || o->settings.msaa == 1 || o->settings.msaa == 4);
    FUZZ_CHECK(!o->fov_given || (o->fov_y > 0.0f && o->fov_y < 3.1415927f));
    FUZZ_CHECK(!(o->demo && o->model));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* A private copy with a NUL at the end, so the last argument is terminated too. */
    char *text = malloc(size + 1);
    FUZZ_CHECK(text);
    memcpy(text, data, size);
    text[size] = '\0';
    char *argv[MAX_ARGS + 2] = {"kiln-render"};
    int argc = 1;
    for (char *p = text; p <= text + size && argc <= MAX_ARGS; p += strlen(p) + 1) argv[argc++] = p;
    argv[argc] = NULL;
    kiln_render_options o;
    int status = kiln_render_options_parse(argc, argv, &o, silent(), silent());
    FUZZ_CHECK(status == TOOL_RUN || status == 0 || status == 2);
    if (status == TOOL_RUN) check_accepted(&o);
    free(text);
    return 0;
}
