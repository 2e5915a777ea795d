/* Small growable arrays and whole-file reads: the two helpers every layer kept writing again. */
#ifndef KILN_CORE_CONTAINERS_H
#define KILN_CORE_CONTAINERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <kiln/core/error.h>

/* The number of elements of a fixed-size array (not a pointer), as a uint32_t. */
#define KILN_ARRAY_COUNT(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* Returns `items` grown (each item_size bytes) to hold at least `need` items, doubling from 8 and
 * updating *capacity; returns `items` unchanged when it is already large enough, and NULL when
 * memory is short (`items` is then left as it was, still owned by the caller). */
void *kiln_array_reserve(void *items, uint32_t *capacity, uint32_t need, size_t item_size);

/* The most kiln_read_file reads from one file: 1 GiB. A larger file is refused before anything
 * is allocated for it. */
#define KILN_READ_FILE_MAX_BYTES ((size_t)1 << 30)

/* Reads a whole file into a new malloc'd buffer the caller frees, NUL-terminated one byte past
 * *size so text can be used as a C string. Only a regular file is read: the path is opened
 * without blocking (a FIFO with no writer does not hang the caller) and a directory, FIFO,
 * device or socket is refused ("sky.hdr: is a directory", "x: is not a regular file (a FIFO)");
 * the file is read to its end, not to the size the file system reports (so /proc files read
 * whole), and one longer than KILN_READ_FILE_MAX_BYTES is refused. Errors name the path and the
 * reason. */
bool kiln_read_file(const char *path, char **bytes, size_t *size, kiln_error *err);

/* What a file read was, for a caller that watches it for changes. */
typedef struct kiln_file_stamp {
    uint64_t device;              /* the file system the file is on */
    uint64_t inode;               /* with device: which file it is, whatever path named it */
    int64_t mtime_ns;             /* its modification time, in nanoseconds */
} kiln_file_stamp;

/* As kiln_read_file with a limit of its own (at most max_bytes; a longer file fails with
 * "<path>: is over the N-byte limit for <what>") and, when stamp is not NULL, the file's stamp.
 * `what` names what the file is for in that message ("a WGSL source"); NULL says "a file". On
 * failure errno says why as well, for a caller that tells the cases apart: the open's own
 * (ENOENT for a missing file), EISDIR, EINVAL (not a regular file), EFBIG (over the limit),
 * ENOMEM. */
bool kiln_read_file_limited(const char *path, size_t max_bytes, const char *what, char **bytes, size_t *size,
                            kiln_file_stamp *stamp, kiln_error *err);

/* Writes `size` bytes to path, creating or truncating it, and checks every step, the close
 * included (a full disk often shows only there: "-o /dev/full" must not report success). Fails
 * with "<path>: cannot write: <reason>"; a failed write may leave a partial file behind. */
bool kiln_write_file(const char *path, const void *bytes, size_t size, kiln_error *err);

#endif
