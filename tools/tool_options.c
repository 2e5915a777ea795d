/* The tools' command-line parser (tool_options.h). */
#include "tool_options.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* A tool flag spelled as a render setting's would never be seen (settings are looked up first):
 * a mistake in the tool's table, refused before anything is read. */
static const char *flag_shadowing_a_setting(const tool_cli *cli) {
    for (const tool_flag *f = cli->flags; cli->settings && f && f->name; f++)
        if (kiln_render_setting_find(f->name)) return f->name;
    return NULL;
}

tool_args tool_args_begin(const tool_cli *cli, int argc, char **argv, kiln_render_settings *settings, FILE *out,
                          FILE *messages) {
    tool_args a = {.cli = cli, .argc = argc, .argv = argv, .next = 1, .out = out, .messages = messages,
                   .settings = settings};
    const char *shadowing = flag_shadowing_a_setting(cli);
    if (shadowing)
        tool_args_refuse(&a, "the flag %s of this tool is also a render setting's (a bug in its table)", shadowing);
    return a;
}

bool tool_args_is(const tool_args *a, const char *name) { return a->flag && !strcmp(a->flag->name, name); }

int tool_args_refuse(tool_args *a, const char *fmt, ...) {
    fprintf(a->messages, "%s: ", a->cli->tool);
    va_list args;
    va_start(args, fmt);
    vfprintf(a->messages, fmt, args);
    va_end(args);
    fputc('\n', a->messages);
    return a->status = 2;
}

int tool_args_bad_value(tool_args *a, const char *what) {
    return tool_args_refuse(a, "%s: \"%s\" is not %s", a->flag->name, a->value, what);
}

int tool_args_unexpected(tool_args *a) { return tool_args_refuse(a, "unexpected argument '%s' (see --help)", a->value); }

/* ---- --help -------------------------------------------------------------------------------- */

/* "agx|aces|none", "1|4", "sky|transparent|R,G,B", or the row's placeholder; "" for a switch. */
static void setting_value(const kiln_render_setting *row, char *out, size_t size) {
    size_t n = 0;
    out[0] = '\0';
    if (row->type == KILN_SETTING_ENUM)
        for (int i = 0; row->name(i) && n < size; i++) n += (size_t)snprintf(out + n, size - n, "%s%s", i ? "|" : "", row->name(i));
    else if (row->type == KILN_SETTING_UINT && row->choices)
        for (uint32_t i = 0; i < row->choice_count && n < size; i++)
            n += (size_t)snprintf(out + n, size - n, "%s%u", i ? "|" : "", row->choices[i]);
    else if (row->type == KILN_SETTING_BACKGROUND) snprintf(out, size, "sky|transparent|R,G,B");
    else if (row->placeholder) snprintf(out, size, "%s", row->placeholder);
}

/* "  --flag VALUE" padded to a column, then the doc line. */
static void print_flag(FILE *out, const char *name, const char *value, const char *doc, const char *tail) {
    char head[96];
    snprintf(head, sizeof head, "%s%s%s", name, value && value[0] ? " " : "", value ? value : "");
    if (strlen(head) > 28) fprintf(out, "  %s\n  %-28s %s%s\n", head, "", doc, tail);
    else fprintf(out, "  %-28s %s%s\n", head, doc, tail);
}

static void print_setting(FILE *out, const kiln_render_setting *row) {
    char value[128], tail[64] = "";
    setting_value(row, value, sizeof value);
    if (row->type == KILN_SETTING_ENUM) snprintf(tail, sizeof tail, " (default %s)", row->name((int)row->default_value));
    else if (row->type == KILN_SETTING_UINT || row->type == KILN_SETTING_FLOAT || row->type == KILN_SETTING_VEC3)
        snprintf(tail, sizeof tail, " (default %g)", row->default_value);
    print_flag(out, row->flag, value, row->doc, tail);
}

int tool_cli_usage(const tool_cli *cli, FILE *out, int status) {
    fprintf(out, "usage: ");
    for (const char *line = cli->synopsis; *line;) {
        const char *end = strchr(line, '\n');
        size_t length = end ? (size_t)(end - line) : strlen(line);
        fprintf(out, "%s%.*s\n", line == cli->synopsis ? "" : "       ", (int)length, line);
        line += length + (end != NULL);
    }
    fprintf(out, "flags:\n");
    for (const tool_flag *f = cli->flags; f && f->name; f++) print_flag(out, f->name, f->value, f->doc, "");
    print_flag(out, "--help", NULL, "prints this and exits", "");
    print_flag(out, "--version", NULL, "prints kiln's version and exits", "");
    if (cli->settings) {
        fprintf(out, "render settings:\n");
        for (uint32_t i = 0; i < kiln_render_setting_count(); i++) print_setting(out, kiln_render_setting_at(i));
    }
    if (cli->notes) fprintf(out, "%s", cli->notes);
    return status;
}

/* ---- walking argv -------------------------------------------------------------------------- */

static const tool_flag *find_flag(const tool_cli *cli, const char *name) {
    for (const tool_flag *f = cli->flags; f && f->name; f++)
        if (!strcmp(f->name, name)) return f;
    return NULL;
}

/* A settings flag: its value (none for a switch) written through the table. */
static bool apply_setting(tool_args *a, const kiln_render_setting *row, const char *arg) {
    const char *text = "true";
    if (row->type != KILN_SETTING_SWITCH) {
        if (a->next >= a->argc) return tool_args_refuse(a, "%s needs a value", arg), false;
        text = a->argv[a->next++];
    }
    kiln_error err = {0};
    if (!kiln_render_setting_set(row, a->settings, text, arg, &err)) return tool_args_refuse(a, "%s", err.message), false;
    return true;
}

tool_arg tool_args_next(tool_args *a) {
    if (a->status) return TOOL_ARG_EXIT; /* refused at the start */
    while (a->next < a->argc) {
        const char *arg = a->argv[a->next++];
        a->flag = NULL, a->value = NULL;
        if (arg[0] != '-' || !arg[1]) return a->value = arg, TOOL_ARG_POSITIONAL;
        if (!strcmp(arg, "--help")) return a->status = tool_cli_usage(a->cli, a->out, 0), TOOL_ARG_EXIT;
        if (!strcmp(arg, "--version")) return fprintf(a->out, "%s %s\n", a->cli->tool, kiln_version()), a->status = 0, TOOL_ARG_EXIT;
        const kiln_render_setting *row = a->cli->settings ? kiln_render_setting_find(arg) : NULL;
        if (row && !strncmp(arg, "--", 2)) {
            if (!apply_setting(a, row, arg)) return TOOL_ARG_EXIT;
            continue;
        }
        if (!(a->flag = find_flag(a->cli, arg))) return tool_args_refuse(a, "unknown option '%s' (see --help)", arg), TOOL_ARG_EXIT;
        if (a->flag->value) {
            if (a->next >= a->argc) return tool_args_refuse(a, "%s needs a value", arg), TOOL_ARG_EXIT;
            a->value = a->argv[a->next++];
        }
        return TOOL_ARG_FLAG;
    }
    return TOOL_ARG_DONE;
}

int tool_args_run(tool_args *a, bool (*read)(tool_args *a, void *user), void *user) {
    for (tool_arg kind; (kind = tool_args_next(a)) != TOOL_ARG_DONE;)
        if (kind == TOOL_ARG_EXIT || !read(a, user)) return a->status;
    return TOOL_RUN;
}

/* ---- values -------------------------------------------------------------------------------- */

bool tool_parse_size(const char *text, uint32_t *width, uint32_t *height) {
    const char *p = text;
    unsigned long dims[2];
    for (int k = 0; k < 2; k++) {
        char *end = (char *)p;
        errno = 0;
        dims[k] = *p >= '0' && *p <= '9' ? strtoul(p, &end, 10) : 0;
        if (!dims[k] || errno || dims[k] > 8192 || *end != (k == 0 ? 'x' : '\0')) return false;
        p = end + 1;
    }
    *width = (uint32_t)dims[0];
    *height = (uint32_t)dims[1];
    return true;
}

bool tool_args_size(tool_args *a, uint32_t *width, uint32_t *height) {
    return tool_parse_size(a->value, width, height) || (tool_args_bad_value(a, "WxH in [1, 8192]"), false);
}

bool tool_args_uint(tool_args *a, uint64_t min, uint64_t max, uint64_t *out) {
    char *end = (char *)a->value;
    errno = 0;
    unsigned long long v = a->value[0] >= '0' && a->value[0] <= '9' ? strtoull(a->value, &end, 10) : 0;
    if (a->value[0] < '0' || a->value[0] > '9' || *end || errno) return tool_args_bad_value(a, "a whole number"), false;
    if (v < min || v > max)
        return tool_args_refuse(a, "%s: %llu is not in [%llu, %llu]", a->flag->name, v, (unsigned long long)min,
                                (unsigned long long)max), false;
    *out = v;
    return true;
}

bool tool_args_float(tool_args *a, float *out) {
    char *end;
    double d = strtod(a->value, &end);
    if (end == a->value || *end || !isfinite(d) || !isfinite((float)d)) return tool_args_bad_value(a, "a finite number"), false;
    *out = (float)d;
    return true;
}

bool tool_args_float_in(tool_args *a, float min, float max, bool open_min, bool open_max, float *out) {
    float v;
    if (!tool_args_float(a, &v)) return false;
    if (v < min || v > max || (open_min && v == min) || (open_max && v == max))
        return tool_args_refuse(a, "%s: %g is not in %s%g, %g%s", a->flag->name, (double)v, open_min ? "(" : "[",
                                (double)min, (double)max, open_max ? ")" : "]"), false;
    *out = v;
    return true;
}

bool tool_args_vec3(tool_args *a, kiln_vec3 *out) {
    float f[3];
    const char *p = a->value;
    for (int k = 0; k < 3; k++) {
        char *end;
        f[k] = strtof(p, &end);
        if (end == p || !isfinite(f[k]) || *end != (k < 2 ? ',' : '\0')) return tool_args_bad_value(a, "X,Y,Z"), false;
        p = end + 1;
    }
    *out = (kiln_vec3){f[0], f[1], f[2]};
    return true;
}
