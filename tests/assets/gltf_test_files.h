/* Small synthetic glTF files for the loader tests: JSON text in which "@BUF@" stands for a base64
 * data URI of the given bytes, loaded from memory as "test.gltf". */
#ifndef KILN_TEST_GLTF_FILES_H
#define KILN_TEST_GLTF_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/assets/gltf.h>

static inline char *test_base64_uri(const void *bytes, size_t n) {
    static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *prefix = "data:application/octet-stream;base64,";
    char *out = malloc(strlen(prefix) + (n + 2) / 3 * 4 + 1);
    char *w = out + strlen(prefix);
    const unsigned char *p = bytes;
    strcpy(out, prefix);
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        *w++ = alphabet[v >> 18 & 63];
        *w++ = alphabet[v >> 12 & 63];
        *w++ = i + 1 < n ? alphabet[v >> 6 & 63] : '=';
        *w++ = i + 2 < n ? alphabet[v & 63] : '=';
    }
    *w = '\0';
    return out;
}

/* `json` with every "@BUF@" replaced by the data URI of `bytes`, as a new string. */
static inline char *test_gltf_text(const char *json, const void *bytes, size_t n) {
    char *uri = test_base64_uri(bytes, n);
    size_t count = 0;
    for (const char *at = json; (at = strstr(at, "@BUF@")); at += 5) count++;
    char *text = malloc(strlen(json) + count * strlen(uri) + 1);
    char *w = text;
    for (const char *at = json;;) {
        const char *hit = strstr(at, "@BUF@");
        size_t len = hit ? (size_t)(hit - at) : strlen(at);
        memcpy(w, at, len);
        w += len;
        if (!hit) break;
        strcpy(w, uri);
        w += strlen(uri);
        at = hit + 5;
    }
    *w = '\0';
    free(uri);
    return text;
}

static inline kiln_gltf *test_gltf_load(const char *json, const void *bytes, size_t n, kiln_error *err) {
    char *text = test_gltf_text(json, bytes, n);
    kiln_gltf *doc = kiln_gltf_load_memory(text, strlen(text), "test.gltf", NULL, err);
    free(text);
    return doc;
}

#endif
