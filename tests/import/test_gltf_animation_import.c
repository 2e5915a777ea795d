/* Posing imported models at a time: a skinned model (CesiumMan) draws different pixels where
 * its limbs move at another time and the same pixels again at the same time, re-posed in place
 * without moving its arrays; a morphed model's weights are the animation's keyframe values and
 * its shape moves with them; an animated node's transform at a keyframe time is the keyframe's
 * exactly; bad times and animations are refused naming them. Each GPU test ends with zero Dawn
 * errors. */
#include "import_harness.h"
#include "../assets/gltf_test_files.h"

/* Loads the sample `name` into *doc and imports it into the harness with `options`. */
static bool import_kept(harness *h, const char *name, const kiln_gltf_import_options *options, kiln_gltf **doc) {
    char path[1024];
    kiln_error err = {0};
    if (!model_path(name, path, sizeof path)) return fprintf(stderr, "%s: no model file\n", name), false;
    *doc = kiln_gltf_load(path, NULL, &err);
    bool ok = *doc && kiln_gltf_import(*doc, h->r, options, &h->scene, &err);
    if (!ok) fprintf(stderr, "%s: %s\n", name, err.message);
    return ok;
}

/* The scene with a sun, as kiln-render lights a model without lights. */
static kiln_render_scene lit(const kiln_imported_scene *s, const kiln_light *sun) {
    kiln_render_scene scene = s->scene;
    scene.lights = sun;
    scene.light_count = 1;
    return scene;
}

TEST(a_skinned_model_moves_between_times_and_repeats_at_one) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    harness h;
    kiln_gltf *doc = NULL;
    kiln_image at0 = {0}, at1 = {0}, again = {0};
    kiln_light sun = kiln_light_sun((kiln_vec3){-0.5f, -1.0f, -0.4f}, (kiln_vec3){1, 1, 1}, 3.0f);
    kiln_error err = {0};
    bool ok = harness_open(&h) && import_kept(&h, "CesiumMan", &(kiln_gltf_import_options){.time = 0}, &doc);
    if (ok) {
        CHECK(h.scene.scene.joint_count == doc->skins[0].joint_count);
        CHECK_EQ_INT(h.scene.instances[0].joint_offset, 0);
    }
    const kiln_mat4 *joints = h.scene.scene.joints;
    const kiln_render_instance *instances = h.scene.instances;
    kiln_render_scene scene = lit(&h.scene, &sun);
    ok = ok && harness_render(&h, &scene, &at0);
    ok = ok && kiln_imported_scene_pose(&h.scene, doc, 1.0f, &err);
    scene = lit(&h.scene, &sun);
    ok = ok && harness_render(&h, &scene, &at1);
    ok = ok && kiln_imported_scene_pose(&h.scene, doc, 0.0f, &err);
    scene = lit(&h.scene, &sun);
    ok = ok && harness_render(&h, &scene, &again);
    uint32_t moved = ok ? pixels_differing(&at0, &at1) : 0, repeated = ok ? pixels_differing(&at0, &again) : 1;
    bool same_arrays = h.scene.scene.joints == joints && h.scene.instances == instances;
    kiln_image_free(&at0);
    kiln_image_free(&at1);
    kiln_image_free(&again);
    kiln_gltf_free(doc);
    uint64_t errors = harness_close(&h);
    CHECK_MSG(ok, "%s", err.message);
    CHECK_MSG(moved > 200, "only %u pixels differ between t = 0 and t = 1", moved);
    CHECK_EQ_INT(repeated, 0);
    CHECK(same_arrays);
    CHECK_EQ_INT(errors, 0);
}

/* AnimatedMorphCube's one animation drives the cube's two weights (LINEAR); at keyframe k the
 * instance's weights are output values 2k and 2k + 1, and the shape differs from the base. */
TEST(a_morphed_model_takes_the_keyframe_weights_and_changes_shape) {
    if (!assets_present()) SKIP("no $KILN_ASSETS/gltf directory");
    harness h;
    kiln_gltf *doc = NULL;
    kiln_image base = {0}, morphed = {0};
    kiln_light sun = kiln_light_sun((kiln_vec3){-0.5f, -1.0f, -0.4f}, (kiln_vec3){1, 1, 1}, 3.0f);
    kiln_error err = {0};
    bool ok = harness_open(&h) && import_kept(&h, "AnimatedMorphCube", NULL, &doc);
    kiln_render_scene scene = lit(&h.scene, &sun);
    ok = ok && harness_render(&h, &scene, &base);
    const kiln_gltf_animation_sampler *s = ok ? &doc->animations[0].samplers[0] : NULL;
    /* The keyframe whose weights are farthest from zero, so the shape visibly changes. */
    uint32_t key = 0;
    for (uint32_t k = 0; s && k < s->key_count; k++)
        if (fabsf(s->values[2 * k]) + fabsf(s->values[2 * k + 1]) > fabsf(s->values[2 * key]) + fabsf(s->values[2 * key + 1]))
            key = k;
    ok = ok && kiln_imported_scene_pose(&h.scene, doc, s->times[key], &err);
    bool exact = ok && h.scene.instances[0].morph_weights[0] == s->values[2 * key] &&
                 h.scene.instances[0].morph_weights[1] == s->values[2 * key + 1];
    scene = lit(&h.scene, &sun);
    ok = ok && harness_render(&h, &scene, &morphed);
    uint32_t changed = ok ? pixels_differing(&base, &morphed) : 0;
    kiln_image_free(&base);
    kiln_image_free(&morphed);
    kiln_gltf_free(doc);
    uint64_t errors = harness_close(&h);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(exact);
    CHECK_MSG(changed > 100, "only %u pixels changed with the weights", changed);
    CHECK_EQ_INT(errors, 0);
}

/* A triangle at node 1, a child of node 0 (translated by (0, 0, -5)), animated: translation
 * LINEAR over times 0, 1, 2 and rotation STEP. */
static const float anim_data[] = {
    0, 0, 0, 1, 0, 0, 0, 1, 0,          /* @0: positions */
    0, 1, 2,                            /* @36: times */
    0, 0, 0, 1, 2, 3, -1, 0.5f, 0.25f,  /* @48: translations */
    0, 0, 0, 1, 0, 0.6f, 0, 0.8f, 0, 0, 0.6f, 0.8f, /* @84: rotations */
};
static const char anim_doc[] =
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":132,\"uri\":\"@BUF@\"}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":132}],\"accessors\":["
    "{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":0,\"byteOffset\":36,\"componentType\":5126,\"count\":3,\"type\":\"SCALAR\"},"
    "{\"bufferView\":0,\"byteOffset\":48,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
    "{\"bufferView\":0,\"byteOffset\":84,\"componentType\":5126,\"count\":3,\"type\":\"VEC4\"}],"
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}],"
    "\"nodes\":[{\"translation\":[0,0,-5],\"children\":[1]},{\"mesh\":0,\"scale\":[2,2,2]}],"
    "\"animations\":[{\"samplers\":[{\"input\":1,\"output\":2},{\"input\":1,\"output\":3,\"interpolation\":\"STEP\"}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]}";

TEST(an_animated_node_at_a_keyframe_is_the_keyframe_exactly) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, NULL, WGPUTextureFormat_RGBA8UnormSrgb, &err);
    kiln_gltf *doc = test_gltf_load(anim_doc, anim_data, sizeof anim_data, &err);
    kiln_imported_scene s = {0};
    bool ok = r && doc && kiln_gltf_import(doc, r, &(kiln_gltf_import_options){.time = 1.0f}, &s, &err);
    kiln_mat4 want = kiln_mat4_mul(kiln_mat4_translation((kiln_vec3){0, 0, -5}),
                                   kiln_mat4_trs((kiln_vec3){1, 2, 3}, kiln_quat_normalize((kiln_quat){0, 0.6f, 0, 0.8f}),
                                                 (kiln_vec3){2, 2, 2}));
    bool at_key = ok && memcmp(&s.instances[0].transform, &want, sizeof want) == 0;
    /* Past the end the last keyframe holds; before the start (time 0) the first. */
    ok = ok && kiln_imported_scene_pose(&s, doc, 7.5f, &err);
    want = kiln_mat4_mul(kiln_mat4_translation((kiln_vec3){0, 0, -5}),
                         kiln_mat4_trs((kiln_vec3){-1, 0.5f, 0.25f}, kiln_quat_normalize((kiln_quat){0, 0, 0.6f, 0.8f}),
                                       (kiln_vec3){2, 2, 2}));
    bool at_end = ok && memcmp(&s.instances[0].transform, &want, sizeof want) == 0;
    kiln_imported_scene_free(&s);
    kiln_gltf_free(doc);
    kiln_renderer_destroy(r);
    CHECK_MSG(ok, "%s", err.message);
    CHECK(at_key);
    CHECK(at_end);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST(bad_times_and_animations_are_refused_naming_them) {
    gfx_fixture f;
    FIXTURE_OPEN(f);
    kiln_error err = {0};
    kiln_renderer *r = kiln_renderer_create(f.gfx, f.res, NULL, WGPUTextureFormat_RGBA8UnormSrgb, &err);
    kiln_gltf *doc = test_gltf_load(anim_doc, anim_data, sizeof anim_data, &err);
    kiln_imported_scene s = {0};
    CHECK(r && doc);
    CHECK(!kiln_gltf_import(doc, r, &(kiln_gltf_import_options){.name = "a.gltf", .time = -1.0f}, &s, &err));
    CHECK(strcmp(err.message, "a.gltf: time -1 is not a finite number of seconds >= 0") == 0);
    CHECK(!kiln_gltf_import(doc, r, &(kiln_gltf_import_options){.name = "a.gltf", .pick_animation = true, .animation = 1},
                            &s, &err));
    CHECK(strcmp(err.message, "a.gltf: animations[1]: out of range (1 animation)") == 0);
    CHECK(kiln_gltf_import(doc, r, &(kiln_gltf_import_options){.pick_animation = true}, &s, &err));
    CHECK(!kiln_imported_scene_pose(&s, doc, NAN, &err));
    CHECK(strcmp(err.message, "pose: time nan is not a finite number of seconds >= 0") == 0);
    kiln_gltf other = *doc;
    other.node_count = 1;
    CHECK(!kiln_imported_scene_pose(&s, &other, 0.0f, &err));
    CHECK(strcmp(err.message, "pose: the document has 1 nodes, but the scene was imported from one with 2") == 0);
    kiln_imported_scene_free(&s);
    kiln_gltf_free(doc);
    kiln_renderer_destroy(r);
    FIXTURE_CLOSE_CLEAN(f);
}

TEST_MAIN(T(a_skinned_model_moves_between_times_and_repeats_at_one),
          T(a_morphed_model_takes_the_keyframe_weights_and_changes_shape),
          T(an_animated_node_at_a_keyframe_is_the_keyframe_exactly), T(bad_times_and_animations_are_refused_naming_them))
