/* Data images: one-channel float and 16-bit integer images written as PFM and 16-bit greyscale
 * PNG (image.h), for depth maps and instance masks whose values must survive exactly, which the
 * RGBA8 PNG writer cannot carry. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core.h>

/* libstb exports stb_image_write's zlib compressor (STBIWDEF) without declaring it outside the
 * implementation section; the PNG writer below needs it for its IDAT. Returns malloc'd bytes. */
unsigned char *stbi_zlib_compress(unsigned char *data, int data_len, int *out_len, int quality);

bool kiln_image_write_pfm(const char *path, const float *values, uint32_t width, uint32_t height, kiln_error *err) {
    if (!path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "write pfm: no path");
    if (!values || !width || !height)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: no image to write", path);
    char header[64];
    /* A negative scale says little-endian, which every machine kiln runs on is. */
    int n = snprintf(header, sizeof header, "Pf\n%u %u\n-1.0\n", width, height);
    size_t row = (size_t)width * sizeof(float), size = (size_t)n + row * height;
    unsigned char *bytes = malloc(size);
    if (!bytes) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory for %ux%u", path, width, height);
    memcpy(bytes, header, (size_t)n);
    /* PFM stores the bottom row first. */
    for (uint32_t y = 0; y < height; y++)
        memcpy(bytes + n + (size_t)y * row, values + (size_t)(height - 1 - y) * width, row);
    bool ok = kiln_write_file(path, bytes, size, err);
    free(bytes);
    return ok;
}

/* ---- 16-bit greyscale PNG --------------------------------------------------------------------- */

static uint32_t crc32_of(uint32_t crc, const unsigned char *p, size_t n) {
    static uint32_t table[256];
    if (!table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
    }
    crc = ~crc;
    for (size_t i = 0; i < n; i++) crc = table[(crc ^ p[i]) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

static unsigned char *put_u32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16), p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
    return p + 4;
}

/* One chunk: length, type, data, and the CRC of type and data. */
static unsigned char *put_chunk(unsigned char *p, const char type[4], const unsigned char *data, uint32_t length) {
    p = put_u32(p, length);
    unsigned char *typed = p;
    memcpy(p, type, 4);
    if (length) memcpy(p + 4, data, length);
    p += 4 + length;
    return put_u32(p, crc32_of(0, typed, 4 + (size_t)length));
}

bool kiln_image_write_png_gray16(const char *path, const uint16_t *values, uint32_t width, uint32_t height,
                                 kiln_error *err) {
    if (!path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "write png: no path");
    if (!values || !width || !height)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: no image to write", path);
    size_t row = 1 + (size_t)width * 2; /* a filter byte, then big-endian samples */
    if (row * height > INT_MAX)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: %ux%u is too large for PNG", path, width, height);
    unsigned char *raw = malloc(row * height);
    if (!raw) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory for %ux%u", path, width, height);
    for (uint32_t y = 0; y < height; y++) {
        unsigned char *r = raw + y * row;
        r[0] = 0; /* filter None: masks are long runs of one value, which deflate takes as they are */
        for (uint32_t x = 0; x < width; x++) {
            uint16_t v = values[(size_t)y * width + x];
            r[1 + 2 * x] = (unsigned char)(v >> 8), r[2 + 2 * x] = (unsigned char)v;
        }
    }
    int compressed_size = 0;
    unsigned char *compressed = stbi_zlib_compress(raw, (int)(row * height), &compressed_size, 8);
    free(raw);
    if (!compressed) return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory compressing", path);
    size_t size = 8 + (12 + 13) + (12 + (size_t)compressed_size) + 12;
    unsigned char *png = malloc(size);
    if (!png) {
        free(compressed);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes", path, size);
    }
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char ihdr[13];
    put_u32(put_u32(ihdr, width), height);
    ihdr[8] = 16;  /* bit depth */
    ihdr[9] = 0;   /* colour type: greyscale */
    ihdr[10] = 0, ihdr[11] = 0, ihdr[12] = 0; /* deflate, adaptive filtering, no interlace */
    memcpy(png, signature, 8);
    unsigned char *p = put_chunk(png + 8, "IHDR", ihdr, 13);
    p = put_chunk(p, "IDAT", compressed, (uint32_t)compressed_size);
    put_chunk(p, "IEND", NULL, 0);
    free(compressed);
    bool ok = kiln_write_file(path, png, size, err);
    free(png);
    return ok;
}
