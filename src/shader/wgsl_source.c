/* Name resolution for WGSL assembly: the source's generated files (texts its user built from C
 * tables, which nothing may shadow), then the source (a directory on disk or an embedded set of
 * named texts), then kiln's built-in set, so a directory that overrides kiln's shaders can still
 * #include a built-in it does not carry, and can override one by holding a file of its name. */
#include "wgsl_source.h"

#include <kiln/core/containers.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The .wgsl files of src/shader/shaders, embedded by cmake/embed_set.cmake. */
extern const kiln_wgsl_embedded_file kiln_wgsl_builtin_files[];
extern const uint32_t kiln_wgsl_builtin_files_count;

bool wgsl_source_check(const kiln_wgsl_source *source, kiln_error *err) {
    if (source->directory && source->file_count)
        return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT,
                              "a WGSL source is a directory or an embedded set, not both (directory %s, %u files)",
                              source->directory, source->file_count);
    for (uint32_t i = 0; i < source->file_count; i++)
        if (!source->files[i].name || !source->files[i].text)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "embedded WGSL file %u has no %s", i,
                                  source->files[i].name ? "text" : "name");
    for (uint32_t i = 0; i < source->generated_count; i++)
        if (!source->generated[i].name || !source->generated[i].text)
            return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "generated WGSL file %u has no %s", i,
                                  source->generated[i].name ? "text" : "name");
    return true;
}

char *wgsl_join_path(const char *directory, const char *name) {
    size_t d = strlen(directory), n = strlen(name);
    char *path = malloc(d + n + 2);
    if (!path) return NULL;
    if (d == 0) {
        memcpy(path, name, n + 1);
        return path;
    }
    memcpy(path, directory, d);
    path[d] = '/';
    memcpy(path + d + 1, name, n + 1);
    return path;
}

static int find_on_disk(const char *directory, const char *name, wgsl_found_file *found) {
    char *path = wgsl_join_path(directory, name);
    if (!path) return ENOMEM;
    /* Core's reader: regular files only, opened without blocking, refused past the cap. */
    kiln_file_stamp stamp;
    kiln_error ignored = {0};
    if (!kiln_read_file_limited(path, KILN_WGSL_MAX_FILE_BYTES, "a WGSL file", &found->text, &found->length, &stamp,
                                &ignored)) {
        int error_number = errno;
        free(path);
        return error_number;
    }
    found->identity = (wgsl_file_identity){.device = stamp.device, .inode = stamp.inode};
    found->path = path;
    found->mtime_ns = stamp.mtime_ns;
    return 0;
}

/* Names in a set match exactly: there is no directory to normalise them against. */
static int find_embedded(const kiln_wgsl_embedded_file *files, uint32_t count, const char *name,
                         wgsl_found_file *found) {
    for (uint32_t i = 0; i < count; i++) {
        if (strcmp(files[i].name, name) != 0) continue;
        if (!(found->text = strdup(files[i].text))) return ENOMEM;
        found->identity = (wgsl_file_identity){.embedded = files[i].text};
        found->length = strlen(files[i].text);
        return 0;
    }
    return ENOENT;
}

int wgsl_source_find(const kiln_wgsl_source *source, const char *name, wgsl_found_file *found) {
    *found = (wgsl_found_file){0};
    /* Only a name a place lacks falls through to the next; any other read error is the answer. */
    int error_number = find_embedded(source->generated, source->generated_count, name, found);
    if (error_number != ENOENT) return error_number;
    error_number = source->directory ? find_on_disk(source->directory, name, found)
                                     : find_embedded(source->files, source->file_count, name, found);
    if (error_number != ENOENT) return error_number;
    return find_embedded(kiln_wgsl_builtin_files, kiln_wgsl_builtin_files_count, name, found);
}

_Static_assert(KILN_WGSL_MAX_FILE_BYTES == 4194304, "wgsl_source_error_text names the limit");

const char *wgsl_source_error_text(int error_number) {
    if (error_number == EINVAL) return "is not a regular file (a FIFO, device or socket)";
    if (error_number == EFBIG) return "is over the 4194304-byte limit for a WGSL file (KILN_WGSL_MAX_FILE_BYTES)";
    return strerror(error_number);
}

bool wgsl_same_file(wgsl_file_identity a, wgsl_file_identity b) {
    if (a.embedded || b.embedded) return a.embedded == b.embedded;
    return a.device == b.device && a.inode == b.inode;
}
