/* kiln-render's command line: the flags read into one struct, checked strictly, without a device.
 *
 * Its own file so that the tool and the flag parser's fuzz target (tests/fuzz/fuzz_cli.c) link the
 * same code. The parser never exits: every refusal is one line on the stream the caller passes
 * (a command line without a model or an output is answered with the usage there). */
#ifndef KILN_RENDER_OPTIONS_H
#define KILN_RENDER_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <kiln/render.h>

#include "tool_options.h"

typedef struct kiln_render_options {
    const char *out_path, *model, *env_path, *lut_path;
    bool demo, stats, graph;
    float env_rotation;
    uint32_t width, height;
    kiln_render_settings settings;
    /* The model's flags; each *_given says the flag was on the command line. */
    bool scene_given, camera_given, look_from_given, look_at_given, up_given, fov_given, sun_given, no_sun, time_given;
    uint32_t scene, camera;
    kiln_vec3 look_from, look_at, up, sun;
    float fov_y, sun_lux, time;
} kiln_render_options;

/* Reads argv[1..argc-1] into *o (argv[0] is the program's name and is not read) over the tools'
 * parser (tool_options.h), the render settings' flags from the library's table. Returns TOOL_RUN
 * when the command line is complete and consistent; 0 after --help or --version, printed on out;
 * else 2 with the reason written to messages. The strings in *o point into argv. */
int kiln_render_options_parse(int argc, char **argv, kiln_render_options *o, FILE *out, FILE *messages);

#endif
