/* Base64 in core (kiln/core/base64.h): the one decoder glTF data URIs and JSON blobs share. Each
 * row is a text and what it decodes to, or the exact refusal. */
#include <stdlib.h>
#include <string.h>

#include <kiln/core/base64.h>

#include "test.h"

typedef struct decode_case {
    const char *text;
    const char *bytes; /* the expected bytes, NULL when the text is refused */
    size_t size;
    const char *error; /* the expected message when refused */
} decode_case;

static void check_decode_rows(const decode_case *cases, size_t count) {
    for (size_t i = 0; i < count; i++) {
        uint8_t *bytes = (uint8_t *)"not written";
        size_t size = 99;
        kiln_error err = {0};
        bool ok = kiln_base64_decode(cases[i].text, strlen(cases[i].text), &bytes, &size, &err);
        if (cases[i].bytes) {
            CHECK_MSG(ok, "row %zu (%s): %s", i, cases[i].text, err.message);
            CHECK_MSG(size == cases[i].size, "row %zu: %zu bytes", i, size);
            CHECK_MSG(size == 0 ? bytes == NULL : memcmp(bytes, cases[i].bytes, size) == 0, "row %zu: other bytes", i);
        } else {
            CHECK_MSG(!ok && bytes == NULL && size == 0, "row %zu (%s) was accepted", i, cases[i].text);
            CHECK_MSG(err.code == KILN_ERR_FORMAT, "row %zu: code %d", i, err.code);
            CHECK_MSG(strcmp(err.message, cases[i].error) == 0, "row %zu: \"%s\"", i, err.message);
        }
        if (ok) free(bytes);
    }
}

TEST(valid_text_decodes_to_its_bytes) {
    static const decode_case cases[] = {
        {"", "", 0, NULL},
        {"aGVsbG8=", "hello", 5, NULL},
        {"aGVsbG8h", "hello!", 6, NULL},
        {"aA==", "h", 1, NULL},
        {"aGVsbG/7774=", "hello\xfb\xef\xbe", 8, NULL},
        {"+/+//g==", "\xfb\xff\xbf\xfe", 4, NULL}, /* '+' and '/' */
        {"-_-__g==", "\xfb\xff\xbf\xfe", 4, NULL}, /* the same bytes in the URL-safe alphabet */
        {"AAEC/w==", "\x00\x01\x02\xff", 4, NULL},
    };
    check_decode_rows(cases, sizeof cases / sizeof cases[0]);
}

TEST(padding_is_optional) {
    static const decode_case cases[] = {
        {"aA", "h", 1, NULL},
        {"aGk", "hi", 2, NULL},
        {"aGk=", "hi", 2, NULL},
        {"aGVsbG8", "hello", 5, NULL},
    };
    check_decode_rows(cases, sizeof cases / sizeof cases[0]);
}

TEST(a_bad_character_is_named_with_its_offset) {
    static const decode_case cases[] = {
        {"AA*A", NULL, 0, "invalid base64 character '*' at offset 2"},
        {"aGk!", NULL, 0, "invalid base64 character '!' at offset 3"},
        {"aG k", NULL, 0, "invalid base64 character ' ' at offset 2"},
        {"AA=A", NULL, 0, "invalid base64 character '=' at offset 2"}, /* padding only at the end */
        {"A===", NULL, 0, "invalid base64 character '=' at offset 1"}, /* at most two pads */
        {"\x80" "AAA", NULL, 0, "invalid base64 byte 0x80 at offset 0"},
        {"AAA\n", NULL, 0, "invalid base64 byte 0x0a at offset 3"},
        {"+A_A", NULL, 0, "base64 character '_' at offset 2 mixes the URL-safe and standard alphabets"},
        {"-AA/", NULL, 0, "base64 character '/' at offset 3 mixes the URL-safe and standard alphabets"},
    };
    check_decode_rows(cases, sizeof cases / sizeof cases[0]);
}

TEST(a_length_that_leaves_stray_bits_is_refused) {
    static const decode_case cases[] = {
        {"A", NULL, 0, "base64 text of 1 characters is not a whole number of bytes"},
        {"aGVsb", NULL, 0, "base64 text of 5 characters is not a whole number of bytes"},
        {"aA=", NULL, 0, "base64 text of 3 characters is not a whole number of bytes"}, /* a pad that ends no group */
        {"aGk==", NULL, 0, "base64 text of 5 characters is not a whole number of bytes"},
    };
    check_decode_rows(cases, sizeof cases / sizeof cases[0]);
}

TEST(a_nul_inside_the_length_is_a_bad_byte_not_the_end) {
    uint8_t *bytes;
    size_t size;
    kiln_error err = {0};
    CHECK(!kiln_base64_decode("aG\0k", 4, &bytes, &size, &err));
    CHECK(strcmp(err.message, "invalid base64 byte 0x00 at offset 2") == 0);
}

TEST(encode_pads_and_round_trips_every_tail_length) {
    static const char *const expected[] = {"", "AA==", "AAE=", "AAEC", "AAECAw=="};
    const uint8_t source[] = {0, 1, 2, 3};
    for (size_t n = 0; n <= 4; n++) {
        char *text = kiln_base64_encode(source, n);
        CHECK(text);
        CHECK_MSG(strcmp(text, expected[n]) == 0, "%zu bytes: \"%s\"", n, text);
        uint8_t *bytes;
        size_t size;
        CHECK(kiln_base64_decode(text, strlen(text), &bytes, &size, NULL));
        CHECK_MSG(size == n && (n == 0 || memcmp(bytes, source, n) == 0), "%zu bytes did not round-trip", n);
        free(bytes);
        free(text);
    }
}

TEST_MAIN(T(valid_text_decodes_to_its_bytes), T(padding_is_optional), T(a_bad_character_is_named_with_its_offset),
          T(a_length_that_leaves_stray_bits_is_refused), T(a_nul_inside_the_length_is_a_bad_byte_not_the_end),
          T(encode_pads_and_round_trips_every_tail_length))
