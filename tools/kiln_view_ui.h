/* kiln-view's debug UI: Dear ImGui panels (render settings, frame stats with the GPU time of
 * each pass, the scene and camera, the log; in the program view the program's script, texture,
 * clock and timings table) drawn by kiln's own small ImGui renderer over the
 * gfx layer, after tone mapping, into the swapchain image, never into the HDR target.
 *
 * The one C++ translation unit of the viewer is kiln_view_ui.cpp; this header is what the C
 * side sees. Input comes through ImGui's GLFW platform backend (Debian's libimgui-dev), which
 * chains the viewer's own GLFW callbacks: install those first, then create the UI. While the UI
 * wants the mouse or keyboard (the cursor over a panel, a text field active) the viewer leaves
 * the events to it. */
#ifndef KILN_VIEW_UI_H
#define KILN_VIEW_UI_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/render.h>

#include "kiln_view_camera.h"
#include "kiln_view_program.h"
#include "kiln_view_scene.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct GLFWwindow GLFWwindow;
typedef struct view_ui view_ui;

/* The most rectangles view_ui_drawn_rects reports. */
#define VIEW_UI_MAX_RECTS 16

/* A pixel rectangle of the target: x, y its top-left corner. */
typedef struct view_ui_rect {
    /*@{*/
    int32_t x, y, width, height;
    /*@}*/
} view_ui_rect;

/* What the panels show and change, borrowed for one frame. */
typedef struct view_ui_state {
    kiln_renderer *renderer;     /* its settings are edited in place */
    uint32_t color_lut;          /* the --lut table's id, which a checkbox turns on and off; 0: none */
    view_scene *scene;           /* the animation controls change its time and playing */
    view_camera *camera;         /* the Frame and Next camera buttons move it */
    float aspect;                /* the window's, for framing */
    double frame_seconds;        /* since the previous frame */
    view_program *program;       /* the program script (script_path NULL: none); its clock is played here */
    bool *show_program;          /* the window shows the program, not the scene (the view button switches) */
} view_ui_state;

/* The UI on `window`, drawing into targets of `format`; shown at first when `visible`. NULL with
 * err filled when its pipeline or font texture cannot be made. */
view_ui *view_ui_create(GLFWwindow *window, kiln_resources *res, WGPUTextureFormat format, bool visible, kiln_error *err);
void view_ui_destroy(view_ui *ui);
/* After device loss: releases the UI's GPU objects through the old resources (before they are
 * destroyed), then makes them again on the new ones. */
void view_ui_release_gpu(view_ui *ui);
bool view_ui_recreate_gpu(view_ui *ui, kiln_resources *res, kiln_error *err);

void view_ui_toggle(view_ui *ui);
bool view_ui_visible(const view_ui *ui);
/* Whether the last frame's UI takes the mouse or the keyboard; false when hidden or NULL. */
bool view_ui_wants_mouse(const view_ui *ui);
bool view_ui_wants_keyboard(const view_ui *ui);

/* A line for the log panel (the last 128 are kept). An error of a reload shows in a banner at
 * the bottom of the window until a later reload succeeds. */
void view_ui_log(view_ui *ui, kiln_log_level level, const char *category, const char *message);

/* Builds this frame's panels and draws them over `target` (its contents loaded, not cleared) in
 * one render pass of its own; does nothing while hidden. False with err on a recording failure. */
bool view_ui_draw(view_ui *ui, const view_ui_state *state, kiln_render_target target, uint32_t width, uint32_t height,
                  kiln_error *err);
/* Where the last drawn frame put pixels: the bounds of each panel's geometry, grown by a pixel
 * for antialiased edges, clipped to the target. Returns how many (at most max). */
uint32_t view_ui_drawn_rects(const view_ui *ui, view_ui_rect *rects, uint32_t max);

#ifdef __cplusplus
}
#endif

#endif
