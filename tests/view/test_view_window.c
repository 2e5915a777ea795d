/* kiln-view end to end, under Xvfb on lavapipe (ctest runs it through xvfb-run): the viewer is
 * run the way a person runs it, with --script driving resizes, keys and file edits through the
 * same handlers the window's events reach, and its PNGs compared:
 *
 *   - its --screenshot after 10 frames matches headless kiln-render of the same model and size
 *     within the golden thresholds (luma SSIM >= 0.985, <= 0.5% of pixels off by > 8/255);
 *   - an animated model posed with --time matches kiln-render --time; --play runs its
 *     animations and Space pauses them;
 *   - resizing, minimising and restoring leave zero Dawn validation errors (kiln-view exits 1
 *     on any), minimised frames are skipped rather than rendered;
 *   - an edit of the tone-map shader in a copied shader directory changes the next frame, and a
 *     broken edit keeps the previous image and names the file and line;
 *   - a model file rewritten on disk is reloaded, a broken rewrite keeps the previous model;
 *     a material edit is swapped in place (the log says so) and changes the next frame, a
 *     change of structure takes the full reload and says why;
 *   - --clip 0 and --clip 1 of a two-clip model render differently at the same --time;
 *   - an environment map rewritten on disk is reloaded;
 *   - a model or map dropped on the window opens (the demo replaced, the dropped file then
 *     watched), a bad drop keeps the scene;
 *   - hiding a node of the scene tree hides what it and the nodes below it draw, and showing
 *     it again brings the frame back;
 *   - the debug UI changes pixels only inside the rectangles it reports having drawn, and H
 *     hides it;
 *   - a lost device is recreated, with the renderer and the scene, and the frame after is the
 *     frame before (the environment map and textures uploaded again from their CPU copies);
 *   - a model that cannot be read fails at start with one line;
 *   - a program script (--program) shows the sheet kiln-run saves, pixel for pixel (the
 *     watercolour and shadow examples), a --program-texture fitted on the background; a dispatch
 *     marked every_frame animates with the program clock and Space pauses it; the script or its
 *     WGSL edited on disk runs again, a broken edit keeping the image and reporting the error; a
 *     dropped script runs and V switches between it and the scene; a lost device runs the
 *     script again; the program view's UI draws only where it says; a script that fails at
 *     start exits with its reason in one line.
 *
 * Skips without the sample assets (tests/view/models' own files need none). Scratch files go to
 * $KILN_TEST_TMP/view/. */
#include <limits.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <kiln/core.h>

#include "test.h"

#define MIN_SSIM 0.985
#define MAX_DIFF_FRACTION 0.005
#define DIFF_THRESHOLD 8

static char bin_dir[PATH_MAX], tmp_dir[PATH_MAX], assets[PATH_MAX];

static bool set_up(void) {
    ssize_t n = readlink("/proc/self/exe", bin_dir, sizeof bin_dir - 1);
    if (n <= 0) return false;
    bin_dir[n] = '\0';
    *strrchr(bin_dir, '/') = '\0';
    const char *tmp = getenv("KILN_TEST_TMP"), *a = getenv("KILN_ASSETS");
    snprintf(tmp_dir, sizeof tmp_dir, "%s/view", tmp && *tmp ? tmp : "/tmp");
    mkdir(tmp_dir, 0755);
    snprintf(assets, sizeof assets, "%s", a && *a ? a : "../shared/assets");
    return true;
}

static bool exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs a shell command line (printf-formatted); its exit status, or -1. */
static int shell(const char *fmt, ...) {
    char command[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(command, sizeof command, fmt, ap);
    va_end(ap);
    int status = system(command);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The whole of a (small) text file, in a static buffer. */
static const char *slurp(const char *path) {
    static char text[65536];
    text[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f) return text;
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) fputs(text, f), fclose(f);
}

/* `name` under the scratch directory. */
static const char *scratch(const char *name) {
    static char paths[16][PATH_MAX + 64];
    static int next;
    char *p = paths[next++ % 16];
    snprintf(p, PATH_MAX + 64, "%s/%s", tmp_dir, name);
    return p;
}

/* kiln-view with `args`, stderr into `log`: its exit status. */
static int view(const char *log, const char *args) {
    return shell("'%s/kiln-view' %s 2>'%s'", bin_dir, args, log);
}

typedef struct comparison {
    double ssim, differing;
    bool same_size;
} comparison;

static bool compare(const char *a_path, const char *b_path, comparison *out) {
    kiln_image a = {0}, b = {0};
    kiln_error err = {0};
    bool ok = kiln_image_load(&a, a_path, &err) && kiln_image_load(&b, b_path, &err);
    out->same_size = ok && a.width == b.width && a.height == b.height;
    ok = ok && out->same_size && kiln_image_ssim(&a, &b, &out->ssim, &err) &&
         kiln_image_diff_fraction(&a, &b, DIFF_THRESHOLD, &out->differing, &err);
    if (!ok) fprintf(stderr, "compare %s %s: %s\n", a_path, b_path, out->same_size ? err.message : "sizes differ");
    kiln_image_free(&a);
    kiln_image_free(&b);
    return ok;
}

static bool within_golden_thresholds(const comparison *c) { return c->ssim >= MIN_SSIM && c->differing <= MAX_DIFF_FRACTION; }

static bool size_of(const char *path, uint32_t *w, uint32_t *h) {
    kiln_image img = {0};
    bool ok = kiln_image_load(&img, path, NULL);
    *w = img.width, *h = img.height;
    kiln_image_free(&img);
    return ok;
}

/* `out` = $KILN_ASSETS/relative; skips the test when it is not there. */
#define NEED_ASSET(out, relative)                                                            \
    do {                                                                                     \
        if (!set_up()) SKIP("cannot find the test's own directory");                         \
        snprintf(out, sizeof out, "%s/%s", assets, relative);                                \
        if (!exists(out)) SKIP("no %s (KILN_ASSETS is '%s')", out, assets);                 \
    } while (0)

/* The viewer's first frames are kiln-render's: same framing, same sun, same environment. */
static void check_matches_kiln_render(const char *model, const char *name, const char *flags) {
    char view_png[PATH_MAX + 64], render_png[PATH_MAX + 64], args[4 * PATH_MAX];
    snprintf(view_png, sizeof view_png, "%s/%s-view.png", tmp_dir, name);
    snprintf(render_png, sizeof render_png, "%s/%s-render.png", tmp_dir, name);
    snprintf(args, sizeof args, "'%s' --size 320x240 %s --screenshot '%s' --frames 10", model, flags, view_png);
    int status = view(scratch("match.log"), args);
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, slurp(scratch("match.log")));
    status = shell("'%s/kiln-render' '%s' --size 320x240 %s -o '%s' 2>'%s'", bin_dir, model, flags, render_png, scratch("render.log"));
    CHECK_MSG(status == 0, "kiln-render exited %d: %s", status, slurp(scratch("render.log")));
    comparison c;
    CHECK(compare(view_png, render_png, &c));
    printf("     %s: SSIM %.5f, %.3f%% of pixels over %d/255\n", name, c.ssim, 100.0 * c.differing, DIFF_THRESHOLD);
    CHECK(within_golden_thresholds(&c));
}

TEST(the_tenth_frame_matches_kiln_render_of_the_same_model) {
    char model[PATH_MAX + 64];
    NEED_ASSET(model, "gltf/DamagedHelmet/DamagedHelmet.glb");
    check_matches_kiln_render(model, "helmet", "");
}

TEST(the_tenth_frame_matches_kiln_render_with_an_environment_map) {
    char model[PATH_MAX + 64], flags[PATH_MAX + 64];
    NEED_ASSET(model, "gltf/DamagedHelmet/DamagedHelmet.glb");
    snprintf(flags, sizeof flags, "--env '%s/env/chinese_garden_1k.hdr'", assets);
    check_matches_kiln_render(model, "helmet-env", flags);
}

TEST(an_animated_model_at_a_time_matches_kiln_render_plays_and_pauses) {
    char model[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/CesiumMan/CesiumMan.glb");
    check_matches_kiln_render(model, "cesium-at-1s", "--time 1");
    snprintf(script, sizeof script, "at 2 screenshot %s\nat 6 screenshot %s\nat 7 key SPACE\nat 8 screenshot %s\nat 10 screenshot %s\n",
             scratch("play-1.png"), scratch("play-2.png"), scratch("pause-1.png"), scratch("pause-2.png"));
    write_text(scratch("play.script"), script);
    snprintf(args, sizeof args, "'%s' --size 160x120 --play --script '%s' --screenshot '%s' --frames 10", model,
             scratch("play.script"), scratch("play-final.png"));
    int status = view(scratch("play.log"), args);
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, slurp(scratch("play.log")));
    comparison playing, paused;
    CHECK(compare(scratch("play-1.png"), scratch("play-2.png"), &playing));
    CHECK(compare(scratch("pause-1.png"), scratch("pause-2.png"), &paused));
    CHECK_MSG(playing.differing > 0.001, "playing changed only %.3f%% of pixels", 100.0 * playing.differing);
    CHECK_EQ_INT(paused.differing, 0);
}

TEST(resize_minimise_and_restore_leave_no_validation_errors) {
    char model[PATH_MAX + 64], args[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/Box/Box.glb");
    write_text(scratch("resize.script"), "at 2 resize 200x150\n"
                                         "at 4 minimise\n"
                                         "at 7 restore\n"
                                         "at 8 key F\n"
                                         "at 9 resize 256x128\n"
                                         "at 10 key C\n");
    snprintf(args, sizeof args, "'%s' --size 160x120 --script '%s' --screenshot '%s' --frames 8", model,
             scratch("resize.script"), scratch("resized.png"));
    int status = view(scratch("resize.log"), args);
    const char *log = slurp(scratch("resize.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log); /* 1 on any validation error */
    CHECK(!strstr(log, "validation"));
    uint32_t w = 0, h = 0;
    CHECK(size_of(scratch("resized.png"), &w, &h));
    CHECK_EQ_INT(w, 256);
    CHECK_EQ_INT(h, 128);
    unsigned skipped = 0, reconfigures = 0;
    const char *summary = strstr(log, "frames (");
    CHECK_MSG(summary && sscanf(summary, "frames (%u skipped while minimised, %u reconfigures)", &skipped, &reconfigures) == 2,
              "%s", log);
    CHECK_EQ_INT(skipped, 3); /* ticks 4, 5 and 6 */
    CHECK(reconfigures >= 2); /* 200x150, then 256x128 */
}

/* The tone-map program, copied with the renderer's other shaders. */
TEST(a_shader_edit_changes_the_next_frame_and_a_broken_edit_keeps_it) {
    char model[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/Box/Box.glb");
    const char *dir = scratch("shaders");
    CHECK(shell("rm -rf '%s' && cp -r '%s' '%s'", dir, KILN_RENDER_SHADER_DIR, dir) == 0);
    const char *post = scratch("shaders/post.wgsl");
    /* The exposure's product, scaled by a constant; then a parenthesis left open. */
    const char *line_text = "color = tonemap_apply(post.tonemapper, color, post.exposure);";
    CHECK(strstr(slurp(post), line_text));
    snprintf(script, sizeof script,
             "at 2 screenshot %s\n"
             "at 3 run sed -i 's/post.exposure);/post.exposure) * 0.25;/' '%s'\n"
             "at 3 screenshot %s\n"
             "at 4 run sed -i 's/post.exposure) \\* 0.25;/post.exposure) * (0.25;/' '%s'\n"
             "at 4 screenshot %s\n",
             scratch("shader-before.png"), post, scratch("shader-after.png"), post, scratch("shader-broken.png"));
    write_text(scratch("shader.script"), script);
    snprintf(args, sizeof args, "'%s' --size 160x120 --shader-dir '%s' --script '%s' --screenshot '%s' --frames 5", model,
             dir, scratch("shader.script"), scratch("shader-final.png"));
    int status = view(scratch("shader.log"), args);
    const char *log = slurp(scratch("shader.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    comparison edited, broken;
    CHECK(compare(scratch("shader-before.png"), scratch("shader-after.png"), &edited));
    CHECK(compare(scratch("shader-after.png"), scratch("shader-broken.png"), &broken));
    CHECK_MSG(edited.differing > 0.5, "the edit changed only %.1f%% of pixels", 100.0 * edited.differing);
    CHECK_EQ_INT(broken.differing, 0);
    /* The broken line's file and line: where the parenthesis is left open. */
    int line = 0, n = 1;
    for (const char *p = slurp(post); *p && !line; p++) {
        if (!strncmp(p, "color = tonemap_apply(post.tonemapper, color, post.exposure) * (0.25;", 69)) line = n;
        if (*p == '\n') n++;
    }
    CHECK(line > 0);
    char where[64];
    snprintf(where, sizeof where, "post.wgsl:%d:", line);
    CHECK_STR_CONTAINS(slurp(scratch("shader.log")), where);
    CHECK_STR_CONTAINS(slurp(scratch("shader.log")), "keeping the last good module");
}

TEST(a_model_rewritten_on_disk_is_reloaded_and_a_broken_one_keeps_the_last) {
    char box[PATH_MAX + 64], textured[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(box, "gltf/Box/Box.glb");
    snprintf(textured, sizeof textured, "%s/gltf/BoxTextured/BoxTextured.glb", assets);
    const char *model = scratch("model.glb");
    CHECK(shell("cp '%s' '%s'", box, model) == 0);
    snprintf(script, sizeof script,
             "at 2 screenshot %s\n"
             "at 3 run cp '%s' '%s'\n"
             "at 3 screenshot %s\n"
             "at 4 run printf 'not a model' > '%s'\n"
             "at 4 screenshot %s\n",
             scratch("model-before.png"), textured, model, scratch("model-after.png"), model, scratch("model-broken.png"));
    write_text(scratch("model.script"), script);
    snprintf(args, sizeof args, "'%s' --size 160x120 --script '%s' --screenshot '%s' --frames 5", model,
             scratch("model.script"), scratch("model-final.png"));
    int status = view(scratch("model.log"), args);
    const char *log = slurp(scratch("model.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_STR_CONTAINS(log, "reloaded ");
    CHECK_STR_CONTAINS(log, "reload failed, keeping the previous model: model.glb: ");
    comparison reloaded, broken;
    CHECK(compare(scratch("model-before.png"), scratch("model-after.png"), &reloaded));
    CHECK(compare(scratch("model-after.png"), scratch("model-broken.png"), &broken));
    CHECK_MSG(reloaded.differing > 0.05, "the reload changed only %.2f%% of pixels", 100.0 * reloaded.differing);
    CHECK_EQ_INT(broken.differing, 0);
}

TEST(clip_0_and_clip_1_render_differently_at_the_same_time) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[4 * PATH_MAX];
    const char *names[3] = {"clip-0.png", "clip-1.png", "clip-all.png"}, *flags[3] = {"--clip 0", "--clip stretch", ""};
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "'%s/clips.gltf' --size 160x120 --time 1 %s --screenshot '%s' --frames 3",
                 KILN_VIEW_MODELS_DIR, flags[i], scratch(names[i]));
        int status = view(scratch("clip.log"), args);
        CHECK_MSG(status == 0, "kiln-view %s exited %d: %s", flags[i], status, slurp(scratch("clip.log")));
    }
    comparison spin_stretch, spin_all, stretch_all;
    CHECK(compare(scratch("clip-0.png"), scratch("clip-1.png"), &spin_stretch));
    CHECK(compare(scratch("clip-0.png"), scratch("clip-all.png"), &spin_all));
    CHECK(compare(scratch("clip-1.png"), scratch("clip-all.png"), &stretch_all));
    printf("     differing: spin/stretch %.1f%%, spin/all %.1f%%, stretch/all %.1f%%\n", 100.0 * spin_stretch.differing,
           100.0 * spin_all.differing, 100.0 * stretch_all.differing);
    CHECK(spin_stretch.differing > 0.05);
    CHECK(spin_all.differing > 0.05);
    CHECK(stretch_all.differing > 0.05);
}

TEST(a_material_edit_reloads_in_place_and_a_new_structure_in_full) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[4 * PATH_MAX], script[4 * PATH_MAX];
    const char *model = scratch("paint.gltf");
    CHECK(shell("cp '%s/clips.gltf' '%s'", KILN_VIEW_MODELS_DIR, model) == 0);
    snprintf(script, sizeof script,
             "at 2 screenshot %s\n"
             "at 3 run sed -i 's/\"baseColorFactor\": \\[0.8, 0.3, 0.1, 1.0\\]/\"baseColorFactor\": [0.1, 0.3, 0.8, 1.0]/' '%s'\n"
             "at 3 screenshot %s\n"
             "at 4 run cp '%s/clips_two_meshes.gltf' '%s'\n"
             "at 4 screenshot %s\n",
             scratch("paint-before.png"), model, scratch("paint-after.png"), KILN_VIEW_MODELS_DIR, model,
             scratch("paint-grown.png"));
    write_text(scratch("paint.script"), script);
    snprintf(args, sizeof args, "'%s' --size 160x120 --script '%s' --screenshot '%s' --frames 5", model,
             scratch("paint.script"), scratch("paint-final.png"));
    int status = view(scratch("paint.log"), args);
    const char *log = slurp(scratch("paint.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_STR_CONTAINS(log, "paint.gltf in place: its meshes and materials replaced under the same slots");
    CHECK_STR_CONTAINS(log, "paint.gltf in full, in new slots: the structure changed (2 meshes, was 1)");
    comparison recoloured, grown;
    CHECK(compare(scratch("paint-before.png"), scratch("paint-after.png"), &recoloured));
    CHECK(compare(scratch("paint-after.png"), scratch("paint-grown.png"), &grown));
    CHECK_MSG(recoloured.differing > 0.05, "the new colour changed only %.2f%% of pixels", 100.0 * recoloured.differing);
    CHECK_MSG(grown.differing > 0.01, "the second mesh changed only %.2f%% of pixels", 100.0 * grown.differing);
}

TEST(an_environment_map_rewritten_on_disk_is_reloaded) {
    char model[PATH_MAX + 64], garden[PATH_MAX + 64], sunset[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/Box/Box.glb");
    snprintf(garden, sizeof garden, "%s/env/chinese_garden_1k.hdr", assets);
    snprintf(sunset, sizeof sunset, "%s/env/venice_sunset_1k.hdr", assets);
    const char *env = scratch("env.hdr");
    CHECK(shell("cp '%s' '%s'", garden, env) == 0);
    snprintf(script, sizeof script, "at 2 screenshot %s\nat 3 run cp '%s' '%s'\nat 3 screenshot %s\n",
             scratch("env-before.png"), sunset, env, scratch("env-after.png"));
    write_text(scratch("env.script"), script);
    snprintf(args, sizeof args, "'%s' --size 160x120 --env '%s' --script '%s' --screenshot '%s' --frames 3", model, env,
             scratch("env.script"), scratch("env-final.png"));
    int status = view(scratch("env.log"), args);
    const char *log = slurp(scratch("env.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_STR_CONTAINS(log, "reloaded ");
    comparison c;
    CHECK(compare(scratch("env-before.png"), scratch("env-after.png"), &c));
    CHECK_MSG(c.differing > 0.2, "the new map changed only %.1f%% of pixels", 100.0 * c.differing);
}

TEST(a_dropped_model_or_map_opens_and_a_bad_drop_keeps_the_scene) {
    char textured[PATH_MAX + 64], box[PATH_MAX + 64], env[PATH_MAX + 64], args[4 * PATH_MAX], script[8 * PATH_MAX];
    NEED_ASSET(textured, "gltf/BoxTextured/BoxTextured.glb");
    NEED_ASSET(box, "gltf/Box/Box.glb");
    NEED_ASSET(env, "env/venice_sunset_1k.hdr");
    const char *dropped = scratch("dropped.glb"), *bad = scratch("bad.glb");
    CHECK(shell("cp '%s' '%s'", textured, dropped) == 0);
    write_text(bad, "not a model");
    snprintf(script, sizeof script,
             "at 2 screenshot %s\n"
             "at 3 drop %s\nat 3 screenshot %s\n"
             "at 4 drop %s\nat 4 screenshot %s\n"
             "at 5 drop %s\nat 5 screenshot %s\n"
             "at 6 drop %s\n"
             "at 7 run cp '%s' '%s'\nat 7 screenshot %s\n",
             scratch("drop-demo.png"), dropped, scratch("drop-model.png"), bad, scratch("drop-bad.png"), env,
             scratch("drop-env.png"), scratch("program.json"), box, dropped, scratch("drop-reloaded.png"));
    write_text(scratch("drop.script"), script);
    snprintf(args, sizeof args, "--demo --size 160x120 --script '%s' --screenshot '%s' --frames 7", scratch("drop.script"),
             scratch("drop-final.png"));
    int status = view(scratch("drop.log"), args);
    const char *log = slurp(scratch("drop.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_STR_CONTAINS(log, "cannot open ");
    CHECK_STR_CONTAINS(log, "bad.glb, keeping the current scene: bad.glb: ");
    CHECK_STR_CONTAINS(log, "reloaded ");
    CHECK_STR_CONTAINS(strstr(log, "reloaded "), "dropped.glb");
    CHECK_STR_CONTAINS(log, "program.json, keeping the current program: cannot read '");
    comparison opened, kept, lit, reloaded;
    CHECK(compare(scratch("drop-demo.png"), scratch("drop-model.png"), &opened));
    CHECK(compare(scratch("drop-model.png"), scratch("drop-bad.png"), &kept));
    CHECK(compare(scratch("drop-bad.png"), scratch("drop-env.png"), &lit));
    CHECK(compare(scratch("drop-env.png"), scratch("drop-reloaded.png"), &reloaded));
    CHECK_MSG(opened.differing > 0.5, "the dropped model changed only %.1f%% of pixels", 100.0 * opened.differing);
    CHECK_EQ_INT(kept.differing, 0);
    CHECK_MSG(lit.differing > 0.2, "the dropped map changed only %.1f%% of pixels", 100.0 * lit.differing);
    CHECK_MSG(reloaded.differing > 0.02, "rewriting the dropped model changed only %.2f%% of pixels", 100.0 * reloaded.differing);
}

TEST(hiding_a_node_hides_its_subtree_and_showing_it_brings_the_frame_back) {
    char model[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/Box/Box.glb");
    snprintf(script, sizeof script, "at 2 screenshot %s\nat 3 hide 0\nat 3 screenshot %s\nat 4 show 0\nat 4 screenshot %s\n",
             scratch("tree-all.png"), scratch("tree-hidden.png"), scratch("tree-shown.png"));
    write_text(scratch("tree.script"), script);
    snprintf(args, sizeof args, "'%s' --size 160x120 --script '%s' --screenshot '%s' --frames 4", model, scratch("tree.script"),
             scratch("tree-final.png"));
    int status = view(scratch("tree.log"), args);
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, slurp(scratch("tree.log")));
    comparison hidden, shown;
    CHECK(compare(scratch("tree-all.png"), scratch("tree-hidden.png"), &hidden));
    CHECK(compare(scratch("tree-all.png"), scratch("tree-shown.png"), &shown));
    /* Box.glb's node 0 is the root above its mesh node: hiding it leaves the sky alone. */
    CHECK_MSG(hidden.differing > 0.1, "hiding the root changed only %.1f%% of pixels", 100.0 * hidden.differing);
    CHECK_EQ_INT(shown.differing, 0);
    snprintf(script, sizeof script, "at 2 hide 99\n");
    write_text(scratch("tree-bad.script"), script);
    snprintf(args, sizeof args, "'%s' --size 64x64 --script '%s'", model, scratch("tree-bad.script"));
    CHECK_EQ_INT(view(scratch("tree-bad.log"), args), 1);
    CHECK_STR_CONTAINS(slurp(scratch("tree-bad.log")), "tree-bad.script:1: no node 99 in the model");
}

/* The rectangles of the "ui rects:" line that follows the log's `nth` (from 0) such line. */
static uint32_t ui_rects(const char *log, int nth, int32_t rects[][4], uint32_t max) {
    const char *at = log;
    for (int i = 0; i <= nth; i++) {
        at = strstr(at, "ui rects:");
        if (!at) return 0;
        at += strlen("ui rects:");
    }
    uint32_t n = 0;
    int used = 0;
    while (n < max && sscanf(at, " %d,%d,%d,%d%n", &rects[n][0], &rects[n][1], &rects[n][2], &rects[n][3], &used) == 4) at += used, n++;
    return n;
}

static bool inside_any(int32_t x, int32_t y, int32_t rects[][4], uint32_t n) {
    for (uint32_t i = 0; i < n; i++)
        if (x >= rects[i][0] && y >= rects[i][1] && x < rects[i][0] + rects[i][2] && y < rects[i][1] + rects[i][3]) return true;
    return false;
}

/* The pixels of `with_ui` that differ from `scene`, inside and outside the rectangles, and the
 * area the rectangles cover; false when the images cannot be read. */
typedef struct ui_changes {
    uint64_t inside, outside, area;
} ui_changes;

static bool count_ui_changes(const char *scene_png, const char *with_ui_png, int32_t rects[][4], uint32_t n, ui_changes *out) {
    kiln_image scene = {0}, shown = {0};
    bool ok = kiln_image_load(&scene, scene_png, NULL) && kiln_image_load(&shown, with_ui_png, NULL) &&
              scene.width == shown.width && scene.height == shown.height;
    *out = (ui_changes){0};
    const uint8_t *a = scene.pixels, *b = shown.pixels;
    for (int32_t y = 0; ok && y < (int32_t)scene.height; y++)
        for (int32_t x = 0; x < (int32_t)scene.width; x++) {
            size_t at = ((size_t)y * scene.width + (size_t)x) * 4;
            bool changed = memcmp(a + at, b + at, 3) != 0, inside = inside_any(x, y, rects, n);
            out->inside += changed && inside;
            out->outside += changed && !inside;
            out->area += inside;
        }
    kiln_image_free(&scene), kiln_image_free(&shown);
    return ok;
}

TEST(the_ui_changes_pixels_only_where_it_is_drawn_and_h_hides_it) {
    char model[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/DamagedHelmet/DamagedHelmet.glb");
    snprintf(script, sizeof script,
             "at 3 screenshot %s\nat 3 ui-screenshot %s\nat 4 key H\nat 4 screenshot %s\nat 4 ui-screenshot %s\n",
             scratch("ui-scene.png"), scratch("ui-shown.png"), scratch("ui-hidden-scene.png"), scratch("ui-hidden.png"));
    write_text(scratch("ui.script"), script);
    snprintf(args, sizeof args, "'%s' --size 800x600 --script '%s' --screenshot '%s' --frames 4", model, scratch("ui.script"),
             scratch("ui-final.png"));
    int status = view(scratch("ui.log"), args);
    const char *log = slurp(scratch("ui.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    int32_t rects[16][4];
    uint32_t n = ui_rects(log, 0, rects, 16);
    CHECK_MSG(n >= 3, "%s", log); /* settings, frame, scene and log panels */
    CHECK_EQ_INT(ui_rects(log, 1, rects + n, 16 - n), 0); /* hidden: nothing drawn */
    ui_changes shown, hidden;
    CHECK(count_ui_changes(scratch("ui-scene.png"), scratch("ui-shown.png"), rects, n, &shown));
    CHECK(count_ui_changes(scratch("ui-hidden-scene.png"), scratch("ui-hidden.png"), rects, n, &hidden));
    printf("     ui: %llu pixels changed inside its %u rectangles (%llu pixels), %llu outside\n",
           (unsigned long long)shown.inside, n, (unsigned long long)shown.area, (unsigned long long)shown.outside);
    CHECK_EQ_INT(shown.outside, 0);
    CHECK(shown.inside > shown.area / 2); /* the panels' translucent backgrounds cover their rectangles */
    CHECK_EQ_INT(hidden.inside + hidden.outside, 0);
}

/* In the program view the UI is the Program panel (with its timings table) and the Log. */
TEST(the_program_view_ui_changes_pixels_only_where_it_is_drawn) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[4 * PATH_MAX], script[4 * PATH_MAX];
    snprintf(script, sizeof script, "at 3 screenshot %s\nat 3 ui-screenshot %s\n", scratch("program-ui-scene.png"),
             scratch("program-ui-shown.png"));
    write_text(scratch("program-ui.script"), script);
    snprintf(args, sizeof args, "--program '%s/examples/programs/shadow.json' --size 800x600 --script '%s' --screenshot '%s' "
             "--frames 3", KILN_SOURCE_DIR, scratch("program-ui.script"), scratch("program-ui-final.png"));
    int status = view(scratch("program-ui.log"), args);
    const char *log = slurp(scratch("program-ui.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    int32_t rects[16][4];
    uint32_t n = ui_rects(log, 0, rects, 16);
    CHECK_MSG(n == 2, "%s", log);
    ui_changes shown;
    CHECK(count_ui_changes(scratch("program-ui-scene.png"), scratch("program-ui-shown.png"), rects, n, &shown));
    CHECK_EQ_INT(shown.outside, 0);
    CHECK(shown.inside > shown.area / 2);
}

TEST(a_lost_device_is_recreated_and_draws_the_frame_it_drew_before) {
    char model[PATH_MAX + 64], env[PATH_MAX + 64], args[4 * PATH_MAX], script[4 * PATH_MAX];
    NEED_ASSET(model, "gltf/BoxTextured/BoxTextured.glb");
    NEED_ASSET(env, "env/chinese_garden_1k.hdr");
    snprintf(script, sizeof script, "at 2 screenshot %s\nat 3 lose-device\nat 5 screenshot %s\n", scratch("loss-before.png"),
             scratch("loss-after.png"));
    write_text(scratch("loss.script"), script);
    snprintf(args, sizeof args, "'%s' --size 320x240 --env '%s' --script '%s' --screenshot '%s' --frames 5", model, env,
             scratch("loss.script"), scratch("loss-final.png"));
    int status = view(scratch("loss.log"), args);
    const char *log = slurp(scratch("loss.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log); /* and no validation error on either device */
    CHECK_STR_CONTAINS(log, "the GPU device was lost; recreating the device, the renderer and the scene");
    CHECK_STR_CONTAINS(log, "1 device recoveries");
    comparison c;
    CHECK(compare(scratch("loss-before.png"), scratch("loss-after.png"), &c));
    printf("     after the loss: SSIM %.5f, %.3f%% of pixels over %d/255\n", c.ssim, 100.0 * c.differing, DIFF_THRESHOLD);
    CHECK(within_golden_thresholds(&c));
}

TEST(a_model_that_cannot_be_read_fails_with_one_line) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[PATH_MAX + 64];
    snprintf(args, sizeof args, "'%s/missing.glb' --size 64x64", tmp_dir);
    int status = view(scratch("missing.log"), args);
    char want[PATH_MAX + 128];
    snprintf(want, sizeof want, "kiln-view: %s/missing.glb: cannot open: No such file or directory\n", tmp_dir);
    CHECK_EQ_INT(status, 1);
    CHECK_MSG(!strcmp(slurp(scratch("missing.log")), want), "%s", slurp(scratch("missing.log")));
}

/* ---- programs ---------------------------------------------------------------------------- */

/* How many pixels differ in red, green or blue (alpha aside: the window shows none); -1 when
 * the images cannot be read or differ in size. */
static long long differing_pixels(const char *a_path, const char *b_path) {
    kiln_image a = {0}, b = {0};
    kiln_error err = {0};
    long long n = -1;
    if (kiln_image_load(&a, a_path, &err) && kiln_image_load(&b, b_path, &err) && a.width == b.width && a.height == b.height) {
        n = 0;
        for (size_t i = 0; i < (size_t)a.width * a.height; i++) n += memcmp((uint8_t *)a.pixels + 4 * i, (uint8_t *)b.pixels + 4 * i, 3) != 0;
    } else {
        fprintf(stderr, "compare %s %s: %s\n", a_path, b_path, err.message[0] ? err.message : "sizes differ");
    }
    kiln_image_free(&a);
    kiln_image_free(&b);
    return n;
}

/* kiln-run's saved sheet of `script` and kiln-view's --screenshot of it at the sheet's size:
 * the same pixels. */
static void check_program_matches_kiln_run(const char *script, const char *saved, const char *size, const char *name) {
    char out[PATH_MAX + 64], view_png[PATH_MAX + 64], run_png[2 * PATH_MAX], args[4 * PATH_MAX];
    snprintf(out, sizeof out, "%s/%s-run", tmp_dir, name);
    snprintf(view_png, sizeof view_png, "%s/%s-view.png", tmp_dir, name);
    snprintf(run_png, sizeof run_png, "%s/%s", out, saved);
    int status = shell("'%s/kiln-run' '%s' --out '%s' >'%s' 2>&1", bin_dir, script, out, scratch("run.log"));
    CHECK_MSG(status == 0, "kiln-run exited %d: %s", status, slurp(scratch("run.log")));
    snprintf(args, sizeof args, "--program '%s' --size %s --screenshot '%s' --frames 3", script, size, view_png);
    status = view(scratch("program.log"), args);
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, slurp(scratch("program.log")));
    long long differing = differing_pixels(view_png, run_png);
    printf("     %s: %lld pixels differ from kiln-run's %s\n", name, differing, saved);
    CHECK_EQ_INT(differing, 0);
}

TEST(a_program_script_shows_the_sheet_kiln_run_saves_pixel_for_pixel) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    check_program_matches_kiln_run(KILN_SOURCE_DIR "/examples/programs/watercolour.json", "watercolour.png", "256x192",
                                   "watercolour");
    check_program_matches_kiln_run(KILN_SOURCE_DIR "/examples/programs/shadow.json", "shadow.png", "640x360", "shadow");
}

/* The fixture's 4x1 R8 ramp (0, 85, 170, 255) in a 12x2 window: scaled by 2, grey, centred
 * with two columns of the background (28, 29, 33 as display values) each side. */
TEST(program_texture_shows_a_named_texture_fitted_on_the_background) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[4 * PATH_MAX];
    snprintf(args, sizeof args, "--program '%s/pulse.json' --program-texture ramp --size 12x2 --screenshot '%s' --frames 2",
             KILN_VIEW_PROGRAMS_DIR, scratch("ramp.png"));
    int status = view(scratch("ramp.log"), args);
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, slurp(scratch("ramp.log")));
    kiln_image img = {0};
    CHECK(kiln_image_load(&img, scratch("ramp.png"), NULL));
    static const uint8_t grey[12] = {0, 0, 0, 0, 85, 85, 170, 170, 255, 255, 0, 0};
    bool as_shown = img.width == 12 && img.height == 2;
    for (uint32_t y = 0; as_shown && y < 2; y++)
        for (uint32_t x = 0; x < 12; x++) {
            const uint8_t *p = (const uint8_t *)img.pixels + 4 * (y * 12 + x);
            bool background = x < 2 || x >= 10;
            bool want = background ? p[0] == 28 && p[1] == 29 && p[2] == 33 : p[0] == grey[x] && p[1] == grey[x] && p[2] == grey[x];
            if (!want) fprintf(stderr, "pixel %u,%u: %u %u %u\n", x, y, p[0], p[1], p[2]);
            as_shown = as_shown && want;
        }
    kiln_image_free(&img);
    CHECK(as_shown);
}

TEST(an_every_frame_dispatch_animates_and_space_pauses_its_clock) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[4 * PATH_MAX], script[4 * PATH_MAX];
    snprintf(script, sizeof script, "at 2 screenshot %s\nat 6 screenshot %s\nat 7 key SPACE\nat 8 screenshot %s\nat 10 screenshot %s\n",
             scratch("clock-1.png"), scratch("clock-2.png"), scratch("clock-paused-1.png"), scratch("clock-paused-2.png"));
    write_text(scratch("clock.script"), script);
    snprintf(args, sizeof args, "--program '%s/pulse.json' --size 64x48 --script '%s' --screenshot '%s' --frames 10",
             KILN_VIEW_PROGRAMS_DIR, scratch("clock.script"), scratch("clock-final.png"));
    int status = view(scratch("clock.log"), args);
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, slurp(scratch("clock.log")));
    long long running = differing_pixels(scratch("clock-1.png"), scratch("clock-2.png"));
    CHECK_MSG(running == 64 * 48, "the clock changed %lld pixels of %d", running, 64 * 48); /* the red of every one */
    CHECK_EQ_INT(differing_pixels(scratch("clock-paused-1.png"), scratch("clock-paused-2.png")), 0);
}

/* The line of `path` holding `text`, from 1; 0 when none does. */
static int line_of(const char *path, const char *text) {
    int n = 1;
    for (const char *p = slurp(path); *p; p++) {
        if (!strncmp(p, text, strlen(text))) return n;
        if (*p == '\n') n++;
    }
    return 0;
}

/* A copy of the fixture, its clock paused at 0 so frames compare: the script edited (blue off)
 * runs again; the WGSL broken keeps that image and names the file and line; mended, it runs
 * again; the script made malformed keeps the image too. */
TEST(a_script_edited_on_disk_runs_again_and_a_broken_edit_keeps_the_image) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    const char *dir = scratch("reload");
    CHECK(shell("rm -rf '%s' && mkdir '%s' && cp '%s/pulse.json' '%s/pulse.wgsl' '%s/'", dir, dir, KILN_VIEW_PROGRAMS_DIR,
                KILN_VIEW_PROGRAMS_DIR, dir) == 0);
    char json[PATH_MAX + 64], wgsl[PATH_MAX + 64], args[4 * PATH_MAX], script[8 * PATH_MAX];
    snprintf(json, sizeof json, "%s", scratch("reload/pulse.json"));
    snprintf(wgsl, sizeof wgsl, "%s", scratch("reload/pulse.wgsl"));
    int line = line_of(wgsl, "    return vec4<f32>(red, position.x"); /* the line the edit breaks */
    CHECK(line > 0);
    snprintf(script, sizeof script,
             "at 1 key SPACE\n"
             "at 2 screenshot %s\n"
             "at 3 run sed -i 's/\"f32\": \\[0, 20, 1, 0\\]/\"f32\": [0, 20, 0, 0]/' '%s'\n"
             "at 3 screenshot %s\n"
             "at 4 run sed -i 's|position.x / 64.0,|position.x / 64.0 +,|' '%s'\n"
             "at 4 screenshot %s\n"
             "at 5 run sed -i 's|position.x / 64.0 +,|position.x / 64.0,|' '%s'\n"
             "at 5 screenshot %s\n"
             "at 6 run printf '[{' > '%s'\n"
             "at 6 screenshot %s\n",
             scratch("reload-a.png"), json, scratch("reload-b.png"), wgsl, scratch("reload-broken.png"), wgsl,
             scratch("reload-mended.png"), json, scratch("reload-malformed.png"));
    write_text(scratch("reload.script"), script);
    snprintf(args, sizeof args, "--program '%s' --size 64x48 --script '%s' --screenshot '%s' --frames 6", json,
             scratch("reload.script"), scratch("reload-final.png"));
    int status = view(scratch("reload.log"), args);
    const char *log = slurp(scratch("reload.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_MSG(differing_pixels(scratch("reload-a.png"), scratch("reload-b.png")) > 64 * 40, "%s", log); /* blue gone */
    CHECK_EQ_INT(differing_pixels(scratch("reload-b.png"), scratch("reload-broken.png")), 0);
    CHECK_EQ_INT(differing_pixels(scratch("reload-b.png"), scratch("reload-mended.png")), 0);
    CHECK_EQ_INT(differing_pixels(scratch("reload-b.png"), scratch("reload-malformed.png")), 0);
    char want[2 * PATH_MAX];
    snprintf(want, sizeof want, "reload failed, keeping the last good program: %s: script[2] (program.register): invalid_wgsl: "
             "program \"pulse\": pulse.wgsl:%d:", json, line);
    CHECK_STR_CONTAINS(log, want);
    snprintf(want, sizeof want, "reload failed, keeping the last good program: %s: malformed JSON: line 1", json);
    CHECK_STR_CONTAINS(log, want);
    snprintf(want, sizeof want, "reloaded %s", json);
    CHECK_STR_CONTAINS(log, want);
}

/* The demo, then the watercolour script dropped on it (kiln-run's sheet in the window), V to
 * the scene and back, and a missing script dropped keeping the program. */
TEST(a_dropped_script_runs_and_v_switches_between_it_and_the_scene) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    const char *watercolour = KILN_SOURCE_DIR "/examples/programs/watercolour.json";
    char args[4 * PATH_MAX], script[8 * PATH_MAX], out[PATH_MAX + 64], sheet[PATH_MAX + 96];
    snprintf(out, sizeof out, "%s/dropped-run", tmp_dir);
    snprintf(sheet, sizeof sheet, "%s/watercolour.png", out);
    CHECK(shell("'%s/kiln-run' '%s' --out '%s' >/dev/null 2>&1", bin_dir, watercolour, out) == 0);
    snprintf(script, sizeof script,
             "at 2 screenshot %s\n"
             "at 3 drop %s\nat 3 screenshot %s\n"
             "at 4 key V\nat 4 screenshot %s\n"
             "at 5 key V\nat 5 screenshot %s\n"
             "at 6 drop %s\nat 6 screenshot %s\n",
             scratch("v-demo.png"), watercolour, scratch("v-program.png"), scratch("v-scene.png"), scratch("v-back.png"),
             scratch("missing.json"), scratch("v-kept.png"));
    write_text(scratch("v.script"), script);
    snprintf(args, sizeof args, "--demo --size 256x192 --script '%s' --screenshot '%s' --frames 6", scratch("v.script"),
             scratch("v-final.png"));
    int status = view(scratch("v.log"), args);
    const char *log = slurp(scratch("v.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_EQ_INT(differing_pixels(scratch("v-program.png"), sheet), 0);
    CHECK_EQ_INT(differing_pixels(scratch("v-scene.png"), scratch("v-demo.png")), 0);
    CHECK_EQ_INT(differing_pixels(scratch("v-back.png"), sheet), 0);
    CHECK_EQ_INT(differing_pixels(scratch("v-kept.png"), sheet), 0);
    char want[3 * PATH_MAX];
    snprintf(want, sizeof want, "cannot run %s, keeping the current program: cannot read '%s': No such file or directory",
             scratch("missing.json"), scratch("missing.json"));
    CHECK_STR_CONTAINS(log, want);
}

TEST(a_lost_device_runs_the_program_again) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    char args[4 * PATH_MAX], script[4 * PATH_MAX];
    snprintf(script, sizeof script, "at 2 screenshot %s\nat 3 lose-device\nat 5 screenshot %s\n", scratch("program-loss-before.png"),
             scratch("program-loss-after.png"));
    write_text(scratch("program-loss.script"), script);
    snprintf(args, sizeof args, "--program '%s/examples/programs/watercolour.json' --size 256x192 --script '%s' --screenshot '%s' --frames 5",
             KILN_SOURCE_DIR, scratch("program-loss.script"), scratch("program-loss-final.png"));
    int status = view(scratch("program-loss.log"), args);
    const char *log = slurp(scratch("program-loss.log"));
    CHECK_MSG(status == 0, "kiln-view exited %d: %s", status, log);
    CHECK_STR_CONTAINS(log, "1 device recoveries");
    CHECK_EQ_INT(differing_pixels(scratch("program-loss-before.png"), scratch("program-loss-after.png")), 0);
}

TEST(a_script_that_fails_at_start_exits_with_its_reason_in_one_line) {
    if (!set_up()) SKIP("cannot find the test's own directory");
    write_text(scratch("unsaved.json"), "[{\"kind\": \"frame\"}]");
    char args[PATH_MAX + 64], want[2 * PATH_MAX];
    snprintf(args, sizeof args, "--program '%s' --size 64x64", scratch("unsaved.json"));
    CHECK_EQ_INT(view(scratch("unsaved.log"), args), 1);
    snprintf(want, sizeof want, "kiln-view: %s: the script saves no texture to show: add a save_texture, or name one with "
             "--program-texture\n", scratch("unsaved.json"));
    CHECK_MSG(!strcmp(slurp(scratch("unsaved.log")), want), "%s", slurp(scratch("unsaved.log")));
}

TEST_MAIN(T(the_tenth_frame_matches_kiln_render_of_the_same_model), T(the_tenth_frame_matches_kiln_render_with_an_environment_map),
          T(an_animated_model_at_a_time_matches_kiln_render_plays_and_pauses),
          T(resize_minimise_and_restore_leave_no_validation_errors),
          T(a_shader_edit_changes_the_next_frame_and_a_broken_edit_keeps_it),
          T(a_model_rewritten_on_disk_is_reloaded_and_a_broken_one_keeps_the_last),
          T(clip_0_and_clip_1_render_differently_at_the_same_time), T(a_material_edit_reloads_in_place_and_a_new_structure_in_full),
          T(an_environment_map_rewritten_on_disk_is_reloaded), T(a_dropped_model_or_map_opens_and_a_bad_drop_keeps_the_scene),
          T(hiding_a_node_hides_its_subtree_and_showing_it_brings_the_frame_back), T(the_ui_changes_pixels_only_where_it_is_drawn_and_h_hides_it),
          T(a_lost_device_is_recreated_and_draws_the_frame_it_drew_before), T(a_model_that_cannot_be_read_fails_with_one_line),
          T(a_program_script_shows_the_sheet_kiln_run_saves_pixel_for_pixel),
          T(program_texture_shows_a_named_texture_fitted_on_the_background),
          T(an_every_frame_dispatch_animates_and_space_pauses_its_clock),
          T(a_script_edited_on_disk_runs_again_and_a_broken_edit_keeps_the_image),
          T(a_dropped_script_runs_and_v_switches_between_it_and_the_scene), T(a_lost_device_runs_the_program_again),
          T(a_script_that_fails_at_start_exits_with_its_reason_in_one_line),
          T(the_program_view_ui_changes_pixels_only_where_it_is_drawn))
