/* Image files: decoding through stb_image and PNG encoding through stb_image_write.
 *
 * Debian's libstb ships the stb implementations as a shared library, so this file only includes
 * the declarations and links -lstb (see sources.cmake). Decoded pixels are copied into memory
 * from kiln_image_create so every kiln_image is freed the same way, whatever stb allocates with. */
#include <kiln/core/containers.h>
#include <kiln/core/image.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core/half.h>

#include "stb_guards.h"

#include <stb_image.h>
#include <stb_image_write.h>

/* Decodes bytes into img, naming the input `what` in errors. */
static bool decode_named(kiln_image *img, const void *bytes, size_t size, const char *what,
                         kiln_error *err) {
    if (!img) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: no image", what);
    memset(img, 0, sizeof *img);
    if (!bytes || size == 0)
        return kiln_error_set(err, KILN_ERR_FORMAT, "%s: no data to decode", what);
    if (size > INT_MAX)
        return kiln_error_set(err, KILN_ERR_FORMAT, "%s: %zu bytes is too large to decode", what,
                              size);

    char refusal[128];
    if (kiln_stb_guard_refuses(bytes, size, refusal, sizeof refusal))
        return kiln_error_set(err, KILN_ERR_FORMAT, "%s: cannot decode image: %s", what, refusal);
    const stbi_uc *data = bytes;
    int len = (int)size;
    int w = 0, h = 0, channels_in_file = 0;
    /* The header's size, checked before stb allocates for it (found by the image fuzz target: a
     * 231-byte TGA header claiming 17731x8970 took seconds of zeros). A header stb cannot read
     * is left to the decode below to report. */
    if (stbi_info_from_memory(data, len, &w, &h, &channels_in_file) && (uint64_t)w * (uint64_t)h > KILN_IMAGE_MAX_PIXELS)
        return kiln_error_set(err, KILN_ERR_CAPACITY, "%s: %dx%d is more than the %u pixels an image may have (8192x8192)",
                              what, w, h, KILN_IMAGE_MAX_PIXELS);
    bool hdr = stbi_is_hdr_from_memory(data, len) != 0;
    /* Ask for four channels whatever the file holds, so grey and RGB files come out RGBA. */
    void *decoded = hdr ? (void *)stbi_loadf_from_memory(data, len, &w, &h, &channels_in_file, 4)
                        : (void *)stbi_load_from_memory(data, len, &w, &h, &channels_in_file, 4);
    if (!decoded) {
        const char *reason = stbi_failure_reason();
        return kiln_error_set(err, KILN_ERR_FORMAT, "%s: cannot decode image: %s", what,
                              reason ? reason : "unknown reason");
    }

    kiln_image_format format = hdr ? KILN_IMAGE_RGBA32F : KILN_IMAGE_RGBA8;
    kiln_error create_err;
    if (!kiln_image_create(img, (uint32_t)w, (uint32_t)h, format, &create_err)) {
        stbi_image_free(decoded);
        return kiln_error_set(err, create_err.code, "%s: %s", what, create_err.message);
    }
    memcpy(img->pixels, decoded, kiln_image_byte_size(img));
    stbi_image_free(decoded);
    return true;
}

bool kiln_image_decode(kiln_image *img, const void *bytes, size_t size, kiln_error *err) {
    char what[64];
    snprintf(what, sizeof what, "<memory, %zu bytes>", size);
    return decode_named(img, bytes, size, what, err);
}

bool kiln_image_load(kiln_image *img, const char *path, kiln_error *err) {
    if (img) memset(img, 0, sizeof *img);
    if (!path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "image load: no path");

    char *bytes;
    size_t size;
    if (!kiln_read_file(path, &bytes, &size, err)) return false;
    bool ok = decode_named(img, bytes, size, path, err);
    free(bytes);
    return ok;
}

bool kiln_image_load_hdr(kiln_image *img, const char *path, kiln_error *err) {
    if (img) memset(img, 0, sizeof *img);
    if (!path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "hdr load: no path");
    if (!img) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: no image", path);

    char *bytes;
    size_t size;
    if (!kiln_read_file(path, &bytes, &size, err)) return false;
    bool is_hdr = size <= INT_MAX && stbi_is_hdr_from_memory((const stbi_uc *)bytes, (int)size);
    kiln_image decoded = {0};
    bool ok = is_hdr ? decode_named(&decoded, bytes, size, path, err)
                     : kiln_error_set(err, KILN_ERR_FORMAT, "%s: not a Radiance HDR image", path);
    free(bytes);
    ok = ok && kiln_image_create(img, decoded.width, decoded.height, KILN_IMAGE_RGBA16F, err);
    if (ok) {
        const float *src = decoded.pixels;
        uint16_t *dst = img->pixels;
        size_t count = (size_t)decoded.width * decoded.height * 4;
        for (size_t i = 0; i < count; i++) {
            float v = src[i];
            /* NaN compares false both ways and becomes 0 too. */
            v = v > 65504.0f ? 65504.0f : v >= 0.0f ? v : 0.0f;
            dst[i] = kiln_float_to_half(v);
        }
    }
    kiln_image_free(&decoded);
    return ok;
}

/* The PNG stb encodes, gathered in memory. */
typedef struct png_buffer {
    unsigned char *bytes;
    size_t size, capacity;
    bool failed;
} png_buffer;

static void append_png(void *context, void *data, int size) {
    png_buffer *b = context;
    if (b->failed || size <= 0) return;
    if (b->size + (size_t)size > b->capacity) {
        size_t cap = b->capacity ? b->capacity : 65536;
        while (cap < b->size + (size_t)size) cap *= 2;
        unsigned char *grown = realloc(b->bytes, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->bytes = grown;
        b->capacity = cap;
    }
    memcpy(b->bytes + b->size, data, (size_t)size);
    b->size += (size_t)size;
}

bool kiln_image_write_png(const kiln_image *img, const char *path, kiln_error *err) {
    if (!path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "write png: no path");
    if (!img || !img->pixels)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: no image to write", path);
    if (img->width > INT_MAX / 4 || img->height > INT_MAX)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: %ux%u is too large for PNG",
                              path, img->width, img->height);

    kiln_image converted = {0};
    const kiln_image *rgba8 = img;
    if (img->format != KILN_IMAGE_RGBA8) {
        kiln_error convert_err;
        if (!kiln_image_to_rgba8(img, &converted, &convert_err))
            return kiln_error_set(err, convert_err.code, "%s: %s", path, convert_err.message);
        rgba8 = &converted;
    }

    /* Encoded in memory, then written by kiln_write_file: stb's own file writer ignores the
     * result of fclose, so a full disk would go unnoticed. */
    png_buffer png = {0};
    int encoded = stbi_write_png_to_func(append_png, &png, (int)rgba8->width, (int)rgba8->height, 4,
                                         rgba8->pixels, (int)rgba8->width * 4);
    kiln_image_free(&converted);
    bool ok;
    if (!encoded || png.failed) ok = kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: cannot encode PNG: out of memory", path);
    else ok = kiln_write_file(path, png.bytes, png.size, err);
    free(png.bytes);
    return ok;
}
