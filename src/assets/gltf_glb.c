/* The GLB container: a 12-byte header (magic "glTF", version 2, total length), a JSON chunk, then
 * an optional BIN chunk, each chunk an 8-byte header (length, type) and its bytes. Every length
 * is checked against the bytes that are actually there before it is used. */
#include <string.h>

#include "gltf_internal.h"

#define GLB_MAGIC 0x46546C67u      /* "glTF" little-endian */
#define GLB_CHUNK_JSON 0x4E4F534Au /* "JSON" */
#define GLB_CHUNK_BIN 0x004E4942u  /* "BIN\0" */

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

bool gltf_glb_split(gltf_load *L, const uint8_t *bytes, size_t size, const char **json, size_t *json_size) {
    if (size < 12)
        return gltf_fail(L, KILN_ERR_FORMAT, "GLB header: %zu bytes, need 12", size);
    uint32_t magic = read_u32(bytes), version = read_u32(bytes + 4), length = read_u32(bytes + 8);
    if (magic != GLB_MAGIC)
        return gltf_fail(L, KILN_ERR_FORMAT, "GLB header: bad magic 0x%08x (want 0x%08x, \"glTF\")",
                         magic, GLB_MAGIC);
    if (version != 2)
        return gltf_fail(L, KILN_ERR_FORMAT, "GLB header: version %u is not supported (only 2)", version);
    if (length > size)
        return gltf_fail(L, KILN_ERR_FORMAT, "GLB header: length %u is past the end of the file (%zu bytes)",
                         length, size);

    size_t at = 12;
    for (uint32_t chunk = 0; at < length; chunk++) {
        if (length - at < 8)
            return gltf_fail(L, KILN_ERR_FORMAT, "GLB chunk %u: header truncated (%zu bytes left, need 8)",
                             chunk, (size_t)length - at);
        uint32_t chunk_length = read_u32(bytes + at), type = read_u32(bytes + at + 4);
        at += 8;
        if (chunk_length > length - at)
            return gltf_fail(L, KILN_ERR_FORMAT,
                             "GLB chunk %u: length %u is past the end of the file (%zu bytes left)",
                             chunk, chunk_length, (size_t)length - at);
        if (chunk == 0 && type != GLB_CHUNK_JSON)
            return gltf_fail(L, KILN_ERR_FORMAT, "GLB chunk 0: type 0x%08x is not JSON", type);
        if (chunk == 0) {
            *json = (const char *)bytes + at;
            *json_size = chunk_length;
        } else if (chunk == 1 && type == GLB_CHUNK_BIN) {
            L->bin = bytes + at;
            L->bin_size = chunk_length;
        }
        /* Chunks of other types are for extensions: the spec says to skip them. */
        at += chunk_length;
    }
    if (!*json) return gltf_fail(L, KILN_ERR_FORMAT, "GLB: no JSON chunk");
    return true;
}
