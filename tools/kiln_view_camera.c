/* kiln-view's camera controller (kiln_view_camera.h): orbit in spherical coordinates about the
 * pivot, measured as the framing rule measures them (azimuth from +Z towards +X, elevation above
 * the horizon), so an orbit of the framed camera continues the framing's own parametrisation. */
#include "kiln_view_camera.h"

#include <math.h>

/* Orbit stops this short of the poles, where look-at with +Y up has no defined heading. */
#define POLE_MARGIN 0.01f

static const kiln_vec3 world_up = {0, 1, 0};

static float usable_radius(const kiln_mesh_bounds *b) {
    return b->radius > 0.0f && isfinite(b->radius) ? b->radius : 1.0f;
}

/* The camera at `eye` with `rotation`, its near plane where the importer would put it for the
 * bounds (the plane depends on the eye alone, so any target on the view ray gives it). */
static void place(view_camera *vc, kiln_vec3 eye, kiln_quat rotation) {
    vc->camera.position = eye;
    vc->camera.rotation = rotation;
    kiln_vec3 ahead = kiln_vec3_add(eye, kiln_camera_forward(&vc->camera));
    vc->camera.near = kiln_import_look_at(&vc->bounds, eye, ahead, world_up, vc->camera.fov_y, vc->camera.aspect).near;
}

/* Where the view ray passes closest to the bounds' centre, but never behind or at the eye. */
static kiln_vec3 pivot_on_view_ray(const kiln_camera *c, const kiln_mesh_bounds *b) {
    kiln_vec3 forward = kiln_camera_forward(c);
    float t = kiln_vec3_dot(kiln_vec3_sub(b->center, c->position), forward);
    return kiln_vec3_add(c->position, kiln_vec3_scale(forward, fmaxf(t, usable_radius(b))));
}

void view_camera_init(view_camera *vc, const kiln_camera *start, const kiln_mesh_bounds *bounds,
                      const kiln_camera *file_cameras, uint32_t file_camera_count) {
    *vc = (view_camera){.camera = *start, .bounds = *bounds, .file_cameras = file_cameras,
                        .file_camera_count = file_camera_count, .file_camera = -1};
    vc->pivot = pivot_on_view_ray(start, bounds);
}

static void orbit(view_camera *vc, float dx, float dy) {
    kiln_vec3 offset = kiln_vec3_sub(vc->camera.position, vc->pivot);
    float r = kiln_vec3_length(offset);
    if (!(r > 0.0f)) return;
    float azimuth = atan2f(offset.x, offset.z) - dx * VIEW_CAMERA_RADIANS_PER_PIXEL;
    float limit = 0.5f * KILN_PI - POLE_MARGIN;
    float elevation = fminf(fmaxf(asinf(fminf(fmaxf(offset.y / r, -1.0f), 1.0f)) + dy * VIEW_CAMERA_RADIANS_PER_PIXEL, -limit), limit);
    float ce = cosf(elevation);
    kiln_vec3 eye = kiln_vec3_add(vc->pivot, kiln_vec3_scale((kiln_vec3){ce * sinf(azimuth), sinf(elevation), ce * cosf(azimuth)}, r));
    vc->camera = kiln_import_look_at(&vc->bounds, eye, vc->pivot, world_up, vc->camera.fov_y, vc->camera.aspect);
}

/* The pivot's depth moves with the cursor: a pixel is 2 d tan(fov / 2) / height metres there. */
static void pan(view_camera *vc, float dx, float dy, float viewport_height) {
    if (!(viewport_height > 0.0f)) return;
    kiln_vec3 right = kiln_quat_rotate(vc->camera.rotation, (kiln_vec3){1, 0, 0});
    kiln_vec3 up = kiln_quat_rotate(vc->camera.rotation, (kiln_vec3){0, 1, 0});
    float depth = kiln_vec3_dot(kiln_vec3_sub(vc->pivot, vc->camera.position), kiln_camera_forward(&vc->camera));
    float metres_per_pixel = 2.0f * fabsf(depth) * tanf(0.5f * vc->camera.fov_y) / viewport_height;
    kiln_vec3 move = kiln_vec3_add(kiln_vec3_scale(right, -dx * metres_per_pixel), kiln_vec3_scale(up, dy * metres_per_pixel));
    vc->pivot = kiln_vec3_add(vc->pivot, move);
    place(vc, kiln_vec3_add(vc->camera.position, move), vc->camera.rotation);
}

/* Yaw about world +Y, pitch about the camera's own right: no roll creeps in. The pivot stays
 * ahead of the camera at the distance it had. */
static void look(view_camera *vc, float dx, float dy) {
    float distance = kiln_vec3_length(kiln_vec3_sub(vc->pivot, vc->camera.position));
    kiln_quat yaw = kiln_quat_from_axis_angle(world_up, -dx * VIEW_CAMERA_RADIANS_PER_PIXEL);
    kiln_quat pitch = kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, -dy * VIEW_CAMERA_RADIANS_PER_PIXEL);
    kiln_quat rotation = kiln_quat_normalize(kiln_quat_mul(kiln_quat_mul(yaw, vc->camera.rotation), pitch));
    place(vc, vc->camera.position, rotation);
    vc->pivot = kiln_vec3_add(vc->camera.position, kiln_vec3_scale(kiln_camera_forward(&vc->camera), distance));
}

void view_camera_drag(view_camera *vc, view_button button, bool shift, float dx, float dy, float viewport_height) {
    if (dx == 0.0f && dy == 0.0f) return;
    if (button == VIEW_BUTTON_MIDDLE || (button == VIEW_BUTTON_LEFT && shift)) pan(vc, dx, dy, viewport_height);
    else if (button == VIEW_BUTTON_LEFT) orbit(vc, dx, dy);
    else look(vc, dx, dy);
}

void view_camera_scroll(view_camera *vc, float steps) {
    if (steps == 0.0f || !isfinite(steps)) return;
    kiln_vec3 to_pivot = kiln_vec3_sub(vc->pivot, vc->camera.position);
    float distance = kiln_vec3_length(to_pivot);
    if (!(distance > 0.0f)) return;
    float closest = VIEW_CAMERA_MIN_DISTANCE * usable_radius(&vc->bounds);
    float moved = fmaxf(distance * powf(1.0f - VIEW_CAMERA_DOLLY_STEP, steps), closest);
    kiln_vec3 eye = kiln_vec3_sub(vc->pivot, kiln_vec3_scale(to_pivot, moved / distance));
    place(vc, eye, vc->camera.rotation);
}

void view_camera_set_flying(view_camera *vc, bool flying) { vc->flying = flying; }

void view_camera_fly(view_camera *vc, uint32_t held_keys, float seconds) {
    if (!vc->flying || !held_keys || !(seconds > 0.0f)) return;
    kiln_vec3 forward = kiln_camera_forward(&vc->camera);
    kiln_vec3 right = kiln_quat_rotate(vc->camera.rotation, (kiln_vec3){1, 0, 0});
    kiln_vec3 step = {0, 0, 0};
    if (held_keys & VIEW_FLY_FORWARD) step = kiln_vec3_add(step, forward);
    if (held_keys & VIEW_FLY_BACK) step = kiln_vec3_sub(step, forward);
    if (held_keys & VIEW_FLY_RIGHT) step = kiln_vec3_add(step, right);
    if (held_keys & VIEW_FLY_LEFT) step = kiln_vec3_sub(step, right);
    if (held_keys & VIEW_FLY_UP) step = kiln_vec3_add(step, world_up);
    if (held_keys & VIEW_FLY_DOWN) step = kiln_vec3_sub(step, world_up);
    float length = kiln_vec3_length(step);
    if (!(length > 0.0f)) return; /* opposite keys cancel */
    float metres = VIEW_CAMERA_FLY_RADII_PER_SECOND * usable_radius(&vc->bounds) * seconds;
    kiln_vec3 move = kiln_vec3_scale(step, metres / length);
    vc->pivot = kiln_vec3_add(vc->pivot, move);
    place(vc, kiln_vec3_add(vc->camera.position, move), vc->camera.rotation);
}

void view_camera_frame(view_camera *vc, float aspect) {
    vc->camera = kiln_import_frame(&vc->bounds, KILN_IMPORT_DEFAULT_FOV_Y, aspect > 0.0f ? aspect : 1.0f);
    vc->pivot = vc->bounds.center;
    vc->file_camera = -1;
}

void view_camera_next_file_camera(view_camera *vc, float aspect) {
    int32_t next = vc->file_camera + 1;
    if (next >= (int32_t)vc->file_camera_count) {
        view_camera_frame(vc, aspect);
        return;
    }
    vc->camera = vc->file_cameras[next];
    vc->pivot = pivot_on_view_ray(&vc->camera, &vc->bounds);
    vc->file_camera = next;
}
