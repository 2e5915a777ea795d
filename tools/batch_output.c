/* Whole files or none (batch_output.h). */
#include "batch_output.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* mkdir -p of path's directory; false with err when a parent cannot be made. */
static bool make_parents(const char *path, kiln_error *err) {
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: path too long", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir) return true;
    *slash = '\0';
    struct stat st;
    if (!stat(dir, &st)) return true;
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(dir, 0777) && errno != EEXIST) return kiln_error_set(err, KILN_ERR_IO, "%s: cannot make: %s", dir, strerror(errno));
        *p = '/';
    }
    if (mkdir(dir, 0777) && errno != EEXIST) return kiln_error_set(err, KILN_ERR_IO, "%s: cannot make: %s", dir, strerror(errno));
    return true;
}

/* Writes through write(partial) and renames over path: path is absent, old or new, never half. */
typedef bool (*write_fn)(const char *partial, const void *what, kiln_error *err);

static bool write_whole(const char *path, write_fn write, const void *what, kiln_error *err) {
    char partial[4096 + 64];
    if (snprintf(partial, sizeof partial, "%s.partial", path) >= (int)sizeof partial)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: path too long", path);
    if (!make_parents(path, err)) return false;
    if (!write(partial, what, err)) {
        remove(partial);
        return false;
    }
    if (rename(partial, path)) {
        int e = errno;
        remove(partial);
        return kiln_error_set(err, KILN_ERR_IO, "%s: cannot rename %s over it: %s", path, partial, strerror(e));
    }
    return true;
}

static bool write_png(const char *partial, const void *what, kiln_error *err) {
    return kiln_image_write_png(what, partial, err);
}

bool batch_output_write_png(const kiln_image *img, const char *path, kiln_error *err) {
    return write_whole(path, write_png, img, err);
}

typedef struct plane {
    const void *values;
    uint32_t width, height;
} plane;

static bool write_pfm(const char *partial, const void *what, kiln_error *err) {
    const plane *p = what;
    return kiln_image_write_pfm(partial, p->values, p->width, p->height, err);
}

static bool write_gray16(const char *partial, const void *what, kiln_error *err) {
    const plane *p = what;
    return kiln_image_write_png_gray16(partial, p->values, p->width, p->height, err);
}

bool batch_output_write_pfm(const float *values, uint32_t width, uint32_t height, const char *path, kiln_error *err) {
    return write_whole(path, write_pfm, &(plane){values, width, height}, err);
}

bool batch_output_write_gray16(const uint16_t *values, uint32_t width, uint32_t height, const char *path,
                               kiln_error *err) {
    return write_whole(path, write_gray16, &(plane){values, width, height}, err);
}

static uint32_t big_endian32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

bool batch_png_is_complete(const char *path, uint32_t width, uint32_t height) {
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /* The IEND chunk: length 0, its type, and the CRC of the type. */
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82};
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    unsigned char head[24], tail[12];
    bool ok = fread(head, 1, sizeof head, f) == sizeof head && !memcmp(head, signature, 8) &&
              !memcmp(head + 12, "IHDR", 4) && big_endian32(head + 16) == width && big_endian32(head + 20) == height &&
              !fseek(f, -(long)sizeof tail, SEEK_END) && fread(tail, 1, sizeof tail, f) == sizeof tail &&
              !memcmp(tail, iend, sizeof iend);
    fclose(f);
    return ok;
}

bool batch_pfm_is_complete(const char *path, uint32_t width, uint32_t height) {
    char expected[64], head[64] = {0};
    int n = snprintf(expected, sizeof expected, "Pf\n%u %u\n-1.0\n", width, height);
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool ok = fread(head, 1, (size_t)n, f) == (size_t)n && !memcmp(head, expected, (size_t)n) && !fseek(f, 0, SEEK_END) &&
              ftell(f) == (long)n + (long)width * (long)height * 4;
    fclose(f);
    return ok;
}
