/* Shadows of spot and point lights through the atlas. On the CPU: the spec's example atlas (2048
 * texels in tiles of 512: capacity 16, a spot gets view 0, a point light views 1..6, 7 views in
 * all), a full atlas refusing a light whole, the views' fields of view. On the GPU (lavapipe),
 * read back from the image: a box between a light and a plane darkens the plane exactly where the
 * light's geometry projects the box, for a spot light and for every face of a point light's cube
 * (the four sides and the floor from a light above a plane, the ceiling from below), and the same
 * spot is lit when the light does not cast; disable_shadows declares no atlas pass. Every frame
 * validation clean. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "render/shadow_atlas.h"
#include "renderer_fixture.h"

#define W 128
#define H 128

/* ---- the atlas on the CPU ------------------------------------------------------------------- */

TEST(the_spec_example_atlas_hands_out_seven_views) {
    kiln_shadow_atlas a;
    kiln_shadow_atlas_init(&a, 2048, 512);
    kiln_light spot = kiln_light_spot((kiln_vec3){0, 3, 0}, (kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1}, 100, 10, 0.3f, 0.5f);
    kiln_light point = kiln_light_point((kiln_vec3){1, 2, 3}, (kiln_vec3){1, 1, 1}, 100, 10);
    CHECK_EQ_INT(kiln_shadow_atlas_capacity(&a), 16);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &spot), 0);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &point), 1);
    CHECK_EQ_INT(a.count, 7);
    for (uint32_t i = 0; i < a.count; i++) CHECK_EQ_INT(a.views[i].tile, i);
    /* The spot's cone and margin: 2 * 0.5 + 0.05 radians, so one texel at 1 m is 2 tan(0.525) / 512. */
    CHECK_NEAR(a.views[0].texel_scale, 2.0 * tan(0.525) / 512.0, 1e-6);
    /* A face of the cube reaches two texels past 90 degrees on each side. */
    CHECK_NEAR(a.views[1].texel_scale, 2.0 * (256.0 / 254.0) / 512.0, 1e-6);
    /* Each face looks down its axis: the face's centre direction lands at the middle of its tile. */
    static const kiln_vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int f = 0; f < 6; f++) {
        const kiln_shadow_view *v = &a.views[1 + f];
        kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_mat4_mul(v->projection, v->view),
                                            (kiln_vec4){1 + axes[f].x, 2 + axes[f].y, 3 + axes[f].z, 1});
        CHECK_MSG(clip.w > 0 && fabsf(clip.x / clip.w) < 1e-5f && fabsf(clip.y / clip.w) < 1e-5f, "face %d", f);
    }
}

TEST(a_full_atlas_refuses_a_light_whole_and_a_sun_gets_none) {
    kiln_shadow_atlas a;
    kiln_shadow_atlas_init(&a, 1024, 256); /* 16 tiles */
    kiln_light point = kiln_light_point((kiln_vec3){0, 1, 0}, (kiln_vec3){1, 1, 1}, 100, 10);
    kiln_light spot = kiln_light_spot((kiln_vec3){0, 3, 0}, (kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1}, 100, 10, 0.3f, 0.5f);
    kiln_light sun = kiln_light_sun((kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1}, 3);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &sun), -1);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &point), 0);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &point), 6);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &point), -1); /* 12 used: six more do not fit */
    CHECK_EQ_INT(a.count, 12);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &spot), 12);  /* a spot still does */
    kiln_shadow_atlas_reset(&a);
    CHECK_EQ_INT(kiln_shadow_atlas_allocate(&a, &spot), 0);
    /* More tiles than the views one frame shades with: capped. */
    kiln_shadow_atlas_init(&a, 8192, 128);
    CHECK_EQ_INT(kiln_shadow_atlas_capacity(&a), KILN_ATLAS_MAX_VIEWS);
}

/* ---- shadows on the GPU --------------------------------------------------------------------- */

/* One light, a plane and a 0.3 m box: where the box's shadow must fall, and a point as far from
 * the light on the plane, on the other side, that nothing shadows. */
typedef struct box_case {
    const char *what;
    kiln_light light;
    bool ceiling;             /* the plane faces down at y = 3 (else up at y = 0) */
    kiln_vec3 box;
    kiln_vec3 eye, target;    /* the camera */
} box_case;

/* Where the ray from the light through the box's centre meets the plane. */
static kiln_vec3 shadow_centre(const box_case *c) {
    kiln_vec3 p = c->light.position, d = {c->box.x - p.x, c->box.y - p.y, c->box.z - p.z};
    float t = ((c->ceiling ? 3.0f : 0.0f) - p.y) / d.y;
    return (kiln_vec3){p.x + d.x * t, p.y + d.y * t, p.z + d.z * t};
}

/* The same point turned half way round the light's vertical axis. */
static kiln_vec3 lit_reference(const box_case *c, kiln_vec3 s) {
    kiln_vec3 p = c->light.position;
    return (kiln_vec3){2 * p.x - s.x, s.y, 2 * p.z - s.z};
}

/* The red channel of the pixel a world point projects to. */
static int red_at(const kiln_render_scene *scene, const kiln_image *img, kiln_vec3 p) {
    kiln_camera cam = scene->camera;
    kiln_camera_set_viewport(&cam, W, H);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&cam), (kiln_vec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5f + 0.5f) * W), y = (int)((0.5f - clip.y / clip.w * 0.5f) * H);
    if (clip.w <= 0 || x < 0 || x >= W || y < 0 || y >= H) return -1;
    return ((const uint8_t *)img->pixels)[((size_t)y * W + x) * 4];
}

/* Renders the case with the light casting (or not) and reads the shadow's centre and the lit
 * reference; false with err on a failed frame or a Dawn error. */
static bool render_box_case(const box_case *c, bool cast, const kiln_render_settings *extra, int *shadow, int *lit,
                            kiln_frame_stats *stats, kiln_error *err) {
    renderer_fixture h;
    kiln_render_settings settings = extra ? *extra : (kiln_render_settings){0};
    settings.tonemapper = KILN_TONEMAP_NONE;
    settings.disable_bloom = true;
    settings.atlas_size = 1024;
    settings.atlas_tile = 256;
    bool ok = renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, W, H, err);
    uint32_t plane = ok ? renderer_fixture_add_plane(&h, "plane", 5.0f, err) : KILN_INVALID_INDEX;
    uint32_t box = ok ? renderer_fixture_add_cube(&h, "box", 0.15f, err) : KILN_INVALID_INDEX;
    uint32_t material = KILN_INVALID_INDEX;
    kiln_material grey = kiln_material_default("grey");
    grey.base_color = (kiln_vec4){0.8f, 0.8f, 0.8f, 1};
    grey.metallic = 0.0f;
    grey.roughness = 1.0f;
    if (ok) material = kiln_renderer_add_material(h.r, &grey, err);
    ok = ok && plane != KILN_INVALID_INDEX && box != KILN_INVALID_INDEX && material != KILN_INVALID_INDEX;
    /* The ceiling: the plane turned over (facing down) at y = 3. */
    kiln_mat4 plane_at = c->ceiling ? kiln_mat4_trs((kiln_vec3){0, 3, 0}, kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, 3.14159265f),
                                                     (kiln_vec3){1, 1, 1})
                                    : kiln_mat4_identity();
    kiln_render_instance instances[2] = {{.mesh = plane, .material = material, .transform = plane_at},
                                         {.mesh = box, .material = material, .transform = kiln_mat4_translation(c->box)}};
    kiln_light light = c->light;
    light.cast_shadows = cast;
    kiln_render_scene scene = {
        .camera = kiln_camera_look_at(c->eye, c->target, fabsf(c->target.y - c->eye.y) > 1.0f ? (kiln_vec3){0, 0, -1} : (kiln_vec3){0, 1, 0},
                                      1.2f, 1.0f, 0.05f),
        .lights = &light, .light_count = 1, .instances = instances, .instance_count = 2,
        .environment = {.zenith = {0.01f, 0.01f, 0.01f}, .ground = {0.01f, 0.01f, 0.01f}}};
    kiln_image img = {0};
    ok = ok && renderer_fixture_render(&h, &scene, &img, err);
    if (ok) {
        kiln_vec3 s = shadow_centre(c);
        *shadow = red_at(&scene, &img, s);
        *lit = red_at(&scene, &img, lit_reference(c, s));
        *stats = *kiln_renderer_stats(h.r);
    }
    kiln_image_free(&img);
    uint64_t dirty = renderer_fixture_close(&h);
    if (ok && dirty) ok = kiln_error_set(err, KILN_ERR_GPU, "%llu Dawn errors or leaked objects", (unsigned long long)dirty);
    return ok;
}

static const kiln_vec3 ABOVE = {0, 9, 0}, ORIGIN = {0, 0, 0};

TEST(a_box_shadows_the_plane_where_the_light_geometry_says) {
    kiln_light point = kiln_light_point((kiln_vec3){0, 1.5f, 0}, (kiln_vec3){1, 1, 1}, 400, 12);
    kiln_light spot = kiln_light_spot((kiln_vec3){0, 3, 0}, (kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1}, 400, 12, 0.45f, 0.6f);
    kiln_light dim = point; /* the ceiling is nearer the light: dimmer, so it does not saturate */
    dim.intensity = 100;
    /* Each box sits where the ray from the light to its shadow's centre runs along the named
     * face's axis more than any other. */
    const box_case cases[] = {
        {"spot", spot, false, {0.4f, 1.5f, 0.2f}, ABOVE, ORIGIN},
        {"point, face +X", point, false, {1.5f, 0.5f, 0.0f}, ABOVE, ORIGIN},
        {"point, face -X", point, false, {-1.5f, 0.5f, 0.3f}, ABOVE, ORIGIN},
        {"point, face -Y", point, false, {0.5f, 0.75f, 0.3f}, ABOVE, ORIGIN},
        {"point, face +Z", point, false, {0.2f, 0.5f, 1.5f}, ABOVE, ORIGIN},
        {"point, face -Z", point, false, {0.0f, 0.5f, -1.5f}, ABOVE, ORIGIN},
        {"point, face +Y (a ceiling, seen from below)", dim, true, {0.5f, 2.25f, 0.3f}, {1.5f, 0.5f, -1.0f}, {0, 3, 0}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_error err = {0};
        int shadow = 0, lit = 0, shadow_off = 0, lit_off = 0;
        kiln_frame_stats on, off;
        CHECK_MSG(render_box_case(&cases[i], true, NULL, &shadow, &lit, &on, &err), "%s: %s", cases[i].what, err.message);
        CHECK_MSG(render_box_case(&cases[i], false, NULL, &shadow_off, &lit_off, &off, &err), "%s: %s", cases[i].what, err.message);
        printf("%-44s shadow %3d lit %3d | not casting: %3d %3d | views %u\n", cases[i].what, shadow, lit, shadow_off,
               lit_off, on.shadow_views);
        CHECK_MSG(shadow >= 0 && lit > 40, "%s: the points are off screen or unlit (%d, %d)", cases[i].what, shadow, lit);
        CHECK_MSG(shadow * 3 < lit, "%s: the shadow's centre is %d, the lit point %d", cases[i].what, shadow, lit);
        /* Not casting: the same spot is as lit as its mirror image, and no atlas view exists. */
        CHECK_MSG(shadow_off * 10 > lit_off * 9, "%s: not casting, %d against %d", cases[i].what, shadow_off, lit_off);
        CHECK_EQ_INT(on.shadowed_lights, 1);
        CHECK_EQ_INT(on.shadow_views, cases[i].light.kind == KILN_LIGHT_SPOT ? 1 : 6);
        CHECK_EQ_INT(off.shadow_views, 0);
    }
}

TEST(disable_shadows_declares_no_atlas_pass) {
    kiln_light spot = kiln_light_spot((kiln_vec3){0, 3, 0}, (kiln_vec3){0, -1, 0}, (kiln_vec3){1, 1, 1}, 400, 12, 0.45f, 0.6f);
    spot.cast_shadows = true;
    for (int disabled = 0; disabled < 2; disabled++) {
        renderer_fixture h;
        kiln_error err = {0};
        kiln_render_settings settings = {.disable_shadows = disabled, .atlas_size = 1024, .atlas_tile = 256};
        CHECK_MSG(renderer_fixture_open(&h, &settings, WGPUTextureFormat_RGBA8Unorm, 32, 32, &err), "%s", err.message);
        uint32_t plane = renderer_fixture_add_plane(&h, "plane", 5.0f, &err);
        CHECK_MSG(plane != KILN_INVALID_INDEX, "%s", err.message);
        kiln_material grey = kiln_material_default("grey");
        uint32_t material = kiln_renderer_add_material(h.r, &grey, &err);
        kiln_render_instance inst = {.mesh = plane, .material = material, .transform = kiln_mat4_identity()};
        kiln_render_scene scene = {
            .camera = kiln_camera_look_at(ABOVE, ORIGIN, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
            .lights = &spot, .light_count = 1, .instances = &inst, .instance_count = 1};
        CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
        static char dot[32768];
        kiln_renderer_graph_dot(h.r, dot, sizeof dot);
        kiln_frame_stats stats = *kiln_renderer_stats(h.r);
        CHECK_EQ_INT(renderer_fixture_close(&h), 0);
        CHECK_EQ_INT(strstr(dot, "atlas shadows") != NULL, !disabled);
        CHECK_EQ_INT(stats.shadow_views, disabled ? 0 : 1);
        CHECK_EQ_INT(stats.shadowed_lights, disabled ? 0 : 1);
    }
}

TEST(atlas_sizes_out_of_range_fail_naming_the_field) {
    struct {
        kiln_render_settings settings;
        const char *message;
    } cases[] = {
        {{.atlas_size = 32}, "renderer: settings.atlas_size 32 must be between 64 and 8192 texels"},
        {{.atlas_size = 16384}, "renderer: settings.atlas_size 16384 must be between 64 and 8192 texels"},
        {{.atlas_tile = 300}, "renderer: settings.atlas_tile 300 must be at least 16 texels and divide settings.atlas_size 4096"},
        {{.atlas_size = 1024, .atlas_tile = 2048},
         "renderer: settings.atlas_tile 2048 must be at least 16 texels and divide settings.atlas_size 1024"},
        {{.atlas_tile = 8}, "renderer: settings.atlas_tile 8 must be at least 16 texels and divide settings.atlas_size 4096"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kiln_render_settings out;
        kiln_error err = {0};
        CHECK(!kiln_render_settings_resolve(&cases[i].settings, &out, &err));
        CHECK_MSG(!strcmp(err.message, cases[i].message), "case %zu: '%s'", i, err.message);
    }
    kiln_render_settings out;
    CHECK(kiln_render_settings_resolve(&(kiln_render_settings){0}, &out, NULL));
    CHECK_EQ_INT(out.atlas_size, 4096);
    CHECK_EQ_INT(out.atlas_tile, 512);
}

TEST_MAIN(T(the_spec_example_atlas_hands_out_seven_views), T(a_full_atlas_refuses_a_light_whole_and_a_sun_gets_none),
          T(a_box_shadows_the_plane_where_the_light_geometry_says), T(disable_shadows_declares_no_atlas_pass),
          T(atlas_sizes_out_of_range_fail_naming_the_field))
