/* kiln-render's command line (kiln_render_options.h): its own flags in one table, the render
 * settings' flags from the library's, strict values with ranges through tool_options.h. */
#include "kiln_render_options.h"

#include <math.h>
#include <string.h>

static const tool_flag flags[] = {
    {"-o", "OUT.png", "the PNG written"},
    {"--demo", NULL, "renders the built-in demo scene instead of a model"},
    {"--size", "WxH", "the image's size (default 1280x720)"},
    {"--scene", "N", "the model's scene N instead of its default scene"},
    {"--time", "SECONDS", "poses the model with all its animations at that time (default 0)"},
    {"--camera", "N", "the model's camera N instead of a framed one"},
    {"--look-from", "X,Y,Z", "the camera's eye (with --look-at)"},
    {"--look-at", "X,Y,Z", "the point the camera looks at (with --look-from)"},
    {"--up", "X,Y,Z", "the camera's up (default 0,1,0)"},
    {"--fov-y", "RADIANS", "the vertical field of view, in (0, pi) (default 0.785398)"},
    {"--sun", "X,Y,Z", "the direction the added sun shines along (default -0.5,-1,-0.4)"},
    {"--no-sun", NULL, "adds no sun, even to a model without lights"},
    {"--sun-lux", "F", "the added sun's illuminance (default 3)"},
    {"--env", "FILE.hdr", "lights the scene with an equirectangular HDR map instead of the procedural sky"},
    {"--env-rotation", "RADIANS", "turns the --env map about +Y (its centre faces +X at 0)"},
    {"--lut", "FILE.cube", "grades the image with a 3D colour table (Adobe / Resolve .cube) after the tone map"},
    {"--stats", NULL, "prints the frame's statistics as one JSON object on stdout"},
    {"--graph", NULL, "prints the frame graph as Graphviz DOT on stdout"},
    {NULL, NULL, NULL},
};

static const tool_cli cli = {
    .tool = "kiln-render",
    .synopsis = "kiln-render MODEL.glb|MODEL.gltf -o OUT.png [flags] [render settings]\n"
                "kiln-render --demo -o OUT.png [flags] [render settings]\n"
                "kiln-render --batch MANIFEST.jsonl [--shard I/N] [--resume] [--jobs 1] [--report FILE] (--batch --help)\n"
                "kiln-render --help | --version",
    .flags = flags,
    .settings = true,
    .notes = "A model without --camera or --look-from is framed from its bounds; the framing is printed on\n"
             "stderr as flags. Without lights of its own (or with --sun) it gets a sun along (-0.5,-1,-0.4)\n"
             "of 3 lux (--sun-lux). --background replaces what is seen behind the scene (not what lights it):\n"
             "a solid display colour, or transparent (the PNG's alpha is the scene's coverage).\n",
};

static bool read_index(tool_args *a, uint32_t *out, bool *given) {
    uint64_t v;
    if (!tool_args_uint(a, 0, UINT32_MAX, &v)) return false;
    *out = (uint32_t)v, *given = true;
    return true;
}

static bool read_vec3(tool_args *a, kiln_vec3 *out, bool *given) {
    *given = true;
    return tool_args_vec3(a, out);
}

/* The model, or one of the tool's own flags; false after refusing it. */
static bool read_flag(tool_args *a, void *user) {
    kiln_render_options *o = user;
    if (!a->flag && o->model) return tool_args_unexpected(a), false;
    if (!a->flag) return o->model = a->value, true;
    if (tool_args_is(a, "-o")) return o->out_path = a->value, true;
    if (tool_args_is(a, "--demo")) return o->demo = true;
    if (tool_args_is(a, "--no-sun")) return o->no_sun = true;
    if (tool_args_is(a, "--stats")) return o->stats = true;
    if (tool_args_is(a, "--graph")) return o->graph = true;
    if (tool_args_is(a, "--env")) return o->env_path = a->value, true;
    if (tool_args_is(a, "--lut")) return o->lut_path = a->value, true;
    if (tool_args_is(a, "--size")) return tool_args_size(a, &o->width, &o->height);
    if (tool_args_is(a, "--scene")) return read_index(a, &o->scene, &o->scene_given);
    if (tool_args_is(a, "--camera")) return read_index(a, &o->camera, &o->camera_given);
    if (tool_args_is(a, "--look-from")) return read_vec3(a, &o->look_from, &o->look_from_given);
    if (tool_args_is(a, "--look-at")) return read_vec3(a, &o->look_at, &o->look_at_given);
    if (tool_args_is(a, "--up")) return read_vec3(a, &o->up, &o->up_given);
    if (tool_args_is(a, "--sun")) return read_vec3(a, &o->sun, &o->sun_given);
    if (tool_args_is(a, "--time")) return o->time_given = true, tool_args_float_in(a, 0.0f, INFINITY, false, true, &o->time);
    if (tool_args_is(a, "--fov-y")) return o->fov_given = true, tool_args_float_in(a, 0.0f, 3.1415926f, true, true, &o->fov_y);
    if (tool_args_is(a, "--sun-lux")) return tool_args_float_in(a, 0.0f, INFINITY, true, true, &o->sun_lux);
    return tool_args_float(a, &o->env_rotation); /* --env-rotation, the last flag of the table */
}

/* The model-only flags, checked against each other once all are read; TOOL_RUN or 2. */
static int check_model_flags(tool_args *a, const kiln_render_options *o) {
    bool any = o->scene_given || o->camera_given || o->look_from_given || o->look_at_given || o->up_given ||
               o->fov_given || o->sun_given || o->no_sun || o->sun_lux > 0.0f || o->time_given;
    const char *why = NULL;
    if (o->demo && o->model) why = "--demo and a model are exclusive";
    else if (o->demo && any) why = "--scene, --time, --camera, --look-from, --look-at, --up, --fov-y and the sun flags are for a model, not --demo";
    else if (o->camera_given && (o->look_from_given || o->look_at_given || o->up_given || o->fov_given))
        why = "--camera is exclusive with --look-from, --look-at, --up and --fov-y";
    else if (o->look_from_given != o->look_at_given) why = "--look-from and --look-at go together";
    else if (o->up_given && !o->look_from_given) why = "--up needs --look-from and --look-at";
    else if (o->sun_given && o->no_sun) why = "--sun and --no-sun are exclusive";
    else if (o->no_sun && o->sun_lux > 0.0f) why = "--sun-lux and --no-sun are exclusive";
    return why ? tool_args_refuse(a, "%s", why) : TOOL_RUN;
}

int kiln_render_options_parse(int argc, char **argv, kiln_render_options *o, FILE *out, FILE *messages) {
    *o = (kiln_render_options){.width = 1280, .height = 720};
    tool_args a = tool_args_begin(&cli, argc, argv, &o->settings, out, messages);
    int status = tool_args_run(&a, read_flag, o);
    if (status != TOOL_RUN) return status;
    return (o->demo || o->model) && o->out_path ? check_model_flags(&a, o) : tool_cli_usage(&cli, messages, 2);
}
