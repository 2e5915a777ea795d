/* Error reporting: formatting, truncation and the NULL-tolerant contract. */
#include <kiln/core/error.h>

#include "test.h"

static bool fail_with_path(const char *path, kiln_error *err) {
    return kiln_error_set(err, KILN_ERR_IO, "%s: cannot open", path);
}

TEST(set_fills_code_and_formatted_message_and_returns_false) {
    kiln_error err = {0};
    CHECK(!fail_with_path("scene.gltf", &err));
    CHECK_EQ_INT(err.code, KILN_ERR_IO);
    CHECK(strcmp(err.message, "scene.gltf: cannot open") == 0);
}

TEST(set_without_an_error_struct_still_returns_false) {
    CHECK(!fail_with_path("x", NULL));
}

TEST(long_messages_are_truncated_and_terminated) {
    char long_text[2000];
    memset(long_text, 'y', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    kiln_error err;
    kiln_error_set(&err, KILN_ERR_FORMAT, "%s", long_text);
    CHECK_EQ_INT(strlen(err.message), sizeof err.message - 1);
}

TEST(clear_resets_code_and_message) {
    kiln_error err;
    kiln_error_set(&err, KILN_ERR_BUSY, "busy");
    kiln_error_clear(&err);
    CHECK_EQ_INT(err.code, KILN_ERR_NONE);
    CHECK(err.message[0] == '\0');
}

TEST(code_names_describe_each_code) {
    CHECK(strcmp(kiln_error_code_name(KILN_ERR_INVALID_HANDLE), "invalid handle") == 0);
    CHECK(strcmp(kiln_error_code_name(KILN_ERR_DEVICE_LOST), "device lost") == 0);
    CHECK(strcmp(kiln_error_code_name(-3), "unknown") == 0);
    for (int code = KILN_ERR_NONE; code <= KILN_ERR_BUSY; code++)
        CHECK(strcmp(kiln_error_code_name(code), "unknown") != 0);
}

TEST_MAIN(T(set_fills_code_and_formatted_message_and_returns_false),
          T(set_without_an_error_struct_still_returns_false),
          T(long_messages_are_truncated_and_terminated), T(clear_resets_code_and_message),
          T(code_names_describe_each_code))
