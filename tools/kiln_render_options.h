/* kiln-render's command line: the flags read into one struct, checked strictly, without a device.
 *
 * Its own file so that the tool and the flag parser's fuzz target (tests/fuzz/fuzz_cli.c) link the
 * same code. The parser never exits and never writes to stdout: every refusal is one line (and for
 * an unknown argument or a missing model, the usage) on the stream the caller passes. */
#ifndef KILN_RENDER_OPTIONS_H
#define KILN_RENDER_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <kiln/render.h>

typedef struct kiln_render_options {
    const char *out_path, *model, *env_path;
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

/* Prints the usage on out (stdout for --help, stderr for a bad command line); returns status. */
int kiln_render_options_usage(FILE *out, int status);

/* Reads argv[1..argc-1] into *o (argv[0] is the program's name and is not read). Returns 0 when
 * the command line is complete and consistent, else 2 with the reason written to messages.
 * --help and --version are the caller's to handle before this. The strings in *o point into argv. */
int kiln_render_options_parse(int argc, char **argv, kiln_render_options *o, FILE *messages);

#endif
