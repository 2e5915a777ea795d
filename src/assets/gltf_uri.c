/* URIs of buffers and images: base64 data URIs ("data:<mime>;base64,<payload>") and relative
 * file paths, percent-decoded ("my%20file.bin") and resolved against the glTF file's directory.
 * Absolute paths and other schemes (http:) are refused: a model reads only what sits beside it. */
#include <stdlib.h>
#include <string.h>

#include "gltf_internal.h"

static int base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62; /* '-' and '_': the URL-safe alphabet */
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* The decoded size is at most 3/4 of the text, so the allocation is bounded by the JSON itself. */
static bool decode_base64(gltf_load *L, const char *text, const char *path, uint8_t **out, size_t *size) {
    size_t n = strlen(text);
    while (n > 0 && text[n - 1] == '=') n--;
    uint8_t *bytes = malloc(n / 4 * 3 + 3);
    if (!bytes) return gltf_fail(L, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
    size_t written = 0;
    uint32_t acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int v = base64_value(text[i]);
        if (v < 0) {
            free(bytes);
            return gltf_fail(L, KILN_ERR_FORMAT, "%s: data URI: invalid base64 character at %zu", path, i);
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes[written++] = (uint8_t)(acc >> bits);
        }
    }
    *out = bytes;
    *size = written;
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
        return decode_base64(L, comma + 1, path, bytes, size);
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
