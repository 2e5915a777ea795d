/* CPU images: allocation, per-pixel access and format conversion. */
#include <kiln/core/image.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

size_t kiln_image_pixel_size(kiln_image_format format) {
    switch (format) {
    case KILN_IMAGE_RGBA8: return 4;
    case KILN_IMAGE_RGBA16F: return 8;
    case KILN_IMAGE_RGBA32F: return 16;
    }
    return 0;
}

size_t kiln_image_byte_size(const kiln_image *img) {
    if (!img || !img->pixels) return 0;
    return (size_t)img->width * img->height * kiln_image_pixel_size(img->format);
}

static const char *format_name(kiln_image_format format) {
    switch (format) {
    case KILN_IMAGE_RGBA8: return "rgba8";
    case KILN_IMAGE_RGBA16F: return "rgba16f";
    case KILN_IMAGE_RGBA32F: return "rgba32f";
    }
    return "unknown";
}

bool kiln_image_create(kiln_image *img, uint32_t width, uint32_t height, kiln_image_format format,
                       kiln_error *err) {
    if (!img) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "image create: no image");
    memset(img, 0, sizeof *img);

    size_t pixel_size = kiln_image_pixel_size(format);
    if (pixel_size == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "image create: unknown format %d",
                              (int)format);
    if (width == 0 || height == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "image create: size %ux%u is empty",
                              width, height);
    if ((size_t)width > SIZE_MAX / height / pixel_size)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "image create: %ux%u %s does not fit in memory", width, height,
                              format_name(format));

    void *pixels = calloc((size_t)width * height, pixel_size);
    if (!pixels)
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY,
                              "image create: cannot allocate %ux%u %s", width, height,
                              format_name(format));

    img->width = width;
    img->height = height;
    img->format = format;
    img->pixels = pixels;
    return true;
}

void kiln_image_free(kiln_image *img) {
    if (!img) return;
    free(img->pixels);
    memset(img, 0, sizeof *img);
}

void kiln_image_read_pixel(const kiln_image *img, uint32_t x, uint32_t y, float out_rgba[4]) {
    for (int c = 0; c < 4; c++) out_rgba[c] = 0.0f;
    if (!img || !img->pixels || x >= img->width || y >= img->height) return;

    size_t index = ((size_t)y * img->width + x) * 4; /* first channel of the pixel */
    switch (img->format) {
    case KILN_IMAGE_RGBA8: {
        const uint8_t *p = (const uint8_t *)img->pixels + index;
        for (int c = 0; c < 4; c++) out_rgba[c] = p[c] / 255.0f;
        break;
    }
    case KILN_IMAGE_RGBA16F: {
        const uint16_t *p = (const uint16_t *)img->pixels + index;
        for (int c = 0; c < 4; c++) out_rgba[c] = kiln_half_to_float(p[c]);
        break;
    }
    case KILN_IMAGE_RGBA32F: {
        const float *p = (const float *)img->pixels + index;
        for (int c = 0; c < 4; c++) out_rgba[c] = p[c];
        break;
    }
    }
}

uint8_t kiln_unorm8_from_float(float v) {
    if (!(v > 0.0f)) return 0; /* also catches NaN */
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

void kiln_image_swap_rb(kiln_image *img) {
    if (!img || !img->pixels) return;
    size_t pixel_size = kiln_image_pixel_size(img->format);
    size_t channel_size = pixel_size / 4;
    size_t count = (size_t)img->width * img->height;
    uint8_t *p = img->pixels;
    for (size_t i = 0; i < count; i++, p += pixel_size) {
        uint8_t tmp[4];
        memcpy(tmp, p, channel_size);
        memcpy(p, p + 2 * channel_size, channel_size);
        memcpy(p + 2 * channel_size, tmp, channel_size);
    }
}

bool kiln_image_to_rgba8(const kiln_image *src, kiln_image *dst, kiln_error *err) {
    if (!src || !src->pixels || !dst)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "image to rgba8: missing image");
    if (src == dst)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "image to rgba8: source and destination are the same image");
    if (!kiln_image_create(dst, src->width, src->height, KILN_IMAGE_RGBA8, err)) return false;

    if (src->format == KILN_IMAGE_RGBA8) {
        memcpy(dst->pixels, src->pixels, kiln_image_byte_size(dst));
        return true;
    }
    uint8_t *out = dst->pixels;
    for (uint32_t y = 0; y < src->height; y++) {
        for (uint32_t x = 0; x < src->width; x++) {
            float rgba[4];
            kiln_image_read_pixel(src, x, y, rgba);
            for (int c = 0; c < 4; c++) *out++ = kiln_unorm8_from_float(rgba[c]);
        }
    }
    return true;
}
