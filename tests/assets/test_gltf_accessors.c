/* Accessors: every component type, normalized and not, KHR_mesh_quantization's integer
 * positions, byteStride, sparse substitution, index types, strips and fans. Each row is one
 * triangle whose attribute under test lives in its own buffer view after 36 bytes of float
 * positions. */
#include <stdint.h>

#include "gltf_test_files.h"
#include "test.h"

static const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};

typedef struct attribute_row {
    const char *name;
    const char *attribute;     /* POSITION replaces the float positions */
    int component_type;
    bool normalized;
    const char *type;
    uint8_t bytes[48];
    size_t size;
    float expected[12];        /* the first vertex's value, as the mesh stores it */
    int components;
} attribute_row;

static const attribute_row rows[] = {
    {"1.1 float VEC3 position", "POSITION", 5126, false, "VEC3", {0, 0, 0x80, 0x3f, 0, 0, 0, 0x40, 0, 0, 0x40, 0x40},
     36, {1, 2, 3}, 3},
    {"1.2 byte position (quantized)", "POSITION", 5120, false, "VEC3", {0xfe, 2, 3, 0}, 12, {-2, 2, 3}, 3},
    {"1.3 unsigned byte position (quantized)", "POSITION", 5121, false, "VEC3", {200, 2, 3, 0}, 12, {200, 2, 3}, 3},
    {"1.4 short position (quantized)", "POSITION", 5122, false, "VEC3", {0x18, 0xfc, 7, 0, 1, 0}, 24, {-1000, 7, 1}, 3},
    {"1.5 unsigned short position (quantized)", "POSITION", 5123, false, "VEC3", {0xe8, 0xfd, 7, 0, 1, 0}, 24,
     {65000, 7, 1}, 3},
    {"1.6 normalized byte normal", "NORMAL", 5120, true, "VEC3", {0x81, 0, 0x80}, 12, {-1, 0, -1}, 3},
    {"1.7 normalized short normal", "NORMAL", 5122, true, "VEC3", {0xff, 0x7f, 0, 0, 0, 0x80}, 24, {1, 0, -1}, 3},
    {"1.8 normalized unsigned byte uv", "TEXCOORD_0", 5121, true, "VEC2", {255, 51}, 8, {1, 0.2f}, 2},
    {"1.9 normalized unsigned short uv", "TEXCOORD_0", 5123, true, "VEC2", {0xff, 0xff, 0, 0}, 12, {1, 0}, 2},
    {"1.10 unsigned byte uv (quantized)", "TEXCOORD_1", 5121, false, "VEC2", {3, 4}, 8, {3, 4}, 2},
    {"1.11 float VEC3 colour gets alpha 1", "COLOR_0", 5126, false, "VEC3", {0, 0, 0, 0x3f, 0, 0, 0x80, 0x3e}, 36,
     {0.5f, 0.25f, 0, 1}, 4},
    {"1.12 normalized unsigned byte VEC4 colour", "COLOR_0", 5121, true, "VEC4", {255, 0, 255, 51}, 12,
     {1, 0, 1, 0.2f}, 4},
    {"1.13 float tangent", "TANGENT", 5126, false, "VEC4", {0, 0, 0x80, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xbf},
     48, {1, 0, 0, -1}, 4},
};

static const float *mesh_value(const kiln_gltf_primitive *p, const char *attribute) {
    if (strcmp(attribute, "POSITION") == 0) return &p->mesh.positions[0].x;
    if (strcmp(attribute, "NORMAL") == 0) return &p->mesh.normals[0].x;
    if (strcmp(attribute, "TANGENT") == 0) return &p->mesh.tangents[0].x;
    if (strcmp(attribute, "TEXCOORD_0") == 0) return &p->mesh.uv0[0].x;
    if (strcmp(attribute, "TEXCOORD_1") == 0) return &p->mesh.uv1[0].x;
    return p->colors ? &p->colors[0].x : NULL;
}

TEST(each_component_type_reads_as_the_spec_says) {
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const attribute_row *row = &rows[r];
        uint8_t buffer[36 + 48] = {0};
        memcpy(buffer, triangle, 36);
        memcpy(buffer + 36, row->bytes, row->size);
        bool replaces = strcmp(row->attribute, "POSITION") == 0;
        char json[1024];
        snprintf(json, sizeof json,
                 "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,\"uri\":\"@BUF@\"}],"
                 "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":%zu}],"
                 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
                 "{\"bufferView\":1,\"componentType\":%d,\"normalized\":%s,\"count\":3,\"type\":\"%s\"}],"
                 "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":%d%s%s%s}}]}]}",
                 36 + row->size, row->size, row->component_type, row->normalized ? "true" : "false", row->type,
                 replaces ? 1 : 0, replaces ? "" : ",\"", replaces ? "" : row->attribute, replaces ? "" : "\":1");
        kiln_error err = {0};
        kiln_gltf *doc = test_gltf_load(json, buffer, 36 + row->size, &err);
        CHECK_MSG(doc, "%s: %s", row->name, err.message);
        const float *got = mesh_value(&doc->meshes[0].primitives[0], row->attribute);
        bool same = got != NULL;
        for (int c = 0; same && c < row->components; c++) same = fabsf(got[c] - row->expected[c]) < 1e-6f;
        kiln_gltf_free(doc);
        CHECK_MSG(same, "%s: the first vertex's value differs", row->name);
    }
}

/* Two float VEC3 per vertex interleaved in a 24-byte stride: positions at 0, normals at 12. */
TEST(byte_stride_interleaves_two_attributes) {
    float interleaved[18] = {0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1};
    const char *json =
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":72,\"uri\":\"@BUF@\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":72,\"byteStride\":24}],"
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
        "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1}}]}]}";
    kiln_error err = {0};
    kiln_gltf *doc = test_gltf_load(json, interleaved, sizeof interleaved, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    CHECK_EQ_INT(md->vertex_count, 3);
    CHECK_NEAR(md->positions[1].x, 1, 0);
    CHECK_NEAR(md->positions[2].y, 1, 0);
    CHECK_NEAR(md->normals[2].z, 1, 0);
    kiln_gltf_free(doc);
}

/* Sparse: positions of a zero accessor (no bufferView) with vertices 1 and 2 substituted, and a
 * dense accessor with one element replaced. */
TEST(sparse_values_replace_their_elements) {
    struct { uint16_t indices[2]; float values[6]; } zeroed = {{2, 1}, {0, 1, 0, 1, 0, 0}};
    const char *json =
        "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":28,\"uri\":\"@BUF@\"}],"
        "\"bufferViews\":[{\"buffer\":0,\"byteLength\":4},{\"buffer\":0,\"byteOffset\":4,\"byteLength\":24}],"
        "\"accessors\":[{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":2,"
        "\"indices\":{\"bufferView\":0,\"componentType\":5123},\"values\":{\"bufferView\":1}}}],"
        "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}";
    kiln_error err = {0};
    kiln_gltf *doc = test_gltf_load(json, &zeroed, sizeof zeroed, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    CHECK_NEAR(md->positions[0].x, 0, 0);
    CHECK_NEAR(md->positions[1].x, 1, 0);
    CHECK_NEAR(md->positions[2].y, 1, 0);
    kiln_gltf_free(doc);

    struct { float base[9]; uint8_t index; uint8_t pad[3]; float value[3]; } dense = {
        {0, 0, 0, 1, 0, 0, 0, 1, 0}, 0, {0}, {5, 6, 7}};
    json = "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":52,\"uri\":\"@BUF@\"}],"
           "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36},{\"buffer\":0,\"byteOffset\":36,\"byteLength\":1},"
           "{\"buffer\":0,\"byteOffset\":40,\"byteLength\":12}],"
           "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
           "\"indices\":{\"bufferView\":1,\"componentType\":5121},\"values\":{\"bufferView\":2}}}],"
           "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]}";
    doc = test_gltf_load(json, &dense, sizeof dense, &err);
    CHECK_MSG(doc, "%s", err.message);
    md = &doc->meshes[0].primitives[0].mesh;
    CHECK_NEAR(md->positions[0].x, 5, 0);
    CHECK_NEAR(md->positions[0].z, 7, 0);
    CHECK_NEAR(md->positions[1].x, 1, 0);
    kiln_gltf_free(doc);
}

/* Four vertices of a quad; `mode` and the index bytes vary per row. */
static kiln_gltf *load_quad(int mode, int index_type, const void *indices, size_t index_size, uint32_t count,
                            kiln_error *err) {
    uint8_t buffer[48 + 24] = {0};
    const float quad[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
    memcpy(buffer, quad, 48);
    memcpy(buffer + 48, indices, index_size);
    char json[1024];
    snprintf(json, sizeof json,
             "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,\"uri\":\"@BUF@\"}],"
             "\"bufferViews\":[{\"buffer\":0,\"byteLength\":48},{\"buffer\":0,\"byteOffset\":48,\"byteLength\":%zu}],"
             "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":4,\"type\":\"VEC3\"},"
             "{\"bufferView\":1,\"componentType\":%d,\"count\":%u,\"type\":\"SCALAR\"}],"
             "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":0},\"indices\":1,\"mode\":%d}]}]}",
             48 + index_size, index_size, index_type, count, mode);
    return test_gltf_load(json, buffer, 48 + index_size, err);
}

TEST(index_types_and_strips_and_fans_become_triangle_lists) {
    static const struct {
        const char *name;
        int mode, index_type;
        uint8_t bytes[24];
        size_t size;
        uint32_t count;
        uint32_t expected[6];
    } cases[] = {
        {"2.1 unsigned byte list", 4, 5121, {0, 1, 2, 2, 1, 3}, 6, 6, {0, 1, 2, 2, 1, 3}},
        {"2.2 unsigned short list", 4, 5123, {0, 0, 1, 0, 2, 0, 2, 0, 1, 0, 3, 0}, 12, 6, {0, 1, 2, 2, 1, 3}},
        {"2.3 unsigned int list", 4, 5125, {0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}, 12, 3, {0, 1, 2}},
        {"2.4 strip keeps the winding", 5, 5121, {0, 1, 2, 3}, 4, 4, {0, 1, 2, 2, 1, 3}},
        {"2.5 fan", 6, 5121, {0, 1, 3, 2}, 4, 4, {1, 3, 0, 3, 2, 0}},
    };
    for (size_t r = 0; r < sizeof cases / sizeof cases[0]; r++) {
        kiln_error err = {0};
        kiln_gltf *doc = load_quad(cases[r].mode, cases[r].index_type, cases[r].bytes, cases[r].size, cases[r].count, &err);
        CHECK_MSG(doc, "%s: %s", cases[r].name, err.message);
        const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
        bool same = md->index_count == (cases[r].count == 3 ? 3 : 6);
        for (uint32_t i = 0; same && i < md->index_count; i++) same = md->indices[i] == cases[r].expected[i];
        kiln_gltf_free(doc);
        CHECK_MSG(same, "%s: indices differ", cases[r].name);
    }
}

TEST(points_and_lines_are_skipped_with_one_warning_each) {
    uint8_t none[1] = {0};
    kiln_error err = {0};
    kiln_gltf *doc = load_quad(1, 5121, none, 1, 1, &err);
    CHECK_MSG(doc, "%s", err.message);
    CHECK_EQ_INT(doc->meshes[0].primitive_count, 0);
    CHECK_EQ_INT(doc->warning_count, 1);
    CHECK_STR_CONTAINS(doc->warnings[0], "meshes[0].primitives[0]: mode 1 (lines) is not drawn; skipped");
    kiln_gltf_free(doc);
}

TEST_MAIN(T(each_component_type_reads_as_the_spec_says), T(byte_stride_interleaves_two_attributes),
          T(sparse_values_replace_their_elements), T(index_types_and_strips_and_fans_become_triangle_lists),
          T(points_and_lines_are_skipped_with_one_warning_each))
