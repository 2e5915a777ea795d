/* The .cube colour table parser (src/assets/color_lut.c), without a GPU: a table in every
 * accepted spelling parses to its entries in file order, and every malformed file is refused
 * with the file, the line and the reason, numbered rows as SQLite's tests are. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kiln/assets/color_lut.h>

#include "test.h"

/* The identity table of size 2, red fastest. */
#define IDENTITY_2 "0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"

TEST(a_table_parses_to_its_entries_red_fastest) {
    const char *text = "# made by hand\nTITLE \"two\"\n\nLUT_3D_SIZE 2\r\n" IDENTITY_2;
    kiln_color_lut lut;
    kiln_error err = {0};
    CHECK_MSG(kiln_color_lut_parse(text, strlen(text), "two.cube", &lut, &err), "%s", err.message);
    CHECK_EQ_INT(lut.size, 2);
    CHECK(!strcmp(lut.title, "two"));
    CHECK(lut.domain_min.x == 0.0f && lut.domain_max.z == 1.0f);
    /* entry 1 is (r 1, g 0, b 0); entry 6 is (r 0, g 1, b 1) */
    CHECK(lut.rgb[3] == 1.0f && lut.rgb[4] == 0.0f && lut.rgb[5] == 0.0f);
    CHECK(lut.rgb[18] == 0.0f && lut.rgb[19] == 1.0f && lut.rgb[20] == 1.0f);
    kiln_color_lut_free(&lut);
    CHECK(lut.rgb == NULL);
}

TEST(domains_come_from_either_spelling) {
    const char *text = "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0.1 0\nDOMAIN_MAX 1 2 4\n" IDENTITY_2;
    kiln_color_lut lut;
    kiln_error err = {0};
    CHECK_MSG(kiln_color_lut_parse(text, strlen(text), "d.cube", &lut, &err), "%s", err.message);
    CHECK(lut.domain_min.y == 0.1f && lut.domain_max.y == 2.0f && lut.domain_max.z == 4.0f);
    kiln_color_lut_free(&lut);
    text = "LUT_3D_INPUT_RANGE -0.5 1.5\nLUT_3D_SIZE 2\n" IDENTITY_2;
    CHECK_MSG(kiln_color_lut_parse(text, strlen(text), "r.cube", &lut, &err), "%s", err.message);
    CHECK(lut.domain_min.x == -0.5f && lut.domain_max.z == 1.5f);
    kiln_color_lut_free(&lut);
}

TEST(a_malformed_file_names_its_line_and_reason) {
    static const struct {
        const char *id, *text, *message;
    } rows[] = {
        {"cube-1", "", "bad.cube: no LUT_3D_SIZE line"},
        {"cube-2", "LUT_3D_SIZE 2\n0 0 0\n", "bad.cube: the table has 1 entries; LUT_3D_SIZE 2 needs 8"},
        {"cube-3", "LUT_3D_SIZE 2\n0 0\n", "bad.cube:2: expected 3 numbers, got 2"},
        {"cube-4", "LUT_3D_SIZE 2\n0 0 0 0\n", "bad.cube:2: expected 3 numbers, got more"},
        {"cube-5", "LUT_3D_SIZE 2\n0 x 0\n", "bad.cube:2: 'x' is not a number"},
        {"cube-6", "LUT_3D_SIZE 2\n0 nan 0\n", "bad.cube:2: 'nan' is not a finite number"},
        {"cube-7", "LUT_3D_SIZE 1\n", "bad.cube:1: LUT_3D_SIZE 1 is not a whole number in 2..128"},
        {"cube-8", "LUT_3D_SIZE 2.5\n", "bad.cube:1: LUT_3D_SIZE 2.5 is not a whole number in 2..128"},
        {"cube-9", "LUT_3D_SIZE 4096\n", "bad.cube:1: LUT_3D_SIZE 4096 is not a whole number in 2..128"},
        {"cube-10", "LUT_3D_SIZE 2\nLUT_3D_SIZE 2\n", "bad.cube:2: a second LUT_3D_SIZE"},
        {"cube-11", "0 0 0\n", "bad.cube:1: a table entry before LUT_3D_SIZE"},
        {"cube-12", "LUT_1D_SIZE 16\n", "bad.cube:1: 1D tables (LUT_1D_SIZE) are not supported, only 3D"},
        {"cube-13", "LUT_3D_SIZE 2\nGAMMA 2.2\n", "bad.cube:2: unknown keyword 'GAMMA'"},
        {"cube-14", "LUT_3D_SIZE 2\n0 0 0\nTITLE \"late\"\n", "bad.cube:3: keyword 'TITLE' after the table's first entry"},
        {"cube-15", "LUT_3D_SIZE 2\n" IDENTITY_2 "1 1 1\n", "bad.cube:10: more than the 8 entries LUT_3D_SIZE 2 has"},
        {"cube-16", "LUT_3D_SIZE 2\nDOMAIN_MAX 1 0 1\n" IDENTITY_2,
         "bad.cube: DOMAIN_MAX (1 0 1) is not above DOMAIN_MIN (0 0 0) in every channel"},
        {"cube-17", "LUT_3D_SIZE 2\nDOMAIN_MIN 0 0\n", "bad.cube:2: expected 3 numbers, got 2"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        kiln_color_lut lut = {.size = 99};
        kiln_error err = {0};
        CHECK_MSG(!kiln_color_lut_parse(rows[i].text, strlen(rows[i].text), "bad.cube", &lut, &err), "%s: accepted",
                  rows[i].id);
        CHECK_MSG(!strcmp(err.message, rows[i].message), "%s: got '%s', want '%s'", rows[i].id, err.message,
                  rows[i].message);
        CHECK_MSG(lut.size == 99, "%s: the output was changed", rows[i].id);
    }
}

TEST(a_nul_byte_or_an_overlong_line_is_refused) {
    kiln_color_lut lut;
    kiln_error err = {0};
    const char nul[] = "LUT_3D_SIZE 2\n0 \0 0\n";
    CHECK(!kiln_color_lut_parse(nul, sizeof nul - 1, "nul.cube", &lut, &err));
    CHECK_MSG(!strcmp(err.message, "nul.cube:2: a NUL byte: not a text file"), "%s", err.message);
    static char long_line[2100];
    memset(long_line, '1', sizeof long_line - 1);
    CHECK(!kiln_color_lut_parse(long_line, strlen(long_line), "long.cube", &lut, &err));
    CHECK_MSG(!strcmp(err.message, "long.cube:1: a line longer than 1023 characters"), "%s", err.message);
}

TEST(a_missing_file_is_refused_naming_it) {
    kiln_color_lut lut;
    kiln_error err = {0};
    CHECK(!kiln_color_lut_load("/nonexistent/look.cube", &lut, &err));
    CHECK_STR_CONTAINS(err.message, "/nonexistent/look.cube");
}

TEST_MAIN(T(a_table_parses_to_its_entries_red_fastest), T(domains_come_from_either_spelling),
          T(a_malformed_file_names_its_line_and_reason), T(a_nul_byte_or_an_overlong_line_is_refused),
          T(a_missing_file_is_refused_naming_it))
