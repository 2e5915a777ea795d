/* EXT_meshopt_compression: buffer views compressed here with meshoptimizer's own encoders, from
 * known positions, normals, indices and rotations, loaded back through the glTF loader. Lossless
 * modes must give the originals bit for bit; filtered data must be within the precision the
 * filter's parameters give (worked out at each check). The error rows pin one message per class
 * of bad extension object, run under ASan in the sanitizer build. */
#include <meshoptimizer.h>
#include <stdarg.h>
#include <stdint.h>

#include "gltf_test_files.h"
#include "test.h"

/* ---- a document whose buffer views are compressed into buffers[0] (a data URI) and decode into
 * buffers[1], a fallback buffer with no data ------------------------------------------------ */

typedef struct meshopt_doc {
    uint8_t bin[16384];      /* buffers[0]: the compressed streams, each at a 4-byte boundary */
    size_t bin_size;
    char views[4096];        /* the bufferViews array's items */
    size_t views_size;
    size_t fallback_size;    /* buffers[1].byteLength: the decoded views laid end to end */
    uint32_t view_count;
} meshopt_doc;

static void append(char *out, size_t capacity, size_t *size, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    int n = vsnprintf(out + *size, capacity - *size, fmt, args);
    va_end(args);
    if (n > 0) *size += (size_t)n;
    if (*size >= capacity) {
        fprintf(stderr, "test document too large\n");
        abort();
    }
}

/* Adds a view of `count` x `stride` bytes decoded from `encoded` by mode and filter; the parent
 * view states byteStride only when `parent_stride` (vertex data; index data has none). */
static uint32_t doc_add_view(meshopt_doc *d, const uint8_t *encoded, size_t size, uint32_t count, uint32_t stride,
                             const char *mode, const char *filter, bool parent_stride) {
    if (d->bin_size + size > sizeof d->bin) abort();
    memcpy(d->bin + d->bin_size, encoded, size);
    char stride_member[32] = "";
    if (parent_stride) snprintf(stride_member, sizeof stride_member, ",\"byteStride\":%u", stride);
    append(d->views, sizeof d->views, &d->views_size,
           "%s{\"buffer\":1,\"byteOffset\":%zu,\"byteLength\":%u%s,\"extensions\":{\"EXT_meshopt_compression\":"
           "{\"buffer\":0,\"byteOffset\":%zu,\"byteLength\":%zu,\"byteStride\":%u,\"count\":%u,\"mode\":\"%s\","
           "\"filter\":\"%s\"}}}",
           d->view_count ? "," : "", d->fallback_size, count * stride, stride_member, d->bin_size, size, stride,
           count, mode, filter);
    d->bin_size = (d->bin_size + size + 3) / 4 * 4;
    d->fallback_size += (size_t)count * stride;
    return d->view_count++;
}

static uint32_t doc_add_vertices(meshopt_doc *d, const void *data, uint32_t count, uint32_t stride, const char *filter) {
    uint8_t encoded[8192];
    size_t size = meshopt_encodeVertexBuffer(encoded, sizeof encoded, data, count, stride);
    return doc_add_view(d, encoded, size, count, stride, "ATTRIBUTES", filter, true);
}

/* `rest` holds the document's members after bufferViews ("\"accessors\":[...],..."). */
static kiln_gltf *doc_load(const meshopt_doc *d, const char *rest, kiln_error *err) {
    static char json[16384];
    size_t size = 0;
    append(json, sizeof json, &size,
           "{\"asset\":{\"version\":\"2.0\"},\"extensionsUsed\":[\"EXT_meshopt_compression\"],"
           "\"extensionsRequired\":[\"EXT_meshopt_compression\"],"
           "\"buffers\":[{\"byteLength\":%zu,\"uri\":\"@BUF@\"},"
           "{\"byteLength\":%zu,\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}],"
           "\"bufferViews\":[%s],%s}",
           d->bin_size, d->fallback_size, d->views, rest);
    return test_gltf_load(json, d->bin, d->bin_size, err);
}

/* ---- known data: a cube of 24 vertices (4 per face) at odd coordinates, normals pointing away
 * from its centre (not axis-aligned, so octahedral encoding has work to do), 36 indices ---- */

enum { VERTICES = 24, INDICES = 36 };

static void cube(float positions[VERTICES][3], float normals[VERTICES][4], uint32_t indices[INDICES]) {
    static const int corners[6][4][3] = {
        {{1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}},     {{-1, -1, 1}, {-1, 1, 1}, {-1, 1, -1}, {-1, -1, -1}},
        {{-1, 1, -1}, {-1, 1, 1}, {1, 1, 1}, {1, 1, -1}},     {{-1, -1, 1}, {-1, -1, -1}, {1, -1, -1}, {1, -1, 1}},
        {{-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},     {{1, -1, -1}, {-1, -1, -1}, {-1, 1, -1}, {1, 1, -1}},
    };
    const float scale[3] = {0.731f, 1.9173f, 0.0421f};
    for (int f = 0; f < 6; f++) {
        for (int c = 0; c < 4; c++) {
            int v = f * 4 + c;
            float len = 0;
            for (int k = 0; k < 3; k++) {
                positions[v][k] = corners[f][c][k] * scale[k] + 0.125f * (float)v;
                normals[v][k] = corners[f][c][k] * scale[k];
                len += normals[v][k] * normals[v][k];
            }
            for (int k = 0; k < 3; k++) normals[v][k] /= sqrtf(len);
            normals[v][3] = 0;
        }
        const uint32_t quad[6] = {0, 1, 2, 0, 2, 3};
        for (int i = 0; i < 6; i++) indices[f * 6 + i] = (uint32_t)f * 4 + quad[i];
    }
}

#define MESH_ACCESSORS                                                                                           \
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":24,\"type\":\"VEC3\"},"                   \
    "{\"bufferView\":1,\"componentType\":%d,\"normalized\":%s,\"count\":24,\"type\":\"VEC3\"},"                   \
    "{\"bufferView\":2,\"componentType\":%d,\"count\":36,\"type\":\"SCALAR\"}],"                                 \
    "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1},\"indices\":2}]}]"

TEST(attributes_and_triangles_decode_bit_for_bit) {
    float positions[VERTICES][3], normals[VERTICES][4];
    uint32_t indices[INDICES];
    cube(positions, normals, indices);
    float normals3[VERTICES][3];
    for (int v = 0; v < VERTICES; v++) memcpy(normals3[v], normals[v], sizeof normals3[v]);
    meshopt_doc d = {0};
    doc_add_vertices(&d, positions, VERTICES, 12, "NONE");
    doc_add_vertices(&d, normals3, VERTICES, 12, "NONE");
    uint8_t encoded[1024];
    size_t size = meshopt_encodeIndexBuffer(encoded, sizeof encoded, indices, INDICES);
    doc_add_view(&d, encoded, size, INDICES, 2, "TRIANGLES", "NONE", false);

    char rest[1024];
    snprintf(rest, sizeof rest, MESH_ACCESSORS, 5126, "false", 5123);
    kiln_error err = {0};
    kiln_gltf *doc = doc_load(&d, rest, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    bool same = md->vertex_count == VERTICES && md->index_count == INDICES &&
                memcmp(md->positions, positions, sizeof positions) == 0 &&
                memcmp(md->normals, normals3, sizeof normals3) == 0 && memcmp(md->indices, indices, sizeof indices) == 0;
    kiln_gltf_free(doc);
    CHECK_MSG(same, "decoded positions, normals or indices differ from the originals");
}

TEST(an_index_sequence_decodes_bit_for_bit) {
    float positions[VERTICES][3], normals[VERTICES][4];
    uint32_t indices[INDICES];
    cube(positions, normals, indices);
    meshopt_doc d = {0};
    doc_add_vertices(&d, positions, VERTICES, 12, "NONE");
    float normals3[VERTICES][3] = {{0}};
    doc_add_vertices(&d, normals3, VERTICES, 12, "NONE");
    uint8_t encoded[1024];
    size_t size = meshopt_encodeIndexSequence(encoded, sizeof encoded, indices, INDICES);
    doc_add_view(&d, encoded, size, INDICES, 4, "INDICES", "NONE", false);

    char rest[1024];
    snprintf(rest, sizeof rest, MESH_ACCESSORS, 5126, "false", 5125);
    kiln_error err = {0};
    kiln_gltf *doc = doc_load(&d, rest, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    bool same = md->index_count == INDICES && memcmp(md->indices, indices, sizeof indices) == 0;
    kiln_gltf_free(doc);
    CHECK_MSG(same, "decoded indices differ from the originals");
}

/* Octahedral, 8-bit components (stride 4) at K = 8: the encoder rounds x and y to steps of 1/127
 * of the octahedron, and the decoder writes each component rounded to 1/127 again. Each step
 * moves a unit vector's component by at most about one step, so 2/127 bounds the error. */
TEST(octahedral_normals_decode_within_their_precision) {
    float positions[VERTICES][3], normals[VERTICES][4];
    uint32_t indices[INDICES];
    cube(positions, normals, indices);
    int8_t oct[VERTICES][4];
    meshopt_encodeFilterOct(oct, VERTICES, 4, 8, &normals[0][0]);
    meshopt_doc d = {0};
    doc_add_vertices(&d, positions, VERTICES, 12, "NONE");
    doc_add_vertices(&d, oct, VERTICES, 4, "OCTAHEDRAL");
    uint8_t encoded[1024];
    size_t size = meshopt_encodeIndexBuffer(encoded, sizeof encoded, indices, INDICES);
    doc_add_view(&d, encoded, size, INDICES, 2, "TRIANGLES", "NONE", false);

    char rest[1024];
    snprintf(rest, sizeof rest, MESH_ACCESSORS, 5120, "true", 5123);
    kiln_error err = {0};
    kiln_gltf *doc = doc_load(&d, rest, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    float worst = 0;
    for (int v = 0; v < VERTICES; v++) {
        const float got[3] = {md->normals[v].x, md->normals[v].y, md->normals[v].z};
        for (int k = 0; k < 3; k++) worst = fmaxf(worst, fabsf(got[k] - normals[v][k]));
    }
    kiln_gltf_free(doc);
    CHECK_MSG(worst <= 2.0f / 127.0f, "octahedral normals off by %g (want <= 2/127)", worst);
}

/* Exponential with a 16-bit mantissa shared by each vertex's three components: the exponent is
 * picked so the largest component fits, so every component is within half a step of
 * max|component| / 2^15 (one step 2^e, e = exponent of the largest less 15). */
TEST(exponential_positions_decode_within_their_precision) {
    float positions[VERTICES][3], normals[VERTICES][4];
    uint32_t indices[INDICES];
    cube(positions, normals, indices);
    uint32_t exp[VERTICES][3];
    meshopt_encodeFilterExp(exp, VERTICES, 12, 16, &positions[0][0]);
    meshopt_doc d = {0};
    doc_add_vertices(&d, exp, VERTICES, 12, "EXPONENTIAL");
    float normals3[VERTICES][3] = {{0}};
    doc_add_vertices(&d, normals3, VERTICES, 12, "NONE");
    uint8_t encoded[1024];
    size_t size = meshopt_encodeIndexBuffer(encoded, sizeof encoded, indices, INDICES);
    doc_add_view(&d, encoded, size, INDICES, 2, "TRIANGLES", "NONE", false);

    char rest[1024];
    snprintf(rest, sizeof rest, MESH_ACCESSORS, 5126, "false", 5123);
    kiln_error err = {0};
    kiln_gltf *doc = doc_load(&d, rest, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_mesh_data *md = &doc->meshes[0].primitives[0].mesh;
    bool within = true;
    for (int v = 0; within && v < VERTICES; v++) {
        const float got[3] = {md->positions[v].x, md->positions[v].y, md->positions[v].z};
        float largest = fmaxf(fabsf(positions[v][0]), fmaxf(fabsf(positions[v][1]), fabsf(positions[v][2])));
        for (int k = 0; k < 3; k++)
            within = within && fabsf(got[k] - positions[v][k]) <= largest / 32768.0f;
    }
    kiln_gltf_free(doc);
    CHECK_MSG(within, "exponential positions beyond max|component| / 2^15");
}

/* Quaternion at K = 12: the three smaller components (at most 1/sqrt(2)) are stored in steps of
 * (1/sqrt(2)) / 2047 ~ 3.5e-4 and written back to 16-bit normalized integers (1/32767 more); the
 * largest, rebuilt as sqrt(1 - the others' squares) and at least 1/2, moves by at most
 * sum|x_i| * dx_i / w ~ 3 x 0.71 x 3.6e-4 / 0.5 ~ 1.6e-3. The encoder may negate a quaternion so
 * its largest component is positive (q and -q are one rotation), so the check allows either. */
TEST(quaternion_rotations_decode_within_their_precision) {
    enum { KEYS = 5 };
    const float times[KEYS] = {0, 0.5f, 1, 1.5f, 2};
    float rotations[KEYS][4] = {
        {0, 0, 0, 1}, {0.1f, -0.7f, 0.2f, 0.4f}, {-0.9f, 0.1f, 0.3f, -0.2f}, {0.5f, 0.5f, -0.5f, 0.5f},
        {0.05f, 0.3f, 0.9f, 0.2f},
    };
    for (int k = 0; k < KEYS; k++) {
        float len = sqrtf(rotations[k][0] * rotations[k][0] + rotations[k][1] * rotations[k][1] +
                          rotations[k][2] * rotations[k][2] + rotations[k][3] * rotations[k][3]);
        for (int c = 0; c < 4; c++) rotations[k][c] /= len;
    }
    int16_t quat[KEYS][4];
    meshopt_encodeFilterQuat(quat, KEYS, 8, 12, &rotations[0][0]);
    meshopt_doc d = {0};
    doc_add_vertices(&d, times, KEYS, 4, "NONE");
    doc_add_vertices(&d, quat, KEYS, 8, "QUATERNION");
    const char *rest =
        "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":5,\"type\":\"SCALAR\"},"
        "{\"bufferView\":1,\"componentType\":5122,\"normalized\":true,\"count\":5,\"type\":\"VEC4\"}],"
        "\"nodes\":[{}],\"animations\":[{\"samplers\":[{\"input\":0,\"output\":1}],"
        "\"channels\":[{\"sampler\":0,\"target\":{\"node\":0,\"path\":\"rotation\"}}]}]";
    kiln_error err = {0};
    kiln_gltf *doc = doc_load(&d, rest, &err);
    CHECK_MSG(doc, "%s", err.message);
    const kiln_gltf_animation_sampler *s = &doc->animations[0].samplers[0];
    bool times_same = s->key_count == KEYS && memcmp(s->times, times, sizeof times) == 0;
    float worst = 0;
    for (int k = 0; s->value_count == KEYS * 4 && k < KEYS; k++) {
        float same = 0, negated = 0;
        for (int c = 0; c < 4; c++) {
            same = fmaxf(same, fabsf(s->values[k * 4 + c] - rotations[k][c]));
            negated = fmaxf(negated, fabsf(s->values[k * 4 + c] + rotations[k][c]));
        }
        worst = fmaxf(worst, fminf(same, negated));
    }
    bool counted = s->value_count == KEYS * 4;
    kiln_gltf_free(doc);
    CHECK_MSG(times_same, "decoded keyframe times differ from the originals");
    CHECK(counted);
    CHECK_MSG(worst <= 2e-3f, "quaternions off by %g (want <= 2e-3)", worst);
}

/* Before, a file that required the extension was refused; now it loads, with no warning. */
TEST(a_file_requiring_the_extension_loads) {
    const float triangle[3][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    meshopt_doc d = {0};
    doc_add_vertices(&d, triangle, 3, 12, "NONE");
    kiln_error err = {0};
    kiln_gltf *doc = doc_load(&d,
                              "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
                              "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]",
                              &err);
    CHECK_MSG(doc, "%s", err.message);
    uint32_t warnings = doc->warning_count;
    float x = doc->meshes[0].primitives[0].mesh.positions[1].x;
    kiln_gltf_free(doc);
    CHECK_EQ_INT(warnings, 0);
    CHECK_NEAR(x, 1.0f, 0.0f);
}

/* ---- one row per class of bad input ------------------------------------------------------- */

/* buffers[0] holds 36 bytes (three float positions, which are no meshopt stream); buffers[1] is a
 * fallback buffer of 4 GiB, so parent views of any size fit it and no row fails on the parent. */
#define HEAD                                                                                                     \
    "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":36,\"uri\":\"@BUF@\"},"                        \
    "{\"byteLength\":4294967296,\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}],"
/* A view of `parent` members whose extension object has `ext` members. */
#define VIEW(parent, ext)                                                                                        \
    "\"bufferViews\":[{\"buffer\":1," parent ",\"extensions\":{\"EXT_meshopt_compression\":{" ext "}}}]}"
#define P36 "\"byteLength\":36"
#define X36 "\"buffer\":0,\"byteLength\":36"
#define PREFIX "test.gltf: bufferViews[0].extensions.EXT_meshopt_compression"

static const struct {
    const char *id, *json, *message;
    int code;
} rows[] = {
    {"1.1", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"count\":3"), PREFIX ".mode: is required", KILN_ERR_FORMAT},
    {"1.2", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"count\":3,\"mode\":\"VERTICES\""),
     PREFIX ".mode: \"VERTICES\" is not ATTRIBUTES, TRIANGLES or INDICES", KILN_ERR_FORMAT},
    {"1.3", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\",\"filter\":\"COLOR\""),
     PREFIX ".filter: \"COLOR\" is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL", KILN_ERR_FORMAT},
    {"1.4", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"mode\":\"ATTRIBUTES\""), PREFIX ".count: is required",
     KILN_ERR_FORMAT},
    {"1.5", HEAD VIEW(P36, "\"byteLength\":36,\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".buffer: is required", KILN_ERR_FORMAT},
    {"2.1", HEAD VIEW(P36, X36 ",\"byteStride\":6,\"count\":6,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".byteStride: 6 is not a multiple of 4 in 4..256 (mode ATTRIBUTES)", KILN_ERR_FORMAT},
    {"2.2", HEAD VIEW("\"byteLength\":1028", X36 ",\"byteStride\":257,\"count\":4,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".byteStride: 257 is too large (at most 256)", KILN_ERR_FORMAT},
    {"2.3", HEAD VIEW("\"byteLength\":14", X36 ",\"byteStride\":2,\"count\":7,\"mode\":\"TRIANGLES\""),
     PREFIX ".count: 7 is not a multiple of 3 (mode TRIANGLES)", KILN_ERR_FORMAT},
    {"2.4", HEAD VIEW("\"byteLength\":9", X36 ",\"byteStride\":3,\"count\":3,\"mode\":\"INDICES\""),
     PREFIX ".byteStride: 3 is not 2 or 4 (mode INDICES)", KILN_ERR_FORMAT},
    {"2.5", HEAD VIEW("\"byteLength\":12", X36 ",\"byteStride\":4,\"count\":3,\"mode\":\"TRIANGLES\",\"filter\":\"OCTAHEDRAL\""),
     PREFIX ".filter: OCTAHEDRAL needs mode ATTRIBUTES, not TRIANGLES", KILN_ERR_FORMAT},
    {"2.6", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\",\"filter\":\"OCTAHEDRAL\""),
     PREFIX ".byteStride: 12 is not 4 or 8 (filter OCTAHEDRAL)", KILN_ERR_FORMAT},
    {"2.7", HEAD VIEW("\"byteLength\":12", X36 ",\"byteStride\":4,\"count\":3,\"mode\":\"ATTRIBUTES\",\"filter\":\"QUATERNION\""),
     PREFIX ".byteStride: 4 is not 8 (filter QUATERNION)", KILN_ERR_FORMAT},
    {"2.8", HEAD VIEW("\"byteLength\":0", X36 ",\"byteStride\":4,\"count\":0,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".count: must be at least 1", KILN_ERR_FORMAT},
    {"3.1", HEAD VIEW(P36 ",\"byteStride\":12", X36 ",\"byteStride\":4,\"count\":9,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".byteStride: 4 differs from bufferViews[0].byteStride 12", KILN_ERR_FORMAT},
    {"3.2", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"count\":4,\"mode\":\"ATTRIBUTES\""),
     PREFIX ": count 4 x byteStride 12 is 48 bytes, but bufferViews[0].byteLength is 36", KILN_ERR_FORMAT},
    {"4.1", HEAD VIEW(P36, "\"buffer\":2,\"byteLength\":36,\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".buffer: 2 is out of range (2 buffers)", KILN_ERR_FORMAT},
    {"4.2", HEAD VIEW(P36, "\"buffer\":1,\"byteLength\":36,\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\""),
     PREFIX ".buffer: buffers[1] is a fallback buffer (it holds no data)", KILN_ERR_FORMAT},
    {"4.3", HEAD VIEW(P36, X36 ",\"byteOffset\":4,\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\""),
     PREFIX ": bytes 4..40 are past the end of buffers[0] (36 bytes)", KILN_ERR_FORMAT},
    {"5.1", HEAD VIEW("\"byteLength\":2147483648", X36 ",\"byteStride\":8,\"count\":268435456,\"mode\":\"ATTRIBUTES\""),
     PREFIX ": 2147483648 decoded bytes would pass the limit of 1073741824 for the file (0 decoded before)",
     KILN_ERR_CAPACITY},
    {"5.2", HEAD VIEW("\"byteLength\":4800", X36 ",\"byteStride\":12,\"count\":400,\"mode\":\"ATTRIBUTES\""),
     PREFIX ": 4800 decoded bytes from 36 compressed bytes is more than mode ATTRIBUTES can encode (64 per byte)",
     KILN_ERR_FORMAT},
    {"5.3", HEAD VIEW("\"byteLength\":720", X36 ",\"byteStride\":4,\"count\":180,\"mode\":\"TRIANGLES\""),
     PREFIX ": 720 decoded bytes from 36 compressed bytes is more than mode TRIANGLES can encode (12 per byte)",
     KILN_ERR_FORMAT},
    {"6.1", HEAD VIEW(P36, X36 ",\"byteStride\":12,\"count\":3,\"mode\":\"ATTRIBUTES\""),
     PREFIX ": the ATTRIBUTES data does not decode (meshoptimizer error -1)", KILN_ERR_FORMAT},
    {"6.2", HEAD VIEW("\"byteLength\":12", X36 ",\"byteStride\":4,\"count\":3,\"mode\":\"TRIANGLES\""),
     PREFIX ": the TRIANGLES data does not decode (meshoptimizer error -1)", KILN_ERR_FORMAT},
    {"6.3", HEAD VIEW("\"byteLength\":12", X36 ",\"byteStride\":4,\"count\":3,\"mode\":\"INDICES\""),
     PREFIX ": the INDICES data does not decode (meshoptimizer error -1)", KILN_ERR_FORMAT},
    {"7.1", HEAD "\"bufferViews\":[{\"buffer\":1,\"byteLength\":36}]}",
     "test.gltf: bufferViews[0].buffer: buffers[1] is an EXT_meshopt_compression fallback buffer (it holds no data), "
     "but this view is not compressed", KILN_ERR_FORMAT},
    {"7.2", "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":4,"
     "\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":1}}}]}",
     "test.gltf: buffers[0].extensions.EXT_meshopt_compression.fallback: is not a boolean", KILN_ERR_FORMAT},
    {"7.3", HEAD "\"bufferViews\":[{\"buffer\":1,\"byteLength\":36,\"extensions\":{\"EXT_meshopt_compression\":7}}]}",
     "test.gltf: bufferViews[0].extensions.EXT_meshopt_compression: is not an object", KILN_ERR_FORMAT},
};

TEST(each_class_of_bad_extension_fails_with_its_message) {
    const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int failed = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        kiln_error err = {0};
        kiln_gltf *doc = test_gltf_load(rows[r].json, triangle, sizeof triangle, &err);
        if (doc || strcmp(err.message, rows[r].message) != 0 || err.code != rows[r].code) {
            fprintf(stderr, "row %s: got %s (code %d)\n  \"%s\"\n  want \"%s\" (code %d)\n", rows[r].id,
                    doc ? "a document" : "the error", (int)err.code, err.message, rows[r].message, rows[r].code);
            failed++;
        }
        kiln_gltf_free(doc);
    }
    CHECK_EQ_INT(failed, 0);
}

/* Every prefix of a good compressed stream fails cleanly: the decoder is handed exactly the cut
 * byteLength, and under ASan any read past the buffer's memory would stop the test. */
TEST(every_truncation_of_a_stream_fails_cleanly) {
    float positions[VERTICES][3], normals[VERTICES][4];
    uint32_t indices[INDICES];
    cube(positions, normals, indices);
    uint8_t vertices[2048], triangles[256];
    size_t vertex_size = meshopt_encodeVertexBuffer(vertices, sizeof vertices, positions, VERTICES, 12);
    size_t triangle_size = meshopt_encodeIndexBuffer(triangles, sizeof triangles, indices, INDICES);
    for (int stream = 0; stream < 2; stream++) {
        const uint8_t *bytes = stream ? triangles : vertices;
        size_t size = stream ? triangle_size : vertex_size;
        for (size_t cut = 1; cut < size; cut++) {
            char json[1024];
            snprintf(json, sizeof json,
                     "{\"asset\":{\"version\":\"2.0\"},\"buffers\":[{\"byteLength\":%zu,\"uri\":\"@BUF@\"},"
                     "{\"byteLength\":288,\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}],"
                     "\"bufferViews\":[{\"buffer\":1,\"byteLength\":%d,\"extensions\":{\"EXT_meshopt_compression\":"
                     "{\"buffer\":0,\"byteLength\":%zu,\"byteStride\":%d,\"count\":%d,\"mode\":\"%s\"}}}]}",
                     cut, stream ? 72 : 288, cut, stream ? 2 : 12, stream ? INDICES : VERTICES,
                     stream ? "TRIANGLES" : "ATTRIBUTES");
            kiln_error err = {0};
            kiln_gltf *doc = test_gltf_load(json, bytes, cut, &err);
            kiln_gltf_free(doc);
            CHECK_MSG(!doc, "a %s stream cut at %zu of %zu bytes loaded", stream ? "TRIANGLES" : "ATTRIBUTES", cut, size);
            CHECK_STR_CONTAINS(err.message, PREFIX ": ");
        }
    }
}

TEST_MAIN(T(attributes_and_triangles_decode_bit_for_bit), T(an_index_sequence_decodes_bit_for_bit),
          T(octahedral_normals_decode_within_their_precision), T(exponential_positions_decode_within_their_precision),
          T(quaternion_rotations_decode_within_their_precision), T(a_file_requiring_the_extension_loads),
          T(each_class_of_bad_extension_fails_with_its_message), T(every_truncation_of_a_stream_fails_cleanly))
