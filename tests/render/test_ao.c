/* Ambient occlusion (GTAO and its blur) on the GPU (lavapipe), read back through the `ao` debug
 * view, which shows the occlusion the ambient term is multiplied by as grey: an open plane is
 * unoccluded, the ground in the corner a box makes with it is clearly occluded, with one sample of
 * multisampled depth as with single-sample depth; disable_ao declares neither pass nor either
 * transient. Every frame validation clean.
 *
 * The scene: a 20 m plane and a 1 m box standing on it at the origin, seen from (4, 2.5, 0)
 * looking at (0, 0.3, 0), so the box's +x face and the ground in front of it are in view; the
 * point (0.56, 0, 0) lies on the ground 6 cm in front of that face, well inside the default
 * 0.5 m radius. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <kiln/core/color.h>
#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 96
#define H 96

typedef struct ao_scene {
    renderer_fixture h;
    kiln_render_instance instances[2]; /* the plane, the box */
    kiln_light sun;
    kiln_render_scene scene;
} ao_scene;

static bool ao_scene_open(ao_scene *s, const kiln_render_settings *settings, bool box, kiln_error *err) {
    *s = (ao_scene){0};
    kiln_render_settings rs = *settings;
    rs.debug = KILN_DEBUG_AO;
    rs.disable_shadows = true; /* lavapipe: nothing here needs them */
    if (!renderer_fixture_open(&s->h, &rs, WGPUTextureFormat_RGBA8Unorm, W, H, err)) return false;
    uint32_t plane = renderer_fixture_add_plane(&s->h, "plane", 10.0f, err);
    uint32_t cube = renderer_fixture_add_cube(&s->h, "box", 0.5f, err);
    kiln_material grey = kiln_material_default("grey");
    uint32_t material = kiln_renderer_add_material(s->h.r, &grey, err);
    if (plane == KILN_INVALID_INDEX || cube == KILN_INVALID_INDEX || material == KILN_INVALID_INDEX) return false;
    s->instances[0] = (kiln_render_instance){.mesh = plane, .material = material, .transform = kiln_mat4_identity()};
    s->instances[1] = (kiln_render_instance){.mesh = cube, .material = material,
                                             .transform = kiln_mat4_translation((kiln_vec3){0, 0.5f, 0})};
    s->sun = kiln_light_sun((kiln_vec3){1, -2, 0}, (kiln_vec3){1, 1, 1}, 3.0f);
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){4, 2.5f, 0}, (kiln_vec3){0, 0.3f, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
        .lights = &s->sun, .light_count = 1, .instances = s->instances, .instance_count = box ? 2 : 1};
    return true;
}

/* The occlusion at pixel (x, y): the debug view's grey, sRGB-decoded by the tone map's encode. */
static float ao_at(const kiln_image *img, int x, int y) {
    return kiln_srgb_to_linear(((const uint8_t *)img->pixels)[((size_t)y * W + x) * 4] / 255.0f);
}

/* The occlusion at the pixel a world point projects to. */
static float ao_of(const ao_scene *s, const kiln_image *img, kiln_vec3 p) {
    kiln_camera c = s->scene.camera;
    kiln_camera_set_viewport(&c, W, H);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&c), (kiln_vec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5f + 0.5f) * W), y = (int)((0.5f - clip.y / clip.w * 0.5f) * H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return ao_at(img, x, y);
}

/* The mean occlusion over the middle half of the frame on each axis. */
static float middle_mean(const kiln_image *img) {
    double sum = 0;
    for (int y = H / 4; y < 3 * H / 4; y++)
        for (int x = W / 4; x < 3 * W / 4; x++) sum += ao_at(img, x, y);
    return (float)(sum / ((W / 2) * (H / 2)));
}

/* One frame of the scene (with or without the box) under `settings`, read back, with the graph's
 * DOT and pass count; the fixture is closed and its error count returned in *dirty. */
typedef struct ao_frame {
    bool rendered;
    kiln_image img;
    uint32_t passes;
    float corner, open_ground, box_top;
    uint64_t dirty;
} ao_frame;

static char dot[32768];

static ao_frame render_frame(const kiln_render_settings *settings, bool box) {
    ao_frame out = {0};
    ao_scene s;
    kiln_error err = {0};
    out.rendered = ao_scene_open(&s, settings, box, &err) && renderer_fixture_render(&s.h, &s.scene, &out.img, &err);
    if (!out.rendered) fprintf(stderr, "ao scene: %s\n", err.message);
    if (out.rendered) {
        out.passes = kiln_renderer_stats(s.h.r)->passes;
        kiln_renderer_graph_dot(s.h.r, dot, sizeof dot);
        out.corner = ao_of(&s, &out.img, (kiln_vec3){0.56f, 0, 0});
        out.open_ground = ao_of(&s, &out.img, (kiln_vec3){1.5f, 0, 1.5f});
        out.box_top = ao_of(&s, &out.img, (kiln_vec3){0.2f, 1, 0});
    }
    out.dirty = renderer_fixture_close(&s.h);
    return out;
}

TEST(an_open_plane_is_unoccluded) {
    ao_frame f = render_frame(&(kiln_render_settings){0}, false);
    float mean = f.rendered ? middle_mean(&f.img) : 0.0f;
    float darkest = 1.0f;
    for (int y = H / 4; f.rendered && y < 3 * H / 4; y++)
        for (int x = W / 4; x < 3 * W / 4; x++) darkest = fminf(darkest, ao_at(&f.img, x, y));
    if (f.rendered) kiln_image_free(&f.img);
    CHECK_EQ_INT(f.dirty, 0);
    CHECK(f.rendered);
    CHECK_MSG(mean > 0.99f, "the open plane's mean occlusion is %g, want above 0.99", (double)mean);
    CHECK_MSG(darkest > 0.95f, "the open plane's darkest pixel is %g, want above 0.95", (double)darkest);
}

TEST(the_ground_in_a_corner_is_clearly_occluded) {
    ao_frame f = render_frame(&(kiln_render_settings){0}, true);
    if (f.rendered) kiln_image_free(&f.img);
    CHECK_EQ_INT(f.dirty, 0);
    CHECK(f.rendered);
    CHECK_MSG(f.corner < 0.75f, "the ground by the box's face is at %g, want below 0.75", (double)f.corner);
    CHECK_MSG(f.open_ground > 0.95f, "the ground 1.5 m away is at %g, want above 0.95", (double)f.open_ground);
    CHECK_MSG(f.box_top > 0.95f, "the box's top is at %g, want above 0.95", (double)f.box_top);
}

TEST(msaa_4_reads_sample_0_of_the_multisampled_depth) {
    ao_frame f = render_frame(&(kiln_render_settings){.msaa = 4}, true);
    if (f.rendered) kiln_image_free(&f.img);
    CHECK_EQ_INT(f.dirty, 0);
    CHECK(f.rendered);
    CHECK_STR_CONTAINS(dot, "gtao");
    CHECK_MSG(f.corner < 0.75f, "the ground by the box's face is at %g, want below 0.75", (double)f.corner);
    CHECK_MSG(f.open_ground > 0.95f, "the ground 1.5 m away is at %g, want above 0.95", (double)f.open_ground);
}

TEST(disable_ao_declares_no_ao_pass_and_nothing_is_occluded) {
    ao_frame on = render_frame(&(kiln_render_settings){0}, true);
    bool dot_on = strstr(dot, ": gtao\"") && strstr(dot, ": ao blur\"") && strstr(dot, "label=\"ao raw\\n") &&
                  strstr(dot, "label=\"ao\\n");
    ao_frame off = render_frame(&(kiln_render_settings){.disable_ao = true}, true);
    bool dot_off = strstr(dot, "gtao") || strstr(dot, "ao blur") || strstr(dot, "ao raw") ||
                   strstr(dot, "label=\"ao\\n");
    if (on.rendered) kiln_image_free(&on.img);
    if (off.rendered) kiln_image_free(&off.img);
    CHECK_EQ_INT(on.dirty, 0);
    CHECK_EQ_INT(off.dirty, 0);
    CHECK(on.rendered && off.rendered);
    CHECK_MSG(dot_on, "the DOT with AO on lacks a pass or a transient:\n%s", dot);
    CHECK_MSG(!dot_off, "the DOT with AO off names one:\n%s", dot);
    CHECK_EQ_INT(on.passes, off.passes + 2);
    CHECK_MSG(off.corner > 0.99f, "with AO off the ground by the box is at %g, want 1", (double)off.corner);
}

TEST(a_larger_radius_occludes_more) {
    ao_frame near = render_frame(&(kiln_render_settings){0}, true);
    ao_frame wide = render_frame(&(kiln_render_settings){.ao_radius = 1.5f}, true);
    if (near.rendered) kiln_image_free(&near.img);
    if (wide.rendered) kiln_image_free(&wide.img);
    CHECK_EQ_INT(near.dirty + wide.dirty, 0);
    CHECK(near.rendered && wide.rendered);
    CHECK_MSG(wide.corner < near.corner, "the corner is %g at 1.5 m and %g at 0.5 m", (double)wide.corner,
              (double)near.corner);
}

TEST_MAIN(T(an_open_plane_is_unoccluded), T(the_ground_in_a_corner_is_clearly_occluded),
          T(msaa_4_reads_sample_0_of_the_multisampled_depth), T(disable_ao_declares_no_ao_pass_and_nothing_is_occluded),
          T(a_larger_radius_occludes_more))
