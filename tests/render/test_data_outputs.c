/* The target's data outputs (kiln_render_target.linear_depth and .object_ids), on the GPU
 * (lavapipe), read back texel by texel: the depth in metres along the view direction and the
 * object id of the nearest opaque or masked surface, 0 for both where nothing is; a masked
 * surface counts only where its alpha passes the cutoff, a blended one never; exact with MSAA
 * and FXAA on and through an orthographic camera; the colour image the same with or without
 * them; a target whose outputs render cannot use refused naming the output. Every frame
 * validation clean. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <kiln/render.h>

#include "renderer_fixture.h"

#define W 160
#define H 96

/* The two outputs, made and read back. */
typedef struct data_targets {
    kiln_texture depth, ids;
    kiln_texture_view depth_view, ids_view;
    float depths[W * H];
    uint32_t object_ids[W * H];
} data_targets;

static bool data_open(renderer_fixture *h, data_targets *d, kiln_error *err) {
    kiln_texture_desc desc = {.width = W, .height = H, .format = WGPUTextureFormat_R32Float,
                              .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc};
    d->depth = kiln_resources_create_texture(h->f.res, &desc, err);
    desc.format = WGPUTextureFormat_R32Uint;
    d->ids = kiln_resources_create_texture(h->f.res, &desc, err);
    if (!d->depth.id || !d->ids.id) return false;
    d->depth_view = kiln_resources_create_texture_view(h->f.res, d->depth, NULL, err);
    d->ids_view = kiln_resources_create_texture_view(h->f.res, d->ids, NULL, err);
    return d->depth_view.id && d->ids_view.id;
}

static void data_close(renderer_fixture *h, data_targets *d) {
    kiln_resources_destroy_texture_view(h->f.res, d->depth_view, NULL);
    kiln_resources_destroy_texture_view(h->f.res, d->ids_view, NULL);
    kiln_resources_destroy_texture(h->f.res, d->depth, NULL);
    kiln_resources_destroy_texture(h->f.res, d->ids, NULL);
}

static kiln_render_target with_data(const renderer_fixture *h, const data_targets *d, bool depth, bool ids) {
    kiln_render_target t = renderer_fixture_target(h);
    if (depth) {
        t.linear_depth = kiln_resources_texture_raw(h->f.res, d->depth, NULL);
        t.linear_depth_view = kiln_resources_texture_view_raw(h->f.res, d->depth_view, NULL);
    }
    if (ids) {
        t.object_ids = kiln_resources_texture_raw(h->f.res, d->ids, NULL);
        t.object_ids_view = kiln_resources_texture_view_raw(h->f.res, d->ids_view, NULL);
    }
    return t;
}

static bool data_read(renderer_fixture *h, data_targets *d, kiln_error *err) {
    return kiln_resources_read_texels(h->f.res, kiln_resources_texture_raw(h->f.res, d->depth, NULL), d->depths,
                                      sizeof d->depths, err) &&
           kiln_resources_read_texels(h->f.res, kiln_resources_texture_raw(h->f.res, d->ids, NULL), d->object_ids,
                                      sizeof d->object_ids, err);
}

/* The texel a world point projects to through the camera. */
static uint32_t texel_of(const kiln_camera *camera, kiln_vec3 p) {
    kiln_camera c = *camera;
    kiln_camera_set_viewport(&c, W, H);
    kiln_vec4 clip = kiln_mat4_mul_vec4(kiln_camera_view_projection(&c), (kiln_vec4){p.x, p.y, p.z, 1});
    int x = (int)((clip.x / clip.w * 0.5f + 0.5f) * W), y = (int)((0.5f - clip.y / clip.w * 0.5f) * H);
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return (uint32_t)y * W + (uint32_t)x;
}

static uint32_t add_material(renderer_fixture *h, const char *name, kiln_alpha_mode mode, float alpha, kiln_error *err) {
    kiln_material m = kiln_material_default(name);
    m.base_color = (kiln_vec4){0.6f, 0.5f, 0.4f, alpha};
    m.alpha_mode = mode;
    m.alpha_cutoff = 0.5f;
    m.double_sided = true;
    return kiln_renderer_add_material(h->r, &m, err);
}

/* The scene every test draws: two opaque cubes 1 m across (ids 7 and 9; their faces towards the
 * camera at z = 0.5 and z = -4.5), a masked plane whose alpha passes the cutoff (id 11, at z = 2,
 * over the upper left), one whose alpha does not (id 12, over the right cube) and a blended plane
 * (id 13) in front of the left cube. */
typedef struct test_scene {
    kiln_render_instance instances[5];
    kiln_light sun;
    kiln_render_scene scene;
} test_scene;

static bool build_scene(renderer_fixture *h, test_scene *s, kiln_error *err) {
    uint32_t cube = renderer_fixture_add_cube(h, "cube", 0.5f, err);
    uint32_t plane = renderer_fixture_add_plane(h, "plane", 0.5f, err);
    uint32_t opaque = add_material(h, "opaque", KILN_ALPHA_OPAQUE, 1.0f, err);
    uint32_t kept = add_material(h, "masked kept", KILN_ALPHA_MASK, 0.8f, err);
    uint32_t cut = add_material(h, "masked cut", KILN_ALPHA_MASK, 0.3f, err);
    uint32_t blended = add_material(h, "blended", KILN_ALPHA_BLEND, 0.5f, err);
    if (cube == KILN_INVALID_INDEX || plane == KILN_INVALID_INDEX || opaque == KILN_INVALID_INDEX ||
        kept == KILN_INVALID_INDEX || cut == KILN_INVALID_INDEX || blended == KILN_INVALID_INDEX)
        return false;
    /* The plane lies in XZ facing +Y; a quarter turn about +X faces it to the camera. */
    kiln_quat facing = kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, 1.5707964f);
    kiln_vec3 one = {1, 1, 1};
    s->instances[0] = (kiln_render_instance){.mesh = cube, .material = opaque, .object_id = 7,
                                             .transform = kiln_mat4_translation((kiln_vec3){-1.5f, 0, 0})};
    s->instances[1] = (kiln_render_instance){.mesh = cube, .material = opaque, .object_id = 9,
                                             .transform = kiln_mat4_translation((kiln_vec3){1.5f, 0, -5})};
    s->instances[2] = (kiln_render_instance){.mesh = plane, .material = kept, .object_id = 11,
                                             .transform = kiln_mat4_trs((kiln_vec3){-2.5f, 1.5f, 2}, facing, one)};
    s->instances[3] = (kiln_render_instance){.mesh = plane, .material = cut, .object_id = 12,
                                             .transform = kiln_mat4_trs((kiln_vec3){1.5f, 0, 2}, facing, one)};
    s->instances[4] = (kiln_render_instance){.mesh = plane, .material = blended, .object_id = 13,
                                             .transform = kiln_mat4_trs((kiln_vec3){-1.5f, 0, 3}, facing, one)};
    s->sun = kiln_light_sun((kiln_vec3){0.3f, -1, -0.5f}, (kiln_vec3){1, 1, 1}, 3.0f);
    s->scene = (kiln_render_scene){
        .camera = kiln_camera_look_at((kiln_vec3){0, 0, 10}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 0.8f, 1.0f, 0.1f),
        .instances = s->instances, .instance_count = 5, .lights = &s->sun, .light_count = 1};
    return true;
}

/* A renderer with `settings` on a target of `format`, the two data outputs and the scene. */
static bool open_all(renderer_fixture *h, data_targets *d, test_scene *s, const kiln_render_settings *settings,
                     WGPUTextureFormat format, kiln_error *err) {
    return renderer_fixture_open(h, settings, format, W, H, err) && data_open(h, d, err) && build_scene(h, s, err);
}

/* Uncaptured Dawn errors plus objects left behind, as renderer_fixture_close counts them. */
static uint64_t close_all(renderer_fixture *h, data_targets *d) {
    data_close(h, d);
    return renderer_fixture_close(h);
}

/* What every frame of the scene must show, from the camera at z = 10 looking down -Z. */
static void check_scene(const data_targets *d, const kiln_camera *camera) {
    struct {
        kiln_vec3 at;
        float depth;
        uint32_t id;
    } expected[] = {
        {{-1.3f, -0.2f, 0.5f}, 9.5f, 7},   /* the left cube, through the blended plane */
        {{1.5f, 0.0f, -4.5f}, 14.5f, 9},   /* the right cube, through the cut masked plane */
        {{-2.5f, 1.7f, 2.0f}, 8.0f, 11},   /* the kept masked plane */
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        uint32_t t = texel_of(camera, expected[i].at);
        CHECK_EQ_INT(d->object_ids[t], expected[i].id);
        CHECK_NEAR(d->depths[t], expected[i].depth, 1e-3);
    }
    uint32_t counts[16] = {0};
    for (uint32_t t = 0; t < W * H; t++) {
        uint32_t id = d->object_ids[t];
        CHECK(id < 16);
        if (id < 16) counts[id]++;
        /* Nothing is a depth without an id, or the reverse. */
        CHECK_EQ_INT(id == 0, d->depths[t] == 0.0f);
    }
    CHECK(counts[0] > W * H / 2); /* the background */
    CHECK(counts[7] > 100 && counts[9] > 50 && counts[11] > 100);
    CHECK_EQ_INT(counts[12], 0); /* cut everywhere */
    CHECK_EQ_INT(counts[13], 0); /* blended */
}

TEST(depth_and_ids_name_the_nearest_opaque_or_masked_surface) {
    renderer_fixture h;
    static data_targets d;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    test_scene s;
    CHECK_MSG(open_all(&h, &d, &s, &settings, WGPUTextureFormat_RGBA8Unorm, &err), "%s", err.message);

    /* Without outputs first: the colour image, and no data pass. */
    kiln_image plain = {0}, with = {0};
    CHECK_MSG(renderer_fixture_render(&h, &s.scene, &plain, &err), "%s", err.message);
    CHECK_EQ_INT(kiln_renderer_stats(h.r)->data_draw_calls, 0);
    CHECK_MSG(kiln_renderer_render(h.r, &s.scene, with_data(&h, &d, true, true), &err), "%s", err.message);
    CHECK(kiln_renderer_stats(h.r)->data_draw_calls >= 2);
    CHECK_MSG(data_read(&h, &d, &err), "%s", err.message);
    CHECK_MSG(kiln_resources_read_texture(h.f.res, kiln_resources_texture_raw(h.f.res, h.target, NULL), &with, &err), "%s",
              err.message);
    check_scene(&d, &s.scene.camera);
    /* The data pass changes nothing of the colour. */
    CHECK(plain.pixels && with.pixels && !memcmp(plain.pixels, with.pixels, kiln_image_byte_size(&plain)));
    kiln_image_free(&plain);
    kiln_image_free(&with);

    /* An object moved away changes its texels' depth on the next frame. */
    s.instances[1].transform = kiln_mat4_translation((kiln_vec3){1.5f, 0, -7});
    CHECK_MSG(kiln_renderer_render(h.r, &s.scene, with_data(&h, &d, true, true), &err), "%s", err.message);
    CHECK_MSG(data_read(&h, &d, &err), "%s", err.message);
    uint32_t t = texel_of(&s.scene.camera, (kiln_vec3){1.5f, 0, -6.5f});
    CHECK_EQ_INT(d.object_ids[t], 9);
    CHECK_NEAR(d.depths[t], 16.5f, 1e-3);

    CHECK_EQ_INT(close_all(&h, &d), 0);
}

/* MSAA, FXAA and AO change the colour; the data outputs are drawn without them, so they hold the
 * same texels. One output alone draws too. */
TEST(the_outputs_are_exact_with_msaa_and_fxaa_and_one_may_come_alone) {
    renderer_fixture h;
    static data_targets d;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    settings.msaa = 4;
    settings.fxaa = true;
    test_scene s;
    CHECK_MSG(open_all(&h, &d, &s, &settings, WGPUTextureFormat_RGBA8UnormSrgb, &err), "%s", err.message);
    CHECK_MSG(kiln_renderer_render(h.r, &s.scene, with_data(&h, &d, true, true), &err), "%s", err.message);
    CHECK_MSG(data_read(&h, &d, &err), "%s", err.message);
    check_scene(&d, &s.scene.camera);

    /* Only the ids: cleared and drawn again, the depth texture left as it was. */
    static uint32_t ids_before[W * H];
    memcpy(ids_before, d.object_ids, sizeof ids_before);
    s.instances[0].object_id = 70;
    CHECK_MSG(kiln_renderer_render(h.r, &s.scene, with_data(&h, &d, false, true), &err), "%s", err.message);
    CHECK_MSG(data_read(&h, &d, &err), "%s", err.message);
    uint32_t changed = 0;
    for (uint32_t t = 0; t < W * H; t++) {
        if (ids_before[t] == 7) {
            CHECK_EQ_INT(d.object_ids[t], 70);
            changed++;
        } else {
            CHECK_EQ_INT(d.object_ids[t], ids_before[t]);
        }
    }
    CHECK(changed > 100);
    CHECK_EQ_INT(close_all(&h, &d), 0);
}

/* Through an orthographic camera the depth is the distance along the view axis too. */
TEST(an_orthographic_camera_writes_depth_along_its_axis) {
    renderer_fixture h;
    static data_targets d;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    test_scene s;
    CHECK_MSG(open_all(&h, &d, &s, &settings, WGPUTextureFormat_RGBA8Unorm, &err), "%s", err.message);
    s.scene.camera = kiln_camera_orthographic_look_at((kiln_vec3){0, 0, 10}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0},
                                                      3.0f, 1.0f, 0.1f, 50.0f);
    CHECK_MSG(kiln_renderer_render(h.r, &s.scene, with_data(&h, &d, true, true), &err), "%s", err.message);
    CHECK_MSG(data_read(&h, &d, &err), "%s", err.message);
    check_scene(&d, &s.scene.camera);
    CHECK_EQ_INT(close_all(&h, &d), 0);
}

/* Each way an output can be unusable, refused before anything records, naming the output. */
TEST(a_bad_data_output_is_refused_naming_it) {
    renderer_fixture h;
    static data_targets d;
    kiln_error err = {0};
    kiln_render_settings settings = renderer_fixture_quick_settings();
    test_scene s;
    CHECK_MSG(open_all(&h, &d, &s, &settings, WGPUTextureFormat_RGBA8Unorm, &err), "%s", err.message);
    kiln_texture small = kiln_resources_create_texture(h.f.res, &(kiln_texture_desc){.width = W / 2, .height = H,
        .format = WGPUTextureFormat_R32Uint, .usage = WGPUTextureUsage_RenderAttachment}, &err);
    kiln_texture sampled = kiln_resources_create_texture(h.f.res, &(kiln_texture_desc){.width = W, .height = H,
        .format = WGPUTextureFormat_R32Float, .usage = WGPUTextureUsage_TextureBinding}, &err);
    kiln_texture_view small_view = kiln_resources_create_texture_view(h.f.res, small, NULL, &err);
    kiln_texture_view sampled_view = kiln_resources_create_texture_view(h.f.res, sampled, NULL, &err);
    CHECK_MSG(small_view.id && sampled_view.id, "%s", err.message);
    kiln_render_target good = with_data(&h, &d, true, true);
    kiln_render_target rows[4] = {good, good, good, good};
    rows[0].linear_depth_view = NULL;
    rows[1].object_ids = good.linear_depth, rows[1].object_ids_view = good.linear_depth_view;
    rows[2].object_ids = kiln_resources_texture_raw(h.f.res, small, NULL);
    rows[2].object_ids_view = kiln_resources_texture_view_raw(h.f.res, small_view, NULL);
    rows[3].linear_depth = kiln_resources_texture_raw(h.f.res, sampled, NULL);
    rows[3].linear_depth_view = kiln_resources_texture_view_raw(h.f.res, sampled_view, NULL);
    const char *messages[4] = {
        "renderer: the target's linear_depth has a texture but no view",
        "renderer: the target's object_ids has format 0xc, not R32Uint",
        "renderer: the target's object_ids is 80x96 (1 layers, 1 samples), not the target's 160x96 (1 layer, 1 sample)",
        "renderer: the target's linear_depth is not a render attachment",
    };
    for (int i = 0; i < 4; i++) {
        kiln_error why = {0};
        CHECK(!kiln_renderer_render(h.r, &s.scene, rows[i], &why));
        CHECK_MSG(!strcmp(why.message, messages[i]), "row %d: %s", i, why.message);
    }
    /* Refused frames leave the renderer as it was: the next good one renders the scene. */
    CHECK_MSG(kiln_renderer_render(h.r, &s.scene, good, &err), "%s", err.message);
    CHECK_MSG(data_read(&h, &d, &err), "%s", err.message);
    check_scene(&d, &s.scene.camera);
    kiln_resources_destroy_texture_view(h.f.res, small_view, NULL);
    kiln_resources_destroy_texture_view(h.f.res, sampled_view, NULL);
    kiln_resources_destroy_texture(h.f.res, small, NULL);
    kiln_resources_destroy_texture(h.f.res, sampled, NULL);
    CHECK_EQ_INT(close_all(&h, &d), 0);
}

TEST_MAIN(T(depth_and_ids_name_the_nearest_opaque_or_masked_surface),
          T(the_outputs_are_exact_with_msaa_and_fxaa_and_one_may_come_alone),
          T(an_orthographic_camera_writes_depth_along_its_axis), T(a_bad_data_output_is_refused_naming_it))
