/* kiln-view's command line (kiln_view_options.h). */
#include "kiln_view_options.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int kiln_view_options_usage(FILE *out, int status) {
    fprintf(out, "usage: kiln-view MODEL.gltf|MODEL.glb [flags]\n"
                 "       kiln-view --demo [flags]\n"
                 "       kiln-view --program SCRIPT.json [MODEL.gltf|MODEL.glb|--demo] [flags]\n"
                 "       kiln-view --help\n"
                 "flags: [--env FILE.hdr] [--size WxH] [--vsync on|off] [--shader-dir DIR] [--no-ui]\n"
                 "       [--time SECONDS] [--play] [--clip NAME|INDEX] [--program-texture NAME] [--allow-outside-paths]\n"
                 "       [--screenshot OUT.png --frames N] [--script FILE]\n"
                 "Opens a window on the model, framed as kiln-render frames it. Mouse: left drag orbits,\n"
                 "middle or shift + left drag pans, the wheel dollies, right drag flies (with W/A/S/D/Q/E).\n"
                 "--clip plays one of the model's animations, by name or index (default: all of them at once).\n"
                 "Keys: F frames the model, C cycles the file's cameras, Space plays or pauses the animations,\n"
                 "H hides the UI, P writes a screenshot next to the model, Esc quits. The model, the --env map and, with --shader-dir, the renderer's\n"
                 "WGSL are reloaded when they change on disk. --program runs a kiln-run script and shows the\n"
                 "texture of its last save_texture (or --program-texture's), rerun when it or its WGSL changes;\n"
                 "V switches between the program and the scene. --screenshot renders N frames, writes the last\n"
                 "(without the UI) and exits; --script runs timed test actions (docs/guides/viewer.md).\n");
    return status;
}

/* "WxH": two decimal integers in 1..8192 joined by 'x', nothing else (kiln-render's rule). */
static bool parse_size(const char *text, uint32_t *width, uint32_t *height) {
    const char *p = text;
    unsigned long dims[2];
    for (int k = 0; k < 2; k++) {
        if (*p < '0' || *p > '9') return false;
        char *end;
        errno = 0;
        dims[k] = strtoul(p, &end, 10);
        if (errno || dims[k] < 1 || dims[k] > 8192 || *end != (k == 0 ? 'x' : '\0')) return false;
        p = end + 1;
    }
    *width = (uint32_t)dims[0];
    *height = (uint32_t)dims[1];
    return true;
}

static bool parse_count(const char *text, uint32_t *out) {
    if (*text < '0' || *text > '9') return false;
    char *end;
    errno = 0;
    unsigned long n = strtoul(text, &end, 10);
    if (errno || *end || n < 1 || n > 1000000) return false;
    *out = (uint32_t)n;
    return true;
}

static bool takes_value(const char *flag) {
    static const char *const flags[] = {"--env", "--size", "--vsync", "--screenshot", "--frames", "--shader-dir", "--script",
                                        "--time", "--clip", "--program", "--program-texture"};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (!strcmp(flag, flags[i])) return true;
    return false;
}

int kiln_view_options_parse(int argc, char **argv, kiln_view_options *o, FILE *messages) {
    *o = (kiln_view_options){.width = 1280, .height = 720, .vsync = true};
    bool frames_given = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (takes_value(a) && !v) return fprintf(messages, "kiln-view: %s needs a value\n", a), 2;
        if (!strcmp(a, "--demo")) o->demo = true;
        else if (!strcmp(a, "--no-ui")) o->hide_ui = true;
        else if (!strcmp(a, "--play")) o->play = true;
        else if (!strcmp(a, "--time")) {
            char *end;
            o->time = strtof(v, &end);
            if (end == v || *end || !isfinite(o->time) || o->time < 0.0f)
                return fprintf(messages, "kiln-view: --time wants a finite number of seconds >= 0, got '%s'\n", v), 2;
            i++;
        }
        else if (!strcmp(a, "--clip")) o->clip = v, i++;
        else if (!strcmp(a, "--allow-outside-paths")) o->allow_outside_paths = true;
        else if (!strcmp(a, "--program")) o->program_path = v, i++;
        else if (!strcmp(a, "--program-texture")) o->program_texture = v, i++;
        else if (!strcmp(a, "--env")) o->env_path = v, i++;
        else if (!strcmp(a, "--shader-dir")) o->shader_dir = v, i++;
        else if (!strcmp(a, "--script")) o->script_path = v, i++;
        else if (!strcmp(a, "--screenshot")) o->screenshot_path = v, i++;
        else if (!strcmp(a, "--size")) {
            if (!parse_size(v, &o->width, &o->height))
                return fprintf(messages, "kiln-view: --size wants WxH (1..8192), got '%s'\n", v), 2;
            i++;
        } else if (!strcmp(a, "--vsync")) {
            if (strcmp(v, "on") && strcmp(v, "off")) return fprintf(messages, "kiln-view: --vsync wants on or off, got '%s'\n", v), 2;
            o->vsync = !strcmp(v, "on");
            i++;
        } else if (!strcmp(a, "--frames")) {
            if (!parse_count(v, &o->frames))
                return fprintf(messages, "kiln-view: --frames wants a count in 1..1000000, got '%s'\n", v), 2;
            frames_given = true, i++;
        } else if (a[0] != '-' && !o->model) {
            o->model = a;
        } else {
            fprintf(messages, "kiln-view: unknown argument '%s'\n", a);
            return kiln_view_options_usage(messages, 2);
        }
    }
    const char *why = NULL;
    if (o->demo && o->model) why = "--demo and a model are exclusive";
    else if (!o->model && (o->time > 0.0f || o->play)) why = "--time and --play are for a model, not --demo";
    else if (!o->model && o->clip) why = "--clip is for a model, not --demo";
    else if (o->program_texture && !o->program_path) why = "--program-texture goes with --program";
    else if (o->screenshot_path && !frames_given) why = "--screenshot needs --frames N";
    else if (frames_given && !o->screenshot_path) why = "--frames goes with --screenshot";
    if (why) return fprintf(messages, "kiln-view: %s\n", why), 2;
    if (!o->demo && !o->model && !o->program_path) return kiln_view_options_usage(messages, 2);
    return 0;
}
