/* The log ring: order, overwrite when full, take, clear, truncation and category counts. */
#include <kiln/core/log.h>

#include "test.h"

TEST(records_are_read_back_oldest_first) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 8));
    kiln_log_add(&log, KILN_LOG_INFO, "gfx", "first %d", 1);
    kiln_log_add(&log, KILN_LOG_WARN, "shader", "second");
    CHECK_EQ_INT(kiln_log_count(&log), 2);
    const kiln_log_record *r0 = kiln_log_at(&log, 0), *r1 = kiln_log_at(&log, 1);
    CHECK(r0 && r1);
    CHECK(strcmp(r0->message, "first 1") == 0 && strcmp(r0->category, "gfx") == 0);
    CHECK(r0->level == KILN_LOG_INFO);
    CHECK(strcmp(r1->message, "second") == 0 && r1->level == KILN_LOG_WARN);
    kiln_log_free(&log);
}

TEST(at_past_the_end_is_null) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 4));
    kiln_log_add(&log, KILN_LOG_INFO, "a", "x");
    CHECK(kiln_log_at(&log, 1) == NULL);
    CHECK(kiln_log_at(&log, 4) == NULL);
    kiln_log_free(&log);
}

TEST(full_ring_overwrites_the_oldest_and_counts_it_dropped) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 3));
    for (int i = 0; i < 5; i++) kiln_log_add(&log, KILN_LOG_INFO, "n", "%d", i);
    CHECK_EQ_INT(kiln_log_count(&log), 3);
    CHECK_EQ_INT(log.dropped, 2);
    CHECK(strcmp(kiln_log_at(&log, 0)->message, "2") == 0);
    CHECK(strcmp(kiln_log_at(&log, 2)->message, "4") == 0);
    kiln_log_free(&log);
}

TEST(take_pops_the_oldest_until_empty) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 2));
    kiln_log_add(&log, KILN_LOG_DEBUG, "c", "a");
    kiln_log_add(&log, KILN_LOG_DEBUG, "c", "b");
    kiln_log_add(&log, KILN_LOG_ERROR, "c", "c"); /* wraps: holds b, c */
    kiln_log_record r;
    CHECK(kiln_log_take(&log, &r));
    CHECK(strcmp(r.message, "b") == 0);
    CHECK(kiln_log_take(&log, &r));
    CHECK(strcmp(r.message, "c") == 0 && r.level == KILN_LOG_ERROR);
    CHECK(!kiln_log_take(&log, &r));
    CHECK_EQ_INT(kiln_log_count(&log), 0);
    kiln_log_free(&log);
}

TEST(clear_empties_but_keeps_the_dropped_count) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 1));
    kiln_log_add(&log, KILN_LOG_INFO, "c", "a");
    kiln_log_add(&log, KILN_LOG_INFO, "c", "b");
    kiln_log_clear(&log);
    CHECK_EQ_INT(kiln_log_count(&log), 0);
    CHECK_EQ_INT(log.dropped, 1);
    kiln_log_add(&log, KILN_LOG_INFO, "c", "after");
    CHECK(strcmp(kiln_log_at(&log, 0)->message, "after") == 0);
    kiln_log_free(&log);
}

TEST(long_messages_and_categories_are_truncated) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 2));
    char long_text[1000];
    memset(long_text, 'x', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    kiln_log_add(&log, KILN_LOG_INFO, long_text, "%s", long_text);
    const kiln_log_record *r = kiln_log_at(&log, 0);
    CHECK_EQ_INT(strlen(r->message), sizeof r->message - 1);
    CHECK_EQ_INT(strlen(r->category), sizeof r->category - 1);
    kiln_log_free(&log);
}

TEST(count_category_matches_exactly) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 8));
    kiln_log_add(&log, KILN_LOG_INFO, "gfx", "a");
    kiln_log_add(&log, KILN_LOG_INFO, "gfx2", "b");
    kiln_log_add(&log, KILN_LOG_WARN, "gfx", "c");
    kiln_log_add(&log, KILN_LOG_WARN, "gf", "d");
    CHECK_EQ_INT(kiln_log_count_category(&log, "gfx"), 2);
    CHECK_EQ_INT(kiln_log_count_category(&log, "shader"), 0);
    kiln_log_free(&log);
}

TEST(null_category_and_format_are_stored_empty) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 2));
    kiln_log_add(&log, KILN_LOG_INFO, NULL, NULL);
    const kiln_log_record *r = kiln_log_at(&log, 0);
    CHECK(r && r->category[0] == '\0' && r->message[0] == '\0');
    kiln_log_free(&log);
}

static void add_with_prefix(kiln_log *log, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    kiln_log_vadd(log, KILN_LOG_WARN, "wrapped", fmt, args);
    va_end(args);
}

TEST(vadd_formats_a_va_list) {
    kiln_log log;
    CHECK(kiln_log_init(&log, 2));
    add_with_prefix(&log, "%s=%d", "answer", 42);
    CHECK(strcmp(kiln_log_at(&log, 0)->message, "answer=42") == 0);
    kiln_log_free(&log);
}

TEST(init_rejects_zero_capacity_and_the_log_stays_usable) {
    kiln_log log;
    CHECK(!kiln_log_init(&log, 0));
    kiln_log_add(&log, KILN_LOG_INFO, "c", "ignored");
    CHECK_EQ_INT(kiln_log_count(&log), 0);
    CHECK(!kiln_log_take(&log, NULL));
    kiln_log_free(&log);
}

TEST(level_names_are_lower_case_words) {
    CHECK(strcmp(kiln_log_level_name(KILN_LOG_DEBUG), "debug") == 0);
    CHECK(strcmp(kiln_log_level_name(KILN_LOG_INFO), "info") == 0);
    CHECK(strcmp(kiln_log_level_name(KILN_LOG_WARN), "warn") == 0);
    CHECK(strcmp(kiln_log_level_name(KILN_LOG_ERROR), "error") == 0);
    CHECK(strcmp(kiln_log_level_name((kiln_log_level)99), "unknown") == 0);
}

TEST_MAIN(T(records_are_read_back_oldest_first), T(at_past_the_end_is_null),
          T(full_ring_overwrites_the_oldest_and_counts_it_dropped),
          T(take_pops_the_oldest_until_empty), T(clear_empties_but_keeps_the_dropped_count),
          T(long_messages_and_categories_are_truncated), T(count_category_matches_exactly),
          T(null_category_and_format_are_stored_empty), T(vadd_formats_a_va_list),
          T(init_rejects_zero_capacity_and_the_log_stays_usable),
          T(level_names_are_lower_case_words))
