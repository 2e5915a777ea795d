/* The renderer end to end: a validation-clean frame of the demo scene, bit-identical when
 * rendered again, culling and stats, the material and mesh registry rules, debug views, bad
 * scenes. */
#include <math.h>

#include <kiln/render.h>
#include "demo_scene.h"

#include "renderer_fixture.h"

#define W 160
#define H 90

/* A renderer with an sRGB target of W x H. */
static bool harness_open(renderer_fixture *h, const kiln_render_settings *settings, kiln_error *err) {
    return renderer_fixture_open(h, settings, WGPUTextureFormat_RGBA8UnormSrgb, W, H, err);
}

static const uint8_t *px(const kiln_image *img, uint32_t x, uint32_t y) {
    return (const uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4;
}

TEST(the_demo_frame_is_clean_and_deterministic) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    demo_scene demo;
    CHECK_MSG(demo_scene_build(h.r, (float)W / H, &demo, &err), "%s", err.message);
    kiln_image first, second;
    CHECK_MSG(renderer_fixture_render(&h, &demo.scene, &first, &err), "%s", err.message);
    CHECK_MSG(renderer_fixture_render(&h, &demo.scene, &second, &err), "%s", err.message);
    bool identical = memcmp(first.pixels, second.pixels, (size_t)W * H * 4) == 0;
    /* Not a blank image: the sky at the top, lit geometry in the middle differ clearly. */
    const uint8_t *sky = px(&first, W / 2, 2), *middle = px(&first, W / 2, H / 2);
    int contrast = abs(sky[0] - middle[0]) + abs(sky[1] - middle[1]) + abs(sky[2] - middle[2]);
    const kiln_frame_stats *s = kiln_renderer_stats(h.r);
    kiln_frame_stats stats = *s;
    kiln_image_free(&first);
    kiln_image_free(&second);
    demo_scene_free(&demo);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK(identical);
    CHECK(contrast > 30);
    CHECK_EQ_INT(stats.instances_submitted, 19);
    CHECK_EQ_INT(stats.lights, 10);
    CHECK_EQ_INT(stats.passes, 24); /* four cascade passes, the atlas pass, the camera's six, AO's two, bloom's 11 */
    CHECK_EQ_INT(stats.transient_textures, 7); /* depth, hdr, the cascade maps, the atlas, ao raw, ao, the bloom chain */
    CHECK_EQ_INT(stats.shadow_views, 4 + 7); /* the cascades; a spot's view and a point light's six */
    CHECK_EQ_INT(stats.shadowed_lights, 2);
    CHECK(stats.shadow_draw_calls > 0);
    CHECK(stats.draw_calls > 0 && stats.draw_calls <= stats.instances_drawn);
}

static kiln_render_instance at(uint32_t mesh, uint32_t material, kiln_vec3 p) {
    return (kiln_render_instance){.mesh = mesh, .material = material, .transform = kiln_mat4_translation(p)};
}

TEST(instances_outside_the_frustum_are_culled_and_batches_merge) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_cube(&md, 0.5f, &err));
    uint32_t cube = kiln_renderer_add_mesh(h.r, "cube", &md, false, &err);
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("grey");
    uint32_t grey = kiln_renderer_add_material(h.r, &m, &err);
    kiln_render_instance inst[6] = {
        at(cube, grey, (kiln_vec3){0, 0, -5}), at(cube, grey, (kiln_vec3){1, 0, -6}), at(cube, grey, (kiln_vec3){-1, 0, -7}),
        at(cube, grey, (kiln_vec3){0, 0, 5}),     /* behind the camera */
        at(cube, grey, (kiln_vec3){50, 0, -5}),   /* far to the right */
        at(cube, grey, (kiln_vec3){0, 0, -500}),  /* far ahead: the far plane is at infinity */
    };
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
                               .instances = inst, .instance_count = 6};
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    kiln_frame_stats culled = *kiln_renderer_stats(h.r);
    kiln_renderer_settings(h.r)->disable_culling = true;
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    kiln_frame_stats unculled = *kiln_renderer_stats(h.r);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_EQ_INT(culled.instances_submitted, 6);
    CHECK_EQ_INT(culled.instances_drawn, 4);
    CHECK_EQ_INT(culled.draw_calls, 1); /* one mesh, one material: one batch */
    CHECK_EQ_INT(unculled.instances_drawn, 6);
}

TEST(the_material_registry_keeps_indices_stable) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_material m = kiln_material_default("a");
    uint32_t a = kiln_renderer_add_material(h.r, &m, &err);
    uint32_t b = kiln_renderer_add_material(h.r, &m, &err);
    CHECK_EQ_INT(a, 0);
    CHECK_EQ_INT(b, 1);
    CHECK(kiln_renderer_remove_material(h.r, a, &err));
    CHECK(!kiln_renderer_material_is_live(h.r, a));
    CHECK(kiln_renderer_remove_material(h.r, a, &err)); /* removing a hole does nothing */
    uint32_t c = kiln_renderer_add_material(h.r, &m, &err);
    CHECK_EQ_INT(c, 2); /* the hole is never reused by add */
    CHECK(kiln_renderer_replace_material(h.r, a, &m, &err)); /* replace revives it */
    CHECK(kiln_renderer_material_is_live(h.r, a));
    /* A failed upload leaves the slot as it was: a texture id the registry does not know. */
    kiln_material broken = m;
    broken.textures[KILN_TEX_BASE_COLOR] = 999;
    CHECK(!kiln_renderer_replace_material(h.r, b, &broken, &err));
    CHECK_STR_CONTAINS(err.message, "material 'a': base colour slot names unknown texture id 999");
    CHECK(kiln_renderer_material_is_live(h.r, b));
    CHECK(!kiln_renderer_replace_material(h.r, 7, &m, &err));
    CHECK_STR_CONTAINS(err.message, "index 7 out of range");
    CHECK(!kiln_renderer_remove_material(h.r, 9, &err));

    /* Rendering an instance that uses a removed material fails naming both. */
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_cube(&md, 0.5f, &err));
    uint32_t cube = kiln_renderer_add_mesh(h.r, "cube", &md, false, &err);
    kiln_mesh_data_free(&md);
    CHECK(kiln_renderer_remove_material(h.r, c, &err));
    kiln_render_instance inst[2] = {at(cube, b, (kiln_vec3){0, 0, -4}), at(cube, c, (kiln_vec3){0, 0, -4})};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
                               .instances = inst, .instance_count = 2};
    bool rendered = renderer_fixture_render(&h, &scene, NULL, &err);
    char message[512];
    snprintf(message, sizeof message, "%s", err.message);
    inst[1].mesh = 42;
    bool rendered_bad_mesh = renderer_fixture_render(&h, &scene, NULL, &err);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK(!rendered);
    CHECK_STR_CONTAINS(message, "instance 1 uses removed material 2");
    CHECK(!rendered_bad_mesh);
    CHECK_STR_CONTAINS(err.message, "instance 1 uses unknown mesh 42");
}

TEST(the_mesh_registry_uploads_at_record_and_reuses_a_removed_index) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_geometry_registry *geometry = kiln_renderer_geometry_registry(h.r);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_cube(&md, 0.5f, &err));
    uint32_t a = kiln_renderer_add_mesh(h.r, "a", &md, false, &err), b = kiln_renderer_add_mesh(h.r, "b", &md, false, &err);
    kiln_geometry_registry_stats added = kiln_geometry_registry_get_stats(geometry);
    kiln_material m = kiln_material_default("grey");
    uint32_t grey = kiln_renderer_add_material(h.r, &m, &err);
    kiln_render_instance inst[2] = {at(a, grey, (kiln_vec3){0, 0, -4}), at(b, grey, (kiln_vec3){1, 0, -4})};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
                               .instances = inst, .instance_count = 2};
    bool rendered = renderer_fixture_render(&h, &scene, NULL, &err);
    kiln_geometry_registry_stats recorded = kiln_geometry_registry_get_stats(geometry);
    bool removed = kiln_renderer_remove_mesh(h.r, a, &err) && kiln_renderer_remove_mesh(h.r, a, &err);
    bool rendered_removed = renderer_fixture_render(&h, &scene, NULL, &err);
    char removed_message[512];
    snprintf(removed_message, sizeof removed_message, "%s", err.message);
    bool out_of_range = kiln_renderer_remove_mesh(h.r, 5, &err);
    char range_message[512];
    snprintf(range_message, sizeof range_message, "%s", err.message);
    uint32_t reused = kiln_renderer_add_mesh(h.r, "c", &md, false, &err);
    kiln_mesh_data_free(&md);
    bool rendered_reused = renderer_fixture_render(&h, &scene, NULL, &err);
    uint32_t count = kiln_renderer_mesh_count(h.r);
    const kiln_geometry_info *info = kiln_geometry_registry_info(geometry, reused + 1);
    bool named = info && strcmp(info->label, "c") == 0;
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_EQ_INT(a, 0);
    CHECK_EQ_INT(b, 1);
    CHECK_EQ_INT(added.gpu_meshes, 0); /* add copies; the upload waits for the record */
    CHECK_MSG(rendered, "%s", err.message);
    CHECK_EQ_INT(recorded.gpu_meshes, 2);
    CHECK(removed);
    CHECK(!rendered_removed);
    CHECK_STR_CONTAINS(removed_message, "renderer: instance 0 uses removed mesh 0");
    CHECK(!out_of_range);
    CHECK_STR_CONTAINS(range_message, "renderer: remove_mesh: index 5 out of range (2 meshes)");
    CHECK_EQ_INT(reused, 0);
    CHECK_MSG(rendered_reused, "%s", err.message);
    CHECK_EQ_INT(count, 2);
    CHECK(named);
}

/* Replace keeps the index: the instance draws the new mesh, a refused replace leaves the old one
 * drawing, and neither a removed nor an unknown index can be replaced. */
TEST(replace_mesh_swaps_the_mesh_under_its_index_or_changes_nothing) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_mesh_data small = {0}, large = {0}, ragged = {0};
    CHECK(kiln_mesh_cube(&small, 0.1f, &err) && kiln_mesh_cube(&large, 1.0f, &err));
    CHECK(kiln_mesh_data_init(&ragged, 3, 4, 0, &err));
    uint32_t cube = kiln_renderer_add_mesh(h.r, "cube", &small, false, &err);
    uint32_t spare = kiln_renderer_add_mesh(h.r, "spare", &small, false, &err);
    kiln_material m = kiln_material_default("grey");
    uint32_t grey = kiln_renderer_add_material(h.r, &m, &err);
    kiln_render_instance inst = at(cube, grey, (kiln_vec3){0, 0, -4});
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1};
    /* (W/2 + 25, H/2) lies inside the large cube's image and outside the small one's. */
    uint8_t before[4], after[4], kept[4];
    kiln_image img;
    bool rendered = renderer_fixture_render(&h, &scene, &img, &err);
    if (rendered) memcpy(before, px(&img, W / 2 + 25, H / 2), 4), kiln_image_free(&img);
    bool replaced = kiln_renderer_replace_mesh(h.r, cube, &large, false, &err);
    rendered = rendered && renderer_fixture_render(&h, &scene, &img, &err);
    if (rendered) memcpy(after, px(&img, W / 2 + 25, H / 2), 4), kiln_image_free(&img);
    bool refused = !kiln_renderer_replace_mesh(h.r, cube, &ragged, false, &err);
    char refused_message[512];
    snprintf(refused_message, sizeof refused_message, "%s", err.message);
    rendered = rendered && renderer_fixture_render(&h, &scene, &img, &err);
    if (rendered) memcpy(kept, px(&img, W / 2 + 25, H / 2), 4), kiln_image_free(&img);
    bool removed = kiln_renderer_remove_mesh(h.r, spare, &err);
    bool replaced_removed = kiln_renderer_replace_mesh(h.r, spare, &large, false, &err);
    char removed_message[512];
    snprintf(removed_message, sizeof removed_message, "%s", err.message);
    bool replaced_unknown = kiln_renderer_replace_mesh(h.r, 7, &large, false, &err);
    char unknown_message[512];
    snprintf(unknown_message, sizeof unknown_message, "%s", err.message);
    const kiln_geometry_info *info = kiln_geometry_registry_info(kiln_renderer_geometry_registry(h.r), cube + 1);
    uint32_t vertices = info ? info->vertex_count : 0;
    /* `lods` is chosen again at each replace. */
    kiln_mesh_data sphere = {0};
    CHECK(kiln_mesh_uv_sphere(&sphere, 1.0f, 32, 64, &err));
    bool with_lods = kiln_renderer_replace_mesh(h.r, cube, &sphere, true, &err);
    uint32_t levels_with = kiln_renderer_mesh_lod_count(h.r, cube);
    bool without_lods = kiln_renderer_replace_mesh(h.r, cube, &sphere, false, &err);
    uint32_t levels_without = kiln_renderer_mesh_lod_count(h.r, cube);
    kiln_mesh_data_free(&sphere);
    kiln_mesh_data_free(&small);
    kiln_mesh_data_free(&large);
    kiln_mesh_data_free(&ragged);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_MSG(rendered, "%s", err.message);
    CHECK(replaced);
    CHECK(abs(before[0] - after[0]) + abs(before[1] - after[1]) + abs(before[2] - after[2]) > 30);
    CHECK(refused);
    CHECK_STR_CONTAINS(refused_message, "renderer: replace_mesh: mesh 0 'cube': mesh: 4 indices is not a multiple of 3");
    CHECK(memcmp(after, kept, 4) == 0);
    CHECK_EQ_INT(vertices, 24);
    CHECK(removed && !replaced_removed);
    CHECK_STR_CONTAINS(removed_message, "renderer: replace_mesh: mesh 1 was removed (add_mesh takes its index again)");
    CHECK(!replaced_unknown);
    CHECK_STR_CONTAINS(unknown_message, "renderer: replace_mesh: index 7 out of range (2 meshes)");
    CHECK(with_lods && without_lods);
    CHECK_EQ_INT(levels_with, 4);
    CHECK_EQ_INT(levels_without, 1);
}

TEST(a_refused_mesh_takes_no_index_and_names_its_label) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_data_init(&md, 3, 4, 0, &err));
    uint32_t index = kiln_renderer_add_mesh(h.r, "ragged", &md, false, &err);
    kiln_mesh_data_free(&md);
    uint32_t count = kiln_renderer_mesh_count(h.r);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_EQ_INT(index, KILN_INVALID_INDEX);
    CHECK_STR_CONTAINS(err.message, "geometry 'ragged': mesh: 4 indices is not a multiple of 3 (triangle list)");
    CHECK_EQ_INT(count, 0);
}

/* The spec raises for a removed material only where it would be drawn: the same instance behind
 * the camera is culled, so the frame renders the other one. */
TEST(a_culled_instance_may_keep_a_removed_material) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_material m = kiln_material_default("kept");
    uint32_t kept = kiln_renderer_add_material(h.r, &m, &err);
    uint32_t removed = kiln_renderer_add_material(h.r, &m, &err);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_cube(&md, 0.5f, &err));
    uint32_t cube = kiln_renderer_add_mesh(h.r, "cube", &md, false, &err);
    kiln_mesh_data_free(&md);
    CHECK(kiln_renderer_remove_material(h.r, removed, &err));
    kiln_render_instance inst[2] = {at(cube, kept, (kiln_vec3){0, 0, -4}), at(cube, removed, (kiln_vec3){0, 0, 4})};
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f),
                               .instances = inst, .instance_count = 2};
    bool rendered = renderer_fixture_render(&h, &scene, NULL, &err);
    uint32_t drawn = kiln_renderer_stats(h.r)->instances_drawn;
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_MSG(rendered, "%s", err.message);
    CHECK_EQ_INT(drawn, 1);
}

TEST(the_normals_debug_view_bypasses_the_tone_curve) {
    kiln_render_settings s = {.debug = KILN_DEBUG_NORMALS};
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, &s, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK(kiln_mesh_plane(&md, 50.0f, 1, &err));
    uint32_t plane = kiln_renderer_add_mesh(h.r, "plane", &md, false, &err);
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("plane");
    uint32_t mat = kiln_renderer_add_material(h.r, &m, &err);
    kiln_render_instance inst = at(plane, mat, (kiln_vec3){0, 0, 0});
    /* Looking straight down at a +Y plane: every pixel's normal is (0, 1, 0). */
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 5, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1};
    kiln_image img;
    CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
    const uint8_t *c = px(&img, W / 2, H / 2);
    uint8_t r = c[0], g = c[1], b = c[2];
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    /* (0.5, 1, 0.5) linear, sRGB-encoded by the target: 188, 255, 188. */
    CHECK(abs(r - 188) <= 1 && g == 255 && abs(b - 188) <= 1);
}

/* The clusters view of a plane under `lights` point lights at the camera, each reaching every
 * cluster: the centre pixel. */
static bool clusters_view_centre(uint32_t lights, uint8_t out[3], kiln_error *err) {
    kiln_render_settings s = {.debug = KILN_DEBUG_CLUSTERS};
    renderer_fixture h;
    bool ok = harness_open(&h, &s, err);
    kiln_mesh_data md = {0};
    ok = ok && kiln_mesh_plane(&md, 50.0f, 1, err);
    uint32_t plane = ok ? kiln_renderer_add_mesh(h.r, "plane", &md, false, err) : KILN_INVALID_INDEX;
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("plane");
    uint32_t mat = ok ? kiln_renderer_add_material(h.r, &m, err) : KILN_INVALID_INDEX;
    kiln_render_instance inst = at(plane, mat, (kiln_vec3){0, 0, 0});
    kiln_light all[40];
    for (uint32_t i = 0; i < lights; i++) all[i] = kiln_light_point((kiln_vec3){0, 5, 0}, (kiln_vec3){1, 1, 1}, 1.0f, 500.0f);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 5, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1, .lights = all, .light_count = lights};
    kiln_image img = {0};
    ok = ok && plane != KILN_INVALID_INDEX && mat != KILN_INVALID_INDEX && renderer_fixture_render(&h, &scene, &img, err);
    if (ok) memcpy(out, px(&img, W / 2, H / 2), 3);
    kiln_image_free(&img);
    return renderer_fixture_close(&h) == 0 && ok;
}

TEST(the_clusters_view_scales_to_32_and_marks_more_in_magenta) {
    kiln_error err = {0};
    uint8_t half[3] = {0}, over[3] = {0}; /* 16 and 40 lights in every cluster */
    CHECK_MSG(clusters_view_centre(16, half, &err), "%s", err.message);
    CHECK_MSG(clusters_view_centre(40, over, &err), "%s", err.message);
    /* Half the scale: (0.5, 1, 0.5) linear, sRGB-encoded by the target: 188, 255, 188. */
    CHECK_MSG(abs(half[0] - 188) <= 1 && half[1] == 255 && abs(half[2] - 188) <= 1, "%u %u %u", half[0], half[1], half[2]);
    /* More than 32: magenta. */
    CHECK_MSG(over[0] == 255 && over[1] == 0 && over[2] == 255, "%u %u %u", over[0], over[1], over[2]);
}

TEST(the_cluster_list_grows_to_the_frames_bound_and_rebinds_the_shading_groups) {
    /* A plane under point lights at the camera that reach every cluster; the first casts
     * shadows, so the forward pass binds a cached shading group with the shadow atlas. */
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_mesh_data md = {0};
    CHECK_MSG(kiln_mesh_plane(&md, 50.0f, 1, &err), "%s", err.message);
    uint32_t plane = kiln_renderer_add_mesh(h.r, "plane", &md, false, &err);
    kiln_mesh_data_free(&md);
    kiln_material m = kiln_material_default("plane");
    uint32_t mat = kiln_renderer_add_material(h.r, &m, &err);
    CHECK(plane != KILN_INVALID_INDEX && mat != KILN_INVALID_INDEX);
    kiln_render_instance inst = at(plane, mat, (kiln_vec3){0, 0, 0});
    kiln_light all[40];
    for (uint32_t i = 0; i < 40; i++) all[i] = kiln_light_point((kiln_vec3){0, 5, 0}, (kiln_vec3){1, 1, 1}, 1.0f, 500.0f);
    all[0].cast_shadows = true;
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 5, 0}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, 1.0f, 1.0f, 0.1f),
                               .instances = &inst, .instance_count = 1, .lights = all, .light_count = 16};
    kiln_image img = {0};
    CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
    kiln_frame_stats fits = *kiln_renderer_stats(h.r);
    kiln_image_free(&img);
    scene.light_count = 40;
    CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
    kiln_frame_stats grown = *kiln_renderer_stats(h.r);
    kiln_image_free(&img);
    CHECK_MSG(renderer_fixture_render(&h, &scene, &img, &err), "%s", err.message);
    kiln_frame_stats steady = *kiln_renderer_stats(h.r);
    kiln_image_free(&img);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0); /* no frame bound the replaced list */
    /* Each light reaches all 16 x 9 x 24 clusters, and the bound is exact for such a light. */
    CHECK_EQ_INT(fits.cluster_light_bound, 16 * 3456);
    CHECK_EQ_INT(fits.cluster_list_capacity, 32 * 3456);
    CHECK_EQ_INT(fits.shadowed_lights, 1);
    CHECK_EQ_INT(grown.cluster_light_bound, 40 * 3456);
    CHECK_EQ_INT(grown.cluster_list_capacity, 64 * 3456); /* doubled once */
    CHECK_EQ_INT(steady.cluster_list_capacity, 64 * 3456);
    /* The GPU's counts come back without waiting: the first frame's had not when the second
     * began; by the third the second's (each frame here is waited for and read back). */
    printf("cluster counts: frame %llu, %u references, %u dropped\n", (unsigned long long)steady.cluster_counts_frame,
           steady.cluster_light_references, steady.cluster_dropped_references);
    CHECK_EQ_INT(fits.cluster_counts_frame, 0);
    CHECK_EQ_INT(steady.cluster_counts_frame, 2);
    CHECK_EQ_INT(steady.cluster_light_references, 40 * 3456);
    CHECK_EQ_INT(steady.cluster_dropped_references, 0);
}

TEST(a_target_without_texture_or_view_or_of_another_format_is_refused) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    kiln_render_target good = renderer_fixture_target(&h);
    kiln_texture other = kiln_resources_create_texture(h.f.res, &(kiln_texture_desc){.width = W, .height = H,
        .format = WGPUTextureFormat_RGBA16Float, .usage = WGPUTextureUsage_RenderAttachment}, &err);
    kiln_texture_view other_view = kiln_resources_create_texture_view(h.f.res, other, NULL, &err);
    struct {
        const char *id;
        kiln_render_target target;
        const char *message;
    } rows[] = {
        {"target-1", {.view = good.view}, "renderer: the target has no texture"},
        {"target-2", {.texture = good.texture}, "renderer: the target has no view"},
        {"target-3", {.texture = kiln_resources_texture_raw(h.f.res, other, NULL), .view = kiln_resources_texture_view_raw(h.f.res, other_view, NULL)},
         "renderer: the target's format 0x22 is not the renderer's output format 0x13"},
    };
    char got[3][512];
    bool refused[3];
    for (int i = 0; i < 3; i++) {
        refused[i] = !kiln_renderer_render(h.r, &scene, rows[i].target, &err);
        snprintf(got[i], sizeof got[i], "%s", err.message);
    }
    kiln_resources_destroy_texture_view(h.f.res, other_view, NULL);
    kiln_resources_destroy_texture(h.f.res, other, NULL);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    for (int i = 0; i < 3; i++) {
        CHECK_MSG(refused[i], "%s: rendered", rows[i].id);
        CHECK_MSG(strcmp(got[i], rows[i].message) == 0, "%s: got '%s', want '%s'", rows[i].id, got[i], rows[i].message);
    }
}

TEST(the_frame_is_the_size_of_its_target) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, &(kiln_render_settings){.debug = KILN_DEBUG_NORMALS}, &err), "%s", err.message);
    /* A target half as wide as the harness's: the whole of it is drawn, nothing cropped. */
    kiln_texture half = kiln_resources_create_texture(h.f.res, &(kiln_texture_desc){.width = W / 2, .height = H,
        .format = WGPUTextureFormat_RGBA8UnormSrgb, .usage = WGPUTextureUsage_RenderAttachment | WGPUTextureUsage_CopySrc}, &err);
    kiln_texture_view half_view = kiln_resources_create_texture_view(h.f.res, half, NULL, &err);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    kiln_image img = {0};
    bool ok = kiln_renderer_render(h.r, &scene, (kiln_render_target){.texture = kiln_resources_texture_raw(h.f.res, half, NULL), .view = kiln_resources_texture_view_raw(h.f.res, half_view, NULL)}, &err) &&
              kiln_resources_read_texture(h.f.res, kiln_resources_texture_raw(h.f.res, half, NULL), &img, &err);
    uint32_t width = img.width;
    kiln_image_free(&img);
    kiln_resources_destroy_texture_view(h.f.res, half_view, NULL);
    kiln_resources_destroy_texture(h.f.res, half, NULL);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(width, W / 2);
}

TEST(settings_out_of_range_are_refused_naming_the_field) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    struct {
        const char *id;
        kiln_render_settings settings;
        const char *message;
    } rows[] = {
        {"settings-1", {.exposure = -1.0f}, "renderer: settings.exposure -1 is not a positive number"},
        {"settings-2", {.ibl_intensity = -0.5f}, "renderer: settings.ibl_intensity -0.5 is not a positive number"},
        {"settings-3", {.tonemapper = (kiln_tonemapper)7}, "renderer: settings.tonemapper 7 is not a tone mapper"},
        {"settings-4", {.debug = (kiln_debug_mode)99}, "renderer: settings.debug 99 is not a debug mode"},
        {"settings-5", {.msaa = 3}, "renderer: settings.msaa 3 must be 1 or 4"},
        {"settings-6", {.msaa = 8}, "renderer: settings.msaa 8 must be 1 or 4"},
        {"settings-7", {.bloom_strength = -0.1f}, "renderer: settings.bloom_strength -0.1 is not a positive number"},
        {"settings-8", {.bloom_threshold = -2.0f}, "renderer: settings.bloom_threshold -2 is not a positive number"},
        {"settings-9", {.shadow_distance = -5.0f},
         "renderer: settings.shadow_distance -5 is not a positive number of metres"},
        {"settings-10", {.shadow_distance = INFINITY},
         "renderer: settings.shadow_distance inf is not a positive number of metres"},
        {"settings-11", {.cascade_resolution = 8}, "renderer: settings.cascade_resolution 8 must be between 16 and 8192 texels"},
        {"settings-12", {.cascade_resolution = 16384},
         "renderer: settings.cascade_resolution 16384 must be between 16 and 8192 texels"},
        {"settings-13", {.ao_radius = -0.25f}, "renderer: settings.ao_radius -0.25 is not a positive number of metres"},
        {"settings-14", {.ao_radius = INFINITY}, "renderer: settings.ao_radius inf is not a positive number of metres"},
        {"settings-15", {.ao_radius = NAN}, "renderer: settings.ao_radius nan is not a positive number of metres"},
    };
    enum { ROWS = sizeof rows / sizeof rows[0] };
    char got[ROWS][512];
    bool refused[ROWS];
    for (int i = 0; i < ROWS; i++) {
        kiln_error err = {0};
        kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, &rows[i].settings, WGPUTextureFormat_RGBA8Unorm, &err);
        refused[i] = r == NULL;
        snprintf(got[i], sizeof got[i], "%s", err.message);
        kiln_renderer_destroy(r);
    }
    kiln_error err = {0};
    kiln_renderer *bad_format = kiln_renderer_create(f.gfx, f.res, NULL, WGPUTextureFormat_R8Unorm, &err);
    kiln_live_counts left = kiln_resources_live_counts(f.res);
    FIXTURE_CLOSE_CLEAN(f);
    for (int i = 0; i < ROWS; i++) {
        CHECK_MSG(refused[i], "%s: created", rows[i].id);
        CHECK_MSG(strcmp(got[i], rows[i].message) == 0, "%s: got '%s', want '%s'", rows[i].id, got[i], rows[i].message);
    }
    CHECK(!bad_format);
    CHECK_STR_CONTAINS(err.message, "output format 0x1 is not supported");
    CHECK_EQ_INT(kiln_live_counts_total(&left), 0);
}

TEST(a_setting_set_back_to_zero_between_frames_means_its_default) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    kiln_image first, dark, again;
    bool ok = renderer_fixture_render(&h, &scene, &first, &err);
    kiln_renderer_settings(h.r)->exposure = 0.05f;
    ok = ok && renderer_fixture_render(&h, &scene, &dark, &err);
    kiln_renderer_settings(h.r)->exposure = 0.0f;
    ok = ok && renderer_fixture_render(&h, &scene, &again, &err);
    bool darker = ok && px(&dark, W / 2, H / 4)[2] < px(&first, W / 2, H / 4)[2];
    bool same = ok && memcmp(first.pixels, again.pixels, (size_t)W * H * 4) == 0;
    if (ok) {
        kiln_image_free(&first);
        kiln_image_free(&dark);
        kiln_image_free(&again);
    }
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(darker);
    CHECK(same);
}

TEST(the_graph_dot_lists_the_frame_passes_in_order) {
    renderer_fixture h;
    kiln_error err = {0};
    CHECK_MSG(harness_open(&h, NULL, &err), "%s", err.message);
    kiln_render_scene scene = {.camera = kiln_camera_look_at((kiln_vec3){0, 0, 0}, (kiln_vec3){0, 0, -1}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.1f)};
    CHECK_MSG(renderer_fixture_render(&h, &scene, NULL, &err), "%s", err.message);
    char dot[8192];
    kiln_renderer_graph_dot(h.r, dot, sizeof dot);
    CHECK_EQ_INT(renderer_fixture_close(&h), 0);
    /* Executed passes are labelled with their order position. */
    const char *labels[] = {"0: depth prepass", "1: gtao", "2: ao blur", "3: cluster light cull",
                            "4: forward+ opaque", "5: sky", "6: forward+ blend", "7: bloom prefilter",
                            "8: bloom downsample 1", "12: bloom downsample 5", "13: bloom upsample 4",
                            "17: bloom upsample 0", "18: tonemap"};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        CHECK_MSG(strstr(dot, labels[i]), "'%s' missing from the DOT", labels[i]);
    CHECK_STR_CONTAINS(dot, "digraph");
}

TEST_MAIN(T(the_demo_frame_is_clean_and_deterministic), T(instances_outside_the_frustum_are_culled_and_batches_merge),
          T(the_material_registry_keeps_indices_stable), T(a_culled_instance_may_keep_a_removed_material),
          T(the_mesh_registry_uploads_at_record_and_reuses_a_removed_index),
          T(replace_mesh_swaps_the_mesh_under_its_index_or_changes_nothing),
          T(a_refused_mesh_takes_no_index_and_names_its_label), T(the_normals_debug_view_bypasses_the_tone_curve),
          T(the_clusters_view_scales_to_32_and_marks_more_in_magenta), T(the_cluster_list_grows_to_the_frames_bound_and_rebinds_the_shading_groups),
          T(a_target_without_texture_or_view_or_of_another_format_is_refused), T(the_frame_is_the_size_of_its_target),
          T(settings_out_of_range_are_refused_naming_the_field),
          T(a_setting_set_back_to_zero_between_frames_means_its_default),
          T(the_graph_dot_lists_the_frame_passes_in_order))
