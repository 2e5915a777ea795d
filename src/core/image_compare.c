/* Image comparison for golden tests: mean SSIM of luma, and the fraction of differing pixels. */
#include <kiln/core/image.h>

#include <math.h>
#include <string.h>

#define WINDOW 8
#define STRIDE 4

/* Stabilising constants for a dynamic range of 1: C1 = (0.01)^2, C2 = (0.03)^2. */
#define SSIM_C1 (0.01 * 0.01)
#define SSIM_C2 (0.03 * 0.03)

static bool check_pair(const kiln_image *a, const kiln_image *b, const char *what,
                       kiln_error *err) {
    if (!a || !b || !a->pixels || !b->pixels || kiln_image_pixel_size(a->format) == 0 ||
        kiln_image_pixel_size(b->format) == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: missing or empty image", what);
    if (a->width != b->width || a->height != b->height)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: sizes differ (%ux%u vs %ux%u)",
                              what, a->width, a->height, b->width, b->height);
    if (a->width == 0 || a->height == 0)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: images are empty", what);
    return true;
}

static double luma_at(const kiln_image *img, uint32_t x, uint32_t y) {
    float rgba[4];
    kiln_image_read_pixel(img, x, y, rgba);
    double lum = 0.2126 * rgba[0] + 0.7152 * rgba[1] + 0.0722 * rgba[2];
    if (!(lum > 0.0)) return 0.0;
    return lum > 1.0 ? 1.0 : lum;
}

/* Windows along an axis of n pixels: starts 0, 4, 8, ... plus one flush with the far edge when
 * the regular starts do not reach it. */
static uint32_t window_size(uint32_t n) {
    return n < WINDOW ? n : WINDOW;
}
static uint32_t window_count(uint32_t n) {
    uint32_t span = n - window_size(n);
    return span / STRIDE + 1 + (span % STRIDE ? 1 : 0);
}
static uint32_t window_start(uint32_t n, uint32_t i) {
    uint32_t last = n - window_size(n);
    uint32_t start = i * STRIDE;
    return start < last ? start : last;
}

static double window_ssim(const kiln_image *a, const kiln_image *b, uint32_t x0, uint32_t y0,
                          uint32_t w, uint32_t h) {
    double sum_a = 0, sum_b = 0, sum_aa = 0, sum_bb = 0, sum_ab = 0;
    for (uint32_t y = y0; y < y0 + h; y++) {
        for (uint32_t x = x0; x < x0 + w; x++) {
            double la = luma_at(a, x, y), lb = luma_at(b, x, y);
            sum_a += la;
            sum_b += lb;
            sum_aa += la * la;
            sum_bb += lb * lb;
            sum_ab += la * lb;
        }
    }
    double n = (double)w * h;
    double mean_a = sum_a / n, mean_b = sum_b / n;
    /* Population (1/n) statistics over the window. */
    double var_a = sum_aa / n - mean_a * mean_a;
    double var_b = sum_bb / n - mean_b * mean_b;
    double cov = sum_ab / n - mean_a * mean_b;

    double num = (2.0 * mean_a * mean_b + SSIM_C1) * (2.0 * cov + SSIM_C2);
    double den = (mean_a * mean_a + mean_b * mean_b + SSIM_C1) * (var_a + var_b + SSIM_C2);
    return num / den;
}

bool kiln_image_ssim(const kiln_image *a, const kiln_image *b, double *out_ssim, kiln_error *err) {
    if (!check_pair(a, b, "ssim", err)) return false;

    uint32_t w = window_size(a->width), h = window_size(a->height);
    uint32_t nx = window_count(a->width), ny = window_count(a->height);
    double total = 0.0;
    for (uint32_t j = 0; j < ny; j++)
        for (uint32_t i = 0; i < nx; i++)
            total += window_ssim(a, b, window_start(a->width, i), window_start(a->height, j), w, h);

    if (out_ssim) *out_ssim = total / ((double)nx * ny);
    return true;
}

/* Pixel (x, y) as RGBA8, quantising float formats the way kiln_image_to_rgba8 does. */
static void rgba8_at(const kiln_image *img, uint32_t x, uint32_t y, uint8_t out[4]) {
    if (img->format == KILN_IMAGE_RGBA8) {
        memcpy(out, (const uint8_t *)img->pixels + ((size_t)y * img->width + x) * 4, 4);
        return;
    }
    float rgba[4];
    kiln_image_read_pixel(img, x, y, rgba);
    for (int c = 0; c < 4; c++) out[c] = kiln_unorm8_from_float(rgba[c]);
}

bool kiln_image_diff_fraction(const kiln_image *a, const kiln_image *b, unsigned threshold,
                              double *out_fraction, kiln_error *err) {
    if (!check_pair(a, b, "diff fraction", err)) return false;

    size_t differing = 0;
    for (uint32_t y = 0; y < a->height; y++) {
        for (uint32_t x = 0; x < a->width; x++) {
            uint8_t pa[4], pb[4];
            rgba8_at(a, x, y, pa);
            rgba8_at(b, x, y, pb);
            for (int c = 0; c < 4; c++) {
                unsigned delta = pa[c] > pb[c] ? (unsigned)(pa[c] - pb[c]) : (unsigned)(pb[c] - pa[c]);
                if (delta > threshold) {
                    differing++;
                    break;
                }
            }
        }
    }
    if (out_fraction) *out_fraction = (double)differing / ((double)a->width * a->height);
    return true;
}
