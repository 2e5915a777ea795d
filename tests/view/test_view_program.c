/* kiln-view's program (tools/kiln_view_program.c) on a headless device, without a window: what
 * a good run of a script keeps (the texture shown and how it was chosen, each registered
 * program's passes, the every_frame dispatches, the files to watch), each reason a run fails
 * with its exact message, a failed rerun keeping the last good run, and the program clock
 * written into a repeated dispatch's uniforms. The window side is test_view_window.c.
 *
 * Scripts are written into $KILN_TEST_TMP/view_program/ beside a copy of
 * tests/view/programs/pulse.wgsl. */
#include <limits.h>
#include <math.h>
#include <sys/stat.h>

#include <kiln/core.h>

#include "gfx_fixture.h"
#include "kiln_view_program.h"

static char dir[PATH_MAX];

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

/* `name` in the scratch directory, which holds pulse.wgsl. */
static const char *scratch(const char *name) {
    static char paths[4][PATH_MAX + 64];
    static int next;
    char *p = paths[next++ % 4];
    snprintf(p, PATH_MAX + 64, "%s/%s", dir, name);
    return p;
}

static bool set_up(void) {
    fixture_tmp_path(dir, sizeof dir, "view_program");
    mkdir(dir, 0755);
    char command[3 * PATH_MAX];
    snprintf(command, sizeof command, "cp '%s/pulse.wgsl' '%s/pulse.json' '%s/'", KILN_VIEW_PROGRAMS_DIR, KILN_VIEW_PROGRAMS_DIR,
             dir);
    return system(command) == 0;
}

/* The pulse fixture's textures and program, for rows that add a dispatch. */
#define PULSE_HEAD                                                                                                      \
    "[{\"kind\": \"create_texture\", \"as\": \"sheet\", \"format\": \"Rgba8\", \"width\": 64, \"height\": 48, "           \
    "\"usage\": \"Writable\", \"sampling\": \"Nearest\"},\n"                                                            \
    " {\"kind\": \"program.register\", \"as\": \"pulse\", \"wgsl_path\": \"pulse.wgsl\", \"bindings\": [{\"format\": "    \
    "\"Rgba8\", \"shape\": {\"Target\": \"Full\"}, \"sampling\": \"Texel\"}], \"transients\": [], \"geometries\": [], "    \
    "\"depth_transients\": [], \"passes\": [{\"stage\": \"Fragment\", \"entry_point\": \"fs_pulse\", \"inputs\": [], "    \
    "\"output\": {\"Binding\": {\"index\": 0}}, \"blend\": \"Replace\", \"uniform_offset\": 0, \"uniform_length\": 16, " \
    "\"repeat\": null}]},\n"
#define PULSE_DISPATCH(extra)                                                                                           \
    " {\"kind\": \"program.dispatch\", \"program_id\": \"$pulse\", \"bindings\": [\"$sheet\"], \"geometries\": [], "      \
    "\"draw_sets\": [], \"uniforms\": {\"f32\": [0, 20, 1, 0]}" extra "},\n"
#define SAVE_SHEET " {\"kind\": \"save_texture\", \"texture_id\": \"$sheet\", \"path\": \"sheet.png\"}]"

TEST(a_good_run_keeps_the_texture_its_programs_and_what_to_watch) {
    if (!set_up()) SKIP("cannot copy the pulse fixture");
    gfx_fixture f;
    FIXTURE_OPEN(f);
    view_program vp = {.playing = true};
    kiln_error err = {0};
    bool ok = view_program_load(&vp, f.gfx, f.res, scratch("pulse.json"), NULL, &err);
    CHECK_MSG(ok, "%s", err.message);
    const view_program_run *r = &vp.run;
    CHECK_EQ_INT(r->texture, 2); /* the sheet, after the ramp */
    CHECK(r->info.width == 64 && r->info.height == 48 && r->info.format == KILN_FORMAT_RGBA8);
    CHECK(!strcmp(r->shown_by, "save_texture at script[5]"));
    CHECK_EQ_INT(r->message_count, 6);
    CHECK_EQ_INT(r->program_count, 1);
    CHECK(!strcmp(r->programs[0].label, "pulse") && r->programs[0].pass_count == 1);
    CHECK(!strcmp(r->programs[0].passes[0].stage, "Fragment") && !strcmp(r->programs[0].passes[0].entry, "fs_pulse"));
    CHECK_EQ_INT(r->repeat_count, 1);
    CHECK(r->repeats[0].timed && r->repeats[0].time_offset == 0);
    CHECK_EQ_INT(vp.watched_count, 2);
    CHECK(!strcmp(vp.watched[0], scratch("pulse.json")) && !strcmp(vp.watched[1], scratch("pulse.wgsl")));
    CHECK(vp.error[0] == '\0');
    kiln_pass_timing rows[2];
    CHECK_EQ_INT(view_program_timings(&vp, 0, rows, 2), 1);
    CHECK(rows[0].stage == KILN_STAGE_FRAGMENT && rows[0].width == 64 && rows[0].height == 48);
    view_program_close(&vp);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(program_texture_names_a_texture_by_its_as_name_or_its_id) {
    if (!set_up()) SKIP("cannot copy the pulse fixture");
    gfx_fixture f;
    FIXTURE_OPEN(f);
    static const char *const names[] = {"ramp", "$ramp", "1"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        view_program vp = {0};
        kiln_error err = {0};
        bool ok = view_program_load(&vp, f.gfx, f.res, scratch("pulse.json"), names[i], &err);
        CHECK_MSG(ok, "%s: %s", names[i], err.message);
        CHECK_EQ_INT(vp.run.texture, 1);
        CHECK(vp.run.info.format == KILN_FORMAT_R8 && vp.run.info.width == 4);
        char want[64];
        snprintf(want, sizeof want, "--program-texture %s", names[i]);
        CHECK(!strcmp(vp.run.shown_by, want));
        view_program_close(&vp);
    }
    FIXTURE_CLOSE_CLEAN(f);
}

/* Each way a run fails, and its message after the script's path. */
TEST(a_failed_run_says_why_naming_the_message) {
    if (!set_up()) SKIP("cannot copy the pulse fixture");
    static const struct {
        const char *script, *texture, *error;
    } rows[] = {
        {"[{\"kind\": \"frame\", \"as\": 3}]", NULL, "script[0] (frame): bad_message: as: expected a string"},
        {"[{\"kind\": \"frame\"}]", NULL,
         "the script saves no texture to show: add a save_texture, or name one with --program-texture"},
        {"[{\"kind\": \"frame\", \"every_frame\": true}]", NULL,
         "script[0] (frame): every_frame: only a program.dispatch is repeated every frame"},
        {PULSE_HEAD PULSE_DISPATCH(", \"every_frame\": 3") SAVE_SHEET, NULL,
         "script[2] (program.dispatch): every_frame: expected true or {\"time_offset\": BYTES}"},
        {PULSE_HEAD PULSE_DISPATCH(", \"every_frame\": {\"time_offset\": 13}") SAVE_SHEET, NULL,
         "script[2] (program.dispatch): every_frame.time_offset: 13 + 4 bytes pass the 16-byte uniforms"},
        {PULSE_HEAD SAVE_SHEET, "nosuch", "--program-texture nosuch names no texture of the script"},
        {PULSE_HEAD SAVE_SHEET, "9", "--program-texture 9: no texture 9"},
        {"[{\"kind\": \"create_texture_array\", \"as\": \"layers\", \"format\": \"R8\", \"side\": 4, \"layers\": 2, "
         "\"mips\": \"Base\"}]",
         "layers", "--program-texture layers: texture 1 is not a plain texture, which is what kiln-view shows"},
        {"[{\"kind\": \"program.register\", \"label\": \"bad\", \"wgsl_path\": \"broken.wgsl\", \"bindings\": [], "
         "\"transients\": [], \"geometries\": [], \"depth_transients\": [], \"passes\": [{\"stage\": \"Fragment\", "
         "\"entry_point\": \"f\", \"inputs\": [], \"output\": {\"Binding\": {\"index\": 0}}, \"blend\": \"Replace\", "
         "\"uniform_offset\": 0, \"uniform_length\": 0, \"repeat\": null}]}]",
         NULL, "script[0] (program.register): invalid_wgsl: program \"bad\": broken.wgsl:1:5: '(' is never closed"},
        {"[{\"kind\": \"frame\"},", NULL, "malformed JSON: line 1, column 19: ']' expected near end of file"},
        {"{}", NULL, "expected a JSON array of messages"},
    };
    write_text(scratch("broken.wgsl"), "fn f( {}\n");
    gfx_fixture f;
    FIXTURE_OPEN(f);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        write_text(scratch("row.json"), rows[i].script);
        view_program vp = {0};
        kiln_error err = {0};
        CHECK_MSG(!view_program_load(&vp, f.gfx, f.res, scratch("row.json"), rows[i].texture, &err), "row %zu ran", i);
        char want[1024];
        snprintf(want, sizeof want, "%s: %s", scratch("row.json"), rows[i].error);
        CHECK_MSG(!strncmp(err.message, want, strlen(want)), "row %zu:\n  got  %s\n  want %s", i, err.message, want);
        CHECK_MSG(vp.script_path == NULL && vp.run.rt == NULL, "row %zu", i);
    }
    FIXTURE_CLOSE_CLEAN(f);
}

/* A wgsl_path that cannot be read stops the run, and is watched: creating it runs the script. */
TEST(an_unreadable_wgsl_path_fails_the_run_and_is_watched) {
    if (!set_up()) SKIP("cannot copy the pulse fixture");
    gfx_fixture f;
    FIXTURE_OPEN(f);
    view_program vp = {0};
    kiln_error err = {0};
    CHECK(view_program_load(&vp, f.gfx, f.res, scratch("pulse.json"), NULL, &err));
    remove(scratch("pulse.wgsl"));
    CHECK(!view_program_rerun(&vp, f.gfx, f.res, &err));
    char want[3 * PATH_MAX];
    snprintf(want, sizeof want, "%s: script[2]: wgsl_path: cannot read '%s': No such file or directory", scratch("pulse.json"),
             scratch("pulse.wgsl"));
    CHECK_MSG(!strcmp(vp.error, want), "%s", vp.error);
    CHECK_EQ_INT(vp.watched_count, 2);
    CHECK(!strcmp(vp.watched[1], scratch("pulse.wgsl")));
    view_program_close(&vp);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(a_failed_rerun_keeps_the_last_good_run_and_a_good_one_replaces_it) {
    if (!set_up()) SKIP("cannot copy the pulse fixture");
    gfx_fixture f;
    FIXTURE_OPEN(f);
    view_program vp = {0};
    kiln_error err = {0};
    CHECK(view_program_load(&vp, f.gfx, f.res, scratch("pulse.json"), NULL, &err));
    kiln_json_runtime *good = vp.run.rt;
    write_text(scratch("pulse.wgsl"), "fn f( {}\n");
    CHECK(!view_program_rerun(&vp, f.gfx, f.res, &err));
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want, "%s: script[2] (program.register): invalid_wgsl: program \"pulse\": pulse.wgsl:1:5: '(' is "
             "never closed", scratch("pulse.json"));
    CHECK_MSG(!strcmp(vp.error, want), "%s", vp.error);
    CHECK(!strcmp(err.message, want));
    CHECK(vp.run.rt == good && vp.run.texture == 2);
    CHECK(view_program_texture_view(&vp, &err).id != 0);
    /* A new script that fails keeps the loaded one, and says nothing in `error` of the loaded one. */
    write_text(scratch("other.json"), "[]");
    CHECK(!view_program_load(&vp, f.gfx, f.res, scratch("other.json"), NULL, &err));
    CHECK(!strcmp(vp.script_path, scratch("pulse.json")) && !strcmp(vp.error, want));
    set_up();
    CHECK_MSG(view_program_rerun(&vp, f.gfx, f.res, &err), "%s", err.message);
    CHECK(vp.error[0] == '\0' && vp.run.rt != NULL && vp.run.rt != good);
    view_program_close(&vp);
    FIXTURE_CLOSE_CLEAN(f);
}

/* The sheet's red is 0.5 + 0.5 sin(20 t) for the clock t written at byte 0 of the uniforms. */
static int red_at_clock(gfx_fixture *f, view_program *vp, double seconds) {
    kiln_error err = {0};
    kiln_encoder enc;
    if (!kiln_encoder_begin(&enc, f->res, "test", &err) || !view_program_record(vp, seconds, &enc, &err) ||
        !kiln_encoder_finish_and_submit(&enc, &err))
        return -1;
    void *pixels = NULL;
    size_t size = 0;
    kiln_texture_registry *reg = kiln_json_runtime_textures(vp->run.rt);
    if (!kiln_texture_registry_read(reg, vp->run.texture, &pixels, &size, &err)) return -1;
    int red = ((const uint8_t *)pixels)[0];
    free(pixels);
    return red;
}

TEST(an_every_frame_dispatch_reads_the_clock_which_stops_when_paused) {
    if (!set_up()) SKIP("cannot copy the pulse fixture");
    gfx_fixture f;
    FIXTURE_OPEN(f);
    view_program vp = {.playing = true};
    kiln_error err = {0};
    CHECK(view_program_load(&vp, f.gfx, f.res, scratch("pulse.json"), NULL, &err));
    int red = red_at_clock(&f, &vp, 0.05);
    CHECK_NEAR(vp.time, 0.05, 1e-12);
    CHECK_NEAR(red, 255.0 * (0.5 + 0.5 * sin(1.0)), 1.0);
    red = red_at_clock(&f, &vp, 0.2);
    CHECK_NEAR(red, 255.0 * (0.5 + 0.5 * sin(5.0)), 1.0);
    vp.playing = false;
    CHECK_EQ_INT(red_at_clock(&f, &vp, 1.0), red);
    CHECK_NEAR(vp.time, 0.25, 1e-12);
    view_program_close(&vp);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(a_good_run_keeps_the_texture_its_programs_and_what_to_watch),
          T(program_texture_names_a_texture_by_its_as_name_or_its_id), T(a_failed_run_says_why_naming_the_message),
          T(an_unreadable_wgsl_path_fails_the_run_and_is_watched),
          T(a_failed_rerun_keeps_the_last_good_run_and_a_good_one_replaces_it),
          T(an_every_frame_dispatch_reads_the_clock_which_stops_when_paused))
