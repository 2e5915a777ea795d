/* Device loss survived (#12, Deliver 3): a renderer whose device was lost is recreated on a new
 * device from its CPU state, keeps every mesh and material index (removed materials stay holes)
 * and draws the frame it drew before; recreate refuses a shared texture registry the caller has
 * not moved, changing nothing. */
#include <kiln/render.h>
#include "demo_scene.h"

#include "renderer_fixture.h"

#define W 96
#define H 64

/* The demo scene with one more instance in front: a plane wearing a registry texture, so the
 * moved texture registry is drawn too. */
typedef struct lossy_scene {
    demo_scene demo;
    kiln_render_instance *instances;
    kiln_render_scene scene;
    uint32_t hole;            /* a removed material index */
} lossy_scene;

static bool build_scene(renderer_fixture *h, lossy_scene *s, kiln_error *err) {
    *s = (lossy_scene){0};
    if (!demo_scene_build(h->r, (float)W / H, &s->demo, err)) return false;
    static const uint8_t texels[16] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    uint32_t checker = kiln_texture_registry_add(kiln_renderer_texture_registry(h->r), &(kiln_texture_create_desc){
        .format = KILN_FORMAT_RGBA8_SRGB, .width = 2, .height = 2, .pixels = texels, .pixels_size = sizeof texels,
        .mips = true}, err);
    kiln_material gone = kiln_material_default("gone"), textured = kiln_material_default("checker");
    textured.textures[KILN_TEX_BASE_COLOR] = checker;
    s->hole = kiln_renderer_add_material(h->r, &gone, err);
    uint32_t material = kiln_renderer_add_material(h->r, &textured, err);
    uint32_t plane = renderer_fixture_add_plane(h, "textured plane", 0.6f, err);
    if (!checker || s->hole == KILN_INVALID_INDEX || material == KILN_INVALID_INDEX || plane == KILN_INVALID_INDEX ||
        !kiln_renderer_remove_material(h->r, s->hole, err))
        return false;
    uint32_t n = s->demo.scene.instance_count;
    s->instances = calloc(n + 1, sizeof *s->instances);
    if (!s->instances) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "out of memory");
    memcpy(s->instances, s->demo.scene.instances, n * sizeof *s->instances);
    /* Upright, facing the demo's camera, in front of the spheres. */
    kiln_mat4 stand = kiln_mat4_mul(kiln_mat4_translation((kiln_vec3){0.0f, 1.0f, 2.0f}),
                                    kiln_mat4_from_quat(kiln_quat_from_axis_angle((kiln_vec3){1, 0, 0}, 1.5707963f)));
    s->instances[n] = (kiln_render_instance){.mesh = plane, .material = material, .transform = stand,
                                             .joint_offset = -1};
    s->scene = s->demo.scene;
    s->scene.instances = s->instances;
    s->scene.instance_count = n + 1;
    return true;
}

static void free_scene(lossy_scene *s) {
    free(s->instances);
    demo_scene_free(&s->demo);
}

TEST(a_renderer_recreated_after_device_loss_draws_the_frame_it_drew_before) {
    renderer_fixture lost, fresh;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&lost, NULL, WGPUTextureFormat_RGBA8UnormSrgb, W, H, &err), "%s", err.message);
    CHECK_MSG(renderer_fixture_open(&fresh, NULL, WGPUTextureFormat_RGBA8UnormSrgb, W, H, &err), "%s", err.message);
    lossy_scene s;
    CHECK_MSG(build_scene(&lost, &s, &err), "%s", err.message);
    uint32_t meshes = kiln_renderer_mesh_count(lost.r), materials = kiln_renderer_material_count(lost.r);
    kiln_image before = {0}, after = {0};
    CHECK_MSG(renderer_fixture_render(&lost, &s.scene, &before, &err), "%s", err.message);

    wgpuDeviceForceLoss(lost.f.gfx->device, WGPUDeviceLostReason_Unknown, (WGPUStringView){"test loss", WGPU_STRLEN});
    kiln_gfx_pump(lost.f.gfx, true);
    kiln_error lost_err = {0};
    bool rendered_lost = renderer_fixture_render(&lost, &s.scene, NULL, &lost_err);

    /* The application makes a new device, recreates, and keeps its scene and indices. */
    kiln_renderer_destroy(fresh.r);
    fresh.r = kiln_renderer_recreate(lost.r, fresh.f.gfx, fresh.f.res, &err);
    lost.r = NULL; /* destroyed by recreate */
    CHECK_MSG(fresh.r, "%s", err.message);
    bool rendered = renderer_fixture_render(&fresh, &s.scene, &after, &err);
    bool second = rendered && renderer_fixture_render(&fresh, &s.scene, NULL, &err);
    double ssim = 0.0, differing = 1.0;
    bool compared = rendered && kiln_image_ssim(&before, &after, &ssim, &err) &&
                    kiln_image_diff_fraction(&before, &after, 8, &differing, &err);
    uint32_t meshes_after = kiln_renderer_mesh_count(fresh.r), materials_after = kiln_renderer_material_count(fresh.r);
    bool hole_kept = !kiln_renderer_material_is_live(fresh.r, s.hole);
    uint32_t bakes = kiln_renderer_stats(fresh.r)->environment_bakes;
    free_scene(&s);
    kiln_image_free(&before);
    kiln_image_free(&after);
    uint64_t fresh_left = renderer_fixture_close(&fresh);
    /* The lost device's resources: the old renderer released all of it through them. */
    if (lost.view.id) kiln_resources_destroy_texture_view(lost.f.res, lost.view, NULL);
    if (lost.target.id) kiln_resources_destroy_texture(lost.f.res, lost.target, NULL);
    lost.view = (kiln_texture_view){0};
    lost.target = (kiln_texture){0};
    kiln_live_counts left = kiln_resources_live_counts(lost.f.res);
    fixture_close(&lost.f);
    CHECK(!rendered_lost);
    CHECK_EQ_INT(lost_err.code, KILN_ERR_DEVICE_LOST);
    CHECK_STR_CONTAINS(lost_err.message, "renderer: device lost; recreate the renderer");
    CHECK_MSG(rendered && second, "%s", err.message);
    CHECK_MSG(compared, "%s", err.message);
    CHECK_MSG(ssim >= 0.985 && differing <= 0.005, "after recreate: SSIM %.5f, %.3f%% of pixels differ", ssim,
              differing * 100.0);
    CHECK_EQ_INT(meshes_after, meshes);
    CHECK_EQ_INT(materials_after, materials);
    CHECK(hole_kept);
    CHECK_EQ_INT(bakes, 0); /* baked at the first frame after recreate, not again */
    CHECK_EQ_INT(fresh_left, 0);
    CHECK_EQ_INT(kiln_live_counts_total(&left), 0);
}

/* A registry shared with kiln_renderer_set_texture_registry is the caller's: recreate refuses
 * until the caller has moved it, and the refusal leaves the old renderer drawing. */
TEST(recreate_refuses_a_shared_texture_registry_still_on_the_old_resources) {
    renderer_fixture old, next;
    kiln_error err = {0};
    CHECK_MSG(renderer_fixture_open(&old, NULL, WGPUTextureFormat_RGBA8UnormSrgb, W, H, &err), "%s", err.message);
    CHECK_MSG(renderer_fixture_open(&next, NULL, WGPUTextureFormat_RGBA8UnormSrgb, W, H, &err), "%s", err.message);
    kiln_texture_registry *shared = kiln_texture_registry_create(old.f.res, &err);
    CHECK(shared && kiln_renderer_set_texture_registry(old.r, shared, &err));
    kiln_renderer_destroy(next.r);
    next.r = NULL;
    kiln_error refusal = {0};
    kiln_renderer *refused = kiln_renderer_recreate(old.r, next.f.gfx, next.f.res, &refusal);
    kiln_render_scene empty = {.camera = kiln_camera_look_at((kiln_vec3){0, 1, 3}, (kiln_vec3){0, 0, 0},
                                                             (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    bool old_draws = renderer_fixture_render(&old, &empty, NULL, &err);
    kiln_texture_registry_move_to(shared, next.f.res);
    next.r = kiln_renderer_recreate(old.r, next.f.gfx, next.f.res, &err);
    old.r = NULL;
    bool moved_draws = next.r && renderer_fixture_render(&next, &empty, NULL, &err);
    uint64_t old_left = renderer_fixture_close(&old);
    kiln_renderer_destroy(next.r); /* before the shared registry it binds */
    next.r = NULL;
    kiln_texture_registry_destroy(shared);
    uint64_t next_left = renderer_fixture_close(&next);
    CHECK(!refused);
    CHECK_STR_CONTAINS(refusal.message, "renderer: recreate: the texture registry set with kiln_renderer_set_texture_registry "
                                        "still lives in the old resources; move it first (kiln_texture_registry_move_to)");
    CHECK_MSG(old_draws, "%s", err.message);
    CHECK_MSG(moved_draws, "%s", err.message);
    CHECK_EQ_INT(old_left, 0);
    CHECK_EQ_INT(next_left, 0);
}

TEST_MAIN(T(a_renderer_recreated_after_device_loss_draws_the_frame_it_drew_before),
          T(recreate_refuses_a_shared_texture_registry_still_on_the_old_resources))
