/* Name resolution for WGSL assembly: the source (a directory on disk or an embedded set of named
 * texts) first, then kiln's built-in set, so a directory that overrides kiln's shaders can still
 * #include a built-in it does not carry, and can override one by holding a file of its name. */
#include "wgsl_source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Reads the whole of an open regular file whose size fstat gave; the text is NUL-terminated. */
static char *read_all(FILE *f, size_t size, size_t *length) {
    char *text = malloc(size + 1);
    if (!text) return NULL;
    size_t got = fread(text, 1, size, f);
    text[got] = '\0';
    *length = got;
    return text;
}

/* Stats an open file: 0 for a regular file, else an errno value saying why it cannot be a source. */
_Static_assert(KILN_WGSL_MAX_FILE_BYTES == 4194304, "wgsl_source_error_text names the limit");

static int regular_file_error(FILE *f, struct stat *st) {
    if (fstat(fileno(f), st) != 0) return errno;
    if (S_ISDIR(st->st_mode)) return EISDIR;
    return S_ISREG(st->st_mode) ? 0 : EINVAL;
}

/* Opens without blocking, so a FIFO in the shader directory is refused instead of hanging. */
static FILE *open_nonblocking(const char *path) {
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) close(fd);
    return f;
}

static int find_on_disk(const char *directory, const char *name, wgsl_found_file *found) {
    char *path = wgsl_join_path(directory, name);
    if (!path) return ENOMEM;
    FILE *f = open_nonblocking(path);
    struct stat st;
    int error_number = f ? regular_file_error(f, &st) : errno;
    if (!error_number && (uint64_t)st.st_size > KILN_WGSL_MAX_FILE_BYTES) error_number = EFBIG;
    if (!error_number && !(found->text = read_all(f, (size_t)st.st_size, &found->length))) error_number = ENOMEM;
    if (f) fclose(f);
    if (error_number) {
        free(path);
        return error_number;
    }
    found->identity = (wgsl_file_identity){.device = st.st_dev, .inode = st.st_ino};
    found->path = path;
    found->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
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
    int error_number = source->directory ? find_on_disk(source->directory, name, found)
                                         : find_embedded(source->files, source->file_count, name, found);
    /* Only a name the source lacks falls through; any other read error is the answer. */
    if (error_number != ENOENT) return error_number;
    return find_embedded(kiln_wgsl_builtin_files, kiln_wgsl_builtin_files_count, name, found);
}

const char *wgsl_source_error_text(int error_number) {
    if (error_number == EINVAL) return "is not a regular file (a FIFO, device or socket)";
    if (error_number == EFBIG) return "is over the 4194304-byte limit for a WGSL file (KILN_WGSL_MAX_FILE_BYTES)";
    return strerror(error_number);
}

bool wgsl_same_file(wgsl_file_identity a, wgsl_file_identity b) {
    if (a.embedded || b.embedded) return a.embedded == b.embedded;
    return a.device == b.device && a.inode == b.inode;
}
