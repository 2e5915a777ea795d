/* Growable arrays and whole-file reads. */
#include <kiln/core/containers.h>

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

TEST_MAIN(T(reserve_doubles_and_keeps_contents), T(reserve_refuses_an_impossible_size_and_keeps_the_array),
          T(read_file_returns_the_bytes_nul_terminated), T(read_file_names_a_missing_path))
