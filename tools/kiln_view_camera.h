/* kiln-view's camera controller: mouse drags, the wheel and held keys turned into a kiln_camera.
 *
 * Pure C over kiln's math and the importer's framing rule, with no window and no GPU, so every
 * gesture is unit tested (tests/view/test_view_camera.c). The viewer feeds it what GLFW reports
 * in window pixels and seconds; the controller knows nothing of GLFW.
 *
 *   left drag             orbit about the pivot (yaw about world +Y, pitch about the camera's right)
 *   middle drag, or shift + left drag    pan: camera and pivot move together in the view plane,
 *                         the pivot's depth following the cursor pixel for pixel
 *   wheel                 dolly towards or away from the pivot (10% of the distance a step)
 *   right drag            fly: look around from where the camera stands; while it is held,
 *                         W/S move forward and back, A/D left and right, Q/E down and up
 *   F                     frame the model again: exactly the camera kiln-render and the first
 *                         frame use (kiln_import_frame)
 *   C                     the next of the file's cameras, then back to the framed one
 *
 * Until the first gesture, `camera` is the start camera bit for bit: that is what makes the
 * viewer's first frame the headless render's. Every gesture keeps the near plane where the
 * importer puts it for the model's bounds (kiln_import_look_at). */
#ifndef KILN_VIEW_CAMERA_H
#define KILN_VIEW_CAMERA_H

#include <stdbool.h>
#include <stdint.h>

#include <kiln/import.h>

/* Radians of orbit or fly look per pixel dragged. */
#define VIEW_CAMERA_RADIANS_PER_PIXEL 0.005f
/* A wheel step moves the camera this fraction of its distance to the pivot. */
#define VIEW_CAMERA_DOLLY_STEP 0.1f
/* The closest a dolly brings the camera to the pivot, as a fraction of the model's radius. */
#define VIEW_CAMERA_MIN_DISTANCE 1e-3f
/* Fly speed: the model's radius per second. */
#define VIEW_CAMERA_FLY_RADII_PER_SECOND 1.0f

typedef enum view_button { VIEW_BUTTON_LEFT, VIEW_BUTTON_MIDDLE, VIEW_BUTTON_RIGHT } view_button;

/* The keys fly mode reads while held: a bit each. */
typedef enum view_fly_key {
    VIEW_FLY_FORWARD = 1 << 0,  /* W */
    VIEW_FLY_BACK = 1 << 1,     /* S */
    VIEW_FLY_LEFT = 1 << 2,     /* A */
    VIEW_FLY_RIGHT = 1 << 3,    /* D */
    VIEW_FLY_DOWN = 1 << 4,     /* Q */
    VIEW_FLY_UP = 1 << 5,       /* E */
} view_fly_key;

typedef struct view_camera {
    kiln_camera camera;          /* what the frame draws; its aspect follows the window */
    kiln_vec3 pivot;             /* what orbit turns about and dolly moves towards */
    kiln_mesh_bounds bounds;     /* the model's, world space: framing and the near plane */
    const kiln_camera *file_cameras; /* the file's cameras, borrowed; C steps through them */
    uint32_t file_camera_count;  /* entries of file_cameras */
    int32_t file_camera;         /* the one shown, or -1: the framed camera */
    bool flying;                 /* a right drag is on: WASD/QE move the camera */
} view_camera;

/* Starts from `start` (the camera the import made, framed or the file's), with the pivot at the
 * bounds' centre for a framed camera, else where the view ray passes closest to that centre. */
void view_camera_init(view_camera *vc, const kiln_camera *start, const kiln_mesh_bounds *bounds,
                      const kiln_camera *file_cameras, uint32_t file_camera_count);

/* A drag of (dx, dy) window pixels with `button` held (+x right, +y down, as GLFW's cursor);
 * viewport_height in pixels scales a pan. Shift turns a left drag into a pan. */
void view_camera_drag(view_camera *vc, view_button button, bool shift, float dx, float dy, float viewport_height);
/* `steps` of the wheel: positive (wheel up, away from the user) moves in. */
void view_camera_scroll(view_camera *vc, float steps);
/* Fly mode starts with a right press and ends with its release. */
void view_camera_set_flying(view_camera *vc, bool flying);
/* Moves a flying camera by the held view_fly_key bits over `seconds`; does nothing when not flying. */
void view_camera_fly(view_camera *vc, uint32_t held_keys, float seconds);
/* F: the framed camera for the bounds at `aspect` (width / height). */
void view_camera_frame(view_camera *vc, float aspect);
/* C: the next file camera, after the last the framed one (at `aspect`); with no file camera, F. */
void view_camera_next_file_camera(view_camera *vc, float aspect);

#endif
