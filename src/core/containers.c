/* Growable arrays and whole-file reads (include/core/kiln/core/containers.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/core/containers.h>

void *kiln_array_reserve(void *items, uint32_t *capacity, uint32_t need, size_t item_size) {
    if (need <= *capacity && items) return items;
    uint64_t cap = *capacity ? *capacity : 8;
    while (cap < need) cap *= 2;
    if (cap > UINT32_MAX || cap * item_size > SIZE_MAX / 2) return NULL;
    void *grown = realloc(items, (size_t)cap * item_size);
    if (grown) *capacity = (uint32_t)cap;
    return grown;
}

bool kiln_read_file(const char *path, char **out_bytes, size_t *out_size, kiln_error *err) {
    *out_bytes = NULL;
    *out_size = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return kiln_error_set(err, KILN_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    long end = -1;
    if (fseek(f, 0, SEEK_END) == 0) end = ftell(f);
    if (end < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return kiln_error_set(err, KILN_ERR_IO, "%s: cannot determine file size", path);
    }
    size_t size = (size_t)end;
    char *bytes = malloc(size + 1);
    if (!bytes) {
        fclose(f);
        return kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", path, size);
    }
    size_t got = fread(bytes, 1, size, f);
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed || got != size) {
        free(bytes);
        return kiln_error_set(err, KILN_ERR_IO, "%s: read %zu of %zu bytes", path, got, size);
    }
    bytes[size] = '\0';
    *out_bytes = bytes;
    *out_size = size;
    return true;
}
