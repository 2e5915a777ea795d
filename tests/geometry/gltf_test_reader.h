/* A test-only glTF 2.0 reader: just enough to pull one triangle primitive's POSITION, NORMAL,
 * TEXCOORD_0, TANGENT and indices into a kiln_mesh_data, from a .gltf with external .bin
 * buffers or from a .glb. Float attributes and u8/u16/u32 indices only; no sparse accessors, no
 * data: URIs. Not the asset loader: it exists so tests can compare against shipped data. */
#ifndef KILN_GLTF_TEST_READER_H
#define KILN_GLTF_TEST_READER_H

#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/geometry/mesh_data.h>

#define GLTF_TEST_MAX_BUFFERS 8

typedef struct gltf_test_blob {
    uint8_t *data;
    size_t size;
} gltf_test_blob;

typedef struct gltf_test_file {
    json_t *root;
    gltf_test_blob buffers[GLTF_TEST_MAX_BUFFERS];
    size_t buffer_count;
    uint8_t *file;     /* the whole file; a .glb's BIN chunk points into it */
    bool owns_buffers; /* .gltf: each buffer was read from its own file */
    char why[512];
} gltf_test_file;

static inline bool gltf_test_fail(gltf_test_file *g, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(g->why, sizeof g->why, fmt, args);
    va_end(args);
    return false;
}

static inline bool gltf_test_read_all(const char *path, uint8_t **out, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool ok = fseek(f, 0, SEEK_END) == 0;
    long len = ok ? ftell(f) : -1;
    ok = ok && len >= 0 && fseek(f, 0, SEEK_SET) == 0;
    *out = ok ? malloc((size_t)len + 1) : NULL;
    ok = *out && fread(*out, 1, (size_t)len, f) == (size_t)len;
    fclose(f);
    if (!ok) {
        free(*out);
        *out = NULL;
        return false;
    }
    *size = (size_t)len;
    return true;
}

static inline uint32_t gltf_test_u32le(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void gltf_test_close(gltf_test_file *g) {
    json_decref(g->root);
    if (g->owns_buffers)
        for (size_t i = 0; i < g->buffer_count; i++) free(g->buffers[i].data);
    free(g->file);
    memset(g, 0, sizeof *g);
}

static inline bool gltf_test_open_glb(gltf_test_file *g, size_t size) {
    const uint8_t *f = g->file;
    if (size < 20 || gltf_test_u32le(f + 4) != 2) return gltf_test_fail(g, "glb: unsupported header");
    uint32_t json_len = gltf_test_u32le(f + 12);
    if (gltf_test_u32le(f + 16) != 0x4E4F534Au || 20 + (size_t)json_len > size)
        return gltf_test_fail(g, "glb: first chunk is not JSON");
    json_error_t je;
    g->root = json_loadb((const char *)f + 20, json_len, 0, &je);
    if (!g->root) return gltf_test_fail(g, "glb: JSON: %s", je.text);
    size_t bin = 20 + (size_t)json_len;
    if (bin + 8 <= size && gltf_test_u32le(f + bin + 4) == 0x004E4942u) {
        size_t len = gltf_test_u32le(f + bin);
        if (bin + 8 + len > size) return gltf_test_fail(g, "glb: BIN chunk runs past the file");
        g->buffers[0] = (gltf_test_blob){g->file + bin + 8, len};
        g->buffer_count = 1;
    }
    return true;
}

static inline bool gltf_test_open_gltf(gltf_test_file *g, const char *path, size_t size) {
    json_error_t je;
    g->root = json_loadb((const char *)g->file, size, 0, &je);
    if (!g->root) return gltf_test_fail(g, "%s: JSON: %s", path, je.text);
    json_t *buffers = json_object_get(g->root, "buffers");
    size_t count = json_array_size(buffers);
    if (count > GLTF_TEST_MAX_BUFFERS) return gltf_test_fail(g, "%s: %zu buffers, at most %d", path, count, GLTF_TEST_MAX_BUFFERS);
    g->owns_buffers = true;
    const char *slash = strrchr(path, '/');
    int dir_len = slash ? (int)(slash - path + 1) : 0;
    for (size_t i = 0; i < count; i++) {
        const char *uri = json_string_value(json_object_get(json_array_get(buffers, i), "uri"));
        if (!uri || strncmp(uri, "data:", 5) == 0) return gltf_test_fail(g, "%s: buffer %zu is not an external file", path, i);
        char full[1024];
        snprintf(full, sizeof full, "%.*s%s", dir_len, path, uri);
        if (!gltf_test_read_all(full, &g->buffers[i].data, &g->buffers[i].size))
            return gltf_test_fail(g, "cannot read %s", full);
        g->buffer_count = i + 1;
    }
    return true;
}

static inline bool gltf_test_open(gltf_test_file *g, const char *path) {
    memset(g, 0, sizeof *g);
    size_t size;
    if (!gltf_test_read_all(path, &g->file, &size)) return gltf_test_fail(g, "cannot read %s", path);
    if (size >= 4 && memcmp(g->file, "glTF", 4) == 0) return gltf_test_open_glb(g, size);
    return gltf_test_open_gltf(g, path, size);
}

static inline int gltf_test_int(json_t *obj, const char *key, int fallback) {
    json_t *v = json_object_get(obj, key);
    return json_is_integer(v) ? (int)json_integer_value(v) : fallback;
}

/* Reads accessor `index` as `count` elements of `components` values each into out (floats, or
 * uint32 for indices). Returns false with g->why on anything this reader does not handle. */
static inline bool gltf_test_accessor(gltf_test_file *g, int index, uint32_t components, bool as_indices,
                                      void *out, uint32_t count) {
    json_t *acc = json_array_get(json_object_get(g->root, "accessors"), (size_t)index);
    if (!acc) return gltf_test_fail(g, "accessor %d missing", index);
    if (json_object_get(acc, "sparse")) return gltf_test_fail(g, "accessor %d is sparse", index);
    static const char *const types[] = {NULL, "SCALAR", "VEC2", "VEC3", "VEC4"};
    const char *type = json_string_value(json_object_get(acc, "type"));
    if (!type || components > 4 || strcmp(type, types[components]) != 0)
        return gltf_test_fail(g, "accessor %d is %s, wanted %s", index, type ? type : "?", types[components]);
    if ((uint32_t)gltf_test_int(acc, "count", -1) != count)
        return gltf_test_fail(g, "accessor %d has %d elements, wanted %u", index, gltf_test_int(acc, "count", -1), count);
    int component_type = gltf_test_int(acc, "componentType", 0);
    uint32_t component_size = component_type == 5126 || component_type == 5125 ? 4 : component_type == 5123 ? 2
                            : component_type == 5121 ? 1 : 0;
    if (as_indices ? (component_size == 0 || component_type == 5126) : component_type != 5126)
        return gltf_test_fail(g, "accessor %d: component type %d not handled", index, component_type);
    json_t *view = json_array_get(json_object_get(g->root, "bufferViews"), (size_t)gltf_test_int(acc, "bufferView", -1));
    int buffer = gltf_test_int(view, "buffer", -1);
    if (!view || buffer < 0 || (size_t)buffer >= g->buffer_count) return gltf_test_fail(g, "accessor %d: no buffer", index);
    size_t element = (size_t)component_size * components;
    size_t stride = (size_t)gltf_test_int(view, "byteStride", 0);
    if (stride == 0) stride = element;
    size_t start = (size_t)gltf_test_int(view, "byteOffset", 0) + (size_t)gltf_test_int(acc, "byteOffset", 0);
    size_t view_end = (size_t)gltf_test_int(view, "byteOffset", 0) + (size_t)gltf_test_int(view, "byteLength", 0);
    if (count > 0 && (start + stride * (count - 1) + element > view_end || view_end > g->buffers[buffer].size))
        return gltf_test_fail(g, "accessor %d runs past its buffer", index);
    const uint8_t *src = g->buffers[buffer].data + start;
    for (uint32_t i = 0; i < count; i++, src += stride) {
        if (!as_indices) {
            memcpy((float *)out + (size_t)i * components, src, element);
            continue;
        }
        uint32_t v = component_size == 4 ? gltf_test_u32le(src) : component_size == 2 ? (uint32_t)(src[0] | src[1] << 8) : src[0];
        ((uint32_t *)out)[i] = v;
    }
    return true;
}

/* Loads primitive `prim` of mesh `mesh` from `path` into md (whose tangents stream exists only
 * when the file has TANGENT; normals and uv0 stay zero when the file lacks them). On failure
 * returns false with md zeroed and the reason in why. */
static inline bool gltf_test_load_primitive(const char *path, uint32_t mesh, uint32_t prim, kiln_mesh_data *md,
                                            char *why, size_t why_size) {
    memset(md, 0, sizeof *md);
    gltf_test_file g;
    bool ok = gltf_test_open(&g, path);
    json_t *p = ok ? json_array_get(json_object_get(json_array_get(json_object_get(g.root, "meshes"), mesh), "primitives"), prim)
                   : NULL;
    json_t *attrs = json_object_get(p, "attributes");
    int position = gltf_test_int(attrs, "POSITION", -1), normal = gltf_test_int(attrs, "NORMAL", -1);
    int uv = gltf_test_int(attrs, "TEXCOORD_0", -1), tangent = gltf_test_int(attrs, "TANGENT", -1);
    int indices = gltf_test_int(p, "indices", -1);
    if (ok && (!p || position < 0)) ok = gltf_test_fail(&g, "%s: mesh %u primitive %u has no POSITION", path, mesh, prim);
    if (ok && gltf_test_int(p, "mode", 4) != 4) ok = gltf_test_fail(&g, "%s: primitive is not a triangle list", path);
    json_t *accessors = json_object_get(g.root, "accessors");
    uint32_t vertex_count = ok ? (uint32_t)gltf_test_int(json_array_get(accessors, (size_t)position), "count", 0) : 0;
    uint32_t index_count = indices >= 0 ? (uint32_t)gltf_test_int(json_array_get(accessors, (size_t)indices), "count", 0)
                                        : vertex_count;
    kiln_error err = {0};
    if (ok && !kiln_mesh_data_init(md, vertex_count, index_count, tangent >= 0 ? KILN_MESH_TANGENTS : 0, &err))
        ok = gltf_test_fail(&g, "%s: %s", path, err.message);
    if (ok) {
        ok = gltf_test_accessor(&g, position, 3, false, md->positions, vertex_count) &&
             (normal < 0 || gltf_test_accessor(&g, normal, 3, false, md->normals, vertex_count)) &&
             (uv < 0 || gltf_test_accessor(&g, uv, 2, false, md->uv0, vertex_count)) &&
             (tangent < 0 || gltf_test_accessor(&g, tangent, 4, false, md->tangents, vertex_count));
        if (ok && indices >= 0) ok = gltf_test_accessor(&g, indices, 1, true, md->indices, index_count);
        if (ok && indices < 0)
            for (uint32_t i = 0; i < index_count; i++) md->indices[i] = i;
        if (!ok) kiln_mesh_data_free(md);
    }
    if (!ok && why) snprintf(why, why_size, "%s", g.why);
    gltf_test_close(&g);
    return ok;
}

#endif
