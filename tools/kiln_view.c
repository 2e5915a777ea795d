/* kiln-view: the windowed viewer.
 *
 *   kiln-view MODEL.gltf|MODEL.glb [--env FILE.hdr] [--size WxH] [--vsync on|off] [--shader-dir DIR]
 *             [--no-ui] [--time SECONDS] [--play] [--clip NAME|INDEX] [--screenshot OUT.png --frames N]
 *             [--script FILE]
 *   kiln-view --demo [flags]
 *   kiln-view --program SCRIPT.json [MODEL|--demo] [--program-texture NAME] [flags]
 *
 * A GLFW window presenting through kiln_swapchain; each frame the renderer draws the scene into
 * the acquired surface texture, framed at first exactly as kiln-render frames the model, so the
 * first frame is the headless render (tests/view/test_view_window.c holds it to the golden
 * thresholds), then the debug UI draws over it. The model, the environment map and the
 * renderer's WGSL (with --shader-dir) are watched through inotify, polled once per frame, and
 * reloaded in place (a model of the same structure under the same registry slots); a model or
 * map dropped on the window opens; a lost device is recreated
 * with the renderer and the scene. With --program (or a .json dropped on the window) the window
 * shows a program script's texture instead (kiln_view_program.h, kiln_view_blit.h), the script
 * run again when it or its WGSL changes; V switches between the program and the scene. Exit
 * status: 0, 1 a model, script, window or GPU failure (or any Dawn validation error), 2 a bad
 * command line; failures are one line on stderr. Guide: docs/guides/viewer.md. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <kiln/import.h>
#include <kiln/render.h>

#include "kiln_view_blit.h"
#include "kiln_view_camera.h"
#include "kiln_view_options.h"
#include "kiln_view_program.h"
#include "kiln_view_scene.h"
#include "kiln_view_script.h"
#include "kiln_view_ui.h"
#include "kiln_view_watch.h"
#include "program_script.h"
#include "vulkan_driver_pin.h"

/* GLFW's X11 accessors, declared here as tests/gfx/test_swapchain.c does: glfw3native.h pulls in
 * the Xrandr development headers, which kiln does not otherwise need. */
void *glfwGetX11Display(void);
unsigned long glfwGetX11Window(GLFWwindow *window);

/* What the watches report, one bit each. */
enum { WATCH_MODEL = 1, WATCH_ENVIRONMENT = 2, WATCH_SHADERS = 4, WATCH_PROGRAM = 8 };

/* A screenshot run that renders nothing for this many iterations past its frame count is stuck
 * (a window minimised and never restored) and gives up rather than spin. */
#define STUCK_TICKS 1000

typedef struct viewer {
    kiln_view_options options;
    GLFWwindow *window;
    kiln_gfx *gfx;
    kiln_resources *res;
    kiln_swapchain swapchain;
    kiln_renderer *renderer;
    view_scene scene;
    view_camera camera;
    view_watch watch;
    view_script script;
    view_ui *ui;
    view_program program;      /* the program script, when one was given or dropped */
    view_blit blit;            /* draws its texture into the window */
    bool show_program;         /* the window shows the program's texture, not the scene */
    char program_failure[600]; /* the last recording failure said, so a failing frame says it once */
    bool has_script;
    bool minimised;            /* iconified: nothing is rendered until restored */
    bool failed;               /* a fatal error was reported; the loop ends */
    bool buttons[3];           /* left, middle, right held (and not taken by the UI) */
    double cursor_x, cursor_y; /* where the last cursor event was */
    bool screenshot_next;      /* P was pressed: write the next frame */
    uint32_t screenshots;      /* written by P, for their names */
    uint64_t frames;           /* frames rendered and presented */
    double last_time;          /* of the previous iteration, for fly speed and the UI */
    uint64_t lost_errors;      /* validation errors counted on devices since lost */
    uint32_t recoveries;       /* devices recreated after a loss */
    char env_path[4096];       /* the environment map watched; empty: none */
    uint32_t color_lut;        /* the --lut table's texture id; 0: none */
    int32_t clip;              /* --clip resolved: the animation played at the start, or VIEW_SCENE_ALL_CLIPS */
} viewer;

static float window_aspect(const viewer *v) {
    int w = 0, h = 0;
    glfwGetFramebufferSize(v->window, &w, &h);
    return w > 0 && h > 0 ? (float)w / (float)h : (float)v->options.width / (float)v->options.height;
}

/* Every record Dawn, gfx, the renderer and the shader library logged since the last frame: to
 * stderr at warning and above (and the shader library's reload notes, which say a save took),
 * and into the UI's log. */
static void drain_log(viewer *v, kiln_log *log) {
    kiln_log_record rec;
    while (log && kiln_log_take(log, &rec)) {
        bool reload_note = rec.level == KILN_LOG_INFO && !strncmp(rec.message, "reloaded ", 9);
        if (rec.level >= KILN_LOG_WARN || reload_note) fprintf(stderr, "kiln-view: [%s] %s\n", rec.category, rec.message);
        view_ui_log(v->ui, rec.level, rec.category, rec.message);
    }
}

/* ... and what the program's runtime logged (dispatch drops, recording failures). */
static void drain_diagnostics(viewer *v) {
    drain_log(v, &v->gfx->diagnostics);
    drain_log(v, view_program_log(&v->program));
}

/* A message of the viewer's own, to stderr and the UI's log. */
static void say(viewer *v, kiln_log_level level, const char *message) {
    fprintf(stderr, "kiln-view: %s\n", message);
    view_ui_log(v->ui, level, "view", message);
}

static void reframe_bounds(viewer *v) {
    v->camera.bounds = v->scene.bounds;
    v->camera.file_cameras = v->scene.file_cameras;
    v->camera.file_camera_count = v->scene.file_camera_count;
    if (v->camera.file_camera >= (int32_t)v->scene.file_camera_count) v->camera.file_camera = -1;
}

/* ---- input ------------------------------------------------------------------------------- */

static void handle_key(viewer *v, int key) {
    switch (key) {
    case GLFW_KEY_F: view_camera_frame(&v->camera, window_aspect(v)); break;
    case GLFW_KEY_C: view_camera_next_file_camera(&v->camera, window_aspect(v)); break;
    case GLFW_KEY_H: view_ui_toggle(v->ui); break;
    case GLFW_KEY_V: v->show_program = !v->show_program && v->program.script_path; break;
    case GLFW_KEY_SPACE:
        if (v->show_program) v->program.playing = !v->program.playing;
        else v->scene.playing = !v->scene.playing && v->scene.animation_end > 0.0f;
        break;
    case GLFW_KEY_P: v->screenshot_next = true; break;
    case GLFW_KEY_ESCAPE: glfwSetWindowShouldClose(v->window, GLFW_TRUE); break;
    default: break;
    }
}

static void on_key(GLFWwindow *window, int key, int scancode, int action, int mods) {
    viewer *v = glfwGetWindowUserPointer(window);
    (void)scancode, (void)mods;
    if (action == GLFW_PRESS && !view_ui_wants_keyboard(v->ui)) handle_key(v, key);
}

static void on_mouse_button(GLFWwindow *window, int button, int action, int mods) {
    viewer *v = glfwGetWindowUserPointer(window);
    (void)mods;
    if (button > GLFW_MOUSE_BUTTON_MIDDLE) return;
    static const int index[] = {[GLFW_MOUSE_BUTTON_LEFT] = 0, [GLFW_MOUSE_BUTTON_RIGHT] = 2, [GLFW_MOUSE_BUTTON_MIDDLE] = 1};
    /* A press on a panel is the UI's; a release always ends a drag. */
    bool pressed = action == GLFW_PRESS && !view_ui_wants_mouse(v->ui);
    if (action == GLFW_PRESS && !pressed) return;
    v->buttons[index[button]] = pressed;
    if (index[button] == 2) view_camera_set_flying(&v->camera, pressed);
    glfwGetCursorPos(window, &v->cursor_x, &v->cursor_y);
}

static void on_cursor(GLFWwindow *window, double x, double y) {
    viewer *v = glfwGetWindowUserPointer(window);
    float dx = (float)(x - v->cursor_x), dy = (float)(y - v->cursor_y);
    v->cursor_x = x, v->cursor_y = y;
    int w, h;
    glfwGetWindowSize(window, &w, &h);
    bool shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS || glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
    if (v->buttons[0]) view_camera_drag(&v->camera, VIEW_BUTTON_LEFT, shift, dx, dy, (float)h);
    else if (v->buttons[1]) view_camera_drag(&v->camera, VIEW_BUTTON_MIDDLE, false, dx, dy, (float)h);
    else if (v->buttons[2]) view_camera_drag(&v->camera, VIEW_BUTTON_RIGHT, false, dx, dy, (float)h);
}

static void on_scroll(GLFWwindow *window, double x, double y) {
    viewer *v = glfwGetWindowUserPointer(window);
    (void)x;
    if (!view_ui_wants_mouse(v->ui)) view_camera_scroll(&v->camera, (float)y);
}

static bool has_extension(const char *path, const char *extension) {
    size_t n = strlen(path), e = strlen(extension);
    return n > e && !strcasecmp(path + n - e, extension);
}

/* Watches `path` under `tag` instead of what was watched under it; a failure is said, not fatal. */
static void rewatch(viewer *v, const char *path, uint32_t tag) {
    kiln_error err = {0};
    view_watch_remove(&v->watch, tag);
    if (!view_watch_add_file(&v->watch, path, tag, &err)) {
        char line[1200];
        snprintf(line, sizeof line, "warning: %s will not be reloaded: %s", path, err.message);
        say(v, KILN_LOG_WARN, line);
    }
}

/* The program's script and its WGSL files, after each run (a run may read other files). */
static void rewatch_program(viewer *v) {
    kiln_error err = {0};
    view_watch_remove(&v->watch, WATCH_PROGRAM);
    for (uint32_t i = 0; i < v->program.watched_count; i++) {
        if (view_watch_add_file(&v->watch, v->program.watched[i], WATCH_PROGRAM, &err)) continue;
        char line[1200];
        snprintf(line, sizeof line, "warning: %s will not be reloaded: %s", v->program.watched[i], err.message);
        say(v, KILN_LOG_WARN, line);
    }
}

static void set_title(viewer *v, const char *what) {
    char title[1200];
    snprintf(title, sizeof title, "kiln-view: %s", what);
    glfwSetWindowTitle(v->window, title);
}

/* A file dropped on the window: a model replaces the scene (framed anew), a map the
 * environment, a .json program script the program (shown); the previous one stays when it
 * fails. */
static void open_dropped(viewer *v, const char *path) {
    kiln_error err = {0};
    char line[1200];
    if (has_extension(path, ".gltf") || has_extension(path, ".glb")) {
        if (!view_scene_replace_model(&v->scene, v->renderer, path, window_aspect(v), &err)) {
            snprintf(line, sizeof line, "cannot open %s, keeping the current scene: %s", path, err.message);
            say(v, KILN_LOG_ERROR, line);
            return;
        }
        view_camera_init(&v->camera, &v->scene.scene.camera, &v->scene.bounds, v->scene.file_cameras,
                         v->scene.file_camera_count);
        rewatch(v, path, WATCH_MODEL);
        set_title(v, path);
        v->show_program = false;
    } else if (has_extension(path, ".hdr")) {
        if (!view_scene_set_environment(&v->scene, v->renderer, path, &err)) {
            snprintf(line, sizeof line, "cannot open %s, keeping the current environment: %s", path, err.message);
            say(v, KILN_LOG_ERROR, line);
            return;
        }
        snprintf(v->env_path, sizeof v->env_path, "%s", path);
        rewatch(v, path, WATCH_ENVIRONMENT);
        v->show_program = false;
    } else if (has_extension(path, ".json")) {
        if (!view_program_load(&v->program, v->gfx, v->res, path, NULL, &err)) {
            snprintf(line, sizeof line, "cannot run %s, keeping the current program: %s", path, err.message);
            say(v, KILN_LOG_ERROR, line);
            return;
        }
        rewatch_program(v);
        set_title(v, path);
        v->show_program = true;
    } else {
        snprintf(line, sizeof line, "cannot open %s: kiln-view opens .gltf, .glb and .hdr files, and .json program scripts", path);
        say(v, KILN_LOG_ERROR, line);
        return;
    }
    snprintf(line, sizeof line, "opened %s", path);
    say(v, KILN_LOG_INFO, line);
}

static void on_drop(GLFWwindow *window, int count, const char **paths) {
    viewer *v = glfwGetWindowUserPointer(window);
    for (int i = 0; i < count; i++) open_dropped(v, paths[i]);
}

static void on_iconify(GLFWwindow *window, int iconified) {
    viewer *v = glfwGetWindowUserPointer(window);
    v->minimised = iconified != 0;
}

static uint32_t held_fly_keys(GLFWwindow *w) {
    static const struct { int key; uint32_t bit; } keys[] = {
        {GLFW_KEY_W, VIEW_FLY_FORWARD}, {GLFW_KEY_S, VIEW_FLY_BACK}, {GLFW_KEY_A, VIEW_FLY_LEFT},
        {GLFW_KEY_D, VIEW_FLY_RIGHT},   {GLFW_KEY_Q, VIEW_FLY_DOWN}, {GLFW_KEY_E, VIEW_FLY_UP}};
    uint32_t held = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (glfwGetKey(w, keys[i].key) == GLFW_PRESS) held |= keys[i].bit;
    return held;
}

/* ---- reload ------------------------------------------------------------------------------ */

static void poll_watches(viewer *v) {
    uint32_t changed = view_watch_poll(&v->watch);
    char line[1200];
    kiln_error err = {0};
    if (changed & WATCH_SHADERS) kiln_renderer_reload_shaders(v->renderer); /* the library logs each outcome */
    if (changed & WATCH_MODEL) {
        view_reload_report report;
        if (view_scene_reload_model(&v->scene, v->renderer, &report, &err)) {
            reframe_bounds(v);
            if (report.path == VIEW_RELOAD_IN_PLACE)
                snprintf(line, sizeof line, "reloaded %s in place: its meshes and materials replaced under the same slots",
                         v->scene.model_path);
            else snprintf(line, sizeof line, "reloaded %s in full, in new slots: %s", v->scene.model_path, report.why_full);
            say(v, KILN_LOG_INFO, line);
        } else {
            snprintf(line, sizeof line, "reload failed, keeping the previous model: %s", err.message);
            say(v, KILN_LOG_ERROR, line);
        }
    }
    if (changed & WATCH_PROGRAM) {
        bool ran = view_program_rerun(&v->program, v->gfx, v->res, &err);
        rewatch_program(v);
        if (ran) snprintf(line, sizeof line, "reloaded %s", v->program.script_path);
        else snprintf(line, sizeof line, "reload failed, keeping the last good program: %s", err.message);
        say(v, ran ? KILN_LOG_INFO : KILN_LOG_ERROR, line);
    }
    if (changed & WATCH_ENVIRONMENT) {
        if (view_scene_set_environment(&v->scene, v->renderer, v->env_path, &err)) {
            snprintf(line, sizeof line, "reloaded %s", v->env_path);
            say(v, KILN_LOG_INFO, line);
        } else {
            snprintf(line, sizeof line, "reload failed, keeping the previous environment: %s", err.message);
            say(v, KILN_LOG_ERROR, line);
        }
    }
}

/* ---- frames ------------------------------------------------------------------------------ */

static bool write_screenshot(viewer *v, WGPUTexture texture, const char *path) {
    kiln_error err = {0};
    kiln_image img = {0};
    bool ok = kiln_resources_read_texture(v->res, texture, &img, &err) && kiln_image_write_png(&img, path, &err);
    kiln_image_free(&img);
    char line[1200];
    if (ok) snprintf(line, sizeof line, "wrote %s", path);
    else snprintf(line, sizeof line, "screenshot %s: %s", path, err.message);
    say(v, ok ? KILN_LOG_INFO : KILN_LOG_ERROR, line);
    return ok;
}

/* P's file: next to the model, MODEL-view-N.png for the first N not taken (the demo's in the
 * current directory); in the program view next to the script, SCRIPT-view-N.png. */
static void next_screenshot_path(viewer *v, char *out, size_t size) {
    const char *model = v->show_program ? v->program.script_path : v->scene.model_path;
    const char *dot = model ? strrchr(model, '.') : NULL;
    int stem = model ? (dot && dot > strrchr(model, '/') ? (int)(dot - model) : (int)strlen(model)) : 0;
    struct stat st;
    do {
        v->screenshots++;
        if (model) snprintf(out, size, "%.*s-view-%u.png", stem, model, v->screenshots);
        else snprintf(out, size, "kiln-view-demo-%u.png", v->screenshots);
    } while (stat(out, &st) == 0);
}

/* A new device on the same window after the old one was lost: the renderer recreated from its
 * CPU state (kiln_renderer_recreate keeps every registry index, so the scene, its environment
 * and the camera carry on), a new swapchain, the UI's objects made again. The old device's
 * objects are released through its own resources before it goes. */
static bool recover_device(viewer *v, kiln_error *err) {
    say(v, KILN_LOG_ERROR, "the GPU device was lost; recreating the device, the renderer and the scene");
    drain_diagnostics(v);
    view_ui_release_gpu(v->ui);
    view_blit_release(&v->blit);
    view_program_release(&v->program);
    kiln_swapchain_deinit(&v->swapchain);
    kiln_gfx *gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-view", .x11_display = glfwGetX11Display(),
                                                     .x11_window = (uint64_t)glfwGetX11Window(v->window)}, err);
    kiln_resources *res = gfx ? kiln_resources_create(gfx, 0, err) : NULL;
    int w, h;
    glfwGetFramebufferSize(v->window, &w, &h);
    kiln_swapchain sc;
    bool ok = res && kiln_swapchain_init(&sc, gfx, (uint32_t)w, (uint32_t)h, true, true, err);
    if (ok && sc.format != v->swapchain.format)
        ok = kiln_error_set(err, KILN_ERR_GPU, "the new surface's format differs from the lost one's");
    kiln_renderer *r = ok ? kiln_renderer_recreate(v->renderer, gfx, res, err) : NULL;
    if (!r) {
        if (ok) kiln_swapchain_deinit(&sc);
        kiln_resources_destroy(res);
        kiln_gfx_destroy(gfx);
        return false;
    }
    kiln_swapchain_set_vsync(&sc, v->options.vsync);
    v->lost_errors += v->gfx->error_count;
    kiln_resources_destroy(v->res);
    kiln_gfx_destroy(v->gfx);
    v->gfx = gfx, v->res = res, v->renderer = r, v->swapchain = sc;
    v->recoveries++;
    if (!view_ui_recreate_gpu(v->ui, res, err) || !view_blit_create(&v->blit, res, sc.format, err)) return false;
    /* The program's textures are its script's to make: it runs again on the new device. */
    if (v->program.script_path && !view_program_rerun(&v->program, gfx, res, err)) {
        char line[2200];
        snprintf(line, sizeof line, "the program did not run again on the new device: %s", err->message);
        say(v, KILN_LOG_ERROR, line);
    }
    say(v, KILN_LOG_INFO, "recreated the device after its loss");
    return true;
}

/* With a screenshot of the UI, where the UI drew, so a test can tell its pixels from the scene's:
 * "ui rects: x,y,w,h x,y,w,h ...". */
static void print_ui_rects(viewer *v) {
    view_ui_rect rects[VIEW_UI_MAX_RECTS];
    uint32_t n = view_ui_drawn_rects(v->ui, rects, VIEW_UI_MAX_RECTS);
    fprintf(stderr, "kiln-view: ui rects:");
    for (uint32_t i = 0; i < n; i++) fprintf(stderr, " %d,%d,%d,%d", rects[i].x, rects[i].y, rects[i].width, rects[i].height);
    fputc('\n', stderr);
}

/* The screenshots one frame writes: the script's and the final one without the UI, the
 * script's with it. */
typedef struct frame_shots {
    const char *scene[2];
    const char *with_ui;
} frame_shots;

/* The program's frame: its every_frame dispatches and every queued one recorded, then its texture
 * drawn into the window, in one command buffer. A failure is said once (until another or a good
 * frame) and the texture keeps what it held. */
static void draw_program(viewer *v, const kiln_surface_frame *frame, double seconds) {
    kiln_error err = {0};
    kiln_encoder enc;
    bool ok = kiln_encoder_begin(&enc, v->res, "kiln-view program", &err);
    bool recorded = ok && view_program_record(&v->program, seconds, &enc, &err);
    char failure[600] = "";
    if (ok && !recorded) snprintf(failure, sizeof failure, "program: %s", err.message);
    kiln_texture_view view = ok && v->program.run.rt ? view_program_texture_view(&v->program, &err) : (kiln_texture_view){0};
    if (ok && v->program.run.rt && !view.id && !failure[0]) snprintf(failure, sizeof failure, "program: %s", err.message);
    ok = ok && view_blit_draw(&v->blit, &enc, view, view.id ? &v->program.run.info : NULL, frame->view, frame->width,
                              frame->height, &err);
    ok = ok && kiln_encoder_finish_and_submit(&enc, &err);
    if (!ok && !failure[0]) snprintf(failure, sizeof failure, "program view: %s", err.message);
    if (failure[0] && strcmp(failure, v->program_failure)) say(v, KILN_LOG_ERROR, failure);
    snprintf(v->program_failure, sizeof v->program_failure, "%s", failure);
}

/* One frame: acquire, render the scene or the program, the screenshots asked for, present.
 * Returns whether a frame was presented (false for a minimised window, or a failure, which sets
 * v->failed). */
static bool render_frame(viewer *v, const frame_shots *shots, double seconds) {
    kiln_error err = {0};
    kiln_gfx_pump(v->gfx, false);
    if (v->gfx->lost && !recover_device(v, &err)) {
        char line[1200];
        snprintf(line, sizeof line, "device recovery failed: %s", err.message);
        say(v, KILN_LOG_ERROR, line);
        v->failed = true;
        return false;
    }
    int w = 0, h = 0;
    glfwGetFramebufferSize(v->window, &w, &h);
    if (v->minimised) w = h = 0;
    kiln_swapchain_resize(&v->swapchain, (uint32_t)w, (uint32_t)h);
    kiln_surface_frame frame;
    bool skipped = false;
    if (!kiln_swapchain_acquire(&v->swapchain, &frame, &skipped, &err)) {
        if (!skipped) say(v, KILN_LOG_ERROR, err.message), v->failed = true;
        return false;
    }
    kiln_camera_set_viewport(&v->camera.camera, frame.width, frame.height);
    v->scene.scene.camera = v->camera.camera;
    kiln_render_target target = {.texture = frame.texture, .view = frame.view};
    if (v->show_program) {
        draw_program(v, &frame, seconds);
    } else if (!kiln_renderer_render(v->renderer, &v->scene.scene, target, &err)) {
        char line[1200];
        snprintf(line, sizeof line, "render: %s", err.message);
        say(v, KILN_LOG_ERROR, line);
        kiln_swapchain_discard(&v->swapchain, &frame);
        /* A lost device is recreated at the next frame; anything else ends the viewer. */
        v->failed = err.code != KILN_ERR_DEVICE_LOST;
        return false;
    }
    if (v->screenshot_next) {
        char path[4200];
        next_screenshot_path(v, path, sizeof path);
        write_screenshot(v, frame.texture, path);
        v->screenshot_next = false;
    }
    for (int i = 0; i < 2; i++)
        if (shots->scene[i] && !write_screenshot(v, frame.texture, shots->scene[i])) v->failed = true;
    view_ui_state state = {.renderer = v->renderer, .color_lut = v->color_lut, .scene = &v->scene, .camera = &v->camera,
                           .aspect = (float)frame.width / (float)frame.height, .frame_seconds = seconds,
                           .program = &v->program, .show_program = &v->show_program};
    if (!view_ui_draw(v->ui, &state, target, frame.width, frame.height, &err)) {
        char line[1200];
        snprintf(line, sizeof line, "ui: %s", err.message);
        say(v, KILN_LOG_ERROR, line);
        v->failed = true;
    }
    if (shots->with_ui && !write_screenshot(v, frame.texture, shots->with_ui)) v->failed = true;
    if (shots->with_ui) print_ui_rects(v);
    kiln_swapchain_present(&v->swapchain, &frame);
    v->frames++;
    return true;
}

/* The script's actions due this tick; the screenshots they ask for go into `shots`. */
static void run_script(viewer *v, uint32_t tick, frame_shots *shots) {
    const view_action *a;
    while (!v->failed && (a = view_script_next(&v->script, tick))) {
        switch (a->kind) {
        case VIEW_ACTION_RESIZE: glfwSetWindowSize(v->window, (int)a->width, (int)a->height); break;
        case VIEW_ACTION_MINIMISE: glfwIconifyWindow(v->window), on_iconify(v->window, 1); break;
        case VIEW_ACTION_RESTORE: glfwRestoreWindow(v->window), on_iconify(v->window, 0); break;
        case VIEW_ACTION_KEY: handle_key(v, a->key); break; /* 'F' is GLFW_KEY_F, ' ' GLFW_KEY_SPACE */
        case VIEW_ACTION_SCREENSHOT: shots->scene[0] = a->text; break;
        case VIEW_ACTION_DROP: open_dropped(v, a->text); break;
        case VIEW_ACTION_HIDE:
        case VIEW_ACTION_SHOW:
            if (!view_scene_set_node_hidden(&v->scene, a->node, a->kind == VIEW_ACTION_HIDE)) {
                char line[1200];
                snprintf(line, sizeof line, "%s:%u: no node %u in the model", v->options.script_path, a->line, a->node);
                say(v, KILN_LOG_ERROR, line);
                v->failed = true;
            }
            break;
        case VIEW_ACTION_LOSE_DEVICE:
            wgpuDeviceForceLoss(v->gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"kiln-view script", WGPU_STRLEN});
            break;
        case VIEW_ACTION_UI_SCREENSHOT: shots->with_ui = a->text; break;
        case VIEW_ACTION_RUN: {
            int status = system(a->text);
            if (status != 0) {
                char line[1200];
                snprintf(line, sizeof line, "%s:%u: '%s' exited with status %d", v->options.script_path, a->line, a->text, status);
                say(v, KILN_LOG_ERROR, line);
                v->failed = true;
            }
            break;
        }
        }
    }
    /* A resize reaches the framebuffer size once GLFW has processed the window's events. */
    glfwPollEvents();
}

/* The frame loop. A --screenshot run ends with the frame that makes --frames frames rendered,
 * or, when the script runs longer, with the script's last tick (the final screenshot is then
 * that tick's frame). */
static void run(viewer *v) {
    const kiln_view_options *o = &v->options;
    v->last_time = glfwGetTime();
    for (uint32_t tick = 1; !v->failed && !glfwWindowShouldClose(v->window); tick++) {
        glfwPollEvents();
        frame_shots shots = {0};
        if (v->has_script) run_script(v, tick, &shots);
        poll_watches(v);
        double now = glfwGetTime(), seconds = now - v->last_time;
        v->last_time = now;
        view_camera_fly(&v->camera, held_fly_keys(v->window), (float)(seconds < 0.1 ? seconds : 0.1));
        kiln_error err = {0};
        if (!view_scene_advance(&v->scene, seconds, &err)) {
            char line[1200];
            snprintf(line, sizeof line, "animation: %s", err.message);
            say(v, KILN_LOG_ERROR, line);
            v->scene.playing = false;
        }
        bool ending = o->screenshot_path && v->frames + 1 >= o->frames && tick >= v->script.last_tick;
        if (ending) shots.scene[1] = o->screenshot_path;
        bool presented = render_frame(v, &shots, seconds);
        drain_diagnostics(v);
        if (presented && ending) break;
        if (!presented && !v->failed) {
            if (o->screenshot_path && tick > o->frames + v->script.last_tick + STUCK_TICKS) {
                say(v, KILN_LOG_ERROR, "no frame rendered for too long (is the window minimised?)");
                v->failed = true;
            }
            /* Minimised: sleep until something happens, not a busy loop. Scripted and
             * screenshot runs wake every 20 ms so their ticks go on. */
            if (v->has_script || o->screenshot_path) glfwWaitEventsTimeout(0.02);
            else glfwWaitEvents();
        }
    }
}

/* ---- set-up ------------------------------------------------------------------------------ */

/* GLFW's own words for its last failure, for the one line the viewer prints. */
static const char *glfw_reason(void) {
    const char *description = NULL;
    glfwGetError(&description);
    return description ? description : "no reason given";
}

/* The --lut table into the renderer's registry, graded with from the first frame. */
static bool load_color_lut(viewer *v, const char *path, kiln_error *err) {
    kiln_color_lut lut = {0};
    if (!kiln_color_lut_load(path, &lut, err)) return false;
    v->color_lut = kiln_import_color_lut(v->renderer, &lut, path, err);
    kiln_color_lut_free(&lut);
    kiln_renderer_settings(v->renderer)->color_lut = v->color_lut;
    return v->color_lut != 0;
}

static bool open_viewer(viewer *v, kiln_error *err) {
    const kiln_view_options *o = &v->options;
    if (o->script_path && !view_script_load(&v->script, o->script_path, err)) return false;
    v->has_script = o->script_path != NULL;
    /* A program script that cannot be read or is not a JSON array is refused before any window
     * opens; one that reads is run once the device is there. */
    char why[2048];
    json_t *program = o->program_path ? program_script_load(o->program_path, why, sizeof why) : NULL;
    if (o->program_path && !program) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s", why);
    json_decref(program);
    if (!glfwInit()) return kiln_error_set(err, KILN_ERR_GPU, "cannot open a window: %s", glfw_reason());
    glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
    char title[512];
    snprintf(title, sizeof title, "kiln-view: %s", o->program_path ? o->program_path : o->model ? o->model : "demo");
    if (!(v->window = glfwCreateWindow((int)o->width, (int)o->height, title, NULL, NULL)))
        return kiln_error_set(err, KILN_ERR_GPU, "cannot open a window of %ux%u: %s", o->width, o->height, glfw_reason());
    glfwSetWindowUserPointer(v->window, v);
    if (!(v->gfx = kiln_gfx_create(&(kiln_gfx_desc){.label = "kiln-view", .x11_display = glfwGetX11Display(),
                                                    .x11_window = (uint64_t)glfwGetX11Window(v->window)}, err)))
        return false;
    if (!(v->res = kiln_resources_create(v->gfx, 0, err))) return false;
    int w, h;
    glfwGetFramebufferSize(v->window, &w, &h);
    if (!kiln_swapchain_init(&v->swapchain, v->gfx, (uint32_t)w, (uint32_t)h, true, true, err)) return false;
    if (!kiln_swapchain_set_vsync(&v->swapchain, o->vsync))
        fprintf(stderr, "kiln-view: warning: the surface presents with vsync only (Fifo)\n");
    kiln_render_settings settings = o->settings;
    settings.shader_dir = o->shader_dir;
    if (!(v->renderer = kiln_renderer_create(v->gfx, v->res, &settings, v->swapchain.format, err))) return false;
    /* The framing is made for the --size the window was asked for, as kiln-render makes it. */
    if (!view_scene_open(&v->scene, v->renderer, o->model, (float)o->width / (float)o->height, o->time, v->clip, err))
        return false;
    v->scene.playing = o->play && v->scene.animation_end > 0.0f;
    if (o->env_path && !view_scene_set_environment(&v->scene, v->renderer, o->env_path, err)) return false;
    if (o->lut_path && !load_color_lut(v, o->lut_path, err)) return false;
    view_camera_init(&v->camera, &v->scene.scene.camera, &v->scene.bounds, v->scene.file_cameras, v->scene.file_camera_count);
    if (!view_blit_create(&v->blit, v->res, v->swapchain.format, err)) return false;
    v->program = (view_program){.allow_outside_paths = o->allow_outside_paths, .playing = true};
    if (o->program_path && !view_program_load(&v->program, v->gfx, v->res, o->program_path, o->program_texture, err))
        return false;
    v->show_program = o->program_path != NULL;
    if (!view_watch_open(&v->watch, err)) return false;
    if (o->model && !view_watch_add_file(&v->watch, o->model, WATCH_MODEL, err)) return false;
    if (o->env_path && !view_watch_add_file(&v->watch, o->env_path, WATCH_ENVIRONMENT, err)) return false;
    if (o->env_path) snprintf(v->env_path, sizeof v->env_path, "%s", o->env_path);
    if (o->shader_dir && !view_watch_add_wgsl_directory(&v->watch, o->shader_dir, WATCH_SHADERS, err)) return false;
    for (uint32_t i = 0; i < v->program.watched_count; i++)
        if (!view_watch_add_file(&v->watch, v->program.watched[i], WATCH_PROGRAM, err)) return false;
    glfwSetKeyCallback(v->window, on_key);
    glfwSetMouseButtonCallback(v->window, on_mouse_button);
    glfwSetCursorPosCallback(v->window, on_cursor);
    glfwSetScrollCallback(v->window, on_scroll);
    glfwSetWindowIconifyCallback(v->window, on_iconify);
    glfwSetDropCallback(v->window, on_drop);
    /* After the viewer's callbacks: ImGui's GLFW backend chains them. */
    return (v->ui = view_ui_create(v->window, v->res, v->swapchain.format, !o->hide_ui, err)) != NULL;
}

/* Tears down in reverse order; the device's validation errors decide the exit status. */
static bool close_viewer(viewer *v) {
    bool clean = true;
    view_ui_destroy(v->ui);
    view_watch_close(&v->watch);
    view_program_close(&v->program);
    view_blit_release(&v->blit);
    view_scene_close(&v->scene);
    kiln_renderer_destroy(v->renderer);
    if (v->gfx) {
        kiln_swapchain_deinit(&v->swapchain);
        kiln_gfx_pump(v->gfx, true);
        if (v->gfx->error_count + v->lost_errors) {
            fprintf(stderr, "kiln-view: %llu validation error(s) from Dawn\n",
                    (unsigned long long)(v->gfx->error_count + v->lost_errors));
            clean = false;
        }
        kiln_log_record rec;
        while (kiln_log_take(&v->gfx->diagnostics, &rec))
            if (rec.level >= KILN_LOG_WARN) fprintf(stderr, "kiln-view: [%s] %s\n", rec.category, rec.message);
    }
    kiln_resources_destroy(v->res);
    kiln_gfx_destroy(v->gfx);
    if (v->window) glfwDestroyWindow(v->window);
    glfwTerminate();
    view_script_free(&v->script);
    return clean;
}

/* --clip names an animation of the model: the file is read before any window opens, so a
 * name or index it lacks is refused as a bad command line is (status 2), listing its clips. */
static int resolve_clip(viewer *v) {
    v->clip = VIEW_SCENE_ALL_CLIPS;
    if (!v->options.clip) return 0;
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load(v->options.model, NULL, &err);
    if (!doc) return fprintf(stderr, "kiln-view: %s\n", err.message), 1;
    const char *slash = strrchr(v->options.model, '/');
    char why[1024];
    bool found = view_scene_find_clip(doc, slash ? slash + 1 : v->options.model, v->options.clip, &v->clip, why, sizeof why);
    kiln_gltf_free(doc);
    if (!found) return fprintf(stderr, "kiln-view: --clip %s\n", why), 2;
    return 0;
}

int main(int argc, char **argv) {
    static viewer v = {.watch = {.fd = -1}};
    int rc = kiln_view_options_parse(argc, argv, &v.options, stdout, stderr);
    if (rc != TOOL_RUN) return rc;
    if ((rc = resolve_clip(&v))) return rc;
    kiln_error err = {0};
    bool ok = open_viewer(&v, &err);
    if (!ok) fprintf(stderr, "kiln-view: %s\n", err.message);
    if (ok) run(&v);
    ok = ok && !v.failed;
    if (ok && v.options.screenshot_path)
        fprintf(stderr, "kiln-view: %llu frames (%u skipped while minimised, %u reconfigures, %u device recoveries) on %s\n",
                (unsigned long long)v.frames, v.swapchain.frames_skipped, v.swapchain.reconfigures, v.recoveries,
                v.gfx->adapter_name);
    bool clean = close_viewer(&v);
    return ok && clean ? 0 : 1;
}
