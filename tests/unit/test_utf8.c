/* UTF-8 kept valid when messages are cut or quote bad input (#12, class 4: error text became
 * out_of_memory when a cut split a character and jansson refused the reply). */
#include <kiln/core/error.h>
#include <kiln/core/log.h>
#include <kiln/core/utf8.h>

#include "test.h"

typedef struct sequence_case {
    const char *bytes;
    size_t n;
    size_t expected; /* kiln_utf8_sequence_length */
} sequence_case;

TEST(sequence_lengths_follow_the_well_formed_table) {
    static const sequence_case cases[] = {
        {"A", 1, 1},
        {"\xC3\xA9", 2, 2},             /* é */
        {"\xE2\x82\xAC", 3, 3},         /* € */
        {"\xF0\x9F\x94\xA5", 4, 4},     /* U+1F525 */
        {"\xF4\x8F\xBF\xBF", 4, 4},     /* U+10FFFF, the last code point */
        {"\xED\x9F\xBF", 3, 3},         /* U+D7FF, just below the surrogates */
        {"\x80", 1, 0},                 /* a continuation byte alone */
        {"\xC0\xAF", 2, 0},             /* overlong '/' */
        {"\xC1\xBF", 2, 0},             /* overlong */
        {"\xE0\x80\xAF", 3, 0},         /* overlong, three bytes */
        {"\xF0\x80\x80\xAF", 4, 0},     /* overlong, four bytes */
        {"\xED\xA0\x80", 3, 0},         /* U+D800, a surrogate */
        {"\xF4\x90\x80\x80", 4, 0},     /* U+110000, past the last code point */
        {"\xF5\x80\x80\x80", 4, 0},     /* F5 never leads */
        {"\xFF", 1, 0},
        {"\xE2\x82", 2, 0},             /* cut short */
        {"\xC3\x41", 2, 0},             /* a lead followed by ASCII */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        CHECK_MSG(kiln_utf8_sequence_length(cases[i].bytes, cases[i].n) == cases[i].expected, "case %zu", i);
}

TEST(check_names_the_first_bad_byte) {
    size_t at = 99;
    CHECK(kiln_utf8_check("caf\xC3\xA9", 5, &at));
    CHECK_EQ_INT(at, 99);
    CHECK(!kiln_utf8_check("ab\xC3\xA9\xFF" "cd", 7, &at));
    CHECK_EQ_INT(at, 4);
    CHECK(!kiln_utf8_check("ok\xE2\x82", 4, &at)); /* a sequence cut short at the end */
    CHECK_EQ_INT(at, 2);
}

typedef struct repair_case {
    const char *in, *out;
    size_t changed;
} repair_case;

TEST(repair_drops_a_cut_tail_and_marks_other_bad_bytes) {
    static const repair_case cases[] = {
        {"plain", "plain", 0},
        {"caf\xC3\xA9", "caf\xC3\xA9", 0},
        {"caf\xC3", "caf", 1},                   /* a cut after the lead byte */
        {"euro \xE2\x82", "euro ", 2},           /* a cut inside a three-byte sequence */
        {"fire \xF0\x9F\x94", "fire ", 3},       /* inside a four-byte one */
        {"a\xFF" "b", "a?b", 1},                 /* garbage in the middle */
        {"a\xC0\xAF" "b", "a??b", 2},            /* an overlong: both bytes */
        {"end\x80", "end?", 1},                  /* a stray continuation at the end is no cut */
        {"sur\xED\xA0\x80", "sur???", 3},        /* a surrogate is garbage, not a cut */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", cases[i].in);
        size_t changed = kiln_utf8_repair(buf);
        CHECK_MSG(strcmp(buf, cases[i].out) == 0 && changed == cases[i].changed, "case %zu: '%s', %zu changed", i, buf,
                  changed);
    }
}

/* Every cut of a text of one-, two-, three- and four-byte characters is a whole-character prefix. */
TEST(format_cuts_at_a_character_boundary_at_every_size) {
    const char *text = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x94\xA5z\xC3\xA9\xE2\x82\xAC";
    size_t full = strlen(text);
    for (size_t size = 1; size <= full + 1; size++) {
        char buf[32];
        size_t n = kiln_utf8_format(buf, size, "%s", text);
        CHECK_MSG(n < size && n == strlen(buf), "size %zu", size);
        CHECK_MSG(kiln_utf8_check(buf, n, NULL), "size %zu: not UTF-8", size);
        CHECK_MSG(strncmp(buf, text, n) == 0, "size %zu: not a prefix", size);
        /* Whole characters only: the cut drops fewer than 4 bytes of what fitted. */
        CHECK_MSG(size - 1 - n < 4 || n == full, "size %zu: %zu bytes kept", size, n);
    }
}

TEST(error_and_log_messages_stay_utf8_when_cut) {
    char long_text[1200] = "";
    for (int i = 0; i < 399; i++) strcat(long_text, "\xE2\x82\xAC"); /* 1197 bytes of euro signs */
    kiln_error err;
    kiln_error_set(&err, KILN_ERR_FORMAT, "x%s", long_text); /* 'x' shifts the cut into a character */
    size_t n = strlen(err.message);
    CHECK(kiln_utf8_check(err.message, n, NULL));
    CHECK_EQ_INT(n, 1 + 3 * ((sizeof err.message - 2) / 3));
    kiln_error_set(&err, KILN_ERR_FORMAT, "quoted input: '%s'", "bad \xFF byte");
    CHECK(strcmp(err.message, "quoted input: 'bad ? byte'") == 0);
    kiln_log log;
    CHECK(kiln_log_init(&log, 4));
    kiln_log_add(&log, KILN_LOG_WARN, "category \xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC\xE2\x82\xAC",
                 "x%s", long_text);
    kiln_log_record r;
    CHECK(kiln_log_take(&log, &r));
    CHECK(kiln_utf8_check(r.message, strlen(r.message), NULL));
    CHECK(kiln_utf8_check(r.category, strlen(r.category), NULL));
    CHECK_EQ_INT(strlen(r.category), 9 + 21); /* seven whole euro signs fit in 31 bytes */
    kiln_log_free(&log);
}

TEST_MAIN(T(sequence_lengths_follow_the_well_formed_table), T(check_names_the_first_bad_byte),
          T(repair_drops_a_cut_tail_and_marks_other_bad_bytes), T(format_cuts_at_a_character_boundary_at_every_size),
          T(error_and_log_messages_stay_utf8_when_cut))
