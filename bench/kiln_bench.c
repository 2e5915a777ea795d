/* kiln-bench: the dispatcher. `kiln-bench <mode> [flags]` runs one benchmark mode, each
 * implemented in its own file (stress_bench.c, ...), which prints JSON lines on stdout. */
#include <stdio.h>
#include <string.h>

#include "kiln_bench.h"

typedef struct bench_mode {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *usage;
} bench_mode;

static const bench_mode MODES[] = {
    {"stress", kiln_bench_stress,
     "[--frames N] [--size WxH] [--instances N] [--lights N] [--sweep]"},
    {"batch", kiln_bench_batch, "[--views N] [--size S] [--assets DIR] [--render PATH]"},
};
#define MODE_COUNT (sizeof MODES / sizeof MODES[0])

static void print_usage(FILE *out) {
    fprintf(out, "usage:\n");
    for (size_t i = 0; i < MODE_COUNT; i++) fprintf(out, "  kiln-bench %s %s\n", MODES[i].name, MODES[i].usage);
}

int main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (size_t i = 0; i < MODE_COUNT; i++)
        if (!strcmp(argv[1], MODES[i].name)) return MODES[i].run(argc - 1, argv + 1);
    fprintf(stderr, "kiln-bench: unknown mode '%s'\n", argv[1]);
    print_usage(stderr);
    return 2;
}
