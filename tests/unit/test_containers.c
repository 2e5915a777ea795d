/* Growable arrays and whole-file reads. */
#include <kiln/core/containers.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

TEST(reserve_doubles_and_keeps_contents) {
    uint32_t capacity = 0;
    int *items = NULL;
    items = kiln_array_reserve(items, &capacity, 1, sizeof *items);
    CHECK(items);
    CHECK_EQ_INT(capacity, 8);
    for (int i = 0; i < 8; i++) items[i] = i * 3;
    int *same = kiln_array_reserve(items, &capacity, 8, sizeof *items);
    CHECK(same == items); /* large enough: untouched */
    items = kiln_array_reserve(items, &capacity, 20, sizeof *items);
    CHECK(items);
    CHECK_EQ_INT(capacity, 32);
    for (int i = 0; i < 8; i++) CHECK_EQ_INT(items[i], i * 3);
    free(items);
}

TEST(reserve_refuses_an_impossible_size_and_keeps_the_array) {
    uint32_t capacity = 8;
    char *items = malloc(8);
    CHECK(items);
    CHECK(kiln_array_reserve(items, &capacity, UINT32_MAX, SIZE_MAX / 4) == NULL);
    CHECK_EQ_INT(capacity, 8);
    free(items);
}

TEST(read_file_returns_the_bytes_nul_terminated) {
    const char *dir = getenv("KILN_TEST_TMP");
    char path[512];
    snprintf(path, sizeof path, "%s/containers.txt", dir && *dir ? dir : "/tmp");
    FILE *f = fopen(path, "wb");
    CHECK(f);
    fputs("hello\nkiln", f);
    fclose(f);
    char *bytes;
    size_t size;
    kiln_error err = {0};
    CHECK_MSG(kiln_read_file(path, &bytes, &size, &err), "%s", err.message);
    CHECK_EQ_INT(size, 10);
    CHECK(strcmp(bytes, "hello\nkiln") == 0);
    free(bytes);
    remove(path);
}

TEST(read_file_names_a_missing_path) {
    char *bytes = (char *)1;
    size_t size = 7;
    kiln_error err = {0};
    CHECK(!kiln_read_file("/nonexistent/kiln/file.txt", &bytes, &size, &err));
    CHECK(bytes == NULL && size == 0);
    CHECK_STR_CONTAINS(err.message, "/nonexistent/kiln/file.txt: cannot open: No such file");
}

/* A scratch directory of this run: $KILN_TEST_TMP (CTest's), $TMPDIR or /tmp, made unique. */
static bool scratch_dir(char *out, size_t size) {
    const char *root = getenv("KILN_TEST_TMP");
    if (!root || !*root) root = getenv("TMPDIR");
    if (!root || !*root) root = "/tmp";
    snprintf(out, size, "%s/kiln_read_file_XXXXXX", root);
    return mkdtemp(out) != NULL;
}

static bool write_bytes(const char *path, const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(text, 1, n, f) == n;
    return f && fclose(f) == 0 && ok;
}

/* What only a regular file may be: each other kind of path fails at once, naming the path and
 * what it is, with nothing allocated (a FIFO with no writer would block a plain fopen forever). */
TEST(read_file_refuses_what_is_not_a_regular_file) {
    char dir[512], fifo[600];
    CHECK(scratch_dir(dir, sizeof dir));
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    CHECK(mkfifo(fifo, 0600) == 0);
    struct {
        const char *path, *message;
    } cases[] = {
        {dir, "is a directory"},
        {fifo, "is not a regular file (a FIFO)"},
        {"/dev/zero", "is not a regular file (a character device)"},
        {"/dev/null", "is not a regular file (a character device)"},
    };
    bool all = true;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *bytes = (char *)1, want[1024];
        size_t size = 7;
        kiln_error err = {0};
        bool read = kiln_read_file(cases[i].path, &bytes, &size, &err);
        snprintf(want, sizeof want, "%s: %s", cases[i].path, cases[i].message);
        if (read || bytes != NULL || size != 0 || strcmp(err.message, want) != 0) {
            fprintf(stderr, "case %zu: read %d, '%s', wanted '%s'\n", i, read, err.message, want);
            all = false;
        }
    }
    unlink(fifo);
    rmdir(dir);
    CHECK(all);
}

/* /proc files report a size of 0 and have content: the file is read to its end. */
TEST(read_file_reads_to_the_end_not_to_the_reported_size) {
    char *bytes = NULL;
    size_t size = 0;
    kiln_error err = {0};
    CHECK_MSG(kiln_read_file("/proc/self/status", &bytes, &size, &err), "%s", err.message);
    bool named = size > 0 && strstr(bytes, "Name:") != NULL;
    free(bytes);
    CHECK(named);
}

/* A limit is checked before anything is allocated for the claimed size, and again while reading;
 * a file of exactly the limit reads. */
TEST(read_file_limited_refuses_a_file_over_its_limit) {
    char dir[512], path[600];
    CHECK(scratch_dir(dir, sizeof dir));
    snprintf(path, sizeof path, "%s/shader.wgsl", dir);
    CHECK(write_bytes(path, "0123456789abcdefX", 17));
    char *bytes = NULL, want[1024];
    size_t size = 0;
    kiln_error err = {0};
    bool over = kiln_read_file_limited(path, 16, "a WGSL source", &bytes, &size, NULL, &err);
    snprintf(want, sizeof want, "%s: is over the 16-byte limit for a WGSL source (17 bytes)", path);
    bool message_ok = !over && bytes == NULL && strcmp(err.message, want) == 0;
    if (!message_ok) fprintf(stderr, "got '%s'\n", err.message);
    kiln_file_stamp stamp = {0};
    bool exact = kiln_read_file_limited(path, 17, NULL, &bytes, &size, &stamp, &err);
    bool exact_ok = exact && size == 17 && bytes[16] == 'X' && bytes[17] == '\0' && stamp.inode != 0 && stamp.mtime_ns > 0;
    free(bytes);
    unlink(path);
    rmdir(dir);
    CHECK(message_ok);
    CHECK_MSG(exact_ok, "%s", err.message);
}

/* #12 class 7: a write is checked through its close, so a full disk is an error naming the path. */
TEST(write_file_checks_every_step_and_names_the_path) {
    const char *dir = getenv("KILN_TEST_TMP");
    char path[512];
    snprintf(path, sizeof path, "%s/containers_written.bin", dir && *dir ? dir : "/tmp");
    kiln_error err = {0};
    CHECK_MSG(kiln_write_file(path, "abc\0def", 7, &err), "%s", err.message);
    char *bytes = NULL;
    size_t size = 0;
    CHECK_MSG(kiln_read_file(path, &bytes, &size, &err), "%s", err.message);
    CHECK(size == 7 && memcmp(bytes, "abc\0def", 7) == 0);
    free(bytes);
    remove(path);
    struct {
        const char *path, *message;
    } cases[] = {
        {"/dev/full", "/dev/full: cannot write: No space left on device"},
        {"/no/such/dir/x.bin", "/no/such/dir/x.bin: cannot write: No such file or directory"},
        {"/", "/: cannot write: Is a directory"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        kiln_error_clear(&err);
        CHECK_MSG(!kiln_write_file(cases[c].path, "x", 1, &err), "%s accepted", cases[c].path);
        CHECK_STR_CONTAINS(err.message, cases[c].message);
        CHECK_EQ_INT(err.code, KILN_ERR_IO);
    }
}

TEST_MAIN(T(reserve_doubles_and_keeps_contents), T(reserve_refuses_an_impossible_size_and_keeps_the_array),
          T(read_file_returns_the_bytes_nul_terminated), T(read_file_names_a_missing_path),
          T(read_file_refuses_what_is_not_a_regular_file), T(read_file_reads_to_the_end_not_to_the_reported_size),
          T(read_file_limited_refuses_a_file_over_its_limit), T(write_file_checks_every_step_and_names_the_path))
