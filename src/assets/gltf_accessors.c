/* Accessors: typed views of buffer views. gltf_accessors_check validates every accessor once
 * (component type, element type, stride, the byte range of its elements and of its sparse arrays)
 * and keeps resolved pointers, so the reads below index memory that is known to be there.
 *
 * Reads convert to float (or uint32 for indices): normalized integers map to [0, 1] (unsigned)
 * or [-1, 1] (signed, max(v / MAX, -1)) as the spec says; other integers convert as they are,
 * which is what KHR_mesh_quantization's non-normalized positions and texcoords need. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* Elements an accessor without a bufferView may claim: its zeros are allocated from `count`
 * alone, so the count is bounded here rather than trusted. */
#define GLTF_MAX_VIEWLESS_COUNT (1u << 24)

enum { BYTE = 5120, UNSIGNED_BYTE = 5121, SHORT = 5122, UNSIGNED_SHORT = 5123, UNSIGNED_INT = 5125, FLOAT = 5126 };

static uint32_t component_size(uint32_t type) {
    switch (type) {
    case BYTE: case UNSIGNED_BYTE: return 1;
    case SHORT: case UNSIGNED_SHORT: return 2;
    case UNSIGNED_INT: case FLOAT: return 4;
    default: return 0;
    }
}

static uint32_t type_components(const char *type) {
    static const struct { const char *name; uint32_t n; } types[] = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT2", 4}, {"MAT3", 9}, {"MAT4", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(type, types[i].name) == 0) return types[i].n;
    return 0;
}

/* The first `offset` bytes of view `v` skipped, `need` bytes must follow. */
static bool view_range(gltf_load *L, const char *path, int32_t v, uint64_t offset, uint64_t need,
                       const char *what, const uint8_t **out) {
    const gltf_view *view = &L->views[v];
    if (offset > view->length || need > view->length - offset)
        return gltf_fail(L, KILN_ERR_FORMAT,
                         "%s: %s needs bytes %llu..%llu of bufferViews[%d], which has %zu", path, what,
                         (unsigned long long)offset, (unsigned long long)(offset + need), v, view->length);
    *out = view->data + offset;
    return true;
}

static bool check_sparse(gltf_load *L, json_t *sparse, const char *path, gltf_accessor *a) {
    char sub[96];
    uint64_t count;
    if (!gltf_uint(L, sparse, path, "count", true, 0, UINT32_MAX, &count)) return false;
    if (count == 0 || count > a->count)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.count: %llu is not in 1..%u (the accessor's count)", path,
                         (unsigned long long)count, a->count);
    bool ok;
    json_t *indices = gltf_object(L, sparse, path, "indices", &ok);
    json_t *values = ok ? gltf_object(L, sparse, path, "values", &ok) : NULL;
    if (!ok) return false;
    if (!indices || !values)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: needs both indices and values", path);

    snprintf(sub, sizeof sub, "%s.indices", path);
    int32_t view;
    uint64_t offset, type;
    if (!gltf_index(L, indices, sub, "bufferView", true, L->view_count, "buffer views", &view) ||
        !gltf_uint(L, indices, sub, "byteOffset", false, 0, SIZE_MAX / 2, &offset) ||
        !gltf_uint(L, indices, sub, "componentType", true, 0, UINT32_MAX, &type))
        return false;
    if (type != UNSIGNED_BYTE && type != UNSIGNED_SHORT && type != UNSIGNED_INT)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.componentType: %llu is not an unsigned integer type", sub,
                         (unsigned long long)type);
    if (!view_range(L, sub, view, offset, count * component_size((uint32_t)type), "its indices",
                    &a->sparse_indices))
        return false;
    a->sparse_index_type = (uint32_t)type;

    snprintf(sub, sizeof sub, "%s.values", path);
    if (!gltf_index(L, values, sub, "bufferView", true, L->view_count, "buffer views", &view) ||
        !gltf_uint(L, values, sub, "byteOffset", false, 0, SIZE_MAX / 2, &offset))
        return false;
    uint64_t element = (uint64_t)component_size(a->component_type) * a->components;
    if (!view_range(L, sub, view, offset, count * element, "its values", &a->sparse_values)) return false;
    a->sparse_count = (uint32_t)count;
    return true;
}

static bool check_accessor(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "accessors[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    gltf_accessor *a = &L->accessors[i];
    int32_t view;
    uint64_t offset, count, ctype;
    const char *type;
    if (!gltf_index(L, item, path, "bufferView", false, L->view_count, "buffer views", &view) ||
        !gltf_uint(L, item, path, "byteOffset", false, 0, SIZE_MAX / 2, &offset) ||
        !gltf_uint(L, item, path, "componentType", true, 0, UINT32_MAX, &ctype) ||
        !gltf_uint(L, item, path, "count", true, 0, UINT32_MAX, &count) ||
        !gltf_string(L, item, path, "type", NULL, &type))
        return false;
    if (!type) return gltf_fail(L, KILN_ERR_FORMAT, "%s.type: is required", path);
    a->component_type = (uint32_t)ctype;
    a->components = type_components(type);
    uint32_t csize = component_size(a->component_type);
    if (!csize)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.componentType: %llu is not a glTF component type", path,
                         (unsigned long long)ctype);
    if (!a->components)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.type: \"%s\" is not a glTF accessor type", path, type);
    if (count == 0) return gltf_fail(L, KILN_ERR_FORMAT, "%s.count: must be at least 1", path);
    a->count = (uint32_t)count;
    json_t *normalized = json_object_get(item, "normalized");
    if (normalized && !json_is_boolean(normalized))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.normalized: is not a boolean", path);
    a->normalized = json_is_true(normalized);
    if (a->normalized && (a->component_type == FLOAT || a->component_type == UNSIGNED_INT))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.normalized: true needs a byte or short component type", path);

    uint64_t element = (uint64_t)csize * a->components;
    if (view >= 0) {
        uint32_t stride = L->views[view].stride;
        if (stride != 0 && stride < element)
            return gltf_fail(L, KILN_ERR_FORMAT,
                             "%s: bufferViews[%d].byteStride %u is smaller than the element (%llu bytes)", path,
                             view, stride, (unsigned long long)element);
        a->stride = stride ? stride : (size_t)element;
        uint64_t need = (count - 1) * a->stride + element;
        if (!view_range(L, path, view, offset, need, "its elements", &a->data)) return false;
    } else if (count > GLTF_MAX_VIEWLESS_COUNT) {
        return gltf_fail(L, KILN_ERR_CAPACITY, "%s.count: %llu elements without a bufferView (at most %u)", path,
                         (unsigned long long)count, GLTF_MAX_VIEWLESS_COUNT);
    }

    bool ok;
    json_t *sparse = gltf_object(L, item, path, "sparse", &ok);
    if (!ok) return false;
    if (sparse) {
        char sub[80];
        snprintf(sub, sizeof sub, "%s.sparse", path);
        return check_sparse(L, sparse, sub, a);
    }
    return true;
}

bool gltf_accessors_check(gltf_load *L) {
    bool ok;
    json_t *accessors = gltf_array(L, L->root, "", "accessors", &ok);
    if (!ok) return false;
    L->accessor_count = accessors ? (uint32_t)json_array_size(accessors) : 0;
    L->accessors = calloc(L->accessor_count + 1, sizeof *L->accessors);
    if (!L->accessors) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "accessors: out of memory");
    for (uint32_t i = 0; i < L->accessor_count; i++)
        if (!check_accessor(L, json_array_get(accessors, i), i)) return false;
    return true;
}

static float read_component(const uint8_t *p, uint32_t type, bool normalized) {
    switch (type) {
    case BYTE: {
        int8_t v = (int8_t)p[0];
        return normalized ? (v < -127 ? -1.0f : (float)v / 127.0f) : (float)v;
    }
    case UNSIGNED_BYTE:
        return normalized ? (float)p[0] / 255.0f : (float)p[0];
    case SHORT: {
        int16_t v;
        memcpy(&v, p, 2);
        return normalized ? (v < -32767 ? -1.0f : (float)v / 32767.0f) : (float)v;
    }
    case UNSIGNED_SHORT: {
        uint16_t v;
        memcpy(&v, p, 2);
        return normalized ? (float)v / 65535.0f : (float)v;
    }
    case UNSIGNED_INT: {
        uint32_t v;
        memcpy(&v, p, 4);
        return (float)v;
    }
    default: {
        float v;
        memcpy(&v, p, 4);
        return v;
    }
    }
}

static uint32_t read_index(const uint8_t *p, uint32_t type) {
    if (type == UNSIGNED_BYTE) return p[0];
    if (type == UNSIGNED_SHORT) {
        uint16_t v;
        memcpy(&v, p, 2);
        return v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void read_element(const gltf_accessor *a, const uint8_t *p, float *out, uint32_t components,
                         float fill_w) {
    uint32_t csize = component_size(a->component_type);
    for (uint32_t c = 0; c < components; c++)
        out[c] = c < a->components ? read_component(p + c * csize, a->component_type, a->normalized)
                                   : (c == 3 ? fill_w : 0.0f);
}

bool gltf_accessor_floats(gltf_load *L, uint32_t index, const char *path, uint32_t allowed,
                          uint32_t components, float fill_w, float **out, uint32_t *count) {
    *out = NULL;
    *count = 0;
    const gltf_accessor *a = &L->accessors[index];
    if (!(allowed & (1u << a->components)))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: accessors[%u] has %u components per element, which this use "
                         "does not take", path, index, a->components);
    float *values = calloc((size_t)a->count * components, sizeof *values);
    if (!values) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    for (uint32_t e = 0; e < a->count; e++) {
        if (a->data) read_element(a, a->data + e * a->stride, values + (size_t)e * components, components, fill_w);
        else if (components == 4 && a->components < 4) values[(size_t)e * components + 3] = fill_w;
    }
    size_t element = (size_t)component_size(a->component_type) * a->components;
    size_t isize = component_size(a->sparse_index_type);
    for (uint32_t s = 0; s < a->sparse_count; s++) {
        uint32_t target = read_index(a->sparse_indices + s * isize, a->sparse_index_type);
        if (target >= a->count) {
            free(values);
            return gltf_fail(L, KILN_ERR_FORMAT, "accessors[%u].sparse.indices: index %u at %u is out of range "
                             "(%u elements)", index, target, s, a->count);
        }
        read_element(a, a->sparse_values + s * element, values + (size_t)target * components, components, fill_w);
    }
    *out = values;
    *count = a->count;
    return true;
}

bool gltf_accessor_indices(gltf_load *L, uint32_t index, const char *path, uint32_t **out, uint32_t *count) {
    *out = NULL;
    *count = 0;
    const gltf_accessor *a = &L->accessors[index];
    uint32_t t = a->component_type;
    if (a->components != 1 || a->normalized || (t != UNSIGNED_BYTE && t != UNSIGNED_SHORT && t != UNSIGNED_INT))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: accessors[%u] is not a SCALAR of unsigned integers", path, index);
    uint32_t *values = calloc(a->count, sizeof *values);
    if (!values) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    for (uint32_t e = 0; a->data && e < a->count; e++) values[e] = read_index(a->data + e * a->stride, t);
    size_t isize = component_size(a->sparse_index_type);
    for (uint32_t s = 0; s < a->sparse_count; s++) {
        uint32_t target = read_index(a->sparse_indices + s * isize, a->sparse_index_type);
        if (target >= a->count) {
            free(values);
            return gltf_fail(L, KILN_ERR_FORMAT, "accessors[%u].sparse.indices: index %u at %u is out of range "
                             "(%u elements)", index, target, s, a->count);
        }
        values[target] = read_index(a->sparse_values + s * component_size(t), t);
    }
    *out = values;
    *count = a->count;
    return true;
}
