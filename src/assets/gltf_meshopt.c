/* EXT_meshopt_compression: buffer views whose bytes are stored compressed in another buffer and
 * decoded once at load through meshoptimizer, so accessors and images read them as if the view
 * held them.
 *
 * Everything the extension object claims is checked before a byte is allocated or decoded: the
 * mode and filter names, the stride rules of each (the spec's list under "JSON schema updates"),
 * count x byteStride against the parent view, the compressed range against its buffer, and the
 * decoded size against two bounds. The first is what the bitstream can express: a compressed byte
 * decodes to at most 64 bytes in ATTRIBUTES mode (2 header bits per group of 16 all-zero byte
 * deltas), 3 x byteStride in TRIANGLES (one code byte per triangle) and byteStride in INDICES (one
 * varint byte per index), so a file that asks for more than that is refused without allocating.
 * The second is GLTF_MESHOPT_MAX_DECODED over the whole document, so even well-formed data cannot
 * make a small file cost gigabytes. The decoders themselves are safe on untrusted input; they
 * fail (a negative code) on data that does not match its mode, which becomes a load error. */
#include <meshoptimizer.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

/* Bytes all EXT_meshopt_compression views of one document may decode to (1 GiB). */
#define GLTF_MESHOPT_MAX_DECODED ((size_t)1 << 30)

typedef enum { MODE_ATTRIBUTES, MODE_TRIANGLES, MODE_INDICES, MODE_COUNT } meshopt_mode;
typedef enum { FILTER_NONE, FILTER_OCTAHEDRAL, FILTER_QUATERNION, FILTER_EXPONENTIAL, FILTER_COUNT } meshopt_filter;

static const char *const mode_names[MODE_COUNT] = {"ATTRIBUTES", "TRIANGLES", "INDICES"};
static const char *const filter_names[FILTER_COUNT] = {"NONE", "OCTAHEDRAL", "QUATERNION", "EXPONENTIAL"};

/* The position of `name` in `names`, or -1. */
static int name_index(const char *const *names, int count, const char *name) {
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0) return i;
    return -1;
}

bool gltf_meshopt_fallback(gltf_load *L, json_t *buffer, const char *path, bool *fallback) {
    *fallback = false;
    char sub[80], ext_path[112];
    snprintf(sub, sizeof sub, "%s.extensions", path);
    snprintf(ext_path, sizeof ext_path, "%s.EXT_meshopt_compression", sub);
    bool ok;
    json_t *extensions = gltf_object(L, buffer, path, "extensions", &ok);
    json_t *meshopt = ok && extensions ? gltf_object(L, extensions, sub, "EXT_meshopt_compression", &ok) : NULL;
    if (!ok) return false;
    json_t *value = meshopt ? json_object_get(meshopt, "fallback") : NULL;
    if (value && !json_is_boolean(value))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.fallback: is not a boolean", ext_path);
    *fallback = json_is_true(value);
    return true;
}

/* The spec's stride rules for a mode and filter, checked in its order; `path` names the object. */
static bool check_layout(gltf_load *L, const char *path, meshopt_mode mode, meshopt_filter filter, uint64_t stride,
                         uint64_t count) {
    if (count == 0) return gltf_fail(L, KILN_ERR_FORMAT, "%s.count: must be at least 1", path);
    if (mode == MODE_ATTRIBUTES && (stride == 0 || stride % 4 != 0))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteStride: %llu is not a multiple of 4 in 4..256 (mode ATTRIBUTES)",
                         path, (unsigned long long)stride);
    if (mode == MODE_TRIANGLES && count % 3 != 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.count: %llu is not a multiple of 3 (mode TRIANGLES)", path,
                         (unsigned long long)count);
    if (mode != MODE_ATTRIBUTES && stride != 2 && stride != 4)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteStride: %llu is not 2 or 4 (mode %s)", path,
                         (unsigned long long)stride, mode_names[mode]);
    if (mode != MODE_ATTRIBUTES && filter != FILTER_NONE)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.filter: %s needs mode ATTRIBUTES, not %s", path,
                         filter_names[filter], mode_names[mode]);
    if (filter == FILTER_OCTAHEDRAL && stride != 4 && stride != 8)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteStride: %llu is not 4 or 8 (filter OCTAHEDRAL)", path,
                         (unsigned long long)stride);
    if (filter == FILTER_QUATERNION && stride != 8)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteStride: %llu is not 8 (filter QUATERNION)", path,
                         (unsigned long long)stride);
    /* EXPONENTIAL wants a multiple of 4, which ATTRIBUTES already is. */
    return true;
}

/* At most how many bytes one compressed byte of `mode` decodes to (see the top of the file). */
static uint64_t decoded_per_compressed_byte(meshopt_mode mode, uint64_t stride) {
    switch (mode) {
    case MODE_ATTRIBUTES: return 64;
    case MODE_TRIANGLES: return 3 * stride;
    default: return stride;
    }
}

static int decode(meshopt_mode mode, meshopt_filter filter, uint8_t *out, size_t count, size_t stride,
                  const uint8_t *in, size_t in_size) {
    int rc;
    if (mode == MODE_TRIANGLES) rc = meshopt_decodeIndexBuffer(out, count, stride, in, in_size);
    else if (mode == MODE_INDICES) rc = meshopt_decodeIndexSequence(out, count, stride, in, in_size);
    else rc = meshopt_decodeVertexBuffer(out, count, stride, in, in_size);
    if (rc != 0) return rc;
    if (filter == FILTER_OCTAHEDRAL) meshopt_decodeFilterOct(out, count, stride);
    else if (filter == FILTER_QUATERNION) meshopt_decodeFilterQuat(out, count, stride);
    else if (filter == FILTER_EXPONENTIAL) meshopt_decodeFilterExp(out, count, stride);
    return 0;
}

bool gltf_meshopt_view_decode(gltf_load *L, json_t *extension, const char *view_path, gltf_view *view) {
    char path[112];
    snprintf(path, sizeof path, "%s.extensions.EXT_meshopt_compression", view_path);
    int32_t buffer;
    uint64_t offset, length, stride, count;
    const char *mode_name, *filter_name;
    if (!gltf_index(L, extension, path, "buffer", true, L->buffer_count, "buffers", &buffer) ||
        !gltf_uint(L, extension, path, "byteOffset", false, 0, SIZE_MAX / 2, &offset) ||
        !gltf_uint(L, extension, path, "byteLength", true, 0, SIZE_MAX / 2, &length) ||
        !gltf_uint(L, extension, path, "byteStride", true, 0, 256, &stride) ||
        !gltf_uint(L, extension, path, "count", true, 0, UINT32_MAX, &count) ||
        !gltf_string(L, extension, path, "mode", NULL, &mode_name) ||
        !gltf_string(L, extension, path, "filter", "NONE", &filter_name))
        return false;
    if (!mode_name) return gltf_fail(L, KILN_ERR_FORMAT, "%s.mode: is required", path);
    int mode = name_index(mode_names, MODE_COUNT, mode_name);
    if (mode < 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.mode: \"%s\" is not ATTRIBUTES, TRIANGLES or INDICES", path,
                         mode_name);
    int filter = name_index(filter_names, FILTER_COUNT, filter_name);
    if (filter < 0)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.filter: \"%s\" is not NONE, OCTAHEDRAL, QUATERNION or EXPONENTIAL",
                         path, filter_name);
    if (!check_layout(L, path, (meshopt_mode)mode, (meshopt_filter)filter, stride, count)) return false;

    /* The parent view describes the decoded layout, so it must agree with the extension's. */
    if (view->stride != 0 && view->stride != stride)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.byteStride: %llu differs from %s.byteStride %u", path,
                         (unsigned long long)stride, view_path, view->stride);
    uint64_t decoded = count * stride; /* at most 2^32 x 256: no overflow */
    if (decoded != view->length)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: count %llu x byteStride %llu is %llu bytes, but %s.byteLength is %zu",
                         path, (unsigned long long)count, (unsigned long long)stride, (unsigned long long)decoded,
                         view_path, view->length);

    const gltf_buffer *b = &L->buffers[buffer];
    if (b->fallback)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s.buffer: buffers[%d] is a fallback buffer (it holds no data)", path,
                         buffer);
    if (offset > b->size || length > b->size - offset)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: bytes %llu..%llu are past the end of buffers[%d] (%zu bytes)", path,
                         (unsigned long long)offset, (unsigned long long)(offset + length), buffer, b->size);
    if (decoded > GLTF_MESHOPT_MAX_DECODED - L->meshopt_decoded)
        return gltf_fail(L, KILN_ERR_CAPACITY, "%s: %llu decoded bytes would pass the limit of %zu for the file "
                         "(%zu decoded before)", path, (unsigned long long)decoded, GLTF_MESHOPT_MAX_DECODED,
                         L->meshopt_decoded);
    uint64_t ratio = decoded_per_compressed_byte((meshopt_mode)mode, stride);
    if (decoded / ratio > length)
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: %llu decoded bytes from %llu compressed bytes is more than mode %s "
                         "can encode (%llu per byte)", path, (unsigned long long)decoded,
                         (unsigned long long)length, mode_names[mode], (unsigned long long)ratio);

    uint8_t *bytes = malloc((size_t)decoded);
    if (!bytes) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    int rc = decode((meshopt_mode)mode, (meshopt_filter)filter, bytes, (size_t)count, (size_t)stride,
                    b->data + offset, (size_t)length);
    if (rc != 0) {
        free(bytes);
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: the %s data does not decode (meshoptimizer error %d)", path,
                         mode_names[mode], rc);
    }
    view->decoded = bytes;
    view->data = bytes;
    L->meshopt_decoded += (size_t)decoded;
    return true;
}
