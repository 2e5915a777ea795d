/* One row per class of bad input, each with the exact message (SQLite style: numbered rows, the
 * test suite is the specification). Every row must fail cleanly: no crash, no read out of bounds
 * (this runs under ASan in the sanitizer build), nothing allocated from an unchecked size. */
#include <stdint.h>

#include "gltf_test_files.h"
#include "test.h"

/* A valid one-triangle document: 36 bytes of float positions in buffers[0]. */
#define HEAD "{\"asset\":{\"version\":\"2.0\"},"
#define BUF36 "\"buffers\":[{\"byteLength\":36,\"uri\":\"@BUF@\"}],"
#define VIEW36 "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36}],"
#define POS "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}],"
#define MESH "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0}}]}]"

static const struct {
    const char *id, *json, *message;
} rows[] = {
    {"1.1", "{", "test.gltf: JSON: 1:1: string or '}' expected near end of file"},
    {"1.2", "[]", "test.gltf: JSON: the top level is not an object"},
    {"1.3", "{\"asset\":{\"version\":\"1.0\"}}", "test.gltf: asset.version: \"1.0\" is not supported (glTF 2.x only)"},
    {"1.4", "{}", "test.gltf: asset: is required"},
    {"2.1", HEAD "\"extensionsRequired\":[\"KHR_draco_mesh_compression\"]}",
     "test.gltf: extensionsRequired[0]: KHR_draco_mesh_compression is not supported"},
    {"3.1", HEAD "\"buffers\":[{\"byteLength\":36,\"uri\":\"data:application/octet-stream,AAAA\"}]}",
     "test.gltf: buffers[0].uri: data URI is not base64 (want \"data:<type>;base64,...\")"},
    {"3.2", HEAD "\"buffers\":[{\"byteLength\":3,\"uri\":\"data:application/octet-stream;base64,AA*A\"}]}",
     "test.gltf: buffers[0].uri: data URI: invalid base64 character '*' at offset 2"},
    {"3.3", HEAD "\"buffers\":[{\"byteLength\":40,\"uri\":\"@BUF@\"}]}",
     "test.gltf: buffers[0].byteLength: 40 is more than the 36 bytes present"},
    {"3.4", HEAD "\"buffers\":[{\"byteLength\":4,\"uri\":\"missing%20file.bin\"}]}",
     "test.gltf: buffers[0].uri: missing file.bin: cannot open: No such file or directory"},
    {"3.5", HEAD "\"buffers\":[{\"byteLength\":4,\"uri\":\"bad%2\"}]}",
     "test.gltf: buffers[0].uri: bad percent escape at 3 in \"bad%2\""},
    {"3.6", HEAD "\"buffers\":[{\"byteLength\":4,\"uri\":\"/etc/passwd\"}]}",
     "test.gltf: buffers[0].uri: \"/etc/passwd\" is not a relative file path or a data URI"},
    {"3.7", HEAD "\"buffers\":[{\"byteLength\":4}]}",
     "test.gltf: buffers[0]: has no uri and the file has no GLB binary chunk"},
    {"4.1", HEAD BUF36 "\"bufferViews\":[{\"buffer\":0,\"byteOffset\":8,\"byteLength\":32}]}",
     "test.gltf: bufferViews[0]: bytes 8..40 are past the end of buffers[0] (36 bytes)"},
    {"4.2", HEAD BUF36 "\"bufferViews\":[{\"buffer\":1,\"byteLength\":36}]}",
     "test.gltf: bufferViews[0].buffer: 1 is out of range (1 buffers)"},
    {"5.1", HEAD BUF36 VIEW36 "\"accessors\":[{\"bufferView\":9,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]}",
     "test.gltf: accessors[0].bufferView: 9 is out of range (1 buffer views)"},
    {"5.2", HEAD BUF36 VIEW36 "\"accessors\":[{\"bufferView\":0,\"byteOffset\":4,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]}",
     "test.gltf: accessors[0]: its elements needs bytes 4..40 of bufferViews[0], which has 36"},
    {"5.3", HEAD BUF36 "\"bufferViews\":[{\"buffer\":0,\"byteLength\":36,\"byteStride\":8}],"
     "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"}]}",
     "test.gltf: accessors[0]: bufferViews[0].byteStride 8 is smaller than the element (12 bytes)"},
    {"5.4", HEAD BUF36 VIEW36 "\"accessors\":[{\"bufferView\":0,\"componentType\":5127,\"count\":3,\"type\":\"VEC3\"}]}",
     "test.gltf: accessors[0].componentType: 5127 is not a glTF component type"},
    {"5.5", HEAD "\"accessors\":[{\"componentType\":5126,\"count\":4000000000,\"type\":\"VEC3\"}]}",
     "test.gltf: accessors[0].count: 4000000000 elements without a bufferView (at most 16777216)"},
    {"5.6", HEAD BUF36 VIEW36 "\"accessors\":[{\"componentType\":5126,\"count\":3,\"type\":\"VEC3\",\"sparse\":{\"count\":1,"
     "\"indices\":{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5125},\"values\":{\"bufferView\":0}}}]," MESH "}",
     "test.gltf: accessors[0].sparse.indices: index 1065353216 at 0 is out of range (3 elements)"},
    {"6.1", HEAD BUF36 VIEW36 POS "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":0}]}]}",
     "test.gltf: meshes[0].primitives[0].indices: accessors[0] is not a SCALAR of unsigned integers"},
    {"6.2", HEAD BUF36 VIEW36 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
     "{\"bufferView\":0,\"byteOffset\":12,\"componentType\":5125,\"count\":3,\"type\":\"SCALAR\"}],"
     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"indices\":1}]}]}",
     "test.gltf: meshes[0].primitives[0].indices: index 1065353216 at 0 is out of range (3 vertices)"},
    {"6.3", HEAD BUF36 VIEW36 "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":3,\"type\":\"VEC3\"},"
     "{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
     "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0,\"NORMAL\":1}}]}]}",
     "test.gltf: meshes[0].primitives[0].attributes.NORMAL: 2 elements, but POSITION has 3"},
    {"6.4", HEAD "\"meshes\":[{\"primitives\":[{\"attributes\":{}}]}]}",
     "test.gltf: meshes[0].primitives[0].attributes.POSITION: is required"},
    {"6.5", HEAD BUF36 VIEW36 POS "\"meshes\":[{\"primitives\":[{\"attributes\":{\"POSITION\":0},\"material\":0}]}]}",
     "test.gltf: meshes[0].primitives[0].material: 0 is out of range (0 materials)"},
    {"7.1", HEAD "\"nodes\":[{\"children\":[1]},{\"children\":[0]}]}",
     "test.gltf: nodes[0]: is its own ancestor (the hierarchy has a cycle)"},
    {"7.2", HEAD "\"nodes\":[{\"children\":[0]}]}", "test.gltf: nodes[0]: is its own ancestor (the hierarchy has a cycle)"},
    {"7.3", HEAD "\"nodes\":[{\"children\":[2]},{\"children\":[2]},{}]}",
     "test.gltf: nodes[1].children[0]: nodes[2] is already a child of nodes[0]"},
    {"7.4", HEAD "\"nodes\":[{\"children\":[5]}]}", "test.gltf: nodes[0].children[0]: is not an index below 1 (the node count)"},
    {"7.5", HEAD "\"nodes\":[{\"children\":[1]},{}],\"scenes\":[{\"nodes\":[1]}]}",
     "test.gltf: scenes[0].nodes[0]: nodes[1] is not a root (a child of nodes[0])"},
    {"7.6", HEAD "\"nodes\":[{\"matrix\":[1,0,0]}]}", "test.gltf: nodes[0].matrix: is not an array of 16 numbers"},
    {"7.7", HEAD "\"nodes\":[{}],\"scene\":1,\"scenes\":[{\"nodes\":[0]}]}", "test.gltf: scene: 1 is out of range (1 scenes)"},
    {"8.1", HEAD BUF36 VIEW36 "\"images\":[{\"bufferView\":0,\"mimeType\":\"image/png\"}]}",
     "test.gltf: images[0].bufferView: does not decode: <memory, 36 bytes>: cannot decode image: unknown image type"},
    {"8.2", HEAD "\"images\":[{}]}", "test.gltf: images[0]: has neither uri nor bufferView"},
    {"8.3", HEAD "\"textures\":[{\"source\":3}]," "\"materials\":[{\"pbrMetallicRoughness\":{\"baseColorTexture\":{\"index\":0}}}]}",
     "test.gltf: textures[0].source: 3 is out of range (0 images)"},
    {"8.4", HEAD "\"samplers\":[{\"wrapS\":1}]}", "test.gltf: samplers[0].wrapS: 1 is not a glTF wrap mode"},
    {"8.5", HEAD "\"materials\":[{\"alphaMode\":\"CLIP\"}]}",
     "test.gltf: materials[0].alphaMode: \"CLIP\" is not OPAQUE, MASK or BLEND"},
    {"9.1", HEAD "\"cameras\":[{\"type\":\"fisheye\"}]}", "test.gltf: cameras[0].type: \"fisheye\" is not perspective or orthographic"},
    {"9.3", HEAD "\"cameras\":[{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":0,\"ymag\":1,\"znear\":0,\"zfar\":9}}]}",
     "test.gltf: cameras[0].orthographic: xmag and ymag must be finite and not zero"},
    {"9.4", HEAD "\"cameras\":[{\"type\":\"orthographic\",\"orthographic\":{\"xmag\":1,\"ymag\":1,\"znear\":-1,\"zfar\":9}}]}",
     "test.gltf: cameras[0].orthographic: znear must be 0 or more and zfar above 0"},
    {"9.2", HEAD "\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[{\"type\":\"area\"}]}}}",
     "test.gltf: extensions.KHR_lights_punctual.lights[0].type: \"area\" is not directional, point or spot"},
};

TEST(each_class_of_bad_json_fails_with_its_message) {
    const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int failed = 0;
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        kiln_error err = {0};
        kiln_gltf *doc = test_gltf_load(rows[r].json, triangle, sizeof triangle, &err);
        if (doc || strcmp(err.message, rows[r].message) != 0) {
            fprintf(stderr, "row %s: got %s\n  \"%s\"\n  want \"%s\"\n", rows[r].id, doc ? "a document" : "the error",
                    err.message, rows[r].message);
            failed++;
        }
        kiln_gltf_free(doc);
    }
    CHECK_EQ_INT(failed, 0);
}

/* A GLB of `json` (padded to 4 with spaces) and an optional BIN chunk. */
static size_t make_glb(uint8_t *out, const char *json, const void *bin, uint32_t bin_size) {
    uint32_t json_size = (uint32_t)(strlen(json) + 3) / 4 * 4;
    uint32_t total = 12 + 8 + json_size + (bin ? 8 + bin_size : 0);
    uint32_t header[5] = {0x46546C67u, 2, total, json_size, 0x4E4F534Au};
    memcpy(out, header, 20);
    memset(out + 20, ' ', json_size);
    memcpy(out + 20, json, strlen(json));
    if (bin) {
        uint32_t chunk[2] = {bin_size, 0x004E4942u};
        memcpy(out + 20 + json_size, chunk, 8);
        memcpy(out + 28 + json_size, bin, bin_size);
    }
    return total;
}

TEST(a_good_glb_loads_its_binary_chunk) {
    const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint8_t glb[1024];
    size_t size = make_glb(glb, HEAD "\"buffers\":[{\"byteLength\":36}]," VIEW36 POS MESH "}", triangle, 36);
    kiln_error err = {0};
    kiln_gltf *doc = kiln_gltf_load_memory(glb, size, "test.glb", NULL, &err);
    CHECK_MSG(doc, "%s", err.message);
    CHECK_EQ_INT(doc->meshes[0].primitives[0].mesh.vertex_count, 3);
    kiln_gltf_free(doc);
}

/* Each row damages one field of a good GLB (the byte at `at`, written as a little-endian u32) or
 * cuts the file at `cut` bytes. */
TEST(each_class_of_bad_glb_fails_with_its_message) {
    static const struct {
        const char *id;
        size_t at;
        uint32_t value;
        size_t cut;
        const char *message;
    } glb_rows[] = {
        {"10.1", 0, 0x46546C66u, 0, "test.glb: GLB header: bad magic 0x46546c66 (want 0x46546c67, \"glTF\")"},
        {"10.2", 4, 1, 0, "test.glb: GLB header: version 1 is not supported (only 2)"},
        {"10.3", 8, 100000, 0, "test.glb: GLB header: length 100000 is past the end of the file (300 bytes)"},
        {"10.4", 12, 5000, 0, "test.glb: GLB chunk 0: length 5000 is past the end of the file (280 bytes left)"},
        {"10.5", 16, 0x004E4942u, 0, "test.glb: GLB chunk 0: type 0x004e4942 is not JSON"},
        {"10.6", 0, 0, 7, "test.glb: GLB header: 7 bytes, need 12"},
        {"10.7", 8, 260, 0, "test.glb: GLB chunk 1: header truncated (4 bytes left, need 8)"},
        {"10.8", 256, 40, 0, "test.glb: GLB chunk 1: length 40 is past the end of the file (36 bytes left)"},
    };
    const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    int failed = 0;
    for (size_t r = 0; r < sizeof glb_rows / sizeof glb_rows[0]; r++) {
        uint8_t glb[1024];
        size_t size = make_glb(glb, HEAD "\"buffers\":[{\"byteLength\":36}]," VIEW36 POS MESH "}", triangle, 36);
        if (glb_rows[r].cut) size = glb_rows[r].cut;
        else memcpy(glb + glb_rows[r].at, &glb_rows[r].value, 4);
        kiln_error err = {0};
        kiln_gltf *doc = kiln_gltf_load_memory(glb, size, "test.glb", NULL, &err);
        if (doc || strcmp(err.message, glb_rows[r].message) != 0) {
            fprintf(stderr, "row %s (%zu bytes): got \"%s\"\n  want \"%s\"\n", glb_rows[r].id, size, err.message,
                    glb_rows[r].message);
            failed++;
        }
        kiln_gltf_free(doc);
    }
    CHECK_EQ_INT(failed, 0);
}

/* Every prefix of a good GLB fails cleanly or loads: none reads past what it was given. */
TEST(every_truncation_of_a_glb_fails_cleanly) {
    const float triangle[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    uint8_t glb[1024];
    size_t size = make_glb(glb, HEAD "\"buffers\":[{\"byteLength\":36}]," VIEW36 POS MESH "}", triangle, 36);
    for (size_t cut = 0; cut < size; cut++) {
        uint8_t *copy = malloc(cut + 1); /* exactly `cut` bytes readable, so ASan sees any overread */
        memcpy(copy, glb, cut);
        kiln_error err = {0};
        kiln_gltf *doc = kiln_gltf_load_memory(copy, cut, "test.glb", NULL, &err);
        free(copy);
        CHECK_MSG(!doc, "a GLB cut at %zu bytes loaded", cut);
        CHECK_STR_CONTAINS(err.message, "test.glb: ");
    }
}

TEST_MAIN(T(each_class_of_bad_json_fails_with_its_message), T(a_good_glb_loads_its_binary_chunk),
          T(each_class_of_bad_glb_fails_with_its_message), T(every_truncation_of_a_glb_fails_cleanly))
