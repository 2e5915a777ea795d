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

bool batch_output_write_png(const kiln_image *img, const char *path, kiln_error *err) {
    char partial[4096 + 64];
    if (snprintf(partial, sizeof partial, "%s.partial", path) >= (int)sizeof partial)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: path too long", path);
    if (!make_parents(path, err)) return false;
    if (!kiln_image_write_png(img, partial, err)) {
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
