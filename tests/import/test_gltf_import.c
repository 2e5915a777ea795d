/* kiln_gltf_import: every sample model imports and draws something over the sky, validation
 * clean; the registries and the scene hold what the files say; each instance names the node it
 * draws; the framed camera holds the bounds; the file's camera and lights land where their
 * nodes put them, and kiln_import_file_camera places a camera as the import does. */
#include "import_harness.h"

/* Imports and draws `name`, then draws the same camera with no instances: the model must cover
 * some of the sky, and the device must report nothing. */
static bool model_draws_over_the_sky(const char *name) {
    harness h;
    if (!harness_open(&h)) return harness_close(&h), false;
    kiln_image model = {0}, sky = {0};
    bool ok = harness_import(&h, name, NULL);
    kiln_light sun = kiln_light_sun((kiln_vec3){-0.5f, -1.0f, -0.4f}, (kiln_vec3){1, 1, 1}, 3.0f);
    kiln_render_scene scene = h.scene.scene;
    if (!scene.light_count) scene.lights = &sun, scene.light_count = 1;
    ok = ok && harness_render(&h, &scene, &model);
    scene.instance_count = 0;
    ok = ok && harness_render(&h, &scene, &sky);
    uint32_t covered = ok ? pixels_differing(&model, &sky) : 0;
    if (ok && !covered) fprintf(stderr, "%s: no pixel differs from the sky\n", name);
    kiln_image_free(&model);
    kiln_image_free(&sky);
    uint64_t errors = harness_close(&h);
    if (errors) fprintf(stderr, "%s: %llu Dawn error(s)\n", name, (unsigned long long)errors);
    return ok && covered && !errors;
}

TEST(every_sample_model_imports_and_draws_over_the_sky) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    char root[1024], path[1024];
    snprintf(root, sizeof root, "%s/gltf", getenv("KILN_ASSETS"));
    DIR *dir = opendir(root);
    CHECK(dir != NULL);
    int drawn = 0, failed = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.' || !model_path(e->d_name, path, sizeof path)) continue;
        if (model_draws_over_the_sky(e->d_name)) drawn++;
        else failed++;
    }
    closedir(dir);
    CHECK_EQ_INT(failed, 0);
    CHECK(drawn > 0);
}

TEST(box_is_one_mesh_one_material_one_instance) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    harness h;
    bool ok = harness_open(&h) && harness_import(&h, "Box", NULL);
    uint32_t meshes = kiln_renderer_mesh_count(h.r), materials = kiln_renderer_material_count(h.r);
    uint32_t instances = h.scene.scene.instance_count, lights = h.scene.scene.light_count;
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK(ok);
    CHECK_EQ_INT(meshes, 1);
    CHECK_EQ_INT(materials, 1);
    CHECK_EQ_INT(instances, 1);
    CHECK_EQ_INT(lights, 0);
}

TEST(box_textured_base_colour_is_one_srgb_texture_with_mips) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    harness h;
    bool ok = harness_open(&h) && harness_import(&h, "BoxTextured", NULL);
    kiln_imported_image ids = ok && h.scene.image_count == 1 ? h.scene.images[0] : (kiln_imported_image){0};
    const kiln_texture_info *info = ids.srgb ? kiln_texture_registry_info(kiln_renderer_texture_registry(h.r), ids.srgb) : NULL;
    kiln_texture_info seen = info ? *info : (kiln_texture_info){0};
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK(ok);
    CHECK(ids.srgb != 0);
    CHECK_EQ_INT(ids.linear, 0);
    CHECK_EQ_INT(seen.format, KILN_FORMAT_RGBA8_SRGB);
    CHECK_EQ_INT(seen.mip_levels, kiln_mip_count(seen.width, seen.height));
    CHECK(seen.mip_levels > 1);
}

/* One image sampled as colour by one slot and as data by another: each slot names the texture
 * of the encoding the loader chose for it, and an untextured slot keeps its texture. */
TEST(an_imported_material_takes_the_texture_of_each_slots_encoding) {
    kiln_gltf_material gm = {.material = kiln_material_default("m")};
    for (int slot = 0; slot < KILN_TEX_COUNT; slot++) gm.images[slot] = -1;
    gm.images[KILN_TEX_BASE_COLOR] = gm.images[KILN_TEX_NORMAL] = 1;
    const kiln_imported_image images[2] = {{.srgb = 3, .linear = 4}, {.srgb = 7, .linear = 9}};
    kiln_material m = kiln_gltf_material_import(&gm, images);
    CHECK_EQ_INT(m.textures[KILN_TEX_BASE_COLOR], 7);
    CHECK_EQ_INT(m.textures[KILN_TEX_NORMAL], 9);
    CHECK_EQ_INT(m.textures[KILN_TEX_EMISSIVE], gm.material.textures[KILN_TEX_EMISSIVE]);
}

/* Counts from the files: one instance per node and drawable primitive of the default scene. */
TEST(multi_node_models_get_an_instance_per_node_and_primitive) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    static const struct { const char *name; uint32_t instances, meshes; } rows[] = {
        {"OrientationTest", 13, 13},      /* thirteen nodes, a mesh each */
        {"TextureTransformTest", 12, 9},  /* nine meshes, some drawn by several nodes */
        {"MorphPrimitivesTest", 2, 2},    /* one node, one mesh of two primitives */
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        harness h;
        bool ok = harness_open(&h) && harness_import(&h, rows[i].name, NULL);
        uint32_t instances = h.scene.scene.instance_count, meshes = kiln_renderer_mesh_count(h.r);
        CHECK_EQ_INT(harness_close(&h), 0);
        CHECK_MSG(ok, "%s", rows[i].name);
        CHECK_MSG(instances == rows[i].instances, "%s: %u instances, want %u", rows[i].name, instances, rows[i].instances);
        CHECK_MSG(meshes == rows[i].meshes, "%s: %u meshes, want %u", rows[i].name, meshes, rows[i].meshes);
    }
}

TEST(each_instance_names_the_node_it_draws) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    char path[1024];
    kiln_error err = {0};
    CHECK(model_path("MorphPrimitivesTest", path, sizeof path));
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    harness h;
    bool ok = harness_open(&h) && kiln_gltf_import(doc, h.r, NULL, &h.scene, &err);
    uint32_t count = h.scene.scene.instance_count;
    uint32_t first = kiln_imported_scene_instance_node(&h.scene, 0), second = kiln_imported_scene_instance_node(&h.scene, 1);
    uint32_t past = kiln_imported_scene_instance_node(&h.scene, count);
    bool mesh_node = ok && first < doc->node_count && doc->nodes[first].mesh >= 0;
    kiln_gltf_free(doc);
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(count, 2); /* one node, one mesh of two primitives */
    CHECK(mesh_node);
    CHECK_EQ_INT(second, first);
    CHECK_EQ_INT(past, UINT32_MAX);
    CHECK_EQ_INT(kiln_imported_scene_instance_node(NULL, 0), UINT32_MAX);
}

/* The framed camera holds the whole bounding sphere for tall, square and wide targets, and the
 * sphere touches the narrower field of view (the margin, not more, is left). */
TEST(framed_camera_holds_the_bounding_sphere) {
    kiln_mesh_bounds b = {.min = {-1, 0, -3}, .max = {3, 2, 1}, .center = {1, 1, -1}, .radius = 3.0f};
    const float aspects[] = {0.5f, 1.0f, 2.0f};
    for (size_t i = 0; i < 3; i++) {
        kiln_camera c = kiln_import_frame(&b, KILN_IMPORT_DEFAULT_FOV_Y, aspects[i]);
        kiln_frustum f = kiln_camera_frustum(&c);
        float closest = INFINITY;
        for (int p = 0; p < KILN_FRUSTUM_PLANE_COUNT; p++) {
            float d = kiln_plane_distance(f.planes[p], b.center);
            CHECK_MSG(d >= b.radius, "aspect %g: plane %d is %g from the centre, inside the radius %g", aspects[i], p, d, b.radius);
            if (p != KILN_FRUSTUM_NEAR) closest = fminf(closest, d);
        }
        CHECK_NEAR(closest, b.radius * KILN_IMPORT_FRAME_MARGIN, 1e-3);
        kiln_vec3 to_target = kiln_vec3_normalize(kiln_vec3_sub(b.center, c.position));
        CHECK_NEAR(kiln_vec3_dot(to_target, kiln_camera_forward(&c)), 1.0, 1e-5);
    }
}

TEST(framed_camera_is_its_look_at_again_bit_for_bit) {
    kiln_mesh_bounds b = {.min = {-0.2f, 0, -0.1f}, .max = {0.2f, 0.6f, 0.1f}, .center = {0, 0.3f, 0}, .radius = 0.37f};
    kiln_camera framed = kiln_import_frame(&b, 0.6f, 1.5f);
    kiln_camera again = kiln_import_look_at(&b, framed.position, b.center, (kiln_vec3){0, 1, 0}, 0.6f, 1.5f);
    CHECK(memcmp(&framed, &again, sizeof framed) == 0);
    CHECK(framed.near > 0.0f && framed.near < kiln_vec3_length(kiln_vec3_sub(framed.position, b.center)) - b.radius);
}

/* The shadow distance ends just behind the model whatever its size: the framed camera's view
 * depth of the centre plus the radius, so a 6 cm model gets centimetres of cascades, not 60 m. */
TEST(the_shadow_distance_covers_the_model_and_no_more) {
    const float radii[] = {0.03f, 1.0f, 40.0f};
    for (size_t i = 0; i < 3; i++) {
        float r = radii[i];
        kiln_mesh_bounds b = {.min = {-r, -r, -r}, .max = {r, r, r}, .center = {0, r, 0}, .radius = r};
        kiln_camera c = kiln_import_frame(&b, KILN_IMPORT_DEFAULT_FOV_Y, 1.0f);
        float distance = kiln_import_shadow_distance(&b, &c);
        float depth = kiln_vec3_length(kiln_vec3_sub(b.center, c.position));
        CHECK_NEAR(distance, depth + r, 1e-4 * (depth + r));
        CHECK(distance > c.near);
    }
    /* A camera inside the bounds still covers the far side. */
    kiln_mesh_bounds big = {.min = {-10, -10, -10}, .max = {10, 10, 10}, .center = {0, 0, 0}, .radius = 17.3f};
    kiln_camera inside = kiln_camera_look_at((kiln_vec3){0, 0, 5}, (kiln_vec3){0, 0, 0}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.05f);
    CHECK_NEAR(kiln_import_shadow_distance(&big, &inside), 5.0f + 17.3f, 1e-4);
    kiln_camera away = kiln_camera_look_at((kiln_vec3){0, 0, 30}, (kiln_vec3){0, 0, 60}, (kiln_vec3){0, 1, 0}, 1.0f, 1.0f, 0.05f);
    CHECK(kiln_import_shadow_distance(&big, &away) >= away.near + big.radius);
}

/* Duck's camera 0 sits at its node (nodes[1], under no parent): the camera's eye is the node's
 * origin and its view the node's -Z. */
TEST(file_camera_is_placed_by_its_node) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    char path[1024];
    kiln_error err = {0};
    CHECK(model_path("Duck", path, sizeof path));
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    int32_t node = -1;
    for (uint32_t i = 0; i < doc->node_count; i++)
        if (doc->nodes[i].camera == 0 && node < 0) node = (int32_t)i;
    kiln_mat4 world = node >= 0 ? doc->nodes[node].world : kiln_mat4_identity();
    float yfov = doc->camera_count ? doc->cameras[0].yfov : 0;
    harness h;
    bool ok = harness_open(&h) && kiln_gltf_import(doc, h.r, &(kiln_gltf_import_options){.name = "Duck.glb", .use_camera = true}, &h.scene, &err);
    kiln_camera c = h.scene.scene.camera;
    bool framed = h.scene.framed;
    kiln_gltf_free(doc);
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(node >= 0);
    CHECK(!framed);
    kiln_vec3 eye = kiln_mat4_transform_point(world, (kiln_vec3){0, 0, 0});
    kiln_vec3 view = kiln_vec3_normalize(kiln_mat4_transform_direction(world, (kiln_vec3){0, 0, -1}));
    CHECK_NEAR(kiln_vec3_length(kiln_vec3_sub(c.position, eye)), 0, 1e-4);
    CHECK_NEAR(kiln_vec3_dot(kiln_camera_forward(&c), view), 1, 1e-5);
    CHECK_NEAR(c.fov_y, yfov, 1e-6);
}

TEST(file_camera_placement_is_the_imports_bit_for_bit) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    char path[1024];
    kiln_error err = {0};
    CHECK(model_path("Duck", path, sizeof path));
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    harness h;
    bool ok = harness_open(&h) && kiln_gltf_import(doc, h.r, &(kiln_gltf_import_options){.use_camera = true}, &h.scene, &err);
    kiln_camera placed = {0};
    bool placed_ok = kiln_import_file_camera(doc, 0, &placed, &err);
    kiln_error past = {0};
    bool past_ok = kiln_import_file_camera(doc, doc->camera_count, &placed, &past);
    bool same = memcmp(&placed, &h.scene.scene.camera, sizeof placed) == 0;
    kiln_gltf_free(doc);
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK_MSG(ok && placed_ok, "%s", err.message);
    CHECK(same);
    CHECK(!past_ok);
    CHECK_STR_CONTAINS(past.message, "cameras[1]: out of range (1 camera)");
}

/* A synthetic file: a sun on a node turned to shine down, a point light at (1, 2, 3), and an
 * orthographic camera 4 m up the +Z axis, 2 m wide and 1 m high. */
static const char lights_file[] =
    "{\"asset\": {\"version\": \"2.0\"}, \"extensionsUsed\": [\"KHR_lights_punctual\"],"
    " \"extensions\": {\"KHR_lights_punctual\": {\"lights\": ["
    "  {\"type\": \"directional\", \"intensity\": 5},"
    "  {\"type\": \"point\", \"intensity\": 2, \"range\": 7, \"color\": [1, 0.5, 0.25]}]}},"
    " \"cameras\": [{\"type\": \"orthographic\", \"orthographic\": {\"xmag\": 1, \"ymag\": 0.5, \"znear\": 0.1, \"zfar\": 10}}],"
    " \"scenes\": [{\"nodes\": [0, 1, 2]}],"
    " \"nodes\": [{\"rotation\": [-0.70710678, 0, 0, 0.70710678], \"extensions\": {\"KHR_lights_punctual\": {\"light\": 0}}},"
    "  {\"translation\": [1, 2, 3], \"extensions\": {\"KHR_lights_punctual\": {\"light\": 1}}},"
    "  {\"camera\": 0, \"translation\": [0, 0, 4]}]}";

TEST(lights_land_at_their_nodes_and_an_orthographic_camera_keeps_its_box) {
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load_memory(lights_file, sizeof lights_file - 1, "lights.gltf", NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    harness h;
    bool ok = harness_open(&h) && kiln_gltf_import(doc, h.r, &(kiln_gltf_import_options){.name = "lights.gltf"}, &h.scene, &err);
    kiln_light lights[2] = {0};
    uint32_t count = h.scene.scene.light_count;
    if (ok && count == 2) memcpy(lights, h.scene.lights, sizeof lights);
    kiln_imported_scene_free(&h.scene);
    kiln_error ortho_err = {0};
    bool ortho_ok = h.r && kiln_gltf_import(doc, h.r, &(kiln_gltf_import_options){.name = "lights.gltf", .use_camera = true},
                                           &h.scene, &ortho_err);
    kiln_camera ortho = h.scene.scene.camera;
    kiln_imported_scene_free(&h.scene);
    kiln_gltf_free(doc);
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_EQ_INT(count, 2);
    CHECK_EQ_INT(lights[0].kind, KILN_LIGHT_SUN);
    CHECK_NEAR(lights[0].direction.y, -1, 1e-5);
    CHECK_NEAR(lights[0].intensity, 5, 1e-6);
    CHECK_EQ_INT(lights[1].kind, KILN_LIGHT_POINT);
    CHECK_NEAR(lights[1].position.x, 1, 1e-6);
    CHECK_NEAR(lights[1].position.z, 3, 1e-6);
    CHECK_NEAR(lights[1].range, 7, 1e-6);
    CHECK_MSG(ortho_ok, "%s", ortho_err.message);
    CHECK_EQ_INT(ortho.projection, KILN_PROJECTION_ORTHOGRAPHIC);
    CHECK_NEAR(ortho.half_height, 0.5, 1e-6);
    CHECK_NEAR(ortho.aspect, 2, 1e-6);
    CHECK_NEAR(ortho.near, 0.1, 1e-6);
    CHECK_NEAR(ortho.far, 10, 1e-6);
    CHECK_NEAR(ortho.position.z, 4, 1e-6);
    CHECK_NEAR(kiln_camera_forward(&ortho).z, -1, 1e-6);
    CHECK(kiln_camera_check(&ortho, &ortho_err));
    /* The box: x in [-1, 1] and y in [-0.5, 0.5] fill the frame, depth 1 at near, 0 at far. */
    kiln_mat4 p = kiln_camera_projection(&ortho);
    kiln_vec4 corner = kiln_mat4_mul_vec4(p, kiln_vec4_make(1.0f, 0.5f, -0.1f, 1.0f));
    kiln_vec4 far_point = kiln_mat4_mul_vec4(p, kiln_vec4_make(0.0f, 0.0f, -10.0f, 1.0f));
    CHECK_NEAR(corner.x, 1, 1e-5);
    CHECK_NEAR(corner.y, 1, 1e-5);
    CHECK_NEAR(corner.z, 1, 1e-5);
    CHECK_NEAR(corner.w, 1, 1e-6);
    CHECK_NEAR(far_point.z, 0, 1e-5);
}

TEST(a_camera_index_past_the_file_is_refused_naming_it) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    char path[1024];
    kiln_error err = {0};
    CHECK(model_path("Box", path, sizeof path));
    kiln_gltf *doc = kiln_gltf_load(path, NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    harness h;
    bool refused = harness_open(&h) &&
                   !kiln_gltf_import(doc, h.r, &(kiln_gltf_import_options){.name = "Box.glb", .use_camera = true, .camera = 2}, &h.scene, &err);
    bool zeroed = h.scene.instances == NULL && h.scene.scene.instance_count == 0;
    kiln_gltf_free(doc);
    CHECK_EQ_INT(harness_close(&h), 0);
    CHECK(refused);
    CHECK(zeroed);
    CHECK_STR_CONTAINS(err.message, "Box.glb: cameras[2]: out of range (0 cameras)");
}

TEST_MAIN(T(every_sample_model_imports_and_draws_over_the_sky), T(box_is_one_mesh_one_material_one_instance),
          T(box_textured_base_colour_is_one_srgb_texture_with_mips), T(an_imported_material_takes_the_texture_of_each_slots_encoding),
          T(multi_node_models_get_an_instance_per_node_and_primitive),
          T(framed_camera_holds_the_bounding_sphere), T(framed_camera_is_its_look_at_again_bit_for_bit), T(the_shadow_distance_covers_the_model_and_no_more),
          T(each_instance_names_the_node_it_draws), T(file_camera_is_placed_by_its_node),
          T(file_camera_placement_is_the_imports_bit_for_bit), T(lights_land_at_their_nodes_and_an_orthographic_camera_keeps_its_box),
          T(a_camera_index_past_the_file_is_refused_naming_it))
