/* Growable arrays and whole-file reads (include/core/kiln/core/containers.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* Why a file that is not a regular one cannot be read whole. */
static const char *kind_of(mode_t mode) {
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a file";
}

bool kiln_read_file_limited(const char *path, size_t max_bytes, const char *what, char **out_bytes, size_t *out_size,
                            kiln_file_stamp *stamp, kiln_error *err) {
    *out_bytes = NULL;
    *out_size = 0;
    if (!path) return errno = EINVAL, kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "read file: no path");
    /* Non-blocking, so a FIFO without a writer opens at once and is refused below. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        kiln_error_set(err, KILN_ERR_IO, "%s: cannot open: %s", path, strerror(e));
        return errno = e, false;
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        kiln_error_set(err, KILN_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
        return errno = e, false;
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        kiln_error_set(err, KILN_ERR_IO, "%s: is a directory", path);
        return errno = EISDIR, false;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        kiln_error_set(err, KILN_ERR_IO, "%s: is not a regular file (%s)", path, kind_of(st.st_mode));
        return errno = EINVAL, false;
    }
    const char *purpose = what ? what : "a file";
    if ((uint64_t)st.st_size > max_bytes) {
        close(fd);
        kiln_error_set(err, KILN_ERR_IO, "%s: is over the %zu-byte limit for %s (%lld bytes)", path, max_bytes, purpose,
                       (long long)st.st_size);
        return errno = EFBIG, false;
    }
    /* Read to the end, growing past the reported size: /proc files report 0 and have content. */
    size_t capacity = (size_t)st.st_size + 1 < 4096 ? 4096 : (size_t)st.st_size + 1, size = 0;
    char *bytes = malloc(capacity);
    bool ok = bytes != NULL;
    int why = ok ? 0 : ENOMEM;
    if (!ok) kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", path, capacity);
    while (ok) {
        if (size + 1 == capacity) {
            /* Room for one byte past the limit, which the size check below refuses. */
            size_t grown_capacity = capacity * 2 > max_bytes + 1 ? max_bytes + 2 : capacity * 2;
            char *grown = realloc(bytes, grown_capacity);
            if (!grown) {
                why = ENOMEM;
                ok = kiln_error_set(err, KILN_ERR_OUT_OF_MEMORY, "%s: cannot allocate %zu bytes", path, grown_capacity);
                break;
            }
            bytes = grown;
            capacity = grown_capacity;
        }
        ssize_t got = read(fd, bytes + size, capacity - 1 - size);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            why = errno;
            ok = kiln_error_set(err, KILN_ERR_IO, "%s: read failed after %zu bytes: %s", path, size, strerror(errno));
            break;
        }
        if (got == 0) break;
        size += (size_t)got;
        if (size > max_bytes) {
            why = EFBIG;
            ok = kiln_error_set(err, KILN_ERR_IO, "%s: is over the %zu-byte limit for %s", path, max_bytes, purpose);
            break;
        }
    }
    close(fd);
    if (!ok) {
        free(bytes);
        return errno = why, false;
    }
    bytes[size] = '\0';
    if (stamp)
        *stamp = (kiln_file_stamp){.device = (uint64_t)st.st_dev, .inode = (uint64_t)st.st_ino,
                                   .mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec};
    *out_bytes = bytes;
    *out_size = size;
    return true;
}

bool kiln_read_file(const char *path, char **out_bytes, size_t *out_size, kiln_error *err) {
    return kiln_read_file_limited(path, KILN_READ_FILE_MAX_BYTES, NULL, out_bytes, out_size, NULL, err);
}

bool kiln_write_file(const char *path, const void *bytes, size_t size, kiln_error *err) {
    if (!path) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "write file: no path");
    if (size && !bytes) return kiln_error_set(err, KILN_ERR_INVALID_ARGUMENT, "%s: nothing to write", path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return kiln_error_set(err, KILN_ERR_IO, "%s: cannot write: %s", path, strerror(errno));
    const char *p = bytes;
    size_t left = size;
    int why = 0;
    while (left > 0 && !why) {
        ssize_t n = write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) why = n < 0 ? errno : EIO;
        else p += n, left -= (size_t)n;
    }
    if (close(fd) != 0 && !why) why = errno;
    if (why) return kiln_error_set(err, KILN_ERR_IO, "%s: cannot write: %s", path, strerror(why));
    return true;
}
