/* Animations: each interpolation sampled at hand-computed times (keyframes, between them, before
 * the first and after the last), quaternion slerp along the shorter arc, CUBICSPLINE tangents
 * scaled by the keyframe interval and its rotations normalised, morph weights, the rest pose
 * (node.weights over mesh.weights), and one row per class of bad animation with its message. */
#include <stdint.h>

#include "gltf_test_files.h"
#include "test.h"

#define S45 0.70710678f
#define S67 0.92387953f /* sin 67.5 degrees */
#define C67 0.38268343f /* cos 67.5 degrees */

/* The one buffer: float offsets in the comments are indices into this array. */
static const float data[112] = {
    0, 1, 3,                                  /* 0: times */
    0, 0, 0, 2, 4, 6, 2, 4, -6,               /* 3: translations */
    0, 0, 0, 1, 0, 0, S45, S45, 0, 0, -S67, -C67, /* 12: 0, 90 and (negated) 135 degrees about Z */
    9, 9, 9, 0, 0, 0, 1, 0, 0,                /* 24: cubic key 0: in, value, out */
    0, 2, 0, 1, 1, 1, 0, 0, 2,                /* 33: cubic key 1 */
    4, 0, 0, 3, 3, 3, 9, 9, 9,                /* 42: cubic key 2 */
    0, 1, 1, 0, 0.5f, 0.5f,                   /* 51: weights of two targets, three keys */
    0, 0, 0, 1, 0, 0, 0, 1, 0,                /* 57: triangle positions */
    1, 0, 0, 1, 0, 0, 1, 0, 0,                /* 66: target 0: everything +X */
    0, 0, 0, 0, 0, 0, 0, 0, 1,                /* 75: target 1: vertex 2 +Z */
    0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,       /* 84: cubic rotation key 0 (identity), zero tangents */
    0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,       /* 96: cubic rotation key 1 (180 degrees about Z) */
    0, 1, 0.5f,                               /* 108: times that go back */
    -1,                                       /* 111: a negative time */
};

#define ACC(offset, count, type) "{\"bufferView\":0,\"byteOffset\":" #offset ",\"componentType\":5126,\"count\":" #count ",\"type\":\"" type "\"}"
#define PREFIX                                                                                               \
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":448,\"uri\":\"@BUF@\"}],"                \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":448}],\"accessors\":["                                    \
    ACC(0, 3, "SCALAR") "," ACC(12, 3, "VEC3") "," ACC(48, 3, "VEC4") "," ACC(96, 9, "VEC3") ","             \
    ACC(204, 6, "SCALAR") "," ACC(228, 3, "VEC3") "," ACC(264, 3, "VEC3") "," ACC(300, 3, "VEC3") ","        \
    ACC(0, 2, "SCALAR") "," ACC(336, 6, "VEC4") "," ACC(432, 3, "SCALAR") "," ACC(444, 1, "SCALAR") "],"    \
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":5},\"targets\":[{\"POSITION\":6},{\"POSITION\":7}]}]," \
    "\"weights\":[0.25,0.75]},{\"primitives\":[{\"attributes\":{\"POSITION\":5}}]}],"                        \
    "\"nodes\":[{\"mesh\":0},{\"translation\":[7,7,7]},{\"mesh\":0,\"weights\":[1,0]},{\"matrix\":"          \
    "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]},{\"mesh\":1}],"

/* Animation 0: LINEAR translation and rotation of node 1 and weights of node 0; 1: STEP
 * translation and CUBICSPLINE rotation; 2: CUBICSPLINE translation. */
static const char good[] = PREFIX
    "\"animations\":["
    "{\"samplers\":[{\"input\":0,\"output\":1},{\"input\":0,\"output\":2},{\"input\":0,\"output\":4}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}},{\"sampler\":2,\"target\":{\"node\":0,\"path\":\"weights\"}}]},"
    "{\"name\":\"steps\",\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"STEP\"},"
    "{\"input\":8,\"output\":9,\"interpolation\":\"CUBICSPLINE\"}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
    "{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"rotation\"}}]},"
    "{\"samplers\":[{\"input\":0,\"output\":3,\"interpolation\":\"CUBICSPLINE\"}],"
    "\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]}";

static kiln_gltf *load_good(void) {
    kiln_error err = {0};
    kiln_gltf *doc = test_gltf_load(good, data, sizeof data, &err);
    if (!doc) fprintf(stderr, "load: %s\n", err.message);
    return doc;
}

/* Node `node`'s pose after the rest pose and animation `anim` at `time`. */
static kiln_gltf_node_pose pose_at(const kiln_gltf *doc, uint32_t anim, float time, uint32_t node) {
    kiln_gltf_node_pose poses[5];
    kiln_gltf_rest_pose(doc, poses);
    kiln_gltf_animation_sample(doc, anim, time, poses);
    return poses[node];
}

#define CHECK_VEC3(v, X, Y, Z, eps) \
    do { CHECK_NEAR((v).x, X, eps); CHECK_NEAR((v).y, Y, eps); CHECK_NEAR((v).z, Z, eps); } while (0)

TEST(animations_load_with_their_ranges_and_channels) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    CHECK_EQ_INT(doc->animation_count, 3);
    CHECK_EQ_INT(doc->warning_count, 0);
    const kiln_gltf_animation *a = &doc->animations[0];
    CHECK_EQ_INT(a->channel_count, 3);
    CHECK_EQ_INT(a->sampler_count, 3);
    CHECK(a->start == 0.0f && a->end == 3.0f);
    CHECK_EQ_INT(a->channels[2].path, KILN_GLTF_ANIMATE_WEIGHTS);
    CHECK_EQ_INT(a->channels[2].width, 2);
    CHECK(strcmp(doc->animations[1].name, "steps") == 0);
    CHECK(doc->animations[1].end == 3.0f);
    CHECK_EQ_INT(doc->animations[1].samplers[1].interpolation, KILN_GLTF_INTERPOLATION_CUBICSPLINE);
    kiln_gltf_free(doc);
}

TEST(linear_translation_interpolates_and_holds_its_ends) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    CHECK_VEC3(pose_at(doc, 0, 0.5f, 1).translation, 1, 2, 3, 0);
    CHECK_VEC3(pose_at(doc, 0, 1.0f, 1).translation, 2, 4, 6, 0);
    CHECK_VEC3(pose_at(doc, 0, 2.0f, 1).translation, 2, 4, 0, 0);
    CHECK_VEC3(pose_at(doc, 0, -1.0f, 1).translation, 0, 0, 0, 0);
    CHECK_VEC3(pose_at(doc, 0, 5.0f, 1).translation, 2, 4, -6, 0);
    kiln_gltf_free(doc);
}

TEST(step_holds_each_keyframe_until_the_next) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    CHECK_VEC3(pose_at(doc, 1, 0.999f, 1).translation, 0, 0, 0, 0);
    CHECK_VEC3(pose_at(doc, 1, 1.0f, 1).translation, 2, 4, 6, 0);
    CHECK_VEC3(pose_at(doc, 1, 2.9f, 1).translation, 2, 4, 6, 0);
    CHECK_VEC3(pose_at(doc, 1, 3.0f, 1).translation, 2, 4, -6, 0);
    kiln_gltf_free(doc);
}

/* At t = 0.5 (interval 1): 0.5 v0 + 0.125 b0 + 0.5 v1 - 0.125 a1 = (0.625, 0.25, 0.5). At t = 2
 * (interval 2, u = 0.5): 0.5 v1 + 2 * 0.125 b1 + 0.5 v2 - 2 * 0.125 a2 = (1, 2, 2.5): the tangents
 * count twice because the interval is 2 s (unscaled, x would be 1.5 and z 2). */
TEST(cubic_spline_tangents_are_scaled_by_the_interval) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    CHECK_VEC3(pose_at(doc, 2, 0.5f, 1).translation, 0.625, 0.25, 0.5, 0);
    CHECK_VEC3(pose_at(doc, 2, 2.0f, 1).translation, 1, 2, 2.5, 0);
    CHECK_VEC3(pose_at(doc, 2, 1.0f, 1).translation, 1, 1, 1, 0);
    CHECK_VEC3(pose_at(doc, 2, 0.0f, 1).translation, 0, 0, 0, 0);
    CHECK_VEC3(pose_at(doc, 2, 9.0f, 1).translation, 3, 3, 3, 0);
    kiln_gltf_free(doc);
}

/* Key 2 is 135 degrees about Z written negated: the shorter arc from 90 degrees passes 112.5 at
 * the middle; the longer one (no sign flip) would pass -67.5 degrees. */
TEST(linear_rotation_slerps_along_the_shorter_arc) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    kiln_quat q = pose_at(doc, 0, 0.5f, 1).rotation;
    CHECK_VEC3(kiln_quat_rotate(q, (kiln_vec3){1, 0, 0}), S45, S45, 0, 1e-6);
    q = pose_at(doc, 0, 2.0f, 1).rotation;
    CHECK_VEC3(kiln_quat_rotate(q, (kiln_vec3){1, 0, 0}), -C67, S67, 0, 1e-6);
    CHECK_NEAR(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w, 1, 1e-6);
    q = pose_at(doc, 0, 1.0f, 1).rotation; /* a keyframe: its value as written */
    CHECK(q.x == 0 && q.y == 0 && q.z == S45 && q.w == S45);
    kiln_gltf_free(doc);
}

/* Halfway between identity and 180 degrees about Z with zero tangents the spline gives
 * (0, 0, 0.5, 0.5); normalised, 90 degrees about Z. */
TEST(cubic_spline_rotation_is_normalised) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    kiln_quat q = pose_at(doc, 1, 0.5f, 1).rotation;
    CHECK_NEAR(q.x, 0, 0);
    CHECK_NEAR(q.y, 0, 0);
    CHECK_NEAR(q.z, S45, 1e-6);
    CHECK_NEAR(q.w, S45, 1e-6);
    kiln_gltf_free(doc);
}

TEST(weights_interpolate_per_target) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    kiln_gltf_node_pose p = pose_at(doc, 0, 0.5f, 0);
    CHECK(p.weights[0] == 0.5f && p.weights[1] == 0.5f && p.weights[2] == 0.0f);
    p = pose_at(doc, 0, 2.0f, 0);
    CHECK(p.weights[0] == 0.75f && p.weights[1] == 0.25f);
    kiln_gltf_free(doc);
}

TEST(rest_pose_takes_node_weights_over_mesh_weights_and_leaves_the_rest) {
    kiln_gltf *doc = load_good();
    CHECK(doc);
    kiln_gltf_node_pose poses[5];
    kiln_gltf_rest_pose(doc, poses);
    CHECK(poses[0].weights[0] == 0.25f && poses[0].weights[1] == 0.75f);
    CHECK(poses[2].weights[0] == 1.0f && poses[2].weights[1] == 0.0f);
    CHECK_VEC3(poses[1].translation, 7, 7, 7, 0);
    CHECK(poses[1].rotation.w == 1.0f && poses[1].scale.x == 1.0f);
    /* Animation 0 drives node 1 and node 0's weights; node 2 keeps its own. */
    kiln_gltf_animation_sample(doc, 0, 0.5f, poses);
    CHECK(poses[2].weights[0] == 1.0f);
    CHECK(!kiln_gltf_animation_sample(doc, 3, 0.0f, poses));
    CHECK(!kiln_gltf_animation_sample(doc, 0, NAN, poses));
    kiln_gltf_free(doc);
}

static const struct {
    const char *id, *animations, *message;
} rows[] = {
    {"1.1", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":9,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].channels[0].target.node: 9 is out of range (5 nodes)"},
    {"1.2", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"colour\"}}]}]",
     "test.gltf: animations[0].channels[0].target.path: \"colour\" is not translation, rotation, scale or weights"},
    {"1.3", "[{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"CUBIC\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].samplers[0].interpolation: \"CUBIC\" is not LINEAR, STEP or CUBICSPLINE"},
    {"1.4", "[{\"samplers\":[{\"input\":10,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].samplers[0].input: time 0.5 at 2 is not after 1 at 1 (times must increase)"},
    {"1.5", "[{\"samplers\":[{\"input\":11,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].samplers[0].input: time -1 at 0 is not a finite number >= 0"},
    {"1.6", "[{\"samplers\":[{\"input\":1,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].samplers[0].input: accessors[1] is not a SCALAR of floats"},
    {"1.7", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]",
     "test.gltf: animations[0].channels[0]: rotation wants VEC4 values, but animations[0].samplers[0].output is VEC3"},
    {"1.8", "[{\"samplers\":[{\"input\":8,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].channels[0]: LINEAR with 2 keyframes wants 6 floats (3 per keyframe), but "
     "animations[0].samplers[0].output has 9"},
    {"1.9", "[{\"samplers\":[{\"input\":0,\"output\":1,\"interpolation\":\"CUBICSPLINE\"}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].channels[0]: CUBICSPLINE with 3 keyframes wants 27 floats (9 per keyframe), but "
     "animations[0].samplers[0].output has 9"},
    {"1.10", "[{\"samplers\":[{\"input\":8,\"output\":4}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"weights\"}}]}]",
     "test.gltf: animations[0].channels[0]: LINEAR with 2 keyframes wants 4 floats (2 per keyframe), but "
     "animations[0].samplers[0].output has 6"},
    {"1.11", "[{\"samplers\":[{\"input\":0,\"output\":4}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":4,\"path\":\"weights\"}}]}]",
     "test.gltf: animations[0].channels[0].target: weights of nodes[4], which has no mesh with morph targets"},
    {"1.12", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":3,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].channels[0].target: nodes[3] has a matrix; an animated node takes translation, rotation and scale"},
    {"1.13", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":1,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].channels[0].sampler: 1 is out of range (1 samplers)"},
    {"1.14", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}},"
     "{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"translation\"}}]}]",
     "test.gltf: animations[0].channels[1].target: nodes[1].translation is already driven by another channel of animations[0]"},
    {"1.15", "[{\"samplers\":[{\"input\":8,\"output\":9,\"interpolation\":\"CUBICSPLINE\"}],\"channels\":[]}]",
     "test.gltf: animations[0].channels: is required and not empty"},
    {"1.16", "[{\"channels\":[{\"sampler\":0,\"target\":{\"node\":1,\"path\":\"rotation\"}}]}]",
     "test.gltf: animations[0].samplers: is required and not empty"},
    {"1.17", "[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":[{\"sampler\":0}]}]",
     "test.gltf: animations[0].channels[0].target: is required"},
};

TEST(each_class_of_bad_animation_fails_with_its_message) {
    int failed = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char json[4096];
        snprintf(json, sizeof json, "%s\"animations\":%s}", PREFIX, rows[r].animations);
        kiln_error err = {0};
        kiln_gltf *doc = test_gltf_load(json, data, sizeof data, &err);
        if (doc || strcmp(err.message, rows[r].message) != 0) {
            fprintf(stderr, "row %s: got %s\n  \"%s\"\n  want \"%s\"\n", rows[r].id, doc ? "a document" : "the error",
                    err.message, rows[r].message);
            failed++;
        }
        kiln_gltf_free(doc);
    }
    CHECK_EQ_INT(failed, 0);
}

TEST(a_channel_without_a_node_is_ignored_with_a_warning) {
    char json[4096];
    snprintf(json, sizeof json, "%s\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],\"channels\":"
             "[{\"sampler\":0,\"target\":{\"path\":\"translation\"}}]}]}", PREFIX);
    kiln_error err = {0};
    kiln_gltf *doc = test_gltf_load(json, data, sizeof data, &err);
    CHECK_MSG(doc, "%s", err.message);
    CHECK_EQ_INT(doc->animations[0].channel_count, 0);
    CHECK_EQ_INT(doc->warning_count, 1);
    CHECK(strcmp(doc->warnings[0], "animations[0].channels[0].target: has no node; ignored") == 0);
    kiln_gltf_free(doc);
}

TEST_MAIN(T(animations_load_with_their_ranges_and_channels), T(linear_translation_interpolates_and_holds_its_ends),
          T(step_holds_each_keyframe_until_the_next), T(cubic_spline_tangents_are_scaled_by_the_interval),
          T(linear_rotation_slerps_along_the_shorter_arc), T(cubic_spline_rotation_is_normalised),
          T(weights_interpolate_per_target), T(rest_pose_takes_node_weights_over_mesh_weights_and_leaves_the_rest),
          T(each_class_of_bad_animation_fails_with_its_message), T(a_channel_without_a_node_is_ignored_with_a_warning))
