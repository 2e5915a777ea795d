/* CPU images: creation and conversion (image.c), file decode and PNG encode (image_io.c), and
 * comparison for golden-image tests (image_compare.c).
 *
 * Pixels are tightly packed rows, top row first, four channels RGBA. Ownership: a kiln_image
 * owns `pixels` once kiln_image_create / _load / _decode / _to_rgba8 succeeded on it;
 * kiln_image_free releases them. Those functions overwrite the struct without freeing what it
 * held, so free an image before reusing it. A zero-initialised kiln_image is empty and safe to
 * free. */
#ifndef KILN_CORE_IMAGE_H
#define KILN_CORE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core/error.h>
#include <kiln/core/half.h>

/* Channel type of a kiln_image; every format has four channels, RGBA. */
typedef enum kiln_image_format {
    KILN_IMAGE_RGBA8,   /* uint8 per channel, 0..255 */
    KILN_IMAGE_RGBA16F, /* binary16 per channel (see half.h) */
    KILN_IMAGE_RGBA32F, /* float per channel */
} kiln_image_format;

/* A CPU image; zero-initialised it is empty. */
typedef struct kiln_image {
    /*@{*/
    uint32_t width, height;   /* size in pixels; 0 for an empty image */
    /*@}*/
    kiln_image_format format; /* channel type of `pixels` */
    void *pixels;             /* tightly packed rows, top row first; owned, malloc'd */
} kiln_image;

/* Bytes per pixel: 4, 8, 16; 0 for an unknown format. */
size_t kiln_image_pixel_size(kiln_image_format format);
/* width * height * pixel size, or 0 for an empty image. */
size_t kiln_image_byte_size(const kiln_image *img);

/* A zero-filled image. Fails on a zero or overflowing size or an unknown format. */
bool kiln_image_create(kiln_image *img, uint32_t width, uint32_t height, kiln_image_format format,
                       kiln_error *err);
/* Frees the pixels and leaves img empty (all zero); an empty image is fine. */
void kiln_image_free(kiln_image *img);

/* The most pixels a decoded image may have: 8192 x 8192, WebGPU's default largest 2D texture.
 * A file whose header claims more is refused (KILN_ERR_CAPACITY) before anything is allocated,
 * since a few hundred bytes can claim an image of gigabytes that stb would fill with zeros. */
#define KILN_IMAGE_MAX_PIXELS (8192u * 8192u)

/* PNG/JPEG (anything stb_image reads) -> RGBA8; Radiance .hdr -> RGBA32F. The error names the
 * path and stb's reason. Images over KILN_IMAGE_MAX_PIXELS are refused. */
bool kiln_image_load(kiln_image *img, const char *path, kiln_error *err);
/* A Radiance .hdr environment map as RGBA16F, the texture format the renderer samples it in
 * (KILN_FORMAT_RGBA16_FLOAT): every value clamped to [0, 65504], the largest finite half, so a
 * bright sun stays bright instead of becoming infinite. Fails naming the path for a file that
 * is not Radiance HDR ("sky.png: not a Radiance HDR image"). */
bool kiln_image_load_hdr(kiln_image *img, const char *path, kiln_error *err);
/* As kiln_image_load, from memory; the error names the input as "<memory, N bytes>". */
bool kiln_image_decode(kiln_image *img, const void *bytes, size_t size, kiln_error *err);
/* Writes an RGBA8 PNG: RGBA8 as is; float formats are clamped to [0,1] and quantised. */
bool kiln_image_write_png(const kiln_image *img, const char *path, kiln_error *err);

/* Data images (image_data_io.c), for values that must survive exactly: width x height values,
 * top row first, one channel. Both fail naming the path. */
/* A PFM ("Pf": one float channel, little-endian, so scale -1), rows stored bottom first as the
 * format has them. */
bool kiln_image_write_pfm(const char *path, const float *values, uint32_t width, uint32_t height, kiln_error *err);
/* A 16-bit greyscale PNG. */
bool kiln_image_write_png_gray16(const char *path, const uint16_t *values, uint32_t width, uint32_t height,
                                 kiln_error *err);

/* Pixel (x, y) as four floats: RGBA8 channels scaled to 0..1, float formats as stored. Writes
 * zeros for a pixel outside the image or an empty image. */
void kiln_image_read_pixel(const kiln_image *img, uint32_t x, uint32_t y, float out_rgba[4]);
/* A 0..1 value as 0..255: clamped, rounded to nearest; NaN becomes 0. */
uint8_t kiln_unorm8_from_float(float v);

/* Swaps the R and B channels of every pixel (BGRA <-> RGBA), for swapchain readbacks. */
void kiln_image_swap_rb(kiln_image *img);
/* A new RGBA8 copy of src in dst (which must not be src): float channels are clamped to [0,1]
 * and rounded to the nearest of 0..255, NaN becomes 0. */
bool kiln_image_to_rgba8(const kiln_image *src, kiln_image *dst, kiln_error *err);

/* ---- comparison ----------------------------------------------------------------------------- */

/* Mean SSIM (structural similarity) of the luma of a and b, in [-1, 1], 1 meaning identical.
 * Luma is Rec.709 (0.2126 R + 0.7152 G + 0.0722 B) on 0..1 values (float formats clamped); alpha
 * is ignored. Statistics are taken over 8x8 windows whose top-left corners step by 4 pixels (a
 * stride of 4, so neighbouring windows overlap by half); where the image size is not 8 + 4k an
 * extra window is placed flush with the right/bottom edge so every pixel counts. Images smaller
 * than 8 in a direction use one window of the full size there. Constants are the standard
 * C1 = (0.01)^2, C2 = (0.03)^2 for a dynamic range of 1. Sizes must match; formats may differ. */
bool kiln_image_ssim(const kiln_image *a, const kiln_image *b, double *out_ssim, kiln_error *err);
/* Fraction of pixels where any channel, as RGBA8 0..255 (float formats quantised as in
 * kiln_image_to_rgba8), differs by more than threshold. Sizes must match; formats may differ. */
bool kiln_image_diff_fraction(const kiln_image *a, const kiln_image *b, unsigned threshold,
                              double *out_fraction, kiln_error *err);

#endif
