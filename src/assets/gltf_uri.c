/* URIs of buffers and images: base64 data URIs ("data:<mime>;base64,<payload>") and relative
 * file paths, percent-decoded ("my%20file.bin") and resolved against the glTF file's directory.
 * Absolute paths and other schemes (http:) are refused: a model reads only what sits beside it. */
#include <stdlib.h>
#include <string.h>

#include <kiln/core/base64.h>

#include "gltf_internal.h"

/* The decoded size is at most 3/4 of the text, so the allocation is bounded by the JSON itself. */
static bool decode_data_uri(gltf_load *L, const char *payload, const char *path, uint8_t **out, size_t *size) {
    kiln_error err;
    if (!kiln_base64_decode(payload, strlen(payload), out, size, &err))
        return gltf_fail(L, err.code, "%s: data URI: %s", path, err.message);
    return true;
}

static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* The glTF file's directory joined with the percent-decoded URI, as a new string. */
static bool resolve_path(gltf_load *L, const char *uri, const char *path, char **out) {
    const char *slash = strrchr(L->path, '/');
    size_t dir_len = slash ? (size_t)(slash - L->path) + 1 : 0;
    size_t uri_len = strlen(uri);
    char *full = malloc(dir_len + uri_len + 1);
    if (!full) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    memcpy(full, L->path, dir_len);
    char *w = full + dir_len;
    for (size_t i = 0; i < uri_len; i++) {
        if (uri[i] == '%') {
            int hi = hex_value(uri[i + 1]); /* a NUL there ends the check before i + 2 */
            int lo = hi >= 0 ? hex_value(uri[i + 2]) : -1;
            if (lo < 0 || (hi == 0 && lo == 0)) {
                free(full);
                return gltf_fail(L, KILN_ERR_FORMAT, "%s: bad percent escape at %zu in \"%s\"", path, i, uri);
            }
            *w++ = (char)(hi * 16 + lo);
            i += 2;
        } else {
            *w++ = uri[i];
        }
    }
    *w = '\0';
    *out = full;
    return true;
}

bool gltf_uri_read(gltf_load *L, const char *uri, const char *path, uint8_t **bytes, size_t *size) {
    *bytes = NULL;
    *size = 0;
    if (strncmp(uri, "data:", 5) == 0) {
        const char *comma = strchr(uri, ',');
        const char *base64 = strstr(uri, ";base64,");
        if (!comma || !base64 || base64 + 7 != comma)
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: data URI is not base64 (want \"data:<type>;base64,...\")",
                             path);
        return decode_data_uri(L, comma + 1, path, bytes, size);
    }
    if (uri[0] == '/' || strchr(uri, ':'))
        return gltf_fail(L, KILN_ERR_FORMAT, "%s: \"%s\" is not a relative file path or a data URI", path, uri);
    if (uri[0] == '\0') return gltf_fail(L, KILN_ERR_FORMAT, "%s: empty URI", path);

    char *file = NULL;
    if (!resolve_path(L, uri, path, &file)) return false;
    char *data;
    kiln_error read_err;
    bool ok = kiln_read_file(file, &data, size, &read_err);
    free(file);
    if (!ok) return gltf_fail(L, read_err.code, "%s: %s", path, read_err.message);
    *bytes = (uint8_t *)data;
    return true;
}
