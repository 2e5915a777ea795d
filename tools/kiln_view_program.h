/* kiln-view's program: a kiln-run style script (tools/program_script.h) run into the window
 * (docs/guides/viewer.md, "Programs").
 *
 * Every run is a fresh JSON runtime on the viewer's device. A run is good when every message is
 * answered Ok and it names a plain texture to show; only then does it replace the last good
 * run, whose runtime is destroyed. A run that fails changes nothing that is shown: the last good
 * run goes on, and `error` says why the new one failed (the script, the message's index, kind,
 * class and error: `blur.json: script[2] (program.register): invalid_wgsl: blur.wgsl:4:39: ...`).
 *
 * The texture shown is the one --program-texture names (an "as" name, with or without its '$',
 * or a texture id), else that of the script's last save_texture; the viewer writes no files, so
 * a save_texture only chooses what is shown. A program.dispatch carrying "every_frame" is
 * queued again every frame (before the window's pass, in the same command buffer), with
 * "every_frame": {"time_offset": B} writing the program clock, seconds as an f32, into bytes
 * B..B+3 of its uniforms first. kiln-run, like the JSON surface, ignores the field. */
#ifndef KILN_VIEW_PROGRAM_H
#define KILN_VIEW_PROGRAM_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/program_json.h>

/* One pass of a registered program, as its register message declared it. */
typedef struct view_program_pass {
    char stage[24];               /* the stage's form: "Fragment", "Draw" */
    char entry[64];               /* its (fragment) entry point */
} view_program_pass;

/* A program the script registered. */
typedef struct view_program_info {
    uint32_t id;                  /* its program id in the run's runtime */
    char label[64];               /* its label; empty without one */
    uint32_t pass_count;          /* entries of passes */
    view_program_pass *passes;
} view_program_info;

/* A dispatch marked "every_frame". */
typedef struct view_program_repeat {
    kiln_json_dispatch dispatch;  /* decoded once; the clock is written into its uniforms */
    bool timed;                   /* "time_offset" given */
    uint32_t time_offset;         /* byte offset of the clock in the uniforms */
} view_program_repeat;

/* What one good run left. */
typedef struct view_program_run {
    kiln_json_runtime *rt;        /* NULL: no good run */
    uint32_t texture;             /* the registry id shown */
    kiln_texture_info info;       /* its size and format */
    char shown_by[96];            /* what chose it: "--program-texture sheet", "save_texture at script[5]" */
    uint32_t message_count;       /* messages the script has */
    view_program_info *programs;  /* in register order */
    uint32_t program_count;
    view_program_repeat *repeats; /* in script order */
    uint32_t repeat_count;
} view_program_run;

typedef struct view_program {
    char *script_path;            /* owned; NULL: no program loaded */
    char *texture_name;           /* owned: --program-texture for this script; NULL: the last save_texture */
    bool allow_outside_paths;     /* wgsl_path may leave the script's directory */
    view_program_run run;         /* the last good run */
    char **watched;               /* the script and every wgsl_path file of its runs, to watch */
    uint32_t watched_count;
    char error[2048];             /* why the last run failed; empty after a good one */
    double time;                  /* the program clock, seconds: 0 for a new script, runs on across reloads */
    bool playing;                 /* the clock runs */
} view_program;

/* Runs the script at `path` with `texture_name` (NULL: the last save_texture) on `res`. Good, it
 * becomes the program; failed, the current program (if any) is kept whole, and false with err
 * (and vp->error unchanged when the path is a new one: what is watched is still the old). */
bool view_program_load(view_program *vp, kiln_gfx *gfx, kiln_resources *res, const char *path, const char *texture_name,
                       kiln_error *err);
/* Runs the loaded script again in a fresh runtime (its file or a WGSL file changed, or a new
 * device); false with err and vp->error when it failed, the last good run kept. */
bool view_program_rerun(view_program *vp, kiln_gfx *gfx, kiln_resources *res, kiln_error *err);
/* Moves the clock on by `seconds` while playing, queues the every_frame dispatches and records
 * every queued dispatch into `enc`. */
bool view_program_record(view_program *vp, double seconds, kiln_encoder *enc, kiln_error *err);
/* The view of the texture shown (id 0 with err when there is none). */
kiln_texture_view view_program_texture_view(view_program *vp, kiln_error *err);
/* The timing rows of the run's program `index` (of run.programs), at most max; 0 when none. */
uint32_t view_program_timings(const view_program *vp, uint32_t index, kiln_pass_timing *rows, uint32_t max);
/* The run's program log (drops and failures), or NULL without a run. */
kiln_log *view_program_log(view_program *vp);
/* Destroys the good run's runtime, keeping the script to run again (a lost device's runtime goes
 * before its resources). */
void view_program_release(view_program *vp);
void view_program_close(view_program *vp);

#endif
