/* Buffers and buffer views. A buffer's bytes come from the GLB binary chunk (no uri), a data URI or
 * a file; each must hold at least its byteLength, which is checked before any view or accessor
 * reads it, so later steps trust view ranges without re-checking the buffer. An
 * EXT_meshopt_compression fallback buffer is not read at all (gltf_meshopt.c decodes the views that
 * refer to it from their compressed bytes), so it needs neither a uri nor the GLB chunk. */
#include <stdio.h>
#include <stdlib.h>

#include "gltf_internal.h"

static bool load_buffer(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "buffers[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    uint64_t length;
    if (!gltf_uint(L, item, path, "byteLength", true, 0, SIZE_MAX / 2, &length)) return false;
    const char *uri;
    gltf_buffer *b = &L->buffers[i];
    if (!gltf_string(L, item, path, "uri", NULL, &uri) || !gltf_meshopt_fallback(L, item, path, &b->fallback))
        return false;
    size_t present;
    if (b->fallback) {
        present = (size_t)length;
    } else if (!uri) {
        if (!L->bin)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: has no uri and the file has no GLB binary chunk", path);
        if (i != 0)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: has no uri; only buffers[0] may be the GLB binary chunk", path);
        b->data = (uint8_t *)L->bin;
        present = L->bin_size;
    } else {
        char uri_path[80];
        snprintf(uri_path, sizeof uri_path, "%s.uri", path);
        if (!gltf_uri_read(L, uri, uri_path, &b->data, &present)) return false;
        b->owned = true;
    }
    if (present < length)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteLength: %llu is more than the %zu bytes present", path,
                         (unsigned long long)length, present);
    b->size = (size_t)length;
    return true;
}

static bool load_view(gltf_load *L, json_t *item, uint32_t i) {
    char path[64];
    snprintf(path, sizeof path, "bufferViews[%u]", i);
    if (!json_is_object(item)) return gltf_fail(L, KILN_ERR_FORMAT, "%s: is not an object", path);
    int32_t buffer;
    uint64_t offset, length, stride;
    if (!gltf_index(L, item, path, "buffer", true, L->buffer_count, "buffers", &buffer) ||
        !gltf_uint(L, item, path, "byteOffset", false, 0, SIZE_MAX / 2, &offset) ||
        !gltf_uint(L, item, path, "byteLength", true, 0, SIZE_MAX / 2, &length) ||
        !gltf_uint(L, item, path, "byteStride", false, 0, 252, &stride))
        return false;
    if (stride != 0 && stride < 4)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteStride: %llu is below the minimum of 4", path,
                         (unsigned long long)stride);
    const gltf_buffer *b = &L->buffers[buffer];
    if (offset > b->size || length > b->size - offset)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: bytes %llu..%llu are past the end of buffers[%d] (%zu bytes)",
                         path, (unsigned long long)offset, (unsigned long long)(offset + length), buffer, b->size);
    gltf_view *view = &L->views[i];
    *view = (gltf_view){.length = length, .stride = (uint32_t)stride};

    bool ok;
    char sub[80];
    snprintf(sub, sizeof sub, "%s.extensions", path);
    json_t *extensions = gltf_object(L, item, path, "extensions", &ok);
    json_t *meshopt = ok && extensions ? gltf_object(L, extensions, sub, "EXT_meshopt_compression", &ok) : NULL;
    if (!ok) return false;
    if (meshopt) return gltf_meshopt_view_decode(L, meshopt, path, view);
    if (b->fallback)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.buffer: buffers[%d] is an EXT_meshopt_compression fallback buffer "
                         "(it holds no data), but this view is not compressed", path, buffer);
    view->data = b->data + offset;
    return true;
}

bool gltf_buffers_load(gltf_load *L) {
    bool ok;
    json_t *buffers = gltf_array(L, L->root, "", "buffers", &ok);
    if (!ok) return false;
    L->buffer_count = buffers ? (uint32_t)json_array_size(buffers) : 0;
    L->buffers = calloc(L->buffer_count + 1, sizeof *L->buffers);
    if (!L->buffers) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "buffers: out of memory");
    for (uint32_t i = 0; i < L->buffer_count; i++)
        if (!load_buffer(L, json_array_get(buffers, i), i)) return false;

    json_t *views = gltf_array(L, L->root, "", "bufferViews", &ok);
    if (!ok) return false;
    L->view_count = views ? (uint32_t)json_array_size(views) : 0;
    L->views = calloc(L->view_count + 1, sizeof *L->views);
    if (!L->views) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "bufferViews: out of memory");
    for (uint32_t i = 0; i < L->view_count; i++)
        if (!load_view(L, json_array_get(views, i), i)) return false;
    return true;
}

void gltf_buffers_free(gltf_load *L) {
    for (uint32_t i = 0; L->buffers && i < L->buffer_count; i++)
        if (L->buffers[i].owned) free(L->buffers[i].data);
    for (uint32_t i = 0; L->views && i < L->view_count; i++) free(L->views[i].decoded);
    free(L->buffers);
    free(L->views);
}
