/* Skins and morph targets: joints and inverse bind matrices (identity when absent), a node's skin
 * and weights, POSITION, NORMAL and TANGENT deltas into the mesh's morph targets, flat normals' deltas for a primitive without NORMAL, the first 8 of more targets
 * kept with a warning, and one row per class of bad skin or morph target with its message. */
#include <stdint.h>

#include "gltf_test_files.h"
#include "test.h"

/* The buffer's bytes: floats, then two sets of u16 joints. */
typedef struct buffer_bytes {
    float positions[9];        /* @0 */
    float normals[9];          /* @36 */
    float position_deltas[9];  /* @72 */
    float normal_deltas[9];    /* @108 */
    float tangent_deltas[9];   /* @144 */
    float inverse_binds[32];   /* @180 */
    float weights[12];         /* @308 */
    uint16_t joints[12];       /* @356 */
    uint16_t bad_joints[12];   /* @380 */
} buffer_bytes;

static const buffer_bytes bytes = {
    .positions = {0, 0, 0, 1, 0, 0, 0, 1, 0},
    .normals = {0, 0, 1, 0, 0, 1, 0, 0, 1},
    .position_deltas = {0, 0, 0, 0, 0, 0, 0, 0, 1},
    .normal_deltas = {0, 0.5f, 0, 0, 0.5f, 0, 0, 0.5f, 0},
    .tangent_deltas = {1, 0, 0, 1, 0, 0, 1, 0, 0},
    .inverse_binds = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -1, 0, 1},
    .weights = {1, 0, 0, 0, 0.5f, 0.5f, 0, 0, 1, 0, 0, 0},
    .joints = {0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0},
    .bad_joints = {0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0},
};

#define ACC(offset, count, type) "{\"bufferView\":0,\"byteOffset\":" #offset ",\"componentType\":5126,\"count\":" #count ",\"type\":\"" type "\"}"
#define PREFIX                                                                                                  \
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":404,\"uri\":\"@BUF@\"}],"                   \
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":404}],\"accessors\":["                                       \
    ACC(0, 3, "VEC3") "," ACC(36, 3, "VEC3") "," ACC(72, 3, "VEC3") "," ACC(108, 3, "VEC3") ","                 \
    ACC(144, 3, "VEC3") "," ACC(180, 2, "MAT4") "," ACC(180, 1, "MAT4") "," ACC(308, 3, "VEC4") ","             \
    "{\"bufferView\":0,\"byteOffset\":356,\"componentType\":5123,\"count\":3,\"type\":\"VEC4\"},"               \
    "{\"bufferView\":0,\"byteOffset\":380,\"componentType\":5123,\"count\":3,\"type\":\"VEC4\"},"               \
    ACC(0, 2, "VEC3") "],"
#define SKINNED "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1,\"JOINTS_0\":8,\"WEIGHTS_0\":7}}]}"
#define MORPHED "{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"targets\":[{\"POSITION\":2,\"NORMAL\":3,\"TANGENT\":4}]}]}"
#define FLAT "{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":2}]}],\"weights\":[0.5]}"
#define MESHES "\"meshes\":[" SKINNED "," MORPHED "," FLAT "],"
#define NODES "\"nodes\":[{\"mesh\":0,\"skin\":0},{\"children\":[2],\"translation\":[0,1,0]},{},{\"mesh\":1},{\"mesh\":2,\"weights\":[0.25]}],"
#define SKINS "\"skins\":[{\"name\":\"arm\",\"joints\":[1,2],\"inverseBindMatrices\":5,\"skeleton\":1},{\"joints\":[2]}]"

static kiln_gltf *load(const char *json) {
    kiln_error err = {0};
    kiln_gltf *doc = test_gltf_load(json, &bytes, sizeof bytes, &err);
    if (!doc) fprintf(stderr, "load: %s\n", err.message);
    return doc;
}

TEST(skins_load_joints_and_inverse_bind_matrices) {
    kiln_gltf *doc = load(PREFIX MESHES NODES SKINS "}");
    CHECK(doc);
    CHECK_EQ_INT(doc->skin_count, 2);
    const kiln_gltf_skin *s = &doc->skins[0];
    CHECK(strcmp(s->name, "arm") == 0);
    CHECK_EQ_INT(s->joint_count, 2);
    CHECK(s->joints[0] == 1 && s->joints[1] == 2);
    CHECK_EQ_INT(s->skeleton, 1);
    CHECK(kiln_mat4_at(&s->inverse_bind_matrices[1], 1, 3) == -1.0f); /* column-major: row 1 of the last column */
    CHECK(kiln_mat4_at(&s->inverse_bind_matrices[0], 1, 3) == 0.0f);
    /* No inverseBindMatrices: the identity. */
    CHECK(memcmp(&doc->skins[1].inverse_bind_matrices[0], &(kiln_mat4){{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}},
                 sizeof(kiln_mat4)) == 0);
    CHECK_EQ_INT(doc->skins[1].skeleton, -1);
    CHECK_EQ_INT(doc->nodes[0].skin, 0);
    CHECK_EQ_INT(doc->nodes[1].skin, -1);
    CHECK(doc->nodes[1].translation.y == 1.0f && !doc->nodes[1].has_matrix);
    kiln_gltf_free(doc);
}

TEST(morph_targets_keep_position_normal_and_tangent_deltas) {
    kiln_gltf *doc = load(PREFIX MESHES NODES SKINS "}");
    CHECK(doc);
    const kiln_gltf_mesh *m = &doc->meshes[1];
    CHECK_EQ_INT(m->target_count, 1);
    CHECK(m->weights && m->weights[0] == 0.0f);
    const kiln_mesh_data *md = &m->primitives[0].mesh;
    CHECK_EQ_INT(md->morph_target_count, 1);
    CHECK(md->morph_targets[0].position_deltas[2].z == 1.0f);
    CHECK(md->morph_targets[0].normal_deltas[1].y == 0.5f);
    /* TANGENT is kept: the renderer turns the tangent frame by it. */
    CHECK(md->morph_targets[0].tangent_deltas && md->morph_targets[0].tangent_deltas[2].x == 1.0f &&
          md->morph_targets[0].tangent_deltas[2].y == 0.0f);
    CHECK_EQ_INT(doc->warning_count, 0);
    CHECK(doc->nodes[4].weights && doc->nodes[4].weights[0] == 0.25f);
    CHECK(doc->meshes[2].weights[0] == 0.5f);
    kiln_gltf_free(doc);
}

/* Without NORMAL the triangle (0,0,0) (1,0,0) (0,1,0) has the flat normal +Z; with vertex 2 raised
 * by 1 along Z its flat normal is (0, -1, 1) / sqrt 2, so the delta is (0, -0.7071, -0.2929). */
TEST(flat_normals_get_the_deltas_of_the_morphed_flat_normals) {
    kiln_gltf *doc = load(PREFIX MESHES NODES SKINS "}");
    CHECK(doc);
    const kiln_mesh_data *md = &doc->meshes[2].primitives[0].mesh;
    CHECK_EQ_INT(md->morph_target_count, 1);
    for (int v = 0; v < 3; v++) {
        kiln_vec3 d = md->morph_targets[0].normal_deltas[v];
        CHECK_NEAR(d.x, 0, 1e-6);
        CHECK_NEAR(d.y, -0.70710678, 1e-6);
        CHECK_NEAR(d.z, 0.70710678 - 1, 1e-6);
    }
    kiln_gltf_free(doc);
}

TEST(more_than_eight_targets_keep_the_first_eight_with_a_warning) {
    const char *json = PREFIX "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":["
        "{\"POSITION\":2},{},{},{},{},{},{},{},{\"POSITION\":2}]}]}]}";
    kiln_gltf *doc = load(json);
    CHECK(doc);
    CHECK_EQ_INT(doc->meshes[0].target_count, 9);
    CHECK_EQ_INT(doc->meshes[0].primitives[0].mesh.morph_target_count, 8);
    CHECK_EQ_INT(doc->warning_count, 1);
    CHECK(strcmp(doc->warnings[0], "meshes[0]: 9 morph targets; the first 8 are drawn (KILN_MAX_MORPH_TARGETS)") == 0);
    kiln_gltf_free(doc);
}

static const struct {
    const char *id, *rest, *message;
} rows[] = {
    {"1.1", MESHES NODES "\"skins\":[{\"joints\":[]}]", "test.gltf: skins[0].joints: is required and not empty"},
    {"1.2", MESHES NODES "\"skins\":[{\"joints\":[1,7]}]", "test.gltf: skins[0].joints[1]: is not an index below 5 (the node count)"},
    {"1.3", MESHES NODES "\"skins\":[{\"joints\":[1,2,1]}]", "test.gltf: skins[0].joints[2]: nodes[1] is already joints[0]"},
    {"1.4", MESHES NODES "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":6}]",
     "test.gltf: skins[0].inverseBindMatrices: accessors[6] has 1 matrices for 2 joints"},
    {"1.5", MESHES NODES "\"skins\":[{\"joints\":[1,2],\"inverseBindMatrices\":0}]",
     "test.gltf: skins[0].inverseBindMatrices: accessors[0] has 3 components per element, which this use does not take"},
    {"1.6", MESHES NODES "\"skins\":[{\"joints\":[1,2],\"skeleton\":9}]", "test.gltf: skins[0].skeleton: 9 is out of range (5 nodes)"},
    {"1.7", MESHES "\"nodes\":[{\"mesh\":0,\"skin\":1}],\"skins\":[{\"joints\":[0]}]",
     "test.gltf: nodes[0].skin: 1 is out of range (1 skins)"},
    {"1.8", MESHES "\"nodes\":[{\"skin\":0}],\"skins\":[{\"joints\":[0]}]", "test.gltf: nodes[0].skin: the node has no mesh to skin"},
    {"1.9", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"JOINTS_0\":9,\"WEIGHTS_0\":7}}]}],"
     "\"nodes\":[{\"mesh\":0,\"skin\":0},{}],\"skins\":[{\"joints\":[0,1]}]",
     "test.gltf: nodes[0]: meshes[0].primitives[0] reads joint 5, but skins[0] has 2 joints"},
    {"2.1", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{\"POSITION\":10}]}]}]",
     "test.gltf: meshes[0].primitives[0].targets[0].POSITION: 2 elements, but POSITION has 3"},
    {"2.2", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{},{}]},"
     "{\"attributes\":{\"POSITION\":0},\"targets\":[{}]}]}]",
     "test.gltf: meshes[0].primitives[1].targets: 1 morph targets, but primitives[0] has 2"},
    {"2.3", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{}]}],\"weights\":[1,0]}]",
     "test.gltf: meshes[0].weights: 2 weights, but the mesh has 1 morph targets"},
    {"2.4", MESHES "\"nodes\":[{\"mesh\":1,\"weights\":[1,1,1]}]",
     "test.gltf: nodes[0].weights: 3 weights, but meshes[1] has 1 morph targets"},
    {"2.5", MESHES "\"nodes\":[{\"weights\":[1]}]", "test.gltf: nodes[0].weights: 1 weights, but the node has no mesh"},
    {"2.6", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[{\"NORMAL\":5}]}]}]",
     "test.gltf: meshes[0].primitives[0].targets[0].NORMAL: accessors[5] has 16 components per element, which this use "
     "does not take"},
    {"2.7", "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"targets\":[7]}]}]",
     "test.gltf: meshes[0].primitives[0].targets[0]: is not an object"},
};

TEST(each_class_of_bad_skin_or_morph_target_fails_with_its_message) {
    int failed = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        char json[4096];
        snprintf(json, sizeof json, "%s%s}", PREFIX, rows[r].rest);
        kiln_error err = {0};
        kiln_gltf *doc = test_gltf_load(json, &bytes, sizeof bytes, &err);
        if (doc || strcmp(err.message, rows[r].message) != 0) {
            fprintf(stderr, "row %s: got %s\n  \"%s\"\n  want \"%s\"\n", rows[r].id, doc ? "a document" : "the error",
                    err.message, rows[r].message);
            failed++;
        }
        kiln_gltf_free(doc);
    }
    CHECK_EQ_INT(failed, 0);
}

TEST_MAIN(T(skins_load_joints_and_inverse_bind_matrices), T(morph_targets_keep_position_normal_and_tangent_deltas),
          T(flat_normals_get_the_deltas_of_the_morphed_flat_normals),
          T(more_than_eight_targets_keep_the_first_eight_with_a_warning),
          T(each_class_of_bad_skin_or_morph_target_fails_with_its_message))
