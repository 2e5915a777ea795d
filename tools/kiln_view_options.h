/* kiln-view's command line, read into one struct and checked strictly without a window or a
 * device over the tools' parser (tool_options.h); every refusal is one line on the stream the
 * caller passes (a command line with nothing to open is answered with the usage there). */
#ifndef KILN_VIEW_OPTIONS_H
#define KILN_VIEW_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <kiln/render.h>

#include "tool_options.h"

typedef struct kiln_view_options {
    const char *model;            /* MODEL.gltf|.glb; NULL with demo (or a program alone: the demo behind it) */
    bool demo;                    /* the built-in demo scene */
    const char *env_path;         /* --env FILE.hdr */
    const char *lut_path;         /* --lut FILE.cube */
    uint32_t width, height;       /* --size WxH, the window's size; default 1280x720 */
    bool vsync;                   /* --vsync on|off; default on */
    const char *screenshot_path;  /* --screenshot OUT.png: write the last of `frames` and exit */
    uint32_t frames;              /* --frames N, with --screenshot */
    const char *shader_dir;       /* --shader-dir DIR: the renderer's WGSL read, watched and reloaded from DIR */
    const char *script_path;      /* --script FILE: timed actions for tests (kiln_view_script.h) */
    bool hide_ui;                 /* --no-ui: start with the debug UI hidden (H shows it) */
    float time;                   /* --time SECONDS: the pose of every animation at the start (default 0) */
    bool play;                    /* --play: the animations run from the start (Space toggles) */
    const char *clip;             /* --clip NAME|INDEX: the one animation played (the model's names it); NULL: all */
    const char *program_path;     /* --program SCRIPT.json: a program script run into the window (kiln_view_program.h) */
    const char *program_texture;  /* --program-texture NAME: the texture shown, by "as" name or id */
    bool allow_outside_paths;     /* --allow-outside-paths: the script's wgsl_path may leave its directory */
    kiln_render_settings settings; /* the render settings' flags; shader_dir is --shader-dir's */
} kiln_view_options;

/* Reads argv[1..argc-1] into *o. TOOL_RUN when complete and consistent; 0 after --help or
 * --version, printed on out; else 2 with the reason written to messages. The strings point
 * into argv. */
int kiln_view_options_parse(int argc, char **argv, kiln_view_options *o, FILE *out, FILE *messages);

#endif
