/* kiln-bench: the dispatcher. `kiln-bench <mode> [flags]` runs one benchmark mode, each
 * implemented in its own file (stress_bench.c, ...), which prints JSON lines on stdout and
 * parses its own flags (`kiln-bench <mode> --help`). */
#include <stdio.h>
#include <string.h>

#include "bench_common.h"
#include "kiln_bench.h"

typedef struct bench_mode {
    const char *name;
    int (*run)(int argc, char **argv);
} bench_mode;

static const bench_mode MODES[] = {
    {"stress", kiln_bench_stress},
    {"batch", kiln_bench_batch},
};
#define MODE_COUNT (sizeof MODES / sizeof MODES[0])

static const tool_cli cli = {
    .tool = "kiln-bench",
    .synopsis = "kiln-bench stress|batch [flags]\nkiln-bench --help | --version",
    .notes = "modes (kiln-bench MODE --help lists a mode's flags):\n"
             "  stress  frames of many instances and lights: CPU and GPU time, allocations\n"
             "  batch   the sample models' turntables, a process per image against --batch\n",
};

int main(int argc, char **argv) {
    for (size_t i = 0; argc > 1 && i < MODE_COUNT; i++)
        if (!strcmp(argv[1], MODES[i].name)) return MODES[i].run(argc - 1, argv + 1);
    tool_args a = tool_args_begin(&cli, argc, argv, NULL, stdout, stderr);
    switch (tool_args_next(&a)) {
    case TOOL_ARG_EXIT: return a.status;
    case TOOL_ARG_POSITIONAL: return tool_args_refuse(&a, "unknown mode '%s' (see --help)", a.value);
    default: return tool_cli_usage(&cli, stderr, 2);
    }
}
