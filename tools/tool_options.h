/* The one command-line parser of kiln's tools and benchmarks: each declares its flags in a table
 * (tool_cli), and tool_args_next walks argv over it. Every tool gets the same behaviour:
 *   --help      the usage and every flag with its doc line on stdout, exit 0 (with `settings`, the
 *               render settings' flags generated from the library's table, kiln/render/settings_table.h)
 *   --version   "<tool> <kiln's version>" on stdout, exit 0
 * and the same refusals, one line on the messages stream, exit 2:
 *   kiln-render: unknown option '--x' (see --help)
 *   kiln-render: unexpected argument 'b.json' (see --help)
 *   kiln-render: --size needs a value
 *   kiln-render: --size: "0x0" is not WxH in [1, 8192]        (a value that does not parse)
 *   kiln-render: --frames: 0 is not in [1, 1000]              (a number out of range)
 * The settings' flags are written into the settings struct as they are read, with the table's
 * messages behind the tool's name (kiln-render: --msaa: 2 is not one of 1|4). */
#ifndef KILN_TOOL_OPTIONS_H
#define KILN_TOOL_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <kiln/render.h>

/* What tool_*_parse returns to go on running; any other value is the exit status. */
#define TOOL_RUN (-1)

typedef struct tool_flag {
    const char *name;   /* "--size", "-o" */
    const char *value;  /* the value's placeholder in --help ("WxH"); NULL: a switch, no value */
    const char *doc;    /* one line */
} tool_flag;

typedef struct tool_cli {
    const char *tool;          /* "kiln-render", "kiln-bench stress": the prefix of every message */
    const char *synopsis;      /* the lines after "usage: ", '\n' between them */
    const tool_flag *flags;    /* ended by a row with a NULL name */
    bool settings;             /* the render settings' flags too */
    const char *notes;         /* prose after the flags; NULL: none */
} tool_cli;

typedef enum tool_arg {
    TOOL_ARG_DONE,        /* argv is read */
    TOOL_ARG_FLAG,        /* one of the tool's flags: args.flag, and args.value when it takes one */
    TOOL_ARG_POSITIONAL,  /* an argument that is no flag: args.value */
    TOOL_ARG_EXIT,        /* --help or --version was printed, or a refusal written: exit args.status */
} tool_arg;

typedef struct tool_args {
    const tool_cli *cli;
    int argc;
    char **argv;
    int next;                        /* the index of the argument to read next */
    FILE *out, *messages;            /* --help and --version; refusals */
    kiln_render_settings *settings;  /* where the settings' flags go (cli->settings) */
    const tool_flag *flag;           /* TOOL_ARG_FLAG */
    const char *value;               /* TOOL_ARG_FLAG with a value, TOOL_ARG_POSITIONAL */
    int status;                      /* TOOL_ARG_EXIT: 0 or 2 */
} tool_args;

/* Starts reading argv[1..argc-1]. `settings` may be NULL when cli->settings is false. */
tool_args tool_args_begin(const tool_cli *cli, int argc, char **argv, kiln_render_settings *settings, FILE *out,
                          FILE *messages);
/* The next argument. A settings flag is applied and skipped; --help and --version print and
 * give TOOL_ARG_EXIT (status 0); an unknown flag or a missing value is refused (status 2). */
tool_arg tool_args_next(tool_args *a);
/* Reads every argument: `read` gets each of the tool's flags and each positional (a->flag NULL)
 * and returns false after refusing one. TOOL_RUN when all were read, else the exit status. */
int tool_args_run(tool_args *a, bool (*read)(tool_args *a, void *user), void *user);
/* Whether the flag just read is `name`. */
bool tool_args_is(const tool_args *a, const char *name);

/* The usage and the flags' docs on `out`; returns status. */
int tool_cli_usage(const tool_cli *cli, FILE *out, int status);

/* Refusals, each one line on a->messages, each returning 2 (and setting a->status):
 * the tool's name, then the formatted reason. */
int tool_args_refuse(tool_args *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "<flag>: "<value>" is not <what>" for a value that does not parse. */
int tool_args_bad_value(tool_args *a, const char *what);
/* "unexpected argument '<value>' (see --help)" for a positional the tool has no room for. */
int tool_args_unexpected(tool_args *a);

/* The flag's value read strictly: no sign where none is meant, no junk after it, finite. Each
 * returns false after refusing (a->status 2). */
/* "WxH", two whole numbers in [1, 8192] joined by 'x', nothing before, between or after. */
bool tool_args_size(tool_args *a, uint32_t *width, uint32_t *height);
/* The same rule on any text (a script's "resize WxH"), refusing nothing aloud: false when bad. */
bool tool_parse_size(const char *text, uint32_t *width, uint32_t *height);
/* A whole number in [min, max]. */
bool tool_args_uint(tool_args *a, uint64_t min, uint64_t max, uint64_t *out);
/* A finite float, then in [min, max] ("[0, inf)", "(0, 3.14159)": the range as shown). */
bool tool_args_float(tool_args *a, float *out);
bool tool_args_float_in(tool_args *a, float min, float max, bool open_min, bool open_max, float *out);
/* "X,Y,Z", three finite floats. */
bool tool_args_vec3(tool_args *a, kiln_vec3 *out);

#endif
