/* kiln-view's command line (kiln_view_options.h): its flags in one table, the render settings'
 * flags from the library's, through tool_options.h. */
#include "kiln_view_options.h"

#include <math.h>
#include <string.h>

static const tool_flag flags[] = {
    {"--demo", NULL, "opens the built-in demo scene"},
    {"--program", "SCRIPT.json", "runs a kiln-run script into the window (V switches to the scene)"},
    {"--program-texture", "NAME", "the program's texture shown, by \"as\" name or id (default: the last saved)"},
    {"--allow-outside-paths", NULL, "lets the program's wgsl_path leave its directory"},
    {"--env", "FILE.hdr", "lights the scene with an equirectangular HDR map, reloaded when it changes"},
    {"--lut", "FILE.cube", "grades the image with a 3D colour table (Adobe / Resolve .cube); the UI turns it off and on"},
    {"--size", "WxH", "the window's size (default 1280x720)"},
    {"--vsync", "on|off", "presents with vsync (default on)"},
    {"--shader-dir", "DIR", "reads the renderer's WGSL from DIR, watched and reloaded"},
    {"--no-ui", NULL, "starts with the debug UI hidden (H shows it)"},
    {"--time", "SECONDS", "poses every animation at that time at the start (default 0)"},
    {"--play", NULL, "plays the animations from the start (Space toggles)"},
    {"--clip", "NAME|INDEX", "plays one of the model's animations (default: all of them at once)"},
    {"--screenshot", "OUT.png", "renders --frames frames, writes the last (without the UI) and exits"},
    {"--frames", "N", "frames rendered before --screenshot writes, in [1, 1000000]"},
    {"--script", "FILE", "runs timed test actions (docs/guides/viewer.md)"},
    {NULL, NULL, NULL},
};

static const tool_cli cli = {
    .tool = "kiln-view",
    .synopsis = "kiln-view MODEL.gltf|MODEL.glb [flags] [render settings]\n"
                "kiln-view --demo [flags] [render settings]\n"
                "kiln-view --program SCRIPT.json [MODEL.gltf|MODEL.glb|--demo] [flags]\n"
                "kiln-view --help | --version",
    .flags = flags,
    .settings = true,
    .notes = "Opens a window on the model, framed as kiln-render frames it. Mouse: left drag orbits,\n"
             "middle or shift + left drag pans, the wheel dollies, right drag flies (with W/A/S/D/Q/E).\n"
             "Keys: F frames the model, C cycles the file's cameras, Space plays or pauses the animations,\n"
             "H hides the UI, P writes a screenshot next to the model, V switches between the program and\n"
             "the scene, Esc quits. The model, the --env map and, with --shader-dir, the renderer's WGSL are\n"
             "reloaded when they change on disk; a --program is rerun when it or its WGSL changes.\n",
};

/* What the parse fills: the options, and whether --frames was given. */
typedef struct view_parse {
    kiln_view_options *options;
    bool frames_given;
} view_parse;

/* The model, or one of the viewer's flags; false after refusing it. */
static bool read_flag(tool_args *a, void *user) {
    kiln_view_options *o = ((view_parse *)user)->options;
    bool *frames_given = &((view_parse *)user)->frames_given;
    uint64_t frames;
    if (!a->flag && o->model) return tool_args_unexpected(a), false;
    if (!a->flag) return o->model = a->value, true;
    if (tool_args_is(a, "--demo")) return o->demo = true;
    if (tool_args_is(a, "--no-ui")) return o->hide_ui = true;
    if (tool_args_is(a, "--play")) return o->play = true;
    if (tool_args_is(a, "--allow-outside-paths")) return o->allow_outside_paths = true;
    if (tool_args_is(a, "--clip")) return o->clip = a->value, true;
    if (tool_args_is(a, "--program")) return o->program_path = a->value, true;
    if (tool_args_is(a, "--program-texture")) return o->program_texture = a->value, true;
    if (tool_args_is(a, "--env")) return o->env_path = a->value, true;
    if (tool_args_is(a, "--lut")) return o->lut_path = a->value, true;
    if (tool_args_is(a, "--shader-dir")) return o->shader_dir = a->value, true;
    if (tool_args_is(a, "--script")) return o->script_path = a->value, true;
    if (tool_args_is(a, "--screenshot")) return o->screenshot_path = a->value, true;
    if (tool_args_is(a, "--size")) return tool_args_size(a, &o->width, &o->height);
    if (tool_args_is(a, "--time")) return tool_args_float_in(a, 0.0f, INFINITY, false, true, &o->time);
    if (tool_args_is(a, "--frames"))
        return *frames_given = true, tool_args_uint(a, 1, 1000000, &frames) && (o->frames = (uint32_t)frames, true);
    /* --vsync */
    if (strcmp(a->value, "on") && strcmp(a->value, "off")) return tool_args_bad_value(a, "on or off"), false;
    o->vsync = !strcmp(a->value, "on");
    return true;
}

/* The flags checked against each other once all are read; TOOL_RUN or 2. */
static int check_flags(tool_args *a, const kiln_view_options *o, bool frames_given) {
    const char *why = NULL;
    if (o->demo && o->model) why = "--demo and a model are exclusive";
    else if (!o->model && (o->time > 0.0f || o->play)) why = "--time and --play are for a model, not --demo";
    else if (!o->model && o->clip) why = "--clip is for a model, not --demo";
    else if (o->program_texture && !o->program_path) why = "--program-texture goes with --program";
    else if (o->screenshot_path && !frames_given) why = "--screenshot needs --frames N";
    else if (frames_given && !o->screenshot_path) why = "--frames goes with --screenshot";
    if (why) return tool_args_refuse(a, "%s", why);
    if (!o->demo && !o->model && !o->program_path) return tool_cli_usage(&cli, a->messages, 2);
    return TOOL_RUN;
}

int kiln_view_options_parse(int argc, char **argv, kiln_view_options *o, FILE *out, FILE *messages) {
    *o = (kiln_view_options){.width = 1280, .height = 720, .vsync = true};
    view_parse parse = {.options = o};
    tool_args a = tool_args_begin(&cli, argc, argv, &o->settings, out, messages);
    int status = tool_args_run(&a, read_flag, &parse);
    return status == TOOL_RUN ? check_flags(&a, o, parse.frames_given) : status;
}
